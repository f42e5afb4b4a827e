"""Rulesets by name: names and expansions (`bga+escape=20`), rules files, their descriptions."""

# The modules, each importing only those before it: `expansions` (one object per expansion,
# and `RulesError`), `files` (house rules files, read with the records' YAML reader),
# `names` (`resolve` a spec, the name a record carries), `describe` (a ruleset in words).
# This package re-exports their public names; import from `validator.rulesets`.

from __future__ import annotations

from validator.rulesets.describe import SUMMARIES, Switch, describe
from validator.rulesets.expansions import (
    EXPANSIONS,
    MAX_ESCAPE_BONUS,
    Escape,
    Expansion,
    InAndOut,
    MagicRings,
    RulesError,
    expansion_sentences,
    find_expansion,
)
from validator.rulesets.files import (
    BASE_SWITCHES,
    MAX_RULES_FILE_BYTES,
    RULES_FILE_SUFFIXES,
    RulesFileModel,
    is_rules_file,
    load_rules_file,
    parse_rules,
    rules_file_schema,
    to_rules_file,
)
from validator.rulesets.names import record_name, resolve, same_rules, with_expansions

__all__ = [
    "BASE_SWITCHES",
    "EXPANSIONS",
    "MAX_ESCAPE_BONUS",
    "MAX_RULES_FILE_BYTES",
    "RULES_FILE_SUFFIXES",
    "SUMMARIES",
    "Escape",
    "Expansion",
    "InAndOut",
    "MagicRings",
    "RulesError",
    "RulesFileModel",
    "Switch",
    "describe",
    "expansion_sentences",
    "find_expansion",
    "is_rules_file",
    "load_rules_file",
    "parse_rules",
    "record_name",
    "resolve",
    "rules_file_schema",
    "same_rules",
    "to_rules_file",
    "with_expansions",
]
