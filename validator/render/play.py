"""The challenge's browser pages: `play.html` (the dice file's game) and the announcement.

The pages link the site's one stylesheet and one script (`shared.site_assets`: `site.css`, and
`site.js`, which is the rules, validator/engine/rules.js, the engine's mirror, and the
page's script); the dice rows and the page's words are JSON in play.html. Their
Content-Security-Policy lets only those files of the site run and style the page, and no
connection, so no request leaves the page; it works from `file://` and any web host (the
folder as it is written). The testing hooks are fixed (docs/contest.md).
"""

from __future__ import annotations

import dataclasses
import html
import json
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from validator.engine import END_BRIEF, Dice, End, Field, Ruleset
from validator.language import i18n
from validator.language.i18n import Language, _, pgettext
from validator.render.shared import PLAY_FILE, SCRIPT, STYLESHEET

_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; "
    "connect-src 'none'; form-action 'none'; base-uri 'none'"
)


@dataclass(frozen=True, slots=True)
class Challenge:
    """What the announcement and the game page say about the challenge."""

    name: str
    rows: tuple[Dice, ...]
    sha256: str
    dice_name: str
    rules: Ruleset
    deadline: datetime | None = None
    organizer: str | None = None
    """The address entries go to, only when the organizer chose to publish it."""


def _strings() -> dict[str, Any]:
    """The page's words in the current language ({name} fields are filled in by the page)."""
    return {
        "roll": _("Roll {n} of {total}: {dice}."),
        "choose_cross": _("Choose a field to cross out."),
        "choose_move": _(
            "{field} crossed out: the movement die is {die}. Choose where to go; "
            "the walk is shown on the board."
        ),
        "forced": _("Roll {n}: {dice}: no field can be crossed out, a forced reroll."),
        "over": _("Game over: {score} points ({end})."),
        "ends": {end.value: _(END_BRIEF[end]) for end in End},
        "points": _("{n} points"),
        "circle": _("circle"),
        "dead": _("crossing out this field leaves no move: the game ends"),
        "confirm_new": _("Start a new game? The game kept in this browser is lost."),
        "copied": _("Copied."),
        "mail_subject": _("My Road to 300 record"),
        "record_comment": _("Road to 300 record, annotated dice file"),
        # TRANSLATORS: the word a record uses for a forced reroll; `road300 validate` must
        # read it (docs/records.md lists the words it reads in each language).
        "reroll_word": pgettext("record", "reroll"),
    }


def _page_words() -> dict[str, str]:
    """The words of play.html's own elements, in the current language."""
    return {
        "send_mail": _("Send by mail"),
        "challenge": _("The challenge"),
        # TRANSLATORS: the label before the current score on the play page (French: "Score :").
        "score": _("Score:"),
        "board": _("The board"),
        "undo": _("Undo"),
        "new": _("New game"),
        "your_record": _("Your record"),
        "copy": _("Copy"),
        "download": _("Download"),
    }


def _dice_line(challenge: Challenge) -> str:
    return _("Dice file {file}, SHA-256 {sha256}; rules: {rules}.").format(
        file=challenge.dice_name, sha256=challenge.sha256, rules=challenge.rules.name
    )


def _deadline(challenge: Challenge) -> str:
    if not challenge.deadline:
        return ""
    when = i18n.when(challenge.deadline, zone=True)
    return _("Send your record by {deadline}.").format(deadline=when)


def _para(text: str, css_class: str = "") -> str:
    """A paragraph of plain text, escaped; nothing for no text."""
    if not text:
        return ""
    attribute = f' class="{css_class}"' if css_class else ""
    return f"<p{attribute}>{html.escape(text)}</p>"


def _data_json(challenge: Challenge) -> str:
    data = {
        "rows": [list(row) for row in challenge.rows],
        "sha256": challenge.sha256,
        "organizer": challenge.organizer,
        # Every switch of the ruleset, by its engine name (rules.js reads the same names).
        "rules": dataclasses.asdict(challenge.rules),
        "strings": _strings(),
    }
    # Inside <script>: no "</" may end it early, whatever a string holds.
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def render_play(challenge: Challenge, lang: Language) -> str:
    """play.html for the challenge, in `lang`."""
    with i18n.speaking(lang):
        e = html.escape
        w = {key: e(text) for key, text in _page_words().items()}
        title = e(_("{name}: play in your browser").format(name=challenge.name))
        deadline = _para(_deadline(challenge), "meta")
        keys = _(
            "Keys: the arrows move on the board, Enter or Space chooses, two digits (34) "
            "choose row 3, column 4, Esc steps back, u undoes."
        )
        data, dice_line = _data_json(challenge), _dice_line(challenge)
    mail = (
        f'<a class="action" id="mail" href="mailto:{e(challenge.organizer)}">{w["send_mail"]}</a>'
        if challenge.organizer
        else ""
    )
    main = f"""<h1>{title}</h1>
{_para(dice_line, "meta")}
{deadline}
<p class="meta"><a href="index.html">{w["challenge"]}</a></p>
<div class="scoreline"><span>{w["score"]} <output id="score">0</output></span></div>
<p id="status" aria-live="polite"></p>
<div id="board" role="group" aria-label="{w["board"]}"></div>
<div class="actions">
<button type="button" class="action" data-action="undo">{w["undo"]}</button>
<button type="button" class="action" data-action="new">{w["new"]}</button>
</div>
<p class="keys">{e(keys)}</p>
<h2><label for="record">{w["your_record"]}</label></h2>
<textarea id="record" readonly spellcheck="false"></textarea>
<div class="actions">
<button type="button" class="action" data-action="copy">{w["copy"]}</button>
<button type="button" class="action" data-action="download">{w["download"]}</button>
{mail}
<span id="copied" aria-live="polite"></span>
</div>"""
    scripts = (
        f'<script type="application/json" id="game-data">{data}</script>\n'
        f'<script src="{SCRIPT}"></script>'
    )
    return _page(lang, title, ' data-phase="cross"', main, scripts)


def render_announcement(challenge: Challenge, lang: Language) -> str:
    """index.html before results exist: the name, the deadline, the dice file and its
    SHA-256, the address to send to (when published) and the link to play.html."""
    with i18n.speaking(lang):
        e = html.escape
        items = [_para(_dice_line(challenge)), _para(_deadline(challenge))]
        if challenge.organizer:
            items.append(
                _para(_("Send your record to {address}.").format(address=challenge.organizer))
            )
        play = _("Play in your browser")
        dice = _("Download the dice file")
        items.append(
            f'<p class="actions"><a class="action" href="{PLAY_FILE}">{e(play)}</a> '
            f'<a class="action" href="{e(challenge.dice_name)}" download>{e(dice)}</a></p>'
        )
        how_to_play = _("How to play")
        items.append(f"<h2>{e(how_to_play)}</h2>")
        items.extend(_para(text) for text in _rules_text(challenge.rules))
        how_to_send = _("How to send a record")
        items.append(f"<h2>{e(how_to_send)}</h2>")
        items.append(
            _para(
                _(
                    "One line for each roll of the dice file: the roll's number, its dice, "
                    "x and the field crossed out, -> and the field moved to, the steps in "
                    "brackets; a forced reroll says so. The game page writes it for you. "
                    "It starts like this:"
                )
            )
        )
        items.append(f"<pre>{e(record_start(challenge))}</pre>")
        name = e(challenge.name)
        return _page(lang, name, "", f"<h1>{name}</h1>\n" + "\n".join(items), "")


def _rules_text(rules: Ruleset) -> list[str]:
    """A round and the end of a game under `rules`, in the current language."""
    if rules.pass_counting == "in-a-row":
        rerolls = _("No field to cross out: a forced reroll; {n} in a row end the game.")
    else:
        rerolls = _("No field to cross out: a forced reroll; {n} in the whole game end it.")
    texts = [
        _(
            "Three dice are rolled. Cross out a free field that two of them name, as row and "
            "column in either order; the third die is how far you move."
        ),
        _(
            "From your second move on, the field you start from gets its X. Walk exactly that "
            "many steps, up, down, left or right, never onto a field with an X or a circle, "
            "nor twice onto the same field; the field you end on gets a circle and scores its "
            "points. Your first move enters the board through a corner."
        ),
        rerolls.format(n=rules.pass_limit),
        _("When the movement die has no walk, the game ends. Aim: 300 points."),
    ]
    if rules.scoring == "crossed-circles":
        texts.append(_("Only fields with both an X and a circle score."))
    return texts


def record_start(challenge: Challenge, rounds: int = 3) -> str:
    """The first lines of a record of this dice file in the annotated text form, in the
    current language: the engine's first legal choices for its first rows."""
    from validator.engine import apply_row, legal_actions, new_game
    from validator.records.rounds import record_round
    from validator.records.text_record import annotation

    lines = [f"dice_sha256: {challenge.sha256}"]
    state = new_game()
    rows = challenge.rows
    for i in range(min(rounds, len(rows))):
        if state.over:
            break
        action = legal_actions(state, rows[i], challenge.rules)[0]
        turn = apply_row(state, rows, i, action, challenge.rules)
        walk = tuple(Field.at(x) for x in turn.walk or ())
        die = turn.cross.die if turn.cross else None
        r = record_round(i + 1, action, walk=walk, roll=i + 1, dice=rows[i], steps=die)
        text = annotation(replace(r, path=None))
        if text == "reroll":
            text = pgettext("record", "reroll")
        lines.append(f"{i + 1}: {' '.join(map(str, rows[i]))}   {text}")
        state = turn.state
    return "\n".join(lines) + "\n"


def _page(lang: str, title: str, body_attrs: str, main: str, end: str) -> str:
    """A whole page: `title` and `main` are HTML already (escaped), `end` follows <main>."""
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<link rel="stylesheet" href="{STYLESHEET}">
<title>{title}</title>
</head>
<body class="play"{body_attrs}>
<main>
{main}
</main>
{end}
</body>
</html>
"""
