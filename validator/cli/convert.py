"""`road300 convert`: rewrite a record in another form, and with `--complete` fill in what
a terse record leaves out (roll, dice, steps, path) from its replay."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from validator.cli.common import EXIT_FAILED, dice_option, fail_usage, rules_option
from validator.cli.output import Target, output_option
from validator.records import FORMAT_NAMES

if TYPE_CHECKING:
    from validator.check.replay import Result
    from validator.errors import Diagnostic
    from validator.records.record import Record


@click.command("convert")
@click.argument("record", type=click.Path(path_type=Path, dir_okay=False, allow_dash=True))
@click.option(
    "--to", "to", type=click.Choice(FORMAT_NAMES), required=True, help="The form to write."
)
@dice_option
@rules_option
@click.option(
    "--complete",
    is_flag=True,
    help="Fill in roll, dice, steps and one legal path on every round, from the replay "
    "(needs the dice file). Never changes a choice.",
)
@output_option("the record")
def command(
    record: Path,
    to: str,
    dice: Path | None,
    rules: str | None,
    complete: bool,
    output: Path | None,
) -> None:
    """Rewrite RECORD (any form; - for standard input) as yaml, json, text or csv.

    When the dice file is known (--dice or the record's dice_file, which for standard
    input is named relative to the current folder), the record is replayed first, as
    validate replays it, and a record with an illegal step, or whose dice file cannot be
    read, is not converted: its diagnostic is printed, and nothing is written.

    \b
    Examples:
      road300 convert alice.yaml --to text
      road300 convert terse.txt --to yaml --complete --dice challenge.txt -o full.yaml

    Exit status: 0 converted, 1 the record is invalid or malformed (not converted),
    2 the command could not run (bad options, unreadable --dice, an --output that is
    an input or whose suffix names another form).
    """
    from validator.errors import ReadError
    from validator.records import dump_record, format_of, read_record

    target = Target.of(output, "the record", inputs=[record, *([dice] if dice else [])])
    target.check()
    if target.path is not None:
        named = format_of(target.path)
        if named is not None and named != to:
            suffix = target.path.suffix.lower()
            fail_usage(f"{target.path}: the suffix {suffix} names the {named} format, not {to}")
    try:
        read = read_record(record)
    except ReadError as exc:
        _refuse(exc.diagnostics)
    knows_dice = dice is not None or read.dice_file is not None
    if not knows_dice and complete:
        fail_usage("--complete needs the dice file: give --dice FILE (the record names none)")
    if knows_dice:
        result = _replay(read, record, dice, rules)
        if not result.ok:
            _refuse(result.errors)
        if complete:
            read = completed(read, result)
    try:
        text = dump_record(read, to)
    except ValueError as exc:
        more = "" if complete else " (--complete fills in rolls and dice from the dice file)"
        from validator.render.sanitize import plain_text

        line = f"road300: {read.source}: cannot write it as {to}: {exc}{more}"
        click.echo(plain_text(line), err=True)
        sys.exit(EXIT_FAILED)
    target.write(text, f"the record as {to}")


def _replay(read: Record, path: Path, dice: Path | None, rules: str | None) -> Result:
    """The record replayed as `validate` replays it: the same checker, so a record's own
    dice file and ruleset obey the same rules (no absolute path, no device, no rules file
    named by a record) and a missing dice file is the same D001 in the same words.
    Standard input can be read once only: its record is replayed directly, on the dice
    file the checker finds for it."""
    from validator.check.file import Checker, UsageError
    from validator.check.replay import replay

    try:
        checker = Checker.create(dice, rules)
    except UsageError as exc:
        fail_usage(exc.message)
    if str(path) != "-":
        return checker.check(path)
    from validator.check.replay import malformed
    from validator.engine import STANDARD
    from validator.errors import Diagnostic

    dice_file = checker.dice_for(path, read)
    if isinstance(dice_file, Diagnostic):
        return malformed(dice_file, checker.rules or STANDARD, read.source)
    ruleset = checker.rules
    if ruleset is None:
        from validator.rulesets import RulesError, is_rules_file, resolve

        name = read.rules or "standard"
        if is_rules_file(name.split("+")[0]):
            fail_usage(f"{read.source}: rules: a record names a built-in ruleset; give --rules")
        try:
            ruleset = resolve(name)
        except RulesError as exc:
            fail_usage(f"{read.source}: rules: {exc}")
    return replay(dice_file.rows, read, ruleset, dice_sha256=dice_file.sha256)


def completed(record: Record, result: Result) -> Record:
    """The record with roll, dice, steps and path on every round, as the replay played
    it; a round keeps every choice it made."""
    from validator.engine import EXITS

    played = {r.record_round: r for r in result.rounds if r.record_round is not None}
    rounds = []
    for r in record.rounds:
        got = played.get(r.number)
        if got is None:
            rounds.append(r)
            continue
        moved = got.kind in ("play", *EXITS)
        rounds.append(
            replace(
                r,
                roll=got.roll,
                dice=got.dice,
                steps=got.cross.die if got.cross is not None else r.steps,
                path=tuple(got.walk) if moved else r.path,
            )
        )
    return replace(record, rounds=tuple(rounds))


def _refuse(diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> None:
    from validator.render.sanitize import plain_text

    for d in diagnostics:
        # The message and the hint may quote the record (a did-you-mean quotes its line).
        click.echo(plain_text(f"{d.location()}: {d.code} {d.message}"), err=True)
        if d.hint:
            click.echo(f"  help: {plain_text(d.hint)}", err=True)
    click.echo("road300: the record was not converted", err=True)
    sys.exit(EXIT_FAILED)
