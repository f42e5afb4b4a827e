"""A batch's results: a ranked table for the organizer, JSON or CSV for the draw and programs
(the organizer's files: they may hold senders' addresses; the site is what is published).

One reporter class per output format, each named in validator.render.registry.BATCH, where
`--format`'s choices, the suffix an `--output` file must have, and docs/batch.md's table
come from.
Player names, file names and messages come from strangers: the table and the summary show
their control characters as visible escapes, and CSV cells cannot start a formula.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, TextIO

from validator.check.replay import Verdict
from validator.contest.batch import Batch, Entry
from validator.language.i18n import gettext as _
from validator.records import RECORD_FORMATS
from validator.render.sanitize import csv_cell, json_dumps, plain_text

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table


def _error(field: str) -> Callable[[Entry], str | int | None]:
    return lambda e: getattr(e.error, field) if e.error else None


def _source(field: str) -> Callable[[Entry], str | None]:
    return lambda e: getattr(e.source, field) if e.source else None


CSV_CELLS: dict[str, Callable[[Entry], str | int | None]] = {
    "rank": lambda e: e.rank,
    "file": lambda e: e.file,
    "player": lambda e: e.player,
    "verdict": lambda e: e.verdict.value,
    "score": lambda e: e.score,
    "end": lambda e: e.end.value if e.end else None,
    "end_roll": lambda e: e.end_roll,
    "error_code": _error("code"),
    "error_message": _error("message"),
    "error_roll": _error("roll"),
    "error_round": _error("round"),
    "error_line": _error("line"),
    "error_col": _error("col"),
    "rules": lambda e: e.rules,
    "rounds_played": lambda e: e.rounds_played,
    "rerolls": lambda e: e.rerolls,
    "claimed_score": lambda e: e.claimed_score,
    "dice_sha256": lambda e: e.dice_sha256,
    "warnings": lambda e: " ".join(w.code for w in e.warnings),
    "copies": lambda e: " ".join(e.copies),
    "par_share": lambda e: None if e.par_share is None else f"{e.par_share:.4f}",
    "late": lambda e: "true" if e.late else None,
    "superseded": lambda e: "true" if e.superseded else None,
    "message_id": _source("message_id"),
    "date": _source("date"),
}
"""The CSV's columns and how each cell is read from an entry: one row per entry, the JSON
entry with `error` flattened to `error_*` columns (and of an entry's mail `source`, its
Message-ID and Date: the sender's address stays out)."""

SKIPPED_SHOWN = 20
"""The table lists this many skipped files; JSON lists them all."""

NAMES_SHOWN = 10
"""The summary names this many entries that reached the goal, and this many copies."""

WIDE = 100_000
"""Width for a table written to a file or a pipe: no column is ever cut or wrapped."""


# -- Writers of a whole batch, one per format (registry.BatchWriter) --------------------


class BatchTable:
    """The table for a file or a pipe: every cell whole, no trailing blanks. The same text
    as rich prints of the same table (tests/test_batch.py holds them to it), laid out here
    because rich renders each of thousands of cells on its own."""

    def write(self, batch: Batch, out: TextIO, label: str) -> None:
        if batch.entries:
            out.writelines(line + "\n" for line in _plain_lines(_table(batch, None)))
            if any(e.verdict is Verdict.INCOMPLETE for e in batch.entries):
                out.write(INCOMPLETE_NOTE + "\n")
            out.write("\n")
        for line in summary_lines(batch, label):
            out.writelines(part.rstrip() + "\n" for part in line.split("\n"))


class BatchJson:
    def write(self, batch: Batch, out: TextIO, label: str) -> None:
        # One entry per line, written as it goes: a large batch is never one string.
        out.write('{"entries": [')
        for n, entry in enumerate(batch.entries):
            out.write(("\n " if n == 0 else ",\n ") + json_dumps(entry.to_json()))
        out.write("\n],\n")
        out.write(' "summary": ' + json_dumps(batch.summary().to_json()) + ",\n")
        skipped = [s.to_json() for s in batch.skipped]
        out.write(' "skipped": ' + json_dumps(skipped, indent=1) + "\n}\n")


class BatchCsv:
    def write(self, batch: Batch, out: TextIO, label: str) -> None:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_CELLS)
        for entry in batch.entries:
            # Each cell safe for a spreadsheet.
            writer.writerow(csv_cell(cell(entry)) for cell in CSV_CELLS.values())


# -- The table and the summary ------------------------------------------------------------


def render_table(console: Console, batch: Batch, folder: str, *, wide: bool = False) -> None:
    """The ranked table, then the summary: counts, who reached the goal, copies, skipped.

    On a terminal the first error is cut to one line unless `wide`, where it wraps; on a
    console as wide as WIDE nothing is cut or wrapped.
    """
    if batch.entries:
        console.print(_table(batch, None if wide else console.width), soft_wrap=False)
        if any(e.verdict is Verdict.INCOMPLETE for e in batch.entries):
            console.print(INCOMPLETE_NOTE)
        console.print()
    for line in summary_lines(batch, folder):
        console.print(line, markup=False, emoji=False)


INCOMPLETE_NOTE = "* incomplete: legal so far, but the game could go on"


def _table(batch: Batch, width: int | None) -> Table:
    """The ranked table as rich lays it out: `width` None for every cell whole (a file, a
    pipe, --wide), else the terminal's width."""
    from rich import box
    from rich.console import OverflowMethod
    from rich.table import Table
    from rich.text import Text

    wide = width is None
    # On a terminal every entry is one line: names and the error are cut with an
    # ellipsis to fit its width, and a narrow one leaves out the End column
    # (--wide folds long cells instead; a file or a pipe gets everything, see above).
    show_end = width is None or width >= 110
    cut: OverflowMethod = "fold" if wide else "ellipsis"
    table = Table(
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        header_style="bold",
        padding=(0, 1, 0, 0),
        width=width,
    )
    table.add_column("Rank", justify="right", no_wrap=True, min_width=4)
    table.add_column("Player", overflow=cut, no_wrap=not wide, min_width=6, ratio=2)
    table.add_column("File", overflow=cut, no_wrap=not wide, min_width=8, ratio=3)
    table.add_column("Verdict", no_wrap=True, min_width=10)
    table.add_column("Score", justify="right", no_wrap=True, min_width=5)
    if show_end:
        table.add_column("End", overflow=cut, no_wrap=not wide, min_width=7, ratio=2)
    table.add_column("First error", overflow=cut, no_wrap=not wide, min_width=12, ratio=4)
    for e in batch.entries:
        style = {Verdict.VALID: "green", Verdict.INCOMPLETE: "yellow"}.get(e.verdict, "red")
        # Text, never str: a name like "[bold]" is not markup.
        cells = [
            Text(_rank(e)),
            Text(plain_text(e.player_name)),
            Text(plain_text(e.file) + _marks(e)),
            Text(e.verdict.value, style=style),
            Text("" if e.score is None else str(e.score)),
        ]
        if show_end:
            cells.append(Text(_end(e)))
        cells.append(Text(first_error(e)))
        table.add_row(*cells)
    return table


def _plain_lines(table: Table) -> Iterator[str]:
    """`table` at its natural width as rich draws it (box SIMPLE_HEAD without edges: the
    header, a rule, the rows; one blank after each cell and one between columns), each
    line without trailing blanks."""
    from rich.cells import cell_len

    columns = table.columns
    cells = [[_plain(c) for c in column.cells] for column in columns]
    headers = [_plain(column.header) for column in columns]
    widths = [
        max(column.min_width or 0, cell_len(header), *(cell_len(c) for c in column_cells))
        for column, header, column_cells in zip(columns, headers, cells, strict=True)
    ]

    def line(row: Sequence[str]) -> str:
        parts = []
        for text, width, column in zip(row, widths, columns, strict=True):
            pad = " " * (width - cell_len(text))
            parts.append(pad + text if column.justify == "right" else text + pad)
        return "  ".join(parts).rstrip()

    yield line(headers)
    yield "─" * (sum(widths) + 2 * (len(widths) - 1))
    for row in zip(*cells, strict=True):
        yield line(row)


def _plain(cell: object) -> str:
    from rich.text import Text

    return cell.plain if isinstance(cell, Text) else str(cell)


def no_entries(folder: str) -> str:
    """What a source without entries says: a folder of no record file, or a mailbox (an
    empty mbox or Maildir) of no message with a record."""
    kinds = ", ".join(RECORD_FORMATS)
    return (
        f"{plain_text(folder)}: no entries found (no record file, ending in {kinds}, and no "
        "message with a record)"
    )


def summary_lines(batch: Batch, folder: str) -> list[str]:
    s = batch.summary()
    lines: list[str] = []
    if not batch.entries:
        lines.append(no_entries(folder) + ".")
    else:
        lines.append(_counts(batch) + ".")
        no_dice = _dice_unread(batch)
        if no_dice:
            lines.append(
                f"{no_dice} {_plural(no_dice, 'entry names', 'entries name')} a dice file that "
                "cannot be read (D001): give the challenge's dice file with --dice."
            )
        elif s.malformed == s.entries:
            lines.append(
                "None of the entries could be read: are these record files? See the first "
                "error of each above."
            )
        reached = [f"{plain_text(e.player_name)} {e.score}" for e in batch.reached]
        if reached:
            lines.append(f"Reached {batch.min_score}: {len(reached)} ({_first(reached)}).")
        else:
            lines.append(f"Reached {batch.min_score}: none.")
        if batch.par is not None:
            lines.append(par_line(batch))
        late = sum(1 for e in batch.entries if e.late)
        superseded = sum(1 for e in batch.entries if e.superseded)
        if late or superseded:
            lines.append(
                f"Not ranked: {late} late, {superseded} superseded by a later message "
                "(shown, left out of the draw)."
            )
    if batch.copies:
        games = len(batch.copies)
        lines.append(
            f"Copies ({games} {_plural(games, 'game', 'games')} played by more than one entry):"
        )
        lines.extend(_copy_lines(batch.copies))
    if len(batch.dice_sha256) > 1:
        lines.append(
            f"Warning: the entries were replayed on {len(batch.dice_sha256)} different dice "
            "files; give --dice FILE so that every entry is checked against the official one."
        )
    if batch.skipped:
        lines.append(
            f"Skipped {len(batch.skipped)} {_plural(len(batch.skipped), 'file', 'files')}:"
        )
        lines.extend(
            f"  {plain_text(s.file)}: {plain_text(s.reason)}" for s in batch.skipped[:SKIPPED_SHOWN]
        )
        if len(batch.skipped) > SKIPPED_SHOWN:
            lines.append(
                f"  ... and {len(batch.skipped) - SKIPPED_SHOWN} more (all in --format json)"
            )
    return lines


def par_line(batch: Batch) -> str:
    """`Par: 355 points for the dice file (proven the best); the best entry has 96% of it.`,
    or, unproven, `Par: at least 355 points for the dice file (bound 440: ...)`."""
    par = batch.par
    assert par is not None
    if par.proven:
        line = f"Par: {par.score} points for the dice file (proven the best)"
    else:
        line = _(
            "Par: at least {score} points for the dice file (the best game the solver found "
            "or an entry played; bound {bound}: no game scores more)"
        ).format(score=par.score, bound=par.bound)
        if par.stopped == "time":
            line += _("; found within --par-time, so it depends on the machine's speed")
    shares = [e.par_share for e in batch.entries if e.ranked and e.par_share is not None]
    if shares:
        line += f"; the best entry has {max(shares):.0%} of it"
    return line + "."


def one_line(batch: Batch, folder: str) -> str:
    """The summary in one line, for stderr when the results go to a file or a pipe."""
    if not batch.entries:
        return no_entries(folder)
    s = batch.summary()
    parts = [_counts(batch), f"reached {s.min_score}: {len(s.reached)}"]
    late = sum(1 for e in batch.entries if e.late)
    superseded = sum(1 for e in batch.entries if e.superseded)
    if late or superseded:
        parts.append(f"not ranked: {late} late, {superseded} superseded")
    if s.copies:
        parts.append(f"copies: {len(s.copies)} {_plural(len(s.copies), 'game', 'games')}")
    if s.skipped:
        parts.append(f"skipped: {s.skipped}")
    if s.par is not None:
        parts.append(
            f"par: {s.par}"
            if s.par_proven
            else _("par: at least {score} (bound {bound})").format(score=s.par, bound=s.par_bound)
        )
    no_dice = _dice_unread(batch)
    if no_dice:
        parts.append(f"{no_dice} with a dice file that cannot be read (D001): give --dice")
    elif s.malformed == s.entries:
        parts.append(f"none of the {s.entries} entries could be read")
    return "; ".join(parts)


def deadline_warning(batch: Batch, deadline: datetime) -> str | None:
    """A warning when the deadline is before every dated message: every entry is late,
    which is more likely a wrong deadline (a year, an offset) than a challenge nobody
    entered in time."""
    dates = [
        datetime.fromisoformat(e.source.date)
        for e in batch.entries
        if e.source is not None and e.source.date is not None
    ]
    if not dates or min(dates) <= deadline:
        return None
    return (
        f"Warning: the deadline {deadline.isoformat()} is before every message (the earliest "
        f"is dated {min(dates).isoformat()}): every dated entry ({len(dates)}) is late, "
        "none is ranked or drawn. "
        "Check --deadline, or deadline in the contest file."
    )


def _dice_unread(batch: Batch) -> int:
    """The entries whose own dice file could not be read (D001): without --dice, their
    records name one that is missing or unreadable."""
    return sum(1 for e in batch.entries if e.error is not None and e.error.code == "D001")


def _counts(batch: Batch) -> str:
    s = batch.summary()
    return (
        f"{s.entries} {_plural(s.entries, 'entry', 'entries')}: {s.valid} valid, "
        f"{s.incomplete} incomplete, {s.invalid} invalid, {s.malformed} unreadable (malformed)"
    )


def _first(names: list[str]) -> str:
    shown = ", ".join(names[:NAMES_SHOWN])
    more = len(names) - NAMES_SHOWN
    return f"{shown}, and {more} more" if more > 0 else shown


def _copy_lines(groups: tuple[tuple[str, ...], ...]) -> list[str]:
    """One line per group of copies, naming at most NAMES_SHOWN files in all."""
    lines: list[str] = []
    left = NAMES_SHOWN
    for group in groups:
        if left <= 0:
            break
        names = [plain_text(f) for f in group[:left]]
        cut = len(group) - len(names)
        lines.append("  " + " = ".join(names) + (f" = ... ({cut} more)" if cut else ""))
        left -= len(names)
    rest = groups[len(lines) :]
    if rest:
        entries = sum(len(g) for g in rest)
        lines.append(
            f"  ... and {len(rest)} more {_plural(len(rest), 'game', 'games')} played by "
            f"{entries} entries (all in --format json)"
        )
    return lines


def _marks(entry: Entry) -> str:
    """What the File column adds: a copy, and for an entry from mail late or superseded."""
    on = (entry.copies, entry.late, entry.superseded)
    marks = [word for word, mark in zip(("copy", "late", "superseded"), on, strict=True) if mark]
    return f" ({', '.join(marks)})" if marks else ""


def first_error(entry: Entry) -> str:
    error = entry.error
    if error is None:
        return ""
    where = f"roll {error.roll}: " if error.roll else f"line {error.line}: " if error.line else ""
    return plain_text(f"{where}{error.code} {error.message}")


def _rank(entry: Entry) -> str:
    if entry.rank is None:
        return "-"
    return f"{entry.rank}{'*' if entry.verdict is Verdict.INCOMPLETE else ''}"


def _end(entry: Entry) -> str:
    if entry.end is None:
        return ""
    return f"{entry.end.value} (roll {entry.end_roll})" if entry.end_roll else entry.end.value


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many
