"""The mutation fuzzer (slow step): every reader gets mutated copies of good inputs and
must either read them or refuse them with a ReadError whose diagnostics say where, never
another exception. Fixed seeds, a time budget per reader (FUZZ_SECONDS, default 20).

    python -m pytest -m slow tests/test_fuzz.py
    FUZZ_SECONDS=300 python -m pytest -m slow tests/test_fuzz.py   # a longer campaign

A reader is one entry of READERS: a name, the good inputs it starts from, and a function
of the mutated bytes. A new input format (the mail reader, say) adds its line there.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CHALLENGE, EXAMPLES

from validator.check.file import Checker
from validator.contest.batch import check_file
from validator.contest.mail import RawMessage, message_cap, read_message
from validator.errors import ReadError
from validator.records import parse_record
from validator.records.dice import parse_dice

pytestmark = pytest.mark.slow

SECONDS = float(os.environ.get("FUZZ_SECONDS", "20"))
SEED = 17

TOKENS = [
    b"\x00", b"\x1b]0;t\x07", b"\xff", b"\xe9", b"\xef\xbb\xbf", b"\r", b"\r\n", b"\t",
    b"[", b"]", b"{", b"}", b"[[[[[[[[", b"{{{{", b'"', b"'", b":", b",", b"-", b"#", b"//",
    b"&a ", b"*a", b"<<: ", b"!!python/object:os.system ", b"!!int ", b"!!str ", b"!t ",
    b"9" * 5000, b"0x" + b"f" * 200, b"0b" + b"1" * 200, b"1" + b":59" * 200, b"1e999",
    b"NaN", b"-0", b"true", b"null", b"~", b"yes", b"\xe2\x80\xae", b"\xe2\x80\x8b",
    b"\xe2\x80\xa8", b"\xef\xbc\x9d", b"reroll", b"ring", b"escape", b"x 9/9", b"-> 1/1",
    b"rounds", b"dice_file: ../../etc/passwd", b"rules: ./house.yaml", b"player: ",
    b"\n---\n", b"sep=;\n", b"roll,dice,cross,move\n", b" " * 3000, b"-" * 3000,
]  # fmt: skip


def _mutate(rng: random.Random, data: bytes) -> bytes:
    """One to four mutations: flip, insert a token or random bytes, delete, repeat, cut."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(out) + 1)
        kind = rng.randrange(6)
        if kind == 0 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif kind == 1:
            out[at:at] = rng.choice(TOKENS)
        elif kind == 2:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif kind == 3:
            del out[at : at + rng.randint(1, 40)]
        elif kind == 4 and out:
            piece = out[at : at + rng.randint(1, 200)]
            out[at:at] = piece * rng.randint(1, 50)
        else:
            del out[at:]
    return bytes(out)


def _dice_inputs() -> dict[str, bytes]:
    rows = [line.split() for line in CHALLENGE.read_text().splitlines() if line.strip()]
    rows = [r[-3:] for r in rows if len(r) >= 3 and all(d.isdigit() for d in r[-3:])]
    return {
        ".txt": CHALLENGE.read_bytes(),
        ".csv": ("d1,d2,d3\n" + "".join(",".join(r) + "\n" for r in rows)).encode(),
        ".yaml": "".join(f"- [{', '.join(r)}]\n" for r in rows).encode(),
        ".json": json.dumps([[int(d) for d in r] for r in rows]).encode(),
    }


def _record(fmt: str) -> Callable[[bytes], object]:
    suffix = {"yaml": "yaml", "json": "json", "text": "txt", "csv": "csv"}[fmt]
    return lambda data: parse_record(data, fmt, source=f"r.{suffix}")


def _sniffed(data: bytes) -> object:
    return parse_record(data, None, source="entry")


def _dice(suffix: str) -> Callable[[bytes], object]:
    return lambda data: parse_dice(data, f"d{suffix}", suffix)


_ENTRY_FOLDER: list[Path] = []


def _batch_entry(data: bytes) -> object:
    """The whole of a batch's work on one entry: open, sniff, read, replay, dice-file test.
    Never raises by design; a reader bug shows as its "please report it" message."""
    root = _ENTRY_FOLDER[0]
    name = random.Random(data).choice(["e.yaml", "e.json", "e.txt", "e.csv", "e"])
    (root / name).write_bytes(data)
    checked = check_file(Checker.create(CHALLENGE, None, root=root), root, name)
    message = checked.entry.error.message if checked.entry and checked.entry.error else ""
    assert "please report it" not in message, message
    return checked


def _mail_inputs() -> list[bytes]:
    """The test inbox's messages (tests/mail_helpers.py: bodies in three languages,
    attachments in every format, HTML, alternatives, quotes, hostile headers), and some of
    them as odd real mail comes: raw 8-bit bytes (UTF-8, Latin-1) in the From and Subject,
    and bare CR line ends."""
    from mail_helpers import inbox

    made = [m.message.as_bytes() for m in inbox()]
    odd = []
    for data in made[:8]:
        head, blank, body = data.partition(b"\n\n")
        for name in (b"J\xc3\xbcrgen \xe9", b"Fran\xe7oise \xff\xfe"):
            odd.append(
                re.sub(rb"(?m)^(From|Subject): ", rb"\g<0>" + name + b" ", head) + blank + body
            )
        odd.append(data.replace(b"\n", b"\r"))
    return made + odd


def _mail_message(data: bytes) -> object:
    """One message through the mail reader and the check of its record, as a batch does;
    it never raises by design, so a reader bug shows as its "please report it" message."""
    root = _ENTRY_FOLDER[0]
    checker = Checker.create(CHALLENGE, None, root=root)
    cap = message_cap(checker.max_bytes)
    raw = RawMessage("inbox.mbox#1", data[:cap], root, None if len(data) <= cap else len(data))
    reading = read_message(checker, raw)
    error = reading.result.error if reading.result is not None else None
    message = error.message if error is not None else ""
    assert "please report it" not in message, message
    meta = reading.meta  # what goes into the JSON, the site and the replies' headers
    for text in (meta.name, meta.address, meta.subject, meta.message_id):
        assert text is None or not _SURROGATE.search(text), text
    return reading


_SURROGATE = re.compile("[\ud800-\udfff]")


RECORDS = {
    fmt: (EXAMPLES / f"alice.{suffix}").read_bytes()
    for fmt, suffix in (("yaml", "yaml"), ("json", "json"), ("text", "txt"), ("csv", "csv"))
}
READERS: dict[str, tuple[list[bytes], Callable[[bytes], object]]] = {
    **{f"record {fmt}": ([data], _record(fmt)) for fmt, data in RECORDS.items()},
    "record by content": (list(RECORDS.values()), _sniffed),
    **{f"dice {suffix}": ([data], _dice(suffix)) for suffix, data in _dice_inputs().items()},
    "batch entry": (list(RECORDS.values()), _batch_entry),
    "mail message": (_mail_inputs(), _mail_message),
}
"""Every reader the fuzzer runs: its starting inputs and the call under test."""


@pytest.mark.parametrize("reader", list(READERS))
def test_mutated_input_is_read_or_refused_with_a_location(reader: str, tmp_path: Path) -> None:
    _ENTRY_FOLDER[:] = [tmp_path]
    seeds, read = READERS[reader]
    rng = random.Random(f"{SEED} {reader}")
    deadline = time.monotonic() + SECONDS
    runs = refused = 0
    slowest = (0.0, b"")
    while time.monotonic() < deadline:
        data = _mutate(rng, rng.choice(seeds))
        started = time.perf_counter()
        try:
            read(data)
        except ReadError as exc:
            refused += 1
            for d in exc.diagnostics:
                assert d.message.strip() and d.code[0] in "ED", (d, data[:200])
                assert d.line is None or d.line >= 1, (d, data[:200])
        spent = time.perf_counter() - started
        if spent > slowest[0]:
            slowest = (spent, data)
        runs += 1
    assert runs > 0
    print(f"{reader}: {runs} inputs, {refused} refused, slowest {slowest[0]:.2f} s")
