"""The canonical record in JSON: the same structure as YAML, read with source lines kept."""

from __future__ import annotations

import json

from validator.readers import json_source
from validator.readers.model import build_record
from validator.readers.yaml_record import to_data
from validator.record import Record


def parse(text: str, source: str) -> Record:
    data, locations = json_source.load(text, source)
    return build_record(data, locations, source, "json")


def dump(record: Record) -> str:
    return json.dumps(to_data(record), indent=2) + "\n"
