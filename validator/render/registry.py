"""The output formats of every command, by name: `--format` choices, the suffixes an
`--output` file may have, the help texts and the docs' tables all come from here.
Renderers are imported only when used, so that `road300 --help` stays quick.

Each command's table is typed by what its renderers are (`Format[T].load()` returns a `T`):
adding an output format is one renderer and one entry in its command's table.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Generic, Protocol, TextIO, TypeVar

if TYPE_CHECKING:
    from rich.console import Console

    from validator.check.replay import Result
    from validator.contest.batch import Batch
    from validator.report.analysis import AnalysisView
    from validator.report.model import Report

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Format(Generic[T]):
    """One output format of one command."""

    name: str
    help: str
    target: str
    """`module:attribute` of the renderer (a `T`), the module in validator.render."""
    suffixes: tuple[str, ...] = ()
    """File suffixes that name this format for `--output`; the first is the usual one."""

    @property
    def suffix(self) -> str:
        return self.suffixes[0] if self.suffixes else ""

    def load(self) -> T:
        module, _, attribute = self.target.partition(":")
        renderer: T = getattr(importlib.import_module(f"validator.render.{module}"), attribute)
        return renderer


# -- What each command's renderers are ------------------------------------------------------


class ResultSink(Protocol):
    """Shows the results of `validate` one by one, then anything that needs them all."""

    def result(self, result: Result) -> None: ...

    def finish(self, results: Sequence[Result]) -> None: ...


class ValidateRenderer(Protocol):
    def __call__(self, console: Console, stream: IO[str], *, rounds: bool = ...) -> ResultSink: ...


class ReportRenderer(Protocol):
    def __call__(self, report: Report, *, analysis: AnalysisView | str | None = ...) -> str: ...


class BatchWriter(Protocol):
    def write(self, batch: Batch, out: TextIO, label: str) -> None:
        """Write `batch` (of the folder `label`) to `out`."""


class BatchRenderer(Protocol):
    def __call__(self) -> BatchWriter: ...


class AnalyzeRenderer(Protocol):
    """`analyze`: its JSON payload (schemas/analyze.schema.json) as the text to write."""

    def __call__(self, payload: dict[str, Any]) -> str: ...


class SolveRenderer(Protocol):
    """`solve`: its JSON payload (schemas/solve.schema.json) as the text to write; the text
    form also names the dice file, and shows the best game unless it went to a file."""

    def __call__(
        self, payload: dict[str, Any], *, dice: str, continued: bool, best_game: str | None
    ) -> str: ...


# -- The tables -------------------------------------------------------------------------------


def _table(*formats: Format[T]) -> dict[str, Format[T]]:
    return {f.name: f for f in formats}


VALIDATE: dict[str, Format[ValidateRenderer]] = _table(
    Format("text", "for people: verdict lines and diagnostics", "terminal:TextReporter", (".txt",)),
    Format(
        "json",
        "one JSON object per record, one per line (schemas/result.schema.json)",
        "json_out:JsonReporter",
        (".json", ".jsonl"),
    ),
)
"""`road300 validate --format`."""

REPORT: dict[str, Format[ReportRenderer]] = _table(
    Format("html", "one self-contained page", "html:render_html", (".html", ".htm")),
    Format("md", "Markdown with text boards", "markdown:render_markdown", (".md", ".markdown")),
    Format("text", "for the terminal", "report_text:render_plain", (".txt",)),
)
"""`road300 report --format`."""

BATCH: dict[str, Format[BatchRenderer]] = _table(
    Format(
        "table",
        "the ranked table and the summary, for the organizer to read",
        "batch_out:BatchTable",
        (".txt",),
    ),
    Format(
        "json",
        "`entries`, `summary` and `skipped` (schemas/batch.schema.json), for `road300 draw` "
        "and programs; it holds the senders' addresses: the organizer's file, not for publishing",
        "batch_out:BatchJson",
        (".json",),
    ),
    Format(
        "csv",
        "one row per entry, for a spreadsheet or `road300 draw`; a player known only by "
        "their address is named by it: the organizer's file, not for publishing",
        "batch_out:BatchCsv",
        (".csv",),
    ),
)
"""`road300 batch --format`."""

ANALYZE: dict[str, Format[AnalyzeRenderer]] = _table(
    Format("text", "a table for people", "analyze_out:render_text", (".txt",)),
    Format(
        "json",
        "one JSON object (schemas/analyze.schema.json)",
        "analyze_out:render_json",
        (".json",),
    ),
    Format("md", "a Markdown table", "analyze_out:render_markdown", (".md",)),
)
"""`road300 analyze --format`."""

SOLVE: dict[str, Format[SolveRenderer]] = _table(
    Format(
        "text",
        "the best score, the search, and the best game as an annotated dice file",
        "solve_out:render_text",
    ),
    Format("json", "one JSON object (schemas/solve.schema.json)", "solve_out:render_json"),
)
"""`road300 solve --format` (its --output writes the best game as a record instead)."""


# -- Choosing a format --------------------------------------------------------------------------


class FormatError(ValueError):
    """The --format and the --output suffix do not fit; the message says how."""


def suffixes(registry: Mapping[str, Format[T]]) -> str:
    """`.html, .htm, .md, ...` for messages."""
    return ", ".join(s for f in registry.values() for s in f.suffixes)


def choose(
    registry: Mapping[str, Format[T]],
    fmt: str | None,
    output: Path | None,
    *,
    default: str,
    command: str,
) -> Format[T]:
    """The format to write: `fmt`, else the one the `--output` file's suffix names, else
    `default`. Raises FormatError when the suffix names another format than `fmt`, or one
    the command does not write (never a table inside a `.xlsx` or text in a `.pdf`); a
    file without a suffix takes `fmt` or `default`."""
    to_file = output is not None and str(output) != "-"
    suffix = output.suffix.lower() if to_file and output is not None else ""
    if suffix and any(f.suffixes for f in registry.values()):
        named = next((f for f in registry.values() if suffix in f.suffixes), None)
        if named is None:
            raise FormatError(
                f"{output}: road300 {command} does not write {suffix} files; name it "
                f"{suffixes(registry)}, or leave out --output"
            )
        if fmt is not None and fmt != named.name:
            wanted = registry[fmt].suffix
            use = f"; use {wanted} for {fmt}" if wanted else ""
            raise FormatError(
                f"{output}: the suffix {suffix} names the {named.name} format, not {fmt}{use}"
            )
        return named
    return registry[fmt or default]


def format_help(registry: Mapping[str, Format[T]], default: str | None = None) -> str:
    """The --format help: each format with what it is for, and how the default is found."""
    text = "; ".join(f"{f.name}: {f.help}" for f in registry.values()) + "."
    if any(f.suffixes for f in registry.values()):
        text += f" Default: from the --output suffix ({suffixes(registry)})"
        text += f", else {default}." if default else "."
    elif default:
        text += f" Default: {default}."
    return text
