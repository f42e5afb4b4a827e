"""A prize draw anyone can re-check: winners follow from the seed and the eligible entries alone.

Each eligible file gets the key SHA-256("road300-draw" NUL seed NUL list NUL file), where
`list` is the SHA-256 of the eligible files sorted and joined by newlines; the entries with
the smallest keys (as hex text) win, in that order. No random module, no hash randomization:
the same results file and seed give the same winners on any machine.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from validator.batch import DEFAULT_MIN_SCORE

SALT = "road300-draw"


class DrawError(Exception):
    """The results file cannot be used for a draw; exit status 2."""


@dataclass(frozen=True, slots=True)
class Candidate:
    file: str
    player: str | None
    score: int
    copies: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Draw:
    seed: str
    eligible: tuple[Candidate, ...]
    """Sorted by file."""
    list_sha256: str
    winners: tuple[Candidate, ...]


def draw(candidates: list[Candidate], seed: str, winners: int) -> Draw:
    eligible = tuple(sorted(candidates, key=lambda c: c.file))
    list_sha256 = hashlib.sha256("\n".join(c.file for c in eligible).encode()).hexdigest()

    def key(c: Candidate) -> str:
        text = "\0".join((SALT, seed, list_sha256, c.file))
        return hashlib.sha256(text.encode()).hexdigest()

    chosen = sorted(eligible, key=key)[:winners]
    return Draw(seed, eligible, list_sha256, tuple(chosen))


def eligible(entries: list[dict[str, Any]], min_score: int = DEFAULT_MIN_SCORE) -> list[Candidate]:
    """Entries that are valid with at least `min_score` points."""
    out = []
    for e in entries:
        score = e.get("score")
        if e.get("verdict") == "valid" and isinstance(score, int) and score >= min_score:
            copies = tuple(e.get("copies") or ())
            out.append(Candidate(str(e["file"]), e.get("player") or None, score, copies))
    return out


def load_results(path: Path) -> list[dict[str, Any]]:
    """The entries of a `road300 batch` output, JSON or CSV; raises DrawError."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise DrawError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise DrawError(f"{path}: cannot read the results: {reason}") from None
    if path.suffix.lower() == ".csv":
        return _csv_entries(text, path)
    return _json_entries(text, path)


def _json_entries(text: str, path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DrawError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise DrawError(f'{path}: not a `road300 batch` output (no "entries" list)')
    for n, e in enumerate(entries, start=1):
        if not isinstance(e, dict) or not isinstance(e.get("file"), str) or "verdict" not in e:
            raise DrawError(f'{path}: entry {n} has no "file" and "verdict"')
        if e.get("score") is not None and not isinstance(e["score"], int):
            raise DrawError(f"{path}: entry {n} ({e['file']}): the score is not a number")
    return entries


def _csv_entries(text: str, path: Path) -> list[dict[str, Any]]:
    reader = csv.DictReader(io.StringIO(text))
    missing = {"file", "verdict", "score"} - set(reader.fieldnames or ())
    if missing:
        raise DrawError(
            f"{path}:1: not a `road300 batch` CSV (no {', '.join(sorted(missing))} column)"
        )
    entries = []
    for row in reader:
        score_text = (row.get("score") or "").strip()
        if score_text and not score_text.isdigit():
            raise DrawError(f"{path}:{reader.line_num}: the score {score_text!r} is not a number")
        entries.append(
            {
                "file": row["file"],
                "verdict": row["verdict"],
                "score": int(score_text) if score_text else None,
                "player": row.get("player") or None,
                "copies": (row.get("copies") or "").split(),
            }
        )
    return entries


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
