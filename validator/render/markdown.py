"""The report as Markdown: the header as a table, boards as text grids in code blocks.

Text from a record (player, file names, messages quoting them) is escaped so that it
stays text in any Markdown renderer, HTML included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from validator.check.explain import Explanation
from validator.engine import Field, State, roll_text
from validator.engine.phrase import N_
from validator.language.i18n import _, hint, message
from validator.render.board_text import board_lines
from validator.render.sanitize import markdown_text, plain_text
from validator.render.shared import (
    BOARD_KEY,
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
    move_rows,
)

if TYPE_CHECKING:
    from validator.report.analysis import AnalysisView

md_escape = markdown_text
"""Inline Markdown punctuation escaped; every line we write starts with our own text, so
the characters that matter only at the start of a line (#, -, +) need no escape."""

ROUND_COLUMNS = (
    N_("roll"),
    N_("round"),
    N_("dice"),
    N_("cross"),
    N_("move"),
    N_("steps"),
    N_("points"),
    N_("total"),
)
"""The move table's columns (the best line's table has all but `round`)."""
_RIGHT = {"roll", "round", "steps", "points", "total"}


def _table_head(columns: tuple[str, ...]) -> tuple[str, str]:
    """The head and rule rows of a move table, its numeric columns aligned right."""
    head = "| " + " | ".join(_(c) for c in columns) + " |"
    rule = "| " + " | ".join("---:" if c in _RIGHT else "---" for c in columns) + " |"
    return head, rule


def _code(text: str) -> str:
    """A code span that no backtick in `text` can close early."""
    return "`` " + text.replace("`", "'") + " ``"


def render_markdown(report: Report, analysis: AnalysisView | str | None = None) -> str:
    """The report as Markdown; with `analysis` (report --analyze) the marks, better
    choices, points lost and the best line, or why the analysis is left out."""
    view = None if analysis is None or isinstance(analysis, str) else analysis
    out: list[str] = []
    out.append(f"# Road to 300: {md_escape(report.player or report.source)}")
    out.append("")
    verdict = verdict_word(report.verdict).upper()
    out.append(verdict_line(f"**{verdict}**", md_escape(headline(report))))
    out.append("")
    # A header row of words: an empty one renders as a blank bar over the table.
    out.append("| " + _("Fact") + " | " + _("Value") + " |")
    out.append("| --- | --- |")
    for name, value in facts(report):
        out.append(f"| {name} | {md_escape(value)} |")
    for w in report.result.warnings:
        out.append("")
        out.append(f"> {w.code}: {md_escape(message(w))}")
    analysis_word = _("Analysis")
    if view is not None:
        out.extend(("", f"**{analysis_word}**: {md_escape(view.summary)} {md_escape(view.scope)}"))
    elif isinstance(analysis, str):
        left_out = _("left out: {why}.").format(why=md_escape(analysis))
        out.extend(("", f"**{analysis_word}**: {left_out}"))
    out.append("")
    out.append("## " + _("How to read this"))
    out.append("")
    key = (analysis_key(),) if view is not None else ()
    for sentence in (*how_to_read(report), _(BOARD_KEY), *key):
        out.extend((md_escape(sentence), ""))
    out.pop()
    # Every reading problem of a record that could not be read, as validate lists them.
    for error in report.result.errors if report.illegal is None else ():
        out.append("")
        out.append(f"## {error.code} {error.name}")
        out.append("")
        out.append(
            _("At {where}: {message}").format(
                where=_code(error.location()), message=md_escape(message(error))
            )
        )
        if error.hint:
            out.append("")
            out.append(_("help:") + f" {md_escape(help_text(hint(error)))}")
    if report.illegal is None and more_errors(report.result):
        out.extend(("", more_errors(report.result)))
    if report.illegal is not None:
        out.extend(_illegal(report.illegal))
    if report.rounds:
        out.append("")
        out.append("## " + _("The game at a glance"))
        out.append("")
        out.extend(_board(report.final, {}, {}))
        out.append("")
        out.append(_("Moves in order: {moves}").format(moves=md_escape(moves_text(report))))
        out.append("")
        if view is not None:
            lost = ", ".join(f"{roll}:{value}" for roll, value in view.lost)
            out.extend(
                (_("Points lost by roll (against the best play): {lost}").format(lost=lost), "")
            )
        analysed = view is not None
        out.extend(_table_head(ROUND_COLUMNS + ((N_("analysis"),) if analysed else ())))
        for rr, row in zip(report.rounds, move_rows(report.rounds), strict=True):
            number = rr.round.record_round
            cells = (row[0], "-" if number is None else str(number), *row[1:])
            if view is not None:
                mark = view.marks.get(rr.round.roll)
                cells = (*cells, mark.short if mark is not None else "")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
        out.append("## " + _("Round by round"))
        for rr in report.rounds:
            mark = view.marks.get(rr.round.roll) if view is not None else None
            out.append("")
            out.append(f"### {md_escape(round_title(rr) + mark_title(mark))}")
            out.append("")
            out.append(_("Dice {dice}").format(dice=md_escape(dice_text(rr))))
            out.append("")
            out.extend(
                f"- {md_escape(note)}"
                for note in (*describe_round(rr, agreed=agreed(mark)), *analysis_lines(mark))
            )
            if rr.played:
                out.append("")
                markers = better_markers(round_markers(rr), mark)
                out.extend(_board(rr.round.state, markers, round_legend(markers)))
    if view is not None:
        out.extend(_best_line(view))
    out.append("")
    return "\n".join(out)


def _board(state: State, markers: dict[Field, str], legend: dict[str, str]) -> list[str]:
    return [
        "```text",
        *(line.rstrip() for line in board_lines(state, markers, legend=legend)),
        "```",
    ]


def _best_line(view: AnalysisView) -> list[str]:
    out = ["", "## " + _("The best line"), "", md_escape(view.best_line_text)]
    best = view.best
    if best is None:
        out.extend(("", _("The search found no other line: the played game is it.")))
        return out
    out.append("")
    out.extend(_board(best.final, {}, {}))
    out.extend(("", _("Moves in order: {moves}").format(moves=md_escape(moves_text(best))), ""))
    out.extend(_table_head(tuple(c for c in ROUND_COLUMNS if c != ROUND_COLUMNS[1])))
    out.extend("| " + " | ".join(row) + " |" for row in move_rows(best.rounds))
    return out


def _illegal(x: Explanation) -> list[str]:
    e = x.error
    out = ["", "## " + _("The first illegal step: {where}").format(where=x.where), ""]
    out.append(f"**{e.code} {e.name}**: {md_escape(x.message)}")
    if e.hint:
        out.append("")
        out.append(_("help:") + f" {md_escape(help_text(hint(e)))}")
    out.append("")
    if x.dice:
        dice = roll_text(x.dice)
        out.append(_("At {where}, dice {dice}").format(where=_code(e.location()), dice=dice))
    else:
        out.append(_("At {where}").format(where=_code(e.location())))
    if x.quote is not None:
        out.append("")
        out.append(
            _("The record, {line}: {quote}").format(
                line=x.line_ref, quote=_code(plain_text(x.quote.strip()))
            )
        )
    out.append("")
    out.append(_("The board {which}:").format(which=x.board_title))
    out.append("")
    out.extend(_board(x.board, x.symbols(), x.legend_text()))
    if x.legal:
        out.append("")
        out.extend(f"- {md_escape(n)}" for n in x.legal)
    return out
