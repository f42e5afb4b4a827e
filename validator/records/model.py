"""The canonical record structure as pydantic models, shared by every record reader.

Each reader turns its syntax into plain data (dicts, lists, strings, numbers) in the
canonical YAML/JSON shape, plus a map from data paths to source locations; `build_record`
validates that data once, here, and turns every problem into a diagnostic that
names the file, line and column.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    InstanceOf,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic import Field as Constraint

from validator.engine import Field, roll_text
from validator.engine.phrase import N_, Items, Phrase, Text, phrase
from validator.errors import Diagnostic, ReadError
from validator.records.lexing import (
    EXITS,
    LexError,
    Refused,
    either,
    is_none,
    lex_dice,
    lex_field,
    lex_flag,
    lex_path,
    normal,
    short,
)
from validator.records.record import Location, Record, RecordRound

Path = tuple[str | int, ...]
_T = TypeVar("_T")
Locations = dict[Path, Location]


_FIELD_HELP = either("[3, 4], 3/4", "34")


def _not_a_field(value: object) -> Phrase:
    return phrase(
        N_("expected a field like {examples}, not {found}"),
        examples=_FIELD_HELP,
        found=short(value),
    )


_FIELD_AT: dict[tuple[int, int], Field] = {
    (row, col): Field(row, col) for row in range(1, 7) for col in range(1, 7)
}


def _lexed(lex: Callable[[str], _T], text: str) -> _T:
    """`lex(text)`, its LexError refused in the reader's words."""
    try:
        return lex(text)
    except LexError as exc:
        raise Refused(exc.said) from None


def _cell(value: object) -> object:
    """A field in any of the shared spellings (`[3, 4]`, `"3/4"`, `34`, `"row 3 col 4"`)."""
    if type(value) is list and len(value) == 2:  # the common case first: a batch's hot path
        row, col = value
        if type(row) is int and type(col) is int:  # before hashing: a list is unhashable
            found = _FIELD_AT.get((row, col))
            if found is not None:
                return found
    if isinstance(value, Field):
        return value
    if isinstance(value, str):
        row, col = _lexed(lex_field, value)
    elif type(value) is int:
        if not 11 <= value <= 99:
            raise Refused(_not_a_field(value))
        row, col = divmod(value, 10)
    elif isinstance(value, list | tuple) and len(value) == 2 and all(type(v) is int for v in value):
        row, col = value
    else:
        raise Refused(_not_a_field(value))
    if not (1 <= row <= 6 and 1 <= col <= 6):
        message = phrase(
            N_("field {field} is off the board (rows and columns are 1-6)"),
            field=f"{row}/{col}",
        )
        raise Refused(message)
    return _FIELD_AT[(row, col)]


def _move(value: object) -> object:
    if value is None or (isinstance(value, str) and is_none(value)):
        return None
    if isinstance(value, str) and normal(value) in EXITS:
        return normal(value)
    return _cell(value)


def _dice(value: object) -> object:
    """Three dice as a list, `"5 5 3"`, `"5-5-3"` or `553`."""
    if value is None:
        return None
    if isinstance(value, str):
        dice = _lexed(lex_dice, value)
    elif type(value) is int and 111 <= value <= 999:
        dice = [int(d) for d in str(value)]
    elif isinstance(value, list | tuple) and len(value) == 3 and all(type(v) is int for v in value):
        dice = list(value)
    else:
        message = phrase(
            N_("expected three dice like {examples}, not {found}"),
            examples=either("[5, 5, 3]", "5 5 3"),
            found=short(value),
        )
        raise Refused(message)
    if not all(1 <= d <= 6 for d in dice):
        raise Refused(phrase(N_("dice are 1-6, not {dice}"), dice=roll_text(dice)))
    return tuple(dice)


def _path(value: object) -> object:
    """The fields entered, as a list or as text (`6/5 5/5`, `6/5-5/5`); `none` is empty."""
    return _lexed(lex_path, value) if isinstance(value, str) else value


def _flag(value: object) -> object:
    if type(value) is bool or value is None:
        return bool(value)
    if isinstance(value, str):
        return _lexed(lex_flag, value)
    if type(value) is int and value in (0, 1):
        return bool(value)
    raise Refused(phrase(N_("expected true or false, not {found}"), found=short(value)))


def _die_number(what: str) -> Any:
    def check(value: object) -> object:
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if type(value) is not int:
            raise Refused(
                phrase(N_("{what} is a number 1-6, not {found}"), what=what, found=short(value))
            )
        if not 1 <= value <= 6:
            raise Refused(phrase(N_("{what} is 1-6, not {found}"), what=what, found=short(value)))
        return value

    return check


_CELL_SCHEMA: dict[str, Any] = {
    "title": "Field",
    "description": 'a field as [row, column], "row/column" or rc, rows and columns 1-6',
    "anyOf": [
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 6},
            "minItems": 2,
            "maxItems": 2,
        },
        {"type": "string"},
        {"type": "integer", "minimum": 11, "maximum": 66},
    ],
}
CellValue = Annotated[InstanceOf[Field], BeforeValidator(_cell), WithJsonSchema(_CELL_SCHEMA)]
_MOVE_SCHEMA: dict[str, Any] = {
    "title": "Move",
    "anyOf": [
        *_CELL_SCHEMA["anyOf"],
        {"type": "null"},
    ],
    "description": 'a field, "escape", "leave", or "none" on a last round that cannot move',
}
MoveValue = Annotated[
    InstanceOf[Field] | Literal["escape", "leave"] | None,
    BeforeValidator(_move),
    WithJsonSchema(_MOVE_SCHEMA),
]
_DICE_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 6},
            "minItems": 3,
            "maxItems": 3,
        },
        {"type": "string"},
        {"type": "integer", "minimum": 111, "maximum": 666},
        {"type": "null"},
    ]
}
_FLAG_SCHEMA: dict[str, Any] = {"anyOf": [{"type": "boolean"}, {"type": "string"}]}
_PATH_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "array", "items": _CELL_SCHEMA, "maxItems": 6},
        {"type": "string", "description": 'fields separated by blanks, commas or dashes; "none"'},
        {"type": "null"},
    ]
}


def _no_bool(value: object) -> object:
    """A number where a number belongs: true and false are no numbers (pydantic would
    read them as 1 and 0)."""
    if type(value) is bool:
        raise Refused(phrase(N_("must be a whole number, not {found}"), found=str(value).lower()))
    return value


Die = Annotated[int, Constraint(ge=1, le=6)]
RowNumber = Annotated[int, Constraint(ge=1, le=1_000_000), BeforeValidator(_no_bool)]


class RoundModel(BaseModel):
    """One round of a record (one dice row)."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    roll: RowNumber | None = Constraint(
        default=None, description="1-based dice row; default: the next unused row"
    )
    dice: Annotated[
        tuple[Die, Die, Die] | None, BeforeValidator(_dice), WithJsonSchema(_DICE_SCHEMA)
    ] = Constraint(
        default=None, description="the row's three dice, in any order; checked when given"
    )
    cross: CellValue | None = Constraint(
        default=None, description='the field crossed out, as [row, column] or "row/column"'
    )
    move: MoveValue = Constraint(
        default=None,
        description='the field moved to; "escape" or "leave" to leave through a corner '
        "(expansions); absent on a last round that cannot move",
    )
    steps: Annotated[Die | None, BeforeValidator(_die_number("steps"))] = Constraint(
        default=None, description="the movement die; checked when given"
    )
    path: Annotated[
        list[CellValue] | None, BeforeValidator(_path), WithJsonSchema(_PATH_SCHEMA)
    ] = Constraint(
        default=None,
        max_length=6,
        description="the fields entered, in order, ending at move (first move: corner first)",
    )
    reroll: Annotated[bool, BeforeValidator(_flag), WithJsonSchema(_FLAG_SCHEMA)] = Constraint(
        default=False, description="a forced reroll (no cross-out possible)"
    )
    ring: Annotated[bool, BeforeValidator(_flag), WithJsonSchema(_FLAG_SCHEMA)] = Constraint(
        default=False, description="a magic ring spent to reroll this row"
    )

    @model_validator(mode="after")
    def _one_kind(self) -> RoundModel:
        played = self.cross is not None or self.move is not None or self.path is not None
        if self.reroll and self.ring:
            raise Refused(phrase(N_("a round is either a reroll or a ring, not both")))
        if (self.reroll or self.ring) and (played or self.steps is not None):
            kind = "reroll" if self.reroll else "ring"
            raise Refused(phrase(N_("a {kind} round has no cross, move, steps or path"), kind=kind))
        if not (self.reroll or self.ring) and self.cross is None:
            raise Refused(phrase(N_("a round needs a cross (or reroll: true)")))
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
    claimed_score: (
        Annotated[int, Constraint(ge=0, le=100_000), BeforeValidator(_no_bool)] | None
    ) = None
    rings: Annotated[int, Constraint(ge=0, le=3), BeforeValidator(_no_bool)] = Constraint(
        default=0, description="magic rings declared at the start (The magic rings!)"
    )
    rounds: list[RoundModel] = Constraint(max_length=100_000)


HEADER_KEYS = tuple(k for k in RecordModel.model_fields if k != "rounds")
ROUND_KEYS = tuple(RoundModel.model_fields)
_RECORD_KEYS = frozenset(RecordModel.model_fields)
_ROUND_KEY_SET = frozenset(ROUND_KEYS)


MAX_DIAGNOSTICS = 50
"""A reader reports at most this many problems of one file, then how many more. The text
and CSV readers stop reading at the next problem after these, so for them `omitted` is
at least 1 when there were more, not a full count (reading on would cost the time the
size limit is there to bound)."""


def raise_all(diagnostics: list[Diagnostic], uncounted: int = 0) -> None:
    """Raise one ReadError carrying the diagnostics (if any) in source order, at most
    MAX_DIAGNOSTICS of them; `omitted` counts the rest (plus `uncounted` more found but
    not turned into diagnostics). A missing key comes last: an unknown key often
    explains it."""
    if not diagnostics:
        return
    ordered = sorted(diagnostics, key=lambda d: (d.code == "E004", d.line or 0, d.col or 0))
    kept = ordered[:MAX_DIAGNOSTICS]
    raise ReadError(*kept, omitted=len(ordered) - len(kept) + uncounted)


def build_record(
    data: Any,
    locations: Locations,
    source: str,
    fmt: str,
    problems: list[Diagnostic] | None = None,
    numbers: list[int] | None = None,
) -> Record:
    """Validate canonical record data and build the Record; raises ReadError with every
    problem found, after the reader's own `problems` (syntax errors it went past).
    `numbers` gives each round's place in the record when the reader went past rounds
    it could not read, so that messages count the rounds as the file does."""
    problems = list(problems or ())
    if not problems and (data is None or data == {} or data == []):
        raise ReadError(
            Diagnostic.said("E007", phrase(N_("the file holds no record")), source, 1, 1)
        )
    if not isinstance(data, dict):
        line, col = locations.get((), (1, 1))
        message = phrase(
            N_("a record is a mapping with keys like player and rounds, not a {kind}"),
            kind=_type_name(data),
        )
        raise ReadError(Diagnostic.said("E005", message, source, line, col))
    data, pruned = _pruned(data)
    try:
        model = RecordModel.model_validate(data)
    except ValidationError as exc:
        found = problems + diagnostics(exc, locations, source, fmt, numbers)
        uncounted = exc.error_count() - min(exc.error_count(), 2 * MAX_DIAGNOSTICS) + pruned
        raise_all(found, uncounted)
        raise AssertionError("unreachable") from None  # pragma: no cover
    raise_all(problems)
    swap = model.coordinates == "col-row"
    rounds = tuple(_round(i, r, locations, swap) for i, r in enumerate(model.rounds, start=1))
    header = tuple((key, locations[(key,)]) for key in HEADER_KEYS if (key,) in locations)
    # A text record's unplayed dice lines, `row N` (Record.row_line).
    rows = tuple((f"row {path[1]}", loc) for path, loc in locations.items() if path[:1] == ("row",))
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
        locations=header + rows,
    )


def _pruned(data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The record without the unknown keys past the first MAX_DIAGNOSTICS of the record and
    of each round, and how many were left out: they are only counted, and validating each
    (an error object apiece) would cost time and memory the size cap is there to bound."""
    data, pruned = _known_first(data, _RECORD_KEYS)
    rounds = data.get("rounds")
    if isinstance(rounds, list) and any(
        isinstance(r, dict) and len(r) > MAX_DIAGNOSTICS for r in rounds
    ):
        kept = []
        for r in rounds:
            if isinstance(r, dict):
                r, more = _known_first(r, _ROUND_KEY_SET)
                pruned += more
            kept.append(r)
        data = {**data, "rounds": kept}
    return data, pruned


def _known_first(data: dict[str, Any], known: frozenset[str]) -> tuple[dict[str, Any], int]:
    if len(data) <= MAX_DIAGNOSTICS:
        return data, 0
    unknown = [k for k in data if k not in known]
    if len(unknown) <= MAX_DIAGNOSTICS:
        return data, 0
    dropped = set(unknown[MAX_DIAGNOSTICS:])
    return {k: v for k, v in data.items() if k not in dropped}, len(dropped)


def _round(number: int, r: RoundModel, locations: Locations, swap: bool) -> RecordRound:
    def f(field: Field | None) -> Field | None:
        return field.transposed() if swap and field is not None else field

    index = number - 1
    line, col = locations.get(("rounds", index), (0, 0))
    keys = tuple((key, loc) for key in ROUND_KEYS if (loc := locations.get(("rounds", index, key))))
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


def diagnostics(
    exc: ValidationError,
    locations: Locations,
    source: str,
    fmt: str = "yaml",
    numbers: list[int] | None = None,
) -> list[Diagnostic]:
    """Every problem of a validation error, each located at its value; an unknown key
    comes before the missing key it often explains (`round:` for `rounds:`)."""
    # Enough to fill a report in source order; the rest are only counted.
    errors = exc.errors(include_url=False)[: 2 * MAX_DIAGNOSTICS]
    found = [_diagnostic(err, locations, source, fmt, numbers) for err in errors]
    unknown = [d for d in found if d.code == "E003"]
    return unknown + [d for d in found if d.code != "E003"]


def _diagnostic(
    err: Any, locations: Locations, source: str, fmt: str, numbers: list[int] | None
) -> Diagnostic:
    loc: Path = tuple(err["loc"])
    # pydantic adds the union member or validator name to some paths; keep data keys only.
    data_path: Path = tuple(p for p in loc if isinstance(p, int) or p in _ALL_KEYS)
    kind = err["type"]
    if kind == "extra_forbidden":
        data_path = (*data_path, loc[-1])
    line, col = _locate(data_path, locations)
    if numbers and len(data_path) > 1 and isinstance(data_path[1], int):
        data_path = (data_path[0], numbers[data_path[1]] - 1, *data_path[2:])
    where = _path_text(data_path)
    round_no = data_path[1] + 1 if len(data_path) > 1 and isinstance(data_path[1], int) else None
    if kind == "extra_forbidden":
        key = str(loc[-1])
        known = ROUND_KEYS if round_no is not None else (*HEADER_KEYS, "rounds")
        close = difflib.get_close_matches(key, known, n=1)
        keys = ", ".join(known)
        hint = (
            phrase(N_("write {key}; known keys: {keys}"), key=key_text(close[0], fmt), keys=keys)
            if close
            else phrase(N_("known keys: {keys}"), keys=keys)
        )
        message: Text = (
            phrase(N_("unknown key {key} in round {round}"), key=short(key), round=round_no)
            if round_no
            else phrase(N_("unknown key {key}"), key=short(key))
        )
        return Diagnostic.said("E003", message, source, line, col, round=round_no, hint=hint)
    if kind == "missing":
        within = _path_text(data_path[:-1])
        message = (
            phrase(N_("missing key {key} in {where}"), key=short(loc[-1]), where=within)
            if within
            else phrase(N_("missing key {key}"), key=short(loc[-1]))
        )
        return Diagnostic.said("E004", message, source, line, col, round=round_no)
    msg = _plain_message(err)
    got = err.get("input")
    plain = isinstance(got, dict | list | bool) or short(got) in str(msg)
    message = msg
    if not plain:
        message = phrase(N_("{message} (got {got})"), message=msg, got=short(got))
    if where:
        message = phrase(N_("{where}: {message}"), where=where, message=message)
    return Diagnostic.said("E005", message, source, line, col, round=round_no)


_PLAIN: dict[str, tuple[str, str, str]] = {
    "greater_than_equal": (N_("must be at least {bound}"), "bound", "ge"),
    "greater_than": (N_("must be more than {bound}"), "bound", "gt"),
    "less_than_equal": (N_("must be at most {bound}"), "bound", "le"),
    "less_than": (N_("must be less than {bound}"), "bound", "lt"),
    "string_too_long": (N_("is longer than {n} characters"), "n", "max_length"),
    "too_long": (N_("has more than {n} items"), "n", "max_length"),
    "too_short": (N_("has fewer than {n} items"), "n", "min_length"),
    "int_type": (N_("must be a whole number"), "", ""),
    "int_parsing": (N_("must be a whole number"), "", ""),
    "int_from_float": (N_("must be a whole number"), "", ""),
    "string_type": (N_("must be text"), "", ""),
    "bool_type": (N_("must be true or false"), "", ""),
    "bool_parsing": (N_("must be true or false"), "", ""),
}
"""pydantic's error types -> the project's words: the template, its parameter and the
context key that fills it."""


def _plain_message(err: Any) -> Text:
    """The validation error in the project's words, not the library's."""
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind == "string_pattern_mismatch":
        if err["loc"][-1:] == ("dice_sha256",):
            return phrase(N_("must be the dice file's SHA-256: 64 hexadecimal digits"))
        return phrase(N_("does not have the expected form"))
    if kind in _PLAIN:
        template, name, key = _PLAIN[kind]
        return phrase(template, **({name: ctx.get(key)} if name else {}))
    refused = ctx.get("error")
    if isinstance(refused, Refused):
        return refused.said
    return str(err["msg"]).removeprefix("Value error, ")


def key_text(key: str, fmt: str) -> str:
    """A key as the record's own syntax writes it: `rounds:` in YAML, `"rounds":` in JSON,
    the column name in CSV."""
    return {"json": '"{key}":', "csv": "{key}"}.get(fmt, "{key}:").format(key=key)


_ALL_KEYS = {*HEADER_KEYS, *ROUND_KEYS, "rounds"}


def _locate(path: Path, locations: Locations) -> Location:
    for end in range(len(path), -1, -1):
        if path[:end] in locations:
            return locations[path[:end]]
    return (1, 1)


def _path_text(path: Path) -> Text:
    """("rounds", 2, "path", 0) -> "round 3, path[0]" (keys stay as they are)."""
    parts: list[Text] = []
    for prev, p in zip((None, *path), path, strict=False):
        if isinstance(p, int):
            if prev == "rounds":
                parts[-1] = phrase(N_("round {n}"), n=p + 1)
            elif parts:
                parts[-1] = f"{parts[-1]}[{p}]"
        else:
            parts.append(p)
    if not parts:
        return ""
    return Phrase("{items}", (("items", Items(tuple(parts))),))


def _type_name(value: object) -> str:
    return {list: "list", str: "text", int: "number", float: "number", bool: "boolean"}.get(
        type(value), type(value).__name__
    )


def record_data(record: Record) -> dict[str, Any]:
    """The canonical plain-data form of a record (row-col), as YAML and JSON hold it."""
    header: dict[str, Any] = {
        "player": record.player,
        "dice_file": record.dice_file,
        "dice_sha256": record.dice_sha256,
        "rules": record.rules,
        "claimed_score": record.claimed_score,
        "rings": record.rings or None,
    }
    data = {k: v for k, v in header.items() if v is not None}
    data["rounds"] = [_round_data(r) for r in record.rounds]
    return data


def _round_data(r: RecordRound) -> dict[str, Any]:
    out = {
        "roll": r.roll,
        "dice": None if r.dice is None else list(r.dice),
        "reroll": r.reroll or None,
        "ring": r.ring or None,
        "cross": None if r.cross is None else [r.cross.row, r.cross.col],
        "move": r.exit or (None if r.move is None else [r.move.row, r.move.col]),
        "steps": r.steps,
        "path": None if r.path is None else [[f.row, f.col] for f in r.path],
    }
    return {key: value for key, value in out.items() if value is not None}
