"""The value syntax every record reader shares: fields, dice, numbers, paths, flags, lines.

Each spelling is defined once here and used by the YAML/JSON model, the annotated text,
the CSV and the dice-file readers, so `3/5`, `35`, `row 3 col 5` or `none` mean the same
whatever form a record is written in. Lexers raise `LexError` with an offset into the
text they were given; each reader turns that into a diagnostic at its own line and column.
"""

from __future__ import annotations

import re
import reprlib
import unicodedata

from validator.engine.phrase import N_, Phrase, Text, phrase
from validator.records.vocabulary import COMMON_EXITS, COMMON_NO_MOVE, union

MAX_DIGITS = 18
"""Numbers longer than this are refused as out of range before int() sees them: every
limit in a record is far smaller, and int() of a huge digit string is slow or refused."""

MAX_NUMBER_CHARS = 32
"""A number written with more characters than this, in any base or notation (YAML's
hexadecimal, octal, binary and base-60 integers, exponents, `_` separators), is out of
range for every value of a record or a dice file, and is refused before it is
converted (converting a long one is slow, or refused beyond 4,300 digits)."""


class LexError(ValueError):
    """A value that does not fit its syntax (E002) or is out of range (E005)."""

    def __init__(self, message: Text, offset: int = 0, code: str = "E002", hint: Text = "") -> None:
        super().__init__(str(message))
        self.said = message
        """The message as a phrase, for other languages (or its English text)."""
        self.offset = offset
        self.code = code
        self.hint = hint


_FIELD_WORD = r"(?:room|raum|zimmer|feld|field|case|salle|pi[eè]ce)[ \t]*:?[ \t]*"
_ROW_WORD = r"(?:row|zeile|reihe|ligne|r)"
_COL_WORD = r"(?:col(?:umn)?|spalte|colonne|c)"
FIELD = re.compile(
    rf"(?:{_FIELD_WORD})?(?:"
    r"(?P<open>[(\[])[ \t]*(?P<br>[0-9]+)(?:[ \t]*[/,;-][ \t]*|[ \t]+)(?P<bc>[0-9]+)[ \t]*[)\]]"
    rf"|{_ROW_WORD}[ \t]*(?P<rr>[0-9]+)[ \t]*,?[ \t]*{_COL_WORD}[ \t]*(?P<rc>[0-9]+)"
    r"|(?P<sr>[0-9]+)[ \t]*/[ \t]*(?P<sc>[0-9]+)"
    r"|(?P<dr>[0-9])[ \t]*[,-][ \t]*(?P<dc>[0-9])(?![0-9/])"
    r"|(?P<pr>[0-9])(?P<pc>[0-9])(?![0-9])"
    r")(?![^\W\d_])",
    re.IGNORECASE,
)
"""A field: `3/4`, `3,4`, `3-4`, `34`, `(3,4)`, `[3/4]`, `row 3 col 4`, `r3c4`, optionally
after a word for it (`room`, `Raum`, `Feld`, `case`); the numbers are checked later."""

_FIELD_GROUPS = (("br", "bc"), ("rr", "rc"), ("sr", "sc"), ("dr", "dc"), ("pr", "pc"))


def either(some: str, last: str) -> Phrase:
    """`3/4, 34 or r3c4`: examples of a syntax, the last after the language's "or"."""
    return phrase(N_("{some} or {last}"), some=some, last=last)


FIELD_EXAMPLES = either("3/4, 3,4, 34, (3,4), row 3 col 4", "r3c4")
_FIELD_ROW = phrase(N_("a field's row"))
_FIELD_COLUMN = phrase(N_("a field's column"))


def is_packed(match: re.Match[str]) -> bool:
    """A field written as two bare digits (`34`), which could also be a number."""
    return match["pr"] is not None


def field_parts(match: re.Match[str]) -> tuple[int, int]:
    """Row and column numbers of a FIELD match (not yet range-checked)."""
    for r, c in _FIELD_GROUPS:
        if match[r] is not None:
            return number(match[r], _FIELD_ROW, match.start(r)), number(
                match[c], _FIELD_COLUMN, match.start(c)
            )
    raise AssertionError("FIELD matched without its groups")  # pragma: no cover


def field_text(match: re.Match[str]) -> str:
    """The canonical `row/col` of a FIELD match; the model checks the range."""
    row, col = field_parts(match)
    return f"{row}/{col}"


def lex_field(text: str) -> tuple[int, int]:
    """A whole value that is one field, as (row, column); raises LexError."""
    stripped = text.strip()
    m = FIELD.fullmatch(stripped)
    if m is None:
        message = phrase(
            N_("expected a field like {examples}, not {found}"),
            examples=FIELD_EXAMPLES,
            found=short(text),
        )
        raise LexError(message)
    return field_parts(m)


def number(digits: str, what: Text | None = None, offset: int = 0) -> int:
    """A run of ASCII digits as an int; too many digits is a range error (E005). `what`
    names the value (a phrase, or a record key, which stays as it is)."""
    significant = digits.lstrip("0")
    if len(significant) > MAX_DIGITS:
        named = what if what is not None else phrase(N_("a number"))
        message = phrase(N_("{what} {number} is out of range"), what=named, number=short(digits))
        raise LexError(message, offset, "E005")
    return int(significant or "0")


DICE = re.compile(
    r"[(\[]?[ \t]*(\d+)(?:[ \t]*[,;-][ \t]*|[ \t]+)(\d+)(?:[ \t]*[,;-][ \t]*|[ \t]+)(\d+)"
    r"[ \t]*[)\]]?|(\d)(\d)(\d)",
    re.ASCII,
)
"""Three dice: `5 5 3`, `5,5,3`, `5;5;3`, `5-5-3`, `[5, 5, 3]`, `553`."""

DICE_EXAMPLES = either("5 5 3, 5,5,3, 5-5-3", "553")
_A_DIE = phrase(N_("a die"))


def lex_dice(text: str) -> list[int]:
    """A whole value that is three dice; raises LexError (ranges are checked later)."""
    m = DICE.fullmatch(text.strip())
    if m is None:
        message = phrase(
            N_("expected three dice like {examples}, not {found}"),
            examples=DICE_EXAMPLES,
            found=short(text),
        )
        raise LexError(message)
    return [number(d, _A_DIE) for d in m.groups() if d is not None]


NONE_WORDS = COMMON_NO_MOVE | union("no_move")
"""A move that is not there: the last round of a game that could not move."""

EXITS = COMMON_EXITS
YES = frozenset({"true", "yes", "y", "1", "x", "ja", "oui"})
NO = frozenset({"", "false", "no", "n", "0", "nein", "non"})


def normal(text: str) -> str:
    """Case, accents and inner blanks folded, for comparing words (`Barrée` -> `barree`)."""
    if text.isascii():  # nothing to decompose
        return " ".join(text.lower().split())
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.split())


def is_none(text: str) -> bool:
    return normal(text) in NONE_WORDS


def lex_flag(text: str) -> bool:
    word = normal(text)
    if word in YES:
        return True
    if word in NO:
        return False
    raise LexError(
        phrase(N_("expected yes, true, 1 or an empty value, not {found}"), found=short(text))
    )


_PATH_SEP = re.compile(r"[ \t,;>→-]*")
"""Blanks, commas, semicolons, dashes and arrows (`->`, `-->`, `→`), in any run: one
character class, so that a long run is scanned once (alternatives re-scan it)."""


def lex_path(text: str) -> list[str]:
    """Fields separated by blanks, `,`, `;`, `-` or arrows; `none` is the empty path.
    Returns each field as `row/col` (checked later); raises LexError."""
    if is_none(text) or not text.strip():
        return []
    fields: list[str] = []
    pos = 0
    while True:
        sep = _PATH_SEP.match(text, pos)
        pos = sep.end() if sep else pos
        if pos >= len(text):
            return fields
        m = FIELD.match(text, pos)
        if m is None:
            message = phrase(
                N_("expected fields like 6/5 5/5, found {found}"), found=short(text[pos:])
            )
            hint = phrase(N_("separate the path's fields with blanks, commas or dashes"))
            raise LexError(message, pos, hint=hint)
        fields.append(field_text(m))
        pos = m.end()


LINE_BREAK = re.compile(r"\r\n|\r|\n")


def position(text: str, at: int) -> tuple[int, int]:
    """The line and column of `text[at]` (1, 1 when `at` is -1: not found)."""
    if at < 0:
        return (1, 1)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def split_lines(text: str) -> list[str]:
    """Lines ended by `\\n`, `\\r\\n` or a lone `\\r` (old Mac files), without the ends."""
    return LINE_BREAK.split(text)


def short(value: object) -> str:
    """A value quoted for a message, cut to 24 characters. Like repr(), but joiners and
    emoji variation selectors stay characters: Python escapes them (a family emoji would
    read as 👩\\u200d👩), though they are text, not controls. A list or mapping is shown
    by its start only (never built whole as text: it may hold a megabyte)."""
    if isinstance(value, list | tuple | dict):
        value = _SHORT_REPR.repr(value)
    if isinstance(value, bool) or value is None:  # as the record spelt it, not as Python does
        value = "null" if value is None else str(value).lower()
    text = value if isinstance(value, str) else str(value)
    quoted = repr(text) if len(text) <= 24 else repr(text[:21] + "...")
    return re.sub(r"\\+u(200[cd]|fe0f)", lambda m: chr(int(m.group(1), 16)), quoted)


_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxlevel, _SHORT_REPR.maxlist, _SHORT_REPR.maxtuple = 2, 4, 4
_SHORT_REPR.maxdict, _SHORT_REPR.maxstring, _SHORT_REPR.maxother = 4, 24, 24


def twice(key: object) -> Text:
    """`the key 'roll' appears twice` (YAML and JSON)."""
    return phrase(N_("the key {key} appears twice"), key=short(key))


def too_long(value: object) -> Text:
    """`the number '1111...' is longer than any value of a record` (YAML and JSON)."""
    return phrase(
        N_("the number {number} is longer than any value of a record"), number=short(value)
    )


class Refused(ValueError):
    """A value a validator refuses, with its message as a phrase (pydantic keeps the
    exception: a reader's message says it in the reader's language)."""

    def __init__(self, message: Text) -> None:
        super().__init__(str(message))
        self.said = message
