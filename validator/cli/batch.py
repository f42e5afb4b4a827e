"""`road300 batch`: check a folder of contest entries, rank them, and write the results."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from validator.cli.batch_mail import (
    check_mail_options,
    check_output_folders,
    lock_output_folders,
    mail_options,
    publish,
)
from validator.cli.common import (
    EXIT_OK,
    SEARCH_JOBS,
    dice_option,
    exit_status,
    fail_usage,
    gather,
    limits_text,
    make_console,
    max_size_option,
    nodes_option,
    note_fast_core,
    rules_option,
    search_limits,
)
from validator.cli.contest_file import ContestCommand, contest_option
from validator.cli.output import Target, counted, output_option, say
from validator.records.source import MAX_BYTES
from validator.render.registry import BATCH, FormatError, choose, suffixes
from validator.system.atomic import sigterm_exits
from validator.system.pool import ITEMS_PER_WORKER, PAGES_PER_WORKER, default_jobs

_SUFFIXES = suffixes(BATCH)

if TYPE_CHECKING:
    from rich.console import Console

    from validator.check.file import Checker
    from validator.contest.batch import Batch
    from validator.contest.mail import Source
    from validator.render.registry import BatchRenderer, Format


@dataclass(frozen=True, slots=True)
class BatchOptions:
    """The options of `road300 batch`, as click parsed them (`--help` says what each is)."""

    folder: Path
    """SOURCE: a folder of entries, or a mailbox."""
    dice: Path | None
    rules: str | None
    fmt: str | None
    output: Path | None
    wide: bool
    jobs: int | None
    strict: bool
    min_score: int
    par: bool
    par_time: float | None
    """With --par: the solver's time (None: none, the node budget decides)."""
    par_nodes: int | None
    max_size: int | None
    deadline: datetime | None
    site: Path | None
    replies: Path | None
    organizer: str | None
    contest_name: str | None
    lang: str | None
    results: bool = True
    """Write the results (the table, or --output); `road300 site SOURCE` writes only the site."""


@click.command("batch", cls=ContestCommand)
@contest_option
@click.argument("folder", metavar="SOURCE", type=click.Path(path_type=Path))
@dice_option
@rules_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(BATCH)),
    help="; ".join(f"{f.name}: {f.help}" for f in BATCH.values())
    + ". What to publish is the site (--site DIR), which shows no address. "
    f"Default: from the --output file's extension ({_SUFFIXES}), else table.",
)
@output_option(
    f"the results (its suffix must fit the format: {_SUFFIXES}; stderr then gets "
    "a one-line summary)"
)
@click.option(
    "--wide",
    is_flag=True,
    help="On a terminal, wrap the first error instead of cutting it to one line "
    "(a table written to a file or a pipe is never cut).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help=f"Check entries in N processes. Default: one per {ITEMS_PER_WORKER} entries and "
    "messages, at most one per core.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Exit as `validate --strict` would on the entries: 1 when any entry is invalid, "
    "malformed or incomplete, or when there is no entry.",
)
@click.option(
    "--min-score",
    type=click.IntRange(min=0),
    default=300,
    show_default=True,
    help="The score that counts as reaching the goal in the summary.",
)
@click.option(
    "--par",
    is_flag=True,
    help="Solve the dice file once (needs --dice) and add its best possible score, and each "
    "entry's share of it, to the results.",
)
@click.option(
    "--par-time",
    type=click.FloatRange(min=0.1),
    default=30.0,
    show_default=True,
    metavar="SECONDS",
    help="With --par: the solver's time; par is marked proven when the search finishes "
    "(else it is at least par, with the bound no game beats, and depends on the machine's "
    "speed).",
)
@nodes_option(
    "With --par: a budget of positions for the solver, so that par is the same on every machine.",
    name="--par-nodes",
    time_name="--par-time",
)
@max_size_option
@mail_options
@gather(BatchOptions)
def command(options: BatchOptions) -> None:
    """Check every record file under SOURCE (a folder, recursively), or every message of
    SOURCE (an mbox file, a Maildir, .eml files in the folder), and rank the entries.

    An entry is a record file (YAML, JSON, annotated text or CSV), alone or in a
    subfolder per player, or a message: its record attached, or typed into its body
    (docs/contest.md). Files that are not records, and messages without one, are listed
    as skipped; symbolic links are not followed. Give --dice, or every record must name
    its dice_file. A contest file (--contest, or road300.toml) gives the defaults.

    \b
    Examples:
      road300 batch entries/ --dice challenge.txt
      road300 batch entries/ --dice challenge.txt --output results.json
      road300 batch inbox.mbox --site site/ --replies replies/ --output results.json
      road300 draw results.json --winners 3 --seed "2024-06-01 final"

    Exit status: 0 the batch ran, whatever the verdicts (with --strict the status
    validate --strict gives: 1 when any entry is invalid, malformed or incomplete, or
    there is none), 2 the batch could not run (no such folder, bad dice file, an --output
    file whose suffix does not fit the format).
    """
    source_of = click.get_current_context().get_parameter_source
    if not options.par and source_of("par_time") is click.core.ParameterSource.COMMANDLINE:
        fail_usage("--par-time is the par search's time: use it with --par")
    if not options.par and options.par_nodes is not None:
        fail_usage("--par-nodes is the par search's budget: use it with --par")
    par_time = search_limits(options.par_nodes, options.par_time or 0.0, "par_time")
    sys.exit(run(dataclasses.replace(options, par_time=par_time)))


def run(o: BatchOptions) -> int:
    """Check, rank, publish and write a batch as `road300 batch` does; its exit status.
    Options that cannot work stop it (exit 2) before anything is written."""
    from validator.render import batch_out

    # The source is an input too: an mbox written over with the results would be lost.
    target = Target.of(o.output, "the results", inputs=[o.folder, *([o.dice] if o.dice else [])])
    target.check()
    check_output_folders(o.folder, o.site, o.replies)
    try:
        chosen = choose(BATCH, o.fmt, o.output, default="table", command="batch")
    except FormatError as exc:
        fail_usage(str(exc))
    source, checker = _open(o, target)
    if source.messages is not None:  # the results hold the senders' addresses
        target = dataclasses.replace(target, private=True)
    lock_output_folders(o.site, o.replies)

    err = make_console(stderr=True)
    # SIGTERM ends the run as an exit, so that the pool is stopped and nothing half-written
    # is left (the output policy); the workers exit quietly.
    with sigterm_exits(), progress(err, source.count if err.is_terminal else 0) as advance:
        batch = source.check(
            checker,
            o.jobs or default_jobs(source.count),
            min_score=o.min_score,
            deadline=o.deadline,
            on_result=advance,
        )
    if o.deadline is not None:
        warning = batch_out.deadline_warning(batch, o.deadline)
        if warning is not None:
            say(warning)
    if o.par:
        batch = _with_par(batch, checker, o)
    if o.site is not None or o.replies is not None:
        with sigterm_exits():
            publish(
                source,
                checker,
                batch,
                site=o.site,
                replies=o.replies,
                organizer=o.organizer,
                name=o.contest_name,
                dice=o.dice,
                deadline=o.deadline,
                jobs=o.jobs or default_jobs(source.count, PAGES_PER_WORKER),
                lang=o.lang,
            )
    if o.results:
        _write(batch, str(o.folder), target, chosen, wide=o.wide)
    verdicts = [e.verdict for e in batch.entries]
    return exit_status(verdicts, strict=True) if o.strict else EXIT_OK


def _open(o: BatchOptions, target: Target) -> tuple[Source, Checker]:
    """The entries' source and their checker; stops (exit 2) when either cannot be had."""
    from validator.check.file import Checker, UsageError
    from validator.contest.batch import BatchError
    from validator.contest.mail import MailError, Source

    try:
        exclude = {o.dice: "the dice file (--dice)"} if o.dice is not None else {}
        if target.path is not None:
            exclude[target.path] = "the results file (--output)"
        for path in (o.site, o.replies):
            if path is not None:
                exclude[path] = "an output folder (--site, --replies)"
        source = Source.find(o.folder, o.max_size or MAX_BYTES, exclude)
        checker = Checker.create(o.dice, o.rules, root=source.root, max_bytes=o.max_size)
    except (BatchError, UsageError, MailError) as exc:
        fail_usage(exc.message if isinstance(exc, UsageError) else str(exc.args[0]))
    if o.par and checker.dice is None:
        fail_usage("--par needs --dice: par is solved on the contest's dice file")
    check_mail_options(source, o.replies, o.organizer)
    return source, checker


def _with_par(batch: Batch, checker: Checker, o: BatchOptions) -> Batch:
    """The batch with the dice file's par under its ruleset, with a note while it is
    solved; a valid entry that scored more proves more than the search did."""
    from validator.contest.batch import solve_par
    from validator.engine import STANDARD

    assert checker.dice is not None
    rules = checker.rules or STANDARD
    note_fast_core()
    err, seconds = make_console(stderr=True), o.par_time
    if err.is_terminal:
        limits = limits_text(seconds, o.par_nodes)
        err.print(f"Solving par for the dice file ({rules.name}, up to {limits})...")
    found = solve_par(checker.dice.rows, rules, seconds, o.par_nodes, SEARCH_JOBS)
    return batch.with_par(found.at_least(batch.best_valid(rules.name, checker.dice.sha256)))


def _write(
    batch: Batch, label: str, target: Target, chosen: Format[BatchRenderer], *, wide: bool
) -> None:
    """The results: to the --output file, or standard output (a table on a terminal)."""
    from validator.render import batch_out

    console = make_console()
    if chosen.name == "table" and target.path is None and console.is_terminal:
        batch_out.render_table(console, batch, label, wide=wide)
        return
    with target.open() as handle:
        chosen.load()().write(batch, handle, label)
    if target.path is not None or chosen.name != "table":  # else the table says it itself
        say(batch_out.one_line(batch, label))
    target.wrote(counted(len(batch.entries), "entry", "entries"), f" ({chosen.name})")


@contextmanager
def progress(err: Console, total: int) -> Iterator[Callable[[object], None] | None]:
    """A callback that advances a progress bar on stderr, or None when `total` is 0."""
    if not total:
        yield None
        return
    import time

    from rich.progress import Progress

    # No refresh thread: the process pool forks, and forking a threaded process can hang.
    with Progress(console=err, transient=True, auto_refresh=False) as bar:
        task = bar.add_task("Checking entries", total=total)
        shown = [0.0]

        def advance(_: object) -> None:
            bar.advance(task)
            now = time.monotonic()
            if now - shown[0] > 0.1:
                shown[0] = now
                bar.refresh()

        yield advance
