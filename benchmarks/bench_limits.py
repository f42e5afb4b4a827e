"""Benchmark of the readers' bounds: the worst input at the size cap in each record format,
and the worst hostile entry of each kind of issue 17 as a batch checks it.

    python benchmarks/bench_limits.py            # every case, each in a fresh process
    python benchmarks/bench_limits.py --cap 2097152
    python benchmarks/bench_limits.py --part entries --good 1000

Readers (issue 9, docs/record-formats.md "Limits"): with the cap at its default (1 MiB) and
reading bounded by the dice file (`max_rounds` = its rows + 1, as the checker passes it),
every case costs at most 1 s of CPU and 100 MB (peak RSS of the whole process, interpreter
included; CPU time, because wall time on a shared machine measures the neighbours). Also
shown: the header-only read (`max_rounds=0`, how a checker learns the dice file a record
names before reading its rounds), and, for information, the same inputs without
`max_rounds`, when only the size cap bounds the work (a checker never reads so: without a
usable dice file it stops after ROUNDS_WITHOUT_DICE rounds, see the entries below).

Entries (issue 17, docs/batch.md "Limits"): each hostile entry at or over the cap (16 MiB
files in each role, long numbers in each base, deep nesting, look-alike sniffing bait,
wrong-kind values, a record that names itself or a huge file as its dice file, ...) as
`check_file` checks it in a batch: at most 3 s of CPU and 300 MB (peak RSS of the whole
process). Then, for each kind, one batch of that entry among `--good` (1,000) good ones,
with a pool of two workers: it must finish with every good entry checked and valid.

Messages (issues 24 and 35, docs/batch.md "Limits"): each hostile message (8-bit headers,
From headers cut or naming two addresses, HTML and MIME that cost more than linear time,
bare-CR parts, bounces, a 2 GB sparse mbox) read from an mbox as a batch reads it, and
read again as the site and the replies read it: at most 3 s of CPU and 300 MB. Then
`--hostile` (50) copies of it among `--good-mail` (200) good messages, in a batch with a
pool of two workers: every good message's entry must be valid.

    python benchmarks/bench_limits.py --part messages

Exit status 1 when a case misses its target.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable, Iterable
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
t = time.process_time()
try:
    record = parse_record(data, fmt, source=name, max_bytes=cap, max_rounds=max_rounds)
    outcome = f"{len(record.rounds)} rounds"
except ReadError as exc:
    more = f" (+{exc.omitted})" if exc.omitted else ""
    outcome = f"{exc.diagnostic.code} x{len(exc.diagnostics)}{more}"
seconds = time.process_time() - t
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
    parser.add_argument("--part", choices=("all", "readers", "entries", "messages"), default="all")
    parser.add_argument("--good", type=int, default=1000, help="good entries per batch")
    parser.add_argument("--good-mail", type=int, default=200, help="good messages per batch")
    parser.add_argument("--hostile", type=int, default=50, help="hostile messages per batch")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    missed = 0
    if args.part in ("all", "readers"):
        missed += _readers(args.cap)
    if args.part in ("all", "entries"):
        missed += _entries(args.good)
    if args.part in ("all", "messages"):
        missed += _messages(args.good_mail, args.hostile)
    return 1 if missed else 0


def _readers(cap: int) -> int:
    """The readers at the cap; returns how many cases missed their target."""
    from validator.records.dice import read_dice

    rows = len(read_dice(DICE).rows)
    bounded = rows + 1
    print(f"size cap {cap} bytes; dice file {DICE.name}: {rows} rows -> max_rounds {bounded}")
    print(
        f"{'case':28} {'bounded':>18} {'header only':>18} {'unbounded (info)':>20}"
        "  outcome (bounded)"
    )
    missed = []
    for name in CASES:
        a = _run(name, cap, bounded)
        h = _run(name, cap, 0)
        b = _run(name, cap, None)
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
    return len(missed)


# -- Entries (issue 17) ----------------------------------------------------------------------

MIB = 1024 * 1024
ENTRY_SECONDS = 3.0
ENTRY_MB = 300


def _long(head: str, item: str, tail: str, size: int = MIB - 64) -> bytes:
    n = (size - len(head) - len(tail)) // len(item)
    return (head + item * n + tail).encode()


BIG = 16 * MIB
_ROUNDS_YAML = "- {cross: 11}\n"
_ENTRY_CASES: dict[str, Callable[[], dict[str, bytes]]] = {
    "16 MiB .yaml": lambda: {"e.yaml": _long("rounds:\n", _ROUNDS_YAML, "", BIG)},
    "16 MiB one-line .json": lambda: {
        "e.json": _long('{"rounds": [', '{"cross":11},', "{}]}", BIG)
    },
    "16 MiB .json list": lambda: {"e.json": _long("[", "[1,2,3],", "[1,2,3]]", BIG)},
    "16 MiB .txt": lambda: {"e.txt": _long("", "1 1 1 x 1/1\n", "", BIG)},
    "16 MiB .csv": lambda: {"e.csv": _long("cross\n", "11\n", "", BIG)},
    "16 MiB, no extension": lambda: {"e": _long("rounds:\n", _ROUNDS_YAML, "", BIG)},
    "names a 2 MiB dice file": lambda: {
        "e.yaml": b"dice_file: d.txt\nrounds: []\n",
        "d.txt": _long("", "1 2 3\n", "", 2 * MIB),
    },
    "names a 16 MiB dice file": lambda: {
        "e.yaml": b"dice_file: d.yaml\nrounds: []\n",
        "d.yaml": _long("", "- [1, 2, 3]\n", "", BIG),
    },
    "names itself as dice file": lambda: {
        "e.yaml": _long("dice_file: e.yaml\nrounds:\n", _ROUNDS_YAML, ""),
    },
    "text rounds, its dice file missing": lambda: {
        "e.txt": _long("dice_file: missing.txt\n", "1 1 1 x 11\n", "")
    },
    "csv rounds, its dice file missing": lambda: {
        "e.csv": _long("# dice_file: missing.txt\ncross\n", "11\n", "")
    },
    "yaml rounds, its dice file missing": lambda: {
        "e.yaml": _long("dice_file: missing.txt\nrounds:\n", _ROUNDS_YAML, "")
    },
    "json rounds, its dice file missing": lambda: {
        "e.json": _long('{"dice_file": "missing.txt", "rounds": [', '{"cross":11},', "{}]}")
    },
    "yaml base-60 integer": lambda: {"e.yaml": _long("claimed_score: 1", ":59", "\nrounds: []\n")},
    "yaml hex integer": lambda: {"e.yaml": _long("claimed_score: 0x", "f", "\nrounds: []\n")},
    "yaml octal integer": lambda: {"e.yaml": _long("claimed_score: 0o", "7", "\nrounds: []\n")},
    "yaml binary integer": lambda: {"e.yaml": _long("claimed_score: 0b", "1", "\nrounds: []\n")},
    "yaml decimal integer": lambda: {"e.yaml": _long("claimed_score: ", "9", "\nrounds: []\n")},
    "yaml !!int tag": lambda: {"e.yaml": _long('claimed_score: !!int "', "9", '"\nrounds: []\n')},
    "yaml float": lambda: {"e.yaml": _long("claimed_score: 1.", "9", "\nrounds: []\n")},
    "yaml 60,000 unknown keys": lambda: {
        "e.yaml": "".join(f"k{n}: 1\n" for n in range(60_000)).encode() + b"rounds: []\n"
    },
    "yaml unknown keys in a round": lambda: {
        "e.yaml": (
            "rounds:\n  - {cross: 11" + "".join(f", k{n}: 1" for n in range(60_000)) + "}\n"
        ).encode(),
    },
    "json long integer": lambda: {"e.json": _long('{"claimed_score": ', "9", ', "rounds": []}')},
    "json 4,300-digit integers": lambda: {
        "e.json": _long('{"rounds": [{"cross": 11}], "x": [', "9" * 4000 + ",", "1]}")
    },
    "json 1 MiB player": lambda: {"e.json": _long('{"player": "', "a", '", "rounds": []}')},
    "json 1 MiB escaped player": lambda: {
        "e.json": _long('{"player": "', "\\u200b", '", "rounds": []}')
    },
    "json one-line list": lambda: {"e.json": _long("[", "[1,2,3],", "[1,2,3]]")},
    "json one-line rounds": lambda: {"e.json": _long('{"rounds": [', '{"cross":11},', "{}]}")},
    "json wrong kinds": lambda: {"e.json": _long('{"rounds": [', '{"cross":[{},1]},', "{}]}")},
    "json booleans": lambda: {"e.json": _long('{"rounds": [', '{"roll":true,"cross":11},', "{}]}")},
    "json deep, no extension": lambda: {"e": _long('{"rounds": ', "[", "")},
    "yaml deep": lambda: {"e.yaml": _long("rounds: ", "[", "")},
    "text one line of blanks, no extension": lambda: {"e": _long("1", " ", "2 x\n")},
    "text one long path": lambda: {"e.txt": _long("1: 1 4 6 x 1/4 ", "-", " 1/1\n")},
    "text one long number": lambda: {"e.txt": _long("1: 1 4 6 x 1/4 -> 1/1 in ", "9", " steps\n")},
    "text a bad line each": lambda: {"e.txt": _long("", "1 1 1 zz\n", "")},
    "csv one long cell": lambda: {"e.csv": _long("cross,move\n1/4,", "9", "\n")},
    "dice text long row number": lambda: {"e.txt": _long("1: 1 2 3\n", "9", ": 1 2 3\n")},
}
"""Each hostile case: its files, the entry first (built only when asked: some are 16 MiB)."""
ENTRY_CASES = tuple(_ENTRY_CASES)


def entry_case(name: str) -> dict[str, bytes]:
    """The files of one hostile case, the entry first."""
    return _ENTRY_CASES[name]()


# One entry in a fresh process: write its files, warm the checker on a good entry (imports,
# pydantic's model build and the dice file are not the entry's cost), then check it as a
# batch does. Dice: --dice, unless the case's entry names its own.
ENTRY_RUN = """
import json, resource, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from benchmarks.bench_limits import ALICE_ENTRY, DICE, entry_case
from validator.check.file import Checker
from validator.contest.batch import check_file
files = entry_case(sys.argv[2])
entry = next(iter(files))
own = b"dice_file" in files[entry][:64]
with tempfile.TemporaryDirectory() as tmp:
    root = Path(tmp)
    for name, data in files.items():
        (root / name).write_bytes(data)
    del files, data
    good = ("dice_file: d0.txt\\n" if own else "") + ALICE_ENTRY
    (root / "good.yaml").write_text(good)
    (root / "d0.txt").write_bytes(DICE.read_bytes())
    checker = Checker.create(None if own else DICE, None, root=root)
    assert check_file(checker, root, "good.yaml").entry.verdict.value == "valid"
    t = time.process_time()
    checked = check_file(checker, root, entry)
    seconds = time.process_time() - t
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
rss_mb = rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024
e = checked.entry
outcome = checked.skipped or f"{e.verdict.value} {e.error.code if e.error else ''}".strip()
print(json.dumps({"seconds": seconds, "mb": rss_mb, "outcome": outcome}))
"""

# One batch in a fresh process: `good` good entries and one hostile case, pool of two.
BATCH_RUN = """
import json, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from benchmarks.bench_limits import ALICE_ENTRY, DICE, entry_case
from validator.check.file import Checker
from validator.contest.batch import check_entries, collect, find_entries
files, good = entry_case(sys.argv[2]), int(sys.argv[3])
with tempfile.TemporaryDirectory() as tmp:
    root = Path(tmp)
    for name, data in files.items():
        (root / name).write_bytes(data)
    del files, data
    for n in range(good):
        (root / f"good{n:04d}.yaml").write_text(f"player: P{n}\\n" + ALICE_ENTRY)
    t = time.perf_counter()
    found = find_entries(root)
    checker = Checker.create(DICE, None, root=root)
    batch = collect(found, check_entries(checker, root, found.files, jobs=2))
    seconds = time.perf_counter() - t
valid = sum(1 for e in batch.entries if e.file.startswith("good") and e.verdict.value == "valid")
print(json.dumps({"seconds": seconds, "valid": valid, "entries": len(batch.entries),
                  "skipped": len(batch.skipped)}))
"""

ALICE_ENTRY = "".join(
    line
    for line in (ROOT / "examples" / "alice.yaml").read_text().splitlines(keepends=True)
    if not line.startswith(("dice_file", "dice_sha256", "player"))
)
"""A valid record (340 points on the challenge dice) without its dice file or player."""


def _subprocess(script: str, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", script, str(ROOT), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return {"error": done.stderr[-400:]}
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _cases(
    cases: Iterable[str], one_run: str, batch_run: str, batch_args: list[str], good: int, width: int
) -> int:
    """Each case alone (`one_run`) and among good ones (`batch_run`), one line each against
    the targets; returns how many missed them."""
    print(f"{'case':40} {'CPU':>7} {'peak RSS':>9}  {'outcome':{width}} {'batch':>8}  good valid")
    missed = []
    for name in cases:
        one = _subprocess(one_run, name)
        many = _subprocess(batch_run, name, *batch_args)
        if "error" in one or "error" in many:
            missed.append(name)
            print(f"{name:40} FAILED: {one.get('error') or many.get('error')}")
            continue
        seconds, mb = float(str(one["seconds"])), float(str(one["mb"]))
        ok = seconds <= ENTRY_SECONDS and mb <= ENTRY_MB and many["valid"] == good
        if not ok:
            missed.append(name)
        print(
            f"{name:40} {seconds:5.2f} s {mb:6.0f} MB  {one['outcome']!s:{width}} "
            f"{float(str(many['seconds'])):6.1f} s  {many['valid']}/{good}"
            + ("" if ok else "  <- MISSED")
        )
    print("target: " + ("met" if not missed else f"missed by {', '.join(missed)}"))
    return len(missed)


def _entries(good: int) -> int:
    """Each hostile entry alone, then among `good` good ones; returns the cases missed."""
    print(
        f"\nhostile entries, each checked as a batch checks it (target: at most "
        f"{ENTRY_SECONDS:g} s of CPU and {ENTRY_MB} MB), then among {good} good ones"
    )
    return _cases(ENTRY_CASES, ENTRY_RUN, BATCH_RUN, [str(good)], good, width=28)


# -- Messages (issues 24 and 35) -------------------------------------------------------------

_MAIL_HEAD = (
    b"To: challenge@organizers.example\nSubject: my game\nMessage-ID: <m@players.example>\n"
    b"Date: Mon, 7 Dec 2026 10:00:00 +0100\nMIME-Version: 1.0\n"
)
_EVE = b"From: Eve <eve@players.example>\n"


def _mail(ctype: bytes, body: bytes, sender: bytes = _EVE, extra: bytes = b"") -> bytes:
    return sender + _MAIL_HEAD + extra + b"Content-Type: " + ctype + b"\n\n" + body


def _parts(count: int, newline: bytes, ctype: bytes = b"text/plain") -> bytes:
    part = b"--b" + newline + b"Content-Type: " + ctype + newline + newline + b"hi" + newline
    return _mail(b'multipart/mixed; boundary="b"', part * count + b"--b--" + newline)


_ALICE_BODY = (ROOT / "examples" / "alice.txt").read_bytes()
_MAIL_CASES: dict[str, Callable[[], bytes]] = {
    "8-bit display name": lambda: _mail(
        b"text/plain", _ALICE_BODY, b'From: "J\xc3\xbcrgen \xe9" <j@players.example>\n'
    ),
    "From of 4,000 characters": lambda: _mail(
        b"text/plain", _ALICE_BODY, b"From: " + b"B" * 3_990 + b" <bob@victim.example>\n"
    ),
    "From naming two addresses": lambda: _mail(
        b"text/plain", _ALICE_BODY, b"From: bob@victim.example <eve@evil.example>\n"
    ),
    "HTML: <x 500,000 times": lambda: _mail(b"text/html", b"<x" * 500_000),
    "HTML: 800 KB of CDATA": lambda: _mail(b"text/html", b"<![CDATA[" * 90_000),
    "HTML: unclosed quotes": lambda: _mail(b"text/html", b'<a b="' * 160_000),
    "HTML: unclosed comments": lambda: _mail(b"text/html", b"<!--" * 250_000),
    "bare-CR parts (500,000)": lambda: _parts(500_000, b"\r"),
    "Content-Type of 16,000 ; (15 parts)": lambda: _parts(15, b"\n", b"text/plain" + b";" * 16_000),
    "MULTIPART/MIXED 1,000 deep": lambda: _mail(
        b'MULTIPART/MIXED; boundary="b0"',
        b"".join(
            b'--b%d\nContent-Type: MULTIPART/MIXED; boundary="b%d"\n\n' % (n, n + 1)
            for n in range(1_000)
        ),
    ),
    "Content-Type with 4,000 (": lambda: _mail(b"text/plain" + b"(" * 4_000, b"hi\n"),
    "bounce from MAILER-DAEMON": lambda: _mail(
        b"text/plain", _ALICE_BODY, b"From: MAILER-DAEMON@mx.players.example\n"
    ),
    "Auto-Submitted: auto-replied": lambda: _mail(
        b"text/plain", _ALICE_BODY, extra=b"Auto-Submitted: auto-replied\n"
    ),
    "unescaped From line in a body": lambda: _mail(
        b"text/plain",
        b"hi\n\nFrom eve@evil.example Mon Dec  7 10:00:00 2026\nFrom: x@y.example\n\n",
    ),
}
"""Each hostile message, built only when asked (some are 16 MiB)."""
MAIL_CASES = (*_MAIL_CASES, "2 GB sparse mbox")
SPARSE = 2 * 1024**3


def write_mbox(path: Path, case: str, good: int, copies: int = 1) -> None:
    """An mbox of `good` good messages, then `copies` of the hostile `case` (the sparse
    case: one message, the file then extended to 2 GB with a hole)."""
    with path.open("wb") as out:
        for n in range(good):
            sender = b"From: P%d <p%d@players.example>\n" % (n, n)
            out.write(b"From p@players.example Mon Dec  7 10:00:00 2026\n")
            out.write(_mail(b"text/plain", _ALICE_BODY, sender).replace(b"<m@", b"<m%d@" % n))
            out.write(b"\n")
        if case == "2 GB sparse mbox":
            out.write(
                b"From eve@players.example Mon Dec  7 10:00:00 2026\n" + _mail(b"text/plain", b"")
            )
            out.truncate(SPARSE)
            return
        data = _MAIL_CASES[case]()
        for _ in range(copies):
            out.write(b"From eve@players.example Mon Dec  7 10:00:00 2026\n" + data + b"\n")


# One hostile message in a fresh process, read from an mbox as a batch reads it (after a
# good one, to warm the checker), then again as the site and the replies read it.
MAIL_RUN = """
import json, resource, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from benchmarks.bench_limits import DICE, write_mbox
from validator.check.file import Checker
from validator.contest.mail import Source, check_message, read_message
with tempfile.TemporaryDirectory() as tmp:
    box = Path(tmp) / "inbox.mbox"
    write_mbox(box, sys.argv[2], 1)
    checker = Checker.create(DICE, None, root=Path(tmp))
    t = time.process_time()
    source = Source.find(box, checker.max_bytes)
    good, *hostile = list(source.messages)
    seconds = time.process_time() - t
    assert check_message(checker, good).checked.entry.verdict.value == "valid"
    t = time.process_time()
    outcome = ""
    for raw in hostile:
        arrival = check_message(checker, raw)
        reading = read_message(checker, raw)
        e = arrival.checked.entry
        outcome = arrival.checked.skipped or f"{e.verdict.value} {e.error.code if e.error else ''}"
    seconds += time.process_time() - t
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
rss_mb = rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024
print(json.dumps({"seconds": seconds, "mb": rss_mb, "outcome": outcome.strip()[:36]}))
"""

# Copies of one hostile message among good ones, checked as a batch checks a mailbox.
MAIL_BATCH_RUN = """
import json, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from benchmarks.bench_limits import DICE, write_mbox
from validator.check.file import Checker
from validator.contest.mail import Source
good, copies = int(sys.argv[3]), int(sys.argv[4])
with tempfile.TemporaryDirectory() as tmp:
    box = Path(tmp) / "inbox.mbox"
    write_mbox(box, sys.argv[2], good, copies)
    t = time.perf_counter()
    checker = Checker.create(DICE, None, root=Path(tmp))
    source = Source.find(box, checker.max_bytes)
    batch = source.check(checker, 2, min_score=300)
    seconds = time.perf_counter() - t
valid = sum(
    1 for e in batch.entries
    if e.source and (e.source.address or "").startswith("p") and e.verdict.value == "valid"
)
print(json.dumps({"seconds": seconds, "valid": valid}))
"""


def _messages(good: int, copies: int) -> int:
    """Each hostile message alone, then copies of it among good ones; the cases missed."""
    print(
        f"\nhostile messages, each read as a batch and then the site read it (target: at "
        f"most {ENTRY_SECONDS:g} s of CPU and {ENTRY_MB} MB), then {copies} of it among "
        f"{good} good ones"
    )
    return _cases(MAIL_CASES, MAIL_RUN, MAIL_BATCH_RUN, [str(good), str(copies)], good, width=36)


if __name__ == "__main__":
    sys.exit(main())
