"""`road300 solve`: the best game on a dice file (or after a partial record), proven
where the search finishes, with a record of it that `road300 validate` accepts."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from validator.check.models import SolveOut
from validator.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    SEARCH_JOBS,
    ctrl_c_cancels,
    fail_usage,
    gather,
    memory_option,
    nodes_option,
    note_fast_core,
    rules_option,
    search_limits,
    time_limit_option,
)
from validator.cli.contest_file import ContestCommand, contest_option
from validator.cli.output import Target, output_option
from validator.engine import new_game
from validator.records import dump_record, format_of
from validator.render.registry import SOLVE

if TYPE_CHECKING:
    from validator.check.replay import Result
    from validator.engine import Ruleset
    from validator.records.dice import DiceFile
    from validator.solver import Progress

STATS_BEAM_WIDTH = 200
"""The beam width of `--stats`' "strong player" (validator.solver.playout.beam_game)."""


@dataclass(frozen=True, slots=True)
class SolveOptions:
    """The options of `road300 solve`, as click parsed them (`--help` says what each is)."""

    dice: Path
    from_record: Path | None
    rules: str | None
    time_limit: float | None
    """None: no time limit (the node budget decides)."""
    nodes: int | None
    memory: int | None
    jobs: int
    fmt: str
    output: Path | None
    stats: bool
    progress: bool | None
    games: int


@click.command("solve", cls=ContestCommand)
@contest_option
@click.argument("dice", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--from",
    "from_record",
    type=click.Path(path_type=Path, dir_okay=False),
    help="A partial record: solve the rest of its game (its rounds count and are kept).",
)
@rules_option
@time_limit_option(
    30.0,
    "Seconds to search; then the best game found so far is given (Ctrl-C too). The "
    "answer then depends on the machine's speed, and the output says so.",
)
@nodes_option(
    "A budget of positions to search: the answer is then the same on every machine.",
)
@memory_option
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1, max=64),
    default=SEARCH_JOBS,
    show_default=True,
    help="Search in N threads (the compiled core runs them on separate cores; more than "
    "the machine has take turns): once a search passes 1,048,576 positions, "
    "the first choices are shared among them, each with its share of --memory. The "
    "default is the same on every machine, so that the same command gives the same "
    "answer everywhere (the same --nodes repeats an answer only with the same --jobs). "
    "Without the compiled core the threads take turns: --jobs 1 is quicker there.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(list(SOLVE)),
    default="text",
    show_default=True,
    help="What goes to standard output: "
    + "; ".join(f"{f.name}: {f.help}" for f in SOLVE.values())
    + ".",
)
@output_option("the best game as a record, in the form its suffix names (.yaml, .json, .txt, .csv)")
@click.option(
    "--stats",
    is_flag=True,
    help="Also play the dice file with a beam search (width 200) and with random "
    "legal play, to show how hard it is.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show the search's progress line on stderr (default: only on a terminal).",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="With --stats: how many random games to play.",
)
@gather(SolveOptions)
def command(options: SolveOptions) -> None:
    """Find the highest score reachable on the dice file DICE and one game that reaches
    it. The search is anytime: it prints the best game found and an upper bound no game
    can beat; the score is proven best when the two meet.

    \b
    Examples:
      road300 solve examples/challenge.txt --time-limit 60 --output best.yaml
      road300 solve challenge.txt --nodes 20000000
      road300 solve challenge.txt --from half-played.yaml --format json
      road300 solve challenge.txt --stats

    The search's schedule counts positions, not seconds: with --nodes (and no
    --time-limit) the same command gives the same game and value on every machine.
    On a terminal, or with --progress, stderr shows the best score so far, the bound,
    the round of the search (and the total it aims above, when it is a round that
    brings the bound down), how many of the first choices it has settled, and the
    positions searched per second.

    Exit status: 0 solved (proven or not), 1 the --from record is invalid or malformed,
    2 the command could not run (bad options, unreadable dice file).
    """
    seconds = search_limits(options.nodes, options.time_limit or 0.0)
    sys.exit(run(replace(options, time_limit=seconds)))


def run(o: SolveOptions) -> int:
    """Solve as `road300 solve` does: the best game found and its bound on standard
    output, the game as a record in the --output file; its exit status."""
    from validator.solver import solve
    from validator.solver.record import continued_record
    from validator.solver.stats import file_stats

    target = _target(o)
    dice_file, ruleset, prefix = _start(o)
    state = prefix.final if prefix is not None else new_game(ruleset.max_rings)
    assert state is not None  # a legal record's replay ends in a position
    row = len(prefix.rounds) if prefix is not None else 0
    note_fast_core()
    with _progress_line(o.progress) as (report, cancel):
        solution = solve(
            dice_file.rows,
            ruleset,
            state,
            row,
            time_limit=o.time_limit,
            nodes=o.nodes,
            progress=report,
            cancel=cancel,
            memory=o.memory,
            jobs=o.jobs,
        )
    record = continued_record(
        dice_file.rows,
        dice_file.sha256,
        ruleset,
        prefix,
        solution.actions,
        solution.best_score,
    )
    shape = SolveOut(
        best_score=solution.best_score,
        proven=solution.proven,
        upper_bound=solution.upper_bound,
        record=json.loads(dump_record(record, "json")),
        nodes=solution.nodes,
        seconds=round(solution.seconds, 3),
        stopped=solution.stopped,
        repeat_nodes=solution.repeat_nodes,
        memory=solution.memory,
        table_full=solution.table_full,
        jobs=solution.jobs,
        stats=file_stats(dice_file.rows, ruleset, games=o.games, beam_width=STATS_BEAM_WIDTH)
        if o.stats
        else None,
    )
    payload = {k: v for k, v in asdict(shape).items() if k != "stats" or v is not None}
    if target.path is not None:
        fmt_of_file = format_of(target.path)
        assert fmt_of_file is not None
        target.write(dump_record(record, fmt_of_file))
    best_game = None if target.path is not None else dump_record(record, "text")
    render = SOLVE[o.fmt].load()
    continued = o.from_record is not None
    sys.stdout.write(render(payload, dice=str(o.dice), continued=continued, best_game=best_game))
    return EXIT_OK


def _target(o: SolveOptions) -> Target:
    """The --output file, checked; stops (exit 2) on options that cannot work."""
    inputs = [o.dice, *([o.from_record] if o.from_record else [])]
    target = Target.of(o.output, "the best game", inputs=inputs)
    if target.path is not None and format_of(target.path) is None:
        fail_usage(f"--output {o.output}: use a .yaml, .json, .txt or .csv file name")
    target.check()
    if o.stats and o.from_record is not None:
        fail_usage("--stats looks at the dice file from the start; leave out --from")
    return target


def _start(o: SolveOptions) -> tuple[DiceFile, Ruleset, Result | None]:
    """The dice file, the ruleset, and the replay of the --from record (None without
    one); stops (exit 2, or 1 for an illegal --from record) when one cannot be had."""
    from validator.check.file import Checker, UsageError, load_dice
    from validator.engine import STANDARD

    try:
        checker = Checker.create(None, o.rules)
        dice_file = load_dice(o.dice, "give the dice file first, and the record with --from")
    except UsageError as exc:
        fail_usage(exc.message)
    if o.from_record is None:
        return dice_file, checker.rules or STANDARD, None
    prefix = _read_from(Checker(dice_file, checker.rules), o.from_record)
    return dice_file, prefix.rules, prefix


def _read_from(checker: Any, path: Path) -> Result:
    from validator.check.replay import Verdict

    result: Result = checker.check(path)
    if result.verdict in (Verdict.INVALID, Verdict.MALFORMED):
        d = result.error
        assert d is not None
        # E107 alone: every round is legal, only the claim is not what they score, as
        # when the record was cut from a finished game (solve's own --output claims its
        # final score).
        cut = (
            "\n  (its rounds are legal: a record cut from a finished game keeps that "
            "game's claimed_score; remove that line, or set it as above)"
            if d.code == "E107"
            else ""
        )
        click.echo(
            f"{d.location()}: {d.code} {d.message}"
            + (f"\n  help: {d.hint}" if d.hint else "")
            + f"\n{path}: {result.verdict.value}: --from needs a legal record{cut}",
            err=True,
        )
        sys.exit(EXIT_FAILED)
    return result


def progress_text(p: Progress, rate: float | None = None) -> str:
    """One progress line: best so far, bound, the round of the search (and its aim, for
    an aimed round) and how many of the root's choices it has settled (the part proven
    so far), speed (`rate`, else the average so far), time."""
    if rate is None:
        rate = p.nodes / p.seconds if p.seconds > 0 else 0.0
    settled = f"  settled {p.settled}/{p.choices} first choices" if p.choices else ""
    aim = "" if p.aim is None else f" (aimed above {p.aim})"
    return (
        f"best {p.best_score}  bound {p.upper_bound}  round {p.round}{aim}{settled}  "
        f"{p.nodes:,} positions  {rate:,.0f}/s  {p.seconds:.1f} s"
    )


@contextmanager
def _progress_line(shown: bool | None) -> Iterator[tuple[Any, threading.Event]]:
    """A progress callback drawing one line on stderr (on a terminal, or when `shown`),
    and an event that Ctrl-C sets so that the search returns its best game instead of
    dying. On a terminal the line is redrawn in place; else one line each time."""
    tty = sys.stderr.isatty()
    draw = tty if shown is None else shown

    last = [0, 0.0]  # nodes and seconds at the last line: the speed since then

    def report(p: Progress) -> None:
        if not draw:
            return
        spent = p.seconds - last[1]
        rate = (p.nodes - last[0]) / spent if spent > 0.05 else None
        last[:] = [p.nodes, p.seconds]
        line = progress_text(p, rate)
        sys.stderr.write(f"\r{line}   " if tty else line + "\n")
        sys.stderr.flush()

    with ctrl_c_cancels() as cancel:
        try:
            yield report, cancel
        finally:
            if draw and tty:
                sys.stderr.write("\n")
            if cancel.is_set():
                sys.stderr.write("interrupted: the best game found so far follows\n")
