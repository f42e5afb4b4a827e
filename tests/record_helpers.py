"""Shared by the record-format tests: comparing records, and random records to round-trip."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from validator.errors import ReadError
from validator.records.model import build_record
from validator.records.record import Record, RecordRound


def summary(r: RecordRound) -> dict[str, Any]:
    """The values a round carries, without its place in the file."""
    out: dict[str, Any] = {
        "roll": r.roll,
        "dice": r.dice,
        "cross": r.cross,
        "move": r.move,
        "exit": r.exit,
        "steps": r.steps,
        "path": r.path,
        "reroll": r.reroll,
        "ring": r.ring,
    }
    return {k: v for k, v in out.items() if v not in (None, False)}


HEADER = ("player", "dice_file", "dice_sha256", "rules", "claimed_score", "rings")


def assert_located(parse: Callable[[str, str], object], text: str, name: str) -> None:
    """`text` is read, or refused with a ReadError that names its line and column."""
    try:
        parse(text, name)
    except ReadError as exc:
        assert exc.diagnostic.line is not None and exc.diagnostic.line >= 1
        assert exc.diagnostic.col is not None and exc.diagnostic.col >= 1


def assert_same(a: Record, b: Record) -> None:
    assert [summary(r) for r in a.rounds] == [summary(r) for r in b.rounds]
    assert {k: getattr(a, k) for k in HEADER} == {k: getattr(b, k) for k in HEADER}


cells = st.builds(lambda r, c: f"{r}/{c}", st.integers(1, 6), st.integers(1, 6))
dice = st.lists(st.integers(1, 6), min_size=3, max_size=3)


@st.composite
def records(draw: st.DrawFn) -> Record:
    header: dict[str, Any] = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "player": st.text(max_size=40),
                "dice_file": st.text(min_size=1, max_size=20),
                "dice_sha256": st.text("0123456789abcdef", min_size=64, max_size=64),
                "rules": st.sampled_from(["standard", "bga", "literal+escape=50"]),
                "claimed_score": st.integers(0, 100_000),
                "rings": st.integers(0, 3),
            },
        )
    )
    rounds: list[dict[str, Any]] = []
    roll = 0
    for _ in range(draw(st.integers(0, 8))):
        roll += draw(st.integers(1, 3))
        r: dict[str, Any] = {"roll": roll, "dice": draw(dice)}
        kind = draw(st.sampled_from(["play", "play", "reroll", "ring"]))
        if kind != "play":
            r[kind] = True
        else:
            r["cross"] = draw(cells)
            move = draw(st.one_of(st.none(), cells, st.sampled_from(["escape", "leave"])))
            if move is not None:
                r["move"] = move
            if draw(st.booleans()):
                r["steps"] = draw(st.integers(1, 6))
            if draw(st.booleans()):
                r["path"] = draw(st.lists(cells, max_size=6))
        rounds.append(r)
    if not rounds:
        header["player"] = "someone"  # with nothing written, the file would hold no record
    return build_record({**header, "rounds": rounds}, {}, "gen", "yaml")
