"""Pydantic models of what road300 writes as JSON, from which schemas/ is generated.

The renderers build plain dicts for speed; tests validate those dicts against these
models so that the schemas cannot drift from the output.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Verdict = Literal["valid", "incomplete", "invalid", "malformed"]
End = Literal["no-move", "rerolls", "dice-exhausted", "escaped"]


class DiagnosticOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(description="stable error code, see docs/errors.md")
    message: str
    roll: int | None = Field(description="1-based dice row of the first illegal step")
    round: int | None = Field(description="1-based entry in the record")
    line: int | None = Field(description="the record's source line")
    name: str = Field(description="the code's short name")
    file: str | None
    col: int | None
    hint: str | None = Field(description="what would have been legal instead")


class RoundOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    roll: int
    dice: list[int]
    kind: Literal["play", "stuck", "reroll", "ring", "escape", "leave"]
    round: int | None = Field(description="record entry, or null for a row replayed by itself")
    line: int | None
    cross: str | None
    steps: int | None
    path: list[str]
    move: str | None
    score: int


class ResultOut(BaseModel):
    """One record's result: `road300 validate --format json` prints one per line."""

    model_config = ConfigDict(extra="forbid", title="road300 validate result")

    verdict: Verdict
    score: int | None = Field(description="replayed score; null when the replay stopped")
    end: End | None = Field(description="how the game ended; null when it did not")
    error: DiagnosticOut | None
    file: str
    player: str | None
    rules: str
    end_roll: int | None
    rounds_played: int
    rerolls: int
    dice_sha256: str | None
    claimed_score: int | None
    warnings: list[DiagnosticOut]
    errors: list[DiagnosticOut] = Field(
        description="every reading error of a malformed record (up to 50, the first is "
        "`error`); else the first error, if any"
    )
    errors_omitted: int = Field(description="reading errors found beyond those listed")
    rounds: list[RoundOut] | None = Field(default=None, description="with --rounds")


SCHEMAS: dict[str, type[BaseModel]] = {"result.schema.json": ResultOut}
