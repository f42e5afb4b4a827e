"""The solver's compact game model: a position as plain ints, its children, and its bound.

The engine's `State` is the truth and the solver's answers are replayed through it; this
module restates one round of the rules on bit sets only, because the search visits
millions of positions and cannot afford a dataclass per step. Tests check that both
agree on every legal action (tests/test_compact_model.py, on random positions). The
walks, the reachable region, the rows that can circle (`COMPACT_RULES`) and `children`
are written once for both searches: core.py compiles these very functions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

from validator.engine import OUTSIDE, Dice, Ruleset, candidates
from validator.engine.board import CORNER_MASK, CORNERS, FIELDS, NEIGHBOURS, SIZE, VALUES

FULL = (1 << FIELDS) - 1
NOWHERE = FIELDS
"""`pos` of a compact position off the board (before the first move, after a leave)."""

# Kinds of compact actions, one per kind of engine action.
PASS, RING, MOVE, STUCK, ESCAPE, LEAVE = range(6)

_COL_FIRST = sum(1 << (r * SIZE) for r in range(SIZE))
_COL_LAST = _COL_FIRST << (SIZE - 1)
_NOT_COL_FIRST = FULL & ~_COL_FIRST
_NOT_COL_LAST = FULL & ~_COL_LAST

# Fields by value, highest first: the bound takes the best free fields bucket by bucket.
VALUE_MASKS: tuple[tuple[int, int], ...] = tuple(
    (v, sum(1 << i for i in range(FIELDS) if VALUES[i] == v))
    for v in sorted(set(VALUES), reverse=True)
)

TRANSPOSE_FIELD: tuple[int, ...] = (
    *tuple(i % SIZE * SIZE + i // SIZE for i in range(FIELDS)),
    NOWHERE,
)

# transpose(mask) = OR of one table entry per board row.
_TRANSPOSE_ROW: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << TRANSPOSE_FIELD[r * SIZE + c] for c in range(SIZE) if bits >> c & 1)
        for bits in range(1 << SIZE)
    )
    for r in range(SIZE)
)


def transpose(mask: int) -> int:
    t = _TRANSPOSE_ROW
    return (
        t[0][mask & 63]
        | t[1][mask >> 6 & 63]
        | t[2][mask >> 12 & 63]
        | t[3][mask >> 18 & 63]
        | t[4][mask >> 24 & 63]
        | t[5][mask >> 30 & 63]
    )


def spread(mask: int) -> int:
    """The fields next to any field of `mask` (and `mask` itself)."""
    return (
        mask
        | (mask << SIZE)
        | (mask >> SIZE)
        | ((mask & ~_COL_LAST) << 1)
        | ((mask & ~_COL_FIRST) >> 1)
    ) & FULL


def _ball(start: int, steps: int) -> int:
    """Fields a walk of at most `steps` from `start` can touch."""
    seen = 1 << start
    if start == NOWHERE:  # the first step enters a corner
        seen, steps = CORNER_MASK, steps - 1
    for _ in range(max(steps, 0)):
        seen = spread(seen)
    return seen


BALL: tuple[tuple[int, ...], ...] = tuple(
    tuple(_ball(p, d) for d in range(7)) for p in range(FIELDS + 1)
)

# --- the compact rules that solver/core.py compiles ------------------------------------
# These functions are written once, for both searches: the pure-Python one calls them as
# they are, and core.py compiles these very functions with numba (`core.compact`), so
# they use only ints, `range` loops and the flat tables below (which the compiled code
# reads as arrays), and they call each other by their module names.

NEIGH_WIDTH = 4
NEIGH: tuple[int, ...] = tuple(
    n
    for p in range(FIELDS + 1)
    for options in ((NEIGHBOURS[p] if p < FIELDS else CORNERS),)
    for n in (*options, *[-1] * (NEIGH_WIDTH - len(options)))
)
"""The fields a step from each field reaches, `NEIGH_WIDTH` a field (-1 after the last),
and from NOWHERE the corners: a walk's first step enters through one."""
NCOUNT: tuple[int, ...] = tuple(
    len(NEIGHBOURS[p]) if p < FIELDS else len(CORNERS) for p in range(FIELDS + 1)
)


def _ends_from(cur: int, left: int, visited: int) -> int:
    if left == 0:
        return 1 << cur
    found = 0
    for k in range(NCOUNT[cur]):
        nxt = NEIGH[cur * NEIGH_WIDTH + k]
        if not (visited >> nxt) & 1:
            found |= _ends_from(nxt, left - 1, visited | (1 << nxt))
    return found


def walk_ends(blocked: int, pos: int, steps: int) -> int:
    """Bit set of the end fields of every legal walk of exactly `steps` (engine `walks`)."""
    start_bit = 0 if pos == NOWHERE else 1 << pos
    found = 0
    for k in range(NCOUNT[pos]):
        first = NEIGH[pos * NEIGH_WIDTH + k]
        if not (blocked >> first) & 1:
            found |= _ends_from(first, steps - 1, blocked | start_bit | (1 << first))
    return found


def _exit_from(cur: int, left: int, visited: int) -> bool:
    if (CORNER_MASK >> cur) & 1:
        return True
    if left == 0:
        return False
    for k in range(NCOUNT[cur]):
        nxt = NEIGH[cur * NEIGH_WIDTH + k]
        if not (visited >> nxt) & 1 and _exit_from(nxt, left - 1, visited | (1 << nxt)):
            return True
    return False


def can_exit(blocked: int, pos: int, steps: int) -> bool:
    """Whether a walk of at most `steps` reaches a free corner (engine `exit_walks`)."""
    if pos != NOWHERE and (CORNER_MASK >> pos) & 1:
        return True
    start_bit = 0 if pos == NOWHERE else 1 << pos
    for k in range(NCOUNT[pos]):
        first = NEIGH[pos * NEIGH_WIDTH + k]
        if not (blocked >> first) & 1 and _exit_from(
            first, steps - 1, blocked | start_bit | (1 << first)
        ):
            return True
    return False


def reachable(taken: int, pos: int, in_and_out: bool) -> int:
    """Free fields the burglar could still enter in some future move: the free region
    around its field, or around the free corners when it is off the board (and, under
    In and Out!, when it can leave and come back in)."""
    # Locals, not globals: this loop is the pure-Python search's hottest code.
    not_last, not_first = _NOT_COL_LAST, _NOT_COL_FIRST
    free = ~taken & FULL
    if pos == NOWHERE:
        seed = CORNER_MASK & free
    else:
        p = 1 << pos
        near = p | (p << SIZE) | (p >> SIZE) | ((p & not_last) << 1) | ((p & not_first) >> 1)
        seed = near & free
        if in_and_out:
            seed |= CORNER_MASK & free
    region = seed
    while True:
        grown = (
            region
            | (region << SIZE)
            | (region >> SIZE)
            | ((region & not_last) << 1)
            | ((region & not_first) >> 1)
        ) & free
        if grown == region:
            return region
        region = grown


popcount = int.bit_count
"""The fields of a bit set (compiled: core.py's own popcount)."""


def count_live_rows(
    taken: int,
    pc: int,
    row: int,
    n: int,
    in_a_row: bool,
    pass_limit: int,
    read_dice: bool,
    row_masks: Sequence[int],
) -> int:
    """`Game.live_rows` of a game of `n` rows whose rows' candidates are `row_masks`."""
    free = ~taken & FULL
    cap = (popcount(free) >> 1) + 1
    if not read_dice:
        return min(n - row, cap)
    count = 0
    passes = pc
    for r in range(row, n):
        if row_masks[r] & free:
            count += 1
            if count >= cap:
                return cap
            if in_a_row:
                passes = 0
        else:
            passes += 1
            if passes >= pass_limit:
                break
    return count


WALK_CACHE = 1_000_000
"""The most walks `ends_of` and `exits_of` remember (then they start again)."""
_T = TypeVar("_T")
_ENDS: dict[int, int] = {}
_EXITS: dict[int, bool] = {}
"""The walks' ends and exits, by the board near the walk, its start and its length: the
board's geometry only, the same for every dice file and ruleset, so every `Game` of the
process (a search per position, or per test) shares them. A thread's lookups and
stores are single dict operations, which the GIL makes whole."""


def _remembered(
    walk: Callable[[int, int, int], _T], cache: dict[int, _T]
) -> Callable[[int, int, int], _T]:
    """`walk` remembered in `cache` (compiled: `walk` itself, which is cheaper there)."""

    def remembered(blocked: int, pos: int, steps: int) -> _T:
        key = ((blocked & BALL[pos][steps]) << 9) | (pos << 3) | steps
        found = cache.get(key)
        if found is None:
            found = walk(blocked, pos, steps)
            if len(cache) > WALK_CACHE:
                cache.clear()
            cache[key] = found
        return found

    return remembered


ends_of = _remembered(walk_ends, _ENDS)
exits_of = _remembered(can_exit, _EXITS)


# The game's parameters, one sequence `P` (a tuple here, an int64 array in the core); the
# last three are the compiled search's own.
P_N, P_LITERAL, P_IN_A_ROW, P_PASS_LIMIT, P_ESCAPE, P_IN_AND_OUT, P_CAN_LEAVE = range(7)
P_EXACT_DEPTH, P_SYMMETRY, P_READ_DICE, P_SIZE = range(7, 11)
MAX_CROSSES = 6
"""Cross-out candidates of a dice row at most (a cross die and a movement die of three)."""
FIELD_VALUE: tuple[int, ...] = (*VALUES, 0)
"""Each field's value, and 0 for NOWHERE."""

Child = tuple[int, int, "tuple[int, int, int, int, int] | None"]
"""(action code, gain, the position after it or None when the game ends there)."""


def put_child(
    out: list[Child],
    count: int,
    code: int,
    gain: int,
    taken: int,
    pos: int,
    pc: int,
    rings: int,
    row: int,
    end: bool,
) -> int:
    """Add one child to `out`; returns how many it holds. (Compiled, core.py's `put_child`
    writes it into a row of the search's work array instead.)"""
    out.append((code, gain, None if end else (taken, pos, pc, rings, row + 1)))
    return count + 1


def children(
    taken: int,
    pos: int,
    pc: int,
    rings: int,
    row: int,
    P: Sequence[int],
    CF: Sequence[int],
    CD: Sequence[int],
    CC: Sequence[int],
    out: list[Child],
) -> int:
    """Every distinct outcome of the dice row `row` (whose candidates are `CF`, `CD` from
    `row * MAX_CROSSES` on, `CC[row]` of them) into `out`: (action code, gain, position
    after it, or the end of the game: a pass at the limit, an escape, a stuck cross-out,
    the last row). Returns how many."""
    last = row + 1 >= P[P_N]
    reset = 0 if P[P_IN_A_ROW] else pc
    first = row * MAX_CROSSES
    free = 0
    for j in range(CC[row]):
        if not taken >> CF[first + j] & 1:
            free += 1
    if free == 0:
        passes = pc + 1
        end = passes >= P[P_PASS_LIMIT] or last
        return put_child(out, 0, PASS, 0, taken, pos, passes, rings, row, end)
    count = 0
    if rings > 0:
        count = put_child(out, count, RING, 0, taken, pos, reset, rings - 1, row, last)
    literal = P[P_LITERAL]
    leave_gain = FIELD_VALUE[pos] if literal else 0
    for j in range(CC[row]):
        f = CF[first + j]
        if taken >> f & 1:
            continue
        steps = CD[first + j]
        blocked = taken | 1 << f
        ends = ends_of(blocked, pos, steps)
        moves = ends
        cross_code = f * 37
        while ends:
            low = ends & -ends
            e = popcount(low - 1)
            ends ^= low
            gain = leave_gain if literal else FIELD_VALUE[e]
            code = MOVE * 1369 + cross_code + e
            count = put_child(out, count, code, gain, blocked | low, e, reset, rings, row, last)
        if P[P_CAN_LEAVE] and exits_of(blocked, pos, steps):
            if P[P_ESCAPE] >= 0:
                code = ESCAPE * 1369 + cross_code + NOWHERE
                gain = leave_gain + P[P_ESCAPE]
                count = put_child(out, count, code, gain, blocked, NOWHERE, reset, rings, row, True)
            if P[P_IN_AND_OUT]:
                code = LEAVE * 1369 + cross_code + NOWHERE
                count = put_child(
                    out, count, code, leave_gain, blocked, NOWHERE, reset, rings, row, last
                )
        elif not moves:
            code = STUCK * 1369 + cross_code + NOWHERE
            count = put_child(out, count, code, leave_gain, blocked, pos, reset, rings, row, True)
    return count


def best_fields(region: int, left: int, VM: Sequence[Sequence[int]]) -> int:
    """The sum of the `left` highest values of the fields of `region`, the fields' values
    `VM` bucket by bucket, highest first (`VALUE_MASKS`)."""
    total = 0
    if left > 0:
        for i in range(len(VM)):
            count = popcount(region & VM[i][1])
            if count >= left:
                total += VM[i][0] * left
                break
            total += VM[i][0] * count
            left -= count
    return total


_BEST: dict[int, int] = {}
"""`best_fields` of `VALUE_MASKS`, by region and count."""


def best_fields_of(region: int, left: int, VM: Sequence[Sequence[int]]) -> int:
    """`best_fields`, remembered for the true values (compiled: `best_fields` itself)."""
    if VM is not VALUE_MASKS:
        return best_fields(region, left, VM)
    key = region << 5 | left
    total = _BEST.get(key)
    if total is None:
        total = best_fields(region, left, VM)
        if len(_BEST) > WALK_CACHE:
            _BEST.clear()
        _BEST[key] = total
    return total


def estimate(
    region: int, taken: int, pos: int, rows: int, P: Sequence[int], VM: Sequence[Sequence[int]]
) -> int:
    """The bound for a position given `region`, any superset of its reachable fields,
    and `rows`, at least the dice rows left that can circle (`Game.live_rows`, or all).

    Each future circle is a distinct free field in the region the burglar can still
    reach, at most one per such row, and each circling move also crosses out a free
    field, so there are at most (free fields) // 2 of them. The best such fields
    bound the circles; literal scoring may add the current field (it scores when the
    burglar leaves it). A game that escapes spends a row and a cross-out on the
    escape, so it has one circle fewer to count, and it needs a free corner (or the
    burglar on a corner): the bound takes the better of the two cases.
    """
    free = FIELDS - popcount(taken)
    total = best_fields_of(region, min(rows, free >> 1), VM)
    escape = P[P_ESCAPE]
    if escape >= 0 and (region & CORNER_MASK or (pos != NOWHERE and CORNER_MASK >> pos & 1)):
        total = max(total, escape + best_fields_of(region, min(rows - 1, (free - 1) >> 1), VM))
    if P[P_LITERAL]:
        total += FIELD_VALUE[pos]
    return total


COMPACT_RULES = (_ends_from, walk_ends, _exit_from, can_exit, reachable, count_live_rows)
"""The functions above that core.py compiles as they are, callees first. `children`,
`best_fields`, `estimate`, `transpose` and `transpose_code` it compiles too, their
`ends_of`, `exits_of`, `best_fields_of` and `put_child` being the compiled walks, the
compiled `best_fields` and core.py's writer into the work array."""


class Game:
    """The rules of one dice file and ruleset, on compact positions.

    A position is (taken, pos, pc, rings, row): taken fields (X or circle), the burglar's
    field (NOWHERE off the board), the pass count that can end the game (passes in a row
    or in total, as the ruleset counts them), magic rings left, and the next dice row.
    Gains are what an action adds to the final score, so the value of a position is
    independent of how it was reached: under all-circles scoring a move gains its
    field; under literal scoring a field gains when the burglar leaves it (step 3 gives
    it the X that makes it score).
    """

    def __init__(self, rows: Sequence[Dice], rules: Ruleset) -> None:
        self.rows = tuple(rows)
        self.n = len(rows)
        self.rules = rules
        self.literal = rules.scoring == "crossed-circles"
        self.in_a_row = rules.pass_counting == "in-a-row"
        self.pass_limit = rules.pass_limit
        self.escape_bonus = rules.escape_bonus
        self.in_and_out = rules.in_and_out
        self.can_leave = rules.can_leave
        self.grain = math.gcd(*VALUES, rules.escape_bonus or 0)
        """Every total is a multiple of this (the fields' values and the escape bonus)."""
        P = [0] * P_SIZE
        P[P_N], P[P_LITERAL], P[P_IN_A_ROW] = self.n, self.literal, self.in_a_row
        P[P_PASS_LIMIT], P[P_IN_AND_OUT], P[P_CAN_LEAVE] = (
            self.pass_limit, self.in_and_out, self.can_leave
        )  # fmt: skip
        P[P_ESCAPE] = -1 if rules.escape_bonus is None else rules.escape_bonus
        self.P = tuple(P)
        """The parameters `children` reads (the core sets its search's own)."""
        self.crosses = tuple(tuple((c.field.index, c.die) for c in candidates(d)) for d in rows)
        """Each row's cross-out candidates: (field, movement die) each."""
        crosses = self.crosses
        padded = [(*row, *[(0, 0)] * (MAX_CROSSES - len(row))) for row in crosses]
        self.CF = tuple(f for row in padded for f, _ in row)
        self.CD = tuple(d for row in padded for _, d in row)
        """Each row's cross-out candidates, field and movement die, `MAX_CROSSES` a row."""
        self.CC = tuple(len(row) for row in crosses)
        self.row_masks = tuple(sum(1 << f for f, _ in row) for row in crosses)
        self.read_dice = True
        """Whether `live_rows` reads the dice rows (else it counts every row left, the
        bound before it did: for benchmarks that compare the two)."""
        self.value_masks = VALUE_MASKS
        """The bound's field values, bucket by bucket (a test may weaken them, to show that
        the soundness tests catch a bound that is too low)."""

    def children(self, taken: int, pos: int, pc: int, rings: int, row: int) -> list[Child]:
        """Every distinct outcome of the row (`children`)."""
        out: list[Child] = []
        children(taken, pos, pc, rings, row, self.P, self.CF, self.CD, self.CC, out)
        return out

    def child(
        self, taken: int, pos: int, pc: int, rings: int, row: int, code: int
    ) -> tuple[int, int, int, int, int] | None:
        """The position after the action `code`, or None when it ends the game."""
        for option, _, child in self.children(taken, pos, pc, rings, row):
            if option == code:
                return child
        raise ValueError(f"action code {code} is not legal here")

    # --- the bound -----------------------------------------------------------------

    def reachable(self, taken: int, pos: int) -> int:
        """Free fields the burglar could still enter in some future move."""
        return reachable(taken, pos, self.in_and_out)

    def bound(self, taken: int, pos: int, pc: int, row: int) -> int:
        """A sound upper bound on what the rest of the game can add to the score."""
        return self.estimate(self.reachable(taken, pos), taken, pos, self.live_rows(taken, pc, row))

    def live_rows(self, taken: int, pc: int, row: int) -> int:
        """How many of the dice rows from `row` on can still make a circle, capped where
        the cap no longer changes the bound (`free // 2 + 1`).

        A circling row crosses out one of its candidates, so it needs a free one; fields
        only become taken, so a row none of whose candidates is free now is a certain
        pass (a forced reroll) whatever happens. Passes end the game at the pass limit:
        counted in a row, a run of certain passes as long as the limit (the first run
        adds to the passes already made); counted in total, the passes made plus the
        certain ones. Rows after that end count nothing. Every other row is counted as
        one that plays (and, in a row, resets the count): more rows than the game can
        really circle in, never fewer.
        """
        return count_live_rows(
            taken, pc, row, self.n, self.in_a_row, self.pass_limit, self.read_dice, self.row_masks
        )

    def estimate(self, region: int, taken: int, pos: int, rows: int) -> int:
        """`estimate` under this game's rules."""
        return estimate(region, taken, pos, rows, self.P, self.value_masks)


def decode(code: int) -> tuple[int, int, int]:
    """(kind, cross field, target field) of an action code; NOWHERE where none."""
    if code < 1369:
        return code, NOWHERE, NOWHERE
    kind, rest = divmod(code, 1369)
    cross, target = divmod(rest, 37)
    return kind, cross, target


def transpose_code(code: int) -> int:
    """The action code of the transposed action (compiled in core.py too)."""
    if code < 1369:  # a pass or a ring
        return code
    kind, rest = code // 1369, code % 1369
    return kind * 1369 + TRANSPOSE_FIELD[rest // 37] * 37 + TRANSPOSE_FIELD[rest % 37]


def table_key(
    taken: int, pos: int, pc: int, rings: int, row: int, pass_limit: int, symmetry: bool
) -> tuple[int, bool]:
    """A position's key in the transposition tables, the same for the position and its
    transpose under `symmetry` (the board, the values and the cross-out candidates (a,
    b), (b, a) are all symmetric), and whether the key is the transposed one (compiled
    in core.py too, whose keys are these plus one)."""
    rest = ((row * pass_limit + pc) * 4 + rings) << 42
    plain = taken | pos << 36
    if symmetry:
        flipped = transpose(taken) | TRANSPOSE_FIELD[pos] << 36
        if flipped < plain:
            return rest | flipped, True
    return rest | plain, False


def compact_pos(pos: int) -> int:
    return NOWHERE if pos == OUTSIDE else pos
