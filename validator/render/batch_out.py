"""A batch's results: a ranked table for people, JSON or CSV for the website and the draw."""

from __future__ import annotations

import csv
import json
from typing import TYPE_CHECKING, Any, TextIO

from validator.batch import Batch, Entry, player_name

if TYPE_CHECKING:
    from rich.console import Console

CSV_COLUMNS = (
    "rank",
    "file",
    "player",
    "verdict",
    "score",
    "end",
    "end_roll",
    "error_code",
    "error_message",
    "error_roll",
    "error_round",
    "error_line",
    "error_col",
    "rules",
    "rounds_played",
    "rerolls",
    "claimed_score",
    "dice_sha256",
    "warnings",
    "copies",
)
"""One row per entry: the JSON entry with `error` flattened to `error_*` columns."""


def write_json(batch: Batch, out: TextIO) -> None:
    """The fixed `entries` and `summary`, then `skipped`; one entry per line, written as it
    goes so that a large batch is never held as one string."""
    out.write('{"entries": [')
    for n, entry in enumerate(batch.entries):
        out.write(("\n " if n == 0 else ",\n ") + json.dumps(entry, ensure_ascii=False))
    out.write("\n],\n")
    out.write(' "summary": ' + json.dumps(batch.summary(), ensure_ascii=False) + ",\n")
    skipped = [{"file": s.file, "reason": s.reason} for s in batch.skipped]
    out.write(' "skipped": ' + json.dumps(skipped, ensure_ascii=False, indent=1) + "\n}\n")


def csv_row(entry: Entry) -> dict[str, Any]:
    error = entry.get("error") or {}
    row = {k: entry.get(k) for k in CSV_COLUMNS}
    for key in ("code", "message", "roll", "round", "line", "col"):
        row[f"error_{key}"] = error.get(key)
    row["warnings"] = " ".join(w["code"] for w in entry.get("warnings") or [])
    row["copies"] = " ".join(entry.get("copies") or [])
    return {k: "" if v is None else v for k, v in row.items()}


def write_csv(batch: Batch, out: TextIO) -> None:
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for entry in batch.entries:
        writer.writerow(csv_row(entry))


RECORD_KINDS = "records end in .yaml, .yml, .json, .txt or .csv"

SKIPPED_SHOWN = 20
"""The table lists this many skipped files; JSON lists them all."""


def render_table(console: Console, batch: Batch, folder: str) -> None:
    """The ranked table, then the summary: counts, who reached the goal, copies, skipped."""
    from rich.table import Table
    from rich.text import Text

    if batch.entries:
        table = Table(show_edge=False, pad_edge=False, header_style="bold")
        table.add_column("Rank", justify="right", no_wrap=True, min_width=4)
        table.add_column("Player", overflow="fold", min_width=6, max_width=24)
        table.add_column("File", overflow="fold", min_width=10)
        table.add_column("Verdict", no_wrap=True, min_width=10)
        table.add_column("Score", justify="right", no_wrap=True, min_width=5)
        table.add_column("End", overflow="fold", min_width=7)
        # One line per entry: the error is cut to what is left, never wrapped.
        error_width = max(20, console.width // 3)
        table.add_column("First error", overflow="ellipsis", no_wrap=True, max_width=error_width)
        for e in batch.entries:
            verdict = e["verdict"]
            style = {"valid": "green", "incomplete": "yellow"}.get(verdict, "red")
            table.add_row(
                _rank(e),
                player_name(e),
                e["file"] + (" (copy)" if e["copies"] else ""),
                Text(verdict, style=style),
                "" if e["score"] is None else str(e["score"]),
                _end(e),
                first_error(e),
            )
        console.print(table)
        if any(e["verdict"] == "incomplete" for e in batch.entries):
            console.print("* incomplete: legal so far, but the game could go on")
        console.print()
    for line in summary_lines(batch, folder):
        console.print(line, markup=False)


def summary_lines(batch: Batch, folder: str) -> list[str]:
    s = batch.summary()
    lines: list[str] = []
    if not batch.entries:
        lines.append(f"{folder}: no record files found ({RECORD_KINDS}).")
    else:
        lines.append(
            f"{s['entries']} {_plural(s['entries'], 'entry', 'entries')}: {s['valid']} valid, "
            f"{s['incomplete']} incomplete, {s['invalid']} invalid, {s['malformed']} unreadable "
            "(malformed)."
        )
        if s["malformed"] == s["entries"]:
            lines.append(
                "None of the entries could be read: are these record files? See the first "
                "error of each above."
            )
        reached = batch.reached
        if reached:
            names = ", ".join(f"{player_name(e)} {e['score']}" for e in reached)
            lines.append(f"Reached {batch.min_score}: {len(reached)} ({names}).")
        else:
            lines.append(f"Reached {batch.min_score}: none.")
    if batch.copies:
        lines.append(
            f"Copies ({len(batch.copies)} {_plural(len(batch.copies), 'game', 'games')} "
            "played by more than one entry):"
        )
        lines.extend("  " + " = ".join(group) for group in batch.copies)
    if len(batch.dice_sha256) > 1:
        lines.append(
            f"Warning: the entries were replayed on {len(batch.dice_sha256)} different dice "
            "files; give --dice FILE so that every entry is checked against the official one."
        )
    if batch.skipped:
        lines.append(
            f"Skipped {len(batch.skipped)} {_plural(len(batch.skipped), 'file', 'files')}:"
        )
        lines.extend(f"  {s.file}: {s.reason}" for s in batch.skipped[:SKIPPED_SHOWN])
        if len(batch.skipped) > SKIPPED_SHOWN:
            lines.append(
                f"  ... and {len(batch.skipped) - SKIPPED_SHOWN} more (all in --format json)"
            )
    return lines


def first_error(entry: Entry) -> str:
    error = entry.get("error")
    if not error:
        return ""
    where = f"roll {error['roll']}: " if error.get("roll") else ""
    if not where and error.get("line"):
        where = f"line {error['line']}: "
    return f"{where}{error['code']} {error['message']}"


def _rank(entry: Entry) -> str:
    if entry.get("rank") is None:
        return "-"
    return f"{entry['rank']}{'*' if entry['verdict'] == 'incomplete' else ''}"


def _end(entry: Entry) -> str:
    if not entry.get("end"):
        return ""
    roll = entry.get("end_roll")
    return f"{entry['end']} (roll {roll})" if roll else str(entry["end"])


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many
