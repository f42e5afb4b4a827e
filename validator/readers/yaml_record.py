"""The canonical record in YAML: read with source lines kept, and written back."""

from __future__ import annotations

from typing import Any

import yaml

from validator.readers import yaml_source
from validator.readers.model import build_record
from validator.record import Record, RecordRound


def parse(text: str, source: str) -> Record:
    data, locations = yaml_source.load(text, source)
    return build_record(data, locations, source, "yaml")


def to_data(record: Record) -> dict[str, Any]:
    """The canonical plain-data form of a record (row-col), as YAML and JSON hold it."""
    header: dict[str, Any] = {
        "player": record.player,
        "dice_file": record.dice_file,
        "dice_sha256": record.dice_sha256,
        "rules": record.rules,
        "claimed_score": record.claimed_score,
        "rings": record.rings or None,
    }
    data = {k: v for k, v in header.items() if v is not None}
    data["rounds"] = [_round_data(r) for r in record.rounds]
    return data


def _round_data(r: RecordRound) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if r.roll is not None:
        out["roll"] = r.roll
    if r.dice is not None:
        out["dice"] = list(r.dice)
    if r.reroll:
        out["reroll"] = True
    if r.ring:
        out["ring"] = True
    if r.cross is not None:
        out["cross"] = [r.cross.row, r.cross.col]
    if r.exit is not None:
        out["move"] = r.exit
    elif r.move is not None:
        out["move"] = [r.move.row, r.move.col]
    if r.steps is not None:
        out["steps"] = r.steps
    if r.path is not None:
        out["path"] = [[f.row, f.col] for f in r.path]
    return out


def dump(record: Record) -> str:
    """YAML with one line per round, so that a diagnostic's line names one round."""
    data = to_data(record)
    rounds = data.pop("rounds")
    header: str = yaml.safe_dump(data, sort_keys=False) if data else ""
    lines = [header + "rounds:"]
    for r in rounds:
        flow: str = yaml.safe_dump(r, sort_keys=False, default_flow_style=True, width=10_000)
        lines.append(f"  - {flow.strip()}")
    return "\n".join(lines) + "\n"
