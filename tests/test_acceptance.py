"""Acceptance cases: each folder of tests/acceptance/ run through the real CLI.

A case holds dice.txt, record.<yaml|json|txt|csv>, expected.yaml (exit status and
the fixed JSON fields; `args` adds options, `dice_option: false` leaves out --dice) and
expected.txt (the text report, a golden file: `REFRESH_GOLDEN=1 pytest
tests/test_acceptance.py` rewrites it after an intended change; review the diff).
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from conftest import CliRun, run_in_process

from validator.cli import main
from validator.errors import CODES

CASES_DIR = Path(__file__).parent / "acceptance"
CASES = sorted(p for p in CASES_DIR.iterdir() if (p / "expected.yaml").is_file())
REFRESH = os.environ.get("REFRESH_GOLDEN") == "1"

# Codes a record cannot produce on its own: warnings, and dice-file problems (exit 2).
NOT_FROM_A_RECORD = {c for c in CODES if c.startswith(("W", "D"))} | {"E008"}
"""Warnings, dice-file codes, and a mail's two records (E008, tests/test_mail.py)."""


def _record(case: Path) -> Path:
    (record,) = [p for p in case.iterdir() if p.stem == "record"]
    return record


@cache
def _expected(case: Path) -> dict[str, Any]:
    """The case's expected.yaml, read once (the tests below ask for it about 1,000 times;
    none changes it)."""
    data: dict[str, Any] = yaml.safe_load((case / "expected.yaml").read_text(encoding="utf-8"))
    return data


def _args(case: Path) -> list[str]:
    expected = _expected(case)
    args = ["validate", _record(case).name, "--format", "json", *expected.get("args", [])]
    if expected.get("dice_option", True):
        args += ["--dice", "dice.txt"]
    return args


@cache
def _run(case: Path) -> CliRun:
    """The case run once, by the first test that asks (each case by its own test_case, so
    that a mutation test tool sees which test runs which case)."""
    return run_in_process(_args(case), case)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case: Path) -> None:
    expected = _expected(case)
    run = _run(case)
    assert "Traceback" not in run.stderr
    assert run.status == expected["exit"], run.stdout + run.stderr
    got = run.json()
    assert {k: got[k] for k in ("verdict", "score", "end")} == {
        k: expected[k] for k in ("verdict", "score", "end")
    }
    want_error = expected["error"]
    if want_error is None:
        assert got["error"] is None or got["error"]["code"].startswith("W")
    else:
        assert got["error"] is not None, got
        # Code, roll, round, line, column, and the message and hint word for word.
        assert {k: got["error"][k] for k in want_error} == want_error


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_text_output(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The text report of every case, byte for byte as `expected.txt` holds it: the message,
    the quoted line and the caret under the column, the dice row, the hint, the board with
    the step that breaks the rules, and what was legal there. Refresh after an intended
    change with `REFRESH_GOLDEN=1 pytest tests/test_acceptance.py` and review the diff."""
    monkeypatch.chdir(case)
    monkeypatch.setenv("NO_COLOR", "1")
    args = [a for a in _args(case) if a not in ("--format", "json")]
    result = CliRunner().invoke(main, args, env={"COLUMNS": "100"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == _expected(case)["exit"], result.output
    assert _expected(case)["verdict"] in result.output
    golden = case / "expected.txt"
    if REFRESH or not golden.exists():
        golden.write_text(result.output, encoding="utf-8")
        if not REFRESH:
            pytest.fail(f"{golden} did not exist and was written; review and commit it")
    assert result.output == golden.read_text(encoding="utf-8"), (
        f"{golden} differs; if the change is intended, run REFRESH_GOLDEN=1 pytest {__file__}"
    )


POINTS_AT = {
    "E101": "dice",
    "E102": "steps",
    "E103": "roll",
    "E104": "roll",
    "E105": "roll",
    "E106": "{",
    "E107": "claimed_score",
    "E108": "dice_sha256",
    "E109": "rings",
    "E201": "reroll",
    "E202": "cross",
    "E203": "cross",
    "E204": "cross",
    "E205": "move",
    "E206": "path",
    "E207": "{",
    "E208": "move",
    "E209": "move",
    "E211": "ring",
    "E212": "ring",
    "E213": "ring",
}
"""What the column of each error about a YAML round or header points at: the key of the
item at fault (`{`: the whole round). A bug that located every step at `roll` fails here."""


def _points_at(source: str, error: dict[str, Any]) -> str:
    line = source.splitlines()[int(error["line"]) - 1]
    return line[int(error["col"]) - 1 :]


def test_every_case_with_an_error_pins_its_column_and_words() -> None:
    for case in CASES:
        error = _expected(case)["error"]
        if error is not None:
            assert {"line", "col", "message", "hint"} <= set(error), case.name


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_column_points_at_the_item_at_fault(case: Path) -> None:
    error = _run(case).json()["error"]
    record = _record(case)
    if error is None or record.suffix != ".yaml" or error["code"] not in POINTS_AT:
        return
    item = _points_at(record.read_text(encoding="utf-8"), error)
    assert item.startswith(POINTS_AT[error["code"]]), (error["code"], item)


def test_every_record_code_has_a_case() -> None:
    covered = {
        _expected(case)["error"]["code"] for case in CASES if _expected(case)["error"] is not None
    }
    assert set(CODES) - NOT_FROM_A_RECORD - covered == set()


@pytest.mark.parametrize(
    "kind", ["valid", "incomplete", "invalid", "malformed", "no-move", "rerolls", "dice-exhausted"]
)
def test_every_outcome_has_a_case(kind: str) -> None:
    outcomes = {(_expected(c)["verdict"], _expected(c)["end"]) for c in CASES}
    assert any(kind in pair for pair in outcomes)


# --- examples/invalid: one record per kind of illegal step -----------------------------

INVALID_DIR = Path(__file__).parent.parent / "examples" / "invalid"
INVALID = sorted(INVALID_DIR.glob("*.yaml"))
_COMMENT = re.compile(r"^# (E\d{3}) roll (\d+|none): \S")


def _claim(example: Path) -> tuple[str, int | None]:
    """The code and dice row the example's first line says it breaks."""
    first = example.read_text(encoding="utf-8").splitlines()[0]
    match = _COMMENT.match(first)
    assert match, f"{example.name}: the first line must say `# CODE roll N: what is wrong`"
    code, roll = match.groups()
    assert example.name.startswith(code.lower() + "-")
    return code, None if roll == "none" else int(roll)


@pytest.mark.parametrize("example", INVALID, ids=[p.stem for p in INVALID])
def test_invalid_example(example: Path) -> None:
    # Each example names ../challenge.txt as its dice_file (no --dice).
    run = run_in_process(["validate", example.name, "--format", "json"], INVALID_DIR)
    assert run.status == 1, run.stderr
    code, roll = _claim(example)
    got = run.json()
    assert got["verdict"] == "invalid"
    assert (got["error"]["code"], got["error"]["roll"]) == (code, roll)
    item = _points_at(example.read_text(encoding="utf-8"), got["error"])
    assert item.startswith(POINTS_AT[code]), (code, item)


def test_invalid_examples_cover_each_code() -> None:
    """One example per code a readable record can break (README: one per code)."""
    kinds = {c for c, info in CODES.items() if info.kind_name in ("record", "rules")}
    claims = [_claim(p)[0] for p in INVALID]
    assert sorted(claims) == sorted(kinds)


def test_the_generated_invalid_examples_are_committed() -> None:
    from tools.make_examples import invalid_examples

    for name, text in invalid_examples().items():
        assert (INVALID_DIR / name).read_text(encoding="utf-8") == text, name
