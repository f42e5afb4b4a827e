"""SVG pictures for the report: one small pure function per picture, each returning a string.

Elements carry class names and presentation attributes: a picture looks right on its own,
and the HTML report's CSS restyles the classes (dark scheme, print).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cache, lru_cache
from html import escape
from math import hypot
from typing import Literal

from validator.check.replay import RoundResult
from validator.engine import EXITS, FIELD_AT, SIZE, Field, State, exit_corner
from validator.language import wording
from validator.language.i18n import _, ngettext, pgettext

# Okabe-Ito colours: distinguishable with the common kinds of colour blindness.
INK = "#222222"
PAPER = "#ffffff"
GRID = "#767676"
VERMILLION = "#D55E00"
BLUE = "#0072B2"
SKY = "#56B4E9"
GREEN = "#009E73"
PURPLE = "#8E3B8E"
"""The analysis's better choice: a colour used for nothing else."""

FONT = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"
CELL = 40
MARGIN = 36
"""Room around the board for the row and column numbers, the walks that enter or leave
through a corner, and the badges of the moves that left there."""
CAPTION = 24
SIDE = 2 * MARGIN + SIZE * CELL
"""A sheet's width and height in the drawing's units."""

_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


@lru_cache(maxsize=256)
def _attr_name(key: str) -> str:
    """`class_` -> `class`, `stroke_width` -> `stroke-width`."""
    return key.rstrip("_").replace("_", "-")


@lru_cache(maxsize=4096)
def _attr_value(value: str) -> str:
    # A board repeats the same few hundred values (colours, coordinates, classes); escaping
    # each once keeps a report of many boards cheap (bounded, so no input can grow it).
    return escape(value)


def _attrs(attrs: Mapping[str, object]) -> str:
    return "".join(
        f' {_attr_name(key)}="{_attr_value(str(value))}"'
        for key, value in attrs.items()
        if value is not None
    )


def _el(tag: str, children: str = "", /, **attrs: object) -> str:
    if children:
        return f"<{tag}{_attrs(attrs)}>{children}</{tag}>"
    return f"<{tag}{_attrs(attrs)}/>"


def _text(
    x: float,
    y: float,
    text: str,
    cls: str,
    size: str = "11",
    fill: str = INK,
    *,
    anchor: str = "middle",
    bold: bool = False,
    **attrs: object,
) -> str:
    """A label: its attributes in one order, `class`, anchor, size, weight, fill, the rest."""
    head = {"class": cls, "text_anchor": anchor, "font_size": size}
    more = {"font_weight": "bold" if bold else None, "fill": fill, **attrs}
    return f"<text{_attrs({'x': _n(x), 'y': _n(y), **head, **more})}>{escape(text)}</text>"


@lru_cache(maxsize=4096)
def _n(value: float) -> str:
    """Numbers without trailing zeros, so that the output is short and stable."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _points(points: Iterable[tuple[float, float]]) -> str:
    """`x,y x,y ...`: a polyline's or polygon's points."""
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _svg(width: float, height: float, body: str, label: str, cls: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{escape(cls)}" font-family="{FONT}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" width="{_n(width)}" height="{_n(height)}" '
        f'role="img" aria-label="{escape(label)}">'
        f"<title>{escape(label)}</title>{body}</svg>"
    )


def centre(field: Field) -> tuple[float, float]:
    return (MARGIN + (field.col - 0.5) * CELL, MARGIN + (field.row - 0.5) * CELL)


def _outward(corner: Field) -> tuple[int, int]:
    """Which way is off the board from a corner: (-1 or 1, -1 or 1)."""
    return (-1 if corner.col == 1 else 1, -1 if corner.row == 1 else 1)


def _outside(corner: Field) -> tuple[float, float]:
    """A point just off the board beyond a corner: where a walk enters or leaves."""
    x, y = centre(corner)
    dx, dy = _outward(corner)
    return (x + dx * CELL * 0.8, y + dy * CELL * 0.8)


def _exit_point(corner: Field) -> tuple[float, float]:
    """Where a walk leaves the board: out sideways from the corner and a little toward its
    edge, beyond the row numbers and clear of them, and never on the diagonal point where
    an entry starts."""
    x, y = centre(corner)
    dx, dy = _outward(corner)
    return (x + dx * (CELL * 0.5 + MARGIN - 6), y + dy * CELL * 0.35)


def _outline(colour: str, width: float, dash: str | None, **more: str) -> dict[str, str | None]:
    """A mark's stroke, unfilled: its attributes in their order, `more` before the dashes."""
    return {
        "stroke": colour,
        "stroke_width": _n(width),
        **more,
        "stroke_dasharray": dash,
        "fill": "none",
    }


def _cross_lines(field: Field, cls: str, colour: str, width: float, dash: str | None = None) -> str:
    x, y = centre(field)
    d = CELL * 0.3
    line = (
        f"M{_n(x - d)} {_n(y - d)}L{_n(x + d)} {_n(y + d)}"
        f"M{_n(x + d)} {_n(y - d)}L{_n(x - d)} {_n(y + d)}"
    )
    return _el("path", class_=cls, d=line, **_outline(colour, width, dash, stroke_linecap="round"))


def _ring(
    field: Field, cls: str, colour: str, width: float, r: float = 0.36, dash: str | None = None
) -> str:
    x, y = centre(field)
    at = {"cx": _n(x), "cy": _n(y), "r": _n(CELL * r)}
    return _el("circle", class_=cls, **at, **_outline(colour, width, dash))


def _square(field: Field, cls: str, colour: str, *, dash: str | None, width: float) -> str:
    x, y = centre(field)
    h = CELL * 0.44
    at = {"x": _n(x - h), "y": _n(y - h), "width": _n(2 * h), "height": _n(2 * h), "rx": "4"}
    return _el("rect", class_=cls, **at, **_outline(colour, width, dash))


def _start_point(start: Field, first: Field) -> tuple[float, float]:
    """Where a walk from `start` is drawn to begin: at the edge toward its first step, so
    that the start field's value stays readable."""
    (x0, y0), (x1, y1) = centre(start), centre(first)
    length = hypot(x1 - x0, y1 - y0) or 1.0
    return (x0 + (x1 - x0) / length * CELL * 0.34, y0 + (y1 - y0) / length * CELL * 0.34)


def _walk_points(
    walk: Sequence[Field], start: Field | None, leaves: bool
) -> list[tuple[float, float]]:
    points = (
        [_start_point(start, walk[0]) if start is not None else _outside(walk[0])] if walk else []
    )
    points.extend(centre(f) for f in walk)
    if leaves:
        corner = exit_corner(start, walk)
        if corner is not None:
            if not walk:
                points.append(centre(corner))
            points.append(_exit_point(corner))
    return points


def _arrow(
    points: Sequence[tuple[float, float]],
    cls: str,
    colour: str,
    width: float,
    dash: str | None,
    short: float = 0.14,
) -> str:
    """A polyline with an arrowhead at its end and a hollow dot at its start; the parts
    carry the walk's classes with -head, -start and -step (`route tone-2-head`)."""
    if len(points) < 2:
        return ""
    base, *extra = cls.split()

    def part(name: str) -> str:
        return " ".join((f"{base}-{name}", *extra))

    look = {"stroke_linejoin": "round", "stroke_linecap": "round", "stroke_dasharray": dash}
    line = _points(points)
    parts = [
        _el(
            "polyline",
            class_=cls,
            points=line,
            stroke=colour,
            stroke_width=_n(width),
            **look,
            stroke_opacity="0.9",
            fill="none",
        )
    ]
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    size = 9.0
    # The head stops short of the centre (`short` cells) so that it hides neither the
    # field's circle nor its value.
    tx, ty = x1 - ux * CELL * short, y1 - uy * CELL * short
    bx, by = tx - ux * size, ty - uy * size
    wing = size * 0.6
    head = _points(((tx, ty), (bx - uy * wing, by + ux * wing), (bx + uy * wing, by - ux * wing)))
    parts.append(_el("polygon", class_=part("head"), points=head, fill=colour))
    sx, sy = points[0]
    ring = {"r": "4.5", "stroke": colour, "stroke_width": "2", "fill": PAPER}
    parts.append(_el("circle", class_=part("start"), cx=_n(sx), cy=_n(sy), **ring))
    parts.extend(
        _el("circle", class_=part("step"), cx=_n(x), cy=_n(y), r="2.6", fill=colour)
        for x, y in points[1:-1]
    )
    return "".join(parts)


Shape = Literal["x", "ring", "square", "bang"]
Style = Literal["now", "option", "reach", "exit", "wrong", "right", "used", "alt"]


@dataclass(frozen=True, slots=True)
class FieldMark:
    """A mark drawn over one field: an X, a ring, a square or a "!" badge, in a style."""

    field: Field
    shape: Shape
    style: Style


@dataclass(frozen=True, slots=True)
class Walk:
    """A walk drawn as an arrow: from `start` (from outside the board when None) through
    `fields`, leaving the board at the end when `leaves`."""

    fields: Sequence[Field]
    start: Field | None = None
    leaves: bool = False
    style: Literal["walk", "route", "wrong", "legal", "alt"] = "walk"
    tone: float | None = None
    """For route walks: 0 (early, light) to 1 (late, dark), so that walks can be told apart."""


# How each style looks on its own (the report's CSS restyles the classes).
_COLOUR: dict[str, str] = {
    "now": VERMILLION,
    "option": GREEN,
    "reach": GREEN,
    "exit": GREEN,
    "right": GREEN,
    "used": INK,
    "wrong": VERMILLION,
    "walk": BLUE,
    "route": SKY,
    "legal": GREEN,
    "alt": PURPLE,
}
# Dash patterns: a style is told apart by its line as well as by its colour.
_DASH: dict[str, str | None] = {
    "option": "5 3",
    "reach": "5 3",
    "exit": "1.5 3",
    "right": None,
    "used": "2 2",
    "wrong": "4 3",
    "alt": "7 3 2 3",
}


def _field_mark(m: FieldMark) -> str:
    colour = _COLOUR[m.style]
    cls = "x now" if (m.shape, m.style) == ("x", "now") else m.style
    dash = _DASH.get(m.style)
    if m.shape == "x":
        return _cross_lines(m.field, cls, colour, 3.2, dash=dash)
    if m.shape == "square":
        return _square(m.field, cls, colour, dash=dash, width=3 if m.style == "wrong" else 2)
    if m.shape == "bang":
        return _bang(m.field)
    if m.style == "alt":
        # A diamond: the better choice's end field, unlike any ring or square.
        return _diamond(m.field)
    if m.style in ("wrong", "right"):
        return _ring(m.field, cls, colour, 3, r=0.42, dash=dash)
    return _ring(m.field, cls, colour, 2.2, r=0.44, dash=dash)


# Walks on the final sheet, early (light) to late (dark); the page restyles the classes.
TONES = ("#4A90C2", "#2F78AD", "#1F6496", "#12507D", "#003F66")


def tone_class(tone: float) -> int:
    return round(min(1.0, max(0.0, tone)) * (len(TONES) - 1))


ALT_OFFSET = 5.0
"""The better walk runs this far right of and below the played one, so that where the two
take the same fields both lines are seen side by side."""


def _walk(w: Walk) -> str:
    points = _walk_points(w.fields, w.start, w.leaves)
    if w.style == "route":
        if w.tone is not None:
            k = tone_class(w.tone)
            return _arrow(points, f"route tone-{k}", TONES[k], 2.4, None, short=0.3)
        return _arrow(points, "route", SKY, 2, None, short=0.3)
    if w.style == "wrong":
        return _arrow(points, "wrong", VERMILLION, 3.4, "6 4")
    if w.style == "legal":
        return _arrow(points, "legal", GREEN, 3, None)
    if w.style == "alt":
        shifted = [(x + ALT_OFFSET, y + ALT_OFFSET) for x, y in points]
        return _arrow(shifted, "alt", PURPLE, 3, _DASH["alt"], short=0.3)
    return _arrow(points, "walk", BLUE, 3.2, None, short=0.3)


# Walks drawn under the values (whose paper halo keeps every number readable where a line
# runs through its field); the illegal step's walks go over them, as the point of the picture.
_UNDER = ("route", "walk", "alt")


@cache
def _grid() -> str:
    """The empty sheet (its cells and the row and column numbers), the same under every
    board: drawn once a process."""
    cells: list[str] = []
    labels: list[str] = []
    cell = {"width": CELL, "height": CELL, "fill": PAPER, "stroke": GRID, "stroke_width": "1"}
    for i in range(1, SIZE + 1):
        x, y = centre(Field(i, i))
        for lx, ly in ((x, MARGIN - 9), (MARGIN - 11, y + 4)):
            labels.append(_text(lx, ly, str(i), "coord"))
    for row in range(1, SIZE + 1):
        for col in range(1, SIZE + 1):
            x, y = MARGIN + (col - 1) * CELL, MARGIN + (row - 1) * CELL
            cells.append(_el("rect", class_="cell", x=_n(x), y=_n(y), **cell))
    return "".join(cells) + "".join(labels)


@cache
def _value(field: Field, taken: bool) -> str:
    """A field's value, over the marks and walks with a paper halo (full contrast under an
    X, a circle or a line); bold once the field is taken. One of 72 texts, drawn once."""
    x, y = MARGIN + (field.col - 1) * CELL, MARGIN + (field.row - 1) * CELL
    cls = "val" + (" taken" if taken else "")
    halo = {"stroke": PAPER, "stroke_width": "4", "paint_order": "stroke"}
    return _text(x + CELL / 2, y + CELL / 2 + 4.5, str(field.value), cls, "13", bold=taken, **halo)


def board(
    state: State,
    *,
    marks: Sequence[FieldMark] = (),
    walks: Sequence[Walk] = (),
    burglar: Field | None = None,
    burglar_left: Field | None = None,
    numbers: Mapping[Field, int | Sequence[int]] | None = None,
    exit_numbers: Mapping[Field, Sequence[int]] | None = None,
    caption: str = "",
    label: str = "board",
    cls: str = "board",
) -> str:
    """The paper sheet (values, X and circles of `state`) with generic overlays.

    `marks` are drawn over fields in their order; `walks` as arrows (the played, earlier
    and better walks under the values, the illegal step's over them); `burglar` puts the
    burglar's token on a field, `burglar_left` beside the board where it left through that
    corner; `numbers` labels fields (the order of the moves; a field may carry several) and
    `exit_numbers` the corners walks left through. The caller decides what they mean.
    """
    sheet, values = _sheet(state, marks, walks)
    under, over_sheet, overlay = _layers(marks, walks)
    sheet.extend(over_sheet)
    if burglar is not None:
        overlay.append(_burglar(burglar))
    if burglar_left is not None:
        overlay.append(_burglar(burglar_left, outside=True))
    overlay.extend(_numbers(numbers or {}))
    for corner, at in sorted((exit_numbers or {}).items()):
        overlay.extend(_exit_badge(corner, at))
    if caption:
        overlay.append(_text(SIDE / 2, SIDE + 6, caption, "caption", "14", bold=True))
    # Earlier walks go under the values so that the numbers stay readable.
    body = _grid() + "".join(under) + "".join(sheet) + "".join(values) + "".join(overlay)
    return _svg(SIDE, SIDE + (CAPTION if caption else 0), body, label, cls)


def _layers(
    marks: Sequence[FieldMark], walks: Sequence[Walk]
) -> tuple[list[str], list[str], list[str]]:
    """The overlays by layer: the earlier walks (under the sheet), what goes over the
    sheet's marks but under the values, and what goes over the values."""
    under = [_walk(w) for w in walks if w.style == "route"]
    # The better choice's X goes under the values like the sheet's own X.
    sheet = [_field_mark(m) for m in marks if (m.shape, m.style) == ("x", "alt")]
    sheet.extend(_walk(w) for w in walks if w.style in _UNDER and w.style != "route")
    overlay = [
        _field_mark(m) for m in marks if (m.shape, m.style) not in (("x", "now"), ("x", "alt"))
    ]
    overlay.extend(_walk(w) for w in walks if w.style not in _UNDER)
    return under, sheet, overlay


def _sheet(
    state: State, marks: Sequence[FieldMark], walks: Sequence[Walk]
) -> tuple[list[str], list[str]]:
    """The sheet's X and circles (this round's, of `marks` and `walks`, in their colours)
    and its 36 values."""
    crossed_now = {m.field for m in marks if (m.shape, m.style) == ("x", "now")}
    circled_now = {w.fields[-1] for w in walks if w.style == "walk" and w.fields and not w.leaves}
    sheet: list[str] = []
    values: list[str] = []
    for row in range(1, SIZE + 1):
        for col in range(1, SIZE + 1):
            f = Field(row, col)
            mark = state.mark(f)
            values.append(_value(f, bool(mark)))
            if f in crossed_now:
                sheet.append(_cross_lines(f, "x now", VERMILLION, 3.2))
            elif "X" in mark:
                sheet.append(_cross_lines(f, "x", INK, 2.2))
            if "O" in mark:
                now = f in circled_now
                sheet.append(
                    _ring(f, "o now" if now else "o", BLUE if now else INK, 3 if now else 2)
                )
    return sheet, values


def _burglar(field: Field, *, outside: bool = False) -> str:
    """The burglar's token: a dark disc with a light ring in the field's lower right corner,
    or (`outside`) beside the board where it left through the corner `field`."""
    x, y = centre(field)
    cx, cy = x + CELL * 0.3, y + CELL * 0.3
    if outside:
        ex, ey = _exit_point(field)
        cx, cy = min(max(ex, 9.0), SIDE - 9), ey + (-11 if field.row == 1 else 11)
    return _el(
        "g",
        _el("circle", class_="pos", cx=_n(cx), cy=_n(cy), r="8", fill=BLUE, stroke=PAPER)
        + _text(cx, cy + 3.5, "B", "pos-letter", "10", PAPER, bold=True),
        class_="burglar outside" if outside else "burglar",
    )


def _numbers(numbers: Mapping[Field, int | Sequence[int]]) -> list[str]:
    """Move numbers in a field's upper left corner; several numbers share one badge."""
    out: list[str] = []
    for f, value in sorted(numbers.items()):
        text = str(value) if isinstance(value, int) else ",".join(map(str, value))
        out.extend(_badge(MARGIN + (f.col - 1) * CELL + 1, MARGIN + (f.row - 1) * CELL + 1, text))
    return out


EXIT_TEXT = 7
"""The most characters of a corner's exit badge: past them the rest of its move numbers
reads "+N" (every number is in the badge's title and the board's words)."""


def exit_badge_text(at: Sequence[int]) -> str:
    """`3,4,9`, or `11,23,+3` when the numbers do not fit `EXIT_TEXT` characters."""
    numbers = [str(n) for n in at]
    text = ",".join(numbers)
    if len(text) <= EXIT_TEXT:
        return text
    shown: list[str] = []
    for i, n in enumerate(numbers):
        rest = f"+{len(numbers) - i}"
        if len(",".join([*shown, n, f"+{len(numbers) - i - 1}"])) > EXIT_TEXT:
            return ",".join([*shown, rest])
        shown.append(n)
    return text


def _exit_badge(corner: Field, at: Sequence[int]) -> list[str]:
    """The moves that left through a corner: a hollow badge in the corner field's top right
    (row 1: its bottom right), apart from the filled badge of a move that ended on the
    field, kept inside the picture."""
    text = exit_badge_text(at)
    width = _badge_width(text)
    x = MARGIN + corner.col * CELL - 1 - width
    x = min(max(1.0, x), SIDE - 1 - width)
    y = MARGIN + (corner.row - 1) * CELL + (CELL - 16 if corner.row == 1 else 1)
    # "move 3, 4, 9": English names the moves by number, one or many.
    moves = _(", ").join(map(str, at))
    said = ngettext("left here: move {moves}", "left here: move {moves}", len(at))
    title = _el("title", escape(said.format(moves=moves)))
    return [_el("g", title + "".join(_badge(x, y, text, hollow=True)), class_="exit-badge")]


def _badge_width(text: str) -> float:
    return max(16.0, 6.5 * len(text) + 6)


def _badge(x: float, y: float, text: str, *, hollow: bool = False) -> list[str]:
    """A rounded label with its top left corner at (x, y); hollow: paper inside, blue ink."""
    width = _badge_width(text)
    ink, paper = (BLUE, PAPER) if hollow else (PAPER, BLUE)
    rim = {"stroke": BLUE, "stroke_width": "1.5"} if hollow else {}
    shape = {"x": _n(x), "y": _n(y), "width": _n(width), "height": "15", "rx": "7.5"}
    return [
        _el("rect", class_="exit-bg" if hollow else "num-bg", **shape, fill=paper, **rim),
        _text(x + width / 2, y + 11.5, text, "exit-num" if hollow else "num", "10", ink, bold=True),
    ]


def _diamond(field: Field) -> str:
    x, y = centre(field)
    h = CELL * 0.47
    corners = _points(((x, y - h), (x + h, y), (x, y + h), (x - h, y)))
    outline = _outline(PURPLE, 2.6, None, stroke_linejoin="round")
    return _el("polygon", class_="alt", points=corners, **outline)


def _bang(field: Field) -> str:
    x, y = MARGIN + field.col * CELL, MARGIN + (field.row - 1) * CELL
    return _el(
        "circle", class_="bang-bg", cx=_n(x - 7), cy=_n(y + 7), r="7", fill=VERMILLION
    ) + _text(x - 7, y + 11, "!", "bang", fill=PAPER, bold=True)


def dice(values: Sequence[int], roles: Sequence[str] = ("", "", ""), *, label: str = "dice") -> str:
    """Three dice; a role of "cross" or "move" tints the die and names its part below it;
    "differs" marks a recorded die that is not the dice file's (dashed, the illegal style)."""
    size, gap = 34, 12
    width = len(values) * size + (len(values) - 1) * gap + 4
    height = size + 20
    parts: list[str] = []
    for i, (value, role) in enumerate(zip(values, roles, strict=True)):
        x, y = 2 + i * (size + gap), 2
        fill = {"cross": "#F7D3BC", "move": "#CDE7F5"}.get(role, PAPER)
        stroke = {"cross": VERMILLION, "move": BLUE, "differs": VERMILLION}.get(role, INK)
        box = {"x": x, "y": y, "width": size, "height": size, "rx": "6", "fill": fill}
        differs = role == "differs"
        line = {
            "stroke_width": "3" if differs else "2",
            "stroke_dasharray": "4 3" if differs else None,
        }
        parts.append(_el("rect", class_=f"die {role}".strip(), **box, stroke=stroke, **line))
        parts.extend(
            _el(
                "circle",
                class_="pip",
                cx=_n(x + px * size),
                cy=_n(y + py * size),
                r="3.2",
                fill=INK,
            )
            for px, py in _PIPS.get(value, ())
        )
        word = {
            "cross": pgettext("die", "cross"),
            "move": pgettext("die", "move"),
            "differs": pgettext("die", "differs!"),
        }.get(role, "")
        if word:
            parts.append(_text(x + size / 2, y + size + 14, word, f"die-label {role}", fill=stroke))
    return _svg(width, height, "".join(parts), label, "dice")


def score_chart(
    points: Sequence[tuple[int, int]],
    *,
    goal: int = 300,
    label: str = "score by roll",
    links: Mapping[int, str] | None = None,
    lost: Sequence[tuple[int, int]] | None = None,
    compact: bool = False,
) -> str:
    """Score after each dice roll as a step line, with the goal drawn across; a point
    where the score rose links to `links[roll]` when given. `lost` draws a second step
    line (points lost so far against the best play, the analysis's) on the same scale.
    `compact`: a narrower picture with fewer roll numbers, for a phone."""
    width, height = (360.0, 230.0) if compact else (640.0, 240.0)
    # The top leaves room for the label of a final score at the top of the scale.
    left, right, top, bottom = (44.0, 10.0, 26.0, 34.0) if compact else (52.0, 16.0, 26.0, 34.0)
    last_roll = max((r for r, _ in points), default=1)
    top_score = max([goal, *(s for _, s in points), *(v for _, v in lost or ())])
    top_score = (top_score + 49) // 50 * 50
    plot_w, plot_h = width - left - right, height - top - bottom

    def px(roll: float) -> float:
        return left + plot_w * roll / max(last_roll, 1)

    def py(value: float) -> float:
        return top + plot_h * (1 - value / top_score)

    def hline(y: float, cls: str, **style: str) -> str:
        """A line across the plot at height `y`."""
        x1, x2 = _n(left), _n(width - right)
        return _el("line", class_=cls, x1=x1, x2=x2, y1=_n(y), y2=_n(y), **style)

    parts: list[str] = []
    for value in range(0, top_score + 1, 50):
        y = py(value)
        parts.append(hline(y, "grid", stroke=GRID, stroke_width="0.6", stroke_opacity="0.6"))
        parts.append(_text(left - 6, y + 4, str(value), "axis", anchor="end"))
    step = 1 if last_roll <= 12 else 5 if last_roll <= 60 else 10
    if compact:
        step = 2 if last_roll <= 12 else 10 if last_roll <= 60 else 20
    for roll in range(0, last_roll + 1, step):
        parts.append(_text(px(roll), height - bottom + 16, str(roll), "axis"))
    turn = f"rotate(-90 {10 if compact else 12} {_n(top + plot_h / 2)})"
    parts.append(
        _text(10 if compact else 12, top + plot_h / 2, _("points"), "axis", transform=turn)
    )
    parts.append(_text(left + plot_w / 2, height - 4, _("dice roll"), "axis"))
    gy = py(goal)
    parts.append(hline(gy, "goal", stroke=GREEN, stroke_width="2", stroke_dasharray="6 4"))
    goal_label = _("goal {points}").format(points=goal)
    parts.append(
        _text(width - right - 4, gy - 5, goal_label, "goal-label", fill=GREEN, anchor="end")
    )
    links = links or {}
    parts.extend(_steps(points, px, py, links, _score_dot, "score-line", BLUE, "2.5"))
    if lost:
        parts.extend(_steps(lost, px, py, links, _lost_dot, "lost-line", PURPLE, "2.2", "7 3 2 3"))
        roll, value = lost[-1]
        lost_label = _("{n} lost").format(n=value)
        parts.append(_end_label(px(roll), py(value), lost_label, "lost-label", PURPLE))
    if points:
        roll, value = points[-1]
        parts.append(_end_label(px(roll), py(value), str(value), "score-last", BLUE))
    return _svg(width, height, "".join(parts), label, "chart compact" if compact else "chart")


def lost_so_far(roll: int, lost: int) -> str:
    """`roll 12: 45 points lost so far`: a point of the lost line."""
    return wording.plural(
        lost, "roll {roll}: {n} point lost so far", "roll {roll}: {n} points lost so far", roll=roll
    )


def _steps(
    values: Sequence[tuple[int, int]],
    px: Callable[[float], float],
    py: Callable[[float], float],
    links: Mapping[int, str],
    dot: Callable[[int, int, float, float], str],
    cls: str,
    colour: str,
    width: str,
    dash: str | None = None,
) -> list[str]:
    """A step line through `values` ((roll, value), from 0 before the first roll) and a
    dot (drawn by `dot`) where the value changed, linked to `links[roll]` when given."""
    line = [(px(0), py(0))]
    dots: list[str] = []
    prev = 0
    for roll, value in values:
        line += [(px(roll), py(prev)), (px(roll), py(value))]
        if value != prev:
            drawn = dot(roll, value, px(roll), py(value))
            href = links.get(roll)
            dots.append(_el("a", drawn, href=href) if href else drawn)
        prev = value
    shape = {"stroke": colour, "stroke_width": width, "stroke_dasharray": dash, "fill": "none"}
    return [
        _el("polyline", class_=cls, points=_points(line), **shape, stroke_linejoin="round"),
        *dots,
    ]


def _score_dot(roll: int, value: int, x: float, y: float) -> str:
    said = _("roll {roll}: {points}").format(roll=roll, points=wording.points(value))
    title = _el("title", escape(said))
    return _el("circle", title, class_="score-dot", cx=_n(x), cy=_n(y), r="4", fill=BLUE)


def _lost_dot(roll: int, value: int, x: float, y: float) -> str:
    """A square: where a round lost points."""
    title = _el("title", escape(lost_so_far(roll, value)))
    at = {"x": _n(x - 3.5), "y": _n(y - 3.5), "width": "7", "height": "7"}
    return _el("rect", title, class_="lost-dot", **at, fill=PURPLE)


def _end_label(x: float, y: float, text: str, cls: str, colour: str) -> str:
    """A step line's name (or last value) at its end."""
    return _text(x - 4, y - 8, text, cls, "12", colour, anchor="end", bold=True)


# -- compact sheets ----------------------------------------------------------------------
# For the results site's entry pages: every board of a page is drawn from a few shared
# pieces (`sheet_pieces`: the empty sheet, the values, an X, a circle, an arrowhead) by
# `<use>`, and each round's sheet is the sheet before it plus what the round added (`<g
# id="m{roll}">` holding a `<use>` of the previous round's), so that a page of 33 rounds
# holds each mark once instead of 33 full boards. An X or a circle is drawn in the colour
# of "made this round" through the CSS variables `--xc` and `--oc` (site.css): a round's
# own board leaves them at the page's "now" colours, and every `<use class="p">` of an
# earlier round sets them back to ink.

_VIEW = f'viewBox="0 0 {SIDE} {SIDE}"'


@cache
def sheet_pieces() -> str:
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
    return _points(points)


@dataclass
class Sheets:
    """The boards of one page (of one game), drawn in roll order: `round` for each round
    whose board changed (each builds on the one before), then `final`."""

    last: str | None = None
    """The id of the sheet so far (None: the empty sheet)."""
    lines: dict[int, str] = dataclass_field(default_factory=dict)
    """Each round's walk (`_walk_line`) by its roll, drawn again on the final sheet."""

    def _so_far(self) -> str:
        return f'<use class="p" href="#{self.last}"/>' if self.last else '<use href="#g"/>'

    def round(self, r: RoundResult, label: str = "") -> str:
        """The round's board: the sheet before it, this round's X and circle in the
        colours of "now", its walk. Decorative (`aria-hidden`) unless `label` says it."""
        mark = f"m{r.roll}"
        group = f'<g id="{mark}">{self._so_far()}{_added(r.before, r.state)}</g>'
        self.last = mark
        line = self.lines[r.roll] = _walk_line(r)
        return _sheet_svg("b", group + _polyline(line, "w") + '<use href="#v"/>', label)

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
        return _sheet_svg("b final", body, label)


def _sheet_svg(cls: str, body: str, label: str) -> str:
    a11y = f'role="img" aria-label="{escape(label)}"' if label else 'aria-hidden="true"'
    return f'<svg class="{cls}" {_VIEW} {a11y}>{body}</svg>'
