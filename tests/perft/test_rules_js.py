"""The rules in JavaScript (validator/engine/rules.js) against the Python engine.

As lichess checks its TypeScript rules against its server's: positions from random and
strong games under each ruleset (and the expansions), and for each the engine's available
cross-outs, the walks of each (ends, witness walks, exits), whether the game goes on, every
legal action in the engine's order and the state and score after each. Node runs
`check_rules.js` on them and reports every answer that differs.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from validator.engine import (
    FIELD_AT,
    Action,
    Dice,
    Play,
    Reroll,
    RingReroll,
    Ruleset,
    State,
    apply_row,
    available_crosses,
    game_goes_on,
    legal_actions,
    new_game,
    score,
)
from validator.rulesets import resolve
from validator.solver.playout import beam_game

HERE = Path(__file__).resolve().parent
CHECK = HERE / "check_rules.js"
NODE = shutil.which("node")

RULESETS = (
    "standard",
    "bga",
    "literal",
    "standard+escape=20",
    "bga+in-and-out",
    "literal+rings=2",
    "standard+escape=15+in-and-out+rings=3",
)
PLAIN_POSITIONS = 10_000
SLOW_POSITIONS = 12_000

pytestmark = pytest.mark.skipif(NODE is None, reason="no node found (.ci/run installs it)")


@functools.cache
def _switches(rules: Ruleset) -> tuple[tuple[str, Any], ...]:
    return tuple(dataclasses.asdict(rules).items())


def _rules_json(rules: Ruleset) -> dict[str, Any]:
    """The ruleset as play.html sends it: every field by its engine name."""
    return dict(_switches(rules))


def state_json(state: State) -> list[Any]:
    """A state, compactly: the field sets as bit masks (36 bits: exact in JavaScript)."""
    end = None if state.end is None else state.end.value
    return [
        state.crossed,
        state.circled,
        state.pos,
        state.passes,
        state.passes_in_row,
        state.rings_left,
        end,
    ]


_NUMBER = {field: str(field.index) for field in FIELD_AT}


def action_text(action: Action) -> str:
    """An action as one line of words (`check_rules.js` writes its own the same way):
    `reroll`, `ring`, or `play CROSS MOVE EXIT WALK`, the fields by index, `-` for none,
    the walk's fields joined by dots. A string, not a list of lists: the quarter of a
    million actions were most of the JSON written and read."""
    if isinstance(action, Reroll):
        return "reroll"
    if isinstance(action, RingReroll):
        return "ring"
    move = "-" if action.move is None else _NUMBER[action.move]
    walk = ".".join([_NUMBER[f] for f in action.path or ()]) or "-"
    return " ".join(("play", _NUMBER[action.cross], move, action.exit or "-", walk))


def position(
    name: str,
    state: State,
    dice: Dice,
    last: bool,
    rules: Ruleset,
    applied: int | None,
    actions: list[Action],
) -> dict[str, Any]:
    """One position and the engine's answers (`last`: the dice file's last row; `actions`:
    the engine's legal actions, which the game playing through it has already).

    The legal actions carry the walks: one per end field with its witness walk, then the
    exits, each cross-out's in board order, and a cross-out that leaves no move once. The
    state after each action is checked for all of them, or for `applied` of them spread
    over the list (the first and the last among them): applying is most of the cost."""
    rows = [dice] if last else [dice, dice]
    picked = sample(len(actions), applied)
    return {
        "name": name,
        "rules": _rules_json(rules),
        "state": state_json(state),
        "dice": list(dice),
        "last": last,
        "expect": {
            "crosses": [[c.field.index, c.die] for c in available_crosses(state, dice)],
            "goes_on": game_goes_on(state, dice, rules),
            "actions": [action_text(a) for a in actions],
            "applied": picked,
            "after": [
                [
                    state_json(s := apply_row(state, rows, 0, actions[i], rules).state),
                    score(s, rules),
                ]
                for i in picked
            ],
            "score": score(state, rules),
        },
    }


def sample(n: int, k: int | None) -> list[int]:
    """`k` indices of range(n) spread evenly, the first and the last included; all for None."""
    if k is None or n <= k:
        return list(range(n))
    return sorted({round(j * (n - 1) / (k - 1)) for j in range(k)})


def random_rows(rng: random.Random, n: int) -> list[Dice]:
    return [(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)) for _ in range(n)]


def game_positions(
    name: str, rows: list[Dice], rules: Ruleset, choose: Any, rings: int, applied: int | None
) -> list[dict[str, Any]]:
    """The position before each row of one game, played by `choose(actions, row)`."""
    out = []
    state = new_game(rings)
    for i, dice in enumerate(rows):
        last = i + 1 == len(rows)
        actions = legal_actions(state, dice, rules)
        out.append(position(f"{name} row {i + 1}", state, dice, last, rules, applied, actions))
        if state.over:
            break
        action = choose(actions, i)
        state = apply_row(state, rows, i, action, rules).state
    return out


def greedy(actions: list[Action], row: int) -> Action:
    """A quick strong player: the move to the most valuable field (a ring or a dead end last)."""
    return max(actions, key=lambda a: a.move.value if isinstance(a, Play) and a.move else -1)


def positions(
    total: int, seed: int, *, beam: bool = False, applied: int | None = None
) -> Iterator[list[dict[str, Any]]]:
    """Positions of random games and strong games (greedy, or with `beam` the beam search's
    best line) under each ruleset, round-robin, until there are `total` of them: game by
    game, the positions of each."""
    rng = random.Random(seed)
    count = 0
    game = 0
    while count < total:
        spec = RULESETS[game % len(RULESETS)]
        rules = resolve(spec)
        rows = random_rows(rng, rng.choice((12, 40, 60)))
        name = f"{spec} game {game}"
        if game % 6 == 5 and beam:
            # The beam search's best line on these dice (it declares no rings).
            line = {step.roll - 1: step.action for step in beam_game(rows, rules, width=8)}
            out = game_positions(name, rows, rules, lambda acts, i, line=line: line[i], 0, applied)
        elif game % 3 == 2:
            out = game_positions(name, rows, rules, greedy, 0, applied)
        else:
            rings = rng.randint(0, rules.max_rings)
            out = game_positions(
                name, rows, rules, lambda acts, i: rng.choice(acts), rings, applied
            )
        count += len(out)
        yield out
        game += 1


def run_node(data: str) -> dict[str, Any]:
    """Node's report on positions given as one JSON array."""
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(CHECK)], input=data, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize(
    ("total", "seed", "beam", "applied"),
    [
        # The plain step applies 4 of each position's actions; the slow one applies all.
        # One test, not parts: each Node process costs 0.15 s to start and warm up, and
        # this test is among the first a worker runs, so xdist balances the rest around it.
        pytest.param(PLAIN_POSITIONS, 38, False, 4, id="plain"),
        pytest.param(SLOW_POSITIONS, 380, True, None, id="slow", marks=pytest.mark.slow),
    ],
)
def test_rules_js_answers_as_the_engine(
    total: int, seed: int, beam: bool, applied: int | None
) -> None:
    # Each game's positions are written as JSON as soon as they are made, and only what the
    # checks below read is kept: 10,000 positions at once are 3 million small lists, which
    # the garbage collector scanned again and again (a third of the test's time).
    games: list[str] = []
    count = 0
    ends: set[str | None] = set()
    kinds: set[str] = set()
    exits: set[str] = set()
    for game in positions(total, seed, beam=beam, applied=applied):
        count += len(game)
        games.append(json.dumps(game, separators=(",", ":"))[1:-1])
        ends.update(a[0][6] for p in game for a in p["expect"]["after"])
        actions = [a.split(" ") for p in game for a in p["expect"]["actions"]]
        kinds.update(a[0] for a in actions)
        exits.update(a[3] for a in actions if a[0] == "play")
    result = run_node(f"[{','.join(games)}]")
    assert result["positions"] == count >= total
    assert result["mismatches"] == []
    # Every kind of answer was exercised: ends of games of each kind, exits, rings.
    assert ends == {"no-move", "rerolls", "dice-exhausted", "escaped", None}
    assert kinds == {"play", "reroll", "ring"}
    assert exits == {"-", "escape", "leave"}


def test_a_changed_answer_is_reported() -> None:
    """The check can fail: one position with a wrong engine answer is named."""
    data = next(positions(1, 7))[:1]
    data[0]["expect"]["crosses"].append([35, 6])
    result = run_node(json.dumps(data))
    assert [m["key"] for m in result["mismatches"]] == ["crosses"]
