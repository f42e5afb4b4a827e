"""Every command that writes a file obeys one policy (validator/cli/output.py):

- `--output/-o` on each; "wrote ..." on stderr, never on stdout;
- the file is replaced whole or not at all: interrupted anywhere (in the process, and by
  SIGINT/SIGTERM from outside at several moments) the old file survives and no partial,
  empty or temporary file is left; two writers at once leave one whole document;
- a command that refuses to run writes nothing;
- precious files (dice, play) are replaced only with --force; other outputs are replaced.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import cli_command

from validator.cli import COMMANDS, main
from validator.cli.dice import dice_text

ROOT = Path(__file__).resolve().parent.parent
ALICE = ROOT / "examples" / "alice.yaml"
CHALLENGE = ROOT / "examples" / "challenge.txt"
OLD = "the old file\n"


@dataclass(frozen=True)
class Case:
    """One command writing `out` (a name in the test's folder), and a way to make it
    refuse to run (None: the command has no such refusal besides bad options)."""

    args: Callable[[Path, Path], list[str]]
    """(folder, output) -> the command's arguments."""
    out: str
    refuse: Callable[[Path, Path], list[str]]
    precious: bool = False


def _small(folder: Path) -> Path:
    dice = folder / "small.txt"
    if not dice.exists():
        dice.write_text(dice_text(6, "policy"))
    return dice


def _small_record(folder: Path) -> Path:
    record = folder / "small.yaml"
    if not record.exists():
        args = ["solve", str(_small(folder)), "--time-limit", "1", "-o", str(record)]
        assert CliRunner().invoke(main, args).exit_code == 0
    return record


def _entries(folder: Path, n: int = 3) -> Path:
    entries = folder / f"entries{n}"
    if not entries.exists():
        entries.mkdir()
        for i in range(n):
            shutil.copy(ALICE, entries / f"p{i:04}.yaml")
    return entries


MISSING = "no-such-dice.txt"

CASES: dict[str, Case] = {
    "validate": Case(
        lambda d, o: ["validate", str(ALICE), "--dice", str(CHALLENGE), "-o", str(o)],
        "out.json",
        lambda d, o: ["validate", str(ALICE), "--dice", str(d / MISSING), "-o", str(o)],
    ),
    "batch": Case(
        lambda d, o: ["batch", str(_entries(d)), "--dice", str(CHALLENGE), "-o", str(o)],
        "out.json",
        lambda d, o: ["batch", str(d / "no-such-folder"), "-o", str(o)],
    ),
    "report": Case(
        lambda d, o: ["report", str(ALICE), "--dice", str(CHALLENGE), "-o", str(o)],
        "out.html",
        lambda d, o: ["report", str(ALICE), "--dice", str(d / MISSING), "-o", str(o)],
    ),
    "convert": Case(
        lambda d, o: ["convert", str(ALICE), "--to", "json", "-o", str(o)],
        "out.json",
        # An illegal record is not converted (exit 1): nothing is written.
        lambda d, o: [
            "convert",
            str(ROOT / "examples" / "invalid" / "e203-cross-taken.yaml"),
            "--to",
            "json",
            "--dice",
            str(CHALLENGE),
            "-o",
            str(o),
        ],
    ),
    "solve": Case(
        lambda d, o: ["solve", str(_small(d)), "--time-limit", "1", "-o", str(o)],
        "out.yaml",
        lambda d, o: ["solve", str(ALICE), "-o", str(o)],
    ),
    "analyze": Case(
        lambda d, o: [
            "analyze",
            str(_small_record(d)),
            "--dice",
            str(_small(d)),
            "--time-limit",
            "0.05",
            "-o",
            str(o),
        ],
        "out.json",
        lambda d, o: [
            "analyze",
            str(ROOT / "examples" / "invalid" / "e203-cross-taken.yaml"),
            "--dice",
            str(CHALLENGE),
            "-o",
            str(o),
        ],
    ),
    "dice": Case(
        lambda d, o: ["dice", "--rows", "5", "--seed", "s", "-o", str(o)],
        "out.txt",
        lambda d, o: ["dice", "--rows", "5", "--seed", "s", "-o", str(o.with_suffix(".json"))],
        precious=True,
    ),
    "play": Case(
        # Without a terminal play refuses to run; that is all a test can make it do here
        # (its writes are tested through start_game below).
        lambda d, o: ["play", str(CHALLENGE), "-o", str(o)],
        "out.yaml",
        lambda d, o: ["play", str(CHALLENGE), "-o", str(o)],
        precious=True,
    ),
    "schema": Case(
        lambda d, o: ["schema", "--output-dir", str(o)],
        "schemas",
        lambda d, o: ["schema", "--output-dir", str(o), "--check"],
    ),
}
"""Every command that writes a file; `test_every_writing_command_is_covered` keeps it so."""

READ_ONLY = {"draw", "rules", "explain"}
"""Commands that only print."""
WRITES_ITS_ARGUMENT = {"contest"}
"""`contest init FILE` writes FILE (precious: --force to replace it), through the policy's
Target too (tests/test_contest_file.py)."""
WRITES_A_FOLDER = {"site"}
"""`site DICE -o DIR` writes index.html, play.html and the dice copy into DIR, each whole
(atomic) and never through a link, and replaces them (a different dice copy) only with
--force (tests/test_play_site.py)."""


def invoke(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args, env={"NO_COLOR": "1"})
    return result.exit_code, result.stdout, result.stderr


def leftovers(folder: Path) -> list[str]:
    """Temporary files a write left behind."""
    return sorted(p.name for p in folder.rglob(".*.tmp"))


def test_every_writing_command_is_covered() -> None:
    assert set(CASES) | READ_ONLY | WRITES_ITS_ARGUMENT | WRITES_A_FOLDER == set(COMMANDS)
    for name in CASES:
        if name == "schema":
            continue
        code, out, _ = invoke([name, "--help"])
        assert code == 0 and "-o, --output" in out, name


@pytest.mark.parametrize("name", sorted(set(CASES) - {"play", "schema"}))
def test_writes_the_file_and_says_so_on_stderr(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    out = tmp_path / case.out
    code, stdout, stderr = invoke(case.args(tmp_path, out))
    assert code == 0, stdout + stderr
    assert out.stat().st_size > 0
    assert "road300: wrote " in stderr and str(out) in stderr
    assert "wrote" not in stdout
    assert leftovers(tmp_path) == []
    out.read_bytes().decode("utf-8")  # valid UTF-8


@pytest.mark.parametrize("name", sorted(set(CASES) - {"play", "schema"}))
def test_an_existing_output_is_replaced_only_as_promised(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    out = tmp_path / case.out
    out.write_text(OLD)
    args = case.args(tmp_path, out)
    code, stdout, stderr = invoke(args)
    if case.precious:
        assert code == 2 and "--force" in stderr
        assert out.read_text() == OLD
        code, stdout, stderr = invoke([*args, "--force"])
    assert code == 0, stdout + stderr
    assert out.read_text() != OLD


def _read_into(path: Path, got: list[bytes]) -> None:
    got.append(path.read_bytes())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_device_a_pipe_or_a_link_is_written_through_never_replaced(tmp_path: Path) -> None:
    """`-o /dev/null` replaced the device with a file (run as root, for everyone). What
    is not a regular file is written through as a shell's `>` would; a link to a file
    stays a link, the file it points to is replaced. (A named pipe stands for a device
    here: a test never writes to the machine's /dev/null.)"""
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    link_to_pipe = tmp_path / "to-pipe"
    link_to_pipe.symlink_to(pipe)
    for target in (pipe, link_to_pipe):
        got: list[bytes] = []
        reader = threading.Thread(target=_read_into, args=(pipe, got), daemon=True)
        reader.start()
        code, _, stderr = invoke(["validate", str(ALICE), "--format", "json", "-o", str(target)])
        reader.join(30)
        assert code == 0, stderr
        assert json.loads(got[0])["score"] == 340
        assert pipe.is_fifo() and link_to_pipe.is_symlink()
    file, link = tmp_path / "results.json", tmp_path / "link.json"
    file.write_text(OLD)
    link.symlink_to(file.name)
    code, _, stderr = invoke(["validate", str(ALICE), "--format", "json", "-o", str(link)])
    assert code == 0, stderr
    assert link.is_symlink() and json.loads(file.read_text())["score"] == 340
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_command_that_refuses_to_run_writes_nothing(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    out = tmp_path / case.out
    code, stdout, stderr = invoke(case.refuse(tmp_path, out))
    assert code in (1, 2), stdout + stderr
    assert "Traceback" not in stdout + stderr
    assert not out.exists() and not out.with_suffix(".json").exists()
    assert leftovers(tmp_path) == []
    if name != "schema":  # and an old file survives a refusal
        out.write_text(OLD)
        assert invoke(case.refuse(tmp_path, out))[0] in (1, 2)
        assert out.read_text() == OLD


@pytest.mark.parametrize("name", sorted(set(CASES) - {"play", "schema"}))
def test_an_interrupted_write_leaves_the_old_file(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C at the worst moment: everything written, not yet renamed."""

    case = CASES[name]
    out = tmp_path / case.out
    args = case.args(tmp_path, out)  # builds its inputs before the trap is set
    out.write_text(OLD)

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    force = ["--force"] if case.precious else []
    code, _, _ = invoke([*args, *force])
    assert code != 0
    assert out.read_text() == OLD
    assert leftovers(tmp_path) == []


def test_schema_writes_every_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:

    folder = tmp_path / "schemas"
    code, _, stderr = invoke(["schema", "--output-dir", str(folder)])
    assert code == 0 and stderr.count("road300: wrote ") == 5
    first = sorted(folder.iterdir())[0]
    first.write_text(OLD)

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    assert invoke(["schema", "--output-dir", str(folder)])[0] != 0
    assert first.read_text() == OLD and leftovers(tmp_path) == []


def test_play_keeps_an_existing_game_unless_forced(tmp_path: Path) -> None:
    from validator.tui.start import StartError, start_game

    out = tmp_path / "game.yaml"
    out.write_text(OLD)
    code, _, stderr = invoke(["play", str(CHALLENGE), "-o", str(out)])
    assert code == 2 and "--force" in stderr and out.read_text() == OLD
    # --force passes that check, but without a terminal play still writes nothing.
    code, _, stderr = invoke(["play", str(CHALLENGE), "-o", str(out), "--force"])
    assert code == 2 and "needs a terminal" in stderr and out.read_text() == OLD
    with pytest.raises(StartError, match="--force"):
        start_game(CHALLENGE, output=out)
    start = start_game(CHALLENGE, output=out, force=True)
    assert out.read_text() != OLD and start.record_file.verify().verdict.ok
    assert leftovers(tmp_path) == []


def test_play_never_writes_over_its_dice_file(tmp_path: Path) -> None:
    dice = tmp_path / "dice.yaml"
    dice.write_text(json.dumps([[1, 2, 3], [4, 5, 6]]))
    before = dice.read_text()
    code, _, stderr = invoke(["play", str(dice), "-o", str(dice), "--force"])
    assert code == 2 and "is an input" in stderr and dice.read_text() == before


def test_a_name_that_is_not_utf8_writes_valid_utf8(tmp_path: Path) -> None:
    if sys.platform == "darwin":
        pytest.skip("the file system refuses names that are not UTF-8")
    entries = tmp_path / "entries"
    entries.mkdir()
    name = os.fsdecode(b"caf\xe9.yaml")
    shutil.copy(ALICE, entries / name)
    out = tmp_path / "r.json"
    out.write_text(OLD)
    code, _, stderr = invoke(["batch", str(entries), "--dice", str(CHALLENGE), "-o", str(out)])
    assert "Traceback" not in stderr
    if code == 0:
        data = json.loads(out.read_bytes().decode("utf-8"))
        assert len(data["entries"]) == 1
    else:
        assert out.read_text() == OLD
    assert leftovers(tmp_path) == []


# -- Signals from outside, and two writers at once (subprocesses: the slow step) ----------


def _process(args: list[str]) -> subprocess.Popen[bytes]:
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        cli_command(args),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )


def _whole(data: bytes, full: bytes, suffix: str) -> bool:
    """Whether `data` is a whole output like `full` (which may differ in timings)."""
    if data == full:
        return True
    text = data.decode("utf-8")
    if suffix == ".json":
        return all(json.loads(line) is not None for line in text.splitlines()) and text != ""
    if suffix == ".html":
        return text.rstrip().endswith("</html>")
    if suffix == ".yaml":
        import yaml

        return bool(yaml.safe_load(text)["rounds"])
    return False


def _signal_trial(args: list[str], out: Path, full: bytes, sig: int, after: float) -> None:
    """Run the command over an old `out`, send `sig` after `after` seconds: `out` is then
    the old file or a whole new one, and no temporary file is left. (A signal during
    Python's start-up may print a KeyboardInterrupt traceback: no file is open then.)"""
    out.write_text(OLD)
    process = _process(args)
    time.sleep(after)
    process.send_signal(sig)
    process.communicate(timeout=120)
    data = out.read_bytes()
    assert data == OLD.encode() or _whole(data, full, out.suffix), f"{after} s: partial file"
    assert leftovers(out.parent) == []


def _reference(args: list[str], out: Path) -> bytes:
    process = _process(args)
    assert process.wait(timeout=120) == 0
    data = out.read_bytes()
    out.unlink()
    return data


@pytest.mark.slow
def test_batch_interrupted_by_signals_leaves_old_or_whole(tmp_path: Path) -> None:
    entries = _entries(tmp_path, 200)
    out = tmp_path / "r.json"
    args = ["batch", str(entries), "--dice", str(CHALLENGE), "-o", str(out), "-j", "1"]
    full = _reference(args, out)
    for sig, after in ((signal.SIGINT, 0.4), (signal.SIGTERM, 1.2)):
        _signal_trial(args, out, full, sig, after)


@pytest.mark.slow
def test_two_batches_writing_one_file_leave_one_whole_document(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    runs = []
    for n in (40, 80):
        args = ["batch", str(_entries(tmp_path, n)), "--dice", str(CHALLENGE), "-o", str(out)]
        runs.append((args, _reference([*args, "-j", "1"], out)))
    processes = [_process([*args, "-j", "1"]) for args, _ in runs]
    for process in processes:
        assert process.wait(timeout=120) == 0
    assert out.read_bytes() in {full for _, full in runs}
    assert leftovers(tmp_path) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(CASES) - {"play", "schema"}))
def test_every_command_interrupted_at_several_moments(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    out = tmp_path / case.out
    args = case.args(tmp_path, out)
    if case.precious:
        args.append("--force")
    full = _reference(args, out)
    for sig, after in (
        (signal.SIGINT, 0.1),
        (signal.SIGINT, 0.5),
        (signal.SIGTERM, 0.8),
        (signal.SIGINT, 1.5),
        (signal.SIGTERM, 3.0),
    ):
        _signal_trial(args, out, full, sig, after)


@pytest.mark.slow
def test_sigterm_stops_a_parallel_batch_quietly(tmp_path: Path) -> None:
    """Issue 17 saw BrokenPipeError tracebacks from the workers on SIGTERM with --jobs 2
    (not reproduced here before the fix either: this guards the quiet exit, status 143)."""
    entries = _entries(tmp_path, 300)
    out = tmp_path / "r.json"
    out.write_text(OLD)
    process = _process(["batch", str(entries), "--dice", str(CHALLENGE), "-o", str(out), "-j", "2"])
    time.sleep(1.5)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    assert b"Traceback" not in stderr and b"Error" not in stderr, stderr.decode()
    data = out.read_bytes()
    assert data == OLD.encode() or len(json.loads(data)["entries"]) == 300
    assert leftovers(tmp_path) == []
