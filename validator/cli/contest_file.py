"""`--contest FILE`: a contest file's values as the defaults of a command's options.

Commands built with `ContestCommand` find the contest file before click reads their
options (named with `--contest`, else `road300.toml` in or beside the command's first
argument, else in the current folder) and hand its values to click as defaults, so every
option given on the command line still wins.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from validator.cli.common import fail_usage
from validator.render.sanitize import plain_text

if TYPE_CHECKING:
    from validator.contest.config import Contest


META_KEY = "road300.contest"


contest_option = click.option(
    "--contest",
    "contest",
    type=click.Path(path_type=Path, dir_okay=False),
    expose_value=False,
    help="The contest file (TOML, docs/contest.md) whose values are this command's "
    "defaults. Default: road300.toml in or beside the first argument, or in the current "
    "folder.",
)


class ContestCommand(click.Command):
    """A command whose option defaults come from the contest file."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        from validator.contest.config import ContestError, find_contest, load_contest

        try:
            opts, _, _ = self.make_parser(ctx).parse_args(args=list(args))
        except click.ClickException:
            return super().parse_args(ctx, args)  # click says what is wrong
        if opts.get("help"):
            return super().parse_args(ctx, args)
        named = opts.get("contest")
        first = _first_argument(self, opts)
        path = Path(str(named)) if named is not None else find_contest(first)
        if path is not None:
            try:
                contest = load_contest(path)
            except ContestError as exc:
                fail_usage(plain_text(str(exc)))
            names = {p.name for p in self.params}
            ctx.default_map = {
                **(ctx.default_map or {}),
                **{k: v for k, v in contest.defaults().items() if k in names},
            }
            ctx.meta[META_KEY] = contest
        return super().parse_args(ctx, args)


def _first_argument(command: click.Command, opts: dict[str, object]) -> Path | None:
    """The command's first argument as given (a record, a folder, a mailbox, a file)."""
    for param in command.params:
        if isinstance(param, click.Argument) and param.name is not None:
            value = opts.get(param.name)
            if isinstance(value, list | tuple):
                value = value[0] if value else None
            return Path(str(value)) if value is not None else None
    return None


def current_contest() -> Contest | None:
    """The contest file the running command read, if any."""
    contest: Contest | None = click.get_current_context().meta.get(META_KEY)
    return contest


def where_to_set(option: str, key: str, example: str) -> str:
    """Where to give a value a command needs and was not given: its option, or the key
    in the contest file it read (else in the one `road300 contest init` writes)."""
    from validator.contest.config import FILE_NAME

    contest = current_contest()
    where = plain_text(str(contest.path)) if contest is not None else FILE_NAME
    section, _, name = key.rpartition(".")
    under = f" under [{section}]" if section else ""
    return f"give {option}, or set {name} = {example}{under} in {where} (docs/contest.md)"
