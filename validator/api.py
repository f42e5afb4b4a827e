"""The library surface: check a record file, or read and replay records yourself.

Everything a program needs without reaching into the package's modules; re-exported by
`validator` (see docs/api.md).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from validator.check.file import Checker
from validator.check.replay import Result
from validator.check.replay import replay as _replay
from validator.engine import Dice, Ruleset
from validator.records import parse_record as _parse_record
from validator.records.dice import DiceFile
from validator.records.dice import read_dice as _read_dice
from validator.records.record import Record
from validator.rulesets import resolve

Rules = str | Ruleset
"""A ruleset, or its name like `"bga+escape=20"`."""


def resolve_rules(spec: Rules) -> Ruleset:
    """The ruleset named by `spec` (a built-in name with expansions, or a rules file);
    raises `validator.rulesets.RulesError` (a ValueError) when it names none."""
    return spec if isinstance(spec, Ruleset) else resolve(spec)


def read_dice(path: str | os.PathLike[str]) -> DiceFile:
    """Read a dice file (`.rows`, `.sha256`); raises `validator.errors.ReadError`."""
    return _read_dice(Path(path))


def parse_record(data: str | bytes, format: str = "yaml", *, source: str = "<record>") -> Record:
    """Read a record from text or bytes in `format` (yaml, json, text or csv); raises
    `validator.errors.ReadError` with the located diagnostic."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return _parse_record(raw, format, source=source)


def replay(rows: Sequence[Dice], record: Record, rules: Rules = "standard") -> Result:
    """Replay `record` on the dice `rows`; never raises for a bad record."""
    return _replay(rows, record, resolve_rules(rules))


def check_file(
    path: str | os.PathLike[str],
    *,
    dice: str | os.PathLike[str] | DiceFile | None = None,
    rules: Rules | None = None,
) -> Result:
    """Check one record file as `road300 validate` does: its verdict, score and first error.

    `dice` defaults to the record's own `dice_file`; `rules` to the record's `rules:`.
    A bad `dice` or `rules` raises (ReadError, RulesError); anything wrong with the
    record itself is in the Result.
    """
    dice_file = dice if isinstance(dice, DiceFile) or dice is None else read_dice(dice)
    ruleset = resolve_rules(rules) if rules is not None else None
    return Checker(dice_file, ruleset).check(Path(path))
