"""Untrusted text made safe for each output channel: one function per channel.

Player names, file names, quoted source lines and values echoed in messages come from
strangers' files. On a terminal a control character could clear the screen or set the
window title, a bidi control reorders what is shown, an invisible character makes two
different names look alike, and a spreadsheet runs a cell that starts a formula. Every
renderer passes such text through the function of its channel:

- `plain_text`: any text a person reads (terminal, text files, log lines, draw);
- `terminal_text`: the same, escaped for rich's console markup;
- `markdown_text`: Markdown (and the HTML it becomes);
- `html_value`: every value a Jinja template prints (on top of Jinja's HTML escaping);
- `csv_cell`: a spreadsheet cell;
- `json_dumps`: JSON a person may read or print (the data decodes unchanged).

Which characters count as invisible (`INVISIBLE`) is defined once, in
validator.records.source, with the other facts about strangers' text. A file name on POSIX
is bytes; Python carries the bytes that are not UTF-8 as lone surrogates (U+DC80-U+DCFF),
which no UTF-8 output can hold: they show as `\\xe9`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.markup import escape as _rich_escape

from validator.records.source import INVISIBLE, UNSEEN_RANGES, formula_start

_JOINERS = frozenset("\u200c\u200d\ufe0e\ufe0f")
"""Zero-width (non-)joiners and emoji variation selectors: text in scripts that need them
and in emoji (👩‍👩), so they stay characters between two such characters."""

_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def _escape(code: int) -> str:
    if 0xDC80 <= code <= 0xDCFF:  # a file name's byte that is not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _visible(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _JOINERS:
        text, at = match.string, match.start()
        before = text[at - 1] if at > 0 else " "
        after = text[at + 1] if at + 1 < len(text) else " "
        if _joinable(before) and _joinable(after):
            return ch
    return _escape(ord(ch))


def _joinable(ch: str) -> bool:
    """A character a joiner may stand next to: not ASCII, not blank, not itself hidden."""
    return ord(ch) > 0x7F and not ch.isspace() and INVISIBLE.fullmatch(ch) is None


def plain_text(text: str) -> str:
    """Every invisible character (see INVISIBLE) as a visible escape (`\\x1b`, `\\u202e`,
    `\\u200b`; an undecodable file-name byte as `\\xe9`); everything else as it is.
    Joiners between two letters of a script that uses them, or inside an emoji, stay."""
    return INVISIBLE.sub(_visible, text)


def terminal_text(text: str) -> str:
    """`plain_text`, also escaped for rich's console markup (a `[red]` stays text)."""
    return _rich_escape(plain_text(text))


def csv_cell(value: str | int | None) -> str | int:
    """A CSV cell no spreadsheet runs: numbers (and text that is exactly a number) stay
    numbers; other text that would start a formula gets a leading `'` (as OWASP advises),
    in full width too (U+FF1D, which spreadsheets read as `=`); invisible characters
    become visible escapes. None is an empty cell."""
    if value is None:
        return ""
    if isinstance(value, int):
        return value
    if formula_start(value) and not _NUMBER.fullmatch(value):
        value = "'" + value
    # A spreadsheet of a German or French locale splits on `;`: each piece is a cell there,
    # so each that would start a formula gets its `'` too (`road300 draw` takes it off).
    first, *rest = value.split(";")
    return plain_text(";".join([first, *map(_guarded_piece, rest)]))


def _guarded_piece(piece: str) -> str:
    """A piece of a cell after a `;`, with a `'` before it when it would start a formula."""
    text = piece.lstrip(" ")
    return piece[: len(piece) - len(text)] + "'" + text if formula_start(text) else piece


def markdown_text(text: str) -> str:
    """Text that a Markdown renderer shows as itself: invisible characters escaped, HTML
    characters as entities, Markdown punctuation backslash-escaped, on one line."""
    text = plain_text(text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return " ".join(_MD_SPECIAL.sub(r"\\\1", text).split())


def html_value(value: Any) -> Any:
    """A value as a Jinja template prints it (the environment's `finalize`): text with
    its invisible characters as visible escapes; markup the renderer built (an SVG, which
    escapes its own text) and non-text values unchanged. Jinja's autoescape then turns
    `<` and `&` into entities."""
    if isinstance(value, str) and not hasattr(value, "__html__"):
        return plain_text(value)
    return value


_JSON_UNSAFE = re.compile(f"[{UNSEEN_RANGES}]")
"""INVISIBLE but C0, which json.dumps escapes inside strings (outside, it is layout)."""


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_dumps(value: object, indent: int | None = None) -> str:
    """JSON with non-ASCII text as it is, but every invisible character written as a
    `\\uXXXX` escape: json.dumps escapes C0 itself; DEL, C1, bidi controls, U+2028 and
    U+2029, zero-width characters and lone surrogates too, so the JSON is valid UTF-8,
    safe to print, and decodes to the very same data."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _JSON_UNSAFE.sub(_json_escape, text)
