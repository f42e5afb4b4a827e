"""The shapes of what road300 writes as JSON, each described once, as a typed dataclass.

The code builds these values; pydantic writes them (`to_json`) and reads them back
(`from_json`, `road300 draw`) by the very same classes that the JSON Schemas in schemas/
are generated from (`road300 schema`, validator/cli/schema.py), their attribute docstrings
becoming the schemas' descriptions. pydantic is imported only when one is written or read.

The record and batch shapes live beside their code: `records.model.RecordModel`, and
`contest.batch.Entry`, `Problem`, `Summary`, `Skipped` (a result of `validate` is an
`Entry` without its batch-only fields, plus `rounds`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from annotated_types import Ge

from validator.check.replay import RoundKind

if TYPE_CHECKING:
    from pydantic import TypeAdapter

_T = TypeVar("_T")

JSON_SHAPE: dict[str, Any] = {
    "extra": "forbid",
    "use_attribute_docstrings": True,
    "json_schema_serialization_defaults_required": True,
}
"""The pydantic config of every JSON shape (`__pydantic_config__`): no other keys, and
every key always written (fields with a default are required in the schema too)."""

READ_BACK: dict[str, Any] = JSON_SHAPE | {
    "extra": "ignore",
    "json_schema_extra": {"additionalProperties": False},
}
"""The config of a shape that is read back (a batch's results, for `road300 draw`): the
schema is as strict as `JSON_SHAPE`'s, the reader passes over keys it does not know (a
results file from a later version, or with keys added by hand)."""


def adapter(shape: type[_T]) -> TypeAdapter[_T]:
    """The pydantic adapter of a JSON shape, built once per process (a good part of a
    tenth of a second each)."""
    made: TypeAdapter[_T] | None = _ADAPTERS.get(shape)
    if made is None:
        from pydantic import TypeAdapter

        made = _ADAPTERS[shape] = TypeAdapter(shape)
    return made


_ADAPTERS: dict[type, Any] = {}


def to_json(value: object, *, exclude_none: bool = False) -> Any:
    """`value`, a JSON shape, as `json.dumps` writes it: its fields in their order."""
    return adapter(type(value)).dump_python(value, mode="json", exclude_none=exclude_none)


def from_json(shape: type[_T], text: str | bytes) -> _T:
    """A JSON shape read back from JSON `text`, strictly (a number where a number belongs,
    never text or true); raises pydantic's ValidationError."""
    return adapter(shape).validate_json(text, strict=True)


Count = Annotated[int, Ge(0)]
"""A count or a score: never negative (the schemas say `minimum: 0`)."""
Ordinal = Annotated[int, Ge(1)]
"""A 1-based number: a dice row, a record round, a rank."""


@dataclass(frozen=True, slots=True)
class RoundOut:
    """One replayed dice row, as `validate --format json --rounds` lists it."""

    __pydantic_config__ = JSON_SHAPE

    roll: Ordinal
    """1-based dice row."""
    dice: list[int]
    kind: RoundKind
    round: int | None
    """The record entry, or null for a row the replay played by itself (a forced reroll)."""
    line: int | None
    cross: str | None
    steps: int | None
    path: list[str]
    move: str | None
    score: int


@dataclass(frozen=True, slots=True)
class AnalysisRoundOut:
    """One round of the record: what the recorded choice cost against the best play."""

    __pydantic_config__ = JSON_SHAPE

    round: Ordinal
    """1-based record round."""
    roll: Ordinal
    """1-based dice row."""
    best_before: int
    """Best final total reachable before this round (at least best_after)."""
    best_after: int
    """Best final total reachable after the recorded choice."""
    cost: Count
    """best_before - best_after; 0 for a best choice."""
    proven: bool
    """Both values proven by the search (else they are lower bounds)."""
    upper_before: int
    """Sound: no game from before this round scores more (at least best_before)."""
    upper_after: int
    """Sound: no game after the recorded choice scores more (at least best_after)."""
    cost_at_least: Count
    """The loss proven: cost when proven, else best_before - upper_after (or 0)."""
    mark: Literal["inaccuracy", "mistake", "blunder"] | None
    """By the loss proven (cost when proven, else cost_at_least): 5-15 inaccuracy, 20-35
    mistake, 40 or more blunder."""
    better: dict[str, Any] | None
    """A best choice when cost > 0: cross, move (a field, "escape" or "leave", null for no
    move) and path; or {"ring": true} or {"reroll": true}."""


@dataclass(frozen=True, slots=True)
class AnalysisOut:
    """road300 analyze --format json: what each recorded decision cost against the best
    play."""

    __pydantic_config__ = JSON_SHAPE

    record: str
    """The record file analysed."""
    rounds: list[AnalysisRoundOut]
    played_score: int
    best_score: int
    """Best total reachable from the record's first position."""
    best_proven: bool
    points_lost: Count
    """best_score minus the best still reachable after the record's last round."""
    seconds: float
    clock_stopped: Count
    """How many of the searches (one per round, plus one) the time limit stopped: their
    values depend on the machine's speed (with --nodes and no --time-limit, none do)."""


@dataclass(frozen=True, slots=True)
class SolveStatsOut:
    """With --stats: a strong player's and random play's scores on the same dice."""

    __pydantic_config__ = JSON_SHAPE

    beam_width: int
    beam_score: int
    games: int
    random_median: float
    random_p90: int
    """Nearest-rank 90th percentile: 90 % of the random games score this or less."""


@dataclass(frozen=True, slots=True)
class SolveOut:
    """road300 solve --format json: the best game found on a dice file, with a sound upper
    bound."""

    # `stats` is left out without --stats: not every key is always written.
    __pydantic_config__ = JSON_SHAPE | {"json_schema_serialization_defaults_required": False}

    best_score: Count
    """The final score of the best game found (the --from rounds included)."""
    proven: bool
    """true when best_score equals upper_bound: no game scores more."""
    upper_bound: Count
    """No continuation scores more than this (sound, also when not proven)."""
    record: dict[str, Any]
    """The best game as a canonical record (schemas/record.schema.json): the --from rounds,
    then the best continuation, with roll, dice, steps and path on every round."""
    nodes: Count
    """Positions searched."""
    seconds: Annotated[float, Ge(0)]
    """Search time."""
    stopped: Literal["time", "nodes", "cancel"] | None
    """What stopped the search before it finished: "time" (the time limit: the answer
    depends on the machine's speed), "nodes" (the --nodes budget: the same on every
    machine), "cancel" (Ctrl-C); null when it finished, i.e. proved best_score."""
    repeat_nodes: Count | None
    """When "time" or "cancel" stopped it: the --nodes budget that gives this very answer
    (game and bound) on any machine, without a time limit; else null."""
    memory: Count
    """The compiled search's table at its largest, in bytes (--memory, or its default:
    512 MiB, or a quarter of the machine's memory if less); 0 when the compiled core did
    not search (pure Python, or nothing to search); for a search split among threads
    (jobs above 1), the memory they shared, in either core."""
    table_full: bool
    """true when the compiled table filled up (or, for a split search, was full or too
    big for its threads' share at the split): the same --nodes then repeats the answer
    only with the same --memory (a search that never fills it does not depend on it)."""
    jobs: Annotated[int, Ge(1)]
    """The threads that searched (--jobs; 1 when the search never split: it splits the
    root's choices among them once it passes 1,048,576 positions). The same --nodes
    repeats the answer with the same --jobs."""
    stats: SolveStatsOut | None = None
    """With --stats (else left out)."""
