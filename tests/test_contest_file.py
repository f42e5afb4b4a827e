"""The contest file: read with tomllib, every mistake named with its file and line, its
values the defaults of validate, report, batch, draw and solve, options winning."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mail_helpers import DICE, inbox, write_mbox

from validator.cli import main
from validator.contest.config import ContestError, find_contest, load_contest

ROOT = Path(__file__).resolve().parent.parent
ALICE = ROOT / "examples" / "alice.yaml"

GOOD = """\
name = "Winter challenge"
dice = "dice.txt"
rules = "standard"
deadline = 2026-12-20T23:59:59+01:00
organizer = "challenge@organizers.example"
lang = "de"
max_size = "512KiB"
[draw]
winners = 3
seed = "announced"
"""


def run(*args: object, cwd: Path | None = None) -> Any:
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)
    with runner.isolated_filesystem(temp_dir=cwd):
        import os

        os.chdir(cwd)
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)


def contest_folder(tmp_path: Path, text: str = GOOD) -> Path:
    shutil.copyfile(DICE, tmp_path / "dice.txt")
    (tmp_path / "road300.toml").write_text(text)
    return tmp_path


def test_a_good_file_reads(tmp_path: Path) -> None:
    contest = load_contest(contest_folder(tmp_path) / "road300.toml")
    assert contest.name == "Winter challenge"
    assert contest.dice == tmp_path / "dice.txt"
    assert contest.deadline is not None and contest.deadline.utcoffset() is not None
    assert contest.max_size == 512 * 1024
    assert (contest.winners, contest.seed, contest.lang) == (3, "announced", "de")


def test_a_rules_file_is_relative_to_the_contest_file_as_the_dice_file_is(tmp_path: Path) -> None:
    shutil.copyfile(ROOT / "examples" / "rules" / "house-rules.yaml", tmp_path / "house.yaml")
    contest = load_contest(
        contest_folder(tmp_path, 'rules = "house.yaml+rings=2"\n') / "road300.toml"
    )
    assert contest.rules == f"{tmp_path / 'house.yaml'}+rings=2"


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        ('name = "x"\nnmae = "y"\n', ":2:", "did you mean 'name'"),
        ('name = "x"\n[draw]\nwinner = 2\n', ":3:", "did you mean 'winners'"),
        ("deadline = 2026-12-20T23:59:59\n", ":1:", "offset"),
        (
            "deadline = 2026-12-20\n",
            ":1:",
            "a date without a time, or a time without a date: give a",
        ),
        ('deadline = "soon"\n', ":1:", "deadline: not a TOML datetime with offset"),
        ('name = "x"\nrules = "standrad"\n', ":2:", "rules: unknown ruleset 'standrad'"),
        ('rules = "standard+rigns"\n', ":1:", "rules: "),
        ('rules = "house.yaml"\n', ":1:", "rules: house.yaml: cannot read the rules file"),
        ('\n\nmax_size = "lots"\n', ":3:", "not a size"),
        ('organizer = "nobody"\n', ":1:", "not an e-mail address"),
        ('organizer = "a@example.org, c@example.org"\n', ":1:", "more than one address"),
        ('organizer = "Org <o@example.org>\\nBcc: x@evil.example"\n', ":1:", "a line break"),
        ('\norganizer = "o@example.org\\u0007"\n', ":2:", "a control character"),
        ("[draw]\nwinners = 0\n", ":2:", "1 or more"),
        ('name = "x\n', ":1:", "not valid TOML"),
        ("dice = 3\n", ":1:", "non-empty string"),
        ('name = "x"\nlang = "es"\n', ":2:", "lang: 'es' is not a language road300 speaks"),
        ('\nlang = "de_DE"\n', ":2:", "(en, de, fr)"),
        ("lang = 1\n", ":1:", "non-empty string"),
    ],
)
def test_mistakes_name_the_file_and_line(tmp_path: Path, text: str, where: str, says: str) -> None:
    path = tmp_path / "contest.toml"
    path.write_text(text)
    with pytest.raises(ContestError) as caught:
        load_contest(path)
    message = str(caught.value)
    assert message.startswith(f"{path}{where}"), message
    assert says in message


def test_a_bad_contest_file_stops_the_command(tmp_path: Path) -> None:
    contest_folder(tmp_path, "nmae = 1\n")
    result = run("validate", ALICE, "--contest", tmp_path / "road300.toml")
    assert result.exit_code == 2
    assert "road300.toml:1: nmae: unknown key" in result.output
    assert "Traceback" not in result.output


def test_it_is_found_beside_the_source_or_in_the_current_folder(tmp_path: Path) -> None:
    folder = contest_folder(tmp_path)
    entries = folder / "entries"
    entries.mkdir()
    assert find_contest(entries) == folder / "road300.toml"
    assert find_contest(folder / "inbox.mbox") == folder / "road300.toml"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert find_contest(elsewhere / "x", cwd=folder) == folder / "road300.toml"


def test_validate_report_and_solve_take_the_dice_from_it(tmp_path: Path) -> None:
    folder = contest_folder(tmp_path)
    record = folder / "alice.yaml"
    record.write_text(ALICE.read_text().replace("dice_file: challenge.txt\n", ""))
    result = run("validate", record, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["score"] == 340
    result = run("report", record, "--format", "md")
    assert result.exit_code == 0, result.output
    # The smallest budget (the search's first game always plays to its end): the dice file
    # is the contest's whatever the search finds.
    result = run("solve", "--contest", folder / "road300.toml", "--nodes", "1")
    assert result.exit_code == 0, result.output
    assert f"{folder / 'dice.txt'}: best score at least" in result.output


def test_options_override_it(tmp_path: Path) -> None:
    folder = contest_folder(tmp_path, GOOD.replace('max_size = "512KiB"', 'max_size = "1KiB"'))
    mbox = write_mbox(inbox("alice-first", "german-qp"), folder / "inbox.mbox")
    data = json.loads(run("batch", mbox, "--format", "json", "-j", "1").stdout)
    # The contest's deadline: nothing is late; its 1 KiB cap: the attachment... the bodies
    # are small, the first message's record is over 1 KiB.
    assert {e["late"] for e in data["entries"]} == {False}
    assert any(
        "more than the 1 KiB allowed" in (e["error"] or {}).get("message", "")
        for e in data["entries"]
    )
    data = json.loads(
        run(
            "batch",
            mbox,
            "--format",
            "json",
            "-j",
            "1",
            "--deadline",
            "2026-12-01T00:00:00Z",
            "--max-size",
            "1MiB",
        ).stdout
    )
    assert {e["late"] for e in data["entries"]} == {True}
    assert all(e["verdict"] == "valid" for e in data["entries"])


def test_the_site_takes_its_name_from_it(tmp_path: Path) -> None:
    folder = contest_folder(tmp_path)
    mbox = write_mbox(inbox("alice-first"), folder / "inbox.mbox")
    # The file says lang = "de"; --lang en beats it (docs/languages.md).
    site = folder / "site"
    assert run("batch", mbox, "--site", site, "-j", "1", "--lang", "en").exit_code == 0
    index = (folder / "site" / "index.html").read_text()
    assert "<title>Winter challenge: results</title>" in index
    assert "The seed: announced." in index and "3 winners" in index


def test_the_site_speaks_its_lang(tmp_path: Path) -> None:
    folder = contest_folder(tmp_path)
    mbox = write_mbox(inbox("alice-first"), folder / "inbox.mbox")
    assert run("batch", mbox, "--site", folder / "site", "-j", "1").exit_code == 0
    index = (folder / "site" / "index.html").read_text()
    assert '<html lang="de">' in index
    assert "<title>Winter challenge: Ergebnisse</title>" in index
    assert "Der Seed: announced." in index and "3 Gewinner" in index


def test_draw_takes_winners_and_seed_from_it(tmp_path: Path) -> None:
    folder = contest_folder(tmp_path)
    mbox = write_mbox(inbox("alice-first"), folder / "inbox.mbox")
    out = folder / "results.json"
    assert run("batch", mbox, "--output", out, "-j", "1").exit_code == 0
    result = run("draw", out, "--min-score", "0")
    assert result.exit_code == 0, result.output
    assert "Seed: 'announced'" in result.output
    assert "--winners 3" in result.output


def test_contest_init_writes_a_commented_file_that_reads_back(tmp_path: Path) -> None:
    target = tmp_path / "road300.toml"
    result = run("contest", "init", target, "--name", 'The "big" one')
    assert result.exit_code == 0, result.output
    text = target.read_text()
    assert text.count("\n#") >= 5
    contest = load_contest(target)
    assert contest.name == 'The "big" one' and contest.winners == 3
    # No placeholder seed that the site would publish and the draw would draw with.
    assert contest.seed is None and "# seed = " in text
    again = run("contest", "init", target)
    assert again.exit_code == 2 and "--force" in again.output
    assert "choose another FILE" in again.output  # contest init has no --output


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--organizer", "nobody", "is not an e-mail address"),
        ("--organizer", "Org <o@example.org>\nBcc: x@evil.example", "a line break"),
        ("--organizer", "a@example.org, c@example.org", "more than one address"),
        ("--name", "", "must be a non-empty string"),
    ],
)
def test_contest_init_refuses_values_that_would_not_read_back_and_writes_nothing(
    tmp_path: Path, option: str, value: str, words: str
) -> None:
    target = tmp_path / "road300.toml"
    result = run("contest", "init", target, option, value)
    assert (
        result.exit_code == 2 and words in result.output and "nothing was written" in result.output
    )
    assert not target.exists()


def test_contest_init_leaves_unknown_values_commented_out(tmp_path: Path) -> None:
    """No made-up deadline or organizer taken for real values: without the options they
    are commented out, so no mail is late and `batch --replies` names the key to set."""
    folder = tmp_path
    result = run("contest", "init", folder / "road300.toml")
    assert result.exit_code == 0, result.output
    assert "road300.toml: deadline and organizer left commented out: set them" in result.output
    text = (folder / "road300.toml").read_text()
    assert "\n# deadline = 2026-12-20T23:59:59+01:00\n" in text
    assert '\n# organizer = "Winter challenge <challenge@organizers.example>"\n' in text
    contest = load_contest(folder / "road300.toml")
    assert (contest.deadline, contest.organizer) == (None, None)
    shutil.copyfile(DICE, folder / "dice.txt")
    mbox = write_mbox(inbox("alice-first"), folder / "inbox.mbox")
    replies = run("batch", mbox, "--replies", folder / "replies", "-j", "1")
    assert replies.exit_code == 2
    assert (
        "--replies needs the replies' From: give --organizer ADDRESS, or set organizer = "
        f'"Winter challenge <challenge@organizers.example>" in {folder / "road300.toml"}'
    ) in " ".join(replies.stderr.split())
    assert not (folder / "replies").exists()
    given = run(
        "contest", "init", folder / "other.toml", "--organizer", "a@b.example",
        "--deadline", "2026-12-20T23:59:59+01:00",
    )  # fmt: skip
    assert given.exit_code == 0 and "commented out" not in given.output, given.output
    other = load_contest(folder / "other.toml")
    assert other.organizer == "a@b.example"
    assert other.deadline is not None and other.deadline.isoformat() == "2026-12-20T23:59:59+01:00"


def test_draw_without_a_seed_says_where_to_set_it(tmp_path: Path) -> None:
    """`road300 draw results.json`, as docs/contest.md writes it, before the seed is in
    the contest file: the message points to [draw] seed in that file, not only --seed."""
    folder = contest_folder(tmp_path, GOOD.replace('seed = "announced"\n', ""))
    mbox = write_mbox(inbox("alice-first"), folder / "inbox.mbox")
    out = folder / "results.json"
    assert run("batch", mbox, "--output", out, "-j", "1").exit_code == 0
    result = run("draw", out)
    assert result.exit_code == 2
    said = " ".join(result.stderr.split())
    assert "Missing option" not in said
    assert (
        "no seed for the draw: announce one before it, then give --seed TEXT, or set "
        f'seed = "2026-12-21 lottery 17 23 42" under [draw] in {folder / "road300.toml"}'
    ) in said
