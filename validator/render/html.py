"""The HTML report: one self-contained page (inline CSS and SVG, no script, no network).

Builds plain view values from a Report and renders them with a Jinja2 template that
escapes everything; only the SVG strings from validator.render.svg go in unescaped.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING

from markupsafe import Markup

from validator.check.explain import BoardMark, Explanation
from validator.check.replay import Verdict
from validator.engine import EXITS, FIELD_AT, Field, State, roll_text
from validator.engine.phrase import N_
from validator.language import i18n
from validator.language.i18n import _, ngettext
from validator.language.wording import analysis_marks, points, round_kind
from validator.render import svg
from validator.render.shared import (
    agreed,
    environment,
    headline,
    item_span,
    more_errors,
    moves_text,
    verdict_word,
)
from validator.report.model import (
    Report,
    ReportRound,
    describe_round,
    dice_roles,
    facts,
    help_text,
    how_to_read,
    move_rows,
    round_words,
)

if TYPE_CHECKING:
    from validator.report.analysis import AnalysisView, Limits, RoundMark


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
    roll: int = 0
    marker: str = ""
    """The round index's symbol: ↻ reroll, ◯ ring, ◆ better field missed, ■ the end."""
    marker_text: str = ""
    line: str = ""
    """A forced reroll or ring round in one line."""
    row: tuple[str, ...] = ()
    """The move table's cells: roll, dice, cross, move, steps, points, total."""
    analysis: RoundMark | None = None
    """With --analyze: the round's mark, points lost and better choice."""


@dataclass(frozen=True, slots=True)
class RoundBlock:
    """One cell of the round cards' grid: a played round's card, or a run of one-line
    rounds (forced rerolls, rings) stacked in one cell, so that a run never takes a row
    of its own and leaves a card alone beside it."""

    card: RoundView | None
    lines: tuple[RoundView, ...] = ()


def round_blocks(rounds: list[RoundView]) -> list[RoundBlock]:
    blocks: list[RoundBlock] = []
    for one_line, run in groupby(rounds, key=lambda r: bool(r.line)):
        if one_line:
            blocks.append(RoundBlock(None, tuple(run)))
        else:
            blocks.extend(RoundBlock(r) for r in run)
    return blocks


@dataclass(frozen=True, slots=True)
class IllegalView:
    roll: int | None
    title: str
    short: str
    code: str
    name: str
    message: str
    problem: str
    hint: str
    location: str
    line_ref: str
    line: int | None
    quote: tuple[str, str, str] | None
    dice: tuple[tuple[str, Markup], ...]
    board: Markup
    board_title: str
    key: tuple[KeyItem, ...]
    notes: tuple[str, ...]


def render_html(report: Report, analysis: AnalysisView | str | None = None) -> str:
    """The whole page as a string; with `analysis` (from `report --analyze`) the marks,
    better choices, points lost and the best line, or the sentence saying why not."""
    result = report.result
    template = environment().get_template("report.html.j2")
    rows = move_rows(report.rounds)
    view = None if analysis is None or isinstance(analysis, str) else analysis
    rounds = [
        _round_view(rr, row, view.marks.get(rr.round.roll) if view else None, bool(view))
        for rr, row in zip(report.rounds, rows, strict=True)
    ]
    points = [(rr.round.roll, rr.round.score) for rr in report.rounds]
    sheet = sheet_title(report)
    summary_board = Markup(final_board(report, sheet)) if report.rounds else None
    chart_label = (
        _("score after each dice roll, and points lost so far against the best play")
        if view
        else _("score after each dice roll")
    )
    links = {rr.round.roll: f"#roll-{rr.round.roll}" for rr in report.rounds}
    # Two pictures of the chart: the page shows the compact one on a phone (CSS).
    charts = [
        svg.score_chart(
            points, label=chart_label, links=links, lost=view.lost if view else None, compact=c
        )
        for c in (False, True)
    ]
    chart = Markup("".join(charts)) if points else None
    return template.render(
        lang=i18n.current(),
        title=f"Road to 300 - {report.player or report.source}",
        player=report.player,
        source=report.source,
        verdict=report.verdict.value,
        verdict_word=verdict_word(report.verdict),
        summary=headline(report),
        facts=facts(report),
        mono_facts=(_("Dice SHA-256"), _("Record"), _("Dice file")),
        rules_text=how_to_read(report),
        rounds=rounds,
        blocks=round_blocks(rounds),
        sheet_caption=sheet.caption,
        illegal=_illegal_view(report),
        errors=_error_texts(report),
        errors_more=more_errors(report.result),
        warnings=[
            f"{w.code} {i18n.message(w)}" + (f" ({i18n.hint(w)})" if w.hint else "")
            for w in result.warnings
        ],
        summary_board=summary_board,
        chart=chart,
        won=(report.score or 0) >= 300 and report.verdict is Verdict.VALID,
        exits=bool(report.exits),
        analysis=view,
        analysis_left_out=analysis if isinstance(analysis, str) else None,
        searched=searched_text(view) if view else "",
        best=_best_view(view) if view else None,
        mark_key=analysis_marks(),
        index_key=index_key(view is not None, report.illegal is not None),
    )


_SEARCHED: dict[tuple[Limits, bool], str] = {
    ("time", False): N_("Each position was searched for up to {seconds} s."),
    ("nodes", False): N_(
        "Each position was searched for up to {nodes} positions, a budget that gives "
        "the same values on every machine."
    ),
    ("both", False): N_("Each position was searched for up to {seconds} s and {nodes} positions."),
    ("time", True): N_(
        "Each position was searched for up to {seconds} s; the analysis was "
        "interrupted (Ctrl-C), so values not proven are lower bounds."
    ),
    ("nodes", True): N_(
        "Each position was searched for up to {nodes} positions; the analysis was "
        "interrupted (Ctrl-C), so values not proven are lower bounds."
    ),
    ("both", True): N_(
        "Each position was searched for up to {seconds} s and {nodes} positions; the "
        "analysis was interrupted (Ctrl-C), so values not proven are lower bounds."
    ),
}


def searched_text(view: AnalysisView) -> str:
    """How long each position was searched (seconds, positions or both, as
    `AnalysisView.limits` says); after Ctrl-C, that values not proven are lower bounds."""
    return _(_SEARCHED[view.limits, view.interrupted]).format(
        seconds=i18n.number(view.time_limit) if view.time_limit is not None else "",
        nodes=i18n.number(view.nodes) if view.nodes is not None else "",
    )


def index_key(analysed: bool, illegal: bool) -> str:
    """The sentence under the round index that says what its marks mean."""
    marks = [_("↻ forced reroll"), _("◯ magic ring")]
    if not analysed:
        marks.append(_("◆ a higher-valued field was in reach"))
    marks.append(_("■ the end"))
    if illegal:
        marks.append(_("! the illegal step"))
    listed = _(", ").join(marks)
    if analysed:
        return _("Marks in the index: {marks}; analysis: {analysis}.").format(
            marks=listed, analysis=analysis_marks()
        )
    return _("Marks in the index: {marks}.").format(marks=listed)


@dataclass(frozen=True, slots=True)
class SheetTitle:
    """A summary sheet's names: its title (`Final sheet`), the title inside a sentence
    (`the final sheet`) and the first words of its caption."""

    title: str
    named: str
    caption: str = ""


def sheet_title(report: Report) -> SheetTitle:
    """The summary sheet's title and the first words of its caption: the final sheet of a
    game replayed to its end, else the sheet as far as the replay went."""
    last = report.rounds[-1].round.roll if report.rounds else 0
    if report.illegal is not None:
        return SheetTitle(
            _("Sheet after roll {roll}").format(roll=last),
            _("the sheet after roll {roll}").format(roll=last),
            _(
                "The sheet after roll {roll}, where the replay stopped (the illegal step is "
                "not on it)."
            ).format(roll=last),
        )
    if report.verdict is Verdict.VALID:
        return SheetTitle(_("Final sheet"), _("the final sheet"), _("The final sheet."))
    if report.result.error is not None:
        return SheetTitle(
            _("Sheet after roll {roll}").format(roll=last),
            _("the sheet after roll {roll}").format(roll=last),
            _("The sheet after roll {roll}, as replayed.").format(roll=last),
        )
    return SheetTitle(
        _("Sheet so far"),
        _("the sheet so far"),
        _("The sheet so far: the record ends before the game does."),
    )


def _burglar(rr: ReportRound | None, state: State) -> tuple[Field | None, Field | None]:
    """(field, corner): where the burglar's token goes after round `rr`: on its field, or
    beside the corner its walk left the board through (Escape!, In and Out!)."""
    corner = rr.round.corner if rr is not None else None
    return (None, corner) if corner is not None else (state.position, None)


def final_board(report: Report, sheet: SheetTitle | None = None) -> str:
    """The final sheet with every move's number and the walks from light to dark."""
    if sheet is None:
        sheet = SheetTitle(_("Final sheet"), _("the final sheet"))
    numbers: dict[Field, list[int]] = {}
    exits: dict[Field, list[int]] = {}
    for n, f in report.moves:
        (exits if n in report.exits else numbers).setdefault(f, []).append(n)
    moved = [rr for rr in report.rounds if rr.move_number is not None]
    last = max(len(moved) - 1, 1)
    played = [rr for rr in report.rounds if rr.played]
    on, beside = _burglar(played[-1] if played else None, report.final)
    return svg.board(
        report.final,
        numbers=numbers,
        exit_numbers=exits,
        walks=[
            svg.Walk(
                rr.round.walk,
                rr.start,
                leaves=rr.round.kind in EXITS,
                style="route",
                tone=i / last,
            )
            for i, rr in enumerate(moved)
        ],
        burglar=on,
        burglar_left=beside,
        caption=_("{title} · {points}").format(
            title=sheet.title, points=points(report.shown_score)
        ),
        label=_final_words(report, sheet),
        cls="board final",
    )


@dataclass(frozen=True, slots=True)
class BestView:
    """The best line: its final sheet, its moves in words and its move table."""

    text: str
    board: Markup | None
    moves: str
    rows: tuple[tuple[str, ...], ...]


def _best_view(view: AnalysisView) -> BestView:
    best = view.best
    if best is None:
        return BestView(
            view.best_line_text + " " + _("The search found no other line: the played game is it."),
            None,
            "",
            (),
        )
    return BestView(
        view.best_line_text,
        Markup(final_board(best, SheetTitle(_("Best line"), _("the best line")))),
        moves_text(best),
        tuple(move_rows(best.rounds)),
    )


def _final_words(report: Report, sheet: SheetTitle) -> str:
    """The summary sheet in words: its title, the moves in order and the score."""
    return _("{sheet}, {points}. Moves in order: {moves}.").format(
        sheet=sheet.named[:1].upper() + sheet.named[1:],
        points=points(report.shown_score),
        moves=moves_text(report),
    )


def _error_texts(report: Report) -> list[tuple[str, str, str]]:
    """(headline, message, hint) of each error with no step to draw: every reading
    problem of a record that could not be read, as validate lists them."""
    if report.illegal is not None:
        return []
    return [
        (
            _("{code} {name} at {where}").format(
                code=error.code, name=error.name, where=error.location()
            ),
            i18n.message(error),
            help_text(i18n.hint(error)),
        )
        for error in report.result.errors
    ]


MISSED_BEST = N_("a higher-valued field was in reach")
"""What the ◆ of a round says (the round index, a card, the page's key)."""


def missed_best(rr: ReportRound) -> bool:
    """◆: a higher-valued field was in reach than the one moved to; leaving the board under
    In and Out! scores nothing, so it misses any field in reach."""
    if rr.note.took_best is False:
        return True
    return rr.round.kind == "leave" and rr.note.best is not None and rr.note.best.value > 0


def _round_view(
    rr: ReportRound,
    row: tuple[str, ...],
    analysis: RoundMark | None = None,
    analysed: bool = False,
) -> RoundView:
    """One round's card; `analysed`: the page shows the analysis, whose marks say what
    a choice cost, so the ◆ (a guess from the round alone) is left out."""
    r = rr.round
    roles = dice_roles(r.dice, r.cross.field if r.cross else None)
    shown = roll_text(r.dice)
    if r.cross is not None:
        dice_label = _("dice {dice}: {field} crossed out, moves {die}").format(
            dice=shown, field=r.cross.field, die=r.cross.die
        )
    else:
        dice_label = _("dice {dice}").format(dice=shown)
    board = None
    if rr.played:
        assert r.cross is not None
        # Every X of this round is this round's colour: the cross-out and, after a walk,
        # the start field.
        new = [f for f in FIELD_AT if "X" in r.state.mark(f) and "X" not in r.before.mark(f)]
        marks = [svg.FieldMark(f, "x", "now") for f in new]
        walks = [svg.Walk(r.walk, rr.start, leaves=r.kind in EXITS)]
        label = round_words(rr)
        better = analysis.better if analysis is not None else None
        if better is not None and better.cross is not None:
            # The better choice over the recorded one: its X, its walk, its end.
            marks.append(svg.FieldMark(better.cross, "x", "alt"))
            if better.end is not None and not better.leaves:
                marks.append(svg.FieldMark(better.end, "ring", "alt"))
            if better.walk or better.leaves:
                walks.append(svg.Walk(better.walk, better.start, better.leaves, style="alt"))
            label += " " + _("Better: {choice}.").format(choice=better.text)
        on, beside = _burglar(rr, r.state)
        board = Markup(
            svg.board(
                r.state, marks=marks, walks=walks, burglar=on, burglar_left=beside, label=label
            )
        )
    if r.record_round is not None and r.line:
        where = _("record round {round}, line {line}").format(round=r.record_round, line=r.line)
    elif r.record_round is not None:
        where = _("record round {round}").format(round=r.record_round)
    elif r.line:
        where = _("played by the validator, line {line}").format(line=r.line)
    else:
        where = _("played by the validator")
    flags: list[str] = []
    missed = missed_best(rr) and not analysed
    if missed:
        flags.append("missed-best")
    if rr.note.ended is not None:
        flags.append("ended")
    title = _("Roll {roll}").format(roll=r.roll)
    if rr.move_number is not None:
        title = _("{title} · move {n}").format(title=title, n=rr.move_number)
    marker, marker_text = "", ""
    if r.kind == "reroll":
        marker, marker_text = "↻", _("forced reroll")
    elif r.kind == "ring":
        marker, marker_text = "◯", _("magic ring spent")
    if missed:
        marker, marker_text = "◆", _(MISSED_BEST)
    if rr.note.ended is not None:
        marker, marker_text = "■", _("the game ends here")
    line = ""
    if not rr.played:
        line = _("{kind}, dice {dice}: {notes}").format(
            kind=round_kind(r.kind), dice=shown, notes=" ".join(describe_round(rr))
        )
    return RoundView(
        roll=r.roll,
        marker=marker,
        marker_text=marker_text,
        line=line,
        row=row,
        anchor=f"roll-{r.roll}",
        title=title,
        subtitle=_("{kind} · {where}").format(kind=round_kind(r.kind), where=where),
        kind=r.kind,
        dice=Markup(svg.dice(r.dice, roles, label=dice_label)),
        board=board,
        notes=tuple(describe_round(rr, agreed=agreed(analysis))),
        score=r.score,
        flags=tuple(flags),
        analysis=analysis,
    )


# How each mark of the explanation is drawn on the illegal step's board.
_DRAWN: dict[BoardMark, tuple[svg.Shape, svg.Style]] = {
    BoardMark.OPTION: ("square", "option"),
    BoardMark.CROSS: ("x", "now"),
    BoardMark.REACH: ("ring", "reach"),
    BoardMark.EXIT: ("ring", "exit"),
    BoardMark.MOVE_OK: ("ring", "right"),
    BoardMark.USED: ("square", "used"),
}


def _looks(mark: BoardMark, n: int) -> str:
    """The words that name the drawing of `mark` on `n` fields in the caption (so that the
    caption says exactly what is drawn)."""
    if mark is BoardMark.OPTION:
        return ngettext("green dashed square", "green dashed squares", n)
    if mark is BoardMark.CROSS:
        return ngettext("vermillion X", "vermillion Xs", n)
    if mark is BoardMark.REACH:
        return ngettext("green dashed ring", "green dashed rings", n)
    if mark is BoardMark.EXIT:
        return ngettext("green dotted ring", "green dotted rings", n)
    if mark is BoardMark.MOVE_OK:
        return ngettext("solid green ring", "solid green rings", n)
    return ngettext("black dotted square", "black dotted squares", n)


_SWATCH: dict[BoardMark, str] = {
    BoardMark.OPTION: "option",
    BoardMark.CROSS: "xnow",
    BoardMark.REACH: "reach",
    BoardMark.EXIT: "exit",
    BoardMark.MOVE_OK: "right",
    BoardMark.USED: "used",
    BoardMark.WRONG: "wrong",
    BoardMark.WRONG_PATH: "wrongpath",
    BoardMark.BURGLAR: "pos",
}


@dataclass(frozen=True, slots=True)
class KeyItem:
    """One line of a board's caption: a swatch, what it looks like, what it means."""

    swatch: str
    looks: str
    means: str


def illegal_board(x: Explanation) -> tuple[str, tuple[KeyItem, ...]]:
    """The position before the illegal step, what the record did, and what was legal;
    with the caption's key, one item per kind of mark drawn."""
    marks: list[svg.FieldMark] = []
    key: list[KeyItem] = []

    def fields_text(fields: tuple[object, ...]) -> str:
        return _(", ").join(map(str, fields))

    def listed(means: str, fields: tuple[object, ...]) -> str:
        return _("{means}: {fields}").format(means=means, fields=fields_text(fields))

    for mark, means in x.legend:
        fields = x.fields(mark)
        if mark in _DRAWN:
            shape, style = _DRAWN[mark]
            marks.extend(svg.FieldMark(f, shape, style) for f in fields)
            looks = _looks(mark, 2 if len(fields) > 1 else 1)
            named = means if len(fields) == 1 and str(fields[0]) in means else None
            key.append(KeyItem(_SWATCH[mark], looks, named or listed(means, fields)))
        elif mark is BoardMark.WRONG:
            # A wrong cross-out is a square around the field: an X over an X would hide the
            # reason.
            square = x.part in ("cross", "round")
            for f in fields:
                marks.append(svg.FieldMark(f, "square" if square else "ring", "wrong"))
                marks.append(svg.FieldMark(f, "bang", "wrong"))
            looks = (
                _('vermillion dashed square with "!"')
                if square
                else _('vermillion dashed ring with "!"')
            )
            key.append(KeyItem("wrong" if square else "wrong round", looks, listed(means, fields)))
        elif mark is BoardMark.BURGLAR:
            on = _("{means}, on {fields}").format(means=means, fields=fields_text(fields))
            key.append(KeyItem("pos", _("B token"), on))
    if x.cross is not None and x.mark_of(x.cross.field) is not BoardMark.CROSS:
        # The cross-out's field carries another mark; its X is drawn all the same.
        marks.append(svg.FieldMark(x.cross.field, "x", "now"))
        crossed = _("crossed out ({field}, moves {die})")
        means = crossed.format(field=x.cross.field, die=x.cross.die)
        key.append(KeyItem("xnow", _looks(BoardMark.CROSS, 1), means))
    position = x.before.position
    walks: list[svg.Walk] = []
    if x.legal_walk:
        walks.append(svg.Walk(x.legal_walk, position, style="legal"))
        legal = _("a legal walk: {walk}").format(walk=" ".join(map(str, x.legal_walk)))
        key.append(KeyItem("legal", _("green arrow"), legal))
    if x.recorded_path:
        walks.append(svg.Walk(x.recorded_path, position, style="wrong"))
        path = " ".join(map(str, x.recorded_path))
        recorded = _("the recorded path (illegal): {path}").format(path=path)
        key.insert(0, KeyItem("wrongpath", _("vermillion dashed arrow"), recorded))
    # The key is ordered as the eye should read it: what was wrong first.
    key.sort(key=lambda k: 0 if k.swatch.startswith("wrong") else 1)
    picture = svg.board(
        x.before,
        marks=marks,
        walks=walks,
        burglar=position,
        caption=x.board_title[:1].upper() + x.board_title[1:],
        label=x.label(),
    )
    return picture, tuple(key)


def quote_parts(x: Explanation) -> tuple[str, str, str] | None:
    """The record's offending line split around the item it points at: (before, item, after)."""
    line = x.quote
    if line is None:
        return None
    col = x.error.col or 0
    if col < 1 or col > len(line):
        return (line, "", "")
    width = item_span(line, col - 1)
    return (line[: col - 1], line[col - 1 : col - 1 + width], line[col - 1 + width :])


def _illegal_view(report: Report) -> IllegalView | None:
    x = report.illegal
    if x is None:
        return None
    e = x.error
    dice: list[tuple[str, Markup]] = []
    if x.record_dice is not None:
        roles = tuple(
            "differs" if a != b else "" for a, b in zip(x.record_dice, x.dice or (), strict=False)
        )
        theirs = _("the record's dice")
        picture = svg.dice(x.record_dice, (*roles, "", "", "")[:3], label=theirs)
        dice.append((theirs, Markup(picture)))
    if x.dice is not None:
        cross = x.cross.field if x.cross is not None else None
        name = (
            _("roll {roll} in the dice file") if x.record_dice is not None else _("roll {roll}")
        ).format(roll=x.roll)
        dice.append((name, Markup(svg.dice(x.dice, dice_roles(x.dice, cross), label=name))))
    board, key = illegal_board(x)
    return IllegalView(
        roll=x.roll,
        title=_("The first illegal step: {where}").format(where=x.where),
        short=_("Roll {roll}: illegal").format(roll=x.roll) if x.roll else _("Illegal"),
        code=e.code,
        name=e.name,
        message=i18n.message(e),
        problem=x.problem,
        hint=help_text(i18n.hint(e)),
        location=e.location(),
        line_ref=x.line_ref,
        line=e.line,
        quote=quote_parts(x),
        dice=tuple(dice),
        board=Markup(board),
        board_title=x.board_title or _("before this step"),
        key=key,
        notes=x.legal,
    )
