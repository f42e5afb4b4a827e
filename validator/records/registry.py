"""The registries of record formats and dice-file formats: adding a format is adding one
module and one entry here. Format modules are imported on first use, so that `--help`
and `--version` load neither pydantic nor yaml."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast

from validator.errors import ReadError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from validator.engine import Dice
    from validator.records.record import Record


class _RecordModule(Protocol):
    def parse(self, text: str, source: str, max_rounds: int | None = None) -> Record: ...

    def dump(self, record: Record) -> str: ...


@dataclass(frozen=True, slots=True)
class RecordFormat:
    """A record format: its name, the extensions that pick it, and its reader module."""

    name: str
    extensions: tuple[str, ...]
    module: str
    description: str
    guided: bool = False
    """Whether the reader takes the dice file's rows, to read a line that reads in more
    than one way the way that fits them (the text form)."""

    def _module(self) -> _RecordModule:
        return cast(_RecordModule, importlib.import_module(self.module))

    def parse(
        self,
        text: str,
        source: str,
        max_rounds: int | None = None,
        *,
        dice: Sequence[Dice] | None = None,
    ) -> Record:
        """Read a record from text, guided by the dice file's rows where it can be;
        raises ReadError."""
        if self.guided and dice is not None:
            guided = cast("Callable[..., Record]", self._module().parse)
            return guided(text, source, max_rounds, dice=dice)
        return self._module().parse(text, source, max_rounds)

    def dump(self, record: Record) -> str:
        """Write a record in this format (ValueError when it cannot hold it)."""
        return self._module().dump(record)


RECORD_FORMAT_LIST: tuple[RecordFormat, ...] = (
    RecordFormat("yaml", (".yaml", ".yml"), "validator.records.yaml_record", "canonical YAML"),
    RecordFormat("json", (".json",), "validator.records.json_record", "canonical JSON"),
    RecordFormat(
        "text", (".txt",), "validator.records.text_record", "annotated dice file", guided=True
    ),
    RecordFormat("csv", (".csv",), "validator.records.csv_record", "CSV, one row per round"),
)
RECORD_FORMAT_BY_NAME = {f.name: f for f in RECORD_FORMAT_LIST}


class _DiceParser(Protocol):
    def __call__(self, text: str, source: str) -> list[tuple[Dice, int]]: ...


@dataclass(frozen=True, slots=True)
class DiceFormat:
    """A dice-file format: name, extensions, and the function that reads its rows
    (each with its source line) from text, raising ReadError with a D-code."""

    name: str
    extensions: tuple[str, ...]
    module: str
    function: str

    def rows(self, text: str, source: str) -> list[tuple[Dice, int]]:
        parse = cast(_DiceParser, getattr(importlib.import_module(self.module), self.function))
        return parse(text, source)


DICE_FORMAT_LIST: tuple[DiceFormat, ...] = (
    DiceFormat("text", (".txt",), "validator.records.dice", "plain_rows"),
    DiceFormat("csv", (".csv",), "validator.records.dice", "csv_rows"),
    DiceFormat("yaml", (".yaml", ".yml"), "validator.records.dice", "yaml_rows"),
    DiceFormat("json", (".json",), "validator.records.dice", "json_rows"),
)
PLAIN_DICE = DICE_FORMAT_LIST[0]
"""Dice files with any other extension (or none) are read as plain text."""


def record_format_of(suffix: str) -> RecordFormat | None:
    suffix = suffix.lower()
    return next((f for f in RECORD_FORMAT_LIST if suffix in f.extensions), None)


def dice_format_of(suffix: str) -> DiceFormat:
    suffix = suffix.lower()
    return next((f for f in DICE_FORMAT_LIST if suffix in f.extensions), PLAIN_DICE)


# --- recognising a record by its content --------------------------------------------------

_ANNOTATED = re.compile(
    r"^[ \t]*(?:\d+[ \t]*[:.)][ \t]*)?[1-6](?:[ \t]*(?:[-,;][ \t]*)?[1-6]){2}[ \t]+[^\s#\d]",
    re.MULTILINE,
)
"""An annotated dice line. Each run of blanks has one way to match (two optional runs
side by side would try every split of a long one)."""
_YAML_ROUNDS = re.compile(r"^(?:rounds|\{.*\brounds)[ \t]*:", re.MULTILINE)


def sniff_format(data: bytes) -> str | None:
    """The record format of content whose file name says nothing, when exactly one
    format fits it: a JSON or YAML mapping with `rounds`, a CSV column row, annotated
    dice lines. None when none or several fit."""
    from validator.records.source import decode_text

    try:
        text = decode_text(data, "<sniff>").text
    except ReadError:  # undecodable content is simply not recognised
        return None
    if _is_json(text):  # then not YAML (which JSON is too), nor anything else
        return "json" if not (_is_csv(text) or _is_text(text)) else None
    candidates = [
        name
        for name, fits in (
            ("yaml", _is_yaml),
            ("csv", _is_csv),
            ("text", _is_text),
        )
        if fits(text)
    ]
    if not candidates and _is_table(text):
        return "text"  # a typed table with `Player: ...` or `Total: ...` lines around it
    return candidates[0] if len(candidates) == 1 else None


def _is_json(text: str) -> bool:
    """A JSON object with `rounds`. Parsed with the JSON record reader's own bounds: too
    deep, a number too long or anything else it refuses is simply not recognised."""
    if not text.lstrip().startswith("{"):
        return False
    from validator.records import json_source

    try:
        data, _ = json_source.load(text, "<sniff>", max_rounds=0)
    except (ReadError, RecursionError, ValueError):
        return False
    return isinstance(data, dict) and "rounds" in data


def _is_yaml(text: str) -> bool:
    return _YAML_ROUNDS.search(text) is not None


def _is_csv(text: str) -> bool:
    from validator.records.header import key_of
    from validator.records.text_record import header_match

    for line in text.split("\n", _SNIFF_LINES)[:_SNIFF_LINES]:
        plain = header_match(line)
        if plain is not None and key_of(plain["key"]) is not None:
            return False  # CSV writes its header as `# key: value`; this is a typed table
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped.lower().startswith("sep="):
            continue
        from validator.records.csv_record import column_of

        cells = [c.strip().strip('"').lower() for c in re.split(r"[,;\t]", stripped[:2000])]
        cells = [c for c in cells if c]
        return len(cells) >= 2 and all(column_of(c) for c in cells)
    return False


def _is_text(text: str) -> bool:
    if _ANNOTATED.search(text) is not None:
        return True
    from validator.records.table import is_pipe_table
    from validator.records.text_record import typed_round

    lines = text.split("\n", _SNIFF_LINES)[:_SNIFF_LINES]
    return (
        is_pipe_table(text)
        or any(typed_round(line)[0] for line in lines)
        or any(_BRACKETED.match(line[:200]) for line in lines)
    )


_BRACKETED = re.compile(
    r"[ \t]*\d+(?:[ \t]*[:.)][ \t]*[(\[]|[ \t]+[-\u2013\u2014][ \t]+)"
    r"[ \t]*[1-6][ \t]*[,;-]?[ \t]*[1-6][ \t]*[,;-]?[ \t]*[1-6]"
)
"""A dice line with its dice in brackets, or its roll number set off by a dash: `1) (1, 4,
6): ...`, `1 - 1 4 6 - ...` (each line's first characters only)."""


def _is_table(text: str) -> bool:
    from validator.records.table import column_row, headless_row

    lines = text.split("\n", _SNIFF_LINES)[:_SNIFF_LINES]
    return any(
        column_row(line, n) is not None or headless_row(line, n) is not None
        for n, line in enumerate(lines, 1)
    )


_SNIFF_LINES = 200
"""Lines looked at for a round typed with a roll word (`Roll 1: 1 4 6 ...`)."""
