"""Benchmark of a running challenge: `road300 contest run` fetching 2,000 messages over IMAP
from a real Dovecot, checking and answering them (a dry run: the replies and the site
written), against `road300 batch --site --replies` on the same messages as an mbox.

    python benchmarks/bench_contest.py                  # 2,000 messages
    python benchmarks/bench_contest.py --entries 200 --repeat 2

It starts Dovecot on loopback as the tests do (tests/dovecot.py; Debian's dovecot-imapd),
appends the messages of bench_mail's mbox (half with the record attached, half typed into
the body) to a folder with APPEND, and runs as processes of their own, in turns:

- `contest run` in a new challenge folder each time (`[mail] imap`, IMAPS with the
  certificate verified through `ca_file`, the password in ROAD300_IMAP_PASSWORD): it
  fetches every message into a new ledger, checks each, makes a reply to each, writes the
  replies folder and the results site;
- `batch inbox.mbox --site --replies --organizer`, the same work from a local file;
- `contest run` once more in the last challenge folder: nothing new (what cron costs
  between mails);
- the fetch alone (`ImapFetcher`, as `contest run` makes it), for what IMAP costs.

Both take their processes as they do by default (one per 50 messages, at most one per
core). `contest export` and batch's JSON must give the same verdicts and scores, and each
must write a reply to every message. Reported: wall time, CPU time of the process and its
children (Dovecot's own processes are not counted), the peak RSS of the largest process;
the best of --repeat runs.

Measured on the development machine (2 cores shared with other engineers' jobs, so the
wall times measure the neighbours too), 2,000 messages, best of 2 (`--repeat 2`), load
average 5.8, 6.4, 6.9 at the end:

    contest run (IMAP)          123.73 s wall   94.90 s CPU    104 MB peak RSS
    batch --site --replies      112.94 s wall   83.15 s CPU    102 MB peak RSS
    contest run, nothing new      0.74 s wall    0.69 s CPU     53 MB peak RSS
    IMAP fetch only               0.52 s wall    0.40 s CPU     43 MB peak RSS

An earlier run, best of 1 at load average 4.9-12: 98.80 s CPU and 106 MB (contest run,
247 s wall while the load was highest), 92.25 s and 100 MB (batch, 100 s wall), 0.77 s
(nothing new), 0.45 s and 43 MB (fetch only).

Fetching over IMAP costs next to nothing (0.4 s of the client's CPU for 2,000 messages)
against checking and, most of all, writing a report page and a reply for each entry:
`contest run` costs 7-14% more CPU than `batch` on the mbox, in the same memory; the
difference was not profiled (the ledger is the likely part: each message, entry and reply
written to SQLite as it comes, and each message read back from it for the site). A run with
nothing new (what cron costs between mails) asks the server for later UIDs, finds none and
leaves the site and the replies as they are. The fetch's memory does not grow with the
folder: it holds one batch of at most 8 MiB of messages.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))

from benchmarks.bench_batch import DICE, measure  # noqa: E402

FOLDER = "Entries"
ORGANIZER = "Bench challenge <challenge@organizers.example>"
PASSWORD_VARIABLE = "ROAD300_IMAP_PASSWORD"


def fetch_child(address: str, ca_file: Path, out: Path) -> None:
    """Fetch the whole folder as `contest run` does, without checking; the count to `out`."""
    from validator.cli.contest_run import make_fetcher
    from validator.contest.config import Contest
    from validator.contest.mailurl import parse_mail_url
    from validator.records.source import MAX_BYTES

    contest = Contest(path=out, imap=parse_mail_url(address, "imap"), ca_file=ca_file)
    fetched = sum(1 for _ in make_fetcher(contest, MAX_BYTES).fetch(None))
    out.write_text(json.dumps({"fetched": fetched}), encoding="utf-8")


def challenge(work: Path, n: int, address: str, cert: Path) -> Path:
    """A new challenge folder whose contest file fetches from the benchmark's folder."""
    folder = work / f"challenge-{n}"
    folder.mkdir()
    shutil.copy(DICE, folder / "dice.txt")
    shutil.copy(cert, folder / "ca.pem")
    (folder / "road300.toml").write_text(
        f'name = "Bench"\ndice = "dice.txt"\norganizer = "{ORGANIZER}"\n'
        f'[mail]\nimap = "{address}"\nca_file = "ca.pem"\n',
        encoding="utf-8",
    )
    return folder / "road300.toml"


def verdicts(results: Path) -> dict[str, int]:
    entries = json.loads(results.read_text(encoding="utf-8"))["entries"]
    return dict(Counter(f"{e['verdict']} {e['score']}" for e in entries))


def replies(folder: Path) -> int:
    return sum(1 for _ in folder.glob("reply-*.eml"))


def best(runs: list[dict[str, float]]) -> dict[str, float]:
    return {
        "wall": min(r["wall"] for r in runs),
        "cpu": min(r["cpu"] for r in runs),
        "rss_kb": max(r["rss_kb"] for r in runs),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000, help="messages")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each; the best counts")
    parser.add_argument("--fetch-child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fetch_child:
        address, ca_file, out = args.fetch_child
        fetch_child(address, Path(ca_file), Path(out))
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
        os.environ["HOME"] = str(work)  # no ~/.netrc of the machine's
        address = server.address(FOLDER)
        python = [sys.executable, "-m", "validator"]
        batch_out = work / "batch"
        batch = [
            *python, "batch", str(mbox), "--dice", str(DICE), "--format", "json",
            "--output", str(batch_out / "results.json"), "--site", str(batch_out / "site"),
            "--replies", str(batch_out / "replies"), "--organizer", ORGANIZER,
        ]  # fmt: skip
        fetch_out = work / "fetch.json"
        fetch = [
            sys.executable,
            __file__,
            "--fetch-child",
            address,
            str(server.cert),
            str(fetch_out),
        ]
        runs: dict[str, list[dict[str, float]]] = {}
        toml = work
        for n in range(args.repeat):
            toml = challenge(work, n, address, server.cert)
            shutil.rmtree(batch_out, ignore_errors=True)
            batch_out.mkdir()
            for label, command in (
                ("contest run (IMAP)", [*python, "contest", "run", "--contest", str(toml)]),
                ("batch --site --replies", batch),
                ("contest run, nothing new", [*python, "contest", "run", "--contest", str(toml)]),
                ("IMAP fetch only", fetch),
            ):
                runs.setdefault(label, []).append(measure(command))
        exported = work / "exported.json"
        export = [*python, "contest", "export", "--contest", str(toml), "-o", str(exported)]
        measure(export)
        fetched = json.loads(fetch_out.read_text(encoding="utf-8"))["fetched"]
        same = (
            verdicts(exported) == verdicts(batch_out / "results.json")
            and replies(toml.parent / "replies") == replies(batch_out / "replies") == args.entries
            and fetched == args.entries
        )
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"\n{args.entries} messages, best of {args.repeat}, load average {load}:")
        for label, mine in runs.items():
            run = best(mine)
            print(
                f"  {label:<26} {run['wall']:7.2f} s wall {run['cpu']:7.2f} s CPU "
                f"{run['rss_kb'] / 1024:6.0f} MB peak RSS"
            )
        print(f"  the same verdicts, scores and replies: {'yes' if same else 'NO'}")
        if not same:
            print(
                f"  contest: {verdicts(exported)}, {replies(toml.parent / 'replies')} replies\n"
                f"  batch: {verdicts(batch_out / 'results.json')}, "
                f"{replies(batch_out / 'replies')} replies\n  fetched: {fetched}"
            )
    finally:
        stop_dovecot(server)
        shutil.rmtree(work, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
