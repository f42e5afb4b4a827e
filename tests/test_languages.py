"""The languages of what a person reads: complete catalogs, the documented choice of
language, the record's own language, numbers and ordinals in each language's form."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from tools import catalogs
from validator.language import i18n
from validator.records import text_record
from validator.records.language import identify_text


def test_the_catalogs_are_complete_and_compiled() -> None:
    """Every message the code and templates use is in the template and translated, not
    fuzzy, in every language, and each shipped .mo is the compiled .po."""
    assert catalogs.problems() == []


@pytest.mark.slow  # a second extraction and check of every catalog
def test_a_catalog_missing_a_message_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a language whose catalog lacks a used message is named."""
    catalog = catalogs.read(catalogs.po_path("de"), "de")
    used = catalogs.extract()
    first = next(m for m in used if m.id)
    catalog.delete(first.id, context=first.context)
    original = catalogs.read
    german = catalogs.po_path("de")
    monkeypatch.setattr(
        catalogs,
        "read",
        lambda path, locale=None: catalog if path == german else original(path, locale),
    )
    assert any(p.startswith("de: missing") for p in catalogs.problems(used))


def test_the_languages_shipped() -> None:
    assert set(catalogs.languages()) == set(i18n.LANGUAGES) - {"en"}


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({}, "en"),
        ({"environ": {"LANG": "de_DE.UTF-8"}}, "de"),
        ({"environ": {"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}}, "fr"),
        ({"environ": {"LC_MESSAGES": "fr_CA", "LANG": "de_DE"}}, "fr"),
        ({"environ": {"LC_ALL": "C", "LANG": "de_DE"}}, "en"),
        ({"environ": {"LANG": "ja_JP.UTF-8"}}, "en"),
        ({"site": "de", "environ": {"LANG": "fr_FR"}}, "de"),
        ({"contest": "fr", "environ": {"LANG": "de_DE"}}, "fr"),
        ({"site": "en", "contest": "fr", "environ": {"LANG": "de_DE"}}, "en"),
        ({"body": "de", "site": "en", "contest": "fr"}, "de"),
        ({"body": "fr", "site": "de"}, "fr"),
        ({"record": "de", "body": "fr", "site": "en"}, "de"),
        ({"explicit": "en", "record": "de", "environ": {"LANG": "de_DE"}}, "en"),
        ({"record": "en", "environ": {"LANG": "de_DE.UTF-8"}}, "en"),
        ({"record": None, "environ": {"LANG": "de_DE.UTF-8"}}, "de"),
    ],
)
def test_the_language_is_chosen_in_the_documented_order(
    kwargs: dict[str, Any], expected: str
) -> None:
    assert i18n.choose(**kwargs) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1: 1 4 6   Raum 1/4 gestrichen nach 1/1 (6 Schritte)\n", "de"),
        ("Spieler: Anna\n1: 1 4 6   x 1/4 -> 1/1\n", "de"),
        ("1: 1 4 6   case 1/4 barrée vers 1/1 (6 pas)\n", "fr"),
        ("joueur: Anne\n1: 1 4 6   x 1/4 -> 1/1\n", "fr"),
        ("1: 1 4 6   crossed out 1/4, moved to 1/1 (6 steps)\n", "en"),
        ("1: 1 4 6   x 1/4 -> 1/1 (6)\n", None),
    ],
)
def test_a_text_record_knows_its_language(text: str, expected: str | None) -> None:
    assert identify_text(text) == expected
    assert text_record.parse(text, "r.txt").language == expected


def test_the_language_does_not_change_what_a_record_is() -> None:
    german = text_record.parse("1: 1 4 6   Raum 1/4 gestrichen nach 1/1\n", "r.txt")
    english = text_record.parse("1: 1 4 6   cross 1/4 move to 1/1\n", "r.txt")
    assert (german.language, english.language) == ("de", "en")
    unplaced = [
        [dataclasses.replace(r, locations=()) for r in rec.rounds] for rec in (german, english)
    ]
    assert unplaced[0] == unplaced[1]


@pytest.mark.parametrize(
    ("lang", "ordinals", "thousand"),
    [
        ("en", ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "102nd"], "1,234"),
        ("de", ["1.", "2.", "3.", "4.", "11.", "12.", "13.", "21.", "102."], "1.234"),
        ("fr", ["1er", "2e", "3e", "4e", "11e", "12e", "13e", "21e", "102e"], "1\u202f234"),
    ],
)
def test_numbers_and_ordinals_in_each_language(
    lang: i18n.Language, ordinals: list[str], thousand: str
) -> None:
    with i18n.speaking(lang):
        assert [i18n.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102)] == ordinals
        assert i18n.number(1234) == thousand
    assert i18n.current() == "en"


_MESSAGE_CALLS = frozenset(catalogs.KEYWORDS)
"""The functions whose calls Babel extracts as messages (`_`, `gettext`, `pgettext`,
`plural`, ...), called by name or as an attribute (`i18n.gettext`)."""
_NAMES = "|".join(map(re.escape, sorted(_MESSAGE_CALLS)))
_ANY_CALL = re.compile(rf"\b(?:{_NAMES})\s*\(")


def _is_message_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return name in _MESSAGE_CALLS


def _messages_hidden_in_f_strings(paths: Iterable[Path]) -> list[str]:
    """`file:line` of every f-string that holds a message call anywhere in its
    expressions (read from the syntax tree, the same on every Python). A file that calls
    no message function at all is not parsed."""
    hidden = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if not _ANY_CALL.search(text):
            continue
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.JoinedStr) and any(
                _is_message_call(inner)
                for part in node.values
                if isinstance(part, ast.FormattedValue)
                for inner in ast.walk(part.value)
            ):
                hidden.append(f"{path.name}:{node.lineno}")
    return hidden


def test_no_message_hides_in_an_f_string() -> None:
    """Babel cannot see a `_("...")` inside an f-string, so such a message would never
    reach the catalogs (and stay English in every language)."""
    package = Path(catalogs.ROOT) / "validator"
    assert _messages_hidden_in_f_strings(package.rglob("*.py")) == []


def test_the_f_string_scan_finds_a_hidden_message(tmp_path: Path) -> None:
    """The scan above can fail: it finds the call in an f-string, not in a dict or a plain
    string."""
    source = tmp_path / "m.py"
    source.write_text(
        'a = {_("key"): 1}\nb = "{_(x)}"\nc = f"n: { _(\'said\')}"\nd = F"{ngettext(x, y, n)}"\n'
        "e = f\"{x or _ ('a')}\"\ng = f\"{i18n.gettext('b')}\"\nh = f\"{pgettext(c, 'd')}\"\n"
        'i = _(f"{x}")\n',
        encoding="utf-8",
    )
    assert _messages_hidden_in_f_strings([source]) == [f"m.py:{n}" for n in (3, 4, 5, 6, 7)]


def test_a_merge_fills_what_one_side_lacks_from_the_other() -> None:
    """`tools/catalogs.py merge`: our translations stay, the messages only their side has
    translated (new, or fuzzy on ours) come from theirs."""
    from babel.messages.catalog import Catalog

    ours, theirs = Catalog(locale="de"), Catalog(locale="de")
    ids: list[str | tuple[str, ...]] = ["a", "b", ("n one", "n many"), "c", "d"]
    sides: list[tuple[Catalog, list[str | tuple[str, ...]]]] = [
        (ours, ["", "B", ("", ""), "C?", ""]),
        (theirs, ["A", "other", ("eins", "viele"), "C", ""]),
    ]
    for catalog, strings in sides:
        for msgid, string in zip(ids, strings, strict=True):
            catalog.add(msgid, string, flags=["fuzzy"] if string == "C?" else [])
    assert catalogs.fill(ours, theirs) == 3
    assert (ours["a"].string, ours["b"].string, ours["c"].string) == ("A", "B", "C")
    assert ours["n one"].string == ("eins", "viele") and not ours["c"].fuzzy
    assert catalogs.untranslated(ours) == ["d"]  # neither side translated it


def test_every_translation_fills_the_same_placeholders() -> None:
    """A translation names exactly the `{placeholders}` of its message (a plural form may
    leave out `{n}`): a misspelt or missing one would fail, or drop a value, at render time."""
    found = re.compile(r"\{(\w*)\}")
    wrong = []
    for lang in catalogs.languages():
        for message in catalogs.read(catalogs.po_path(lang), lang):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            names = {n for text in ids for n in found.findall(str(text))}
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in strings:
                used = set(found.findall(str(text)))
                if used - names or names - used - {"n"}:
                    wrong.append(f"{lang}: {ids[0]!r} -> {text!r}")
    assert wrong == []


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "no legal move on roll 22"),
        ("de", "kein erlaubter Zug bei Wurf 22"),
        ("fr", "aucun déplacement permis au lancer 22"),
    ],
)
def test_a_round_after_the_end_names_the_end_in_words(lang: str, said: str) -> None:
    """E106 says how the game ended in the reader's words, never the raw `no-move`."""
    from conftest import EXAMPLES, run_in_process

    run = run_in_process(
        ["validate", str(EXAMPLES / "invalid" / "e106-after-end.yaml"), "--lang", lang]
    )
    assert run.status == 1
    shown = run.stdout + run.stderr
    assert "no-move" not in shown and said in shown


def test_remembered_numbers_are_written_as_babel_writes_them() -> None:
    """`i18n.number` remembers what it wrote, per language and type: a zero is 0, never
    -0, whatever zero came first."""
    with i18n.speaking("de"):
        assert [i18n.number(v) for v in (-0.0, 0, 0.0, 1234, 1.5, 1234)] == [
            "0",
            "0",
            "0",
            "1.234",
            "1,5",
            "1.234",
        ]
    with i18n.speaking("en"):
        assert (i18n.number(1234), i18n.number(2.5)) == ("1,234", "2.5")


def test_each_message_is_stored_once_as_a_phrase() -> None:
    """A diagnostic and a refusal keep their message and hint once, as phrases; the English
    text is derived from them, so no producer can fill the two differently."""
    from validator.check.file import UsageError
    from validator.engine import IllegalAction
    from validator.engine.phrase import N_, phrase
    from validator.errors import Diagnostic

    stored = {f.name for f in dataclasses.fields(Diagnostic)}
    assert {"phrase", "hint_phrase"} <= stored and not {"message", "hint"} & stored
    said = phrase(N_("no magic ring is left to spend"))
    refusal = IllegalAction("E212", said, hint=phrase("{n} left", n=0))
    assert not {"message", "hint"} & set(vars(refusal))
    assert (refusal.message, refusal.hint, str(refusal)) == (str(said), "0 left", str(said))
    with i18n.speaking("de"):
        german = i18n.say(refusal.phrase)
    assert german != refusal.message and german == i18n.translations("de").gettext(said.template)
    stop = UsageError(said)
    assert "message" not in vars(stop) and (stop.message, stop.said) == (str(said), said)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_library_message_is_said_as_it_is_in_every_language(lang: i18n.Language) -> None:
    """English text with no translation (a YAML library's message, which may hold braces)
    becomes a phrase that says it unchanged, never a template to fill."""
    from validator.errors import Diagnostic

    d = Diagnostic.said("E002", "expected '{' or '}' here", "r.yaml", 3, 1, hint="a {key}")
    with i18n.speaking(lang):
        assert (i18n.message(d), i18n.hint(d)) == ("expected '{' or '}' here", "a {key}")
    assert (d.message, d.hint) == ("expected '{' or '}' here", "a {key}")
    assert Diagnostic.said("E002", "bad", "r.yaml").hint_phrase is None
