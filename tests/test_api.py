"""The library surface: the program in docs/api.md, and each function on its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import validator
from validator import Verdict, check_file, parse_record, read_dice, replay, resolve_rules

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def test_every_name_in_all_is_exported() -> None:
    for name in validator.__all__:
        assert getattr(validator, name) is not None
    with pytest.raises(AttributeError):
        _ = validator.no_such_name


def test_check_file_with_and_without_dice() -> None:
    alice = check_file(EXAMPLES / "alice.yaml", dice=EXAMPLES / "challenge.txt")
    assert alice.verdict is Verdict.VALID and alice.score == 340
    assert check_file(str(EXAMPLES / "alice.yaml")).score == 340  # its own dice_file
    invalid = check_file(EXAMPLES / "invalid" / "e203-cross-taken.yaml", rules="standard")
    assert invalid.verdict is Verdict.INVALID
    assert invalid.error is not None and invalid.error.code == "E203"


def test_parse_and_replay_from_memory() -> None:
    dice = read_dice(EXAMPLES / "challenge.txt")
    assert len(dice.rows) > 20 and re.fullmatch("[0-9a-f]{64}", dice.sha256)
    text = (EXAMPLES / "alice.yaml").read_text(encoding="utf-8")
    record = parse_record(text, "yaml")
    assert record.player == "Alice Example"
    result = replay(dice.rows, record, "standard")
    assert result.verdict is Verdict.VALID and result.score == 340
    assert replay(dice.rows, record, resolve_rules("bga")).rules.name == "bga"


def test_the_docs_program_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    program = re.search(r"```python\n(.*?)```", doc, re.S)
    assert program is not None
    for name in ("alice.yaml", "challenge.txt"):
        (tmp_path / name).write_bytes((EXAMPLES / name).read_bytes())
    (tmp_path / "broken.yaml").write_text("rounds: [\n", encoding="utf-8")
    code = program.group(1).replace('"entries"', repr(str(tmp_path)))
    exec(compile(code, "docs/api.md", "exec"), {})
    out = capsys.readouterr().out
    assert "alice.yaml: valid 340" in out
    assert "broken.yaml: malformed" in out


def test_both_parse_records_take_their_arguments_in_one_order() -> None:
    """`validator.parse_record` and `validator.records.parse_record`: data, then format,
    then the source by name, so that a call written for one means the same to the other."""
    import inspect

    import validator
    from validator import records

    public = inspect.signature(validator.parse_record).parameters
    inner = inspect.signature(records.parse_record).parameters
    assert list(public)[:2] == ["data", "format"] and list(inner)[:2] == ["data", "fmt"]
    for params in (public, inner):
        assert params["source"].kind is inspect.Parameter.KEYWORD_ONLY
    text = "rounds: []\n"
    assert validator.parse_record(text, "yaml", source="a") == records.parse_record(
        text, "yaml", source="a"
    )
