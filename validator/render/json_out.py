"""Results as JSON-ready dicts: the fixed fields every consumer reads first (verdict,
score, end, error), then extra detail.

The shape is `validator.contest.batch.Entry` without its batch-only fields (and
`check.models.RoundOut` for --rounds); schemas/result.schema.json is generated from them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import IO, Any

from validator.check.models import RoundOut
from validator.check.replay import Result
from validator.contest.batch import BATCH_ONLY, Entry


def result_dict(result: Result, *, file: str | None = None, rounds: bool = False) -> dict[str, Any]:
    """One result, the same fields as a batch entry (`validator.contest.batch.Entry`, the one place
    they are built) with the fixed ones first; `rounds=True` adds every replayed round."""
    entry = Entry.of(result, file if file is not None else result.source).to_json()
    fixed = ("verdict", "score", "end", "error")
    out: dict[str, Any] = {key: entry[key] for key in fixed}
    out.update((k, v) for k, v in entry.items() if k not in fixed and k not in BATCH_ONLY)
    if rounds:
        out["rounds"] = [
            asdict(
                RoundOut(
                    roll=r.roll,
                    dice=list(r.dice),
                    kind=r.kind,
                    round=r.record_round,
                    line=r.line,
                    cross=str(r.cross.field) if r.cross else None,
                    steps=r.cross.die if r.cross else None,
                    path=[str(f) for f in r.walk],
                    move=str(r.move) if r.move else None,
                    score=r.score,
                )
            )
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
