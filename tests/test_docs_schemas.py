"""The documentation and the generated schemas stay true to the code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from validator.cli import COMMANDS, main
from validator.cli.schema import schemas
from validator.errors import CODES

ROOT = Path(__file__).resolve().parent.parent


def test_every_error_code_is_documented() -> None:
    table = (ROOT / "docs" / "errors.md").read_text()
    documented = set(re.findall(r"^\| ([EWD]\d{3}) \| ([a-z0-9-]+) \|", table, re.M))
    assert documented == {(c.code, c.name) for c in CODES.values()}


COMMITTED = sorted(path.name for path in (ROOT / "schemas").glob("*.json"))
"""The schema files in the checkout: the tests' parameters, read without generating the
schemas (a fifth of a second), which only the worker that runs these tests needs."""


def test_every_schema_is_committed_and_no_other() -> None:
    assert sorted(schemas()) == COMMITTED


@pytest.mark.parametrize("name", COMMITTED)
def test_schema_files_are_fresh(name: str) -> None:
    committed = (ROOT / "schemas" / name).read_text(encoding="utf-8")
    assert committed == schemas().get(name), f"schemas/{name} is stale: run `road300 schema`"


def test_schema_check_flags_a_stale_file(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["schema", "--output-dir", str(tmp_path)]).exit_code == 0
    assert runner.invoke(main, ["schema", "--output-dir", str(tmp_path), "--check"]).exit_code == 0
    (tmp_path / "record.schema.json").write_text("{}")
    result = runner.invoke(main, ["schema", "--output-dir", str(tmp_path), "--check"])
    assert result.exit_code == 1
    assert "record.schema.json" in result.output


def test_validate_json_matches_the_result_model() -> None:
    runner = CliRunner()
    args = ["validate", str(ROOT / "examples" / "alice.yaml"), "--format", "json", "--rounds"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    jsonschema.validate(payload, json.loads(schemas()["result.schema.json"]))
    assert payload["verdict"] == "valid"
    assert payload["rounds"] is not None and len(payload["rounds"]) >= payload["rounds_played"]


def test_readme_lists_every_command() -> None:
    readme = (ROOT / "README.md").read_text()
    for name in COMMANDS:
        assert f"road300 {name}" in readme, name
