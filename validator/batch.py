"""Checking a folder of contest entries: find them, check them in a process pool, rank them.

Workers get paths and send back small JSON-ready summaries, never parsed records or full
results, so memory stays flat however many entries the folder holds.
"""

from __future__ import annotations

import gc
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from validator.check import Checker, UsageError
from validator.engine import STANDARD
from validator.errors import Diagnostic
from validator.readers import RECORD_FORMATS
from validator.replayer import Result, Verdict, malformed

DEFAULT_MIN_SCORE = 300
"""The score a game must reach to win the challenge ("Road to 300")."""

Entry = dict[str, Any]
"""One entry as `validate --format json` gives it, plus `rank` and `copies`."""


@dataclass(frozen=True, slots=True)
class Skipped:
    file: str
    """Relative to the batch folder, with `/` separators; folders end with `/`."""
    reason: str


@dataclass(frozen=True, slots=True)
class Found:
    """What a folder holds: record files to check (sorted), and everything passed over."""

    files: list[str]
    skipped: list[Skipped]


@dataclass(frozen=True, slots=True)
class Checked:
    """What a worker sends back for one file: small and picklable."""

    file: str
    entry: Entry | None
    """None when the file turned out not to be an entry (see `skipped`)."""
    fingerprint: str | None = None
    """The game's cross-outs and moves, hashed; None when the replay did not finish."""
    skipped: str | None = None


@dataclass
class Batch:
    """The ranked outcome of a batch."""

    root: Path
    entries: list[Entry]
    """In ranking order: valid and incomplete by score, then invalid, then malformed."""
    skipped: list[Skipped]
    copies: list[list[str]]
    """Groups of entries that played the very same game, each sorted by file."""
    min_score: int = DEFAULT_MIN_SCORE
    dice_sha256: list[str] = field(default_factory=list)
    """Every dice file checksum the entries were replayed on (more than one is suspicious)."""

    def count(self, verdict: Verdict) -> int:
        return sum(1 for e in self.entries if e["verdict"] == verdict.value)

    @property
    def reached(self) -> list[Entry]:
        """Valid entries with at least `min_score`, best first."""
        return [
            e
            for e in self.entries
            if e["verdict"] == Verdict.VALID.value and (e["score"] or 0) >= self.min_score
        ]

    def summary(self) -> dict[str, Any]:
        counts = {v.value: self.count(v) for v in Verdict}
        return {
            "entries": len(self.entries),
            "valid": counts["valid"],
            "incomplete": counts["incomplete"],
            "invalid": counts["invalid"],
            "malformed": counts["malformed"],
            "skipped": len(self.skipped),
            "min_score": self.min_score,
            "reached": [e["file"] for e in self.reached],
            "copies": self.copies,
            "dice_sha256": self.dice_sha256,
        }


class BatchError(Exception):
    """The batch cannot run at all (no such folder); exit status 2."""


# -- Finding entries ---------------------------------------------------------------------


def find_entries(root: Path, exclude: dict[Path, str] | None = None) -> Found:
    """Every record file under `root` by extension, recursively, in a stable order.

    Symbolic links are never followed: one that leaves `root` could expose any file, and one
    that stays inside points at a file the walk reaches in its own place anyway. Hidden files
    and folders (a leading dot) are passed over, and so is each file of `exclude` (the dice
    file, the output file). Everything passed over is listed, with why.
    """
    if not root.exists():
        raise BatchError(f"{root}: no such folder")
    if not root.is_dir():
        raise BatchError(
            f"{root}: is a file, not a folder (check one record with road300 validate)"
        )
    real_root = root.resolve()
    excluded = {p.resolve(): why for p, why in (exclude or {}).items()}
    files: list[str] = []
    skipped: list[Skipped] = []
    _walk(real_root, real_root, excluded, files, skipped)
    return Found(files, skipped)


def _walk(
    folder: Path, root: Path, excluded: dict[Path, str], files: list[str], skipped: list[Skipped]
) -> None:
    try:
        with os.scandir(folder) as it:
            items = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        rel = _rel(folder, root)
        skipped.append(Skipped(rel + "/", f"cannot read the folder: {exc.strerror}"))
        return
    for item in items:
        path = Path(item.path)
        rel = _rel(path, root)
        try:
            if item.is_symlink():
                skipped.append(Skipped(rel, _link_reason(path, root)))
                continue
            is_dir = item.is_dir(follow_symlinks=False)
        except OSError as exc:
            skipped.append(Skipped(rel, f"cannot read it: {exc.strerror}"))
            continue
        if item.name.startswith("."):
            skipped.append(Skipped(rel + "/" if is_dir else rel, "hidden"))
        elif is_dir:
            _walk(path, root, excluded, files, skipped)
        elif path.suffix.lower() not in RECORD_FORMATS:
            kind = path.suffix.lower() or "no extension"
            skipped.append(Skipped(rel, f"not a record file ({kind})"))
        elif path in excluded:
            skipped.append(Skipped(rel, excluded[path]))
        else:
            files.append(rel)


def _link_reason(path: Path, root: Path) -> str:
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return "symbolic link to nothing (broken or a loop), not followed"
    if target == root or root in target.parents:
        return f"symbolic link to {_rel(target, root)}, not followed (checked in its own place)"
    return "symbolic link leaving the folder, not followed"


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path != root else "."


# -- Checking entries --------------------------------------------------------------------

_worker: tuple[Checker, Path] | None = None


def _init_worker(checker: Checker, root: Path) -> None:
    global _worker
    _worker = (checker, root)
    # Everything loaded so far lives for the whole run; keep the collector off it.
    gc.freeze()


def _check_one(file: str) -> Checked:
    assert _worker is not None, "_init_worker was not called"
    checker, root = _worker
    return check_file(checker, root, file)


def check_file(checker: Checker, root: Path, file: str) -> Checked:
    """Check one entry; never raises, whatever the file holds."""
    from validator.render.json_out import result_dict

    path = root / file
    try:
        result = checker.check(path, file)
    except UsageError as exc:
        # Only without --dice: the record names no dice file, or one that cannot be read.
        d = exc.diagnostic
        diagnostic = (
            Diagnostic("E004", exc.message.removeprefix(f"{file}: "), file)
            if d is None
            else Diagnostic(d.code, f"its dice file: {exc.message}", file, hint=d.hint)
        )
        result = malformed(diagnostic, checker.rules or STANDARD, file)
    except Exception as exc:  # a bug must cost one entry, not the whole batch
        message = (
            f"the validator failed on this file ({type(exc).__name__}: {exc}); please report it"
        )
        result = malformed(Diagnostic("E001", message, file), checker.rules or STANDARD, file)
    if result.verdict is Verdict.MALFORMED and _is_dice_file(path):
        return Checked(file, None, skipped="a dice file, not a record")
    return Checked(file, result_dict(result, file=file), fingerprint(result))


def _is_dice_file(path: Path) -> bool:
    from validator.readers.dice import read_dice

    try:
        read_dice(path)
    except Exception:  # ReadError, or any reader bug: then it is no dice file either
        return False
    return True


def fingerprint(result: Result) -> str | None:
    """A digest of the game as played: per dice row, the cross-out and where the move ended.

    The recorded path, the format, the player's name and the claimed score do not enter it,
    so two entries with the same digest played the very same game.
    """
    if result.score is None or not result.rounds:
        return None
    h = hashlib.sha256((result.dice_sha256 or "").encode())
    for r in result.rounds:
        cross = str(r.cross.field) if r.cross else "-"
        end = str(r.move) if r.move else (str(r.walk[-1]) if r.walk else "-")
        h.update(f"{r.roll}:{r.kind}:{cross}:{end};".encode())
    return h.hexdigest()


def check_entries(
    checker: Checker, root: Path, files: list[str], jobs: int = 1
) -> Iterator[Checked]:
    """Check `files` (relative to `root`), yielding results in the order of `files`.

    With `jobs` > 1 a process pool does the work in chunks; the order never depends on it.
    """
    jobs = max(1, min(jobs, len(files)))
    if jobs == 1:
        for file in files:
            yield check_file(checker, root, file)
        return
    import multiprocessing

    # Chunks big enough to keep the pipes quiet, small enough to balance the load.
    chunksize = max(1, min(64, len(files) // (jobs * 8)))
    with multiprocessing.get_context().Pool(jobs, _init_worker, (checker, root)) as pool:
        yield from pool.imap(_check_one, files, chunksize)


# -- Ranking -----------------------------------------------------------------------------


def collect(
    root: Path,
    found: Found,
    results: Iterable[Checked],
    *,
    min_score: int = DEFAULT_MIN_SCORE,
    on_result: Callable[[Checked], None] | None = None,
) -> Batch:
    """Rank the checked entries and find copies; `results` is consumed as it comes."""
    entries: list[Entry] = []
    skipped = list(found.skipped)
    groups: dict[str, list[str]] = {}
    checksums: set[str] = set()
    for checked in results:
        if on_result is not None:
            on_result(checked)
        if checked.entry is None:
            skipped.append(Skipped(checked.file, checked.skipped or "not a record"))
            continue
        entries.append(checked.entry)
        if checked.fingerprint is not None:
            groups.setdefault(checked.fingerprint, []).append(checked.file)
        if checked.entry.get("dice_sha256"):
            checksums.add(checked.entry["dice_sha256"])
    copies = sorted(sorted(g) for g in groups.values() if len(g) > 1)
    copy_of = {f: [o for o in group if o != f] for group in copies for f in group}
    ranked = rank(entries)
    out = [_ordered(e, copy_of.get(e["file"], [])) for e in ranked]
    skipped.sort(key=lambda s: s.file)
    return Batch(root, out, skipped, copies, min_score, sorted(checksums))


_ORDER = {"valid": 0, "incomplete": 0, "invalid": 1, "malformed": 2}


def rank(entries: list[Entry]) -> list[Entry]:
    """Valid and incomplete entries ranked together by score (ties share a rank; an
    incomplete entry keeps its mark), then invalid, then malformed; each by file."""

    def key(e: Entry) -> tuple[int, int, str]:
        scored = _ORDER[e["verdict"]] == 0
        return (_ORDER[e["verdict"]], -(e["score"] or 0) if scored else 0, e["file"])

    ordered = sorted(entries, key=key)
    rank_no = 0
    last: int | None = None
    for position, e in enumerate(ordered, start=1):
        if _ORDER[e["verdict"]] != 0:
            e["rank"] = None
            continue
        if e["score"] != last:
            rank_no, last = position, e["score"]
        e["rank"] = rank_no
    return ordered


def _ordered(e: Entry, copies: list[str]) -> Entry:
    # The fixed fields first, as FORMATS.md shows them.
    head = ("file", "verdict", "score", "end", "error", "rank")
    out = {k: e[k] for k in head}
    out.update((k, v) for k, v in e.items() if k not in out)
    out["copies"] = copies
    return out


def player_name(entry: Entry) -> str:
    """The record's player, else the entry's subfolder, else the file's name."""
    if entry.get("player"):
        return str(entry["player"])
    parts = entry["file"].split("/")
    return parts[0] if len(parts) > 1 else Path(parts[0]).stem
