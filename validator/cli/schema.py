"""`road300 schema`: write the JSON Schemas generated from the pydantic models."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click


def schemas() -> dict[str, str]:
    """File name -> schema text, for the record format and every JSON output."""
    from pydantic import BaseModel

    from validator.check.models import SCHEMAS
    from validator.records.model import RecordModel

    models: dict[str, type[BaseModel]] = {"record.schema.json": RecordModel, **SCHEMAS}
    out = {}
    for name, model in models.items():
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"urn:road300:schemas:{name}",
            **model.model_json_schema(),
        }
        out[name] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
    return out


@click.command("schema")
@click.option(
    "--output-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("schemas"),
    show_default=True,
    help="Folder to write the schemas into.",
)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if a schema file is stale.")
def command(output_dir: Path, check: bool) -> None:
    """Write the JSON Schemas for records and results (generated from the models)."""
    stale = []
    for name, text in schemas().items():
        path = output_dir / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if check:
            stale.append(name)
        else:
            output_dir.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            click.echo(f"wrote {path}")
    if stale:
        click.echo(f"stale: {', '.join(stale)} (run `road300 schema`)", err=True)
        sys.exit(1)
