"""`road300 schema`: write the JSON Schemas generated from the shapes the code writes, or
check a folder of them (by default the copies shipped in the package)."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import click

from validator.cli.common import EXIT_FAILED, EXIT_OK, fail_usage
from validator.cli.output import say
from validator.system.atomic import write_file

SHIPPED = ("data", "schemas")
"""Where the package keeps its copy of the schemas (package data, in the wheel)."""


@cache
def schemas() -> Mapping[str, str]:
    """File name -> schema text, for the record format and every JSON output."""
    # Generated once per process: pydantic takes a good part of a second for the five.
    from pydantic import BaseModel, TypeAdapter

    from validator.check.models import AnalysisOut, SolveOut
    from validator.contest.batch import BatchOut
    from validator.records.model import RecordModel

    def schema_of(shape: Any) -> dict[str, Any]:
        if isinstance(shape, type) and issubclass(shape, BaseModel):
            return shape.model_json_schema()
        generated: dict[str, Any] = TypeAdapter(shape).json_schema(mode="serialization")
        return generated

    made: dict[str, dict[str, Any]] = {
        "record": schema_of(RecordModel),
        "result": result_schema(schema_of(BatchOut)),  # from its own copy
        "batch": schema_of(BatchOut),
        "solve": schema_of(SolveOut),
        "analyze": schema_of(AnalysisOut),
    }
    out = {}
    for kind, schema in made.items():
        if kind != "record":  # the JSON of a command (a result: validate's)
            schema["title"] = f"road300 {'validate' if kind == 'result' else kind} --format json"
        name = f"{kind}.schema.json"
        full = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"urn:road300:schemas:{name}",
            **schema,
        }
        out[name] = json.dumps(full, indent=2) + "\n"
    return out


def result_schema(batch: dict[str, Any]) -> dict[str, Any]:
    """The result of `validate --format json`: a batch entry without its batch-only fields
    (as render/json_out.result_dict writes it), and with --rounds every replayed round."""
    from pydantic import TypeAdapter

    from validator.check.models import RoundOut
    from validator.contest.batch import BATCH_ONLY

    defs = dict(batch["$defs"])
    entry = dict(defs.pop("Entry"))
    properties = {k: v for k, v in entry["properties"].items() if k not in BATCH_ONLY}
    rounds = TypeAdapter(list[RoundOut]).json_schema(mode="serialization")
    defs |= rounds.pop("$defs")
    properties["rounds"] = {
        "anyOf": [rounds, {"type": "null"}],
        "description": "with --rounds: every replayed dice row",
    }
    required = [k for k in entry["required"] if k not in BATCH_ONLY]
    for unused in ("Summary", "Skipped"):
        defs.pop(unused, None)
    return {
        **{k: v for k, v in entry.items() if k not in ("properties", "required", "title")},
        "description": "One record's result: `road300 validate --format json` prints one per "
        "line. The fields of a batch entry but rank, par_share and copies.",
        "properties": properties,
        "required": required,
        "$defs": defs,
    }


def shipped_folder() -> Path:
    """The package's own copy of the schemas."""
    return Path(str(files("validator").joinpath(*SHIPPED)))


@click.command("schema")
@click.option(
    "--output-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder to write the schemas into (default: schemas), or with --check to compare "
    "against (default: the copies shipped in the package).",
)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if a schema file is stale.")
def command(output_dir: Path | None, check: bool) -> None:
    """Write every JSON Schema (record, result, batch, solve, analyze), generated from the
    shapes the code writes; with --check, compare a folder of them instead.

    The package ships a copy (validator/data/schemas, checked by a bare --check); in a
    checkout, refresh both after changing a shape:

    \b
    Examples:
      road300 schema
      road300 schema --output-dir validator/data/schemas
      road300 schema --check

    Exit status: 0 written (or, with --check, every schema is current), 1 with --check a
    schema file is missing or stale, 2 a schema cannot be written.
    """
    folder = output_dir or (shipped_folder() if check else Path("schemas"))
    stale = []
    for name, text in schemas().items():
        path = folder / name
        try:
            current = path.read_text(encoding="utf-8") if path.exists() else None
        except (OSError, UnicodeDecodeError):
            current = None
        if current == text:
            continue
        if check:
            stale.append(name)
            continue
        try:
            folder.mkdir(parents=True, exist_ok=True)
            write_file(path, text)
        except OSError as exc:
            fail_usage(f"{path}: cannot write the schema: {exc.strerror or exc}")
        say(f"wrote {path}")
    if stale:
        click.echo(
            f"{folder}: stale: {', '.join(stale)} (run `road300 schema --output-dir {folder}`)",
            err=True,
        )
        sys.exit(EXIT_FAILED)
    sys.exit(EXIT_OK)
