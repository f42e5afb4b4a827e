"""Compact SVG sheets for the results site's entry pages: every board of a page is drawn
from a few shared pieces (`DEFS`: the empty sheet, the values, an X, a circle, an
arrowhead) by `<use>`, and each round's sheet is the sheet before it plus what the round
added (`<g id="m{roll}">` holding a `<use>` of the previous round's), so that a page of
33 rounds holds each mark once instead of 33 full boards.

An X or a circle is drawn in the colour of "made this round" through the CSS variables
`--xc` and `--oc` (site.css): a round's own board leaves them at the page's "now"
colours, and every `<use class="p">` of an earlier round sets them back to ink. The
geometry (cells, centres, walks) is validator.render.svg's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from html import escape
from math import hypot

from validator.check.replay import RoundResult
from validator.engine import EXITS, FIELD_AT, SIZE, Field, State
from validator.render.svg import CELL, MARGIN, _n, _walk_points, centre

SIDE = 2 * MARGIN + SIZE * CELL
"""A sheet's width and height in the drawing's units (as validator.render.svg's)."""
_VIEW = f'viewBox="0 0 {SIDE} {SIDE}"'


@cache
def defs() -> str:
    """The shared pieces, once a page (a hidden `<svg>`): `#g` the empty sheet with the
    row and column numbers, `#v` the 36 values (drawn over everything, with a paper
    halo), `#x` an X and `#o` a circle at the origin, `#ah` an arrowhead."""
    cells = "".join(
        f'<rect x="{MARGIN + c * CELL}" y="{MARGIN + r * CELL}" width="{CELL}" height="{CELL}"/>'
        for r in range(SIZE)
        for c in range(SIZE)
    )
    coords = "".join(
        f'<text x="{_n(centre(Field(i, i))[0])}" y="{MARGIN - 9}">{i}</text>'
        f'<text x="{MARGIN - 11}" y="{_n(centre(Field(i, i))[1] + 4)}">{i}</text>'
        for i in range(1, SIZE + 1)
    )
    values = "".join(
        f'<text x="{_n(centre(f)[0])}" y="{_n(centre(f)[1] + 4.5)}">{f.value}</text>'
        for f in FIELD_AT
    )
    d = _n(CELL * 0.3)
    return (
        '<svg class="defs" aria-hidden="true" focusable="false"><defs>'
        f'<g id="g" class="cells">{cells}<g class="coords">{coords}</g></g>'
        f'<g id="v" class="vals">{values}</g>'
        f'<path id="x" class="xs" d="M-{d} -{d}L{d} {d}M{d} -{d}L-{d} {d}"/>'
        f'<circle id="o" class="os" r="{_n(CELL * 0.36)}"/>'
        '<marker id="ah" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="3.4" '
        'markerHeight="3.4" orient="auto"><path class="ahd" d="M0 0L10 5L0 10z"/></marker>'
        "</defs></svg>"
    )


@cache
def _at(piece: str, field: Field) -> str:
    x, y = centre(field)
    return f'<use href="#{piece}" x="{_n(x)}" y="{_n(y)}"/>'


def _added(before: State, after: State) -> str:
    """The X and circles `after` has that `before` has not, as `<use>`s."""
    out = []
    for piece, new in (
        ("x", after.crossed & ~before.crossed),
        ("o", after.circled & ~before.circled),
    ):
        while new:
            bit = new & -new
            out.append(_at(piece, FIELD_AT[bit.bit_length() - 1]))
            new ^= bit
    return "".join(out)


def _polyline(line: str, cls: str) -> str:
    # The marker as an attribute: in site.css, url(#ah) would name site.css's own #ah.
    return f'<polyline class="{cls}" points="{line}" marker-end="url(#ah)"/>' if line else ""


def _walk_line(r: RoundResult) -> str:
    """The points of the round's walk (none without one), its head short of the end."""
    points = _walk_points(r.walk, r.before.position, r.kind in EXITS)
    if len(points) < 2:
        return ""
    # The head stops short of the end field's centre, clear of its value (drawn over it).
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = hypot(x1 - x0, y1 - y0) or 1.0
    cut = min(CELL * 0.3, length / 2) / length
    points[-1] = (x1 - (x1 - x0) * cut, y1 - (y1 - y0) * cut)
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


class Sheets:
    """The boards of one page, drawn in roll order: `round` for each round whose board
    changed (each builds on the one before), then `final`."""

    def __init__(self, page: str = "") -> None:
        self.page = page
        """A prefix for this page's ids, should a page ever hold two games."""
        self.last: str | None = None
        """The id of the sheet so far (None: the empty sheet)."""
        self.lines: dict[int, str] = {}
        """Each round's walk (`_walk_line`) by its roll, drawn again on the final sheet."""

    def _so_far(self) -> str:
        return f'<use class="p" href="#{self.last}"/>' if self.last else '<use href="#g"/>'

    def round(self, r: RoundResult, label: str = "") -> str:
        """The round's board: the sheet before it, this round's X and circle in the
        colours of "now", its walk. Decorative (`aria-hidden`) unless `label` says it."""
        mark = f"{self.page}m{r.roll}"
        group = f'<g id="{mark}">{self._so_far()}{_added(r.before, r.state)}</g>'
        self.last = mark
        line = self.lines[r.roll] = _walk_line(r)
        return _svg("b", group + _polyline(line, "w") + '<use href="#v"/>', label)

    def final(self, rounds: Sequence[RoundResult], label: str) -> str:
        """The last sheet with every walk, early (light) to late (dark), and the move
        numbers, described by `label`."""
        moved = [r for r in rounds if r.walk or r.corner is not None]
        last = max(len(moved) - 1, 1)
        walks = "".join(
            _polyline(self.lines.get(r.roll) or _walk_line(r), f"w t{round(4 * i / last)}")
            for i, r in enumerate(moved)
            if r.cross
        )
        numbers = []
        for n, r in enumerate(moved, start=1):
            end = r.move or r.corner
            if end is None:
                continue
            x, y = centre(end)
            numbers.append(f'<text x="{_n(x - CELL * 0.3)}" y="{_n(y - CELL * 0.2)}">{n}</text>')
        body = f'{self._so_far()}{walks}<use href="#v"/><g class="nums">{"".join(numbers)}</g>'
        return _svg("b final", body, label)


def _svg(cls: str, body: str, label: str) -> str:
    a11y = f'role="img" aria-label="{escape(label)}"' if label else 'aria-hidden="true"'
    return f'<svg class="{cls}" {_VIEW} {a11y}>{body}</svg>'
