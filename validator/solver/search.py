"""The anytime search for the best game on known dice: a short first round of search and,
unless it proved the position, a beam game, then a depth-first branch and bound with a
transposition table, answering with the best game found and a sound upper bound. Pure:
no I/O (the compiled core's first compilation, in another process, is `core.Warmup`'s)."""

from __future__ import annotations

import importlib.util
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from validator.engine import (
    FIELD_AT,
    Action,
    Dice,
    Play,
    Reroll,
    RingReroll,
    Ruleset,
    State,
    apply_row,
    blocked_after,
    counted_passes,
    exhaust,
    exit_walks,
    movement_die,
    new_game,
    score,
    walks,
)
from validator.solver.position import (
    ESCAPE,
    LEAVE,
    MOVE,
    NOWHERE,
    PASS,
    RING,
    STUCK,
    Game,
    compact_pos,
    decode,
    table_key,
    transpose_code,
)

if TYPE_CHECKING:
    from validator.solver.core import Core

Position = tuple[int, int, int, int, int]
"""(taken, pos, pc, rings, row); see `Game`."""

TT_LIMIT = 3_000_000
"""Transposition-table entries the pure-Python search keeps at most (about 100 bytes
each); past it, no new ones."""

TABLE_BYTES = 512 << 20
"""The compiled core's table at its largest by default (512 MiB: 16 bytes a slot, at
most 3/4 of the slots used, so about 25 million entries), or a quarter of the machine's
memory where that is less (`default_table_bytes`); `solve(memory=...)` and `solve
--memory` choose another. It starts small and grows with the search (`Core.reserve`),
whatever the time limit, and keeps every entry until it is full, so its size changes
the answer only of a search that fills it (`Solution.table_full`). Once full, upper
bounds are overwritten; exact values stay."""

ENTRY_BYTES = 16
"""One slot of the compiled table: an int64 key and an int64 entry."""


def physical_memory() -> int | None:
    """The machine's memory in bytes, where the system says (not on Windows)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def default_table_bytes() -> int:
    """`TABLE_BYTES`, or a quarter of the machine's memory where that is less (at least
    16 MiB)."""
    physical = physical_memory()
    if physical is None:
        return TABLE_BYTES
    return min(TABLE_BYTES, max(physical // 4, 1 << 24))


MIN_TABLE_BYTES = 1 << 14
"""The smallest compiled table: 1,024 slots."""


def table_entries(memory: int) -> int:
    """The entries a compiled table of at most `memory` bytes holds: the largest power
    of two of slots that fits, at most 3/4 of them used."""
    slots = 1 << max(10, (max(memory, 1) // ENTRY_BYTES).bit_length() - 1)
    return slots * 3 // 4


OPENING_NODES = 1_024
"""The opening round of the search, before the opening beam game: most positions of an
analysis (a few rows from the end of a file) are proven in it, where the beam of width
64 alone would weigh thousands of positions (see docs/solver.md)."""

AIM_GRAINS = 5
"""An aimed round (`Search.aimed_round`) runs only when the bound is more than this many
grains (`Game.grain`: 5 points, unless an escape bonus is not a multiple of 5) above the
best game: closer, a round aimed halfway costs nearly as much as the one that proves
the best game. Chosen on the eight positions after 2-3 rounds of
`benchmarks/bench_solve.py` with a first version that aimed every round (and kept no
game found below its aim): positions to prove them all, 76.5 million without aimed
rounds, 93.0, 89.7 and 96.3 million aiming above 3, 5 and 7 grains."""

PROBE_NODES = 16_384
"""The first round of the search (0.15-0.5 s in pure Python), before any wider beam game
and the compiled core (whose loading costs 0.6-1 s a process). Measured on the whole
`road300 solve --from` runs after 6-8 rounds of benchmarks/bench_solve.py (cli): median
0.93 s with 16,384, 1.38 s with 4,096, 1.77 s with 1,024 (in one process, where the core
loads once, smaller is faster: median 0.07 s with 1,024, 0.16-0.17 s with 4,096-16,384);
each further round may search as many positions again as all rounds before it. The
schedule counts positions, never seconds, so it is the same on every machine."""

BEAM_SHARE = 1 / 3
"""A wider beam game runs between rounds of search when its expected size is at most
this share of the search so far (see docs/solver.md)."""

WEIGHED_PER_NODE = 3
"""What a search position costs in beam positions weighed, to compare the two: measured
on 50-row files from the start, a beam weighs 2 (pure Python: 15-21 us each, against
about 30 us a search position) to 3-4 (compiled: 0.3-0.7 us against 1.4-1.9 us)."""

StopReason = Literal["time", "nodes", "cancel"]
"""What stopped a search before it finished: the time limit, the node budget, or
cancel (Ctrl-C)."""

EXACT_DEPTH = 6
"""Down to this many plies below the root, children get their own (tighter) bound."""

BEAM_WIDTH = 64
"""Width of the opening beam game, which gives the search a strong game when the opening
round did not prove the position."""

MAX_BEAM_WIDTH = 16_384
"""The widest beam game (the compiled one at this width takes about 0.7 s and 150 MB on a
60-row file)."""

JOBS = 1
"""Threads a `Search` (and `solve`) searches in by default; `road300 solve --jobs`
and `batch --par` have their own (`validator.cli.common.SEARCH_JOBS`)."""

SPLIT_NODES = 1 << 20
"""A search with more than one job splits from the first round whose budget is over
this many positions: before, every position is searched in one thread (most positions
are proven by then, and a split of a small search costs more positions than it saves:
the threads do not see each other's games until the round ends)."""

STOP_MARGIN = 1 << 16
"""How many positions past the furthest thread every thread of a split search may still
search when the clock or cancel stops it, so that all stop at the same count: about
0.05 s of the compiled core. The pure-Python threads take turns under one lock (the
GIL), a few hundred positions a turn, so they get `PYTHON_STOP_MARGIN` (a few hundredths
of a second)."""

PYTHON_STOP_MARGIN = 1 << 12

Option = tuple[int, int, "Position | None"]
"""One of a position's choices: (action code, gain, child or None when the game ends)."""

CoreChoice = Literal["auto", "python", "compiled"]
"""Which search runs: "python" only the pure-Python one; "compiled" the compiled core
(numba) from the start; "auto" the pure-Python one for its first round (most positions
are proven in it, without the cost of loading numba), then the compiled core when numba
imports, else Python on."""

CORE_ENV = "ROAD300_SOLVER_CORE"
"""The environment variable that can keep "auto" in pure Python: `ROAD300_SOLVER_CORE=python`
(the plain test run sets it, so that no test process loads or compiles numba)."""

FAST_CORE_NOTE = (
    "the compiled solver core is not installed, so the search runs in pure Python "
    "(10 to 20 times slower on long searches); installing the extra makes it faster: "
    "pip install 'road300[fast]', or pip install '.[fast]' in a clone"
)


def fast_core_installed() -> bool:
    """Whether numba and numpy, the compiled core's extra (`road300[fast]`), are installed
    (without importing them)."""
    try:
        return all(importlib.util.find_spec(name) is not None for name in ("numba", "numpy"))
    except (ImportError, ValueError):  # a module set to None, a broken spec
        return False


_fast_core_noted = False


def fast_core_note() -> str | None:
    """`FAST_CORE_NOTE` when the compiled core is not installed, the first time it is asked
    for in this process; None otherwise (the commands that search say it once)."""
    global _fast_core_noted
    if _fast_core_noted or fast_core_installed():
        return None
    _fast_core_noted = True
    return FAST_CORE_NOTE


@dataclass(frozen=True, slots=True)
class Solution:
    best_score: int
    """The best final score found, counting what the starting state already scored."""
    upper_bound: int
    """Sound: no continuation scores more."""
    proven: bool
    """best_score == upper_bound."""
    actions: tuple[Action, ...]
    """The best continuation: one engine action per dice row from `row` to the end."""
    nodes: int
    seconds: float
    stopped: StopReason | None = None
    """What stopped the search before it finished, or None when it finished (and so
    proved `best_score`). Only "time" and "cancel" depend on the clock: with a node
    budget and no time limit, the answer is the same on every machine and core."""
    repeat_nodes: int | None = None
    """When the clock or cancel stopped the search: the node budget (`nodes=`, with no
    time limit) that gives this very answer on any machine."""
    memory: int = 0
    """The compiled table's size at its largest, in bytes (`Search.table_memory`; 0 when
    the compiled core did not search)."""
    table_full: bool = False
    """Whether the compiled table filled up: then the same budget gives this answer only
    with the same `memory` (a search that never fills it does not depend on it)."""
    jobs: int = 1
    """The threads that searched (1 when the search never split, `SPLIT_NODES`): the
    same budget gives this answer with the same `jobs`."""


@dataclass(frozen=True, slots=True)
class Progress:
    best_score: int
    upper_bound: int
    nodes: int
    seconds: float
    round: int = 0
    """The round of the search under way (1 is the first: the opening round of 1,024
    positions; the next searches 16,384, each later one at most doubles them)."""
    settled: int = 0
    """How many of the root's choices the current round has settled (searched to their
    value or cut off below the best game)."""
    choices: int = 0
    """How many choices the root has."""
    aim: int | None = None
    """The total the round under way aims above, when it is an aimed round (its settled
    choices are those cut off below the aim)."""


def root_position(state: State, rules: Ruleset, row: int) -> Position:
    pc = counted_passes(state, rules)
    return (state.crossed | state.circled, compact_pos(state.pos), pc, state.rings_left, row)


class Search:
    """One search over a dice file; reusable for many positions of it (analysis)."""

    def __init__(
        self,
        rows: Sequence[Dice],
        rules: Ruleset,
        *,
        tt_limit: int | None = None,
        symmetry: bool = True,
        core: CoreChoice = "auto",
        memory: int | None = None,
        jobs: int = JOBS,
    ) -> None:
        self.game = Game(rows, rules)
        self.rows = tuple(rows)
        self.rules = rules
        self.tt: dict[int, int] = {}
        self.tt_limit = tt_limit
        self.tt_cap = TT_LIMIT if tt_limit is None else tt_limit
        """The pure-Python table's limit (a split search's threads share it)."""
        self.memory = default_table_bytes() if memory is None else memory
        """The compiled table's size at its largest, in bytes (`TABLE_BYTES`)."""
        self.symmetry = symmetry
        self.exact_depth = EXACT_DEPTH
        self.nodes = 0
        # Per-run state, set by run().
        self.best_total = 0
        self.best_line: list[int] = []
        self.path: list[int] = []
        self.deadline: float | None = None
        self.cancel: threading.Event | None = None
        self.progress: Callable[[Progress], None] | None = None
        self.started = 0.0
        self.next_report = 0.0
        self.stopped = False
        self.stop_reason: StopReason | None = None
        self.stopped_at: int | None = None
        """The count of `nodes` at which the search of the last round saw it must stop."""
        self.repeat_nodes: int | None = None
        """When the clock or cancel stopped the last run: the node budget with which
        the run gives the same answer without them (see `run`)."""
        self.node_limit: float = math.inf
        """The current round stops at the first position past this count of `nodes`."""
        self.node_budget: int | None = None
        self.round = 0
        self.settled = 0
        self.choices = 0
        self.root_upper = 0
        self.proven_upper = 0
        """The lowest bound on the root's total that a round of the run has proven."""
        self.aim = -1
        """The total the round under way aims above (`aimed_round`): it cuts what
        cannot beat this, nor the best game (-1: the best game only)."""
        if core == "auto" and os.environ.get(CORE_ENV) == "python":
            core = "python"
        self.core_choice: CoreChoice = core
        self.core: Core | None = None
        self.jobs = jobs
        """Threads the search from the root splits into (`split_round`)."""
        self.workers: list[Search] = []
        """The split search's threads, each a search of its share of the root's choices
        (`shares`) with its own table; empty before the split (and with one job)."""
        self.shares: list[list[Option]] = []
        self.split_start = 0
        """`nodes` when the split began: the threads' budgets count from there."""
        self.split_full = False
        """Whether the split depended on the table's size: this search's table was full,
        or the threads' share of it too small for a copy (`start_split`)."""
        self.limit_lock = threading.Lock()
        """Guards `node_limit` and the count of a compiled search under way, which the
        thread that runs a split search reads and lowers while this one searches."""
        self.core_before: int | None = None
        """The compiled core's `nodes` when its search under way began (None: none is)."""

    def compiled(self) -> Core | None:
        """The compiled core, with this search's table so far. Under "auto": None while
        numba compiles it in another process (the first time), and from then on when
        numba does not import or the dice file is too long for the core's keys."""
        try:
            from validator.solver.core import Core, Warmup, cache_ready, fits
        except Exception:  # numba missing or broken (ImportError, OSError from llvmlite)
            if self.core_choice == "compiled":
                raise
            self.core_choice = "python"
            return None
        if not fits(self.game):
            if self.core_choice == "compiled":
                raise ValueError("the dice file is too long for the compiled core")
            self.core_choice = "python"
            return None
        if self.core_choice == "auto" and not cache_ready():
            state = Warmup.state()
            if state == "failed":
                self.core_choice = "python"
            if state != "done":
                return None
        core = Core(
            self.game,
            tt_limit=table_entries(self.memory) if self.tt_limit is None else self.tt_limit,
            symmetry=self.symmetry,
            exact_depth=self.exact_depth,
        )
        core.load(self.tt)
        self.tt = {}
        return core

    # --- keys and the table --------------------------------------------------------

    def key(self, taken: int, pos: int, pc: int, rings: int, row: int) -> tuple[int, bool]:
        """The table key and whether it is the transposed one (`position.table_key`)."""
        return table_key(taken, pos, pc, rings, row, self.game.pass_limit, self.symmetry)

    @property
    def table_memory(self) -> int:
        """The compiled table's size at its largest, in bytes: `memory` (rounded down to
        a power of two), or less when the machine could not give the table more
        (`Core.reserve`); 0 when the search never used the compiled core."""
        if self.workers:
            # A split search: the memory it was given, which its threads share (their
            # tables' sizes, each rounded down, need not add up to one `--memory`), and
            # which decides in either core whether they start from a copy (`start_split`).
            return self.memory
        return 0 if self.core is None else self.core.max_size * ENTRY_BYTES

    @property
    def table_full(self) -> bool:
        """Whether the compiled table filled up (`Core.full`): its size (`memory`) then
        decides the answer too. The pure-Python table's limit is the same everywhere."""
        own = self.core is not None and self.core.full
        return own or self.split_full or any(worker.table_full for worker in self.workers)

    def store(self, key: int, value: int, code: int, exact: bool) -> None:
        # Once full, nothing is written: an exact entry's best child must stay in the
        # table for table_line(), and it was stored before its parent.
        if len(self.tt) < self.tt_cap:
            self.tt[key] = ((value << 14 | code) << 1) | exact

    def entry(self, position: Position) -> int | None:
        """The table's entry for a position (either core's), or None."""
        if self.core is not None:
            return self.core.entry(position)
        return self.tt.get(self.key(*position)[0])

    def table_line(self, position: Position) -> list[int]:
        """The best line from a position whose exact value is in the table (either core's)."""
        line: list[int] = []
        at: Position | None = position
        while at is not None and at[4] < self.game.n:
            entry = self.entry(at)
            assert entry is not None and entry & 1, "a best line leads only to exact entries"
            code = entry >> 1 & 0x3FFF
            if self.key(*at)[1]:  # the transposed position's entry: its action transposed
                code = transpose_code(code)
            line.append(code)
            at = self.game.child(*at, code)
        return line

    # --- the search ----------------------------------------------------------------

    def tick(self) -> None:
        """The clock's and cancel's check (every 1,024 positions), and the progress line."""
        now = time.monotonic()
        if self.cancel is not None and self.cancel.is_set():
            self.stop(by="cancel")
        elif self.deadline is not None and now >= self.deadline:
            self.stop(by="time")
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + 0.25
            self.report(now)

    def report(self, now: float) -> None:
        assert self.progress is not None
        self.progress(
            Progress(
                self.best_total,
                max(self.best_total, min(self.root_upper, self.proven_upper)),
                self.nodes,
                now - self.started,
                self.round,
                self.settled,
                self.choices,
                None if self.aim < 0 else self.aim,
            )
        )

    def stop(self, *, by: StopReason) -> None:
        self.stopped = True
        if self.stop_reason is None:
            self.stop_reason = by

    def improve(self, total: int, tail: list[int]) -> None:
        self.best_total = total
        self.best_line = [*self.path, *tail]

    def dfs(
        self, taken: int, pos: int, pc: int, rings: int, row: int, base: int, ub: int
    ) -> tuple[int, bool]:
        """The value (score still to gain) of a position, exact or an upper bound.

        `base` is the total scored on the way here and `ub` a sound bound on the value.
        Children that cannot beat the best game found (or this node's best child) are
        not searched; then the answer is an upper bound, kept in the table as one.
        """
        self.nodes += 1
        if not self.nodes & 1023:
            self.tick()
        if self.nodes > self.node_limit:
            self.stopped = True  # the round's budget: the compiled core stops here too
        if self.stopped:
            if self.stopped_at is None:
                self.stopped_at = self.nodes
            return ub, False
        key, flipped = self.key(taken, pos, pc, rings, row)
        entry = self.tt.get(key)
        if entry is not None:
            value = entry >> 15
            if entry & 1:
                if base + value > self.best_total:
                    self.improve(base + value, self.table_line((taken, pos, pc, rings, row)))
                return value, True
            ub = min(ub, value)
        # Cut what cannot beat the best game, nor the aim of an aimed round.
        cut = max(self.best_total, self.aim) - base
        if ub <= cut:
            return ub, False
        game = self.game
        region = game.reachable(taken, pos)
        ub = min(ub, game.estimate(region, taken, pos, game.live_rows(taken, pc, row)))
        if ub <= cut:
            if entry is None:
                self.store(key, ub, 0, False)
            return ub, False
        ranked = self.ranked(taken, pos, pc, rings, row, region)
        exact, exact_code, upper = self.search_children(ranked, base)
        if exact >= upper:
            if flipped:
                exact_code = transpose_code(exact_code)
            self.store(key, exact, exact_code, True)
            return exact, True
        result = max(exact, upper)
        if entry is None or not entry & 1:
            self.store(key, result, 0, False)
        return result, False

    def ranked(
        self, taken: int, pos: int, pc: int, rings: int, row: int, region: int
    ) -> list[tuple[int, int, int, Position | None]]:
        """The children of a position, most promising first, as (estimate of the total
        they add, gain, action code, child position or None when the game ends)."""
        game = self.game
        n = game.n
        ranked: list[tuple[int, int, int, Position | None]] = []
        bound_of = game.estimate
        shallow = len(self.path) < self.exact_depth
        options = game.children(taken, pos, pc, rings, row)
        # Every child but a forced reroll's has the same pass count; the rows that can
        # still circle, counted on this position's fields, are at least the child's.
        # (A forced reroll is then the only child.)
        next_pc = pc + 1 if options[0][0] == PASS else (0 if game.in_a_row else pc)
        live_next = game.live_rows(taken, next_pc, row + 1)
        for code, gain, child in options:
            if child is None or child[4] >= n:
                ranked.append((gain, gain, code, None))
            else:
                # The parent's region less the new X and circle contains the child's;
                # near the root, where ordering and pruning pay most, the child's own.
                if shallow:
                    bound = self.known_bound(child)
                else:
                    child_taken = child[0]
                    bound = bound_of(region & ~child_taken, child_taken, child[1], live_next)
                ranked.append((gain + bound, gain, code, child))
        ranked.sort(reverse=True)
        return ranked

    def search_children(
        self, ranked: list[tuple[int, int, int, Position | None]], base: int, share: bool = False
    ) -> tuple[int, int, int]:
        """Search the ranked children of a position until the rest cannot beat the best
        game (nor this position's best child): (the best exact value, its action code,
        the highest upper bound among the others), -1 for none. A split search's thread
        searches its `share` of the root's choices so, in either core, and stops at its
        budget without a position more (`search_share`)."""
        exact = -1
        exact_code = 0
        upper = -1
        at_root = not self.path
        if at_root:
            self.settled, self.choices = 0, len(ranked)
        for i, (estimate, gain, code, child) in enumerate(ranked):
            floor = max(self.best_total - base, self.aim - base, exact)
            if estimate <= floor or (share and self.stopped):
                # The rest cannot beat the best game, or the budget is spent: each is
                # worth at most its estimate, and this one's is the highest of them.
                if estimate > exact:
                    upper = max(upper, estimate)
                if at_root and not self.stopped:
                    self.settled = len(ranked)
                break
            self.path.append(code)
            if child is None:
                value, known = gain, True
                if base + gain > self.best_total:
                    self.improve(base + gain, [])
            else:
                if share and self.core is not None:
                    sub, known = self.search_choice(code, child, base + gain, estimate - gain)
                else:
                    sub, known = self.dfs(*child, base + gain, estimate - gain)
                value = gain + sub
            self.path.pop()
            if known:
                if value > exact:
                    exact, exact_code = value, code
            else:
                upper = max(upper, value)
            if at_root:
                rest = max((e for e, *_ in ranked[i + 1 : i + 2]), default=-1)
                self.root_upper = base + max(exact, upper, rest)
                if not self.stopped:
                    self.settled = i + 1
        return exact, exact_code, upper

    def run(
        self,
        position: Position,
        base: int,
        *,
        time_limit: float | None,
        nodes: int | None = None,
        progress: Callable[[Progress], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> tuple[int, int, list[int]]:
        """(best total, upper bound, best line as action codes) from `position`, after
        at most `nodes` positions of search (None: no budget) and `time_limit` seconds.
        `stop_reason` then says what stopped it, if anything did."""
        self.started = time.monotonic()
        self.node_budget = nodes
        self.stop_reason = None
        self.repeat_nodes = None
        self.round = 0
        self.settled = self.choices = 0
        if self.core is None and self.core_choice == "compiled":
            self.core = self.compiled()
        self.deadline = None if time_limit is None else self.started + time_limit
        self.cancel = cancel
        self.progress = progress
        self.next_report = self.started + 0.25
        self.stopped = False
        self.path = []
        self.workers, self.shares = [], []
        self.split_full = False
        taken, pos, _, _, row = position
        if row >= self.game.n:
            return base, base, []
        entry = self.entry(position)
        if entry is not None and entry & 1:  # an exact value
            return base + (entry >> 15), base + (entry >> 15), self.table_line(position)
        root_bound = self.game.bound(taken, pos, position[2], row)
        self.root_upper = self.proven_upper = base + root_bound
        # No game yet: the opening beam comes after the opening round (rounds_of_search).
        self.best_total, self.best_line = -1, []
        try:
            value = self.rounds_of_search(position, base, root_bound)
            upper = max(self.best_total, base + value)
        except KeyboardInterrupt:
            self.stop(by="cancel")
            upper = max(self.best_total, min(self.root_upper, self.proven_upper))
        if self.best_total < 0:
            # Cancelled before any complete game: one greedy game, whatever the cancel,
            # so that there is an answer (below the sound bound, like any game); no
            # budget repeats it.
            cancel, self.cancel = self.cancel, None
            try:
                self.best_total, self.best_line, _ = self.beam(position, base, 1)
            finally:
                self.cancel = cancel
            self.repeat_nodes = None
        if upper <= self.best_total:
            self.stop_reason = None  # proven: whatever came, the search had its answer
            self.repeat_nodes = None
        if progress is not None:
            self.root_upper = upper
            self.report(time.monotonic())
        return self.best_total, upper, self.best_line

    def rounds_of_search(self, position: Position, base: int, root_bound: int) -> int:
        """The search, in rounds: an opening round of `OPENING_NODES` positions and,
        unless it proved the position, the opening beam game of `BEAM_WIDTH`; the first
        round of `PROBE_NODES` positions, each next one as many
        as all before it (up to the node budget); between rounds, wider beam games while
        each is expected to weigh at most `BEAM_SHARE` of the positions searched so far
        (`WEIGHED_PER_NODE` apiece). From the first round whose budget is over
        `PROBE_NODES` on, while the bound is more than `AIM_GRAINS` grains above the
        best game, a round that searches up to the best game is followed by one aimed
        halfway between them (`aim_of`, `aimed_round`). One that finishes brings the
        bound down to its aim or below (or proves the position), and the next round,
        within the same budget, aims again or, once the gap is narrow, at the best game;
        one that does not is followed by a round up to the best game with the doubled
        budget. The answer's bound is the lowest any round proved.

        Everything here counts positions, not seconds, so the rounds, the beams and the
        answer are the same on every machine; only the time limit and cancel, which
        stop the search wherever it is, depend on the clock (`stop_reason` says so).
        Most positions are proven in the first round; on the hard ones the beams find
        good games early, and each round goes on from the table the last one filled
        (its exact values and bounds stay true), so little work is repeated. Under
        "auto", the compiled core takes over at the end of a round when it is ready
        (`CoreChoice`): both cores search the same positions in the same order.
        """
        start = self.nodes
        budget = self.node_budget
        opening = True
        limit = OPENING_NODES
        width, last_weighed = BEAM_WIDTH, 0
        aimed = False
        while True:
            self.round += 1
            if budget is not None:
                limit = min(limit, budget)
            self.node_limit = start + limit
            self.stopped_at = None
            # Unproven rounds alternate: one aimed above the best game, to bring the bound
            # down (`aimed_round`), one that aims at the best game, which can prove it
            # and finds better games on the way.
            aim = None if aimed or limit <= PROBE_NODES else self.aim_of(base + root_bound)
            aimed = aim is not None
            split = not opening and self.jobs > 1 and limit > SPLIT_NODES
            value, stopped = self.aimed_round(position, base, root_bound, start, split, aim)
            # Every round's answer is a sound bound on the root, finished or not: keep
            # the lowest (an aimed round may prove less than an earlier one did).
            value = root_bound = min(value, root_bound)
            self.root_upper = self.proven_upper = base + root_bound
            unproven = self.best_total < base + root_bound
            if aim is not None and not stopped and unproven and self.stop_reason is None:
                # An aimed round finished without a proof: it brought the bound down to
                # its aim or below (a game above the aim would have proven the position).
                # The next round aims again if the gap is still wide, else at the best
                # game, within the same budget. (A split round the clock halted may
                # finish too: it is the last, as a budget of its `repeat_nodes` gives
                # the same answer after one more round that stops at once.)
                aimed = False
                continue
            if opening and stopped:
                # Not proven in the opening round: the opening beam game, which, as the
                # first game always did, runs to its end whatever the clock or the budget
                # (only cancel stops it), so that a short time limit (a hint's share of
                # its round) still gets a strong game and a budget repeats it.
                total, line, last_weighed = self.beam(position, base, width)
                if total > self.best_total:
                    self.best_total, self.best_line = total, line
                elif self.cancelled():  # no budget gives a beam cut short
                    self.stopped_at = None
            if not stopped or self.stop_reason is not None:
                # A search stopped by the clock at the n-th position past `start` is the
                # search a budget of n - 1 stops at the same position (a budget stops at
                # the first position past it), after the same rounds and beams.
                if self.stop_reason is not None and self.stopped_at is not None:
                    self.repeat_nodes = min(limit, self.stopped_at - start - 1)
                return value
            if budget is not None and limit >= budget:
                self.stop(by="nodes")
                return value
            if opening:  # on to the first round, from the table the opening one filled
                opening = False
                limit = PROBE_NODES
                continue
            for search in (self, *self.workers):
                if search.core is None and search.core_choice == "auto":
                    search.core = search.compiled()
            width, last_weighed = self.wider_beams(position, base, width, last_weighed, start)
            if self.stop_reason is not None:
                # Stopped between rounds (a Python beam cut off by the time limit finds
                # nothing): the answer of the rounds so far, as their budget.
                self.repeat_nodes = limit
                return value
            limit *= 2

    def wider_beams(
        self, position: Position, base: int, width: int, weighed: int, start: int
    ) -> tuple[int, int]:
        """Between rounds: beam games, each `growth` times wider than the last, while each
        is expected to weigh at most `BEAM_SHARE` of the positions searched since `start`
        (`weighed`: what the last beam weighed); a better game is kept. Returns the last
        beam's width and what it weighed; stops at once when the search must stop
        (`stop_reason`)."""
        while width < MAX_BEAM_WIDTH:
            growth = 4 if width < 1024 else 2
            expected = 1.2 * growth * weighed
            if expected > BEAM_SHARE * WEIGHED_PER_NODE * (self.nodes - start):
                break
            if self.cancelled():
                self.stop(by="cancel")
                break
            width *= growth
            total, line, weighed = self.beam(position, base, width, self.deadline)
            if self.stop_reason is not None:
                break
            if total > self.best_total:
                self.best_total, self.best_line = total, line
        return width, weighed

    def aim_of(self, upper: int) -> int | None:
        """The total the next round aims above (`aimed_round`), halfway between the best
        game and the bound `upper`, on the scores' grain; None (aim at the best game: the
        round that can prove it) when they are at most `AIM_GRAINS` grains apart."""
        grain = self.game.grain
        steps = (upper - self.best_total) // grain
        if self.best_total < 0 or steps <= AIM_GRAINS:
            return None
        return self.best_total + steps // 2 * grain

    def aimed_round(
        self,
        position: Position,
        base: int,
        root_bound: int,
        start: int,
        split: bool,
        aim: int | None,
    ) -> tuple[int, bool]:
        """One round of the search (split or not) that looks only for games above `aim`
        (None: above the best game): it cuts every position whose bound is not, so it
        finishes much sooner than the round that proves the best game, and then it has
        proven the root's bound at most `aim` or found a game above it (a better game it
        meets on the way is kept too). What the table learns (exact values and upper
        bounds) stays true for every aim. (value, stopped) as `search_round`."""
        self.aim = -1 if aim is None else aim
        try:
            if split and (self.workers or self.start_split(position)):
                return self.split_round(position, base, start)
            return self.search_round(position, base, root_bound)
        finally:
            self.aim = -1

    def search_round(self, position: Position, base: int, root_bound: int) -> tuple[int, bool]:
        """One search from the root until `node_limit`, the time limit or cancel:
        (value, stopped)."""
        self.path = []
        self.stopped = False
        core = self.core
        if core is None:
            value, _ = self.dfs(*position, base, root_bound)
            return value, self.stopped
        before = core.nodes

        def should_stop() -> bool:
            # tick() reports this object's counters: show it the core's for a moment.
            nodes, best = self.nodes, self.best_total
            try:
                self.nodes = nodes + core.nodes - before
                self.best_total = max(best, core.best_total)
                self.root_upper = core.root_upper
                self.settled, self.choices = core.settled, core.choices
                self.tick()
            finally:
                self.nodes, self.best_total = nodes, best
            return self.stopped

        limit = self.node_limit - self.nodes + before
        try:
            value, _, stopped = core.dfs(
                position, base, root_bound, self.best_total, self.root_upper,
                node_limit=int(min(limit, 1 << 62)), should_stop=should_stop, aim=self.aim,
            )  # fmt: skip
        finally:
            self.take_from(core, before)
            self.root_upper = core.root_upper
            self.settled, self.choices = core.settled, core.choices
        self.stopped = stopped
        return value, stopped

    def take_from(self, core: Core, before: int) -> None:
        """After a compiled search that began at the core's count `before`: where it saw
        it must stop, its positions, and a better game it found, in this search's."""
        if core.stopped_at:
            self.stopped_at = self.nodes + core.stopped_at - before
        self.nodes += core.nodes - before
        line = core.line()
        if line is not None and core.best_total > self.best_total:
            self.best_total, self.best_line = core.best_total, line

    # --- the split search: the root's choices shared among threads -------------------

    def start_split(self, position: Position) -> bool:
        """Share the root's choices among `jobs` threads (`workers`), each a search with
        its own table (`memory // jobs` bytes, or the pure-Python table's share), or
        False when the root has fewer than two choices. The shares are dealt in turn
        from the choices ranked by gain plus bound, so that each gets strong and weak
        ones; they stay the same for the rest of the run."""
        game = self.game
        options: list[Option] = [
            (code, gain, None if child is None or child[4] >= game.n else child)
            for code, gain, child in game.children(*position)
        ]
        if len(options) < 2:
            return False
        jobs = min(self.jobs, len(options))

        def bound(option: Option) -> int:  # gain plus the child's own bound
            return option[1] + (0 if option[2] is None else self.own_bound(option[2]))

        ranked = sorted(options, key=lambda o: (bound(o), o[1], o[0]), reverse=True)
        self.shares = [ranked[i::jobs] for i in range(jobs)]
        # Each thread has its share of both tables' limits, and starts from a copy of what
        # the rounds before the split learnt: all of it or none (part of it could keep an
        # exact value without the best child its line is read from), decided on the
        # smaller of the two limits, so that both cores decide alike.
        tt_limit = None if self.tt_limit is None else self.tt_limit // jobs
        memory = self.memory // jobs
        compiled_limit = table_entries(memory) if tt_limit is None else tt_limit
        count = len(self.tt) if self.core is None else self.core.count
        copy = count <= min(self.tt_cap // jobs, compiled_limit)
        # Then --memory decided what the threads start from (the search's own table is
        # emptied below, so `table_full` remembers it here).
        full_before = self.core is not None and self.core.full
        self.split_full = full_before or (not copy and count <= self.tt_cap // jobs)
        self.workers = []
        for _ in range(jobs):
            worker = Search(
                self.rows, self.rules, tt_limit=tt_limit, symmetry=self.symmetry,
                core=self.core_choice, memory=memory,
            )  # fmt: skip
            worker.game = game
            worker.exact_depth = self.exact_depth
            worker.tt_cap = self.tt_cap // jobs
            if self.core is not None:  # the compiled core already searches
                worker.core = worker.compiled()
                assert worker.core is not None
                if copy:
                    worker.core.copy_from(self.core)
            elif copy:
                worker.tt = dict(self.tt)
            self.workers.append(worker)
        # This search's own table is no longer read (its beams need none): free it.
        self.tt = {}
        if self.core is not None:
            self.core.clear()
        self.split_start = self.nodes
        return True

    def own_bound(self, child: Position) -> int:
        """A position's bound from its own region and live rows (what `dfs` gives the
        children near the root; deeper, the parent's serve)."""
        game = self.game
        taken, pos, pc, _, row = child
        region = game.reachable(taken, pos)
        return game.estimate(region, taken, pos, game.live_rows(taken, pc, row))

    def known_bound(self, child: Position) -> int:
        """`own_bound`, or the table's entry for the position if lower: what an earlier
        round of the search learnt about it (exact value or upper bound)."""
        bound = self.own_bound(child)
        known = self.entry(child)
        return bound if known is None else min(bound, known >> 15)

    def split_round(self, position: Position, base: int, start: int) -> tuple[int, bool]:
        """One round of the split search: every thread searches its share until its
        budget, `(node_limit - split_start) // jobs` of its own positions, all at the
        same time, each from the best game known when the round began; then the best
        of their games and the root's value or bound. Everything counts positions, so
        the answer is the same however the threads ran. When the clock or cancel stops
        it, every thread stops at the same count (`halt`), and `repeat_nodes` is the
        budget that gives the same answer."""
        workers = self.workers
        jobs = len(workers)
        budget = (int(min(self.node_limit, 1 << 62)) - self.split_start) // jobs
        for worker in workers:
            worker.node_limit = budget
            worker.stopped, worker.stopped_at = False, None
            worker.best_total, worker.best_line = self.best_total, list(self.best_line)
            worker.aim = self.aim
            worker.root_upper = self.root_upper
        answers: list[tuple[int, bool]] = [(-1, True)] * jobs
        failures: list[BaseException] = []

        def work(i: int) -> None:
            try:
                answers[i] = workers[i].search_share(self.shares[i], base)
            except BaseException as failure:  # re-raised in this thread below
                failures.append(failure)

        threads = [
            threading.Thread(target=work, args=(i,), name=f"road300-solver-{i}", daemon=True)
            for i in range(jobs)
        ]
        halted: int | None = None
        alive: list[threading.Thread] = []
        try:
            for thread in threads:
                thread.start()
                alive.append(thread)
            while alive:
                try:
                    alive[0].join(0.02)
                    if halted is None:
                        self.split_tick()
                except KeyboardInterrupt:
                    self.stop(by="cancel")
                if halted is None and (self.stop_reason is not None or failures):
                    halted = self.halt()
                alive = [thread for thread in threads if thread.is_alive()]
        finally:
            if alive:  # leaving on an error: no thread searches on after the search
                for worker in workers:
                    worker.lower_limit(-1)
                for thread in alive:
                    thread.join()
        if failures:
            raise failures[0]
        self.nodes = self.split_start + sum(worker.nodes for worker in workers)
        for worker in workers:
            if worker.best_total > self.best_total:
                self.best_total, self.best_line = worker.best_total, worker.best_line
        self.stopped_at = None
        if halted is not None:
            self.repeat_nodes = self.split_repeat(start, min(budget, halted))
        exact = max((value for value, known in answers if known), default=-1)
        upper = max((value for value, known in answers if not known), default=-1)
        self.root_upper = base + max(exact, upper)
        return max(exact, upper), any(worker.stopped for worker in workers)

    def split_tick(self) -> None:
        """`tick` for a split search: the clock, cancel and the progress line, with the
        threads' counts."""
        nodes, best = self.nodes, self.best_total
        try:
            self.nodes = self.split_start + sum(worker.live_nodes() for worker in self.workers)
            for worker in self.workers:
                core = worker.core
                under_way = core is not None and worker.core_before is not None
                running = core.best_total if core is not None and under_way else -1
                self.best_total = max(self.best_total, worker.best_total, running)
            self.root_upper = max(worker.root_upper for worker in self.workers)
            self.settled = sum(worker.settled for worker in self.workers)
            self.choices = sum(worker.choices for worker in self.workers)
            self.tick()
        finally:
            self.nodes, self.best_total = nodes, best

    def halt(self) -> int:
        """Stop every thread of a split search at the same count of its positions: a
        little past the furthest one's (`STOP_MARGIN`), so that a budget repeats the
        answer (`split_repeat`). Returns that count."""
        furthest = max(worker.live_nodes() for worker in self.workers)
        compiled = any(worker.core is not None for worker in self.workers)
        margin = STOP_MARGIN if compiled else PYTHON_STOP_MARGIN
        common = -(-(furthest + margin) // 1024) * 1024
        for worker in self.workers:
            worker.lower_limit(common)
        return common

    def split_repeat(self, start: int, budget: int) -> int | None:
        """The node budget that gives a split search stopped with `budget` positions a
        thread the same answer, or None when a thread ran past it before it was told to
        stop (a machine too busy for `STOP_MARGIN`)."""
        for worker in self.workers:
            # A budget stops a thread at its first position past it: one that stopped
            # elsewhere, or finished past it, searched what the budget would not.
            if (worker.stopped_at != budget + 1) if worker.stopped else (worker.nodes > budget):
                return None
        return self.split_start - start + len(self.workers) * budget

    def live_nodes(self) -> int:
        """`nodes`, with the compiled search's under way (read from another thread)."""
        with self.limit_lock:
            if self.core is not None and self.core_before is not None:
                return self.nodes + self.core.nodes - self.core_before
            return self.nodes

    def lower_limit(self, limit: int) -> None:
        """Lower `node_limit` while this search runs in another thread (either core)."""
        with self.limit_lock:
            if limit >= self.node_limit:
                return
            self.node_limit = limit
            if self.core is not None and self.core_before is not None:
                self.core.set_node_limit(limit - self.nodes + self.core_before)

    def search_share(self, share: list[Option], base: int) -> tuple[int, bool]:
        """One round of one thread of a split search: its share of the root's choices,
        searched as `dfs` searches the root's (the same ranking, cut-offs and table),
        until `node_limit`; (value, exact) of the best of them."""
        ranked = [
            (gain if child is None else gain + self.known_bound(child), gain, code, child)
            for code, gain, child in share
        ]
        ranked.sort(reverse=True)
        self.path = []
        exact, _, upper = self.search_children(ranked, base, share=True)
        return (exact, True) if exact >= upper else (upper, False)

    def search_choice(self, code: int, child: Position, base: int, ub: int) -> tuple[int, bool]:
        """A split search thread's compiled `dfs` of one of the root's choices, one ply
        below the root."""
        core = self.core
        assert core is not None
        with self.limit_lock:
            before = self.core_before = core.nodes
            core.set_node_limit(int(min(self.node_limit - self.nodes + before, 1 << 62)))
        try:
            value, exact, stopped = core.dfs(
                child, base, ub, self.best_total, self.root_upper,
                node_limit=None, should_stop=lambda: False, prefix=(code,), aim=self.aim,
            )  # fmt: skip
        finally:
            with self.limit_lock:
                self.take_from(core, before)
                self.core_before = None
        self.stopped = self.stopped or stopped
        return value, exact

    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()

    def beam(
        self, position: Position, base: int, width: int, deadline: float | None = None
    ) -> tuple[int, list[int], int]:
        """A quick strong game: keep the `width` most promising positions per row
        (score so far plus half the bound; ties broken by the table's hash of the key,
        so that both cores play the same game). Returns (best total, its line, positions
        weighed). Past `deadline`, or once cancelled, it gives up (-1) and stops the
        search; the compiled one, much faster, always finishes."""
        if self.core is not None:
            return self.core.beam(position, base, width)
        game = self.game
        best: tuple[int, list[int]] = (-1, [])  # any finished game beats this
        beam: list[tuple[int, Position, list[int]]] = [(base, position, [])]
        weighed = 0
        while beam:
            if deadline is not None and time.monotonic() > deadline:
                self.stop(by="time")
                return -1, [], weighed
            if self.cancelled():  # Ctrl-C: no beam runs on to its end first
                self.stop(by="cancel")
                return -1, [], weighed
            layer: dict[int, tuple[int, int, int, Position, list[int]]] = {}
            for total, (taken, pos, pc, rings, row), line in beam:
                for code, gain, child in game.children(taken, pos, pc, rings, row):
                    now = total + gain
                    if child is None or child[4] >= game.n:
                        if now > best[0]:
                            best = (now, [*line, code])
                        continue
                    key, _ = self.key(*child)
                    weighed += 1
                    # Twice (score so far plus half the bound): ints, as in the core.
                    promise = 2 * now + game.bound(child[0], child[1], child[2], child[4])
                    old = layer.get(key)
                    if old is None or old[0] < promise:
                        layer[key] = (promise, key_hash(key + 1), now, child, [*line, code])
            # Ties (frequent: scores are multiples of 5) are broken by the hash, which
            # measured better than the order the positions were found in.
            ranked = sorted(layer.values(), key=lambda item: (item[0], item[1]), reverse=True)
            beam = [(now, child, line) for _, _, now, child, line in ranked[:width]]
        return best[0], best[1], weighed


def key_hash(key: int) -> int:
    """The compiled core's `_hash` of a table key (its keys are this module's plus one),
    on int64 as there: a bijection, so that no two positions tie on it."""
    h = (key * 0x9E3779B97F4A7C15) & 0xFFFF_FFFF_FFFF_FFFF
    if h >= 1 << 63:
        h -= 1 << 64
    return h ^ ((h >> 29) & 0x7FFFFFFFF)


def solve(
    rows: Sequence[Dice],
    rules: Ruleset,
    state: State | None = None,
    row: int = 0,
    *,
    time_limit: float | None = 30.0,
    nodes: int | None = None,
    progress: Callable[[Progress], None] | None = None,
    cancel: threading.Event | None = None,
    core: CoreChoice = "auto",
    memory: int | None = None,
    jobs: int = JOBS,
) -> Solution:
    """The best continuation of `state` (a new game with every ring the rules allow,
    when None) on the dice `rows` from row `row` (0-based), within `time_limit` seconds
    and `nodes` positions of search (None: no limit), with a compiled table of at most
    `memory` bytes (None: `default_table_bytes`), in `jobs` threads (`Search.split_round`).

    Stopping early (node budget, time limit, `cancel`, Ctrl-C) returns the best game
    found so far and a sound upper bound; `proven` says whether they meet and `stopped`
    what stopped it. The schedule counts positions, so without a time limit the answer
    is the same on every machine (with the same `memory`, if the search fills its table:
    `table_full`). `core` chooses the pure-Python or the compiled search (`CoreChoice`);
    both give the same answers.
    """
    started = time.monotonic()
    if state is None:
        state = new_game(rules.max_rings)
    base = score(state, rules)
    if state.over or row >= len(rows):
        final = score(exhaust(state), rules)
        return Solution(final, final, True, (), 0, time.monotonic() - started, memory=0)
    search = Search(rows, rules, core=core, memory=memory, jobs=jobs)
    best, upper, line = search.run(
        root_position(state, rules, row),
        base,
        time_limit=time_limit,
        nodes=nodes,
        progress=progress,
        cancel=cancel,
    )
    actions, final = to_actions(rows, rules, state, row, line)
    assert final == best, f"the solver's line scores {final}, not {best}"
    return Solution(
        best,
        upper,
        best >= upper,
        tuple(actions),
        search.nodes,
        time.monotonic() - started,
        search.stop_reason,
        search.repeat_nodes,
        search.table_memory,
        search.table_full,
        max(1, len(search.workers)),
    )


def to_actions(
    rows: Sequence[Dice], rules: Ruleset, state: State, row: int, codes: Sequence[int]
) -> tuple[list[Action], int]:
    """Engine actions (with a path on every move) for a line of action codes, and the
    final score the engine gives them: the engine, not the solver, has the last word."""
    actions: list[Action] = []
    for n, code in enumerate(codes):
        dice = rows[row + n]
        action = engine_action(state, dice, code)
        state = apply_row(state, rows, row + n, action, rules).state
        actions.append(action)
    return actions, score(state, rules)


def engine_action(state: State, dice: Dice, code: int) -> Action:
    kind, cross_index, target = decode(code)
    if kind == PASS:
        return Reroll()
    if kind == RING:
        return RingReroll()
    cross = FIELD_AT[cross_index]
    if kind == STUCK:
        return Play(cross)
    die = movement_die(dice, cross)
    assert die is not None
    blocked = blocked_after(state, cross)
    if kind == MOVE:
        walk = walks(blocked, state.pos, die)[target]
        return Play(cross, FIELD_AT[target], path=tuple(FIELD_AT[i] for i in walk))
    assert kind in (ESCAPE, LEAVE) and target == NOWHERE
    corner, walk = min(exit_walks(blocked, state.pos, die).items())
    return Play(
        cross,
        FIELD_AT[corner],
        exit="escape" if kind == ESCAPE else "leave",
        path=tuple(FIELD_AT[i] for i in walk),
    )
