"""Issue 20, item 5: answers that do not depend on the clock. The search's schedule (its
rounds, the beam games between them, the switch to the compiled core) counts positions,
so a node budget gives the same game and value however slow the machine; a search the
clock stopped says so and names the budget that repeats its answer."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from validator.cli import main
from validator.cli.dice import dice_text
from validator.engine import STANDARD, Dice, new_game
from validator.records.dice import parse_dice
from validator.solver import Solution, solve
from validator.solver import search as search_module
from validator.solver.position import Game
from validator.solver.search import PROBE_NODES, CoreChoice, root_position, to_actions

BUDGET = 2 * PROBE_NODES + 5_000
"""Three rounds of search (the last one cut by the budget)."""


def rows_of(seed: str, n: int = 30) -> tuple[Dice, ...]:
    return parse_dice(dice_text(n, seed).encode(), "dice.txt").rows


@pytest.fixture
def slow_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[float], None]]:
    """Make the clock (`time.monotonic`, which the search reads) run `factor` times
    faster than the real one, as on a machine that many times slower."""
    real = time.monotonic

    def set_factor(factor: float) -> None:
        start = real()
        monkeypatch.setattr(time, "monotonic", lambda: start + (real() - start) * factor)

    yield set_factor


def slowed_children(monkeypatch: pytest.MonkeyPatch, every: int, pause: float) -> None:
    """Make the pure-Python search itself slower: a pause every `every` expansions."""
    real = Game.children
    calls = [0]

    def children(self: Game, *position: int) -> Any:
        calls[0] += 1
        if calls[0] % every == 0:
            time.sleep(pause)
        return real(self, *position)

    monkeypatch.setattr(Game, "children", children)


def answer(s: Solution) -> tuple[int, int, bool, tuple[object, ...]]:
    return s.best_score, s.upper_bound, s.proven, s.actions


def budgeted(rows: tuple[Dice, ...], core: CoreChoice, nodes: int = BUDGET) -> Solution:
    return solve(rows, STANDARD, new_game(), 0, time_limit=None, nodes=nodes, core=core)


@pytest.mark.slow  # two searches of 21,500 positions, one slowed (8 s); the plain step
# repeats budgets through the command line and after a time limit
def test_a_node_budget_gives_the_same_game_on_a_slow_machine(
    monkeypatch: pytest.MonkeyPatch, slow_clock: Callable[[float], None]
) -> None:
    """The same budget, once at full speed and once with the clock running 40 times
    faster and the search itself slowed down: the same game, bound and node count.
    (Before the schedule counted positions, its rounds and beams were timed, and the
    slowed runs searched fewer positions before their first beam.)"""
    rows = rows_of("clock 0")
    # A quicker schedule (4 rounds in 21,500 positions, a beam weighed as 4 times less),
    # so that a wider beam game runs between rounds within a short test.
    monkeypatch.setattr(search_module, "PROBE_NODES", 4096)
    monkeypatch.setattr(search_module, "WEIGHED_PER_NODE", 4 * search_module.WEIGHED_PER_NODE)
    widths: list[int] = []
    beam = search_module.Search.beam

    def counted(self: search_module.Search, *args: object) -> object:
        widths.append(args[2])  # type: ignore[arg-type]
        return beam(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(search_module.Search, "beam", counted)
    quick = budgeted(rows, "python", nodes=21_500)
    assert quick.stopped == "nodes" and not quick.proven  # the schedule mattered
    assert widths == [64, 256], widths  # the opening beam and one between rounds
    assert 21_500 < quick.nodes < 22_500  # the positions unwinding past the budget
    slow_clock(40.0)
    slowed_children(monkeypatch, every=500, pause=0.002)
    slow = budgeted(rows, "python", nodes=21_500)
    assert answer(slow) == answer(quick)
    assert (slow.nodes, slow.stopped) == (quick.nodes, "nodes")


def test_a_search_the_clock_stopped_says_so_and_its_budget_repeats_it(
    slow_clock: Callable[[float], None],
) -> None:
    """Wherever the time limit stops the search (here at the first check after the opening
    beam, and within the first round after it, on a clock running 20 times fast: 0.025 s
    and 0.15 s), `repeat_nodes` as a budget gives the same answer."""
    rows = rows_of("clock 1")
    slow_clock(20.0)
    for limit in (0.5, 3.0):
        timed = solve(rows, STANDARD, time_limit=limit, core="python")
        assert timed.stopped == "time" and timed.repeat_nodes is not None
        again = budgeted(rows, "python", nodes=timed.repeat_nodes)
        assert answer(again) == answer(timed), limit
        assert again.stopped == "nodes" and again.repeat_nodes is None
        assert again.nodes == timed.nodes, limit  # stopped at the same position


def test_a_proven_answer_says_nothing_stopped_it() -> None:
    rows = rows_of("clock 2", 4)
    s = solve(rows, STANDARD, time_limit=None, nodes=10**9, core="python")
    assert s.proven and s.stopped is None and s.repeat_nodes is None


def test_solve_nodes_on_the_command_line_is_reproducible_and_says_what_stopped_it(
    tmp_path: Path,
) -> None:
    dice = tmp_path / "dice.txt"
    dice.write_text(dice_text(30, "clock cli"))
    runs = [
        CliRunner().invoke(main, ["solve", str(dice), "--nodes", "5000", "--format", "json"])
        for _ in range(2)
    ]
    first, second = (json.loads(r.stdout) for r in runs)
    assert runs[0].exit_code == 0
    assert first["stopped"] == "nodes" and first["repeat_nodes"] is None
    del first["seconds"], second["seconds"]
    assert first == second
    # (The text of a budget stop is read by the progress test below.)


def test_solve_stopped_by_the_time_limit_names_the_budget_that_repeats_it(tmp_path: Path) -> None:
    dice = tmp_path / "dice.txt"
    dice.write_text(dice_text(30, "clock cli"))
    timed = CliRunner().invoke(
        main, ["solve", str(dice), "--time-limit", "0.15", "--format", "json"]
    )
    data = json.loads(timed.stdout)
    assert data["stopped"] == "time" and not data["proven"]
    repeat = data["repeat_nodes"]
    # The words of any stop by the clock: the shortest limit (the opening round's beam
    # still runs to its end).
    text = CliRunner().invoke(main, ["solve", str(dice), "--time-limit", "0.01"])
    assert "not proven within the time limit" in text.stdout
    assert "stopped by the clock, so this answer depends on the machine's speed" in text.stdout
    again = CliRunner().invoke(
        main, ["solve", str(dice), "--nodes", str(repeat), "--format", "json"]
    )
    same = json.loads(again.stdout)
    assert same["stopped"] == "nodes"
    for key in ("best_score", "upper_bound", "proven", "record"):
        assert same[key] == data[key], key


def test_solve_progress_shows_best_bound_round_settled_choices_and_speed(tmp_path: Path) -> None:
    dice = tmp_path / "dice.txt"
    dice.write_text(dice_text(30, "clock cli"))
    result = CliRunner().invoke(main, ["solve", str(dice), "--nodes", "5000", "--progress"])
    lines = [line for line in result.stderr.splitlines() if line.startswith("best ")]
    assert lines, result.stderr
    last = lines[-1]
    for part in (" bound ", " round ", " first choices", " positions ", "/s "):
        assert part in last, last
    quiet = CliRunner().invoke(main, ["solve", str(dice), "--nodes", "2000"])
    assert not [line for line in quiet.stderr.splitlines() if line.startswith("best ")]
    # A search the budget stopped says so, and not that the clock did.
    assert "not proven within the --nodes budget" in quiet.stdout
    assert "stopped by the clock" not in quiet.stdout


# -- the compiled core (slow step: it loads numba) ------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("seed", ["clock 0", "clock 3"])
def test_both_cores_and_auto_give_the_same_game_for_the_same_budget(seed: str) -> None:
    pytest.importorskip("numba")
    rows = rows_of(seed)
    python = budgeted(rows, "python", nodes=60_000)
    compiled = budgeted(rows, "compiled", nodes=60_000)
    auto = budgeted(rows, "auto", nodes=60_000)
    assert answer(compiled) == answer(python) == answer(auto)
    assert compiled.nodes == python.nodes == auto.nodes


@pytest.mark.slow
def test_the_compiled_core_repeats_a_search_the_clock_stopped() -> None:
    pytest.importorskip("numba")
    rows = rows_of("clock 4")
    budgeted(rows, "compiled", nodes=1_000)  # loaded once, so that the limits below search
    repeated = 0
    for limit in (0.8, 1.6, 3.2):
        timed = solve(rows, STANDARD, time_limit=limit, core="compiled")
        if timed.proven:
            continue
        repeated += 1
        assert timed.stopped == "time" and timed.repeat_nodes is not None
        again = budgeted(rows, "compiled", nodes=timed.repeat_nodes)
        assert answer(again) == answer(timed), limit
        # And the pure-Python core, with the same budget, plays the same game.
        if timed.repeat_nodes <= 60_000:
            assert answer(budgeted(rows, "python", nodes=timed.repeat_nodes)) == answer(timed)
    assert repeated  # a 30-row file from the start is not proven in seconds


@pytest.mark.slow
def test_a_large_budget_gives_the_same_game_under_load() -> None:
    """Two compiled runs of 2 million positions, one with a busy thread competing for the
    CPU: the same game and bound."""
    pytest.importorskip("numba")
    import threading

    rows = rows_of("clock 5", 60)
    quiet = budgeted(rows, "compiled", nodes=2_000_000)
    stop = threading.Event()

    def busy() -> None:
        x = 0
        while not stop.is_set():
            x += 1

    worker = threading.Thread(target=busy, daemon=True)
    worker.start()
    try:
        loaded = budgeted(rows, "compiled", nodes=2_000_000)
    finally:
        stop.set()
        worker.join()
    assert answer(loaded) == answer(quiet) and loaded.nodes == quiet.nodes


def test_a_time_limit_shorter_than_the_opening_round_still_gets_the_beams_game(
    slow_clock: Callable[[float], None],
) -> None:
    """The opening beam game runs to its end whatever the clock (a hint's share of its
    round is a fraction of a second): a search the clock stopped in its opening round
    scores at least what that beam alone scores, and its budget repeats it."""
    rows = rows_of("clock 3", 40)
    search = search_module.Search(rows, STANDARD, core="python")
    beam, _, _ = search.beam(root_position(new_game(), STANDARD, 0), 0, search_module.BEAM_WIDTH)
    slow_clock(1000.0)  # the time limit passes within the first positions
    timed = solve(rows, STANDARD, time_limit=0.5, core="python")
    assert timed.stopped == "time"
    assert timed.repeat_nodes is not None and timed.repeat_nodes < search_module.OPENING_NODES
    assert timed.best_score >= beam
    assert answer(budgeted(rows, "python", nodes=timed.repeat_nodes)) == answer(timed)


class _CancelledLater(threading.Event):
    """A cancel that is not set the first `after` times it is asked, and set after."""

    def __init__(self, after: int) -> None:
        super().__init__()
        self.after = after

    def is_set(self) -> bool:
        self.after -= 1
        return self.after < 0


def test_ctrl_c_in_the_opening_beam_names_no_budget() -> None:
    """The clock stops the opening round, then Ctrl-C cuts the pure-Python opening beam: no
    budget gives that answer (every budget runs the whole beam), so none is named."""
    rows = rows_of("clock 3", 40)
    timed = solve(rows, STANDARD, time_limit=0.0, cancel=_CancelledLater(1), core="python")
    assert timed.stopped == "time" and timed.repeat_nodes is None
    assert timed.best_score >= 0 and timed.actions


def test_ctrl_c_before_the_first_game_still_gives_a_game() -> None:
    """A search reused from position to position (as `analyze` does) counts on, so its
    clock and cancel check can come at its very first position: cancelled there, before
    any game, one greedy game is the answer, below the bound, and no budget is named."""
    rows = rows_of("clock 4", 40)
    search = search_module.Search(rows, STANDARD, core="python")
    search.nodes = 1023  # the next position is a check of the clock and of cancel
    cancel = threading.Event()
    cancel.set()
    start = new_game()
    best, upper, line = search.run(
        root_position(start, STANDARD, 0), 0, time_limit=None, cancel=cancel
    )
    assert search.stop_reason == "cancel" and search.repeat_nodes is None
    assert 0 < best <= upper and len(line) > 1
    _, final = to_actions(rows, STANDARD, start, 0, line)  # the engine plays it to `best`
    assert final == best
