"""The 6 x 6 board: fields, their values, neighbours and bit-set helpers.

Fields are numbered 0..35 internally (row-major) so that sets of fields are plain
integers used as bit sets; `Field` is the public (row, column) name of one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

SIZE = 6
FIELDS = SIZE * SIZE

VALUES: tuple[int, ...] = (
    30, 25, 20, 20, 25, 30,
    25, 15, 10, 10, 15, 25,
    20, 10, 5, 5, 10, 20,
    20, 10, 5, 5, 10, 20,
    25, 15, 10, 10, 15, 25,
    30, 25, 20, 20, 25, 30,
)  # fmt: skip


class Field(NamedTuple):
    """A field of the board, 1-based: row 1..6, column 1..6."""

    row: int
    col: int

    @property
    def index(self) -> int:  # type: ignore[override]  # the board index, not tuple.index()
        return (self.row - 1) * SIZE + (self.col - 1)

    @property
    def value(self) -> int:
        return VALUES[self.index]

    def __str__(self) -> str:
        return f"{self.row}/{self.col}"

    @classmethod
    def at(cls, index: int) -> Field:
        return FIELD_AT[index]

    def transposed(self) -> Field:
        return Field(self.col, self.row)


def parse_field(text: str) -> Field:
    """Parse "r/c" (also "r,c" or "rc") into a field; raises ValueError."""
    cleaned = text.strip().strip("()[]")
    for sep in ("/", ",", " "):
        if sep in cleaned:
            parts = [p for p in cleaned.split(sep) if p.strip()]
            break
    else:
        parts = list(cleaned)
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"expected a field as row/column, like 3/4, not {text!r}")
    row, col = (int(p) for p in parts)
    if not (1 <= row <= SIZE and 1 <= col <= SIZE):
        raise ValueError(f"field {row}/{col} is off the board (rows and columns are 1-6)")
    return Field(row, col)


FIELD_AT: tuple[Field, ...] = tuple(Field(i // SIZE + 1, i % SIZE + 1) for i in range(FIELDS))
CORNERS: tuple[int, ...] = (0, SIZE - 1, FIELDS - SIZE, FIELDS - 1)
CORNER_MASK = sum(1 << c for c in CORNERS)


def distance(a: int, b: int) -> int:
    """Manhattan distance: the fewest steps between two fields on an empty board."""
    ar, ac = divmod(a, SIZE)
    br, bc = divmod(b, SIZE)
    return abs(ar - br) + abs(ac - bc)


DISTANCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(distance(a, b) for b in range(FIELDS)) for a in range(FIELDS)
)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(FIELDS) if DISTANCE[a][b] == 1) for a in range(FIELDS)
)
"""The fields one step from each field, in board order."""


def bits(mask: int) -> Iterator[int]:
    """The field indices in a bit set, in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def is_corner(index: int) -> bool:
    return bool(CORNER_MASK >> index & 1)
