"""Checking one record file end to end: read it, pick dice and rules, replay it.

Shared by every command (validate, batch, report). Everything that concerns one record
(its unreadable file, the dice file it names, its ruleset) becomes that record's Result;
only the command's own options (`--dice`, `--rules`) raise UsageError.
"""

from __future__ import annotations

import functools
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from validator.check.replay import Result, malformed, replay
from validator.engine import STANDARD, Dice, Ruleset
from validator.engine.phrase import N_, Phrase, Text, phrase
from validator.errors import CODES, Diagnostic, ReadError
from validator.records import format_of, parse_record, sniff_format
from validator.records.dice import DiceFile, read_dice
from validator.records.record import Record
from validator.records.source import MAX_BYTES, MAX_DICE_BYTES, STDIN, name_text, read_bytes
from validator.rulesets import RulesError, is_rules_file, resolve, same_rules

ROUNDS_WITHOUT_DICE = 10_000
"""How far a record is read without `--dice`: the dice file it names is the entrant's own
(or missing), so only this bounds the work. Far more rounds than a game has; far fewer
than a megabyte of text rounds (95,000), which would cost seconds."""


class UsageError(Exception):
    """The command cannot run (bad dice file, unknown ruleset); exit status 2."""

    def __init__(self, message: Text, diagnostic: Diagnostic | None = None) -> None:
        super().__init__(str(message))
        self.said = message
        """The message as a phrase (a dice file's problem), for the reader's language."""
        self.diagnostic = diagnostic

    @property
    def message(self) -> str:
        """The message in English."""
        return str(self.said)


@dataclass
class Checker:
    """Checks record files against one dice file (or the one each record names)."""

    dice: DiceFile | None = None
    rules: Ruleset | None = None
    """The ruleset given on the command line; it wins over a record's `rules:`."""
    root: Path | None = None
    """A contest folder: a record's `dice_file:` must then name a file inside it."""
    max_bytes: int = MAX_BYTES
    """Records larger than this are refused before they are parsed."""
    _dice_cache: dict[Path, DiceFile | _DiceProblem] = field(default_factory=dict)

    @classmethod
    def create(
        cls,
        dice_path: Path | None,
        rules_spec: str | None,
        *,
        root: Path | None = None,
        max_bytes: int | None = None,
    ) -> Checker:
        """Raises UsageError when the dice file or the ruleset is unusable."""
        rules = None
        if rules_spec is not None:
            try:
                rules = resolve(rules_spec)
            except RulesError as exc:
                raise UsageError(f"--rules: {exc}") from None
        dice = load_dice(dice_path) if dice_path is not None else None
        folder = root.resolve() if root is not None else None
        return cls(dice, rules, folder, max_bytes or MAX_BYTES)

    def check(
        self,
        path: Path,
        source: str | None = None,
        fmt: str | None = None,
        *,
        data: bytes | None = None,
    ) -> Result:
        """The Result for one record file (`-`: standard input, in `fmt` or recognised by
        its content); never raises for anything the file holds. `data` is the file's
        content when the caller has read it already (a batch opens each entry once).

        Bounds come before work: the file is refused by size before it is parsed, and
        reading stops one round after the dice file's last row (that round is a round
        after the end, which the replay reports), and after ROUNDS_WITHOUT_DICE rounds
        without --dice."""
        stdin = str(path) == STDIN
        name = source or ("<stdin>" if stdin else name_text(str(path)))
        default_rules = self.rules or STANDARD
        problem = None if stdin or data is not None else _not_a_regular_file(path)
        if problem is not None:
            hint = FOLDER_HINT if path.is_dir() else ""
            return malformed(Diagnostic.said("E001", problem, name, hint=hint), default_rules, name)
        try:
            if data is None:
                data = read_bytes(path, name, self.max_bytes)
        except ReadError as exc:
            return malformed(exc.diagnostic, default_rules, name)
        return self.check_data(data, path, name, fmt or (None if stdin else format_of(path)))

    def check_data(
        self, data: bytes, path: Path, name: str, fmt: str | None, *, mailed: bool = False
    ) -> Result:
        """The Result for a record's bytes already read (an e-mail part); `path` is where
        the record stands, for the `dice_file:` it names. A `mailed` record's is never
        read: it would be a file of the organizer's (the mailbox's folder), so a sender
        could read or probe it. Never raises for the content."""
        default_rules = self.rules or STANDARD
        try:
            record, dice = self._read(data, path, name, fmt, mailed=mailed)
        except ReadError as exc:
            more = exc.diagnostics[1:]
            return malformed(
                exc.diagnostic,
                default_rules,
                name,
                more=more,
                omitted=exc.omitted,
                language=exc.language,
            )
        named: Ruleset | None = None
        if record.rules is not None:
            if is_rules_file(record.rules.split("+")[0]):
                # An entry must not make the organizer's machine read files of its choosing.
                message = phrase(
                    N_(
                        "rules: a record names a built-in ruleset (like bga+escape=20); "
                        "house rules files are given with --rules"
                    )
                )
                refused = _quoting(record, "rules", name, "E005", message)
                return malformed(refused, default_rules, record=record)
            try:
                named = resolve(record.rules)
            except RulesError as exc:
                if self.rules is None:
                    # A record may name only a built-in ruleset; a house rules file is the
                    # organizer's to give with --rules.
                    message = phrase(
                        N_("rules: {problem}"), problem=str(exc).split(", or a rules file")[0]
                    )
                    hint = phrase(
                        N_("a house rules file is given with --rules, not named by a record")
                    )
                    refused = _quoting(record, "rules", name, "E005", message, hint)
                    return malformed(refused, STANDARD, record=record)
        rules = self.rules or named or STANDARD
        notes = []
        if record.rules not in (None, rules.name) and (
            named is None or not same_rules(named, rules)
        ):
            line, col = record.where("rules") or (None, None)
            message = phrase(
                N_("the record names the ruleset {named}, but {enforced} is enforced"),
                named=repr(record.rules),
                enforced=repr(rules.name),
            )
            notes.append(Diagnostic.said("W002", message, name, line, col))
        if isinstance(dice, Diagnostic):
            return malformed(dice, rules, name, record=record)
        return replay(dice.rows, record, rules, dice_sha256=dice.sha256, notes=notes)

    def dice_for(self, path: Path, record: Record) -> DiceFile | Diagnostic:
        """The dice file `record` (read from `path`; `-`: standard input, whose dice file is
        named relative to the current folder) is checked against: --dice, else the one it
        names, else the Diagnostic that says why there is none, in `check`'s words."""
        if self.dice is not None:
            return self.dice
        return self._record_dice(path, record.dice_file, record.source, record)

    def _read(
        self, data: bytes, path: Path, name: str, fmt: str | None, *, mailed: bool = False
    ) -> tuple[Record, DiceFile | Diagnostic]:
        """The record, parsed once, and the dice file that bounds it (or why there is none).

        With `--dice`, reading stops one round after its last row. Else the record names
        its dice file: it is read whole once and cut at the same bound. Only a record that
        cannot be read whole is read again the careful way, header first then up to the
        bound, so that a problem beyond the dice file's end is a round after the end (which
        the replay reports), not an unreadable record."""
        if self.dice is not None:
            bound = len(self.dice.rows) + 1
            return self._parse(data, name, fmt, max_rounds=bound, dice=self.dice.rows), self.dice
        try:
            # "Whole" as far as an entrant's dice file may bound it (ROUNDS_WITHOUT_DICE).
            record = self._parse(data, name, fmt, max_rounds=ROUNDS_WITHOUT_DICE)
        except ReadError as whole:
            try:
                header = self._parse(data, name, fmt, max_rounds=0)
            except ReadError:
                raise whole from None
            dice = self._record_dice(path, header.dice_file, name, header, mailed)
            if not isinstance(dice, DiceFile):
                raise whole from None
            bound = min(len(dice.rows) + 1, ROUNDS_WITHOUT_DICE)
            return self._parse(data, name, fmt, max_rounds=bound, dice=dice.rows), dice
        dice = self._record_dice(path, record.dice_file, name, record, mailed)
        if isinstance(dice, DiceFile) and record.format == "text":
            # read again, guided by the dice file it names (W007)
            bound = min(len(dice.rows) + 1, ROUNDS_WITHOUT_DICE)
            record = self._parse(data, name, fmt, max_rounds=bound, dice=dice.rows)
        if isinstance(dice, DiceFile) and len(record.rounds) > len(dice.rows) + 1:
            record = replace(record, rounds=record.rounds[: len(dice.rows) + 1])
        return record, dice

    def _parse(
        self,
        data: bytes,
        name: str,
        fmt: str | None,
        *,
        max_rounds: int | None,
        dice: Sequence[Dice] | None = None,
    ) -> Record:
        return parse_record(
            data, fmt, source=name, max_bytes=self.max_bytes, max_rounds=max_rounds, dice=dice
        )

    def _record_dice(
        self, path: Path, dice_file: str | None, name: str, record: Record, mailed: bool = False
    ) -> DiceFile | Diagnostic:
        """The dice file a record names, or why it cannot be used (quoting nothing of it)."""
        refuse = functools.partial(_quoting, record, "dice_file", name)

        if dice_file is None:
            return refuse(
                "E004", phrase(N_("no dice file: give --dice FILE (the record names none)"))
            )
        if mailed:
            message = phrase(N_("no dice file: the dice file a mailed record names is not read"))
            return refuse("E004", message, phrase(N_("the organizer checks mail with --dice FILE")))
        if _CONTROL.search(dice_file):  # a NUL stops the system's path calls themselves
            message = phrase(N_("dice_file: a file name with a control character is not allowed"))
            return refuse("E005", message, phrase(N_("name the dice file relative to the record")))
        if os.path.isabs(dice_file) or dice_file.startswith("~"):
            message = phrase(N_("dice_file: an absolute path is not allowed"))
            return refuse("E005", message, phrase(N_("name the dice file relative to the record")))
        dice_path = (path.parent / dice_file).resolve()
        if self.root is not None and not dice_path.is_relative_to(self.root):
            message = phrase(N_("dice_file: the dice file must be inside the contest folder"))
            return refuse(
                "E005", message, phrase(N_("name a dice file in the folder, or give --dice"))
            )
        cached = self._dice_cache.get(dice_path)
        if cached is None:
            cached = self._dice_cache[dice_path] = _load_record_dice(dice_path, self.max_bytes)
        if isinstance(cached, DiceFile):
            return cached
        code, template, values = cached
        shown = _shown(dice_path, self.root) if self.root is not None else dice_file
        return refuse(code, phrase(template, name=shown, **values))


def _quoting(
    record: Record, key: str, name: str, code: str, message: Text, hint: Text = ""
) -> Diagnostic:
    """A diagnostic at the line of the record's `key`, quoting that line."""
    line, col = record.where(key) or (None, None)
    said = Diagnostic.said(code, message, name, line, col, hint=hint)
    return replace(said, excerpt=record.line_text(line))


_DiceProblem = tuple[str, str, dict[str, object]]
"""What is wrong with a dice file a record names: its code, and the template and values
of the message, which is said with the file's name where it is used."""


def _load_record_dice(path: Path, max_bytes: int) -> DiceFile | _DiceProblem:
    """A dice file named by a record, or what is wrong with it: where it is wrong, never
    what the file holds (it is not the record's to show). It is the entry's file, so the
    record's size cap holds for it, and a link is not followed."""
    problem = _not_a_regular_file(path)
    if problem is not None:
        return "D001", N_("its dice file {name} {problem}"), {"problem": problem}
    try:
        return read_dice(path, max_bytes=max_bytes, follow=False)
    except ReadError as exc:
        d = exc.diagnostic
        summary = phrase(CODES[d.code].summary)
        if d.line:
            template = N_("its dice file {name}: {problem} (line {line})")
            return d.code, template, {"problem": summary, "line": d.line}
        return d.code, N_("its dice file {name}: {problem}"), {"problem": summary}


def _not_a_regular_file(path: Path) -> Phrase | None:
    """Why `path` cannot be read as a file (missing, a folder, a FIFO or device), or None."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return phrase(N_("does not exist"))
    except RuntimeError:  # a symlink loop on older Pythons
        return phrase(N_("is a symbolic link loop"))
    except OSError as exc:
        return phrase(N_("cannot be read ({why})"), why=exc.strerror or type(exc).__name__)
    if stat.S_ISDIR(mode):
        return phrase(N_("is a folder, not a file"))
    if not stat.S_ISREG(mode):
        return phrase(N_("is not a regular file (a device, FIFO or socket)"))
    return None


def _shown(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


FOLDER_HINT = phrase(N_("a folder of entries is checked with road300 batch FOLDER"))
"""What to do when a folder is given where one record belongs."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""What no file name a record gives may hold (NUL makes the path calls raise)."""

RECORD_NOT_DICE = N_("give the record first and the dice file with --dice")
"""What to do when a record is given where the dice file belongs (validate, report, ...)."""


def _reads_as_a_record(path: Path) -> bool:
    """Whether a file refused as a dice file is a record: a YAML or JSON mapping with
    rounds or a CSV with record columns (read or not), or a text record that reads
    whole (a README with one annotated dice line in an example is not one)."""
    data = read_bytes(path, max_bytes=MAX_DICE_BYTES)[:MAX_BYTES]
    fmt = sniff_format(data)
    if fmt != "text":
        return fmt is not None
    try:
        parse_record(data, source=str(path))
    except ReadError:
        return False
    return True


def load_dice(path: Path, record_given: str = RECORD_NOT_DICE) -> DiceFile:
    """The dice file of `--dice` (or of a command's DICE argument); raises UsageError
    (exit 2) when it cannot be used. `record_given` says what to do when the file is a
    record instead, in the command's own options."""
    problem = _not_a_regular_file(path)
    if problem is not None:
        said = Phrase("{where}: D001 {problem}", (("where", str(path)), ("problem", problem)))
        raise UsageError(said, Diagnostic.said("D001", problem, str(path)))
    try:
        return read_dice(path)
    except ReadError as exc:
        d = exc.diagnostic
        hint: Text = ""
        if d.code != "D001" and _reads_as_a_record(path):
            looks = phrase(N_("this looks like a record: {what}"), what=phrase(record_given))
            hint = phrase(" ({hint})", hint=looks)
        said = phrase(
            "{where}: {code} {message}{hint}",
            where=d.location(),
            code=d.code,
            message=d.phrase,
            hint=hint,
        )
        raise UsageError(said, d) from None
