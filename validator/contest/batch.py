"""Checking a folder of contest entries: find them, check them in a process pool, rank them.

Workers get paths and send back one small typed `Entry` per file, never parsed records or
full results, so memory stays flat however many entries the folder holds. Rendering the
outcome is validator.render.batch_out's job; `road300 draw` reads it back as `Entry` too.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from validator.check.models import JSON_SHAPE, READ_BACK, Count, Ordinal, from_json, to_json
from validator.check.replay import Result, Verdict, malformed
from validator.contest.origin import MailSource
from validator.engine import STANDARD, Dice, End, Field, Ruleset
from validator.errors import Diagnostic, ReadError
from validator.records import RECORD_FORMATS, sniff_format
from validator.records.lexing import short
from validator.records.source import name_text, read_bytes

if TYPE_CHECKING:
    from pydantic import ValidationError

    from validator.check.file import Checker

DEFAULT_MIN_SCORE = 300
"""The score a game must reach to win the challenge ("Road to 300")."""

JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]
"""A value as `json.dumps` writes it."""


class EntryError(ValueError):
    """A results file holds an entry this module cannot read back; the message says why."""


# -- Entries -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Problem:
    """A record's first error, or one of its warnings (see docs/errors.md)."""

    __pydantic_config__ = READ_BACK

    code: str
    """The stable error code, like E203."""
    message: str
    roll: Ordinal | None = None
    """The 1-based dice row of the first illegal step; null for whole-record errors."""
    round: Ordinal | None = None
    """The 1-based entry in the record."""
    line: Ordinal | None = None
    """The record's source line."""
    name: str | None = None
    """The code's short name, like cross-taken."""
    file: str | None = None
    col: int | None = None
    """The column on `line`, 1-based."""
    hint: str | None = None
    """What would have been legal instead."""

    @classmethod
    def of(cls, d: Diagnostic) -> Problem:
        return cls(
            d.code, d.message, d.roll, d.round, d.line, d.name, d.file, d.col, d.hint or None
        )


@dataclass(frozen=True, slots=True)
class Entry:
    """One checked record file of a batch: what `validate --format json` says of it, plus its
    standing among the others (`rank`, `copies`). Frozen and picklable: workers send it back.

    This is the one definition of the JSON of a record's result: a batch entry writes every
    field, in this order (FORMATS.md's fixed fields first); `validate --format json` the same
    fields but those in `BATCH_ONLY`, with the fixed ones first (render/json_out.py); and
    schemas/result.schema.json and batch.schema.json are generated from it.
    """

    # pydantic writes it and reads it back by this definition (check/models.to_json).
    __pydantic_config__ = READ_BACK

    file: str
    """Relative to the batch folder, with `/` separators (validate: the path as given)."""
    verdict: Verdict
    score: int | None
    """The replayed score; null when the replay stopped or the record could not be read."""
    end: End | None
    """How the game ended; null when it did not."""
    error: Problem | None
    """The first error (an incomplete record: the warning saying so); null when valid."""
    rank: Ordinal | None = None
    """Valid and incomplete entries only; ties share a rank."""
    player: str | None = None
    rules: str | None = None
    """The ruleset the record was replayed with (see `road300 rules`)."""
    end_roll: int | None = None
    """The dice row on which the game ended."""
    rounds_played: Count = 0
    """Record rounds replayed."""
    rerolls: Count = 0
    dice_sha256: str | None = None
    """The SHA-256 of the dice file the record was replayed on."""
    claimed_score: int | None = None
    warnings: tuple[Problem, ...] = ()
    errors: tuple[Problem, ...] = ()
    """Every reading error of a malformed record (up to 50; the first is `error`); else
    the first error, if any."""
    errors_omitted: Count = 0
    """Reading errors found beyond those listed."""
    par_share: float | None = None
    """With `batch --par`: a valid or incomplete game's score as a share of the dice file's best
    possible score (null for an invalid or unreadable record)."""
    copies: tuple[str, ...] = ()
    """The other entries that played the very same game."""
    # -- entries from mail (contest/mail.py); a record file has no source and is never late
    late: bool = False
    """Its message's Date is after the contest's deadline."""
    superseded: bool = False
    """The same address sent a later message before the deadline: that one counts."""
    source: MailSource | None = None

    @classmethod
    def of(cls, result: Result, file: str) -> Entry:
        record = result.record
        return cls(
            file=file,
            verdict=result.verdict,
            score=result.score,
            end=result.end,
            error=Problem.of(result.error) if result.error else None,
            player=record.player if record else None,
            rules=result.rules.name,
            end_roll=result.end_roll,
            rounds_played=sum(1 for r in result.rounds if r.record_round is not None),
            rerolls=result.rerolls,
            dice_sha256=result.dice_sha256,
            claimed_score=record.claimed_score if record else None,
            warnings=tuple(Problem.of(w) for w in result.warnings),
            errors=tuple(Problem.of(e) for e in result.errors),
            errors_omitted=result.errors_omitted,
        )

    @property
    def ranked(self) -> bool:
        """Valid and incomplete entries are ranked by score, unless late or superseded;
        the others follow unranked."""
        return self.counts and self.verdict in (Verdict.VALID, Verdict.INCOMPLETE)

    @property
    def counts(self) -> bool:
        """Neither late nor superseded: the entry takes part in the ranking and the draw."""
        return not (self.late or self.superseded)

    @property
    def player_name(self) -> str:
        """The record's player, else the entry's subfolder, else the file's name."""
        if self.player:
            return self.player
        parts = self.file.split("/")
        return parts[0] if len(parts) > 1 else Path(parts[0]).stem

    def to_json(self) -> dict[str, JSON]:
        entry: dict[str, JSON] = to_json(self)
        return entry

    @classmethod
    def from_json(cls, data: JSON, where: str) -> Entry:
        """An entry of a `road300 batch` JSON output, as written or edited by hand; only
        `file` and `verdict` are required, unknown keys are passed over. Raises EntryError
        naming `where` (and the entry's file, when it has one)."""
        from pydantic import ValidationError

        if not isinstance(data, dict):
            raise EntryError(f"{where}: not an object")
        try:
            text = json.dumps(UNSCORED | data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise EntryError(
                f"{where}: it holds a character that is not text (an unpaired surrogate); "
                "not a `road300 batch` output"
            ) from None
        file = data.get("file")
        if isinstance(file, str):
            where = f"{where} ({file})"
        try:
            return from_json(cls, text)
        except ValidationError as exc:
            raise EntryError(f"{where}: {_first_problem(exc)}") from None


UNSCORED: dict[str, JSON] = {"score": None, "end": None, "error": None}
"""What an entry read back without them has: no score, no end, no error (a batch always
writes them; an entry made by hand may leave them out)."""


BATCH_ONLY = ("rank", "par_share", "copies", "late", "superseded", "source")
"""Entry fields that only a batch gives (a record's standing among the others)."""


def _first_problem(exc: ValidationError) -> str:
    """The first thing pydantic found wrong with an entry, and where in it, as
    `"error" "code": Input should be a valid string`."""
    first = exc.errors(include_url=False)[0]
    where = " ".join(
        json.dumps(part) if isinstance(part, str) else f"#{part + 1}" for part in first["loc"]
    )
    return f"{where}: {first['msg']}" if where else first["msg"]


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file or folder the batch passed over, and why."""

    # `message_id` is written for messages only: not every key is always written.
    __pydantic_config__ = JSON_SHAPE | {"json_schema_serialization_defaults_required": False}

    file: str
    """Relative to the batch folder, with `/` separators; folders end with `/`."""
    reason: str
    message_id: str | None = None
    """A message with no record (contest/mail.py): its Message-ID (a file has none)."""

    def to_json(self) -> dict[str, JSON]:
        skipped: dict[str, JSON] = to_json(self, exclude_none=True)
        return skipped


@dataclass(frozen=True, slots=True)
class Found:
    """What a folder holds: the files to check, in walk order (each turns out a record, a
    dice file or no record when read), and everything passed over."""

    files: list[str]
    """Relative to the folder, as the file system names them (see `shown_name`)."""
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


@dataclass(frozen=True, slots=True)
class Summary:
    """The counts and lists of a batch, as its JSON `summary` shows them."""

    __pydantic_config__ = JSON_SHAPE

    entries: Count
    valid: Count
    incomplete: Count
    invalid: Count
    malformed: Count
    skipped: Count
    min_score: Count
    """The score that counts as reaching the goal (--min-score)."""
    reached: tuple[str, ...]
    """Valid entries with at least min_score, best first."""
    copies: tuple[tuple[str, ...], ...]
    """Groups of entries that played the very same game."""
    dice_sha256: tuple[str, ...]
    """Every dice file checksum the entries were replayed on (more than one is suspicious)."""
    par: int | None = None
    """With `batch --par`: the dice file's best possible score (found by the solver)."""
    par_proven: bool | None = None
    """Whether `par` is proven the best (else the best game the solver found in time)."""
    par_bound: int | None = None
    """With `batch --par`: no game on the dice file scores more (par itself when proven;
    else par is "at least par, at most par_bound")."""
    par_stopped: Literal["time", "nodes", "cancel"] | None = None
    """With `batch --par`, when par is not proven: what stopped the solver; "time" (the
    --par-time limit) means par depends on the machine's speed, "nodes" (--par-nodes)
    that it is the same on every machine."""

    def to_json(self) -> dict[str, JSON]:
        summary: dict[str, JSON] = to_json(self)
        return summary


@dataclass(frozen=True, slots=True)
class BatchOut:
    """road300 batch --format json: the entries in ranking order, the summary, and the
    files passed over (docs/batch.md). The shape of what render/batch_out's BatchJson
    writes, for the schema."""

    __pydantic_config__ = JSON_SHAPE

    entries: list[Entry]
    summary: Summary
    skipped: list[Skipped]


@dataclass(frozen=True, slots=True)
class Batch:
    """The ranked outcome of a batch."""

    entries: tuple[Entry, ...]
    """In ranking order: valid and incomplete by score, then invalid, then malformed."""
    skipped: tuple[Skipped, ...]
    copies: tuple[tuple[str, ...], ...]
    """Groups of entries that played the very same game, each sorted by file."""
    min_score: int = DEFAULT_MIN_SCORE
    dice_sha256: tuple[str, ...] = ()
    """Every dice file checksum the entries were replayed on (more than one is suspicious)."""
    par: Par | None = None

    def count(self, verdict: Verdict) -> int:
        return sum(1 for e in self.entries if e.verdict is verdict)

    @property
    def reached(self) -> list[Entry]:
        """Valid entries with at least `min_score`, best first."""
        return [
            e
            for e in self.entries
            if e.verdict is Verdict.VALID and e.counts and (e.score or 0) >= self.min_score
        ]

    def summary(self) -> Summary:
        return Summary(
            entries=len(self.entries),
            valid=self.count(Verdict.VALID),
            incomplete=self.count(Verdict.INCOMPLETE),
            invalid=self.count(Verdict.INVALID),
            malformed=self.count(Verdict.MALFORMED),
            skipped=len(self.skipped),
            min_score=self.min_score,
            reached=tuple(e.file for e in self.reached),
            copies=self.copies,
            dice_sha256=self.dice_sha256,
            par=self.par.score if self.par else None,
            par_proven=self.par.proven if self.par else None,
            par_bound=self.par.bound if self.par else None,
            par_stopped=self.par.stopped if self.par else None,
        )

    def best_valid(self, rules: str, dice_sha256: str) -> int | None:
        """The best score of a valid entry replayed under `rules` on the dice file of
        `dice_sha256`: the dice file's par is at least that, whatever a search found."""
        scores = [
            e.score
            for e in self.entries
            if e.verdict is Verdict.VALID
            and e.score is not None
            and e.rules == rules
            and e.dice_sha256 == dice_sha256
        ]
        return max(scores, default=None)

    def with_par(self, par: Par) -> Batch:
        """The batch with the dice file's par, and each scored entry's share of it."""

        def share(e: Entry) -> float | None:
            # A legal game's share only: an invalid record's replayed score is no result.
            if e.score is None or par.score <= 0 or e.verdict not in LEGAL:
                return None
            return round(e.score / par.score, 4)

        entries = tuple(replace(e, par_share=share(e)) for e in self.entries)
        return replace(self, entries=entries, par=par)


LEGAL = (Verdict.VALID, Verdict.INCOMPLETE)
"""The verdicts of a legal game (finished or not): the entries that have a share of par."""


@dataclass(frozen=True, slots=True)
class Par:
    """The best possible score of the contest's dice file, as the solver found it."""

    score: int
    """The best game found: the best possible score when `proven`, else a lower bound."""
    proven: bool
    bound: int
    """Sound: no game scores more (equal to `score` when proven)."""
    stopped: Literal["time", "nodes", "cancel"] | None = None
    """What stopped the search before it proved `score` (`Solution.stopped`)."""

    def at_least(self, played: int | None) -> Par:
        """This par knowing that a game scoring `played` was played on the same dice file
        and ruleset (a valid entry): a search that did not finish may have found less, and
        a game that reaches the bound proves it."""
        if played is None or played <= self.score:
            return self
        proven = played >= self.bound
        return Par(played, proven, self.bound, None if proven else self.stopped)


def solve_par(
    rows: Sequence[Dice], rules: Ruleset, seconds: float | None, nodes: int | None, jobs: int
) -> Par:
    """The best score of the dice `rows` under `rules`, as far as the solver gets within
    `seconds` and `nodes` (either None: no such limit)."""
    from validator.solver import solve

    found = solve(rows, rules, time_limit=seconds, nodes=nodes, jobs=jobs)
    return Par(found.best_score, found.proven, found.upper_bound, found.stopped)


class BatchError(Exception):
    """The batch cannot run at all (no such folder); exit status 2."""


# -- Finding entries ---------------------------------------------------------------------


def find_entries(root: Path, exclude: dict[Path, str] | None = None) -> Found:
    """Every regular file under `root`, in a stable order: the ones to check, and the rest
    passed over with why. A file is checked whatever its name: its content decides, as
    for `road300 validate` (a record extension names the format; any other file is a
    record when its content is recognised as one, else it is skipped).

    The walk is iterative (however deep the folders), never follows a symbolic link (one
    that leaves `root` could expose any file; one that stays inside points at a file the
    walk reaches in its own place anyway), and passes over hidden files and folders (a
    leading dot) and each file of `exclude` (the dice file, the output file). Names are
    kept as the file system gives them (undecodable bytes as surrogates, to open the
    file); `shown_name` is how every output shows them.
    """
    if not root.exists():
        raise BatchError(f"{shown_name(str(root))}: no such folder or mailbox")
    if not root.is_dir():
        raise BatchError(
            f"{shown_name(str(root))}: is a file, not a folder "
            "(check one record with road300 validate)"
        )
    real_root = root.resolve()
    excluded = {p.resolve(): why for p, why in (exclude or {}).items()}
    files: list[str] = []
    skipped: list[Skipped] = []
    shown: dict[str, str] = {}
    # Depth first in name order, as a recursive walk would go, with an explicit stack.
    stack: list[tuple[str, Iterator[os.DirEntry[str]]]] = []

    def enter(rel: str) -> None:
        folder = os.path.join(real_root, rel) if rel else str(real_root)
        try:
            with os.scandir(folder) as it:
                items = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            skipped.append(
                Skipped(shown_name(rel) + "/", f"cannot read the folder: {exc.strerror}")
            )
            return
        stack.append((rel, iter(items)))

    enter("")
    while stack:
        parent, items = stack[-1]
        item = next(items, None)
        if item is None:
            stack.pop()
            continue
        rel = f"{parent}/{item.name}" if parent else item.name
        name = shown_name(rel)
        try:
            if item.is_symlink():
                skipped.append(Skipped(name, _link_reason(Path(item.path), real_root)))
                continue
            is_dir = item.is_dir(follow_symlinks=False)
            is_file = item.is_file(follow_symlinks=False)
        except OSError as exc:
            skipped.append(Skipped(name, f"cannot read it: {exc.strerror}"))
            continue
        if item.name.startswith("."):
            skipped.append(Skipped(name + "/" if is_dir else name, "hidden"))
        elif is_dir:
            enter(rel)
        elif not is_file:
            # Opening a FIFO waits for a writer forever; a device may never end.
            skipped.append(Skipped(name, "not a regular file (a FIFO, socket or device)"))
        elif Path(item.path) in excluded:
            skipped.append(Skipped(name, excluded[Path(item.path)]))
        elif name in shown:
            # Two names the file system tells apart that read the same once escaped
            # (`caf\xe9` written out, and a Latin-1 é): results must name one file each.
            why = f"its name reads as {shown[name]}'s once shown escaped; rename it"
            skipped.append(Skipped(name + " (another)", why))
        else:
            shown[name] = name
            files.append(rel)
    return Found(files, skipped)


def shown_name(name: str) -> str:
    """A file name as the results hold it: valid text, each undecodable byte of the name
    as `\\xe9` (every output channel escapes the rest its own way)."""
    return name_text(name)


def _link_reason(path: Path, root: Path) -> str:
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return "symbolic link to nothing (broken or a loop), not followed"
    if target == root or root in target.parents:
        target_name = shown_name(target.relative_to(root).as_posix() if target != root else ".")
        return f"symbolic link to {target_name}, not followed (checked in its own place)"
    return "symbolic link leaving the folder, not followed"


# -- Checking entries --------------------------------------------------------------------


def check_file(checker: Checker, root: Path, file: str) -> Checked:
    """Check one entry (`file` relative to `root`, as `find_entries` lists it); never
    raises, whatever the file holds."""
    name = shown_name(file)
    result = file_result(checker, root, file)
    if isinstance(result, str):
        return Checked(name, None, skipped=result)
    return Checked(name, Entry.of(result, name), fingerprint(result))


def file_result(checker: Checker, root: Path, file: str) -> Result | str:
    """The result of the entry `file` (relative to `root`), or why it is no entry.

    The file is opened once (no link followed, no folder on the way either, a FIFO or
    device refused by the opened file's type, the size cap checked before reading), and
    those bytes are all that is used: read as a record, recognised by content when the
    name does not say, and tried as a dice file when they are no record."""
    name = shown_name(file)
    fmt = RECORD_FORMATS.get(Path(file).suffix.lower())
    rules = checker.rules or STANDARD
    try:
        data = read_bytes(Path(file), name, checker.max_bytes, follow=False, root=root)
    except ReadError as exc:
        return _not_a_record(file) if fmt is None else malformed(exc.diagnostic, rules, name)
    fmt = fmt or sniff_format(data)
    if fmt is None:
        return _not_a_record(file)
    try:
        result = checker.check(root / file, name, fmt, data=data)
    except Exception as exc:  # a bug must cost one entry, not the whole batch
        message = (
            f"the validator failed on this file ({type(exc).__name__}: "
            f"{short(str(exc))}); please report it"
        )
        result = malformed(Diagnostic.said("E001", message, name), rules, name)
    if result.verdict is Verdict.MALFORMED and _is_dice_data(data, name, Path(file).suffix):
        return "a dice file, not a record"
    return result


def _not_a_record(file: str) -> str:
    return f"not a record file ({Path(file).suffix.lower() or 'no extension'})"


def _is_dice_data(data: bytes, name: str, suffix: str) -> bool:
    """Whether an entry's bytes (already read, within the cap) are a dice file."""
    from validator.records.dice import parse_dice

    try:
        parse_dice(data, name, suffix.lower())
    except Exception:  # ReadError, or any reader bug: then it is no dice file either
        return False
    return True


def fingerprint(result: Result) -> str | None:
    """A digest of the game as played: per dice row, the cross-out and where the move ended.

    The recorded path, the format, the player's name and the claimed score do not enter it,
    so two entries with the same digest played the very same game. The board and the
    cross-out candidates are symmetric, so a game written with rows and columns swapped is
    a legal game too, and the same one copied: the digest is the smaller of the game's and
    its mirror's, and both readings of a game share it.
    """
    if result.score is None or not result.rounds:
        return None
    rows = [
        (r.roll, r.kind, r.cross.field if r.cross else None, r.end_field) for r in result.rounds
    ]
    head = result.dice_sha256 or ""
    return min(
        hashlib.sha256((head + _game_text(rows, swap)).encode()).hexdigest()
        for swap in (False, True)
    )


def _game_text(rows: Sequence[tuple[int, str, Field | None, Field | None]], swap: bool) -> str:
    def name(f: Field | None) -> str:
        if f is None:
            return "-"
        return f"{f.col}/{f.row}" if swap else f"{f.row}/{f.col}"

    return "".join(f"{roll}:{kind}:{name(cross)}:{name(end)};" for roll, kind, cross, end in rows)


def check_entries(
    checker: Checker, root: Path, files: list[str], jobs: int = 1
) -> Iterator[Checked]:
    """Check `files` (relative to `root`), yielding results in the order of `files`.

    With `jobs` > 1 a process pool does the work in chunks; the order never depends on it.
    """
    from validator.system.pool import pooled

    # The caller ends the run on SIGTERM as an exit (system.atomic.sigterm_exits), so that
    # leaving the pool terminates the workers first.
    yield from pooled(check_file, (checker, root), files, max(1, min(jobs, len(files))), 64)


# -- Ranking -----------------------------------------------------------------------------


def collect(
    found: Found,
    results: Iterable[Checked],
    *,
    min_score: int = DEFAULT_MIN_SCORE,
) -> Batch:
    """Rank the checked entries and find copies; `results` is consumed as it comes."""
    entries: list[Entry] = []
    skipped = list(found.skipped)
    groups: dict[str, list[str]] = {}
    checksums: set[str] = set()
    for checked in results:
        if checked.entry is None:
            skipped.append(Skipped(checked.file, checked.skipped or "not a record"))
            continue
        entries.append(checked.entry)
        if checked.fingerprint is not None:
            groups.setdefault(checked.fingerprint, []).append(checked.file)
        if checked.entry.dice_sha256:
            checksums.add(checked.entry.dice_sha256)
    copies = _in_order(g for g in groups.values() if len(g) > 1)
    copy_of = {f: tuple(o for o in group if o != f) for group in copies for f in group}
    ranked = tuple(replace(e, copies=copy_of.get(e.file, ())) for e in rank(entries))
    skipped.sort(key=lambda s: s.file)
    return Batch(ranked, tuple(skipped), tuple(copies), min_score, tuple(sorted(checksums)))


def rank(entries: Iterable[Entry]) -> list[Entry]:
    """Valid and incomplete entries ranked together by score (ties share a rank; an
    incomplete entry keeps its mark), then late or superseded ones by score, then invalid,
    then malformed; each by file."""
    order = {Verdict.INVALID: 2, Verdict.MALFORMED: 3}

    def key(e: Entry) -> tuple[int, int, str]:
        group = order.get(e.verdict, 0 if e.counts else 1)
        return (group, -(e.score or 0) if group < 2 else 0, e.file)

    out: list[Entry] = []
    rank_no = 0
    last: int | None = None
    for position, e in enumerate(sorted(entries, key=key), start=1):
        if e.ranked and e.score != last:
            rank_no, last = position, e.score
        out.append(replace(e, rank=rank_no if e.ranked else None))
    return out


def file_order(file: str) -> tuple[str | int, ...]:
    """The order of entries by file name with numbers counted as numbers, so that it is
    the mailbox's order for messages (`inbox.mbox#2` before `inbox.mbox#10`) and
    `p9.yaml` comes before `p10.yaml`: which of two copies or of a player's entries is
    the first."""
    return tuple(int(part) if i % 2 else part for i, part in enumerate(_DIGITS.split(file)))


_DIGITS = re.compile(r"([0-9]+)")


def _first_order(file: str) -> tuple[tuple[str | int, ...], str]:
    """`file_order`, ties (`p1.yaml`, `p01.yaml`) broken by the name itself, so that the
    first of a group never depends on the order a set gave."""
    return file_order(file), file


def copy_groups(entries: Iterable[Entry]) -> list[tuple[str, ...]]:
    """The groups of copies among `entries`, from each entry's `copies`, keeping only files
    that are among `entries` (a results file may have lost some by hand); each group in
    `file_order` (its first is the first entry of that game), the list sorted."""
    present = {e.file: e for e in entries}
    group_of: dict[str, set[str]] = {}
    for e in present.values():
        group = {e.file} | {c for c in e.copies if c in present}
        for f in list(group):
            group |= group_of.get(f, set())
        for f in group:
            group_of[f] = group
    return _in_order(g for g in group_of.values() if len(g) > 1)


def _in_order(groups: Iterable[Iterable[str]]) -> list[tuple[str, ...]]:
    """Each group of copies in `_first_order`, once, and the groups sorted so."""
    unique = {tuple(sorted(g, key=_first_order)) for g in groups}
    return sorted(unique, key=lambda group: [_first_order(f) for f in group])
