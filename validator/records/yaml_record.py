"""The canonical record in YAML: read with source lines kept, and written back."""

from __future__ import annotations

import yaml

from validator.records import yaml_source
from validator.records.model import build_record, record_data
from validator.records.record import Record


def parse(text: str, source: str, max_rounds: int | None = None) -> Record:
    data, locations = yaml_source.load(text, source, max_rounds=max_rounds)
    return build_record(data, locations, source, "yaml")


_ROUND_DUMPER: type[yaml.SafeDumper] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
"""libyaml's writer where PyYAML has it: a round holds only numbers, lists of them, flags
and fixed words, which it writes exactly as the pure-Python one does, 5 times faster
(`road300 play` writes the whole record after every round). The header, with the
player's own words, stays with the pure-Python writer, whose folding of long lines
differs."""


def dump(record: Record) -> str:
    """YAML with one line per round, so that a diagnostic's line names one round."""
    data = record_data(record)
    rounds = data.pop("rounds")
    header: str = yaml.safe_dump(data, sort_keys=False) if data else ""
    lines = [header + ("rounds:" if rounds else "rounds: []")]
    for r in rounds:
        flow: str = yaml.dump(
            r, Dumper=_ROUND_DUMPER, sort_keys=False, default_flow_style=True, width=10_000
        )
        lines.append(f"  - {flow.strip()}")
    return "\n".join(lines) + "\n"
