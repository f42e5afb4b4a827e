"""Benchmark of the results site (`road300 batch --site`) against checking the same entries.

    python benchmarks/bench_site.py                  # 10,000 entries
    python benchmarks/bench_site.py --entries 1000 --repeat 1

Targets (issue 38): writing the site of N entries costs at most 2x checking them, and the
site takes at most 20 KB per entry on disk. Both runs are `road300 batch --jobs 1` on the
same entries (bench_batch.py's: random legal games, about 1 in 100 broken); checking is
the run without --site, the site's cost is what --site adds to it, both as CPU time of
the whole process (interpreter start included; CPU time because wall time on a shared
machine measures the neighbours).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.bench_batch import _times, batch_command, best_of, generate, verdict

COST_TARGET = 2.0
BYTES_TARGET = 20 * 1024


def site_size(site: Path) -> tuple[int, int, int]:
    """(bytes of the whole site, of its largest entry page, entry pages)."""
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    pages = [p.stat().st_size for p in (site / "entries").glob("*.html")]
    return total, max(pages, default=0), len(pages)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=2, help="runs of each; the best counts")
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    args = parser.parse_args()

    work = args.keep or Path(tempfile.mkdtemp(prefix="road300-bench-site-"))
    folder, site = work / f"entries-{args.entries}", work / "site"
    try:
        t = time.perf_counter()
        if not folder.exists():
            generate(folder, args.entries)
        print(f"generated {args.entries} entries in {work} ({time.perf_counter() - t:.1f} s)")
        checking, with_site = best_of(
            [batch_command(folder, 1), [*batch_command(folder, 1), "--site", str(site)]],
            args.repeat,
        )
        cost = with_site["cpu"] - checking["cpu"]
        ratio = cost / checking["cpu"]
        total, largest, pages = site_size(site)
        per_entry = total / max(pages, 1)
        fast = ratio <= COST_TARGET
        small = per_entry <= BYTES_TARGET and largest <= BYTES_TARGET
        print(f"\n{args.entries} entries, best of {args.repeat}, road300 batch --jobs 1:")
        print(f"  (a) checking, without --site: {_times(checking)}")
        print(f"  (b) with --site:              {_times(with_site)}")
        print(
            f"  the site's cost (b)-(a) = {cost:.2f} s CPU = {ratio:.2f}x the checking  "
            f"target <= {COST_TARGET:.1f}x  {verdict(fast)}"
        )
        print(
            f"  site: {total / 1e6:.1f} MB for {pages} entry pages: {per_entry / 1024:.1f} KB "
            f"per entry, the largest page {largest / 1024:.1f} KB  target <= "
            f"{BYTES_TARGET // 1024} KB  {verdict(small)}"
        )
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    ok = fast and small
    print("\nall targets met" if ok else "\nsome targets missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
