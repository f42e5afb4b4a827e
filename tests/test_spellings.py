"""One value grammar for every record format: each spelling means the same in YAML, JSON,
annotated text and CSV; and one game written in every spelling family reads the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from record_helpers import summary

from validator.engine import Field
from validator.records import parse_record, text_record, yaml_record
from validator.records.record import RecordRound

ROOT = Path(__file__).resolve().parent.parent

BASE = {"dice": "3 4 6", "cross": "3/4", "move": "5/5", "path": "6/5 5/5"}
EXPECTED = {
    "roll": 7,
    "dice": (3, 4, 6),
    "cross": Field(3, 4),
    "move": Field(5, 5),
    "path": (Field(6, 5), Field(5, 5)),
}

FIELDS = [
    "3/4", "3,4", "3, 4", "(3,4)", "[3/4]", "(3 4)", "34", "3-4", "row 3 col 4", "r3c4",
    "Row 3, Column 4", "room 3/4", "Raum 3/4", "case 3/4", "Feld 3/4", "room: 3/4",
]  # fmt: skip
DICE = ["3 4 6", "3,4,6", "3;4;6", "3-4-6", "346", "3, 4, 6"]
NO_MOVE = ["none", "None", "no move", "game over", "kein Zug", "aucun déplacement"]
PATHS = ["6/5 5/5", "6/5,5/5", "6/5, 5/5", "6/5-5/5", "6/5 -> 5/5", "65 55", "(6,5) (5,5)"]

SPELLINGS: list[tuple[str, str, dict[str, Any]]] = [
    *(("cross", s, {"cross": Field(3, 4)}) for s in FIELDS),
    *(("move", s, {"move": Field(3, 4)}) for s in FIELDS),
    *(("dice", s, {"dice": (3, 4, 6)}) for s in DICE),
    *(("move", s, {"move": None}) for s in NO_MOVE),
    *(("path", s, {"path": (Field(6, 5), Field(5, 5))}) for s in PATHS),
    ("path", "none", {"path": ()}),
    ("move", "escape", {"move": None, "exit": "escape"}),
    ("move", "Leave", {"move": None, "exit": "leave"}),
]


def _yaml(values: dict[str, str]) -> str:
    items = ", ".join(f"{k}: {json.dumps(v)}" for k, v in values.items())
    return f"rounds:\n  - {{roll: 7, {items}}}\n"


def _json(values: dict[str, str]) -> str:
    return json.dumps({"rounds": [{"roll": 7, **values}]})


def _text(values: dict[str, str]) -> str:
    return f"7: {values['dice']}   x {values['cross']} -> {values['move']} path {values['path']}\n"


def _csv(values: dict[str, str]) -> str:
    def cell(v: str) -> str:
        return '"' + v.replace('"', '""') + '"'

    return "roll,dice,cross,move,path\n7," + ",".join(cell(values[k]) for k in BASE) + "\n"


WRITERS = {"yaml": _yaml, "json": _json, "text": _text, "csv": _csv}


@pytest.mark.parametrize("fmt", list(WRITERS))
@pytest.mark.parametrize(("key", "spelling", "expected"), SPELLINGS)
def test_a_spelling_means_the_same_in_every_format(
    fmt: str, key: str, spelling: str, expected: dict[str, Any]
) -> None:
    text = WRITERS[fmt]({**BASE, key: spelling})
    record = parse_record(text, fmt, source=f"r.{fmt}")
    want = {**EXPECTED, **expected}
    assert summary(record.rounds[0]) == {k: v for k, v in want.items() if v is not None}


@pytest.mark.parametrize("fmt", list(WRITERS))
@pytest.mark.parametrize(
    ("key", "spelling"),
    [("cross", "3/9"), ("cross", "banana"), ("dice", "3 4 9"), ("dice", "3 4"), ("path", "6/5 x")],
)
def test_a_bad_spelling_is_refused_in_every_format(fmt: str, key: str, spelling: str) -> None:
    from validator.errors import ReadError

    with pytest.raises(ReadError) as info:
        parse_record(WRITERS[fmt]({**BASE, key: spelling}), fmt, source=f"r.{fmt}")
    d = info.value.diagnostic
    assert d.code in ("E002", "E005") and d.line is not None and d.col is not None
    assert "Input should" not in d.message and "unable to interpret" not in d.message


# --- one game, every spelling family ------------------------------------------------------


def _families() -> dict[str, Any]:
    def english(r: RecordRound) -> str:
        if r.reroll:
            return "forced reroll"
        if r.move is None:
            return f"crossed {r.cross}, no move possible"
        steps = "1 step" if r.steps == 1 else f"{r.steps} steps"
        return f"crossed {r.cross}, moved to {r.move} in {steps}"

    def heidelberg(r: RecordRound) -> str:
        if r.reroll:
            return "rerolled"
        if r.move is None:
            return f"room {r.cross}, stuck"
        return f"room {r.cross}, room {r.move} ({r.steps} steps) ✓"

    def german(r: RecordRound) -> str:
        if r.reroll:
            return "neu gewürfelt"
        if r.move is None:
            return f"Raum {r.cross} gestrichen, kein Zug möglich"
        return f"Raum {r.cross} gestrichen, nach Raum {r.move} in {r.steps} Schritten"

    def french(r: RecordRound) -> str:
        if r.reroll:
            return "relance"
        if r.move is None:
            return f"case {r.cross} barrée, aucun déplacement (possible)"
        return f"case {r.cross} barrée, déplacement vers case {r.move} en {r.steps} pas"

    def arrows(r: RecordRound) -> str:
        if r.reroll:
            return "—"
        assert r.cross is not None
        if r.move is None:
            return f"× {r.cross.row}-{r.cross.col}  (no luck)"  # noqa: RUF001
        move = f"{r.move.row}{r.move.col} [{r.steps}] +{r.move.value}"
        return f"× {r.cross.row}-{r.cross.col} ⇒ {move}"  # noqa: RUF001

    def rows_and_columns(r: RecordRound) -> str:
        if r.reroll:
            return "pass"
        assert r.cross is not None
        text = f"row {r.cross.row} col {r.cross.col}"
        if r.move is None:
            return text + " game over"
        return text + f" to r{r.move.row}c{r.move.col}, Steps: {r.steps}  // note"

    def pipes(r: RecordRound) -> str:
        if r.reroll:
            return "reroll"
        if r.move is None:
            return f"X: {r.cross} | Move: none"
        path = "-".join(str(p) for p in r.path or ())
        return f"X: {r.cross} | Move: {r.move} | Steps: {r.steps} | Path: {path}"

    return {
        "english": (english, "Player: Alice Example", "Total: 340"),
        "heidelberg": (heidelberg, "Name: Alice Example", "Score: 340"),
        "german": (german, "Spieler: Alice Example", "Summe: 340"),
        "french": (french, "Joueur : Alice Example", "Total : 340"),
        "arrows": (arrows, "player: Alice Example", "Points: 340"),
        "rows and columns": (rows_and_columns, "player: Alice Example", "claimed_score: 340"),
        "pipes": (pipes, "Nom: Alice Example", "Punkte: 340"),
    }


FAMILIES = _families()


@pytest.mark.parametrize("family", list(FAMILIES))
def test_one_game_in_every_spelling_family(family: str, tmp_path: Path) -> None:
    from validator.check.file import Checker

    annotate, first, last = FAMILIES[family]
    game = yaml_record.parse((ROOT / "examples" / "alice.yaml").read_text(), "alice.yaml")
    by_roll = {r.roll: r for r in game.rounds}
    lines = [first, "dice_file: challenge.txt"]
    for line in (ROOT / "examples" / "challenge.txt").read_text().splitlines():
        roll = int(line.split(":")[0]) if line[:1].isdigit() else None
        if roll in by_roll:
            line += "   " + annotate(by_roll[roll])
        lines.append(line)
    lines.append(last)
    (tmp_path / "challenge.txt").write_bytes((ROOT / "examples" / "challenge.txt").read_bytes())
    (tmp_path / "alice.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    record = text_record.parse((tmp_path / "alice.txt").read_text(encoding="utf-8"), "alice.txt")
    assert (record.player, record.claimed_score) == ("Alice Example", 340)
    assert [(r.roll, r.cross, r.move) for r in record.rounds] == [
        (r.roll, r.cross, r.move) for r in game.rounds
    ]
    result = Checker().check(tmp_path / "alice.txt")
    assert (result.verdict.value, result.score) == ("valid", 340)


def test_the_heidelberg_example_is_alices_game() -> None:
    game = yaml_record.parse((ROOT / "examples" / "alice.yaml").read_text(), "alice.yaml")
    text = (ROOT / "examples" / "alice-heidelberg.txt").read_text(encoding="utf-8")
    assert "moved to 6/2 in 1 step\n" in text
    record = text_record.parse(text, "alice-heidelberg.txt")
    assert [(r.roll, r.dice, r.cross, r.move, r.reroll) for r in record.rounds] == [
        (r.roll, r.dice, r.cross, r.move, r.reroll) for r in game.rounds
    ]
    assert (record.player, record.claimed_score) == (game.player, game.claimed_score)
