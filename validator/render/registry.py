"""The output formats of each command, by name: `--format` choices, output suffixes and
the docs' tables all come from here. Renderers are imported only when used, so that
`road300 --help` stays quick.

Adding an output format is one renderer module and one entry in its command's table.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class Reporter:
    """One output format of one command."""

    name: str
    help: str
    target: str
    """`module:attribute` of the renderer (its signature is the command's)."""
    suffixes: tuple[str, ...] = ()
    """File suffixes that name this format for `--output`."""

    def load(self) -> Any:
        module, _, attribute = self.target.partition(":")
        return getattr(importlib.import_module(module), attribute)


_R = "validator.render."

VALIDATE: dict[str, Reporter] = {
    r.name: r
    for r in (
        Reporter("text", "for people: verdict lines and diagnostics", _R + "terminal:TextReporter"),
        Reporter(
            "json",
            "one JSON object per record, one per line (schemas/result.schema.json)",
            _R + "json_out:JsonReporter",
            (".json", ".jsonl"),
        ),
    )
}
"""`road300 validate --format`: classes taking (console, stream, rounds=...) with
`result(Result)` and `finish(results)`."""

REPORT: dict[str, Reporter] = {
    r.name: r
    for r in (
        Reporter("html", "one self-contained page", _R + "html:render_html", (".html", ".htm")),
        Reporter("md", "Markdown with text boards", _R + "markdown:render_markdown", (".md",)),
        Reporter("text", "for the terminal", _R + "report_text:render_plain", (".txt",)),
    )
}
"""`road300 report --format`: functions Report -> str."""


def by_suffix(registry: Mapping[str, Reporter], path: Path) -> Reporter | None:
    """The format whose suffix `path` has, or None."""
    suffix = path.suffix.lower()
    return next((r for r in registry.values() if suffix in r.suffixes), None)


def suffixes(registry: Mapping[str, Reporter]) -> str:
    """`.html, .htm, .md, ...` for messages."""
    return ", ".join(s for r in registry.values() for s in r.suffixes)
