"""`road300 report`: write an annotated replay of one record as HTML, Markdown or text."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from validator.cli.common import dice_option, exit_status, fail_usage, make_console, rules_option

if TYPE_CHECKING:
    from validator.report import Report

FORMATS = ("html", "md", "text")
_SUFFIXES = {".html": "html", ".htm": "html", ".md": "md", ".markdown": "md", ".txt": "text"}


def pick_format(fmt: str | None, output: Path | None) -> str:
    """--format wins; else the --output suffix; else text (the report goes to a terminal)."""
    if fmt is not None:
        return fmt
    if output is not None:
        return _SUFFIXES.get(output.suffix.lower(), "html")
    return "text"


@click.command("report")
@click.argument("record", type=click.Path(path_type=Path))
@dice_option
@rules_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="html: one self-contained page; md: Markdown with text boards; text: for the "
    "terminal. Default: from the --output suffix (.html, .md, .txt; html for any other), "
    "text without --output.",
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
    if fmt == "html":
        from validator.render.html import render_html

        return render_html(report)
    if fmt == "md":
        from validator.render.markdown import render_markdown

        return render_markdown(report)
    import io

    from rich.console import Console

    from validator.render.report_text import render_text

    buffer = io.StringIO()
    render_text(
        Console(file=buffer, no_color=True, width=100, highlight=False, soft_wrap=True), report
    )
    return buffer.getvalue()
