"""The `key: value` header lines that the annotated text and CSV forms share (CSV writes
them as `# key: value`): key names and their synonyms, values, quoting, and writing back."""

from __future__ import annotations

import difflib
import json
import re
from typing import NoReturn

from validator.engine.phrase import N_, Text, phrase
from validator.errors import Diagnostic, ReadError
from validator.records.lexing import LexError, normal, number, short
from validator.records.model import HEADER_KEYS, Locations, build_record
from validator.records.record import Record
from validator.records.vocabulary import union

INT_KEYS = frozenset({"claimed_score", "rings"})

SYNONYMS: dict[str, str] = {
    **{key: key for key in HEADER_KEYS},
    **{word.replace(" ", "_"): "player" for word in union("player")},
    **{word.replace(" ", "_"): "claimed_score" for word in union("total")},
}
"""Header key spellings (folded: lower case, `-` and blanks as `_`) -> the key."""

AFTER_ROUNDS = frozenset({"claimed_score"})
"""Keys that may also stand after the rounds (a final `Total: 335` line)."""

_COMMENT = re.compile(r"(?<![^ \t])#(?=[ \t]|\Z)")
"""A comment in a header value: `#` between blanks, so `Team #1` keeps its number."""


POINT_UNITS = union("points")
"""Units of points: `335 points`, `335 Punkte`, `335 pts`, and `20 points` in a round
(what a field is worth, a note)."""
_WITH_UNIT = re.compile(r"([+-]?[0-9]+)[ \t]*([^\W\d_]+)\.?")


def _without_unit(value: str) -> str:
    """A total without its unit: `335 points`, `335 Punkte`, `335 pts` are 335."""
    m = _WITH_UNIT.fullmatch(value)
    return m[1] if m is not None and normal(m[2]) in POINT_UNITS else value


def fail(code: str, message: Text, source: str, line: int, col: int, hint: Text = "") -> NoReturn:
    raise ReadError(Diagnostic.said(code, message, source, line, col, hint=hint))


def spaces_end(text: str, pos: int) -> int:
    """The first position at or after pos that is not a space or tab."""
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


def key_of(name: str) -> str | None:
    """The header key a written name means, or None."""
    return SYNONYMS.get(normal(name).replace("-", "_").replace(" ", "_"))


def misspelt(name: str) -> bool:
    """Whether a key that is not known is close to one (`playr`, `Speiler`): a typo to
    mend, not a line of the player's own (`Datum`, `Team`)."""
    folded = normal(name[:40]).replace("-", "_").replace(" ", "_")
    return bool(difflib.get_close_matches(folded, list(SYNONYMS), n=1, cutoff=0.75))


class Header:
    """Header values being read, with where each one stands."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.values: dict[str, str | int] = {}
        self.locations: Locations = {}

    def key(self, match: re.Match[str], line: int, fix: str = "{key}: {value}") -> str:
        """The key a header line's `key` group names; an unknown name is E003 with the
        corrected line (`fix` shows how a line of this form is written) as its hint."""
        name = match["key"]
        key = key_of(name)
        if key is None:
            close = difflib.get_close_matches(normal(name), list(SYNONYMS), n=1)
            value = match["rest"].strip() or "..."
            known = phrase(N_("known keys: {keys}"), keys=", ".join(HEADER_KEYS))
            hint: Text = known
            if close:
                # In the record's own words: `Speiler` -> `Spieler`, not `player`.
                word = close[0].capitalize() if name[:1].isupper() else close[0]
                hint = phrase(
                    N_("{line}   ({known})"),
                    line=fix.format(key=word, value=value),
                    known=known,
                )
            message = phrase(N_("unknown header key {key}"), key=short(name))
            fail("E003", message, self.source, line, match.start("key") + 1, hint=hint)
        return key

    def read(self, key: str, match: re.Match[str], line: int) -> None:
        if (key,) in self.locations:
            first = self.locations[(key,)][0]
            message = phrase(N_("{key} is given twice (first on line {line})"), key=key, line=first)
            fail("E002", message, self.source, line, match.start("key") + 1)
        value, col = self._value(key, match.string, match.start("rest"), line)
        if key == "claimed_score":
            value = _without_unit(value)
        if key in INT_KEYS:
            if not re.fullmatch(r"[+-]?\d+", value, re.ASCII):
                message = phrase(
                    N_("{key} must be a whole number, not {found}"), key=key, found=short(value)
                )
                fail("E005", message, self.source, line, col)
            sign = -1 if value.startswith("-") else 1
            try:
                self.values[key] = sign * number(value.lstrip("+-"), key)
            except LexError as exc:
                fail(exc.code, exc.said, self.source, line, col)
        else:
            self.values[key] = value
        self.locations[(key,)] = (line, col)

    def _value(self, key: str, text: str, start: int, line: int) -> tuple[str, int]:
        i = spaces_end(text, start)
        if text.startswith('"', i):
            try:
                value, end = json.JSONDecoder().raw_decode(text, i)
            except json.JSONDecodeError:
                message = phrase(N_("the quoted value of {key} is broken or not closed"), key=key)
                hint = phrase(N_('write it as "text", with \\" for a quote inside'))
                fail("E002", message, self.source, line, i + 1, hint=hint)
            rest = spaces_end(text, end)
            if rest < len(text) and text[rest] != "#":
                message = phrase(
                    N_(
                        "expected the end of the line after the quoted value of {key}, "
                        "found {found}"
                    ),
                    key=key,
                    found=short(text[rest:].split()[0]),
                )
                fail("E002", message, self.source, line, rest + 1)
            if not isinstance(value, str) or any("\ud800" <= ch <= "\udfff" for ch in value):
                fail(
                    "E005", phrase(N_("{key} is not valid text"), key=key), self.source, line, i + 1
                )
            return value, i + 1
        comment = _COMMENT.search(text, i)
        value = text[i : comment.start() if comment else len(text)].rstrip()
        if not value:
            message = phrase(N_("{key} has no value"), key=key)
            hint = phrase(
                N_('write it as "{key}: value" (quote a value that holds " # ")'), key=key
            )
            fail("E004", message, self.source, line, i + 1, hint=hint)
        return value, i + 1


def build(
    header: Header,
    rounds: list[dict[str, object]],
    locations: Locations,
    fmt: str,
    problems: list[Diagnostic],
    numbers: list[int],
) -> Record:
    """The record of a line-based form (text, CSV): its header and rounds validated
    together, with the whole record and its rounds located at their first lines."""
    locations.update(header.locations)
    locations[()] = (1, 1)
    if rounds:
        locations[("rounds",)] = locations[("rounds", 0)]
    data = {**header.values, "rounds": rounds}
    return build_record(data, locations, header.source, fmt, problems, numbers)


def quote(value: str) -> str:
    """A header value as written: plain when it reads back unchanged, else a JSON string."""
    plain = (
        value
        and value == value.strip()
        and value.isprintable()
        and "#" not in value
        and not value.startswith('"')
    )
    return value if plain else json.dumps(value, ensure_ascii=False)


def header_lines(record: Record) -> list[str]:
    """The record's header as `key: value` lines (fields are always written row/column)."""
    lines: list[str] = []
    for key in HEADER_KEYS:
        value = getattr(record, key)
        if key == "coordinates" or value is None or (key == "rings" and value == 0):
            continue
        lines.append(f"{key}: {quote(value) if isinstance(value, str) else value}")
    return lines
