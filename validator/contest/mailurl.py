"""The mail servers of a running challenge (`[mail] imap` and `smtp` of the contest file):
their addresses read, their passwords found, their TLS made.

    imaps://USER@HOST[:PORT]/FOLDER   TLS from the start (port 993)
    imap://USER@HOST[:PORT]/FOLDER    STARTTLS required (143)
    smtps://USER@HOST[:PORT]          TLS from the start (465)
    smtp://USER@HOST[:PORT]           STARTTLS required (587)

To a loopback host (`localhost`, 127.0.0.1, ::1) `imap://` and `smtp://` are `plain`:
STARTTLS when the server offers it, plain text otherwise (nothing leaves the machine).

A password is never part of the address: it comes from the environment
(`ROAD300_IMAP_PASSWORD`, `ROAD300_SMTP_PASSWORD`), else from `~/.netrc` (`machine HOST
login USER password ...`), and nothing here prints it. Certificates are always verified
(`tls_context`); a loopback server is the one exception, where a plain connection is
allowed because nothing leaves the machine.
"""

from __future__ import annotations

import ipaddress
import os
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit

Kind = Literal["imap", "smtp"]
Security = Literal["tls", "starttls", "plain"]

IMAP_PASSWORD = "ROAD300_IMAP_PASSWORD"
SMTP_PASSWORD = "ROAD300_SMTP_PASSWORD"

_SCHEMES: dict[str, tuple[Kind, Security, int]] = {
    "imaps": ("imap", "tls", 993),
    "imap": ("imap", "starttls", 143),
    "smtps": ("smtp", "tls", 465),
    "smtp": ("smtp", "starttls", 587),
}
_EXAMPLES: dict[Kind, str] = {
    "imap": "imaps://USER@HOST[:PORT]/FOLDER",
    "smtp": "smtps://USER@HOST[:PORT]",
}


class MailURLError(ValueError):
    """A mail server address that cannot be used; the message says why and how to write it."""


@dataclass(frozen=True, slots=True)
class MailURL:
    """A mail server, as the contest file names it (never with a password)."""

    scheme: str
    """`imaps`, `imap`, `smtps` or `smtp`."""
    user: str
    host: str
    port: int
    folder: str | None
    """The IMAP folder (`INBOX` when the address names none); None for SMTP."""
    security: Security
    """`tls` (from the start), `starttls` (required), `plain` (a loopback host only:
    STARTTLS when the server offers it, else plain text)."""

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)

    def __str__(self) -> str:
        """The address as people read it, for messages and the ledger (no password)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        folder = f"/{self.folder}" if self.folder is not None else ""
        return f"{self.scheme}://{self.user}@{host}:{self.port}{folder}"


def is_loopback(host: str) -> bool:
    """Whether `host` is this machine (`localhost`, 127.0.0.0/8, ::1)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_mail_url(text: str, kind: Kind) -> MailURL:
    """The server address `text` of `kind`; raises MailURLError saying what is wrong.

    A password written into the address is refused (it belongs in the environment or
    ~/.netrc)."""
    example = _EXAMPLES[kind]
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as exc:
        raise MailURLError(f"not a server address like {example} ({exc})") from None
    scheme = parts.scheme.lower()
    known = _SCHEMES.get(scheme)
    if known is None or known[0] != kind:
        schemes = " or ".join(f"{s}://" for s, v in _SCHEMES.items() if v[0] == kind)
        raise MailURLError(f"must start with {schemes}, like {example}")
    _, security, default_port = known
    if parts.password is not None:
        name = IMAP_PASSWORD if kind == "imap" else SMTP_PASSWORD
        raise MailURLError(
            f"holds a password: never write it in the contest file; set {name} or put it "
            "in ~/.netrc"
        )
    if not parts.username:
        raise MailURLError(f"names no user: write it before the host, like {example}")
    host = parts.hostname or ""
    if not host:
        raise MailURLError(f"names no host, like {example}")
    if parts.query or parts.fragment:
        raise MailURLError(f"unknown options {parts.query or parts.fragment!r}: give {example}")
    if security == "starttls" and is_loopback(host):
        security = "plain"
    path = unquote(parts.path)
    folder: str | None = None
    if kind == "imap":
        folder = path.strip("/") or "INBOX"
        if any(c in folder for c in '\r\n\x00"') or len(folder) > 200:
            raise MailURLError("the folder holds a quote, a line break or a NUL, or is too long")
    elif path.strip("/"):
        raise MailURLError(f"an SMTP address names no folder, like {example}")
    return MailURL(scheme, unquote(parts.username), host, port or default_port, folder, security)


def password(url: MailURL, env_var: str) -> str | None:
    """The password for `url`: the environment variable `env_var` when it is set (and
    not empty), else the `~/.netrc` entry of its host (its login must be the user, when it
    names one); None when neither has one (the server is then used without AUTH).

    A `~/.netrc` that cannot be read or parsed gives None, never its text in a message."""
    given = os.environ.get(env_var)
    if given:
        return given
    import netrc

    try:
        found = netrc.netrc().authenticators(url.host)
    except (FileNotFoundError, OSError, netrc.NetrcParseError):
        return None
    if found is None:
        return None
    login, _, secret = found
    if login and login != url.user:
        return None
    return secret or None


def tls_context(ca_file: Path | None, *, loopback: bool = False) -> ssl.SSLContext:
    """A client TLS context that verifies the server's certificate and host name against
    the system's CAs, and `ca_file` too (a PEM file, for a server with its own CA or a
    self-signed certificate). No option turns verification off; the one exception is a
    `loopback` server (`MailURL.loopback`) when no `ca_file` is given, whose connection
    never leaves the machine."""
    context = ssl.create_default_context()
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    if loopback and ca_file is None:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    if ca_file is not None:
        try:
            context.load_verify_locations(cafile=str(ca_file))
        except (OSError, ssl.SSLError) as exc:
            raise MailURLError(
                f"ca_file {ca_file}: not a PEM certificate that can be read ({exc})"
            ) from None
    return context
