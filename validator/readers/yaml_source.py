"""Safe YAML loading that keeps source locations: plain data plus a path -> line map.

libyaml (CSafeLoader) parses; we turn its event stream into plain values ourselves, so
that every key and list item keeps its line and column, aliases, custom tags and deep
nesting are refused instead of expanded, and reading can stop after enough rounds.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any, ClassVar, cast

import yaml

from validator.errors import Diagnostic, ReadError
from validator.readers.model import Locations, Path

_Base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[valid-type,misc]
    """libyaml's safe loader with a memo for implicit scalar tags: records repeat the
    same few plain scalars (keys, small numbers), and resolving each one by regular
    expressions is most of the time spent outside C."""

    _memo: ClassVar[dict[tuple[str, bool, bool], str]] = {}

    def resolve(self, kind: type[yaml.Node], value: str, implicit: tuple[bool, bool]) -> str:
        if kind is not yaml.ScalarNode:
            tag: str = super().resolve(kind, value, implicit)
            return tag
        key = (value, implicit[0], implicit[1])
        tag = self._memo.get(key, "")
        if not tag:
            tag = super().resolve(kind, value, implicit)
            if len(self._memo) < 4096 and len(value) < 64:
                self._memo[key] = tag
        return tag


MAX_DEPTH = 16
"""Records nest four levels deep; anything far deeper is hostile or broken."""

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_MERGE = "tag:yaml.org,2002:merge"
_constructor = yaml.SafeLoader("")  # only its scalar constructors are used
_SCALARS = {tag: _constructor.yaml_constructors[tag] for tag in _SCALAR_TAGS}


def load(text: str, source: str, max_rounds: int | None = None) -> tuple[Any, Locations]:
    """Parse one YAML document; raises ReadError with line and column. With `max_rounds`,
    reading stops after that many items of a top-level `rounds` list."""
    events = cast(Generator[yaml.Event, None, None], yaml.parse(text, Loader=_Loader))
    converter = _Converter(source, max_rounds)
    try:
        data = converter.document(events)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        problem = exc.problem or exc.context or "invalid YAML"
        if "nesting depth" in problem:  # libyaml builds that stop deep nesting themselves
            message = f"the YAML is nested more than {MAX_DEPTH} levels deep"
            raise ReadError(Diagnostic("E006", message, source, line, col)) from None
        raise ReadError(Diagnostic("E002", f"YAML syntax: {problem}", source, line, col)) from None
    except yaml.YAMLError as exc:
        raise ReadError(Diagnostic("E002", f"YAML syntax: {exc}", source, 1, 1)) from None
    finally:
        events.close()  # disposes of the parser, also when reading stopped early
    return data, converter.locations


class _Stop(Exception):
    """Reading stopped after max_rounds rounds."""


class _Converter:
    """Plain values and their locations straight from libyaml's event stream: no node
    tree is composed (that is most of the cost of yaml.load), and reading can stop."""

    def __init__(self, source: str, max_rounds: int | None) -> None:
        self.source = source
        self.max_rounds = max_rounds
        self.locations: Locations = {}
        self.resolver = _Loader("")
        self.anchors: dict[str, tuple[int, int]] = {}

    def fail(self, code: str, message: str, event: yaml.Event, hint: str = "") -> ReadError:
        line, col = _where(event)
        return ReadError(Diagnostic(code, message, self.source, line, col, hint=hint))

    def document(self, events: Iterator[yaml.Event]) -> Any:
        self.events = events
        next(events)  # StreamStartEvent
        start = next(events)
        if isinstance(start, yaml.StreamEndEvent):
            return None
        try:
            data = self.value(next(events), (), 0)
        except _Stop:
            return self.partial
        next(events)  # DocumentEndEvent
        extra = next(events)
        if not isinstance(extra, yaml.StreamEndEvent):
            raise self.fail("E002", "YAML syntax: expected a single document", extra)
        return data

    def value(self, event: yaml.Event, path: Path, depth: int) -> Any:
        if depth < 3:  # the header, rounds and their keys: deeper items point at their parent
            self.locations.setdefault(path, _where(event))
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            self.anchors.setdefault(str(anchor), _where(event))
        if isinstance(event, yaml.ScalarEvent):
            return self.scalar(event)
        if depth >= MAX_DEPTH:
            raise self.fail("E006", f"the YAML is nested more than {MAX_DEPTH} levels deep", event)
        if isinstance(event, yaml.SequenceStartEvent):
            if event.tag not in (None, "!", _SEQ):
                raise self.fail("E006", f"the YAML tag {event.tag!r} is not allowed", event)
            return self.sequence(path, depth)
        if isinstance(event, yaml.MappingStartEvent):
            if event.tag not in (None, "!", _MAP):
                raise self.fail("E006", f"the YAML tag {event.tag!r} is not allowed", event)
            return self.mapping(path, depth)
        if isinstance(event, yaml.AliasEvent):
            # Point at the anchor, where the repeated value is written.
            line, col = self.anchors.get(str(getattr(event, "anchor", "")), _where(event))
            message = "YAML anchors and aliases (&name, *name) are not allowed"
            raise ReadError(Diagnostic("E006", message, self.source, line, col))
        raise self.fail("E006", "unsupported YAML", event)  # pragma: no cover

    def sequence(self, path: Path, depth: int) -> list[Any]:
        items: list[Any] = []
        limit = self.max_rounds if path == ("rounds",) else None
        for event in self.events:
            if isinstance(event, yaml.SequenceEndEvent):
                return items
            if limit is not None and len(items) >= limit:
                self.partial = {"rounds": items}
                raise _Stop
            items.append(self.value(event, (*path, len(items)), depth + 1))
        raise AssertionError("the event stream ended inside a sequence")  # pragma: no cover

    def mapping(self, path: Path, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for event in self.events:
            if isinstance(event, yaml.MappingEndEvent):
                return out
            if not isinstance(event, yaml.ScalarEvent) or (event.tag not in (None, "!", _STR)):
                raise self.fail("E005", "a mapping key must be a plain name", event)
            if event.implicit[0] and self.tag(event) == _MERGE:
                raise self.fail("E006", "YAML merge keys (<<) are not allowed", event)
            key = event.value
            if key in out:
                raise self.fail("E002", f"the key {key!r} appears twice", event)
            key_path = (*path, key)
            self.locations[key_path] = _where(event)
            try:
                out[key] = self.value(next(self.events), key_path, depth + 1)
            except _Stop:
                if path == ():
                    self.partial = {**out, **self.partial}
                raise
        raise AssertionError("the event stream ended inside a mapping")  # pragma: no cover

    def tag(self, event: yaml.ScalarEvent) -> str:
        if event.tag not in (None, "!"):
            return str(event.tag)
        if not event.implicit[0]:  # quoted: a string
            return _STR
        return self.resolver.resolve(yaml.ScalarNode, event.value, event.implicit)

    def scalar(self, event: yaml.ScalarEvent) -> Any:
        tag = self.tag(event)
        value = event.value
        if tag in (_STR, _TIMESTAMP):
            return value
        if tag == _INT and value.isdigit() and len(value) < 10:
            return int(value)
        if tag not in _SCALARS:
            raise self.fail("E006", f"the YAML tag {tag!r} is not allowed", event)
        node = yaml.ScalarNode(tag, value, None, None, event.style)
        try:
            return _SCALARS[tag](_constructor, node)
        except ValueError:
            raise self.fail("E005", f"the number {value[:40]!r} is too large", event) from None


def _where(event: yaml.Event) -> tuple[int, int]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark else (1, 1)
