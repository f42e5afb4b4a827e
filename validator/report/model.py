"""The report model: a replay Result with per-round annotations, ready for any renderer.

Every annotation comes from the engine's own functions (available cross-outs, walks);
nothing here decides a rule, it only asks the engine what was possible.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from validator.check.explain import Explanation, crosses_text, explain, taken_text
from validator.check.replay import Result, RoundResult, Verdict
from validator.engine import Cross, Dice, End, Field, State, roll_text
from validator.engine.phrase import N_
from validator.language import wording
from validator.language.i18n import _
from validator.language.wording import (
    dice_rolls,
    end_reason,
    ordinal,
    rings,
    round_kind,
)
from validator.records.record import RecordRound
from validator.rulesets import expansion_sentences


def move_rows(rounds: tuple[ReportRound, ...]) -> list[tuple[str, ...]]:
    """The move table: roll, dice, cross, move, steps, points gained, total; one row a roll."""
    rows: list[tuple[str, ...]] = []
    previous = 0
    for rr in rounds:
        r = rr.round
        cross = str(r.cross.field) if r.cross is not None else round_kind(r.kind)
        steps = str(r.cross.die) if r.cross is not None and r.kind != "stuck" else ""
        gained = f"+{r.score - previous}" if r.score != previous else ""
        previous = r.score
        dice = roll_text(r.dice)
        rows.append((str(r.roll), dice, cross, move_cell(r), steps, gained, str(r.score)))
    return rows


def move_cell(r: RoundResult) -> str:
    """The move column of a move table: where the round ended, in words for exits."""
    if r.corner is not None:
        if r.kind == "escape":
            return _("escaped at {corner}").format(corner=r.corner)
        return _("out at {corner}").format(corner=r.corner)
    if r.kind == "stuck":
        return _("no move")
    return str(r.move) if r.move is not None else ""


Walk = tuple[Field, ...]


@dataclass(frozen=True, slots=True)
class Best:
    """The highest-valued field a walk could end on, and which cross-out allowed it."""

    field: Field
    cross: Field
    die: int

    @property
    def value(self) -> int:
        return self.field.value


@dataclass(frozen=True, slots=True)
class RoundNote:
    """What was possible in one round, asked of the engine."""

    available: tuple[Cross, ...]
    """Cross-outs available for this roll (none: a forced reroll)."""
    reachable: dict[Field, Walk]
    """For the record's cross-out: every field the movement die reaches, one walk each."""
    exits: dict[Field, Walk]
    """For the record's cross-out: corners the burglar could leave through."""
    best: Best | None
    """Best-valued field reachable with the record's cross-out."""
    best_any: Best | None
    """Best-valued field reachable with any available cross-out."""
    took_best: bool | None
    """Whether the move ended on a field worth `best.value`; None without a move."""
    rerolls_in_row: int
    """Forced rerolls in a row up to and including this round."""
    rerolls_total: int
    ended: End | None
    """How the game ended, on the round that ended it."""


@dataclass(frozen=True, slots=True)
class ReportRound:
    round: RoundResult
    note: RoundNote
    entry: RecordRound | None
    move_number: int | None
    """1-based count of moves (walks) up to this round; None when nothing moved."""
    escape_bonus: int = 0
    """The bonus points an escape in this round added."""

    @property
    def played(self) -> bool:
        """Whether a field was crossed out (the board changed)."""
        return self.round.cross is not None

    @property
    def start(self) -> Field | None:
        return self.round.before.position


@dataclass(frozen=True, slots=True)
class Report:
    result: Result
    player: str | None
    dice_name: str | None
    rounds: tuple[ReportRound, ...]
    illegal: Explanation | None
    """The first illegal step, explained (None when there is none to draw)."""
    final: State
    moves: tuple[tuple[int, Field], ...]
    """(move number, end field) for every walk, in order: the summary's numbering."""
    exits: frozenset[int] = frozenset()
    """Numbers of the moves that left the board (their end field is the corner left through)."""

    @property
    def verdict(self) -> Verdict:
        return self.result.verdict

    @property
    def source(self) -> str:
        return self.result.source

    @property
    def rules(self) -> str:
        return self.result.rules.name

    @property
    def score(self) -> int | None:
        return self.result.score

    @property
    def shown_score(self) -> int:
        """The score so far even when the replay stopped (Result.score is None then)."""
        if self.result.score is not None:
            return self.result.score
        return self.rounds[-1].round.score if self.rounds else 0

    @property
    def end_text(self) -> str | None:
        end = self.result.end
        if end is None:
            return None
        return _("{reason} (roll {roll})").format(reason=end_reason(end), roll=self.result.end_roll)

    @property
    def rerolls(self) -> int:
        return self.result.rerolls

    @property
    def played(self) -> tuple[ReportRound, ...]:
        return tuple(r for r in self.rounds if r.played)


def build_report(result: Result, *, dice_name: str | None = None) -> Report:
    """Annotate every replayed round of `result`; never raises for any verdict."""
    record = result.record
    entries = {e.number: e for e in record.rounds} if record else {}
    rounds: list[ReportRound] = []
    moves: list[tuple[int, Field]] = []
    exits: set[int] = set()
    for r in result.rounds:
        ended = result.end if result.end is not None and r.roll == result.end_roll else None
        note = annotate(r, ended)
        number = None
        if r.walk or r.corner is not None:
            number = len(moves) + 1
            # An exit ends on the corner left through.
            end = r.move or r.corner
            if end is not None:
                moves.append((number, end))
            if r.corner is not None:
                exits.add(number)
        entry = entries.get(r.record_round) if r.record_round is not None else None
        bonus = (result.rules.escape_bonus or 0) if r.kind == "escape" else 0
        rounds.append(ReportRound(r, note, entry, number, bonus))
    final = result.final if result.final is not None else State()
    if dice_name is None and record is not None:
        dice_name = record.dice_file
    return Report(
        result=result,
        player=record.player if record else None,
        dice_name=dice_name,
        rounds=tuple(rounds),
        illegal=explain(result),
        final=final,
        moves=tuple(moves),
        exits=frozenset(exits),
    )


def annotate(r: RoundResult, ended: End | None) -> RoundNote:
    """What was possible in round `r`, as the replay found it (no rule is asked again)."""
    available = r.available
    reachable: dict[Field, Walk] = {}
    exits: dict[Field, Walk] = {}
    best = None
    if r.cross is not None:
        reachable, exits = r.reach
        best = _best(reachable, r.cross)
    best_any: Best | None = None
    for cross in available:
        candidate = _best(r.options[cross.field].ends, cross)
        if candidate is not None and (best_any is None or candidate.value > best_any.value):
            best_any = candidate
    took = None
    if r.move is not None and best is not None:
        took = r.move.value >= best.value
    return RoundNote(
        available=available,
        reachable=reachable,
        exits=exits,
        best=best,
        best_any=best_any,
        took_best=took,
        rerolls_in_row=r.state.passes_in_row,
        rerolls_total=r.state.passes,
        ended=ended,
    )


def _best(ends: dict[Field, Walk], cross: Cross) -> Best | None:
    if not ends:
        return None
    # Ties go to the first field in board order, so the report is deterministic.
    top = max(ends, key=lambda f: (f.value, -f.row, -f.col))
    return Best(top, cross.field, cross.die)


def describe_round(rr: ReportRound, *, agreed: bool = False) -> list[str]:
    """The annotations of one round as short sentences, shared by every renderer.

    `agreed`: the analysis found the round's choice loses nothing, so the sentences that
    compare it with a higher field in reach (a guess from this round alone, which reads as
    criticism of a good move) are left out."""
    r, n = rr.round, rr.note
    lines: list[str] = []
    if r.kind == "reroll":
        lines.append(
            _(
                "No field could be crossed out ({why}): forced reroll ({in_row} in a row, "
                "{total} in the game)."
            ).format(
                why=taken_text(r.before, r.dice),
                in_row=n.rerolls_in_row,
                total=n.rerolls_total,
            )
        )
    elif r.kind == "ring":
        lines.append(
            _("A magic ring was spent: this roll was not played ({rings} left).").format(
                rings=rings(r.state.rings_left)
            )
        )
    else:
        lines.append(
            wording.plural(
                len(n.available),
                "{n} cross-out available: {crosses}.",
                "{n} cross-outs available: {crosses}.",
                crosses=crosses_text(n.available),
            )
        )
    if r.cross is not None:
        c = r.cross
        lines.append(
            _("Crossed out {field}; the movement die {die} reaches {fields}.").format(
                field=c.field, die=c.die, fields=_fields_text(tuple(n.reachable))
            )
        )
        if n.exits:
            corners = ", ".join(str(f) for f in n.exits)
            lines.append(_("Corners to leave through: {corners}.").format(corners=corners))
    if r.walk:
        path = " ".join(map(str, r.walk))
        if r.before.position is not None:
            lines.append(_("Path from {start}: {path}.").format(start=r.before.position, path=path))
        else:
            lines.append(_("Path into the board: {path}.").format(path=path))
    if r.corner is not None:
        corner = r.corner
        if r.kind == "escape":
            lines.append(_("Escaped through the corner {corner}.").format(corner=corner))
            bonus = rr.escape_bonus
            if bonus:
                lines.append(_("Escape bonus: +{points}.").format(points=wording.points(bonus)))
        else:
            lines.append(
                _(
                    "Left the board through the corner {corner}; the burglar comes back in "
                    "through a corner next round."
                ).format(corner=corner)
            )
    elif r.kind == "stuck":
        lines.append(_("No move: no walk of the movement die was possible."))
    if r.move is not None and n.best is not None:
        if n.took_best:
            lines.append(
                _("Moved to {field} ({value}): the highest-valued field in reach.").format(
                    field=r.move, value=r.move.value
                )
            )
        elif not agreed:
            lines.append(
                _(
                    "Moved to {field} ({value}); the highest in reach was {best} ({best_value})."
                ).format(
                    field=r.move, value=r.move.value, best=n.best.field, best_value=n.best.value
                )
            )
    if (
        not agreed
        and n.best_any is not None
        and r.cross is not None
        and (n.best is None or n.best_any.value > n.best.value)
    ):
        lines.append(
            _(
                "Crossing out {cross} instead (moves {die}) would have reached {field} ({value})."
            ).format(
                cross=n.best_any.cross,
                die=n.best_any.die,
                field=n.best_any.field,
                value=n.best_any.value,
            )
        )
    if r.record_round is None:
        lines.append(_("Not in the record: the validator played this row by itself."))
    if n.ended is not None:
        lines.append(_("The game ends here: {reason}.").format(reason=end_reason(n.ended)))
    return lines


_WALKED: dict[tuple[str, bool, bool], str] = {
    # (how the walk ended, whether it started on the board, whether it had a path: a
    # walk that ends on the board has one)
    ("escape", False, True): N_(
        "the burglar escaped into the board along {path} through the corner {corner};"
    ),
    ("escape", False, False): N_("the burglar escaped into the board through the corner {corner};"),
    ("escape", True, True): N_(
        "the burglar escaped from {start} along {path} through the corner {corner};"
    ),
    ("escape", True, False): N_("the burglar escaped from {start} through the corner {corner};"),
    ("leave", False, True): N_(
        "the burglar left the board into the board along {path} through the corner {corner};"
    ),
    ("leave", False, False): N_(
        "the burglar left the board into the board through the corner {corner};"
    ),
    ("leave", True, True): N_(
        "the burglar left the board from {start} along {path} through the corner {corner};"
    ),
    ("leave", True, False): N_(
        "the burglar left the board from {start} through the corner {corner};"
    ),
    ("play", False, True): N_("the burglar walked into the board along {path} to {field};"),
    ("play", True, True): N_("the burglar walked from {start} along {path} to {field};"),
}
"""How `round_words` says a round's walk."""


def round_words(rr: ReportRound) -> str:
    """The round in words, for a board's title and for readers without the picture:
    `Roll 5, dice 2 1 4: crossed out 1/2, the burglar walked from 6/2 along 5/2 5/3 to 6/6;
    135 points.`"""
    r = rr.round
    dice = roll_text(r.dice)
    parts = [_("Roll {roll}, dice {dice}:").format(roll=r.roll, dice=dice)]
    if r.kind == "reroll":
        parts.append(_("no field could be crossed out, a forced reroll;"))
    elif r.kind == "ring":
        parts.append(_("a magic ring was spent;"))
    if r.cross is not None:
        parts.append(_("crossed out {field},").format(field=r.cross.field))
        path = " ".join(map(str, r.walk))
        start = rr.start
        if r.kind == "stuck":
            parts.append(_("no move was possible;"))
        else:
            how = ("escape" if r.kind == "escape" else "leave") if r.corner is not None else "play"
            text = _WALKED[how, start is not None, bool(path) or how == "play"]
            parts.append(_(text).format(start=start, path=path, corner=r.corner, field=r.move))
    parts.append(_("{points}.").format(points=wording.points(r.score)))
    return " ".join(parts)


def _fields_text(fields: tuple[Field, ...], limit: int = 8) -> str:
    """`3 fields: 1/2 (25), ...`; long lists give the count and the best few."""
    if not fields:
        return _("no field")
    if len(fields) <= limit:
        listed = ", ".join(f"{f} ({f.value})" for f in fields)
        return _("{count}: {fields}").format(count=wording.fields(len(fields)), fields=listed)
    top = sorted(fields, key=lambda f: (-f.value, f))[:3]
    listed = ", ".join(f"{f} ({f.value})" for f in top)
    return _("{count}, the best {fields}").format(count=wording.fields(len(fields)), fields=listed)


def dice_roles(dice: Dice, cross: Field | None) -> tuple[str, str, str]:
    """Each die's part in the round: "cross" (a coordinate), "move" or "" (unused)."""
    if cross is None:
        return ("", "", "")
    roles = ["", "", ""]
    for coordinate in (cross.row, cross.col):
        for i, d in enumerate(dice):
            if d == coordinate and roles[i] == "":
                roles[i] = "cross"
                break
    if roles.count("cross") != 2:
        return ("", "", "")
    i = roles.index("")
    roles[i] = "move"
    return (roles[0], roles[1], roles[2])


def facts(report: Report) -> list[tuple[str, str]]:
    """The header of every report format: (name, value) pairs, values as plain text."""
    result = report.result
    claimed = result.record.claimed_score if result.record else None
    # A malformed result with a record was read but not checked (`malformed`'s `record`).
    unchecked = report.verdict is Verdict.MALFORMED and result.record is not None
    if unchecked:
        score = _("none: the record could not be checked")
    elif report.verdict is Verdict.MALFORMED:
        score = _("none: the record could not be read")
    elif report.score is None:
        score = _("{score} before the illegal step").format(score=report.shown_score)
    else:
        score = str(report.score)
        bonus = sum(rr.escape_bonus for rr in report.rounds)
        if bonus:
            score += " " + _("(with the escape bonus of {bonus})").format(bonus=bonus)
        if claimed is not None and claimed != report.score:
            score += " " + _("(the record claims {claimed})").format(claimed=claimed)
    if report.end_text is not None:
        end = report.end_text
    elif report.verdict is Verdict.INCOMPLETE:
        end = _("not over: the game could go on")
    elif unchecked:
        end = _("the record could not be checked")
    elif report.verdict is Verdict.MALFORMED:
        end = _("the record could not be read")
    else:
        end = _("stopped at the illegal step")
    unnamed = _("(not named)")
    record = result.record
    rounds = _("{rounds} in the record, {rolls} replayed").format(
        # All of the record's entries, also those after an illegal step.
        rounds=wording.rounds(len(record.rounds) if record else 0),
        rolls=dice_rolls(len(report.rounds)),
    )
    rows = [
        (_("Player"), report.player or unnamed),
        (_("Record"), report.source),
        (_("Dice file"), report.dice_name or unnamed),
        (_("Dice SHA-256"), result.dice_sha256 or _("(unknown)")),
        (_("Ruleset"), report.rules),
        (_("Score"), score),
        (_("End"), end),
        (_("Rounds"), rounds),
        (_("Rerolls"), str(report.rerolls)),
    ]
    if result.rules.rings and record is not None:
        # With the magic rings: how many the record declared and how many are left.
        left = report.final.rings_left
        kept = _("{declared} declared, {left} left").format(declared=record.rings, left=left)
        rows.append((_("Magic rings"), kept))
    return rows


def how_to_read(report: Report) -> tuple[str, ...]:
    """The rules in three sentences for someone who never read them, per the ruleset."""
    rules = report.result.rules
    passes = (
        _("the {ordinal} forced reroll of the game").format(ordinal=ordinal(rules.pass_limit))
        if rules.pass_counting == "total"
        else wording.plural(
            rules.pass_limit, "{n} forced reroll in a row", "{n} forced rerolls in a row"
        )
    )
    scoring = (
        _("the value of every circled field")
        if rules.scoring == "all-circles"
        else _("the value of every field with both a circle and an X")
    )
    out = [
        _(
            "Each round rolls three dice. Two of them name a field (row/column) that is crossed "
            "out with an X; the third die is the number of steps the burglar walks, up, down, "
            "left or right, never onto a field already marked (X or circle) and never twice "
            "onto the same one."
        ),
        _(
            "The first walk enters the board through a corner; the field where a walk ends gets "
            "a circle. When no field the dice name is free, the roll is a forced reroll."
        ),
        _(
            "The game ends when the walk cannot be made, after {passes}, or when the dice file "
            "runs out. The score is {scoring}; 300 points win."
        ).format(passes=passes, scoring=scoring),
    ]
    out.extend(expansion_sentences(rules))
    return tuple(out)


def help_text(hint: str) -> str:
    """A hint as a sentence: a bare record line (`steps: 6`) becomes `write steps: 6`."""
    if _RECORD_LINE.fullmatch(hint):
        return _("write {line} in the record").format(line=hint)
    return hint


# A hint that is a line of the record to write, as the replay gives it for E102 and E107.
_RECORD_LINE = re.compile(r"(?:steps|claimed_score|dice|roll|rings|dice_sha256): \S+")
