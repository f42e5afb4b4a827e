"""A game typed the way a person types it (issue 34): roll words, ordinals, dice in any
spelling, sentences and tables in three languages, read as the same game as a file, on
stdin and as a mail body between a greeting and a signature."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import mailbox
import random
import re
import time
from collections.abc import Callable
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from record_helpers import summary

from validator.check.file import Checker
from validator.cli import main
from validator.engine import Field
from validator.errors import ReadError
from validator.records import read_record, text_record
from validator.records.record import RecordRound

ROOT = Path(__file__).resolve().parent.parent
DICE = ROOT / "examples" / "challenge.txt"
ALICE = read_record(ROOT / "examples" / "alice.yaml")
"""The bundled winning game (340): plays, forced rerolls, and a last round without a move."""

Writer = Callable[[RecordRound], str]


def _dice(r: RecordRound, sep: str = " ") -> str:
    assert r.dice is not None
    return sep.join(str(d) for d in r.dice)


def _f(field: object, style: str = "/") -> str:
    row, col = str(field).split("/")
    return {"/": f"{row}/{col}", "()": f"({row},{col})", "rc": f"row {row} col {col}"}[style]


def _plural(n: int | None, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def roll_en(r: RecordRound) -> str:
    head = f"Roll {r.roll}: {_dice(r)} - "
    if r.reroll:
        return head + "reroll"
    if r.move is None:
        return head + f"crossed out {_f(r.cross)}, no move"
    return (
        head
        + f"crossed out {_f(r.cross)}, moved to {_f(r.move)} ({_plural(r.steps, 'step', 'steps')})"
    )


def wurf_de(r: RecordRound) -> str:
    head = f"Wurf {r.roll}: {_dice(r)} - "
    if r.reroll:
        return head + "neu würfeln"
    if r.move is None:
        return head + f"Kreuz {_f(r.cross)}, kein Zug"
    return (
        head + f"Kreuz {_f(r.cross)}, Zug {_f(r.move)} ({_plural(r.steps, 'Schritt', 'Schritte')})"
    )


def lancer_fr(r: RecordRound) -> str:
    if r.reroll:
        return f"Tour {r.roll} : {_dice(r, ',')} ; on relance"
    head = f"Lancer {r.roll} : {_dice(r)} \u2013 je barre {_f(r.cross)}, "
    if r.move is None:
        return head + "bloqué"
    return head + f"je vais en {_f(r.move)} ({_plural(r.steps, 'case', 'cases')})"


def round_en(r: RecordRound) -> str:
    head = f"Round {r.roll} ({_dice(r, ',')}): "
    if r.reroll:
        return head + "pass"
    if r.move is None:
        return head + f"cross {_f(r.cross)}, stuck"
    return head + f"cross {_f(r.cross)}, move to {_f(r.move)}, {_plural(r.steps, 'step', 'steps')}"


def rolled_en(r: RecordRound) -> str:
    head = f"{r.roll}) Rolled {_dice(r, ', ')}. "
    if r.reroll:
        return head + "Rerolled."
    if r.move is None:
        return head + f"Crossed out {_f(r.cross)}, game over."
    steps = _plural(r.steps, "step", "steps")
    return head + f"Crossed out {_f(r.cross)} and moved {steps} to {_f(r.move)}."


def punkt_de(r: RecordRound) -> str:
    head = f"{r.roll}. Wurf ({_dice(r, ', ')}): "
    if r.reroll:
        return head + "Neuwurf"
    if r.move is None:
        return head + f"{_f(r.cross)} durchgestrichen, kein Zug möglich"
    steps = _plural(r.steps, "Schritt", "Schritte")
    return head + f"{_f(r.cross)} durchgestrichen, {steps} nach {_f(r.move)}"


def ordinal_fr(r: RecordRound) -> str:
    head = f"{r.roll}{'er' if r.roll == 1 else 'e'} lancer ({_dice(r, '-')}) : "
    if r.reroll:
        return head + "relance"
    if r.move is None:
        return head + f"barré {_f(r.cross)}, fin de partie"
    return head + f"barré {_f(r.cross)}, avancé de {r.steps} jusqu'à {_f(r.move)}"


def signs(r: RecordRound) -> str:
    head = f"{r.roll}: {_dice(r)}  "
    if r.reroll:
        return head + "-"
    if r.move is None:
        return head + f"X {_f(r.cross, '()')}  -> none"
    return (
        head + f"X {_f(r.cross, '()')}  -> {_f(r.move, '()')}  {_plural(r.steps, 'step', 'steps')}"
    )


def zeile_de(r: RecordRound) -> str:
    head = f"Runde {r.roll}: {_dice(r, '-')} | "
    if r.reroll:
        return head + "Wurf wiederholt"
    cross = _f(r.cross).replace("/", " Spalte ")
    if r.move is None:
        return head + f"Zeile {cross} gestrichen, blockiert"
    move = _f(r.move).replace("/", " Spalte ")
    return head + f"Zeile {cross} gestrichen, nach Zeile {move} in {r.steps} Schritten"


def _table(
    header: list[str] | None, delimiter: str, pipes: bool, three_dice: bool = False
) -> Callable[[tuple[RecordRound, ...]], list[str]]:
    """A table of the game: roll, dice, cross, move, steps; under `header` if given; with
    `three_dice`, each die in a column of its own."""

    def lines(game: tuple[RecordRound, ...]) -> list[str]:
        out = []
        wrap = (lambda cells: "| " + " | ".join(cells) + " |") if pipes else delimiter.join
        if header is not None:
            out.append(wrap(header))
            if pipes:
                out.append("|" + "|".join("---" for _ in header) + "|")
        for r in game:
            cells = [
                str(r.roll),
                *(_dice(r).split() if three_dice else [_dice(r)]),
                "reroll" if r.reroll else _f(r.cross),
                "" if r.move is None else _f(r.move),
                "" if r.steps is None or r.move is None else str(r.steps),
            ]
            out.append(wrap(cells))
        return out

    return lines


SENTENCES: dict[str, tuple[str, Writer, list[str], list[str]]] = {
    # name: (language, writer, lines above the rounds, lines below)
    "roll-en": ("en", roll_en, ["Player: Sam"], ["Total: 340 points"]),
    "wurf-de": ("de", wurf_de, ["Spielerin: Klara"], ["Gesamt: 340 Punkte"]),
    "lancer-fr": ("fr", lancer_fr, ["Joueuse : Léa"], ["Score final : 340"]),
    "round-en": ("en", round_en, ["Name: Sam"], ["Total: 340 pts"]),
    "rolled-en": ("en", rolled_en, [], ["Total: 340"]),
    "punkt-de": ("de", punkt_de, ["Spieler: Klaus"], ["Summe: 340"]),
    "ordinal-fr": ("fr", ordinal_fr, ["Joueur : Luc"], ["Total : 340 points"]),
    "signs": ("en", signs, [], []),
    "zeile-de": ("de", zeile_de, ["Spielerin: Klara"], ["Gesamt: 340"]),
}
TABLES: dict[
    str, tuple[str, Callable[[tuple[RecordRound, ...]], list[str]], list[str], list[str]]
] = {
    "markdown-de": (
        "de",
        _table(["Wurf", "Würfel", "Kreuz", "Ziel", "Schritte"], "|", pipes=True),
        ["Spielerin: Klara"],
        ["Gesamt: 340 Punkte"],
    ),
    "markdown-en": (
        "en",
        _table(["#", "Roll", "Crossed out", "Moved to", "Steps"], "|", pipes=True),
        ["Player: Sam"],
        [],
    ),
    "tabs-en": (
        "en",
        _table(["Roll", "Dice", "Cross", "Move", "Steps"], "\t", pipes=False),
        [],
        ["Total: 340"],
    ),
    "markdown-headless": ("en", _table(None, "|", pipes=True), ["Player: Sam"], []),
    "tabs-headless": ("de", _table(None, "\t", pipes=False), ["Spielerin: Klara"], []),
    "semicolons-fr": (
        "fr",
        _table(["Lancer", "Dés", "Barré", "Déplacement", "Pas"], ";", pipes=False),
        ["Joueuse : Léa"],
        ["Score final : 340"],
    ),
    "tabs-zug-de": (
        "de",
        _table(["Wurf", "Würfel", "Kreuz", "Zug", "Schritte"], "\t", pipes=False),
        ["Spielerin: Klara"],
        ["Gesamt: 340"],
    ),
    "markdown-gezogen-de": (
        "de",
        _table(["Runde", "Augen", "Angekreuzt", "Gezogen", "Schritte"], "|", pipes=True),
        ["Spieler: Klaus"],
        ["Summe: 340"],
    ),
    "tabs-three-dice-en": (
        "en",
        _table(
            ["Roll", "Die 1", "Die 2", "Die 3", "Crossed", "Moved to", "Steps"],
            "\t",
            pipes=False,
            three_dice=True,
        ),
        ["Player: Sam"],
        ["Total: 340"],
    ),
    "markdown-three-dice-de": (
        "de",
        _table(
            ["Wurf", "Würfel 1", "Würfel 2", "Würfel 3", "Kreuz", "Ziel", "Schritte"],
            "|",
            pipes=True,
            three_dice=True,
        ),
        ["Spielerin: Klara"],
        ["Gesamt: 340 Punkte"],
    ),
    "semicolons-three-dice-fr": (
        "fr",
        _table(
            ["Lancer", "d1", "d2", "d3", "Barré", "Déplacement", "Pas"],
            ";",
            pipes=False,
            three_dice=True,
        ),
        ["Joueuse : Léa"],
        ["Score final : 340"],
    ),
}


def typed(form: str, game: tuple[RecordRound, ...] = ALICE.rounds, total: bool = True) -> str:
    """Alice's game (or another) typed in one form (with its total line, or without)."""
    if form in SENTENCES:
        _, writer, above, below = SENTENCES[form]
        rounds = [writer(r) for r in game]
    else:
        _, table, above, below = TABLES[form]
        rounds = table(game)
    return "\n".join([*above, "", *rounds, *(below if total else [])]) + "\n"


FORMS = [*SENTENCES, *TABLES]
GAME = [summary(r) for r in ALICE.rounds]


def _without_paths(rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game as typed: no paths, and no steps on the last round, which has no move."""
    return [
        {k: v for k, v in r.items() if k != "path" and (k != "steps" or "move" in r)}
        for r in rounds
    ]


@pytest.mark.parametrize("form", FORMS)
def test_each_form_reads_as_the_same_game(form: str) -> None:
    record = text_record.parse(typed(form), f"{form}.txt")
    assert [summary(r) for r in record.rounds] == _without_paths(GAME)
    assert record.warnings == ()  # no line of it skipped (a column row not taken as one)
    if form in ("rolled-en", "signs", "tabs-en"):
        return
    assert record.player is not None


@pytest.mark.parametrize("form", FORMS)
def test_each_form_validates_as_a_file_and_on_stdin(form: str, tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(typed(form), encoding="utf-8")
    result = Checker.create(DICE, None).check(path)
    assert (result.verdict.value, result.score) == ("valid", 340), result.error
    out = CliRunner().invoke(
        main, ["validate", "-", "--dice", str(DICE), "--format", "json"], input=typed(form)
    )
    data = json.loads(out.stdout)
    assert (out.exit_code, data["verdict"], data["score"]) == (0, "valid", 340), out.output


GREETINGS = {
    "en": ("Hi,\n\nhere is my game from last night:\n", "Cheers,\nSam\n-- \nSam Player\n"),
    "de": ("Hallo,\n\nanbei mein Spiel von gestern:\n", "Viele Grüße\nKlara\n-- \nKlara K.\n"),
    "fr": ("Bonjour,\n\nvoici ma partie d'hier soir :\n", "Merci et à bientôt,\nLéa\n-- \nLéa\n"),
}


def _mail(n: int, lang: str, body: str) -> EmailMessage:
    m = EmailMessage(policy=policy.default)
    m["From"] = f"player{n}@players.example"
    m["To"] = "challenge@organizers.example"
    m["Subject"] = "My game"
    m["Date"] = "Mon, 07 Dec 2026 09:00:00 +0100"
    m["Message-ID"] = f"<typed{n}@players.example>"
    hello, bye = GREETINGS[lang]
    m.set_content(f"{hello}\n{body}\n{bye}")
    return m


def _batch(mails: list[EmailMessage], tmp_path: Path) -> dict[str, Any]:
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    for m in mails:
        box.add(m)
    box.close()
    out = CliRunner().invoke(
        main,
        ["batch", str(tmp_path / "inbox.mbox"), "--dice", str(DICE), "--format", "json"],
        catch_exceptions=False,
    )
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def _validated(
    text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *options: str
) -> list[str]:
    """The lines `validate` prints for `text` as the file t.txt, on the challenge's dice."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.txt").write_text(text, encoding="utf-8")
    out = CliRunner().invoke(main, ["validate", "t.txt", "--dice", str(DICE), *options])
    return out.output.splitlines()


def test_each_form_is_an_entry_as_a_mail_body(tmp_path: Path) -> None:
    forms = FORMS
    mails = [_mail(n, (SENTENCES.get(f) or TABLES[f])[0], typed(f)) for n, f in enumerate(forms)]
    data = _batch(mails, tmp_path)
    assert data["skipped"] == []
    got = {e["source"]["message_id"]: e for e in data["entries"]}
    for n, form in enumerate(forms):
        entry = got[f"<typed{n}@players.example>"]
        assert (entry["verdict"], entry["score"]) == ("valid", 340), (form, entry["error"])


def test_a_spreadsheet_paste_with_extra_columns_is_read_as_a_mail_body(tmp_path: Path) -> None:
    """Its column row names a date and the points beside the game's columns: the body's
    record starts at it (not at the first row, read then without its columns)."""
    rows = typed("tabs-en").replace("Roll\tDice\t", "Roll\tDate\tDice\t")
    rows = "\n".join(
        line if not line[:1].isdigit() else line.replace("\t", "\t1.12.\t", 1)
        for line in rows.splitlines()
    )
    (entry,) = _batch([_mail(0, "en", rows + "\n")], tmp_path)["entries"]
    assert (entry["verdict"], entry["score"]) == ("valid", 340), entry["error"]


def test_rounds_typed_so_that_they_are_not_read_stay_in_the_mail_bodys_record(
    tmp_path: Path,
) -> None:
    """`Wurf 1: 1a 4b 6c ...`: the first rounds' dice are not read, the rest are; the
    record is the whole block, its error at the first line not read (as in a file), not
    a later round's 'roll 1 is skipped'."""
    lines = typed("wurf-de").splitlines()
    for n in range(2, 5):
        lines[n] = re.sub(r": (\d) (\d) (\d)", r": \1a \2b \3c", lines[n], count=1)
    body = "\n".join(lines) + "\n"
    (entry,) = _batch([_mail(0, "de", body)], tmp_path)["entries"]
    greeting = GREETINGS["de"][0].count("\n") + 1
    error = entry["error"]
    assert (entry["verdict"], error["code"], error["line"]) == ("malformed", "E002", greeting + 3)
    assert lines[2] in (error.get("excerpt") or lines[2]), error


def test_a_total_row_of_a_table_in_a_mail_body_is_its_claimed_score(tmp_path: Path) -> None:
    """The body's record ends at its last round, but takes the total row below it along, as
    it takes a total line."""
    forms = {"markdown-en": "| Total | | | | 290 |", "tabs-headless": "Gesamt\t290"}
    mails = [
        _mail(n, TABLES[f][0], typed(f, total=False) + row)
        for n, (f, row) in enumerate(forms.items())
    ]
    data = _batch(mails, tmp_path)
    got = {e["source"]["message_id"]: e for e in data["entries"]}
    for n in range(len(forms)):
        entry = got[f"<typed{n}@players.example>"]
        assert (entry["verdict"], entry["score"], entry["error"]["code"]) == (
            "invalid",
            340,
            "E107",
        )


# --- a generator of typed forms -------------------------------------------------------------

PREFIXES = {
    "en": [
        "Roll {n}: ",
        "Round {n} - ",
        "Throw {n}. ",
        "{n}) ",
        "{n}. ",
        "Turn {n}: ",
        "Roll {n} = ",
    ],
    "de": ["Wurf {n}: ", "Runde {n} - ", "Zug {n}: ", "{n}. Wurf ", "{n}) ", "Wurf Nr. {n}: "],
    "fr": [
        "Lancer {n} : ",
        "Tour {n} : ",
        "Coup {n} - ",
        "{n}e lancer ",
        "{n}. ",
        "Lancer n°{n} : ",
    ],
}
DICE_SPELLINGS = ["{a} {b} {c}", "{a},{b},{c}", "{a}-{b}-{c}", "({a}, {b}, {c})", "{a}{b}{c}"]
AFTER_DICE = [" - ", ": ", " \u2013 ", " | ", "  ", " ; "]
CROSS = {
    "en": ["x {f}", "crossed out {f}", "cross {f}", "X {f}", "I crossed {f}", "cross-out {f}"],
    "de": ["Kreuz {f}", "{f} gestrichen", "{f} durchgestrichen", "streiche {f}", "Kreuz auf {f}"],
    "fr": ["je barre {f}", "barré {f}", "case {f} barrée", "{f} barrée", "je barre la case {f}"],
}
MOVE = {
    "en": ["-> {f}", "moved to {f}", "move to {f}", "then went to {f}", "and moved to {f}"],
    "de": ["nach {f}", "Zug {f}", "-> {f}", "und dann nach {f}"],
    "fr": ["je vais en {f}", "vers {f}", "-> {f}", "puis déplacement vers {f}"],
}
STEPS = {
    "en": ["({s})", "in {s} steps", "{s} steps", "(steps: {s})"],
    "de": ["({s})", "in {s} Schritten", "{s} Schritte", "({s} Schritte)"],
    "fr": ["({s})", "en {s} pas", "({s} cases)", "{s} pas"],
}
REROLL = {
    "en": ["reroll", "pass", "rerolled", "- reroll", "forced reroll", "had to reroll"],
    "de": [
        "neu würfeln",
        "Neuwurf",
        "neu gewürfelt",
        "- Wurf wiederholt",
        "nix möglich, neu würfeln",
    ],
    "fr": ["relance", "on relance", "je relance", "- relance", "rien à faire, j'ai dû relancer"],
}
NO_MOVE = {
    "en": ["no move", "stuck", "game over", "blocked"],
    "de": ["kein Zug", "blockiert", "kein Zug möglich"],
    "fr": ["bloqué", "fin de partie", "aucun déplacement"],
}
FIELD_STYLES = ["{r}/{c}", "({r},{c})", "{r},{c}", "row {r} col {c}", "{r}-{c}"]
FIELD_WORDS = {"de": "Zeile {r} Spalte {c}", "fr": "ligne {r} colonne {c}", "en": "row {r} col {c}"}


_FILLER_WORDS = {
    "en": "nice great lucky hmm wow really quickly finally carefully obviously well sadly yay "
    "okay oops phew hooray honestly luckily basically somehow probably definitely happily "
    "maybe actually just now still already very quite super fine cool wonderful",
    "de": "schön toll super prima leider endlich natürlich also halt eben wieder schnell "
    "vorsichtig glücklicherweise hurra juhu naja okay echt wirklich einfach sofort "
    "eigentlich trotzdem vielleicht bestimmt ganz sehr schon noch jetzt gerne",
    "fr": "bien super génial hélas enfin voilà alors vraiment vite donc encore déjà bon ouf "
    "chouette bravo oups zut heureusement franchement simplement finalement peut-être "
    "sûrement tellement aussi très toujours hop youpi tranquillement",
}
FILLERS = {lang: words.split() for lang, words in _FILLER_WORDS.items()}
"""Everyday words a person puts between the numbers (30 and more in each language), none
a misspelling of a keyword."""
BEFORE_FIELD = {  # the words a person puts between a keyword and its field
    "en": ["the field", "on", "at", "the square"],
    "de": ["auf", "das Feld", "bei", "auf das Feld"],
    "fr": ["la case", "sur", "sur la case", "en"],
}


def generated(seed: int, fillers: bool = False) -> tuple[str, str]:
    """Alice's game typed with random choices of one language's words and signs; with
    `fillers`, everyday words at random places between the numbers, and words between a
    keyword and its field."""
    rng = random.Random(seed)
    lang = rng.choice(["en", "de", "fr"])
    prefix = rng.choice(PREFIXES[lang])
    dice_spelling = rng.choice(DICE_SPELLINGS)
    after = rng.choice(AFTER_DICE)

    def words() -> str:
        """None, one or two filler words, each followed by a blank."""
        count = rng.choice([0, 1, 1, 2]) if fillers else 0
        return "".join(rng.choice(FILLERS[lang]) + " " for _ in range(count))

    lines = []
    for r in ALICE.rounds:
        assert r.dice is not None
        a, b, c = r.dice
        line = prefix.format(n=r.roll) + dice_spelling.format(a=a, b=b, c=c) + after + words()
        if r.reroll:
            lines.append(line + rng.choice(REROLL[lang]) + " " + words())
            continue

        def field(value: object) -> str:
            row, col = str(value).split("/")
            style = rng.choice([*FIELD_STYLES, FIELD_WORDS[lang]])
            before = rng.choice(BEFORE_FIELD[lang]) + " " if fillers and rng.random() < 0.3 else ""
            return words() + before + style.format(r=row, c=col)

        parts = [rng.choice(CROSS[lang]).format(f=field(r.cross))]
        if r.move is None:
            parts.append(words() + rng.choice(NO_MOVE[lang]))
        else:
            parts.append(words() + rng.choice(MOVE[lang]).format(f=field(r.move)))
            parts.append(words() + rng.choice(STEPS[lang]).format(s=r.steps))
        lines.append(line + rng.choice([", ", " ", "; "]).join(parts) + " " + words())
    return lang, "\n".join(line.rstrip() for line in lines) + "\n"


def _read_generated(lang: str, text: str) -> list[dict[str, Any]]:
    try:
        record = text_record.parse(text, "generated.txt")
    except ReadError as exc:
        raise AssertionError(
            f"{lang}: {exc.diagnostic.location()}: {exc.diagnostic.message}\n{text}"
        ) from exc
    return [summary(r) for r in record.rounds]


@pytest.mark.parametrize("seed", range(24))
def test_generated_forms_read_as_the_same_game(seed: int) -> None:
    lang, text = generated(seed)
    assert _read_generated(lang, text) == _without_paths(GAME), text


@pytest.mark.parametrize(("seeds", "fillers"), [(range(100, 106), False), (range(200, 206), True)])
def test_generated_forms_on_stdin_and_as_mail_bodies(
    seeds: range, fillers: bool, tmp_path: Path
) -> None:
    """With `fillers`, the player's own words between the numbers too."""
    mails = []
    for n, seed in enumerate(seeds):
        lang, text = generated(seed, fillers)
        out = CliRunner().invoke(
            main, ["validate", "-", "--dice", str(DICE), "--format", "json"], input=text
        )
        data = json.loads(out.stdout)
        assert (data["verdict"], data["score"]) == ("valid", 340), (seed, data["error"], text)
        mails.append(_mail(n, lang, text))
    data = _batch(mails, tmp_path)
    assert data["skipped"] == []
    got = [(e["verdict"], e["score"]) for e in data["entries"]]
    assert got == [("valid", 340)] * len(seeds)


@pytest.mark.parametrize("seed", range(40))
def test_generated_forms_with_the_players_own_words_read_as_the_same_game(seed: int) -> None:
    """Everyday words (30 and more in each language) at random places between the
    numbers, and words between a keyword and its field (`Kreuz auf 1/4`), are passed over:
    the numbers make the game."""
    assert min(len(set(words)) for words in FILLERS.values()) >= 30
    lang, text = generated(seed, fillers=True)
    assert _read_generated(lang, text) == _without_paths(GAME), text


TABLE_NAMES = {
    "en": {"roll": "Roll", "dice": "Dice", "cross": "Cross", "move": "Move", "steps": "Steps"},
    "de": {"roll": "Wurf", "dice": "Würfel", "cross": "Kreuz", "move": "Ziel", "steps": "Schritte"},
    "fr": {
        "roll": "Lancer",
        "dice": "Dés",
        "cross": "Barré",
        "move": "Déplacement",
        "steps": "Pas",
    },
}


def generated_table(seed: int) -> tuple[str, str]:
    """Alice's game as a table in one language, its columns in a random order under a row
    naming them, separated by pipes, tabs or semicolons; its header and total lines in
    that language."""
    rng = random.Random(seed)
    lang = rng.choice(["en", "de", "fr"])
    names = TABLE_NAMES[lang]
    order = list(names)
    rng.shuffle(order)
    delimiter = rng.choice(["|", "\t", ";"])

    def row(cells: list[str]) -> str:
        if delimiter == "|":
            return "| " + " | ".join(cells) + " |"
        return delimiter.join(cells)

    above, below = {
        "en": ("Player: Sam", "Total: 340"),
        "de": ("Spielerin: Klara", "Gesamt: 340 Punkte"),
        "fr": ("Joueuse : Léa", "Score final : 340"),
    }[lang]
    lines = [above, "", row([names[k] for k in order])]
    for r in ALICE.rounds:
        value = {
            "roll": str(r.roll),
            "dice": _dice(r),
            "cross": "reroll" if r.reroll else _f(r.cross),
            "move": "" if r.move is None else _f(r.move),
            "steps": "" if r.move is None or r.steps is None else str(r.steps),
        }
        lines.append(row([value[k] for k in order]))
    return lang, "\n".join([*lines, below]) + "\n"


@pytest.mark.parametrize("seed", range(8))
def test_generated_tables_with_their_columns_in_any_order(seed: int) -> None:
    _, text = generated_table(seed)
    record = text_record.parse(text, "table.txt")
    assert [summary(r) for r in record.rounds] == _without_paths(GAME), text


def test_generated_forms_in_each_language_as_files_on_stdin_and_as_mail_bodies(
    tmp_path: Path,
) -> None:
    """Sentences (with the player's own words) and tables (columns in any order) made by
    the generators, in each of the three languages, read as the same game as a file, on
    stdin and as a mail body between a greeting and a signature."""
    made = [generated(seed, fillers=True) for seed in range(300, 309)]
    made += [generated_table(seed) for seed in range(20, 29)]
    assert {lang for lang, _ in made[:9]} == {lang for lang, _ in made[9:]} == {"en", "de", "fr"}
    checker = Checker.create(DICE, None)
    for n, (lang, text) in enumerate(made):
        path = tmp_path / f"game{n}.txt"
        path.write_text(text, encoding="utf-8")
        result = checker.check(path)
        assert (result.verdict.value, result.score) == ("valid", 340), (lang, result.error, text)
        out = CliRunner().invoke(
            main, ["validate", "-", "--dice", str(DICE), "--format", "json"], input=text
        )
        data = json.loads(out.stdout)
        assert (data["verdict"], data["score"]) == ("valid", 340), (lang, data["error"], text)
    data = _batch([_mail(n, lang, text) for n, (lang, text) in enumerate(made)], tmp_path)
    assert data["skipped"] == []
    got = {e["source"]["message_id"]: (e["verdict"], e["score"]) for e in data["entries"]}
    assert got == {f"<typed{n}@players.example>": ("valid", 340) for n in range(len(made))}


# --- one mistake each: the code at the right roll ------------------------------------------


def _mistake(form: str, kind: str) -> str:
    """Alice's game typed in `form` with one mistake."""
    rounds = list(ALICE.rounds)
    if kind == "E105":  # roll 5 left out: a row that was not a forced reroll
        del rounds[4]
    elif kind == "E101":  # roll 7 is 5 2 3
        rounds[6] = dataclasses.replace(rounds[6], dice=(5, 2, 4))
    elif kind == "E202":  # a cross-out the dice 5 2 3 cannot make
        rounds[6] = dataclasses.replace(rounds[6], cross=Field(4, 4))
    text = typed(form, tuple(rounds))
    return text.replace("340", "350") if kind == "E107" else text


WITH_TOTAL = [f for f in FORMS if f not in ("signs", "markdown-en") and "headless" not in f]


@pytest.mark.parametrize("form", WITH_TOTAL)
@pytest.mark.parametrize(("kind", "roll"), [("E105", 5), ("E107", None), ("E101", 7), ("E202", 7)])
def test_one_mistake_keeps_its_code_at_its_roll(
    form: str, kind: str, roll: int | None, tmp_path: Path
) -> None:
    text = _mistake(form, kind)
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    result = Checker.create(DICE, None).check(path)
    error = result.error
    assert result.verdict.value == "invalid" and error is not None, result
    assert (error.code, error.roll) == (kind, roll), error
    assert error.line is not None
    line = text.splitlines()[error.line - 1]
    if kind == "E107":
        assert "350" in line and "340" in (error.hint or "")
    elif kind == "E101":
        assert "524" in re.sub(r"[^0-9]", "", line), line
    elif kind == "E202":
        assert re.search(r"4\D+4", line), line


# --- the reply to an invalid or incomplete typed entry -------------------------------------

DEADLINE = "2026-12-20T23:59:59+01:00"
LANGUAGE_FORMS = {"en": "roll-en", "de": "wurf-de", "fr": "lancer-fr"}


def _entries_for_replies() -> list[tuple[str, str, str]]:
    """(language, kind, body): per language, an illegal step, an early stop, a wrong total."""
    out = []
    for lang, form in LANGUAGE_FORMS.items():
        out.append((lang, "E202", _mistake(form, "E202")))
        out.append((lang, "incomplete", typed(form, ALICE.rounds[:10], total=False)))
        out.append((lang, "E107", _mistake(form, "E107")))
    return out


def _reply_texts(tmp_path: Path) -> dict[tuple[str, str], str]:
    cases = _entries_for_replies()
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    for n, (lang, _, body) in enumerate(cases):
        box.add(_mail(n, lang, body))
    box.close()
    out = CliRunner().invoke(
        main,
        ["batch", str(tmp_path / "inbox.mbox"), "--dice", str(DICE), "--deadline", DEADLINE,
         "--replies", str(tmp_path / "replies"), "--organizer", "Org <org@example.org>",
         "--format", "json", "-j", "1"],
        catch_exceptions=False,
    )  # fmt: skip
    assert out.exit_code in (0, 1), out.output
    from email.parser import BytesParser

    texts = {}
    for n, (lang, kind, _) in enumerate(cases, start=1):
        raw = (tmp_path / "replies" / f"reply-{n:04d}.eml").read_bytes()
        message = BytesParser(policy=policy.default).parsebytes(raw)
        assert isinstance(message, EmailMessage)
        plain = message.get_body(("plain",))
        assert isinstance(plain, EmailMessage)
        content = plain.get_content()
        assert isinstance(content, str)
        texts[(lang, kind)] = content
    return texts


WHEN = {
    "en": "December 20, 2026, 11:59:59\u202fPM +0100",
    "de": "20. Dezember 2026, 23:59:59 +0100",
    "fr": "20 d\u00e9cembre 2026, 23:59:59 +0100",
}
REPLIES: dict[str, dict[str, Any]] = {  # French writes its apostrophe as \u2019
    "en": {
        "E202": [
            "Your record is not valid: the replay stopped at an illegal step.",
            "Correct your record from roll 7 on: the rounds before it are legal.",
        ],
        "incomplete": ["Your record stops before the game ends: go on from roll 11."],
        "E107": [
            "Your record is not valid: its steps are legal, but the record as a whole is not "
            "right.",
            "E107 the record claims 350 points, but the replay scores 340 (at line 29, column 8 "
            "of your message)\nhelp: Total: 340 points",
        ],
        "resend": "You may send a corrected record by replying to this message until the "
        "deadline, {when}; the last one you send before it counts.",
    },
    "de": {
        "E202": [
            "Dein Protokoll ist ungültig: die Nachspielung hielt bei einem unerlaubten Schritt an.",
            "Korrigiere dein Protokoll ab Wurf 7: die Runden davor sind erlaubt.",
        ],
        "incomplete": ["Dein Protokoll hört auf, bevor das Spiel endet: mach ab Wurf 11 weiter."],
        "E107": [
            "Dein Protokoll ist ungültig: seine Schritte sind erlaubt, aber das Protokoll als "
            "Ganzes stimmt nicht.",
            "E107 das Protokoll gibt 350 Punkte an, aber die Nachspielung ergibt 340 (Zeile 29, "
            "Spalte 9 in deiner Nachricht)\nHilfe: Gesamt: 340 Punkte",
        ],
        "resend": "Du kannst bis zum Einsendeschluss, {when}, ein korrigiertes Protokoll als "
        "Antwort auf diese Nachricht schicken; das letzte vor dem Einsendeschluss zählt.",
    },
    "fr": {
        "E202": [
            "Votre relevé n\u2019est pas valide : la partie rejouée s\u2019est arrêtée sur un "
            "pas interdit.",
            "Corrigez votre relevé à partir du lancer 7 : les tours d\u2019avant sont permis.",
        ],
        "incomplete": [
            "Votre relevé s\u2019arrête avant la fin de la partie : continuez à partir du "
            "lancer 11."
        ],
        "E107": [
            "Votre relevé n\u2019est pas valide : ses pas sont permis, mais le relevé dans son "
            "ensemble n\u2019est pas juste.",
            "E107 le relevé annonce 350 points, mais la partie rejouée en donne 340 (ligne 29, "
            "colonne 15 dans votre message)\naide : Score final : 340",
        ],
        "resend": "Vous pouvez envoyer un relevé corrigé en répondant à ce message jusqu\u2019à la "
        "date limite, {when} ; le dernier envoyé avant elle compte.",
    },
}


def test_replies_say_where_to_go_on_and_until_when(tmp_path: Path) -> None:
    """An invalid or incomplete entry's reply names the roll to go on from (none for a
    wrong total, which is no illegal step), that a corrected record may be sent, and the
    deadline; each sentence in full, in the sender's language."""
    texts = _reply_texts(tmp_path)
    for (lang, kind), text in texts.items():
        paragraphs = text.split("\n\n")
        for sentence in REPLIES[lang][kind]:
            assert sentence in paragraphs, (lang, kind, text)
        assert REPLIES[lang]["resend"].format(when=WHEN[lang]) in paragraphs, (lang, kind, text)
        if kind == "E107":
            assert not any("roll" in p or "Wurf" in p or "lancer" in p for p in paragraphs[3:])
            assert REPLIES[lang]["E202"][0] not in paragraphs


@pytest.mark.parametrize(
    ("line", "message", "hint"),
    [
        (
            "Wurf 1: 1 4 6 - Kruez 6/4, Zug 1/1",
            "t.txt:1:17: E002 'Kruez' ist kein bekanntes Wort: war 'Kreuz' gemeint?",
            "  Hilfe: Wurf 1: 1 4 6 - Kreuz 6/4, Zug 1/1",
        ),
        (
            "Roll 1: 1 4 6 - crosed out 6/4, moved to 1/1",
            "t.txt:1:17: E002 'crosed' is not a word the reader knows: did you mean 'crossed'?",
            "  help: Roll 1: 1 4 6 - crossed out 6/4, moved to 1/1",
        ),
        (
            "Lancer 1 : 1 4 6 - je bare 6/4, je vais en 1/1",
            "t.txt:1:23: E002 'bare' n\u2019est pas un mot connu : vouliez-vous dire 'barré' ?",
            "  aide : Lancer 1 : 1 4 6 - je barré 6/4, je vais en 1/1",
        ),
        (  # a misspelt roll word
            "Wruf 1: 1 4 6 - Kreuz 6/4, Zug 1/1",
            "t.txt:1:1: E002 'Wruf' ist kein bekanntes Wort für einen Wurf: war 'Wurf' gemeint?",
            "  Hilfe: Wurf 1: 1 4 6 - Kreuz 6/4, Zug 1/1",
        ),
        (
            "Rol 1: 1 4 6 - crossed out 6/4, moved to 1/1",
            "t.txt:1:1: E002 'Rol' is not a word the reader knows for a roll: did you mean 'Roll'?",
            "  help: Roll 1: 1 4 6 - crossed out 6/4, moved to 1/1",
        ),
        (
            "Lancr 1 : 1 4 6 - je barre 6/4, je vais en 1/1",
            "t.txt:1:1: E002 'Lancr' n\u2019est pas un mot connu pour un lancer : vouliez-vous "
            "dire 'Lancer' ?",
            "  aide : Lancer 1 : 1 4 6 - je barre 6/4, je vais en 1/1",
        ),
    ],
)
def test_a_misspelt_word_gets_its_correction_in_the_players_language(
    line: str, message: str, hint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Said in the record's own language, with the corrected line as the help."""
    lines = _validated(line + "\n", tmp_path, monkeypatch)
    assert message in lines and hint in lines, lines


@pytest.mark.parametrize("line", ["Round trip 3 days", "Roll\tWhatever 1\tfoo"])
def test_a_known_roll_word_is_never_its_own_did_you_mean(line: str) -> None:
    """`Round` is spelt right: the line is refused as what it is (a roll word without its
    number), with no `did you mean 'Round'?` (nor any other word)."""
    with pytest.raises(ReadError) as info:
        text_record.parse(line + "\n", "t.txt")
    d = info.value.diagnostic
    assert (d.code, d.line) == ("E002", 1)
    word = line.split()[0]
    assert d.message.startswith(f"after '{word}' a roll number and its three dice"), d.message
    assert "did you mean" not in d.message


@pytest.mark.parametrize(
    ("line", "message", "hint"),
    [
        (
            "Round one: 1 4 6 - crossed out 6/4, moved to 1/1",
            "t.txt:1:7: E002 after 'Round' a roll number and its three dice were expected; "
            "found 'one:'",
            "  help: write it like Round 7: 3 4 6",
        ),
        (
            "Wurf eins: 1 4 6 - Kreuz 6/4, Zug 1/1",
            "t.txt:1:6: E002 nach 'Wurf' wurden eine Wurfnummer und die drei Würfel erwartet; "
            "gefunden: 'eins:'",
            "  Hilfe: so schreiben: Wurf 7: 3 4 6",
        ),
        (
            "Lancer un : 1 4 6 - je barre 6/4, je vais en 1/1",
            "t.txt:1:8: E002 après 'Lancer', un numéro de lancer et ses trois dés étaient "
            "attendus ; trouvé : 'un'",
            "  aide : écrivez-le ainsi : Lancer 7: 3 4 6",
        ),
    ],
)
def test_a_roll_word_without_its_number_says_what_follows_it(
    line: str, message: str, hint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Round one:`: the line is said to be a round whose number is not read, in the
    player's words (their roll word, what stood after it), not 'neither a round nor a
    header line'."""
    lines = _validated(line + "\n", tmp_path, monkeypatch)
    assert message in lines and hint in lines, lines


def test_an_unknown_column_that_may_be_a_needed_one_is_the_error() -> None:
    """No destination column is named: the unknown name may be it, and is the one error
    (E003 at its cell); its column is skipped, so the rows below are still read, without
    an error of their own."""
    header = "| Wurf | Würfel | Kreuz | Zielfeld | Schritte |"
    with pytest.raises(ReadError) as info:
        text_record.parse(f"{header}\n| 1 | 1 4 6 | 1/4 | 1/1 | 6 |\n", "t.txt")
    found = [(d.code, d.line, d.col, d.message) for d in info.value.diagnostics]
    assert found == [("E003", 1, 27, "unknown column 'Zielfeld' (column 4)")]


SHEET = (
    "Roll\tDate\tDie 1\tDie 2\tDie 3\tCrossed\tMoved to\tBonus\tSteps\n"
    "1\t1.12.\t1\t4\t6\t1/4\t1/1\t+30\t6\n"
)


def test_a_spreadsheets_extra_columns_beside_the_games_are_skipped_with_a_warning() -> None:
    """A paste with a date and the points beside the cross-out and the destination: the
    game is read, each column it does not need is a warning at its cell (W004)."""
    record = text_record.parse(SHEET, "t.txt")
    assert [(r.roll, str(r.cross), str(r.move), r.steps) for r in record.rounds] == [
        (1, "1/4", "1/1", 6)
    ]
    found = [(d.code, d.line, d.col, d.message) for d in record.warnings]
    assert found == [
        ("W004", 1, 6, "unknown column 'Date' (column 2)"),
        ("W004", 1, 46, "unknown column 'Bonus' (column 8)"),
    ]


def test_a_skipped_column_is_an_error_again_when_a_row_misses_something() -> None:
    """A row without its cross-out (its `reroll` written under `Bonus`): the skipped
    columns are said as errors beside the row's own, as they may hold what is missing."""
    sheet = SHEET + "2\t1.12.\t5\t5\t3\t\t\treroll\t\n"
    with pytest.raises(ReadError) as info:
        text_record.parse(sheet, "t.txt")
    found = [(d.code, d.line) for d in info.value.diagnostics]
    assert found == [("E003", 1), ("E003", 1), ("E005", 3)]


def test_an_unknown_header_key_above_the_rounds_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text("Datum: 3. Dezember\nTeam: Blau\n" + typed("wurf-de"), encoding="utf-8")
    result = Checker.create(DICE, None).check(path)
    assert (result.verdict.value, result.score) == ("valid", 340)
    known = "known keys: player, dice_file, dice_sha256, coordinates, rules, claimed_score, rings"
    assert [(w.code, w.line, w.message, w.hint) for w in result.warnings] == [
        ("W004", 1, "unknown header key 'Datum'", known),
        ("W004", 2, "unknown header key 'Team'", known),
    ]
    # Without rounds, the unknown key is what is wrong: E003, as before; and a misspelt
    # key is a typo to mend (E003 with its correction), not a line of the player's own.
    with pytest.raises(ReadError) as info:
        text_record.parse("Datum: 3. Dezember\n", "t.txt")
    assert info.value.diagnostic.code == "E003"
    with pytest.raises(ReadError) as info:
        text_record.parse("Speiler: Klara\n" + typed("wurf-de"), "t.txt")
    assert (info.value.diagnostic.code, info.value.diagnostic.hint[:14]) == (
        "E003",
        "Spieler: Klara",
    )


def _unnumbered(r: RecordRound) -> str:
    head = f"Rolled {_dice(r, ', ')}. "
    if r.move is None:
        return head + f"Crossed out {_f(r.cross)}, game over."
    return head + f"Crossed out {_f(r.cross)} and moved to {_f(r.move)}."


def test_rounds_without_roll_numbers_follow_the_dice_file(tmp_path: Path) -> None:
    """The forced rerolls left out: each line after one is read as the roll its dice are,
    and a W005 says so at the line."""
    lines = [_unnumbered(r) for r in ALICE.rounds if not r.reroll]
    path = tmp_path / "game.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = Checker.create(DICE, None).check(path)
    assert (result.verdict.value, result.score) == ("valid", 340), result.error
    assert [(w.code, w.line, w.roll) for w in result.warnings] == [
        ("W005", 10, 11),  # after roll 10 (6 6 6)
        ("W005", 13, 15),  # after roll 14 (1 1 6)
        ("W005", 15, 18),  # after roll 17 (1 1 3)
        ("W005", 16, 21),  # after rolls 19 and 20
    ]
    assert result.warnings[0].message == (
        "round 10 gives no roll number, and its dice 6 5 1 are not roll 10: it is read as "
        "roll 11, after forced rerolls"
    )


def test_a_reading_never_makes_an_illegal_game_legal(tmp_path: Path) -> None:
    """A row left out that was no forced reroll is not jumped over: E101 at the line, as
    typed; a roll number, once written, is taken as written."""
    game = [r for r in ALICE.rounds if not r.reroll]
    lines = [_unnumbered(r) for r in game]
    del lines[4]  # roll 5 (2 1 6), where a cross-out was possible
    path = tmp_path / "game.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    error = Checker.create(DICE, None).check(path).error
    assert error is not None and (error.code, error.roll, error.line) == ("E101", 5, 5)
    # Roll 11's dice written as roll 10: a typed number is taken as typed (E101 there).
    lines = [_unnumbered(r) for r in game[:9]] + [f"10: {_dice(game[9])}   x {game[9].cross}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    error = Checker.create(DICE, None).check(path).error
    assert error is not None and (error.code, error.roll, error.line) == ("E101", 10, 10)


# --- games typed by hand, and lines as people write them -----------------------------------

TYPED_BY_HAND = sorted((ROOT / "tests" / "typed").glob("*.txt"))
"""Alice's game typed by hand as a player would, in German, French and English."""


@pytest.mark.parametrize("path", TYPED_BY_HAND, ids=lambda p: p.stem)
def test_games_typed_by_hand_are_valid_as_files_and_mail_bodies(path: Path, tmp_path: Path) -> None:
    result = Checker.create(DICE, None).check(path)
    assert (result.verdict.value, result.score, result.warnings) == ("valid", 340, ()), result.error
    lang = {"klara": "de", "lea": "fr", "sam": "en"}[path.stem]
    data = _batch([_mail(0, lang, path.read_text(encoding="utf-8"))], tmp_path)
    (entry,) = data["entries"]
    player = result.record.player if result.record else None
    assert (entry["verdict"], entry["score"], entry["player"]) == ("valid", 340, player)


@pytest.mark.parametrize(
    "line",
    [
        "Round 3: 2 2 2 → X 2/2 → 6/1",
        "R3: 2 2 2 x 2/2 -> 6/1",
        "r 3 - 2 2 2 - 2/2 - 6/1",
        "Roll #3: 2 2 2 x 2/2 -> 6/1",
        "#3: 2 2 2 x 2/2 -> 6/1",
        "3 - 2 2 2 - 2/2 - 6/1",
        "#3 (2, 2, 2): crossed out 2/2, moved to 6/1",
        "3rd roll: 2 2 2, crossed out 2/2, moved to 6/1",
        "Throw 3 (2 2 2) - X on 2/2, went to 6/1",
        "Round 3 — dice 2,2,2 — cross 2/2 — move 6/1",
        "Roll 3: I rolled 2 2 2, crossed out 2/2 and moved to 6/1",
        "Wurf 3: 2 2 2 \u2013 2/2 gestrichen \u2013 nach 6/1 gezogen",
        "Runde 3 (2,2,2): streiche 2/2, ziehe auf 6/1",
        "3. Wurf: 2 2 2, Kreuz bei 2/2, Ziel 6/1",
        "Wurf 3: 2 2 2 - ich habe 2/2 gestrichen und bin nach 6/1 gegangen",
        "Lancer 3 : 2 2 2 ; case 2/2 barrée ; déplacement en 6/1",
        "Tour 3 - dés 2 2 2 - je barre 2/2 et je vais en 6/1",
        "Lancer 3 : j'ai fait 2 2 2, je barre 2/2 et j'avance en 6/1",
        "Lancer 3 : J\u2019ai obtenu 2-2-2 ; j\u2019ai barré 2/2 puis je suis allée en 6/1",
    ],
)
def test_lines_as_people_write_them(line: str) -> None:
    (r,) = text_record.parse(line, "t.txt").rounds
    assert (r.roll, r.dice, str(r.cross), str(r.move)) == (3, (2, 2, 2), "2/2", "6/1")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Roll 3: 2 2 2 - bad luck, reroll", {"reroll": True}),
        ("Roll 3: 2 2 2 - reroll, bad luck again", {"reroll": True}),
        ("Roll 3: 2 2 2 - crossed out 2/2, then walked all the way to 6/1", {"move": "6/1"}),
        ("Wurf 3: 2 2 2 - leider nur Kreuz 2/2, dann mit viel Glück nach 6/1", {"move": "6/1"}),
        (
            "Lancer 3 : 2 2 2 \u2013 pas de chance, je barre 2/2 et je file vers 6/1",
            {"move": "6/1"},
        ),
    ],
)
def test_a_typed_round_passes_over_the_players_own_words(
    line: str, expected: dict[str, object]
) -> None:
    """Words the reader does not know and that are no misspelling of one it knows are
    the player's own, in a round typed with a roll word; the annotated form stays strict
    (`1: 2 4 5 x 2/4 banana` is E002, tests/test_text_record.py)."""
    (r,) = text_record.parse(line, "t.txt").rounds
    got = {"reroll": r.reroll} if r.reroll else {"move": str(r.move)}
    assert got == expected
    strict = "3: 2 2 2 " + line.split(" - ", 1)[-1].split(" \u2013 ", 1)[-1]
    with pytest.raises(ReadError):
        text_record.parse(strict, "t.txt")


def test_a_table_without_a_roll_column_follows_the_dice_file(tmp_path: Path) -> None:
    lines = ["| Dice | Cross | Move |", "|---|---|---|"]
    lines += [
        f"| {_dice(r)} | {_f(r.cross)} | {'' if r.move is None else _f(r.move)} |"
        for r in ALICE.rounds
        if not r.reroll
    ]
    path = tmp_path / "game.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = Checker.create(DICE, None).check(path)
    assert (result.verdict.value, result.score) == ("valid", 340), result.error
    assert [(w.code, w.roll) for w in result.warnings] == [
        ("W005", 11),
        ("W005", 15),
        ("W005", 18),
        ("W005", 21),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Roll" + " " * 100_000 + "x",
        "Roll" + " " * 50_000 + "." + " " * 50_000 + "x",
        "#1" + " " * 100_000 + "x",
        "1er" + " " * 50_000 + "lancer" + " " * 50_000,
        "| " + " " * 100_000 + "|",
        "Score" + " " * 50_000 + "final" + " " * 50_000 + ":",
        "I" + " " * 50_000 + "rolled" + " " * 50_000 + "x",
        "Dés" + " :" * 50_000,
    ],
)
def test_long_blank_runs_in_the_typed_forms_cost_linear_time(text: str) -> None:
    """Each run of blanks has one way to match: a quadratic pattern would take minutes."""
    from validator.contest.body import find_records
    from validator.records.registry import sniff_format

    started = time.process_time()
    for _ in range(3):
        with contextlib.suppress(ReadError):
            text_record.parse(text, "t.txt")
        find_records(text)
        sniff_format(text.encode())
    assert time.process_time() - started < 3


def test_a_roll_word_and_number_without_dice_takes_the_dice_file_s(tmp_path: Path) -> None:
    lines = [
        f"Roll {r.roll}: " + ("reroll" if r.reroll else f"crossed out {_f(r.cross)}")
        + ("" if r.reroll or r.move is None else f", moved to {_f(r.move)}")
        for r in ALICE.rounds
    ]  # fmt: skip
    record = text_record.parse("\n".join(lines) + "\n", "t.txt")
    assert all(r.dice is None for r in record.rounds)
    path = tmp_path / "game.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = Checker.create(DICE, None).check(path)
    assert (result.verdict.value, result.score) == ("valid", 340), result.error


# --- the numbers first: the player's words between them ------------------------------------

TYPED_AS_MAIL = sorted((ROOT / "tests" / "typed" / "mail").glob("*.txt"))
"""Alice's game typed by hand with a greeting above and a signature below, as a mail is
written (German, English, French); saved as files too."""
WORDS_OUTSIDE = {"de": [1, 3, 32, 33], "en": [1, 28], "fr": [1, 3, 30]}
"""The lines of words above and below the rounds of each: W006, skipped."""


@pytest.mark.parametrize("path", TYPED_AS_MAIL, ids=lambda p: p.stem)
def test_a_game_typed_as_a_mail_reads_as_a_file_and_as_a_mail_body(
    path: Path, tmp_path: Path
) -> None:
    result = Checker.create(DICE, None).check(path)
    assert (result.verdict.value, result.score) == ("valid", 340), result.error
    assert result.record is not None and result.record.claimed_score == 340
    assert [(w.code, w.line) for w in result.warnings] == [
        ("W006", n) for n in WORDS_OUTSIDE[path.stem]
    ]
    data = _batch([_mail(0, path.stem, path.read_text(encoding="utf-8"))], tmp_path)
    (entry,) = data["entries"]
    assert (entry["verdict"], entry["score"]) == ("valid", 340), entry["error"]
    assert entry["player"] == result.record.player


def test_a_line_of_words_is_skipped_only_above_and_below_the_rounds() -> None:
    """Said in full, at its line; among the rounds, in a file without rounds or around
    fewer than five round lines, a line of words is still E002 (what could it mean there?)."""
    game = typed("wurf-de")
    record = text_record.parse("Hallo zusammen,\n" + game + "Viele Grüße\nKlara\n", "t.txt")
    assert [(w.code, w.line, w.col, w.message) for w in record.warnings] == [
        ("W006", 1, 1, "a line of words outside the rounds is skipped: 'Hallo zusammen,'"),
        ("W006", 27, 1, "a line of words outside the rounds is skipped: 'Viele Grüße'"),
        ("W006", 28, 1, "a line of words outside the rounds is skipped: 'Klara'"),
    ]
    lines = game.splitlines()
    lines.insert(10, "und dann weiter")
    with pytest.raises(ReadError) as info:
        text_record.parse("\n".join(lines) + "\n", "t.txt")
    d = info.value.diagnostic
    assert (d.code, d.line, d.col) == ("E002", 11, 1), d.message
    with pytest.raises(ReadError) as info:
        text_record.parse("Hallo zusammen,\nViele Grüße\n", "t.txt")
    assert [(d.code, d.line) for d in info.value.diagnostics] == [("E002", 1), ("E002", 2)]
    # Around fewer than five round lines (a README's example), the words are no greeting.
    with pytest.raises(ReadError) as info:
        text_record.parse("I wrote\n1: 1 4 6 x 1/4 -> 1/1\nin my game.\n", "t.txt")
    assert [(d.code, d.line) for d in info.value.diagnostics] == [("E002", 1), ("E002", 3)]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Wurf 1 - 1 4 6: Kreuz auf 1/4, dann nach 1/1 gezogen (6 Schritte)", ("1/4", "1/1", 6)),
        (
            "Throw 1 (1-4-6) crossed out row 1 col 4, went to row 1 col 1, 6 steps",
            ("1/4", "1/1", 6),
        ),
        (
            "Roll 1: 1 4 6 - crossed out the field 1/4, moved to the square 1/1",
            ("1/4", "1/1", None),
        ),
        ("Roll 1: 1 4 6 - I had to cross out 1/4, then went to 1/1", ("1/4", "1/1", None)),
        (
            "Wurf 1: 1 4 6 - schön auf das Feld 1/4 durchgestrichen, bei 1/1 gelandet",
            ("1/4", "1/1", None),
        ),
        (
            "Lancer 1 : 1 4 6 - je barre sur la case 1/4 et je vais dans la case 1/1",
            ("1/4", "1/1", None),
        ),
        ("1er lancer (1,4,6) : en 1/4 barrée, vers 1/1 (6 cases)", ("1/4", "1/1", 6)),
        ("1. 1 4 6 - X okay, quickly row 1 col 4, then went to 1/1 (6)", ("1/4", "1/1", 6)),
        ("1 4 6 - bon, je barre 1/4, alors je vais en 1/1", ("1/4", "1/1", None)),
        ("1: 1 4 6 x auf 1/4 -> auf 1/1", ("1/4", "1/1", None)),
        ("Throw 1 (1-4-6) crossed out 1/4, then stuck - game over", ("1/4", None, None)),
        ("Throw 1 (1-4-6) had to reroll", None),
        ("Wurf 1 - 1 4 6: nix möglich, neu würfeln", None),
        ("Wurf 1: 1 4 6 - musste leider neu würfeln", None),
        ("Lancer 1 : 1 4 6 - j'ai dû relancer, dommage", None),
        ("1) 1 4 6 - reroll, bad luck", None),
        ("Round 1 - rolled 146 - cross out 1/4 and move 6 to 1/1", ("1/4", "1/1", 6)),
        ("Wurf 1: 1 4 6 -> 1/4 angekreuzt, 6 Felder nach 1/1", ("1/4", "1/1", 6)),
        ("Runde 1: gewürfelt 1 4 6, Kreuz in Feld 1/4, dann 6 Schritte bis 1/1", ("1/4", "1/1", 6)),
        ("Lancer n°1 : 1 4 6, je coche 1/4, j'avance de 6 cases jusqu'à 1/1", ("1/4", "1/1", 6)),
        ("Wurf Nr. 1: 1 4 6, Kreuz 1/4, Zug 1/1", ("1/4", "1/1", None)),
        ("Roll 1: 1 4 6 - crossed out 1/4, no moves left. Game over!", ("1/4", None, None)),
        ("Roll 1 = 1 4 6, cross-out 1/4, to 1/1 (6 steps) 20 points", ("1/4", "1/1", 6)),
        ("Wurf 1: 1 4 6 - Kreuz 1/4, nach 1/1 (30 Punkte)", ("1/4", "1/1", None)),
        ("Wurf 1: 1 4 6 \u2013 1/4 gestrichen, kein Weg mehr frei, Ende", ("1/4", None, None)),
        ("Lancer 1 : 1 4 6 → je raye 1/4 et je me place en 1/1", ("1/4", "1/1", None)),
    ],
)
def test_words_between_the_numbers_are_the_players_own(
    line: str, expected: tuple[str, str | None, int | None] | None
) -> None:
    """Filler words between a keyword and its field (`auf`, `the field`, `la case`),
    everyday words anywhere in a round typed as people write it, and a reroll word
    anywhere in a round that names no field."""
    (r,) = text_record.parse(line, "t.txt").rounds
    assert (r.roll, r.dice) == (1, (1, 4, 6))
    if expected is None:
        assert r.reroll
    else:
        assert (str(r.cross), None if r.move is None else str(r.move), r.steps) == expected


@pytest.mark.parametrize(
    ("line", "col"),
    [
        ("1: 1 4 6 had to reroll", 10),  # the annotated form stays strict
        ("1: 1 4 6 x 1/4 -> 1/1 banana", 23),
        ("Roll 1: 1 4 6 - Kreuz 1/4, Zug 1/1, Shritte 6", 37),  # a misspelt keyword
        ("Roll 1: 1 4 6 - moved to 1/1", 17),  # no cross-out: a move word is no filler
    ],
)
def test_words_that_stay_errors(line: str, col: int) -> None:
    with pytest.raises(ReadError) as info:
        text_record.parse(line, "t.txt")
    d = info.value.diagnostic
    assert (d.code, d.col) == ("E002", col), d.message


@pytest.mark.parametrize(
    ("line", "score"),
    [("Total 340", 340), ("Gesamt 340 Punkte", 340), ("Score final 335", 335)],
)
def test_a_total_line_without_its_colon(line: str, score: int, tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(typed("roll-en", total=False) + line + "\n", encoding="utf-8")
    result = Checker.create(DICE, None).check(path)
    assert result.record is not None and result.record.claimed_score == score
    if score != 340:
        assert result.error is not None and (result.error.code, result.error.line) == ("E107", 25)


@pytest.mark.parametrize(
    ("form", "row", "score"),
    [
        ("markdown-en", "| Total | | | | 340 |", 340),
        ("markdown-headless", "| Total | | | | 95 |", 95),
        ("markdown-de", "| Gesamt | | | | 340 Punkte |", 340),
        ("tabs-headless", "Gesamt\t340", 340),
        ("tabs-en", "\tScore final\t\t\t335", 335),
        ("semicolons-fr", "Total;;;;340", 340),
    ],
)
def test_a_total_row_inside_a_table_is_the_claimed_score(
    form: str, row: str, score: int, tmp_path: Path
) -> None:
    """A table's last row may be its total (`| Total | | | | 95 |`), as a total line is."""
    path = tmp_path / "game.txt"
    text = typed(form, total=False)
    path.write_text(text + row + "\n", encoding="utf-8")
    result = Checker.create(DICE, None).check(path)
    assert result.record is not None and result.record.claimed_score == score
    line = text.count("\n") + 1
    assert result.record.where("claimed_score") == (line, row.index(str(score)) + 1)
    if score == 340:
        assert result.error is None
    else:
        assert result.error is not None and (result.error.code, result.error.line) == ("E107", line)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("de", "de.txt:1:1: W006 eine Zeile aus Wörtern vor oder nach den Runden wird "
         "übersprungen: 'Hallo zusammen,'"),
        ("en", "en.txt:28:1: W006 a line of words outside the rounds is skipped: 'Cheers, Sam'"),
        ("fr", "fr.txt:1:1: W006 une ligne de mots avant ou après les tours est ignorée : "
         "'Bonjour,'"),
    ],
)  # fmt: skip
def test_a_skipped_line_is_said_in_the_records_language(
    lang: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT / "tests" / "typed" / "mail")
    out = CliRunner().invoke(main, ["validate", f"{lang}.txt", "--dice", str(DICE)])
    assert out.exit_code == 0 and said in out.output.splitlines(), out.output


@pytest.mark.parametrize(
    ("line", "message", "hint"),
    [
        (
            "Wurf 1: 1 4 6 - Kreuz, Zug 1/1",
            "t.txt:1:24: E002 nach 'Kreuz' fehlt das Feld, wie Kreuz 3/4; die Zeile geht mit "
            "'Zug' weiter",
            "  Hilfe: bisher gelesen: Wurf 1, Würfel 1 4 6",
        ),
        (
            "Roll 1: 1 4 6 - crossed out 6/4, moved to",
            "t.txt:1:42: E002 'moved to' needs its field after it, like moved to 5/5; the line "
            "ends there",
            "  help: read so far: roll 1, dice 1 4 6, crossed out 6/4",
        ),
        (
            "Lancer 1 : 1 4 6 - je barre 6/4, je vais en (6 cases)",
            "t.txt:1:54: E002 après 'vais en' manque la case, comme vais en 5/5 ; la ligne "
            "s\u2019arrête là",
            "  aide : lu jusqu\u2019ici : lancer 1, dés 1 4 6, 6/4 barrée, 6 pas",
        ),
    ],
)
def test_a_line_that_cannot_be_read_says_what_was_read_and_what_was_expected(
    line: str, message: str, hint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the player's own words: their keyword in the example, and the items of their
    line that were read before the reader stopped."""
    lines = _validated(line + "\n", tmp_path, monkeypatch)
    assert message in lines and hint in lines, lines


@pytest.mark.parametrize(
    "line",
    [
        "(1, 4, 6): crossed out 1/4, nice, moved to 1/1",
        "Dice 1 4 6 - crossed out 1/4, moved to 1/1",
        "I rolled 1 4 6, crossed out 1/4 and moved to 1/1",
        "Gewürfelt: 1 4 6, Kreuz 1/4, Zug nach 1/1",
        "J'ai lancé 1 4 6, je barre 1/4 et je vais en 1/1",
        "Dés : 1 4 6 ; barré 1/4 ; arrivée 1/1",
    ],
)
def test_a_round_without_a_roll_number_after_words_for_its_dice(line: str) -> None:
    """Its roll is counted, as a line without a roll number is (and follows the dice
    file past forced rerolls left out)."""
    (r,) = text_record.parse(line, "t.txt").rounds
    assert (r.roll, r.dice, str(r.cross), str(r.move)) == (1, (1, 4, 6), "1/4", "1/1")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Wurf 1: 1 4 6 => 1/4 weg", {"cross": Field(1, 4)}),
        ("Wurf 1: 1 4 6 => 6/4 -> 1/1 (1)", {"cross": Field(6, 4), "move": Field(1, 1)}),
        ("1 4 6 => 6/4, 1/1 (1)", {"cross": Field(6, 4), "move": Field(1, 1)}),
        ("1 4 6 - had to reroll", {"reroll": True}),
        ("1 4 6 - nix möglich, neu würfeln", {"reroll": True}),
    ],
)
def test_an_arrow_after_the_dice_and_a_reroll_without_a_roll_number(
    line: str, expected: dict[str, object]
) -> None:
    """`=>` between the dice and the cross-out, a cross-out word after its field (`1/4
    weg`), and a reroll in the player's words on a line without a roll number."""
    (r,) = text_record.parse(line + "\n", "t.txt").rounds
    assert (r.roll, r.dice) == (1, (1, 4, 6))
    assert {k: v for k, v in summary(r).items() if k not in ("roll", "dice", "steps")} == expected


@pytest.mark.parametrize(
    "names",
    [
        "roll,die 1,die 2,die 3,cross,move,steps",
        "Wurf;Würfel 1;Würfel 2;Würfel 3;Kreuz;Ziel;Schritte",
    ],
)
def test_a_csv_file_reads_three_die_columns_as_the_dice(names: str, tmp_path: Path) -> None:
    sep = ";" if ";" in names else ","
    rows = [
        sep.join(
            [
                str(r.roll),
                *_dice(r).split(),
                "reroll" if r.reroll else _f(r.cross),
                "" if r.move is None else _f(r.move),
                "" if r.move is None or r.steps is None else str(r.steps),
            ]
        )
        for r in ALICE.rounds
    ]
    path = tmp_path / "game.csv"
    path.write_text("\n".join([names, *rows]) + "\n", encoding="utf-8")
    record = read_record(path)
    assert [summary(r) for r in record.rounds] == _without_paths(GAME)
    result = Checker.create(DICE, None).check(path)
    assert (result.verdict.value, result.score) == ("valid", 340), result.error


# --- two readings of a line, tried against the dice file (W007) -----------------------------


def _rows() -> tuple[tuple[int, int, int], ...]:
    from validator.records.dice import read_dice

    return read_dice(DICE).rows


@pytest.mark.parametrize(
    ("line", "reading"),
    [
        ("1 4 6 6 4 1 1", (1, (1, 4, 6), "6/4", "1/1", None)),  # two bare digits: a field
        ("1 1 4 6 6/4 1/1 1", (1, (1, 4, 6), "6/4", "1/1", 1)),  # a roll number, no sign
        ("1: 1 4 6 x 6 4 -> 1 1 (1)", (1, (1, 4, 6), "6/4", "1/1", 1)),  # `6 4` is 6/4
        ("146. x 6/4 -> 1/1 (1)", (1, (1, 4, 6), "6/4", "1/1", 1)),  # not roll 146
        ("Roll 146: x 6/4 -> 1/1 (1)", (1, (1, 4, 6), "6/4", "1/1", 1)),
        ("1 4 6 6 3 1 1", (1, (1, 4, 6), "6/3", "1/1", None)),  # read; E202 in the replay
    ],
)
def test_a_line_that_reads_two_ways_is_read_the_way_that_fits_the_dice(
    line: str, reading: tuple[object, ...]
) -> None:
    record = text_record.parse(line + "\n", "t.txt", dice=_rows())
    (r,) = record.rounds
    assert (r.roll, r.dice, str(r.cross), str(r.move), r.steps) == reading
    assert [(w.code, w.line) for w in record.warnings] == [("W007", 1)]


@pytest.mark.parametrize(
    "line", ["1: 1 4 6 x 6/4 -> 1/1 (1)", "Roll 1: 1 4 6 - crossed out 6/4, moved to 1/1"]
)
def test_a_line_that_fits_as_written_is_read_as_written(line: str) -> None:
    record = text_record.parse(line + "\n", "t.txt", dice=_rows())
    assert record.warnings == ()
    assert text_record.parse(line + "\n", "t.txt").rounds == record.rounds


def test_without_the_dice_file_a_line_is_read_as_written() -> None:
    with pytest.raises(ReadError) as info:
        text_record.parse("1 4 6 6 4 1 1\n", "t.txt")
    assert info.value.diagnostic.code == "E002"


def test_no_reading_makes_a_wrong_cross_out_legal(tmp_path: Path) -> None:
    """`6 3` is a field only as 6/3, which the dice 1 4 6 cannot make: E202 at its line;
    a line whose dice are no roll's stays E002 as written."""
    path = tmp_path / "t.txt"
    path.write_text("Player: Sam\n1 4 6 6 3 1 1\n", encoding="utf-8")
    result = Checker.create(DICE, None).check(path)
    assert result.error is not None
    assert (result.verdict.value, result.error.code, result.error.line) == ("invalid", "E202", 2)
    path.write_text("Player: Sam\n1 2 4 5 x 2/4 -> 6/6 (5)\n", encoding="utf-8")
    result = Checker.create(DICE, None).check(path)
    assert result.error is not None
    assert (result.verdict.value, result.error.code, result.error.line) == ("malformed", "E002", 2)


@pytest.mark.parametrize(
    ("header", "said", "hint"),
    [
        (
            "Player: Sam",
            "t.txt:2:1: W007 this line reads in more than one way; it is read as roll 1, dice "
            "1 4 6, crossed out 6/4, moved to 1/1",
            "  help: roll 1 of the dice file is 1 4 6; write 1: 1 4 6   x 6/4 -> 1/1 to say it "
            "one way",
        ),
        (
            "Spielerin: Klara",
            "t.txt:2:1: W007 diese Zeile lässt sich auf mehr als eine Weise lesen; gelesen als "
            "Wurf 1, Würfel 1 4 6, 6/4 gestrichen, nach 1/1 gezogen",
            "  Hilfe: Wurf 1 der Würfeldatei ist 1 4 6; schreib 1: 1 4 6   x 6/4 -> 1/1, damit "
            "die Zeile eindeutig ist",
        ),
        (
            "Joueuse : Léa",
            "t.txt:2:1: W007 cette ligne se lit de plusieurs façons ; elle est lue comme "
            "lancer 1, dés 1 4 6, 6/4 barrée, déplacement en 1/1",
            "  aide : le lancer 1 du fichier de dés est 1 4 6 ; écrivez 1: 1 4 6   x 6/4 -> "
            "1/1 pour que la ligne n\u2019ait qu\u2019une lecture",
        ),
    ],
)
def test_the_reading_taken_is_named_in_the_records_language(
    header: str, said: str, hint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _validated(f"{header}\n1 4 6 6 4 1 1\n", tmp_path, monkeypatch)
    assert said in lines and hint in lines, lines


@pytest.mark.parametrize(
    "line",
    [
        "Roll 1 - dice: 1,4,6 - X: 6/4 - Move: 1/1 - Steps: 1",
        "Wurf 1 (1/4/6): 6/4 gestrichen \u2192 1/1",
        "Throw #1 => 1 4 6, struck 6/4, walked to 1/1",
        "Roll 1 = 1 4 6 \u2192 6/4 \u2717 \u2192 1/1",
        "Roll 1 (dice 1 4 6): crossed out 6 / 4, moved to 1 / 1",
        "Lancer 1 - 1,4,6 - barre: 6/4 - d\u00e9placement: 1/1 - 1 pas",
        "1er lancer : 1 4 6, je coche 6/4, je vais \u00e0 1/1",
        "1) (1, 4, 6): crossed out 6/4, moved to 1/1",
    ],
)
def test_more_forms_people_type_read_in_a_file_and_a_mail_body(line: str) -> None:
    """Slashes between bracketed dice, an arrow or a bracket between the roll number and
    the dice, a ballot cross after the field crossed out: read in a file, and found as a
    round line in a mail body."""
    from validator.contest.body import find_records

    (r,) = text_record.parse(line + "\n", "t.txt").rounds
    assert (r.roll, r.dice, str(r.cross), str(r.move)) == (1, (1, 4, 6), "6/4", "1/1")
    body = "Hi,\n\n" + "\n".join([line] * 5) + "\n\nCheers, Sam\n"
    (found,) = find_records(body)
    assert (found.first_line, found.last_line) == (3, 7)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            [
                "t.txt:3:9: E002 'foo' in column 'Kreuz' (cell 3) does not read as a field "
                "like 3/4",
                "t.txt:4:3: E002 '5 5' in column 'Würfel' (cell 2) does not read as three "
                "dice like 2 4 5",
            ],
        ),
        (
            "de",
            [
                "t.txt:3:9: E002 'foo' in Spalte 'Kreuz' (Zelle 3) lässt sich nicht lesen als "
                "ein Feld wie 3/4",
                "t.txt:4:3: E002 '5 5' in Spalte 'Würfel' (Zelle 2) lässt sich nicht lesen "
                "als drei Würfel wie 2 4 5",
            ],
        ),
        (
            "fr",
            [
                "t.txt:3:9: E002 'foo' dans la colonne 'Kreuz' (cellule 3) n\u2019est pas une "
                "case comme 3/4",
                "t.txt:4:3: E002 '5 5' dans la colonne 'Würfel' (cellule 2) n\u2019est pas "
                "trois dés comme 2 4 5",
            ],
        ),
    ],
)
def test_a_table_cell_that_cannot_be_read_is_said_with_the_players_column_name(
    lang: str, said: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The column as the header row names it, what the cell holds and what it takes; the
    code, line and column as before."""
    text = "Spielerin: Klara\nWurf\tWürfel\tKreuz\tZiel\n1\t1 4 6\tfoo\t1/1\n2\t5 5\t5/5\t6/1\n"
    lines = _validated(text, tmp_path, monkeypatch, "--lang", lang)
    assert all(s in lines for s in said), lines
