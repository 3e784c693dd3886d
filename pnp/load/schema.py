"""Turn located YAML values into typed dataclasses, reporting every mismatch.

The dataclasses of the tool's own file formats (game.yaml, layouts, sheets) are the
schema: their field names are the allowed keys, their type hints the allowed types,
their defaults make a key optional. One converter serves every format, so an unknown key
gets the same "did you mean" everywhere.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin

from pnp.base.errors import Location, Problems
from pnp.load.yamlfile import LList, LMap

MISSING = object()  # what convert() returns for a value it rejected


def suggest(word: str, choices: typing.Iterable[str]) -> str:
    """' (did you mean 'x'?)' for the closest choice, or ''."""
    import difflib  # here for speed: only a mistake is answered with a suggestion

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def describe(tp: Any) -> str:
    """A type hint in words, for messages."""
    origin = get_origin(tp)
    if tp is str:
        return "text"
    if tp is bool:
        return "true or false"
    if tp is int:
        return "a whole number"
    if tp is float:
        return "a number"
    if tp is Any:
        return "any value"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(tp))
    if origin in (Union, types.UnionType):
        return " or ".join(describe(a) for a in get_args(tp) if a is not type(None))
    if origin is list:
        return f"a list of {describe(get_args(tp)[0])}"
    if origin is tuple:
        return f"a list of {len(get_args(tp))} numbers"
    if origin is dict:
        return f"a mapping of names to {describe(get_args(tp)[1])}"
    if dataclasses.is_dataclass(tp):
        return "a mapping"
    return getattr(tp, "__name__", str(tp))


@cache
def hints(cls: type) -> dict[str, Any]:
    """A class's type hints, resolved once (get_type_hints evaluates every annotation anew
    at each call): what `build` reads a dataclass with, and the rules' constraint kinds."""
    return typing.get_type_hints(cls)


@cache
def _spec(cls: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field], list[str], bool]:
    """What `build` needs of a dataclass, found once per class (resolving its type hints
    and listing its fields is slow, and a layout builds a dataclass for every element):
    its type hints, the keys a mapping may have (init fields not starting with '_'), those
    of them without a default, and whether it has a `_loc` (set to the mapping's location)."""
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init and not f.name.startswith("_")}
    required = [n for n, f in fields.items() if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    located = "_loc" in {f.name for f in dataclasses.fields(cls)}
    return hints(cls), fields, required, located


@cache
def _shape(tp: Any) -> tuple[Any, tuple[Any, ...], bool]:
    """A type hint's origin, arguments and whether it is a dataclass, found once per hint:
    `convert` asks for them of every value."""
    return get_origin(tp), get_args(tp), dataclasses.is_dataclass(tp)


def _same_shape(value: Any, tp: Any) -> bool:
    """Whether `value` is a mapping and `tp` one (a dataclass or a dict), or both lists."""
    origin, _, is_dataclass = _shape(tp)
    if isinstance(value, dict):
        return is_dataclass or origin is dict
    return isinstance(value, list) and origin in (list, tuple)


def convert(value: Any, tp: Any, loc: Location, problems: Problems, what: str) -> Any:
    """Check `value` against the type hint `tp`; return the converted value or MISSING."""
    if tp in _PLAIN_TYPES:  # a plain type first, told without looking the hint up
        got = _plain(value, tp)
        if got is MISSING:
            problems.error(loc, "schema-type", f"{what} is {shown(value)}; expected {describe(tp)}")
        return got
    return _convert_shaped(value, tp, loc, problems, what)


_PLAIN_TYPES = frozenset({float, str, int, bool, Any})  # what `_plain` converts


def _plain(value: Any, tp: Any) -> Any:
    """`convert` for a plain type (float, str, int, bool, Any), without reporting: every
    number of every box is one, and so is the first member of most unions."""
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif tp is str:
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is bool:
        if isinstance(value, bool):
            return value
    else:
        return value
    return MISSING


def _convert_shaped(value: Any, tp: Any, loc: Location, problems: Problems, what: str) -> Any:
    """`convert` for a hint of a shape: a union, a literal, a list, a tuple, a mapping, a dataclass."""
    origin, args, is_dataclass = _shape(tp)
    if value is None and origin in (list, dict):  # `key:` with nothing after it: empty
        return [] if origin is list else {}
    if origin in (Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        for arg in args:  # first match wins; try without reporting
            if arg in _PLAIN_TYPES:
                got = _plain(value, arg)
                if got is not MISSING:
                    return got
                continue
            trial = Problems()
            result = convert(value, arg, loc, trial, what)
            if result is not MISSING and not trial.errors:
                return result
        shaped = [arg for arg in args if _same_shape(value, arg)]
        if len(shaped) == 1:  # a mapping where one member is a mapping: what is wrong inside it, not "is a mapping; expected ... a mapping"
            return convert(value, shaped[0], loc, problems, what)
        problems.error(loc, "schema-type", f"{what} is {shown(value)}; expected {describe(tp)}")
        return MISSING
    if origin is Literal:
        if value in args:
            return value
        choices = [str(a) for a in args]
        problems.error(loc, "schema-value", f"{what} is {shown(value)}; expected {describe(tp)}{suggest(str(value), choices)}")
        return MISSING
    if origin is list:
        if isinstance(value, list):
            (item_tp,) = args
            out = []
            for i, item in enumerate(value):
                item_loc = value.loc_of(i) if isinstance(value, LList) else loc
                got = convert(item, item_tp, item_loc, problems, f"item {i + 1} of {what}")
                if got is not MISSING:
                    out.append(got)
            return out
    elif origin is tuple:
        if isinstance(value, list) and len(value) == len(args):
            out = [convert(v, a, loc, problems, what) for v, a in zip(value, args)]
            return MISSING if MISSING in out else tuple(out)
    elif origin is dict:
        if isinstance(value, dict):
            _, val_tp = args
            out = {}
            for key, item in value.items():
                item_loc = value.loc_of(key) if isinstance(value, LMap) else loc
                got = convert(item, val_tp, item_loc, problems, f"'{key}'")
                if got is not MISSING:
                    out[str(key)] = got
            return out
    elif is_dataclass:
        if isinstance(value, dict):
            return build(tp, value, problems, what)
    problems.error(loc, "schema-type", f"{what} is {shown(value)}; expected {describe(tp)}")
    return MISSING


def build(cls: type, mapping: dict, problems: Problems, what: str, also: tuple[str, ...] = ()) -> Any:
    """Build dataclass `cls` from a located mapping; unknown keys and missing ones are errors.
    `also`: keys the caller took out of the mapping before (every layout element's
    `rotate:`), named with the fields where a key is unknown, so a misspelt one is
    suggested and the list of what was expected is whole."""
    hints, fields, required, located = _spec(cls)
    located_mapping = isinstance(mapping, LMap)
    loc = mapping.loc if located_mapping else Location("?")
    kwargs: dict[str, Any] = {}
    for key, value in mapping.items():
        name = str(key).replace("-", "_")
        if name not in fields:
            known = [*fields, *(k for k in also if k not in fields)]
            key_loc = mapping.key_locs.get(key, loc) if located_mapping else loc
            problems.error(key_loc, "schema-unknown-key", f"unknown key '{key}' in {what}{suggest(str(key), known)}; expected one of: {', '.join(known)}")
            continue
        value_loc = mapping.loc_of(key) if located_mapping else loc
        got = convert(value, hints[name], value_loc, problems, f"'{key}'")
        if got is not MISSING:
            kwargs[name] = got
    if required and any(name not in kwargs for name in required):  # a missing key is told from one whose value was wrong
        present = {str(k).replace("-", "_") for k in mapping}
        for name in required:
            if name not in present:
                problems.error(loc, "schema-missing-key", f"{what} has no '{name}'; expected a value for it ({describe(hints[name])})")
        return MISSING
    obj = cls(**kwargs)
    if located:
        object.__setattr__(obj, "_loc", loc)
    return obj


def shown(value: Any) -> str:
    """A value as a message quotes it: its kind for a mapping, a list or nothing, else as
    written (YAML's true and false as such), shortened."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "empty"
    text = str(value).lower() if isinstance(value, bool) else repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "...'"
