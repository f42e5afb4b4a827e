"""`road300 draw` through the real CLI: reproducible, order-independent, only eligible entries,
and the documented SHA-256 recipe recomputed here from scratch."""

from __future__ import annotations

import csv
import hashlib
import json
import random
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from validator.cli import main

ROOT = Path(__file__).resolve().parent.parent
DICE = ROOT / "examples" / "challenge.txt"

ELIGIBLE = [f"p{n:02d}/record.yaml" for n in range(20)]
NOT_ELIGIBLE: list[dict[str, Any]] = [
    {"file": "low.yaml", "verdict": "valid", "score": 299},
    {"file": "early.yaml", "verdict": "incomplete", "score": 320},
    {"file": "cheat.yaml", "verdict": "invalid", "score": 340},
    {"file": "broken.yaml", "verdict": "malformed", "score": None},
]


def results(path: Path, order_seed: int = 0) -> Path:
    entries: list[dict[str, Any]] = [
        {"file": f, "verdict": "valid", "score": 300 + n, "player": f"P{n}", "copies": []}
        for n, f in enumerate(ELIGIBLE)
    ]
    entries += [{**e, "player": None, "copies": []} for e in NOT_ELIGIBLE]
    random.Random(order_seed).shuffle(entries)
    path.write_text(json.dumps({"entries": entries, "summary": {}}))
    return path


def draw(*args: str | Path) -> Any:
    return CliRunner().invoke(main, ["draw", *map(str, args)])


def winners(output: str) -> list[str]:
    return re.findall(r"^  \d+\. .*?(\S+)  \(\d+ points\)$", output, re.M)


def expected(seed: str, k: int) -> list[str]:
    """The recipe of docs/batch.md, written out independently of validator.draw."""
    files = sorted(ELIGIBLE)
    listed = hashlib.sha256("\n".join(files).encode()).hexdigest()

    def key(f: str) -> str:
        return hashlib.sha256(f"road300-draw\0{seed}\0{listed}\0{f}".encode()).hexdigest()

    return sorted(files, key=key)[:k]


@pytest.mark.parametrize("seed", ["2024-06-01", "lottery 17 23 42", "ü", ""])
def test_follows_the_documented_recipe(tmp_path: Path, seed: str) -> None:
    out = draw(results(tmp_path / "r.json"), "--winners", "3", "--seed", seed)
    assert out.exit_code == 0, out.output
    assert winners(out.stdout) == expected(seed, 3)


def test_same_seed_same_winners_whatever_the_order(tmp_path: Path) -> None:
    picks = {
        tuple(winners(draw(results(tmp_path / f"r{n}.json", n), "-n", "3", "--seed", "x").stdout))
        for n in range(4)
    }
    assert len(picks) == 1


def test_the_seed_matters(tmp_path: Path) -> None:
    path = results(tmp_path / "r.json")
    picks = {tuple(winners(draw(path, "--seed", s).stdout)) for s in "abcdefgh"}
    assert len(picks) > 1


def test_only_valid_entries_with_300(tmp_path: Path) -> None:
    out = draw(results(tmp_path / "r.json"), "--winners", "50", "--seed", "s")
    assert sorted(winners(out.stdout)) == sorted(ELIGIBLE)
    assert "Only 20 eligible for 50 prizes" in out.stdout


def test_rerun_command_gives_the_same_draw(tmp_path: Path) -> None:
    path = results(tmp_path / "r.json")
    first = draw(path, "--winners", "2", "--seed", "it's a 'seed'")
    line = next(x for x in first.stdout.splitlines() if x.startswith("Re-run the draw: "))
    argv = shlex.split(line.removeprefix("Re-run the draw: "))
    assert argv[:2] == ["road300", "draw"]
    again = draw(*argv[2:])
    assert again.stdout == first.stdout


def test_nobody_eligible(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"entries": NOT_ELIGIBLE}))
    out = draw(path, "--seed", "s")
    assert out.exit_code == 1
    assert "nobody can be drawn" in out.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"entries": [', "r.json:1:14: not valid JSON"),
        ('{"results": []}', 'no "entries" list'),
        ('{"entries": [{"verdict": "valid"}]}', 'entry 1: no "file" text'),
    ],
)
def test_unusable_results(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(text)
    out = draw(path, "--seed", "s")
    assert out.exit_code == 2
    assert message in out.stderr


def test_missing_results(tmp_path: Path) -> None:
    out = draw(tmp_path / "nope.json", "--seed", "s")
    assert out.exit_code == 2
    assert "no such file" in out.stderr


def test_from_a_real_batch_json_and_csv(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    shutil.copytree(Path(__file__).parent / "batch_cases" / "contest" / "entries", folder)
    runner = CliRunner()
    for name in ("results.json", "results.csv"):
        done = runner.invoke(
            main, ["batch", str(folder), "--dice", str(DICE), "-o", str(tmp_path / name)]
        )
        assert done.exit_code == 0, done.output
    by_json = draw(tmp_path / "results.json", "-n", "5", "--seed", "s")
    by_csv = draw(tmp_path / "results.csv", "-n", "5", "--seed", "s")
    assert winners(by_json.stdout) == winners(by_csv.stdout)
    assert sorted(winners(by_json.stdout)) == ["alice/record.yaml", "bob.json"]
    assert "played the same game as another entry" in by_json.stdout
    with (tmp_path / "results.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == 9
