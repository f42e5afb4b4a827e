"""`road300 explain CODE`: what an error code means, with its example (like `ruff rule`)."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import click

from validator.cli.common import EXIT_USAGE
from validator.errors import CODES

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "errors.md"
"""The table of codes with their examples, in a source checkout."""


def documented() -> dict[str, tuple[str, str]]:
    """Code -> (what it means, example) from docs/errors.md; empty when the docs are not
    installed alongside the package."""
    try:
        text = DOC.read_text(encoding="utf-8")
    except OSError:
        return {}
    rows: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 5 and cells[0] in CODES:
            rows[cells[0]] = (cells[3], cells[4])
    return rows


def explanation(code: str) -> str:
    """The text `explain` prints for a known code."""
    info = CODES[code]
    verdict = {
        "read": "malformed",
        "record": "invalid",
        "rules": "invalid",
        "warning": "the verdict stands",
        "dice": "the command stops (exit 2)",
    }[info.kind]
    meaning, example = documented().get(code, (info.summary, ""))
    lines = [f"{info.code} {info.name} ({verdict})", "", meaning]
    if example:
        lines += ["", f"Example: {example}"]
    return "\n".join(lines)


@click.command("explain")
@click.argument("code", required=False)
@click.option("--list", "list_all", is_flag=True, help="List every code with its name.")
def command(code: str | None, list_all: bool) -> None:
    """Explain an error code (E203, W001, D002 ...) with an example; --list shows them all."""
    if list_all or code is None:
        width = max(len(c.name) for c in CODES.values())
        for info in CODES.values():
            click.echo(f"{info.code}  {info.name:<{width}}  {info.summary}")
        return
    wanted = code.strip().upper()
    if wanted not in CODES:
        close = difflib.get_close_matches(wanted, list(CODES), n=1)
        names = {c.name: c.code for c in CODES.values()}
        if code.strip().lower() in names:
            wanted = names[code.strip().lower()]
        else:
            hint = f" (did you mean {close[0]}?)" if close else ""
            click.echo(
                f"road300: error: unknown code {code!r}{hint}; `road300 explain --list` shows all",
                err=True,
            )
            sys.exit(EXIT_USAGE)
    click.echo(explanation(wanted))
