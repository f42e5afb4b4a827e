"""The report as Markdown: the header as a table, boards as text grids in code blocks.

Text from a record (player, file names, messages quoting them) is escaped so that it
stays text in any Markdown renderer, HTML included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from validator.check.explain import Explanation
from validator.engine import Field, State
from validator.render.board_text import board_lines
from validator.render.sanitize import markdown_text, plain_text
from validator.render.shared import (
    BOARD_KEY,
    analysis_lines,
    better_markers,
    dice_text,
    headline,
    mark_title,
    moves_text,
    round_legend,
    round_markers,
    round_title,
)
from validator.render.wording import analysis_marks
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


# Inline Markdown punctuation; every line we write starts with our own text, so the
# characters that matter only at the start of a line (#, -, +) need no escape.


md_escape = markdown_text


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
    out.append(f"**{report.verdict.value.upper()}**: {md_escape(headline(report))}")
    out.append("")
    # A header row of words: an empty one renders as a blank bar over the table.
    out.append("| Fact | Value |")
    out.append("| --- | --- |")
    for name, value in facts(report):
        out.append(f"| {name} | {md_escape(value)} |")
    for w in report.result.warnings:
        out.append("")
        out.append(f"> {w.code}: {md_escape(w.message)}")
    if view is not None:
        out.extend(("", f"**Analysis**: {md_escape(view.summary)} {md_escape(view.scope)}"))
    elif isinstance(analysis, str):
        out.extend(("", f"**Analysis**: left out: {md_escape(analysis)}."))
    out.append("")
    out.append("## How to read this")
    out.append("")
    key = (
        (
            f"Analysis marks: {analysis_marks()}. On a board, # marks the better cross-out and * "
            "where the better walk ends.",
        )
        if view is not None
        else ()
    )
    for sentence in (*how_to_read(report), BOARD_KEY, *key):
        out.extend((md_escape(sentence), ""))
    out.pop()
    error = report.result.error
    if error is not None and report.illegal is None:
        out.append("")
        out.append(f"## {error.code} {error.name}")
        out.append("")
        out.append(f"At {_code(error.location())}: {md_escape(error.message)}")
        if error.hint:
            out.append("")
            out.append(f"help: {md_escape(help_text(error.hint))}")
    if report.illegal is not None:
        out.extend(_illegal(report.illegal))
    if report.rounds:
        out.append("")
        out.append("## The game at a glance")
        out.append("")
        out.extend(_board(report.final, {}, {}))
        out.append("")
        out.append(f"Moves in order: {md_escape(moves_text(report))}")
        out.append("")
        if view is not None:
            lost = ", ".join(f"{roll}:{value}" for roll, value in view.lost)
            out.extend((f"Points lost by roll (against the best play): {lost}", ""))
        analysed = view is not None
        out.append(
            "| roll | round | dice | cross | move | steps | points | total |"
            + (" analysis |" if analysed else "")
        )
        out.append(
            "| ---: | ---: | --- | --- | --- | ---: | ---: | ---: |"
            + (" --- |" if analysed else "")
        )
        for rr, row in zip(report.rounds, move_rows(report.rounds), strict=True):
            number = rr.round.record_round
            cells = (row[0], "-" if number is None else str(number), *row[1:])
            if view is not None:
                mark = view.marks.get(rr.round.roll)
                cells = (*cells, mark.short if mark is not None else "")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
        out.append("## Round by round")
        for rr in report.rounds:
            mark = view.marks.get(rr.round.roll) if view is not None else None
            out.append("")
            out.append(f"### {md_escape(round_title(rr) + mark_title(mark))}")
            out.append("")
            out.append(f"Dice {md_escape(dice_text(rr))}")
            out.append("")
            out.extend(
                f"- {md_escape(note)}" for note in (*describe_round(rr), *analysis_lines(mark))
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
    out = ["", "## The best line", "", md_escape(view.best_line_text)]
    best = view.best
    if best is None:
        out.extend(("", "The search found no other line: the played game is it."))
        return out
    out.append("")
    out.extend(_board(best.final, {}, {}))
    out.extend(("", f"Moves in order: {md_escape(moves_text(best))}", ""))
    out.append("| roll | dice | cross | move | steps | points | total |")
    out.append("| ---: | --- | --- | --- | ---: | ---: | ---: |")
    out.extend("| " + " | ".join(row) + " |" for row in move_rows(best.rounds))
    return out


def _illegal(x: Explanation) -> list[str]:
    e = x.error
    out = ["", f"## The first illegal step: {x.where}", ""]
    out.append(f"**{e.code} {e.name}**: {md_escape(e.message)}")
    if e.hint:
        out.append("")
        out.append(f"help: {md_escape(help_text(e.hint))}")
    out.append("")
    dice = f", dice {' '.join(map(str, x.dice))}" if x.dice else ""
    out.append(f"At {_code(e.location())}{dice}")
    if x.quote is not None:
        out.append("")
        out.append(f"The record, {x.line_ref}: {_code(plain_text(x.quote.strip()))}")
    out.append("")
    out.append(f"The board {x.board_title}:")
    out.append("")
    out.extend(_board(x.board, x.symbols(), x.legend_text()))
    if x.legal:
        out.append("")
        out.extend(f"- {md_escape(n)}" for n in x.legal)
    return out
