"""The canonical record in YAML: read with source lines kept, and written back."""

from __future__ import annotations

import yaml

from validator.records import yaml_source
from validator.records.model import build_record, record_data
from validator.records.record import Record


def parse(text: str, source: str, max_rounds: int | None = None) -> Record:
    data, locations = yaml_source.load(text, source, max_rounds=max_rounds)
    return build_record(data, locations, source, "yaml")


def dump(record: Record) -> str:
    """YAML with one line per round, so that a diagnostic's line names one round."""
    data = record_data(record)
    rounds = data.pop("rounds")
    header: str = yaml.safe_dump(data, sort_keys=False) if data else ""
    lines = [header + ("rounds:" if rounds else "rounds: []")]
    for r in rounds:
        flow: str = yaml.safe_dump(r, sort_keys=False, default_flow_style=True, width=10_000)
        lines.append(f"  - {flow.strip()}")
    return "\n".join(lines) + "\n"
