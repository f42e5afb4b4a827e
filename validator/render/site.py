"""The static results site of `road300 batch --site DIR`: an index page with the leaderboard,
a score chart, the dice file, the rules and how the draw is made, and one report page per
entry (the same page as `road300 report`).

Everything is relative to DIR (no script, no network), so the site works from the file
system and on any web host. No e-mail address and no message text goes on it: players
are named by their record or their display name, never by their address, and every
sender address is also blotted out of every page written, whatever a record holds.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

from jinja2 import Environment
from markupsafe import Markup

from validator import __version__
from validator.check.replay import Verdict
from validator.contest.batch import Batch, Entry, Par
from validator.contest.mail import Reading
from validator.engine import Ruleset
from validator.language import i18n
from validator.records.dice import read_dice
from validator.render import texts

# The report's template environment: one loader and one set of escaping rules for both.
from validator.render.shared import environment as _environment
from validator.render.texts import say
from validator.report.model import Report, build_report, how_to_read
from validator.system.atomic import write_bytes, write_file

_ADDRESS = re.compile(r"[^\s@<>]+@[^\s@<>]+")
CHART_BAND = 25


@cache
def environment() -> Environment:
    """The site's template environment: the report's loader and escaping rules, with
    Jinja2's i18n extension: the site's templates say `_("...")`, which Babel's Jinja2
    extractor finds and `i18n.gettext` translates into the language `i18n.speaking` sets
    while a page renders."""
    base = _environment()
    # Not an overlay: an overlay shares the report environment's extension hooks.
    env = Environment(
        loader=base.loader,
        autoescape=base.autoescape,
        finalize=base.finalize,
        undefined=base.undefined,
        trim_blocks=base.trim_blocks,
        lstrip_blocks=base.lstrip_blocks,
        keep_trailing_newline=base.keep_trailing_newline,
        extensions=["jinja2.ext.i18n"],
    )
    cast(Any, env).install_gettext_callables(
        i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext
    )
    return env


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the leaderboard, as shown (plain text; the template escapes it)."""

    rank: str
    player: str
    score: str
    par: str
    verdict: str
    end: str
    notes: tuple[str, ...]
    page: str
    css: str


_ANY_ADDRESS = re.compile(r"(?<![\w.+%-])[\w.+%-]+@[\w-]+(?:\.[\w-]+)+")
"""What looks like an e-mail address (`name@host.tld`), for the site to hide."""

_PAGE_NAME = re.compile(r"entries/[0-9]{4,}\.html")
"""The report pages in the site (`SiteWriter.page`)."""
_SITE_FILES = re.compile(
    r"index\.html|dice\.(?:txt|csv|json|yaml|yml)|entries/[0-9]{4,}\.html|(?:.*/)?\..*\.tmp"
)
"""Every file the site writer makes (a temporary one too), relative to the site."""


def site_file(rel: str) -> bool:
    """Whether `rel` (relative to the site, `/` separators) is a file a site writer makes;
    a new site carries over everything else (records/atomic.NewFolder)."""
    return _SITE_FILES.fullmatch(rel) is not None


def report_page(rel: str) -> bool:
    """Whether `rel` (relative to the site) is an entry's report page."""
    return _PAGE_NAME.fullmatch(rel) is not None


class SiteWriter:
    """Writes the report pages as the entries come, then the index page, in `lang` (each
    report page in its entry's own language: pages.py renders it)."""

    def __init__(
        self,
        folder: Path,
        batch: Batch,
        *,
        name: str | None,
        dice: Path | None,
        rules: Ruleset | None,
        draw: tuple[int | None, str | None],
        lang: i18n.Language = i18n.DEFAULT,
    ) -> None:
        self.folder = folder
        self.batch = batch
        self.name = name
        self.dice = dice
        self.rules = rules
        self.draw = draw
        self.lang = lang
        self.number = {e.file: n for n, e in enumerate(batch.entries, start=1)}
        addresses = {e.source.address for e in batch.entries if e.source and e.source.address}
        self.senders = any_of({form for a in addresses for form in (a, html.escape(a))})
        """Every sender address, as written or HTML-escaped, found in one pass of a page
        (one pattern per sender made the site's cost grow with senders times pages)."""
        self.written: list[Path] = []
        self.first: Report | None = None
        """The first entry's report: the rules section explains its ruleset."""
        with i18n.speaking(lang):
            self.hidden = say("site.hidden")
        (folder / "entries").mkdir(parents=True, exist_ok=True)

    def page(self, entry: Entry) -> str:
        return f"entries/{self.number[entry.file]:04d}.html"

    def add(self, reading: Reading, page: str | None, lang: i18n.Language | None = None) -> None:
        """Write the report page (`page`, the entry's HTML report, in `lang`: the entry's
        language) of the entry `reading` is; nothing for a skipped message."""
        if reading.result is None or page is None or reading.file not in self.number:
            return
        if self.first is None:
            self.first = build_report(reading.result)
        entry = self.batch.entries[self.number[reading.file] - 1]
        with i18n.speaking(lang or self.lang):
            hidden = say("site.hidden")
        relative = self.page(entry)
        self._write(relative, page, hidden)
        self.written.append(self.folder / relative)

    def _write(self, relative: str, text: str, hidden: str | None = None) -> None:
        # Each page whole or not at all: an interrupted run never leaves a cut page.
        write_file(self.folder / relative, self.blot(text, hidden or self.hidden))

    def blot(self, text: str, hidden: str) -> str:
        """`text` with every sender address (as written, or HTML-escaped) as `hidden`, and
        then anything else that looks like an address: the address of a sender who sent
        no entry (a question) can stand in another record, a name or an error's quote."""
        if self.senders is not None:
            text = self.senders.sub(lambda _: hidden, text)
        return _ANY_ADDRESS.sub(lambda _: hidden, text)

    def finish(self) -> None:
        """Copy the dice file and write index.html."""
        dice_link = dice_sha = None
        if self.dice is not None:
            target = "dice" + (self.dice.suffix.lower() or ".txt")
            if self.dice.suffix.lower() not in (".txt", ".csv", ".json", ".yaml", ".yml"):
                target = "dice.txt"
            write_bytes(self.folder / target, self.dice.read_bytes())
            dice_link, dice_sha = target, read_dice(self.dice).sha256
        with i18n.speaking(self.lang):
            page = self._index(dice_link, dice_sha)
        self._write("index.html", page)

    def _index(self, dice_link: str | None, dice_sha: str | None) -> str:
        batch = self.batch
        s = batch.summary()
        winners, seed = self.draw
        winners_text = (
            say("site.draw.winners.unknown") if winners is None else texts.winners(winners)
        )
        title = say("site.title", name=self.name) if self.name else say("site.title.default")
        par = batch.par
        summary = say(
            "site.summary",
            entries=texts.entries(s.entries),
            counts=texts.counts(s.valid, s.incomplete, s.invalid, s.malformed),
        )
        first = self.first
        return (
            environment()
            .get_template("site_index.html.j2")
            .render(
                lang=self.lang,
                title=title,
                summary=f"{summary} {texts.reached(len(s.reached), batch.min_score)}",
                rows=[self._row(e) for e in batch.entries],
                show_par=par is not None,
                par_text=None if par is None else par_text(par),
                chart=Markup(score_chart(batch)),
                dice_link=dice_link,
                dice_sha=dice_sha,
                rules_line=say(
                    "site.rules.name",
                    rules=(first.rules if first else None)
                    or (self.rules.name if self.rules else "standard"),
                ),
                rules_text=how_to_read(first) if first else (),
                draw_text=say(
                    "site.draw.text", points=texts.points(batch.min_score), winners=winners_text
                ),
                seed_text=say("site.draw.seed", seed=seed) if seed else say("site.draw.seed.later"),
                footer=say("site.footer", version=__version__),
            )
        )

    def _row(self, e: Entry) -> Row:
        notes: list[str] = []
        if e.verdict is Verdict.INCOMPLETE:
            notes.append(say("site.mark.incomplete"))
        if e.late:
            notes.append(say("site.mark.late"))
        if e.superseded:
            notes.append(say("site.mark.superseded"))
        if e.copies:
            names = dict.fromkeys(self.player_of(self._entry(f)) for f in e.copies)
            others = ", ".join(names)
            notes.append(say("site.mark.copy", others=others))
        css = "late" if e.late else "superseded" if e.superseded else e.verdict.value
        return Row(
            rank="–" if e.rank is None else i18n.number(e.rank),  # noqa: RUF001 - an en dash
            player=self.player_of(e),
            score="" if e.score is None else i18n.number(e.score),
            par="" if e.par_share is None else i18n.percent(e.par_share),
            verdict=say(f"site.verdict.{e.verdict.value}"),
            end=say(f"site.end.{e.end.value}") if e.end else "",
            notes=tuple(notes),
            page=self.page(e),
            css=css,
        )

    def _entry(self, file: str) -> Entry:
        return self.batch.entries[self.number[file] - 1]

    def player_of(self, e: Entry) -> str:
        """The record's player or the sender's display name; never an address."""
        name = e.player if e.source is not None else e.player_name
        if not name or _ADDRESS.search(name):
            return say("site.player.unnamed", number=self.number[e.file])
        return name


def any_of(words: set[str]) -> re.Pattern[str] | None:
    """One case-insensitive pattern matching any of `words` (the longest at each place),
    or None for none: a trie of them, so that a text costs one pass whatever their number;
    words so alike that the trie nests too deep for `re` (hundreds of levels) get a plain
    alternation, longest first, which is slower but still one pass."""
    if not words:
        return None
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for char in word.lower():
            node = node.setdefault(char, {})
        node[""] = {}  # a word ends here
    try:
        return re.compile(_trie_pattern(trie), re.IGNORECASE)
    except RecursionError:
        plain = sorted(words, key=len, reverse=True)
        return re.compile("|".join(map(re.escape, plain)), re.IGNORECASE)


def _trie_pattern(node: dict[str, Any]) -> str:
    branches = []
    for char in sorted(k for k in node if k):
        child, text = node[char], char
        while len(child) == 1 and "" not in child:  # a chain of single children: literal
            ((more, child),) = child.items()
            text += more
        branches.append(re.escape(text) + _trie_pattern(child))
    if not branches:
        return ""
    body = "(?:" + "|".join(branches) + ")"
    return body + "?" if "" in node else body


def par_text(par: Par) -> str:
    """The par sentence: proven, or "at least X (bound Y)", and whether the clock decided."""
    if par.proven:
        return say("site.par", points=texts.points(par.score), how=say("site.par.proven"))
    clock = say("site.par.clock") if par.stopped == "time" else ""
    return say(
        "site.par.open", points=texts.points(par.score), bound=i18n.number(par.bound), clock=clock
    )


def score_chart(batch: Batch) -> str:
    """An SVG bar chart: how many ranked entries scored in each band, with par marked (in
    the current language)."""
    scores = [e.score for e in batch.entries if e.ranked and e.score is not None]
    if not scores:
        return f"<p>{html.escape(say('site.chart.none'))}</p>"
    par = batch.par.score if batch.par is not None else None
    top = max([*scores, par or 0, batch.min_score])
    bands = top // CHART_BAND + 1
    counts = [0] * bands
    for score in scores:
        counts[score // CHART_BAND] += 1
    width, height, left, bottom = 640, 220, 36, 28
    bar = (width - left - 8) / bands
    peak = max(counts)
    label = say(
        "site.chart.label",
        points=texts.points(CHART_BAND),
        par=say("site.chart.par", points=texts.points(par)) if par is not None else "",
    )
    n = i18n.number
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{html.escape(label)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{html.escape(label)}</title>",
    ]
    plot = height - bottom - 10
    for i, count in enumerate(counts):
        x = left + i * bar
        h = plot * count / peak
        if count:
            parts.append(
                f'<rect x="{x + 1:.1f}" y="{10 + plot - h:.1f}" width="{bar - 2:.1f}" '
                f'height="{h:.1f}" class="bar"><title>{n(i * CHART_BAND)}-'
                f"{n((i + 1) * CHART_BAND - 1)}: {n(count)}</title></rect>"
            )
        if i % max(1, bands // 8) == 0:
            parts.append(
                f'<text x="{x:.1f}" y="{height - 10}" class="tick">{n(i * CHART_BAND)}</text>'
            )
    parts.append(f'<text x="4" y="20" class="tick">{n(peak)}</text>')
    line_y = 10 + plot
    parts.append(f'<line x1="{left}" y1="{line_y}" x2="{width - 8}" y2="{line_y}" class="axis"/>')
    marks = (
        (batch.min_score, "goal", n(batch.min_score)),
        (par, "par", say("site.chart.par.mark")),
    )
    for goal, css, text in marks:
        if goal is None:
            continue
        x = left + goal / CHART_BAND * bar
        parts.append(f'<line x1="{x:.1f}" y1="10" x2="{x:.1f}" y2="{line_y}" class="{css}"/>')
        parts.append(f'<text x="{x + 3:.1f}" y="22" class="tick {css}">{html.escape(text)}</text>')
    parts.append("</svg>")
    return "".join(parts)
