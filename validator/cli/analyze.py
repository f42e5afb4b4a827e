"""`road300 analyze`: what each decision of a record cost against the best play, marked
like a chess engine's analysis, with the better choice where points were lost."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from validator.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    dice_option,
    fail_usage,
    rules_option,
    time_limit_option,
)

if TYPE_CHECKING:
    from validator.engine import Action
    from validator.solver.analysis import Analysis

SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@click.command("analyze")
@click.argument("record", type=click.Path(path_type=Path, dir_okay=False))
@dice_option
@rules_option
@time_limit_option(1.0, "Seconds of search per position (each round needs one more position).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "md"]),
    default="text",
    show_default=True,
)
def command(
    record: Path, dice: Path | None, rules: str | None, time_limit: float, fmt: str
) -> None:
    """For each round of RECORD: the best total reachable before it and after the
    recorded choice, the points that choice lost, a mark (?! inaccuracy, ? mistake,
    ?? blunder) and the better choice.

    \b
    Examples:
      road300 analyze examples/alice.yaml --dice examples/challenge.txt
      road300 analyze entry.yaml --dice challenge.txt --format json

    Exit status: 0 analysed (a valid or incomplete record), 1 the record is invalid or
    malformed, 2 the command could not run (bad options, unreadable dice file).
    """
    from validator.check.file import Checker, UsageError, load_dice
    from validator.check.replay import Verdict
    from validator.solver.analysis import analyze

    try:
        checker = Checker.create(dice, rules)
        result = checker.check(record)
    except UsageError as exc:
        fail_usage(exc.message)
    if result.verdict in (Verdict.INVALID, Verdict.MALFORMED):
        from validator.render.sanitize import plain_text

        d = result.error
        assert d is not None
        click.echo(plain_text(f"{d.location()}: {d.code} {d.message}"), err=True)
        click.echo(
            plain_text(f"{record}: {result.verdict.value}: only a legal record can be analysed")
        )
        sys.exit(EXIT_FAILED)
    dice_file = checker.dice
    if dice_file is None:
        # The check above read the dice file the record names; it is readable.
        assert result.record is not None and result.record.dice_file is not None
        dice_file = load_dice((record.parent / result.record.dice_file).resolve())
    rows = dice_file.rows
    if sys.stderr.isatty():
        positions = sum(1 for r in result.rounds if r.record_round is not None) + 1
        click.echo(
            f"analysing {positions - 1} rounds: {positions} searches of up to {time_limit:g} s...",
            err=True,
        )
    analysis = analyze(rows, result.rules, result, time_limit=time_limit)
    payload = analysis_dict(analysis, str(record))
    if fmt == "json":
        sys.stdout.write(json.dumps(payload) + "\n")
    elif fmt == "md":
        click.echo(_markdown(payload))
    else:
        click.echo(_text(payload))
    sys.exit(EXIT_OK)


def analysis_dict(analysis: Analysis, record: str) -> dict[str, Any]:
    """The JSON form (schemas/analyze.schema.json)."""
    return {
        "record": record,
        "rounds": [
            {
                "round": r.round,
                "roll": r.roll,
                "best_before": r.best_before,
                "best_after": r.best_after,
                "cost": r.cost,
                "proven": r.proven,
                "mark": r.mark,
                "better": choice_dict(r.better) if r.better is not None else None,
            }
            for r in analysis.rounds
        ],
        "played_score": analysis.played_score,
        "best_score": analysis.best_score,
        "best_proven": analysis.best_proven,
        # Against the best still reachable after the last round: for a finished game that
        # is its score; an incomplete record has not lost what it can still reach.
        "points_lost": analysis.best_score - _reachable(analysis),
        "seconds": round(analysis.seconds, 3),
    }


def _reachable(analysis: Analysis) -> int:
    """The best total still reachable after the record's last round."""
    if not analysis.rounds:
        return analysis.best_score
    return analysis.rounds[-1].best_after


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


def choice_text(choice: dict[str, Any] | None) -> str:
    if choice is None:
        return ""
    if choice.get("ring"):
        return "spend a ring"
    if choice.get("reroll"):
        return "reroll"
    cross = "x {}/{}".format(*choice["cross"])
    move = choice["move"]
    if move is None:
        return f"{cross}, no move"
    if isinstance(move, str):
        return f"{cross} -> {move}"
    return f"{cross} -> {move[0]}/{move[1]}"


def _summary(p: dict[str, Any]) -> str:
    proven = "proven" if p["best_proven"] else "not proven"
    reachable = p["best_score"] - p["points_lost"]
    played = f"played {p['played_score']}"
    if p["rounds"] and reachable != p["played_score"]:
        played += f" so far (the game goes on: {reachable} still reachable)"
    return f"{played}, best {p['best_score']} ({proven}): {p['points_lost']} points lost"


def _text(p: dict[str, Any]) -> str:
    from validator.render.sanitize import plain_text

    lines = [
        f"{plain_text(p['record'])}: {_summary(p)}",
        "round  roll  before  after  cost  mark  better",
    ]
    for r in p["rounds"]:
        mark = SYMBOLS.get(r["mark"] or "", "")
        star = "" if r["proven"] else "*"
        lines.append(
            f"{r['round']:>5}  {r['roll']:>4}  {r['best_before']:>5}{star:1}  "
            f"{r['best_after']:>5}  {r['cost']:>4}  {mark:>4}  {choice_text(r['better'])}".rstrip()
        )
    lines.append(
        "* not proven within the time limit (a lower bound); ?! inaccuracy  ? mistake  ?? blunder"
    )
    return "\n".join(lines)


def _markdown(p: dict[str, Any]) -> str:
    from validator.render.sanitize import markdown_text

    lines = [
        f"# Analysis of {markdown_text(p['record'])}",
        "",
        _summary(p) + ".",
        "",
        "| round | roll | best before | best after | cost | mark | better |",
        "| ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for r in p["rounds"]:
        mark = f"{SYMBOLS[r['mark']]} {r['mark']}" if r["mark"] else ""
        before = f"{r['best_before']}" + ("" if r["proven"] else "\\*")
        lines.append(
            f"| {r['round']} | {r['roll']} | {before} | {r['best_after']} | {r['cost']} | "
            f"{mark} | {choice_text(r['better'])} |"
        )
    lines += ["", "\\* not proven within the time limit (a lower bound)."]
    return "\n".join(lines)
