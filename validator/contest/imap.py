"""The messages of an IMAP folder, fetched for a running challenge (`[mail] imap` of the
contest file), with the standard library's `imaplib`.

Read only: the folder is opened with EXAMINE and every message fetched with `BODY.PEEK`,
so nothing on the server changes (no `\\Seen` flag set, nothing moved or deleted). A
message is known by its folder's UIDVALIDITY and its UID (`imap:<UIDVALIDITY>:<UID>`);
the cursor `<UIDVALIDITY>:<UID>` says where the next fetch starts. When the server gives
the folder a new UIDVALIDITY (it was recreated, or restored), the old UIDs mean nothing
any more and the fetch starts from the beginning, under new keys.

Memory stays bounded whatever the folder holds: the sizes are asked first, in batches;
bodies are fetched in batches of a bounded total, each message no further than the cap
(`max_bytes`), and a message over it as its header only (`Incoming.size` set).

The address, its TLS and the rule for certificates are mailurl.py's: `imaps://` is TLS from
the start, `imap://` needs STARTTLS but to a loopback host, and certificates are verified
(`ca_file` adds one to trust), except a loopback server's when no `ca_file` is given.
"""

from __future__ import annotations

import base64
import imaplib
import re
import ssl
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace
from itertools import groupby
from pathlib import Path
from typing import Any

from validator.contest.incoming import FetchError, Incoming
from validator.contest.mail import HEADER_BYTES, header_of
from validator.contest.mailurl import MailURL, MailURLError, tls_context

TIMEOUT = 60.0
"""Seconds a connection, a TLS handshake or one answer of the server may take."""
SEARCH_WINDOW = 10_000
"""About how many UIDs one UID SEARCH answers with (its answer is one line)."""
SIZE_BATCH = 500
"""UIDs whose sizes are asked in one UID FETCH."""
BODY_BATCH_BYTES = 8 * 1024 * 1024
"""At most this many bytes of messages are asked in one UID FETCH (and held at once)."""
BODY_BATCH_COUNT = 200

_SIZE = re.compile(rb"UID (\d+) RFC822\.SIZE (\d+)|RFC822\.SIZE (\d+) UID (\d+)")
_UID = re.compile(rb"\bUID (\d+)")
_START = re.compile(rb"^\d+ \(")
_CURSOR = re.compile(r"^(\d{1,10}):(\d{1,10})$")


class ImapError(FetchError):
    """The folder cannot be read (no connection, an untrusted certificate, a refused login,
    no such folder, a time-out); the message names the server and folder, never the
    password."""


class ImapFetcher:
    """The messages of one IMAP folder (a `Fetcher`): each `fetch` logs in, opens the folder
    read-only, yields the messages after the cursor and logs out."""

    def __init__(
        self,
        url: MailURL,
        password: str | None,
        ca_file: Path | None,
        max_bytes: int,
        *,
        timeout: float = TIMEOUT,
    ) -> None:
        """`max_bytes` is the cap of a whole message (mail.message_cap), over which only
        its header is fetched."""
        self.url = url
        self.folder = url.folder or "INBOX"
        self._password = password
        self.ca_file = ca_file
        self.max_bytes = max_bytes
        self.timeout = timeout

    @property
    def label(self) -> str:
        return str(replace(self.url, folder=self.folder))

    def __repr__(self) -> str:
        return f"ImapFetcher({self.label})"

    def fetch(self, cursor: str | None) -> Generator[Incoming, None, None]:
        """The messages after `cursor`; closing the generator early logs out."""
        validity, last = _cursor(cursor)
        with self._session() as imap:
            current, exists = self._open(imap)
            after = last if validity == current else 0
            for window in self._windows(imap, after, exists):
                # `a:*` always matches the folder's last message, even when its UID is
                # below `a` (nothing newer): it is dropped here.
                new = [uid for uid in self._search(imap, window) if uid > after]
                for start in range(0, len(new), SIZE_BATCH):
                    batch = new[start : start + SIZE_BATCH]
                    sizes = self._sizes(imap, batch)
                    yield from self._bodies(imap, current, batch, sizes)

    # -- the connection --------------------------------------------------------------------

    @contextmanager
    def _session(self) -> Iterator[imaplib.IMAP4]:
        """A logged-in connection, logged out (or just closed) however the fetch ends."""
        imap = self._connect()
        try:
            self._login(imap)
        except BaseException:
            _close(imap)
            raise
        broken = False
        try:
            yield imap
        except ImapError:
            broken = True  # a time-out, a lost connection: no LOGOUT to wait for
            raise
        finally:
            if broken:
                _close(imap)
            else:
                try:
                    imap.logout()
                except (imaplib.IMAP4.error, OSError, EOFError):
                    _close(imap)

    def _connect(self) -> imaplib.IMAP4:
        """A connection in TLS as the address says (`tls`: from the start; `starttls`:
        required; `plain`, a loopback host only: STARTTLS when the server offers it), its
        certificate verified as mailurl.tls_context says."""
        url, where = self.url, f"{self.url.host}:{self.url.port}"
        try:
            context = tls_context(self.ca_file, loopback=url.loopback)
        except MailURLError as exc:
            raise ImapError(str(exc)) from None
        try:
            imap: imaplib.IMAP4
            if url.security == "tls":
                imap = imaplib.IMAP4_SSL(
                    url.host, url.port, ssl_context=context, timeout=self.timeout
                )
            else:
                imap = imaplib.IMAP4(url.host, url.port, timeout=self.timeout)
                if url.security == "starttls" or "STARTTLS" in imap.capabilities:
                    try:
                        imap.starttls(ssl_context=context)
                    except BaseException:
                        _close(imap)
                        raise
        except ssl.SSLCertVerificationError as exc:
            raise ImapError(
                f"{where}: the server's TLS certificate is not trusted "
                f"({exc.verify_message}); add its CA with ca_file"
            ) from None
        except imaplib.IMAP4.error as exc:
            raise ImapError(f"{where}: STARTTLS failed: {self._said(exc)}") from None
        except (OSError, EOFError) as exc:
            raise ImapError(f"{where}: cannot connect: {self._said(exc)}") from None
        return imap

    def _login(self, imap: imaplib.IMAP4) -> None:
        where = f"{self.url.host}:{self.url.port}"
        if self._password is None:
            raise ImapError(
                f"{where}: no password for {self.url.user} (set ROAD300_IMAP_PASSWORD or "
                "put it in ~/.netrc)"
            )
        user, secret = self.url.user, self._password
        try:
            if user.isascii() and secret.isascii():
                imap.login(user, secret)
            else:  # LOGIN takes ASCII only; SASL PLAIN (RFC 4616) is UTF-8
                token = f"\0{user}\0{secret}".encode()
                imap.authenticate("PLAIN", lambda _challenge: token)
        except (imaplib.IMAP4.error, OSError, EOFError) as exc:
            raise ImapError(
                f"{where}: the login as {self.url.user} failed: {self._said(exc)}"
            ) from None

    def _open(self, imap: imaplib.IMAP4) -> tuple[int, int]:
        """EXAMINE the folder (read-only); its UIDVALIDITY and how many messages it holds."""
        try:
            status, data = imap.select(_quoted(self.folder), readonly=True)
        except (imaplib.IMAP4.error, OSError, EOFError) as exc:
            raise ImapError(f"{self._where}: EXAMINE failed: {self._said(exc)}") from None
        if status != "OK":
            raise ImapError(f"{self._where}: the folder cannot be opened: {self._said(data)}")
        _, values = imap.response("UIDVALIDITY")
        try:
            validity = int(values[-1])
        except (TypeError, ValueError, IndexError):
            raise ImapError(f"{self._where}: the server gave the folder no UIDVALIDITY") from None
        exists = data[-1] if data else None  # unknown: searched in one window
        return validity, int(exists) if isinstance(exists, bytes) and exists.isdigit() else 0

    # -- the messages ----------------------------------------------------------------------

    def _windows(self, imap: imaplib.IMAP4, after: int, exists: int) -> Iterator[str]:
        """UID ranges that cover every UID after `after`, each holding about SEARCH_WINDOW
        messages or fewer: the UIDs of every SEARCH_WINDOW-th message bound them, so no
        SEARCH answer grows with the folder (imaplib refuses a line over 1 MB). Messages
        expunged meanwhile only make a range smaller; the last one ends at `*`."""
        marks = range(SEARCH_WINDOW, exists + 1, SEARCH_WINDOW)
        bounds: list[int] = []
        if marks:
            data = self._ask("FETCH", imap.fetch, ",".join(map(str, marks)), "(UID)")
            bounds = sorted(
                int(m[1]) for line in data if isinstance(line, bytes) and (m := _UID.search(line))
            )
        start = after + 1
        for bound in bounds:
            if bound >= start:
                yield f"{start}:{bound}"
                start = bound + 1
        yield f"{start}:*"

    def _search(self, imap: imaplib.IMAP4, window: str) -> list[int]:
        """The UIDs in `window`, ascending."""
        data = self._ask("UID SEARCH", imap.uid, "SEARCH", "UID", window)
        found = {int(n) for line in data if isinstance(line, bytes) for n in line.split()}
        return sorted(found)

    def _sizes(self, imap: imaplib.IMAP4, uids: list[int]) -> dict[int, int]:
        data = self._ask("UID FETCH", imap.uid, "FETCH", _uid_set(uids), "(UID RFC822.SIZE)")
        sizes: dict[int, int] = {}
        for line in data:
            text = line[0] if isinstance(line, tuple) else line
            if isinstance(text, bytes) and (m := _SIZE.search(text)):
                uid, size = (m[1], m[2]) if m[1] else (m[4], m[3])
                sizes[int(uid)] = int(size)
        return sizes

    def _bodies(
        self, imap: imaplib.IMAP4, validity: int, uids: list[int], sizes: dict[int, int]
    ) -> Iterator[Incoming]:
        """The messages `uids`, in order: whole when within the cap, else their header."""
        cap = self.max_bytes
        batch: list[int] = []
        total = 0
        for uid in uids:
            size = sizes.get(uid)
            if size is None:
                continue  # expunged since the search: nothing to fetch
            cost = min(size, cap) if size <= cap else HEADER_BYTES
            if batch and (total + cost > BODY_BATCH_BYTES or len(batch) >= BODY_BATCH_COUNT):
                yield from self._batch(imap, validity, batch, sizes)
                batch, total = [], 0
            batch.append(uid)
            total += cost
        if batch:
            yield from self._batch(imap, validity, batch, sizes)

    def _batch(
        self, imap: imaplib.IMAP4, validity: int, uids: list[int], sizes: dict[int, int]
    ) -> Iterator[Incoming]:
        cap = self.max_bytes
        whole = [u for u in uids if sizes[u] <= cap]
        heads = [u for u in uids if sizes[u] > cap]
        got: dict[int, bytes] = {}
        if whole:
            # A partial fetch: a server that says less than it sends cannot send more.
            got.update(self._literals(imap, whole, f"(UID BODY.PEEK[]<0.{cap + 1}>)"))
        if heads:
            got.update(self._literals(imap, heads, f"(UID BODY.PEEK[HEADER]<0.{HEADER_BYTES}>)"))
        for uid in uids:
            if uid not in got:
                continue  # expunged since its size was asked
            data, size = got.pop(uid), sizes[uid]
            over = size > cap or len(data) > cap
            if over and size <= cap:  # more than the server said: keep its header only
                data, size = header_of(data), len(data)
            yield Incoming(
                key=f"imap:{validity}:{uid}",
                data=data,
                size=size if over else None,
                cursor=f"{validity}:{uid}",
            )

    def _literals(self, imap: imaplib.IMAP4, uids: list[int], items: str) -> dict[int, bytes]:
        """Each message's literal of a UID FETCH, by UID (the UID may come before or after
        the literal in a FETCH response; responses without a literal are skipped)."""
        data = self._ask("UID FETCH", imap.uid, "FETCH", _uid_set(uids), items)
        wanted = set(uids)
        out: dict[int, bytes] = {}
        prefix, literal = b"", None

        def done() -> None:
            m = _UID.search(prefix)
            if literal is not None and m and int(m[1]) in wanted:
                out.setdefault(int(m[1]), literal)

        for part in data:
            if isinstance(part, tuple):
                done()
                prefix, literal = part[0], part[1]
            elif isinstance(part, bytes):
                if _START.match(part):
                    done()
                    prefix, literal = part, None
                else:
                    prefix += part
        done()
        return out

    def _ask(self, name: str, ask: Callable[..., tuple[str, Any]], *args: str) -> list[object]:
        """The server's answer to the command `name` (`ask(*args)`), or ImapError."""
        try:
            status, data = ask(*args)
        except (imaplib.IMAP4.error, OSError, EOFError) as exc:
            raise ImapError(f"{self._where}: {name} failed: {self._said(exc)}") from None
        if status != "OK":
            raise ImapError(f"{self._where}: {name} refused: {self._said(data)}")
        return list(data)

    @property
    def _where(self) -> str:
        return f"{self.url.host}:{self.url.port}, folder {self.folder!r}"

    def _said(self, what: object) -> str:
        """What the server or the system said, on one line, without the password."""
        if isinstance(what, BaseException):
            parts: Iterable[object] = what.args or (type(what).__name__,)
            if isinstance(what, TimeoutError):
                parts = (f"no answer within {self.timeout:g} s",)
            elif isinstance(what, OSError) and what.strerror:
                parts = (what.strerror,)
        elif isinstance(what, list | tuple):
            parts = what
        else:
            parts = (what,)
        text = " ".join(
            p.decode("utf-8", "replace") if isinstance(p, bytes) else str(p)
            for p in parts
            if p is not None
        )
        text = "".join(c if c.isprintable() else " " for c in text)[:300].strip()
        if self._password:
            text = text.replace(self._password, "***")
        return text or "no reason given"


def _close(imap: imaplib.IMAP4) -> None:
    with suppress(OSError):
        imap.shutdown()


def _cursor(cursor: str | None) -> tuple[int | None, int]:
    """The UIDVALIDITY and the last UID a cursor names; (None, 0) for none."""
    if cursor is None:
        return None, 0
    m = _CURSOR.match(cursor)
    if m is None:
        raise ImapError(f"cursor {cursor!r}: not UIDVALIDITY:UID")
    return int(m[1]), int(m[2])


def _uid_set(uids: list[int]) -> str:
    """`1:5,7,9:12` for ascending UIDs."""
    runs = [[uid for _, uid in run] for _, run in groupby(enumerate(uids), lambda p: p[1] - p[0])]
    return ",".join(f"{r[0]}:{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _quoted(folder: str) -> str:
    """The folder's name as IMAP sends it (imaplib sends its arguments as they are, in
    ASCII): in modified UTF-7 (RFC 3501, 5.1.3), as a quoted string."""
    out: list[str] = []
    for printable, run in groupby(folder, lambda char: " " <= char <= "~"):
        text = "".join(run)
        if printable:
            out.append(text.replace("&", "&-"))
        else:
            encoded = base64.b64encode(text.encode("utf-16-be")).decode("ascii")
            out.append("&" + encoded.rstrip("=").replace("/", ",") + "-")
    name = "".join(out)
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
