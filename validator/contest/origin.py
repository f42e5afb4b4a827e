"""Where an entry came from when it was not a file of its own: the e-mail it arrived in.

A value of the batch's `Entry` (its JSON `source`), written and read back by the results
file through pydantic; contest/mail.py fills it in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic_core import CoreSchema


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
    def __get_pydantic_core_schema__(cls, source: object, handler: object) -> CoreSchema:
        # Its JSON keys are not the attributes ("from" is a keyword): read as a typed dict
        # and written by `as_json`. Every key but `kind` may be left out when read back.
        from pydantic_core import core_schema as cs

        def text() -> cs.TypedDictField:
            return cs.typed_dict_field(cs.nullable_schema(cs.str_schema()), required=False)

        shape = cs.typed_dict_schema(
            {
                "kind": cs.typed_dict_field(cs.literal_schema([cls.kind])),
                **{key: text() for key in ("message_id", "from", "name", "date", "part")},
            },
            extra_behavior="ignore",
        )
        return cs.no_info_after_validator_function(
            cls.of_json,
            shape,
            serialization=cs.plain_serializer_function_ser_schema(cls.as_json),
        )

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

    def as_json(self) -> dict[str, str | None]:
        return {
            "kind": self.kind,
            "message_id": self.message_id,
            "from": self.address,
            "name": self.name,
            "date": self.date,
            "part": self.part,
        }

    @classmethod
    def of_json(cls, data: Mapping[str, str | None]) -> MailSource:
        """The source read back (pydantic checked the keys' types); a missing part is the
        body."""
        return cls(
            data.get("message_id"),
            data.get("from"),
            data.get("name"),
            data.get("date"),
            data.get("part") or "body",
        )
