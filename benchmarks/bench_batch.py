"""Benchmark of `road300 batch` against merely parsing the same files with libyaml.

    python benchmarks/bench_batch.py                 # 2,000 and 10,000 entries
    python benchmarks/bench_batch.py --entries 500 --big 0

Targets (docs/batch.md, issue 9): `batch --jobs 1` on 2,000 entries costs at most 1.5x a bare
process that only parses them with yaml.load(..., Loader=yaml.CSafeLoader), both as CPU time of
the whole process (interpreter start included; CPU time because wall time on a shared
machine measures the neighbours); 10,000 entries with
`--jobs 2` take well under a minute (< 30 s) with flat memory (peak RSS of the largest
process at 10,000 entries at most 1.5x the figure at 2,000).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DICE = ROOT / "examples" / "challenge.txt"

RATIO_TARGET = 1.5
BIG_SECONDS_TARGET = 30.0
RSS_GROWTH_TARGET = 1.5

# Runs a command and reports its wall time and the peak RSS of it and its descendants
# (the pool's workers are waited for by the batch process, so they count too).
MEASURE = """
import json, resource, subprocess, sys, time
t = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wall = time.perf_counter() - t
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
rss = usage.ru_maxrss // 1024 if sys.platform == "darwin" else usage.ru_maxrss
cpu = usage.ru_utime + usage.ru_stime
err = done.stderr.decode()[-500:]
print(json.dumps({"wall": wall, "cpu": cpu, "rss_kb": rss, "rc": done.returncode, "err": err}))
"""

PARSE_ONLY = """
import sys, yaml
from pathlib import Path
for path in sorted(Path(sys.argv[1]).rglob("*.yaml")):
    try:
        yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        pass
"""


def _make_records(seeds: list[int]) -> list[str]:
    """Typical entries: random legal games through the engine; every 2nd one with roll,
    dice, steps and path, the rest with cross and move only; about 1 in 100 broken."""
    from validator.engine import STANDARD
    from validator.records import dump_record
    from validator.records.dice import read_dice
    from validator.solver.playout import random_game, to_record

    rows = read_dice(DICE).rows
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        record = to_record(
            random_game(rows, STANDARD, rng), with_details=seed % 2 == 0, player=f"Player {seed}"
        )
        text = dump_record(record, "yaml")
        if seed % 100 == 7:
            text = text.replace("rounds:", "rounds: [", 1)  # a syntax error: malformed
        elif seed % 100 == 8:
            text = "claimed_score: 999\n" + text  # a false claim: invalid
        out.append(text)
    return out


def generate(folder: Path, count: int) -> None:
    """`count` entries: half as player folders holding record.yaml, half as plain files."""
    folder.mkdir(parents=True)
    seeds = list(range(count))
    chunks = [seeds[i : i + 250] for i in range(0, count, 250)]
    with multiprocessing.Pool() as pool:
        texts = [t for chunk in pool.map(_make_records, chunks) for t in chunk]
    for seed, text in zip(seeds, texts, strict=True):
        if seed % 2:
            sub = folder / f"player{seed:05d}"
            sub.mkdir()
            (sub / "record.yaml").write_text(text, encoding="utf-8")
        else:
            (folder / f"player{seed:05d}.yaml").write_text(text, encoding="utf-8")


def measure(command: list[str]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *command], capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(done.stdout)
    if result["rc"] != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result['err']}")
    return result


def batch_command(folder: Path, jobs: int) -> list[str]:
    return [
        sys.executable, "-m", "validator", "batch", str(folder),
        "--dice", str(DICE), "--jobs", str(jobs), "--format", "json",
    ]  # fmt: skip


def best_of(commands: list[list[str]], repeat: int) -> list[dict[str, float]]:
    """The best run of each command, running them in turns so that a busy moment of the
    machine does not fall on one of them only."""
    runs: list[list[dict[str, float]]] = [[] for _ in commands]
    for _ in range(repeat):
        for mine, command in zip(runs, commands, strict=True):
            mine.append(measure(command))
    return [
        {"wall": min(r["wall"] for r in mine), "cpu": min(r["cpu"] for r in mine)} for mine in runs
    ]


def _times(run: dict[str, float]) -> str:
    return f"{run['cpu']:6.2f} s CPU, {run['wall']:6.2f} s wall"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000, help="entries for the ratio test")
    parser.add_argument(
        "--big", type=int, default=10000, help="entries for the large test (0: skip)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="--jobs for the large test")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    args = parser.parse_args()

    work = args.keep or Path(tempfile.mkdtemp(prefix="road300-bench-"))
    small, big = work / f"entries-{args.entries}", work / f"entries-{args.big}"
    failed = False
    try:
        t = time.perf_counter()
        if not small.exists():
            generate(small, args.entries)
        if args.big and not big.exists():
            generate(big, args.big)
        print(f"generated entries in {work} ({time.perf_counter() - t:.1f} s)")

        parse, batch = best_of(
            [[sys.executable, "-c", PARSE_ONLY, str(small)], batch_command(small, 1)], args.repeat
        )
        ratio = batch["cpu"] / parse["cpu"]
        ok = ratio <= RATIO_TARGET
        failed |= not ok
        print(
            f"\n{args.entries} entries, best of {args.repeat} (CPU time counts, wall time shown):"
        )
        print(f"  (a) yaml.load with CSafeLoader, bare process: {_times(parse)}")
        print(f"  (b) road300 batch --jobs 1:                   {_times(batch)}")
        wall_ratio = batch["wall"] / parse["wall"]
        print(
            f"  (b)/(a) = {ratio:.2f} CPU ({wall_ratio:.2f} wall)  target <= {RATIO_TARGET:.1f}  "
            f"{verdict(ok)}"
        )

        if args.big:
            few = measure(batch_command(small, args.jobs))
            many = measure(batch_command(big, args.jobs))
            fast = many["wall"] < BIG_SECONDS_TARGET
            growth = many["rss_kb"] / few["rss_kb"]
            flat = growth <= RSS_GROWTH_TARGET
            failed |= not (fast and flat)
            print(f"\nroad300 batch --jobs {args.jobs}:")
            print(
                f"  {args.entries:>6} entries: {few['wall']:6.2f} s, "
                f"peak RSS {few['rss_kb'] / 1024:6.1f} MB"
            )
            print(
                f"  {args.big:>6} entries: {many['wall']:6.2f} s, "
                f"peak RSS {many['rss_kb'] / 1024:6.1f} MB"
            )
            print(f"  time  < {BIG_SECONDS_TARGET:.0f} s  {verdict(fast)}")
            print(
                f"  peak RSS growth {growth:.2f}x  target <= {RSS_GROWTH_TARGET}x  {verdict(flat)}"
            )
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print("\nall targets met" if not failed else "\nsome targets missed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
