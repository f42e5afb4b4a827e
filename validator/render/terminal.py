"""Results for people at a terminal: a verdict line, and for an error a diagnostic in
the style of ruff and rustc (location, code, source line with a caret, help) plus the
board at that moment."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO

from rich.console import Console
from rich.text import Text

from validator.check.explain import Explanation, explain
from validator.check.replay import Result, Verdict
from validator.engine import roll_text
from validator.errors import Diagnostic
from validator.language.i18n import _, hint, message
from validator.language.wording import plural
from validator.render.board_text import board_lines
from validator.render.sanitize import plain_text
from validator.render.sanitize import terminal_text as escape
from validator.render.shared import (
    VERDICT_STYLE,
    item_span,
    more_errors,
    summary_line,
    verdict_word,
)

_SHOWN = 140
"""At most this much of a source line is shown under a diagnostic."""


def render(console: Console, result: Result) -> None:
    style = VERDICT_STYLE[result.verdict]
    line = Text()
    line.append(f"{plain_text(result.source)}: ", style="bold")
    line.append(plain_text(summary_line(result)), style=style)
    console.print(line)
    if result.reading_errors:
        for error in result.reading_errors:
            _diagnostic(console, error)
        if result.errors_omitted:
            console.print("  " + more_errors(result))
    elif result.error is not None:
        _diagnostic(console, result.error)
        explanation = explain(result)
        if explanation is not None:
            _illegal(console, explanation)
    for warning in result.warnings:
        _diagnostic(console, warning)


def _diagnostic(console: Console, d: Diagnostic) -> None:
    colour = "yellow" if d.severity == "warning" else "red"
    console.print(
        f"[bold]{escape(d.location())}:[/] [bold {colour}]{d.code}[/] {escape(message(d))}"
    )
    if d.line and d.excerpt is not None:
        source = d.excerpt
        col = max(1, d.col or 1)
        if len(source) > _SHOWN:
            # Show a window of a long line, keeping the column's place in it.
            start = 0 if col <= _SHOWN * 3 // 4 else col - 1 - _SHOWN // 4
            source, col = source[start : start + _SHOWN], col - start
        gutter = " " * len(str(d.line))
        console.print(f"[blue]{gutter} |[/]")
        console.print(f"[blue]{d.line} |[/] {escape(source)}")
        width = min(item_span(source, col - 1), _SHOWN)
        console.print(f"[blue]{gutter} |[/] {' ' * (col - 1)}[{colour}]{'^' * width}[/]")
    if d.roll is not None and d.severity == "error":
        where = (
            _("dice row {roll}, record round {round}").format(roll=d.roll, round=d.round)
            if d.round
            else _("dice row {roll}").format(roll=d.roll)
        )
        console.print(f"  [blue]=[/] {where}")
    if d.hint:
        console.print("  [bold cyan]" + _("help:") + f"[/] {escape(hint(d))}")


def _illegal(console: Console, x: Explanation) -> None:
    """The board before the illegal step, with what the record did and what was legal."""
    if x.dice:
        dice = roll_text(x.dice)
        title = _("board {which} (dice {dice}):").format(which=x.shown, dice=dice)
    else:
        title = _("board {which}:").format(which=x.shown)
    console.print(f"\n  {title}")
    for text in board_lines(x.board, x.symbols(), legend=x.legend_text()):
        console.print("  " + escape(text), highlight=False)
    for sentence in x.legal:
        console.print("  " + escape(sentence))


class TextReporter:
    """`validate --format text`: a verdict line per record, diagnostics for failures, and
    with several records one summary line at the end."""

    def __init__(self, console: Console, stream: IO[str], *, rounds: bool = False) -> None:
        self.console = console

    def result(self, result: Result) -> None:
        render(self.console, result)

    def finish(self, results: Sequence[Result]) -> None:
        if len(results) > 1:
            counts = {v: sum(1 for r in results if r.verdict is v) for v in Verdict}
            parts = ", ".join(f"{n} {verdict_word(v)}" for v, n in counts.items() if n)
            self.console.print(
                plural(len(results), "{n} record: {parts}", "{n} records: {parts}", parts=parts)
            )
