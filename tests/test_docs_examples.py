"""The documentation's examples run as shown: the four record forms of
docs/record-formats.md validate on the dice file shown there, its spelling variants read,
docs/batch.md's synopsis and JSON sample name every option and field, and the README's
console blocks print what they show."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from validator.cli import main
from validator.contest.batch import Entry, Summary
from validator.errors import ReadError
from validator.records import parse_record

ROOT = Path(__file__).resolve().parent.parent
FORMATS_DOC = (ROOT / "docs" / "record-formats.md").read_text(encoding="utf-8")
BATCH_DOC = (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(text: str, lang: str) -> list[str]:
    """The fenced code blocks of `text` in language `lang`, in order."""
    return re.findall(rf"^```{lang}\n(.*?)^```$", text, re.M | re.S)


def block_after(text: str, heading: str, lang: str) -> str:
    """The first `lang` block after `heading`."""
    return blocks(text[text.index(heading) :], lang)[0]


DICE = block_after(FORMATS_DOC, "## The examples' dice file", "text")

RECORDS = {
    "record.yaml": block_after(FORMATS_DOC, "## Canonical YAML", "yaml"),
    "record.json": block_after(FORMATS_DOC, "## Canonical JSON", "json"),
    "record.txt": block_after(FORMATS_DOC, "## Annotated dice file", "text"),
    "record.csv": block_after(FORMATS_DOC, "## CSV", "csv"),
}


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_record_formats_examples_are_real(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("challenge.txt").write_text(DICE, encoding="utf-8")
    Path(name).write_text(RECORDS[name], encoding="utf-8")
    args = ["validate", name, "--format", "json"]
    if "dice_file: challenge.txt" not in RECORDS[name] and '"dice_file"' not in RECORDS[name]:
        args += ["--dice", "challenge.txt"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    assert (got["verdict"], got["score"], got["end"]) == ("valid", 60, "escaped"), got
    assert got["warnings"] == [], got["warnings"]


def test_the_forms_hold_the_same_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("challenge.txt").write_text(DICE, encoding="utf-8")
    games = set()
    for name, text in RECORDS.items():
        Path(name).write_text(text, encoding="utf-8")
        args = ["validate", name, "--dice", "challenge.txt", "--format", "json", "--rounds"]
        rounds = json.loads(CliRunner().invoke(main, args).stdout)["rounds"]
        games.add(json.dumps([(r["roll"], r["kind"], r["cross"], r["move"]) for r in rounds]))
    assert len(games) == 1


def test_the_spelling_variants_read_and_play(tmp_path: Path) -> None:
    variants = block_after(FORMATS_DOC, "The same rounds as players write them", "text")
    lines = [line for line in variants.splitlines() if line.strip()]
    first = RECORDS["record.txt"].splitlines()
    row_1 = next(line for line in first if line.startswith("1:"))
    dice = tmp_path / "challenge.txt"
    dice.write_text(DICE, encoding="utf-8")
    for line in lines:
        try:
            parse_record(line + "\n", "text", source="variant.txt")
        except ReadError as exc:
            raise AssertionError(f"{line!r}: {exc}") from None
        if line.startswith(("1:", "2:")):
            # Rows 1 and 2 of the examples' dice file: the variant is played too.
            text = line if line.startswith("1:") else row_1 + "\n" + line
            record = tmp_path / "variant.txt"
            record.write_text(text + "\n", encoding="utf-8")
            args = ["validate", str(record), "--dice", str(dice), "--format", "json"]
            got = json.loads(CliRunner().invoke(main, args).stdout)
            assert got["verdict"] in ("valid", "incomplete"), (line, got["error"])


def test_the_yaml_example_names_the_real_checksum() -> None:
    import hashlib

    shown = re.search(r"dice_sha256: ([0-9a-f]{64})", RECORDS["record.yaml"])
    assert shown and shown.group(1) == hashlib.sha256(DICE.encode()).hexdigest()


# -- docs/batch.md -----------------------------------------------------------------------


def test_batch_synopsis_names_every_option() -> None:
    from validator.cli.batch import command

    synopsis = block_after(BATCH_DOC, "--output results.json   # or results.csv", "text")
    for param in command.params:
        if isinstance(param, click.Option) and param.name != "help":
            assert param.opts[0] in synopsis, param.opts[0]


def test_draw_synopsis_names_every_option() -> None:
    from validator.cli.draw import command

    synopsis = block_after(BATCH_DOC, "## `road300 draw`", "text")
    for param in command.params:
        if isinstance(param, click.Option) and param.name != "help":
            assert any(opt in synopsis for opt in param.opts), param.opts


def test_batch_json_sample_has_every_field() -> None:
    sample = block_after(BATCH_DOC, "**json**", "json")
    entry_keys = re.findall(r'"(\w+)":', sample.split('"summary"')[0])
    entry_keys = [k for k in entry_keys if k != "entries"]
    summary = sample.split('"summary": ')[1].split('\n "skipped"')[0]
    summary_keys = re.findall(r'"(\w+)":', summary)
    assert entry_keys == [f for f in Entry.__dataclass_fields__]
    assert summary_keys == [f for f in Summary.__dataclass_fields__]


def test_batch_docs_cite_files_that_exist() -> None:
    for cited in re.findall(
        r"`((?:schemas|benchmarks|docs|examples|validator)/[\w./-]+)`", BATCH_DOC
    ):
        assert (ROOT / cited).exists(), cited


# -- README --------------------------------------------------------------------------------


def _console_blocks() -> list[tuple[list[str], list[str]]]:
    """(command words, the lines it prints) for each `$ road300 ...` in the README."""
    out = []
    for block in blocks(README, "console"):
        lines = block.splitlines()
        starts = [n for n, line in enumerate(lines) if line.startswith("$ road300 ")]
        for n, start in enumerate(starts):
            end = starts[n + 1] if n + 1 < len(starts) else len(lines)
            out.append((shlex.split(lines[start][2:])[1:], lines[start + 1 : end]))
    return out


CONSOLE = _console_blocks()


@pytest.mark.parametrize("args, shown", CONSOLE, ids=[" ".join(a[:2]) for a, _ in CONSOLE])
def test_readme_console_blocks_print_what_they_show(
    args: list[str], shown: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, args, env={"NO_COLOR": "1", "COLUMNS": "120"})
    got = [line.rstrip() for line in result.output.splitlines()]
    assert got == [line.rstrip() for line in shown]


def test_readme_has_console_blocks() -> None:
    assert len(CONSOLE) >= 2


# -- docs/contest.md -------------------------------------------------------------------------


def test_contest_init_prints_what_the_contest_docs_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = (ROOT / "docs" / "contest.md").read_text(encoding="utf-8")
    block = block_after(doc, "## 1. The contest file", "console").replace("\\\n", " ")
    after = block.split("$ road300 contest init", 1)[1]
    command, shown = after.split("\n", 1)
    monkeypatch.chdir(tmp_path)
    Path("dice.txt").write_text((ROOT / "examples" / "challenge.txt").read_text())
    result = CliRunner().invoke(main, ["contest", "init", *shlex.split(command)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == shown.splitlines()


TYPED = re.split(
    r"^### ", FORMATS_DOC.split("### Typed the way people write it", 1)[1], flags=re.M
)[0]


@pytest.mark.parametrize("n", range(len(blocks(TYPED, "text"))))
def test_the_typed_forms_are_the_same_game(
    n: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("challenge.txt").write_text(DICE, encoding="utf-8")
    Path("typed.txt").write_text(blocks(TYPED, "text")[n], encoding="utf-8")
    args = ["validate", "typed.txt", "--dice", "challenge.txt", "--format", "json", "--rounds"]
    result = CliRunner().invoke(main, args)
    got = json.loads(result.stdout)
    assert (got["verdict"], got["score"], got["end"]) == ("valid", 60, "escaped"), got["error"]
    Path("record.yaml").write_text(RECORDS["record.yaml"], encoding="utf-8")
    same = json.loads(CliRunner().invoke(main, [*args[:1], "record.yaml", *args[2:]]).stdout)
    assert [(r["roll"], r["kind"], r["cross"], r["move"]) for r in got["rounds"]] == [
        (r["roll"], r["kind"], r["cross"], r["move"]) for r in same["rounds"]
    ]


def test_the_csv_with_three_die_columns_is_the_same_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CSV section's second example: each die in a column of its own."""
    section = FORMATS_DOC[FORMATS_DOC.index("## CSV") :]
    block = re.findall(r"^[ \t]+```csv\n(.*?)^[ \t]+```$", section, re.M | re.S)[0]
    monkeypatch.chdir(tmp_path)
    Path("challenge.txt").write_text(DICE, encoding="utf-8")
    Path("dice.csv").write_text(
        "\n".join(line.strip() for line in block.splitlines()) + "\n", encoding="utf-8"
    )
    Path("record.yaml").write_text(RECORDS["record.yaml"], encoding="utf-8")
    games = []
    for name in ("dice.csv", "record.yaml"):
        args = ["validate", name, "--dice", "challenge.txt", "--format", "json", "--rounds"]
        got = json.loads(CliRunner().invoke(main, args).stdout)
        assert (got["verdict"], got["score"], got["end"]) == ("valid", 60, "escaped"), got
        games.append([(r["roll"], r["kind"], r["cross"], r["move"]) for r in got["rounds"]])
    assert games[0] == games[1]
