"""`road300 validate` options: standard input, the size cap, every reading error at once in
text and JSON, and encoding warnings shown."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from validator.cli import main

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"
ALICE = ROOT / "examples" / "alice.yaml"
THREE_TYPOS = "rounds:\n  - {cross: 9/9, mvoe: 1/1}\n  - {cross: 1/1, move: 8/8}\n"


def run(*args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    out = CliRunner().invoke(main, list(args), input=stdin, env={"NO_COLOR": "1"})
    return out.exit_code, out.stdout, out.stderr


def test_standard_input_with_a_name_for_messages() -> None:
    text = ALICE.read_text(encoding="utf-8")
    code, out, _ = run("validate", "-", "--dice", str(CHALLENGE), stdin=text)
    assert code == 0 and out.startswith("<stdin>: valid: 340 points")
    code, out, _ = run(
        "validate", "-", "--dice", str(CHALLENGE), "--stdin-name", "mine.txt",
        "--stdin-format", "yaml", stdin=THREE_TYPOS,
    )  # fmt: skip
    assert code == 1 and out.startswith("mine.txt: malformed")


def test_every_reading_error_at_once() -> None:
    code, out, _ = run("validate", "-", "--dice", str(CHALLENGE), stdin=THREE_TYPOS)
    assert code == 1
    assert [line.split()[1] for line in out.splitlines() if line.startswith("<stdin>:")][1:] == [
        "E005",
        "E003",
        "E005",
    ]
    code, out, _ = run(
        "validate", "-", "--dice", str(CHALLENGE), "--format", "json", stdin=THREE_TYPOS
    )
    payload = json.loads(out)
    assert [e["code"] for e in payload["errors"]] == ["E005", "E003", "E005"]
    assert payload["error"] == payload["errors"][0] and payload["errors_omitted"] == 0


def test_size_cap_is_an_option() -> None:
    code, out, _ = run("validate", str(ALICE), "--max-size", "1KiB")
    assert code == 1 and "more than the 1024 allowed" in out
    code, out, _ = run("validate", str(ALICE), "--max-size", "4MiB")
    assert code == 0
    code, _, err = run("validate", str(ALICE), "--max-size", "lots")
    assert code == 2 and "not a size" in err


def test_an_encoding_warning_is_shown(tmp_path: Path) -> None:
    path = tmp_path / "cp.yaml"
    text = ALICE.read_text(encoding="utf-8").replace("Alice Example", "Jörg Müller")
    path.write_bytes(text.encode("cp1252"))
    code, out, _ = run("validate", str(path), "--dice", str(CHALLENGE))
    assert code == 0
    assert "W003" in out and "Jörg Müller" not in out.splitlines()[0]


def test_a_folder_points_to_batch() -> None:
    code, out, _ = run("validate", str(ROOT / "examples"))
    assert code == 1 and "E001 is a folder, not a file" in out
    assert "help: a folder of entries is checked with road300 batch FOLDER" in out


def test_the_validate_command_only_parses_options_for_its_run(tmp_path: Path) -> None:
    """`cli.validate.run` checks from its typed options, without click: the same results
    file and exit status as the command."""
    from validator.cli.validate import ValidateOptions, run

    examples = ROOT / "examples"
    records = (examples / "alice.yaml", examples / "invalid" / "e203-cross-taken.yaml")
    dice = CHALLENGE
    argv = [*map(str, records), "--dice", str(dice), "-o", str(tmp_path / "a.jsonl")]
    by_command = CliRunner().invoke(main, ["validate", *argv])
    options = ValidateOptions(
        records=records,
        dice=dice,
        rules=None,
        fmt=None,
        output=tmp_path / "b.jsonl",
        strict=False,
        quiet=False,
        with_rounds=False,
        max_size=None,
        stdin_format=None,
        stdin_name="<stdin>",
        lang=None,
    )
    assert run(options) == by_command.exit_code == 1
    assert (tmp_path / "b.jsonl").read_bytes() == (tmp_path / "a.jsonl").read_bytes()
