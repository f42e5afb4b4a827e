"""`road300 explain`: what an error code means, with an example (like `ruff rule`)."""

from __future__ import annotations

import difflib
import sys

import click

from validator.cli.common import fail_usage


@click.command("explain")
@click.argument("code", required=False)
@click.option("--list", "list_all", is_flag=True, help="List every code with its name.")
def command(code: str | None, list_all: bool) -> None:
    """Print what error CODE (like E203, or its name like cross-taken) means, its verdict
    and an example.

    \b
    Examples:
      road300 explain E203
      road300 explain --list

    Exit status: 0 explained (or listed), 2 no such code, or both a CODE and --list.
    """
    from validator.render.code_doc import code_docs

    docs = code_docs()
    if list_all or code is None:
        if code is not None:
            fail_usage("give a CODE or --list, not both")
        for row in docs.values():
            click.echo(f"{row.code}  {row.name:<20} {row.verdict:<11} {row.meaning}")
        return
    by_name = {row.name: row for row in docs.values()}
    doc = docs.get(code.strip().upper()) or by_name.get(code.strip().lower())
    if doc is None:
        close = difflib.get_close_matches(code.strip().upper(), list(docs), n=3, cutoff=0.6)
        hint = f" (codes like it: {', '.join(close)})" if close else ""
        fail_usage(f"no error code {code!r}{hint}; `road300 explain --list` lists them")
    text = (
        f"{doc.code} {doc.name}\n\n"
        f"verdict: {doc.verdict}\n"
        f"meaning: {doc.meaning}\n"
        f"example: {doc.example.replace('`', '')}\n"
    )
    sys.stdout.write(text)
