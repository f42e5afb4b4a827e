"""The rules of one game: state, the legal choices after a roll, and applying them.

Pure and immutable: every function takes a `State` and returns a new one. The dice
(chance) and the player's choice both go through `apply`, so replay, random play and
search share one API. Illegal choices raise `IllegalAction` carrying a stable code.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal, NamedTuple, TypeVar, get_args

from validator.engine.board import (
    CORNER_MASK,
    CORNERS,
    DISTANCE,
    FIELD_AT,
    NEIGHBOURS,
    VALUES,
    Field,
    bits,
    is_corner,
)
from validator.engine.phrase import N_, Items, Phrase, Said, phrase, plural
from validator.engine.rules import STANDARD, Ruleset

OUTSIDE = -1
"""`State.pos` before the first move, and after leaving the board (In and Out!)."""

Dice = tuple[int, int, int]
Walk = tuple[int, ...]
"""The fields entered by a move, in order, as field indices."""


class End(enum.Enum):
    """How a game ended."""

    NO_MOVE = "no-move"
    REROLLS = "rerolls"
    DICE_EXHAUSTED = "dice-exhausted"
    ESCAPED = "escaped"


END_BRIEF: dict[End, str] = {
    End.NO_MOVE: N_("no legal move"),
    End.REROLLS: N_("forced rerolls"),
    End.DICE_EXHAUSTED: N_("the dice file ran out"),
    End.ESCAPED: N_("the burglar escaped"),
}
"""How a game ended, in a few words (English; language/wording.end_brief translates it)."""


@dataclass(frozen=True, slots=True)
class State:
    """A position between rounds. Field sets are bit sets over indices 0..35."""

    crossed: int = 0
    circled: int = 0
    pos: int = OUTSIDE
    passes: int = 0
    passes_in_row: int = 0
    rings_left: int = 0
    end: End | None = None

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def taken(self) -> int:
        """Fields that can be neither crossed out nor entered: any X or circle."""
        return self.crossed | self.circled

    @property
    def position(self) -> Field | None:
        return None if self.pos == OUTSIDE else FIELD_AT[self.pos]

    def mark(self, field: Field) -> str:
        """The paper-sheet mark of a field: "", "X", "O" or "XO"."""
        bit = 1 << field.index
        return ("X" if self.crossed & bit else "") + ("O" if self.circled & bit else "")


def new_game(rings: int = 0) -> State:
    return State(rings_left=rings)


# --- actions -------------------------------------------------------------------------

Exit = Literal["escape", "leave"]
EXITS: tuple[Exit, ...] = get_args(Exit)
"""Every way to leave the board through a corner (Escape!, In and Out!)."""


@dataclass(frozen=True, slots=True)
class Reroll:
    """A forced reroll: no candidate field could be crossed out; the row is used up."""


@dataclass(frozen=True, slots=True)
class RingReroll:
    """The magic rings!: spend a ring instead of playing the roll."""


@dataclass(frozen=True, slots=True)
class Play:
    """Cross out `cross`, then move.

    `move` is the end field; None claims that the movement die has no legal move (the
    game ends). With `exit` set, the burglar leaves through the corner `move` (which may
    be the current field when it is a corner). `path` is an optional walk to check.
    """

    cross: Field
    move: Field | None = None
    exit: Exit | None = None
    path: tuple[Field, ...] | None = None


Action = Reroll | RingReroll | Play


@dataclass(frozen=True, slots=True)
class Cross:
    """An available cross-out and the movement die it leaves."""

    field: Field
    die: int


@dataclass(frozen=True, slots=True)
class Turn:
    """What applying one action did."""

    state: State
    action: Action
    cross: Cross | None = None
    walk: Walk | None = None
    exit: Exit | None = None
    corner: int | None = None
    """The corner an exit left through (a field index); None for any other round."""
    crosses: tuple[Cross, ...] = ()
    """The cross-outs that were available for the roll (none: a forced reroll)."""


class Reach(NamedTuple):
    """After a cross-out: each field the movement die reaches and each corner the burglar
    could leave through (when the ruleset allows it), one walk each, in board order."""

    ends: dict[Field, tuple[Field, ...]]
    exits: dict[Field, tuple[Field, ...]]


Part = Literal["cross", "move", "path", "ring", "reroll", "round"]
"""Which part of a round an illegal action got wrong ("round": the round as a whole)."""

_PART_OF_CODE: dict[str, Part] = {
    "E106": "round",
    "E201": "reroll",
    "E202": "cross",
    "E203": "cross",
    "E204": "cross",
    "E205": "move",
    "E206": "path",
    "E207": "move",
    "E208": "move",
    "E209": "move",
    "E211": "ring",
    "E212": "ring",
    "E213": "ring",
}


class IllegalAction(Said, ValueError):
    """An action that breaks the rules; `code` is the stable error code and `part` the
    part of the round that was wrong, so that no caller has to guess it from the code.
    The message and the hint are phrases, for renderers in any language; `message` and
    `hint` are their English text (JSON and the tests read it)."""

    def __init__(
        self,
        code: str,
        message: Phrase,
        hint: Phrase | None = None,
        step: Field | None = None,
    ) -> None:
        super().__init__(str(message))
        self.code = code
        self.phrase = message
        self.hint_phrase = hint
        self.part: Part = _PART_OF_CODE[code]
        self.step = step
        """For an illegal path (E206): the field of the first step that breaks the walk,
        when one step does (None when the path as a whole is wrong, such as its length)."""


# --- cross-outs ----------------------------------------------------------------------


def movement_die(dice: Sequence[int], field: Field) -> int | None:
    """The die left over when `field` is crossed out with `dice`, or None if it can't be."""
    rest = list(dice)
    for coordinate in (field.row, field.col):
        if coordinate not in rest:
            return None
        rest.remove(coordinate)
    return rest[0]


def candidates(dice: Sequence[int]) -> tuple[Cross, ...]:
    """Every field a pair of the dice names, with its movement die, in board order."""
    key = (dice[0], dice[1], dice[2])
    found = _CANDIDATES.get(key)
    if found is None:
        found = _CANDIDATES[key] = _candidates(key)
    return found


_CANDIDATES: dict[tuple[int, int, int], tuple[Cross, ...]] = {}
"""The candidates of each roll (216 at most), computed once."""


def _candidates(dice: Dice) -> tuple[Cross, ...]:
    seen: dict[Field, int] = {}
    a, b, c = dice
    for x, y, die in ((a, b, c), (a, c, b), (b, c, a)):
        seen.setdefault(Field(x, y), die)
        seen.setdefault(Field(y, x), die)
    return tuple(Cross(f, seen[f]) for f in sorted(seen))


def available_crosses(state: State, dice: Sequence[int]) -> tuple[Cross, ...]:
    taken = state.taken
    return tuple(c for c in candidates(dice) if not taken >> c.field.index & 1)


# --- walks ---------------------------------------------------------------------------


def blocked_after(state: State, cross: Field) -> int:
    """Fields a move may not enter once `cross` is crossed out (and the start field X'd)."""
    return state.taken | (1 << cross.index)


def walks(blocked: int, start: int, steps: int) -> dict[int, Walk]:
    """Every end field of a legal walk of exactly `steps`, with one witness walk each."""
    return {end: found[0] for end, found in _search(blocked, start, steps, exact=True).items()}


def all_walks(blocked: int, start: int, steps: int, *, exit: bool = False) -> dict[int, list[Walk]]:
    """Every legal walk, by end field: of exactly `steps` fields, or (`exit`) every walk of
    1..steps fields that ends on a free corner, plus the empty walk when standing on a
    corner. The first walk of each end is the witness `walks` and `exit_walks` give."""
    found = _search(blocked, start, steps, exact=not exit, every=True)
    if exit and start != OUTSIDE and is_corner(start):
        # No walk returns to its start field, so the empty walk is the only one to it.
        return {start: [()], **found}
    return found


def _search(
    blocked: int, start: int, steps: int, *, exact: bool, every: bool = False
) -> dict[int, list[Walk]]:
    """The one walk search. The fields a legal walk of `steps` ends on (`exact`), or the
    free corners it passes within `steps` (not `exact`), with the first walk found to
    each, or (`every`) all of them in the order found."""
    found: dict[int, list[Walk]] = {}
    path: list[int] = []

    def step(cur: int, left: int, visited: int) -> None:
        if left == 0 if exact else CORNER_MASK >> cur & 1:
            if cur not in found:
                found[cur] = [tuple(path)]
            elif every:
                found[cur].append(tuple(path))
        if left == 0:
            return
        for nxt in NEIGHBOURS[cur]:
            if not visited >> nxt & 1:
                path.append(nxt)
                step(nxt, left - 1, visited | 1 << nxt)
                path.pop()

    for first, rest in _first_steps(blocked, start, steps):
        path.append(first)
        step(first, rest, blocked | 1 << first | _start_bit(start))
        path.pop()
    return found


def find_walk(blocked: int, start: int, target: int, steps: int) -> Walk | None:
    """One legal walk of exactly `steps` ending on `target`, or None."""
    if blocked >> target & 1:
        return None
    path: list[int] = []

    def step(cur: int, left: int, visited: int) -> bool:
        gap = DISTANCE[cur][target]
        if gap > left or (left - gap) & 1:
            return False
        if left == 0:
            return True
        for nxt in NEIGHBOURS[cur]:
            if not visited >> nxt & 1:
                path.append(nxt)
                if step(nxt, left - 1, visited | 1 << nxt):
                    return True
                path.pop()
        return False

    for first, rest in _first_steps(blocked, start, steps):
        path.append(first)
        if step(first, rest, blocked | 1 << first | _start_bit(start)):
            return tuple(path)
        path.pop()
    return None


def any_walk(blocked: int, start: int, steps: int) -> bool:
    """Whether any legal walk of exactly `steps` exists (stops at the first one)."""

    def step(cur: int, left: int, visited: int) -> bool:
        if left == 0:
            return True
        return any(
            not visited >> nxt & 1 and step(nxt, left - 1, visited | 1 << nxt)
            for nxt in NEIGHBOURS[cur]
        )

    return any(
        step(first, rest, blocked | 1 << first | _start_bit(start))
        for first, rest in _first_steps(blocked, start, steps)
    )


def exit_walks(blocked: int, start: int, steps: int) -> dict[int, Walk]:
    """Corners the burglar can leave through within `steps`, with one walk each.

    A walk of 1..steps fields ending on a free corner; the empty walk when standing on
    a corner already (leftover steps are ignored).
    """
    found: dict[int, Walk] = {}
    if start != OUTSIDE and is_corner(start):
        found[start] = ()
    for corner, each in _search(blocked, start, steps, exact=False).items():
        found.setdefault(corner, each[0])
    return found


_T = TypeVar("_T")


def exit_corner(start: _T, walk: Sequence[_T]) -> _T:
    """The corner a move that leaves the board leaves through: where its walk ends, or
    the field it starts on when the walk is empty (standing on a corner already)."""
    return walk[-1] if walk else start


def _start_bit(start: int) -> int:
    return 0 if start == OUTSIDE else 1 << start


def _first_steps(blocked: int, start: int, steps: int) -> Iterator[tuple[int, int]]:
    """(first field entered, steps left after it); from outside, a free corner."""
    if steps < 1:
        return
    options = CORNERS if start == OUTSIDE else NEIGHBOURS[start]
    for first in options:
        if not blocked >> first & 1:
            yield first, steps - 1


def walk_fault(
    blocked: int, start: int, path: Sequence[int], steps: int, exit: Exit | None = None
) -> tuple[Phrase, int | None] | None:
    """Why `path` is not a legal walk of the movement die, and the index in `path` of the
    first step that breaks it (None when no single step does); None when it is legal."""
    bad = _bad_step(blocked, start, path)
    at = bad[0] if bad is not None else (steps if len(path) > steps else None)
    if exit is None and len(path) != steps:
        return phrase(
            N_("the path has {steps}, but the movement die is {die}"),
            steps=_steps(len(path)),
            die=steps,
        ), at
    if exit is not None:
        if len(path) > steps:
            return phrase(
                N_("the path has {steps}, more than the movement die {die}"),
                steps=_steps(len(path)),
                die=steps,
            ), at
        if not path and not (start != OUTSIDE and is_corner(start)):
            return phrase(
                N_("an exit needs a path to a corner unless the burglar stands on one")
            ), None
    if bad is not None:
        return bad[1], bad[0]
    if exit is not None and path and not is_corner(path[-1]):
        return (
            phrase(
                N_("the path ends on {field}, but the burglar can only leave at a corner"),
                field=FIELD_AT[path[-1]],
            ),
            None,
        )
    return None


def _bad_step(blocked: int, start: int, path: Sequence[int]) -> tuple[int, Phrase] | None:
    """The first step of `path` that breaks the rules (its index and why), or None."""
    seen = _start_bit(start)
    prev = start
    for n, cur in enumerate(path, 1):
        name = FIELD_AT[cur]
        why = None
        if prev == OUTSIDE:
            if not is_corner(cur):
                why = phrase(
                    N_("step {n} enters the board at {field}, but it must enter at a corner"),
                    n=n,
                    field=name,
                )
        elif cur == prev:
            # A common slip: listing the start field. A path names the fields entered.
            why = phrase(
                N_(
                    "step {n} stays on {field}: a path lists the fields entered, not the field "
                    "the burglar starts on (leaving from the corner it stands on is an empty path)"
                ),
                n=n,
                field=name,
            )
        elif cur not in NEIGHBOURS[prev]:
            why = phrase(
                N_("step {n} jumps from {start} to {field}, which is not next to it"),
                n=n,
                start=FIELD_AT[prev],
                field=name,
            )
        if why is None and seen >> cur & 1:
            why = phrase(N_("step {n} enters {field} a second time in this move"), n=n, field=name)
        if why is None and blocked >> cur & 1:
            why = phrase(N_("step {n} enters {field}, which has an X or a circle"), n=n, field=name)
        if why is not None:
            return n - 1, why
        seen |= 1 << cur
        prev = cur
    return None


def has_move(blocked: int, start: int, steps: int, rules: Ruleset) -> bool:
    return any_walk(blocked, start, steps) or (
        rules.can_leave and bool(exit_walks(blocked, start, steps))
    )


def reach(state: State, cross: Cross, rules: Ruleset = STANDARD) -> Reach:
    """After crossing out `cross`: every field the movement die reaches (one walk each),
    and the corners the burglar could leave through (when the ruleset allows it), both in
    board order. The fields-and-walks view of `walks` and `exit_walks` for callers."""
    blocked = blocked_after(state, cross.field)
    ends = {
        FIELD_AT[end]: _fields(walk)
        for end, walk in sorted(walks(blocked, state.pos, cross.die).items())
    }
    corners: dict[Field, tuple[Field, ...]] = {}
    if rules.can_leave:
        corners = {
            FIELD_AT[c]: _fields(walk)
            for c, walk in sorted(exit_walks(blocked, state.pos, cross.die).items())
        }
    return Reach(ends, corners)


def leaves_move(state: State, cross: Cross, rules: Ruleset) -> bool:
    """Whether crossing out `cross` leaves the movement die a legal move (or exit)."""
    return has_move(blocked_after(state, cross.field), state.pos, cross.die, rules)


# --- applying actions ----------------------------------------------------------------


def legal_actions(state: State, dice: Dice, rules: Ruleset = STANDARD) -> list[Action]:
    """Every legal action for this roll, one per distinct outcome (one walk per end field)."""
    if state.over:
        return []
    crosses = available_crosses(state, dice)
    if not crosses:
        return [Reroll()]
    actions: list[Action] = []
    if state.rings_left > 0 and rules.rings:
        actions.append(RingReroll())
    for cross in crosses:
        blocked = blocked_after(state, cross.field)
        ends = walks(blocked, state.pos, cross.die)
        actions.extend(
            Play(cross.field, FIELD_AT[end], path=_fields(walk)) for end, walk in ends.items()
        )
        exits: dict[int, Walk] = (
            exit_walks(blocked, state.pos, cross.die) if rules.can_leave else {}
        )
        for kind in exit_kinds(rules):
            actions.extend(
                Play(cross.field, FIELD_AT[corner], exit=kind, path=_fields(walk))
                for corner, walk in exits.items()
            )
        if not ends and not exits:
            actions.append(Play(cross.field))
    return actions


def game_goes_on(state: State, dice: Dice, rules: Ruleset) -> bool:
    """Whether some available cross-out for this roll leaves a legal move (or, when the
    ruleset lets the burglar leave, an exit). No default ruleset: without its exits the
    answer is wrong under Escape! and In and Out!."""
    return any(leaves_move(state, c, rules) for c in available_crosses(state, dice))


def apply(state: State, dice: Dice, action: Action, rules: Ruleset = STANDARD) -> Turn:
    """Play one row of dice; raises IllegalAction when the action breaks the rules."""
    if state.over:
        assert state.end is not None
        raise IllegalAction(
            "E106", phrase(N_("the game is already over ({end})"), end=state.end.value)
        )
    crosses = available_crosses(state, dice)
    if isinstance(action, Reroll):
        if crosses:
            raise IllegalAction(
                "E201",
                phrase(N_("this roll is not a forced reroll: a field could be crossed out")),
                phrase(N_("available: {crosses}"), crosses=_crosses_text(crosses)),
            )
        return Turn(_pass(state, rules), action)
    if isinstance(action, RingReroll):
        return Turn(_ring(state, crosses, rules), action, crosses=crosses)
    return _play(state, dice, crosses, action, rules)


def _pass(state: State, rules: Ruleset) -> State:
    passed = replace(state, passes=state.passes + 1, passes_in_row=state.passes_in_row + 1)
    end = End.REROLLS if counted_passes(passed, rules) >= rules.pass_limit else None
    return replace(passed, end=end)


def counted_passes(state: State, rules: Ruleset = STANDARD) -> int:
    """The forced rerolls that count toward the ruleset's `pass_limit`: those in a row
    (a played round or a ring reroll resets them), or every one of the game."""
    return state.passes_in_row if rules.pass_counting == "in-a-row" else state.passes


def forced_rerolls(
    state: State, rows: Sequence[Dice], row: int, rules: Ruleset = STANDARD
) -> Iterator[Turn]:
    """The forced rerolls that play themselves from the dice row `rows[row]` (0-based) on:
    each row on which no field can be crossed out, until one can, the game ends or the
    rows run out (`apply_row`: the last row ends the game). The replay playing on after a
    record and the game being played both take them from here."""
    while not state.over and row < len(rows) and not available_crosses(state, rows[row]):
        turn = apply_row(state, rows, row, Reroll(), rules)
        yield turn
        state = turn.state
        row += 1


def _ring(state: State, crosses: tuple[Cross, ...], rules: Ruleset) -> State:
    if not rules.rings:
        raise IllegalAction(
            "E211",
            phrase(N_("a ring reroll needs The magic rings! expansion")),
            phrase(N_("choose a ruleset with rings")),
        )
    if state.rings_left <= 0:
        raise IllegalAction(
            "E212",
            phrase(N_("no magic ring is left to spend")),
            phrase(N_("play the roll instead")),
        )
    if not crosses:
        raise IllegalAction(
            "E213",
            phrase(N_("a ring cannot be spent on a forced reroll")),
            phrase(N_("record this row as a forced reroll")),
        )
    return replace(state, rings_left=state.rings_left - 1, passes_in_row=0)


def _play(
    state: State, dice: Dice, crosses: tuple[Cross, ...], action: Play, rules: Ruleset
) -> Turn:
    if not crosses:
        raise IllegalAction(
            "E204",
            phrase(
                N_("no field can be crossed out with {dice}: this row is a forced reroll"),
                dice=roll_text(dice),
            ),
            phrase(N_("record the row as a reroll")),
        )
    cross = next((c for c in crosses if c.field == action.cross), None)
    if cross is None:
        die = movement_die(dice, action.cross)
        options = Items(tuple(c.field for c in crosses))
        if die is None:
            raise IllegalAction(
                "E202",
                phrase(
                    N_("{field} is not a pair of the dice {dice}"),
                    field=action.cross,
                    dice=roll_text(dice),
                ),
                phrase(N_("available cross-outs: {fields}"), fields=options),
            )
        why = (
            phrase(N_("{field} cannot be crossed out: it is the field the burglar stands on"))
            if state.pos == action.cross.index
            else _MARKED[state.mark(action.cross)]  # not available: it has a mark
        )
        raise IllegalAction(
            "E203",
            Phrase(why.template, (("field", action.cross),)),
            phrase(N_("available: {crosses}"), crosses=options),
        )
    blocked = blocked_after(state, cross.field)
    # Step 3: the start field gets its X (it is already blocked by its circle).
    start = state.pos
    # States are built field by field here: `dataclasses.replace` is most of a round's cost.
    # The game is not over (`apply` refuses that), so neither state has an end.
    after = State(
        state.crossed | 1 << cross.field.index | _start_bit(start),
        state.circled,
        start,
        state.passes,
        0,
        state.rings_left,
    )
    if action.exit is not None:
        return _leave(after, blocked, cross, crosses, action, rules)
    if action.move is None:
        if has_move(blocked, start, cross.die, rules):
            ends = walks(blocked, start, cross.die)
            raise IllegalAction(
                "E207",
                phrase(
                    N_("the record makes no move, but the movement die {die} has a legal move"),
                    die=cross.die,
                ),
                phrase(N_("reachable: {fields}"), fields=_fields_text(ends))
                if ends
                else phrase(N_("an exit through a corner")),
            )
        if action.path is not None:
            # No walk exists, so any path given here is an illegal walk.
            walk = tuple(f.index for f in action.path)
            fault = walk_fault(blocked, start, walk, cross.die)
            raise IllegalAction(
                "E206",
                phrase(
                    N_(
                        "illegal path: with {field} crossed out, the movement die {die} "
                        "has no legal walk, so the round can have no path"
                    ),
                    field=cross.field,
                    die=cross.die,
                ),
                phrase(N_("leave out the path: the game ends with this cross-out")),
                _step_at(action.path, fault),
            )
        return Turn(replace(after, end=End.NO_MOVE), action, cross, crosses=crosses)
    target = action.move.index
    if action.path is not None:
        walk = tuple(f.index for f in action.path)
        fault = walk_fault(blocked, start, walk, cross.die)
        if fault is None and walk[-1:] != (target,):
            fault = (
                phrase(
                    N_("the path ends on {field}, not on the move {move}"),
                    field=FIELD_AT[walk[-1]],
                    move=action.move,
                ),
                None,
            )
        if fault is not None:
            raise IllegalAction(
                "E206",
                phrase(N_("illegal path: {fault}"), fault=fault[0]),
                _reach_hint(blocked, start, cross),
                _step_at(action.path, fault),
            )
    else:
        found = find_walk(blocked, start, target, cross.die)
        if found is None:
            raise IllegalAction(
                "E205",
                phrase(
                    # TRANSLATORS: {in_exactly} is "in exactly 2 steps".
                    N_("{field} cannot be reached {in_exactly}: {field} has an X or a circle")
                    if blocked >> target & 1
                    else N_("{field} cannot be reached {in_exactly}"),
                    field=action.move,
                    in_exactly=_in_exactly(cross.die),
                ),
                _reach_hint(blocked, start, cross),
            )
        walk = found
    moved = State(
        after.crossed,
        after.circled | 1 << target,
        target,
        after.passes,
        0,
        after.rings_left,
    )
    return Turn(moved, action, cross, walk, crosses=crosses)


def _leave(
    after: State,
    blocked: int,
    cross: Cross,
    crosses: tuple[Cross, ...],
    action: Play,
    rules: Ruleset,
) -> Turn:
    kind = action.exit
    allowed = rules.escape if kind == "escape" else rules.in_and_out
    if not allowed:
        expansion = "Escape!" if kind == "escape" else "In and Out!"
        raise IllegalAction(
            "E208",
            phrase(
                N_("leaving the board ({kind}) needs the {expansion} expansion"),
                kind=kind,
                expansion=expansion,
            ),
            phrase(N_("choose a ruleset that includes it, or record a move")),
        )
    start = after.pos
    if action.path is not None:
        walk = tuple(f.index for f in action.path)
        fault = walk_fault(blocked, start, walk, cross.die, exit=kind)
        corner = exit_corner(start, walk)
        if fault is None and action.move is not None and action.move.index != corner:
            fault = (
                phrase(
                    N_("the path leaves at {corner}, not at {move}"),
                    corner=FIELD_AT[corner],
                    move=action.move,
                ),
                None,
            )
        if fault is not None:
            raise IllegalAction(
                "E206",
                phrase(N_("illegal path: {fault}"), fault=fault[0]),
                _exit_hint(blocked, start, cross),
                _step_at(action.path, fault),
            )
    else:
        exits = exit_walks(blocked, start, cross.die)
        if action.move is None:
            if not exits:
                raise IllegalAction(
                    "E209",
                    phrase(
                        # TRANSLATORS: {within} is "within 2 steps".
                        N_("no free corner can be reached {within}"),
                        within=_within(cross.die),
                    ),
                    _reach_hint(blocked, start, cross),
                )
            corner = min(exits)
        else:
            corner = action.move.index
            if corner not in exits:
                raise IllegalAction(
                    "E209",
                    phrase(
                        N_("the burglar cannot leave through {corner} {within}"),
                        corner=action.move,
                        within=_within(cross.die),
                    ),
                    _exit_hint(blocked, start, cross),
                )
        walk = exits[corner]
    left = replace(after, end=End.ESCAPED) if kind == "escape" else replace(after, pos=OUTSIDE)
    return Turn(left, action, cross, walk, kind, corner, crosses)


def exhaust(state: State) -> State:
    """The dice file has no rows left: the game ends where it stands."""
    return state if state.over else replace(state, end=End.DICE_EXHAUSTED)


def apply_row(
    state: State, rows: Sequence[Dice], row: int, action: Action, rules: Ruleset = STANDARD
) -> Turn:
    """`apply` on the dice row `rows[row]` (0-based); the round on the file's last row ends
    the game there (its state is exhausted), as a replay, a game being played and a solved
    line all count it. Raises IllegalAction."""
    turn = apply(state, rows[row], action, rules)
    if row + 1 >= len(rows):
        return replace(turn, state=exhaust(turn.state))
    return turn


def score(state: State, rules: Ruleset = STANDARD) -> int:
    mask = state.circled if rules.scoring == "all-circles" else state.circled & state.crossed
    total = sum(VALUES[i] for i in bits(mask))
    if state.end is End.ESCAPED and rules.escape_bonus is not None:
        total += rules.escape_bonus
    return total


# --- hint text -----------------------------------------------------------------------


def _steps(n: int) -> Phrase:
    return plural(n, "{n} step", "{n} steps")


# Whole phrases, not "in exactly" + _steps: the count's case follows the preposition in
# some languages (German "in genau 2 Schritten", not "2 Schritte").
def _in_exactly(n: int) -> Phrase:
    return plural(n, "in exactly {n} step", "in exactly {n} steps")


def _within(n: int) -> Phrase:
    return plural(n, "within {n} step", "within {n} steps")


def _step_at(path: Sequence[Field], fault: tuple[Phrase, int | None] | None) -> Field | None:
    return path[fault[1]] if fault is not None and fault[1] is not None else None


def _fields(walk: Walk) -> tuple[Field, ...]:
    return tuple(FIELD_AT[i] for i in walk)


def _fields_text(ends: dict[int, Walk]) -> Items:
    return Items(
        tuple(phrase("{field} ({value})", field=FIELD_AT[i], value=VALUES[i]) for i in sorted(ends))
    )


def _crosses_text(crosses: Sequence[Cross]) -> Items:
    return Items(
        tuple(phrase(N_("{field} (moves {die})"), field=c.field, die=c.die) for c in crosses)
    )


def roll_text(dice: Sequence[int]) -> str:
    """A roll as people write it: `2 4 5`."""
    return " ".join(str(d) for d in dice)


_MARKED: dict[str, Phrase] = {
    "X": phrase(N_("{field} cannot be crossed out: it already has an X")),
    "O": phrase(N_("{field} cannot be crossed out: it already has a circle")),
    "XO": phrase(N_("{field} cannot be crossed out: it already has an X and a circle")),
}


def _reach_hint(blocked: int, start: int, cross: Cross) -> Phrase:
    ends = walks(blocked, start, cross.die)
    if not ends:
        return phrase(
            N_("with {field} crossed out, the movement die {die} has no legal move"),
            field=cross.field,
            die=cross.die,
        )
    return plural(
        cross.die,
        "with {field} crossed out, {n} step reaches: {fields}",
        "with {field} crossed out, {n} steps reach: {fields}",
        field=cross.field,
        fields=_fields_text(ends),
    )


def _exit_hint(blocked: int, start: int, cross: Cross) -> Phrase:
    exits = exit_walks(blocked, start, cross.die)
    if not exits:
        return phrase(N_("no corner can be left through {within}"), within=_within(cross.die))
    return phrase(
        N_("corners to leave through: {corners}"),
        corners=Items(tuple(FIELD_AT[c] for c in sorted(exits))),
    )


def exit_kinds(rules: Ruleset) -> tuple[Exit, ...]:
    """The ways the ruleset lets the burglar leave the board through a corner, in the
    order `legal_actions` offers them."""
    return tuple(
        kind for kind, on in zip(EXITS, (rules.escape, rules.in_and_out), strict=True) if on
    )
