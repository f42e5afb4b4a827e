"""Soundness of the solver's bounds where they decide: positions 6-14 dice rows from the
end of long files, where the free fields, the region and the dice rows (not the rows
left) limit the bound. Every position an exhaustive search reaches from them is checked:
the cheap bound (every row left counted), the bound that reads the dice rows
(`Game.live_rows`), and the bound a child gets from its parent's region and rows, each
at least the exact value; in Python and, in the slow step, compiled. A bound weakened by
lowering one field's value must fail the same check, so the check can fail."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from test_solver import RULESETS, random_rows
from tiers import sweep

from validator.engine import Dice, Ruleset, new_game
from validator.engine.board import FIELDS, VALUES
from validator.solver.position import FULL, PASS, Game
from validator.solver.search import Search, root_position

Position = tuple[int, int, int, int, int]
Bound = Callable[[Position], int]
"""A bound on the value (points still to gain) of a position."""

FILE_ROWS = 40


class _TooMany(Exception):
    pass


def exact_values(game: Game, root: Position, limit: int) -> dict[Position, int]:
    """The exact value of every position reachable from `root` (exhaustive, memoised, no
    pruning), on the compact model whose children test_solver.py checks against the
    engine; `_TooMany` past `limit` positions."""
    memo: dict[Position, int] = {}

    def best(position: Position) -> int:
        found = memo.get(position)
        if found is None:
            found = max(
                gain + (best(child) if child is not None and child[4] < game.n else 0)
                for _, gain, child in game.children(*position)
            )
            memo[position] = found
            if len(memo) > limit:
                raise _TooMany
        return found

    best(root)
    return memo


def near_the_end(
    rules: Ruleset, seed: int, count: int, rows_left: range
) -> Iterator[tuple[Game, Position]]:
    """`count` positions `rows_left` dice rows from the end: positions of strong (beam)
    and random games on files of FILE_ROWS rows, after at least four rounds and with at
    most 16 free fields, the file cut to end that many rows after the position."""
    rng = random.Random(f"{rules.name} {seed}")
    found = 0
    while found < count:
        rows = random_rows(rng, FILE_ROWS)
        game = Game(rows, rules)
        root = root_position(new_game(rules.max_rings), rules, 0)
        path: list[Position] = [root]
        if found % 2 == 0:
            _, line, _ = Search(rows, rules, core="python").beam(root, 0, 4)
            for code in line:
                child = game.child(*path[-1], code)
                if child is None:
                    break
                path.append(child)
        else:
            while True:
                _, _, child = rng.choice(game.children(*path[-1]))
                if child is None or child[4] >= game.n:
                    break
                path.append(child)
        # At most 16 free fields: the board, not the rows left, limits the bound, and
        # an exhaustive search stays small.
        alive = [p for p in path[4:] if FIELDS - p[0].bit_count() <= 16]
        if alive:
            position = rng.choice(alive)
            yield Game(rows[: position[4] + rng.choice(rows_left)], rules), position
            found += 1


def cheap(game: Game) -> Bound:
    return lambda p: game.estimate(game.reachable(p[0], p[1]), p[0], p[1], game.n - p[4])


def strong(game: Game) -> Bound:
    return lambda p: game.bound(p[0], p[1], p[2], p[4])


def unsound(game: Game, values: dict[Position, int], bounds: dict[str, Bound]) -> list[str]:
    """Every position (and bound) where a bound is below the exact value, plus the bound
    the search gives a child deep in the tree: the parent's region less the child's new
    fields, and the rows that can circle counted on the parent's fields."""
    found = []
    for position, value in values.items():
        for name, bound in bounds.items():
            if bound(position) < value:
                found.append(f"{name} {position}: {bound(position)} < {value}")
    for parent in values:
        taken, pos, pc, _, row = parent
        options = game.children(*parent)
        next_pc = pc + 1 if options[0][0] == PASS else (0 if game.in_a_row else pc)
        live = game.live_rows(taken, next_pc, row + 1)
        region = game.reachable(taken, pos)
        for _, _, child in options:
            if child is not None and child in values:
                deep = game.estimate(region & ~child[0], child[0], child[1], live)
                if deep < values[child]:
                    found.append(f"child {child}: {deep} < {values[child]}")
    return found


@functools.cache
def _cases(
    rules: Ruleset, count: int, rows_left: range, limit: int
) -> list[tuple[Game, dict[Position, int]]]:
    """`count` positions (as by `near_the_end`) with every position an exhaustive search
    reaches from them (at least 10, at most `limit`) and its exact value."""
    found: list[tuple[Game, dict[Position, int]]] = []
    for game, position in near_the_end(rules, 1, 20 * count, rows_left):
        try:
            values = exact_values(game, position, limit)
        except _TooMany:
            continue
        if len(values) >= 10:
            found.append((game, values))
            if len(found) == count:
                break
    assert len(found) == count
    return found


Cases = tuple[int, range, int]
PLAIN: Cases = (6, range(6, 11), 3_000)
"""The plain run's cases per ruleset: how many, rows to go, positions at most."""
SLOW: Cases = (8, range(6, 15), 150_000)


# Literal scoring's searches are the slowest: the plain step leaves them to the slow one.
@pytest.mark.parametrize(
    "rules", sweep(RULESETS, plain=lambda r: "literal" not in r.name, ids=lambda r: r.name)
)
def test_bounds_hold_near_the_end_of_long_files(rules: Ruleset) -> None:
    for game, values in _cases(rules, *PLAIN):
        assert unsound(game, values, {"cheap": cheap(game), "strong": strong(game)}) == []


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_bounds_hold_6_to_14_rows_from_the_end(rules: Ruleset) -> None:
    for game, values in _cases(rules, *SLOW):
        assert unsound(game, values, {"cheap": cheap(game), "strong": strong(game)}) == []


def weakened(field: int, by: int = 5) -> tuple[tuple[int, int], ...]:
    """The bound's value buckets with one field worth `by` points less."""
    values = list(VALUES)
    values[field] -= by
    return tuple(
        (v, sum(1 << i for i in range(FIELDS) if values[i] == v))
        for v in sorted(set(values), reverse=True)
    )


# Three fields (two corners worth 30, one worth 15) whose value lowered by 5 the plain
# cases (literal scoring's left out) catch in both bounds. Measured over all 36 fields, with
# literal scoring's cases: 19 caught by the plain cases,
# 23 by the slow ones; the others are never the one field that decides a tight bound
# among these positions, so a bound too low on them alone would pass.
WEAKENED_FIELDS = (5, 7, 30)


def caught_fields(
    fields: Sequence[int], cases: Cases, by: int, rulesets: Sequence[Ruleset] = RULESETS
) -> dict[str, set[int]]:
    """The fields whose weakening (worth `by` less) the check catches, per bound."""
    caught: dict[str, set[int]] = {"cheap": set(), "strong": set()}
    for rules in rulesets:
        for game, values in _cases(rules, *cases):
            for field in fields:
                weak = Game(game_rows(game), rules)
                weak.value_masks = weakened(field, by)
                for name, bound in (("cheap", cheap(weak)), ("strong", strong(weak))):
                    if field not in caught[name] and unsound(weak, values, {name: bound}):
                        caught[name].add(field)
    return caught


def test_a_bound_with_one_field_worth_less_fails_the_check() -> None:
    """On the plain step's cases (literal scoring's are the slow step's)."""
    want = set(WEAKENED_FIELDS)
    plain = [r for r in RULESETS if "literal" not in r.name]
    assert caught_fields(WEAKENED_FIELDS, PLAIN, 5, plain) == {"cheap": want, "strong": want}


@pytest.mark.slow
def test_most_fields_worth_less_fail_the_check_on_the_slow_cases() -> None:
    caught = caught_fields(range(FIELDS), SLOW, 5)
    assert len(caught["cheap"]) >= 20 and len(caught["strong"]) >= 20


def test_live_rows_counts_certain_passes_and_the_pass_limit() -> None:
    """A row whose candidates are all taken is a certain pass; passes up to the limit
    (three in a row under standard, three in all under bga) end the game, so the rows
    after them count nothing."""
    from validator.engine import BGA, STANDARD

    rows: list[Dice] = [(1, 1, 1), (1, 2, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1), (4, 5, 6)]
    in_a_row, in_total = Game(rows, STANDARD), Game(rows, BGA)
    assert (STANDARD.pass_limit, BGA.pass_limit) == (3, 3)
    one_one = 1 << 0  # field 1/1: the only candidate of (1, 1, 1)
    assert in_a_row.live_rows(0, 0, 0) == in_total.live_rows(0, 0, 0) == 6
    # 1/1 taken: pass, (1, 2, 3) plays, then three passes in a row end the game.
    assert in_a_row.live_rows(one_one, 0, 0) == 1
    assert in_a_row.live_rows(one_one, 2, 0) == 0  # the first pass is the third in a row
    assert in_a_row.live_rows(one_one, 0, 2) == 0
    # In total: pass (1), play, pass (2), pass (3): the end.
    assert in_total.live_rows(one_one, 0, 0) == 1
    assert in_total.live_rows(one_one, 0, 1) == 1
    assert in_total.live_rows(one_one, 1, 1) == 1
    assert in_total.live_rows(one_one, 1, 2) == 0
    # Only 6/6 free: no row has it as a candidate.
    assert in_a_row.live_rows(FULL & ~(1 << 35), 0, 0) == 0


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_both_cores_prove_the_exact_values_near_the_end(rules: Ruleset) -> None:
    """Proven values equal the exhaustive ones, with the pure-Python search and compiled,
    and the compiled bounds are the Python ones (so the check above holds for them)."""
    compiled = pytest.importorskip("validator.solver.core")
    for game, values in _cases(rules, *SLOW):
        root = min(values, key=lambda p: p[4])  # where the case starts
        core = compiled.Core(game, tt_limit=1 << 16, symmetry=True, exact_depth=6)
        bound, python = compiled_bound(compiled, core), strong(game)
        assert all(bound(p) == python(p) for p in values)
        for choice in ("python", "compiled"):
            search = Search(game_rows(game), rules, core=choice)
            best, upper, _ = search.run(root, 0, time_limit=None)
            assert best == upper == values[root], choice


def game_rows(game: Game) -> list[Dice]:
    return list(game.rows)


def test_solve_proves_the_exact_values_near_the_end() -> None:
    """The pure-Python search proves the exhaustive value from such positions."""
    for rules in RULESETS[:3]:
        for game, values in _cases(rules, *PLAIN):
            root = min(values, key=lambda p: p[4])
            search = Search(game_rows(game), rules, core="python")
            best, upper, _ = search.run(root, 0, time_limit=None)
            assert best == upper == values[root]


@pytest.mark.slow
@pytest.mark.parametrize("field", WEAKENED_FIELDS[:2])
def test_a_weakened_compiled_bound_fails_the_check(field: int) -> None:
    """The compiled bound reads its values from the core's arrays, so a weakened copy
    of them must fail the check too."""
    compiled = pytest.importorskip("validator.solver.core")
    np = pytest.importorskip("numpy")
    caught = False
    for rules in RULESETS:
        for game, values in _cases(rules, *PLAIN):
            core = compiled.Core(game, tt_limit=1 << 10, symmetry=True, exact_depth=6)
            core.VM = np.array(weakened(field), dtype=np.int64)

            caught |= bool(unsound(game, values, {"compiled": compiled_bound(compiled, core)}))
    assert caught


def compiled_bound(compiled: Any, core: Any) -> Bound:
    """The compiled core's bound of a position, with the core's own arrays."""
    in_and_out = int(core.game.in_and_out)

    def bound(p: Position) -> int:
        region = compiled.reachable(p[0], p[1], in_and_out)
        live = compiled.live_rows(p[0], p[2], p[4], core.P, core.RM)
        return int(compiled.estimate(region, p[0], p[1], live, core.P, core.VM))

    return bound
