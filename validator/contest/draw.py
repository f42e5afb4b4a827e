"""A prize draw anyone can re-check: winners follow from the seed and the eligible entries alone.

Each eligible file gets the key SHA-256("road300-draw" NUL seed NUL list NUL file), where
`list` is the SHA-256 of the eligible files sorted and joined by newlines; the entries with
the smallest keys (as hex text) win, in that order. No random module, no hash randomization:
the same results file, options and seed give the same winners on any machine.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from validator.check.replay import Verdict
from validator.contest.batch import (
    DEFAULT_MIN_SCORE,
    JSON,
    Entry,
    EntryError,
    copy_groups,
    file_order,
)
from validator.records.source import INVISIBLE, formula_start

SALT = "road300-draw"

_N = TypeVar("_N", int, float)

_CSV_NUMBERS = ("rank", "score", "end_roll", "rounds_played", "rerolls", "claimed_score")
_CSV_ERROR = ("code", "message", "roll", "round", "line", "col")


class DrawError(Exception):
    """The results file cannot be used for a draw; exit status 2."""


@dataclass(frozen=True, slots=True)
class Draw:
    seed: str
    eligible: tuple[Entry, ...]
    """Sorted by file."""
    list_sha256: str
    winners: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class LeftOut:
    """An entry that could have won but does not take part, and why."""

    entry: Entry
    reason: str


@dataclass(frozen=True, slots=True)
class DrawOptions:
    """Who takes part in a draw, and how many win (the options of `road300 draw`)."""

    winners: int = 1
    min_score: int = DEFAULT_MIN_SCORE
    exclude_copies: bool = False
    keep_first: bool = False
    """With `exclude_copies`: the first entry of each copied game stays."""
    one_per_player: bool = False

    def __post_init__(self) -> None:
        if self.keep_first and not self.exclude_copies:
            raise DrawError("--keep-first goes with --exclude-copies")


@dataclass(frozen=True, slots=True)
class Outcome:
    """A draw on a results file: who could take part, who was left out and why, and the
    winners (None when nobody could be drawn)."""

    results: Path
    seed: str
    options: DrawOptions
    entries: list[Entry]
    """Every entry of the results file."""
    eligible: list[Entry]
    """Valid with at least min_score points, neither late nor superseded."""
    left_out: list[LeftOut]
    """Late or superseded ones first, then those the options left out."""
    not_counting: int
    """How many of `left_out` are late or superseded."""
    copies_left: int
    players_left: int
    drawn: Draw | None
    copies: list[Entry]
    """Without --exclude-copies: the eligible entries whose game another entry played."""

    def command_line(self) -> list[str]:
        """The command that makes this draw again."""
        o = self.options
        line = ["road300", "draw", str(self.results), "--winners", str(o.winners)]
        line += ["--seed", self.seed]
        if o.min_score != DEFAULT_MIN_SCORE:
            line += ["--min-score", str(o.min_score)]
        flags = (
            ("--exclude-copies", o.exclude_copies),
            ("--keep-first", o.keep_first),
            ("--one-per-player", o.one_per_player),
        )
        return line + [flag for flag, on in flags if on]


def run(results: Path, seed: str, options: DrawOptions) -> Outcome:
    """The draw of `road300 draw`: read the results, leave out who may not take part (with
    why), and draw the winners among the others; raises DrawError."""
    entries = load_results(results)
    candidates = chosen = eligible(entries, options.min_score)
    left_out = not_counting(entries, options.min_score)
    late = len(left_out)
    copies_left = players_left = 0
    if options.exclude_copies:
        candidates, left = exclude_copies(candidates, entries, keep_first=options.keep_first)
        left_out += left
        copies_left = len(left)
    if options.one_per_player:
        candidates, left = one_per_player(candidates)
        left_out += left
        players_left = len(left)
    drawn = draw(candidates, seed, options.winners) if candidates else None
    copies = [] if drawn is None or options.exclude_copies else copied(drawn.eligible, entries)
    return Outcome(
        results,
        seed,
        options,
        entries,
        chosen,
        left_out,
        late,
        copies_left,
        players_left,
        drawn,
        copies,
    )


def draw(candidates: Iterable[Entry], seed: str, winners: int) -> Draw:
    eligible = tuple(sorted(candidates, key=lambda e: e.file))
    list_sha256 = hashlib.sha256("\n".join(c.file for c in eligible).encode()).hexdigest()

    def key(c: Entry) -> str:
        text = "\0".join((SALT, seed, list_sha256, c.file))
        return hashlib.sha256(text.encode()).hexdigest()

    chosen = sorted(eligible, key=key)[:winners]
    return Draw(seed, eligible, list_sha256, tuple(chosen))


def eligible(entries: Iterable[Entry], min_score: int = DEFAULT_MIN_SCORE) -> list[Entry]:
    """Entries that are valid with at least `min_score` points, neither late nor superseded,
    sorted by file."""
    return sorted((e for e in entries if _scored(e, min_score) and e.counts), key=lambda e: e.file)


def not_counting(entries: Iterable[Entry], min_score: int = DEFAULT_MIN_SCORE) -> list[LeftOut]:
    """The entries that are valid with at least `min_score` points but take no part, late
    or superseded, each with why, sorted by file."""
    return [
        LeftOut(e, "late: its message is dated after the deadline, or not dated")
        if e.late
        else LeftOut(e, "superseded: the same sender sent a later entry in time")
        for e in sorted(entries, key=lambda e: e.file)
        if _scored(e, min_score) and not e.counts
    ]


def _scored(e: Entry, min_score: int) -> bool:
    return e.verdict is Verdict.VALID and e.score is not None and e.score >= min_score


def copied(candidates: Iterable[Entry], entries: Iterable[Entry]) -> list[Entry]:
    """The candidates that played the same game as another entry still in the results."""
    in_groups = {f for group in copy_groups(entries) for f in group}
    return [c for c in candidates if c.file in in_groups]


def exclude_copies(
    candidates: list[Entry], entries: Iterable[Entry], *, keep_first: bool
) -> tuple[list[Entry], list[LeftOut]]:
    """Leave out every entry whose game another entry of the results played too, or with
    `keep_first` every one but the first of each such game (`file_order`: by file name,
    numbers as numbers, so the mailbox's order for messages).

    Copies come from the entries' `copies` lists, restricted to the entries the results still
    hold: an entry removed by hand no longer makes its partners copies.
    """
    first_of: dict[str, str] = {}
    for group in copy_groups(entries):
        for file in group:
            first_of[file] = group[0]
    kept: list[Entry] = []
    left: list[LeftOut] = []
    for c in candidates:
        first = first_of.get(c.file)
        if first is None or (keep_first and first == c.file):
            kept.append(c)
        elif keep_first:
            left.append(LeftOut(c, f"a copy of {first}"))
        else:
            left.append(LeftOut(c, "a copied game"))
    return kept, left


def name_skeleton(name: str) -> str:
    """What a name looks like, for comparing names (--one-per-player): two names that look
    alike are the same player. Compatibility forms are folded (NFKC: a full-width A,
    U+FF21, is `A`), invisible characters (zero-width spaces and joiners, soft hyphens,
    controls) and blanks dropped, look-alike letters of other scripts read as the Latin
    letter they imitate (Cyrillic U+0435 is `e`), and case ignored."""
    text = unicodedata.normalize("NFKC", name)
    text = INVISIBLE.sub("", text)
    text = "".join(text.split()).translate(_CONFUSABLES)
    return unicodedata.normalize("NFKC", text.casefold())


_CONFUSABLES = str.maketrans(
    # Cyrillic, then Greek letters that look like a Latin letter (after Unicode's list of
    # confusables, UTS #39, for the letters a name is written with); written as escapes,
    # each line's Latin look-alikes after it.
    "\u0410\u0412\u0415\u0405\u0406\u0408\u041a\u041c"  # ABESIJKM
    "\u041d\u041e\u0420\u0421\u0422\u0425\u0423\u0430"  # HOPCTXYa
    "\u0435\u04bb\u0456\u0458\u04cf\u043e\u0440\u0441"  # ehijlopc
    "\u0455\u0501\u051b\u051d\u0445\u0443\u04c0"  # sdqwxyl
    "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c"  # ABEZHIKM
    "\u039d\u039f\u03a1\u03a4\u03a5\u03a7\u03b1\u03b9"  # NOPTYXai
    "\u03bf\u03c1\u03c5\u03bd\u03ba",  # opuvk
    "ABESIJKMHOPCTXYaehijlopcsdqwxylABEZHIKMNOPTYXaiopuvk",
)


def _plain(name: str) -> str:
    return "".join(name.split()).casefold()


def one_per_player(candidates: list[Entry]) -> tuple[list[Entry], list[LeftOut]]:
    """Keep each player's first entry (`file_order`); leave out the others."""
    first: dict[str, Entry] = {}
    kept: list[Entry] = []
    left: list[LeftOut] = []
    for c in sorted(candidates, key=lambda e: file_order(e.file)):
        key = name_skeleton(c.player_name)
        if key in first:
            other = first[key]
            why = f"the same player as {other.file}"
            if _plain(c.player_name) != _plain(other.player_name):
                # Not just case or spaces: say which names look alike (and how they
                # differ: the output shows invisible characters escaped).
                why += f" ({c.player_name} looks like {other.player_name})"
            left.append(LeftOut(c, why))
        else:
            first[key] = c
            kept.append(c)
    return kept, left


# -- Reading results ---------------------------------------------------------------------


def load_results(path: Path) -> list[Entry]:
    """The entries of a `road300 batch` output, JSON or CSV; raises DrawError."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise DrawError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise DrawError(f"{path}: cannot read the results: {reason}") from None
    try:
        if path.suffix.lower() == ".csv":
            entries = _csv_entries(text, path)
        else:
            entries = _json_entries(text, path)
    except EntryError as exc:
        raise DrawError(str(exc)) from None
    seen: set[str] = set()
    for n, e in enumerate(entries, start=1):
        if e.file in seen:  # two tickets for one entry
            raise DrawError(f"{path}: entry {n}: {e.file} is listed twice")
        seen.add(e.file)
    return entries


def _json_entries(text: str, path: Path) -> list[Entry]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DrawError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise DrawError(f"{path}: nested too deeply; not a `road300 batch` output") from None
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise DrawError(f'{path}: not a `road300 batch` output (no "entries" list)')
    return [Entry.from_json(e, f"{path}: entry {n}") for n, e in enumerate(entries, start=1)]


def _csv_entries(text: str, path: Path) -> list[Entry]:
    reader = csv.DictReader(io.StringIO(text))
    try:  # the csv module refuses a cell past its limit, in the header row too
        missing = {"file", "verdict", "score"} - set(reader.fieldnames or ())
        if missing:
            raise DrawError(
                f"{path}:1: not a `road300 batch` CSV (no {', '.join(sorted(missing))} column)"
            )
        return [_csv_entry(row, f"{path}:{reader.line_num}") for row in reader]
    except csv.Error as exc:
        line = max(reader.line_num, 1)
        raise DrawError(f"{path}:{line}: not a `road300 batch` CSV: {exc}") from None


def _csv_entry(row: dict[str, str], where: str) -> Entry:
    """One CSV row read back as the JSON entry it was written from."""
    cells = {k: _unguard(v or "") for k, v in row.items() if k is not None}
    data: dict[str, JSON] = {k: v or None for k, v in cells.items()}
    for key in _CSV_NUMBERS:
        data[key] = _number(cells.get(key, ""), key, where)
    data["par_share"] = _number(cells.get("par_share", ""), "par_share", where, float)
    data["copies"] = list(cells.get("copies", "").split())
    for flag in ("late", "superseded"):
        data[flag] = cells.get(flag, "").strip().lower() == "true"
    data["warnings"] = []
    if cells.get("error_code"):
        data["error"] = {
            key: _number(cells.get(f"error_{key}", ""), f"error_{key}", where)
            if key in ("roll", "round", "line", "col")
            else cells.get(f"error_{key}", "")
            for key in _CSV_ERROR
        }
    # An empty cell is a value left out (the entry's default); the columns that are no
    # entry field (error_code, message_id, ...) are passed over.
    return Entry.from_json({k: v for k, v in data.items() if v is not None}, where)


def _unguard(cell: str) -> str:
    """A cell as it was before `csv_cell` guarded it: without the `'` it put before the
    cell, and after each `;` (and its spaces), where a formula would follow."""
    pieces = cell.split(";")
    for n, piece in enumerate(pieces):
        text = piece.lstrip(" ") if n else piece
        if text.startswith("'") and formula_start(text[1:]):
            pieces[n] = piece[: len(piece) - len(text)] + text[1:]
    return ";".join(pieces)


def _number(text: str, key: str, where: str, kind: Callable[[str], _N] = int) -> _N | None:
    """A number cell as the JSON number it was (None when empty): a whole number, or with
    `kind=float` a share (`par_share`, written with four decimals)."""
    text = text.strip()
    if not text:
        return None
    try:
        return kind(text)
    except ValueError:
        raise DrawError(f"{where}: the {key} {text!r} is not a number") from None


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
