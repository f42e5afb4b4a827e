"""An entry's page on the results site, in the site's language: who played, the verdict,
where the entry stands (rank, late, superseded, a copy), why it is not valid, the final
sheet and each round compactly (validator.render.compact), and a link back to the
leaderboard. The page links the site's one stylesheet and runs no script.

The body (the game) is made from the entry's Result alone (`entry_body`, in a worker
of the pool); the head (`entry_page`) from what only the whole batch knows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from validator.check.replay import Result, RoundResult, Verdict
from validator.engine import roll_text
from validator.render import i18n
from validator.render.compact import Sheets, defs
from validator.render.i18n import _
from validator.render.play import STYLESHEET
from validator.render.sanitize import html_value
from validator.render.wording import points, round_kind
from validator.report.model import move_cell

CSP = "default-src 'none'; style-src 'self'; img-src data:"
"""The policy of the leaderboard and the entry pages: the site's stylesheet, nothing else."""


def _e(text: str) -> str:
    """Plain text for HTML: escaped, its invisible characters made visible."""
    return escape(html_value(text))


def entry_body(result: Result) -> str:
    """The entry's game in the current language: its errors, the final sheet and every
    round, compactly. HTML, to go inside the page's <main> after its head."""
    parts = [_errors(result)]
    rounds = result.rounds
    if rounds:
        sheets = Sheets()
        items = [_round(r, sheets, previous) for r, previous in _with_previous(rounds)]
        last = rounds[-1]
        label = _("The sheet after roll {roll}, {points}.").format(
            roll=last.roll, points=points(last.score)
        )
        glance = _("The game at a glance")
        numbers = _(
            "A number gives the order of the move that ended on the field. The walks run "
            "from light (early) to dark (late)."
        )
        by_round = _("Round by round")
        parts.append(
            f'<h2 id="sheet">{_e(glance)}</h2>'
            f'<figure class="final-fig">{sheets.final(rounds, label)}'
            f"<figcaption>{_e(label)} {_e(numbers)}</figcaption></figure>"
            f'<h2 id="rounds">{_e(by_round)}</h2>'
            f'<ol class="rounds">{"".join(items)}</ol>'
        )
    return defs() + "".join(parts) if rounds else "".join(parts)


def _with_previous(rounds: Sequence[RoundResult]) -> list[tuple[RoundResult, int]]:
    out, previous = [], 0
    for r in rounds:
        out.append((r, previous))
        previous = r.score
    return out


def _round(r: RoundResult, sheets: Sheets, previous: int) -> str:
    """One round: its roll, dice, what was crossed out and where it went, the points."""
    dice = roll_text(r.dice)
    if r.cross is not None and r.kind == "stuck":
        what = _("{field} crossed out, no move of {die}").format(
            field=r.cross.field, die=r.cross.die
        )
    elif r.cross is not None:
        what = _("{field} crossed out, moved {die} to {end}").format(
            field=r.cross.field, die=r.cross.die, end=move_cell(r)
        )
    else:
        what = round_kind(r.kind)
    gained = r.score - previous
    line = _("Roll {roll}: {dice}; {what}; {gained} = {total}").format(
        roll=r.roll,
        dice=dice,
        what=what,
        gained=f"+{gained}" if gained else "0",
        total=points(r.score),
    )
    board = sheets.round(r) if r.cross is not None else ""
    kind = "" if r.cross is not None else ' class="minor"'
    return f'<li id="roll-{r.roll}"{kind}>{board}<p>{_e(line)}</p></li>'


def _errors(result: Result) -> str:
    """The first error of an entry that is not valid, with its hint, in a few lines."""
    errors = result.errors or ((result.error,) if result.error is not None else ())
    if not errors or result.verdict is Verdict.VALID:
        return ""
    lines = []
    for d in errors[:10]:
        where = d.location()
        # TRANSLATORS: an error on an entry's page: "E205 move-unreachable: 6/3 cannot...".
        text = _("{code} {name}: {message}").format(
            code=d.code, name=d.name or "", message=i18n.message(d)
        )
        hint = i18n.hint(d) if d.hint else ""
        lines.append(
            f'<li><b>{_e(text)}</b> <span class="where">{_e(where)}</span>'
            + (f"<br>{_e(hint)}" if hint else "")
            + "</li>"
        )
    title = (
        _("Why the entry is not valid")
        if result.verdict is not Verdict.INCOMPLETE
        else _("Why the entry is incomplete")
    )
    return (
        f'<section class="card problem" aria-labelledby="problem"><h2 id="problem">'
        f"{_e(title)}</h2><ul>{''.join(lines)}</ul></section>"
    )


@dataclass(frozen=True, slots=True)
class EntryHead:
    """What the whole batch knows of an entry, as the page says it (plain text)."""

    lang: str
    site_name: str
    player: str
    verdict: Verdict
    verdict_text: str
    summary: str
    """The replay's summary: `212 points, game over (...)`."""
    standing: tuple[str, ...]
    """Rank, late, superseded, copies: one sentence each."""
    status: str
    """For the title: `valid, rank 3`, `valid, late`..."""
    won: bool
    facts: tuple[tuple[str, str], ...]
    back: str
    footer: str


def entry_page(head: EntryHead, body: str) -> str:
    """The whole entry page: `head` around the `body` of `entry_body`."""
    h = head
    title = _e(f"{h.player} ({h.status}) · {h.site_name}")
    standing = "".join(f"<p>{_e(s)}</p>" for s in h.standing)
    wins = _("300 or more points: this game wins the challenge.")
    won = f'<p class="won">{_e(wins)}</p>' if h.won else ""
    facts = "".join(f'<dt>{_e(k)}</dt><dd class="mono">{_e(v)}</dd>' for k, v in h.facts)
    return f"""<!DOCTYPE html>
<html lang="{h.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="referrer" content="no-referrer">
<link rel="stylesheet" href="../{STYLESHEET}">
<title>{title}</title>
</head>
<body class="entry">
<main>
<p class="back"><a href="../index.html">{_e(h.back)}</a></p>
<header class="card">
<h1><bdi>{_e(h.player)}</bdi></h1>
<p><span class="verdict {h.verdict.value}">{_e(h.verdict_text)}</span> {_e(h.summary)}</p>
{standing}{won}
<dl class="facts">{facts}</dl>
</header>
{body}
<footer>{_e(h.footer)}</footer>
</main>
</body>
</html>
"""
