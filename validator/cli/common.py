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

    from validator.replayer import Result

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


def fail_usage(message: str) -> NoReturn:
    click.echo(f"road300: error: {message}", err=True)
    sys.exit(EXIT_USAGE)


def exit_status(results: Iterable[Result], *, strict: bool) -> int:
    """The worst of the records' statuses (each verdict decides its own)."""
    return max((r.verdict.exit_status(strict=strict) for r in results), default=EXIT_OK)
