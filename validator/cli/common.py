"""Options and helpers every subcommand shares; the exit status is decided here."""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, NoReturn, TypeVar

import click

from validator.engine import RULESETS
from validator.engine.phrase import Phrase, Text
from validator.errors import Verdict
from validator.language.i18n import LANGUAGES

if TYPE_CHECKING:
    from rich.console import Console

    from validator.check.replay import Result
    from validator.language.i18n import Language

F = TypeVar("F", bound=Callable[..., object])
T = TypeVar("T")

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


dice_option = click.option(
    "--dice",
    type=click.Path(path_type=Path),
    help="The official dice file (text, CSV, YAML or JSON). May be omitted when a "
    "record names its dice_file.",
)


def ruleset_names() -> str:
    """The built-in rulesets' names as a help text lists them: `standard, bga or literal`."""
    *first, last = RULESETS
    return f"{', '.join(first)} or {last}" if first else last


rules_option = click.option(
    "--rules",
    metavar="NAME",
    help=f"Ruleset: {ruleset_names()}, with expansions like "
    "standard+escape=20+rings=3+in-and-out, or a rules YAML file. Overrides a "
    "record's rules:. Default: the record's, else standard. See `road300 rules`.",
)


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


def nodes_option(
    help: str, name: str = "--nodes", time_name: str = "--time-limit"
) -> Callable[[F], F]:
    """`--nodes N` for the commands that search: a budget of positions, which makes the
    answer the same on every machine (docs/solver.md, "Answers that do not depend on
    the clock"). Its help ends with what `search_limits` does with it and `time_name`."""
    return click.option(
        name,
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help=f"{help} The first game the search plays (a beam) always runs to its end, "
        f"so a small budget searches somewhat more. With {name} and no {time_name}, no time "
        "limit applies.",
    )


def search_limits(
    nodes: int | None, time_limit: float, parameter: str = "time_limit"
) -> float | None:
    """The time limit a search gets: none when a node budget is given and the time limit
    was left at its default (so that the budget, not the clock, decides); else as given."""
    if nodes is None:
        return time_limit
    source = click.get_current_context().get_parameter_source(parameter)
    return None if source is click.core.ParameterSource.DEFAULT else time_limit


def limits_text(seconds: float | None, nodes: int | None) -> str:
    """A search's limits as the notes on stderr say them: `30 s and 1,000 positions`."""
    return " and ".join(
        ([f"{seconds:g} s"] if seconds is not None else [])
        + ([f"{nodes:,} positions"] if nodes is not None else [])
    )


@contextmanager
def ctrl_c_cancels() -> Iterator[threading.Event]:
    """An event that Ctrl-C sets while the block runs, instead of stopping the process:
    the search it is given to returns what it found so far."""
    cancel = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda signum, frame: cancel.set())
    try:
        yield cancel
    finally:
        signal.signal(signal.SIGINT, previous)


max_size_option = click.option(
    "--max-size",
    "max_size",
    metavar="SIZE",
    callback=_size,
    help="Refuse record files larger than this before reading them (bytes, or with "
    "KiB/MiB). Default: 1MiB.",
)


def _memory(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """A `--memory` size (`_size`) the compiled table can have on this machine."""
    from validator.solver.search import MIN_TABLE_BYTES, physical_memory

    memory = _size(ctx, param, value)
    if memory is None:
        return None
    if memory < MIN_TABLE_BYTES:
        raise click.BadParameter(f"{value}: the table needs at least 16KiB")
    physical = physical_memory()
    if physical is not None and memory > physical:
        raise click.BadParameter(
            f"{value}: more than this machine's memory ({physical / (1 << 30):.1f} GiB)"
        )
    return memory


SEARCH_JOBS = 2
"""Threads of the commands' long searches (`solve --jobs`' default, `batch --par`): the
same on every machine (not its number of cores), so that the same command gives the same
answer everywhere; on one core, the two threads take turns."""


memory_option = click.option(
    "--memory",
    metavar="SIZE",
    callback=_memory,
    help="The most memory the compiled search's table may take (bytes, or with "
    "KiB/MiB/GiB; rounded down to a power of two, at least 16KiB, at most the "
    "machine's memory). Default: 512MiB, or a quarter of the machine's memory if "
    "that is less. The table grows as the search needs it; a bigger one proves long "
    "searches in fewer positions. Only a compiled search that fills it depends on "
    "its size, and the output then says so.",
)
"""`--memory SIZE` of solve: the compiled search's table at its largest."""


def gather(shape: Callable[..., T]) -> Callable[[Callable[[T], None]], Callable[..., None]]:
    """A command whose parsed options come as one typed value, `shape(**options)`: its
    fields are the options' names (the decorators above it), its body works on that."""

    def wrap(body: Callable[[T], None]) -> Callable[..., None]:
        @functools.wraps(body)
        def command(**options: object) -> None:
            body(shape(**options))

        return command

    return wrap


def make_console(stderr: bool = False, file: IO[str] | None = None) -> Console:
    """A rich console; colour and bold only on a terminal, and never when NO_COLOR is set
    to a value (an empty NO_COLOR does not count, as no-color.org says). With `file` (an
    --output file) it writes there, plainly."""
    from rich.console import Console

    plain = bool(os.environ.get("NO_COLOR")) or file is not None
    return Console(
        file=file,
        stderr=stderr,
        no_color=plain,
        highlight=False,
        soft_wrap=True,
        color_system=None if plain else "auto",
    )


def fail_usage(message: Text) -> NoReturn:
    """`road300: error: ...` on stderr and exit 2; a phrase (a dice file's problem) is
    said in the language of the current `i18n.speaking`."""
    if isinstance(message, Phrase):
        from validator.language import i18n

        message = i18n.say(message)
    click.echo(f"road300: error: {message}", err=True)
    sys.exit(EXIT_USAGE)


def note_fast_core() -> None:
    """Before a command searches (solve, analyze, play --hint, batch --par): say once per
    process, on stderr, that the compiled solver core would make it faster, when it is not
    installed."""
    from validator.solver import fast_core_note

    note = fast_core_note()
    if note is not None:
        click.echo(f"road300: note: {note}", err=True)


def exit_status(verdicts: Iterable[Verdict], *, strict: bool = False) -> int:
    """The exit status of every command that judges records (validate, batch --strict,
    report, convert, analyze, solve --from, play), from the verdicts of the records it
    checked: 0 when each is valid or incomplete, 1 when one is invalid or malformed.
    `strict` (the --strict of validate and batch) also counts an incomplete record, and
    no record at all, as a failure. A command that cannot run exits 2 (`fail_usage`)."""
    judged = list(verdicts)
    if strict and not judged:
        return EXIT_FAILED
    failed = (Verdict.INVALID, Verdict.MALFORMED) + ((Verdict.INCOMPLETE,) if strict else ())
    return EXIT_FAILED if any(v in failed for v in judged) else EXIT_OK


def _lang_option(first: str) -> Callable[[F], F]:
    return click.option(
        "--lang",
        type=click.Choice(list(LANGUAGES)),
        default=None,
        help=f"The language of what a person reads (English, German, French). Default: {first} "
        "(LC_ALL, LC_MESSAGES, LANG), else English. JSON, CSV and codes never change. "
        "See docs/languages.md.",
    )


lang_option = _lang_option("the record's own language, else the locale")
"""--lang of a command that reads a record: the record's own language comes first."""
pages_lang_option = _lang_option("the locale")
"""--lang of a command that reads no record (`site`): the locale comes first."""


def language(lang: str | None, result: Result | None = None) -> Language:
    """The language of one output, in the order docs/languages.md documents: --lang, the
    record's own language, the locale, English."""
    from validator.language import i18n

    record = result.language if result is not None else None
    return i18n.choose(lang, record=record, environ=os.environ)
