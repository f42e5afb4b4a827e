"""The canonical record structure as pydantic models, shared by every record reader.

Each reader turns its syntax into plain data (dicts, lists, strings, numbers) in the
canonical YAML/JSON shape, plus a map from data paths to source locations; `build_record`
validates that data once, here, and turns the first problem into a diagnostic that
names the file, line and column.
"""

from __future__ import annotations

import difflib
import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic import Field as Constraint

from validator.engine import Field, parse_field
from validator.errors import Diagnostic, ReadError
from validator.record import Location, Record, RecordRound

Path = tuple[str | int, ...]
Locations = dict[Path, Location]


def _cell(value: object) -> object:
    """A field written as [r, c] or "r/c" becomes a Field; other shapes fail validation."""
    if isinstance(value, Field):
        return value
    if isinstance(value, str):
        return parse_field(value)
    if isinstance(value, list | tuple):
        if len(value) != 2 or not all(type(v) is int for v in value):
            raise ValueError(
                f'expected a field as [row, column] or "row/column", not {_repr(value)}'
            )
        row, col = value
        if not (1 <= row <= 6 and 1 <= col <= 6):
            raise ValueError(f"field {row}/{col} is off the board (rows and columns are 1-6)")
        return Field(row, col)
    raise ValueError(f'expected a field as [row, column] or "row/column", not {_repr(value)}')


def _move(value: object) -> object:
    if value in ("escape", "leave"):
        return value
    return _cell(value)


_CELL_SCHEMA: dict[str, Any] = {
    "title": "Field",
    "description": 'a field as [row, column] or "row/column", rows and columns 1-6',
    "anyOf": [
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 6},
            "minItems": 2,
            "maxItems": 2,
        },
        {"type": "string", "pattern": r"^\s*[1-6]\s*[/,]\s*[1-6]\s*$"},
    ],
}
CellValue = Annotated[Field, BeforeValidator(_cell), WithJsonSchema(_CELL_SCHEMA)]
_MOVE_SCHEMA: dict[str, Any] = {
    "title": "Move",
    "anyOf": [
        *_CELL_SCHEMA["anyOf"],
        {"type": "string", "enum": ["escape", "leave"]},
    ],
}
MoveValue = Annotated[
    Field | Literal["escape", "leave"], BeforeValidator(_move), WithJsonSchema(_MOVE_SCHEMA)
]
Die = Annotated[int, Constraint(ge=1, le=6)]
RowNumber = Annotated[int, Constraint(ge=1, le=1_000_000)]


class RoundModel(BaseModel):
    """One round of a record (one dice row)."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    roll: RowNumber | None = Constraint(
        default=None, description="1-based dice row; default: the next unused row"
    )
    dice: tuple[Die, Die, Die] | None = Constraint(
        default=None, description="the row's three dice, in any order; checked when given"
    )
    cross: CellValue | None = Constraint(
        default=None, description='the field crossed out, as [row, column] or "row/column"'
    )
    move: MoveValue | None = Constraint(
        default=None,
        description='the field moved to; "escape" or "leave" to leave through a corner '
        "(expansions); absent on a last round that cannot move",
    )
    steps: Die | None = Constraint(default=None, description="the movement die; checked when given")
    path: list[CellValue] | None = Constraint(
        default=None,
        max_length=6,
        description="the fields entered, in order, ending at move (first move: corner first)",
    )
    reroll: bool = Constraint(default=False, description="a forced reroll (no cross-out possible)")
    ring: bool = Constraint(default=False, description="a magic ring spent to reroll this row")

    @model_validator(mode="after")
    def _one_kind(self) -> RoundModel:
        played = self.cross is not None or self.move is not None or self.path is not None
        if self.reroll and self.ring:
            raise ValueError("a round is either a reroll or a ring, not both")
        if (self.reroll or self.ring) and (played or self.steps is not None):
            kind = "reroll" if self.reroll else "ring"
            raise ValueError(f"a {kind} round has no cross, move, steps or path")
        if not (self.reroll or self.ring) and self.cross is None:
            raise ValueError("a round needs a cross (or reroll: true)")
        return self


class RecordModel(BaseModel):
    """A Road to 300 game record (canonical YAML/JSON form)."""

    model_config = ConfigDict(extra="forbid", frozen=True, title="Road to 300 record")

    player: str | None = Constraint(default=None, max_length=200)
    dice_file: str | None = Constraint(
        default=None, description="the dice file, relative to the record; --dice overrides it"
    )
    dice_sha256: Annotated[str, Constraint(pattern=r"^[0-9a-fA-F]{64}$")] | None = None
    coordinates: Literal["row-col", "col-row"] = "row-col"
    rules: str | None = Constraint(default=None, description="ruleset name; --rules overrides it")
    claimed_score: Annotated[int, Constraint(ge=0, le=100_000)] | None = None
    rings: Annotated[int, Constraint(ge=0, le=3)] = Constraint(
        default=0, description="magic rings declared at the start (The magic rings!)"
    )
    rounds: list[RoundModel] = Constraint(max_length=100_000)


HEADER_KEYS = tuple(k for k in RecordModel.model_fields if k != "rounds")
ROUND_KEYS = tuple(RoundModel.model_fields)


def build_record(data: Any, locations: Locations, source: str, fmt: str) -> Record:
    """Validate canonical record data and build the Record; raises ReadError."""
    if data is None or data == {} or data == []:
        raise ReadError(Diagnostic("E007", "the file holds no record", source, 1, 1))
    if not isinstance(data, dict):
        line, col = locations.get((), (1, 1))
        raise ReadError(
            Diagnostic(
                "E005",
                f"a record is a mapping with keys like player and rounds, not a {_type_name(data)}",
                source,
                line,
                col,
            )
        )
    try:
        model = RecordModel.model_validate(data)
    except ValidationError as exc:
        raise ReadError(_diagnostic(exc, locations, source)) from None
    swap = model.coordinates == "col-row"
    rounds = tuple(_round(i, r, locations, swap) for i, r in enumerate(model.rounds, start=1))
    header = tuple((key, locations[(key,)]) for key in HEADER_KEYS if (key,) in locations)
    return Record(
        rounds=rounds,
        source=source,
        format=fmt,
        player=model.player,
        dice_file=model.dice_file,
        dice_sha256=model.dice_sha256.lower() if model.dice_sha256 else None,
        coordinates=model.coordinates,
        rules=model.rules,
        claimed_score=model.claimed_score,
        rings=model.rings,
        locations=header,
    )


def _round(number: int, r: RoundModel, locations: Locations, swap: bool) -> RecordRound:
    def f(field: Field | None) -> Field | None:
        return field.transposed() if swap and field is not None else field

    line, col = locations.get(("rounds", number - 1), (0, 0))
    keys = tuple(
        (key, locations[("rounds", number - 1, key)])
        for key in ROUND_KEYS
        if ("rounds", number - 1, key) in locations
    )
    move = r.move if isinstance(r.move, Field) else None
    exit_kind = r.move if isinstance(r.move, str) else None
    return RecordRound(
        number=number,
        line=line,
        col=col,
        roll=r.roll,
        dice=r.dice,
        cross=f(r.cross),
        move=f(move),
        exit=exit_kind,
        steps=r.steps,
        path=tuple(p.transposed() for p in r.path)
        if swap and r.path
        else (tuple(r.path) if r.path is not None else None),
        reroll=r.reroll,
        ring=r.ring,
        locations=keys,
    )


def _diagnostic(exc: ValidationError, locations: Locations, source: str) -> Diagnostic:
    errors = exc.errors(include_url=False)
    # An unknown key is often the cause of a missing one (`round:` for `rounds:`): say it first.
    err = min(errors, key=lambda e: e["type"] != "extra_forbidden")
    loc: Path = tuple(err["loc"])
    # pydantic adds the union member or validator name to some paths; keep data keys only.
    data_path: Path = tuple(p for p in loc if isinstance(p, int) or p in _ALL_KEYS)
    kind = err["type"]
    if kind == "extra_forbidden":
        data_path = (*data_path, loc[-1])
    line, col = _locate(data_path, locations)
    where = _path_text(data_path)
    round_no = data_path[1] + 1 if len(data_path) > 1 and isinstance(data_path[1], int) else None
    if kind == "extra_forbidden":
        key = loc[-1]
        known = ROUND_KEYS if round_no is not None else (*HEADER_KEYS, "rounds")
        close = difflib.get_close_matches(str(key), known, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return Diagnostic(
            "E003",
            f"unknown key {key!r}" + (f" in round {round_no}" if round_no else ""),
            source,
            line,
            col,
            round=round_no,
            hint=hint + "known keys: " + ", ".join(known),
        )
    if kind == "missing":
        where = _path_text(data_path[:-1])
        return Diagnostic(
            "E004",
            f"missing key {loc[-1]!r}" + (f" in {where}" if where else ""),
            source,
            line,
            col,
            round=round_no,
        )
    msg = str(err["msg"])
    msg = msg.removeprefix("Value error, ")
    got = err.get("input")
    shown = "" if isinstance(got, dict | list) else f" (got {_short(got)})"
    return Diagnostic(
        "E005", f"{where}: {msg}{shown}" if where else msg, source, line, col, round=round_no
    )


_ALL_KEYS = {*HEADER_KEYS, *ROUND_KEYS, "rounds"}


def _locate(path: Path, locations: Locations) -> Location:
    for end in range(len(path), -1, -1):
        if path[:end] in locations:
            return locations[path[:end]]
    return (1, 1)


def _path_text(path: Path) -> str:
    """("rounds", 2, "path", 0) -> "round 3, path[0]"."""
    parts: list[str] = []
    for prev, p in zip((None, *path), path, strict=False):
        if isinstance(p, int):
            if prev == "rounds":
                parts[-1] = f"round {p + 1}"
            elif parts:
                parts[-1] += f"[{p}]"
        else:
            parts.append(p)
    return ", ".join(parts)


def _repr(value: object) -> str:
    """repr(), but joiners and emoji variation selectors stay characters: Python escapes
    them (a family emoji would read as 👩\\u200d👩), though they are text, not controls."""
    return re.sub(r"(?<!\\)\\u(200[cd]|fe0f)", lambda m: chr(int(m.group(1), 16)), repr(value))


def _short(value: object) -> str:
    text = _repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _type_name(value: object) -> str:
    return {list: "list", str: "text", int: "number", float: "number", bool: "boolean"}.get(
        type(value), type(value).__name__
    )
