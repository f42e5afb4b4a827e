"""`road300 play` as a command: options that cannot work end with a message and exit 2,
never a traceback; textual loads only for this command."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from validator.cli import main

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["missing.txt"], "missing.txt"),
        ([str(CHALLENGE), "--rules", "nonsense"], "--rules: unknown ruleset 'nonsense'"),
        ([str(CHALLENGE), "--rings", "2"], "has no magic rings"),
        ([str(CHALLENGE), "--rules", "bga+rings=1", "--rings", "2"], "declare 1 to 1 rings"),
        ([str(CHALLENGE), "--output", "g.csv"], "name it .yaml"),
    ],
)
def test_unusable_options_exit_2_with_a_message(
    args: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, output = run(*args)
    assert status == 2
    assert output.startswith("road300: error: ") and words in output
    assert "Traceback" not in output


def test_bad_dice_file_names_its_line(tmp_path: Path) -> None:
    dice = tmp_path / "dice.txt"
    dice.write_text("1 2 3\n1 2 x\n")
    status, output = run(str(dice), "--output", str(tmp_path / "g.yaml"))
    assert status == 2 and "dice.txt:2" in output


def test_an_existing_record_is_never_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "g.yaml"
    out.write_text("keep me\n")
    status, output = run(str(CHALLENGE), "--output", str(out))
    assert status == 2 and f"continue it with --resume {out}" in output
    assert out.read_text() == "keep me\n"


def test_resume_refuses_an_invalid_record_with_its_diagnostic(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("rounds:\n  - {cross: 1/4, move: 6/6}\n  - {cross: 1/4, move: 1/1}\n")
    status, output = run(str(CHALLENGE), "--resume", str(bad))
    assert status == 2
    assert "E202" in output or "E203" in output
    assert "the record is invalid; it cannot go on" in output


def test_resume_of_a_finished_game_says_so() -> None:
    status, output = run(str(CHALLENGE), "--resume", str(ROOT / "examples" / "alice.yaml"))
    assert status == 0 and "the game is already over: valid" in output


def test_help_and_version_do_not_load_textual() -> None:
    code = (
        "import sys\n"
        "from validator.cli import main\n"
        "try:\n"
        "    main(['--version'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('textual' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.stdout.strip().endswith("False")
    status, output = run("--help")
    assert status == 0 and "--resume RECORD" in output and "docs/play.md" in output


class PtyGame:
    """The real command in a pseudo-terminal: a child process whose screen is read back."""

    def __init__(self, argv: list[str]) -> None:
        import os
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command, in the pseudo-terminal
            os.environ.update(TERM="xterm-256color", PYTHONPATH=str(ROOT))
            os.execv(sys.executable, argv)

    def read_until(self, done: Callable[[bytes], bool], seconds: float) -> bytes:
        """What the terminal shows until `done` holds of it or `seconds` pass (a slow or
        busy machine takes longer to start; a fixed pause raced its start-up)."""
        import os
        import select
        import time

        data, end = b"", time.monotonic() + seconds
        while time.monotonic() < end and not done(data):
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    data += os.read(self.fd, 65536)
                except OSError:  # the child has closed the terminal: it has ended
                    break
        return data

    def ended(self) -> int | None:
        """The child's exit status, waiting for it a while: never forever."""
        import os
        import signal
        import time

        end = time.monotonic() + 60
        while time.monotonic() < end:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.1)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        return None


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_real_terminal_ctrl_c_keeps_the_record(tmp_path: Path) -> None:
    """The real command in a pseudo-terminal: three Enters play a round, Ctrl-C quits."""
    import os

    out = tmp_path / "game.yaml"
    game = PtyGame(
        [sys.executable, "-m", "validator", "play", str(CHALLENGE), "--output", str(out)]
    )
    try:
        shown = game.read_until(lambda data: b"Road to 300" in data, 120)
        assert b"Road to 300" in shown, shown.decode(errors="replace")[-2000:]
        for _ in range(3):
            os.write(game.fd, b"\r")
            game.read_until(lambda data: False, 1)
        os.write(game.fd, b"\x03")
        tail = game.read_until(lambda data: b"--resume" in data, 60).decode(errors="replace")
        tail += game.read_until(lambda data: False, 0.5).decode(errors="replace")
    finally:
        code = game.ended()  # the child ended, or killed: never left behind
        os.close(game.fd)
    assert code == 0, tail[-2000:]
    assert f"Saved {out} (1 roll(s) played)" in tail
    assert "--resume" in tail and "Traceback" not in tail
    assert out.read_text().count("  - {roll: 1,") == 1


RESTORE = {
    "the alternate screen left": b"\x1b[?1049l",
    "the cursor shown": b"\x1b[?25h",
    "mouse reporting off": b"\x1b[?1000l",
    "SGR mouse reporting off": b"\x1b[?1006l",
}
"""What a terminal needs back from a full-screen game, as the game set it on start."""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
@pytest.mark.parametrize(
    ("name", "extra"),
    [
        ("SIGTERM", ()),
        ("SIGHUP", ()),
        ("SIGINT", ()),
        ("SIGQUIT", ()),
        # A hint's search of two minutes under way: stopped, not waited for.
        ("SIGTERM", ("--hint", "--hint-time", "120")),
    ],
)
def test_a_signal_from_outside_restores_the_terminal(
    tmp_path: Path, name: str, extra: tuple[str, ...]
) -> None:
    """`kill` (SIGTERM), a closed terminal window (SIGHUP), and SIGINT or SIGQUIT sent from
    outside the game: the terminal gets its screen, cursor and mouse back at once, the
    record is kept, and the exit status is 128 + the signal's number, as a shell expects."""
    import os
    import signal
    import time

    signum = getattr(signal, name)
    out = tmp_path / "game.yaml"
    argv = [sys.executable, "-m", "validator", "play", str(CHALLENGE), "--output", str(out)]
    game = PtyGame([*argv, *extra])
    try:
        shown = game.read_until(lambda data: b"Cross out a field" in data, 120)
        assert b"\x1b[?1049h" in shown and b"\x1b[?1000h" in shown and b"\x1b[?25l" in shown
        if extra:
            assert b"thinking" in shown
        os.kill(game.pid, signum)
        sent = time.monotonic()
        tail = game.read_until(lambda data: b"--resume" in data, 60)
        took = time.monotonic() - sent
        tail += game.read_until(lambda data: False, 0.5)
    finally:
        code = game.ended()
        os.close(game.fd)
    assert took < 20, f"{took:.1f} s from the signal to the terminal given back"
    text = tail.decode(errors="replace")
    for what, sequence in RESTORE.items():
        assert sequence in tail, f"{what}: {text[-2000:]!r}"
    assert code == 128 + signum, text[-2000:]
    assert f"Saved {out} (0 roll(s) played)" in text and "Traceback" not in text
    assert out.exists()


def test_the_play_command_only_parses_options_for_its_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cli.play.run` starts the game from its typed options, without click: a finished
    record says so; a new game needs a terminal (exit 2, nothing written)."""
    from validator.cli.play import PlayOptions
    from validator.cli.play import run as run_play

    def options(**given: object) -> PlayOptions:
        fields: dict[str, object] = {
            "dice": CHALLENGE,
            "rules": None,
            "player": None,
            "output": None,
            "resume": None,
            "rings": None,
            "with_text": False,
            "hint": False,
            "hint_time": 2.0,
            "hint_nodes": None,
            "force": False,
        }
        return PlayOptions(**(fields | given))  # type: ignore[arg-type]

    alice = ROOT / "examples" / "alice.yaml"
    assert run_play(options(resume=alice)) == 0
    assert "the game is already over: valid" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stopped:
        run_play(options(output=tmp_path / "new.yaml"))
    assert stopped.value.code == 2 and "needs a terminal" in capsys.readouterr().err
    assert not (tmp_path / "new.yaml").exists()
