"""Reports and validate's output in German and French: golden files per language, the
documented choice of language, and no English prose left in a German or French output.

Refresh the golden files after an intended change with `REFRESH_GOLDEN=1 pytest
tests/test_report_languages.py` and review the diff (tests/golden/lang/).
"""

from __future__ import annotations

import os
import re
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

FORMATS = {"text": "txt", "md": "md"}

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
        f"lang/{name} differs; if the change is intended, run REFRESH_GOLDEN=1 pytest {__file__}"
    )


CASES = [(lang, case, fmt) for lang in ("de", "fr") for case in RECORDS for fmt in FORMATS]


def _report(lang: str, case: str, fmt: str) -> tuple[int, str]:
    return run("report", RECORDS[case], "--format", fmt, "--lang", lang)


@pytest.mark.parametrize(("lang", "case", "fmt"), CASES)
def test_golden(lang: str, case: str, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
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
_KEY = re.compile(r"\b(?:steps|claimed_score|dice|roll|rings|dice_sha256|move|path): \S+")
_NAMES = re.compile(r"Road to 300|In and Out!|Escape!|The magic rings!|Golden Tester")


def english_words(out: str) -> set[str]:
    """The English prose words in `out`, outside quoted record lines, code spans, paths,
    error codes with their names, record keys and the game's and expansions' names."""
    found: set[str] = set()
    for line in out.splitlines():
        if re.match(r"\s*\d+ \| ", line):  # a quoted record line
            continue
        for pattern in (_SPAN, _CODE, _PATH, _KEY, _NAMES):
            line = pattern.sub(" ", line)
        found |= {w for w in re.findall(r"[A-Za-z]+", line) if w.lower() in ENGLISH}
    return found


@pytest.mark.parametrize(("lang", "case", "fmt"), CASES)
def test_no_english_prose(lang: str, case: str, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    _, out = _report(lang, case, fmt)
    assert english_words(out) == set()


def test_the_english_scan_finds_english() -> None:
    """The scan above can fail: the English report is full of the words it looks for."""
    _, out = run("report", str(ROOT / RECORDS["path"]), "--format", "text")
    assert {"crossed", "burglar", "the"} <= english_words(out)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_validate_speaks_the_language(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out = run("validate", RECORDS["path"], "--lang", lang)
    assert code == 1
    assert english_words(out) == set(), out
    assert ("Hilfe:" if lang == "de" else "aide :") in out


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
