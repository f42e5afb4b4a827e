"""Diagnostics as values, and the table of stable error codes.

Nothing here prints: readers and the replay produce `Diagnostic`s, renderers show them.
docs/errors.md documents every code in `CODES` with an example (a test keeps them in step).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal

from validator.engine.phrase import N_, Phrase, Said, Text, as_phrase

Severity = Literal["error", "warning"]


class Verdict(enum.Enum):
    """What a record is, as a whole; the values are the words of the JSON output."""

    VALID = "valid"
    INCOMPLETE = "incomplete"
    INVALID = "invalid"
    MALFORMED = "malformed"

    @property
    def ok(self) -> bool:
        return self in (Verdict.VALID, Verdict.INCOMPLETE)


class Category(enum.Enum):
    """The kinds of finding; each decides the verdict of a record that has one."""

    READ = "read"
    """The record could not be read."""
    RECORD = "record"
    """The record does not match the dice file."""
    RULES = "rules"
    """The record breaks a rule of the game."""
    WARNING = "warning"
    """A remark; the verdict stands."""
    DICE = "dice"
    """The dice file: a bad --dice stops the command; a record's own one makes it malformed."""

    @property
    def verdict(self) -> Verdict | None:
        """The verdict of a record whose first finding is of this kind (None: no effect)."""
        if self is Category.WARNING:
            return None
        if self in (Category.RECORD, Category.RULES):
            return Verdict.INVALID
        return Verdict.MALFORMED


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    name: str
    kind_name: str
    """The `Category` value: read, record, rules, warning or dice."""
    summary: str

    @property
    def kind(self) -> Category:
        return Category(self.kind_name)


CODES: dict[str, Code] = {
    c.code: c
    for c in (
        # The record could not be read (verdict `malformed`).
        Code("E001", "unreadable", "read", "the file cannot be read as text"),
        Code(
            "E002", "syntax", "read", "the file is not valid YAML, JSON, CSV or text record syntax"
        ),
        Code("E003", "unknown-key", "read", "a key or column the record format does not have"),
        Code("E004", "missing-key", "read", "a required key or value is missing"),
        Code("E005", "bad-value", "read", "a value has the wrong type or is out of range"),
        Code("E006", "unsafe-input", "read", "YAML aliases, custom tags or too deep nesting"),
        Code("E007", "empty", "read", "the file holds no record"),
        Code("E008", "two-records", "read", "a message holds more than one record"),
        # The record is readable but does not match the dice file (verdict `invalid`).
        Code("E101", "dice-mismatch", "record", "a round's dice differ from the official row"),
        Code("E102", "steps-mismatch", "record", "a round's steps differ from the movement die"),
        Code("E103", "roll-used", "record", "a round names a dice row that is already used"),
        Code("E104", "roll-missing", "record", "a round needs a dice row the dice file lacks"),
        Code("E105", "skipped-row", "record", "a skipped dice row was not a forced reroll"),
        Code("E106", "after-end", "record", "a round is recorded after the game ended"),
        Code("E107", "score-mismatch", "record", "the claimed score differs from the replay"),
        Code("E108", "dice-checksum", "record", "dice_sha256 differs from the dice file's"),
        Code("E109", "rings-declared", "record", "the declared rings do not fit the ruleset"),
        # The record breaks a rule of the game (verdict `invalid`).
        Code("E201", "reroll-not-forced", "rules", "a reroll where a field could be crossed out"),
        Code("E202", "cross-not-dice", "rules", "the crossed field is not a pair of the dice"),
        Code("E203", "cross-taken", "rules", "the crossed field already has an X or a circle"),
        Code("E204", "cross-on-reroll", "rules", "a cross-out on a row that is a forced reroll"),
        Code("E205", "move-unreachable", "rules", "no legal walk of the movement die ends there"),
        Code("E206", "path-illegal", "rules", "the recorded path breaks the movement rules"),
        Code("E207", "move-missing", "rules", "no move recorded, but a legal move existed"),
        Code("E208", "exit-not-allowed", "rules", "leaving the board without its expansion"),
        Code("E209", "exit-unreachable", "rules", "no free corner to leave through in reach"),
        Code("E211", "ring-not-allowed", "rules", "a ring reroll without The magic rings!"),
        Code("E212", "ring-none-left", "rules", "a ring reroll with no ring left"),
        Code("E213", "ring-on-reroll", "rules", "a ring spent on a row that is a forced reroll"),
        # Warnings: the verdict stands.
        Code("W001", "incomplete", "warning", "the record ends but the game could go on"),
        Code("W002", "rules-mismatch", "warning", "the record names another ruleset"),
        Code("W003", "encoding", "warning", "the record is not UTF-8 but was read"),
        Code("W004", "unknown-header", "warning", "a header line's key is not known: skipped"),
        Code("W005", "roll-from-dice", "warning", "a round without a roll number follows its dice"),
        Code("W006", "words-skipped", "warning", "a line of words above or below the rounds"),
        Code("W007", "read-another-way", "warning", "a line read the way that fits the dice"),
        # The dice file (the command cannot run, exit 2). Their summaries are said to the
        # player when the dice file a record names is broken: marked for translation.
        Code("D001", "dice-unreadable", "dice", N_("the dice file cannot be read")),
        Code("D002", "dice-syntax", "dice", N_("a dice file line is not a roll of three dice")),
        Code("D003", "dice-numbering", "dice", N_("row numbers do not count up from 1")),
        Code("D004", "dice-empty", "dice", N_("the dice file has no rolls")),
    )
}


@dataclass(frozen=True, slots=True)
class Diagnostic(Said):
    """One finding about a file: where it is, what is wrong, and what would be right.

    The message and the hint are stored once, as phrases (a template and its parameters,
    said in the reader's language by renderers); `message` and `hint` are their English
    text, which JSON and the tests read."""

    code: str
    phrase: Phrase
    file: str | None = None
    line: int | None = None
    col: int | None = None
    roll: int | None = None
    round: int | None = None
    hint_phrase: Phrase | None = None
    excerpt: str | None = None
    """The source line at `line`, as it was read (never re-read from `file`)."""

    @classmethod
    def said(
        cls,
        code: str,
        message: Text,
        file: str | None = None,
        line: int | None = None,
        col: int | None = None,
        *,
        hint: Text = "",
        roll: int | None = None,
        round: int | None = None,
    ) -> Diagnostic:
        """A diagnostic whose message and hint may be phrases or English text that has no
        translation (a library's own message, said as it is in every language)."""
        return cls(
            code,
            as_phrase(message),
            file,
            line,
            col,
            roll=roll,
            round=round,
            hint_phrase=as_phrase(hint) if hint else None,
        )

    @property
    def category(self) -> Category:
        return CODES[self.code].kind

    @property
    def severity(self) -> Severity:
        return "warning" if self.category is Category.WARNING else "error"

    @property
    def name(self) -> str:
        return CODES[self.code].name

    def location(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)


class ReadError(Exception):
    """A file could not be read; carries the diagnostics that say where and why.

    `diagnostic` is the first problem; `diagnostics` all of them in source order (a
    reader reports up to 50), and `omitted` how many more it found but left out.
    `language` is the language the record's words are written in, when the reader could
    tell although the record could not be read (a text record), so that its reading
    errors are said in it.
    """

    def __init__(
        self,
        diagnostic: Diagnostic,
        *more: Diagnostic,
        omitted: int = 0,
        language: str | None = None,
    ) -> None:
        super().__init__(f"{diagnostic.location()}: {diagnostic.code} {diagnostic.message}")
        self.diagnostic = diagnostic
        self.diagnostics: tuple[Diagnostic, ...] = (diagnostic, *more)
        self.omitted = omitted
        self.language = language
