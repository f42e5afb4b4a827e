"""road300: validate Road to 300 challenge records against the official dice file.

The library surface (docs/api.md): `check_file`, `parse_record`, `read_dice`, `replay`,
`resolve_rules`, and the values they return. Loaded on first use, so that importing the
package for `road300 --version` costs nothing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from validator.api import check_file, parse_record, read_dice, replay, resolve_rules
    from validator.check.replay import Result
    from validator.engine import End, Field, Ruleset
    from validator.errors import Diagnostic, ReadError, Verdict
    from validator.records.dice import DiceFile
    from validator.records.record import Record

_EXPORTS = {
    "check_file": "validator.api",
    "parse_record": "validator.api",
    "read_dice": "validator.api",
    "replay": "validator.api",
    "resolve_rules": "validator.api",
    "Result": "validator.check.replay",
    "Verdict": "validator.errors",
    "Diagnostic": "validator.errors",
    "ReadError": "validator.errors",
    "Record": "validator.records.record",
    "DiceFile": "validator.records.dice",
    "Ruleset": "validator.engine",
    "Field": "validator.engine",
    "End": "validator.engine",
}

__all__ = [
    "Diagnostic",
    "DiceFile",
    "End",
    "Field",
    "ReadError",
    "Record",
    "Result",
    "Ruleset",
    "Verdict",
    "__version__",
    "check_file",
    "parse_record",
    "read_dice",
    "replay",
    "resolve_rules",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'validator' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
