"""Benchmark of the solver against the speed figures of docs/solver.md.

    python benchmarks/bench_solve.py                  # every section
    python benchmarks/bench_solve.py --files 4 --moonshot 30
    python benchmarks/bench_solve.py --files 4 --skip rounds moon   # the rest of them

Every section is run unless `--skip` names it; `rounds` (4 positions per file, up
to `--rounds-limit`, 60 s, each) and `moon` (`--moonshot`, 300 s) take the longest.

Sections, by their `--skip` names: `mid`, mid-game positions (6-8 rounds played on 50-row
files, target: proven < 1 s); `early`, positions after 4-5 rounds (proven < 10 s); `bound`,
the bound that reads the dice rows against the one that does not; `rounds`, issue 20's
table (positions after 0-3 rounds); `relaxed`, the cross-out and walk relaxations against
the bound; `flow`, the flow relaxation against the bound (needs SciPy, else skipped);
`repeat`, the 60-row file with node budgets and a time limit; `sixty`, the 60-row
file for 10 s against three beam searches of width 5,000 with different tie-breaks;
`moon`, the moonshot (the proven best of examples/challenge.txt from the start, as it
stands); `analyze`, `analyze` of the 22-round examples/alice.yaml with default limits
(target < 30 s); `cli`, whole `road300 solve --from` runs. Dice files come from
`road300 dice` seeds, so every run sees the same positions.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from validator.check.file import Checker  # noqa: E402
from validator.cli.dice import dice_text  # noqa: E402
from validator.engine import STANDARD, VALUES, Dice, Ruleset, State, new_game, score  # noqa: E402
from validator.engine.board import bits  # noqa: E402
from validator.records import dump_record  # noqa: E402
from validator.records.dice import parse_dice, read_dice  # noqa: E402
from validator.solver import Search, solve  # noqa: E402
from validator.solver.analysis import analyze  # noqa: E402
from validator.solver.playout import beam_game, random_game  # noqa: E402
from validator.solver.position import FULL, Game, best_fields_of, ends_of  # noqa: E402
from validator.solver.record import action_rounds, game_record  # noqa: E402
from validator.solver.search import root_position  # noqa: E402

CHALLENGE = ROOT / "examples" / "challenge.txt"
ALICE = ROOT / "examples" / "alice.yaml"


def dice(seed: str, rows: int) -> tuple[Dice, ...]:
    return parse_dice(dice_text(rows, seed).encode(), seed).rows


def positions(files: int, rounds: Sequence[int]) -> list[tuple[str, tuple[Dice, ...], State, int]]:
    """Positions after `rounds` rounds of a strong (beam) and a random game per file."""
    out = []
    for n in range(files):
        rows = dice(f"bench {n}", 50)
        strong = beam_game(rows, STANDARD, 50)
        weak = random_game(rows, STANDARD, random.Random(n))
        for k in rounds:
            for name, steps in (("beam", strong), ("random", weak)):
                if len(steps) > k and not steps[k - 1].state.over:
                    out.append((f"file {n} {name} after {k}", rows, steps[k - 1].state, k))
    return out


def bench_positions(
    title: str, cases: list[tuple[str, tuple[Dice, ...], State, int]], limit: float, target: float
) -> None:
    print(f"\n## {title} (time limit {limit:g} s, target: proven in < {target:g} s)")
    times = []
    unproven = 0
    for name, rows, state, k in cases:
        s = solve(rows, STANDARD, state, k, time_limit=limit)
        times.append(s.seconds)
        unproven += not s.proven
        flag = "proven" if s.proven else f"NOT proven (bound {s.upper_bound})"
        print(
            f"  {name:28} best {s.best_score:4}  {flag:26} {s.seconds:6.2f} s  {s.nodes:>9,} nodes"
        )
    if times:
        over = sum(t >= target for t in times)
        print(
            f"  {len(times)} positions: median {statistics.median(times):.2f} s, "
            f"max {max(times):.2f} s, {over} at or over {target:g} s, {unproven} not proven"
        )


def bench_cli(files: int, limit: int) -> None:
    """Whole `road300 solve DICE --from RECORD --format json` runs, start-up included,
    as the acceptance checks time them: positions after 4-5 rounds (checks allow 25 s)
    and after 6-8 (5 s). The first run may find numba's cache cold (see docs/solver.md);
    `--cold` empties it first."""
    print(f"\n## Whole `road300 solve --from` runs (--time-limit {limit})")
    exe = shutil.which("road300") or str(Path(sys.executable).parent / "road300")
    times: dict[str, list[float]] = {"4-5": [], "6-8": []}
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(files):
            rows = dice(f"bench {n}", 50)
            dice_file = Path(tmp) / f"dice{n}.txt"
            dice_file.write_text(dice_text(50, f"bench {n}"), encoding="utf-8")
            strong = beam_game(rows, STANDARD, 50)
            for k in (4, 5, 6, 7, 8):
                if len(strong) <= k or strong[k - 1].state.over:
                    continue
                rounds = action_rounds(
                    rows, STANDARD, new_game(), 0, [s.action for s in strong[:k]]
                )
                record = Path(tmp) / f"file{n}-after{k}.yaml"
                record.write_text(dump_record(game_record(rounds), "yaml"), encoding="utf-8")
                argv = [exe, "solve", str(dice_file), "--from", str(record), "--format", "json"]
                argv += ["--time-limit", str(limit)]
                started = time.perf_counter()
                done = subprocess.run(argv, capture_output=True, text=True, check=False)
                seconds = time.perf_counter() - started
                answer = json.loads(done.stdout) if done.returncode == 0 else {}
                group = "4-5" if k <= 5 else "6-8"
                times[group].append(seconds)
                state = "proven" if answer.get("proven") else "NOT proven"
                print(
                    f"  file {n} beam after {k}  best {answer.get('best_score', '?'):>4}  "
                    f"{state:10}  {seconds:6.2f} s (exit {done.returncode})"
                )
    for group, target in (("4-5", 10.0), ("6-8", 1.0)):
        if times[group]:
            spent = times[group]
            print(
                f"  after {group} rounds: median {statistics.median(spent):.2f} s, max "
                f"{max(spent):.2f} s, {sum(t >= target for t in spent)} at or over {target:g} s"
            )


def compact_beam(rows: Sequence[Dice], rules: Ruleset, width: int, tie_seed: int) -> int:
    """A beam search on the solver's compact positions: keep the `width` most promising
    (score so far plus half the bound), ties broken by a seeded random order."""
    search = Search(rows, rules)
    game = search.game
    rng = random.Random(tie_seed)
    best = 0
    beam = [(0, root_position(new_game(rules.max_rings), rules, 0))]
    while beam:
        layer: dict[int, tuple[float, float, int, tuple[int, int, int, int, int]]] = {}
        for total, position in beam:
            for _, gain, child in game.children(*position):
                now = total + gain
                if child is None or child[4] >= game.n:
                    best = max(best, now)
                    continue
                key, _ = search.key(*child)
                # The bound of the first roll's figures (the dice unread), kept for
                # comparison with them.
                unread = game.n - child[4]
                promise = now + 0.5 * game.estimate(game.reachable(*child[:2]), *child[:2], unread)
                if key not in layer or layer[key][0] < promise:
                    layer[key] = (promise, rng.random(), now, child)
        ranked = sorted(layer.values(), reverse=True)[:width]
        beam = [(now, child) for _, _, now, child in ranked]
    return best


def bench_sixty(limit: float) -> None:
    print(f"\n## 60-row file from the start: solver for {limit:g} s against 3 beams of width 5,000")
    rows = dice("bench sixty", 60)
    t = time.perf_counter()
    beams = [compact_beam(rows, STANDARD, 5000, seed) for seed in (1, 2, 3)]
    beam_seconds = time.perf_counter() - t
    s = solve(rows, STANDARD, time_limit=limit)
    print(f"  beams (width 5,000, tie-break seeds 1-3): {beams}, {beam_seconds:.1f} s in all")
    verdict = "at least as good" if s.best_score >= max(beams) else "WORSE"
    print(
        f"  solver: {s.best_score} in {s.seconds:.1f} s ({verdict}); upper bound "
        f"{s.upper_bound}, gap {s.upper_bound - s.best_score}"
    )
    quick = solve(rows, STANDARD, time_limit=1.0)
    print(f"  solver in 1 s (stretch goal): {quick.best_score}")


def bench_moonshot(limit: float) -> None:
    print(f"\n## Moonshot: examples/challenge.txt from the start ({limit:g} s)")
    rows = read_dice(CHALLENGE).rows
    s = solve(rows, STANDARD, time_limit=limit)
    state = "proven" if s.proven else "not proven"
    print(
        f"  best {s.best_score}, upper bound {s.upper_bound} ({state}) after {s.seconds:.1f} s, "
        f"{s.nodes:,} nodes"
    )


def bench_analyze() -> None:
    print("\n## analyze examples/alice.yaml (22 rounds, 1 s per position; target < 30 s)")
    result = Checker(read_dice(CHALLENGE), None).check(ALICE)
    rows = read_dice(CHALLENGE).rows
    a = analyze(rows, result.rules, result, time_limit=1.0)
    proven = sum(r.proven for r in a.rounds)
    print(
        f"  {len(a.rounds)} rounds in {a.seconds:.1f} s; played {a.played_score}, best "
        f"{a.best_score}; {proven} rounds proven"
    )


def bench_bound(files: int, limit: float) -> None:
    """The bound that reads the dice rows (`Game.live_rows`) against the one that counts
    every row left: the root bound from the first roll, and the nodes and time to prove
    positions after 4-5 and 6-8 rounds, in the compiled core (same positions as above)."""
    from validator.solver.core import warm_up

    print(f"\n## The bound that reads the dice rows (compiled core, limit {limit:g} s)")
    print(f"  (numba's compilation or cache load first: {warm_up():.1f} s)")
    for n in range(files):
        rows = dice(f"bench {n}", 50)
        game = Search(rows, STANDARD).game
        root = root_position(new_game(), STANDARD, 0)
        cheap = game.estimate(game.reachable(*root[:2]), *root[:2], game.n - root[4])
        strong = game.bound(root[0], root[1], root[2], root[4])
        print(f"  file {n}: bound at the first roll {cheap} (rows unread), {strong} (read)")
    totals = {False: [0, 0.0, 0], True: [0, 0.0, 0]}
    for name, rows, state, k in positions(max(1, files // 2), (4, 5, 6, 7, 8)):
        line = f"  {name:28}"
        for read in (False, True):
            search = Search(rows, STANDARD, core="compiled")
            search.game.read_dice = read
            started = time.monotonic()
            best, upper, _ = search.run(root_position(state, STANDARD, k), 0, time_limit=limit)
            seconds = time.monotonic() - started
            totals[read][0] += search.nodes
            totals[read][1] += seconds
            totals[read][2] += best < upper
            label = "read" if read else "unread"
            line += f"  {label}: {search.nodes:>10,} nodes {seconds:6.2f} s"
            line += "" if best >= upper else " (not proven)"
        print(line)
    for read, (nodes, seconds, unproven) in totals.items():
        label = "read" if read else "unread"
        print(f"  total, rows {label}: {nodes:,} nodes, {seconds:.1f} s, {unproven} not proven")


def bench_rounds(files: int, limit: float, jobs: int) -> None:
    """Issue 20's table: positions after 0-3 rounds of a strong (beam) game on 50-row
    files, each solved within `limit` seconds (compiled core) in `jobs` threads: wall and
    CPU seconds and nodes to prove it, or the best game and bound when not proven. The
    search's schedule counts nodes, so the nodes (and what is found by then) are the
    same on every machine; the seconds are this machine's."""
    print(f"\n## Positions after 0-3 rounds of a beam game (time limit {limit:g} s, {jobs} jobs)")
    for n in range(files):
        rows = dice(f"bench {n}", 50)
        strong = beam_game(rows, STANDARD, 50)
        cells = []
        for k in (0, 1, 2, 3):
            state = strong[k - 1].state if k else new_game()
            started = time.process_time()
            s = solve(rows, STANDARD, state, k, time_limit=limit, jobs=jobs)
            cpu = time.process_time() - started
            spent = f"{s.seconds:.1f} s ({cpu:.1f} s CPU), {s.nodes:,} nodes"
            if s.proven:
                cells.append(f"{spent}: {s.best_score}")
            else:
                cells.append(f"> {spent}: {s.best_score} / {s.upper_bound}")
        print(f"  | file {n} | " + " | ".join(cells) + " |")


def relaxation_beam(
    start: tuple[int, int],
    rows: range,
    width: int,
    moves: Callable[[tuple[int, int], int], Iterator[tuple[tuple[int, int], int]]],
    promise: Callable[[tuple[int, int], int, int], int],
) -> int:
    """The best total a beam of `width` reaches in a relaxation of the game, from the
    state `start` (total 0) over the dice `rows`: `moves(state, row)` gives each next
    state with the points it gains, `promise(state, total, row)` ranks the states after
    `row`. Every state reached counts, as the relaxed game may stop anywhere."""
    beam = {start: 0}
    best = 0
    for r in rows:
        after: dict[tuple[int, int], int] = {}
        for state, total in beam.items():
            best = max(best, total)
            for key, gain in moves(state, r):
                after[key] = max(after.get(key, -1), total + gain)
        ranked = sorted(after.items(), key=lambda item: promise(item[0], item[1], r), reverse=True)
        beam = dict(ranked[:width])
    return max(best, *beam.values()) if beam else best


def relaxed_game(game: Game, taken: int, pc: int, row: int, width: int) -> int:
    """What a beam of `width` scores from a position in the *cross-out relaxation* (rules
    without rings or Escape!): the dice rows, cross-outs and passes as the rules have them
    (a row with a free candidate crosses one of them out, a row without passes, the passes
    end the game at the limit), but a circle may be any free field (no walks, no region).
    Every game of the rules is a game of the relaxation, so a bound that reasons only
    about the cross-outs and passes cannot be below the relaxation's value, and so not
    below what this finds. (Circles tried: the 5 best free fields and the free candidates
    of the next 5 rows, which it may circle to make those rows passes; the promise is the
    total plus the best half of the free fields.)"""
    assert game.escape_bonus is None and not game.rules.max_rings

    def moves(state: tuple[int, int], r: int) -> Iterator[tuple[tuple[int, int], int]]:
        done, passes = state
        crosses = [f for f, _ in game.crosses[r] if not done >> f & 1]
        if not crosses:
            if passes + 1 < game.pass_limit:
                yield (done, passes + 1), 0
            return
        circles = set(sorted(bits(~done & FULL), key=lambda f: -VALUES[f])[:5])
        for ahead in game.crosses[r + 1 : r + 6]:
            circles.update(f for f, _ in ahead if not done >> f & 1)
        for x in crosses:
            for c in circles - {x}:
                yield (done | 1 << x | 1 << c, 0 if game.in_a_row else passes), VALUES[c]

    def promise(state: tuple[int, int], total: int, r: int) -> int:
        free = ~state[0] & FULL
        return total + best_fields_of(free, free.bit_count() // 2, game.value_masks)

    return relaxation_beam((taken, pc), range(row, game.n), width, moves, promise)


def walking_game(game: Game, taken: int, pos: int, row: int, width: int) -> int:
    """What a beam of `width` scores from a position in the *walk relaxation*: the walks
    as the rules have them (any die of the row may be the one that moves), but the
    cross-out may be any free field and any row may pass. Every game of the rules is one of
    it (a row that really passes is one where the relaxation moves nowhere, which it may
    do on any row), so a bound that reasons only about the walks cannot be below what
    this finds (rules without rings or Escape!). (Cross-outs tried: the 2 cheapest free
    fields the burglar can no longer reach, which cost the walks nothing, and the 2
    cheapest of all; the promise is the total plus the position's bound.)"""
    assert game.escape_bonus is None and not game.rules.max_rings

    def moves(state: tuple[int, int], r: int) -> Iterator[tuple[tuple[int, int], int]]:
        done, at = state
        yield state, 0  # as if it passed
        free = ~done & FULL
        cheap = sorted(bits(free), key=lambda f: VALUES[f])[:2]
        away = sorted(bits(free & ~game.reachable(done, at)), key=lambda f: VALUES[f])[:2]
        for x in {*cheap, *away}:
            blocked = done | 1 << x
            for die in sorted(set(game.rows[r])):
                for end in bits(ends_of(blocked, at, die)):
                    yield (blocked | 1 << end, end), VALUES[end]

    def promise(state: tuple[int, int], total: int, r: int) -> int:
        return total + game.bound(state[0], state[1], 0, r + 1)

    return relaxation_beam((taken, pos), range(row, game.n), width, moves, promise)


def beam_positions(
    n: int, rounds: Sequence[int]
) -> Iterator[tuple[int, Game, tuple[int, int, int, int, int], int]]:
    """The positions after each of `rounds` rounds of the rounds section's beam game on the
    50-row file `bench n`: (rounds, the file's `Game`, the compact position, the score so
    far)."""
    rows = dice(f"bench {n}", 50)
    game = Search(rows, STANDARD).game
    strong = beam_game(rows, STANDARD, 50)
    for k in rounds:
        state = strong[k - 1].state if k else new_game()
        yield k, game, root_position(state, STANDARD, k), score(state, STANDARD)


def bench_relaxed(files: int, width: int) -> None:
    """The bound at positions after 0-3 rounds of a beam game (the rounds section's) against
    games of the cross-out relaxation (`relaxed_game`, beam `width`) and of the walk
    relaxation (`walking_game`, beam `width` // 3) from the same position: how far a
    bound from the cross-outs alone, or from the walks alone, could come down, at best."""
    print(
        f"\n## The cross-out and walk relaxations (beam widths {width} and {width // 3})"
        " against the bound"
    )
    for n in range(files):
        cells = []
        for _, game, (taken, pos, pc, _, row), base in beam_positions(n, (0, 1, 2, 3)):
            bound = base + game.bound(taken, pos, pc, row)
            relaxed = base + relaxed_game(game, taken, pc, row, width)
            walking = base + walking_game(game, taken, pos, row, width // 3)
            cells.append(f"bound {bound}, cross-outs at least {relaxed}, walks at least {walking}")
        print(f"  | file {n} | " + " | ".join(cells) + " |")


def flow_relaxation(game: Game, taken: int, pos: int, row: int, whole: bool = False) -> float:
    """The value of the *flow relaxation* from a position (standard scoring, without
    rings, Escape! or In and Out!), a linear programme that follows the walks and the
    cross-outs together: one unit of flow runs through the layers (row, field), each dice
    row taking it from the burglar's field `p` either nowhere (a pass, or the end) or, for
    a candidate `c` of the row free now and not `p`, to an end field `q` of a walk of the
    row's movement die from `p` around the fields taken now and `c`, gaining `q`'s value;
    every field may be used (crossed out or circled) at most once in all, counted with the
    flow's fractions. Every game of the rules is a path of it (its walks avoid more
    fields, and its crosses and circles are distinct), so its value bounds every game, and
    it is the best that a Lagrangian bound over these walks (a price on each field, the
    rows read as a longest path) can reach. With `whole`, the flow must be one path (a
    mixed-integer programme): one relaxed game. Needs SciPy (its HiGHS solver), which the
    project does not install."""
    assert game.escape_bonus is None and not game.rules.max_rings
    assert not game.literal and not game.in_and_out
    if row >= game.n:
        return 0.0
    import numpy as np

    optimize = importlib.import_module("scipy.optimize")
    sparse = importlib.import_module("scipy.sparse")
    arcs: list[tuple[int, int, int, int]] = []  # (row, from, cross-out or -1, to)
    layer = {pos}
    node = {(row, pos): 0}
    for r in range(row, game.n):
        after: set[int] = set()
        for p in layer:
            arcs.append((r, p, -1, p))
            after.add(p)
            for c, die in game.crosses[r]:
                if not taken >> c & 1 and c != p:
                    for q in bits(ends_of(taken | 1 << c, p, die)):
                        arcs.append((r, p, c, q))
                        after.add(q)
        layer = after
        if r + 1 < game.n:
            for q in layer:
                node[(r + 1, q)] = len(node)
    # Flow conservation: out - in = 1 at the start, 0 elsewhere (the last row's arcs end).
    rows_, cols, signs = [], [], []
    uses, used_by = [], []
    for j, (r, p, c, q) in enumerate(arcs):
        rows_.append(node[(r, p)])
        cols.append(j)
        signs.append(1.0)
        if (r + 1, q) in node:
            rows_.append(node[(r + 1, q)])
            cols.append(j)
            signs.append(-1.0)
        if c >= 0:
            uses += [c, q]
            used_by += [j, j]
    conserve = sparse.coo_matrix((signs, (rows_, cols)), shape=(len(node), len(arcs)))
    once = sparse.coo_matrix((np.ones(len(uses)), (uses, used_by)), shape=(36, len(arcs)))
    start = np.zeros(len(node))
    start[0] = 1.0
    gains = np.array([-VALUES[q] if c >= 0 else 0.0 for _, _, c, q in arcs])
    result = optimize.linprog(
        gains,
        A_ub=once.tocsr(),
        b_ub=np.ones(36),
        A_eq=conserve.tocsr(),
        b_eq=start,
        bounds=(0, None),
        method="highs",
        integrality=np.ones(len(arcs)) if whole else None,
    )
    assert result.status == 0, result.message
    return float(-result.fun)


def bench_flow(files: int, rounds: Sequence[int], whole: Sequence[int]) -> None:
    """The bound against the flow relaxation (`flow_relaxation`) at positions along the
    rounds section's beam games: whether pricing the fields could bring the bound down;
    after the rounds in `whole` also the best single path of it (one relaxed game)."""
    try:
        importlib.import_module("scipy.optimize")
    except ImportError:
        print("\n## The flow relaxation: skipped (it needs SciPy: pip install scipy)")
        return
    print("\n## The flow relaxation against the bound (total points; seconds of HiGHS)")
    for n in range(files):
        cells = []
        for k, game, (taken, pos, pc, _, row), base in beam_positions(n, sorted({*rounds, *whole})):
            cell = f"after {k}: bound {base + game.bound(taken, pos, pc, row)}"
            for kind, wanted in (("flow", k in rounds), ("one path", k in whole)):
                if wanted:
                    started = time.perf_counter()
                    value = base + flow_relaxation(game, taken, pos, row, whole=kind != "flow")
                    cell += f", {kind} {value:.1f} ({time.perf_counter() - started:.1f} s)"
            cells.append(cell)
        print(f"  | file {n} | " + " | ".join(cells) + " |")


def bench_repeat(nodes: int, limit: float, jobs: int, runs: int = 3) -> None:
    """The 60-row file from the start, `runs` times with a node budget (the same game every
    time) and `runs` times with a time limit (which may differ; `repeat_nodes` names the
    budget that gives each one again)."""
    rows = dice("bench sixty", 60)
    print(
        f"\n## 60-row file from the start: {runs} runs of --nodes {nodes:,}, {runs} of {limit:g} s"
    )
    for _ in range(runs):
        s = solve(rows, STANDARD, time_limit=None, nodes=nodes, jobs=jobs)
        print(
            f"  --nodes: best {s.best_score}, bound {s.upper_bound}, {s.nodes:,} nodes, "
            f"{s.seconds:.1f} s, game {hashlib.sha256(repr(s.actions).encode()).hexdigest()[:8]}"
        )
    for _ in range(runs):
        s = solve(rows, STANDARD, time_limit=limit, jobs=jobs)
        print(
            f"  {limit:g} s: best {s.best_score}, bound {s.upper_bound}, {s.nodes:,} nodes, "
            f"stopped by {s.stopped}, repeat with --nodes {s.repeat_nodes}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10, help="50-row dice files per section")
    parser.add_argument("--moonshot", type=float, default=300.0, help="seconds for the moonshot")
    parser.add_argument(
        "--skip",
        nargs="*",
        default=[],
        choices=[
            "mid",
            "early",
            "bound",
            "rounds",
            "relaxed",
            "flow",
            "repeat",
            "sixty",
            "moon",
            "analyze",
            "cli",
        ],
    )
    parser.add_argument(
        "--rounds-limit", type=float, default=60.0, help="seconds per position (rounds section)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="threads per search in the rounds and repeat sections (solve --jobs)",
    )
    parser.add_argument(
        "--flow-whole",
        type=int,
        nargs="*",
        default=[8],
        metavar="ROUNDS",
        help="rounds after which the flow section also finds the best single path (slow:"
        " 10-60 s after 8 rounds, 1-2.5 min after 3, 3.5-5 min from the first roll)",
    )
    parser.add_argument(
        "--cold", action="store_true", help="empty numba's cache of the core first (cli section)"
    )
    args = parser.parse_args()
    if args.cold:
        for cached in (ROOT / "validator" / "solver" / "__pycache__").glob("core.*.nb*"):
            cached.unlink()
    if "mid" not in args.skip:
        bench_positions(
            "Mid-game positions, 6-8 rounds played", positions(args.files, (6, 7, 8)), 5.0, 1.0
        )
    if "early" not in args.skip:
        bench_positions(
            "Positions after 4-5 rounds", positions(max(1, args.files // 2), (4, 5)), 25.0, 10.0
        )
    if "bound" not in args.skip:
        bench_bound(args.files, 25.0)
    if "rounds" not in args.skip:
        bench_rounds(args.files, args.rounds_limit, args.jobs)
    if "relaxed" not in args.skip:
        bench_relaxed(min(args.files, 4), 1000)
    if "flow" not in args.skip:
        bench_flow(min(args.files, 4), (0, 1, 2, 3, 4, 6, 8), args.flow_whole)
    if "repeat" not in args.skip:
        bench_repeat(5_000_000, 10.0, args.jobs)
    if "sixty" not in args.skip:
        bench_sixty(10.0)
    if "moon" not in args.skip:
        bench_moonshot(args.moonshot)
    if "analyze" not in args.skip:
        bench_analyze()
    if "cli" not in args.skip:
        bench_cli(max(1, args.files // 2), 25)


if __name__ == "__main__":
    main()
