"""`road300 report`: write an annotated replay of one record as HTML, Markdown or text."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from validator.cli.common import dice_option, exit_status, fail_usage, make_console, rules_option
from validator.render.registry import REPORT, by_suffix, suffixes

if TYPE_CHECKING:
    from validator.report import Report


def pick_format(fmt: str | None, output: Path | None) -> str:
    """--format, else the --output suffix, else text (the report goes to a terminal).

    A suffix that names another format than --format, or without --format one that names
    none, is refused: never a text report inside a `.pdf`.
    """
    named = by_suffix(REPORT, output) if output is not None else None
    if output is not None and named is None and fmt is None:
        fail_usage(
            f"{output}: no report format writes {output.suffix or 'files without a suffix'}; "
            f"use one of {suffixes(REPORT)}, or name the format with --format"
        )
    if fmt is not None and named is not None and named.name != fmt:
        fail_usage(f"{output}: the suffix names the {named.name} format, not {fmt}")
    if fmt is not None:
        return fmt
    return named.name if named is not None else "text"


@click.command("report")
@click.argument("record", type=click.Path(path_type=Path))
@dice_option
@rules_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(list(REPORT)),
    default=None,
    help="; ".join(f"{r.name}: {r.help}" for r in REPORT.values())
    + f". Default: from the --output suffix ({suffixes(REPORT)}), text without --output.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the report to this file instead of standard output.",
)
def command(
    record: Path, dice: Path | None, rules: str | None, fmt: str | None, output: Path | None
) -> None:
    """Replay RECORD and write an annotated report: every round with its board, what
    was possible, and for an invalid record the first illegal step with what was legal.

    \b
    Examples:
      road300 report alice.yaml --dice challenge.txt --output alice.html
      road300 report alice.yaml --format md > alice.md
      road300 report alice.yaml

    Exit status as for validate: 0 valid or incomplete, 1 invalid or malformed (the
    report is written all the same), 2 the command could not run.
    """
    from validator.check import Checker, UsageError
    from validator.report import build_report

    chosen = pick_format(fmt, output)
    try:
        checker = Checker.create(dice, rules)
        result = checker.check(record)
    except UsageError as exc:
        fail_usage(exc.message)
    dice_name = str(dice) if dice is not None else None
    report = build_report(result, dice_name=dice_name)
    if chosen == "text" and output is None:
        from validator.render.report_text import render_text

        render_text(make_console(), report)
    else:
        text = render(report, chosen)
        if output is None:
            sys.stdout.write(text)
        else:
            try:
                output.write_text(text, encoding="utf-8")
            except OSError as exc:
                fail_usage(f"{output}: cannot write the report: {exc.strerror or exc}")
    sys.exit(exit_status([result], strict=False))


def render(report: Report, fmt: str) -> str:
    """The report as a string in `fmt` (text without colour)."""
    text: str = REPORT[fmt].load()(report)
    return text
