"""`road300 play`: play a challenge's dice file in the terminal and write the record."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from validator.cli.common import (
    EXIT_OK,
    exit_status,
    fail_usage,
    make_console,
    nodes_option,
    note_fast_core,
    search_limits,
)
from validator.cli.output import Target

DEFAULT_OUTPUT = "game.yaml"


@click.command("play")
@click.argument("dice", type=click.Path(path_type=Path))
@click.option(
    "--rules",
    metavar="NAME",
    help="Ruleset: standard, bga or literal, with expansions like "
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
def command(
    dice: Path,
    rules: str | None,
    player: str | None,
    output: Path | None,
    resume: Path | None,
    rings: int | None,
    with_text: bool,
    hint: bool,
    hint_time: float,
    hint_nodes: int | None,
    force: bool,
) -> None:
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
    from validator.tui.start import StartError, start_game

    if output is not None:
        Target.of(output, "the record", inputs=[dice]).check()
    try:
        start = start_game(
            dice,
            rules,
            player=player,
            output=output,
            resume=resume,
            rings=rings,
            text=with_text,
            force=force,
            save=False,
        )
    except StartError as exc:
        if exc.result is not None:
            from validator.render.terminal import render

            render(make_console(stderr=True), exc.result)
        fail_usage(exc.message)
    if start.finished is not None:
        from validator.render.shared import summary_line

        click.echo(f"{resume}: the game is already over: {summary_line(start.finished)}")
        sys.exit(EXIT_OK)

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        fail_usage("road300 play needs a terminal (standard input and output are not one)")
    try:
        start.record_file.write(start.game)
    except (OSError, ValueError) as exc:
        fail_usage(f"--output {start.record_file.path}: cannot write the record: {exc}")
    from validator.tui.app import PlayApp

    if hint:
        note_fast_core()
    app = PlayApp(
        start.game,
        start.record_file,
        dice_name=start.dice_name,
        ask_rings=start.ask_rings,
        welcome=start.welcome,
        hint_seconds=search_limits(hint_nodes, hint_time, "hint_time") if hint else None,
        hint_nodes=hint_nodes if hint else None,
        hints=hint,
    )
    app.catch_signals()
    final = app.run()
    path = start.record_file.path
    # Ended by a signal from outside: the terminal is restored; the shell gets 128 + N.
    stopped = EXIT_OK if app.signalled is None else 128 + app.signalled
    if final is None:
        click.echo(
            f"Saved {path} ({start.game.row} roll(s) played); continue with: "
            f"road300 play {dice} --resume {path}",
            err=True,
        )
        sys.exit(stopped)
    from validator.render.terminal import render

    render(make_console(), final)
    also = f" and {start.record_file.text_path}" if with_text else ""
    click.echo(f"Record: {path}{also}", err=True)
    sys.exit(stopped or exit_status([final.verdict], strict=True))
