"""`road300 rules`: list the rulesets and expansions, or print one ruleset in full."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from validator.cli.common import fail_usage

if TYPE_CHECKING:
    from validator.engine import Ruleset


@click.command("rules")
@click.argument("spec", required=False, metavar="[NAME | NAME+EXPANSION... | FILE.yaml]")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "yaml"]),
    default="text",
    show_default=True,
    help="text for people; json the switches; yaml a rules file that gives this ruleset.",
)
def command(spec: str | None, fmt: str) -> None:
    """Without SPEC, list the rulesets and expansions with what each changes. With SPEC
    (a name, a name with expansions, or a rules file), print that ruleset in full.

    \b
    Examples:
      road300 rules
      road300 rules bga+escape=20+rings=3
      road300 rules my-contest.yaml
      road300 rules literal --format yaml > my-contest.yaml

    Exit status: 0, or 2 when SPEC names no usable ruleset.
    """
    from validator.rulesets import RulesError, resolve

    if spec is None:
        _list(fmt)
        return
    try:
        rules = resolve(spec)
    except RulesError as exc:
        fail_usage(str(exc))
    _show(rules, fmt)


def _list(fmt: str) -> None:
    from validator.engine import RULESETS
    from validator.rulesets import EXPANSIONS, SUMMARIES, describe

    if fmt != "text":
        data = {
            "rulesets": {
                name: {
                    "summary": SUMMARIES.get(name, ""),
                    "changes": {s.key: s.value for s in describe(r) if s.changed},
                }
                for name, r in RULESETS.items()
            },
            "expansions": {
                x.key: {
                    "name": x.title,
                    "spec": x.spec_syntax,
                    "summary": x.summary,
                    "switch": x.switch,
                    "rules_file": f"expansions: {{{x.file_syntax}}}",
                    "record": x.record_syntax,
                }
                for x in EXPANSIONS
            },
        }
        _dump(data, fmt)
        return
    out = ["Rulesets (--rules NAME):"]
    for name, r in RULESETS.items():
        out.append(f"  {name}")
        out.extend(_wrap(SUMMARIES.get(name, ""), 4))
        changes = [f"{s.key}: {s.value}" for s in describe(r) if s.changed]
        out.append("    changes: " + (", ".join(changes) if changes else "nothing (the reference)"))
    out.append("")
    out.append("Expansions, combined with any ruleset (--rules bga+escape=20+rings=3):")
    for x in EXPANSIONS:
        out.append(f"  {x.spec_syntax}")
        out.extend(_wrap(x.summary, 4))
        out.extend(_wrap(f"rules file: expansions: {{{x.file_syntax}}}", 4))
        out.extend(_wrap(f"record: {x.record_syntax}", 4))
    out.append("")
    out.append("House rules: --rules FILE.yaml, a rules file of switches (see docs/rules.md);")
    out.append("`road300 rules NAME --format yaml` writes one to start from.")
    click.echo("\n".join(out))


def _show(rules: Ruleset, fmt: str) -> None:
    from validator.rulesets import EXPANSIONS, describe, to_rules_file

    if fmt == "yaml":
        _dump(to_rules_file(rules), fmt)
        return
    switches = describe(rules)
    in_play = [x for x in EXPANSIONS if x.in_play(rules)]
    if fmt == "json":
        data = {
            "name": rules.name,
            "switches": {
                s.key: {"value": getattr(rules, s.key), "changed": s.changed, "meaning": s.meaning}
                for s in switches
            },
            "expansions": {x.key: {"name": x.title, "record": x.record_syntax} for x in in_play},
        }
        _dump(data, fmt)
        return
    out = [f"Ruleset {rules.name}", ""]
    width = max(len(s.key) for s in switches)
    for s in switches:
        mark = "*" if s.changed else " "
        out.append(f" {mark} {s.key.ljust(width)}  {s.value}")
        out.extend(_wrap(s.meaning, width + 6))
    if in_play:
        out.append("")
        out.append("In a record:")
        for x in in_play:
            out.extend(_wrap(f"{x.title}: {x.record_syntax}", 2))
    out.append("")
    out.append("* differs from the standard ruleset. Each ruling and its source: docs/rules.md")
    click.echo("\n".join(out))


def _dump(data: object, fmt: str) -> None:
    if fmt == "json":
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        import yaml

        sys.stdout.write(yaml.safe_dump(data, sort_keys=False, width=88))


def _wrap(text: str, indent: int) -> list[str]:
    import textwrap

    return textwrap.wrap(
        text, width=92, initial_indent=" " * indent, subsequent_indent=" " * indent
    )
