"""What the report renderers share: the summary line, board markers and legends, round
titles, the move list, and where a record's item ends on its line.

Terminal, text, Markdown and HTML all use these, so that none imports another renderer.
Models are only read here (type-only imports), never built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from validator.check.replay import Result, Verdict
from validator.engine import Field
from validator.errors import Category
from validator.render.wording import game_over, points, round_kind
from validator.report.model import dice_roles

if TYPE_CHECKING:
    from validator.report.analysis import RoundMark
    from validator.report.model import Report, ReportRound


def summary_line(result: Result) -> str:
    """`valid: 315 points, game over (no legal move on roll 23)` and its kin, as plain text."""
    v = result.verdict
    if v is Verdict.VALID:
        how = game_over(result.end, result.end_roll) if result.end else ""
        text = f"valid: {points(result.score or 0)}, game over ({how})"
        return text + (" - wins Road to 300" if (result.score or 0) >= 300 else "")
    if v is Verdict.INCOMPLETE:
        return f"incomplete: {points(result.score or 0)} so far, the game could go on"
    err = result.error
    assert err is not None
    if v is Verdict.MALFORMED:
        what = "its dice file" if err.category is Category.DICE else "the record"
        return f"malformed: {what} could not be read ({err.code} {err.name})"
    where = f"roll {err.roll}" + (f", round {err.round}" if err.round else "")
    if err.roll is None:
        # E107's message states the replayed score itself; E108's does not.
        said = err.code == "E107" or result.score is None
        return f"invalid: {err.message}" + ("" if said else f"; the replay scores {result.score}")
    return f"invalid: first illegal step on {where} ({err.code} {err.name})"


ROUND_LEGEND = {
    "+": "crossed out this round",
    "~": "walked through",
    ">": "left the board here",
    "@": "the burglar",
}
BOARD_KEY = (
    "Board: each field shows its value; X25 crossed out; (25) circled; "
    "(X25) circled, then crossed out."
)


BETTER_LEGEND = {"#": "the better cross-out", "*": "where the better walk ends"}
"""Markers of the analysis's better choice, after the round's own markers."""


def round_legend(markers: dict[Field, str]) -> dict[str, str]:
    """The legend of a round's board: only the markers it shows."""
    shown = "".join(markers.values())
    legend = {**ROUND_LEGEND, **BETTER_LEGEND}
    return {m: text for m, text in legend.items() if m in shown}


def better_markers(markers: dict[Field, str], mark: RoundMark | None) -> dict[Field, str]:
    """A round's markers with the analysis's better choice added (a field may carry a
    marker of the round and one of the better choice)."""
    better = mark.better if mark is not None else None
    if better is None or better.cross is None:
        return markers
    out = dict(markers)
    out[better.cross] = out.get(better.cross, "") + "#"
    if better.end is not None and not better.leaves:
        out[better.end] = out.get(better.end, "") + "*"
    return out


def mark_title(mark: RoundMark | None) -> str:
    """` (?? blunder, 45 points lost)` after a round's title; nothing for a best choice."""
    if mark is None or mark.mark is None:
        return ""
    return f" ({mark.symbol} {mark.mark}, {points(mark.cost)} lost)"


def analysis_lines(mark: RoundMark | None) -> list[str]:
    """The analysis of one round as notes."""
    if mark is None:
        return []
    lines = [mark.words]
    if mark.better is not None:
        lines.append(f"Better: {mark.better.text}.")
    return lines


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
    left = r.corner is not None
    for f in r.walk if left else r.walk[:-1]:
        markers[f] = "~"
    if r.cross is not None:
        markers[r.cross.field] = "+"
    if r.corner is not None:
        markers[r.corner] = ">"
    elif r.state.position is not None:
        markers[r.state.position] = "@"
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
        title += f", {round_kind(r.kind)}"
    return f"{title}: {points(r.score)}"


def moves_text(report: Report) -> str:
    """`1. 1/1 (30), 2. out at 1/6, ...`: a move that left the board scores nothing."""
    return (
        ", ".join(
            f"{n}. out at {f}" if n in report.exits else f"{n}. {f} ({f.value})"
            for n, f in report.moves
        )
        or "none"
    )


def item_span(source: str, start: int) -> int:
    """How many characters the item at `start` covers: up to the comma or closing
    bracket that ends it (flow YAML, JSON, CSV), else to the end of the line."""
    depth = 0
    quote = ""
    end = start
    for end in range(start, len(source)):
        ch = source[end]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{(":
            depth += 1
        elif ch in "]})":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            break
    else:
        end = len(source.rstrip())
    return max(1, len(source[start:end].rstrip()))
