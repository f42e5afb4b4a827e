"""Results as JSON-ready dicts: the fixed fields every consumer reads first (verdict,
score, end, error), then extra detail.

schemas/result.schema.json describes this shape (validator/output_models.py).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import IO, Any

from validator.errors import Diagnostic
from validator.replayer import Result


def diagnostic_dict(d: Diagnostic) -> dict[str, Any]:
    return {
        "code": d.code,
        "message": d.message,
        "roll": d.roll,
        "round": d.round,
        "line": d.line,
        "name": d.name,
        "file": d.file,
        "col": d.col,
        "hint": d.hint or None,
    }


def result_dict(result: Result, *, file: str | None = None, rounds: bool = False) -> dict[str, Any]:
    """One result; `rounds=True` adds every replayed round."""
    record = result.record
    out: dict[str, Any] = {
        "verdict": result.verdict.value,
        "score": result.score,
        "end": result.end.value if result.end else None,
        "error": diagnostic_dict(result.error) if result.error else None,
        "file": file if file is not None else result.source,
        "player": record.player if record else None,
        "rules": result.rules.name,
        "end_roll": result.end_roll,
        "rounds_played": sum(1 for r in result.rounds if r.record_round is not None),
        "rerolls": result.rerolls,
        "dice_sha256": result.dice_sha256,
        "claimed_score": record.claimed_score if record else None,
        "warnings": [diagnostic_dict(w) for w in result.warnings],
        "errors": [diagnostic_dict(e) for e in result.errors],
        "errors_omitted": result.errors_omitted,
    }
    if rounds:
        out["rounds"] = [
            {
                "roll": r.roll,
                "dice": list(r.dice),
                "kind": r.kind,
                "round": r.record_round,
                "line": r.line,
                "cross": str(r.cross.field) if r.cross else None,
                "steps": r.cross.die if r.cross else None,
                "path": [str(f) for f in r.walk],
                "move": str(r.move) if r.move else None,
                "score": r.score,
            }
            for r in result.rounds
        ]
    return out


class JsonReporter:
    """`validate --format json`: one JSON object per record, one per line."""

    def __init__(self, console: object, stream: IO[str], *, rounds: bool = False) -> None:
        self.stream = stream
        self.rounds = rounds

    def result(self, result: Result) -> None:
        self.stream.write(json.dumps(result_dict(result, rounds=self.rounds)) + "\n")

    def finish(self, results: Sequence[Result]) -> None:
        """Nothing: every line stands alone."""
