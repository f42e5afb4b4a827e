"""A local mailbox as the source of a running challenge (`[mail] source` of the contest
file): an mbox, a Maildir or a folder of `.eml` files, read whole on every fetch through
mail.py's readers (bounded, no link followed) and told apart by the SHA-256 of each
message's bytes, so the ledger stores each message once however often it is read."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

from validator.contest.incoming import Incoming
from validator.contest.mail import MailError, Messages, open_mailbox


class LocalFetcher:
    """The `Fetcher` of a local mailbox."""

    def __init__(self, path: Path, max_bytes: int) -> None:
        """Raises MailError when `path` is no mailbox."""
        if not path.exists():
            raise MailError(f"{path}: no such mailbox (an mbox file, a Maildir or .eml files)")
        eml: list[str] = []
        if path.is_dir():
            eml = sorted(p.name for p in path.iterdir() if p.suffix.lower() == ".eml")
        box = open_mailbox(path, eml)
        if box is None:
            raise MailError(f"{path}: not a mailbox (an mbox file, a Maildir or .eml files)")
        self.box = box
        self.max_bytes = max_bytes

    @property
    def label(self) -> str:
        """The mailbox's name (`inbox.mbox`): its messages are `inbox.mbox#1`, ..., as
        `road300 batch` names them."""
        return self.box.label

    def fetch(self, cursor: str | None) -> Iterator[Incoming]:
        """Every message of the mailbox, in its order (a local mailbox has no cursor: the
        ledger passes over the messages it holds by their key)."""
        for raw in Messages(self.box, self.max_bytes):
            if raw.size is not None and raw.size < 0:  # unreadable: keyed by its place
                digest = hashlib.sha256(f"unreadable:{raw.file}".encode()).hexdigest()
            else:
                digest = hashlib.sha256(raw.data).hexdigest()
            yield Incoming(f"sha256:{digest}", raw.data, raw.size, None, raw.split)
