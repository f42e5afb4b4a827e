"""Benchmark of a running challenge's IMAP side: messages fetched from a real Dovecot by
`ImapFetcher` and each checked once (`mail.check_message`), against `road300 batch` on the
same messages as an mbox.

    python benchmarks/bench_contest.py                  # 2,000 messages
    python benchmarks/bench_contest.py --entries 500 --repeat 1

It starts Dovecot on loopback as the tests do (tests/dovecot.py; Debian's dovecot-imapd),
appends the messages of bench_mail's mbox (half with the record attached, half typed into
the body) to a folder with APPEND, then runs each side as its own process: the IMAP side
fetches the whole folder (IMAPS, the certificate verified) and checks every message in
that one process (`contest run` checks only new mail, one message at a time), `batch
--jobs 1` reads the mbox. Both must find the same verdicts and scores. Reported: wall
time, CPU time of the process (and its children), peak RSS; best of --repeat runs in turns.

There is no target: the point is what fetching costs against reading a local file, and
that memory stays flat (the fetcher holds one batch of at most 8 MiB of messages).

Measured on the development machine (2 cores shared with other engineers' jobs; load
average 2.5-3.9 during the run), 2,000 messages, best of 2:

    IMAP fetch + check      4.53 s wall   4.11 s CPU   54 MB peak RSS
    batch --jobs 1 (mbox)   4.48 s wall   4.11 s CPU   56 MB peak RSS
    IMAP fetch only         0.43 s wall   0.37 s CPU   42 MB peak RSS

Run again on the final code, at load average 6.0: 4.39 s CPU and 54 MB (IMAP), 4.59 s and
57 MB (batch), 0.41 s and 41 MB (fetch only); the wall times (8.3, 7.6 and 1.1 s) measured
the neighbours.

Fetching costs next to nothing against checking (the CPU of Dovecot's own processes is
not counted: they are not the client's children), so a fetched message costs what a
message of an mbox costs. Fetching holds no more memory for more messages: alone it
peaked at 42 MB for 200 messages and for 2,000; with the check, 44 MB for 200 and 54 MB
for 2,000, as batch on the mbox grew from 43 to 56 MB (the checking, not the fetching).
"""

from __future__ import annotations

import argparse
import json
import mailbox
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))

from benchmarks.bench_batch import DICE, measure  # noqa: E402
from validator.contest.imap import Security  # noqa: E402

FOLDER = "Entries"
PASSWORD_VARIABLE = "ROAD300_IMAP_PASSWORD"


@dataclass(frozen=True)
class _Server:
    scheme: str
    user: str
    host: str
    port: int
    folder: str | None
    security: Security


def imap_child(port: int, cert: Path, user: str, verdicts: Path, fetch_only: bool) -> None:
    """Fetch the folder and check every message; the verdicts and scores to `verdicts`."""
    from validator.check.file import Checker
    from validator.contest.imap import ImapFetcher
    from validator.contest.mail import RawMessage, check_message, message_cap
    from validator.records.dice import read_dice

    checker = Checker(dice=read_dice(DICE))
    server = _Server("imaps", user, "127.0.0.1", port, FOLDER, "tls")
    password = os.environ[PASSWORD_VARIABLE]
    fetcher = ImapFetcher(server, password, cert, message_cap(checker.max_bytes))
    found: Counter[str] = Counter()
    for n, incoming in enumerate(fetcher.fetch(None), start=1):
        if fetch_only:
            found["fetched"] += 1
            continue
        raw = RawMessage(f"{FOLDER}#{n}", incoming.data, ROOT, size=incoming.size)
        entry = check_message(checker, raw).checked.entry
        found[f"{entry.verdict.value} {entry.score}" if entry else "no record"] += 1
    verdicts.write_text(json.dumps(found, sort_keys=True), encoding="utf-8")


def best(commands: list[list[str]], repeat: int) -> list[dict[str, float]]:
    """Each command's best wall and CPU time and its highest peak RSS over `repeat` runs,
    run in turns (a busy moment of the machine does not fall on one of them only)."""
    runs: list[list[dict[str, float]]] = [[] for _ in commands]
    for _ in range(repeat):
        for mine, command in zip(runs, commands, strict=True):
            mine.append(measure(command))
    return [
        {
            "wall": min(r["wall"] for r in mine),
            "cpu": min(r["cpu"] for r in mine),
            "rss_kb": max(r["rss_kb"] for r in mine),
        }
        for mine in runs
    ]


def batch_verdicts(results: Path) -> dict[str, int]:
    entries = json.loads(results.read_text(encoding="utf-8"))["entries"]
    return dict(Counter(f"{e['verdict']} {e['score']}" for e in entries))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000, help="messages")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each; the best counts")
    parser.add_argument("--imap-child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.imap_child:
        port, cert, user, out, only = args.imap_child
        imap_child(int(port), Path(cert), user, Path(out), only == "fetch")
        return 0

    from dovecot import start_dovecot, stop_dovecot

    from benchmarks.bench_mail import generate

    work = Path(tempfile.mkdtemp(prefix="road300-bench-contest-"))
    server = start_dovecot()
    try:
        t = time.perf_counter()
        _, mbox = generate(work, args.entries)
        box = mailbox.mbox(mbox, create=False)
        messages = [box.get_bytes(key) for key in box.iterkeys()]
        box.close()
        print(f"generated {len(messages)} messages ({time.perf_counter() - t:.1f} s)")
        t = time.perf_counter()
        server.deliver(FOLDER, *messages)
        print(f"appended them to Dovecot ({time.perf_counter() - t:.1f} s)")
        del messages

        os.environ[PASSWORD_VARIABLE] = server.password
        me = [sys.executable, str(Path(__file__).resolve()), "--imap-child"]
        where = [str(server.imaps_port), str(server.cert), server.user]
        imap_out, fetch_out, results = work / "imap.json", work / "fetch.json", work / "batch.json"
        batch = [
            sys.executable, "-m", "validator", "batch", str(mbox), "--dice", str(DICE),
            "--jobs", "1", "--format", "json", "--output", str(results),
        ]  # fmt: skip
        runs = best(
            [
                [*me, *where, str(imap_out), "check"],
                batch,
                [*me, *where, str(fetch_out), "fetch"],
            ],
            args.repeat,
        )
        imap, mail, fetch_only = runs
        got = json.loads(imap_out.read_text(encoding="utf-8"))
        fetched = json.loads(fetch_out.read_text(encoding="utf-8"))["fetched"]
        same = got == batch_verdicts(results) and fetched == args.entries
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"\n{args.entries} messages, best of {args.repeat}, load average {load}:")
        for label, run in (
            ("IMAP fetch + check", imap),
            ("batch --jobs 1 (mbox)", mail),
            ("IMAP fetch only", fetch_only),
        ):
            print(
                f"  {label:<22} {run['wall']:6.2f} s wall {run['cpu']:6.2f} s CPU "
                f"{run['rss_kb'] / 1024:6.0f} MB peak RSS"
            )
        print(f"  the same verdicts and scores: {'yes' if same else 'NO'}")
        if not same:
            print(f"  IMAP: {got}\n  batch: {batch_verdicts(results)}\n  fetched: {fetched}")
    finally:
        stop_dovecot(server)
        shutil.rmtree(work, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
