"""`road300 solve`'s output: its JSON payload as one JSON line, or as text for people."""

from __future__ import annotations

import json
from typing import Any

from validator.contest.config import size_text

_STOPPED = {
    "time": "within the time limit",
    "nodes": "within the --nodes budget",
    "cancel": "before the search was interrupted",
}
"""Why an unproven answer stopped (SolveOut.stopped)."""


def render_json(
    payload: dict[str, Any], *, dice: str, continued: bool, best_game: str | None
) -> str:
    """One JSON object (schemas/solve.schema.json) on one line."""
    return json.dumps(payload) + "\n"


def render_text(
    payload: dict[str, Any], *, dice: str, continued: bool, best_game: str | None
) -> str:
    """The best score (proven or with its bound), the search's size, --stats' figures,
    and the best game as an annotated dice file unless it was written to a file."""
    best, upper = payload["best_score"], payload["upper_bound"]
    if payload["proven"]:
        scope = "continuation of the record" if continued else "game on these dice"
        verdict = f"best score {best} (proven: no {scope} scores more)"
    else:
        verdict = (
            f"best score at least {best} (bound {upper}: no game scores more; not proven "
            f"{_STOPPED.get(payload.get('stopped') or '', 'when the search stopped')})"
        )
    lines = [f"{dice}: {verdict}"]
    nodes = payload["nodes"]
    positions = "position" if nodes == 1 else "positions"
    lines.append(f"searched {nodes:,} {positions} in {payload['seconds']:.1f} s")
    repeat = payload.get("repeat_nodes")
    # A search that filled its table depends on the table's size too (SolveOut.table_full).
    memory = f" --memory {size_text(payload['memory'])}" if payload.get("table_full") else ""
    stopped = payload.get("stopped")
    by = {
        "time": "stopped by the clock, so this answer depends on the machine's speed",
        "cancel": "stopped by Ctrl-C, so this answer depends on when it came",
    }.get(stopped or "")
    if by and repeat is not None:
        # A search that split depends on how many threads shared it (SolveOut.jobs), and
        # one that did not may have needed one thread past the split's threshold: named
        # always, as --jobs' default is not one.
        threads = f" --jobs {payload.get('jobs', 1)}"
        budget = f"--nodes {repeat}{threads}{memory}"
        lines.append(f"{by}; {budget} gives this same answer on any machine")
    elif by:
        # Ctrl-C in the first game, or a split search whose threads the machine kept
        # from stopping together (Search.split_repeat).
        lines.append(f"{by}, and no --nodes budget repeats it")
    elif memory and stopped == "nodes":
        # A proven score and bound are the same whatever the table (the positions it
        # took to prove them are not).
        lines.append(
            f"the search filled its table ({size_text(payload['memory'])}): the same "
            f"budget gives this answer with{memory}, and a bigger --memory may prove more"
        )
    stats = payload.get("stats")
    if stats:
        lines.append(
            f"beam search (width {stats['beam_width']}): {stats['beam_score']}; "
            f"random play over {stats['games']} games: median {stats['random_median']:g}, "
            f"90th percentile {stats['random_p90']}"
        )
    if best_game is not None:
        lines.append("the best game, as an annotated dice file:")
        lines.append(best_game.rstrip("\n"))
    return "\n".join(lines) + "\n"
