"""The compiled core (numba) against the pure-Python search it restates: the same
children, walks, bounds and keys on random positions, the same values on longer
searches, a table handed over mid-search, and stopping with a sound bound."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from test_solver import RULESETS, assert_replays, random_rows

from validator.engine import LITERAL, STANDARD, Dice, Ruleset, new_game, score
from validator.solver import solve
from validator.solver.playout import random_game
from validator.solver.position import NOWHERE, Game, can_exit, walk_ends
from validator.solver.search import Search, root_position, to_actions

if TYPE_CHECKING:
    from validator.solver.core import Core

# The core and numpy come with the extra road300[fast]; without it these tests skip.
np = pytest.importorskip("numpy")
compiled = pytest.importorskip("validator.solver.core")

# Every test here runs compiled code: numba's compilation (several seconds of CPU per
# process on a cold cache) belongs to the slow step.
pytestmark = pytest.mark.slow


def _positions(
    rules: Ruleset, seed: int, games: int = 12
) -> tuple[list[Dice], list[tuple[int, int, int, int, int]]]:
    rng = random.Random(seed)
    rows = random_rows(rng, 40)
    found = []
    for _ in range(games):
        steps = random_game(rows, rules, rng, rings=rules.max_rings)
        for k, step in enumerate(steps[:-1]):
            if not step.state.over and k + 1 < len(rows):
                found.append(root_position(step.state, rules, k + 1))
    found.append(root_position(new_game(rules.max_rings), rules, 0))
    return rows, found


def _core(game: Game, **options: int) -> Core:
    core: Core = compiled.Core(
        game,
        tt_limit=options.get("tt_limit", 1 << 16),
        symmetry=bool(options.get("symmetry", 1)),
        exact_depth=6,
    )
    return core


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_children_and_bounds_equal_the_pure_python_model(rules: Ruleset) -> None:
    rows, positions = _positions(rules, 21, games=30)
    game = Game(rows, rules)
    core = _core(game)
    out = np.zeros((compiled.MAX_CHILDREN, compiled.W_COLUMNS), dtype=np.int64)
    search = Search(rows, rules, core="python")
    assert len(positions) > 60
    for taken, pos, pc, rings, row in positions:
        count = compiled.children(
            taken, pos, pc, rings, row, core.P, core.CF, core.CD, core.CC, out
        )
        found = set()
        for i in range(count):
            ends = bool(out[i, compiled.W_END])
            child = (
                None
                if ends
                else (
                    int(out[i, compiled.W_TAKEN]),
                    int(out[i, compiled.W_POS]),
                    int(out[i, compiled.W_PC]),
                    int(out[i, compiled.W_RINGS]),
                    row + 1,
                )
            )
            found.add((int(out[i, compiled.W_CODE]), int(out[i, compiled.W_GAIN]), child))
        expected = {
            (code, gain, None if child is None or child[4] >= game.n else child)
            for code, gain, child in game.children(taken, pos, pc, rings, row)
        }
        assert found == expected
        region = compiled.reachable(taken, pos, int(game.in_and_out))
        assert region == game.reachable(taken, pos)
        live = compiled.live_rows(taken, pc, row, core.P, core.RM)
        assert live == game.live_rows(taken, pc, row)
        bound = compiled.estimate(region, taken, pos, live, core.P, core.VM)
        assert bound == game.bound(taken, pos, pc, row)
        cheap = compiled.estimate(region, taken, pos, game.n - row, core.P, core.VM)
        assert cheap == game.estimate(region, taken, pos, game.n - row) >= bound
        assert (
            core.key((taken, pos, pc, rings, row)) == search.key(taken, pos, pc, rings, row)[0] + 1
        )


def test_the_compact_model_is_compiled_from_the_pure_python_model() -> None:
    """Written once: the compiled walks, region and children run position.py's own code."""
    from validator.solver import position

    for function in (*position.COMPACT_RULES, position.children):
        twin = getattr(compiled, function.__name__)
        assert twin.py_func.__code__ is function.__code__
    taken = 0b111 << 6 | 1  # row 2's first three fields and 1/1
    for pos, in_and_out in ((7, False), (7, True), (NOWHERE, False)):
        assert compiled.reachable(taken, pos, in_and_out) == position.reachable(
            taken, pos, in_and_out
        )


def test_the_cores_code_is_dropped_when_the_compact_rules_change(tmp_path: Path) -> None:
    cache = tmp_path / "__pycache__"
    compiled.forget_stale_code(cache, b"rules, first form")
    names = (
        "core.dfs-1.py311.nbi",
        "core.dfs-1.py311.1.nbc",
        "position.walk_ends-9.nbi",
        "position.children-290.py311.nbi",
    )
    for name in names:
        (cache / name).write_text("machine code")
    compiled.forget_stale_code(cache, b"rules, first form")  # unchanged: all kept
    assert len(list(cache.glob("*.nb?"))) == 4
    compiled.forget_stale_code(cache, b"rules, second form")
    assert sorted(p.name for p in cache.glob("*.nb?")) == ["position.walk_ends-9.nbi"]


def test_walks_equal_the_pure_python_model() -> None:
    rng = random.Random(4)
    for _ in range(2000):
        blocked = rng.getrandbits(36) & rng.getrandbits(36)
        pos = rng.choice([NOWHERE, *range(36)])
        if pos != NOWHERE:
            blocked |= 1 << pos
        steps = rng.randint(1, 6)
        assert compiled.walk_ends(blocked, pos, steps) == walk_ends(blocked, pos, steps)
        assert compiled.can_exit(blocked, pos, steps) == can_exit(blocked, pos, steps)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_longer_searches_give_the_same_values(rules: Ruleset) -> None:
    """Searches too long for the exhaustive check: both cores agree on the proven value,
    with and without the transpose symmetry."""
    rng = random.Random(rules.name + " longer")
    for _ in range(3):
        rows = random_rows(rng, 9)
        steps = random_game(rows, rules, rng, rings=rules.max_rings)
        k = min(len(steps) - 1, 3)
        state = steps[k - 1].state if k > 0 else new_game(rules.max_rings)
        if state.over:
            continue
        python = solve(rows, rules, state, k, time_limit=None, core="python")
        fast = solve(rows, rules, state, k, time_limit=None, core="compiled")
        assert python.proven and fast.proven
        assert fast.best_score == python.best_score
        assert_replays(rows, rules, state, k, fast.actions, fast.best_score)
        root = root_position(state, rules, k)
        plain = Search(rows, rules, symmetry=False, core="compiled")
        assert plain.run(root, score(state, rules), time_limit=None)[:2] == (
            python.best_score,
            python.best_score,
        )


def test_a_table_handed_over_mid_search_keeps_the_answer() -> None:
    """ "auto" starts in Python and hands its table to the core: stop the Python search
    early, hand over, finish compiled; the answer is the pure-Python one."""
    rows = random_rows(random.Random(8), 10)
    root = root_position(new_game(), STANDARD, 0)
    exact = Search(rows, STANDARD, core="python").run(root, 0, time_limit=None)
    search = Search(rows, STANDARD, core="python")
    search.deadline = 0.0  # stops at the first check, after 1,023 positions
    search.started = 0.0
    search.best_total = -1
    search.dfs(*root, 0, 10_000)
    search.deadline = None
    python_entries = len(search.tt)
    assert python_entries > 100
    # As "auto" does once numba's cache is warm (here: whatever the cache holds).
    search.core_choice = "compiled"
    search.core = search.compiled()
    assert search.core is not None and search.tt == {}
    assert search.core.S[compiled.S_TT_COUNT] == python_entries
    answer = search.run(root, 0, time_limit=None)
    assert answer[:2] == exact[:2]


def test_a_full_table_keeps_its_size_and_still_answers() -> None:
    rows = random_rows(random.Random(9), 9)
    root = root_position(new_game(), STANDARD, 0)
    exact = Search(rows, STANDARD, core="python").run(root, 0, time_limit=None)
    small = Search(rows, STANDARD, tt_limit=500, core="compiled")
    best, upper, line = small.run(root, 0, time_limit=None)
    assert (best, upper) == exact[:2]
    # The line is read from exact entries, which are never overwritten.
    assert_replays(
        rows, STANDARD, new_game(), 0, to_actions(rows, STANDARD, new_game(), 0, line)[0], best
    )
    assert small.core is not None and small.core.S[compiled.S_TT_COUNT] <= 500


def test_time_limit_and_cancel_stop_the_compiled_search() -> None:
    rows = random_rows(random.Random(5), 50)
    solution = solve(rows, STANDARD, time_limit=1.0, core="compiled")
    assert solution.seconds < 5
    assert solution.best_score <= solution.upper_bound
    assert_replays(rows, STANDARD, new_game(), 0, solution.actions, solution.best_score)
    cancel = threading.Event()
    timer = threading.Timer(0.7, cancel.set)
    timer.start()
    stopped = solve(rows, STANDARD, time_limit=None, cancel=cancel, core="compiled")
    timer.join()
    assert stopped.seconds < 5
    assert stopped.best_score <= stopped.upper_bound
    assert_replays(rows, STANDARD, new_game(), 0, stopped.actions, stopped.best_score)


def test_long_files_and_many_passes_stay_within_the_core_arrays() -> None:
    """numba does not check bounds: the deepest search and the longest line must fit the
    arrays sized from the pass limit (here: a house rule of 12 passes in a row, and a
    300-row file where most rows repeat a few dice, so passes are common)."""
    rng = random.Random(12)
    rules = Ruleset(pass_limit=12)
    rows = random_rows(rng, 300, faces=(1, 1, 1, 2, 6))
    solution = solve(rows, rules, time_limit=1.0, core="compiled")
    assert solution.best_score <= solution.upper_bound
    assert_replays(rows, rules, new_game(), 0, solution.actions, solution.best_score)
    search = Search(rows, rules, core="compiled")
    search.core = search.compiled()
    assert search.core is not None
    total, line, _ = search.core.beam(root_position(new_game(), rules, 0), 0, 1 << 14)
    assert len(line) <= search.core.plies
    assert_replays(
        rows, rules, new_game(), 0, to_actions(rows, rules, new_game(), 0, line)[0], total
    )


@pytest.mark.slow
def test_the_warm_up_fills_numbas_cache_in_another_process() -> None:
    """What "auto" runs when the cache is cold: `python -m validator.solver.core`."""
    compiled.Warmup.process = None
    deadline = time.monotonic() + 300
    while compiled.Warmup.state() == "running":
        assert time.monotonic() < deadline, "the warm-up did not finish in 5 minutes"
        time.sleep(0.2)
    assert compiled.Warmup.state() == "done"
    assert compiled.cache_ready()


def test_a_tiny_table_reused_for_many_positions_gives_readable_best_lines() -> None:
    """As analyze does: one search, many positions, here with a table far too small, so
    that it is full and overwrites. Every answer's line replays to its score, and the
    values equal the pure-Python ones (a found review case: lines read from exact entries
    whose best child had not been stored)."""
    rng = random.Random(16)
    rows = random_rows(rng, 16)
    rules = LITERAL
    steps = random_game(rows, rules, rng)
    search = Search(rows, rules, tt_limit=64, core="compiled")
    for k in range(len(steps) - 1, 0, -1):
        state = steps[k - 1].state
        if state.over or len(rows) - k > 7:  # the pure-Python reference stays quick
            continue
        root = root_position(state, rules, k)
        base = score(state, rules)
        best, upper, line = search.run(root, base, time_limit=None)
        assert to_actions(rows, rules, state, k, line)[1] == best
        reference = Search(rows, rules, core="python").run(root, base, time_limit=None)
        assert (best, upper) == reference[:2]


def test_a_search_that_fills_a_small_memory_says_so_and_the_same_memory_repeats_it() -> None:
    """`memory` caps the compiled table; a search that fills it says so (`table_full`),
    and the same budget with the same memory gives the same answer."""
    rows = random_rows(random.Random(31), 40)
    tiny = 1 << 14  # 1,024 slots: 768 entries
    first = solve(rows, STANDARD, time_limit=None, nodes=40_000, core="compiled", memory=tiny)
    assert first.table_full and first.memory == tiny
    again = solve(rows, STANDARD, time_limit=None, nodes=40_000, core="compiled", memory=tiny)
    assert (again.best_score, again.upper_bound, again.actions, again.nodes) == (
        first.best_score,
        first.upper_bound,
        first.actions,
        first.nodes,
    )
    roomy = solve(rows, STANDARD, time_limit=None, nodes=40_000, core="compiled")
    assert not roomy.table_full


def test_a_table_the_machine_cannot_grow_stays_as_it_is_and_fills(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When numpy cannot give the table more memory, the search goes on in the table it
    has, and says that it filled (its size, not --memory, decided)."""
    rows = random_rows(random.Random(31), 40)
    real_zeros = np.zeros

    def zeros(shape: int, dtype: object = float) -> object:
        if isinstance(shape, int) and shape > 1 << 15:  # the first table has 1 << 15
            raise MemoryError
        return real_zeros(shape, dtype=dtype)

    monkeypatch.setattr(compiled.np, "zeros", zeros)
    s = solve(rows, STANDARD, time_limit=None, nodes=200_000, core="compiled")
    assert s.table_full and s.memory == (1 << 15) * 16
    assert_replays(rows, STANDARD, new_game(), 0, s.actions, s.best_score)
