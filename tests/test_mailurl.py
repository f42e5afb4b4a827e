"""The mail servers of the contest file (`[mail] imap` and `smtp`): their addresses,
passwords and the contest file's keys for a running challenge."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.contest.config import ContestError, parse_contest
from validator.contest.mailurl import (
    IMAP_PASSWORD,
    SMTP_PASSWORD,
    MailURL,
    MailURLError,
    parse_mail_url,
    password,
)


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("imaps://me@mail.example/INBOX", "imap", "imaps me mail.example 993 INBOX tls"),
        ("imap://me@mail.example:1143", "imap", "imap me mail.example 1143 INBOX starttls"),
        (
            "imap://me@127.0.0.1:1143/Contest/2026",
            "imap",
            "imap me 127.0.0.1 1143 Contest/2026 plain",
        ),
        (
            "smtps://me%40x.example@mail.example",
            "smtp",
            "smtps me@x.example mail.example 465 None tls",
        ),
        ("smtp://me@mail.example", "smtp", "smtp me mail.example 587 None starttls"),
        ("smtp://me@[::1]:2525", "smtp", "smtp me ::1 2525 None plain"),
        ("smtp://me@localhost:2525", "smtp", "smtp me localhost 2525 None plain"),
    ],
)
def test_server_addresses(text: str, kind: str, expected: str) -> None:
    url = parse_mail_url(text, kind)  # type: ignore[arg-type]
    got = (url.scheme, url.user, url.host, url.port, url.folder, url.security)
    assert " ".join(map(str, got)) == expected


@pytest.mark.parametrize(
    ("text", "kind", "said"),
    [
        ("imaps://me:hunter2@mail.example/INBOX", "imap", "holds a password"),
        ("smtps://me@mail.example", "imap", "must start with imaps:// or imap://"),
        ("https://me@mail.example", "smtp", "must start with smtps:// or smtp://"),
        ("imaps://mail.example/INBOX", "imap", "names no user"),
        ("smtp://me@mail.example/INBOX", "smtp", "names no folder"),
        ("smtp://me@mail.example?tls=off", "smtp", "unknown options"),
        ("imaps://me@mail.example:99999/INBOX", "imap", "not a server address"),
    ],
)
def test_bad_server_addresses_say_why(text: str, kind: str, said: str) -> None:
    with pytest.raises(MailURLError, match=said) as caught:
        parse_mail_url(text, kind)  # type: ignore[arg-type]
    assert "hunter2" not in str(caught.value)


def test_password_from_the_environment_else_netrc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = parse_mail_url("smtps://me@mail.example", "smtp")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv(SMTP_PASSWORD, raising=False)
    assert password(url, SMTP_PASSWORD) is None
    netrc = tmp_path / ".netrc"
    netrc.write_text("machine mail.example login me password from-netrc\n")
    netrc.chmod(0o600)
    assert password(url, SMTP_PASSWORD) == "from-netrc"
    other = MailURL("smtps", "someone", "mail.example", 465, None, "tls")
    assert password(other, SMTP_PASSWORD) is None  # the login must be the user
    monkeypatch.setenv(SMTP_PASSWORD, "from-env")
    assert password(url, SMTP_PASSWORD) == "from-env"
    assert password(url, IMAP_PASSWORD) == "from-netrc"


def test_the_contest_file_keys_of_a_running_challenge(tmp_path: Path) -> None:
    path = tmp_path / "road300.toml"
    (tmp_path / "ca.pem").write_text("")  # ca_file must be there
    contest = parse_contest(
        'state = "state/ledger.db"\nsite = "public"\n'
        'base_url = "https://example.org/winter/"\n'
        'public_address = "challenge@organizers.example"\n'
        '[mail]\nimap = "imaps://challenge@mail.example/INBOX"\n'
        'smtp = "smtps://challenge@mail.example"\nca_file = "ca.pem"\npoll = 60\n',
        path,
    )
    assert contest.state_file == tmp_path / "state" / "ledger.db"
    assert contest.site_folder == tmp_path / "public"
    assert contest.replies_folder == tmp_path / "replies"
    assert contest.imap is not None and contest.imap.folder == "INBOX"
    assert contest.smtp is not None and contest.smtp.port == 465
    assert contest.ca_file == tmp_path / "ca.pem" and contest.poll == 60
    assert parse_contest("", path).state_file == tmp_path / "road300.db"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[mail]\nsmtp = "smtp://me:pw@mail.example"\n', r"toml:2: mail.smtp: holds a password"),
        ("[mail]\npoll = 1\n", r"road300.toml:2: mail.poll: must be seconds"),
        ('[mail]\nimapp = "x"\n', r"mail.imapp: unknown key; did you mean 'imap'"),
        ('base_url = "javascript:alert(1)"\n', r"road300.toml:1: base_url: .* not an address"),
        ('public_address = "a@x.example, b@x.example"\n', r"public_address: .* more than one"),
        ('mail = "imaps://x"\n', r"mail: must be a table"),
        ('[mail]\nca_file = "no.pem"\n', r"road300.toml:2: mail.ca_file: .*no.pem does not exist"),
    ],
)
def test_mistakes_in_the_new_keys_name_their_line(tmp_path: Path, text: str, said: str) -> None:
    with pytest.raises(ContestError, match=said):
        parse_contest(text, tmp_path / "road300.toml")
