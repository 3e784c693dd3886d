"""Read YAML into plain Python values that remember where each value came from.

PyYAML composes a node tree (with line and column marks); we turn it into `LMap` and
`LList`, ordinary dicts and lists that keep the location of every key and value. The
conversion also enforces limits, so a hostile file cannot expand aliases into gigabytes
("billion laughs") or nest deep enough to exhaust the stack.

A deck's data file is read as a stream of items (`load_yaml_items`), unless a reader is
given for it (`items_read_by`): the watcher's reads again only the stretch of text a save
changed (pnp/live/kept_data.py), with `read_block_list`.
"""

from __future__ import annotations

import codecs
import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

import yaml
from yaml.composer import ComposerError

from pnp.base.errors import Location, PnpError, Problem, Problems, display_path

MAX_DEPTH = 64  # nesting of mappings and sequences
MAX_NODES = 500_000  # values after alias expansion
MAX_ALIASES = 1_000
MAX_FILE_BYTES = 20 * 1024 * 1024

try:  # the C loader is much faster and gives the same marks
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader


UNKNOWN = Location("?")
STR = "tag:yaml.org,2002:str"
MERGE = "tag:yaml.org,2002:merge"
VALUE = "tag:yaml.org,2002:value"
INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
BOOL = "tag:yaml.org,2002:bool"
NULL = "tag:yaml.org,2002:null"

# The loader's implicit resolvers by a plain scalar's first character (with those for any
# character after them), as its `resolve` tries them: looked up here without a call into
# the resolver and a list made for every value, the loader's own tables all the same.
_WILDCARD = tuple(_Loader.yaml_implicit_resolvers.get(None, []))
_RESOLVERS = {first: (*resolvers, *_WILDCARD) for first, resolvers in _Loader.yaml_implicit_resolvers.items() if first is not None}
_BOOLS: dict[str, bool] = _Loader.bool_values
# a number the int or float constructor reads as Python does: 12, -3, 0, 2.5, -0.75 (not octal 012, hex, 1_000, 1:30, .5, 1.5e3, .inf)
_PLAIN_NUMBER = re.compile(r"[-+]?(?:0|[1-9][0-9]*|[0-9]+\.[0-9]*)")


CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # what YAML refuses as a character, allowed by its escapes


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
    """Builds located values straight from the parser's events. Why not yaml.compose: its
    node tree (with two marks per value) is much larger than the values, and for a large
    deck it would be the build's peak memory."""

    def __init__(self, file: str, problems: Problems, events: Any, source: str | bytes | BinaryIO):
        self.file = file
        self.source = source  # what the events are parsed from: read again only to locate a refused character
        self.problems = problems
        self.events = events  # a yaml loader: check_event / get_event
        self.nodes = 0
        self.collections = 0
        self.aliases = 0
        self.anchors: dict[str, tuple[Any, Location, int, int] | None] = {}  # None: still being read
        self.marks: dict[str, yaml.Mark] = {}
        self.scalar = _Loader("")  # used only to construct scalar values
        # where the item of a top-level list just read begins, and where the list ends (_Stretches)
        self.item_mark: Any = None
        self.end_mark: Any = None
        self.constructors = self.scalar.yaml_constructors

    def loc(self, event: yaml.Event) -> Location:
        mark = event.start_mark
        return Location(self.file, mark.line + 1, mark.column + 1)

    def limit(self, loc: Location, message: str) -> PnpError:
        return PnpError(Problems([Problem(loc, "yaml-limit", message)], unreadable=True))

    def document(self, stream: bool = False) -> Any:
        """The single document of the stream (None for an empty one). With `stream`, a
        top-level sequence comes back as an `LItems` that reads its items as it is
        iterated."""
        self.events.get_event()  # stream start
        if self.events.check_event(yaml.StreamEndEvent):
            return None
        self.start = self.events.get_event()
        if stream and self.events.check_event(yaml.SequenceStartEvent):
            event = self.events.get_event()
            loc = self.loc(event)
            self.count(loc, 1, 1)
            return LItems(loc, self.reported_items())
        value, _ = self.convert(self.events.get_event(), 0)
        self.finish()
        return value

    def items(self) -> Iterator[tuple[Any, Location]]:
        """The rest of a top-level sequence, item by item."""
        while not self.events.check_event(yaml.SequenceEndEvent):
            event = self.events.get_event()
            self.item_mark = event.start_mark
            yield self.convert(event, 1)
        self.end_mark = self.events.get_event().start_mark
        self.finish()

    def reported_items(self) -> Iterator[tuple[Any, Location]]:
        """`items`, a parser's error raised as a located problem (PnpError)."""
        with _reported(self.file, self.source):
            yield from self.items()

    def finish(self) -> None:
        self.events.get_event()  # document end
        if not self.events.check_event(yaml.StreamEndEvent):
            raise ComposerError(
                "expected a single document in the stream", self.start.start_mark, "but found another document", self.events.get_event().start_mark
            )

    def count(self, loc: Location, nodes: int, collections: int) -> None:
        self.nodes += nodes
        if self.nodes > MAX_NODES:
            raise self.limit(loc, f"the document has more than {MAX_NODES} values; expected a smaller file")
        self.collections += collections

    def convert(self, event: yaml.Event, depth: int) -> tuple[Any, Location]:
        """The value starting with `event`, and where it is. Shaped for speed, as every
        value of every file passes here: the node count and the location inline, a scalar
        without an anchor (most values) first, and a collection's items read until the
        event that ends it (one call into the parser for each, not two)."""
        kind = type(event)
        if kind is yaml.AliasEvent:
            return self.alias(event)
        mark = event.start_mark
        loc = Location(self.file, mark.line + 1, mark.column + 1)
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.limit(loc, f"the document has more than {MAX_NODES} values; expected a smaller file")
        if depth > MAX_DEPTH:
            raise self.limit(loc, f"nesting deeper than {MAX_DEPTH} levels; expected a flatter document")
        anchor = event.anchor
        if anchor is None and kind is yaml.ScalarEvent:
            if event.tag is None and event.implicit[0]:  # a plain scalar without a tag: most values
                value = event.value
                read = _kept_plain(value) if len(value) <= _KEPT_TAG else _plain(value)
                if read is not _GENERAL:
                    return read, loc
            return self.construct(event, loc), loc
        if anchor is not None:
            if anchor in self.anchors:
                raise ComposerError(f"found duplicate anchor {anchor!r}; first occurrence", self.marks[anchor], "second occurrence", event.start_mark)
            self.anchors[anchor] = None
            self.marks[anchor] = event.start_mark
            before = (self.nodes - 1, self.collections)
        if kind is yaml.ScalarEvent:
            value = self.construct(event, loc)
        elif kind is yaml.SequenceStartEvent:
            self.collections += 1
            value = LList(loc=loc)
            locs = value.locs
            get_event = self.events.get_event
            while type(item_event := get_event()) is not yaml.SequenceEndEvent:
                item, item_loc = self.convert(item_event, depth + 1)
                value.append(item)
                locs.append(item_loc)
        else:
            self.collections += 1
            value = self.mapping(loc, depth)
        if anchor is not None:
            self.anchors[anchor] = (value, loc, self.nodes - before[0], self.collections - before[1])
        return value, loc

    def alias(self, event: yaml.AliasEvent) -> tuple[Any, Location]:
        """A copy of the anchored value, counted as if written out again."""
        if event.anchor not in self.anchors:
            raise ComposerError(None, None, f"found undefined alias {event.anchor!r}", event.start_mark)
        anchored = self.anchors[event.anchor]
        if anchored is None:
            raise self.limit(self.loc(event), f"alias *{event.anchor} is inside the value it names; expected plain data")
        value, loc, nodes, collections = anchored
        self.count(self.loc(event), nodes, collections)
        self.aliases += collections
        if self.aliases > MAX_ALIASES:
            raise self.limit(self.loc(event), f"more than {MAX_ALIASES} aliases; expected plain data")
        return _copy(value), loc

    def mapping(self, loc: Location, depth: int) -> LMap:
        """A mapping; `<<: *base` merges keys that the mapping does not set itself."""
        result = LMap(loc=loc)
        locs, key_locs = result.locs, result.key_locs
        merged: list[LMap] = []
        get_event, convert = self.events.get_event, self.convert
        while type(key_event := get_event()) is not yaml.MappingEndEvent:
            if (
                type(key_event) is yaml.ScalarEvent
                and key_event.anchor is None
                and (key_event.tag == MERGE or (key_event.value == "<<" and self._tag(key_event) == MERGE))  # not resolved for every other key
            ):
                self.count(self.loc(key_event), 1, 0)
                value, value_loc = convert(get_event(), depth + 1)
                sources = value if isinstance(value, LList) else [value]
                if all(isinstance(source, LMap) for source in sources):
                    merged.extend(sources)
                else:
                    self.problems.error(value_loc, "yaml-merge", "'<<' merges a mapping or a list of mappings into this one; found something else")
                continue
            key, key_loc = convert(key_event, depth + 1)
            value, value_loc = convert(get_event(), depth + 1)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                self.problems.error(key_loc, "yaml-key", "a mapping key must be a plain word or number")
                continue
            key = sys.intern(str(key))  # the same keys repeat on every card
            if key in result:
                self.problems.error(key_loc, "yaml-duplicate-key", f"key '{key}' appears twice in this mapping; expected each key once")
            result[key] = value
            locs[key] = value_loc
            key_locs[key] = key_loc
        if not merged:
            return result
        own, result = result, LMap(loc=loc)  # merged keys first, as PyYAML orders them
        for source in [*merged, own]:  # the mapping's own keys win, then the first merged mapping
            for key, value in source.items():
                if source is own or (key not in own and key not in result):
                    result[key] = value
                    result.locs[key] = source.locs.get(key, source.loc)
                    result.key_locs[key] = source.key_locs.get(key, source.loc)
        return result

    def _tag(self, event: yaml.ScalarEvent) -> str:
        """The scalar's tag: its own, else resolved as the loader's `resolve` would (a
        quoted scalar is text; a plain one by the first implicit resolver that matches)."""
        tag = event.tag
        if tag is not None and tag != "!":
            return tag
        if event.implicit[0]:
            value = event.value
            return _implicit_tag(value)
        return STR

    def construct(self, event: yaml.ScalarEvent, loc: Location) -> Any:
        tag = self._tag(event)
        value = event.value
        if tag == STR or tag == VALUE:  # '=' (the "value" key) reads as text
            if event.style == '"' and (bad := CONTROL.search(value)):
                self.problems.error(
                    loc, "yaml-value", f"the value holds control character U+{ord(bad.group()):04X} (written as an escape); expected printable text"
                )
            return value
        try:
            common = _common(tag, value)
            if common is not _GENERAL:
                return common
            node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, style=event.style)
            return self.constructors.get(tag, self.constructors[None])(self.scalar, node)
        except yaml.YAMLError as exc:
            self.problems.error(loc, "yaml-value", f"cannot read this value: {_reason(exc)}")
            return None
        except (ValueError, TypeError, OverflowError, KeyError):  # a tag the value does not fit: `!!int zz`, `!!bool maybe`
            self.problems.error(loc, "yaml-value", f"cannot read '{value}' as {tag.rsplit(':', 1)[-1]}; expected a value of that type, or no tag")
            return None


def _implicit_tag(value: str) -> str:
    """The tag of a plain scalar: the first implicit resolver's that matches, else text."""
    for resolved, regexp in _RESOLVERS.get(value[:1], _WILDCARD):
        if regexp.match(value):
            return resolved
    return STR


_GENERAL = object()  # what `_plain` gives for a plain scalar that `_Converter.construct` reads


def _plain(value: str) -> Any:
    """A plain scalar (no tag) as `_Converter.construct` reads it when that needs neither
    a node nor a location: text, a number in Python's spelling, true/false, null; else
    `_GENERAL`. A value of its own, as `_Converter.convert` reads most values with it."""
    return _common(_implicit_tag(value), value)


def _common(tag: str, value: str) -> Any:
    """What the constructors make of the commonest values, made without a node: text, a
    number in Python's spelling, true/false, null; else `_GENERAL`."""
    if tag == STR or tag == VALUE:
        return value
    if (tag == INT or tag == FLOAT) and _PLAIN_NUMBER.fullmatch(value) and ("." in value) == (tag == FLOAT):
        return float(value) if tag == FLOAT else int(value)
    if tag == BOOL and (truth := _BOOLS.get(value.lower())) is not None:
        return truth
    if tag == NULL:
        return None
    return _GENERAL


_KEPT_TAG = 40  # characters: what plain scalars up to this long read as is kept, never long text (a game's files repeat their keys, numbers and words)
_kept_plain = lru_cache(maxsize=4096)(_plain)  # values, immutable: text, int, float, bool, None


def _copy(value: Any) -> Any:
    """A deep copy of located values (scalars are immutable and shared)."""
    if isinstance(value, LMap):
        copy = LMap(((k, _copy(v)) for k, v in value.items()), loc=value.loc)
        copy.locs = dict(value.locs)
        copy.key_locs = dict(value.key_locs)
        return copy
    if isinstance(value, LList):
        copy = LList((_copy(v) for v in value), loc=value.loc)
        copy.locs = list(value.locs)
        return copy
    return value


def _reason(exc: yaml.YAMLError) -> str:
    problem = getattr(exc, "problem", None) or str(exc)
    return " ".join(str(problem).split())


class LItems:
    """The items of a top-level YAML sequence, read one at a time as they are iterated
    (once), so a large data file is never held whole (or the items already read, when a
    reader given with `items_read_by` had them). `loc_of` knows the item just read."""

    def __init__(self, loc: Location, pairs: Iterable[tuple[Any, Location]]):
        self.loc = loc
        self._pairs = pairs  # (value, location) of each item
        self._current: tuple[int, Location] = (-1, loc)
        self.close: Callable[[], None] = lambda: None  # releases the file; called after the last item

    def __iter__(self) -> Iterator[Any]:
        try:
            for index, (value, loc) in enumerate(self._pairs):
                self._current = (index, loc)
                yield value
        finally:
            self.close()

    def loc_of(self, index: int) -> Location:
        return self._current[1] if index == self._current[0] else self.loc


def _check_file(path: Path, shown: str) -> None:
    """Size and encoding, before any parsing: PnpError (unreadable) if wrong (`shown`:
    the file's name as messages show it)."""
    own = Problems(unreadable=True)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            own.error(Location(shown), "yaml-limit", f"file is {size} bytes; expected at most {MAX_FILE_BYTES}")
            raise PnpError(own)
        decoder = codecs.getincrementaldecoder("utf-8")()
        with path.open("rb") as file:  # in pieces: the text is only checked, not kept
            while piece := file.read(1 << 16):
                decoder.decode(piece)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        data = path.read_bytes()  # read whole only to say where
        line = 0
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
        own.error(Location(shown, line), "yaml-encoding", "the file is not valid UTF-8 text; save it as UTF-8")
        raise PnpError(own) from None
    except OSError as exc:
        own.error(Location(shown), "file-unreadable", f"cannot read the file ({exc.strerror}); expected a readable YAML file")
        raise PnpError(own) from None


def load_yaml(path: Path, problems: Problems | None = None) -> Any:
    """Parse one YAML file into located values. Syntax errors raise `PnpError` (unreadable)."""
    shown = display_path(path)
    _check_file(path, shown)
    with path.open("rb") as file:  # the parser reads the file in pieces
        return parse_yaml(file, shown, problems)


def load_yaml_items(path: Path, problems: Problems | None = None) -> Any:
    """Like `load_yaml`, but a top-level list comes back as `LItems`, read as it is
    iterated (a deck's data: each card is built and the raw item dropped). Inside
    `items_read_by`, the reader given is asked first."""
    reader = _ITEMS_READER.get()
    if reader is not None and (found := reader(path)) is not None:
        return found
    shown = display_path(path)
    _check_file(path, shown)
    file = path.open("rb")
    events = _Loader(file)
    converter = _Converter(shown, problems if problems is not None else Problems(), events, file)

    def close() -> None:
        events.dispose()
        file.close()

    try:
        with _reported(shown, file):
            value = converter.document(stream=True)
    except BaseException:
        close()
        raise
    if isinstance(value, LItems):
        value.close = close
    else:
        close()
    return value


def parse_yaml(text: str | bytes | BinaryIO, shown: str, problems: Problems | None = None) -> Any:
    """Parse YAML text (or UTF-8 bytes, or a binary file); `shown` is the file name used
    in locations."""
    events = _Loader(text)
    try:
        with _reported(shown, text):
            return _Converter(shown, problems if problems is not None else Problems(), events, text).document()
    finally:
        events.dispose()


def _text_of(source: str | bytes | BinaryIO) -> str:
    """The parsed text again, only to say where or what a parser error is."""
    if isinstance(source, str):
        return source
    if not isinstance(source, bytes):
        source.seek(0)
        source = source.read()
    return source.decode("utf-8", "replace")


def _refused_at(shown: str, source: str | bytes | BinaryIO, character: int) -> Location:
    """Where the reader's refused character is: the first of its kind in the text (the
    reader refuses the first it meets). The reader's own position counts bytes or
    characters depending on the parser, so the text is read again, only to say where."""
    text = _text_of(source)
    at = text.find(chr(character))
    if at < 0:
        return Location(shown)
    line_start = text.rfind("\n", 0, at) + 1
    return Location(shown, text.count("\n", 0, at) + 1, at - line_start + 1)


def _colon_hint(text: str, line: int) -> str:
    """What to do about ': ' inside a plain value: quote the value, shown on its own line."""
    lines = text.split("\n")
    row = lines[line].rstrip("\r") if 0 <= line < len(lines) else ""
    key, sep, value = row.partition(": ")
    if not sep or not value.strip() or value.lstrip()[:1] in "\"'|>[{":
        return "; a ': ' inside a plain value starts a new key: quote the value"
    return f"; a ': ' inside a plain value starts a new key: quote the value, e.g. {key.strip()}: {json.dumps(value.strip(), ensure_ascii=False)}"


@contextmanager
def _reported(shown: str, source: str | bytes | BinaryIO) -> Iterator[None]:
    """Parser errors as located, unreadable problems (`source`: what was parsed)."""
    try:
        yield
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow: it has a position, not a mark
        message = (
            f"YAML syntax error: unacceptable character #x{exc.character:04x}: {exc.reason}; "
            "expected printable text: delete the character (most editors do not show it)"
        )
        raise PnpError(Problems([Problem(_refused_at(shown, source, exc.character), "yaml-syntax", message)], unreadable=True)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(shown, mark.line + 1, mark.column + 1) if mark else Location(shown)
        hint = _colon_hint(_text_of(source), mark.line) if mark and "mapping values are not allowed" in _reason(exc) else ""
        bad = Problems([Problem(loc, "yaml-syntax", f"YAML syntax error: {_reason(exc)}{hint}")], unreadable=True)
        raise PnpError(bad) from None
    except yaml.YAMLError as exc:  # e.g. "expected a single document"
        bad = Problems([Problem(Location(shown), "yaml-syntax", f"YAML syntax error: {_reason(exc)}")], unreadable=True)
        raise PnpError(bad) from None
    except RecursionError:
        bad = Problems([Problem(Location(shown), "yaml-limit", "nesting too deep; expected a flatter document")], unreadable=True)
        raise PnpError(bad) from None


# --- a data file's list read with where its items begin (for the watcher: pnp/live/kept_data.py) ---

_ITEMS_READER: ContextVar[Callable[[Path], LItems | None] | None] = ContextVar("_ITEMS_READER", default=None)
_DASH = re.compile(r"-[ \t]*")  # what begins a list item, before its value
_BLANK = re.compile(r"(?:[ \t\r\n]|#[^\n]*)*")  # what may follow a list: space and comments


@contextmanager
def items_read_by(reader: Callable[[Path], LItems | None]) -> Iterator[None]:
    """Data files read inside (`load_yaml_items`) are first asked of `reader`, which gives
    their items or None (then the file is read as a stream, as a build reads it)."""
    token = _ITEMS_READER.set(reader)
    try:
        yield
    finally:
        _ITEMS_READER.reset(token)


@dataclass(repr=False, eq=False)
class BlockList:
    """A data file's top-level block list read whole: where each item's stretch of the text
    begins (its '-' at the start of a line) and where the list ends (`end`: the last item's
    stretch runs to it, comments after the items included), and each item read (value and
    location) with the number of values it holds (MAX_NODES counts them)."""

    loc: Location
    starts: list[int]
    end: int
    items: list[tuple[Any, Location]]
    nodes: list[int]


def read_block_list(text: str, shown: str, skipped: int = 0) -> BlockList | None:
    """The top-level list of `text` read whole (`skipped`: its first lines are blank, put
    there so that lines are counted as in the file), with where its items begin (indices
    into `text` after the skipped lines); None unless it is a block list whose items begin
    with '-' at the start of a line and reading it used no anchor or alias and reported
    nothing (what is wrong is then reported by reading the file as a build does, in the
    same order, with the cards before a syntax error)."""
    problems = Problems()
    events = _Loader(text)
    try:
        with _reported(shown, text):
            converter = _Converter(shown, problems, events, text)
            value = converter.document(stream=True)
            if not isinstance(value, LItems):
                return None
            items, starts, nodes = [], [], []
            counted = converter.nodes
            for pair in converter.items():
                mark = converter.item_mark
                start = mark.index - mark.column
                if _DASH.fullmatch(text, start, mark.index) is None:
                    return None
                starts.append(start - skipped)
                nodes.append(converter.nodes - counted)
                counted = converter.nodes
                items.append(pair)
            end = converter.end_mark.index
    except PnpError:
        return None
    finally:
        events.dispose()
    if not items or converter.anchors or converter.aliases or problems.items or _BLANK.fullmatch(text, end) is None:
        return None
    return BlockList(value.loc, starts, end - skipped, items, nodes)
