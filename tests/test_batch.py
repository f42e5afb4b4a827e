"""`road300 batch` through the real CLI: each folder in tests/batch_cases/ is copied out of the
repo and checked against its expected.json; then the edge cases one by one."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import jsonschema
import pytest
import yaml
from click.testing import CliRunner
from hostile_strings import FORMULA_START, HOSTILE

from validator.check.file import Checker
from validator.check.replay import Verdict
from validator.cli import main
from validator.contest.batch import (
    Batch,
    Entry,
    EntryError,
    Par,
    Problem,
    check_entries,
    check_file,
    collect,
    find_entries,
    rank,
)
from validator.contest.origin import MailSource
from validator.records import RECORD_FORMATS
from validator.render.batch_out import render_table, summary_lines
from validator.render.registry import BATCH

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "batch_cases"
DICE = ROOT / "examples" / "challenge.txt"
CASE_NAMES = sorted(p.name for p in CASES.iterdir() if (p / "expected.json").exists())


def run(*args: str | Path) -> Any:
    argv = [str(a) for a in args]
    if argv[0] == "batch" and "--jobs" not in argv:
        # One process: a pool per test costs more than the few entries it checks.
        argv += ["--jobs", "1"]
    return CliRunner().invoke(main, argv)


def batch_json(folder: Path, *extra: str) -> dict[str, Any]:
    result = run("batch", folder, "--dice", DICE, "--format", "json", *extra)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture
def contest(tmp_path: Path) -> Path:
    """The contest case, copied outside the repository."""
    folder = tmp_path / "entries"
    shutil.copytree(CASES / "contest" / "entries", folder)
    return folder


@pytest.fixture(scope="module")
def contest_output(tmp_path_factory: pytest.TempPathFactory) -> str:
    """`batch --format json` of an untouched copy of the contest case, run once for the
    tests that only read it (it names no path of the copy; each test parses its own)."""
    folder = tmp_path_factory.mktemp("contest") / "entries"
    shutil.copytree(CASES / "contest" / "entries", folder)
    with pytest.MonkeyPatch.context() as env:
        for name in ("LC_ALL", "LC_MESSAGES", "LANG"):  # as conftest's _english_locale
            env.delenv(name, raising=False)
        result = run("batch", folder, "--dice", DICE, "--format", "json")
    assert result.exit_code == 0, result.output
    text: str = result.stdout
    return text


@pytest.fixture
def contest_json(contest_output: str) -> dict[str, Any]:
    """That output, parsed afresh for each test (one may spoil it)."""
    data: dict[str, Any] = json.loads(contest_output)
    return data


@pytest.mark.parametrize("case", CASE_NAMES)
def test_case(case: str, tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    shutil.copytree(CASES / case / "entries", folder)
    expected = json.loads((CASES / case / "expected.json").read_text())
    data = batch_json(folder)
    got = {e["file"]: e for e in data["entries"]}
    assert set(got) == set(expected["entries"])
    for file, want in expected["entries"].items():
        entry = got[file]
        for key in ("verdict", "score", "end"):
            assert entry[key] == want[key], (file, key)
        if "code" in want:
            assert entry["error"]["code"] == want["code"], file
            assert entry["error"]["roll"] == want["roll"], file
            assert entry["error"]["file"] == file
        elif want["verdict"] == "valid":
            assert entry["error"] is None, file
        if "rank" in want:
            assert entry["rank"] == want["rank"], file
    summary = data["summary"]
    for key, value in expected["summary"].items():
        assert summary[key] == value, key
    assert summary["reached"] == expected["reached"]
    assert summary["copies"] == expected["copies"]
    assert [s["file"] for s in data["skipped"]] == expected["skipped"]


def test_fixed_fields_come_first(contest_json: dict[str, Any]) -> None:
    data = contest_json
    assert list(data)[:2] == ["entries", "summary"]
    assert list(data["summary"])[:5] == ["entries", "valid", "incomplete", "invalid", "malformed"]
    for entry in data["entries"]:
        assert list(entry)[:5] == ["file", "verdict", "score", "end", "error"]


def test_ranked_order(contest_json: dict[str, Any]) -> None:
    verdicts = [e["verdict"] for e in contest_json["entries"]]
    order = {"valid": 0, "incomplete": 0, "invalid": 1, "malformed": 2}
    assert [order[v] for v in verdicts] == sorted(order[v] for v in verdicts)


def test_batch_and_validate_agree(contest: Path, contest_json: dict[str, Any]) -> None:
    """Each batch entry carries what `validate --format json` says of the same file."""
    for entry in contest_json["entries"]:
        result = run("validate", contest / entry["file"], "--dice", DICE, "--format", "json")
        alone = json.loads(result.stdout)
        for key in ("verdict", "score", "end", "end_roll", "player", "rounds_played", "rerolls"):
            assert entry[key] == alone[key], (entry["file"], key)
        if entry["error"]:
            for key in ("code", "message", "roll", "round", "line", "col"):
                assert entry["error"][key] == alone["error"][key], (entry["file"], key)


def test_jobs_do_not_change_the_output(contest: Path) -> None:
    one = run("batch", contest, "--dice", DICE, "--format", "json", "--jobs", "1")
    two = run("batch", contest, "--dice", DICE, "--format", "json", "--jobs", "2")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout


def test_table(contest: Path) -> None:
    result = run("batch", contest, "--dice", DICE)
    assert result.exit_code == 0
    out = result.stdout
    assert "9 entries: 3 valid, 1 incomplete, 3 invalid, 2 unreadable" in out
    assert "Reached 300: 2 (Alice Example 340, Bob Copycat 340)." in out
    assert "alice/record.yaml = bob.json = ivan.yaml" in out
    assert "README.md: not a record file (.md)" in out
    assert "challenge.txt: a dice file, not a record" in out
    assert "roll 7: E205" in out
    assert "3*" in out


def test_output_json_file_equals_stdout(
    contest: Path, tmp_path: Path, contest_json: dict[str, Any]
) -> None:
    target = tmp_path / "results.json"
    result = run("batch", contest, "--dice", DICE, "--output", target)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert f"road300: wrote 9 entries to {target} (json)" in result.stderr
    assert json.loads(target.read_text()) == contest_json


def test_output_inside_the_folder_is_not_an_entry(contest: Path) -> None:
    for _ in range(2):
        result = run("batch", contest, "--dice", DICE, "--output", contest / "results.json")
        assert result.exit_code == 0
    data = json.loads((contest / "results.json").read_text())
    assert data["summary"]["entries"] == 9
    assert {"file": "results.json", "reason": "the results file (--output)"} in data["skipped"]


def test_dice_inside_the_folder_is_not_an_entry(contest: Path) -> None:
    result = run("batch", contest, "--dice", contest / "challenge.txt", "--format", "json")
    data = json.loads(result.stdout)
    assert data["summary"]["entries"] == 9
    assert {"file": "challenge.txt", "reason": "the dice file (--dice)"} in data["skipped"]


def test_output_csv(contest: Path, tmp_path: Path, contest_json: dict[str, Any]) -> None:
    target = tmp_path / "results.csv"
    assert run("batch", contest, "--dice", DICE, "--output", target).exit_code == 0
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    entries = contest_json["entries"]
    assert [r["file"] for r in rows] == [e["file"] for e in entries]
    for row, entry in zip(rows, entries, strict=True):
        assert row["verdict"] == entry["verdict"]
        assert row["score"] == ("" if entry["score"] is None else str(entry["score"]))
        assert row["error_code"] == (entry["error"]["code"] if entry["error"] else "")
        assert row["copies"].split() == entry["copies"]


def test_csv_on_stdout_has_no_progress(contest: Path) -> None:
    result = run("batch", contest, "--dice", DICE, "--format", "csv")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("rank,file,player,verdict,score,end")
    assert len(lines) == 10


@pytest.mark.parametrize(
    ("name", "message"), [("nowhere", "no such folder"), ("one.yaml", "not a folder")]
)
def test_cannot_run(tmp_path: Path, name: str, message: str) -> None:
    (tmp_path / "one.yaml").write_text("rounds: []\n")
    result = run("batch", tmp_path / name, "--dice", DICE)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_bad_dice_file(contest: Path, tmp_path: Path) -> None:
    bad = tmp_path / "dice.txt"
    bad.write_text("1 2 3\n4 5 x\n")
    result = run("batch", contest, "--dice", bad)
    assert result.exit_code == 2
    assert f"{bad}:2" in result.stderr


def test_empty_folder(tmp_path: Path) -> None:
    result = run("batch", tmp_path, "--dice", DICE)
    assert result.exit_code == 0
    assert "no entries found (no record file, ending in .yaml" in result.stdout
    data = batch_json(tmp_path)
    assert data["entries"] == [] and data["summary"]["entries"] == 0
    assert run("batch", tmp_path, "--dice", DICE, "--strict").exit_code == 1


def test_an_empty_mailbox_is_a_source_of_no_entries(tmp_path: Path) -> None:
    """A 0-byte .mbox (a mail folder emptied) and an empty Maildir are mailboxes of no
    message, not errors."""
    (tmp_path / "empty.mbox").write_bytes(b"")
    for name in ("cur", "new", "tmp"):
        (tmp_path / "Maildir" / name).mkdir(parents=True)
    for source in (tmp_path / "empty.mbox", tmp_path / "Maildir"):
        result = run("batch", source, "--dice", DICE)
        assert result.exit_code == 0, result.output
        assert "no entries found" in result.stdout and "message with a record" in result.stdout
    (tmp_path / "broken.mbox").write_bytes(b"%PDF-1.4\n")
    refused = run("batch", tmp_path / "broken.mbox", "--dice", DICE)
    assert refused.exit_code == 2 and "not an mbox file" in refused.stderr


def test_only_broken_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    shutil.copytree(CASES / "only_broken" / "entries", folder)
    table = run("batch", folder, "--dice", DICE)
    assert table.exit_code == 0
    assert "None of the entries could be read" in table.stdout
    as_json = run("batch", folder, "--dice", DICE, "--format", "json")
    assert "none of the 3 entries could be read" in as_json.stderr
    json.loads(as_json.stdout)


def test_records_whose_dice_file_is_missing_ask_for_dice(tmp_path: Path) -> None:
    """Records that name a dice file the folder lacks: the summary asks for --dice rather
    than whether these are record files at all."""
    folder = tmp_path / "entries"
    folder.mkdir()
    for name in ("alice", "bob"):  # alice.yaml names challenge.txt, which is not here
        shutil.copy(ROOT / "examples" / "alice.yaml", folder / f"{name}.yaml")
    table = run("batch", folder)
    assert "2 entries name a dice file that cannot be read (D001)" in table.stdout
    assert "--dice" in table.stdout and "are these record files" not in table.stdout
    as_json = run("batch", folder, "--format", "json")
    assert "2 with a dice file that cannot be read (D001): give --dice" in as_json.stderr
    # The records were read, so their player is known, not guessed from the file name.
    entries = json.loads(as_json.stdout)["entries"]
    assert [(e["player"], e["verdict"]) for e in entries] == [("Alice Example", "malformed")] * 2
    report = run("report", folder / "alice.yaml")
    assert "Player:       Alice Example" in report.stdout
    assert "none: the record could not be checked" in report.stdout


@pytest.mark.parametrize(("files", "status"), [(["alice/record.yaml"], 0), (None, 1)])
def test_strict(contest: Path, files: list[str] | None, status: int) -> None:
    if files is not None:
        for path in list(contest.rglob("*")):
            rel = path.relative_to(contest).as_posix()
            if path.is_file() and rel not in files:
                path.unlink()
    assert run("batch", contest, "--dice", DICE).exit_code == 0
    assert run("batch", contest, "--dice", DICE, "--strict").exit_code == status


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_symlinks_are_not_followed(contest: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(ROOT / "examples" / "alice.yaml", outside / "secret.yaml")
    (contest / "leak.yaml").symlink_to(outside / "secret.yaml")
    (contest / "leakdir").symlink_to(outside, target_is_directory=True)
    (contest / "again.yaml").symlink_to(contest / "dave.yaml")
    (contest / "loop").symlink_to(contest, target_is_directory=True)
    data = batch_json(contest)
    files = {e["file"] for e in data["entries"]}
    assert not files & {"leak.yaml", "again.yaml"}
    assert not any(f.startswith(("leakdir/", "loop/")) for f in files)
    reasons = {s["file"]: s["reason"] for s in data["skipped"]}
    assert "leaving the folder" in reasons["leak.yaml"]
    assert "leaving the folder" in reasons["leakdir"]
    assert "dave.yaml" in reasons["again.yaml"]
    assert data["summary"]["entries"] == 9


def test_hidden_files_are_listed(contest: Path) -> None:
    (contest / ".git").mkdir()
    (contest / ".git" / "x.yaml").write_text("rounds: []\n")
    (contest / ".draft.yaml").write_text("rounds: []\n")
    reasons = {s["file"]: s["reason"] for s in batch_json(contest)["skipped"]}
    assert reasons[".git/"] == "hidden"
    assert reasons[".draft.yaml"] == "hidden"


def test_without_dice_each_record_names_its_own(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "alice.yaml", tmp_path / "alice.yaml")
    shutil.copy(DICE, tmp_path / "challenge.txt")
    (tmp_path / "nodice.yaml").write_text("rounds:\n  - {cross: [1, 4], move: [1, 1]}\n")
    result = run("batch", tmp_path, "--format", "json")
    assert result.exit_code == 0
    got = {e["file"]: e for e in json.loads(result.stdout)["entries"]}
    assert got["alice.yaml"]["verdict"] == "valid"
    assert got["nodice.yaml"]["verdict"] == "malformed"
    assert got["nodice.yaml"]["error"]["code"] == "E004"
    assert "--dice" in got["nodice.yaml"]["error"]["message"]


def test_dice_sha256_of_a_record_is_checked(contest: Path) -> None:
    record = contest / "alice" / "record.yaml"
    record.write_text(
        record.read_text().replace("claimed_score", f"dice_sha256: {'ab' * 32}\nclaimed_score")
    )
    got = {e["file"]: e for e in batch_json(contest)["entries"]}
    assert got["alice/record.yaml"]["error"]["code"] == "E108"


@pytest.mark.slow  # a whole process and its pool
def test_subprocess_with_a_pool(contest: Path) -> None:
    """The real entry point in its own process, with two workers."""
    done = subprocess.run(
        [sys.executable, "-m", "validator", "batch", str(contest), "--dice", str(DICE),
         "--format", "json", "--jobs", "2"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["summary"]["entries"] == 9
    assert done.stderr.startswith("road300: 9 entries: 3 valid")
    assert len(done.stderr.splitlines()) == 1


RANKS = [
    # (verdict, score) in any order -> rank of each, in the input order
    ([("valid", 340), ("valid", 340), ("valid", 300)], [1, 1, 3]),
    ([("valid", 200), ("incomplete", 250), ("invalid", None)], [2, 1, None]),
    ([("malformed", None), ("valid", 10), ("invalid", 400)], [None, 1, None]),
    ([("incomplete", 100), ("valid", 100), ("valid", 90)], [1, 1, 3]),
]


@pytest.mark.parametrize(("entries", "ranks"), RANKS)
def test_rank(entries: list[tuple[str, int | None]], ranks: list[int | None]) -> None:
    given = [Entry(f"{n}.yaml", Verdict(v), s, None, None) for n, (v, s) in enumerate(entries)]
    by_file = {e.file: e.rank for e in rank(given)}
    assert [by_file[e.file] for e in given] == ranks


# -- Typed entries and the reporter registry ---------------------------------------------

ACCEPTANCE = sorted(p for p in (ROOT / "tests" / "acceptance").iterdir() if p.is_dir())


@pytest.mark.parametrize("case", ACCEPTANCE, ids=[c.name for c in ACCEPTANCE])
def test_entry_carries_what_validate_says(case: Path) -> None:
    """An entry's JSON holds every field of `validate --format json`, with the same values,
    for every kind of result (valid to malformed), so the two never drift apart."""
    from validator.check.file import Checker
    from validator.render.json_out import result_dict

    (record,) = [p for p in case.iterdir() if p.stem == "record"]
    checker = Checker.create(case / "dice.txt", None)
    result = checker.check(record, "p/record" + record.suffix)
    entry = Entry.of(result, "p/record" + record.suffix)
    as_json = entry.to_json()
    alone = result_dict(result, file="p/record" + record.suffix)
    assert {k: as_json[k] for k in alone} == alone
    assert list(as_json)[:5] == ["file", "verdict", "score", "end", "error"]
    assert Entry.from_json(json.loads(json.dumps(as_json)), "x") == entry
    assert pickle.loads(pickle.dumps(entry)) == entry


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "e: not an object"),
        ({"file": 3, "verdict": "valid"}, 'e: "file": Input should be a valid string'),
        ({"verdict": "valid"}, 'e: "file": Field required'),
        ({"file": "a.yaml", "verdict": "won"}, "e (a.yaml): \"verdict\": Input should be 'valid'"),
        (
            {"file": "a.yaml", "verdict": "valid", "score": "300"},
            'e (a.yaml): "score": Input should be a',
        ),
        (
            {"file": "a.yaml", "verdict": "valid", "score": True},
            'e (a.yaml): "score": Input should be a',
        ),
        ({"file": "a.yaml", "verdict": "valid", "rank": 0}, 'e (a.yaml): "rank": Input should be'),
        ({"file": "a.yaml", "verdict": "valid", "copies": "b.yaml"}, 'e (a.yaml): "copies": Input'),
        (
            {"file": "a.yaml", "verdict": "valid", "error": {"code": 1}},
            'e (a.yaml): "error" "code"',
        ),
        (
            {"file": "a.yaml", "verdict": "valid", "errors": [{}, {}]},
            'e (a.yaml): "errors" #1 "code"',
        ),
        ({"file": "a.yaml", "verdict": "valid", "source": {}}, 'e (a.yaml): "source" "kind"'),
        (
            {"file": "a.yaml", "verdict": "valid", "source": {"kind": "email", "part": 1}},
            'e (a.yaml): "source" "part"',
        ),
        ({"file": "\udce9", "verdict": "valid"}, "e: it holds a character that is not text"),
    ],
)
def test_entry_from_bad_json(data: Any, message: str) -> None:
    with pytest.raises(EntryError, match="^" + re.escape(message)):
        Entry.from_json(data, "e")


def test_an_entry_made_by_hand_needs_only_its_file_and_verdict() -> None:
    """The reader passes over keys it does not know (a later version's, or added by hand)
    and takes a left-out score, end and error as null; a mail source may leave out all but
    its kind (its part is then the body)."""
    data: Any = {"file": "a.yaml", "verdict": "valid", "note": 1, "source": {"kind": "email"}}
    entry = Entry.from_json(data, "e")
    assert (entry.file, entry.verdict, entry.score, entry.end, entry.error) == (
        "a.yaml",
        Verdict.VALID,
        None,
        None,
        None,
    )
    assert entry.source == MailSource(None, None, None, None, "body")
    assert Entry.from_json(entry.to_json(), "e") == entry


def test_format_choices_come_from_the_registry() -> None:
    from validator.cli.batch import command

    (fmt,) = [p for p in command.params if p.name == "fmt"]
    assert isinstance(fmt.type, click.Choice)
    assert list(fmt.type.choices) == sorted(BATCH) == ["csv", "json", "table"]


def test_docs_table_lists_every_reporter() -> None:
    text = (ROOT / "docs" / "batch.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| `(\.\w+)` \| (.+?) \|$", text, re.M)
    assert rows == [(r.name, r.suffix, r.help) for r in BATCH.values()]


def test_docs_name_every_record_extension() -> None:
    text = (ROOT / "docs" / "batch.md").read_text()
    listed = re.search(r"record format \((.*?)\)", text, re.S)
    assert listed is not None
    assert re.findall(r"`(\.\w+)`", listed.group(1)) == list(RECORD_FORMATS)


def test_record_extensions_come_from_the_format_registry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every file is checked whatever its name (issue 16: batch reads what validate reads);
    # the registry decides how: a record extension names the format, others go by content.
    (tmp_path / "a.yaml").write_text("rounds: []\n")
    (tmp_path / "b.rec").write_text("[rounds]\n")
    assert find_entries(tmp_path).files == ["a.yaml", "b.rec"]
    checker = Checker.create(DICE, None, root=tmp_path)
    assert check_file(checker, tmp_path, "b.rec").skipped == "not a record file (.rec)"
    monkeypatch.setitem(RECORD_FORMATS, ".rec", "yaml")
    entry = check_file(checker, tmp_path, "b.rec").entry
    assert entry is not None and entry.verdict is Verdict.MALFORMED


# -- Output that scales ------------------------------------------------------------------


def _entry(
    file: str,
    score: int | None = 300,
    verdict: str = "valid",
    error: Problem | None = None,
    **kw: Any,
) -> Entry:
    return Entry(file, Verdict(verdict), score, None, error, **kw)


def test_summary_names_at_most_ten() -> None:
    entries = tuple(rank(_entry(f"p{n:02d}.yaml", 300 + n, player=f"P{n}") for n in range(15)))
    groups = tuple(tuple(f"g{g}-{n}.yaml" for n in range(4)) for g in range(4))
    batch = Batch(entries, (), groups)
    lines = summary_lines(batch, "entries")
    reached = next(x for x in lines if x.startswith("Reached 300"))
    assert reached.startswith("Reached 300: 15 (P14 314, P13 313,")
    assert reached.count(" 3") == 10 + 1  # ten scores, and the count in "and 5 more"
    assert reached.endswith("P5 305, and 5 more).")
    copy_lines = lines[lines.index("Copies (4 games played by more than one entry):") + 1 :]
    named = " ".join(copy_lines[:3])
    assert named.count(".yaml") == 10
    assert copy_lines[2] == "  g2-0.yaml = g2-1.yaml = ... (2 more)"
    assert copy_lines[3] == "  ... and 1 more game played by 4 entries (all in --format json)"


def test_summary_with_ten_names_says_no_more() -> None:
    entries = tuple(rank(_entry(f"p{n}.yaml", player=f"P{n}") for n in range(10)))
    (reached,) = [x for x in summary_lines(Batch(entries, (), ()), "d") if "Reached" in x]
    assert "more" not in reached and reached.count("P") == 10


LONG = "the recorded move " + "goes on and on " * 20 + "END-OF-MESSAGE"


def _long_error_batch() -> Batch:
    error = Problem("E205", LONG, roll=7)
    return Batch((_entry("dave.yaml", None, "invalid", error=error),), (), ())


def test_table_in_a_file_is_never_cut() -> None:
    out = io.StringIO()
    BATCH["table"].load()().write(_long_error_batch(), out, "entries")
    (row,) = [x for x in out.getvalue().splitlines() if "dave.yaml" in x]
    assert row.endswith(f"roll 7: E205 {LONG}")
    assert all(x == x.rstrip() for x in out.getvalue().splitlines())


@pytest.mark.parametrize("wide", [False, True])
def test_terminal_table_cuts_unless_wide(wide: bool) -> None:
    from rich.console import Console

    console = Console(file=io.StringIO(), width=100, no_color=True)
    render_table(console, _long_error_batch(), "entries", wide=wide)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert max(len(x) for x in text.splitlines()) <= 100
    assert ("END-OF-MESSAGE" in text) is wide
    assert ("…" in text) is not wide


def test_table_to_a_pipe_is_never_cut(contest: Path) -> None:
    dave = contest / "dave.yaml"
    dave.write_text(dave.read_text().replace("player:", "player: " + "Long " * 30 + "X"))
    result = run("batch", contest, "--dice", DICE)
    (row,) = [x for x in result.stdout.splitlines() if "dave.yaml" in x]
    assert "Long " * 30 + "X" in row
    assert "E205" in row and not row.endswith("…")


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_json_and_csv_on_a_pipe_put_one_summary_line_on_stderr(contest: Path, fmt: str) -> None:
    result = run("batch", contest, "--dice", DICE, "--format", fmt)
    assert result.stderr == (
        "road300: 9 entries: 3 valid, 1 incomplete, 3 invalid, 2 unreadable (malformed); "
        "reached 300: 2; copies: 1 game; skipped: 3\n"
    )


def test_progress_only_with_a_total() -> None:
    from rich.console import Console

    from validator.cli.batch import progress

    err = Console(file=io.StringIO(), force_terminal=True)
    with progress(err, 0) as none:
        assert none is None
    with progress(err, 3) as advance:
        assert advance is not None
        for _ in range(3):
            advance(None)
    assert "Checking entries" in err.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "fmt", "message"),
    [
        ("results.xlsx", None, "does not write .xlsx files"),
        ("results.xlsx", "csv", "does not write .xlsx files"),
        ("results.pdf", "table", "does not write .pdf files"),
        ("results.csv", "json", "the suffix .csv names the csv format, not json"),
        ("results.txt", "csv", "the suffix .txt names the table format"),
    ],
)
def test_output_extension_must_fit(
    contest: Path, tmp_path: Path, name: str, fmt: str | None, message: str
) -> None:
    args = ["--format", fmt] if fmt else []
    result = run("batch", contest, "--dice", DICE, "--output", tmp_path / name, *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert not (tmp_path / name).exists()


@pytest.mark.parametrize(
    ("name", "fmt", "first"),
    [
        ("results.txt", None, "Rank"),
        ("results.TXT", "table", "Rank"),
        ("results", "json", '{"entries": ['),
        ("results", None, "Rank"),
        ("results.CSV", None, "rank,file,player"),
    ],
)
def test_output_in_the_format_it_names(
    contest: Path, tmp_path: Path, name: str, fmt: str | None, first: str
) -> None:
    args = ["--format", fmt] if fmt else []
    result = run("batch", contest, "--dice", DICE, "--output", tmp_path / name, *args)
    assert result.exit_code == 0, result.output
    assert (tmp_path / name).read_text().lstrip().startswith(first)


# -- Schema -------------------------------------------------------------------------------

SCHEMA = json.loads((ROOT / "schemas" / "batch.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
"""One validator for every test: `jsonschema.validate` checks the schema itself each
time first (30 ms), which test_schema_is_a_schema_with_an_id does once."""


@pytest.mark.parametrize("case", [*CASE_NAMES, "empty"])
def test_output_matches_the_schema(case: str, tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    if case == "empty":
        folder.mkdir()
    else:
        shutil.copytree(CASES / case / "entries", folder)
    (folder / "notes.md").write_text("not a record\n")
    VALIDATOR.validate(batch_json(folder))


def test_schema_is_a_schema_with_an_id() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"].endswith("batch.schema.json")


def test_schema_entry_fields_are_the_entry_class_and_the_result_fields() -> None:
    entry = SCHEMA["$defs"]["Entry"]["properties"]
    assert list(entry) == [f.name for f in dataclasses.fields(Entry)]
    result = json.loads((ROOT / "schemas" / "result.schema.json").read_text())["properties"]
    mail = {"late", "superseded", "source"}
    assert set(entry) == set(result) - {"rounds"} | {"rank", "copies", "par_share"} | mail


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d["entries"][0].update(verdict="won"),
        lambda d: d["entries"][0].update(surprise=1),
        lambda d: d["entries"][0].pop("error"),
        lambda d: d["summary"].update(valid=-1),
        lambda d: d["skipped"].append({"file": "x"}),
    ],
)
def test_schema_refuses_spoiled_output(contest_json: dict[str, Any], spoil: Any) -> None:
    VALIDATOR.validate(contest_json)  # as it was, it passes
    spoil(contest_json)
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(contest_json)


# -- Hostile text ----------------------------------------------------------------------------

RAW_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
"""Control characters no output may carry raw (newline and tab are the outputs' own)."""


def _runs_in_a_spreadsheet(cell: str) -> bool:
    return cell.startswith(FORMULA_START) and not re.fullmatch(r"[+-]?\d+(\.\d+)?", cell)


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """An inbox whose players and file names try to drive terminals and spreadsheets."""
    folder = tmp_path / "inbox"
    folder.mkdir()
    base = yaml.safe_load((ROOT / "examples" / "alice.yaml").read_text())
    for n, text in enumerate(HOSTILE):
        record = yaml.safe_dump({**base, "player": text}, allow_unicode=False)
        (folder / f"p{n:02d}.yaml").write_text(record)
    (folder / "=cmd.yaml").write_text(yaml.safe_dump({**base, "player": "=1+1"}))
    (folder / "\u202eevil.yaml").write_text("rounds: [}\n")
    (folder / "\x1b[2J.yaml").write_text("player: x\nrounds: []\n")
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "fifo.yaml")  # reading it would wait forever
    (folder / "loop.yaml").symlink_to(folder / "loop.yaml")
    return folder


def test_a_hostile_inbox(hostile: Path, tmp_path: Path) -> None:
    odd = {"fifo.yaml", "loop.yaml"}
    files = sorted(p.name for p in hostile.iterdir() if p.name not in odd)
    outputs = {}
    for fmt in ("table", "json", "csv"):
        result = run("batch", hostile, "--dice", DICE, "--format", fmt)
        assert result.exit_code == 0, result.output
        outputs[fmt] = result
        for channel in (result.stdout, result.stderr):
            assert not RAW_CONTROL.search(channel), (fmt, channel)
    data = json.loads(outputs["json"].stdout)
    assert sorted(e["file"] for e in data["entries"]) == files  # one entry each
    reasons = {s["file"]: s["reason"] for s in data["skipped"]}
    assert "broken or a loop" in reasons["loop.yaml"]
    if hasattr(os, "mkfifo"):
        assert reasons["fifo.yaml"] == "not a regular file (a FIFO, socket or device)"
    players = {e["file"]: e["player"] for e in data["entries"]}
    assert [players[f"p{n:02d}.yaml"] for n in range(len(HOSTILE))] == list(HOSTILE)  # lossless
    rows = list(csv.reader(io.StringIO(outputs["csv"].stdout)))
    assert len(rows) == len(files) + 1
    for row in rows:
        for cell in row:
            assert not _runs_in_a_spreadsheet(cell), cell
    assert "\\x1b[2J" in outputs["table"].stdout
    assert "'=HYPERLINK" in outputs["csv"].stdout
    results = tmp_path / "results.json"
    results.write_text(outputs["json"].stdout)  # what -o writes (test_output_json_file_...)
    drawn = draw_run(results)
    assert not RAW_CONTROL.search(drawn.stdout + drawn.stderr)
    assert drawn.exit_code == 0


def draw_run(results: Path) -> Any:
    return run("draw", results, "--winners", "20", "--seed", "s")


def test_names_are_not_rich_markup_or_emoji() -> None:
    from rich.console import Console

    name = "[b]x[/] :smile:"
    batch = Batch(tuple(rank([_entry("a.yaml", player=name)])), (), ())
    console = Console(file=io.StringIO(), width=200, no_color=True)
    render_table(console, batch, "entries")
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert text.count(name) == 2  # the table row and "Reached 300"


SECRET = "root:x:0:0:TOP-SECRET-LINE"


def test_dice_files_outside_the_folder_are_never_read(tmp_path: Path) -> None:
    """A record's dice_file may only name a regular file inside the contest folder; nothing
    of any other file reaches the results, and messages name paths relative to the folder."""
    (tmp_path / "secret.txt").write_text(SECRET + "\n")
    folder = tmp_path / "inbox"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(DICE, folder / "challenge.txt")
    (folder / "notdice.txt").write_text(SECRET + "\n")  # inside, but not a dice file
    (folder / "outside-link.txt").symlink_to(tmp_path / "secret.txt")
    round_ = "rounds:\n  - {cross: [1, 4], move: [1, 1]}\n"
    records = {
        "absolute.yaml": f"dice_file: {tmp_path / 'secret.txt'}\n",
        "etc.yaml": "dice_file: /etc/passwd\n",
        "dotdot.yaml": "dice_file: ../secret.txt\n",
        "sub/deep.yaml": "dice_file: ../../secret.txt\n",
        "link.yaml": "dice_file: outside-link.txt\n",
        "device.yaml": "dice_file: /dev/zero\n",
        "notdice.yaml": "dice_file: notdice.txt\n",
        "ok.yaml": "dice_file: challenge.txt\n",
        "sub/ok.yaml": "dice_file: ../challenge.txt\n",
    }
    for name, header in records.items():
        (folder / name).write_text(header + round_)
    result = run("batch", folder, "--format", "json")
    assert result.exit_code == 0, result.output
    for text in (result.stdout, result.stderr):
        assert "TOP-SECRET" not in text and "root:" not in text
        assert str(tmp_path) not in text  # no organizer path in what is published
    entries = {e["file"]: e for e in json.loads(result.stdout)["entries"]}
    # notdice.txt is an entry too (.txt is the annotated text record form): a malformed one.
    assert sorted(entries) == sorted([*records, "notdice.txt"])
    for name in records:
        verdict = entries[name]["verdict"]
        if name.endswith("ok.yaml"):
            assert verdict == "incomplete", entries[name]
        else:
            assert verdict == "malformed", (name, entries[name])
    assert "notdice.txt" in entries["notdice.yaml"]["error"]["message"]
    assert "line 1" in entries["notdice.yaml"]["error"]["message"]


def test_par_is_the_solved_best_score_and_each_entry_gets_its_share(tmp_path: Path) -> None:
    from validator.engine import STANDARD
    from validator.records.dice import read_dice
    from validator.solver import solve

    rows = [x for x in DICE.read_text().splitlines() if x[:1].isdigit()][:8]
    dice = tmp_path / "dice.txt"
    dice.write_text("\n".join(rows) + "\n")
    folder = tmp_path / "entries"
    folder.mkdir()
    best = solve(read_dice(dice).rows, STANDARD, time_limit=10.0)
    assert best.proven
    out = run("solve", dice, "--format", "json", "--output", folder / "best.yaml")
    assert out.exit_code == 0, out.output
    (folder / "short.yaml").write_text("rounds:\n  - {cross: [1, 4], move: [1, 1]}\n")
    result = run("batch", folder, "--dice", dice, "--par", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["summary"]["par"] == best.best_score and data["summary"]["par_proven"] is True
    shares = {e["file"]: e["par_share"] for e in data["entries"]}
    assert shares["best.yaml"] == 1.0
    assert shares["short.yaml"] == round(30 / best.best_score, 4)
    assert "par: " in result.stderr
    table = run("batch", folder, "--dice", dice, "--par")
    assert f"Par: {best.best_score} points for the dice file (proven the best)" in table.stdout
    assert run("batch", folder, "--par").exit_code == 2  # no --dice: nothing to solve


def _rich_file_table(batch: Batch, label: str) -> str:
    """The table as rich prints it at a width nothing reaches, lines without trailing
    blanks: what BatchTable writes without rich's help."""
    from rich.console import Console

    from validator.render.batch_out import WIDE

    console = Console(file=io.StringIO(), width=WIDE, no_color=True, highlight=False)
    render_table(console, batch, label, wide=True)
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


NAMES = (
    *HOSTILE,
    "李小龍",
    "Zoë Ångström",
    "e\u0301t\u0301e\u0301",
    "👩‍👩‍👧 family",
    "",
    "x" * 300,
)


@pytest.mark.parametrize("entries", [0, 1, 3, len(NAMES)])
def test_the_table_in_a_file_is_the_one_rich_draws(entries: int) -> None:
    """Names of every width (wide CJK, combining accents, emoji, escapes of control
    characters), every verdict, incomplete games, errors and copies."""
    verdicts = ("valid", "invalid", "incomplete", "malformed")
    made = []
    for n, name in enumerate(NAMES[:entries]):
        verdict = verdicts[n % 4]
        error = Problem("E205", f"roll {n}: {name}", roll=n) if verdict == "invalid" else None
        score = None if verdict in ("invalid", "malformed") else 280 + 10 * n
        made.append(_entry(f"{name or 'p'}{n}.yaml", score, verdict, error=error, player=name))
    groups = (("李小龍0.yaml", "p5.yaml"),) if entries > 5 else ()
    batch = Batch(tuple(rank(made)), (), groups)
    out = io.StringIO()
    BATCH["table"].load()().write(batch, out, "entries")
    assert out.getvalue() == _rich_file_table(batch, "entries")


def test_the_examples_folder_table_in_a_file_is_the_one_rich_draws() -> None:
    examples = ROOT / "examples"
    found = find_entries(examples)
    batch = collect(found, check_entries(Checker.create(DICE, None), examples, found.files))
    out = io.StringIO()
    BATCH["table"].load()().write(batch, out, "examples")
    assert out.getvalue() == _rich_file_table(batch, "examples")
    assert "Alice Example" in out.getvalue()


def test_par_is_at_least_the_best_valid_entry(tmp_path: Path) -> None:
    """A search cut short by its budget finds 355 on the example dice file; a valid entry
    played 370 there, so par is at least 370 (a game played proves it), still unproven."""
    folder = tmp_path / "entries"
    folder.mkdir()
    shutil.copy(Path(__file__).parent / "entries" / "best-370.yaml", folder / "best.yaml")
    shutil.copy(ROOT / "examples" / "alice.yaml", folder / "alice.yaml")
    # Invalid, with a replayed score: no share of par (that score is no result).
    shutil.copy(ROOT / "examples" / "invalid" / "e107-score-mismatch.yaml", folder / "e107.yaml")
    result = run(
        "batch", folder, "--dice", DICE, "--par", "--par-nodes", "1500", "--format", "json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    summary = data["summary"]
    assert (summary["par"], summary["par_proven"], summary["par_bound"]) == (370, False, 440)
    shares = {e["file"]: e["par_share"] for e in data["entries"]}
    assert shares == {"best.yaml": 1.0, "alice.yaml": round(340 / 370, 4), "e107.yaml": None}
    (folder / "best.yaml").unlink()
    searched = run(
        "batch", folder, "--dice", DICE, "--par", "--par-nodes", "1500", "--format", "json"
    )
    assert json.loads(searched.stdout)["summary"]["par"] == 355  # what the search alone found


@pytest.mark.parametrize("option", [("--par-nodes", "1000"), ("--par-time", "1")])
def test_a_par_option_without_par_is_refused(option: tuple[str, str]) -> None:
    result = run("batch", ROOT / "examples", "--dice", DICE, *option)
    assert result.exit_code == 2 and "use it with --par" in result.stderr


def test_a_game_at_the_bound_proves_par() -> None:
    from validator.contest.batch import Par

    found = Par(355, False, 440, "nodes")
    assert found.at_least(None) == found and found.at_least(340) == found
    assert found.at_least(370) == Par(370, False, 440, "nodes")
    assert found.at_least(440) == Par(440, True, 440, None)


def test_a_par_not_proven_is_at_least_par_with_its_bound_and_says_what_stopped_it(
    tmp_path: Path,
) -> None:
    """Issue 20: par from a search that did not finish is "at least X (bound Y)", in the
    JSON, the table, the one-line summary and on the site; a node budget (--par-nodes)
    makes it the same on every machine, and a time limit says it depends on the speed."""
    from validator.contest.batch import Par
    from validator.render.site import par_text

    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "short.yaml").write_text("rounds:\n  - {cross: [1, 4], move: [1, 1]}\n")
    args = ("batch", folder, "--dice", DICE, "--par", "--par-nodes", "1500")
    first = run(*args, "--format", "json")
    assert first.exit_code == 0, first.output
    summary = json.loads(first.stdout)["summary"]
    assert summary["par_proven"] is False and summary["par_stopped"] == "nodes"
    assert summary["par"] < summary["par_bound"]
    assert f"par: at least {summary['par']} (bound {summary['par_bound']})" in first.stderr
    table = run(*args).stdout  # a search of its own with the same budget: the same par
    assert f"Par: at least {summary['par']} points for the dice file" in table
    assert f"bound {summary['par_bound']}: no game scores more" in table
    assert "machine's speed" not in table
    timed = run("batch", folder, "--dice", DICE, "--par", "--par-time", "0.1").stdout
    assert "Par: at least " in timed and "depends on the machine's speed" in timed
    site = par_text(Par(370, False, 440, "time"))
    assert "at least 370 points" in site and "bound 440" in site and "machine's speed" in site
    assert "at least" not in par_text(Par(370, True, 370)) and "370" in par_text(
        Par(370, True, 370)
    )


def test_help_says_what_each_output_is_for() -> None:
    """The JSON holds the senders' addresses (docs/contest.md: not for publishing), so
    `--help` does not offer it to the website: it names the site as what is published."""
    out = " ".join(run("batch", "--help").output.split())
    assert "for the website" not in out
    assert "json: `entries`, `summary` and `skipped`" in out
    assert "it holds the senders' addresses: the organizer's file, not for publishing" in out
    assert "What to publish is the site (--site DIR), which shows no address." in out


def test_readme_help_and_code_agree_on_the_exit_status(contest: Path) -> None:
    """The README's sentence on batch's exit status, `batch --help` and the code say the
    same: 0 with an invalid entry, 1 for it only with --strict."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    said = re.search(
        r"`batch` exits 0 whatever the verdicts; with `--strict`, 1 when an (.+?)\.", readme
    )
    assert said is not None, "the README says when batch exits 1"
    assert said[1] == "entry is invalid, malformed or incomplete, or there is none"
    helped = " ".join(run("batch", "--help").output.split())
    assert "Exit status: 0 the batch ran, whatever the verdicts (with --strict" in helped
    assert f"1 when any {said[1]})" in helped
    verdicts = {e["verdict"] for e in batch_json(contest)["entries"]}
    assert "invalid" in verdicts
    assert run("batch", contest, "--dice", DICE).exit_code == 0
    assert run("batch", contest, "--dice", DICE, "--strict").exit_code == 1


def test_the_batch_command_only_parses_options_for_its_run(tmp_path: Path) -> None:
    """`cli.batch.run` does the batch from its typed options, without click: the same
    results file as the command writes, and the same exit status."""
    from validator.cli.batch import BatchOptions
    from validator.cli.batch import run as run_batch

    folder = ROOT / "tests" / "entries"
    by_command = run("batch", folder, "--dice", DICE, "-o", tmp_path / "a.json", "--strict")
    options = BatchOptions(
        folder=folder,
        dice=DICE,
        rules=None,
        fmt=None,
        output=tmp_path / "b.json",
        wide=False,
        jobs=1,
        strict=True,
        min_score=300,
        par=False,
        par_time=None,
        par_nodes=None,
        max_size=None,
        deadline=None,
        site=None,
        replies=None,
        organizer=None,
        contest_name=None,
        lang=None,
    )
    assert run_batch(options) == by_command.exit_code
    assert (tmp_path / "b.json").read_bytes() == (tmp_path / "a.json").read_bytes()


def test_par_is_at_least_the_best_valid_game_on_its_dice_and_rules() -> None:
    """Only a valid entry replayed on the same dice file and ruleset raises par."""
    entries = (
        Entry("a", Verdict.VALID, 310, None, None, rules="standard", dice_sha256="d"),
        Entry("b", Verdict.VALID, 350, None, None, rules="bga", dice_sha256="d"),
        Entry("c", Verdict.VALID, 360, None, None, rules="standard", dice_sha256="e"),
        Entry("d", Verdict.INVALID, 400, None, None, rules="standard", dice_sha256="d"),
        Entry("e", Verdict.INCOMPLETE, 390, None, None, rules="standard", dice_sha256="d"),
    )
    batch = Batch(entries, (), ())
    assert batch.best_valid("standard", "d") == 310
    assert batch.best_valid("bga", "e") is None
    par = Par(300, False, 380).at_least(batch.best_valid("standard", "d"))
    assert par == Par(310, False, 380)
