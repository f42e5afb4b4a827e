"""Messages arriving for a running challenge (`road300 contest run`): one protocol for
every place they come from (an IMAP folder, an mbox, a Maildir, a folder of `.eml` files),
so the ledger can tell which it has already seen and fetch only the rest."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Incoming:
    """One message as fetched: nothing at its source is changed by fetching it."""

    key: str
    """Its identity in its source, stable across runs: `imap:<UIDVALIDITY>:<UID>` for an
    IMAP folder, `sha256:<hex of its bytes>` for a local mailbox."""
    data: bytes
    """Its bytes; only its headers when it is over the size cap (then `size` is set)."""
    size: int | None = None
    """Set when the message is over the cap: its size, or a lower bound."""
    cursor: str | None = None
    """Where the next fetch starts once this message is stored (IMAP: `<UIDVALIDITY>:<UID>`);
    None for a local mailbox, which is read whole and deduplicated by `key`."""
    split: bool = False
    """An mbox's message that began at a `From ` line inside the one before it
    (mail.RawMessage.split): a possible forgery, which gets no reply without its own Date
    or Message-ID."""


class FetchError(Exception):
    """The source cannot be read now (a mail server that refuses the login, cannot be
    reached or stopped answering); the message says why on one line, never a password."""


class Fetcher(Protocol):
    """A source of messages for `contest run`."""

    @property
    def label(self) -> str:
        """What the source is, for people and the ledger; never holds a password."""
        ...

    def fetch(self, cursor: str | None) -> Iterator[Incoming]:
        """The messages after `cursor` (None: from the start), in the source's order."""
        ...
