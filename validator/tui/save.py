"""The record of a game being played: built from its rounds, written after every change, and
checked at the end by the same code path as `road300 validate`."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from validator.check.file import Checker
from validator.check.replay import Result
from validator.records import dump_record
from validator.records.record import Record
from validator.tui.game import GameSession


@dataclass(frozen=True, slots=True)
class RecordFile:
    """Where the record goes and what its header says."""

    path: Path
    dice_path: Path
    dice_sha256: str
    rules_spec: str | None
    """The --rules given to the command (None: the record's own `rules:` decides)."""
    rules_name: str | None
    player: str | None = None
    text: bool = False
    """Also write the annotated text form next to the YAML (same name, .txt)."""

    @property
    def text_path(self) -> Path:
        return self.path.with_suffix(".txt")

    def record(self, game: GameSession) -> Record:
        from validator.solver.playout import to_record

        record = to_record(game.steps(), with_details=True, player=self.player or "")
        return replace(
            record,
            rings=game.rings,
            dice_file=_relative(self.dice_path, self.path.parent),
            dice_sha256=self.dice_sha256,
            rules=self.rules_name,
            # Claimed only once the game is over: until then the replay may play on by itself.
            claimed_score=game.score if game.over else None,
        )

    def write(self, game: GameSession) -> None:
        """Write the record (and its text form on request); atomic, so that a closed terminal
        never leaves half a file."""
        from validator.system.atomic import write_file

        record = self.record(game)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_file(self.path, dump_record(record, "yaml"))
        if self.text:
            write_file(self.text_path, dump_record(record, "text"))

    def verify(self) -> Result:
        """The written record checked exactly as `road300 validate` checks it."""
        checker = Checker.create(self.dice_path, self.rules_spec)
        return checker.check(self.path)


def _relative(path: Path, start: Path) -> str:
    try:
        return Path(os.path.relpath(path.resolve(), start.resolve())).as_posix()
    except ValueError:  # another drive on Windows
        return path.resolve().as_posix()
