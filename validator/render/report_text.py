"""The report for a terminal: header, how to read it, then every round with its text board.

Colour comes from rich and is off when the output is not a terminal or NO_COLOR is set
(the console from validator.cli.common.make_console decides).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rich.console import Console

from validator.check.explain import Explanation
from validator.engine import EXITS, Field, State, roll_text
from validator.language.i18n import _, hint, message
from validator.language.wording import points, round_kind
from validator.render.board_text import board_lines
from validator.render.sanitize import terminal_text as escape
from validator.render.shared import (
    BOARD_KEY,
    VERDICT_STYLE,
    agreed,
    analysis_key,
    analysis_lines,
    better_markers,
    dice_text,
    headline,
    mark_title,
    more_errors,
    moves_text,
    round_legend,
    round_markers,
    round_title,
    verdict_line,
    verdict_word,
)
from validator.report.model import (
    Report,
    describe_round,
    facts,
    help_text,
    how_to_read,
)

if TYPE_CHECKING:
    from validator.report.analysis import AnalysisView


def render_text(
    console: Console, report: Report, analysis: AnalysisView | str | None = None
) -> None:
    """The report for a terminal; prose wraps at the console's width (80 when the output
    is not a terminal), boards never wrap. With `analysis` (report --analyze): marks,
    better choices, points lost and the best line, or why the analysis is left out."""
    view = None if analysis is None or isinstance(analysis, str) else analysis

    def say(text: str, first: str = "  ", rest: str = "    ", style: str = "") -> None:
        width = max(console.width, 40)
        console.print(_lines(_wrap(text, width, first, rest)), style=style, highlight=False)

    console.print(f"[bold]Road to 300: {escape(report.player or report.source)}[/]")
    say(
        verdict_line(verdict_word(report.verdict), headline(report)),
        "",
        "  ",
        VERDICT_STYLE[report.verdict],
    )
    rows = facts(report)
    label = max(14, *(len(name) + 2 for name, _value in rows))
    for name, value in rows:
        say(f"{name + ':':<{label}}{value}", "  ", " " * (label + 2))
    for w in report.result.warnings:
        say(f"{w.code} {message(w)}", style="yellow")
    if view is not None:
        say(_("Analysis") + f": {view.summary} {view.scope}", "", "  ", "bold")
    elif isinstance(analysis, str):
        say(_("Analysis: left out: {why}.").format(why=analysis), "", "  ")
    console.print()
    console.print("[bold]" + _("How to read this") + "[/]")
    for sentence in (*how_to_read(report), _(BOARD_KEY)):
        say(sentence)
    if view is not None:
        say(analysis_key())
    # Every reading problem of a record that could not be read, as validate lists them.
    for error in report.result.errors if report.illegal is None else ():
        console.print()
        say(
            _("{code} {name} at {where}").format(
                code=error.code, name=error.name, where=error.location()
            ),
            "",
            "  ",
            "bold red",
        )
        say(message(error))
        if error.hint:
            say(_("help:") + f" {help_text(hint(error))}", style="cyan")
    if report.illegal is None and more_errors(report.result):
        say(more_errors(report.result))
    if report.illegal is not None:
        _illegal(console, report.illegal, say)
    for rr in report.rounds:
        mark = view.marks.get(rr.round.roll) if view is not None else None
        console.print()
        console.print(f"[bold]{escape(round_title(rr) + mark_title(mark))}[/]")
        say(_("dice {dice}").format(dice=dice_text(rr)), style="dim" if not rr.played else "")
        if rr.played:
            markers = better_markers(round_markers(rr), mark)
            _board(console, rr.round.state, markers, round_legend(markers), say)
        for note in (*describe_round(rr, agreed=agreed(mark)), *analysis_lines(mark)):
            say(f"- {note}", "  ", "    ")
    if report.rounds:
        console.print()
        console.print("[bold]" + _("The game at a glance") + "[/]")
        _board(console, report.final, {}, {}, say)
        say(_("moves in order: {moves}").format(moves=moves_text(report)))
        scores = ", ".join(f"{rr.round.roll}:{rr.round.score}" for rr in report.rounds)
        say(_("score by roll: {scores}").format(scores=scores))
        if view is not None:
            lost = ", ".join(f"{roll}:{value}" for roll, value in view.lost)
            say(_("points lost by roll (against the best play): {lost}").format(lost=lost))
    if view is not None:
        _best_line(console, view, say)


def _lines(lines: Iterable[str]) -> str:
    """Lines for one print (rich's cost is per print, not per line), each escaped for
    the terminal on its own, so that the breaks between them stay line breaks."""
    return "\n".join(escape(line) for line in lines)


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """Lines of at most `width` columns, broken between words only (a long file name
    stays whole on a line of its own)."""
    return textwrap.wrap(
        text,
        width=width,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [first]


def _board(
    console: Console,
    state: State,
    markers: dict[Field, str],
    legend: dict[str, str],
    say: Callable[..., None],
) -> None:
    console.print(
        _lines("  " + line.rstrip() for line in board_lines(state, markers)), highlight=False
    )
    if legend:
        say("   ".join(f"{m} {what}" for m, what in legend.items()), "      ", "      ")


def _best_line(console: Console, view: AnalysisView, say: Callable[..., None]) -> None:
    console.print()
    console.print("[bold]" + _("The best line") + "[/]")
    say(view.best_line_text)
    best = view.best
    if best is None:
        say(_("The search found no other line: the played game is it."))
        return
    _board(console, best.final, {}, {}, say)
    say(_("moves in order: {moves}").format(moves=moves_text(best)))
    for rr in best.rounds:
        r = rr.round
        what = f"x {r.cross.field}" if r.cross is not None else round_kind(r.kind)
        if r.kind == "play":
            what += f" -> {r.move}"
        elif r.kind in EXITS:
            what += f", {round_kind(r.kind)}"
        dice = roll_text(r.dice)
        say(
            _("roll {roll} ({dice}): {what}, {points}").format(
                roll=r.roll, dice=dice, what=what, points=points(r.score)
            )
        )


def _illegal(console: Console, x: Explanation, say: Callable[..., None]) -> None:
    e = x.error
    console.print()
    say(_("The first illegal step: {where}").format(where=x.where), "", "  ", "bold red")
    say(f"{e.code} {e.name}: {x.message}")
    if e.hint:
        say(_("help:") + f" {help_text(hint(e))}", style="cyan")
    say(_("at {where}").format(where=e.location()))
    if x.quote is not None:
        say(f"{e.line} | {x.quote.strip()}", "  ", "      ", "dim")
    if x.dice is not None:
        dice = roll_text(x.dice)
        say(_("the board {which} (dice {dice}):").format(which=x.board_title, dice=dice))
    else:
        say(_("the board {which}:").format(which=x.board_title))
    _board(console, x.board, x.symbols(), x.legend_text(), say)
    for note in x.legal:
        say(f"- {note}")


def render_plain(
    report: Report, width: int = 100, analysis: AnalysisView | str | None = None
) -> str:
    """The text report as a string, without colour."""
    import io

    buffer = io.StringIO()
    # A console into a string, without colour; its size is given, so that no line asks
    # the terminal for it.
    plain = Console(
        file=buffer, no_color=True, width=width, height=25, highlight=False, soft_wrap=True
    )
    render_text(plain, report, analysis)
    return buffer.getvalue()
