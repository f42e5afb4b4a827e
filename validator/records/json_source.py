"""JSON loading that keeps source locations: plain data plus a path -> line map.

The standard library parses (and reports syntax errors with line and column); a small
scanner then walks the same, now known-good, text to note where each key and value
starts, as far as the reader will look.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from typing import Any

from validator.engine.phrase import N_, Text, phrase
from validator.errors import Diagnostic, ReadError
from validator.records.lexing import MAX_NUMBER_CHARS, position, too_long, twice
from validator.records.model import Locations, Path

MAX_DEPTH = 16


def load(text: str, source: str, max_rounds: int | None = None) -> tuple[Any, Locations]:
    """Parse one JSON document; raises ReadError with line and column. With `max_rounds`,
    a top-level `rounds` list is cut to that many items."""

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise _Duplicate(key)
            out[key] = value
        return out

    try:
        data = json.loads(
            text,
            object_pairs_hook=no_duplicates,
            parse_int=_bounded(int),
            parse_float=_bounded(float),
        )
    except _TooLong as exc:
        line, col = position(text, text.find(exc.text))
        raise ReadError(Diagnostic.said("E005", too_long(exc.text), source, line, col)) from None
    except json.JSONDecodeError as exc:
        message = phrase(N_("JSON syntax: {problem}"), problem=_json_problem(exc))
        raise ReadError(Diagnostic.said("E002", message, source, exc.lineno, exc.colno)) from None
    except _Duplicate as exc:
        line, col = position(text, text.rfind(json.dumps(exc.key)))
        raise ReadError(Diagnostic.said("E002", twice(exc.key), source, line, col)) from None
    except RecursionError:
        raise ReadError(Diagnostic.said("E006", _TOO_DEEP, source, 1, 1)) from None
    except ValueError:  # an integer with more digits than Python converts
        message = phrase(N_("a number has more than {n} digits"), n=4300)
        raise ReadError(Diagnostic.said("E005", message, source, 1, 1)) from None
    if (
        max_rounds is not None
        and isinstance(data, dict)
        and isinstance(data.get("rounds"), list)
        and len(data["rounds"]) > max_rounds
    ):
        data["rounds"] = data["rounds"][:max_rounds]
    locations: Locations = {}
    try:
        _Scanner(text, locations, max_rounds).scan()
    except RecursionError:
        raise ReadError(Diagnostic.said("E006", _TOO_DEEP, source, 1, 1)) from None
    return data, locations


_TOO_DEEP = phrase(N_("the JSON is nested too deeply"))


class _TooLong(Exception):
    def __init__(self, text: str) -> None:
        self.text = text


def _bounded(convert: Callable[[str], object]) -> Callable[[str], object]:
    """`convert`, refusing a number longer than any value of a record before it runs."""

    def parse(text: str) -> object:
        if len(text) > MAX_NUMBER_CHARS:
            raise _TooLong(text)
        return convert(text)

    return parse


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


class _Stop(Exception):
    """The scanner has noted every location the reader will use."""


_WS = re.compile(r"[ \t\r\n\ufeff]*")
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
"""A JSON string, written so that a long one is one step of the regex engine per escape,
not per character (an alternation per character keeps a backtracking state each)."""
_FLAT = re.compile(r'\[[^\[\]{}"]*\]|\{[^\[\]{}"]*\}')
"""A list (or an empty mapping) of numbers and constants only, like a field or a dice
row: skipped in one step, its items point at it."""
_SCALAR = re.compile(r"[^,\]} \t\r\n]*")


class _Scanner:
    """Notes the (line, column) where each key and each value down to a round's keys
    starts in valid JSON text, moving forward only; stops after max_rounds rounds."""

    def __init__(self, text: str, locations: Locations, max_rounds: int | None) -> None:
        self.text = text
        self.pos = 0
        self.locations = locations
        self.max_rounds = max_rounds
        self._at = 0
        self._line = 1
        self._line_start = 0

    def where(self, pos: int) -> tuple[int, int]:
        # Forward only, from the last position asked: linear in the text, even when it
        # is one long line (looking back for the line's start each time is quadratic).
        newlines = self.text.count("\n", self._at, pos)
        if newlines:
            self._line += newlines
            self._line_start = self.text.rfind("\n", self._at, pos) + 1
        self._at = pos
        return self._line, pos - self._line_start + 1

    def skip_ws(self) -> None:
        self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]

    def scan(self) -> None:
        self.skip_ws()
        with contextlib.suppress(_Stop):
            self.value((), 0)

    def value(self, path: Path, depth: int) -> None:
        self.skip_ws()
        if depth < 3:  # deeper values point at their key, as in YAML
            self.locations.setdefault(path, self.where(self.pos))
        ch = self.text[self.pos]
        if depth and ch in "[{":
            flat = _FLAT.match(self.text, self.pos)
            if flat is not None:  # no key or string inside: nothing more to note
                self.pos = flat.end()
                return
        if ch in "{[":
            self.pos += 1
            self.skip_ws()
            if self.text[self.pos] in "}]":
                self.pos += 1
                return
            index = 0
            while True:
                if ch == "{":
                    self.skip_ws()
                    key_pos = self.pos
                    item: Path = (*path, self.string())
                    if depth < 3:
                        self.locations[item] = self.where(key_pos)
                    self.skip_ws()
                    self.pos += 1  # the colon
                elif (
                    path == ("rounds",) and self.max_rounds is not None and index >= self.max_rounds
                ):
                    raise _Stop
                else:
                    item = (*path, index)
                    index += 1
                self.value(item, depth + 1)
                self.skip_ws()
                self.pos += 1
                if self.text[self.pos - 1] in "}]":
                    return
        if ch == '"':
            self.pos = _STRING.match(self.text, self.pos).end()  # type: ignore[union-attr]
        else:
            self.pos = _SCALAR.match(self.text, self.pos).end()  # type: ignore[union-attr]

    def string(self) -> str:
        m = _STRING.match(self.text, self.pos)
        assert m is not None
        self.pos = m.end()
        value: str = json.loads(m.group())
        return value


def _json_problem(exc: json.JSONDecodeError) -> Text:
    """The decoder's message as a whole sentence (some of its messages end in "at"); the
    decoder's own words stay as they are."""
    message = exc.msg.removesuffix(" at")
    if message.startswith("Invalid control character"):
        char = exc.doc[exc.pos] if 0 <= exc.pos < len(exc.doc) else ""
        if char and ord(char) < 0x100:
            return phrase(
                N_("the control character {shown} must be written as an escape inside a string"),
                shown=f"\\x{ord(char):02x}",
            )
        return phrase(
            N_(
                "the control character a control character must be written as an escape "
                "inside a string"
            )
        )
    return message
