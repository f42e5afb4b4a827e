"""Strings an entry may hold to attack an organizer's terminal or spreadsheet; every output
channel's test runs over this one list."""

from __future__ import annotations

HOSTILE: tuple[str, ...] = (
    "\x1b[2J\x1b[H",  # clear the screen
    "\x1b]0;pwned\x07",  # set the window title
    "a\x9b31mred",  # C1 control sequence introducer
    "\u202eevil\u202c",  # right-to-left override
    "\u2066isolated\u2069",
    "line\nbreak\rreturn",
    "nul\x00del\x7f",
    '=HYPERLINK("http://example.invalid","x")',
    "+1+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "\t=1",
    "-2+3",
    "\r=1",
    "a\x7fb",
    "[bold red]markup[/]",
)

RAW_CONTROL = tuple(chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))) + tuple(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Characters that must never reach a terminal or a text file raw."""

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
