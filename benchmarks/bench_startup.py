"""Start-up time: `road300 --version` against `python -c "import click"`.

Target (issue #2): road300 --version within 2x the time of importing click alone.
Run: python benchmarks/bench_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time

TARGET = 2.0


def median_seconds(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    road300 = shutil.which("road300")
    cli = [road300, "--version"] if road300 else [sys.executable, "-m", "validator", "--version"]
    baseline = median_seconds([sys.executable, "-c", "import click"], args.runs)
    ours = median_seconds(cli, args.runs)
    ratio = ours / baseline
    verdict = "PASS" if ratio <= TARGET else "FAIL"
    print(f"python -c 'import click': {baseline * 1000:7.1f} ms (median of {args.runs})")
    print(
        f"{' '.join(cli[-2:]) if road300 else 'python -m validator --version'}: "
        f"{ours * 1000:7.1f} ms"
    )
    print(f"ratio {ratio:.2f} (target <= {TARGET}): {verdict}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
