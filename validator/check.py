"""Checking one record file end to end: read it, pick dice and rules, replay it.

Shared by every command (validate, batch, report). A record that cannot be read becomes
a `malformed` Result; only problems with the dice file or the options raise.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from validator.engine import STANDARD, Ruleset
from validator.errors import Diagnostic, ReadError
from validator.readers import read_record
from validator.readers.dice import DiceFile, read_dice
from validator.replay import Result, malformed, replay
from validator.rulesets import RulesError, is_rules_file, resolve


class UsageError(Exception):
    """The command cannot run (bad dice file, unknown ruleset); exit status 2."""

    def __init__(self, message: str, diagnostic: Diagnostic | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.diagnostic = diagnostic


@dataclass
class Checker:
    """Checks record files against one dice file (or the one each record names)."""

    dice: DiceFile | None = None
    rules: Ruleset | None = None
    """The ruleset given on the command line; it wins over a record's `rules:`."""
    _dice_cache: dict[Path, DiceFile] = field(default_factory=dict)

    @classmethod
    def create(cls, dice_path: Path | None, rules_spec: str | None) -> Checker:
        """Raises UsageError when the dice file or the ruleset is unusable."""
        rules = None
        if rules_spec is not None:
            try:
                rules = resolve(rules_spec)
            except RulesError as exc:
                raise UsageError(f"--rules: {exc}") from None
        dice = load_dice(dice_path) if dice_path is not None else None
        return cls(dice, rules)

    def check(self, path: Path, source: str | None = None) -> Result:
        name = source or str(path)
        default_rules = self.rules or STANDARD
        try:
            record = read_record(path, name)
        except ReadError as exc:
            return malformed(exc.diagnostic, default_rules, name)
        named: Ruleset | None = None
        if record.rules is not None:
            line, col = record.where("rules") or (None, None)
            if is_rules_file(record.rules.split("+")[0]):
                # An entry must not make the organizer's machine read files of its choosing.
                message = (
                    "rules: a record names a built-in ruleset (like bga+escape=20); "
                    "house rules files are given with --rules"
                )
                return malformed(Diagnostic("E005", message, name, line, col), default_rules)
            try:
                named = resolve(record.rules)
            except RulesError as exc:
                if self.rules is None:
                    return malformed(Diagnostic("E005", f"rules: {exc}", name, line, col), STANDARD)
        rules = self.rules or named or STANDARD
        notes = []
        if record.rules not in (None, rules.name) and (
            named is None or not same_rules(named, rules)
        ):
            notes.append(
                Diagnostic(
                    "W002",
                    f"the record names the ruleset {record.rules!r}, "
                    f"but {rules.name!r} is enforced",
                    name,
                    line,
                    col,
                )
            )
        dice = self.dice or self._record_dice(path, record.dice_file, name)
        return replay(dice.rows, record, rules, dice_sha256=dice.sha256, notes=notes)

    def _record_dice(self, path: Path, dice_file: str | None, name: str) -> DiceFile:
        if dice_file is None:
            raise UsageError(f"{name}: no dice file: give --dice FILE (the record names none)")
        dice_path = (path.parent / dice_file).resolve()
        if dice_path not in self._dice_cache:
            self._dice_cache[dice_path] = load_dice(dice_path)
        return self._dice_cache[dice_path]


def same_rules(a: Ruleset, b: Ruleset) -> bool:
    """Whether two rulesets play the same, whatever they are called."""
    return replace(a, name="") == replace(b, name="")


def load_dice(path: Path) -> DiceFile:
    try:
        return read_dice(path)
    except ReadError as exc:
        d = exc.diagnostic
        raise UsageError(f"{d.location()}: {d.code} {d.message}", d) from None
