"""A real Dovecot IMAP server on loopback for the tests, in a temporary folder of its own.

It runs Debian's `dovecot-imapd` (`/usr/sbin/dovecot`, or `$DOVECOT`) in the foreground
(`-F`) with its own configuration (`-c`): one user from a passwd-file, Maildir mail in
the temporary folder, a self-signed certificate made with the `openssl` command, IMAPS on
one port and IMAP with STARTTLS on another (plain LOGIN is allowed there too, for the
loopback-only plain connection). As a normal user every process runs as that user (tried
as `nobody`); as root, Dovecot refuses to run its login processes as root, so they run as
Debian's `dovenull` and the mail is kept as `dovecot`. Its log is `dovecot.log` in the
folder.

Mail is delivered with `imaplib`'s APPEND. Without Dovecot the tests that need it fail
(they are not skipped): `.ci/run` installs it with `.ci/install-debian.sh`.
"""

from __future__ import annotations

import grp
import imaplib
import os
import pwd
import re
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import quote

import pytest

from validator.contest.mailurl import MailURL

USER = "organizer"
PASSWORD = 'te"st\\pa ss-7Qx'
"""The test user's password: a quote, a backslash and a space, which LOGIN must quote."""
UTF8_USER = "treasurer"
UTF8_PASSWORD = "m\u00f6tley-\u00e9t\u00e9-\u2603"
"""A second user, whose password is not ASCII (LOGIN cannot send it)."""
INSTALL = (
    "Dovecot is needed by the IMAP tests: install Debian's dovecot-imapd "
    '(sh .ci/install-debian.sh "/usr/sbin/dovecot dovecot" dovecot-imapd "the IMAP tests", '
    "as .ci/run does), or set DOVECOT=/path/to/dovecot"
)
_APPENDUID = re.compile(rb"APPENDUID (\d+) (\d+)")

Security = Literal["tls", "starttls", "plain"]


def find_dovecot() -> str | None:
    override = os.environ.get("DOVECOT")
    if override:
        return shutil.which(override)
    for candidate in ("/usr/sbin/dovecot", "dovecot"):
        found = shutil.which(candidate)
        if found:
            return found
    return None


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def make_certificate(folder: Path, name: str, san: str = "IP:127.0.0.1") -> tuple[Path, Path]:
    """A self-signed certificate (its own CA) for `san`, and its key, made by `openssl`."""
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec",
            "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", str(key), "-out", str(cert), "-days", "2",
            "-subj", f"/CN=road300 test {name}", "-addext", f"subjectAltName={san}",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    return cert, key


@dataclass
class Dovecot:
    """A running Dovecot: its ports, its user, its certificate (`cert`, to trust as
    ca_file), its log."""

    root: Path
    imaps_port: int
    imap_port: int
    cert: Path
    process: subprocess.Popen[bytes]
    host: str = "127.0.0.1"
    user: str = USER
    password: str = PASSWORD

    @property
    def log(self) -> Path:
        return self.root / "dovecot.log"

    def server(self, folder: str | None = "INBOX", security: Security = "tls") -> MailURL:
        """The server as ImapFetcher takes it (`starttls` to this loopback host: only as
        a MailURL made here; a contest file's `imap://` to it is `plain`)."""
        scheme, port = ("imaps", self.imaps_port) if security == "tls" else ("imap", self.imap_port)
        return MailURL(scheme, self.user, self.host, port, folder, security)

    def address(self, folder: str = "INBOX", security: Security = "tls") -> str:
        """The server as a contest file's `[mail] imap` names it (`imap://` to this
        loopback host is `plain`: STARTTLS when offered); its password is `password`,
        its certificate `cert` (the contest file's `ca_file`)."""
        server = self.server(folder, security)
        where = f"{server.user}@{server.host}:{server.port}"
        return f"{server.scheme}://{where}/{quote(folder, safe='')}"

    @contextmanager
    def client(self) -> Iterator[imaplib.IMAP4_SSL]:
        """A logged-in imaplib connection (IMAPS), logged out at the end."""
        context = ssl.create_default_context(cafile=str(self.cert))
        imap = imaplib.IMAP4_SSL(self.host, self.imaps_port, ssl_context=context, timeout=30)
        try:
            imap.login(self.user, self.password)
            yield imap
        finally:
            with suppress(imaplib.IMAP4.error, OSError):
                imap.logout()

    def deliver(self, folder: str, *messages: bytes) -> list[int]:
        """APPEND each message to `folder` (created when missing); their UIDs."""
        uids = []
        with self.client() as imap:
            imap.create(f'"{folder}"')
            for data in messages:
                status, answer = imap.append(f'"{folder}"', None, None, data)
                assert status == "OK", answer
                found = _APPENDUID.search(answer[0])
                assert found, answer
                uids.append(int(found[2]))
        return uids

    def snapshot(self, folder: str) -> list[tuple[int, bytes, bytes]]:
        """Every message of `folder` as the server holds it: (UID, flags, bytes), read
        without changing anything (EXAMINE, BODY.PEEK)."""
        with self.client() as imap:
            status, _ = imap.select(f'"{folder}"', readonly=True)
            assert status == "OK"
            status, data = imap.uid("FETCH", "1:*", "(UID FLAGS BODY.PEEK[])")
            assert status == "OK"
            out = []
            for part in data:
                if isinstance(part, tuple):
                    head = part[0]
                    uid = re.search(rb"UID (\d+)", head)
                    flags = re.search(rb"FLAGS \(([^)]*)\)", head)
                    assert uid and flags, head
                    out.append((int(uid[1]), flags[1], part[1]))
            return out

    def expunge(self, folder: str, uids: list[int]) -> None:
        """Delete the messages `uids` of `folder` for good (as another client would)."""
        with self.client() as imap:
            assert imap.select(f'"{folder}"')[0] == "OK"
            uid_set = ",".join(map(str, uids))
            assert imap.uid("STORE", uid_set, "+FLAGS.SILENT", r"(\Deleted)")[0] == "OK"
            assert imap.expunge()[0] == "OK"

    def recreate(self, folder: str) -> None:
        """Delete `folder` and make it again: it gets a new UIDVALIDITY."""
        with self.client() as imap:
            assert imap.delete(f'"{folder}"')[0] == "OK"
            assert imap.create(f'"{folder}"')[0] == "OK"

    def uidvalidity(self, folder: str) -> int:
        with self.client() as imap:
            status, data = imap.status(f'"{folder}"', "(UIDVALIDITY)")
            assert status == "OK"
            found = re.search(rb"UIDVALIDITY (\d+)", data[0])
            assert found, data
            return int(found[1])

    def logins(self) -> list[int]:
        """The imap process of every login so far, oldest first (the log's `mpid=`)."""
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return [int(pid) for pid in re.findall(r"Login: user=<[^>]*>.*?mpid=(\d+)", text)]

    def session_pid(self, before: int) -> int:
        """The imap process of the first login after the first `before` ones."""
        end = time.monotonic() + 10
        while time.monotonic() < end:
            pids = self.logins()
            if len(pids) > before:
                return pids[before]
            time.sleep(0.05)
        raise AssertionError(f"no new login in {self.log}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)


_CONFIG = """\
instance_name = road300-test-{imaps_port}
protocols = imap
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
default_internal_user = {internal}
default_internal_group = {internal_group}
default_login_user = {login}
first_valid_uid = 1
first_valid_gid = 1
ssl = yes
ssl_cert = <{root}/server.pem
ssl_key = <{root}/server.key
auth_mechanisms = plain
auth_failure_delay = 0
disable_plaintext_auth = no
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {root}/passwd
}}
userdb {{
  driver = passwd-file
  args = {root}/passwd
}}
mail_location = maildir:{root}/mail/%u
mail_fsync = never
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
"""


def _accounts() -> tuple[str, str, str, int, int]:
    """Who runs Dovecot's internal and login processes, and owns the mail: the current
    user, or as root Debian's `dovecot` and `dovenull` (Dovecot refuses root for them)."""
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.geteuid())
        return me.pw_name, me.pw_name, grp.getgrgid(me.pw_gid).gr_name, me.pw_uid, me.pw_gid
    try:
        internal, login = pwd.getpwnam("dovecot"), pwd.getpwnam("dovenull")
    except KeyError:
        pytest.fail("running as root, Dovecot needs the users dovecot and dovenull: " + INSTALL)
    group = grp.getgrgid(internal.pw_gid).gr_name
    return internal.pw_name, login.pw_name, group, internal.pw_uid, internal.pw_gid


def start_dovecot() -> Dovecot:
    """Start a Dovecot in a new temporary folder; it is up (its IMAPS port answers)."""
    binary = find_dovecot()
    if binary is None:
        pytest.fail(INSTALL)
    if shutil.which("openssl") is None:
        pytest.fail("the IMAP tests make their certificate with the openssl command")
    internal, login, group, uid, gid = _accounts()
    root = Path(tempfile.mkdtemp(prefix="road300-dovecot-"))
    root.chmod(0o755)  # as root, Dovecot's own users read the passwd-file and keep mail here
    cert, _ = make_certificate(root, "server")
    home, mail = root / "home", root / "mail"
    for folder in (home, mail):
        folder.mkdir()
        os.chown(folder, uid, gid)
    passwd = root / "passwd"
    passwd.write_text(
        "".join(
            f"{user}:{{PLAIN}}{password}:{uid}:{gid}::{home}/{user}::\n"
            for user, password in ((USER, PASSWORD), (UTF8_USER, UTF8_PASSWORD))
        ),
        encoding="utf-8",
    )
    passwd.chmod(0o644)
    last_error = ""
    for _ in range(3):  # a free port taken by someone else meanwhile: try others
        imaps_port, imap_port = _free_ports(2)
        (root / "dovecot.conf").write_text(
            _CONFIG.format(
                root=root,
                imaps_port=imaps_port,
                imap_port=imap_port,
                internal=internal,
                internal_group=group,
                login=login,
            ),
            encoding="utf-8",
        )
        process = subprocess.Popen(
            [binary, "-F", "-c", str(root / "dovecot.conf")],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=(root / "stderr.log").open("ab"),
        )
        server = Dovecot(root, imaps_port, imap_port, cert, process)
        if _wait_up(server):
            return server
        server.stop()
        last_error = _tail(server.log) + _tail(root / "stderr.log")
    shutil.rmtree(root, ignore_errors=True)
    pytest.fail(f"Dovecot ({binary}) did not start:\n{last_error}")


def _wait_up(server: Dovecot, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if server.process.poll() is not None:
            return False
        try:
            with socket.create_connection((server.host, server.imaps_port), timeout=1):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def _tail(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-2000:]
    except OSError:
        return ""


def stop_dovecot(server: Dovecot) -> None:
    server.stop()
    shutil.rmtree(server.root, ignore_errors=True)
