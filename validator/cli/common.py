"""Options and helpers every subcommand shares; the exit status is decided here."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeVar

import click

if TYPE_CHECKING:
    from rich.console import Console

    from validator.check.replay import Result

F = TypeVar("F", bound=Callable[..., object])

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


def dice_option(func: F) -> F:
    return click.option(
        "--dice",
        type=click.Path(path_type=Path),
        help="The official dice file (text, CSV, YAML or JSON). May be omitted when a "
        "record names its dice_file.",
    )(func)


def rules_option(func: F) -> F:
    return click.option(
        "--rules",
        metavar="NAME",
        help="Ruleset: standard, bga or literal, with expansions like "
        "standard+escape=20+rings=3+in-and-out, or a rules YAML file. Overrides a "
        "record's rules:. Default: the record's, else standard. See `road300 rules`.",
    )(func)


def _size(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    from validator.contest.config import parse_size

    if value is None:
        return None
    try:
        return parse_size(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def time_limit_option(default: float, help: str) -> Callable[[F], F]:
    """`--time-limit SECONDS` for the commands that search (solve, analyze, report)."""
    return click.option(
        "--time-limit",
        type=click.FloatRange(min=0),
        default=default,
        show_default=True,
        metavar="SECONDS",
        help=help,
    )


def max_size_option(func: F) -> F:
    return click.option(
        "--max-size",
        "max_size",
        metavar="SIZE",
        callback=_size,
        help="Refuse record files larger than this before reading them (bytes, or with "
        "KiB/MiB). Default: 1MiB.",
    )(func)


def make_console(stderr: bool = False) -> Console:
    """A rich console; colour and bold only on a terminal, and never when NO_COLOR is set
    to a value (an empty NO_COLOR does not count, as no-color.org says)."""
    from rich.console import Console

    plain = bool(os.environ.get("NO_COLOR"))
    return Console(
        stderr=stderr,
        no_color=plain,
        highlight=False,
        soft_wrap=True,
        color_system=None if plain else "auto",
    )


def write_output(
    output: Path | None,
    text: str,
    what: str = "the output",
    *,
    inputs: Iterable[Path] = (),
    overwrite: bool = True,
) -> None:
    """`text` to standard output (no `--output`, or `-`) or to the file. The command stops
    (exit 2) instead when the file is one of its `inputs`, when it exists and `overwrite`
    is off, or when it cannot be written."""
    if output is None or str(output) == "-":
        sys.stdout.write(text)
        return
    if any(_same_file(output, path) for path in inputs):
        fail_usage(f"{output}: is an input of this command; write {what} to another file")
    if not overwrite and output.exists():
        fail_usage(f"{output}: exists; choose another --output, or give --force")
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail_usage(f"{output}: cannot write {what}: {exc.strerror or exc}")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def fail_usage(message: str) -> NoReturn:
    click.echo(f"road300: error: {message}", err=True)
    sys.exit(EXIT_USAGE)


def exit_status(results: Iterable[Result], *, strict: bool) -> int:
    """The worst of the records' statuses (each verdict decides its own)."""
    return max((r.verdict.exit_status(strict=strict) for r in results), default=EXIT_OK)
