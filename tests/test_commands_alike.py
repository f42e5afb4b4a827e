"""Commands behave alike: one exit-status rule, the same problem in the same words for a
file and for standard input, hints that name the command's own options, suggestions for
mistyped commands and options, an exit-status section in every help, and the schemas
generated from the code and shipped in the package."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import run_in_process

from validator.cli import COMMANDS, main
from validator.cli.common import EXIT_FAILED, EXIT_OK, exit_status
from validator.errors import Verdict

ROOT = Path(__file__).resolve().parent.parent
ALICE = ROOT / "examples" / "alice.yaml"
CHALLENGE = ROOT / "examples" / "challenge.txt"
INVALID = ROOT / "examples" / "invalid"


def invoke(args: list[str | Path], stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


# -- Exit status ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verdicts", "plain", "strict"),
    [
        ([Verdict.VALID], EXIT_OK, EXIT_OK),
        ([Verdict.VALID, Verdict.INCOMPLETE], EXIT_OK, EXIT_FAILED),
        ([Verdict.VALID, Verdict.INVALID], EXIT_FAILED, EXIT_FAILED),
        ([Verdict.MALFORMED], EXIT_FAILED, EXIT_FAILED),
        ([], EXIT_OK, EXIT_FAILED),
    ],
)
def test_one_exit_status_rule(verdicts: list[Verdict], plain: int, strict: int) -> None:
    assert exit_status(verdicts) == plain
    assert exit_status(verdicts, strict=True) == strict


@pytest.mark.parametrize(
    "files",
    [
        ["alice.yaml"],
        ["alice.yaml", "incomplete.yaml"],
        ["alice.yaml", "e203.yaml"],
    ],
)
def test_batch_strict_is_validate_strict(files: list[str], tmp_path: Path) -> None:
    sources = {
        "alice.yaml": ALICE,
        "e203.yaml": INVALID / "e203-cross-taken.yaml",
    }
    folder = tmp_path / "entries"
    folder.mkdir()
    for name in files:
        if name == "incomplete.yaml":
            text = ALICE.read_text().split("  - {roll: 3,")[0]
            lines = [line for line in text.splitlines() if not line.startswith("claimed_score")]
            (folder / name).write_text("\n".join(lines) + "\n")
        else:
            shutil.copy(sources[name], folder / name)
    paths = [str(folder / name) for name in files]
    validate = invoke(["validate", *paths, "--dice", CHALLENGE, "--strict"])[0]
    batch = invoke(["batch", folder, "--dice", CHALLENGE, "--strict"])[0]
    assert batch == validate
    # Without --strict a batch that ran exits 0, whatever the verdicts.
    assert invoke(["batch", folder, "--dice", CHALLENGE])[0] == EXIT_OK


# -- The same problem in the same words ----------------------------------------------------


def test_a_missing_dice_file_is_the_same_for_a_file_and_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    record = tmp_path / "r.yaml"
    record.write_text("dice_file: gone.txt\nrounds:\n  - {cross: 1/4, move: 1/1}\n")
    as_file = invoke(["convert", "r.yaml", "--to", "json"])
    as_stdin = invoke(["convert", "-", "--to", "json"], record.read_bytes())
    assert as_file[0] == as_stdin[0] == 1
    assert as_file[1] == as_stdin[1] == ""  # nothing converted
    message = "D001 its dice file gone.txt does not exist"
    assert message in as_file[2] and message in as_stdin[2]
    assert as_file[2].replace("r.yaml", "<stdin>") == as_stdin[2]
    # validate says it in the same words too.
    assert message in invoke(["validate", "-"], record.read_bytes())[1]


def test_solve_given_a_record_names_its_own_option() -> None:
    code, _, stderr = invoke(["solve", ALICE])
    assert code == 2
    assert "--from" in stderr and "--dice" not in stderr


def test_validate_given_the_dice_file_second_names_dice() -> None:
    code, _, stderr = invoke(["validate", CHALLENGE, "--dice", ALICE])
    assert code == 2 and "--dice" in stderr


def test_draw_says_that_every_eligible_entry_was_a_copy(tmp_path: Path) -> None:
    names = [f"p{i}.yaml" for i in range(5)]
    entries = [
        {
            "file": name,
            "verdict": "valid",
            "score": 320,
            "end": "no-move",
            "error": None,
            "rank": 1,
            "copies": [n for n in names if n != name],
        }
        for name in names
    ]
    results = tmp_path / "r.json"
    results.write_text(json.dumps({"entries": entries}))
    code, out, _ = invoke(["draw", results, "--seed", "s", "--exclude-copies"])
    assert code == 1
    assert "no entry is valid" not in out
    assert "5 entries are valid with 300 points or more, but all were left out" in out
    assert "5 as copies (--exclude-copies)" in out
    code, out, _ = invoke(["draw", results, "--seed", "s", "--min-score", "400"])
    assert code == 1 and "no entry is valid with 400 points or more (5 entries)" in out


# -- Suggestions and help ------------------------------------------------------------------


def test_a_mistyped_command_gets_a_suggestion() -> None:
    code, _, stderr = invoke(["valdate", ALICE])
    assert code == 2 and "Did you mean validate?" in stderr
    code, _, stderr = invoke(["frobnicate"])
    assert code == 2 and "No such command 'frobnicate'" in stderr and "Did you" not in stderr


def test_a_mistyped_option_gets_a_suggestion() -> None:
    code, _, stderr = invoke(["validate", ALICE, "--dcie", CHALLENGE])
    assert code == 2 and "--dice" in stderr and "Did you mean" in stderr


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_help_has_an_exit_status_section(name: str) -> None:
    code, out, _ = invoke([name, "--help"])
    assert code == 0
    assert "Exit status:" in out
    section = out.split("Exit status:")[1]
    assert re.search(r"\b0\b", section) and re.search(r"\b2\b", section)


RECORD_COMMANDS = {"validate", "report", "batch"}
"""The commands whose --lang default starts with the record's own language."""


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_shared_option_helps_are_true_for_each_command(name: str) -> None:
    """An option defined once for many commands says only what holds for each: the
    record's language where there is a record, the contest file by the name it is found by."""
    import importlib

    command = importlib.import_module(COMMANDS[name][0]).command
    helps = {p.name: getattr(p, "help", None) or "" for p in getattr(command, "params", [])}
    if "lang" in helps and name not in RECORD_COMMANDS:
        assert "record" not in helps["lang"] and "Default: the locale" in helps["lang"], name
    if "lang" in helps and name in {"validate", "report"}:
        assert "Default: the record's own language" in helps["lang"], name
    if "contest" in helps:
        assert "contest.toml" not in helps["contest"] and "road300.toml" in helps["contest"]


def test_choice_lists_come_from_the_registries() -> None:
    """A record format or a language added to its registry is offered by every command,
    with no list in the commands to keep in step (a fresh interpreter, so that the
    commands are built after the registries grew)."""
    script = """
from validator.records import registry
from validator.language import i18n
from validator import engine
registry.RECORD_FORMAT_BY_NAME["toml"] = registry.RECORD_FORMAT_LIST[0]
i18n.LANGUAGES = (*i18n.LANGUAGES, "it")
engine.RULESETS["house"] = engine.STANDARD
from validator.cli import validate, report, batch, play
def option(command, name):
    (found,) = [p for p in command.params if p.name == name]
    return found
print(list(option(validate.command, "stdin_format").type.choices))
for c in (validate, report, batch):
    print(list(option(c.command, "lang").type.choices))
for c in (validate, play):
    print(option(c.command, "rules").help.split(", with")[0])
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == str(["yaml", "json", "text", "csv", "toml"])
    assert out[1:4] == [str(["en", "de", "fr", "it"])] * 3
    assert out[4:] == ["Ruleset: standard, bga, literal or house"] * 2


# -- Schemas -------------------------------------------------------------------------------


def test_the_shipped_schemas_are_the_published_ones() -> None:
    from validator.cli.schema import schemas, shipped_folder

    made = schemas()
    assert set(made) == {
        "record.schema.json",
        "result.schema.json",
        "batch.schema.json",
        "solve.schema.json",
        "analyze.schema.json",
    }
    published = sorted(p.name for p in (ROOT / "schemas").glob("*.json"))
    assert published == sorted(made)
    for name, text in made.items():
        assert (shipped_folder() / name).read_text(encoding="utf-8") == text, name
        assert (ROOT / "schemas" / name).read_text(encoding="utf-8") == text, name


def test_schema_check_works_outside_the_repository(tmp_path: Path) -> None:
    """Run from another folder, `schema --check` compares with the copies shipped in the
    package (found by the package's path, not the working folder) and writes nothing."""
    run = run_in_process(["schema", "--check"], cwd=tmp_path)
    assert run.status == 0, run.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_wheel_ships_the_schemas() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    assert '"data/schemas/*.json"' in text


@pytest.mark.slow
def test_the_built_wheel_holds_every_schema(tmp_path: Path) -> None:
    import zipfile

    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        timeout=600,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for schema in (ROOT / "schemas").glob("*.json"):
        assert f"validator/data/schemas/{schema.name}" in names
