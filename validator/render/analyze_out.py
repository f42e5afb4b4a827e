"""`road300 analyze`'s output: its JSON payload (schemas/analyze.schema.json) as one JSON
line, as a text table for people, or as a Markdown table."""

from __future__ import annotations

import json
from typing import Any

from validator.render.sanitize import markdown_text, plain_text
from validator.report.analysis import SYMBOLS


def render_json(payload: dict[str, Any]) -> str:
    return json.dumps(payload) + "\n"


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
    clock = p.get("clock_stopped", 0)
    timed = (
        f"; {clock} {'search' if clock == 1 else 'searches'} stopped by the time limit, so "
        "some values depend on the machine's speed (--nodes makes them the same everywhere)"
        if clock
        else ""
    )
    if p["best_score"] == p["played_score"] and not p["best_proven"]:
        # The search found no better game within its limits: the played one is the best known.
        proven = "the played game, the best known; not proven"
    return f"{played}, best {p['best_score']} ({proven}): {p['points_lost']} points lost{timed}"


def render_text(payload: dict[str, Any]) -> str:
    lines = [
        f"{plain_text(payload['record'])}: {_summary(payload)}",  # a file name: a stranger's text
        "round  roll  before  after  cost  mark  better",
    ]
    for r in payload["rounds"]:
        mark = SYMBOLS.get(r["mark"] or "", "")
        star = "" if r["proven"] else "*"
        tail = _better(r)
        lines.append(
            f"{r['round']:>5}  {r['roll']:>4}  {r['best_before']:>5}{star:1}  "
            f"{r['best_after']:>5}  {r['cost']:>4}  {mark:>4}  {tail}".rstrip()
        )
    lines.append(
        "* not proven within the search's limits (the values are lower bounds; the cost an\n"
        "  estimate, marked only by the loss proven); ?! inaccuracy  ? mistake  ?? blunder"
    )
    return "\n".join(lines) + "\n"


def _better(r: dict[str, Any]) -> str:
    """The better-choice column: the better choice, then what is proven of an unproven
    round (a round with no better choice starts its bounds in the column too)."""
    return "  ".join(x for x in (choice_text(r["better"]), _unproven(r)) if x)


def _unproven(r: dict[str, Any]) -> str:
    """What is proven of an unproven round: the bounds and the loss at least."""
    if r["proven"]:
        return ""
    return (
        f"(before {r['best_before']}-{r['upper_before']}, after {r['best_after']}-"
        f"{r['upper_after']}: lost at least {r['cost_at_least']})"
    )


def render_markdown(payload: dict[str, Any]) -> str:
    lines = [
        f"# Analysis of {markdown_text(payload['record'])}",
        "",
        _summary(payload) + ".",
        "",
        "| round | roll | best before | best after | cost | mark | better |",
        "| ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for r in payload["rounds"]:
        mark = f"{SYMBOLS[r['mark']]} {r['mark']}" if r["mark"] else ""
        before = f"{r['best_before']}" + ("" if r["proven"] else "\\*")
        lines.append(
            f"| {r['round']} | {r['roll']} | {before} | {r['best_after']} | {r['cost']} | "
            f"{mark} | {_better(r)} |"
        )
    lines += [
        "",
        "\\* not proven within the search's limits: the values are lower bounds, the cost an "
        "estimate, and a round is marked only by the loss proven.",
    ]
    return "\n".join(lines) + "\n"
