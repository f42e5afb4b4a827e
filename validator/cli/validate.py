"""`road300 validate`: check records against the dice file and report each verdict."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click

from validator.cli.common import (
    dice_option,
    exit_status,
    fail_usage,
    gather,
    lang_option,
    language,
    make_console,
    max_size_option,
    rules_option,
)
from validator.cli.contest_file import ContestCommand, contest_option
from validator.cli.output import Target, counted, output_option
from validator.records.registry import RECORD_FORMAT_BY_NAME
from validator.render.registry import VALIDATE, FormatError, choose, format_help


@dataclass(frozen=True, slots=True)
class ValidateOptions:
    """The options of `road300 validate`, as click parsed them (`--help` says what each
    is)."""

    records: tuple[Path, ...]
    dice: Path | None
    rules: str | None
    fmt: str | None
    output: Path | None
    strict: bool
    quiet: bool
    with_rounds: bool
    max_size: int | None
    stdin_format: str | None
    stdin_name: str
    lang: str | None


@click.command("validate", cls=ContestCommand)
@contest_option
@click.argument("records", nargs=-1, required=True, type=click.Path(path_type=Path))
@dice_option
@rules_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(list(VALIDATE)),
    help=format_help(VALIDATE, "text"),
)
@output_option("the results")
@click.option("--strict", is_flag=True, help="Treat an incomplete record as a failure (exit 1).")
@click.option(
    "--quiet", "-q", is_flag=True, help="Text output: print only invalid and malformed records."
)
@click.option(
    "--rounds", "with_rounds", is_flag=True, help="With --format json: add every replayed round."
)
@max_size_option
@click.option(
    "--stdin-format",
    type=click.Choice(list(RECORD_FORMAT_BY_NAME)),
    help="The format of a record read from standard input (RECORD `-`). Default: recognised "
    "by its content.",
)
@click.option(
    "--stdin-name",
    default="<stdin>",
    show_default=True,
    help="The name messages give a record read from standard input.",
)
@lang_option
@gather(ValidateOptions)
def command(options: ValidateOptions) -> None:
    """Replay each RECORD (YAML, JSON, annotated text or CSV; `-` reads standard input)
    against the official dice file and report the verified score or the first illegal step.

    \b
    Examples:
      road300 validate alice.yaml --dice challenge.txt
      road300 validate entries/*.yaml --dice challenge.txt --format json
      road300 validate entries/*.yaml --dice challenge.txt -o results.jsonl
      road300 validate anna.txt --lang de

    Exit status: 0 valid or incomplete (--strict: incomplete gives 1), 1 invalid or
    malformed, 2 the command could not run (bad options, unreadable dice file).
    """
    sys.exit(run(options))


def run(o: ValidateOptions) -> int:
    """Check each record and report it as `road300 validate` does; the exit status."""
    from validator.check.file import Checker, UsageError
    from validator.language import i18n

    target = Target.of(o.output, "the results", inputs=[*o.records, *([o.dice] if o.dice else [])])
    target.check()
    try:
        chosen = choose(VALIDATE, o.fmt, o.output, default="text", command="validate")
    except FormatError as exc:
        fail_usage(str(exc))
    try:
        checker = Checker.create(o.dice, o.rules, max_bytes=o.max_size)
    except UsageError as exc:
        with i18n.speaking(language(o.lang)):
            fail_usage(exc.said)
    results = []
    with target.open() as stream:
        console = make_console(file=stream if target.path is not None else None)
        reporter = chosen.load()(console, stream, rounds=o.with_rounds)
        for path in o.records:
            if str(path) == "-":
                result = checker.check(path, o.stdin_name, o.stdin_format)
            else:
                result = checker.check(path)
            results.append(result)
            if not (o.quiet and result.verdict.ok):
                # Each record in its own language; JSON and CSV are the same in every one.
                with i18n.speaking(language(o.lang, result)):
                    reporter.result(result)
        with i18n.speaking(language(o.lang)):
            reporter.finish(results)
    target.wrote(counted(len(results), "result", "results"))
    return exit_status((r.verdict for r in results), strict=o.strict)
