"""Shared by the tests of a running challenge (tests/test_contest_run.py, the plain step;
tests/test_contest_imap_run.py, the slow step with Dovecot): a real SMTP server (aiosmtpd)
on loopback with STARTTLS and AUTH that can misbehave on purpose, `road300 contest` as a
process of its own (to kill it), and small helpers."""

from __future__ import annotations

import asyncio
import os
import socket
import ssl
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any, TypeVar

from conftest import ROOT, cli_command
from dovecot import make_certificate
from mail_helpers import Mail

SMTP_USER, SMTP_PASSWORD = "challenge", "s3cret-Passw0rd"
"""The SMTP server's one account (the password goes in ROAD300_SMTP_PASSWORD)."""

T = TypeVar("T")


@dataclass
class SmtpServer:
    """An aiosmtpd server on loopback: what it took, and how it misbehaves."""

    port: int
    cert: Path
    """Its self-signed certificate (for localhost and 127.0.0.1), to trust as ca_file."""
    loop: asyncio.AbstractEventLoop | None = None
    received: list[tuple[str, bytes]] = field(default_factory=list)
    """(recipient, message) of every message taken."""
    refuse: set[str] = field(default_factory=set)
    """Recipients answered 550 (permanent)."""
    defer: set[str] = field(default_factory=set)
    """Recipients answered 451 (temporary)."""
    drop: set[str] = field(default_factory=set)
    """Recipients at whose RCPT the connection is closed, once each."""
    hold: set[str] = field(default_factory=set)
    """Recipients whose DATA waits until `release` (the run is killed meanwhile)."""
    holding: threading.Event = field(default_factory=threading.Event)
    released: asyncio.Event | None = None
    logins: list[str] = field(default_factory=list)

    def reset(self) -> None:
        self.received.clear()
        self.refuse.clear()
        self.defer.clear()
        self.drop.clear()
        self.hold.clear()
        self.holding.clear()
        self.logins.clear()

    def release(self) -> None:
        assert self.loop is not None and self.released is not None
        self.loop.call_soon_threadsafe(self.released.set)

    def headers(self, name: str) -> list[str]:
        """The header `name` of every message taken, in order."""
        return [
            str(BytesParser(policy=policy.default).parsebytes(data)[name])
            for _, data in self.received
        ]

    def message_ids(self) -> list[str]:
        return self.headers("Message-ID")


class _Handler:
    def __init__(self, server: SmtpServer) -> None:
        self.server = server

    async def handle_RCPT(
        self, smtp: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        s = self.server
        if address in s.refuse:
            return "550 5.1.1 <" + address + ">: no such user here"
        if address in s.defer:
            return "451 4.3.0 mailbox busy, try again later"
        if address in s.drop:
            s.drop.discard(address)
            smtp.transport.close()
            return "421 4.4.2 closing"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:
        s = self.server
        (to,) = envelope.rcpt_tos
        if to in s.hold:
            s.loop = asyncio.get_running_loop()
            s.released = asyncio.Event()
            s.holding.set()
            await s.released.wait()  # the message is taken after the client was killed
        s.received.append((to, bytes(envelope.original_content or envelope.content)))
        return "250 2.0.0 queued"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def smtp_server(folder: Path) -> Iterator[SmtpServer]:
    """An SMTP server on 127.0.0.1 requiring STARTTLS and AUTH (SMTP_USER, SMTP_PASSWORD),
    its certificate made in `folder`; stopped when the block ends."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    cert, key = make_certificate(folder, "smtp", "DNS:localhost,IP:127.0.0.1")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server = SmtpServer(_free_port(), cert)

    def authenticator(smtp: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> Any:
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
            SMTP_USER.encode(),
            SMTP_PASSWORD.encode(),
        )
        if ok:
            server.logins.append(data.login.decode())
        return AuthResult(success=ok)

    controller = Controller(
        _Handler(server),
        hostname="127.0.0.1",
        port=server.port,
        tls_context=context,
        require_starttls=True,
        auth_required=True,
        authenticator=authenticator,
    )
    controller.start()
    try:
        yield server
    finally:
        controller.stop()


@contextmanager
def started(folder: Path, *args: str) -> Iterator[subprocess.Popen[str]]:
    """`road300 contest ARGS` as a process of its own in `folder` (its stderr a pipe),
    killed when the block ends if it has not ended."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    proc = subprocess.Popen(
        cli_command(["contest", *args]),
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()


def senders(mails: list[Mail]) -> list[str]:
    """The address each mail came from (its reply's only recipient)."""
    return [str(m.message["From"].addresses[0].addr_spec) for m in mails]


def with_wait(seconds: float, call: Callable[[], T]) -> T:
    """`call()` with the ledger's wait for another run's lock cut to `seconds`."""
    from validator.contest import ledger

    old = ledger.WAIT
    ledger.WAIT = seconds
    try:
        return call()
    finally:
        ledger.WAIT = old
