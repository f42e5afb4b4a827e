"""Naming a ruleset: `NAME[+EXPANSION[=VALUE]]...` or a rules file, resolved to a `Ruleset`;
and the name a written record carries for it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from validator.engine import RULESETS, Ruleset
from validator.rulesets.expansions import EXPANSIONS, RulesError, find_expansion
from validator.rulesets.files import is_rules_file, load_rules_file

# --- naming a ruleset -----------------------------------------------------------------


def resolve(spec: str, base_dir: Path | None = None) -> Ruleset:
    """`NAME[+escape=BONUS][+rings[=N]][+in-and-out]` or `FILE.yaml[+...]` -> Ruleset.

    A relative rules file is looked up in `base_dir` (a record's folder) when given, else in
    the working directory. Raises RulesError; for a rules file the message starts with
    `file:line:col:`.
    """
    spec = spec.strip()
    if is_rules_file(spec):
        return load_rules_file(_place(spec, base_dir), spec)
    base, *parts = [p.strip() for p in spec.split("+")]
    if is_rules_file(base):
        ruleset = load_rules_file(_place(base, base_dir), base)
    elif base in RULESETS:
        ruleset = RULESETS[base]
    else:
        raise RulesError(
            f"unknown ruleset {base!r}; choose one of: {', '.join(RULESETS)} "
            f"(with expansions: {', '.join('+' + x.key for x in EXPANSIONS)}), or a rules file "
            "ending in .yaml"
        )
    chosen: dict[str, Any] = {}
    for part in parts:
        key, eq, text = part.partition("=")
        expansion = find_expansion(key.strip())
        chosen[expansion.key] = expansion.parse_value(text.strip() if eq else None)
    return with_expansions(ruleset, chosen)


def with_expansions(rules: Ruleset, values: Mapping[str, Any]) -> Ruleset:
    """`rules` with the expansions keyed in `values` set; the name gets their spec parts."""
    changed = rules
    parts = [rules.name]
    for expansion in EXPANSIONS:
        if expansion.key in values:
            changed = replace(changed, **{expansion.switch: values[expansion.key]})
            parts.append(expansion.spec_part(changed))
    return replace(changed, name="+".join(parts))


def _place(name: str, base_dir: Path | None) -> Path:
    path = Path(name)
    return base_dir / path if base_dir is not None and not path.is_absolute() else path


def record_name(rules: Ruleset) -> str | None:
    """The ruleset name a written record carries: its name when that names the same rules.

    A house rules file cannot be named by a record (the validator refuses that), so such a
    record names none and is checked with the same --rules.
    """
    if is_rules_file(rules.name.split("+")[0]):
        return None
    try:
        named = resolve(rules.name)
    except RulesError:
        return None
    return rules.name if same_rules(named, rules) else None


def same_rules(a: Ruleset, b: Ruleset) -> bool:
    """Whether two rulesets play the same, whatever they are called."""
    return replace(a, name="") == replace(b, name="")
