"""`road300 play`: play a challenge's dice file in the terminal and write the record."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from validator.cli.common import (
    EXIT_OK,
    exit_status,
    fail_usage,
    gather,
    make_console,
    nodes_option,
    note_fast_core,
    ruleset_names,
    search_limits,
)
from validator.cli.output import Target

if TYPE_CHECKING:
    from validator.tui.start import Start

DEFAULT_OUTPUT = "game.yaml"


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """The options of `road300 play`, as click parsed them (`--help` says what each is)."""

    dice: Path
    rules: str | None
    player: str | None
    output: Path | None
    resume: Path | None
    rings: int | None
    with_text: bool
    hint: bool
    hint_time: float | None
    """With --hint: the solver's time for one round (None: none, the node budget decides)."""
    hint_nodes: int | None
    force: bool


@click.command("play")
@click.argument("dice", type=click.Path(path_type=Path))
@click.option(
    "--rules",
    metavar="NAME",
    help=f"Ruleset: {ruleset_names()}, with expansions like "
    "standard+escape=20+rings=3+in-and-out, or a rules YAML file. Default: standard, or the "
    "resumed record's rules. See `road300 rules`.",
)
@click.option("--player", metavar="NAME", help="The player's name, written into the record.")
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path),
    help=f"Where the record (canonical YAML) is written after every round. Default: "
    f"{DEFAULT_OUTPUT}, or the --resume file. A game is precious: an existing file is "
    "replaced only when it is the one resumed, or with --force.",
)
@click.option("--force", is_flag=True, help="Start a new game over an existing --output file.")
@click.option(
    "--resume",
    type=click.Path(path_type=Path),
    metavar="RECORD",
    help="Continue a saved game: its rounds are replayed and checked first.",
)
@click.option(
    "--rings",
    type=int,
    metavar="N",
    help="With The magic rings!: the rings declared (asked at the start otherwise).",
)
@click.option(
    "--text", "with_text", is_flag=True, help="Also write the annotated text form (.txt)."
)
@click.option(
    "--hint",
    "hint",
    is_flag=True,
    help="Show the solver's best choice for each round and what the others lose.",
)
@click.option(
    "--hint-time",
    type=click.FloatRange(min=0.05),
    default=2.0,
    show_default=True,
    metavar="SECONDS",
    help="With --hint: the solver's time for one round (shared by its choices).",
)
@nodes_option(
    "With --hint: positions the solver searches for one round (shared by its choices), "
    "so that the hints are the same on every machine.",
    name="--hint-nodes",
    time_name="--hint-time",
)
@gather(PlayOptions)
def command(options: PlayOptions) -> None:
    """Play the dice file DICE in the terminal. Only legal choices are offered, and the
    record is written after every round, so a closed terminal loses nothing.

    \b
    Examples:
      road300 play challenge.txt --player Alice --output alice.yaml
      road300 play challenge.txt --rules standard+rings=3 --rings 2
      road300 play challenge.txt --resume alice.yaml

    Keys: arrows and Enter (or type a field like 3/4, or click it), w for the next walk,
    u / y undo and redo, ? help, q quit. See docs/play.md.

    Exit status: 0 when the game was played (or saved to resume), 1 if the finished record
    does not check as valid, 2 the command could not run (bad options, dice or record, no
    terminal, an existing --output without --force); then no file is written. Ended by
    SIGTERM, SIGHUP, SIGINT or SIGQUIT: the terminal restored, the record kept, 128 + the
    signal's number.
    """
    seconds = search_limits(options.hint_nodes, options.hint_time or 0.0, "hint_time")
    sys.exit(run(replace(options, hint_time=seconds)))


def run(o: PlayOptions) -> int:
    """Play as `road300 play` does, in this terminal; the exit status."""
    start = _start(o)
    if start.finished is not None:
        from validator.render.shared import summary_line

        click.echo(f"{o.resume}: the game is already over: {summary_line(start.finished)}")
        return EXIT_OK
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        fail_usage("road300 play needs a terminal (standard input and output are not one)")
    try:
        start.record_file.write(start.game)
    except (OSError, ValueError) as exc:
        fail_usage(f"--output {start.record_file.path}: cannot write the record: {exc}")
    from validator.tui.app import PlayApp

    if o.hint:
        note_fast_core()
    app = PlayApp(
        start.game,
        start.record_file,
        dice_name=start.dice_name,
        ask_rings=start.ask_rings,
        welcome=start.welcome,
        hint_seconds=o.hint_time if o.hint else None,
        hint_nodes=o.hint_nodes if o.hint else None,
    )
    app.catch_signals()
    final = app.run()
    path = start.record_file.path
    # Ended by a signal from outside: the terminal is restored; the shell gets 128 + N.
    stopped = EXIT_OK if app.signalled is None else 128 + app.signalled
    if final is None:
        click.echo(
            f"Saved {path} ({start.game.row} roll(s) played); continue with: "
            f"road300 play {o.dice} --resume {path}",
            err=True,
        )
        return stopped
    from validator.render.terminal import render

    render(make_console(), final)
    also = f" and {start.record_file.text_path}" if o.with_text else ""
    click.echo(f"Record: {path}{also}", err=True)
    return stopped or exit_status([final.verdict], strict=True)


def _start(o: PlayOptions) -> Start:
    """The game to play (new or resumed); stops (exit 2) when it cannot start, showing
    why a resumed record does not check."""
    from validator.tui.start import StartError, start_game

    if o.output is not None:
        Target.of(o.output, "the record", inputs=[o.dice]).check()
    try:
        return start_game(
            o.dice,
            o.rules,
            player=o.player,
            output=o.output,
            resume=o.resume,
            rings=o.rings,
            text=o.with_text,
            force=o.force,
            save=False,
        )
    except StartError as exc:
        if exc.result is not None:
            from validator.render.terminal import render

            render(make_console(stderr=True), exc.result)
        fail_usage(exc.message)
