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
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from validator import __version__
from validator.check.replay import Result, RoundResult, Verdict
from validator.contest.batch import Batch, Entry, Par
from validator.contest.mail import Reading
from validator.engine import Ruleset, roll_text
from validator.errors import Diagnostic
from validator.language import i18n
from validator.language.i18n import _
from validator.language.wording import points, round_kind
from validator.records.dice import read_dice
from validator.render import texts
from validator.render.sanitize import html_value
from validator.render.shared import PLAY_FILE, STYLESHEET, environment, site_assets, summary
from validator.render.svg import Sheets, sheet_pieces
from validator.render.texts import say
from validator.report.model import Report, build_report, help_text, how_to_read, move_cell
from validator.system.atomic import ENCODING_ERRORS, write_bytes, write_file

if TYPE_CHECKING:
    from validator.contest.ledger import DrawRecord

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


PlayPage = Callable[[str], "str | None"]
"""play.html for the dice file's copy of that name (the command gives render/play.py's,
as no renderer imports another), or None when the browser game cannot play the rules."""


def dice_copy_name(dice: Path) -> str:
    """The name of the dice file's copy on the site: `dice` and its suffix (a known one)."""
    suffix = dice.suffix.lower()
    return "dice" + suffix if suffix in (".txt", ".csv", ".json", ".yaml", ".yml") else "dice.txt"


@dataclass(frozen=True, slots=True)
class DrawnEntry:
    """One entry of a draw's eligible list, as the site shows it."""

    file: str
    """The entry's file in the results (`inbox.mbox#3/game.yaml`): its key in the draw."""
    player: str
    """Its player's name as published (never an address: the site blots any)."""
    game_sha256: str
    """The SHA-256 of its game (the ledger's), so that anyone can tell the entry."""


@dataclass(frozen=True, slots=True)
class PublishedDraw:
    """A draw once it is made, for the site to show (`SiteWriter(published=...)`): the
    recorder of the draw (the contest's ledger) passes it in; the site shows the seed, the
    eligible entries in the draw's order, the winners and the command that repeats it."""

    seed: str
    eligible: tuple[DrawnEntry, ...]
    """In the draw's order (contest/draw.draw sorts them by file)."""
    winners: tuple[str, ...]
    """The winners' files, first drawn first."""
    command: str
    """`road300 draw results.json --winners 3 --seed "..."`: the command that repeats it."""
    list_sha256: str = ""
    """The SHA-256 of the eligible list (contest/draw.Draw.list_sha256), when known."""
    made: datetime | None = None
    """When the draw was made."""

    @classmethod
    def of(cls, record: DrawRecord) -> PublishedDraw:
        """The draw as a running challenge's ledger keeps it (contest/ledger.py)."""

        def entry(d: dict[str, str | int | None]) -> DrawnEntry:
            return DrawnEntry(str(d.get("file") or ""), str(d.get("player") or ""),
                              str(d.get("game") or ""))  # fmt: skip

        try:
            made: datetime | None = datetime.fromisoformat(record.at)
        except ValueError:
            made = None
        return cls(
            seed=record.seed,
            eligible=tuple(entry(d) for d in record.eligible),
            winners=tuple(entry(d).file for d in record.drawn),
            command=record.command,
            made=made,
        )


@dataclass(frozen=True, slots=True)
class DrawRow:
    player: str
    game_sha256: str
    won: str
    """`1st`, `2nd`... for a winner, else empty."""
    page: str | None


@dataclass(frozen=True, slots=True)
class DrawView:
    made: str
    seed: str
    winners: str
    rows: tuple[DrawRow, ...]
    command: str
    list_sha256: str


_ANY_ADDRESS = re.compile(r"(?<![\w.+%-])[\w.+%-]+@[\w-]+(?:\.[\w-]+)+")
"""What looks like an e-mail address (`name@host.tld`), for the site to hide."""

_ADDRESS_MARK = "[road300: the address to send to]"
"""Where the index shows the address to send to, filled in once the page is blotted: its
first mark, above the leaderboard, so no player's name can move the address elsewhere."""

_PAGE_NAME = re.compile(r"entries/[0-9]{4,}\.html")
"""The report pages in the site (`SiteWriter.page`)."""
_SITE_FILES = re.compile(
    r"index\.html|site\.(?:css|js)|play\.html|dice\.(?:txt|csv|json|yaml|yml)|entries/[0-9]{4,}\.html|(?:.*/)?\..*\.tmp"
)
"""Every file the site writer makes (a temporary one too), relative to the site."""


def site_file(rel: str) -> bool:
    """Whether `rel` (relative to the site, `/` separators) is a file a site writer makes;
    a new site carries over everything else (records/atomic.NewFolder)."""
    return _SITE_FILES.fullmatch(rel) is not None


def report_page(rel: str) -> bool:
    """Whether `rel` (relative to the site) is an entry's report page."""
    return _PAGE_NAME.fullmatch(rel) is not None


@dataclass(eq=False)
class SiteWriter:
    """Writes the report pages as the entries come, then the index page, in `lang` (each
    report page in its entry's own language: pages.py renders it)."""

    folder: Path
    batch: Batch
    _: KW_ONLY
    name: str | None
    dice: Path | None
    rules: Ruleset | None
    draw: tuple[int | None, str | None]
    lang: i18n.Language = i18n.DEFAULT
    deadline: datetime | None = None
    published: PublishedDraw | None = None
    play: PlayPage | None = None
    address: str | None = None
    """The address to send records to (the contest file's public_address, while records
    may be sent), shown on the index: the one address the site does not blot out."""

    def __post_init__(self) -> None:
        entries = self.batch.entries
        self.number = {e.file: n for n, e in enumerate(entries, start=1)}
        addresses = {e.source.address for e in entries if e.source and e.source.address}
        self.scrub = _scrub({form for a in addresses for form in (a, html.escape(a))})
        """Every sender address, as written or HTML-escaped, and anything else that looks
        like an address, found in one pass of a page (one pattern per sender made the
        site's cost grow with senders times pages)."""
        self.written: list[Path] = []
        self.reasons: dict[str, str] = {}
        """Why each invalid or unreadable entry is, in a few words (its file: the words)."""
        self.first: Report | None = None
        """The first entry's report: the rules section explains its ruleset."""
        with i18n.speaking(self.lang):
            self.hidden = say("site.hidden")
        (self.folder / "entries").mkdir(parents=True, exist_ok=True)

    def page(self, entry: Entry) -> str:
        return f"entries/{self.number[entry.file]:04d}.html"

    def add(self, reading: Reading, body: str | None = None) -> None:
        """Write the page of the entry `reading` is (nothing for a skipped message): `body`
        is its game (`entry_body` in the site's language, made in a worker of render/pages.py),
        made here when not given."""
        if reading.result is None or reading.file not in self.number:
            return
        if self.first is None:
            self.first = build_report(reading.result)
        entry = self._entry(reading.file)
        with i18n.speaking(self.lang):
            if body is None:
                body = entry_body(reading.result)
            if entry.verdict in (Verdict.INVALID, Verdict.MALFORMED) and reading.result.error:
                self.reasons[entry.file] = _reason(reading.result.error)
            page = entry_page(self._head(entry, reading.result), body)
        relative = self.page(entry)
        # Written once, plainly: the folder is new (records/atomic.NewFolder) and swapped in
        # whole, so a page is never seen cut; syncing each of 10,000 pages cost more than
        # making them.
        path = self.folder / relative
        with open(path, "x", encoding="utf-8", errors=ENCODING_ERRORS) as handle:
            handle.write(self.blot(page, self.hidden))
        self.written.append(path)

    def _head(self, e: Entry, result: Result) -> EntryHead:
        """What the page of `e` says of its standing, in the site's language."""
        standing: list[str] = []
        status = [say(f"site.verdict.{e.verdict.value}")]
        if e.rank is not None:
            standing.append(say("site.entry.rank", rank=i18n.number(e.rank)))
            status.append(say("site.entry.rank.short", rank=i18n.number(e.rank)))
        if e.late:
            when = i18n.when(self.deadline, zone=True) if self.deadline else ""
            standing.append(
                say("site.entry.late", deadline=when) if when else say("site.entry.late.plain")
            )
            status.append(say("site.mark.late"))
        if e.superseded:
            standing.append(say("site.entry.superseded"))
            status.append(say("site.mark.superseded"))
        if e.copies:
            standing.append(say("site.entry.copy", others=self._others(e)))
            status.append(say("site.mark.copy.short"))
        facts = [(say("site.entry.rules"), result.rules.name)]
        if result.dice_sha256:
            facts.append((say("site.entry.dice"), result.dice_sha256))
        return EntryHead(
            lang=self.lang,
            site_name=self._title(),
            player=self.player_of(e),
            verdict=e.verdict,
            verdict_text=say(f"site.verdict.{e.verdict.value}"),
            summary=summary(result, repeat=False, wins=False),
            standing=tuple(standing),
            status=", ".join(status),
            # Only a ranked entry can win: never a late or superseded one; nor is a game
            # that more than one entry played said to win (the organizer decides).
            won=e.rank is not None
            and e.verdict is Verdict.VALID
            and (e.score or 0) >= 300
            and not e.copies,
            facts=tuple(facts),
            back=say("site.entry.back"),
            footer=say("site.footer", version=__version__),
        )

    def _title(self) -> str:
        return say("site.title", name=self.name) if self.name else say("site.title.default")

    def _others(self, e: Entry) -> str:
        """The players of the other entries that played the game of `e`."""
        return ", ".join(dict.fromkeys(self.player_of(self._entry(f)) for f in e.copies))

    def blot(self, text: str, hidden: str) -> str:
        """`text` with every sender address (as written, or HTML-escaped) as `hidden`, and
        then anything else that looks like an address: the address of a sender who sent
        no entry (a question) can stand in another record, a name or an error's quote."""
        if "@" not in text:  # every address has one: most pages need no more than this
            return text
        return self.scrub.sub(lambda _: hidden, text)

    def finish(self) -> None:
        """Copy the dice file and write play.html (when the command gave `play`), the
        site's stylesheet and script, and index.html."""
        dice_link = dice_sha = None
        play = None
        if self.dice is not None:
            target = dice_copy_name(self.dice)
            write_bytes(self.folder / target, self.dice.read_bytes())
            dice_link, dice_sha = target, read_dice(self.dice).sha256
            play = self.play(target) if self.play is not None else None
            if play is not None:
                write_file(self.folder / PLAY_FILE, play)
        with i18n.speaking(self.lang):
            page = self._index(dice_link, dice_sha, play is not None)
        for name, text in site_assets().items():
            if name == STYLESHEET or play is not None:  # the script is play.html's
                write_file(self.folder / name, text)
        # Whole or not at all: an interrupted run never leaves a cut page.
        page = self.blot(page, self.hidden)
        if self.address is not None:  # its mark, once blotted
            page = page.replace(_ADDRESS_MARK, html.escape(self.address), 1)
        write_file(self.folder / "index.html", page)

    def _index(self, dice_link: str | None, dice_sha: str | None, play: bool = False) -> str:
        batch = self.batch
        s = batch.summary()
        winners, seed = self.draw
        winners_text = (
            say("site.draw.winners.unknown") if winners is None else texts.winners(winners)
        )
        par = batch.par
        summary = say(
            "site.summary",
            entries=texts.entries(s.entries),
            counts=texts.counts(s.valid, s.incomplete, s.invalid, s.malformed),
        )
        first = self.first
        return (
            environment(newstyle=True)
            .get_template("site_index.html.j2")
            .render(
                lang=self.lang,
                csp=Markup(CSP),  # a constant: its quotes stay as they are
                stylesheet=STYLESHEET,
                title=self._title(),
                summary=f"{summary} {texts.reached(len(s.reached), batch.min_score)}",
                rows=[self._row(e) for e in batch.entries],
                show_par=par is not None,
                par_text=None if par is None else par_text(par),
                chart=Markup(score_chart(batch)),
                dice_link=dice_link,
                play_link=PLAY_FILE if play else None,
                dice_sha=dice_sha,
                rules_line=say(
                    "site.rules.name",
                    rules=(first.rules if first else None)
                    or (self.rules.name if self.rules else "standard"),
                ),
                rules_text=how_to_read(first) if first else (),
                draw_text=say(
                    "site.draw.text" if self.published is None else "site.draw.text.made",
                    points=texts.points(batch.min_score),
                    winners=winners_text,
                ),
                seed_text=say("site.draw.seed", seed=seed) if seed else say("site.draw.seed.later"),
                send_text=(
                    _("Send your record to {address}.").format(address=_ADDRESS_MARK)
                    if self.address is not None
                    else ""
                ),
                deadline_text=(
                    say("site.deadline", deadline=i18n.when(self.deadline, zone=True))
                    if self.deadline
                    else ""
                ),
                drawn=self._drawn(),
                repeat_text=say("site.draw.repeat"),
                footer=say("site.footer", version=__version__),
            )
        )

    def _drawn(self) -> DrawView | None:
        """The draw once made, as the index shows it."""
        d = self.published
        if d is None:
            return None
        by_file = {e.file: e for e in self.batch.entries}

        def name(file: str, fallback: str) -> str:
            entry = by_file.get(file)
            return self.player_of(entry) if entry is not None else fallback

        winners = {f: n for n, f in enumerate(d.winners, start=1)}
        rows = tuple(
            DrawRow(
                name(e.file, e.player),
                e.game_sha256,
                i18n.ordinal(winners[e.file]) if e.file in winners else "",
                self.page(by_file[e.file]) if e.file in by_file else None,
            )
            for e in d.eligible
        )
        made = say("site.draw.made", when=i18n.when(d.made, zone=True)) if d.made else ""
        return DrawView(
            made=made,
            seed=say("site.draw.seed", seed=d.seed),
            winners=say("site.draw.won", names=", ".join(name(f, f) for f in d.winners) or "-"),
            rows=rows,
            command=d.command,
            list_sha256=d.list_sha256,
        )

    def _row(self, e: Entry) -> Row:
        notes: list[str] = []
        if e.verdict in (Verdict.INVALID, Verdict.MALFORMED):
            fallback = f"{e.error.code} {e.error.name or ''}".strip() if e.error else ""
            notes.append(self.reasons.get(e.file, fallback))
        if e.verdict is Verdict.INCOMPLETE:
            notes.append(say("site.mark.incomplete"))
        if e.late:
            notes.append(say("site.mark.late"))
        if e.superseded:
            notes.append(say("site.mark.superseded"))
        if e.copies:
            notes.append(say("site.mark.copy", others=self._others(e)))
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


def _scrub(senders: set[str]) -> re.Pattern[str]:
    """One case-insensitive pattern for `SiteWriter.blot`: any of the senders' addresses
    (the longest at each place), then any address at all. The senders are a trie, so that
    a page costs one pass whatever their number; addresses so alike that the trie nests too
    deep for `re` (hundreds of levels) get a plain alternation, longest first, which is
    slower but still one pass."""
    trie: dict[str, Any] = {}
    for word in senders:
        node = trie
        for char in word:  # in lower case where `re` would match it ("İ" lowers to two)
            node = node.setdefault(lower if len(lower := char.lower()) == 1 else char, {})
        node[""] = {}  # a word ends here
    try:
        words = _trie_pattern(trie)
        return re.compile("|".join(filter(None, (words, _ANY_ADDRESS.pattern))), re.IGNORECASE)
    except RecursionError:
        plain = "|".join(map(re.escape, sorted(senders, key=len, reverse=True)))
        return re.compile("|".join(filter(None, (plain, _ANY_ADDRESS.pattern))), re.IGNORECASE)


REASON_CHARS = 90
"""The most characters of a leaderboard row's reason (its page says the whole)."""


def _reason(d: Diagnostic) -> str:
    """Why an entry is not valid in a few words: the error's code and message, cut."""
    text = say("site.reason", code=d.code, message=i18n.message(d))
    if len(text) > REASON_CHARS:
        text = text[: REASON_CHARS - 1].rstrip(" ,;:") + "…"
    return text


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
    # Drawn about as wide as a phone shows it, so that its 13-unit labels read as 12 px
    # there; the stylesheet keeps it from growing past twice that on a desktop.
    width, height, left, bottom = 400, 220, 36, 28
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
        if i % max(1, -(-bands // 6)) == 0:
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
        # The label beside its line, on the side with room: never cut at the edge.
        side = 'text-anchor="end" ' if x > width - 60 else ""
        tx = x - 3 if side else x + 3
        y = 22 if css == "goal" else 40
        parts.append(
            f'<text x="{tx:.1f}" y="{y}" {side}class="tick {css}">{html.escape(text)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


# -- an entry's page -------------------------------------------------------------------
# Who played, the verdict, where the entry stands (rank, late, superseded, a copy), why it
# is not valid, the final sheet and each round compactly (svg.Sheets), and a link back to
# the leaderboard, in the site's language. The body (the game) is made from the entry's
# Result alone (`entry_body`, in a worker of the pool: render/pages.py); the head
# (`entry_page`) from what only the whole batch knows.

CSP = "default-src 'none'; style-src 'self'; img-src data:"
"""The policy of the leaderboard and the entry pages: the site's stylesheet, nothing else."""


def _e(text: str) -> str:
    """Plain text for HTML: escaped, its invisible characters made visible."""
    return html.escape(html_value(text))


def entry_body(result: Result) -> str:
    """The entry's game in the current language: its errors, the final sheet and every
    round, compactly. HTML, to go inside the page's <main> after its head."""
    parts = [_errors(result)]
    rounds = result.rounds
    if rounds:
        sheets = Sheets()
        before = [0, *(r.score for r in rounds[:-1])]
        items = [_round(r, sheets, previous) for r, previous in zip(rounds, before, strict=True)]
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
    return sheet_pieces() + "".join(parts) if rounds else "".join(parts)


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
        # What the player wrote at that line, then the help (a line to write instead is
        # labelled as such: never shown as if it were the player's line).
        line = f"{d.line} | " if d.line else ""
        quote = f"<br><code>{_e(line + d.excerpt.strip())}</code>" if d.excerpt else ""
        label = _("help:")
        hint = f"<br>{_e(label)} {_e(help_text(i18n.hint(d)))}" if d.hint else ""
        lines.append(
            f'<li><b>{_e(text)}</b> <span class="where">{_e(where)}</span>{quote}{hint}</li>'
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
