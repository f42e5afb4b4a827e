"""Reports and validate's output in German and French: golden files per language, the
documented choice of language, and no English prose left in a German or French output.

Refresh the golden files after an intended change with `REFRESH_GOLDEN=1 pytest
tests/test_report_languages.py` and review the diff (tests/golden/lang/).
"""

from __future__ import annotations

import functools
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from tiers import sweep

from validator.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
LANG_GOLDEN = GOLDEN / "lang"
REFRESH = os.environ.get("REFRESH_GOLDEN") == "1"

RECORDS = {
    "valid": "tests/golden/short.yaml",
    "cross": "examples/invalid/e203-cross-taken.yaml",
    "move": "examples/invalid/e205-move-unreachable.yaml",
    "path": "examples/invalid/e206-path-illegal.yaml",
    "expansion": "tests/golden/escape.yaml",
}
"""A valid record, an invalid one per part of the round, an expansion record; paths from
the repository root (the dice file each one names is found beside it)."""

FORMATS = {"text": "txt", "md": "md", "html": "html"}

GERMAN_RECORD = """\
Spieler: Anna
dice_file: dice.txt
1: 1 1 4   Raum 1/1 gestrichen nach 3/6 (4 Schritte) Weg 6/6 5/6 4/6 3/6
2: 1 1 1   neu gewürfelt
3: 2 3 5   Raum 5/3 gestrichen nach 1/6 (2 Schritte) Weg 2/6 1/6
"""


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    environment = {"NO_COLOR": "1", "COLUMNS": "100", **(env or {})}
    result = CliRunner().invoke(main, list(args), env=environment)
    return result.exit_code, result.output


def _compare(out: str, name: str) -> None:
    expected = LANG_GOLDEN / name
    if REFRESH or not expected.exists():
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_text(out, encoding="utf-8")
        if not REFRESH:
            pytest.fail(f"lang/{name} did not exist and was written; review and commit it")
    assert out == expected.read_text(encoding="utf-8"), (
        f"lang/{name} differs; if the change is intended, run "
        f"REFRESH_GOLDEN=1 pytest {__file__} -m 'slow or not slow'"
    )


CASES = [(lang, case, fmt) for lang in ("de", "fr") for case in RECORDS for fmt in FORMATS]


@functools.cache
def _report(lang: str, case: str, fmt: str) -> tuple[int, str]:
    """`road300 report` of a case, from the repository root: made once a process, for the
    golden test and the prose scan of the same case (an exit status and a string, which
    neither test can change)."""
    old = Path.cwd()
    os.chdir(ROOT)
    try:
        return run("report", RECORDS[case], "--format", fmt, "--lang", lang)
    finally:
        os.chdir(old)


@pytest.mark.parametrize(("lang", "case", "fmt"), CASES)
def test_golden(lang: str, case: str, fmt: str) -> None:
    code, out = _report(lang, case, fmt)
    assert code == (0 if case in ("valid", "expansion") else 1), out
    _compare(out, f"{lang}/{case}.{FORMATS[fmt]}")


@pytest.mark.parametrize(
    ("lang", "fmt"),
    sweep([(lang, fmt) for lang in ("de", "fr") for fmt in FORMATS], unpack=True),
)
def test_golden_analysed(lang: str, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An analysed report (the 7-row dice file: every value proven at once)."""
    monkeypatch.chdir(GOLDEN)
    code, out = run("report", "short.yaml", "--analyze", "--format", fmt, "--lang", lang)
    assert code == 0, out
    _compare(out, f"{lang}/analysed.{FORMATS[fmt]}")


# --- no English prose ----------------------------------------------------------------

ENGLISH = frozenset(
    """the and with of was were is are has have could would not no none crossed cross out
    field fields roll rolls move moves moved burglar board reroll rerolls forced step steps
    walk walked path reached reaches reach corner corners record round rounds game
    player ruleset dice escaped left legal illegal help available before after ends ended
    this that every best better lost far analysis how read glance line""".split()  # noqa: SIM905
)
"""Words of English prose that no German or French output may contain."""

_CODE = re.compile(r"\b[EWD]\d{3}(?: [a-z]+(?:-[a-z]+)+)?")
_SPAN = re.compile(r"``.*?``|`[^`]*`")
_PATH = re.compile(r"\S*[/\\.]\S*(?:yaml|txt|csv|json)\b|\S+\.(?:yaml|txt|csv|json)")
_KEY = re.compile(r"\b(?:steps|claimed_score|dice|roll|rings|dice_sha256|move|path) ?: \S+")
"""A record key and its value (French puts a space before the colon)."""
_OPTION = re.compile(r"--[a-z][a-z-]*")
"""A command-line option (`--dice`): its name is the same in every language."""
_NAMES = re.compile(r"Road to 300|In and Out!|Escape!|The magic rings!|Golden Tester")


class _Visible(HTMLParser):
    """The text a reader of an HTML page sees or hears: text nodes (in SVG pictures too)
    and the `title`, `aria-label` and `alt` attributes, one line per element; not the
    style sheet, tags or other attributes, and not the quoted record line (`pre.quote`)
    or a `.mono` value (paths, checksums)."""

    SKIP = ("style", "script")
    SAID = ("title", "aria-label", "alt")
    VOID = frozenset(["meta", "link", "br", "img", "hr", "input"])
    INLINE = frozenset(
        [
            "a",
            "abbr",
            "b",
            "bdi",
            "code",
            "em",
            "i",
            "mark",
            "small",
            "span",
            "strong",
            "sub",
            "sup",
        ]
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.stack: list[bool] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        classes = (named.get("class") or "").split()
        quiet = tag in self.SKIP or "mono" in classes or (tag == "pre" and "quote" in classes)
        if self.stack and self.stack[-1]:
            quiet = True
        if not quiet and tag != "html":  # <html lang> is not prose
            said = [v for k, v in attrs if k in self.SAID and v]
            if said:
                self.lines.extend([*said, ""])
        if tag not in self.INLINE:
            self.lines.append("")
        if tag not in self.VOID:
            self.stack.append(quiet)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.stack:
            self.stack.pop()
        if tag not in self.INLINE:
            self.lines.append("")

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1]):
            self.lines[-1:] = [(self.lines[-1] if self.lines else "") + data]


def visible_text(page: str) -> str:
    """The HTML page's visible text (see `_Visible`), one block (paragraph, cell, item) a line."""
    parser = _Visible()
    parser.feed(page)
    parser.close()
    return "\n".join(" ".join(line.split()) for line in parser.lines if line.strip())


def english_words(out: str) -> set[str]:
    """The English prose words in `out` (an HTML page: in its visible text), outside
    quoted record lines, code spans, paths, error codes with their names, record keys,
    command-line options and the game's and expansions' names."""
    found: set[str] = set()
    if out.lstrip().startswith("<!DOCTYPE html>"):
        out = visible_text(out)
    for line in out.splitlines():
        if re.match(r"\s*\d+ \| ", line):  # a quoted record line
            continue
        for pattern in (_SPAN, _CODE, _PATH, _KEY, _OPTION, _NAMES):
            line = pattern.sub(" ", line)
        found |= {w for w in re.findall(r"[A-Za-z]+", line) if w.lower() in ENGLISH}
    return found


@pytest.mark.parametrize(("lang", "case", "fmt"), CASES)
def test_no_english_prose(lang: str, case: str, fmt: str) -> None:
    _, out = _report(lang, case, fmt)
    assert english_words(out) == set()


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_the_english_scan_finds_english(fmt: str) -> None:
    """The scan above can fail: the English report is full of the words it looks for."""
    _, out = run("report", str(ROOT / RECORDS["path"]), "--format", fmt)
    assert {"crossed", "burglar", "the"} <= english_words(out)


def test_the_html_scan_reads_text_and_titles_not_tags_or_quotes() -> None:
    page = (
        '<!DOCTYPE html><html lang="de"><head><style>.the { color: red }</style></head>'
        '<body class="board"><p title="the burglar">Wurf <b>1</b></p>'
        '<svg aria-label="roll 2"><text>walk</text></svg>'
        '<pre class="quote"><span class="ln">9 | </span>crossed out 1/1</pre>'
        '<p><code>E206</code> path-illegal <span class="mono">the/path.yaml</span></p>'
        "</body></html>"
    )
    lines = ["the burglar", "Wurf 1", "roll 2", "walk", "E206 path-illegal"]
    assert visible_text(page).splitlines() == lines
    assert english_words(page) == {"the", "burglar", "roll", "walk"}


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_validate_speaks_the_language(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out = run("validate", RECORDS["path"], "--lang", lang)
    assert code == 1
    assert english_words(out) == set(), out
    assert ("Hilfe:" if lang == "de" else "aide :") in out


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("de", ["4/4 ist nicht in genau 5 Schritten erreichbar", "* in 5 Schritten erreichbar"]),
        ("fr", ["4/4 ne peut pas être atteinte en exactement 5 pas", "* atteinte en 5 pas"]),
    ],
)
def test_a_count_of_steps_takes_the_case_of_its_preposition(
    lang: str, said: list[str], tmp_path: Path
) -> None:
    """German "in genau 5 Schritten" (dative), not "5 Schritte": "in exactly N steps" is
    one phrase to translate, never "in genau" followed by the count said on its own."""
    record = tmp_path / "e205.txt"
    record.write_text("1: 1 4 6   x 4/6 -> 6/6\n2: 5 5 3   x 3/5 -> 4/4\n")
    code, out = run(
        "validate", str(record), "--dice", str(ROOT / "examples" / "challenge.txt"), "--lang", lang
    )
    assert code == 1
    for words in said:
        assert words in out, out


# --- which language ------------------------------------------------------------------


def _german_record(tmp_path: Path) -> Path:
    (tmp_path / "dice.txt").write_text((GOLDEN / "dice.txt").read_text(encoding="utf-8"))
    path = tmp_path / "anna.txt"
    path.write_text(GERMAN_RECORD, encoding="utf-8")
    return path


def test_a_german_record_is_reported_in_german(tmp_path: Path) -> None:
    code, out = run("report", str(_german_record(tmp_path)), "--format", "text")
    assert code == 0, out
    assert "So liest man das" in out and "Spieler:" in out
    code, out = run("validate", str(_german_record(tmp_path)))
    assert "unvollständig" in out or "gültig" in out, out


def test_an_english_record_stays_english_under_a_german_locale_only_when_told(
    tmp_path: Path,
) -> None:
    german = {"LANG": "de_DE.UTF-8"}
    yaml_record = str(GOLDEN / "short.yaml")
    # A YAML record has no language of its own: the German locale decides.
    _, out = run("report", yaml_record, "--format", "text", env=german)
    assert "So liest man das" in out
    # --lang en, or a record written in English words, keeps it English.
    _, out = run("report", yaml_record, "--format", "text", "--lang", "en", env=german)
    assert "How to read this" in out
    english = tmp_path / "alice.txt"
    (tmp_path / "dice.txt").write_text((GOLDEN / "dice.txt").read_text(encoding="utf-8"))
    english.write_text(
        "player: Alice\ndice_file: dice.txt\n"
        "1: 1 1 4   crossed out 1/1, moved to 3/6 (4 steps) path 6/6 5/6 4/6 3/6\n",
        encoding="utf-8",
    )
    _, out = run("report", str(english), "--format", "text", env=german)
    assert "How to read this" in out, out
    # And --lang wins over the record's own language.
    _, out = run("report", str(_german_record(tmp_path)), "--format", "text", "--lang", "fr")
    assert "Comment lire ceci" in out


def test_json_is_the_same_in_every_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    outputs = {
        lang: run("validate", RECORDS["path"], "--format", "json", "--lang", lang)[1]
        for lang in ("en", "de", "fr")
    }
    assert outputs["de"] == outputs["en"] == outputs["fr"]


# --- reading errors ------------------------------------------------------------------

MALFORMED = {
    "anna.txt": "Spieler: Anna\ndice_file: dice.txt\n"
    "1: 1 1 4   Raum 1/1 gestrichen nach 3/6 (4 Schritte) Weg 6/6 5/6 4/6 3/6\n3: 2 3\n",
    "bob.yaml": "player: Bob\ndice_file: dice.txt\nrounds:\n"
    "  - {roll: 1, dice: [1, 1, 4], cross: [1, 1], move: [3, 7]}\n"
    "  - {roll: 2, dice: [1, 1, 9], reroll: true}\n",
    "cleo.csv": 'roll,dice,cross,move,steps\n1,1 1 4,1/1,3/6,4\n2,"1 1 1\n',
    "dan.json": '{"player": "Dan", "dice_file": "nope.txt", "rounds": []}',
}
"""Records that cannot be read, one per reader (text, YAML with two problems, CSV, and a
JSON record whose dice file is missing), with messages that name no record key."""


def _malformed(tmp_path: Path) -> list[str]:
    (tmp_path / "dice.txt").write_text((GOLDEN / "dice.txt").read_text(encoding="utf-8"))
    for name, text in MALFORMED.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return [str(tmp_path / name) for name in MALFORMED]


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_reading_errors_speak_the_language(lang: str, tmp_path: Path) -> None:
    paths = _malformed(tmp_path)
    code, out = run("validate", *paths, "--lang", lang)
    assert code == 1
    assert out.count(" E00") + out.count(" D00") == 5, out
    assert english_words(out) == set(), out
    said = {
        "de": ("Feld 3/7 liegt nicht auf dem Spielfeld", "existiert nicht", "Hilfe:"),
        "fr": ("la case 3/7 est hors du plateau", "n\u2019existe pas", "aide :"),
    }[lang]
    assert all(s in out for s in said), out
    for fmt in FORMATS:
        code, page = run("report", paths[1], "--format", fmt, "--lang", lang)
        assert code == 1 and said[0] in page, page
        assert english_words(page) == set(), page


@pytest.mark.parametrize(
    ("lang", "line", "said"),
    [
        ("de", "1: 1 4 6   Raum 1/4 gestrichen, nach Raum 1/1 in 6 Schriten", "war 'Schritten'"),
        ("fr", "1: 1 4 6   case 1/4 barr\u00e9e, vers la case 1/1 en 6 pqs", "aide :"),
        # The suggestion is spelled as the player would write it, accents and all.
        ("fr", "1: 1 4 6   case 1/4 bar\u00e9e, vers la case 1/1 en 6 pas", "dire 'barr\u00e9e'"),
    ],
)
def test_a_record_that_cannot_be_read_is_answered_in_its_words_language(
    lang: str, line: str, said: str, tmp_path: Path
) -> None:
    """Without --lang, under an English locale: a text record whose words are German (or
    French) gets its reading error in German (French) though it could not be read."""
    record = tmp_path / "typo.txt"
    record.write_text(line + "\n", encoding="utf-8")
    dice = str(GOLDEN / "dice.txt")
    for command in ("validate", "report"):
        code, out = run(command, str(record), "--dice", dice, env={"LANG": "C.UTF-8"})
        assert code == 1 and "E002" in out, out
        assert english_words(out) == set(), out
        if command == "validate":
            assert said in out, out


def test_reading_errors_stay_english_in_json(tmp_path: Path) -> None:
    """Machine outputs never change with the language: JSON keeps the English message."""
    paths = _malformed(tmp_path)
    outputs = {
        lang: run("validate", *paths, "--format", "json", "--lang", lang)[1]
        for lang in ("en", "de", "fr")
    }
    assert outputs["de"] == outputs["en"] == outputs["fr"]
    assert "field 3/7 is off the board (rows and columns are 1-6)" in outputs["en"]
    assert "its dice file nope.txt does not exist" in outputs["en"]


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_broken_dice_file_is_said_in_the_language(lang: str, tmp_path: Path) -> None:
    """`--dice` that cannot be used stops the command (exit 2) with its D-code, in words
    of the language: a row that is no roll, and a record given where the dice belong."""
    paths = _malformed(tmp_path)
    broken = tmp_path / "broken.txt"
    broken.write_text("1 2 3\n4 5 9\n", encoding="utf-8")
    said = {"de": ("gefunden: '4 5 9'", "sieht wie ein Protokoll aus"), "fr": ("trouvé", "relevé")}
    for dice, words in ((broken, said[lang][0]), (paths[1], said[lang][1])):
        for command in ("validate", "report"):
            code, out = run(command, paths[0], "--dice", str(dice), "--lang", lang)
            assert code == 2 and " D002 " in out and words in out, out
            assert english_words(out) == set(), out
    code, out = run("validate", paths[0], "--dice", str(broken))
    assert code == 2 and "expected three dice 1-6" in out, out


def test_only_a_record_given_as_the_dice_file_is_said_to_look_like_one(tmp_path: Path) -> None:
    """A text with one annotated dice line among prose (the README's example) is no record."""
    prose = tmp_path / "notes.md"
    prose.write_text("# Notes\n\nI wrote\n\n    1: 1 4 6   x 1/4 -> 1/1\n\nin my game.\n")
    record = ROOT / "examples" / "alice.txt"
    for dice, looks in ((prose, False), (record, True)):
        code, out = run("validate", str(ROOT / "examples" / "alice.yaml"), "--dice", str(dice))
        assert code == 2 and ("this looks like a record" in out) is looks, out
