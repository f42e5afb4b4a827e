"""The board as a text grid, in the look of the paper sheet, for terminals and Markdown.

A cell shows the field's value, also under a mark: `(25)` is circled, `X25` crossed out,
`(X25)` both.
Callers may overlay single-character markers on fields (the move, reachable fields...).
"""

from __future__ import annotations

from collections.abc import Mapping

from validator.engine import SIZE, Field, State

CELL = 7


def cell_text(state: State, field: Field) -> str:
    value = field.value
    return {"XO": f"(X{value})", "X": f"X{value}", "O": f"({value})"}.get(
        state.mark(field), str(value)
    )


def board_lines(
    state: State,
    markers: Mapping[Field, str] | None = None,
    *,
    legend: Mapping[str, str] | None = None,
) -> list[str]:
    """Rows of text: a column header, then one line per board row.

    `markers` puts a one-character marker after a field's text (e.g. "@" for the
    burglar, "*" for a reachable field); `legend` explains the markers below the grid.
    """
    markers = markers or {}
    header = "    " + "".join(f"{c:^{CELL}}" for c in range(1, SIZE + 1))
    lines = [header]
    for row in range(1, SIZE + 1):
        cells = []
        for col in range(1, SIZE + 1):
            field = Field(row, col)
            text = cell_text(state, field) + markers.get(field, "")
            cells.append(f"{text:^{CELL}}")
        lines.append(f" {row}  " + "".join(cells))
    if legend:
        lines.append("    " + "   ".join(f"{m} {what}" for m, what in legend.items()))
    return lines
