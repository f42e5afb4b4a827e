"""`road300 analyze`: what each decision of a record cost against the best play, marked
like a chess engine's analysis, with the better choice where points were lost."""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from validator.cli.common import (
    EXIT_OK,
    dice_option,
    exit_status,
    fail_usage,
    gather,
    limits_text,
    nodes_option,
    note_fast_core,
    rules_option,
    search_limits,
    time_limit_option,
)
from validator.cli.output import Target, output_option
from validator.render.registry import ANALYZE, FormatError, choose, format_help

if TYPE_CHECKING:
    from validator.engine import Action
    from validator.solver.analysis import Analysis


@dataclass(frozen=True, slots=True)
class AnalyzeOptions:
    """The options of `road300 analyze`, as click parsed them (`--help` says what each
    is)."""

    record: Path
    dice: Path | None
    rules: str | None
    time_limit: float | None
    """None: no time limit (the node budget decides)."""
    nodes: int | None
    fmt: str | None
    output: Path | None


@click.command("analyze")
@click.argument("record", type=click.Path(path_type=Path, dir_okay=False))
@dice_option
@rules_option
@time_limit_option(1.0, "Seconds of search per position (each round needs one more position).")
@nodes_option(
    "A budget of positions to search per position: the values are then the same on every machine."
)
@click.option(
    "--format", "fmt", type=click.Choice(list(ANALYZE)), help=format_help(ANALYZE, "text")
)
@output_option("the analysis")
@gather(AnalyzeOptions)
def command(options: AnalyzeOptions) -> None:
    """For each round of RECORD: the best total reachable before it and after the
    recorded choice, the points that choice lost, a mark (?! inaccuracy, ? mistake,
    ?? blunder) and the better choice.

    \b
    Examples:
      road300 analyze examples/alice.yaml --dice examples/challenge.txt
      road300 analyze entry.yaml --dice challenge.txt --format json
      road300 analyze entry.yaml --dice challenge.txt -o entry-analysis.md

    Exit status: 0 analysed (a valid or incomplete record), 1 the record is invalid or
    malformed, 2 the command could not run (bad options, unreadable dice file).
    """
    seconds = search_limits(options.nodes, options.time_limit or 0.0)
    sys.exit(run(replace(options, time_limit=seconds)))


def run(o: AnalyzeOptions) -> int:
    """Analyse a record and write the analysis as `road300 analyze` does; the exit
    status."""
    from validator.check.file import Checker, UsageError, load_dice
    from validator.check.replay import Verdict
    from validator.solver.analysis import analyze

    target = Target.of(o.output, "the analysis", inputs=[o.record, *([o.dice] if o.dice else [])])
    target.check()
    try:
        chosen = choose(ANALYZE, o.fmt, o.output, default="text", command="analyze")
    except FormatError as exc:
        fail_usage(str(exc))
    try:
        checker = Checker.create(o.dice, o.rules)
        result = checker.check(o.record)
    except UsageError as exc:
        fail_usage(exc.message)
    if result.verdict in (Verdict.INVALID, Verdict.MALFORMED):
        from validator.render.sanitize import plain_text

        d = result.error
        assert d is not None
        click.echo(plain_text(f"{d.location()}: {d.code} {d.message}"), err=True)
        click.echo(
            plain_text(f"{o.record}: {result.verdict.value}: only a legal record can be analysed"),
            err=True,
        )
        return exit_status([result.verdict])
    dice_file = checker.dice
    if dice_file is None:
        # The check above read the dice file the record names; it is readable.
        assert result.record is not None and result.record.dice_file is not None
        dice_file = load_dice((o.record.parent / result.record.dice_file).resolve())
    rows = dice_file.rows
    note_fast_core()
    limit, nodes = o.time_limit, o.nodes
    if sys.stderr.isatty():
        positions = sum(1 for r in result.rounds if r.record_round is not None) + 1
        click.echo(
            f"analysing {positions - 1} rounds: {positions} searches of up to "
            f"{limits_text(limit, nodes)}...",
            err=True,
        )
    analysis = analyze(rows, result.rules, result, time_limit=limit, nodes=nodes)
    payload = analysis_dict(analysis, str(o.record))
    target.write(chosen.load()(payload), f"the analysis ({chosen.name})")
    return EXIT_OK


def analysis_dict(analysis: Analysis, record: str) -> dict[str, Any]:
    """The JSON form (`check.models.AnalysisOut`, schemas/analyze.schema.json)."""
    from validator.check.models import AnalysisOut, AnalysisRoundOut

    shape = AnalysisOut(
        record=record,
        rounds=[
            AnalysisRoundOut(
                round=r.round,
                roll=r.roll,
                best_before=r.best_before,
                best_after=r.best_after,
                cost=r.cost,
                proven=r.proven,
                upper_before=r.upper_before,
                upper_after=r.upper_after,
                cost_at_least=r.cost_at_least,
                mark=r.mark,
                better=choice_dict(r.better) if r.better is not None else None,
            )
            for r in analysis.rounds
        ],
        played_score=analysis.played_score,
        best_score=analysis.best_score,
        best_proven=analysis.best_proven,
        # Against the best still reachable after the last round: for a finished game that
        # is its score; an incomplete record has not lost what it can still reach.
        points_lost=analysis.best_score
        - (analysis.rounds[-1].best_after if analysis.rounds else analysis.best_score),
        seconds=round(analysis.seconds, 3),
        clock_stopped=analysis.clock_stopped,
    )
    return asdict(shape)


def choice_dict(action: Action) -> dict[str, Any]:
    """One choice in the record's own terms: cross, move (a field, "escape" or "leave"),
    path; or a ring or a reroll."""
    from validator.engine import Play, RingReroll

    if isinstance(action, RingReroll):
        return {"ring": True}
    if not isinstance(action, Play):
        return {"reroll": True}
    out: dict[str, Any] = {"cross": [action.cross.row, action.cross.col]}
    if action.exit is not None:
        out["move"] = action.exit
    elif action.move is not None:
        out["move"] = [action.move.row, action.move.col]
    else:
        out["move"] = None
    if action.path is not None:
        out["path"] = [[f.row, f.col] for f in action.path]
    return out
