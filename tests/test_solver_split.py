"""Issue 20, item 2: the search in several threads (`solve --jobs`). The root's choices
are shared among threads, each with its own table, that search at the same time and
exchange their games between rounds. It proves the same values as one thread; a budget
gives the same answer with either core however the threads ran; the clock stops every
thread at the same count, so that a budget repeats that answer too."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_solver import RULESETS, assert_replays
from test_solver_clock import answer, rows_of, slow_clock  # noqa: F401 (a fixture)

from validator.cli import main
from validator.cli.dice import dice_text
from validator.engine import STANDARD, Dice, Ruleset, new_game
from validator.solver import Solution, solve
from validator.solver import search as search_module
from validator.solver.search import CoreChoice


@pytest.fixture
def split_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """Split from the first round after the opening one (not only past a million
    positions), so that a short search splits."""
    monkeypatch.setattr(search_module, "SPLIT_NODES", 0)


def split(
    rows: tuple[Dice, ...],
    jobs: int,
    *,
    nodes: int | None = None,
    core: CoreChoice = "python",
    rules: Ruleset = STANDARD,
) -> Solution:
    return solve(rows, rules, new_game(rules.max_rings), 0, time_limit=None, nodes=nodes,
                 core=core, jobs=jobs)  # fmt: skip


# Short files from the first roll (ruleset, seed, rows, threads) that the opening round
# does not prove: 1,500-40,000 positions in one thread. The plain step's file is searched
# in three threads too in the slow step.
PLAIN_CASES = (("standard", 0, 10, 2),)
SLOW_CASES = (
    ("standard", 0, 10, 3),
    ("bga", 2, 11, 2),
    ("standard+rings=2", 2, 11, 2),
    ("literal", 0, 5, 2),
    ("literal+escape=5", 2, 5, 2),
    ("standard+in-and-out", 0, 11, 2),
    ("bga+rings=1+in-and-out", 0, 11, 2),
    ("standard+escape=40+rings=1+in-and-out", 1, 10, 2),
)
BY_NAME = {rules.name: rules for rules in RULESETS}


@pytest.mark.usefixtures("split_early")
@pytest.mark.parametrize(
    ("name", "seed", "length", "jobs"),
    [*PLAIN_CASES, *(pytest.param(*case, marks=pytest.mark.slow) for case in SLOW_CASES)],
)
def test_a_split_search_proves_what_one_thread_proves(
    name: str, seed: int, length: int, jobs: int
) -> None:
    """`jobs` threads prove the value one thread proves, with a game that replays to it."""
    rules = BY_NAME[name]
    rows = rows_of(f"split {name} {seed}", length)
    one = split(rows, 1, rules=rules)
    assert one.proven and one.jobs == 1
    many = split(rows, jobs, rules=rules)
    assert (many.best_score, many.upper_bound, many.proven) == (
        one.best_score, one.upper_bound, True,
    )  # fmt: skip
    assert many.jobs == jobs  # it did split
    assert_replays(rows, rules, new_game(rules.max_rings), 0, many.actions, one.best_score)
    # Cut by a budget within the split rounds: a game and a bound around the value (the
    # bounds a thread reached when its budget stopped it can prove it too).
    opening = search_module.OPENING_NODES
    cut = split(rows, jobs, rules=rules, nodes=opening + (many.nodes - opening) // 2)
    assert cut.jobs == jobs and cut.stopped == (None if cut.proven else "nodes")
    assert cut.best_score <= one.best_score <= cut.upper_bound
    assert_replays(rows, rules, new_game(rules.max_rings), 0, cut.actions, cut.best_score)


@pytest.fixture(scope="module")
def budgeted_twice() -> tuple[Solution, Solution]:
    """The same split search run twice with a budget of 10,000 positions (shared by the
    tests below, which only read them)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_module, "SPLIT_NODES", 0)
        rows = rows_of("split budget", 30)
        return split(rows, 2, nodes=10_000), split(rows, 2, nodes=10_000)


def test_a_budget_gives_a_split_search_the_same_answer_every_time(
    budgeted_twice: tuple[Solution, Solution],
) -> None:
    first, second = budgeted_twice
    assert first.stopped == "nodes" and first.jobs == 2
    assert answer(first) == answer(second) and first.nodes == second.nodes
    # Each thread gets its share of the budget: about as many positions as one thread.
    assert 10_000 < first.nodes < 10_000 + 2_000


def test_a_search_splits_only_past_a_million_positions() -> None:
    """The default: a search that ends sooner (as most mid-game ones do) runs in one
    thread whatever `jobs`, and gives the one-thread answer."""
    rows = rows_of("split budget", 30)
    assert search_module.SPLIT_NODES == 1 << 20
    one, two = split(rows, 1, nodes=3_000), split(rows, 2, nodes=3_000)
    assert two.jobs == 1 and answer(two) == answer(one) and two.nodes == one.nodes


@pytest.mark.usefixtures("split_early")
def test_the_clock_stops_every_thread_at_once_and_its_budget_repeats_the_answer(
    slow_clock: Callable[[float], None],  # noqa: F811 (the fixture)
) -> None:
    rows = rows_of("split clock", 30)
    slow_clock(10.0)
    # 0.3 s of real time: past the opening round and its beam (a few hundredths of a
    # second), so the clock stops a split round.
    for limit in (3.0,):
        timed = solve(rows, STANDARD, time_limit=limit, core="python", jobs=2)
        assert timed.stopped == "time" and timed.jobs == 2
        assert timed.repeat_nodes is not None
        again = split(rows, 2, nodes=timed.repeat_nodes)
        assert answer(again) == answer(timed), limit
        assert again.nodes == timed.nodes


@pytest.mark.usefixtures("split_early")
def test_threads_that_cannot_stop_together_name_no_budget(
    monkeypatch: pytest.MonkeyPatch,
    slow_clock: Callable[[float], None],  # noqa: F811
) -> None:
    """When a thread has run past the count all were told to stop at (a machine too
    busy: here, a margin below the furthest thread's count), no budget repeats the
    answer, and the search says so rather than name a wrong one."""
    monkeypatch.setattr(search_module, "PYTHON_STOP_MARGIN", -(1 << 30))
    rows = rows_of("split clock", 30)
    slow_clock(10.0)
    timed = solve(rows, STANDARD, time_limit=3.0, core="python", jobs=2)
    assert timed.stopped == "time" and timed.jobs == 2
    assert timed.repeat_nodes is None
    assert timed.best_score <= timed.upper_bound


@pytest.mark.usefixtures("split_early")
def test_a_split_that_memory_decided_says_so(budgeted_twice: tuple[Solution, Solution]) -> None:
    """With a table too small for its threads to take a copy of the search's (here 16KiB,
    in pure Python too: the rule is the same for both cores), the split depends on
    --memory, so the answer names it (`table_full`, `memory`)."""
    rows = rows_of("split budget", 30)
    small = solve(rows, STANDARD, time_limit=None, nodes=10_000, core="python", jobs=2,
                  memory=16 << 10)  # fmt: skip
    roomy = budgeted_twice[0]  # the same search, with the default table
    assert small.jobs == roomy.jobs == 2
    assert (small.table_full, small.memory) == (True, 16 << 10)
    assert not roomy.table_full and roomy.memory == search_module.default_table_bytes()


@pytest.mark.parametrize(
    ("stopped", "stopped_at", "nodes", "repeats"),
    [
        (True, 5_001, 5_003, True),  # stopped at its first position past the budget
        (False, None, 4_800, True),  # finished within it
        (True, 5_300, 5_302, False),  # told too late: it stopped past the budget
        (False, None, 5_200, False),  # finished past it: a budget would have stopped it
    ],
)
def test_a_budget_repeats_a_split_search_only_if_every_thread_kept_to_it(
    stopped: bool, stopped_at: int | None, nodes: int, repeats: bool
) -> None:
    search = search_module.Search(rows_of("split repeat", 10), STANDARD, core="python", jobs=2)
    search.split_start = 1_100
    fine, other = (
        search_module.Search(search.rows, STANDARD),
        search_module.Search(search.rows, STANDARD),
    )
    fine.stopped, fine.stopped_at, fine.nodes = True, 5_001, 5_002
    other.stopped, other.stopped_at, other.nodes = stopped, stopped_at, nodes
    search.workers = [fine, other]
    expected = 1_100 - 100 + 2 * 5_000 if repeats else None
    assert search.split_repeat(100, 5_000) == expected


@pytest.mark.usefixtures("split_early")
def test_solve_jobs_on_the_command_line(tmp_path: Path) -> None:
    dice = tmp_path / "dice.txt"
    dice.write_text(dice_text(10, "split standard 0"))  # PLAIN_CASES[0]: it splits
    runs = {
        jobs: CliRunner().invoke(main, ["solve", str(dice), *jobs, "--format", "json"])
        for jobs in (("--jobs", "1"), ())
    }
    one, default = (json.loads(run.stdout) for run in runs.values())
    # The default is two threads, on every machine; --jobs 1 is one.
    assert (one["jobs"], default["jobs"]) == (1, 2)
    assert one["best_score"] == default["best_score"] and one["proven"] and default["proven"]
    bad = CliRunner().invoke(main, ["solve", str(dice), "--jobs", "0"])
    assert bad.exit_code == 2 and "Invalid value for '--jobs'" in bad.stderr


@pytest.mark.slow  # two more searches; the plain step checks the default's 2 threads
@pytest.mark.usefixtures("split_early")
def test_solve_jobs_2_is_the_default_search(tmp_path: Path) -> None:
    """The repeat line names `--jobs 2`: given, it is the default's search exactly."""
    dice = tmp_path / "dice.txt"
    dice.write_text(dice_text(10, "split standard 0"))
    given, default = (
        json.loads(CliRunner().invoke(main, ["solve", str(dice), *jobs, "--format", "json"]).stdout)
        for jobs in (("--jobs", "2"), ())
    )
    del given["seconds"], default["seconds"]
    assert given == default and given["jobs"] == 2


# -- the compiled core (slow step: it loads numba) ------------------------------------------


@pytest.mark.slow
@pytest.mark.usefixtures("split_early")
@pytest.mark.parametrize("seed", ["split 0", "split 1"])
def test_both_cores_give_a_split_search_the_same_game_for_the_same_budget(seed: str) -> None:
    pytest.importorskip("numba")
    rows = rows_of(seed)
    python = split(rows, 2, nodes=60_000, core="python")
    compiled = split(rows, 2, nodes=60_000, core="compiled")
    auto = split(rows, 2, nodes=60_000, core="auto")
    assert answer(compiled) == answer(python) == answer(auto)
    assert compiled.nodes == python.nodes == auto.nodes
    assert compiled.jobs == python.jobs == 2


@pytest.mark.slow
def test_the_compiled_split_search_repeats_a_search_the_clock_stopped() -> None:
    """With the real threshold: past a million positions (a second or two compiled), both
    threads search at once, and the clock stops them at the same count."""
    pytest.importorskip("numba")
    rows = rows_of("split compiled clock", 50)
    split(rows, 2, nodes=1_000, core="compiled")  # loaded once
    repeated = 0
    for limit in (2.5, 4.0):
        timed = solve(rows, STANDARD, time_limit=limit, core="compiled", jobs=2)
        if timed.proven or timed.jobs == 1:
            continue
        repeated += 1
        assert timed.stopped == "time" and timed.repeat_nodes is not None
        again = split(rows, 2, nodes=timed.repeat_nodes, core="compiled")
        assert answer(again) == answer(timed) and again.nodes == timed.nodes, limit
    assert repeated  # a 50-row file from the start is not proven in seconds
