"""Read YAML into plain Python values that remember where each value came from.

PyYAML composes a node tree (with line and column marks); we turn it into `LMap` and
`LList`, ordinary dicts and lists that keep the location of every key and value. The
conversion also enforces limits, so a hostile file cannot expand aliases into gigabytes
("billion laughs") or nest deep enough to exhaust the stack.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import Location, PnpError, Problem, Problems, display_path

MAX_DEPTH = 64  # nesting of mappings and sequences
MAX_NODES = 500_000  # values after alias expansion
MAX_ALIASES = 1_000
MAX_FILE_BYTES = 20 * 1024 * 1024

try:  # the C loader is 5-10x faster and gives the same marks
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader


UNKNOWN = Location("?")


class LMap(dict):
    """A mapping with `loc` (of the mapping) and `locs[key]` / `key_locs[key]`."""

    def __init__(self, *args, loc: Location = UNKNOWN, **kwargs):
        super().__init__(*args, **kwargs)
        self.loc = loc
        self.locs: dict[str, Location] = {}
        self.key_locs: dict[str, Location] = {}

    def loc_of(self, key: str) -> Location:
        return self.locs.get(key, self.loc)


class LList(list):
    """A sequence with `loc` (of the sequence) and `locs[i]` for each item."""

    def __init__(self, *args, loc: Location = UNKNOWN):
        super().__init__(*args)
        self.loc = loc
        self.locs: list[Location] = []

    def loc_of(self, index: int) -> Location:
        return self.locs[index] if 0 <= index < len(self.locs) else self.loc


def loc_of(container: Any, key: Any) -> Location:
    """Location of `container[key]`, or of the container, or unknown."""
    if isinstance(container, (LMap, LList)):
        return container.loc_of(key)
    return Location("?")


class _Converter:
    def __init__(self, file: str, problems: Problems):
        self.file = file
        self.problems = problems
        self.nodes = 0
        self.aliases = 0
        self.seen: set[int] = set()
        self.scalar = _Loader("")  # used only to construct scalar values

    def loc(self, node: yaml.Node) -> Location:
        mark = node.start_mark
        return Location(self.file, mark.line + 1, mark.column + 1)

    def limit(self, node: yaml.Node, message: str) -> PnpError:
        return PnpError(Problems([Problem(self.loc(node), "yaml-limit", message)], unreadable=True))

    def convert(self, node: yaml.Node, depth: int = 0) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.limit(node, f"the document has more than {MAX_NODES} values; expected a smaller file")
        if depth > MAX_DEPTH:
            raise self.limit(node, f"nesting deeper than {MAX_DEPTH} levels; expected a flatter document")
        if not isinstance(node, yaml.ScalarNode):
            if id(node) in self.seen:  # an alias: the same node reached twice
                self.aliases += 1
                if self.aliases > MAX_ALIASES:
                    raise self.limit(node, f"more than {MAX_ALIASES} aliases; expected plain data")
            self.seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            result = LMap(loc=self.loc(node))
            self.scalar.flatten_mapping(node)  # resolve `<<: *base` merge keys
            for key_node, value_node in node.value:
                key = self.convert(key_node, depth + 1)
                if not isinstance(key, (str, int, float, bool)) or key is None:
                    self.problems.error(self.loc(key_node), "yaml-key", "a mapping key must be a plain word or number")
                    continue
                key = str(key)
                if key in result:
                    self.problems.error(self.loc(key_node), "yaml-duplicate-key", f"key '{key}' appears twice in this mapping; expected each key once")
                result[key] = self.convert(value_node, depth + 1)
                result.locs[key] = self.loc(value_node)
                result.key_locs[key] = self.loc(key_node)
            return result
        if isinstance(node, yaml.SequenceNode):
            seq = LList(loc=self.loc(node))
            for item in node.value:
                seq.append(self.convert(item, depth + 1))
                seq.locs.append(self.loc(item))
            return seq
        try:
            return self.scalar.construct_object(node)
        except yaml.YAMLError as exc:
            self.problems.error(self.loc(node), "yaml-value", f"cannot read this value: {_reason(exc)}")
            return None


def _reason(exc: yaml.YAMLError) -> str:
    problem = getattr(exc, "problem", None) or str(exc)
    return " ".join(str(problem).split())


def load_yaml(path: Path, problems: Problems | None = None) -> Any:
    """Parse one YAML file into located values. Syntax errors raise `PnpError` (unreadable)."""
    shown = display_path(path)
    own = Problems()
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            own.error(Location(shown), "yaml-limit", f"file is {size} bytes; expected at most {MAX_FILE_BYTES}")
            own.unreadable = True
            raise PnpError(own)
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        own.error(Location(shown, line), "yaml-encoding", "the file is not valid UTF-8 text; save it as UTF-8")
        own.unreadable = True
        raise PnpError(own) from None
    except OSError as exc:
        own.error(Location(shown), "file-unreadable", f"cannot read the file ({exc.strerror}); expected a readable YAML file")
        own.unreadable = True
        raise PnpError(own) from None
    return parse_yaml(text, shown, problems)


def parse_yaml(text: str, shown: str, problems: Problems | None = None) -> Any:
    """Parse YAML text; `shown` is the file name used in locations."""
    own = problems if problems is not None else Problems()
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(shown, mark.line + 1, mark.column + 1) if mark else Location(shown)
        bad = Problems([Problem(loc, "yaml-syntax", f"YAML syntax error: {_reason(exc)}")], unreadable=True)
        raise PnpError(bad) from None
    except yaml.YAMLError as exc:  # e.g. "expected a single document"
        bad = Problems([Problem(Location(shown), "yaml-syntax", f"YAML syntax error: {_reason(exc)}")], unreadable=True)
        raise PnpError(bad) from None
    except RecursionError:
        bad = Problems([Problem(Location(shown), "yaml-limit", "nesting too deep; expected a flatter document")], unreadable=True)
        raise PnpError(bad) from None
    if node is None:
        return None
    try:
        return _Converter(shown, own).convert(node)
    except RecursionError:
        bad = Problems([Problem(Location(shown), "yaml-limit", "nesting too deep; expected a flatter document")], unreadable=True)
        raise PnpError(bad) from None
