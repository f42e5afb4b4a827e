"""Playing games through the engine: random play and a beam search over known dice.

Used to make example records, test games and benchmark entries; every game here is
built from `legal_actions` and `apply` only, so it is legal by construction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from validator.engine import (
    Action,
    Dice,
    Field,
    Ruleset,
    State,
    apply,
    exhaust,
    legal_actions,
    new_game,
    score,
    walks,
)
from validator.records.record import Record
from validator.records.rounds import record_round


@dataclass(frozen=True, slots=True)
class Step:
    roll: int
    """1-based dice row."""
    dice: Dice
    action: Action
    state: State
    walk: tuple[Field, ...]
    die: int | None


def random_game(
    rows: Sequence[Dice], rules: Ruleset, rng: random.Random, rings: int = 0
) -> list[Step]:
    """One game with uniformly random legal choices until it ends or the rows run out."""
    state = new_game(rings)
    steps: list[Step] = []
    for i, dice in enumerate(rows):
        if state.over:
            break
        actions = legal_actions(state, dice, rules)
        action = rng.choice(actions)
        turn = apply(state, dice, action, rules)
        state = turn.state
        walk = tuple(Field.at(x) for x in turn.walk or ())
        steps.append(Step(i + 1, dice, action, state, walk, turn.cross.die if turn.cross else None))
    return steps


def beam_game(rows: Sequence[Dice], rules: Ruleset, width: int = 200) -> list[Step]:
    """A strong game on known dice: keep the `width` best lines by score and mobility."""
    beam: list[tuple[State, list[Step]]] = [(new_game(), [])]
    finished: list[tuple[int, list[Step]]] = []
    for i, dice in enumerate(rows):
        nxt: dict[State, list[Step]] = {}
        for state, line in beam:
            if state.over:
                continue
            for action in legal_actions(state, dice, rules):
                turn = apply(state, dice, action, rules)
                walk = tuple(Field.at(x) for x in turn.walk or ())
                die = turn.cross.die if turn.cross else None
                step = Step(i + 1, dice, action, turn.state, walk, die)
                if turn.state.over:
                    finished.append((score(turn.state, rules), [*line, step]))
                elif turn.state not in nxt:
                    nxt[turn.state] = [*line, step]
        if not nxt:
            break
        ranked = sorted(nxt.items(), key=lambda kv: _promise(kv[0], rules), reverse=True)
        beam = [(s, line) for s, line in ranked[:width]]
    else:
        finished.extend((score(exhaust(s), rules), line) for s, line in beam)
    if not finished:
        return []
    return max(finished, key=lambda item: item[0])[1]


def _promise(state: State, rules: Ruleset) -> float:
    free = 0
    if state.pos >= 0:
        blocked = state.taken
        free = sum(len(walks(blocked, state.pos, d)) for d in (1, 2, 3))
    return score(state, rules) + 2.0 * free


def to_record(
    steps: Sequence[Step], *, with_details: bool = True, player: str = "", rings: int = 0
) -> Record:
    """A record of a played game; `with_details` adds roll, dice, steps and path.

    `rings` is the number of magic rings the game was started with.
    """
    rounds = tuple(
        record_round(
            n,
            step.action,
            walk=step.walk,
            roll=step.roll,
            dice=step.dice,
            steps=step.die,
            details=with_details,
        )
        for n, step in enumerate(steps, start=1)
    )
    return Record(rounds=rounds, player=player or None, rings=rings)
