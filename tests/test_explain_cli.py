"""`road300 explain`, `-V`, `--quiet` and NO_COLOR as no-color.org defines it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from validator.cli import main
from validator.errors import CODES
from validator.render.code_doc import code_docs

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"


def test_explain_prints_the_documented_row() -> None:
    out = CliRunner().invoke(main, ["explain", "e203"])
    assert out.exit_code == 0
    assert out.stdout.startswith("E203 cross-taken")
    assert "verdict: invalid" in out.stdout and "example:" in out.stdout
    assert CliRunner().invoke(main, ["explain", "cross-taken"]).stdout == out.stdout


def test_explain_list_has_every_code() -> None:
    out = CliRunner().invoke(main, ["explain", "--list"])
    assert out.exit_code == 0
    listed = [line.split()[0] for line in out.stdout.splitlines()]
    assert listed == list(code_docs()) and set(listed) == set(CODES)


def test_explain_unknown_code_is_a_usage_error() -> None:
    out = CliRunner().invoke(main, ["explain", "E299"])
    assert out.exit_code == 2
    assert "no error code 'E299'" in out.stderr and "E209" in out.stderr


def test_short_version_flag() -> None:
    assert CliRunner().invoke(main, ["-V"]).stdout.startswith("road300, version ")


def test_quiet_prints_only_failures() -> None:
    args = ["validate", str(ROOT / "examples" / "alice.yaml"), "--dice", str(CHALLENGE)]
    bad = str(ROOT / "examples" / "invalid" / "e203-cross-taken.yaml")
    out = CliRunner().invoke(main, [*args, bad, "--quiet"], env={"NO_COLOR": "1"})
    assert out.exit_code == 1
    assert "alice.yaml" not in out.stdout and "e203-cross-taken.yaml: invalid" in out.stdout
    assert "2 records: 1 valid, 1 invalid" in out.stdout


def test_an_empty_no_color_does_not_count(monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.cli.common import make_console

    monkeypatch.setenv("NO_COLOR", "")
    assert make_console().no_color is False
    monkeypatch.setenv("NO_COLOR", "1")
    console = make_console()
    assert console.no_color is True and console.color_system is None  # no bold either
