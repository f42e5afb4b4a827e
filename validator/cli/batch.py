"""`road300 batch`: check a folder of contest entries, rank them, and write the results."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from validator.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    dice_option,
    fail_usage,
    make_console,
    rules_option,
)

if TYPE_CHECKING:
    from validator.batch import Batch

FORMATS = ("table", "json", "csv")
TABLE_WIDTH = 160


@click.command("batch")
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path))
@dice_option
@rules_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    help="table for people; json or csv for the website and `road300 draw`. "
    "Default: from the --output file's extension, else table.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the results to FILE (the terminal then shows the summary only).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Check entries in N processes. Default: the number of cores.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Exit 1 when any entry is not valid (incomplete too), or when there is no entry.",
)
@click.option(
    "--min-score",
    type=click.IntRange(min=0),
    default=300,
    show_default=True,
    help="The score that counts as reaching the goal in the summary.",
)
def command(
    folder: Path,
    dice: Path | None,
    rules: str | None,
    fmt: str | None,
    output: Path | None,
    jobs: int | None,
    strict: bool,
    min_score: int,
) -> None:
    """Check every record file under DIR (recursively) and rank the entries.

    An entry is a record file (YAML, JSON, annotated text or CSV), alone or in a
    subfolder per player. Files that are not records are listed as skipped; symbolic
    links are not followed. Give --dice, or every record must name its dice_file.

    \b
    Examples:
      road300 batch entries/ --dice challenge.txt
      road300 batch entries/ --dice challenge.txt --output results.json
      road300 draw results.json --winners 3 --seed "2024-06-01 final"

    Exit status: 0 the batch ran (whatever the verdicts; --strict: 1 when any entry
    is not valid), 2 the batch could not run (no such folder, bad dice file).
    """
    from validator.batch import BatchError, check_entries, collect, find_entries
    from validator.check import Checker, UsageError
    from validator.render import batch_out

    if fmt is None:
        fmt = (
            {".json": "json", ".csv": "csv"}.get(output.suffix.lower(), "table")
            if output
            else "table"
        )
    try:
        exclude = {dice: "the dice file (--dice)"} if dice is not None else {}
        if output is not None:
            exclude[output] = "the results file (--output)"
        found = find_entries(folder, exclude)
        checker = Checker.create(dice, rules)
    except (BatchError, UsageError) as exc:
        fail_usage(str(exc.args[0]) if isinstance(exc, BatchError) else exc.message)

    root = folder.resolve()
    results = check_entries(checker, root, found.files, jobs or os.cpu_count() or 1)
    err = make_console(stderr=True)
    show_progress = err.is_terminal and (output is not None or fmt == "table") and found.files
    if show_progress:
        import time

        from rich.progress import Progress

        # No refresh thread: the process pool forks, and forking a threaded process can hang.
        with Progress(console=err, transient=True, auto_refresh=False) as progress:
            task = progress.add_task("Checking entries", total=len(found.files))
            shown = [0.0]

            def advance(_: object) -> None:
                progress.advance(task)
                now = time.monotonic()
                if now - shown[0] > 0.1:
                    shown[0] = now
                    progress.refresh()

            batch = collect(root, found, results, min_score=min_score, on_result=advance)
    else:
        batch = collect(root, found, results, min_score=min_score)

    label = str(folder)
    console = make_console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        # Piped into a file or a pager: do not squeeze the table into 80 columns.
        console.width = TABLE_WIDTH
    if output is not None:
        try:
            with output.open("w", encoding="utf-8", newline="") as handle:
                _write(batch, fmt, label, handle)
        except OSError as exc:
            fail_usage(f"{output}: cannot write the results: {exc.strerror}")
        for line in batch_out.summary_lines(batch, label):
            console.print(line, markup=False)
        console.print(f"Wrote {len(batch.entries)} entries to {output} ({fmt}).", markup=False)
    elif fmt == "table":
        batch_out.render_table(console, batch, label)
    else:
        _write(batch, fmt, label, sys.stdout)
        for line in _notes(batch, label):
            click.echo(f"road300: {line}", err=True)

    failed = not batch.entries or any(e["verdict"] != "valid" for e in batch.entries)
    sys.exit(EXIT_FAILED if strict and failed else EXIT_OK)


def _write(batch: Batch, fmt: str, label: str, out: TextIO) -> None:
    from validator.render import batch_out

    if fmt == "json":
        batch_out.write_json(batch, out)
    elif fmt == "csv":
        batch_out.write_csv(batch, out)
    else:
        from rich.console import Console

        console = Console(file=out, width=TABLE_WIDTH, no_color=True, highlight=False)
        batch_out.render_table(console, batch, label)


def _notes(batch: Batch, label: str) -> list[str]:
    """What a person must know even when stdout is JSON or CSV: an empty or broken batch."""
    from validator.render import batch_out

    if not batch.entries:
        return [f"{label}: no record files found ({batch_out.RECORD_KINDS})"]
    if all(e["verdict"] == "malformed" for e in batch.entries):
        return [f"{label}: none of the {len(batch.entries)} entries could be read"]
    return []
