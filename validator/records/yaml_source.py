"""Safe YAML loading that keeps source locations: plain data plus a path -> line map.

libyaml (CSafeLoader) parses; we turn its event stream into plain values ourselves, so
that every key and list item keeps its line and column, aliases, custom tags and deep
nesting are refused instead of expanded, and reading can stop after enough rounds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import yaml

from validator.engine.phrase import N_, Text, phrase
from validator.errors import Diagnostic, ReadError
from validator.records.lexing import MAX_NUMBER_CHARS, position, short, too_long, twice
from validator.records.model import Locations, Path

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser (its safe loader's event stream) where it is installed."""


MAX_DEPTH = 16
"""Records nest four levels deep; anything far deeper is hostile or broken."""

_STR, _INT, _FLOAT, _BOOL, _NULL, _TIMESTAMP, _SEQ, _MAP = (
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "timestamp", "seq", "map")
)
_constructor = yaml.SafeLoader("")  # only its scalar constructors are used
_SCALARS = {tag: _constructor.yaml_constructors[tag] for tag in (_STR, _INT, _FLOAT, _BOOL, _NULL)}


def load(text: str, source: str, max_rounds: int | None = None) -> tuple[Any, Locations]:
    """Parse one YAML document; raises ReadError with line and column. With `max_rounds`,
    reading stops after that many items of a top-level `rounds` list."""
    parser = _Loader(text)
    converter = _Converter(source, max_rounds, parser.get_event)
    try:
        data = converter.document()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        opened = exc.context_mark
        what = _OPENED.get(" ".join((exc.context or "").split()[-2:]))
        if mark is not None and opened is not None and what and not text[mark.index :].strip():
            # Found at the end of the file (a line past the last): a `{`, `[` or quote
            # never closed. Where it was opened is the place to look.
            problem = f"the {what} opened here is never closed (the file ends first)"
            mark = opened
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        if "nesting depth" in problem:  # libyaml builds that stop deep nesting themselves
            raise ReadError(Diagnostic.said("E006", _TOO_DEEP, source, line, col)) from None
        raise ReadError(Diagnostic.said("E002", _syntax(problem), source, line, col)) from None
    except yaml.reader.ReaderError as exc:
        # A character YAML does not allow (a raw control character): say where it is.
        at = min(max(exc.position, 0), len(text))
        line, col = position(text, at)
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        shown = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
        message = phrase(
            N_("YAML syntax: the control character {shown} is not allowed in YAML text"),
            shown=shown,
        )
        hint = phrase(N_("remove it, or write it as an escape inside double quotes"))
        raise ReadError(Diagnostic.said("E002", message, source, line, col, hint=hint)) from None
    except yaml.YAMLError as exc:
        raise ReadError(Diagnostic.said("E002", _syntax(exc), source, 1, 1)) from None
    finally:
        parser.dispose()
    return data, converter.locations


_OPENED = {"flow mapping": "{", "flow sequence": "[", "quoted scalar": "quote"}
"""What libyaml's context of a problem at the end of the file had opened."""

_TOO_DEEP = phrase(N_("the YAML is nested more than {n} levels deep"), n=MAX_DEPTH)


def _syntax(problem: object) -> Text:
    """`YAML syntax: ...` with the YAML library's own words for the problem."""
    return phrase(N_("YAML syntax: {problem}"), problem=problem)


class _Stop(Exception):
    """Reading stopped after max_rounds rounds."""


_Scalar, _SeqStart, _SeqEnd = yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.SequenceEndEvent
_MapStart, _MapEnd = yaml.MappingStartEvent, yaml.MappingEndEvent
_PLAIN_TAGS = (None, "!")
_VALUE_MEMO: dict[str, Any] = {}
"""Plain scalar text -> its (immutable) value: records repeat the same few keys and small
numbers, and resolving each by regular expressions would be most of the time outside C."""
_UNKNOWN = object()


class _Converter:
    """Plain values and their locations straight from libyaml's event stream: no node
    tree is composed (that is most of the cost of yaml.load), and reading can stop.
    Written for speed: this is the hot loop of a batch of YAML records."""

    def __init__(
        self, source: str, max_rounds: int | None, get_event: Callable[[], yaml.Event]
    ) -> None:
        self.source = source
        self.max_rounds = max_rounds
        self.get = get_event
        self.locations: Locations = {}
        self.anchors: dict[str, tuple[int, int]] = {}
        self.partial: dict[str, Any] = {}

    def fail(self, code: str, message: Text, event: yaml.Event, hint: Text = "") -> ReadError:
        line, col = _where(event)
        return ReadError(Diagnostic.said(code, message, self.source, line, col, hint=hint))

    def document(self) -> Any:
        get = self.get
        get()  # StreamStartEvent
        if isinstance(get(), yaml.StreamEndEvent):
            return None
        try:
            data = self.value(get(), (), 0)
        except _Stop:
            return self.partial
        get()  # DocumentEndEvent
        extra = get()
        if not isinstance(extra, yaml.StreamEndEvent):
            raise self.fail("E002", phrase(N_("YAML syntax: expected a single document")), extra)
        return data

    def value(self, event: yaml.Event, path: Path | None, depth: int) -> Any:
        """The value an event starts; `path` is None below the depth where locations
        are kept (deeper items point at their parent)."""
        kind = type(event)
        if path is not None:
            self.locations.setdefault(path, _where(event))
        anchor = cast(yaml.NodeEvent, event).anchor
        if anchor is not None:
            self.anchors.setdefault(str(anchor), _where(event))
        if kind is _Scalar:
            return self.scalar(cast(yaml.ScalarEvent, event))
        if depth >= MAX_DEPTH:
            raise self.fail("E006", _TOO_DEEP, event)
        if kind is _SeqStart or kind is _MapStart:
            tag = cast(yaml.CollectionStartEvent, event).tag
            if tag not in _PLAIN_TAGS and tag != (_SEQ if kind is _SeqStart else _MAP):
                raise self.fail("E006", _tag(tag), event)
            if kind is _SeqStart:
                return self.sequence(path, depth)
            return self.mapping(path, depth)
        if isinstance(event, yaml.AliasEvent):
            # Point at the anchor, where the repeated value is written.
            line, col = self.anchors.get(str(getattr(event, "anchor", "")), _where(event))
            message = phrase(N_("YAML anchors and aliases (&name, *name) are not allowed"))
            raise ReadError(Diagnostic.said("E006", message, self.source, line, col))
        raise self.fail("E006", phrase(N_("unsupported YAML")), event)  # pragma: no cover

    def sequence(self, path: Path | None, depth: int) -> list[Any]:
        items: list[Any] = []
        limit = self.max_rounds if path == ("rounds",) else None
        keep = path is not None and depth + 1 < 3
        get, value, scalar, append = self.get, self.value, self.scalar, items.append
        while True:
            event = get()
            kind = type(event)
            if kind is _SeqEnd:
                return items
            if limit is not None and len(items) >= limit:
                self.partial = {"rounds": items}
                raise _Stop
            if keep:
                append(value(event, (*cast(Path, path), len(items)), depth + 1))
            elif kind is _Scalar and cast(yaml.ScalarEvent, event).anchor is None:
                append(scalar(cast(yaml.ScalarEvent, event)))
            else:
                append(value(event, None, depth + 1))

    def mapping(self, path: Path | None, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        get, value, locations = self.get, self.value, self.locations
        keep = path is not None and depth < 2
        while True:
            event = get()
            kind = type(event)
            if kind is _MapEnd:
                return out
            if kind is not _Scalar or cast(yaml.ScalarEvent, event).tag not in (*_PLAIN_TAGS, _STR):
                raise self.fail("E005", phrase(N_("a mapping key must be a plain name")), event)
            key_event = cast(yaml.ScalarEvent, event)
            key = key_event.value
            if key == "<<" and key_event.implicit[0]:
                raise self.fail("E006", phrase(N_("YAML merge keys (<<) are not allowed")), event)
            if key in out:
                raise self.fail("E002", twice(key), event)
            key_path: Path | None = None
            if path is not None:
                key_path = (*path, key)
                locations[key_path] = _where(event)
            try:
                event = get()
                if not keep and type(event) is _Scalar and event.anchor is None:
                    out[key] = self.scalar(event)
                else:
                    out[key] = value(event, key_path if keep else None, depth + 1)
            except _Stop:
                if path == ():
                    self.partial = {**out, **self.partial}
                raise

    def scalar(self, event: yaml.ScalarEvent) -> Any:
        value = event.value
        tag = event.tag
        if tag in _PLAIN_TAGS:
            if not event.implicit[0]:  # quoted: a string
                return value
            known = _VALUE_MEMO.get(value, _UNKNOWN)
            if known is not _UNKNOWN:
                return known
            tag = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
            if tag in (_STR, _INT, _BOOL, _NULL) and len(_VALUE_MEMO) < 4096 and len(value) < 64:
                node = yaml.ScalarNode(tag, value, None, None, event.style)
                _VALUE_MEMO[value] = value if tag == _STR else _SCALARS[tag](_constructor, node)
        if tag in (_STR, _TIMESTAMP):
            return value
        if tag == _INT and len(value) < 10 and value.isdigit():
            return int(value)
        if tag not in _SCALARS:
            raise self.fail("E006", _tag(tag), event)
        if tag in (_INT, _FLOAT) and len(value) > MAX_NUMBER_CHARS:
            # Before PyYAML converts it: a long base-60 or hexadecimal integer costs
            # seconds, and no value of a record is anywhere near this long.
            raise self.fail("E005", too_long(value), event)
        node = yaml.ScalarNode(tag, value, None, None, event.style)
        try:
            return _SCALARS[tag](_constructor, node)
        except ValueError:
            message = phrase(N_("the number {number} is too large"), number=short(value))
            raise self.fail("E005", message, event) from None


_RESOLVER = yaml.SafeLoader("")


def _where(event: yaml.Event) -> tuple[int, int]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark else (1, 1)


def _tag(tag: object) -> Text:
    return phrase(N_("the YAML tag {tag} is not allowed"), tag=short(tag))
