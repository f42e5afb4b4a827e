"""Sending a running challenge's replies (`road300 contest run --send`) with the standard
library's `smtplib`, each exactly once as far as a mail server allows.

Each reply is marked `sending` in the ledger before it is handed to the server and `sent`
once the server took it. A run killed between the two (SIGKILL, a power cut) leaves that
one reply `sending`, and the next run sends it again with the same Message-ID, so at most
that one reply can arrive twice, and a mail client shows it once. A temporary failure (a
4xx answer, a dropped connection, a time-out) leaves a reply unsent for the next run; a
permanent one for its recipient (a 5xx answer to RCPT TO or DATA) marks it `failed` with
the server's answer, and it is not tried again. The password is used for AUTH only and
never written anywhere.
"""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from validator.contest.ledger import Ledger, Reply
from validator.contest.mailurl import MailURL, tls_context

TIMEOUT = 30.0
"""Seconds to wait for the server at each step before the reply is left for the next run."""
MAX_ANSWER = 300


class SendError(Exception):
    """The server cannot be used at all (refused TLS, AUTH, the sender); nothing more is
    sent this run, and every reply not sent stays unsent."""


@dataclass
class Sent:
    """What one sending run did."""

    sent: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    """(the message answered, the server's answer) of each reply refused for good."""
    deferred: list[tuple[str, str]] = field(default_factory=list)
    """(the message answered, why) of each reply left for the next run."""
    stopped: str | None = None
    """Why sending stopped before the end (the connection dropped, a time-out)."""


def connect(url: MailURL, password: str | None, ca_file: Path | None) -> smtplib.SMTP:
    """A connection to the server of `url`, in TLS as its scheme says (verified; see
    mailurl.tls_context), logged in when a password is known and the server offers AUTH
    (one that offers none decides itself whether it takes the mail); raises SendError."""
    context = tls_context(ca_file, loopback=url.loopback)
    try:
        server: smtplib.SMTP
        if url.security == "tls":
            server = smtplib.SMTP_SSL(url.host, url.port, timeout=TIMEOUT, context=context)
        else:
            server = smtplib.SMTP(url.host, url.port, timeout=TIMEOUT)
        try:
            server.ehlo()
            if url.security == "starttls" or (
                url.security == "plain" and server.has_extn("starttls")
            ):
                if not server.has_extn("starttls"):
                    raise SendError(f"{url}: the server offers no STARTTLS, which smtp:// needs")
                server.starttls(context=context)
                server.ehlo()
            if password is not None and server.has_extn("auth"):
                server.login(url.user, password)  # a server without AUTH never sees it
        except BaseException:
            server.close()
            raise
    except SendError:
        raise
    except smtplib.SMTPAuthenticationError as exc:
        raise SendError(f"{url}: the server refused the login ({_answer(exc)})") from None
    except smtplib.SMTPException as exc:
        raise SendError(f"{url}: {type(exc).__name__}: {_text(exc)}") from None
    except ssl.SSLError as exc:
        raise SendError(f"{url}: TLS failed ({exc.reason or exc}); see ca_file") from None
    except OSError as exc:
        raise SendError(f"{url}: cannot connect ({exc.strerror or exc})") from None
    return server


def send_all(
    ledger: Ledger,
    server: smtplib.SMTP,
    on_reply: Callable[[Reply], None] | None = None,
) -> Sent:
    """Send every reply of the ledger that is unsent (or was `sending` when a run
    stopped), in order, over `server`; what happened."""
    done = Sent()
    for seq in ledger.to_send():
        reply = ledger.reply(seq)  # one at a time: replies carry their report
        if on_reply is not None:
            on_reply(reply)
        assert reply.data is not None and reply.recipient is not None and reply.sender
        ledger.mark(reply.seq, "sending")
        try:
            # SMTP's line ends (smtplib sends bytes as they are).
            data = reply.data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            refused = server.sendmail(reply.sender, [reply.recipient], data)
        except smtplib.SMTPRecipientsRefused as exc:
            code, text = next(iter(exc.recipients.values()), (0, b""))
            _refused(ledger, reply, code, f"{code} {_decode(text)}", done)
            continue
        except smtplib.SMTPSenderRefused as exc:
            ledger.mark(reply.seq, "unsent")  # the server refuses us, not the recipient
            done.stopped = f"the server refused the sender {reply.sender} ({_answer(exc)})"
            break
        except smtplib.SMTPDataError as exc:
            _refused(ledger, reply, exc.smtp_code, _answer(exc), done)
            continue
        except OSError as exc:  # smtplib's other errors too, a time-out, a dropped line
            ledger.mark(reply.seq, "unsent")
            done.stopped = f"the connection dropped ({_text(exc)})"
            done.deferred.append((reply.file, done.stopped))
            break
        if refused:  # one recipient, refused: sendmail raises instead; kept for safety
            code, text = next(iter(refused.values()))
            _refused(ledger, reply, code, f"{code} {_decode(text)}", done)
            continue
        ledger.mark(reply.seq, "sent")
        done.sent += 1
    return done


def quit_quietly(server: smtplib.SMTP) -> None:
    try:
        server.quit()
    except (smtplib.SMTPException, OSError):
        server.close()


def _refused(ledger: Ledger, reply: Reply, code: int, answer: str, done: Sent) -> None:
    """A 5xx answer fails the reply for good; any other leaves it for the next run."""
    answer = answer[:MAX_ANSWER]
    if 500 <= code < 600:
        ledger.mark(reply.seq, "failed", answer)
        done.failed.append((reply.file, answer))
    else:
        ledger.mark(reply.seq, "unsent", answer)
        done.deferred.append((reply.file, answer))


def _decode(text: bytes | str) -> str:
    value = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return " ".join(value.split())


def _answer(exc: smtplib.SMTPResponseException) -> str:
    return f"{exc.smtp_code} {_decode(exc.smtp_error)}"


def _text(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "timed out"
    return " ".join(str(exc).split()) or type(exc).__name__
