"""What the renderers share: the summary line, board markers and legends, round titles,
the move list, where a record's item ends on its line, and the HTML templates' environment.

Terminal, text, Markdown, HTML, the site and the replies use these, so that none imports
another renderer.
Models are only read here (type-only imports), never built.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from validator.check.replay import Result, Verdict
from validator.engine import Field, roll_text
from validator.engine.phrase import N_
from validator.errors import Category
from validator.language import i18n
from validator.language.i18n import _, message
from validator.language.wording import analysis_marks, game_over, plural, points, round_kind
from validator.render.sanitize import html_value
from validator.report.model import dice_roles

if TYPE_CHECKING:
    from jinja2 import Environment
    from markupsafe import Markup

    from validator.report.analysis import RoundMark
    from validator.report.model import Report, ReportRound


_VERDICT_WORD = {
    Verdict.VALID: N_("valid"),
    Verdict.INCOMPLETE: N_("incomplete"),
    Verdict.INVALID: N_("invalid"),
    Verdict.MALFORMED: N_("malformed"),
}


VERDICT_STYLE = {
    Verdict.VALID: "bold green",
    Verdict.INCOMPLETE: "bold yellow",
    Verdict.INVALID: "bold red",
    Verdict.MALFORMED: "bold red",
}
"""How a terminal shows each verdict (rich styles)."""


def verdict_word(verdict: Verdict) -> str:
    """The verdict as a person reads it (JSON keeps `Verdict.value`)."""
    return _(_VERDICT_WORD[verdict])


def more_errors(result: Result, left_out: int = 0) -> str:
    """`and 3 more reading errors`: beyond those a record's reader kept, plus `left_out`
    more that an output leaves out of those kept (a reply lists 10); or ``."""
    n = result.errors_omitted + left_out
    return plural(n, "and {n} more reading error", "and {n} more reading errors") if n else ""


def verdict_line(verdict: str, what: str) -> str:
    """`valid: 315 points, ...`: a verdict and what it says, with the language's
    punctuation (French `valide : ...`)."""
    # TRANSLATORS: {verdict} is "valid", "invalid", ...; {what} the rest of the line.
    return _("{verdict}: {what}").format(verdict=verdict, what=what)


def summary_line(result: Result) -> str:
    """`valid: 315 points, game over (no legal move on roll 23)` and its kin, as plain text."""
    return verdict_line(verdict_word(result.verdict), summary(result))


def summary(result: Result, *, repeat: bool = True, wins: bool = True) -> str:
    """The summary line without its verdict word: `315 points, game over (...)`. Without
    `repeat` a phrase the message already says is not said twice; without `wins` a game
    of 300 is not said to win (a results site says so only of a ranked entry)."""
    v = result.verdict
    if v is Verdict.VALID:
        how = game_over(result.end, result.end_roll) if result.end else ""
        text = _("{points}, game over ({how})").format(points=points(result.score or 0), how=how)
        if wins and (result.score or 0) >= 300:
            text = _("{summary} - wins Road to 300").format(summary=text)
        return text
    if v is Verdict.INCOMPLETE:
        return _("{points} so far, the game could go on").format(points=points(result.score or 0))
    err = result.error
    assert err is not None
    if v is Verdict.MALFORMED:
        if err.category is Category.DICE:
            text = _("its dice file could not be read ({code} {name})")
        else:
            text = _("the record could not be read ({code} {name})")
        return text.format(code=err.code, name=err.name)
    if err.roll is None:
        # E107's message states the replayed score itself; E108's does not.
        said = err.code == "E107" or result.score is None
        text = message(err)
        if said:
            return text
        scores = _("the replay scores {score}").format(score=result.score)
        return text if not repeat and scores in text else f"{text}; {scores}"
    if err.round:
        where = _("roll {roll}, round {round}").format(roll=err.roll, round=err.round)
    else:
        where = _("roll {roll}").format(roll=err.roll)
    return _("first illegal step on {where} ({code} {name})").format(
        where=where, code=err.code, name=err.name
    )


ROUND_LEGEND = {
    "+": N_("crossed out this round"),
    "~": N_("walked through"),
    ">": N_("left the board here"),
    "@": N_("the burglar"),
}
BOARD_KEY = N_(
    "Board: each field shows its value; X25 crossed out; (25) circled; "
    "(X25) circled, then crossed out."
)
"""The key to every text board (translate it with `_` where it is shown)."""


BETTER_LEGEND = {"#": N_("the better cross-out"), "*": N_("where the better walk ends")}
"""Markers of the analysis's better choice, after the round's own markers."""


def analysis_key() -> str:
    """The key to the analysis's marks and its board markers, in a sentence."""
    return _(
        "Analysis marks: {marks}. On a board, # marks the better cross-out and * where the "
        "better walk ends."
    ).format(marks=analysis_marks())


def round_legend(markers: dict[Field, str]) -> dict[str, str]:
    """The legend of a round's board: only the markers it shows."""
    shown = "".join(markers.values())
    legend = {**ROUND_LEGEND, **BETTER_LEGEND}
    return {m: _(text) for m, text in legend.items() if m in shown}


def better_markers(markers: dict[Field, str], mark: RoundMark | None) -> dict[Field, str]:
    """A round's markers with the analysis's better choice added (a field may carry a
    marker of the round and one of the better choice)."""
    better = mark.better if mark is not None else None
    if better is None or better.cross is None:
        return markers
    out = dict(markers)
    out[better.cross] = out.get(better.cross, "") + "#"
    if better.end is not None and not better.leaves:
        out[better.end] = out.get(better.end, "") + "*"
    return out


def mark_title(mark: RoundMark | None) -> str:
    """` (?? blunder, 45 points lost)` after a round's title; nothing for a best choice."""
    if mark is None or mark.mark is None:
        return ""
    return " " + plural(
        mark.cost,
        "({symbol} {mark}, {n} point lost)",
        "({symbol} {mark}, {n} points lost)",
        symbol=mark.symbol,
        mark=mark.mark_word,
    )


def agreed(mark: RoundMark | None) -> bool:
    """The analysis found that the round's choice loses nothing (see `describe_round`)."""
    return mark is not None and not mark.forced and mark.cost == 0


def analysis_lines(mark: RoundMark | None) -> list[str]:
    """The analysis of one round as notes."""
    if mark is None:
        return []
    lines = [mark.words]
    if mark.better is not None:
        lines.append(_("Better: {choice}.").format(choice=mark.better.text))
    return lines


def headline(report: Report) -> str:
    """The summary line without its verdict word (the page shows the verdict beside it),
    and without a phrase said twice (E107's message already gives the replay's score)."""
    return summary(report.result, repeat=False)


def round_markers(rr: ReportRound) -> dict[Field, str]:
    """One-character markers for a round's board: the cross-out, the walk, the burglar."""
    r = rr.round
    # A walk that left the board has no end field of its own to mark.
    markers = dict.fromkeys(r.walk if r.corner is not None else r.walk[:-1], "~")
    if r.cross is not None:
        markers[r.cross.field] = "+"
    if r.corner is not None:
        markers[r.corner] = ">"
    elif r.state.position is not None:
        markers[r.state.position] = "@"
    return markers


def dice_text(rr: ReportRound) -> str:
    """`1 4 6: cross 1 4 (field 1/4), move 6`."""
    r = rr.round
    dice = roll_text(r.dice)
    if r.cross is None:
        return dice
    roles = dice_roles(r.dice, r.cross.field)
    cross = " ".join(str(d) for d, role in zip(r.dice, roles, strict=True) if role == "cross")
    return _("{dice}: cross {cross} (field {field}), move {die}").format(
        dice=dice, cross=cross, field=r.cross.field, die=r.cross.die
    )


def round_title(rr: ReportRound) -> str:
    r = rr.round
    title = _("Roll {roll}").format(roll=r.roll)
    if rr.move_number is not None:
        title = _("{title}, move {n}").format(title=title, n=rr.move_number)
    if r.kind != "play":
        title = f"{title}, {round_kind(r.kind)}"
    return _("{title}: {points}").format(title=title, points=points(r.score))


def moves_text(report: Report) -> str:
    """`1. 1/1 (30), 2. out at 1/6, ...`: a move that left the board scores nothing."""
    return ", ".join(
        _("{n}. out at {field}").format(n=n, field=f)
        if n in report.exits
        else f"{n}. {f} ({f.value})"
        for n, f in report.moves
    ) or _("none")


def item_span(source: str, start: int) -> int:
    """How many characters the item at `start` covers: up to the comma or closing
    bracket that ends it (flow YAML, JSON, CSV), else to the end of the line."""
    depth = 0
    quote = ""
    end = start
    for end in range(start, len(source)):
        ch = source[end]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{(":
            depth += 1
        elif ch in "]})":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            break
    else:
        end = len(source.rstrip())
    return max(1, len(source[start:end].rstrip()))


@cache
def environment(newstyle: bool = False) -> Environment:
    """The HTML templates' environment, one per process (compiling a template is most of a
    page's time): escaping, visible invisible characters (`html_value`), and the catalogs'
    `_`, `gettext`, `ngettext` and `pgettext` in the language of `i18n.speaking`. Messages
    use `{name}` placeholders like the code's, filled with `.format` (plain strings,
    escaped on output) or `|place` (HTML inside). The site's templates (`newstyle`) say
    `_("...")` with Jinja2's newstyle gettext instead, which escapes the translation."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(
        loader=PackageLoader("validator.render", "templates"),
        autoescape=True,
        finalize=html_value,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=newstyle, pgettext=i18n.pgettext
    )
    env.filters["place"] = place
    return env


def place(message: str, **values: object) -> Markup:
    """A translated sentence with HTML at its `{name}` placeholders: the sentence is
    escaped, and so is each value that is not already Markup (a `{% set %}` block), after
    `html_value` has made its invisible characters visible."""
    from markupsafe import Markup, escape

    return Markup(escape(html_value(message))).format(
        **{k: html_value(str(v)) if not hasattr(v, "__html__") else v for k, v in values.items()}
    )


# -- the results site's and the announcement's files -------------------------------------

PLAY_FILE = "play.html"
"""The dice file's game in the browser (render/play.py), on the announcement and the site."""
STYLESHEET = "site.css"
"""The one stylesheet of every page of the site."""
SCRIPT = "site.js"
"""The one script of the site (play.html's): the rules and the page's own."""


@cache
def site_assets() -> dict[str, str]:
    """The site's stylesheet and script by file name, to be written beside its pages."""
    from importlib import resources

    def asset(package: str, name: str) -> str:
        return resources.files(package).joinpath(name).read_text(encoding="utf-8")

    rules_js = asset("validator.engine", "rules.js")
    play_js = asset("validator.render", "templates/play.js")
    return {
        STYLESHEET: asset("validator.render", "templates/site.css"),
        SCRIPT: f"{rules_js}\n{play_js}",
    }
