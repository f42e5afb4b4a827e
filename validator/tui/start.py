"""Setting a game up from the command's options: the dice, the ruleset, a resumed record, and
where the record goes. Shared by the command, the tests and the tools."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from validator.check.file import Checker, UsageError
from validator.check.replay import Result
from validator.engine import STANDARD
from validator.rulesets import record_name as record_rules_name
from validator.tui.game import GameSession, rounds_from_replay
from validator.tui.save import RecordFile

DEFAULT_OUTPUT = Path("game.yaml")


class StartError(Exception):
    """The game cannot start; `result` is the refused record's check, when there is one."""

    def __init__(self, message: str, result: Result | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.result = result


@dataclass(frozen=True, slots=True)
class Start:
    game: GameSession
    record_file: RecordFile
    dice_name: str
    ask_rings: bool
    """The ruleset has rings and none were declared yet: ask before the first roll."""
    welcome: str = ""
    finished: Result | None = None
    """A resumed record whose game is already over: nothing is left to play."""


def start_game(
    dice: Path,
    rules: str | None = None,
    *,
    player: str | None = None,
    output: Path | None = None,
    resume: Path | None = None,
    rings: int | None = None,
    text: bool = False,
    force: bool = False,
    save: bool = True,
) -> Start:
    """Everything `road300 play` needs before the screen opens; raises StartError.

    An existing `output` (not the one resumed) is replaced only with `force`. With `save`
    off the record is not written yet (`road300 play` writes it once it knows it can run:
    a command that refuses to run writes nothing)."""
    try:
        checker = Checker.create(dice, rules)
    except UsageError as exc:
        raise StartError(exc.message) from None
    assert checker.dice is not None
    dice_file = checker.dice
    welcome = ""
    if resume is not None:
        if rings is not None:
            raise StartError("--rings: a resumed game keeps the rings its record declares")
        try:
            result = checker.check(resume)
        except UsageError as exc:
            raise StartError(exc.message) from None
        if not result.ok or result.record is None or result.final is None:
            raise StartError(
                f"--resume {resume}: the record is {result.verdict.value}; it cannot go on",
                result,
            )
        ruleset = result.rules
        record = result.record
        game = GameSession(result.rows, ruleset, record.rings, rounds_from_replay(result.rounds))
        player = player or record.player
        output = output or resume
        welcome = f"Resumed {resume.name}: {len(result.rounds)} roll(s) replayed and checked."
        finished = result if result.final.over else None
    else:
        ruleset = checker.rules or STANDARD
        if rings is not None and not ruleset.rings:
            raise StartError(
                f"--rings: the ruleset {ruleset.name} has no magic rings (add +rings=N)"
            )
        if rings is not None and not 1 <= rings <= ruleset.max_rings:
            raise StartError(f"--rings: declare 1 to {ruleset.max_rings} rings ({ruleset.name})")
        game = GameSession(dice_file.rows, ruleset, rings or 0)
        output = output or DEFAULT_OUTPUT
        if output.exists() and not force:
            raise StartError(
                f"{output} exists: continue it with --resume {output}, choose another "
                "--output, or give --force to replace it"
            )
        finished = None
    if output.suffix.lower() not in (".yaml", ".yml"):
        raise StartError(f"--output {output}: the record is written as YAML; name it .yaml")
    if text:
        _check_text_path(output.with_suffix(".txt"), dice, resumed=resume is not None or force)
    record_file = RecordFile(
        path=output,
        dice_path=dice,
        dice_sha256=dice_file.sha256,
        rules_spec=rules,
        rules_name=record_rules_name(ruleset),
        player=player,
        text=text,
    )
    if finished is None and save:
        try:
            record_file.write(game)
        except (OSError, ValueError) as exc:
            raise StartError(f"--output {output}: cannot write the record: {exc}") from None
    return Start(
        game,
        record_file,
        dice_name=dice.name,
        # Also for a resumed record saved before its rings were declared.
        ask_rings=ruleset.rings and not game.rounds and game.rings == 0,
        welcome=welcome,
        finished=finished,
    )


TEXT_HEADER = "# Road to 300 record"


def _check_text_path(path: Path, dice: Path, *, resumed: bool) -> None:
    """--text writes next to the record: never over the dice file or a file it did not write."""
    if not path.exists():
        return
    if path.resolve() == dice.resolve():
        raise StartError(f"--text would write {path}, the dice file: choose another --output")
    if not resumed:
        raise StartError(f"--text: {path} exists; choose another --output")
    try:
        ours = path.read_text(encoding="utf-8", errors="replace").startswith(TEXT_HEADER)
    except OSError as exc:
        raise StartError(f"--text: cannot read {path}: {exc.strerror or exc}") from None
    if not ours:
        raise StartError(f"--text: {path} exists and is not a record; choose another --output")
