"""Untrusted text made safe for each output channel: one function per channel.

Player names, file names, quoted source lines and values echoed in messages come from
strangers' files. On a terminal a control character could clear the screen or set the
window title, a bidi control reorders what is shown, and a spreadsheet runs a cell that
starts a formula. Every renderer passes such text through the function of its channel;
HTML relies on Jinja's escaping, JSON escapes control characters itself.
"""

from __future__ import annotations

import re

from rich.markup import escape as _rich_escape

_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ufeff]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def plain_text(text: str) -> str:
    """Control characters (C0, DEL, C1), bidi controls and line separators as visible
    escapes (`\\x1b`, `\\u202e`); everything else as it is."""
    return _CONTROL.sub(_visible, text)


def terminal_text(text: str) -> str:
    """`plain_text`, also escaped for rich's console markup (a `[red]` stays text)."""
    return _rich_escape(plain_text(text))


def csv_cell(value: str | int | None) -> str | int:
    """A CSV cell no spreadsheet runs: numbers (and text that is exactly a number) stay
    numbers; other text that would start a formula gets a leading `'` (as OWASP advises);
    control characters become visible escapes. None is an empty cell."""
    if value is None:
        return ""
    if isinstance(value, int):
        return value
    if value.startswith(_FORMULA_START) and not _NUMBER.fullmatch(value):
        value = "'" + value
    return plain_text(value)


def markdown_text(text: str) -> str:
    """Text that a Markdown renderer shows as itself: control characters escaped, HTML
    characters as entities, Markdown punctuation backslash-escaped, on one line."""
    text = plain_text(text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return " ".join(_MD_SPECIAL.sub(r"\\\1", text).split())
