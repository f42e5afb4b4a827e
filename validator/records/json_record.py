"""The canonical record in JSON: the same structure as YAML, read with source lines kept."""

from __future__ import annotations

import json

from validator.records import json_source
from validator.records.model import build_record, record_data
from validator.records.record import Record


def parse(text: str, source: str, max_rounds: int | None = None) -> Record:
    data, locations = json_source.load(text, source, max_rounds=max_rounds)
    return build_record(data, locations, source, "json")


def dump(record: Record) -> str:
    return json.dumps(record_data(record), indent=2) + "\n"
