"""Safe YAML loading that keeps source locations: plain data plus a path -> line map.

libyaml (CSafeLoader) composes the node tree; we turn the nodes into plain values
ourselves so that every key and list item keeps its line and column, and so that
aliases, custom tags and deep nesting are refused instead of expanded.
"""

from __future__ import annotations

from typing import Any, ClassVar

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
_constructor = yaml.SafeLoader("")  # only its scalar constructors are used
_SCALARS = {tag: _constructor.yaml_constructors[tag] for tag in _SCALAR_TAGS}


def load(text: str, source: str, max_rounds: int | None = None) -> tuple[Any, Locations]:
    """Parse one YAML document; raises ReadError with line and column. With `max_rounds`,
    the items of a top-level `rounds` list after that many are left unread."""
    try:
        _check_depth(text, source)
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
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
    except RecursionError:
        raise ReadError(Diagnostic("E006", "the YAML is nested too deeply", source, 1, 1)) from None
    locations: Locations = {}
    if node is None:
        return None, locations
    return _Converter(source, locations, max_rounds).value(node, (), 0), locations


_NESTING_CHARS = "[{-:?"
_SHALLOW_ENOUGH = 5000
"""libyaml's composer recurses once per nesting level and overflows the C stack some
tens of thousands of levels deep; every level needs one of _NESTING_CHARS, so a text
with fewer of them than this cannot get there."""


def _check_depth(text: str, source: str) -> None:
    if sum(text.count(c) for c in _NESTING_CHARS) <= _SHALLOW_ENOUGH:
        return
    # libyaml's parser (unlike its composer) keeps its own stack: safe at any depth.
    depth = 0
    for event in yaml.parse(text, Loader=_Base):
        if isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
                message = f"the YAML is nested more than {MAX_DEPTH} levels deep"
                raise ReadError(Diagnostic("E006", message, source, line, col))
        elif isinstance(event, yaml.SequenceEndEvent | yaml.MappingEndEvent):
            depth -= 1


class _Converter:
    def __init__(self, source: str, locations: Locations, max_rounds: int | None) -> None:
        self.source = source
        self.max_rounds = max_rounds
        self.locations = locations
        self.seen: set[int] = set()

    def fail(self, code: str, message: str, node: yaml.Node, hint: str = "") -> ReadError:
        mark = node.start_mark
        return ReadError(
            Diagnostic(code, message, self.source, mark.line + 1, mark.column + 1, hint=hint)
        )

    def value(self, node: yaml.Node, path: Path, depth: int) -> Any:
        if id(node) in self.seen:
            # libyaml hands an alias back as the very node it names.
            raise self.fail("E006", "YAML anchors and aliases (&name, *name) are not allowed", node)
        self.seen.add(id(node))
        if depth < 3:  # the header, rounds and their keys: deeper items point at their parent
            mark = node.start_mark
            self.locations.setdefault(path, (mark.line + 1, mark.column + 1))
        if depth > MAX_DEPTH:
            raise self.fail("E006", f"the YAML is nested more than {MAX_DEPTH} levels deep", node)
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _TIMESTAMP:
                return node.value
            tag = node.tag
            if tag == _STR:
                return node.value
            if tag == _INT and node.value.isdigit() and len(node.value) < 10:
                return int(node.value)
            if tag not in _SCALARS:
                raise self.fail("E006", f"the YAML tag {node.tag!r} is not allowed", node)
            try:
                return _SCALARS[tag](_constructor, node)
            except ValueError:
                raise self.fail(
                    "E005", f"the number {node.value[:40]!r} is too large", node
                ) from None
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ:
                raise self.fail("E006", f"the YAML tag {node.tag!r} is not allowed", node)
            items = node.value
            if path == ("rounds",) and self.max_rounds is not None:
                items = items[: self.max_rounds]
            return [self.value(item, (*path, i), depth + 1) for i, item in enumerate(items)]
        if isinstance(node, yaml.MappingNode):
            if node.tag != _MAP:
                raise self.fail("E006", f"the YAML tag {node.tag!r} is not allowed", node)
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MAP:
                    raise self.fail("E005", "a mapping key must be a plain name", key_node)
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self.fail("E006", "YAML merge keys (<<) are not allowed", key_node)
                key = str(key_node.value)
                if key in out:
                    raise self.fail("E002", f"the key {key!r} appears twice", key_node)
                key_path = (*path, key)
                mark = key_node.start_mark
                self.locations[key_path] = (mark.line + 1, mark.column + 1)
                out[key] = self.value(value_node, key_path, depth + 1)
            return out
        raise self.fail("E006", "unsupported YAML node", node)  # pragma: no cover
