"""`road300 draw` through the real CLI: reproducible, order-independent, only eligible entries,
and the documented SHA-256 recipe recomputed here from scratch."""

from __future__ import annotations

import csv
import hashlib
import json
import random
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from validator.cli import main

ROOT = Path(__file__).resolve().parent.parent
DICE = ROOT / "examples" / "challenge.txt"

ELIGIBLE = [f"p{n:02d}/record.yaml" for n in range(20)]
NOT_ELIGIBLE: list[dict[str, Any]] = [
    {"file": "low.yaml", "verdict": "valid", "score": 299},
    {"file": "early.yaml", "verdict": "incomplete", "score": 320},
    {"file": "cheat.yaml", "verdict": "invalid", "score": 340},
    {"file": "broken.yaml", "verdict": "malformed", "score": None},
]


def results(path: Path, order_seed: int = 0) -> Path:
    entries: list[dict[str, Any]] = [
        {"file": f, "verdict": "valid", "score": 300 + n, "player": f"P{n}", "copies": []}
        for n, f in enumerate(ELIGIBLE)
    ]
    entries += [{**e, "player": None, "copies": []} for e in NOT_ELIGIBLE]
    random.Random(order_seed).shuffle(entries)
    path.write_text(json.dumps({"entries": entries, "summary": {}}))
    return path


def draw(*args: str | Path) -> Any:
    return CliRunner().invoke(main, ["draw", *map(str, args)])


def winners(output: str) -> list[str]:
    return re.findall(r"^  \d+\. .*?(\S+)  \(\d+ points\)$", output, re.M)


def expected(seed: str, k: int) -> list[str]:
    """The recipe of docs/batch.md, written out independently of validator.contest.draw."""
    files = sorted(ELIGIBLE)
    listed = hashlib.sha256("\n".join(files).encode()).hexdigest()

    def key(f: str) -> str:
        return hashlib.sha256(f"road300-draw\0{seed}\0{listed}\0{f}".encode()).hexdigest()

    return sorted(files, key=key)[:k]


@pytest.mark.parametrize("seed", ["2024-06-01", "lottery 17 23 42", "ü", ""])
def test_follows_the_documented_recipe(tmp_path: Path, seed: str) -> None:
    out = draw(results(tmp_path / "r.json"), "--winners", "3", "--seed", seed)
    assert out.exit_code == 0, out.output
    assert winners(out.stdout) == expected(seed, 3)


def test_same_seed_same_winners_whatever_the_order(tmp_path: Path) -> None:
    picks = {
        tuple(winners(draw(results(tmp_path / f"r{n}.json", n), "-n", "3", "--seed", "x").stdout))
        for n in range(4)
    }
    assert len(picks) == 1


def test_the_seed_matters(tmp_path: Path) -> None:
    path = results(tmp_path / "r.json")
    picks = {tuple(winners(draw(path, "--seed", s).stdout)) for s in "abcdefgh"}
    assert len(picks) > 1


def test_only_valid_entries_with_300(tmp_path: Path) -> None:
    out = draw(results(tmp_path / "r.json"), "--winners", "50", "--seed", "s")
    assert sorted(winners(out.stdout)) == sorted(ELIGIBLE)
    assert "Only 20 eligible for 50 prizes" in out.stdout


def test_rerun_command_gives_the_same_draw(tmp_path: Path) -> None:
    path = results(tmp_path / "r.json")
    first = draw(path, "--winners", "2", "--seed", "it's a 'seed'")
    line = next(x for x in first.stdout.splitlines() if x.startswith("Re-run the draw: "))
    argv = shlex.split(line.removeprefix("Re-run the draw: "))
    assert argv[:2] == ["road300", "draw"]
    again = draw(*argv[2:])
    assert again.stdout == first.stdout


def test_nobody_eligible(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"entries": NOT_ELIGIBLE}))
    out = draw(path, "--seed", "s")
    assert out.exit_code == 1
    assert "nobody can be drawn" in out.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"entries": [', "r.json:1:14: not valid JSON"),
        ('{"results": []}', 'no "entries" list'),
        ('{"entries": [{"verdict": "valid"}]}', 'entry 1: "file": Field required'),
        ('{"entries": [{"file": "a", "verdict": "valid", "score": 3.5}]}', 'entry 1 (a): "score"'),
    ],
)
def test_unusable_results(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(text)
    out = draw(path, "--seed", "s")
    assert out.exit_code == 2
    assert message in out.stderr


def test_missing_results(tmp_path: Path) -> None:
    out = draw(tmp_path / "nope.json", "--seed", "s")
    assert out.exit_code == 2
    assert "no such file" in out.stderr


def test_from_a_real_batch_json_and_csv(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    shutil.copytree(Path(__file__).parent / "batch_cases" / "contest" / "entries", folder)
    runner = CliRunner()
    for name in ("results.json", "results.csv"):
        done = runner.invoke(
            main, ["batch", str(folder), "--dice", str(DICE), "-o", str(tmp_path / name), "-j", "1"]
        )
        assert done.exit_code == 0, done.output
    by_json = draw(tmp_path / "results.json", "-n", "5", "--seed", "s")
    by_csv = draw(tmp_path / "results.csv", "-n", "5", "--seed", "s")
    assert winners(by_json.stdout) == winners(by_csv.stdout)
    assert sorted(winners(by_json.stdout)) == ["alice/record.yaml", "bob.json"]
    assert "played the same game as another entry" in by_json.stdout
    with (tmp_path / "results.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == 9


# -- Copies and players ------------------------------------------------------------------


def contest_results(path: Path, drop: tuple[str, ...] = ()) -> Path:
    """p00 = p01 (both eligible), p02 = cheat.yaml (invalid); Ann's three entries."""
    copies = {
        "p00.yaml": ["p01.yaml"],
        "p01.yaml": ["p00.yaml"],
        "p02.yaml": ["cheat.yaml"],
        "cheat.yaml": ["p02.yaml"],
    }
    players = {"a1.yaml": "Ann Lee", "a2.yaml": "ann  lee", "a3.yaml": " ANNLEE"}
    files = ["p00.yaml", "p01.yaml", "p02.yaml", "p03.yaml", *players]
    entries: list[dict[str, Any]] = [
        {"file": f, "verdict": "valid", "score": 300, "player": players.get(f, f[:3]),
         "copies": copies.get(f, [])}
        for f in files
    ]  # fmt: skip
    entries.append({"file": "cheat.yaml", "verdict": "invalid", "score": None,
                    "copies": copies["cheat.yaml"]})  # fmt: skip
    kept = [e for e in entries if e["file"] not in drop]
    path.write_text(json.dumps({"entries": kept, "summary": {}}))
    return path


def left_out(output: str) -> dict[str, str]:
    lines = output.split("Left out:", 1)[1].split("Seed:", 1)[0].splitlines()[1:]
    return dict(line.strip().split(": ", 1) for line in lines)


def test_copies_take_part_with_a_note(tmp_path: Path) -> None:
    out = draw(contest_results(tmp_path / "r.json"), "-n", "9", "--seed", "s")
    assert "Left out" not in out.stdout
    assert "Eligible: 7 valid entries" in out.stdout
    assert "Note: 3 eligible entries played the same game" in out.stdout
    assert "(p00.yaml, p01.yaml, p02.yaml)" in out.stdout


def test_exclude_copies_leaves_out_every_copy(tmp_path: Path) -> None:
    out = draw(contest_results(tmp_path / "r.json"), "-n", "9", "--seed", "s", "--exclude-copies")
    assert out.exit_code == 0, out.output
    assert left_out(out.stdout) == {
        "p00.yaml": "a copied game",
        "p01.yaml": "a copied game",
        "p02.yaml": "a copied game",
    }
    assert sorted(winners(out.stdout)) == ["a1.yaml", "a2.yaml", "a3.yaml", "p03.yaml"]
    assert "Note:" not in out.stdout


def test_keep_first_keeps_the_first_file_of_each_game(tmp_path: Path) -> None:
    path = contest_results(tmp_path / "r.json")
    out = draw(path, "-n", "9", "--seed", "s", "--exclude-copies", "--keep-first")
    assert left_out(out.stdout) == {
        "p01.yaml": "a copy of p00.yaml",
        "p02.yaml": "a copy of cheat.yaml",
    }
    assert "p00.yaml" in winners(out.stdout)
    assert "Note:" not in out.stdout


def test_first_counts_numbers_as_numbers_so_mail_keeps_the_mailboxs_order(
    tmp_path: Path,
) -> None:
    """inbox.mbox#2 came before #10 (and Bea's p9.yaml before her p10.yaml), though #10
    sorts first as text: the earlier one is the first of the game and the player's."""
    path = tmp_path / "r.json"
    entries = [
        {"file": "inbox.mbox#10", "verdict": "valid", "score": 300, "player": "Late",
         "copies": ["inbox.mbox#2"]},
        {"file": "inbox.mbox#2", "verdict": "valid", "score": 300, "player": "Early",
         "copies": ["inbox.mbox#10"]},
        {"file": "p10.yaml", "verdict": "valid", "score": 300, "player": "Bea", "copies": []},
        {"file": "p9.yaml", "verdict": "valid", "score": 300, "player": "Bea", "copies": []},
    ]  # fmt: skip
    path.write_text(json.dumps({"entries": entries, "summary": {}}))
    out = draw(path, "-n", "9", "--seed", "s", "--exclude-copies", "--keep-first")
    assert left_out(out.stdout) == {"inbox.mbox#10": "a copy of inbox.mbox#2"}
    one = draw(path, "-n", "9", "--seed", "s", "--one-per-player")
    assert left_out(one.stdout) == {"p10.yaml": "the same player as p9.yaml"}


def test_an_entry_removed_by_hand_no_longer_makes_copies(tmp_path: Path) -> None:
    path = contest_results(tmp_path / "r.json", drop=("p01.yaml", "cheat.yaml"))
    noted = draw(path, "-n", "9", "--seed", "s")
    assert "Note:" not in noted.stdout
    excluded = draw(path, "-n", "9", "--seed", "s", "--exclude-copies")
    assert "Left out" not in excluded.stdout
    assert sorted(winners(excluded.stdout)) == [
        "a1.yaml",
        "a2.yaml",
        "a3.yaml",
        "p00.yaml",
        "p02.yaml",
        "p03.yaml",
    ]


def test_one_per_player(tmp_path: Path) -> None:
    out = draw(contest_results(tmp_path / "r.json"), "-n", "9", "--seed", "s", "--one-per-player")
    assert left_out(out.stdout) == {
        "a2.yaml": "the same player as a1.yaml",
        "a3.yaml": "the same player as a1.yaml",
    }
    assert len(winners(out.stdout)) == 5


def test_both_filters_and_the_rerun_line(tmp_path: Path) -> None:
    path = contest_results(tmp_path / "r.json")
    first = draw(path, "-n", "2", "--seed", "x", "--exclude-copies", "--one-per-player")
    assert "Eligible: 2 valid entries" in first.stdout
    line = next(x for x in first.stdout.splitlines() if x.startswith("Re-run the draw: "))
    argv = shlex.split(line.removeprefix("Re-run the draw: "))
    assert "--exclude-copies" in argv and "--one-per-player" in argv
    assert draw(*argv[2:]).stdout == first.stdout


def test_keep_first_needs_exclude_copies(tmp_path: Path) -> None:
    out = draw(contest_results(tmp_path / "r.json"), "--seed", "s", "--keep-first")
    assert out.exit_code == 2
    assert "--keep-first goes with --exclude-copies" in out.stderr


def test_every_option_has_help() -> None:
    out = CliRunner().invoke(main, ["draw", "--help"])
    options = out.stdout.split("Options:", 1)[1]
    blocks = {b.split()[0].rstrip(","): b for b in re.split(r"\n  (?=-)", options) if b.strip()}
    assert "How many winners to draw" in " ".join(blocks["-n"].split())
    for option in ("-n", "--seed", "--min-score", "--exclude-copies", "--keep-first",
                   "--one-per-player"):  # fmt: skip
        assert len(blocks[option].split()) > 8, option


def test_csv_and_json_draw_alike_with_hostile_names(tmp_path: Path) -> None:
    from validator.check.replay import Verdict
    from validator.contest.batch import Batch, Entry
    from validator.render.registry import BATCH

    names = ["=HYPERLINK(x).yaml", "+1.yaml", "-2+3.yaml", "@SUM(1).yaml", "plain.yaml"]
    entries = tuple(Entry(f, Verdict.VALID, 300, None, None, rank=1, player=f"@{f}") for f in names)
    batch = Batch(entries, (), ())
    for fmt in ("json", "csv"):
        with (tmp_path / f"r.{fmt}").open("w", newline="") as handle:
            BATCH[fmt].load()().write(batch, handle, "entries")
    by_json = draw(tmp_path / "r.json", "-n", "5", "--seed", "s")
    by_csv = draw(tmp_path / "r.csv", "-n", "5", "--seed", "s")
    assert winners(by_json.stdout) == winners(by_csv.stdout)
    assert sorted(winners(by_csv.stdout)) == sorted(names)


def test_a_tampered_results_file_is_refused_not_a_traceback(tmp_path: Path) -> None:
    """Hand-made results: too deep, an unpaired surrogate, a CSV cell past the csv
    module's limit (three tracebacks), or one entry listed twice (two tickets)."""
    entry = {"file": "a.yaml", "verdict": "valid", "score": 300}
    cases = {
        "deep.json": "[" * 100_000 + "]" * 100_000,
        "surrogate.json": json.dumps({"entries": [{**entry, "file": "\udce9.yaml"}]}),
        "twice.json": json.dumps({"entries": [entry, entry]}),
        "long.csv": "file,verdict,score\n" + "x" * 200_000 + ",valid,300\n",
        "longhead.csv": "file,verdict,score," + "x" * 200_000 + "\na.yaml,valid,300\n",
        "twice.csv": "file,verdict,score\na.yaml,valid,300\na.yaml,valid,300\n",
    }
    said = {
        "deep.json": "nested too deeply",
        "surrogate.json": "unpaired surrogate",
        "twice.json": "a.yaml is listed twice",
        "long.csv": "field larger than field limit",
        "longhead.csv": "field larger than field limit",
        "twice.csv": "a.yaml is listed twice",
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        out = draw(path, "--seed", "s")
        assert out.exit_code == 2 and said[name] in out.stderr, (name, out.output)
        assert "Traceback" not in out.output


def test_the_first_of_copies_does_not_depend_on_the_hash_seed() -> None:
    """p1.yaml and p01.yaml count as the same number: the name itself breaks the tie, so
    that --keep-first keeps the same entry on every run (a set's order decided it)."""
    from validator.contest.batch import Entry, copy_groups
    from validator.errors import Verdict

    names = ["p1.yaml", "p01.yaml", "p001.yaml"]
    for order in (names, names[::-1], names[1:] + names[:1]):
        entries = [
            Entry(file=f, verdict=Verdict.VALID, score=300, end=None, error=None,
                  copies=tuple(n for n in names if n != f))
            for f in order
        ]  # fmt: skip
        assert copy_groups(entries) == [("p001.yaml", "p01.yaml", "p1.yaml")]


def test_a_csv_with_par_shares_reads_back_as_its_json(tmp_path: Path) -> None:
    """`batch --par` writes each share with four decimals: the CSV reads back to the same
    entries as the JSON (it was refused as "not a number" before)."""
    from validator.check.replay import Verdict
    from validator.contest.batch import Batch, Entry
    from validator.contest.draw import load_results
    from validator.render.registry import BATCH

    entries = (
        Entry("a.yaml", Verdict.VALID, 330, None, None, rank=1, par_share=0.9706),
        Entry("b.yaml", Verdict.INVALID, 12, None, None),
    )
    for fmt in ("json", "csv"):
        with (tmp_path / f"r.{fmt}").open("w", newline="") as handle:
            BATCH[fmt].load()().write(Batch(entries, (), ()), handle, "entries")
    by_json, by_csv = (load_results(tmp_path / f"r.{fmt}") for fmt in ("json", "csv"))
    assert [e.par_share for e in by_csv] == [e.par_share for e in by_json] == [0.9706, None]
    assert by_json == list(entries)


def test_the_draw_is_a_library_function_the_command_prints(tmp_path: Path) -> None:
    """`contest.draw.run` does the draw (the command only parses options and prints its
    outcome): the documented winners, the entries left out with why, and the command
    line that draws them again."""
    from validator.contest.draw import DrawError, DrawOptions, run

    path = results(tmp_path / "r.json")
    data = json.loads(path.read_text())
    data["entries"].append({"file": "late.yaml", "verdict": "valid", "score": 350, "late": True})
    path.write_text(json.dumps(data))
    outcome = run(path, "s", DrawOptions(winners=3, one_per_player=True))
    assert outcome.drawn is not None
    assert [e.file for e in outcome.drawn.winners] == expected("s", 3)
    assert [(g.entry.file, g.reason.split(":")[0]) for g in outcome.left_out] == [
        ("late.yaml", "late")
    ]
    assert (outcome.not_counting, outcome.copies_left, outcome.players_left) == (1, 0, 0)
    again = draw(*outcome.command_line()[2:])
    assert winners(again.stdout) == expected("s", 3)
    nobody = run(path, "s", DrawOptions(min_score=1000))
    assert nobody.drawn is None and nobody.eligible == []
    with pytest.raises(DrawError, match="--keep-first goes with --exclude-copies"):
        DrawOptions(keep_first=True)
