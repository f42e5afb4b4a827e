"""Benchmark of the readers' bounds: the worst input at the size cap in each record format.

    python benchmarks/bench_limits.py            # every case, each in a fresh process
    python benchmarks/bench_limits.py --cap 2097152

Target (issue 9, docs/record-formats.md "Limits"): with the cap at its default (1 MiB) and
reading bounded by the dice file (`max_rounds` = its rows + 1, as the checker passes it),
every case costs at most 1 s and 100 MB (peak RSS of the whole process, interpreter
included). Also shown: the header-only read (`max_rounds=0`, how a checker learns the
dice file a record names before reading its rounds), and, for information, the same
inputs without `max_rounds`, when only the size cap bounds the work. Exit status 1 when
a bounded or header-only case misses the target.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DICE = ROOT / "examples" / "challenge.txt"
SECONDS_TARGET = 1.0
MB_TARGET = 100

# One case in a fresh process: build the input, warm the reader on a tiny record (imports
# and pydantic's model build are not the input's cost), then time one parse.
RUN = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from benchmarks.bench_limits import case
from validator.errors import ReadError
from validator.records import parse_record
name, cap, max_rounds = sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
fmt, data = case(name, cap)
assert len(data) <= cap, (name, len(data), cap)
warm = {"yaml": "rounds: []\\n", "json": '{"rounds": []}', "text": "1: 1 1 1 x 1/1\\n",
        "csv": "cross\\n1/1\\n"}[fmt]
parse_record(warm, fmt, source="warm")
t = time.perf_counter()
try:
    record = parse_record(data, fmt, source=name, max_bytes=cap, max_rounds=max_rounds)
    outcome = f"{len(record.rounds)} rounds"
except ReadError as exc:
    more = f" (+{exc.omitted})" if exc.omitted else ""
    outcome = f"{exc.diagnostic.code} x{len(exc.diagnostics)}{more}"
seconds = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
rss_mb = rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024
print(json.dumps({"seconds": seconds, "mb": rss_mb, "outcome": outcome}))
"""


def _fill(cap: int, head: str, item: str, tail: str = "", sep: str = "") -> bytes:
    n = (cap - len(head) - len(tail)) // (len(item) + len(sep))
    return (head + sep.join([item] * n) + tail).encode()


CASES: dict[str, tuple[str, str, str, str, str]] = {
    # name: (format, head, repeated item, tail, separator)
    "yaml: block rounds": ("yaml", "rounds:\n", "- {cross: 11}\n", "", ""),
    "yaml: flow rounds": ("yaml", "rounds: [", "{cross: 11}", "]", ","),
    "yaml: a bad value each": ("yaml", "rounds: [", "{cross: 99}", "]", ","),
    "yaml: an unknown key each": ("yaml", "rounds: [", "{cross: 11, x: 1}", "]", ","),
    "yaml: one long string": ("yaml", "player: ", "a", "\nrounds: []\n", ""),
    "yaml: deep nesting": ("yaml", "rounds: ", "[", "", ""),
    "json: rounds": ("json", '{"rounds": [', '{"cross":11}', "]}", ","),
    "json: a bad value each": ("json", '{"rounds": [', '{"cross":99}', "]}", ","),
    "json: deep nesting": ("json", '{"rounds": ', "[", "", ""),
    "text: rounds": ("text", "", "1 1 1 x 11\n", "", ""),
    "text: a syntax error each": ("text", "", "1 1 1 zz\n", "", ""),
    "text: one long line": ("text", "1: 1 1 1 x 1/1 ", "-> ", "\n", ""),
    "text: header lines": ("text", "", "rules: standard\n", "", ""),
    "text: dice lines, no rounds": ("text", "", "1 1 1\n", "", ""),
    "text: numbered dice lines": ("text", "", "1: 1 1 1\n", "", ""),
    "csv: rounds": ("csv", "cross\n", "11\n", "", ""),
    "csv: a bad cell each": ("csv", "cross\n", "zz\n", "", ""),
    "csv: one wide row": ("csv", "cross\n", "1/1,", "\n", ""),
    "csv: empty rows": ("csv", "roll,cross\n", ",\n", "", ""),
}


def case(name: str, cap: int) -> tuple[str, bytes]:
    fmt, head, item, tail, sep = CASES[name]
    return fmt, _fill(cap, head, item, tail, sep)


def _run(name: str, cap: int, max_rounds: int | None) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(ROOT), name, str(cap), json.dumps(max_rounds)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return {"seconds": float("nan"), "mb": float("nan"), "outcome": done.stderr[-300:]}
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap", type=int, default=1024 * 1024, help="the size cap in bytes")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from validator.records.dice import read_dice

    rows = len(read_dice(DICE).rows)
    bounded = rows + 1
    print(f"size cap {args.cap} bytes; dice file {DICE.name}: {rows} rows -> max_rounds {bounded}")
    print(
        f"{'case':28} {'bounded':>18} {'header only':>18} {'unbounded (info)':>20}"
        "  outcome (bounded)"
    )
    missed = []
    for name in CASES:
        a = _run(name, args.cap, bounded)
        h = _run(name, args.cap, 0)
        b = _run(name, args.cap, None)
        ok = all(
            float(str(r["seconds"])) <= SECONDS_TARGET and float(str(r["mb"])) <= MB_TARGET
            for r in (a, h)
        )
        if not ok:
            missed.append(name)
        print(
            f"{name:28} {a['seconds']:6.2f} s {a['mb']:5.0f} MB "
            f"{h['seconds']:6.2f} s {h['mb']:5.0f} MB "
            f"{b['seconds']:7.2f} s {b['mb']:6.0f} MB  {a['outcome']}{'' if ok else '  <- MISSED'}"
        )
    target = f"at most {SECONDS_TARGET:g} s and {MB_TARGET} MB per bounded or header-only case"
    print(f"target {target}: " + ("met" if not missed else f"missed by {', '.join(missed)}"))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
