"""`road300 report`: write an annotated replay of one record as HTML, Markdown or text."""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from validator.cli.common import (
    ctrl_c_cancels,
    dice_option,
    exit_status,
    fail_usage,
    gather,
    lang_option,
    language,
    limits_text,
    make_console,
    nodes_option,
    note_fast_core,
    rules_option,
    search_limits,
    time_limit_option,
)
from validator.cli.contest_file import ContestCommand, contest_option
from validator.cli.output import Target, output_option
from validator.render.registry import REPORT, FormatError, choose, format_help

if TYPE_CHECKING:
    from validator.check.file import Checker
    from validator.check.replay import Result
    from validator.report.analysis import AnalysisView
    from validator.report.model import Report


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """The options of `road300 report`, as click parsed them (`--help` says what each
    is)."""

    record: Path
    dice: Path | None
    rules: str | None
    fmt: str | None
    output: Path | None
    analyze: bool
    time_limit: float | None
    """With --analyze: seconds per position (None: none, the node budget decides)."""
    nodes: int | None
    lang: str | None
    time_limit_given: bool = False
    """Whether --time-limit was given on the command line (it needs --analyze)."""


@click.command("report", cls=ContestCommand)
@contest_option
@click.argument("record", type=click.Path(path_type=Path))
@dice_option
@rules_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(list(REPORT)),
    default=None,
    help=format_help(REPORT, "text"),
)
@output_option("the report")
@click.option(
    "--analyze",
    "analyze",
    is_flag=True,
    help="Add the solver's analysis: each round's mark (?! inaccuracy, ? mistake, "
    "?? blunder) with the points lost and the better choice, points lost beside the "
    "score chart, and the best line for the dice file. Ctrl-C stops the search early.",
)
@time_limit_option(
    1.0, "With --analyze: seconds of search per position (each round needs one more)."
)
@nodes_option(
    "With --analyze: a budget of positions to search per position: the analysis is then the "
    "same on every machine."
)
@lang_option
@gather(ReportOptions)
def command(options: ReportOptions) -> None:
    """Replay RECORD and write an annotated report: every round with its board, what
    was possible, and for an invalid record the first illegal step with what was legal.

    \b
    Examples:
      road300 report alice.yaml --dice challenge.txt --output alice.html
      road300 report alice.yaml --format md > alice.md
      road300 report alice.yaml
      road300 report alice.yaml --analyze --output alice.html
      road300 report anna.txt --lang de

    Exit status: as for validate, 0 valid or incomplete, 1 invalid or malformed (the
    report is written all the same), 2 the command could not run (then nothing is
    written).
    """
    source = click.get_current_context().get_parameter_source("time_limit")
    seconds = search_limits(options.nodes, options.time_limit or 0.0)
    given = source is click.core.ParameterSource.COMMANDLINE
    sys.exit(run(replace(options, time_limit=seconds, time_limit_given=given)))


def run(o: ReportOptions) -> int:
    """Check a record and write its report as `road300 report` does; the exit status."""
    from validator.check.file import Checker, UsageError
    from validator.report.model import build_report

    target = Target.of(o.output, "the report", inputs=[o.record, *([o.dice] if o.dice else [])])
    target.check()
    try:
        chosen = choose(REPORT, o.fmt, o.output, default="text", command="report").name
    except FormatError as exc:
        fail_usage(str(exc))
    if not o.analyze and o.time_limit_given:
        fail_usage("--time-limit is the analysis's search time: use it with --analyze")
    if not o.analyze and o.nodes is not None:
        fail_usage("--nodes is the analysis's search budget: use it with --analyze")
    from validator.language import i18n

    try:
        checker = Checker.create(o.dice, o.rules)
        result = checker.check(o.record)
    except UsageError as exc:
        with i18n.speaking(language(o.lang)):
            fail_usage(exc.said)

    dice_name = str(o.dice) if o.dice is not None else None
    with i18n.speaking(language(o.lang, result)):
        report = build_report(result, dice_name=dice_name)
        view = None
        if o.analyze:
            note_fast_core()
            view = run_analysis(checker, o.record, result, report, o.time_limit, o.nodes)
        if chosen == "text" and target.path is None:
            from validator.render.report_text import render_text

            render_text(make_console(), report, view)
        else:
            target.write(REPORT[chosen].load()(report, analysis=view))
    return exit_status([result.verdict])


def run_analysis(
    checker: Checker,
    record: Path,
    result: Result,
    report: Report,
    time_limit: float | None,
    nodes: int | None = None,
) -> AnalysisView | str:
    """The analysis of the record, or why there is none; on a terminal a line on stderr
    tells how long it has run, and Ctrl-C ends the search with what it found so far."""
    from validator.check.file import UsageError, load_dice
    from validator.language.i18n import _
    from validator.report.analysis import analysable
    from validator.report.analysis import run_analysis as analyse

    reason = analysable(result)
    if isinstance(reason, str):
        return reason
    dice_file = checker.dice
    if dice_file is None:
        named = result.record.dice_file if result.record is not None else None
        if named is None:
            return _("the record names no dice file")
        try:
            dice_file = load_dice((record.parent / named).resolve())
        except UsageError as exc:
            return _("the dice file could not be read ({why})").format(why=exc.message)
    positions = sum(1 for r in result.rounds if r.record_round is not None) + 1
    done = threading.Event()

    def progress() -> None:
        # Only when it takes long enough to wonder, and only on a terminal.
        started = time.monotonic()
        while not done.wait(0.5):
            elapsed = time.monotonic() - started
            if elapsed >= 1.0:
                sys.stderr.write(
                    f"\ranalysing {positions} positions (up to {each} each): "
                    f"{elapsed:.0f} s, Ctrl-C stops   "
                )
                sys.stderr.flush()

    each = limits_text(time_limit, nodes)
    ticker = threading.Thread(target=progress, daemon=True) if sys.stderr.isatty() else None
    with ctrl_c_cancels() as cancel:
        try:
            if ticker is not None:
                ticker.start()
            view = analyse(
                report, dice_file.rows, time_limit=time_limit, nodes=nodes, cancel=cancel
            )
        finally:
            done.set()
            if ticker is not None:
                ticker.join()
                sys.stderr.write("\r\033[K")
    if cancel.is_set():
        sys.stderr.write("interrupted: the report gives what the search found so far\n")
    return view
