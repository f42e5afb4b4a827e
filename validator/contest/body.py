"""The record typed into an e-mail's body: the block of dice lines between the greeting and
the signature, and the text of an HTML body.

A body's record is its block of round lines, with the header lines just above it (like
`player:` or `Spieler:`) and a total line just below. Greetings, prose, the signature
(after `-- `) and quoted text (`>` lines, and everything below "On ... wrote:",
"Am ... schrieb ...:" or "Le ... a écrit :") are left out: their lines become blank, so
every line of the record keeps its number in the body, and a line inside the block that
the grammar cannot read is still an error at its line.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from html import unescape

from validator.records.header import AFTER_ROUNDS, SYNONYMS, key_of
from validator.records.language import MAX_WORDS, WORDS
from validator.records.lexing import normal
from validator.records.table import DELIMITERS, header_row, is_separator
from validator.records.text_record import (
    GAME_ROUNDS,
    PHRASES,
    header_match,
    numbered_round,
    total_row,
    typed_round,
)

_ROUND = re.compile(
    r"[ \t]*(?:(?P<row>\d{1,4})[ \t]*[:.)][ \t]*)?[(\[]?[ \t]*\d(?:[ \t]*[,;-]?[ \t]*\d){2}(?!\d)"
    r"(?P<rest>.*)\Z"
)
_WORD = re.compile(r"[^\W\d_]+(?:[ -][^\W\d_]+)?")
_ANNOTATION_SIGNS = "([-\u2013>\u2192x\u00d7"
"""What an annotation may start with: brackets, dashes and arrows, x and the times sign."""
_ANNOTATION_WORDS = sorted(p for p in PHRASES if len(p) > 1)

_THREE_DICE = re.compile(
    r"(?<![\d/.,])[1-6](?:[ \t]*[,;-][ \t]*|[ \t]+)[1-6](?:[ \t]*[,;-][ \t]*|[ \t]+)[1-6]"
    r"(?![\d/])|(?<![\d/.,])[1-6]{3}(?![\d/])"
)
"""Three dice somewhere on a line: `1 4 6`, `1,4,6`, `(1-4-6)`, `146`."""
MIN_LOOSE_ROUNDS = GAME_ROUNDS
"""Lines holding three dice that make a body an entry whatever else they say."""
MAX_LINE = 500
"""How much of a line is searched for three dice."""
MAX_BODY_LINES = 2000
"""A body is read no further than this many lines (a record has one per dice row)."""
MAX_RECORDS = 3
"""Blocks looked for in a body: two already make the message malformed."""
MAX_WORD = 40

_ATTRIBUTION = (
    re.compile(r"\s*On\b.{0,400}\bwrote:\s*\Z", re.IGNORECASE | re.DOTALL),
    re.compile(r"\s*Am\b.{0,400}\bschrieb\b.{0,200}:\s*\Z", re.IGNORECASE | re.DOTALL),
    re.compile(r"\s*Le\b.{0,400}\ba\s+[ée]crit\s*:\s*\Z", re.IGNORECASE | re.DOTALL),
    re.compile(
        r"\s*-{2,}\s*(?:Original Message|Ursprüngliche Nachricht|Original-Nachricht|"
        r"Message d'origine|Message original)\s*-{2,}\s*\Z",
        re.IGNORECASE,
    ),
)
"""Where a reply's quoted message begins (English, German, French mail clients)."""
_SIGNATURE = re.compile(r"--[ \t]?\Z")


@dataclass(frozen=True, slots=True)
class BodyRecord:
    """One record found in a body: its text (other lines blank) and where it starts."""

    text: str
    first_line: int
    last_line: int


def own_lines(text: str) -> list[str]:
    """The body's first `MAX_BODY_LINES` lines (and the one after, which an attribution
    may wrap onto) with quoted text, the quoted message and the signature blanked; the
    rest of a longer body is not split into lines at all."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n", MAX_BODY_LINES + 1)
    lines = lines[: MAX_BODY_LINES + 1]
    out: list[str] = []
    for n, line in enumerate(lines):
        if _SIGNATURE.match(line) or _attribution(lines, n):
            return out + [""] * (len(lines) - n)
        out.append("" if line.lstrip().startswith(">") else line)
    return out


def _attribution(lines: list[str], n: int) -> bool:
    line = lines[n]
    if len(line) > 500:
        return False
    if any(p.match(line) for p in _ATTRIBUTION):
        return True
    # Clients wrap a long "On ..., Bob <bob@example> wrote:" over two lines.
    if n + 1 < len(lines) and len(lines[n + 1]) < 200:
        joined = line + " " + lines[n + 1]
        return lines[n + 1].rstrip().endswith(":") and any(p.match(joined) for p in _ATTRIBUTION)
    return False


def _round_row(line: str) -> tuple[bool, int | None]:
    """Whether a line is a dice line (played or not), and its row number if it has one."""
    m = _ROUND.match(line)
    if m is None:
        if line.lstrip().startswith("|"):  # a Markdown table's row: `| 1 | 1 4 6 | 6/4 |`
            # (or with a column per die: `| 1 | 1 | 4 | 6 | 6/4 |`)
            return _THREE_DICE.search(line[:MAX_LINE].replace("|", " ")) is not None, None
        typed = typed_round(line)
        if typed[0]:
            return typed
        return _sheet_row(line[:MAX_LINE]), None
    rest = m["rest"].strip()
    if rest and not rest.startswith(("#", "//")) and not re.search(r"\d", rest):
        word = _WORD.match(rest.lstrip(_ANNOTATION_SIGNS + ": "))
        prose = (
            rest[0] not in _ANNOTATION_SIGNS
            and word is not None
            and not _annotation_word(normal(word.group()[:MAX_WORD]))
        )
        if prose:
            return False, None  # a line of prose that starts with a number: "315 points!"
    return True, int(m["row"]) if m["row"] else None


MAX_CELL = 16
"""A spreadsheet row's cells are short (`6 5 1`, `reroll`); a sentence's parts are not."""


def _sheet_row(head: str) -> bool:
    """A spreadsheet's row, its cells in any order (`6/3<TAB>6 5 1<TAB>1/6<TAB>5<TAB>11`,
    `;` between them, or a column per die): three cells or more, all short, three dice
    among them."""
    for delimiter in "\t;":
        cells = head.split(delimiter)
        if len(cells) >= 3 and all(len(c.strip()) <= MAX_CELL for c in cells):
            return _THREE_DICE.search(head.replace(delimiter, " ")) is not None
    return False


def _header_key(line: str) -> str | None:
    """The key a `key: value` line means (a close misspelling counts, so that the grammar
    can say what it meant), else None."""
    m = header_match(line)
    if m is None or not m["rest"].strip():
        return None
    key = key_of(m["key"])
    if key is not None:
        return key
    return _close_key(normal(m["key"][:MAX_WORD]).replace("-", "_"))


@lru_cache(maxsize=4096)
def _annotation_word(folded: str) -> bool:
    """A word of the annotation, or a misspelling of one (the grammar then says which)."""
    if folded in PHRASES or folded.split()[0] in PHRASES:
        return True
    return bool(difflib.get_close_matches(folded, _ANNOTATION_WORDS, 1, 0.7))


@lru_cache(maxsize=4096)
def _close_key(folded: str) -> str | None:
    close = difflib.get_close_matches(folded, list(SYNONYMS), n=1, cutoff=0.8)
    return SYNONYMS[close[0]] if close else None


def _is_note(line: str) -> bool:
    """A blank line, a `#` comment or a table's column row (or its Markdown separator): it
    may stand between the header lines and the rounds."""
    stripped = line.strip()
    return (
        not stripped
        or stripped.startswith(("#", "//"))
        or is_separator(stripped)
        or header_row(line, 0) is not None
    )


def _total_row(line: str) -> bool:
    """Whether a line is a table's total row (`| Total | | | | 95 |`, `Gesamt<TAB>340`)."""
    head = line[:MAX_LINE]
    return any(d in head and total_row(head, d) is not None for d in DELIMITERS)


def _loose_block(lines: list[str]) -> tuple[int, int] | None:
    """The lines from the first to the last that hold three dice, when there are at least
    `MIN_LOOSE_ROUNDS` of them: a game typed in a form no rule above knows is still an
    entry (the reader then says line by line what it could not read)."""
    dice = [n for n, line in enumerate(lines) if _THREE_DICE.search(line[:MAX_LINE])]
    return (dice[0], dice[-1]) if len(dice) >= MIN_LOOSE_ROUNDS else None


def find_records(text: str) -> list[BodyRecord]:
    """The records in a body: each block of dice lines with its header and total lines.

    A block ends at its last dice line; a header line (other than a total) after dice
    lines, or a row number 1 after higher rows, starts another one."""
    lines = own_lines(text)[:MAX_BODY_LINES]
    blocks: list[tuple[int, int]] = []  # first and last dice line, 0-based
    start = last = -1
    previous_row = 0
    numbered = -1  # the first of the numbered rounds not read (`Roll 1: 1a 4b 6c`) above
    for n, line in enumerate(lines):
        is_round, row = _round_row(line)
        if not is_round and numbered_round(line[:MAX_LINE]):
            # A round typed so that it is not read: inside a block (or just above one) it
            # is the block's, to be said as an error at its line, never left out.
            if start >= 0:
                last = n
            elif numbered < 0:
                numbered = n
            continue
        if is_round:
            restart = row is not None and row <= 1 < previous_row
            if start >= 0 and restart:
                blocks.append((start, last))
                start = -1
            if start < 0:
                start = numbered if numbered >= 0 else n
            numbered = -1
            last = n
            previous_row = row if row is not None else previous_row + 1
            continue
        if line.strip():
            numbered = -1
        if len(blocks) >= MAX_RECORDS:
            break  # enough to say the body holds more than one record
        key = _header_key(line) if start >= 0 else None
        if key is not None and key not in AFTER_ROUNDS:
            blocks.append((start, last))
            start, previous_row = -1, 0
    if start >= 0 and len(blocks) < MAX_RECORDS:
        blocks.append((start, last))
    if not blocks and (loose := _loose_block(lines)) is not None:
        blocks.append(loose)
    found = []
    for first, end in blocks:
        top = first
        n = first - 1
        while n >= 0 and (_is_note(lines[n]) or _header_key(lines[n]) is not None):
            if _header_key(lines[n]) is not None or header_row(lines[n], 0) is not None:
                top = n
            n -= 1
        bottom = end
        n = end + 1
        while n < len(lines) and (
            not lines[n].strip() or _header_key(lines[n]) in AFTER_ROUNDS or _total_row(lines[n])
        ):
            if lines[n].strip():
                bottom = n
            n += 1
        text = "\n" * top + "\n".join(lines[top : bottom + 1]) + "\n"
        found.append(BodyRecord(text, top + 1, bottom + 1))
    return found


# -- The body's language ---------------------------------------------------------------------

PROSE: dict[str, frozenset[str]] = {
    "en": frozenset(
        {
            "the", "and", "my", "is", "here", "hello", "hi", "dear", "thanks", "thank", "you",
            "with", "attached", "please", "regards", "best", "of", "for", "this", "it",
            "am", "got", "result", "entry", "cheers", "sorry", "two", "three", "game", "games",
            "sent", "again", "mine", "one", "i", "oops", "new", "corrected", "which", "are",
            "to",
        }
    ),
    "de": frozenset(
        {
            "und", "ich", "mein", "meine", "meinen", "ist", "hallo", "danke", "vielen", "viele",
            "grusse", "gruss", "liebe", "lieber", "mit", "anbei", "bitte", "das", "der", "ein",
            "eine", "spiel", "ergebnis", "habe", "hab", "nicht", "auf", "fur", "zu", "dem",
            "beste", "freundlichen", "hier", "zwei", "drei", "entschuldigung", "tut", "leid",
            "nochmal", "neue", "neues", "korrigiert", "korrigierte", "spiele", "gesendet",
            "geschickt", "welche", "sind",
        }
    ),
    "fr": frozenset(
        {
            "le", "la", "les", "et", "je", "ma", "mes", "est", "voici", "bonjour", "salut",
            "merci", "avec", "joint", "cordialement", "pour", "ce", "une", "un", "jeu", "partie",
            "resultat", "du", "ai", "suis", "bien", "dans", "sur", "que", "qui", "vous",
            "deux", "trois", "desole", "desolee", "excusez", "encore", "nouvelle", "corrigee",
            "parties", "envoye", "envoyee", "laquelle",
        }
    ),
}  # fmt: skip
"""Common words of a mail's prose in each language (folded like the record's words), none
in two of them: with the record words of `language.WORDS` they tell a body's language."""

_VOCABULARY = {lang: WORDS[lang] | PROSE[lang] for lang in WORDS}
_PROSE_WORD = re.compile(r"[^\W\d]+")  # `claimed_score` is one word, as in language.py


def language_of(text: str) -> str | None:
    """The language a body is written in, or None when its words do not tell (none known,
    or a tie): the language most words of its own lines (not the quoted message, not the
    signature) belong to, counting the common words of mail prose and the words a record
    is written with."""
    own = "\n".join(own_lines(text[: 1 << 20])[:MAX_BODY_LINES])
    counts = dict.fromkeys(_VOCABULARY, 0)
    for seen, match in enumerate(_PROSE_WORD.finditer(own)):
        if seen >= MAX_WORDS:
            break
        word = normal(match[0][:MAX_WORD])
        for lang, vocabulary in _VOCABULARY.items():
            counts[lang] += word in vocabulary
    best = max(counts.values())
    leaders = [lang for lang, count in counts.items() if count == best]
    return leaders[0] if best and len(leaders) == 1 else None


# -- HTML ------------------------------------------------------------------------------------

_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset",
        "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
        "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody",
        "thead", "tfoot", "tr", "ul",
    }
)  # fmt: skip
_HIDDEN = frozenset({"script", "style", "head", "title", "template", "noscript", "object"})


_MARKUP = re.compile(
    r"<!--(?:.*?-->|.*\Z)"  # a comment, to its end (or the body's)
    r"|<!\[CDATA\[(?:.*?\]\]>|.*\Z)"  # a CDATA section, left out the same way
    r"|<[!?][^<>]*+>?"  # a declaration or processing instruction
    r"|<(/?)([a-zA-Z][^\s/<>]*+)([^<>]*+)>",  # a tag; attributes are never read
    re.DOTALL,
)
"""HTML's markup, found in one pass: each quantifier is possessive and stops at the next
`<`, so no text costs more than linear time (the standard library's HTMLParser took 9.6 s
for `<x` 50,000 times, and minutes for unclosed quotes)."""
_SPACES = re.compile(r"\s+")
_RAW_TEXT = {tag: re.compile(rf"</{tag}(?=[\s/>])", re.IGNORECASE) for tag in ("script", "style")}
"""Elements whose content is text up to their end tag (found by this), as HTMLParser and
browsers read it."""


def html_text(html: str) -> str:
    """The text an HTML body shows: block elements and `<br>` become line breaks, scripts,
    styles and quoted parts (`<blockquote>`) are left out. Nothing is run or fetched,
    and the cost is linear in the body's size."""
    out: list[str] = []
    hidden = quoted = pre = 0

    def data(text: str) -> None:
        if text and not hidden and not quoted:
            text = unescape(text)
            out.append(text if pre else _SPACES.sub(" ", text))

    at = 0
    while (markup := _MARKUP.search(html, at)) is not None:
        data(html[at : markup.start()])
        at = markup.end()
        if markup[2] is None:
            continue  # a comment, a declaration
        tag = markup[2].lower()
        if not markup[1]:  # a start tag (or one that closes itself: `<br/>`)
            closed = markup[3].rstrip().endswith("/")
            if not closed:
                hidden += tag in _HIDDEN
                quoted += tag == "blockquote"
                pre += tag == "pre"
            if tag == "br" or tag in _BLOCKS:
                out.append("\n")
            elif tag in ("td", "th") and not closed:
                out.append(" ")
            if tag in _RAW_TEXT and not closed:
                # Its content is text up to its end tag, never markup (as browsers read it).
                end = _RAW_TEXT[tag].search(html, at)
                data(html[at : end.start() if end else len(html)])
                at = end.start() if end else len(html)
            continue
        if tag in _HIDDEN:
            hidden = max(0, hidden - 1)
        elif tag == "blockquote":
            quoted = max(0, quoted - 1)
        if tag == "pre":
            pre = max(0, pre - 1)
        if tag in _BLOCKS:
            out.append("\n")
    data(html[at:])
    text = "".join(out).replace("\xa0", " ")
    return "\n".join(line.strip(" ") for line in text.split("\n"))
