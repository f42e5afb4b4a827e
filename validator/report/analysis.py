"""The analysis view model for `road300 report --analyze`: the solver's per-round marks,
points lost and better choices, and the best line, laid out once for every renderer.

Built from a Report and the solver's Analysis; nothing here searches or renders. The better
choice's walk and the best line's game are asked of the engine (the replayer), so what is
drawn is exactly what the engine would play.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from validator.check.replay import Result, RoundResult, Verdict
from validator.engine import (
    Action,
    Dice,
    Field,
    Play,
    RingReroll,
    exit_corner,
    score,
)
from validator.engine.phrase import N_
from validator.language.i18n import _
from validator.language.wording import plural, points
from validator.report.model import Report, build_report

if TYPE_CHECKING:
    from validator.solver.analysis import Analysis

SYMBOLS: dict[str, str] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The marks as in chess analysis, by the solver's names."""

_MARK_WORDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
"""The marks' names in words (translated where shown; `mark` keeps the solver's name)."""


@dataclass(frozen=True, slots=True)
class BetterChoice:
    """The first step of a best continuation where the recorded choice lost points."""

    text: str
    """`cross out 2/5, move to 2/1 (25), path 1/5 1/4 ...`, or a magic ring spent."""
    cross: Field | None = None
    walk: tuple[Field, ...] = ()
    start: Field | None = None
    """Where the burglar stood before the round (None: it enters through a corner)."""
    end: Field | None = None
    """The field the better walk ends on (the corner it leaves through for an exit)."""
    leaves: bool = False


@dataclass(frozen=True, slots=True)
class RoundMark:
    """One analysed record round."""

    roll: int
    record_round: int
    best_before: int
    best_after: int
    cost: int
    proven: bool
    mark: str | None
    """"inaccuracy", "mistake", "blunder" or None."""
    better: BetterChoice | None
    forced: bool = False
    """A forced reroll: the round had no choice to make."""

    @property
    def symbol(self) -> str:
        return SYMBOLS.get(self.mark or "", "")

    @property
    def mark_word(self) -> str:
        """The mark in the current language (`mark` keeps the solver's name)."""
        return _(_MARK_WORDS[self.mark]) if self.mark in _MARK_WORDS else ""

    @property
    def short(self) -> str:
        """`?? -45` for an index entry or a table cell; `` for a best choice."""
        return (
            f"{self.symbol} -{self.cost}" if self.mark else (f"-{self.cost}" if self.cost else "")
        )

    @property
    def words(self) -> str:
        """The round's verdict in a sentence (a card's line, a text report's line)."""
        bound = "" if self.proven else " " + _("(not proven: a lower bound)")
        if self.forced:
            return _(
                "Analysis: no choice (a forced reroll); {points} still reachable{bound}."
            ).format(points=points(self.best_after), bound=bound)
        if self.cost == 0:
            return _("Analysis: a best choice; {points} still reachable{bound}.").format(
                points=points(self.best_after), bound=bound
            )
        mark = f"{self.symbol} {self.mark_word}, " if self.mark else ""
        return plural(
            self.cost,
            "Analysis: {mark}{n} point lost (the best total reachable was {before} before "
            "this round, {after} after it){bound}.",
            "Analysis: {mark}{n} points lost (the best total reachable was {before} before "
            "this round, {after} after it){bound}.",
            mark=mark,
            before=self.best_before,
            after=self.best_after,
            bound=bound,
        )


Limits = Literal["time", "nodes", "both"]

_NOT_PROVEN: dict[Limits, str] = {
    "time": N_("not proven within the time limit"),
    "nodes": N_("not proven within the budget of positions"),
    "both": N_("not proven within the time limit and the budget of positions"),
}
_BEST_FOUND: dict[Limits, str] = {
    "time": N_("the best found within the time limit, not proven the highest"),
    "nodes": N_("the best found within the budget of positions, not proven the highest"),
    "both": N_(
        "the best found within the time limit and the budget of positions, not proven the highest"
    ),
}
_SEARCHED_AGAIN: dict[Limits, str] = {
    "time": N_(
        "The best total found is {best} (not proven the highest); the line below, "
        "searched again within the time limit, scores {shown}."
    ),
    "nodes": N_(
        "The best total found is {best} (not proven the highest); the line below, "
        "searched again within the budget of positions, scores {shown}."
    ),
    "both": N_(
        "The best total found is {best} (not proven the highest); the line below, "
        "searched again within the time limit and the budget of positions, scores {shown}."
    ),
}


@dataclass(frozen=True, slots=True)
class AnalysisView:
    """What `report --analyze` adds to a report, in every format."""

    marks: dict[int, RoundMark]
    """Analysed rounds by dice roll."""
    lost: tuple[tuple[int, int], ...]
    """(roll, points lost so far): the best total at the start less the best still reachable."""
    played_score: int
    best_score: int
    best_proven: bool
    best: Report | None
    """The best game found from the record's first roll, replayed like a record."""
    scope: str
    """What the analysis covers, in a sentence."""
    time_limit: float | None
    """Seconds of search per position; None when only `nodes` limits it."""
    interrupted: bool = False
    nodes: int | None = None
    """Positions searched per position at most (a budget), when one was given."""
    stopped: bool = False
    """The record is invalid: the analysis stops at its illegal step."""
    incomplete: bool = False
    """The game could go on: points lost are counted against what is still reachable."""

    @property
    def points_lost(self) -> int:
        """The best total at the start less the best still reachable after the last round
        (for a finished game: less the score)."""
        return self.lost[-1][1] if self.lost else 0

    @property
    def limits(self) -> Limits:
        """What limited the search of each position: the clock, a budget of positions, or
        both."""
        if self.nodes is None:
            return "time"
        return "nodes" if self.time_limit is None else "both"

    @property
    def summary(self) -> str:
        proven = _("proven") if self.best_proven else _(_NOT_PROVEN[self.limits])
        values = {"played": self.played_score, "best": self.best_score, "proven": proven}
        if self.stopped:
            return _(
                "{played} points before the illegal step; the best game from the first roll "
                "scores {best} ({proven})."
            ).format(**values)
        lost = self.points_lost
        if self.best_score == self.played_score and not (self.best_proven or self.incomplete):
            return _(
                "Played {played}; no better game was found ({proven}): the played game is "
                "the best known."
            ).format(**values)
        if self.incomplete:
            return plural(
                lost,
                "{played} points so far, {reachable} still reachable; best from the first "
                "roll {best} ({proven}): {n} point lost so far.",
                "{played} points so far, {reachable} still reachable; best from the first "
                "roll {best} ({proven}): {n} points lost so far.",
                reachable=self.best_score - lost,
                **values,
            )
        return plural(
            lost,
            "Played {played}, best {best} ({proven}): {n} point lost.",
            "Played {played}, best {best} ({proven}): {n} points lost.",
            **values,
        )

    @property
    def best_line_text(self) -> str:
        """The sentence above the best line."""
        proven = (
            _("proven the highest score reachable")
            if self.best_proven
            else _(_BEST_FOUND[self.limits])
        )
        shown = self.best.shown_score if self.best is not None else self.best_score
        if shown < self.best_score:
            # The line was searched again and, within the limits, came out shorter.
            return _(_SEARCHED_AGAIN[self.limits]).format(best=self.best_score, shown=shown)
        return _("The best line from the first roll scores {best}: {proven}.").format(
            best=self.best_score, proven=proven
        )


def analysable(result: Result) -> Result | str:
    """The replay to analyse: the record itself, or its rounds before the illegal step;
    or the reason there is nothing to analyse."""
    if result.verdict is Verdict.MALFORMED:
        return _("the record could not be read, so there is no game to analyse")
    if result.verdict is Verdict.INVALID:
        before = result.failure.before if result.failure is not None else None
        last = result.rounds[-1].state if result.rounds else None
        state = last if last is not None else before
        if state is None:
            return _("the replay stopped before any position could be analysed")
        if not any(r.record_round is not None for r in result.rounds):
            return _("the record's first round is already illegal")
        return replace(result, final=state, score=score(state, result.rules))
    return result


def scope_text(result: Result, analysed: Result) -> str:
    played = sum(1 for r in analysed.rounds if r.record_round is not None)
    if result.verdict is Verdict.INVALID:
        return plural(
            played,
            "The analysis covers the {n} record round before the illegal step.",
            "The analysis covers the {n} record rounds before the illegal step.",
        )
    return plural(
        played,
        "The analysis covers all {n} record round.",
        "The analysis covers all {n} record rounds.",
    )


def better_choice(r: RoundResult, action: Action) -> BetterChoice:
    """The better action of a round, with the walk the replay found for its cross-out."""
    if isinstance(action, RingReroll):
        return BetterChoice(_("spend a magic ring instead of playing this roll"))
    if not isinstance(action, Play):
        return BetterChoice(_("a forced reroll"))
    before = r.before
    start = before.position
    walk: tuple[Field, ...] = ()
    if action.path is not None:
        walk = tuple(action.path)
    elif action.cross in r.options and action.move is not None:
        ends, corners = r.options[action.cross]
        walk = (corners if action.exit is not None else ends).get(action.move, ())
    text = _("cross out {field}").format(field=action.cross)
    path = _(", path {path}").format(path=" ".join(map(str, walk))) if len(walk) > 1 else ""
    if action.exit is not None:
        corner = action.move or exit_corner(start, walk)
        how = (
            _("{cross}, escape through the corner {corner}{path}")
            if action.exit == "escape"
            else _("{cross}, leave the board through the corner {corner}{path}")
        )
        text = how.format(cross=text, corner=corner, path=path)
        return BetterChoice(text, action.cross, walk, start, corner, leaves=True)
    if action.move is None:
        text = _("{cross}, no move (the game ends)").format(cross=text)
        return BetterChoice(text, action.cross, (), start)
    text = _("{cross}, move to {field} ({value}){path}").format(
        cross=text, field=action.move, value=action.move.value, path=path
    )
    return BetterChoice(text, action.cross, walk, start, action.move)


def best_report(
    analysed: Result,
    analysis: Analysis,
    rows: Sequence[Dice],
    *,
    time_limit: float | None,
    nodes: int | None = None,
    cancel: threading.Event | None = None,
) -> Report | None:
    """The best game as a report of its own, replayed like a record; None when the
    played game is the best found.

    The analysis's `best_line` starts at the first roll, but the search from there may
    have found less than a later position's (the best total is the largest of them);
    then the best game is the played one up to the first round that lost points, and
    the line found from there, searched once more.
    """
    from validator.check.replay import replay
    from validator.solver import solve
    from validator.solver.record import action_rounds, game_record, played_rounds

    rules = analysed.rules
    played = [r for r in analysed.rounds if r.record_round is not None]
    if not played:
        return None
    line = tuple(analysis.best_line)
    start = 0
    if not line:
        if analysis.best_score <= analysis.played_score:
            return None
        costs = [m.cost for m in analysis.rounds]
        start = next((k for k, cost in enumerate(costs) if cost > 0), len(played))
        if start < len(played):
            state, row = played[start].before, played[start].roll - 1
        else:
            state, row = played[-1].state, played[-1].roll
        if state.over or row >= len(rows):
            return None
        found = solve(rows, rules, state, row, time_limit=time_limit, nodes=nodes, cancel=cancel)
        line = tuple(found.actions)
        if not line:
            return None
    first_roll = played[start].roll if start < len(played) else played[-1].roll + 1
    prefix = [r for r in analysed.rounds if r.roll < first_roll]
    rounds = played_rounds(prefix)
    state = prefix[-1].state if prefix else played[0].before
    rounds += action_rounds(rows, rules, state, first_roll - 1, line, len(rounds) + 1)
    record = analysed.record
    game = game_record(
        rounds,
        rings=record.rings if record is not None else 0,
        rules=rules.name,
        player="best line",
    )
    result = replace(replay(rows, game, rules), source="the best line")
    return build_report(result)


def run_analysis(
    report: Report,
    rows: Sequence[Dice],
    *,
    time_limit: float | None,
    nodes: int | None = None,
    cancel: threading.Event | None = None,
) -> AnalysisView | str:
    """Analyse the report's record (the rounds before an illegal step for an invalid one);
    the reason in a sentence when there is nothing to analyse. `time_limit` (seconds)
    and `nodes` (positions) limit the search of each position."""
    from validator.solver.analysis import analyze

    analysed = analysable(report.result)
    if isinstance(analysed, str):
        return analysed
    analysis = analyze(
        rows, analysed.rules, analysed, time_limit=time_limit, nodes=nodes, cancel=cancel
    )
    interrupted = cancel is not None and cancel.is_set()  # before the best line's search
    by_roll = {r.roll: r for r in analysed.rounds}
    marks: dict[int, RoundMark] = {}
    for a in analysis.rounds:
        r = by_roll[a.roll]
        marks[a.roll] = RoundMark(
            roll=a.roll,
            record_round=a.round,
            best_before=a.best_before,
            best_after=a.best_after,
            cost=a.cost,
            proven=a.proven,
            mark=a.mark,
            better=better_choice(r, a.better) if a.better is not None else None,
            forced=not r.available,
        )
    lost: list[tuple[int, int]] = []
    so_far = 0
    for rr in report.rounds:
        m = marks.get(rr.round.roll)
        if m is not None:
            so_far = analysis.best_score - m.best_after
        lost.append((rr.round.roll, so_far))
    best = best_report(analysed, analysis, rows, time_limit=time_limit, nodes=nodes, cancel=cancel)
    return AnalysisView(
        marks=marks,
        lost=tuple(lost),
        played_score=analysis.played_score,
        best_score=analysis.best_score,
        best_proven=analysis.best_proven,
        best=best,
        scope=scope_text(report.result, analysed),
        time_limit=time_limit,
        nodes=nodes,
        interrupted=interrupted,
        stopped=report.result.verdict is Verdict.INVALID,
        incomplete=report.result.verdict is Verdict.INCOMPLETE,
    )
