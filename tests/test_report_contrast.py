"""WCAG AA contrast of the HTML report, computed from the colours its stylesheet defines
for the light, dark and print schemes: text at least 4.5:1, marks and lines at least 3:1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from validator.render import svg

TEMPLATE = (
    Path(__file__).resolve().parent.parent / "validator" / "render" / "templates" / "report.html.j2"
)


def schemes() -> dict[str, dict[str, str]]:
    """The custom properties of each scheme; dark and print override the light ones."""
    css = TEMPLATE.read_text(encoding="utf-8")
    blocks = re.findall(r"(@media[^{]*\{\s*)?:root\s*\{([^}]*)\}", css)
    found: dict[str, dict[str, str]] = {}
    for media, body in blocks:
        name = "dark" if "dark" in media else "print" if "print" in media else "light"
        values = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", body))
        found[name] = {**found.get("light", {}), **values}
    return found


def luminance(colour: str) -> float:
    def channel(c: int) -> float:
        x = c / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# (foreground, background, minimum, what it is)
TEXT = 4.5
GRAPHIC = 3.0
PAIRS = [
    ("fg", "bg", TEXT, "body text"),
    ("fg", "card", TEXT, "text on a card"),
    ("muted", "card", TEXT, "captions, subtitles"),
    ("muted", "bg", TEXT, "footer"),
    ("muted", "paper", TEXT, "board coordinates"),
    ("ink", "paper", TEXT, "field values, also under an X or a circle"),
    ("on-ok", "ok", TEXT, "VALID badge"),
    ("on-warn", "warn", TEXT, "INCOMPLETE badge"),
    ("on-bad", "bad", TEXT, "INVALID and MALFORMED badges"),
    ("ok", "card", TEXT, "the wins line"),
    ("bad", "card", TEXT, "the illegal step's heading"),
    ("better", "card", TEXT, "the better-field mark"),
    ("paper", "blue", TEXT, "move numbers"),
    ("blue", "paper", TEXT, "hollow exit numbers"),
    ("fg", "verm-tint", TEXT, "the quoted item of the record's line"),
    ("grid", "paper", GRAPHIC, "the board's lines"),
    ("verm", "paper", GRAPHIC, "this round's X, what broke the rules"),
    ("blue", "paper", GRAPHIC, "this round's walk and circle, the burglar"),
    ("green", "paper", GRAPHIC, "what was legal"),
    ("sky", "paper", GRAPHIC, "walks on the final sheet"),
    *((f"tone-{k}", "paper", GRAPHIC, f"walk tone {k}") for k in range(len(svg.TONES))),
]


@pytest.mark.parametrize("scheme", ["light", "dark", "print"])
@pytest.mark.parametrize(("fg", "bg", "minimum", "what"), PAIRS, ids=[p[3] for p in PAIRS])
def test_contrast(scheme: str, fg: str, bg: str, minimum: float, what: str) -> None:
    colours = schemes()[scheme]
    ratio = contrast(colours[fg], colours[bg])
    assert ratio >= minimum, f"{scheme}: {what} ({fg} on {bg}) is {ratio:.2f}:1"


def test_the_check_sees_a_low_contrast() -> None:
    """The issue's own findings fail the check: white on #009E73 and a 45% grey value."""
    assert contrast("#ffffff", "#009E73") < TEXT
    assert contrast("#9a9a9a", "#ffffff") < GRAPHIC
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)


def test_pictures_alone_use_the_light_scheme() -> None:
    """An SVG saved from the page keeps its presentation colours: the light scheme's."""
    light = schemes()["light"]
    assert light["grid"].lower() == svg.GRID.lower()
    assert [light[f"tone-{k}"].lower() for k in range(len(svg.TONES))] == [
        t.lower() for t in svg.TONES
    ]
    assert contrast(svg.INK, svg.PAPER) >= TEXT
