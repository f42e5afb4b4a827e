"""`road300 batch`: check a folder of contest entries, rank them, and write the results."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    make_console,
    max_size_option,
    nodes_option,
    note_fast_core,
    rules_option,
    search_limits,
)
from validator.cli.contest_file import ContestCommand, contest_option
from validator.cli.output import Target, counted, output_option, say, sigterm_exits
from validator.records.pool import ITEMS_PER_WORKER, PAGES_PER_WORKER, default_jobs
from validator.records.source import MAX_BYTES
from validator.render.registry import BATCH, FormatError, choose, suffixes

_SUFFIXES = suffixes(BATCH)

if TYPE_CHECKING:
    from rich.console import Console

    from validator.check.file import Checker
    from validator.contest.batch import Batch, Par


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
def command(
    folder: Path,
    dice: Path | None,
    rules: str | None,
    fmt: str | None,
    output: Path | None,
    wide: bool,
    jobs: int | None,
    strict: bool,
    min_score: int,
    par: bool,
    par_time: float,
    par_nodes: int | None,
    max_size: int | None,
    deadline: datetime | None,
    site: Path | None,
    replies: Path | None,
    organizer: str | None,
    contest_name: str | None,
    lang: str | None,
) -> None:
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
    from validator.check.file import Checker, UsageError
    from validator.contest.batch import BatchError
    from validator.contest.mail import MailError, Source
    from validator.render import batch_out

    source_of = click.get_current_context().get_parameter_source
    if not par and source_of("par_time") is click.core.ParameterSource.COMMANDLINE:
        fail_usage("--par-time is the par search's time: use it with --par")
    if not par and par_nodes is not None:
        fail_usage("--par-nodes is the par search's budget: use it with --par")
    # The source is an input too: an mbox written over with the results would be lost.
    target = Target.of(output, "the results", inputs=[folder, *([dice] if dice else [])])
    target.check()
    check_output_folders(folder, site, replies)
    try:
        chosen = choose(BATCH, fmt, output, default="table", command="batch")
    except FormatError as exc:
        fail_usage(str(exc))
    try:
        exclude = {dice: "the dice file (--dice)"} if dice is not None else {}
        if target.path is not None:
            exclude[target.path] = "the results file (--output)"
        for path in (site, replies):
            if path is not None:
                exclude[path] = "an output folder (--site, --replies)"
        source = Source.find(folder, max_size or MAX_BYTES, exclude)
        checker = Checker.create(dice, rules, root=source.root, max_bytes=max_size)
    except (BatchError, UsageError, MailError) as exc:
        fail_usage(exc.message if isinstance(exc, UsageError) else str(exc.args[0]))
    if par and checker.dice is None:
        fail_usage("--par needs --dice: par is solved on the contest's dice file")
    check_mail_options(source, replies, organizer)
    if source.messages is not None:  # the results hold the senders' addresses
        target = dataclasses.replace(target, private=True)
    lock_output_folders(site, replies)

    err = make_console(stderr=True)
    # SIGTERM ends the run as an exit, so that the pool is stopped and nothing half-written
    # is left (the output policy); the workers exit quietly.
    with sigterm_exits(), _progress(err, source.count if err.is_terminal else 0) as advance:
        batch = source.check(
            checker,
            jobs or default_jobs(source.count),
            min_score=min_score,
            deadline=deadline,
            on_result=advance,
        )
    if deadline is not None:
        warning = batch_out.deadline_warning(batch, deadline)
        if warning is not None:
            say(warning)
    if par:
        limit = search_limits(par_nodes, par_time, "par_time")
        found = _solve_par(checker, limit, par_nodes, err)
        batch = batch.with_par(found.at_least(_best_played(batch, checker)))
    if site is not None or replies is not None:
        with sigterm_exits():
            notes = publish(
                source,
                checker,
                batch,
                site=site,
                replies=replies,
                organizer=organizer,
                name=contest_name,
                dice=dice,
                deadline=deadline,
                jobs=jobs or default_jobs(source.count, PAGES_PER_WORKER),
                lang=lang,
            )
        for line in notes:
            say(line)
    source.close()

    label = str(folder)
    reporter = chosen.load()()
    if target.to_file:
        with target.open() as handle:
            reporter.write(batch, handle, label)
        say(batch_out.one_line(batch, label))
        target.wrote(counted(len(batch.entries), "entry", "entries"), f" ({chosen.name})")
    elif chosen.name != "table":
        reporter.write(batch, sys.stdout, label)
        say(batch_out.one_line(batch, label))
    else:
        console = make_console()
        if console.is_terminal:
            batch_out.render_table(console, batch, label, wide=wide)
        else:
            reporter.write(batch, sys.stdout, label)

    verdicts = [e.verdict for e in batch.entries]
    sys.exit(exit_status(verdicts, strict=True) if strict else EXIT_OK)


def _solve_par(checker: Checker, seconds: float | None, nodes: int | None, err: Console) -> Par:
    """The dice file's best score under the batch's ruleset, with a note while it runs."""
    from validator.contest.batch import Par
    from validator.engine import STANDARD
    from validator.solver import solve

    assert checker.dice is not None
    rules = checker.rules or STANDARD
    note_fast_core()
    if err.is_terminal:
        limits = ([f"{seconds:g} s"] if seconds is not None else []) + (
            [f"{nodes:,} positions"] if nodes is not None else []
        )
        err.print(f"Solving par for the dice file ({rules.name}, up to {' and '.join(limits)})...")
    found = solve(checker.dice.rows, rules, time_limit=seconds, nodes=nodes, jobs=SEARCH_JOBS)
    return Par(found.best_score, found.proven, found.upper_bound, found.stopped)


def _best_played(batch: Batch, checker: Checker) -> int | None:
    """The best score of a valid entry played on the dice file and ruleset of par: par
    is at least that, whatever the search found."""
    from validator.check.replay import Verdict
    from validator.engine import STANDARD

    assert checker.dice is not None
    rules = (checker.rules or STANDARD).name
    scores = [
        e.score
        for e in batch.entries
        if e.verdict is Verdict.VALID
        and e.score is not None
        and e.rules == rules
        and e.dice_sha256 == checker.dice.sha256
    ]
    return max(scores, default=None)


@contextmanager
def _progress(err: Console, total: int) -> Iterator[Callable[[object], None] | None]:
    """A callback that advances a progress bar on stderr, or None when `total` is 0."""
    if not total:
        yield None
        return
    import time

    from rich.progress import Progress

    # No refresh thread: the process pool forks, and forking a threaded process can hang.
    with Progress(console=err, transient=True, auto_refresh=False) as progress:
        task = progress.add_task("Checking entries", total=total)
        shown = [0.0]

        def advance(_: object) -> None:
            progress.advance(task)
            now = time.monotonic()
            if now - shown[0] > 0.1:
                shown[0] = now
                progress.refresh()

        yield advance
