"""The annotated dice file record: each dice row with the field crossed out and the field
moved to, in the words players write (English, German or French; see the grammar in
docs/record-formats.md)."""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from validator.engine import Dice, roll_text
from validator.engine.phrase import N_, Items, Phrase, Text, phrase, plural
from validator.errors import Diagnostic, ReadError
from validator.records.csv_record import COLUMNS
from validator.records.header import (
    AFTER_ROUNDS,
    POINT_UNITS,
    Header,
    build,
    fail,
    header_lines,
    key_of,
    misspelt,
    spaces_end,
)
from validator.records.language import identify_text
from validator.records.lexing import (
    FIELD,
    NONE_WORDS,
    LexError,
    field_text,
    is_packed,
    normal,
    number,
    short,
    split_lines,
)
from validator.records.model import HEADER_KEYS, MAX_DIAGNOSTICS, Locations
from validator.records.record import Record, RecordRound
from validator.records.table import Table, Unknown, header_row, headless_row
from validator.records.vocabulary import (
    COMMON_CROSS,
    CROSS_MARKS,
    EXIT_WORDS,
    ORDINAL_SUFFIXES,
    union,
)

HEADER_LINE = re.compile(
    r"[ \t]*(?P<key>[^\W\d_][\w-]*)[ \t]*:(?P<rest>.*)\Z",
)
_TWO_WORD_HEADER = re.compile(
    r"[ \t]*(?P<key>[^\W\d_][\w-]*[ \t]+[^\W\d_][\w-]*)[ \t]*:(?P<rest>.*)\Z",
)


_TOTAL_LINE = re.compile(
    r"[ \t]*+(?P<key>[^\W\d_][\w-]*+(?:[ \t]++[^\W\d_][\w-]*+)?+)[ \t]++"
    r"(?P<rest>[+-]?[0-9][^:]*)\Z"
)
"""A total without its colon: `Total 340`, `Score final 340 points`."""


def header_match(line: str) -> re.Match[str] | None:
    """A `key: value` line; a key of two words only when it is a known one (`Score final :
    335`), so that any other line keeps its reading; a total also without its colon
    (`Total 340`)."""
    two = _TWO_WORD_HEADER.match(line)
    if two is not None and key_of(two["key"]) is not None:
        return two
    plain = HEADER_LINE.match(line)
    if plain is None and (total := _TOTAL_LINE.match(line)) is not None:
        return total if key_of(total["key"]) == "claimed_score" else None
    return plain


def total_row(line: str, delimiter: str) -> re.Match[str] | None:
    """A table row that is the claimed score, as a total line is outside a table:
    `| Total | | | | 95 |`, `Gesamt<TAB>340`, `Summe;;;;340`. Its delimiters read as
    blanks, so that each value keeps its column."""
    total = _TOTAL_LINE.match(line.replace(delimiter, " "))
    return total if total is not None and key_of(total["key"]) == "claimed_score" else None


EXAMPLE = "7: 3 4 6   x 3/4 -> 5/5 (6)"

Where = dict[tuple[str | int, ...], int]
"""Data path inside one round -> column."""

_ROW = re.compile(r"(\d+)[ \t]*[:.)]", re.ASCII)
_SEP = r"(?:[ \t]*[,;-][ \t]*|[ \t]+)"
_BARE_DICE_LINE = re.compile(
    rf"[ \t]*(?:(\d{{1,9}})[ \t]*[:.)][ \t]*)?(?:\d{{3}}|\d{_SEP}\d{_SEP}\d)"
    r"[ \t]*(?:(?:#|//).*)?\Z",
    re.ASCII,
)
"""A dice line without an annotation (the common line of an annotated dice file), read
without the full grammar; anything else on a line takes the full path."""
_DIE = re.compile(r"\d+", re.ASCII)
_WORD_AT = re.compile(r"[^\W\d_]{1,40}(?:['\u2019][^\W\d_]{1,40})?")
_ROLL_WORDS = union("roll")
_AFTER_ROLL_WORD = re.compile(
    r"[ \t]*(?:\.[ \t]*)?(?i:(?:n[°º]|no\.|nr\.?)[ \t]*)?#?(?=\d)", re.ASCII
)
"""Between a roll word and its number or dice: `Roll 1`, `Nr. 4`, `Roll #4`, `Lancer n°4`,
`Wurf Nr. 4`."""
_HASH_ROLL = re.compile(r"[ \t]*([^\W\d_]{1,40})[ \t]*#(?=\d)")
"""`Roll #3`: a `#` that is a roll number's, not a note's."""
_HASH_ROUND = re.compile(
    r"[ \t]*(?P<hash>#)(?=\d{1,9}(?:[ \t]*[:.)])?[ \t]*(?:[(\[][ \t]*)?"
    rf"(?:\d{_SEP}\d{_SEP}\d|\d{{3}})(?![0-9/]))",
    re.ASCII,
)
"""`#1: 1 4 6 ...`, `#1 146 ...`: a round numbered with `#`, not a comment (a comment's `#`
is followed by a blank or a word)."""
_PREFIX_SIGN = re.compile(r"[=\-\u2013\u2014]>|[:=\-\u2013\u2014\u2192(\[]")
"""Signs between a roll number and the dice: `Roll 1: `, `Throw #1 => 1 4 6`, `Roll 1
(dice 1 4 6)`."""
_DICE_WORDS = union("dice_words") | union("filler")
_LEAD_WORDS = _DICE_WORDS | _ROLL_WORDS
_DICE_AHEAD = re.compile(
    rf"[(\[]?[ \t]*(?:\d{_SEP}\d{_SEP}\d|\d{{3}})(?![0-9])"
    r"|[(\[][ \t]*\d[ \t]*/[ \t]*\d[ \t]*/[ \t]*\d[ \t]*[)\]]",
    re.ASCII,
)
_DICE_ONLY = re.compile(
    rf"\d{_SEP}\d{_SEP}\d(?![0-9])(?!{_SEP}\d)|\d{{3}}(?![0-9])(?![ \t]*[:.)(])", re.ASCII
)
"""Three dice and nothing that makes the first of them a roll number (`Rolled 1, 4, 6`)."""
_DASHED_ROW = re.compile(r"(\d{1,9})[ \t]+[-\u2013\u2014][ \t]+(?=\d)", re.ASCII)
"""`1 - 1 4 6 ...`: a roll number set off by a dash between blanks, when what follows
is the dice (and the line's start is not three dice itself, `2 - 4 - 5`)."""
_ROLL_NUMBER = re.compile(r"(\d+)[ \t]*[:.)\-\u2013\u2014]?", re.ASCII)
_BARE_ROLL = re.compile(r"(\d{1,9})[ \t]+(?=\d)", re.ASCII)
"""A roll number with no sign after it, before the dice (read so only as another reading)."""
_FACES_ROLL = re.compile(r"[1-6]{3}(?![0-9])", re.ASCII)
"""Three die faces where a roll number stands (`146.`, `Roll 146:`)."""
_ORDINAL = re.compile(r"(\d+)[ \t]*([^\W\d_]{1,3})\.?[ \t]+(?=[^\W\d_])")
"""`1er lancer`, `2e tour`, `3rd roll`: a roll number as an ordinal, before a roll word."""


def _round_line(stripped: str) -> bool:
    """Whether a line (without its leading blanks) is a dice line: it starts with a digit,
    a roll word (`Roll 1:`) or a `#` number (`#1: 1 4 6`)."""
    return (
        stripped[0] in "0123456789"
        or (stripped[0] in "([" and _LEAD_DICE.match(stripped[:50]) is not None)
        or round_start(stripped) is not None
        or (stripped[0] == "#" and _HASH_ROUND.match(stripped[:200]) is not None)
    )


def _prefixed(line: str) -> tuple[_RollLine, re.Match[str] | None, bool]:
    """A line's start read as a round's (`_RollLine._prefix`), without its dice."""
    reader = _RollLine(line[:MAX_TYPED_LINE], 0, "")
    reader.pos = spaces_end(reader.text, 0)
    return reader, *reader._prefix()


def typed_round(line: str) -> tuple[bool, int | None]:
    """Whether a line reads as a round typed with a roll word or an ordinal before its
    dice or its annotation (`Roll 1: 1 4 6 ...`, `1. Wurf (1, 4, 6): ...`, `1er lancer
    ...`), and its roll number when it gives one."""
    reader, numbered, worded = _prefixed(line)
    if _HASH_ROUND.match(reader.text):  # `#1: 1 4 6 ...`
        return True, int(numbered[1]) if numbered and len(numbered[1]) < 7 else None
    if not worded:
        return False, None
    pos = spaces_end(reader.text, reader.pos)
    word = _WORD_AT.match(reader.text, pos)
    read = _DICE_AHEAD.match(reader.text, pos) is not None or (
        word is not None and normal(word[0]) in PHRASES
    )
    row = int(numbered[1]) if read and numbered is not None and len(numbered[1]) < 7 else None
    return read, row


def numbered_round(line: str) -> bool:
    """Whether a line starts with a roll word and its number (`Roll 1:`, `R1`, `Wurf 3 -`,
    `2e tour`), whatever follows: a round a person typed, read or not (`Roll 1: 1a 4b
    6c`, `Round 3: I forgot`)."""
    _, numbered, worded = _prefixed(line)
    return worded and numbered is not None


GAME_ROUNDS = 5
"""Round lines that make a text a game: lines of words above and below them are its
greeting and signature (W006); a mail body with this many lines of three dice is an
entry whatever else it says."""
MAX_TABLE_LOOK = 200
"""How far into a line a tab is looked for (a spreadsheet row's first cells are short)."""
MAX_TYPED_LINE = 2000
"""How much of a line `typed_round` looks at (a round line is far shorter)."""


def round_start(line: str, pos: int = 0) -> int | None:
    """Where the dice of a line that starts with a roll word stand (`Roll 1: 1 4 6`,
    `Wurf 3 - 2 2 2`), or with words for the dice and no roll number (`Dice 1 4 6`, `I
    rolled 1 4 6`, `Gewürfelt: 1 4 6`, `J'ai lancé (1, 4, 6)`), else None."""
    word = _WORD_AT.match(line, pos)
    if word is None:
        return None
    if normal(word[0]) in _ROLL_WORDS:
        after = _AFTER_ROLL_WORD.match(line, word.end())
        if after is not None:
            return after.end()
    lead = _lead_words(line, pos)
    return lead if lead > pos and _LEAD_DICE.match(line, lead) else None


_LEAD_DICE = re.compile(rf"[(\[][ \t]*(?:\d{_SEP}\d{_SEP}\d|\d{{3}})(?![0-9])|{_DICE_ONLY.pattern}")
"""Three dice after words for them: in brackets, or with nothing that makes the first a
roll number."""
MAX_LEAD_WORDS = 6


def _lead_words(line: str, pos: int, words: frozenset[str] = _LEAD_WORDS) -> int:
    """Past the words for the roll or the dice before a line's dice and the signs between
    them (`I rolled`, `Dés :`, `J'ai lancé`; after a roll word and its number, `- dés`),
    at most `MAX_LEAD_WORDS` of them."""
    for _ in range(MAX_LEAD_WORDS):
        pos = spaces_end(line, pos)
        sign = _PREFIX_SIGN.match(line, pos)
        word = _WORD_AT.match(line, pos)
        if sign is not None:
            pos = sign.end()
        elif word is not None and folded(word[0]) in words:
            pos = word.end()
        else:
            break
    return spaces_end(line, pos)


_DIE_SEP = re.compile(r"[ \t]*[,;-][ \t]*|[ \t]+")
_SLASHED_DICE = re.compile(r"[ \t]*\d[ \t]*/[ \t]*\d[ \t]*/[ \t]*\d[ \t]*[)\]]", re.ASCII)
"""Three dice with slashes between them, in brackets (`(1/4/6)`): no field has three
numbers."""
_SLASH_SEP = re.compile(r"[ \t]*/[ \t]*")

# --- the words of the annotation -----------------------------------------------------------

CROSS, MOVE, STEPS, IN, PATH, REROLL, RING, NOMOVE, EXIT, FILLER = (
    "cross",
    "move",
    "steps",
    "in",
    "path",
    "reroll",
    "ring",
    "no move",
    "exit",
    "filler",
)
PHRASES: dict[str, str] = {
    **dict.fromkeys(COMMON_CROSS | CROSS_MARKS | union("cross"), CROSS),
    **dict.fromkeys(union("move") | union("move_after"), MOVE),
    **dict.fromkeys(union("steps"), STEPS),
    **dict.fromkeys(union("before_steps"), IN),
    **dict.fromkeys(union("path"), PATH),
    **dict.fromkeys(union("reroll"), REROLL),
    "ring": RING,
    **dict.fromkeys((w for w in NONE_WORDS if w[0].isalpha()), NOMOVE),
    **dict.fromkeys(EXIT_WORDS, EXIT),
    **dict.fromkeys(union("filler"), FILLER),
}
"""Every word and phrase of the annotation (folded: lower case, no accents) -> its role."""
_LONGEST = max(len(p.split()) for p in PHRASES)
BEFORE_FIELD = union("before_field")
"""Words that may stand between a cross-out or move word and its field (`Kreuz auf 1/4`)."""
_LONGEST_BEFORE = max(len(p.split()) for p in BEFORE_FIELD)
_BEFORE_FIRST = frozenset(p.split()[0] for p in BEFORE_FIELD)
POSTFIX = union("cross_after") | CROSS_MARKS
"""Cross-out words that may follow their field (`Raum 3/4 gestrichen`, `case 3/4 barrée`)."""
MOVE_POSTFIX = union("move_after")
"""Move words that may follow their field (`nach 6/1 gezogen`)."""
_WORDS = sorted({p for p in PHRASES if p.isascii() and len(p) > 1})
_SPELLED = {
    "barre": "barré",
    "barree": "barrée",
    "deplacement": "déplacement",
    "wurfel": "würfel",
    "gewurfelt": "gewürfelt",
}
"""The words of PHRASES that are written with accents, as a suggestion shows them."""

_TOKEN = re.compile(
    rf"(?P<field>{FIELD.pattern})"
    r"|(?P<num>[0-9]+)"
    r"|(?P<arrow>[-–—=]+>|[→⇒⟶➔➜]|>)"  # noqa: RUF001
    r"|(?P<word>[^\W\d_]+(?:[-'’][^\W\d_]+)*|[×\u2717\u2718])"  # noqa: RUF001
    r"|(?P<deco>[✓✔☑✅]|\+[0-9]+)"
    r"|(?P<dash>[-–—]+)"  # noqa: RUF001
    r"|(?P<close>[)\]])"
    r"|(?P<sep>[,;|:/.!?]+)",
    re.IGNORECASE,
)
_NOTE = re.compile(r"#|//")
_ELISION = re.compile(r"(?<![^\W\d_'\u2019])(?:j|l|d|qu)['\u2019](?=[^\W\d_])")


@functools.lru_cache(maxsize=4096)
def folded(text: str) -> str:
    """A word or phrase as the vocabulary holds it: `normal`, and French elisions
    dropped (`j'avance` is `avance`, and so with a typographic apostrophe)."""
    return _ELISION.sub("", normal(text))


MAX_LOOK_AHEAD = 6
"""How many words the reader looks ahead for a field or a cross-out word (`auf das
Feld`, `je raye`): a few, so that a line of a hundred words costs no more than a short one."""
MAX_PIECES = 100
"""An annotation holds a few dozen words and signs at most; a line with more is refused
as it is read, so a megabyte on one line costs no more than a short one."""


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    """field, num, arrow, word (with its role in `role`), deco, dash, note, sep."""
    text: str
    start: int
    end: int
    role: str = ""
    field: str = ""
    packed: bool = False
    paren: int = -1
    """Where an opening bracket right before this token stands, else -1."""

    @property
    def at(self) -> int:
        """Where the item this token begins starts (its opening bracket, if any)."""
        return self.paren if self.paren >= 0 else self.start


def parse(
    text: str, source: str, max_rounds: int | None = None, *, dice: Sequence[Dice] | None = None
) -> Record:
    """Read an annotated dice file record; raises ReadError with every problem found.
    With `max_rounds`, reading stops after that many rounds. With the `dice` file's rows,
    a line that reads in more than one way is read the way that fits them (W007)."""
    reader = _Reader(source, max_rounds, dice)
    for lineno, line in enumerate(split_lines(text.removeprefix("\ufeff")), start=1):
        if not reader.read(line, lineno):
            break
    return reader.record(text)


class _Reader:
    """One text record being read, line by line: its rounds and where they stand, its
    header, and what is wrong."""

    def __init__(self, source: str, max_rounds: int | None, dice: Sequence[Dice] | None) -> None:
        self.source = source
        self.max_rounds = max_rounds
        self.dice = dice
        self.header = Header(source)
        self.readings: list[Diagnostic] = []
        """W007 for each line read in another way than its first reading (_read_round)."""
        self.rounds: list[dict[str, object]] = []
        self.locations: Locations = {}
        self.problems: list[Diagnostic] = []
        self.extra_columns: list[Diagnostic] = []
        """E003 for columns a table's rows do not need: W004 when the rows read."""
        self.numbers: list[int] = []
        """Each round's place among the annotated lines, counting lines that failed."""
        self.failed_lines = 0
        self.row = 0
        self.first_dice_line: int | None = None
        self.last_dice_line = 0
        self.round_lines = 0
        self.table: Table | None = None
        self.unknown: list[Diagnostic] = []
        """Header lines above the rounds whose key is not known (W004 when rounds follow)."""
        self.prose: list[tuple[int, str]] = []
        """Lines of words without a digit (`Hallo zusammen,`, `Cheers, Sam`): W006 above
        and below the rounds, E002 among them or in a file without rounds."""

    def read(self, line: str, lineno: int) -> bool:
        """Read one line; False where reading stops."""
        stripped = line.lstrip(" \t")
        if not stripped or stripped.startswith("//"):
            return True
        if stripped.startswith("#") and not _HASH_ROUND.match(stripped[:200]):
            return True
        if len(self.problems) > MAX_DIAGNOSTICS:
            return False
        try:
            return self._line(line, stripped, lineno)
        except ReadError as exc:
            self.problems.extend(exc.diagnostics)
            table = self.table
            self.failed_lines += _round_line(stripped) or (table is not None and table.holds(line))
            return True

    def _full(self) -> bool:
        """Whether `max_rounds` rounds are read: the rest is not (the replay judges what
        was)."""
        return self.max_rounds is not None and len(self.rounds) >= self.max_rounds

    def _line(self, line: str, stripped: str, lineno: int) -> bool:
        if (
            self.table is None
            and stripped[0] not in "0123456789"  # the common line: no column row
            and (found := header_row(line, lineno)) is not None
        ):
            self.table = found[0]  # `| Roll | Dice | Cross | Move | Steps |`
            self.first_dice_line = self.first_dice_line or lineno
            # A name it does not know is said; its column is skipped, so that the rows
            # below are still read (and their own errors said). Beside the cross-out's and
            # the destination's columns it is a column the game does not need (a date, the
            # points, a note pasted from a spreadsheet): a warning when the rows read (see
            # _judged); else it may be one the game needs, and is what is wrong.
            unknown = [_unknown_column(u, lineno, self.source) for u in found[1]]
            extra = {"cross", "move"} <= set(self.table.columns)
            (self.extra_columns if extra else self.problems).extend(unknown)
            return True
        if self.table is None and (stripped.startswith("|") or "\t" in line[:MAX_TABLE_LOOK]):
            self.table = headless_row(line, lineno)  # `| 1 | 1 4 6 | 6/4 | 1/1 | 1 |`
            self.first_dice_line = self.first_dice_line or (lineno if self.table else None)
        if self.table is not None and self.table.holds(line):
            return self._table_row(self.table, line, lineno)
        if _round_line(stripped):
            return self._round(line, lineno)
        if _DIGIT.search(line) is None and header_match(line) is None:
            self.prose.append((lineno, line))  # a greeting, a signature: judged at the end
            return True
        self._header_line(line, lineno)
        return True

    def _header_line(self, line: str, lineno: int) -> None:
        source, first_dice_line = self.source, self.first_dice_line
        match = header_match(line)
        if match is None:
            _not_a_line(line, lineno, source)
        if first_dice_line is None and key_of(match["key"]) is None and not misspelt(match["key"]):
            message = phrase(N_("unknown header key {key}"), key=short(match["key"]))
            hint = phrase(N_("known keys: {keys}"), keys=", ".join(HEADER_KEYS))
            self.unknown.append(  # W004 if rounds follow, else E003 (see parse)
                Diagnostic.said("W004", message, source, lineno, match.start("key") + 1, hint=hint)
            )
            return
        key = self.header.key(match, lineno)
        if first_dice_line is not None and key not in AFTER_ROUNDS:
            message = phrase(
                N_("header line {key} after the first dice line (line {line})"),
                key=key,
                line=first_dice_line,
            )
            hint = phrase(N_("header lines like player: ... come before the dice lines"))
            fail("E002", message, source, lineno, match.start("key") + 1, hint=hint)
        self.header.read(key, match, lineno)

    def _table_row(self, table: Table, line: str, lineno: int) -> bool:
        if self._full():
            return False
        if (total := total_row(line, table.delimiter)) is not None:
            self.header.read("claimed_score", total, lineno)
            return True
        self.last_dice_line, self.round_lines = lineno, self.round_lines + 1
        cells = table.row(line, lineno, self.source)
        if cells is not None:
            self._add(cells, lineno, spaces_end(line, 0) + 1)
        return True

    def _round(self, line: str, lineno: int) -> bool:
        if self._full():
            return False
        self.first_dice_line = self.first_dice_line or lineno
        self.last_dice_line, self.round_lines = lineno, self.round_lines + 1
        bare = _BARE_DICE_LINE.match(line)
        if bare is not None and (bare[1] is None or int(bare[1]) > self.row):
            self.row = self.row + 1 if bare[1] is None else int(bare[1])
            # Where the row stands: a round that skips it (E105) points here.
            self.locations[("row", self.row)] = (lineno, 1)
            return True  # an unplayed row: no need for the full grammar
        self.row, entry = _read_round(line, lineno, self.source, self.row, self.dice, self.readings)
        if entry is None:
            self.locations[("row", self.row)] = (lineno, 1)
        else:
            self._add(entry, lineno)
        return True

    def _add(self, entry: tuple[dict[str, object], Where], lineno: int, col: int = 0) -> None:
        """A round read at `lineno` (the whole round at `col`, when given)."""
        data, where = entry
        index = len(self.rounds)
        self.rounds.append(data)
        self.numbers.append(len(self.rounds) + self.failed_lines)
        if col:
            self.locations[("rounds", index)] = (lineno, col)
        for path, at in where.items():
            self.locations[("rounds", index, *path)] = (lineno, at)

    def record(self, text: str) -> Record:
        """The record read, or ReadError with every problem found."""
        problems, warnings = self._judged()
        if not self.rounds and not self.header.values and not problems:
            message = phrase(N_("the file holds no record: no dice line is annotated"))
            hint = phrase(N_("annotate the rows you played, like {example}"), example=EXAMPLE)
            fail("E007", message, self.source, self.first_dice_line or 1, 1, hint=hint)
        try:
            record = build(self.header, self.rounds, self.locations, "text", problems, self.numbers)
        except ReadError as exc:
            if self.extra_columns and not problems:  # a skipped column may hold what is missing
                found = sorted([*self.extra_columns, *exc.diagnostics], key=lambda d: d.line or 0)
                raise ReadError(*found, omitted=exc.omitted, language=identify_text(text)) from None
            exc.language = identify_text(text)  # its errors are said in the record's language
            raise
        return dataclasses.replace(record, language=identify_text(text), warnings=warnings)

    def _judged(self) -> tuple[list[Diagnostic], tuple[Diagnostic, ...]]:
        """The problems and the warnings, each in line order. Lines of words around a game
        (a greeting, a signature) are skipped; among its rounds, or around a few lines (a
        README's example), they are what is wrong."""
        source = self.source
        first = self.first_dice_line or 0
        game = bool(self.rounds) and self.round_lines >= GAME_ROUNDS
        skipped = [
            (n, line) for n, line in self.prose if game and not first < n < self.last_dice_line
        ]
        refused = [_refused(line, n, source) for n, line in self.prose if (n, line) not in skipped]
        problems = [*self.problems, *refused]
        if problems or not self.rounds:  # a skipped column may hold what is missing
            problems += self.extra_columns
        problems.sort(key=lambda d: d.line or 0)
        if not self.rounds:
            # no rounds: the unknown key may be what is wrong (`rounds: 1`); in source order
            wrong = [dataclasses.replace(d, code="E003") for d in self.unknown]
            return sorted([*wrong, *problems], key=lambda d: d.line or 0), ()
        # a record: an unknown key above it is no reason to refuse it
        warnings = [
            *(dataclasses.replace(d, code="W004") for d in [*self.unknown, *self.extra_columns]),
            *(_skipped(line, n, source) for n, line in skipped),
            *self.readings,
        ]
        return problems, tuple(sorted(warnings, key=lambda d: d.line or 0))


_DIGIT = re.compile(r"[0-9]")


def _refused(line: str, lineno: int, source: str) -> Diagnostic:
    """E002 for a line of words among the rounds, or in a file without rounds."""
    try:
        _not_a_line(line, lineno, source)
    except ReadError as exc:
        return exc.diagnostic


def _unknown_column(unknown: Unknown, lineno: int, source: str) -> Diagnostic:
    """E003 for a name in a table's column row that names no column (`Bonus`)."""
    message = phrase(
        N_("unknown column {name} (column {n})"), name=short(unknown.name), n=unknown.number
    )
    hint = phrase(N_("known columns: {columns}"), columns=", ".join(COLUMNS))
    return Diagnostic.said("E003", message, source, lineno, unknown.col, hint=hint)


def _skipped(line: str, lineno: int, source: str) -> Diagnostic:
    """W006 for a line of words above or below the rounds (a greeting, a signature),
    which is skipped."""
    start = spaces_end(line, 0)
    message = phrase(
        N_("a line of words outside the rounds is skipped: {found}"),
        found=short(line.strip()),
    )
    return Diagnostic.said("W006", message, source, lineno, start + 1)


_ROLL_WORDS_LIST = sorted(w for w in _ROLL_WORDS if len(w) > 2)


def _misspelt_roll_word(line: str, start: int, word: str, lineno: int, source: str) -> None:
    """E002 with a did-you-mean for a line that starts with a misspelt roll word before
    its number (`Wruf 3: 2 2 2 ...` -> `Wurf`), in the player's spelling."""
    close = difflib.get_close_matches(folded(word[:40]), _ROLL_WORDS_LIST, n=1, cutoff=0.75)
    if not close or close[0] == folded(word[:40]):
        return  # a known roll word is not misspelt (`Roll<TAB>...`): no did-you-mean
    meant = _as_written(close[0], word)
    message = phrase(
        N_("{found} is not a word the reader knows for a roll: did you mean {word}?"),
        found=short(word),
        word=short(meant),
    )
    hint = (line[:start] + meant + line[start + len(word) :]).strip()
    fail("E002", message, source, lineno, start + 1, hint=hint)


def _as_written(known: str, word: str) -> str:
    """A known word as the player would write it: with its accents, and capitalised like
    `word`."""
    meant = _SPELLED.get(known, known)
    return meant.capitalize() if word[:1].isupper() else meant


def _not_a_line(line: str, lineno: int, source: str) -> NoReturn:
    start = spaces_end(line, 0)
    hint = phrase(
        N_("a dice line is like {example}; a header line like player: Alice"), example=EXAMPLE
    )
    word = re.match(r"[^\W\d_]+", line[start:])
    if word and _DIGIT.search(line, start + word.end(), start + word.end() + 20):
        _misspelt_roll_word(line, start, word.group(), lineno, source)
    if word and normal(word.group()) in _ROLL_WORDS:
        # `Round one: ...`, `Wurf: ...`: the roll word is the player's, what follows is not
        after = spaces_end(line, start + word.end())
        message = phrase(
            N_("after {word} a roll number and its three dice were expected; found {found}"),
            word=short(word.group()),
            found=_found(line, after),
        )
        hint = phrase(N_("write it like {example}"), example=f"{word.group()} 7: 3 4 6")
        fail("E002", message, source, lineno, after + 1, hint=hint)
    if word and normal(word.group()) in PHRASES:
        hint = phrase(
            N_("an annotation follows the row's dice on the same line, like {example}"),
            example=EXAMPLE,
        )
    message = phrase(
        N_(
            "this line is neither a round (a roll with its three dice) nor a header line "
            "(key: value); it begins with {found}"
        ),
        found=_found(line, start),
    )
    fail("E002", message, source, lineno, start + 1, hint=hint)


_END = phrase(N_("the end of the line"))
_EXAMPLE_HINT = phrase(N_("a dice line is like {example}"), example=EXAMPLE)
_NOTES_HINT = phrase(N_("a dice line is like {example}; notes go after #"), example=EXAMPLE)


def _found(text: str, pos: int) -> Text:
    """What stands at pos, for 'expected X, found Y' messages."""
    word = re.match(r"\S{1,24}", text[pos:]) if pos < len(text) else None
    return short(word.group()) if word else _END


Reading = tuple[int, tuple[dict[str, object], Where] | None]
"""A dice line's row number and its round's data and columns (None: no annotation)."""

ROLL_FIRST, NO_ROLL, PAIRS = "roll first", "no roll number", "pairs"
"""The other ways a line may be read (`_RollLine.modes`): its first number is the roll
number though no sign follows it (`3 2 2 2 x 2/2 -> 6/1`); a roll number of three die
faces is the dice (`146. x 6/4`, `Roll 146: x 6/4`); two bare digits are a field
(`1 4 6 6 4 1 1`: dice 1 4 6, 6/4, 1/1)."""
_OTHER_READINGS: tuple[frozenset[str], ...] = (
    frozenset({ROLL_FIRST}),
    frozenset({PAIRS}),
    frozenset({ROLL_FIRST, PAIRS}),
    frozenset({NO_ROLL}),
    frozenset({NO_ROLL, PAIRS}),
)


def _read_round(
    line: str,
    lineno: int,
    source: str,
    previous: int,
    dice: Sequence[Dice] | None,
    readings: list[Diagnostic],
) -> Reading:
    """A dice line read as written; where that reading does not fit the dice file (or
    cannot be read), the other readings of the line are tried against it, and the one
    that fits best is taken, with a W007 that names it. A reading that fits no better
    than the first is never taken: a wrong cross-out stays what it is, at its line."""
    if dice is None:
        return _RollLine(line, lineno, source).parse(previous)
    first: Reading | ReadError
    try:
        first = _RollLine(line, lineno, source).parse(previous)
    except ReadError as exc:
        first = exc
    # Another reading needs at least the dice of its roll: one that gives another roll's
    # dice is no better than an error at the line as written.
    fit = max(_fit(first, dice), 0)
    if fit == _FITS:
        assert not isinstance(first, ReadError)
        return first
    best: Reading | None = None
    for modes in _OTHER_READINGS:
        try:
            other = _RollLine(line, lineno, source, modes).parse(previous)
        except ReadError:
            continue
        if other != first and (score := _fit(other, dice)) > fit:
            best, fit = other, score
    if best is None:
        if isinstance(first, ReadError):
            raise first
        return first
    readings.append(_reading_taken(best, line, lineno, source, dice))
    return best


_FITS = 2
"""A reading whose dice are its roll's in the dice file and whose cross-out is a pair of
them; 1: only its dice; 0: it reads, its dice are another roll's; -1: it cannot be
read."""


def _fit(reading: Reading | ReadError, dice: Sequence[Dice]) -> int:
    if isinstance(reading, ReadError):
        return -1
    row, entry = reading
    if not 1 <= row <= len(dice):
        return 0
    if entry is None:
        return _FITS  # a row without an annotation (`Roll 5: 2 1 6`): nothing to fit
    data, _ = entry
    rolled = sorted(dice[row - 1])
    typed = data.get("dice")
    if isinstance(typed, list) and sorted(typed) != rolled:
        return 0
    cross = data.get(CROSS)
    if isinstance(cross, str):
        pair = sorted(int(n) for n in cross.split("/"))
        rest = list(rolled)
        for n in pair:
            if n not in rest:
                return 1
            rest.remove(n)
    return _FITS


def _reading_taken(
    reading: Reading, line: str, lineno: int, source: str, dice: Sequence[Dice]
) -> Diagnostic:
    """W007: the line was read in another way than its first, and how."""
    row, entry = reading
    data: dict[str, object] = entry[0] if entry is not None else {"roll": row}
    said = _said_items(data)
    hint: Text = ""
    if 1 <= row <= len(dice):
        hint = phrase(
            N_("roll {roll} of the dice file is {dice}; write {example} to say it one way"),
            roll=row,
            dice=roll_text(dice[row - 1]),
            example=_annotated(data),
        )
    message = phrase(
        N_("this line reads in more than one way; it is read as {reading}"), reading=said
    )
    return Diagnostic.said("W007", message, source, lineno, spaces_end(line, 0) + 1, hint=hint)


def _said_items(data: dict[str, object]) -> Items:
    """What a line gave, as the player reads it: roll 3, dice 2 2 2, crossed out 2/2,
    moved to 6/1, 5 steps."""
    read: list[Phrase] = [phrase(N_("roll {roll}"), roll=data["roll"])]
    dice = data.get("dice")
    if isinstance(dice, list):
        read.append(phrase(N_("dice {dice}"), dice=roll_text(dice)))
    if data.get("reroll"):
        read.append(phrase(N_("a reroll")))
    if CROSS in data:
        read.append(phrase(N_("crossed out {field}"), field=data[CROSS]))
    if MOVE in data:
        read.append(phrase(N_("moved to {field}"), field=data[MOVE]))
    steps = data.get(STEPS)
    if isinstance(steps, int):
        read.append(plural(steps, "{n} step", "{n} steps"))
    return Items(tuple(read))


def _annotated(data: dict[str, object]) -> str:
    """A reading in the annotated form (`3: 2 2 2   x 2/2 -> 6/1 (5)`)."""
    dice = data.get("dice")
    head = f"{data['roll']}: {roll_text(dice)}" if isinstance(dice, list) else f"{data['roll']}:"
    if data.get("reroll"):
        return f"{head}   reroll"
    parts = [f"x {data[CROSS]}"] if CROSS in data else []
    if MOVE in data:
        parts.append(f"-> {data[MOVE]}")
    if isinstance(data.get(STEPS), int):
        parts.append(f"({data[STEPS]})")
    return f"{head}   {' '.join(parts)}".rstrip()


class _RollLine:
    """One dice line: `[row:] d d d [annotation] [# note]`."""

    def __init__(
        self, text: str, line: int, source: str, modes: frozenset[str] = frozenset()
    ) -> None:
        self.modes = modes
        """The other readings taken (ROLL_FIRST, NO_ROLL, PAIRS); none: as written."""
        hashed = _HASH_ROLL.match(text)
        skip = hashed.end() if hashed and normal(hashed[1]) in _ROLL_WORDS else 0
        numbered = _HASH_ROUND.match(text[:200])
        skip = numbered.end("hash") if numbered else skip
        note = _NOTE.search(text, skip)
        self.full = text
        self.text = text[: note.start()] if note else text
        self.line = line
        self.source = source
        self.pos = 0
        self.typed = False
        """A round typed as people write it: with a roll word (`Roll 3: ...`), a roll
        number as a list's (`3.`, `3)`, `#3`, `3 -`), or without a number but with two
        fields; words it does not know and that are no misspelling of a keyword are
        passed over. The annotated form (`3: 2 2 2 x 2/2 -> 6/1`) stays strict."""

    def fail(
        self, message: Text, pos: int | None = None, hint: Text = "", code: str = "E002"
    ) -> NoReturn:
        col = (self.pos if pos is None else pos) + 1
        raise ReadError(Diagnostic.said(code, message, self.source, self.line, col, hint=hint))

    def number(self, text: str, what: Text, pos: int) -> int:
        try:
            return number(text, what)
        except LexError as exc:
            self.fail(exc.said, pos, code=exc.code)

    def corrected(self, start: int, end: int, replacement: str) -> str:
        """This line with text[start:end] replaced: a hint in the record's own syntax."""
        return (self.full[:start] + replacement + self.full[end:]).strip()

    def parse(self, previous: int) -> tuple[int, tuple[dict[str, object], Where] | None]:
        """The row number and, for an annotated line, the round's data and columns."""
        self.pos = spaces_end(self.text, 0)
        start = self.pos
        numbered, worded = self._prefix()
        hashed = self.text.startswith("#", start)
        self.typed = worded or (numbered is not None and (hashed or ":" not in numbered[0]))
        if numbered is None:
            row = previous + 1
        else:
            row = self.number(numbered[1], phrase(N_("row number")), numbered.start(1))
            if row <= previous:
                message = (
                    phrase(
                        N_("row number {row} after row {previous}: rows count up"),
                        row=row,
                        previous=previous,
                    )
                    if previous
                    else phrase(N_("row numbers start at 1"))
                )
                hint = phrase(
                    N_("give this line row number {row} or more, or none"), row=previous + 1
                )
                self.fail(message, numbered.start(1), hint=hint)
        self.pos = spaces_end(self.text, self.pos)
        where: Where = {(): start + 1}
        if numbered is not None:  # a counted roll has no place: the replay may follow the dice
            where[("roll",)] = start + 1
        data: dict[str, object] = {"roll": row}
        if not (worded and _WORD_AT.match(self.text, self.pos)):
            # `Roll 3: crossed out 6/4 ...`: no dice typed; the dice file has them
            dice, dice_cols = self._dice(numbered is not None)
            where[("dice",)] = dice_cols[0]
            for i, col in enumerate(dice_cols):
                where[("dice", i)] = col
            data["dice"] = dice
        tokens = self._tokens()
        if numbered is None and sum(t.kind == "field" for t in tokens) >= 2:
            self.typed = True  # `1 4 6 - crossed out 6/4, moved to 1/1`: three dice, two fields
        if not _Annotation(self, tokens, data, where).read():
            return row, None
        return row, (data, where)

    def _prefix(self) -> tuple[re.Match[str] | None, bool]:
        """The roll number (its match, group 1 the digits) and whether a roll word stood
        before the dice: `7:`, `Roll 7:`, `Wurf 7 -`, `7. Wurf`, `1er lancer`, `1) Rolled`;
        after a roll word, a sign and the words for the dice (`Tour 3 - dés 2 2 2`,
        `3rd roll: 2 2 2`, `Roll 3: I rolled 2 2 2`) are passed over."""
        numbered, worded = self._roll()
        if worded:
            pos = _lead_words(self.text, self.pos, _DICE_WORDS)
            if _DICE_AHEAD.match(self.text, pos):
                self.pos = pos
        return numbered, worded

    def _roll(self) -> tuple[re.Match[str] | None, bool]:
        found = self._unsigned_roll()
        if found is not None:
            return found
        numbered = _ROW.match(self.text, self.pos)
        if numbered is not None:
            self.pos = numbered.end()
        return self._roll_word(numbered)

    def _unsigned_roll(self) -> tuple[re.Match[str] | None, bool] | None:
        """A roll number not followed by `:`, `.` or `)`: in another reading, a bare one
        (or none, three die faces being the dice); `#1`, `1 - 1 4 6`, `1er lancer`."""
        text = self.text
        if ROLL_FIRST in self.modes and (first := _BARE_ROLL.match(text, self.pos)):
            self.pos = first.end()  # `3 2 2 2 x 2/2`: roll 3, though no sign follows it
            return first, False
        if NO_ROLL in self.modes and _FACES_ROLL.match(text, self.pos):
            return None, False  # `146. x 6/4`: the dice, not roll 146
        if text.startswith("#", self.pos):
            # `#1: 1 4 6`, `#1 146` (the line is a round only when _HASH_ROUND says so)
            hashed = _ROLL_NUMBER.match(text, self.pos + 1)
            if hashed is not None:
                self.pos = hashed.end()
                return hashed, False
        if _ROW.match(text, self.pos) is not None:
            return None
        if not _DICE_ONLY.match(text, self.pos):
            dashed = _DASHED_ROW.match(text, self.pos)  # `1 - 1 4 6 - 6/4 - 1/1`
            if dashed is not None and _DICE_AHEAD.match(text, dashed.end()):
                self.pos = dashed.end()
                return dashed, False
        ordinal = _ORDINAL.match(text, self.pos)
        if ordinal is not None and normal(ordinal[2]) in ORDINAL_SUFFIXES:
            word = _WORD_AT.match(text, ordinal.end())
            if word is not None and normal(word[0]) in _ROLL_WORDS:
                self.pos = word.end()
                return ordinal, True
        return None

    def _roll_word(self, numbered: re.Match[str] | None) -> tuple[re.Match[str] | None, bool]:
        """A roll word after the roll number (`7. Wurf`) or before it (`Roll 7:`), or words
        for the dice before them (`I rolled 1 4 6`)."""
        text = self.text
        word = _WORD_AT.match(text, spaces_end(text, self.pos))
        if word is None or normal(word[0]) not in _ROLL_WORDS:
            lead = _lead_words(text, self.pos) if numbered is None and word else self.pos
            if lead > self.pos and _LEAD_DICE.match(text, lead):
                self.pos = lead  # `Dice 1 4 6`, `I rolled 1 4 6`: the dice, no roll number
                return None, True
            return numbered, False
        self.pos = word.end()
        after = _AFTER_ROLL_WORD.match(text, self.pos)
        if numbered is not None or after is None:
            return numbered, True
        self.pos = after.end()
        if _DICE_ONLY.match(text, self.pos) or (
            NO_ROLL in self.modes and _FACES_ROLL.match(text, self.pos)
        ):
            return None, True  # `Rolled 1, 4, 6`: the dice, no roll number
        number = _ROLL_NUMBER.match(text, self.pos)
        assert number is not None  # a digit follows
        self.pos = number.end()
        return number, True

    def _dice(self, numbered: bool, slashed: bool = False) -> tuple[list[int], list[int]]:
        """The row's three dice and their columns; `numbered`: the line gave a roll
        number; `slashed`: they are written `1/4/6` (in brackets)."""
        if self.pos < len(self.text) and self.text[self.pos] in "([":
            # `(1, 4, 6)`, `[1-4-6]`
            close = ")" if self.text[self.pos] == "(" else "]"
            slashed = _SLASHED_DICE.match(self.text, self.pos + 1) is not None
            self.pos = spaces_end(self.text, self.pos + 1)
            dice = self._dice(numbered, slashed)
            end = spaces_end(self.text, self.pos)
            if end < len(self.text) and self.text[end] == close:
                self.pos = end + 1
            return dice
        tokens = self._die_tokens(_SLASH_SEP if slashed else _DIE_SEP)
        if len(tokens) == 1 and len(tokens[0][0]) == 3:
            m = tokens[0]
            return [int(d) for d in m[0]], [m.start() + 1 + i for i in range(3)]
        if len(tokens) != 3:
            self._not_three(tokens, numbered)
        return [self.number(m[0], phrase(N_("die")), m.start()) for m in tokens], [
            m.start() + 1 for m in tokens
        ]

    def _die_tokens(self, separator: re.Pattern[str]) -> list[re.Match[str]]:
        """The numbers where the dice stand (`1 4 6`, `1,4,6`, `146`), and a fourth one
        that is no field (`1 2 4 5`: an error, or the roll number in another reading)."""
        tokens: list[re.Match[str]] = []
        while (m := _DIE.match(self.text, self.pos)) is not None:
            if len(tokens) == 3:
                field = FIELD.match(self.text, m.start())
                if PAIRS in self.modes or (
                    field is not None and (len(m[0]) == 2 or not is_packed(field))
                ):
                    break  # the cross-out, written without a word: `1: 2 4 5 2/4`
            tokens.append(m)
            self.pos = m.end()
            if len(tokens) == 1 and len(m[0]) == 3:
                break
            sep = separator.match(self.text, self.pos)
            if sep is None or not _DIE.match(self.text, sep.end()):
                break
            self.pos = sep.end()
        return tokens

    def _not_three(self, tokens: list[re.Match[str]], numbered: bool) -> NoReturn:
        """E002 for a line whose dice are not three: what it gives instead."""
        if len(tokens) > 3:
            hint = (
                ""
                if numbered
                else phrase(N_("a row number needs :, . or ) after it, like 7: 3 4 6"))
            )
            message = phrase(
                N_(
                    "after the three dice {dice} comes the field crossed out (like x 3/4), "
                    "reroll or ring, not a fourth number {found}"
                ),
                dice=" ".join(m[0] for m in tokens[:3]),
                found=short(tokens[3][0]),
            )
            self.fail(message, tokens[3].start(), hint=hint)
        at = tokens[0].start() if tokens else self.pos
        found = _found(self.text, at)
        if tokens:
            message = phrase(
                N_("this line gives {dice} where a roll has three dice, like 3 4 6 or 346"),
                dice=" ".join(m[0] for m in tokens),
            )
        elif found is _END:
            message = phrase(
                N_("the three dice are missing, like 3 4 6 or 346: the line ends here")
            )
        else:
            message = phrase(
                N_("the three dice are missing here, like 3 4 6 or 346; the line has {found}"),
                found=found,
            )
        self.fail(message, at, hint=_EXAMPLE_HINT)

    def _tokens(self) -> list[Token]:
        """The annotation as tokens; notes (a bracket without a number, `✓`, `+30`) dropped."""
        tokens: list[Token] = []
        text = self.text
        pos = self.pos
        paren = -1
        for _ in range(MAX_PIECES):
            pos = spaces_end(text, pos)
            if pos >= len(text):
                return tokens
            if text[pos] in "([":
                close = text.find(")" if text[pos] == "(" else "]", pos, pos + 200)
                inside = text[pos + 1 : close] if close >= 0 else ""
                if close >= 0 and not re.search(r"[0-9]", inside):
                    pos = close + 1  # a note in brackets: `(lucky!)`
                    continue
                if not FIELD.match(text, pos):
                    paren = pos
                    pos += 1
                    continue
            m = _TOKEN.match(text, pos)
            if m is None:
                message = phrase(N_("{found} cannot be part of a round"), found=short(text[pos]))
                self.fail(message, pos, hint=_NOTES_HINT)
            kind = "field" if m["field"] is not None else m.lastgroup or "sep"
            pos = m.end()
            if kind in ("sep", "close", "deco"):
                paren = -1
                continue
            tokens.append(self._token(kind, m, paren))
            paren = -1
        message = phrase(N_("more than {n} words, numbers and signs on one line"), n=MAX_PIECES)
        self.fail(message, pos, hint=_NOTES_HINT)

    def _token(self, kind: str, m: re.Match[str], paren: int) -> Token:
        if kind == "field":
            inner = FIELD.match(m[0])
            assert inner is not None
            try:
                text = field_text(inner)
            except LexError as exc:
                self.fail(exc.said, m.start(), code=exc.code)
            return Token(
                "field", m[0], m.start(), m.end(), field=text, packed=is_packed(inner), paren=paren
            )
        if kind == "word":
            return Token(
                "word", m[0], m.start(), m.end(), role=PHRASES.get(folded(m[0]), ""), paren=paren
            )
        if kind == "arrow":
            return Token("word", m[0], m.start(), m.end(), role=MOVE, paren=paren)
        return Token(kind, m[0], m.start(), m.end(), paren=paren)


class _Annotation:
    """The items after a line's dice: a reroll or ring, or a cross-out with its move,
    steps and path. Fields come in that order; words may stand before their field (and
    some after it); a word or number it cannot place is an error, never dropped."""

    def __init__(
        self, line: _RollLine, tokens: list[Token], data: dict[str, object], where: Where
    ) -> None:
        self.line = line
        self.tokens = tokens
        self.data = data
        self.where = where
        self.i = 0
        self.seen: dict[str, int] = {}
        self.no_move = False
        """A no-move phrase was read (a second one says the same: `stuck, game over`)."""
        self.pending: tuple[str, Token] | None = None
        """The word whose field or number comes next (`x` before `3/4`), while reading."""
        self.resume: tuple[str, Token] | None = None
        """A move word whose field follows the steps (`avancé de 1 jusqu'à 1/1`)."""
        self.last_field: str | None = None
        """The role of the field just read, for a word said after it (`6/1 gezogen`)."""

    def fail(self, message: Text, pos: int, hint: Text = "") -> NoReturn:
        if not hint and self.line.typed:
            hint = self._read_so_far()
        self.line.fail(message, pos, hint=hint or _EXAMPLE_HINT)

    def _points(self, token: Token) -> bool:
        """In a typed round, a number and a unit of points (`20 points`, `20 Punkte`):
        what the field is worth, a note of the player's."""
        unit = self.peek(1)
        return (
            self.line.typed
            and token.kind in ("num", "field")
            and token.text.isdigit()
            and unit is not None
            and unit.kind == "word"
            and folded(unit.text) in POINT_UNITS
        )

    def _phrase_at(self, k: int) -> tuple[str, Token, Token] | None:
        """The phrase that starts at token `k`, the reader staying where it is."""
        at, self.i = self.i, k
        found = self.phrase()
        self.i = at
        return found

    def _said(self, word: Token) -> str:
        """The phrase a word begins, as the player wrote it (`moved to`, `Kreuz`)."""
        found = self._phrase_at(self.tokens.index(word))
        return self.line.text[word.start : found[2].end] if found is not None else word.text

    def _read_so_far(self) -> Phrase:
        """What a typed round's line gave before the reader stopped (`read so far: roll
        3, dice 2 2 2, crossed out 2/2`): the player sees which of their words were taken."""
        return phrase(N_("read so far: {read}"), read=_said_items(self.data))

    def peek(self, offset: int = 0) -> Token | None:
        k = self.i + offset
        return self.tokens[k] if k < len(self.tokens) else None

    def phrase(self) -> tuple[str, Token, Token] | None:
        """The longest phrase starting at the current word: (role, first, last token)."""
        first = self.peek()
        if first is None or first.kind != "word":
            return None
        if first.role == MOVE and not first.text[0].isalpha():  # an arrow
            self.i += 1
            return MOVE, first, first
        for n in range(_LONGEST, 0, -1):
            words = self.tokens[self.i : self.i + n]
            if len(words) < n or any(w.kind != "word" for w in words):
                continue
            key = folded(" ".join(w.text for w in words))
            if key in PHRASES:
                self.i += n
                return PHRASES[key], first, words[-1]
        return None

    def read(self) -> bool:
        """Fill data and where; False when the line has no annotation."""
        if not self.tokens:
            return False
        first = self.tokens[0]
        said = first if all(t.kind == "dash" for t in self.tokens) else None
        if said is None and (self.line.typed or ("roll",) not in self.where):
            # `had to reroll`, `nix möglich, neu würfeln`, also without a roll number
            said = self._reroll_said()
        if said is not None:
            self.data["reroll"] = True
            self.where[("reroll",)] = said.start + 1
            return True
        # `6 6 6 - reroll`, `6,6,6 ; on relance`: dashes and filler words before a word
        while (lead := self.peek()) is not None and self._filler(lead):
            self.i += 1
        first = self.peek() or first
        found = self.phrase()
        if found is not None and found[0] in (REROLL, RING):
            kind = found[0]
            self.data[kind] = True
            self.where[(kind,)] = first.start + 1
            self._same_said(kind)  # `nothing to cross out, reroll`
            rest = self.peek()
            if rest is not None:
                template = (
                    N_("after {word} the line goes on with {found}, but a reroll has nothing more")
                    if kind == REROLL
                    else N_(
                        "after {word} the line goes on with {found}, but a ring round has "
                        "nothing more"
                    )
                )
                named = short(self.line.text[first.start : found[2].end])
                message = phrase(template, word=named, found=short(rest.text))
                hint = phrase(
                    N_("a {kind} uses the row up: no cross, move, steps or path"), kind=kind
                )
                self.fail(message, rest.start, hint=hint)
            return True
        self.i = 0
        self._play()
        return True

    def _reroll_said(self) -> Token | None:
        """The reroll word of a typed round that names no field and no number, whatever
        words stand around it (`had to reroll`, `musste neu würfeln`); None where the
        round has a field, a number or a ring, or no reroll word."""
        if any(t.kind in ("field", "num") for t in self.tokens):
            return None
        said: Token | None = None
        while self.i < len(self.tokens):
            found = self.phrase()
            if found is None:
                self.i += 1
            elif found[0] == RING:
                said = None
                break
            elif found[0] == REROLL and said is None:
                said = found[1]
        self.i = 0
        return said

    def _cross_ahead(self, word: Token) -> bool:
        """In a typed round, whether a word read before the cross-out stands before a
        cross-out word (only filler words between): the player's own (`had to cross out
        1/2`), not a move or steps out of place."""
        if not self.line.typed or CROSS in self.data or not word.text[0].isalpha():
            return False
        return self._cross_next()

    def _cross_next(self) -> bool:
        """Whether a cross-out word comes next, with only filler words before it (`→ je
        raye 1/4`)."""
        for token in self.tokens[self.i : self.i + MAX_LOOK_AHEAD]:
            if token.kind != "word" or token.role not in (FILLER, CROSS):
                return False
            if token.role == CROSS:
                return True
        return False

    def _before_field(self) -> bool:
        """Pass over the words between a cross-out or move word and its field (`Kreuz
        auf das Feld 1/4`, `je barre sur la case 1/4`, `crossed out the field 6/4`, in a
        typed round with the player's own words among them): only where a field follows."""
        first = self.peek()
        if first is None or first.kind != "word" or folded(first.text) not in _BEFORE_FIRST:
            return False
        k = self.i
        before = False
        end = min(len(self.tokens), self.i + MAX_LOOK_AHEAD)
        while k < end:
            length = self._before_words(k)
            if length:
                k += length
                before = True
            elif self._skippable(self.tokens[k]) and folded(self.tokens[k].text) not in PHRASES:
                k += 1
            else:
                break
        if before and k < len(self.tokens) and self.tokens[k].kind == "field":
            self.i = k
            return True
        return False

    def _before_words(self, k: int) -> int:
        """How many words at `k` make the longest phrase of BEFORE_FIELD, or 0."""
        key, longest = "", 0
        for n, token in enumerate(self.tokens[k : k + _LONGEST_BEFORE], start=1):
            if token.kind != "word":
                break
            key = f"{key} {folded(token.text)}" if key else folded(token.text)
            longest = n if key in BEFORE_FIELD else longest
        return longest

    def _filler(self, token: Token) -> bool:
        """A dash, a filler word or a word of the player's own that begins no phrase
        (`nothing to cross out` does), at the current token: nothing to read."""
        return (
            token.kind == "dash"
            or (token.kind == "word" and token.role == FILLER)
            or (self._skippable(token) and self._phrase_at(self.i) is None)
        )

    def _same_said(self, role: str) -> None:
        """Skip what follows a reroll or ring when it only says it again, with dashes and
        filler words between (`nothing to cross out, reroll`; `neu würfeln - Neuwurf`)."""
        k = self.i
        while k < len(self.tokens):
            token = self.tokens[k]
            self.i = k
            if self._filler(token):
                k += 1
                continue
            found = self.phrase()
            if found is None or found[0] != role:
                self.i = k
                return
            k = self.i
        self.i = k

    def _play(self) -> None:
        """Read the cross-out, the move, the steps and the path, token by token."""
        while (token := self.peek()) is not None:
            self._step(token)
        pending = self.pending
        if pending is not None and (pending[0] != PATH or PATH not in self.data):
            self._missing(pending, None)
        if CROSS not in self.data:
            message = phrase(N_("this round names no field crossed out, like x 3/4"))
            self.fail(message, self.tokens[0].start)

    def _step(self, token: Token) -> None:
        """Read the item that starts at `token` (one token or a few)."""
        pending = self.pending
        if self._points(token):
            self.i += 2  # `(6 steps) 20 points`: the field's value, a note
            return
        if token.kind == "dash":  # a separator, also between a path's fields
            self.i += 1
            if pending is not None and pending[0] == MOVE:  # `-> -`: no move
                self.where[(MOVE,)] = token.start + 1
                self.pending = None
            return
        if pending is not None and pending[0] == PATH:
            if self._path_arrow(token):
                self.i += 1  # `path 6/5 -> 5/5` after the move: the arrow joins the path
                return
            if token.kind != "field":
                if PATH not in self.data:
                    self._missing(pending, token)
                self.pending = None
        if token.kind == "field":
            self._field_token(token)
        elif token.kind == "num":
            self._num_token(token)
        else:
            self._word(token)

    def _field_token(self, token: Token) -> None:
        """A field: the steps when packed before a steps word (`12 steps`), else the
        field the pending word names, or the next one in order."""
        pending = self.pending
        self.i += 1
        nxt = self.peek()
        steps_word = nxt is not None and nxt.kind == "word" and nxt.role == STEPS
        if token.packed and (steps_word or (pending is not None and pending[0] == STEPS)):
            self.i += 1 if steps_word else 0
            self._steps(token.text, token)
            self.pending, self.resume = self.resume, None
            return
        if pending is not None and pending[0] == STEPS:
            self._missing(pending, token)
        self.last_field = self._field(token, pending[0] if pending else None)
        if self.last_field != PATH:
            self.pending = None

    def _num_token(self, token: Token) -> None:
        pending = self.pending
        self.i += 1
        unit = self.peek()
        if (
            pending is not None
            and pending[0] == MOVE
            and unit is not None
            and unit.kind == "word"
            and (unit.role == STEPS or (unit.role == MOVE and self.line.typed))
        ):
            # `moved 1 step to 1/1`: the steps inside the move; `move 6 to 1/1`:
            # the steps, then the move's word said again
            self.i += unit.role == STEPS
            self._steps(token.text, token)
            return
        self._number(token, pending)
        self.pending, self.resume = self.resume, None
        self.last_field = None

    def _word(self, token: Token) -> None:
        """A word or a phrase: the role it gives the next field or number, or one passed
        over."""
        pending = self.pending
        if (
            pending[0] in (CROSS, MOVE) if pending is not None else self.line.typed
        ) and self._before_field():
            return  # `Kreuz auf 1/4`; in a typed round also `auf das Feld 2/1 gestrichen`
        found = self.phrase()
        if found is None:
            if self._skippable(token):
                self.i += 1
                return
            self._unknown(token)
        role, first, last = found
        if self._passed_over(role, first):
            return
        if pending is not None and pending[0] == MOVE and role in (STEPS, IN):
            self.resume = pending  # `avancé de 1 jusqu'à 1/1`: the steps inside the move
            pending = self.pending = None
        if pending is not None and not (pending[0] == MOVE and role in (EXIT, NOMOVE)):
            self._missing(pending, first)
        read = {
            CROSS: self._cross_word,
            MOVE: self._move_word,
            STEPS: self._steps_word,
            IN: self._steps_word,
            PATH: self._path_word,
            EXIT: self._end_word,
            NOMOVE: self._end_word,
        }.get(role, self._reroll_after_cross)
        if read(role, first, last):
            self.last_field = None

    def _passed_over(self, role: str, first: Token) -> bool:
        """Whether a phrase carries nothing to read here: a filler word, a word said twice,
        a move word after its field, an arrow before the cross-out."""
        pending = self.pending
        if role == FILLER:  # `and`, `je`, `und`: nothing to read
            return True
        if role in (MOVE, IN, STEPS, PATH) and pending is None and self._cross_ahead(first):
            return True  # `had to cross out 1/2`: a word of the player's own before it
        if pending is not None and pending[0] == MOVE and role == MOVE:
            return True  # `moved 1 step to 1/1`: one move, said twice
        if role == MOVE and self.last_field == MOVE and normal(first.text) in MOVE_POSTFIX:
            self.last_field = None
            return True  # `nach 6/1 gezogen`
        return role == MOVE and not first.text[0].isalpha() and self._arrow_before_cross(first)

    def _arrow_before_cross(self, arrow: Token) -> bool:
        """An arrow that stands before the cross-out (after the dice), not for the move."""
        if CROSS in self.data:
            return False
        after, then = self.peek(), self.peek(1)
        if self._cross_next():
            return True  # `2 2 2 → X 2/2 → 6/1`, `→ je raye 1/4`: before the cross-out
        if (
            after is not None
            and after.kind == "field"
            and then is not None
            and then.kind == "word"
            and folded(then.text) in POSTFIX
        ):
            return True  # `1 4 6 -> 1/4 angekreuzt`: before a field crossed out after it
        # `1 4 6 => 6/4 -> 1/1`: between the dice and the cross-out
        return self.line.typed and arrow is self.tokens[0] and self._fields(2)

    def _cross_word(self, role: str, first: Token, last: Token) -> bool:
        if self.last_field == CROSS and (
            normal(first.text) in POSTFIX or normal(f"{first.text} {last.text}") in POSTFIX
        ):
            return True  # `6/4 durchgestrichen`: the field crossed out, said after it
        if CROSS in self.data:
            message = phrase(N_("a round crosses out one field; this is a second cross-out"))
            self.fail(message, first.at)
        self.pending = (CROSS, first)
        return True

    def _move_word(self, role: str, first: Token, last: Token) -> bool:
        self._once(MOVE, first)
        self.pending = (MOVE, first)
        return True

    def _steps_word(self, role: str, first: Token, last: Token) -> bool:
        nxt = self.peek()
        if self.line.typed and (nxt is None or nxt.kind not in ("num", "field")):
            self.pending, self.resume = self.resume, None
            return False  # `pas de chance`, `mit viel Glück`: no steps said here
        if role == STEPS and (nxt is None or nxt.kind not in ("num", "field")):
            message = phrase(
                N_("{word} needs its number, like steps 5 or 5 steps"),
                word=short(first.text),
            )
            self.fail(message, first.start)
        self.pending = (STEPS, first)
        return True

    def _path_word(self, role: str, first: Token, last: Token) -> bool:
        if self.last_field == CROSS and folded(first.text) in POSTFIX:
            return True  # `1/4 weg`: a field crossed out, said after it
        nxt = self.peek()
        named = nxt is not None and (nxt.kind == "field" or normal(nxt.text) == "none")
        if self.line.typed and not named:
            return False  # `kein Weg mehr frei`: no path said here
        self._once(PATH, first)
        self.where[(PATH,)] = first.start + 1
        if nxt is not None and nxt.kind == "word" and normal(nxt.text) == "none":
            self.i += 1
            self.data[PATH] = []
            self.where[(PATH,)] = nxt.start + 1
            self.pending = None
        else:
            self.pending = (PATH, first)
        return True

    def _end_word(self, role: str, first: Token, last: Token) -> bool:
        """An exit (`escape`) or no move (`stuck`, `kein Zug`) in the move's place."""
        self._need_cross(first)
        if role == NOMOVE and self.no_move:
            return False  # `no move possible - game over!`: one thing said twice
        self.no_move = role == NOMOVE
        if self.pending is None or self.pending[0] != MOVE:
            self._once(MOVE, first)
        if role == EXIT:
            self.data[MOVE] = EXIT_WORDS[normal(first.text)]
        self.where[(MOVE,)] = first.start + 1
        self.pending = None
        return True

    def _reroll_after_cross(self, role: str, first: Token, last: Token) -> NoReturn:
        message = (
            phrase(
                N_(
                    "this round crosses out {field} and says {word} too: a round either "
                    "crosses out a field or is a reroll or a ring"
                ),
                field=self.data[CROSS],
                word=short(self._said(first)),
            )
            if CROSS in self.data
            else phrase(N_("a round crosses out one field, or is a reroll or a ring, not both"))
        )
        self.fail(message, first.at)

    def _fields(self, count: int) -> bool:
        """Whether `count` fields or more follow the current token."""
        return sum(t.kind == "field" for t in self.tokens[self.i :]) >= count

    def _path_arrow(self, token: Token) -> bool:
        """An arrow between two fields of a path, once the move is known."""
        nxt = self.peek(1)
        return (
            token.role == MOVE
            and not token.text[0].isalpha()
            and MOVE in self.seen
            and bool(self.data.get(PATH))
            and nxt is not None
            and nxt.kind == "field"
        )

    def _need_cross(self, token: Token) -> None:
        if CROSS not in self.data:
            message = phrase(
                N_(
                    "{found} comes before the field crossed out: a round names the field "
                    "crossed out first, like x 3/4"
                ),
                found=short(token.text),
            )
            hint = phrase(N_("a round names the field crossed out, then the field moved to"))
            self.fail(message, token.at, hint=hint)

    def _once(self, item: str, token: Token) -> None:
        self._need_cross(token)
        if item in self.seen:
            message = phrase(
                N_("{item} is given twice on this line (first at column {col})"),
                item=item,
                col=self.seen[item],
            )
            self.fail(message, token.at)
        self.seen[item] = token.at + 1

    def _field(self, token: Token, role: str | None) -> str:
        """Place a field: after its word, else the cross-out, then the move, then an
        error; returns the role it took."""
        if role is None:
            if CROSS not in self.data:
                role = CROSS
            elif MOVE not in self.seen:
                role = MOVE
                self.seen[MOVE] = token.at + 1
            elif token.packed and STEPS not in self.seen:
                message = phrase(
                    N_("{text} reads as the field {field} or as steps {text}"),
                    text=token.text,
                    field=token.field,
                )
                hint = phrase(
                    N_("write a field of the path after path, steps as ({text})"),
                    text=token.text,
                )
                self.fail(message, token.at, hint=hint)
            else:
                fixed = self.line.corrected(token.start, token.start, "path ")
                message = phrase(
                    N_("a third field {field} after the cross-out and the move"),
                    field=token.field,
                )
                hint = phrase(N_("name a path's fields after path: {fixed}"), fixed=fixed)
                self.fail(message, token.at, hint=hint)
        if role == CROSS:
            self.seen[CROSS] = token.at + 1
        if role in (CROSS, MOVE):
            self.data[role] = token.field
            self.where[(role,)] = token.start + 1
        elif role == PATH:
            cells = self.data.setdefault(PATH, [])
            assert isinstance(cells, list)
            self.where[(PATH, len(cells))] = token.start + 1
            if not cells:
                self.where[(PATH,)] = token.start + 1
            cells.append(token.field)
        return role

    def _number(self, token: Token, pending: tuple[str, Token] | None) -> None:
        nxt = self.peek()
        if nxt is not None and nxt.kind == "word" and nxt.role == STEPS:
            self.i += 1
            self._steps(token.text, token)
            return
        if pending is not None and pending[0] == STEPS:
            self._steps(token.text, token)
            return
        bare = token.paren < 0 and nxt is not None and nxt.paren < 0
        if bare and nxt is not None and nxt.kind == "num" and len(token.text + nxt.text) == 2:
            if PAIRS in self.line.modes:  # `6 4` is the field 6/4
                self.i += 1
                pair = Token(
                    "field",
                    f"{token.text} {nxt.text}",
                    token.start,
                    nxt.end,
                    field=f"{token.text}/{nxt.text}",
                )
                self._field(pair, pending[0] if pending is not None else None)
                return
            message = phrase(
                N_("{a} {b} reads as the field {a}/{b} or as steps {a} and then {b}"),
                a=token.text,
                b=nxt.text,
            )
            hint = phrase(N_("write a field as {a}/{b}, steps as ({a})"), a=token.text, b=nxt.text)
            self.fail(message, token.at, hint=hint)
        if pending is not None:
            self._missing(pending, token)
        if CROSS not in self.data:
            self._need_cross(token)
        if len(token.text) != 1:
            message = phrase(
                N_("the number {number} is neither a field nor steps"), number=token.text
            )
            hint = phrase(N_("write a field as 3/4, steps as (5) or 5 steps"))
            self.fail(message, token.at, hint=hint)
        self._steps(token.text, token)

    def _steps(self, digits: str, token: Token) -> None:
        self._once(STEPS, token)
        self.data[STEPS] = self.line.number(digits, STEPS, token.start)
        self.where[(STEPS,)] = token.start + 1

    def _missing(self, pending: tuple[str, Token], token: Token | None) -> NoReturn:
        role, word = pending
        what = {
            CROSS: phrase(N_("the field crossed out, like x 3/4")),
            MOVE: phrase(N_("the field moved to (like -> 5/5), escape, leave or none")),
            STEPS: phrase(N_("the steps, like in 5 steps")),
            PATH: phrase(N_("the fields entered, like path 6/5 5/5")),
        }[role]
        at = token.start if token is not None else len(self.line.text.rstrip())
        found = short(token.text) if token is not None else None
        if self.line.typed and role in (CROSS, MOVE):  # in the player's own words
            said = self._said(word)
            example = f"{said} {'3/4' if role == CROSS else '5/5'}"
            message = (
                phrase(
                    N_("{word} needs its field after it, like {example}; the line ends there"),
                    word=short(said),
                    example=example,
                )
                if found is None
                else phrase(
                    N_(
                        "{word} needs its field after it, like {example}; the line goes on "
                        "with {found}"
                    ),
                    word=short(said),
                    example=example,
                    found=found,
                )
            )
            self.fail(message, at)
        message = (
            phrase(
                N_("{word} needs {what}; the line ends there"),
                what=what,
                word=short(word.text),
            )
            if found is None
            else phrase(
                N_("{word} needs {what}; the line goes on with {found}"),
                what=what,
                word=short(word.text),
                found=found,
            )
        )
        self.fail(message, at)

    def _skippable(self, token: Token) -> bool:
        """A word of a typed round (one with a roll word) that the reader does not know
        and that is no misspelling of a keyword it knows (a word of three letters or
        fewer never is one): the player's own (`bad luck`, `all the way`, `bien`), passed
        over. The annotated form stays strict."""
        return (
            self.line.typed
            and token.kind == "word"
            and not token.role
            and token.text[0].isalpha()
            and (
                len(folded(token.text)) <= 3
                or not any(_keyword(w) for w in _close(folded(token.text), 0.8))
            )
        )

    def _unknown(self, token: Token) -> NoReturn:
        close = _close(folded(token.text))
        if close:
            # As the player would write it: `barée` -> `barrée`, not the folded `barree`;
            # `Schriten` -> `Schritten`, not `schritten`.
            meant = _as_written(close[0], token.text)
            hint = self.line.corrected(token.start, token.end, meant)
            message = phrase(
                N_("{found} is not a word the reader knows: did you mean {word}?"),
                found=short(token.text),
                word=short(meant),
            )
            self.fail(message, token.start, hint=hint)
        message = phrase(
            N_(
                "{found} is not part of a round: after the dice come the field crossed "
                "out, the move (-> 5/5), the steps (6) and a path (path 6/5 5/5)"
            ),
            found=short(token.text),
        )
        self.fail(message, token.start, hint=_NOTES_HINT)


def _keyword(word: str) -> bool:
    """A word of the vocabulary that a misspelling is worth naming for: of four letters
    or more and no filler word (`bien` is no misspelt `bin`, `nix` no misspelt `nie`)."""
    return len(word) >= 4 and PHRASES.get(word) != FILLER


@functools.lru_cache(maxsize=1024)
def _close(word: str, cutoff: float = 0.7) -> tuple[str, ...]:
    """The known word a word is a misspelling of, if any: close in spelling, or the same
    letters swapped (`ot` for `to` scores low on similarity). A word passed over needs
    to be further from every known word (0.8: `viel` is not taken for `Ziel`) than a
    word refused needs to be near one to be named as meant (0.7)."""
    word = word[:40]
    return tuple(
        difflib.get_close_matches(word, _WORDS, n=1, cutoff=cutoff)
        or [w for w in _WORDS if len(w) == len(word) and sorted(w) == sorted(word)][:1]
    )


def dump(record: Record) -> str:
    """The record as an annotated dice file; every round needs its roll and dice."""
    lines = ["# Road to 300 record, annotated dice file", *header_lines(record)]
    previous = 0
    for r in record.rounds:
        if r.roll is None or r.dice is None:
            raise ValueError(f"round {r.number}: the annotated text form needs its roll and dice")
        if r.roll <= previous:
            raise ValueError(
                f"round {r.number}: roll {r.roll} after roll {previous}; "
                "the annotated text form lists rows in order"
            )
        previous = r.roll
        dice = roll_text(r.dice)
        lines.append(f"{r.roll}: {dice}   {annotation(r)}")
    return "\n".join(lines) + "\n"


def annotation(r: RecordRound) -> str:
    """What follows a round's dice: `reroll`, `ring`, or `x 3/4 -> 5/5 (6) path ...`."""
    played = r.cross is not None or r.move is not None or r.exit is not None or r.path is not None
    if r.reroll or r.ring:
        if played or r.steps is not None or (r.reroll and r.ring):
            raise ValueError(f"round {r.number}: a reroll or ring round has nothing else")
        return "reroll" if r.reroll else "ring"
    if r.cross is None:
        raise ValueError(f"round {r.number} has no cross, reroll or ring")
    if r.move is not None and r.exit is not None:
        raise ValueError(f"round {r.number} has both a move and an exit")
    parts = [f"x {r.cross}"]
    if r.exit is not None or r.move is not None:
        parts.append(f"-> {r.exit or r.move}")
    if r.steps is not None:
        parts.append(f"({r.steps})")
    if r.path is not None:
        parts.append("path " + (" ".join(str(p) for p in r.path) or "none"))
    return " ".join(parts)
