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
from pathlib import Path

from markupsafe import Markup

from validator import __version__
from validator.check.replay import Verdict
from validator.contest.batch import Batch, Entry, Par
from validator.contest.mail import Reading
from validator.contest.texts import say
from validator.engine import Ruleset
from validator.records.atomic import write_bytes, write_file
from validator.records.dice import read_dice

# The report's template environment: one loader and one set of escaping rules for both.
from validator.render.html import _environment
from validator.report.model import build_report, how_to_read

HIDDEN = "(address hidden)"
_ADDRESS = re.compile(r"[^\s@<>]+@[^\s@<>]+")
CHART_BAND = 25


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


class SiteWriter:
    """Writes the report pages as the entries come, then the index page."""

    def __init__(
        self,
        folder: Path,
        batch: Batch,
        *,
        name: str | None,
        dice: Path | None,
        rules: Ruleset | None,
        draw: tuple[int | None, str | None],
    ) -> None:
        self.folder = folder
        self.batch = batch
        self.name = name
        self.dice = dice
        self.rules = rules
        self.draw = draw
        self.number = {e.file: n for n, e in enumerate(batch.entries, start=1)}
        self.addresses = sorted(
            {e.source.address for e in batch.entries if e.source and e.source.address},
            key=len,
            reverse=True,
        )
        self.rules_text: tuple[str, ...] = ()
        self.rules_name = rules.name if rules is not None else None
        (folder / "entries").mkdir(parents=True, exist_ok=True)

    def page(self, entry: Entry) -> str:
        return f"entries/{self.number[entry.file]:04d}.html"

    def add(self, reading: Reading, page: str | None) -> None:
        """Write the report page (`page`, the entry's HTML report) of the entry `reading`
        is; nothing for a skipped message."""
        if reading.result is None or page is None or reading.file not in self.number:
            return
        if not self.rules_text:
            report = build_report(reading.result)
            self.rules_text = how_to_read(report)
            self.rules_name = report.rules
        entry = self.batch.entries[self.number[reading.file] - 1]
        self._write(self.page(entry), page)

    def _write(self, relative: str, text: str) -> None:
        # Each page whole or not at all: an interrupted run never leaves a cut page.
        write_file(self.folder / relative, self.blot(text))

    def blot(self, text: str) -> str:
        """`text` with every sender address (as written, or HTML-escaped) hidden."""
        for address in self.addresses:
            for form in {address, html.escape(address)}:
                text = re.sub(re.escape(form), HIDDEN, text, flags=re.IGNORECASE)
        return text

    def finish(self) -> None:
        """Copy the dice file and write index.html."""
        dice_link = dice_sha = None
        if self.dice is not None:
            target = "dice" + (self.dice.suffix.lower() or ".txt")
            if self.dice.suffix.lower() not in (".txt", ".csv", ".json", ".yaml", ".yml"):
                target = "dice.txt"
            write_bytes(self.folder / target, self.dice.read_bytes())
            dice_link, dice_sha = target, read_dice(self.dice).sha256
        batch = self.batch
        s = batch.summary()
        winners, seed = self.draw
        if winners is None:
            winners_text = say("site.draw.winners.unknown")
        elif winners == 1:
            winners_text = say("site.draw.winners.one")
        else:
            winners_text = say("site.draw.winners", winners=winners)
        title = say("site.title", name=self.name) if self.name else say("site.title.default")
        par = batch.par
        template = _environment().get_template("site_index.html.j2")
        page = template.render(
            say=say,
            title=title,
            summary=say(
                "site.summary",
                entries=s.entries,
                valid=s.valid,
                incomplete=s.incomplete,
                invalid=s.invalid,
                malformed=s.malformed,
                reached=len(s.reached),
                goal=batch.min_score,
            ),
            rows=[self._row(e) for e in batch.entries],
            show_par=par is not None,
            par_text=None if par is None else par_text(par),
            chart=Markup(score_chart(batch)),
            dice_link=dice_link,
            dice_sha=dice_sha,
            rules_name=self.rules_name or "standard",
            rules_text=self.rules_text,
            draw_text=say("site.draw.text", goal=batch.min_score, winners=winners_text),
            seed_text=say("site.draw.seed", seed=seed) if seed else say("site.draw.seed.later"),
            footer=say("site.footer", version=__version__),
        )
        self._write("index.html", page)

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
            rank="–" if e.rank is None else str(e.rank),  # noqa: RUF001 - an en dash: no rank
            player=self.player_of(e),
            score="" if e.score is None else str(e.score),
            par="" if e.par_share is None else f"{e.par_share:.0%}",
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


def par_text(par: Par) -> str:
    """The par sentence: proven, or "at least X (bound Y)", and whether the clock decided."""
    if par.proven:
        return say("site.par", par=par.score, how=say("site.par.proven"))
    clock = say("site.par.clock") if par.stopped == "time" else ""
    return say("site.par.open", par=par.score, bound=par.bound, clock=clock)


def score_chart(batch: Batch) -> str:
    """An SVG bar chart: how many ranked entries scored in each band, with par marked."""
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
        width=CHART_BAND,
        par=say("site.chart.par", par=par) if par is not None else "",
    )
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
                f'height="{h:.1f}" class="bar"><title>{i * CHART_BAND}-'
                f"{(i + 1) * CHART_BAND - 1}: {count}</title></rect>"
            )
        if i % max(1, bands // 8) == 0:
            parts.append(
                f'<text x="{x:.1f}" y="{height - 10}" class="tick">{i * CHART_BAND}</text>'
            )
    parts.append(f'<text x="4" y="20" class="tick">{peak}</text>')
    line_y = 10 + plot
    parts.append(f'<line x1="{left}" y1="{line_y}" x2="{width - 8}" y2="{line_y}" class="axis"/>')
    for goal, css, text in ((batch.min_score, "goal", str(batch.min_score)), (par, "par", "par")):
        if goal is None:
            continue
        x = left + goal / CHART_BAND * bar
        parts.append(f'<line x1="{x:.1f}" y1="10" x2="{x:.1f}" y2="{line_y}" class="{css}"/>')
        parts.append(f'<text x="{x + 3:.1f}" y="22" class="tick {css}">{text}</text>')
    parts.append("</svg>")
    return "".join(parts)
