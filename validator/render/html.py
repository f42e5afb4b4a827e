"""The HTML report: one self-contained page (inline CSS and SVG, no script, no network).

Builds plain view values from a Report and renders them with a Jinja2 template that
escapes everything; only the SVG strings from validator.render.svg go in unescaped.
"""

from __future__ import annotations

from dataclasses import dataclass

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from validator.explain import Explanation, Mark
from validator.render import svg
from validator.render.terminal import summary_line
from validator.replayer import Verdict
from validator.report import (
    KIND_TEXT,
    Report,
    ReportRound,
    describe_round,
    dice_roles,
    facts,
    how_to_read,
)


@dataclass(frozen=True, slots=True)
class RoundView:
    anchor: str
    title: str
    subtitle: str
    kind: str
    dice: Markup
    board: Markup | None
    notes: tuple[str, ...]
    score: int
    flags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class IllegalView:
    title: str
    short: str
    code: str
    name: str
    message: str
    hint: str
    location: str
    dice: Markup | None
    board: Markup | None
    notes: tuple[str, ...]


def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("validator.render", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_html(report: Report) -> str:
    """The whole page as a string."""
    result = report.result
    template = _environment().get_template("report.html.j2")
    rounds = [_round_view(rr) for rr in report.rounds]
    points = [(rr.round.roll, rr.round.score) for rr in report.rounds]
    numbers = {f: n for n, f in report.moves}
    route = [(rr.start, rr.round.walk) for rr in report.rounds if rr.round.walk and rr.move_number]
    summary_board = None
    if report.rounds:
        summary_board = Markup(
            svg.board(
                report.final,
                numbers=numbers,
                walks=[svg.Walk(walk, start, style="route") for start, walk in route],
                burglar=report.final.position,
                caption=f"Final sheet · {report.shown_score} points",
                label="the final sheet, moves numbered in order",
            )
        )
    chart = Markup(svg.score_chart(points, label="score after each dice roll")) if points else None
    return template.render(
        title=f"Road to 300 - {report.player or report.source}",
        player=report.player,
        source=report.source,
        verdict=report.verdict.value,
        summary=summary_line(result),
        facts=facts(report),
        rules_text=how_to_read(report),
        rounds=rounds,
        illegal=_illegal_view(report),
        error=_error_text(report),
        warnings=[
            f"{w.code} {w.message}" + (f" ({w.hint})" if w.hint else "") for w in result.warnings
        ],
        summary_board=summary_board,
        chart=chart,
        won=(report.score or 0) >= 300 and report.verdict is Verdict.VALID,
    )


def _error_text(report: Report) -> tuple[str, str, str] | None:
    """(headline, message, hint) for an error with no step to draw."""
    error = report.result.error
    if error is None or report.illegal is not None:
        return None
    return (f"{error.code} {error.name} at {error.location()}", error.message, error.hint)


def _round_view(rr: ReportRound) -> RoundView:
    r = rr.round
    roles = dice_roles(r.dice, r.cross.field if r.cross else None)
    dice_label = "dice " + " ".join(map(str, r.dice))
    if r.cross is not None:
        dice_label += f": {r.cross.field} crossed out, moves {r.cross.die}"
    board = None
    if rr.played:
        assert r.cross is not None
        board = Markup(
            svg.board(
                r.state,
                marks=[svg.FieldMark(r.cross.field, "x", "now")],
                walks=[svg.Walk(r.walk, rr.start, leaves=r.kind in ("escape", "leave"))],
                burglar=r.state.position if not r.walk else None,
                caption=f"Roll {r.roll} · score {r.score}",
                label=f"board after roll {r.roll}",
            )
        )
    where = (
        f"record round {r.record_round}"
        if r.record_round is not None
        else "played by the validator"
    )
    if r.line:
        where += f", line {r.line}"
    flags: list[str] = []
    if rr.note.took_best is False:
        flags.append("missed-best")
    if rr.note.ended is not None:
        flags.append("ended")
    title = f"Roll {r.roll}"
    if rr.move_number is not None:
        title += f" · move {rr.move_number}"
    return RoundView(
        anchor=f"roll-{r.roll}",
        title=title,
        subtitle=f"{KIND_TEXT[r.kind]} · {where}",
        kind=r.kind,
        dice=Markup(svg.dice(r.dice, roles, label=dice_label)),
        board=board,
        notes=tuple(describe_round(rr)),
        score=r.score,
        flags=tuple(flags),
    )


# How each mark of the explanation is drawn on the illegal step's board.
_DRAWN: dict[Mark, tuple[svg.Shape, svg.Style]] = {
    Mark.OPTION: ("square", "option"),
    Mark.CROSS: ("x", "now"),
    Mark.REACH: ("ring", "reach"),
    Mark.EXIT: ("ring", "reach"),
}


def illegal_board(x: Explanation) -> str:
    """The position before the illegal step, what the record did, and what was legal."""
    marks: list[svg.FieldMark] = []
    if x.cross is not None and x.mark_of(x.cross.field) is not Mark.CROSS:
        marks.append(svg.FieldMark(x.cross.field, "x", "now"))
    for drawn in (Mark.OPTION, Mark.CROSS, Mark.REACH, Mark.EXIT):
        shape, style = _DRAWN[drawn]
        marks.extend(svg.FieldMark(f, shape, style) for f in x.fields(drawn))
    for f in x.fields(Mark.WRONG):
        marks.append(svg.FieldMark(f, "x" if x.part == "cross" else "ring", "wrong"))
        marks.append(svg.FieldMark(f, "bang", "wrong"))
    position = x.before.position
    walks = [svg.Walk(x.recorded_path, position, style="wrong")] if x.recorded_path else []
    return svg.board(
        x.before,
        marks=marks,
        walks=walks,
        burglar=position,
        caption=f"Roll {x.roll}: the illegal step" if x.roll else "the illegal step",
        label="the board at the illegal step",
    )


def _illegal_view(report: Report) -> IllegalView | None:
    x = report.illegal
    if x is None:
        return None
    e = x.error
    dice = None
    if x.dice is not None:
        cross = x.cross.field if x.cross is not None else None
        dice = Markup(svg.dice(x.dice, dice_roles(x.dice, cross), label="dice of the illegal step"))
    return IllegalView(
        title=f"The first illegal step: {x.where}",
        short=f"Roll {x.roll}: illegal" if x.roll else "Illegal",
        code=e.code,
        name=e.name,
        message=e.message,
        hint=e.hint,
        location=e.location(),
        dice=dice,
        board=Markup(illegal_board(x)),
        notes=x.legal,
    )
