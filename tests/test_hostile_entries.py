"""Issue 17: one hostile entry never ruins a batch. A test per finding, each with inputs the
test makes: names as bytes, deep folders, files over the cap in every role, long numbers in
every base, wrong-kind values in every field, escapes through every command and format,
look-alike names in a draw, files swapped after the walk, SIGTERM during a pooled batch."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import CHALLENGE, EXAMPLES, ROOT, _env, cli_command, proc_stat, run_in_process
from tiers import sweep

from validator.check.file import Checker
from validator.check.replay import Verdict
from validator.cli import main
from validator.contest.batch import check_file, find_entries
from validator.contest.draw import name_skeleton
from validator.errors import ReadError
from validator.records import parse_record, source
from validator.records.lexing import MAX_NUMBER_CHARS
from validator.records.model import HEADER_KEYS, MAX_DIAGNOSTICS, ROUND_KEYS

POSIX = os.name == "posix"
ALICE = (EXAMPLES / "alice.yaml").read_text(encoding="utf-8")
"""A valid record (340 points on the challenge dice) that names its dice file."""
ALICE_ENTRY = "\n".join(
    line for line in ALICE.splitlines() if not line.startswith(("dice_file", "dice_sha256"))
)
ALICE_NAMELESS = "\n".join(
    line for line in ALICE_ENTRY.splitlines() if not line.startswith("player")
)
"""The same record without its dice file: a batch entry checked on --dice."""
CAP = source.MAX_BYTES

INVISIBLE_RAW = tuple(
    chr(c) for c in (*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0))
) + tuple("\u200b\u2060\u00ad\u202e\u2066\u2028\u2029\ufeff")
"""What no output a person reads may carry raw (newline and tab are the outputs' own)."""


def _raw(text: str) -> list[str]:
    return [hex(ord(c)) for c in set(text) if c in INVISIBLE_RAW]


def _run(args: list[str | Path], cwd: Path, **kw: Any) -> subprocess.CompletedProcess[bytes]:
    """The real entry point as a process, its output as bytes (to check the encoding)."""
    return subprocess.run(
        cli_command([os.fsdecode(a) if isinstance(a, Path) else a for a in args]),
        cwd=cwd,
        env=_env(),
        capture_output=True,
        timeout=120,
        check=False,
        **kw,
    )


@pytest.fixture
def contest(tmp_path: Path) -> Path:
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "good.yaml").write_text(ALICE_ENTRY, encoding="utf-8")
    return folder


# -- 1. File names that are not UTF-8 ------------------------------------------------------


@pytest.mark.slow  # eight whole processes
@pytest.mark.skipif(not POSIX or sys.platform == "darwin", reason="names are bytes on Linux")
def test_a_latin1_file_name_is_shown_escaped_and_every_output_is_utf8(
    contest: Path, tmp_path: Path
) -> None:
    name = os.fsdecode(b"caf\xe9.yaml")
    (contest / name).write_text(ALICE_ENTRY, encoding="utf-8")
    out = tmp_path / "r.json"
    out.write_text("old results\n")
    for fmt in ("json", "csv", "table"):
        run = _run(["batch", contest, "--dice", CHALLENGE, "--format", fmt], tmp_path)
        assert run.returncode == 0, run.stderr
        text = run.stdout.decode("utf-8")  # strict: fails on any byte that is not UTF-8
        if fmt == "json":
            text = " ".join(e["file"] for e in json.loads(text)["entries"])
        assert "caf\\xe9.yaml" in text, text
        assert b"Traceback" not in run.stderr
    run = _run(["batch", contest, "--dice", CHALLENGE, "--output", out], tmp_path)
    assert run.returncode == 0, run.stderr
    data = json.loads(out.read_bytes().decode("utf-8"))
    assert sorted(e["file"] for e in data["entries"]) == ["caf\\xe9.yaml", "good.yaml"]
    assert {e["verdict"] for e in data["entries"]} == {"valid"}
    drawn = _run(["draw", out, "--seed", "x"], tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    drawn.stdout.decode("utf-8")
    # validate and report name the file the same way, in valid UTF-8
    record = tmp_path / name
    record.write_text(ALICE, encoding="utf-8")
    shutil.copy(CHALLENGE, tmp_path / "challenge.txt")
    run = _run(["validate", record], tmp_path)
    assert run.returncode == 0, run.stderr
    assert "caf\\xe9.yaml: valid" in run.stdout.decode("utf-8")
    run = _run(["validate", record, "--format", "json"], tmp_path)
    assert json.loads(run.stdout.decode("utf-8"))["file"].endswith("caf\\xe9.yaml")
    page = tmp_path / "page.html"
    run = _run(["report", record, "--output", page], tmp_path)
    assert run.returncode == 0, run.stderr
    assert "caf\\xe9" in page.read_bytes().decode("utf-8")


def test_two_names_that_read_the_same_once_escaped_are_not_both_results(tmp_path: Path) -> None:
    if not POSIX or sys.platform == "darwin":
        pytest.skip("names are bytes on Linux")
    (tmp_path / os.fsdecode(b"caf\xe9.yaml")).write_text(ALICE_ENTRY)
    (tmp_path / "caf\\xe9.yaml").write_text(ALICE_ENTRY)
    found = find_entries(tmp_path)
    assert len(found.files) == 1
    assert any("once shown escaped" in s.reason for s in found.skipped)


# -- 2. Deep folders -------------------------------------------------------------------------


def test_a_1200_deep_folder_is_walked_and_its_entry_checked(contest: Path) -> None:
    # Made folder by folder from an open folder: pathlib's own mkdir(parents=True) recurses.
    fd = os.open(contest, os.O_RDONLY)
    for _ in range(1200):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    out = os.open("deep.yaml", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
    os.write(out, ALICE_ENTRY.encode())
    os.close(out)
    os.close(fd)
    try:
        run = run_in_process(["batch", str(contest), "--dice", str(CHALLENGE), "--format", "json"])
        assert run.status == 0, run.stderr
        entries = {e["file"]: e for e in json.loads(run.stdout)["entries"]}
        assert entries["/".join(["d"] * 1200) + "/deep.yaml"]["verdict"] == "valid"
        assert entries["good.yaml"]["verdict"] == "valid"
    finally:
        _remove_chain(contest / "d")


def _remove_chain(top: Path) -> None:
    """Remove a deep chain of folders `top/d/d/...` from its bottom up, through open
    folders (shutil.rmtree recurses, and so does pytest's own clean-up of its temporary
    folders): go down the chain, remove the files at its end, then remove each folder
    from its parent (`..`): no listing a level, where moving each child up took one."""
    fd = os.open(top, os.O_RDONLY)
    depth = 0
    try:
        while True:
            try:
                inner = os.open("d", os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=fd)
            except FileNotFoundError:
                break
            os.close(fd)
            fd, depth = inner, depth + 1
        for name in os.listdir(fd):
            os.unlink(name, dir_fd=fd)
        for _ in range(depth):
            parent = os.open("..", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = parent
            os.rmdir("d", dir_fd=fd)
    finally:
        os.close(fd)
    top.rmdir()


# -- 3. The size cap holds before any reading, in every role ---------------------------------


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every read of an opened file, by the size asked for."""
    asked: list[int] = []
    real = source._read_up_to

    def spy(handle: Any, size: int) -> bytes:
        asked.append(size)
        return real(handle, size)

    monkeypatch.setattr(source, "_read_up_to", spy)
    yield asked


@pytest.mark.parametrize("suffix", [".yaml", ".yml", ".json", ".txt", ".csv", ".rec", ""])
def test_an_entry_over_the_cap_is_refused_unread(
    suffix: str, tmp_path: Path, reads: list[int]
) -> None:
    name = f"big{suffix}"
    with (tmp_path / name).open("wb") as f:  # sparse: reading it whole would be slow
        f.truncate(64 * CAP)
    checker = Checker.create(CHALLENGE, None, root=tmp_path)
    reads.clear()  # the dice file's
    checked = check_file(checker, tmp_path, name)
    assert reads == []
    if suffix in (".rec", ""):  # not named a record: it could only be one by its content
        assert checked.skipped == f"not a record file ({suffix or 'no extension'})"
    else:  # named a record, too big: an entry refused, not tried as a dice file
        assert checked.entry is not None and checked.entry.verdict is Verdict.MALFORMED
        assert checked.entry.error is not None and checked.entry.error.code == "E001"
        assert "more than the" in checked.entry.error.message


def test_a_records_own_dice_file_over_the_cap_is_refused_unread(
    tmp_path: Path, reads: list[int]
) -> None:
    (tmp_path / "r.yaml").write_text("dice_file: big.txt\nrounds: []\n")
    with (tmp_path / "big.txt").open("wb") as f:
        f.truncate(2 * CAP)
    checker = Checker.create(None, None, root=tmp_path)
    checked = check_file(checker, tmp_path, "r.yaml")
    assert checked.entry is not None and checked.entry.error is not None
    assert checked.entry.error.code == "D001", checked.entry.error
    assert all(size <= CAP + 1 for size in reads), reads  # the record itself, nothing more


def test_a_record_naming_itself_as_its_dice_file_is_read_once_within_the_cap(
    tmp_path: Path,
) -> None:
    (tmp_path / "r.yaml").write_text("dice_file: r.yaml\nrounds:\n" + "- {cross: 11}\n" * 20)
    checked = check_file(Checker.create(None, None, root=tmp_path), tmp_path, "r.yaml")
    assert checked.entry is not None and checked.entry.error is not None
    assert checked.entry.error.code == "D002"  # a YAML dice file is a list; a record is not


# -- 4, 5. Long numbers, in every base, refused before conversion --------------------------

LONG = 5000  # over Python's 4,300-digit limit for int(), far over what a record can use


@pytest.mark.parametrize(
    "number",
    [
        "9" * LONG,
        "0x" + "f" * LONG,
        "0o" + "7" * LONG,
        "0" + "7" * LONG,
        "0b" + "1" * LONG,
        "1" + ":59" * LONG,
        "1_000" * LONG,
        "1." + "9" * LONG,
        "1" + "0" * LONG + "e5",
        '!!int "' + "9" * LONG + '"',
        '!!float "' + "9" * LONG + '"',
    ],
    ids=["decimal", "hex", "octal", "old octal", "binary", "base 60", "underscores", "float",
         "exponent", "int tag", "float tag"],
)  # fmt: skip
@pytest.mark.parametrize("key", ["claimed_score", "rings", "roll"])
def test_a_long_yaml_number_is_a_malformed_value(key: str, number: str) -> None:
    text = (
        f"rounds:\n  - {{{key}: {number}, cross: 1/4}}\n"
        if key == "roll"
        else f"{key}: {number}\nrounds: []\n"
    )
    with pytest.raises(ReadError) as caught:
        parse_record(text.encode(), "yaml", source="r.yaml")
    d = caught.value.diagnostic
    assert d.code == "E005" and d.line is not None, d
    assert len(d.message) < 120, d.message  # quoted at most a line's worth


@pytest.mark.parametrize("number", ["9" * LONG, "1." + "9" * LONG, "9" * (MAX_NUMBER_CHARS + 1)])
def test_a_long_json_number_is_a_malformed_value(number: str) -> None:
    with pytest.raises(ReadError) as caught:
        parse_record(
            f'{{"claimed_score": {number}, "rounds": []}}'.encode(), "json", source="r.json"
        )
    d = caught.value.diagnostic
    assert (d.code, d.line, d.col) == ("E005", 1, 19), d
    assert len(d.message) < 120


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("d.txt", "1: 1 2 3\n" + "9" * LONG + ": 2 3 4\n"),
        ("d.txt", "9" * LONG + " 1 2\n"),
        ("d.csv", "roll,d1,d2,d3\n" + "9" * LONG + ",1,2,3\n"),
        ("d.json", "[[1, 2, " + "9" * LONG + "]]"),
        ("d.yaml", "- [1, 2, 0x" + "f" * LONG + "]\n"),
    ],
)
def test_a_long_number_in_a_dice_file_is_a_dice_error(
    name: str, content: str, tmp_path: Path
) -> None:
    (tmp_path / name).write_text(content)
    (tmp_path / "r.yaml").write_text("rounds: []\n")
    run = run_in_process(["validate", "r.yaml", "--dice", name], tmp_path)
    assert run.status == 2, run.stdout + run.stderr
    assert f"{name}:" in run.stderr and " D00" in run.stderr, run.stderr
    assert len(run.stderr) < 400, run.stderr


@pytest.mark.parametrize("command", ["validate", "report", "convert", "analyze"])
def test_every_command_reports_a_long_number_without_a_traceback(
    command: str, tmp_path: Path
) -> None:
    (tmp_path / "r.yaml").write_text("claimed_score: 0x" + "f" * LONG + "\nrounds: []\n")
    args = [command, "r.yaml", "--dice", str(CHALLENGE)]
    if command == "convert":
        args += ["--to", "json"]
    run = run_in_process(args, tmp_path)
    assert run.status == 1, run.stdout + run.stderr
    assert "E005" in run.stdout + run.stderr
    assert len(run.stdout + run.stderr) < 2000


# -- 6. A list or mapping where a value belongs ----------------------------------------------

WRONG_KINDS: list[Any] = [[], {}, [{}, 1], [[], None], {"a": [1]}, [[[]]]]


@pytest.mark.parametrize("kind", WRONG_KINDS, ids=[json.dumps(k) for k in WRONG_KINDS])
@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_wrong_kind_in_every_field_is_a_malformed_value(fmt: str, kind: Any) -> None:
    base: dict[str, Any] = {"cross": [1, 4], "move": [1, 1]}
    cases = [({key: kind, "rounds": [base]}, key) for key in HEADER_KEYS]
    cases += [({"rounds": [{**base, key: kind}]}, key) for key in ROUND_KEYS]
    for data, key in cases:
        if kind == [] and key == "path":
            continue  # an empty path is a path: the one a round without a move has
        text = json.dumps(data)  # JSON is YAML too: the YAML reader reads the same text
        with pytest.raises(ReadError) as caught:
            parse_record(text.encode(), fmt, source=f"r.{fmt}")
        codes = {d.code for d in caught.value.diagnostics}
        assert codes <= {"E005", "E003"} and "E005" in codes, (key, caught.value.diagnostics)


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("text", "1: 1 4 6 x [{}, 1] -> [[], null]\n"),
        ("csv", 'cross,move\n"[{}, 1]","[[], null]"\n'),
        ("csv", 'dice,cross,move\n"{1: 2}",1/4,1/1\n'),
    ],
)
def test_a_wrong_kind_in_text_and_csv_is_a_malformed_value(fmt: str, text: str) -> None:
    with pytest.raises(ReadError) as caught:
        parse_record(text.encode(), fmt, source=f"r.{fmt}")
    assert caught.value.diagnostic.code in {"E002", "E005"}, caught.value.diagnostics


# -- 7. Deeply nested JSON while recognising a format by content -----------------------------


DEEP_JSON = b'{"rounds": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"


def test_deep_json_without_a_name_is_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "entry").write_bytes(DEEP_JSON)
    run = run_in_process(["validate", "entry", "--dice", str(CHALLENGE)], tmp_path)
    assert run.status == 1 and "E00" in run.stdout + run.stderr
    # Standard input, in this process (a real pipe: the slow test below).
    piped = CliRunner().invoke(
        main, ["validate", "-", "--dice", str(CHALLENGE)], input=DEEP_JSON, env={"NO_COLOR": "1"}
    )
    if not isinstance(piped.exception, SystemExit):
        raise AssertionError("validate - raised") from piped.exception
    assert piped.exit_code == 1, piped.output
    assert "Traceback" not in piped.output and "<stdin>" in piped.stdout, piped.output
    checked = check_file(Checker.create(CHALLENGE, None, root=tmp_path), tmp_path, "entry")
    assert checked.skipped == "not a record file (no extension)"


@pytest.mark.slow  # a whole process
def test_deep_json_piped_to_a_real_process_is_not_a_traceback(tmp_path: Path) -> None:
    """The record above on a real pipe, as a shell gives it to the entry point."""
    piped = _run(["validate", "-", "--dice", CHALLENGE], tmp_path, input=DEEP_JSON)
    assert piped.returncode == 1, piped.stderr
    assert b"Traceback" not in piped.stderr


# -- issue 16: batch reads every file validate reads -----------------------------------------


def test_batch_checks_the_files_validate_recognises_by_content(contest: Path) -> None:
    (contest / "mary.record").write_text(ALICE_ENTRY)
    (contest / "nick_entry").write_text(json.dumps(json.loads(_alice_json())))
    (contest / "notes.md").write_text("# notes\n")
    for name in ("mary.record", "nick_entry"):
        alone = run_in_process(["validate", name, "--dice", str(CHALLENGE)], contest)
        assert alone.status == 0, alone.stdout
    run = run_in_process(["batch", ".", "--dice", str(CHALLENGE), "--format", "json"], contest)
    data = json.loads(run.stdout)
    assert {e["file"]: e["verdict"] for e in data["entries"]} == {
        "good.yaml": "valid",
        "mary.record": "valid",
        "nick_entry": "valid",
    }
    assert {s["file"]: s["reason"] for s in data["skipped"]} == {
        "notes.md": "not a record file (.md)"
    }


def _alice_json() -> str:
    run = run_in_process(["convert", str(EXAMPLES / "alice.yaml"), "--to", "json"])
    data = json.loads(run.stdout)
    data.pop("dice_file", None)
    data.pop("dice_sha256", None)
    return json.dumps(data)


# -- 8, 12. Terminal control and invisible characters through every channel ----------------

NOTE = "\x1b]0;pwned\x07 \x1b[2J \u200b\u202e <img src=x onerror=alert(1)>"


def test_convert_never_prints_a_records_controls(tmp_path: Path) -> None:
    # An unknown header key gets a did-you-mean hint that quotes the line, note and all.
    (tmp_path / "r.txt").write_text(f"playr: Ann  # {NOTE}\n1: 1 4 6 x 1/4 -> 1/1\n")
    run = run_in_process(["convert", "r.txt", "--to", "yaml"], tmp_path)
    assert run.status == 1
    assert "help:" in run.stderr  # the hint is there, escaped
    assert _raw(run.stdout + run.stderr) == []


def test_analyze_escapes_the_file_name_in_every_format(tmp_path: Path) -> None:
    name = "\x1b]0;t\x07<img src=x onerror=alert(1)>\n# heading\u200b.yaml"
    acceptance = ROOT / "tests" / "acceptance" / "incomplete"
    (tmp_path / name).write_text((acceptance / "record.yaml").read_text())
    shutil.copy(acceptance / "dice.txt", tmp_path / "dice.txt")
    for fmt in ("text", "md", "json"):
        args = ["analyze", name, "--dice", "dice.txt", "--time-limit", "0.01", "--format", fmt]
        run = run_in_process(args, tmp_path)
        assert run.status == 0, run.stderr
        assert _raw(run.stdout + run.stderr) == [], fmt
        if fmt == "md":
            assert "<img" not in run.stdout
            assert not any(line.startswith("# heading") for line in run.stdout.splitlines())
        if fmt == "json":
            assert json.loads(run.stdout)["record"] == name  # data stays lossless


def test_invisible_characters_are_visible_in_every_output(contest: Path, tmp_path: Path) -> None:
    player = "Ann\u200bLee\u202e\x1b[2J\u2028x"
    (contest / "ann\u200b.yaml").write_text(f"player: {json.dumps(player)}\n{ALICE_NAMELESS}")
    (contest / "good.yaml").unlink()
    outputs = []
    for fmt in ("table", "json", "csv"):
        run = run_in_process(["batch", str(contest), "--dice", str(CHALLENGE), "--format", fmt])
        assert run.status == 0, run.stderr
        outputs.append(run.stdout + run.stderr)
        if fmt == "json":
            data = json.loads(run.stdout)
            assert data["entries"][0]["player"] == player  # lossless once decoded
            assert "\\u2028" in run.stdout and "\\u200b" in run.stdout
    record = contest / "ann\u200b.yaml"
    shutil.copy(CHALLENGE, contest / "challenge.txt")
    for args in (
        ["validate", str(record), "--dice", str(CHALLENGE)],
        ["report", str(record), "--dice", str(CHALLENGE), "--format", "text"],
        ["report", str(record), "--dice", str(CHALLENGE), "--format", "md"],
        ["report", str(record), "--dice", str(CHALLENGE), "--format", "html"],
    ):
        run = run_in_process(args)
        assert run.status == 0, run.stderr
        outputs.append(run.stdout + run.stderr)
    for out in outputs:
        assert _raw(out) == [], out[:300]
    html = outputs[-1]
    title = html.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "\\u200b" in title and "\\u202e" in title


# -- 10. A file swapped after the walk -------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_file_swapped_for_a_fifo_after_the_walk_never_hangs(contest: Path) -> None:
    found = find_entries(contest)
    assert found.files == ["good.yaml"]
    (contest / "good.yaml").unlink()
    os.mkfifo(contest / "good.yaml")  # opening it for reading would wait for a writer
    checked = check_file(Checker.create(CHALLENGE, None, root=contest), contest, "good.yaml")
    assert checked.entry is not None and checked.entry.error is not None
    assert "not a regular file" in checked.entry.error.message


@pytest.mark.skipif(not POSIX, reason="symbolic links")
def test_a_file_or_folder_swapped_for_a_link_after_the_walk_is_not_followed(
    contest: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "x.yaml").write_text("player: TOP-SECRET\nrounds: [}\n")
    sub = contest / "sub"
    sub.mkdir()
    (sub / "x.yaml").write_text(ALICE_ENTRY)
    found = find_entries(contest)
    assert found.files == ["good.yaml", "sub/x.yaml"]
    (contest / "good.yaml").unlink()
    (contest / "good.yaml").symlink_to(secret / "x.yaml")
    shutil.rmtree(sub)
    sub.symlink_to(secret)
    checker = Checker.create(CHALLENGE, None, root=contest)
    for file in found.files:
        checked = check_file(checker, contest, file)
        assert checked.entry is not None and checked.entry.error is not None, file
        assert "TOP-SECRET" not in repr(checked), file
        assert "link" in checked.entry.error.message, checked.entry.error


# -- 11. Look-alike names in a draw ----------------------------------------------------------

LOOK_ALIKES = [
    "Ann Lee",
    "Ann\u200bLee",
    "Ann\u2060Lee",
    "Ann Lee\u00ad",
    "\uff21nn Lee",  # full-width A
    "Ann Le\u0435",  # Cyrillic e
    "\u0391nn L\u0435e",  # Greek Alpha, Cyrillic e
    "ANN LEE",
]


def test_look_alike_names_are_one_player(tmp_path: Path) -> None:
    assert {name_skeleton(n) for n in LOOK_ALIKES} == {"annlee"}
    assert name_skeleton("Anna Lee") != name_skeleton("Ann Lee")
    entries = [
        {"file": f"e{n}.yaml", "verdict": "valid", "score": 320, "end": "no-move", "error": None,
         "player": name}
        for n, name in enumerate(LOOK_ALIKES)
    ]  # fmt: skip
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"entries": entries}))
    run = run_in_process(["draw", str(results), "--seed", "s", "--one-per-player"], tmp_path)
    assert run.status == 0, run.stderr
    assert run.stdout.count("the same player as e0.yaml") == len(LOOK_ALIKES) - 1, run.stdout
    assert _raw(run.stdout + run.stderr) == []
    assert "\\u200b" in run.stdout and "\\u2060" in run.stdout


# -- 13. A huge value is quoted at most a line's worth ---------------------------------------


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("r.txt", "1: 1 4 6 x 1/4 -> 1/1 in " + "9" * (CAP // 2) + " steps\n"),
        ("r.txt", "1: 1 4 6 " + "9" * (CAP // 2) + "\n"),
        ("r.csv", "cross,move\n1/4," + "9" * (CAP // 2) + "\n"),
        ("r.yaml", "rounds:\n  - {cross: 1/4, move: " + "9" * (CAP // 2) + "}\n"),
        ("r.yaml", "a" * (CAP // 2) + ": 1\nrounds: []\n"),
        ("r.json", '{"rounds": [], "' + "k" * (CAP // 2) + '": 1}'),
    ],
    ids=lambda value: value if value.startswith("r.") else str(len(value)),
)
def test_a_huge_value_is_quoted_a_line_at_most(name: str, content: str, tmp_path: Path) -> None:
    (tmp_path / name).write_text(content)
    for fmt in ("text", "json"):
        run = run_in_process(
            ["validate", name, "--dice", str(CHALLENGE), "--format", fmt], tmp_path
        )
        assert run.status == 1
        assert len(run.stdout + run.stderr) < 3000, (fmt, len(run.stdout))


# -- 14. Memory inside the cap: unknown keys are counted, not each validated -----------------


@pytest.mark.parametrize("keys", sweep([6_000, 60_000]))
def test_thousands_of_unknown_keys_are_counted(keys: int) -> None:
    """60,000 keys fill a record near the cap (in the slow step: 0.25 s of YAML); 6,000,
    in a tenth of the time, are still a hundred times the diagnostics kept."""
    text = "".join(f"k{n}: 1\n" for n in range(keys)) + "rounds: []\n"
    with pytest.raises(ReadError) as caught:
        parse_record(text.encode(), "yaml", source="r.yaml")
    assert len(caught.value.diagnostics) == MAX_DIAGNOSTICS
    assert caught.value.omitted == keys - MAX_DIAGNOSTICS
    rounds = "rounds:\n  - {cross: 1/4, " + ", ".join(f"k{n}: 1" for n in range(5000)) + "}\n"
    with pytest.raises(ReadError) as caught:
        parse_record(rounds.encode(), "yaml", source="r.yaml")
    assert caught.value.omitted == 5000 - MAX_DIAGNOSTICS


# -- 15. Booleans are no numbers; U+2028 in JSON; full-width formula cells -------------------


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_boolean_where_a_number_belongs_is_malformed(fmt: str) -> None:
    text = '{"claimed_score": false, "rings": true, "rounds": [{"roll": true, "cross": [1, 4]}]}'
    with pytest.raises(ReadError) as caught:
        parse_record(text.encode(), fmt, source=f"r.{fmt}")
    found = {d.message for d in caught.value.diagnostics}
    assert found == {
        "claimed_score: must be a whole number, not false",
        "rings: must be a whole number, not true",
        "round 1, roll: must be a whole number, not true",
    }


@pytest.mark.parametrize(("fmt", "text"), [("yaml", "cross: true"), ("json", '"cross": false')])
def test_a_value_is_quoted_as_the_record_spells_it(fmt: str, text: str) -> None:
    """Not as Python spells it (`'True'`)."""
    data = f"rounds:\n- {text}\n" if fmt == "yaml" else f'{{"rounds": [{{{text}}}]}}'
    with pytest.raises(ReadError) as caught:
        parse_record(data.encode(), fmt, source=f"r.{fmt}")
    message = caught.value.diagnostic.message
    assert f"not '{text.split()[-1]}'" in message, message


def test_a_full_width_formula_cell_is_guarded_and_read_back(contest: Path, tmp_path: Path) -> None:
    (contest / "good.yaml").write_text('player: "\uff1d1+1"\n' + ALICE_NAMELESS)
    results = tmp_path / "r.csv"
    run = run_in_process(["batch", str(contest), "--dice", str(CHALLENGE), "-o", str(results)])
    assert run.status == 0, run.stderr
    assert ",'\uff1d1+1," in results.read_text()
    drawn = run_in_process(["draw", str(results), "--seed", "s"])
    assert drawn.status == 0 and "\uff1d1+1" in drawn.stdout and "'\uff1d" not in drawn.stdout


# -- 9 (its part here). SIGTERM while a pool checks: no traceback from the workers ----------


@pytest.mark.skipif(not POSIX, reason="POSIX signals")
@pytest.mark.parametrize(
    "sig",
    sweep(
        [signal.SIGINT, signal.SIGTERM], ids=lambda s: "Ctrl-C" if s == signal.SIGINT else s.name
    ),
)
def test_an_interrupted_pooled_batch_ends_quietly(tmp_path: Path, sig: int) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    entry = tmp_path / "entry.yaml"
    entry.write_text(ALICE_ENTRY)
    for n in range(2000):  # far more than the moment before the signal can check
        # Hard links: 2,000 entries without writing 2,000 files (that took 1-1.5 s here).
        os.link(entry, folder / f"p{n:04d}.yaml")
    proc = subprocess.Popen(
        cli_command(["batch", str(folder), "--dice", str(CHALLENGE), "--jobs", "2"]),
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's Ctrl-C reaches it
    )
    _wait_for_workers(proc, 2)  # the pool at work (2,000 entries take a while)
    assert proc.poll() is None, "the batch ended before the signal: give it more entries"
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # Ctrl-C: the whole group, workers included
    else:
        proc.send_signal(sig)  # `kill PID`: the batch alone
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == (143 if sig == signal.SIGTERM else 1), err
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode()


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:  # ended meanwhile
        return []


def _workers(pid: int) -> list[int]:
    """The pool workers under `pid`: its children (forks), or the children of its fork
    server (system/pool.py); the fork server and the resource tracker are no workers."""
    found: list[int] = []
    for child in _children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"multiprocessing.forkserver" in command:
            found += _children(child)
        elif b"multiprocessing.resource_tracker" not in command:
            found.append(child)
    return found


def _cpu_ticks(pid: int) -> int:
    """The CPU time `pid` has used, in clock ticks (utime and stime of /proc/PID/stat);
    0 once it has ended."""
    fields = proc_stat(pid)
    return 0 if fields is None else int(fields[11]) + int(fields[12])


CHECKING_TICKS = 3
"""The CPU time (in ticks, usually 10 ms each on Linux) after which a worker is surely checking
entries: its start, before the first entry, takes a few milliseconds."""


def _wait_for_workers(proc: subprocess.Popen[bytes], count: int) -> None:
    """Until the process's pool has `count` workers that have started checking (each has
    used `CHECKING_TICKS` of CPU: a fixed sleep would be too short on a busy machine and
    idle on a quiet one), on Linux; elsewhere a moment that is usually enough. A process
    that ends first fails the test with its own output."""
    pid = proc.pid
    if not Path(f"/proc/{pid}/task/{pid}/children").exists():
        time.sleep(2.0)
        return
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            _, err = proc.communicate()
            raise AssertionError(
                f"the batch ended ({proc.returncode}) before its pool worked: {err!r}"
            )
        workers = _workers(pid)
        if len(workers) >= count and all(_cpu_ticks(w) >= CHECKING_TICKS for w in workers):
            return
        time.sleep(0.01)
    raise AssertionError(f"no pool of {count} workers at work under {pid} within 60 s")


def test_a_nul_in_the_dice_file_name_is_refused_not_a_traceback(tmp_path: Path) -> None:
    """`dice_file: "challenge.txt\\0/etc/passwd"`: the path calls raise on a NUL (validate,
    report and convert printed a traceback; batch --site died in its workers)."""
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "challenge.txt").write_text(CHALLENGE.read_text())
    (folder / "nul.yaml").write_text(
        'dice_file: "challenge.txt\\0/etc/passwd"\nrounds:\n  - {cross: [1, 4], move: [1, 1]}\n'
    )
    for command in ("validate", "report"):
        run = run_in_process([command, "nul.yaml"], folder)
        assert run.status == 1 and "a control character is not allowed" in run.stdout + run.stderr
    site = tmp_path / "site"
    done = run_in_process(["batch", "entries", "--site", str(site), "--format", "json"], tmp_path)
    assert done.status == 0, done.stderr
    (entry,) = json.loads(done.stdout)["entries"]
    assert entry["error"]["code"] == "E005" and (site / "entries" / "0001.html").exists()
