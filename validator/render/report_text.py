"""The report for a terminal: header, how to read it, then every round with its text board.

Colour comes from rich and is off when the output is not a terminal or NO_COLOR is set
(the console from validator.cli.common.make_console decides).
"""

from __future__ import annotations

from rich.console import Console

from validator.engine import Field, State
from validator.explain import Explanation
from validator.render.board_text import board_lines
from validator.render.sanitize import terminal_text as escape
from validator.render.terminal import summary_line
from validator.replayer import Verdict
from validator.report import (
    KIND_TEXT,
    Report,
    ReportRound,
    describe_round,
    dice_roles,
    facts,
    help_text,
    how_to_read,
)

ROUND_LEGEND = {"+": "crossed out this round", "~": "walked through", "@": "the burglar"}
BOARD_KEY = (
    "Board: a number is a free field and its value; X crossed out; (25) circled; "
    "(X) circled, then crossed out."
)
_VERDICT_STYLE = {
    Verdict.VALID: "bold green",
    Verdict.INCOMPLETE: "bold yellow",
    Verdict.INVALID: "bold red",
    Verdict.MALFORMED: "bold red",
}


def headline(report: Report) -> str:
    """The summary line without its verdict word (the page shows the verdict beside it),
    and without a phrase said twice (E107's message already gives the replay's score)."""
    text = summary_line(report.result)
    word = report.verdict.value + ": "
    if text.startswith(word):
        text = text[len(word) :]
    head, sep, tail = text.rpartition("; ")
    if sep and tail in head:
        text = head
    return text


def round_markers(rr: ReportRound) -> dict[Field, str]:
    """One-character markers for a round's board: the cross-out, the walk, the burglar."""
    r = rr.round
    markers: dict[Field, str] = {}
    for f in r.walk[:-1]:
        markers[f] = "~"
    if r.cross is not None:
        markers[r.cross.field] = "+"
    pos = r.state.position
    if pos is not None:
        markers[pos] = "@"
    return markers


def dice_text(rr: ReportRound) -> str:
    """`1 4 6: cross 1 4 (field 1/4), move 6`."""
    r = rr.round
    dice = " ".join(map(str, r.dice))
    if r.cross is None:
        return dice
    roles = dice_roles(r.dice, r.cross.field)
    cross = " ".join(str(d) for d, role in zip(r.dice, roles, strict=True) if role == "cross")
    return f"{dice}: cross {cross} (field {r.cross.field}), move {r.cross.die}"


def round_title(rr: ReportRound) -> str:
    r = rr.round
    title = f"Roll {r.roll}"
    if rr.move_number is not None:
        title += f", move {rr.move_number}"
    if r.kind != "play":
        title += f", {KIND_TEXT[r.kind]}"
    return f"{title}: {r.score} points"


def moves_text(report: Report) -> str:
    return ", ".join(f"{n}. {f} ({f.value})" for n, f in report.moves) or "none"


def render_text(console: Console, report: Report) -> None:
    console.print(f"[bold]Road to 300: {escape(report.player or report.source)}[/]")
    console.print(
        f"{report.verdict.value}: {escape(headline(report))}", style=_VERDICT_STYLE[report.verdict]
    )
    for name, value in facts(report):
        console.print(f"  [dim]{name + ':':<14}[/]{escape(value)}")
    for w in report.result.warnings:
        console.print(f"  [yellow]{w.code}[/] {escape(w.message)}")
    console.print()
    console.print("[bold]How to read this[/]")
    for sentence in (*how_to_read(report), BOARD_KEY):
        console.print(f"  {escape(sentence)}")
    error = report.result.error
    if error is not None and report.illegal is None:
        console.print()
        console.print(f"[bold red]{error.code} {error.name}[/] at {escape(error.location())}")
        console.print(f"  {escape(error.message)}")
        if error.hint:
            console.print(f"  [cyan]help:[/] {escape(help_text(error.hint))}")
    if report.illegal is not None:
        _illegal(console, report.illegal)
    for rr in report.rounds:
        console.print()
        console.print(f"[bold]{escape(round_title(rr))}[/]")
        console.print(f"  dice {escape(dice_text(rr))}", style="dim" if not rr.played else "")
        if rr.played:
            _board(console, rr.round.state, round_markers(rr), ROUND_LEGEND)
        for note in describe_round(rr):
            console.print(f"  - {escape(note)}")
    if report.rounds:
        console.print()
        console.print("[bold]The game at a glance[/]")
        _board(console, report.final, {}, {})
        console.print(f"  moves in order: {escape(moves_text(report))}")
        scores = ", ".join(f"{rr.round.roll}:{rr.round.score}" for rr in report.rounds)
        console.print(f"  score by roll: {scores}")


def _board(
    console: Console, state: State, markers: dict[Field, str], legend: dict[str, str]
) -> None:
    for line in board_lines(state, markers, legend=legend):
        console.print("  " + escape(line.rstrip()), highlight=False)


def _illegal(console: Console, x: Explanation) -> None:
    e = x.error
    console.print()
    console.print(f"[bold red]The first illegal step: {escape(x.where)}[/]")
    console.print(f"  [bold red]{e.code}[/] {escape(e.name)}: {escape(e.message)}")
    if e.hint:
        console.print(f"  [cyan]help:[/] {escape(help_text(e.hint))}")
    console.print(f"  at {escape(e.location())}")
    if x.dice is not None:
        console.print(f"  dice {' '.join(map(str, x.dice))}")
    _board(console, x.before, x.symbols(), x.legend_text())
    for note in x.legal:
        console.print(f"  - {escape(note)}")


def render_plain(report: Report, width: int = 100) -> str:
    """The text report as a string, without colour."""
    import io

    buffer = io.StringIO()
    render_text(
        Console(file=buffer, no_color=True, width=width, highlight=False, soft_wrap=True), report
    )
    return buffer.getvalue()
