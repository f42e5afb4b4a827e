"""Hostile input through the real CLI: every bad record is `malformed` (exit 1) and every
bad dice file stops the command (exit 2), each with a message and a line, never a traceback.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

CHALLENGE = Path(__file__).parent.parent / "examples" / "challenge.txt"


def _laughs() -> str:
    lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    lines.append("rounds: [*i]")
    return "\n".join(lines) + "\n"


def _binary() -> bytes:
    rng = random.Random(300)
    return bytes(rng.randrange(256) for _ in range(4096))


ROUND = '{"cross": [1, 4], "move": [1, 1]}'
MILLION = '{"rounds": [' + ",".join(['{"reroll": true}'] * 1_000_000) + "]}"

RECORDS: list[Any] = [
    # (name, file name, content, error code)
    ("empty", "r.yaml", b"", "E007"),
    ("blank", "r.yaml", b"  \n\n\t\n", "E007"),
    ("comment only", "r.yaml", b"# nothing here\n", "E007"),
    ("empty json", "r.json", b"", "E007"),
    ("binary", "r.yaml", _binary(), "E001"),
    ("NUL in json", "r.json", b'{"rounds": [\x00]}', "E001"),
    # UTF-16/32 with a byte-order mark and cp1252 are read (with a warning): the typo shows it
    ("utf-16", "r.yaml", "player: Ä\nrounds: []\nmvoe: 1\n".encode("utf-16"), "E003"),
    ("utf-32", "r.yaml", "player: Ä\nrounds: []\nmvoe: 1\n".encode("utf-32"), "E003"),
    ("utf-16 no BOM", "r.yaml", "player: x\nrounds: []\n".encode("utf-16-be"), "E001"),
    ("latin-1", "r.yaml", "player: Jörg\nrounds: []\nmvoe: 1\n".encode("latin-1"), "E003"),
    ("latin-1 with controls", "r.yaml", "player: Jörg\x81\nrounds: []\n".encode("latin-1"), "E001"),
    ("escape bytes", "r.txt", b"\x1b[2J1: 1 4 6 x 1/4\n", "E002"),
    ("huge int yaml", "r.yaml", b"claimed_score: " + b"9" * 20000 + b"\nrounds: []\n", "E005"),
    ("huge int json", "r.json", b'{"claimed_score": ' + b"9" * 20000 + b', "rounds": []}', "E005"),
    ("huge roll", "r.yaml", b"rounds:\n  - {roll: 99999999999999999999999, cross: 1/4}\n", "E005"),
    ("huge float json", "r.json", b'{"claimed_score": 1e999, "rounds": []}', "E005"),
    ("NaN json", "r.json", b'{"claimed_score": NaN, "rounds": []}', "E005"),
    ("negative die", "r.yaml", b"rounds:\n  - {dice: [-1, 2, 3], cross: 1/2}\n", "E005"),
    ("billion laughs", "r.yaml", _laughs().encode(), "E006"),
    ("merge key", "r.yaml", b"base: &b {cross: 1/4}\nrounds:\n  - {<<: *b, move: 1/1}\n", "E006"),
    ("python object", "r.yaml", b"player: !!python/object/apply:os.system [echo pwned]\n", "E006"),
    ("python name", "r.yaml", b"rounds: !!python/name:os.system\n", "E006"),
    ("custom tag", "r.yaml", b"rounds: !thing [1]\n", "E006"),
    ("deep yaml lists", "r.yaml", b"rounds: " + b"[" * 50000 + b"]" * 50000 + b"\n", "E006"),
    ("deep yaml maps", "r.yaml", b"rounds: " + b"{a: " * 5000 + b"1" + b"}" * 5000, "E006"),
    ("deep json lists", "r.json", b'{"rounds": ' + b"[" * 100000 + b"]" * 100000 + b"}", "E006"),
    ("deep json maps", "r.json", b'{"rounds": ' + b'{"a": ' * 100000 + b"1" + b"}" * 100000 + b"}",
     "E006"),
    ("unknown key", "r.yaml", b"player: x\nplayr: y\nrounds: []\n", "E003"),
    ("rounds misspelt", "r.yaml", b"player: x\nround: []\n", "E003"),
    ("unknown round key", "r.yaml", b"rounds:\n  - {cross: 1/4, move: 1/1, steps: 6, x: 1}\n",
     "E003"),
    ("unknown json key", "r.json", ('{"rounds": [' + ROUND[:-1] + ', "mvoe": 1}]}').encode(),
     "E003"),
    ("broken json", "r.json", b'{"rounds": [' + ROUND.encode() + b",,]}", "E002"),
    ("truncated json", "r.json", b'{"rounds": [' + ROUND.encode(), "E002"),
    ("duplicate json key", "r.json", b'{"rounds": [], "rounds": []}', "E002"),
    ("two yaml documents", "r.yaml", b"rounds: []\n---\nrounds: []\n", "E002"),
    ("tab indent", "r.yaml", b"rounds:\n\t- {cross: 1/4}\n", "E002"),
    ("list root", "r.yaml", b"- 1\n- 2\n", "E005"),
    ("text root", "r.yaml", b"just some words\n", "E005"),
    ("rounds null", "r.yaml", b"rounds: null\n", "E005"),
    ("bool in a field", "r.yaml", b"rounds:\n  - {cross: [1, true], move: 1/1}\n", "E005"),
    ("text record garbage", "r.txt", b"1: 1 4 6   x 9/9 -> 1/1\n", None),
    ("text record binary", "r.txt", b"1: 1 4 6\x00\n", "E001"),
    ("csv garbage", "r.csv", b'roll,dice,cross\n1,"1 4 6",zz\n', None),
    ("csv empty", "r.csv", b"", "E007"),
    ("a million rounds", "r.json", MILLION.encode(), "E001"),
]  # fmt: skip

DICE: list[Any] = [
    # (name, file name, content, error code)
    ("empty", "d.txt", b"", "D004"),
    ("comments only", "d.txt", b"# no rolls\n\n", "D004"),
    ("binary", "d.txt", b"1 2 3\n" + _binary(), "D001"),
    ("utf-16", "d.txt", "1 2 3\n4 5 6\n".encode("utf-16"), "D001"),
    ("latin-1", "d.txt", "1 2 3\n# Würfel\n".encode("latin-1"), "D001"),
    ("a 7", "d.txt", b"1 2 3\n1 2 7\n", "D002"),
    ("huge number", "d.txt", b"1 2 3\n" + b"9" * 20000 + b" 1 2\n", "D002"),
    ("row number gap", "d.txt", b"1: 1 2 3\n3: 2 3 4\n", "D003"),
    ("huge row number", "d.txt", b"1: 1 2 3\n99999999999999999999999: 2 3 4\n", "D003"),
    ("yaml aliases", "d.yaml", b"- &a [1, 2, 3]\n- *a\n", "D002"),
    ("yaml python tag", "d.yaml", b"- !!python/object/apply:os.system [echo hi]\n", "D002"),
    ("broken json", "d.json", b"[[1, 2, 3], [4, 5\n", "D002"),
    ("deep json", "d.json", b"[" * 100000 + b"]" * 100000, "D002"),
    ("json huge number", "d.json", b"[[1, 2, " + b"9" * 20000 + b"]]", "D002"),
    ("csv short row", "d.csv", b"d1,d2,d3\n1,2,3\n1,2\n", "D002"),
]


def _ids(table: list[Any]) -> list[str]:
    return [row.values[0] if hasattr(row, "values") else row[0] for row in table]


def _rows(table: list[Any]) -> list[tuple[str, str, bytes, str | None]]:
    return [row.values if hasattr(row, "values") else row for row in table]


@pytest.fixture(scope="module")
def record_runs(cli: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """All hostile records in one CLI run: a bad file must not stop the others."""
    folder = tmp_path_factory.mktemp("records")
    names = []
    for n, (_, file_name, content, _) in enumerate(_rows(RECORDS)):
        name = f"{n:02d}-{file_name}"
        (folder / name).write_bytes(content)
        names.append(name)
    run = cli(["validate", *names, "--dice", str(CHALLENGE), "--format", "json"], folder)
    assert "Traceback" not in run.stderr
    assert run.status == 1, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [line["file"] for line in lines] == names
    return {row[0]: line for row, line in zip(_rows(RECORDS), lines, strict=True)}


@pytest.fixture(scope="module")
def dice_runs(cli_many: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    jobs: dict[str, tuple[list[str], Path]] = {}
    for name, file_name, content, _ in _rows(DICE):
        folder = tmp_path_factory.mktemp("dice")
        (folder / file_name).write_bytes(content)
        (folder / "r.yaml").write_text("rounds: []\n", encoding="utf-8")
        jobs[name] = (["validate", "r.yaml", "--dice", file_name, "--format", "json"], folder)
    result: dict[str, Any] = cli_many(jobs)
    return result


@pytest.mark.parametrize(("name", "file_name", "content", "code"), RECORDS, ids=_ids(RECORDS))
def test_hostile_record(
    name: str, file_name: str, content: bytes, code: str | None, record_runs: dict[str, Any]
) -> None:
    got = record_runs[name]
    assert (got["verdict"], got["score"], got["end"]) == ("malformed", None, None)
    error = got["error"]
    assert error["message"].strip()
    assert code is None or error["code"] == code, error
    assert re.fullmatch(r"E00\d", error["code"])
    assert isinstance(error["line"], int) and error["line"] >= 1, error


@pytest.mark.parametrize(("name", "file_name", "content", "code"), DICE, ids=_ids(DICE))
def test_hostile_dice(
    name: str, file_name: str, content: bytes, code: str, dice_runs: dict[str, Any]
) -> None:
    run = dice_runs[name]
    assert "Traceback" not in run.stderr
    assert run.status == 2, run.stdout + run.stderr
    # file:line[:col]: CODE message
    match = re.search(re.escape(file_name) + r":(\d+)(?::\d+)?: (D\d{3}) (\S.*)", run.stderr)
    assert match, run.stderr
    assert match.group(2) == code
    assert int(match.group(1)) >= 1


def test_one_bad_record_alone(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_bytes(_laughs().encode())
    run = cli(["validate", "r.yaml", "--dice", str(CHALLENGE)], tmp_path)
    assert run.status == 1
    assert "Traceback" not in run.stderr
    assert re.search(r"r\.yaml:\d+", run.stdout + run.stderr)


def test_missing_dice_file(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_text("rounds: []\n", encoding="utf-8")
    run = cli(["validate", "r.yaml", "--dice", "nowhere.txt"], tmp_path)
    assert run.status == 2
    assert "nowhere.txt" in run.stderr
    assert "Traceback" not in run.stderr
