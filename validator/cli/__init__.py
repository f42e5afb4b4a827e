"""The `road300` command line: a click group whose subcommands load on first use."""

# Each subcommand lives in its own module and only parses options, then calls into the
# package; loading them lazily keeps `road300 --version` and `--help` quick.

from __future__ import annotations

import importlib

import click

from validator import __version__

COMMANDS: dict[str, tuple[str, str]] = {
    "validate": (
        "validator.cli.validate",
        "Check records against the dice file: verified score or first illegal step.",
    ),
    "batch": (
        "validator.cli.batch",
        "Check a folder of contest entries, or a mailbox, and rank them.",
    ),
    "report": (
        "validator.cli.report",
        "Write an annotated replay of a record (HTML, Markdown or text).",
    ),
    "draw": (
        "validator.cli.draw",
        "Draw prize winners among entries with 300 or more, reproducibly.",
    ),
    "rules": ("validator.cli.rules", "List the rulesets and expansions, or print one in full."),
    "schema": ("validator.cli.schema", "Write the JSON Schemas for records and results."),
    "explain": ("validator.cli.explain", "Explain an error code (like E203) with an example."),
    "play": ("validator.cli.play", "Play a dice file in the terminal; writes a valid record."),
    "convert": (
        "validator.cli.convert",
        "Rewrite a record in another form; --complete fills in rolls, dice, steps and paths.",
    ),
    "solve": (
        "validator.cli.solve",
        "The best game on a dice file, proven where the search finishes.",
    ),
    "analyze": (
        "validator.cli.analyze",
        "What each decision of a record cost against the best play.",
    ),
    "dice": ("validator.cli.dice", "Write a new challenge dice file from a seed."),
    "site": (
        "validator.cli.site",
        "Write the challenge's site: the announcement and the game in the browser, or the results.",
    ),
    "contest": (
        "validator.cli.contest",
        "Set up a challenge and run it from its mail (init, run, status).",
    ),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(COMMANDS[cmd_name][0])
        command: click.Command = module.command
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = click.utils.make_str(args[0]) if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            import difflib

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=3, cutoff=0.6)
            hint = f" Did you mean {' or '.join(close)}?" if close else ""
            ctx.fail(f"No such command {name!r}.{hint} `road300 --help` lists the commands.")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Short help from the table, so that --help imports no subcommand module.
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="road300")
def main() -> None:
    """Validate Road to 300 challenge records against the official dice file.

    Exit status: 0 valid (or incomplete), 1 invalid or malformed, 2 the command
    could not run (bad options, unreadable dice file); each command's --help says
    what its own statuses mean.
    """
