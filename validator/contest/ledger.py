"""The ledger of a running challenge (`road300 contest run`): one SQLite file beside the
contest file (`state`), holding every message fetched (by its key in its source), what its
check found, the reply made for it and whether it was sent, the last fetch of each source,
and the draws. A message is checked once and answered once because the ledger says so.

SQLite in WAL mode (readers such as `contest status` never wait for the writer), a schema
version (`PRAGMA user_version`) with its migrations, the file made with mode 600 (it holds
the players' addresses, never a password). A message's bytes are kept until the draw
(`forget`): until then `contest recheck` may check it again and the site's report page be
made from it. One writer at a time: `Ledger.open(writer=True)`
takes an `fcntl.flock` on `<state>.lock` beside it, which says who holds it (process and
host); a second writer waits `WAIT` seconds, then gets LedgerBusy naming the holder.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from validator.contest.batch import Checked, Entry
from validator.contest.mail import Arrival, RawMessage
from validator.system.atomic import Held, hold_lock

SCHEMA_VERSION = 1
MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: the first schema.
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE messages (
        seq INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        digest TEXT NOT NULL,
        source TEXT NOT NULL,
        file TEXT NOT NULL UNIQUE,
        fetched TEXT NOT NULL,
        data BLOB,
        size INTEGER,
        split INTEGER NOT NULL DEFAULT 0,
        arrival TEXT
    );
    CREATE INDEX messages_digest ON messages (digest);
    CREATE TABLE cursors (source TEXT PRIMARY KEY, cursor TEXT NOT NULL);
    CREATE TABLE replies (
        seq INTEGER PRIMARY KEY REFERENCES messages(seq),
        message_id TEXT NOT NULL UNIQUE,
        recipient TEXT,
        sender TEXT,
        state TEXT NOT NULL,
        reason TEXT,
        data BLOB,
        written TEXT NOT NULL,
        sent TEXT
    );
    CREATE TABLE draws (
        seq INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        seed TEXT NOT NULL,
        winners INTEGER NOT NULL,
        eligible TEXT NOT NULL,
        drawn TEXT NOT NULL,
        command TEXT NOT NULL
    );
    """,
)
"""The schema's history: MIGRATIONS[n] takes a ledger from version n to n + 1. A newer
road300 appends one; an older one refuses a ledger whose version it does not know."""

WAIT = 3.0
"""Seconds a second writer waits for the first before giving up."""

ReplyState = Literal["unsent", "sending", "sent", "failed", "none"]
"""`none`: the message gets no reply (a bounce, an address that cannot be written);
`sending`: handed to the SMTP server when the run stopped (sent again by the next run)."""


class LedgerError(Exception):
    """The ledger cannot be used (not a ledger, a newer schema, unreadable)."""


class LedgerBusy(LedgerError):
    """Another run writes the ledger; the message names it."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Stored:
    """One message of the ledger."""

    seq: int
    key: str
    file: str
    raw: RawMessage | None
    """None once its bytes are no longer kept."""
    arrival: Arrival | None
    """None until it is checked."""


@dataclass(frozen=True, slots=True)
class Reply:
    """One reply of the ledger."""

    seq: int
    file: str
    """The message answered (`inbox.mbox#3`)."""
    message_id: str
    recipient: str | None
    sender: str | None
    state: ReplyState
    reason: str | None
    data: bytes | None


@dataclass(frozen=True, slots=True)
class DrawRecord:
    """A draw as recorded: its seed, the eligible entries in order (player, file, game
    hash), the winners, and the command that repeats it."""

    at: str
    seed: str
    winners: int
    eligible: list[dict[str, str | int | None]]
    drawn: list[dict[str, str | int | None]]
    command: str


class Ledger:
    """An open ledger; `open` makes it (and its folder) when it does not exist yet."""

    def __init__(self, path: Path, db: sqlite3.Connection, lock: int | None) -> None:
        self.path = path
        self.db = db
        self._lock = lock

    # -- Opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, *, writer: bool, wait: float | None = None) -> Ledger:
        """The ledger at `path`; with `writer` it is made when missing and locked for this
        process (LedgerBusy after `wait` seconds when another one holds it). Without
        `writer` it must exist, and is only read."""
        lock = None
        wait = WAIT if wait is None else wait
        if writer:
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = _lock(path, wait)
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
                try:
                    os.fchmod(fd, 0o600)  # its owner's alone, however it was made
                finally:
                    os.close(fd)
            except OSError as exc:
                os.close(lock)
                raise LedgerError(f"{path}: cannot make the ledger: {exc.strerror}") from None
        elif not path.is_file():
            raise LedgerError(f"{path}: no ledger yet: run `road300 contest run` first")
        try:
            mode = "rwc" if writer else "ro"
            db = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=wait)
            db.execute("PRAGMA foreign_keys = ON")
            if writer:
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = FULL")
                db.execute("PRAGMA secure_delete = ON")  # forgotten bytes are overwritten
            ledger = cls(path, db, lock)
            ledger._migrate(writer)
        except sqlite3.DatabaseError as exc:
            if lock is not None:
                os.close(lock)
            raise LedgerError(f"{path}: not a road300 ledger ({exc})") from None
        return ledger

    def _migrate(self, writer: bool) -> None:
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise LedgerError(
                f"{self.path}: written by a newer road300 (schema {version}, this one knows "
                f"{SCHEMA_VERSION}): upgrade road300"
            )
        if version == SCHEMA_VERSION:
            return
        if version == 0 and self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise LedgerError(f"{self.path}: an SQLite file, but not a road300 ledger")
        if not writer:
            raise LedgerError(f"{self.path}: an older ledger: run `road300 contest run` first")
        for step in range(version, SCHEMA_VERSION):
            with self.db:
                self.db.executescript("BEGIN;" + MIGRATIONS[step])
                self.db.execute(f"PRAGMA user_version = {step + 1}")
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('id', ?)", (os.urandom(8).hex(),))

    def close(self) -> None:
        self.db.close()
        if self._lock is not None:
            os.close(self._lock)  # closing the descriptor releases the lock
            self._lock = None

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def ident(self) -> str:
        """A random name of this ledger, made with it: the replies' Message-IDs hold it,
        so that two challenges never give two replies the same one."""
        return str(self._get("id"))

    # -- Messages --------------------------------------------------------------------------

    def cursor(self, source: str) -> str | None:
        row = self.db.execute("SELECT cursor FROM cursors WHERE source = ?", (source,)).fetchone()
        return None if row is None else str(row[0])

    def add(
        self,
        source: str,
        key: str,
        data: bytes,
        *,
        size: int | None = None,
        split: bool = False,
        cursor: str | None = None,
    ) -> str | None:
        """Store one fetched message (and its source's cursor, in the same transaction);
        its file name (`SOURCE#N`, numbered in its source), or None when it is stored
        already: by its key, or by its bytes (the same message under another key, as an
        IMAP folder gives after its UIDVALIDITY changed, is answered once)."""
        digest = hashlib.sha256(data).hexdigest()
        with self.db:
            known = self.db.execute(
                "SELECT 1 FROM messages WHERE key = ? OR digest = ?", (key, digest)
            ).fetchone()
            if known is not None:
                if cursor is not None:
                    self._set_cursor(source, cursor)
                return None
            (count,) = self.db.execute(
                "SELECT count(*) FROM messages WHERE source = ?", (source,)
            ).fetchone()
            file = f"{source}#{count + 1}"
            self.db.execute(
                "INSERT INTO messages (key, digest, source, file, fetched, data, size, split) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (key, digest, source, file, now(), data, size, int(split)),
            )
            if cursor is not None:
                self._set_cursor(source, cursor)
        return file

    def _set_cursor(self, source: str, cursor: str) -> None:
        self.db.execute(
            "INSERT INTO cursors VALUES (?, ?) ON CONFLICT(source) DO UPDATE SET cursor = ?",
            (source, cursor, cursor),
        )

    def _put(self, key: str, value: str) -> None:
        """Set one of the ledger's own notes (`meta`)."""
        with self.db:
            self.db.execute(
                "INSERT INTO meta VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def _get(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def fetched(self) -> None:
        """Note that a fetch has just ended (`status`'s last fetch)."""
        self._put("last_fetch", now())

    def stale(self, stale: bool = True) -> None:
        """Note that the site must be written again (`contest recheck`), or that it was."""
        self._put("stale", "1" if stale else "0")

    def is_stale(self) -> bool:
        return self._get("stale") == "1"

    def last_fetch(self) -> str | None:
        return self._get("last_fetch")

    def _seqs(self, query: str) -> list[int]:
        """The `seq` of each row `query` selects (one column), in its order."""
        return [int(seq) for (seq,) in self.db.execute(query)]

    def messages(self) -> Iterator[Stored]:
        """The messages in the order they were fetched, read one at a time: however many
        there are, one is in memory at once."""
        for seq in self._seqs("SELECT seq FROM messages ORDER BY seq"):
            yield self.message(seq)

    def unchecked(self) -> list[int]:
        """The messages not checked yet (whose bytes are kept), in order."""
        return self._seqs(
            "SELECT seq FROM messages WHERE arrival IS NULL AND data IS NOT NULL ORDER BY seq"
        )

    def message(self, seq: int) -> Stored:
        key, file, data, size, split, arrival = self.db.execute(
            "SELECT key, file, data, size, split, arrival FROM messages WHERE seq = ?", (seq,)
        ).fetchone()
        raw = None
        if data is not None:
            raw = RawMessage(file, bytes(data), self.path.parent, size, bool(split))
        return Stored(seq, key, file, raw, None if arrival is None else _arrival(arrival, file))

    def raw_messages(self) -> StoredMessages:
        """The checked messages whose bytes are kept, as a batch Source's messages."""
        return StoredMessages(self)

    def count(self) -> int:
        (n,) = self.db.execute("SELECT count(*) FROM messages").fetchone()
        return int(n)

    def checked(self, seq: int, arrival: Arrival) -> None:
        """Store what the check of message `seq` found."""
        with self.db:
            self.db.execute(
                "UPDATE messages SET arrival = ? WHERE seq = ?", (_arrival_json(arrival), seq)
            )

    def arrivals(self) -> list[Arrival]:
        """What every checked message's check found, in the order they were fetched."""
        rows = self.db.execute(
            "SELECT file, arrival FROM messages WHERE arrival IS NOT NULL ORDER BY seq"
        )
        return [_arrival(arrival, file) for file, arrival in rows]

    def fingerprints(self) -> dict[str, str]:
        """Each entry's game hash (`contest/batch.fingerprint`), by its file."""
        return {
            a.checked.file: a.checked.fingerprint
            for a in self.arrivals()
            if a.checked.fingerprint is not None
        }

    # -- Replies ---------------------------------------------------------------------------

    def unanswered(self) -> list[int]:
        """The checked messages that have no reply row yet, in order."""
        return self._seqs(
            "SELECT m.seq FROM messages m LEFT JOIN replies r ON r.seq = m.seq "
            "WHERE r.seq IS NULL AND m.arrival IS NOT NULL ORDER BY m.seq"
        )

    def message_id(self, seq: int, domain: str) -> str:
        """The Message-ID of the reply to message `seq`: the same in every run."""
        return f"<road300.{self.ident}.{seq}@{domain}>"

    def replied(
        self,
        seq: int,
        message_id: str,
        data: bytes | None,
        *,
        recipient: str | None,
        sender: str | None,
        reason: str | None = None,
    ) -> None:
        """Store the reply made for message `seq` (unsent), or that it gets none
        (`data` None, `reason` why)."""
        state: ReplyState = "unsent" if data is not None else "none"
        with self.db:
            self.db.execute(
                "INSERT INTO replies (seq, message_id, recipient, sender, state, reason, data, "
                "written) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (seq, message_id, recipient, sender, state, reason, data, now()),
            )

    def written(self) -> list[int]:
        """The messages whose reply was made (not those that get none), in order."""
        return self._seqs("SELECT seq FROM replies WHERE data IS NOT NULL ORDER BY seq")

    def to_send(self) -> list[int]:
        """The messages whose reply is unsent, or was being sent when a run stopped."""
        return self._seqs(
            "SELECT seq FROM replies WHERE state IN ('unsent', 'sending') ORDER BY seq"
        )

    def reply(self, seq: int) -> Reply:
        (found,) = self._replies(" WHERE r.seq = ?", (seq,))
        return found

    def replies(self, state: ReplyState | None = None) -> list[Reply]:
        """The replies (in one state), in order, their bytes and all: see `written` and
        `reply` for reading them one at a time."""
        if state is None:
            return self._replies("", ())
        return self._replies(" WHERE r.state = ?", (state,))

    def _replies(self, where: str, args: tuple[object, ...]) -> list[Reply]:
        query = (
            "SELECT r.seq, m.file, r.message_id, r.recipient, r.sender, r.state, r.reason, "
            "r.data FROM replies r JOIN messages m ON m.seq = r.seq"
        )
        return [
            Reply(seq, file, mid, to, sender, st, reason, None if data is None else bytes(data))
            for seq, file, mid, to, sender, st, reason, data in self.db.execute(
                query + where + " ORDER BY r.seq", args
            )
        ]

    def mark(self, seq: int, state: ReplyState, reason: str | None = None) -> None:
        """Set the state of the reply to message `seq`, at once on disk (`sending` is
        written before the reply is handed to the server, `sent` after it took it)."""
        with self.db:
            self.db.execute(
                "UPDATE replies SET state = ?, reason = ?, sent = ? WHERE seq = ?",
                (state, reason, now() if state == "sent" else None, seq),
            )

    def reply_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(("unsent", "sending", "sent", "failed", "none"), 0)
        for state, n in self.db.execute("SELECT state, count(*) FROM replies GROUP BY state"):
            counts[str(state)] = int(n)
        return counts

    def finalize(self) -> int:
        """The draw is made and the site shows it: from now on the site stays as it is
        (`is_final`), and the bytes of every answered message are deleted (`forget`)."""
        self._put("final", "1")
        return self.forget()

    def is_final(self) -> bool:
        return self._get("final") == "1"

    def forget(self) -> int:
        """Delete the bytes of every message that is checked and answered (or gets no
        reply), once the draw is made: nothing checks them again. The file keeps nothing
        of them (secure_delete, and the log emptied). How many were forgotten."""
        with self.db:
            cursor = self.db.execute(
                "UPDATE messages SET data = NULL WHERE data IS NOT NULL AND arrival IS NOT "
                "NULL AND seq IN (SELECT seq FROM replies)"
            )
        if cursor.rowcount:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return int(cursor.rowcount)

    # -- Draws -----------------------------------------------------------------------------

    def record_draw(self, draw: DrawRecord) -> None:
        with self.db:
            self.db.execute(
                "INSERT INTO draws (at, seed, winners, eligible, drawn, command) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    draw.at,
                    draw.seed,
                    draw.winners,
                    json.dumps(draw.eligible, ensure_ascii=False),
                    json.dumps(draw.drawn, ensure_ascii=False),
                    draw.command,
                ),
            )

    def draws(self) -> list[DrawRecord]:
        rows = self.db.execute(
            "SELECT at, seed, winners, eligible, drawn, command FROM draws ORDER BY seq"
        )
        return [
            DrawRecord(at, seed, n, json.loads(eligible), json.loads(drawn), command)
            for at, seed, n, eligible, drawn, command in rows
        ]


class StoredMessages:
    """The checked messages of a ledger whose bytes it keeps, read one at a time (a
    `mail.MessageList`)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def _seqs(self) -> list[int]:
        return self.ledger._seqs(
            "SELECT seq FROM messages WHERE arrival IS NOT NULL AND data IS NOT NULL ORDER BY seq"
        )

    def __len__(self) -> int:
        return len(self._seqs())

    def __iter__(self) -> Iterator[RawMessage]:
        for seq in self._seqs():
            raw = self.ledger.message(seq).raw
            if raw is not None:
                yield raw


def _arrival_json(a: Arrival) -> str:
    c = a.checked
    return json.dumps(
        {
            "entry": c.entry.to_json() if c.entry is not None else None,
            "fingerprint": c.fingerprint,
            "skipped": c.skipped,
            "message_id": a.message_id,
            "address": a.address,
            "date": a.date.isoformat() if a.date is not None else None,
            "has_record": a.has_record,
        },
        ensure_ascii=False,
    )


def _arrival(text: str, file: str) -> Arrival:
    data = json.loads(text)
    entry = None if data["entry"] is None else Entry.from_json(data["entry"], file)
    checked = Checked(entry.file if entry else file, entry, data["fingerprint"], data["skipped"])
    date = datetime.fromisoformat(data["date"]) if data["date"] is not None else None
    return Arrival(checked, data["message_id"], data["address"], date, bool(data["has_record"]))


def _lock(path: Path, wait: float) -> int:
    """Hold `<path>.lock` for this process, writing who holds it; LedgerBusy naming the
    holder when another process keeps it for `wait` seconds."""
    lock = path.with_name(path.name + ".lock")
    try:
        return hold_lock(lock, f"process {os.getpid()} on {socket.gethostname()}\n", wait)
    except Held as held:
        raise LedgerBusy(
            f"{path}: another road300 run writes this ledger ({str(held) or 'another run'}, "
            f"see {lock}); run again when it has ended"
        ) from None
    except OSError as exc:
        raise LedgerError(f"{lock}: cannot make the ledger's lock: {exc.strerror}") from None
