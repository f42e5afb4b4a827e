"""Benchmark of `road300 batch` on a mailbox against the same entries as a folder of files.

    python benchmarks/bench_mail.py                  # 2,000 messages
    python benchmarks/bench_mail.py --entries 500 --jobs 2

Target (issue 18): a mailbox of 2,000 messages is checked at the same speed per entry as a
folder: `batch --jobs 1` on an mbox whose every message carries one of the folder's records
(half attached as a file, half typed into the body between a greeting and a signature) costs
at most 1.25x the CPU time of `batch --jobs 1` on the folder of those records (each as its
own file, in the same form). CPU time of the whole process, best of --repeat runs in turns.
"""

from __future__ import annotations

import argparse
import mailbox
import multiprocessing
import random
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_batch import DICE, best_of, verdict  # noqa: E402

RATIO_TARGET = 1.25


def _texts(seeds: list[int]) -> list[tuple[int, str]]:
    """Each seed's record, a random legal game: YAML for an even seed (attached), annotated
    text for an odd one (typed into the body)."""
    from validator.engine import STANDARD
    from validator.records import dump_record
    from validator.records.dice import read_dice
    from validator.solver.playout import random_game, to_record

    rows = read_dice(DICE).rows
    out = []
    for seed in seeds:
        game = random_game(rows, STANDARD, random.Random(seed))
        record = to_record(game, with_details=True, player=f"Player {seed}")
        out.append((seed, dump_record(record, "text" if seed % 2 else "yaml")))
    return out


def generate(work: Path, count: int) -> tuple[Path, Path]:
    """The folder and the mbox holding the same `count` records."""
    seeds = list(range(count))
    chunks = [seeds[i : i + 250] for i in range(0, count, 250)]
    with multiprocessing.Pool() as pool:
        records = [r for chunk in pool.map(_texts, chunks) for r in chunk]
    folder = work / "entries"
    folder.mkdir()
    box = mailbox.mbox(work / "inbox.mbox", create=True)
    start = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    for seed, text in records:
        body = seed % 2 == 1
        suffix = ".txt" if body else ".yaml"
        (folder / f"player{seed:05d}{suffix}").write_text(text, encoding="utf-8")
        m = EmailMessage(policy=policy.default)
        m["From"] = f"Player {seed} <player{seed}@players.example>"
        m["To"] = "challenge@organizers.example"
        m["Subject"] = "My game"
        m["Date"] = format_datetime(start + timedelta(minutes=seed))
        m["Message-ID"] = f"<{seed}@players.example>"
        if body:
            m.set_content(f"Hello,\n\nhere is my game:\n\n{text}\nBest,\nPlayer {seed}\n-- \nP.\n")
        else:
            m.set_content("Hello, my record is attached.\n-- \nP.\n")
            m.add_attachment(text.encode(), "application", "octet-stream", filename="game.yaml")
        box.add(m.as_bytes())
    box.flush()
    box.close()
    return folder, work / "inbox.mbox"


def command(source: Path, jobs: int) -> list[str]:
    return [
        sys.executable, "-m", "validator", "batch", str(source),
        "--dice", str(DICE), "--jobs", str(jobs), "--format", "json",
    ]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000, help="messages (and files)")
    parser.add_argument("--jobs", type=int, default=1, help="--jobs of both runs")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="road300-bench-mail-"))
    try:
        t = time.perf_counter()
        folder, mbox = generate(work, args.entries)
        print(f"generated {args.entries} files and messages ({time.perf_counter() - t:.1f} s)")
        files, mail = best_of([command(folder, args.jobs), command(mbox, args.jobs)], args.repeat)
        n = args.entries
        ratio = mail["cpu"] / files["cpu"]
        ok = ratio <= RATIO_TARGET
        print(f"\n{n} entries, --jobs {args.jobs}, best of {args.repeat} (CPU time counts):")
        for label, run in (("folder of files", files), ("mbox of messages", mail)):
            per = run["cpu"] / n * 1000
            print(f"  {label:<17} {run['cpu']:6.2f} s CPU ({per:.2f} ms/entry), "
                  f"{run['wall']:6.2f} s wall")  # fmt: skip
        print(f"  mbox/folder = {ratio:.2f}  target <= {RATIO_TARGET}  {verdict(ok)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
