"""Where an entry came from when it was not a file of its own: the e-mail it arrived in.

A value of the batch's `Entry` (its JSON `source`), written and read back by the results
file; contest/mail.py fills it in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from validator.contest.batch import JSON


@dataclass(frozen=True, slots=True)
class MailSource:
    """The message an entry came from, as its decoded headers say (untrusted text)."""

    message_id: str | None
    address: str | None
    """The sender's address (`from` in JSON); never shown on the results site."""
    name: str | None
    """The sender's display name."""
    date: str | None
    """The message's `Date`, ISO 8601 with its offset; None when missing or unreadable."""
    part: str
    """`body`, or the attachment's file name (its last path component)."""

    kind = "email"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: object, handler: object) -> object:
        # The schema of the JSON `source` (its keys are not the attributes: "from" is a
        # keyword); pydantic is loaded by `road300 schema` only, never to write results.
        from pydantic_core import core_schema

        return core_schema.any_schema()

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: object, handler: object) -> dict[str, object]:
        text_or_null: dict[str, object] = {"anyOf": [{"type": "string"}, {"type": "null"}]}
        return {
            "type": "object",
            "title": "MailSource",
            "description": "The message an entry came from (docs/contest.md): its decoded "
            "headers, untrusted text.",
            "additionalProperties": False,
            "required": ["kind", "message_id", "from", "name", "date", "part"],
            "properties": {
                "kind": {"const": "email"},
                "message_id": text_or_null,
                "from": {**text_or_null, "description": "the sender's address"},
                "name": {**text_or_null, "description": "the sender's display name"},
                "date": {**text_or_null, "description": "the message's Date, ISO 8601"},
                "part": {"type": "string", "description": "body, or the attachment's name"},
            },
        }

    def to_json(self) -> dict[str, JSON]:
        return {
            "kind": self.kind,
            "message_id": self.message_id,
            "from": self.address,
            "name": self.name,
            "date": self.date,
            "part": self.part,
        }

    @classmethod
    def from_json(cls, data: JSON, where: str) -> MailSource:
        from validator.contest.batch import EntryError

        if not isinstance(data, dict) or data.get("kind") != cls.kind:
            raise EntryError(f'{where}: "source" is not an object with "kind": "email"')
        values: dict[str, str | None] = {}
        for key in ("message_id", "from", "name", "date", "part"):
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                raise EntryError(f'{where}: "source" "{key}" is not text')
            values[key] = value
        return cls(
            values["message_id"],
            values["from"],
            values["name"],
            values["date"],
            values["part"] or "body",
        )
