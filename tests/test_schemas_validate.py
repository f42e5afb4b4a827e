"""Real JSON output validated against the published schemas (with the jsonschema package):
`validate --format json` for every example and acceptance-like case, and records in the
canonical JSON form. Every schema names its dialect and id."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from validator.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
CHALLENGE = ROOT / "examples" / "challenge.txt"
RECORDS = sorted((ROOT / "examples").glob("*.yaml")) + sorted(
    (ROOT / "examples" / "invalid").glob("*.yaml")
)


def schema(name: str) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return loaded


@pytest.mark.parametrize("path", sorted(SCHEMAS.glob("*.json")), ids=lambda p: p.name)
def test_every_schema_names_its_dialect_and_id(path: Path) -> None:
    data = schema(path.name)
    assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert data["$id"] == f"urn:road300:schemas:{path.name}"
    jsonschema.Draft202012Validator.check_schema(data)


def test_validate_json_output_fits_the_result_schema(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("rounds: [\n", encoding="utf-8")
    args = ["validate", "--format", "json", "--rounds", "--dice", str(CHALLENGE)]
    out = CliRunner().invoke(main, [*args, *map(str, RECORDS), str(broken)])
    lines = out.stdout.splitlines()
    assert len(lines) == len(RECORDS) + 1
    validator = jsonschema.Draft202012Validator(schema("result.schema.json"))
    verdicts = set()
    for line in lines:
        payload = json.loads(line)
        validator.validate(payload)
        verdicts.add(payload["verdict"])
    assert verdicts == {"valid", "invalid", "malformed"}
    spoiled = json.loads(lines[0]) | {"verdict": "great"}
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(spoiled)


@pytest.mark.parametrize("path", RECORDS[:3], ids=lambda p: p.name)
def test_canonical_records_fit_the_record_schema(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    jsonschema.validate(data, schema("record.schema.json"))
