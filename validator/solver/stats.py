"""How hard a dice file is: what a strong player (the beam search) and random legal play
score on it, for an organizer to compare with the best score before publishing it."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence

from validator.check.models import SolveStatsOut
from validator.engine import Dice, Ruleset, exhaust, new_game, score
from validator.solver.playout import Step, beam_game, random_game

FileStats = SolveStatsOut
"""The figures, as `road300 solve --stats` writes them (the one definition is the JSON
shape in validator.check.models)."""


def final_score(steps: Sequence[Step], rules: Ruleset, rings: int = 0) -> int:
    state = steps[-1].state if steps else new_game(rings)
    return score(exhaust(state), rules)


def file_stats(
    rows: Sequence[Dice], rules: Ruleset, *, games: int = 1000, beam_width: int = 200, seed: int = 0
) -> FileStats:
    """Beam search at `beam_width` and `games` random games (seeded: reproducible)."""
    beam = final_score(beam_game(rows, rules, beam_width), rules)
    rng = random.Random(seed)
    scores = sorted(
        final_score(random_game(rows, rules, rng, rules.max_rings), rules, rules.max_rings)
        for _ in range(games)
    )
    p90 = scores[max(0, math.ceil(0.9 * len(scores)) - 1)]
    return FileStats(beam_width, beam, games, statistics.median(scores), p90)
