"""The documentation of each error code, read from docs/errors.md's table, for
`road300 explain` (like `ruff rule`)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path


@dataclass(frozen=True, slots=True)
class CodeDoc:
    code: str
    name: str
    verdict: str
    meaning: str
    example: str


def _table_text() -> str:
    # An installed wheel ships the table as package data; a checkout reads docs/.
    packaged = resources.files("validator").joinpath("data/errors.md")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text(encoding="utf-8")


def code_docs() -> dict[str, CodeDoc]:
    """Every documented code, in the table's order."""
    docs: dict[str, CodeDoc] = {}
    for line in _table_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 5 and cells[0][:1] in "EWD" and cells[0][1:].isdigit():
            docs[cells[0]] = CodeDoc(*cells)
    return docs
