"""Expressions and templates: the one sandboxed Jinja environment a game is written in.
Layouts (`{{ title }}` texts and `when:`), rules (`where:`, `expect:`, `expression:`,
graph `some:` and messages), deals (`include:`) and rulebooks (Markdown with `{{ }}`)
all see names the same way, and all report a mistake the same way.

The names an expression sees:

  1. pnp's names (load.model.PROVIDED_NAMES): game, strings, symbol_names, enums,
     decks, component, components, deals, values, total; `card`, the component the
     expression is about, and its id, type, copies and deck
  2. the decks, by id: the list of their components
  3. the component's own fields
  4. what the place binds (lang and mode in a rulebook, value and group in a rule with
     for_each, name in a reference message, deal in deals.include, n on a track, cell,
     border, ...): these alone may be named like a field, and hide it in that place

No field may be named like one of pnp's names or a deck (load/game.py refuses it where
it is declared), so a name means one thing for every game: `type` is always the
component's type, and `card.NAME` is the field NAME for any NAME but id, type, copies
and deck. An optional field left out is None. A field that only other component types declare is None too, named alone or on
`card` and the items of `components` (an expression about each component may visit
several types); the components of one deck are of one type, so there a field their
type lacks is a mistake. Any other name is undefined: an error at the expression, with
the closest name that exists. The environment is strict and sandboxed: templates cannot
reach Python internals, and a misspelt name never quietly means "nothing".
"""

from __future__ import annotations

import ast
import operator
import re
import sys
from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from numbers import Number
from types import ModuleType
from typing import Any, NamedTuple

from pnp.base.errors import Location, Problems, one_of
from pnp.load.model import COMPONENT_NAMES, Card, EnumValue, Game, game_info
from pnp.load.schema import suggest
from pnp.templates.budget import CONTAINERS, MAX_DIGITS, MAX_LENGTH, MAX_STEPS, PER_STEP, SIZED, joined_size, steps, text_size, text_steps
from pnp.templates.plurals import Plurals

CODE = "template"  # the code of every expression or template that cannot be evaluated or filled in
NO_DECKS = "nothing: the game defines no decks"
NO_SYMBOLS = "nothing: the game defines no symbols"
_SEQUENCES = frozenset({list, tuple})  # what `_item` reads an item of, with the mappings (_MAPPINGS, after them below)
_DICT_VIEWS = frozenset({type({}.keys()), type({}.values()), type({}.items())})


_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_LONE_TEMPLATE = re.compile(
    rf"\{{\{{-?\s*({_NAME}(?:\s*\.\s*{_NAME})*)(?:\s*\}}\}}|\s+-\}}\}})\n?"
)  # a template of one name (Strings: which strings need no filling in)
# A template of text and `{{ expression }}` tags alone (`{{-` and ` -}}` strip the
# whitespace beside them, and one newline at the end is dropped, as Jinja does): each
# expression may be simple (`_simple`: a lone name such as `{{ title }}` is one), and the
# template is then written without Jinja when Jinja would write every value as str() does
# or as nothing (`_as_written`). No { or } inside a tag, so no text literal can hide its
# end; no { in the text between, so no other tag ({% %}, {# #}) and no brace that Jinja
# would read as the start of one.
_TAG = re.compile(r"\{\{(-?)([^{}]*?)(\s-)?\}\}")
_NOT_NAMES = frozenset({"true", "false", "none", "True", "False", "None", "not", "and", "or", "in", "is", "if", "else"})
_JINJA_GLOBALS = frozenset(
    {"range", "dict", "cycler", "joiner", "namespace", "_pnp_plural"}
)  # names Jinja finds before a deck of that name (sandbox.ENV.globals)
_LOWER_CONSTANTS = {"true": True, "false": False, "none": None}  # Jinja's constants, as well as True, False and None
_ABSENT = object()  # what the fast paths give where Jinja must say what an expression is


class _Unsure(Exception):
    """Raised where Python cannot be sure to give what Jinja gives: Jinja evaluates it."""


class _Spent:
    """What a simple expression or template spends of its budget (budget.py), counted as
    the sandbox counts it or more: past `limit` Python stops, and Jinja evaluates it (and
    says what was over)."""

    __slots__ = ("limit", "steps")

    def __init__(self, limit: int):
        self.steps = 0
        self.limit = limit

    def spend(self, *values: Any) -> None:
        self.steps += steps(values)
        if self.steps > self.limit:
            raise _Unsure("budget")

    def spend_text(self, text: str) -> None:
        """`spend(text)` for a text alone (what a template writes), without the general count."""
        self.steps += text_steps(text)
        if self.steps > self.limit:
            raise _Unsure("budget")


class _Lazy:
    """What Jinja's select, reject, selectattr, rejectattr, map and unique give: a
    generator. Here its items, for what takes a generator as it takes a list (those
    filters, list and join); anywhere else (a comparison, a length, `in`, the value of the
    whole) Jinja evaluates it."""

    __slots__ = ("items",)

    def __init__(self, items: list[Any]):
        self.items = items

    def _unsure(self, *args: Any) -> Any:
        raise _Unsure("generator")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __bool__ = __iter__ = __contains__ = __len__ = __str__ = __hash__ = _unsure  # type: ignore[assignment]


def _attribute(value: Any, name: str) -> Any:
    """`value.name` as the sandbox's getattr reads it (getattr first, then the item; an
    underscore or unsafe attribute refused), for the values whose getattr is known without
    trying it: an enumeration value's attribute (none of a text's, nor `attrs`, comes
    first) and a key of a plain dict, a component's view or `strings` (no dict method of
    that name comes first: a key named `items` goes to Jinja, which finds the method).
    Anything else raises (a missing key, KeyError): Jinja says what it is."""
    kind = type(value)
    if kind is EnumValue:
        if name in value.attrs and not name.startswith("_") and name != "attrs" and not hasattr(EnumValue, name):
            return value.attrs[name]
    elif kind in _MAPPINGS and not hasattr(kind, name):
        return value[name]  # what Jinja's getattr falls back to; a field other types declare is None here too
    elif kind is Decks and name in value and not name.startswith("_") and not hasattr(Decks, name):
        return value[name]  # a deck's views, as Decks.__getattr__ gives them (`decks.goals`)
    raise _Unsure(name)


def _item(value: Any, key: int | str) -> Any:
    """`value[key]` as the sandbox's getitem reads it, for a list, a tuple or a mapping of
    `_attribute`'s: the item, which Jinja tries first. What has no such item raises
    (IndexError, KeyError): Jinja then tries an attribute or says what is missing."""
    if type(value) in _SEQUENCES or type(value) in _MAPPINGS:
        return value[key]
    raise _Unsure(key)


def _key(key: Any) -> Any:
    """An item's key that is not a literal (`costs[i]`): a whole number or a text, which
    Jinja's getitem tries as Python does; anything else, Jinja."""
    if type(key) not in (int, str, bool, EnumValue):
        raise _Unsure("key")
    return key


def _got(value: Any, parts: tuple[int | str, ...]) -> Any:
    """What a filter's `attribute` (`selectattr('empire')`, `map(attribute='name')`) reads of
    an item: per dotted part, Jinja's getitem (an item first, then an attribute), a part of
    digits an index. A key is read as `_attribute` reads it (a key named like a dict method
    goes to Jinja), an index as `_item`: anything else raises, and Jinja says what it is."""
    for part in parts:
        value = _item(value, part) if type(part) is int else _attribute(value, part)
    return value


def _length(value: Any) -> int:
    """`value | length` (Jinja's filter is len), for a text, list, tuple or dict not longer
    than MAX_LENGTH (what the sandbox's budget spends on it stays far within its limit);
    anything else, such as a number (which has no length), raises: Jinja says it."""
    if isinstance(value, (str, list, tuple, dict)) and len(value) <= MAX_LENGTH:
        return len(value)
    raise _Unsure("length")


def _text_test(value: Any, name: str, text: str) -> bool:
    """`value.startswith(text)` or `value.endswith(text)`, with `text` a text literal, for a
    text not longer than MAX_LENGTH: the sandbox calls str's own method (its getattr finds
    it first, and neither has a check of its own); anything else raises: Jinja says it."""
    if type(value) is str and len(value) <= MAX_LENGTH:
        return value.startswith(text) if name == "startswith" else value.endswith(text)
    raise _Unsure(name)


def _short(value: Any) -> Any:
    """The right side of a comparison (the sandbox spends a step per hundred of its items),
    unless it is longer than MAX_LENGTH: Jinja then counts what it spends."""
    if isinstance(value, SIZED) and len(value) > MAX_LENGTH:
        raise _Unsure("long")
    return value


# --- the filters, tests, calls and `~` Python evaluates as the sandbox does --------------
# Each spends what the sandbox's spends (sandbox._budgeted: a step, and one per hundred
# items of the filtered value, the positional arguments and the result; `call`: of the
# owner, arguments and result; `joined`: of the text), and raises where the sandbox would
# refuse or Jinja might do otherwise: Jinja then evaluates it and says why.


def _items(value: Any) -> list[Any]:
    """The items a filter goes through: a generator's (`_Lazy`), or those of a list, tuple,
    text, dict or view (its keys), a dict's keys, values or items; anything else, Jinja."""
    if type(value) is _Lazy:
        return value.items
    if (type(value) in _ITERABLES or type(value) in _DICT_VIEWS) and len(value) <= MAX_LENGTH:
        return list(value)
    raise _Unsure("items")


def _made(value: Any) -> Any:
    """`value`, unless the sandbox would refuse it as too long (sandbox._made)."""
    if isinstance(value, SIZED) and len(value) > MAX_LENGTH:
        raise _Unsure("long")
    return value


def _in(value: Any, seq: Any) -> bool:
    return value in seq


_TESTS: dict[str, Callable[[Any, Any], Any]] = {  # Jinja's tests of two values (jinja2.tests.TESTS; a test checks they are its)
    "in": _in,
    **dict.fromkeys(("==", "eq", "equalto"), operator.eq),
    **dict.fromkeys(("!=", "ne"), operator.ne),
    **dict.fromkeys((">", "gt", "greaterthan"), operator.gt),
    **dict.fromkeys((">=", "ge"), operator.ge),
    **dict.fromkeys(("<", "lt", "lessthan"), operator.lt),
    **dict.fromkeys(("<=", "le"), operator.le),
}


def _select(spent: _Spent, value: Any, attribute: tuple[str, tuple] | None, test: str | None, args: tuple, keep: bool) -> _Lazy:
    """select, reject (`attribute` None), selectattr and rejectattr (`attribute` as written,
    and its parts): the items whose value (or attribute) passes the test (or is true, with
    no test), or fails it for reject."""
    spent.spend(value, *(attribute[:1] if attribute is not None else ()), *((test,) if test is not None else ()), *args)
    parts = attribute[1] if attribute is not None else None
    chosen = []
    check = _TESTS[test] if test is not None else None
    for item in _items(value):
        seen = item if parts is None else _got(item, parts)
        if check is None:
            passed = bool(seen)
        else:
            if isinstance(seen, CONTAINERS) and text_size(seen) > MAX_LENGTH:  # the sandbox refuses a test of such a value
                raise _Unsure("long")
            passed = check(seen, *args)
            spent.spend(seen, *args)
        if bool(passed) is keep:
            chosen.append(item)
    return _Lazy(chosen)


def _mapped(spent: _Spent, value: Any, parts: tuple) -> _Lazy:
    """map(attribute='name'): each item's attribute."""
    spent.spend(value)
    return _Lazy([_got(item, parts) for item in _items(value)])


def _unique(spent: _Spent, value: Any, parts: tuple, case_sensitive: bool) -> _Lazy:
    """unique: the items whose value (or attribute), lower-cased if a text unless
    `case_sensitive`, was not seen before, in their order."""
    spent.spend(value)
    seen: set[Any] = set()
    chosen = []
    for item in _items(value):
        key = _got(item, parts)
        if not case_sensitive and isinstance(key, str):
            key = key.lower()
        if key not in seen:
            seen.add(key)
            chosen.append(item)
    return _Lazy(chosen)


def _listed(spent: _Spent, value: Any) -> list[Any]:
    """list."""
    result = _made(list(_items(value)))
    spent.spend(value, result)
    return result


def _joined(spent: _Spent, value: Any, sep: Any, parts: tuple | None, positional: tuple) -> str:
    """join(sep), join(sep, attribute='name'): str of each item, `sep` between."""
    if isinstance(value, CONTAINERS) and text_size(value) > MAX_LENGTH:  # what the sandbox checks of a filter that makes text
        raise _Unsure("long")
    size = joined_size(sep, value)
    if size is not None and size > MAX_LENGTH:
        raise _Unsure("long")
    items = _items(value)
    if parts is not None:
        items = [_got(item, parts) for item in items]
    result = _made(str(sep).join(map(str, items)))
    spent.spend(value, *positional, result)
    return result


_WRITTEN_AS_TEXT = (str, int, float)  # what `~` and a call's argument may be here (bool is an int; None is allowed too)


def _concat(spent: _Spent, left: Any, right: Any) -> str:
    """`left ~ right`: both as str() writes them (Jinja's str_join), for texts, numbers and
    None; the text spends as the sandbox's `joined` does."""
    if not (left is None or isinstance(left, _WRITTEN_AS_TEXT)) or not (right is None or isinstance(right, _WRITTEN_AS_TEXT)):
        raise _Unsure("~")
    text = _made(str(left) + str(right))
    spent.spend(text)
    return text


_NUMBERS = frozenset({int, float, bool})  # what arithmetic and a number's sign are evaluated here for
_ARITHMETIC = {
    ast.Add: ("+", operator.add),
    ast.Sub: ("-", operator.sub),
    ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv),
    ast.FloorDiv: ("//", operator.floordiv),
    ast.Mod: ("%", operator.mod),
}
_BITS = MAX_DIGITS * 3.33  # of a whole number the sandbox lets an operator make (sandbox._made)


def _arithmetic(function: Callable[[Any, Any], Any], left: Any, right: Any) -> Any:
    """`left + right` and the like, for numbers (Jinja runs Python's operator; the sandbox
    refuses a product or a result of more than MAX_DIGITS digits, and a text's % formats:
    Jinja is left those)."""
    if type(left) not in _NUMBERS or type(right) not in _NUMBERS:
        raise _Unsure("arithmetic")
    if function is operator.mul and type(left) is not float and type(right) is not float and left.bit_length() + right.bit_length() > _BITS:
        raise _Unsure("big")
    result = function(left, right)
    if type(result) is int and result.bit_length() > _BITS:
        raise _Unsure("big")
    return result


def _signed(negative: bool, value: Any) -> Any:
    """`-value` or `+value`, for a number."""
    if type(value) not in _NUMBERS:
        raise _Unsure("sign")
    return -value if negative else +value


_IS_TESTS: dict[str, Callable[[Any], bool]] = {  # Jinja's tests of one value a simple expression may name after `is` (jinja2.tests; a test checks they are its)
    "number": lambda value: isinstance(value, Number),
    "string": lambda value: isinstance(value, str),
    "none": lambda value: value is None,
    "integer": lambda value: isinstance(value, int) and value is not True and value is not False,
    "float": lambda value: isinstance(value, float),
    "boolean": lambda value: value is True or value is False,
    "true": lambda value: value is True,
    "false": lambda value: value is False,
}


def _is(spent: _Spent, value: Any, name: str) -> bool:
    """`value is name`: the test, spending what the sandbox's does (and refused, as there,
    for a list too long as text)."""
    if type(value) is _Lazy or (isinstance(value, CONTAINERS) and text_size(value) > MAX_LENGTH):
        raise _Unsure("is")
    result = _IS_TESTS[name](value)
    spent.spend(value, result)
    return result


_DICT_METHODS = frozenset({"keys", "values", "items"})


def _method(spent: _Spent, owner: Any, name: str) -> Any:
    """`owner.keys()`, `.values()` or `.items()` of a dict or a component's view (the
    sandbox's getattr finds the dict's method first, and calls it)."""
    if type(owner) is not dict and type(owner) is not View:
        raise _Unsure(name)
    result = getattr(owner, name)()
    spent.spend(_made(owner), result)
    return result


def _called(spent: _Spent, function: Any, *args: Any) -> Any:
    """`values(...)`, `total(...)`, `component(...)`: pnp's functions, called as the sandbox
    calls them (a generator as an argument goes to Jinja, which passes it on)."""
    if function is not values_of and function is not total and getattr(function, "__func__", None) is not Decks.component:
        raise _Unsure("call")
    if any(type(arg) is _Lazy for arg in args):
        raise _Unsure("generator")
    result = function(*args)
    spent.spend(getattr(function, "__self__", None), *args, result)
    return _made(result)


def _eager(value: Any) -> Any:
    """An item of a list literal, unless it is a generator (`_Lazy`): a list holding one is
    Jinja's."""
    if type(value) is _Lazy:
        raise _Unsure("generator")
    return value


# A simple expression: names, literals, the operators that Jinja compiles to the same
# Python operator (==, !=, <, <=, >, >=, in, not in, not, and, or, x if c else y, and
# + - * / // % and a sign of numbers), Jinja's tests of one value (`level is number`), an
# attribute (`empire.name`, `decks.goals`), an item (`disciplines[0]`, `game['title']`, `costs[i]`),
# `~` (`'west (' ~ names ~ ')'`), a text's startswith or endswith of a text literal
# (`id.startswith('common')`), a dict's keys(), values() or items(), pnp's functions
# (`values(cities, 'main')`) and the filters length, list, join, map(attribute=...),
# unique, select, reject, selectattr and rejectattr with the tests of two values
# (`'in'`, `'eq'`, ...): `kind == 'hry'`, `not capital`, `empire.adjective in text`,
# `enums.discipline | reject('in', used) | list | length > 0`, most of a game's `where:`,
# `when:` and deals. Jinja's own code for one runs these operators on the context's
# values, so Python runs them directly; the rest go through the helpers above, which do
# what the sandbox does where they are sure of it and raise elsewhere. Only ASCII names
# (not Jinja's constants) and attributes, plain quoted texts without escapes, decimal
# numbers (whole or with a point), lists of these, one operator per comparison, a filter's
# name, test and attribute as written (not computed), a filter or a test after a name, an
# attribute, an item, a call, a literal, another filter or brackets (where Jinja's filter
# and test bind as Python's | and `is` do: not `x + 1 is number`), a test followed by no
# word but and, or and else (Jinja would read it as the test's argument),
# `~` where Python's + would bind as Jinja's ~ does (`a ~ b | f` is not), on one line;
# anything else, a name the context cannot give (as Jinja finds it: the context, Jinja's
# globals, then the decks and other types' fields) and any error goes to Jinja, which says
# what it is.
#
# The sandbox's budget (budget.py) cannot stop what Python evaluates: Jinja spends one step
# per comparison, filter, test and call, and one per hundred items of a comparison's right
# side, a filtered value or a call's text. The filters, tests, calls and `~` count what they
# spend as they go (`_Spent`); comparisons, lengths and text tests do not: each spends at most
# `_STATIC_STEPS` of a value not longer than MAX_LENGTH (`_short`, `_length`, `_text_test`;
# literals are shorter than the expression), an expression has at most _MAX_OPERATIONS of
# them, and what the rest may spend is what they leave. _MAX_DEPTH keeps it within what
# Jinja's parser and the Python it compiles to can nest.
_COMPARISONS = frozenset({ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn})
_MAY_BE_LAZY = (ast.BinOp, ast.BoolOp, ast.IfExp)  # what may give a generator (`_Lazy`): a filter, or a choice of one
_FILTERED = (ast.Name, ast.Attribute, ast.Subscript, ast.List, ast.Call, ast.Constant)  # what a filter may follow: Jinja's binds to it as Python's | does
_MAX_OPERATIONS = 64
_MAX_DEPTH = 32
_STATIC_STEPS = 1 + (MAX_LENGTH + 10_000) // PER_STEP  # a comparison, length or text test of an expression shorter than 10,000 characters
_MAX_SOURCE = 10_000
_TEXT_LITERAL = re.compile(r"'[^'\\\n]*'|\"[^\"\\\n]*\"")
_WHOLE_NUMBER = re.compile(r"[0-9]+")
_LEADING_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_DECIMAL = re.compile(r"[0-9]+\.[0-9]+")  # a number with a point, which Jinja reads as Python does
_ASCII_NAME = re.compile(_NAME)
_CTX, _SPENT = "_pnp_ctx", "_pnp_spent"  # the arguments of an expression's function: the context, whose names it reads as items, and its budget
_TEXT_TESTS = frozenset({"startswith", "endswith"})  # the methods `_text_test` calls
_SELECTS = {
    "select": (False, True),
    "reject": (False, False),
    "selectattr": (True, True),
    "rejectattr": (True, False),
}  # filter: (by an attribute, keeps what passes)
_HELPERS = {
    "__builtins__": {},
    "_pnp_attribute": _attribute,
    "_pnp_item": _item,
    "_pnp_key": _key,
    "_pnp_length": _length,
    "_pnp_short": _short,
    "_pnp_text_test": _text_test,
    "_pnp_select": _select,
    "_pnp_mapped": _mapped,
    "_pnp_unique": _unique,
    "_pnp_listed": _listed,
    "_pnp_joined": _joined,
    "_pnp_concat": _concat,
    "_pnp_method": _method,
    "_pnp_called": _called,
    "_pnp_eager": _eager,
    "_pnp_arithmetic": _arithmetic,
    "_pnp_signed": _signed,
    "_pnp_is": _is,
    **{f"_pnp_{function.__name__}": function for _, function in _ARITHMETIC.values()},
}


_AT = {"lineno": 1, "col_offset": 0}  # where every node made here is: compile asks, and ast.fix_missing_locations took most of the time making a function


def _constant(value: Any) -> ast.expr:
    return ast.Constant(value, **_AT)


def _name(name: str) -> ast.expr:
    return ast.Name(name, ast.Load(), **_AT)


def _call(helper: str, *args: ast.expr) -> ast.expr:
    return ast.Call(_name(helper), list(args), [], **_AT)


def _spending(helper: str, *args: ast.expr) -> ast.expr:
    return _call(helper, _name(_SPENT), *args)


def _tilde_as_plus(text: bytes) -> bytes:
    """The expression with each `~` outside a text literal written as `+`, which Python
    reads: `_Python` tells the two apart by what the expression itself says there."""
    out = bytearray(text)
    quote = 0
    for i, byte in enumerate(text):
        if quote:
            if byte == quote:
                quote = 0
        elif byte in b"'\"":
            quote = byte
        elif byte == 0x7E:  # ~
            out[i] = 0x2B  # +
    return bytes(out)


def _attribute_parts(attribute: str) -> tuple[int | str, ...]:
    """A filter's `attribute` as Jinja splits it (filters._prepare_attribute_parts)."""
    try:
        return tuple(int(part) if part.isdigit() else part for part in attribute.split("."))
    except ValueError:  # a digit int() does not read ('²'): Jinja says it
        raise _Unsure("attribute") from None


class _Python:
    """A simple expression's syntax tree (Python's reading of it) made into Python that
    evaluates it as Jinja does, or _Unsure where it is not simple."""

    def __init__(self, text: bytes):
        self.text = text  # the expression as written, to read what each literal and operator was written as (the nodes' offsets count UTF-8 bytes)
        self.names: set[str] = set()  # the names it reads of the context
        self.operations = 0

    def written(self, node: ast.AST) -> str:
        return self.text[node.col_offset : node.end_col_offset].decode()

    def between(self, left: ast.AST, right: ast.AST) -> bytes:
        """What is written between two nodes: an operator, with the brackets around them."""
        return self.text[left.end_col_offset : right.col_offset].strip()

    def literal(self, node: ast.AST) -> bool:
        """Whether `node` is a literal Jinja reads as Python does: a plain quoted text, a
        decimal whole number or one with a point, None, True or False."""
        if not isinstance(node, ast.Constant):
            return False
        if type(node.value) is str:
            written = self.written(node)
            return _TEXT_LITERAL.fullmatch(written) is not None and node.value == written[1:-1]
        if type(node.value) is int:
            return _WHOLE_NUMBER.fullmatch(self.written(node)) is not None
        if type(node.value) is float:
            return _DECIMAL.fullmatch(self.written(node)) is not None
        return node.value is None or type(node.value) is bool  # None, True, False: Jinja's constants too

    def text_literal(self, node: ast.AST) -> str:
        if not self.literal(node) or type(node.value) is not str:
            raise _Unsure("not a text")
        return node.value

    def made(self, node: ast.AST, depth: int = 0) -> ast.expr:
        if depth > _MAX_DEPTH:
            raise _Unsure("deep")
        depth += 1
        if isinstance(node, ast.Name) and node.id in _LOWER_CONSTANTS:
            return _constant(_LOWER_CONSTANTS[node.id])
        if isinstance(node, ast.Name):
            if node.id in _NOT_NAMES or not _ASCII_NAME.fullmatch(node.id):
                raise _Unsure(node.id)
            self.names.add(node.id)
            return ast.Subscript(_name(_CTX), _constant(node.id), ast.Load(), **_AT)
        if isinstance(node, ast.Constant):
            if not self.literal(node):
                raise _Unsure("literal")
            return node
        if isinstance(node, ast.List):
            items = [self.made(item, depth) for item in node.elts]
            return ast.List([_call("_pnp_eager", made) if isinstance(item, _MAY_BE_LAZY) else made for item, made in zip(node.elts, items)], ast.Load(), **_AT)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return ast.UnaryOp(ast.Not(), self.made(node.operand, depth), **_AT)
        if isinstance(node, ast.BoolOp):
            return ast.BoolOp(node.op, [self.made(value, depth) for value in node.values], **_AT)
        if isinstance(node, ast.IfExp):
            return ast.IfExp(self.made(node.test, depth), self.made(node.body, depth), self.made(node.orelse, depth), **_AT)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARISONS:
            self.operations += 1
            right = self.made(node.comparators[0], depth)
            if not isinstance(node.comparators[0], (ast.Constant, ast.List)):  # a literal is as short as the expression
                right = _call("_pnp_short", right)
            return ast.Compare(self.made(node.left, depth), node.ops, [right], **_AT)
        if isinstance(node, ast.Attribute) and _ASCII_NAME.fullmatch(node.attr):
            return _call("_pnp_attribute", self.made(node.value, depth), _constant(node.attr))
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, (ast.Slice, ast.Tuple)):
            literal = self.literal(node.slice) and type(node.slice.value) in (int, str)
            return _call("_pnp_item", self.made(node.value, depth), node.slice if literal else _call("_pnp_key", self.made(node.slice, depth)))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.filtered(node, depth)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and self.between(node.left, node.right).strip(b"() \t") == b"~":
            if isinstance(node.left, ast.BinOp) and type(node.left.op) in (ast.Add, ast.Sub) and not self.between(node.left, node.right).startswith(b")"):
                if self.between(node.left.left, node.left.right).strip(b"() \t") != b"~":
                    raise _Unsure("~")  # `a + b ~ c`: Jinja joins b and c first
            return _spending("_pnp_concat", self.made(node.left, depth), self.made(node.right, depth))
        if (
            isinstance(node, ast.BinOp)
            and type(node.op) in _ARITHMETIC
            and self.between(node.left, node.right).strip(b"() \t") == _ARITHMETIC[type(node.op)][0].encode()
        ):
            self.operations += 1
            function = _name(f"_pnp_{_ARITHMETIC[type(node.op)][1].__name__}")
            return _call("_pnp_arithmetic", function, self.made(node.left, depth), self.made(node.right, depth))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            negative = isinstance(node.op, ast.USub)
            if self.text[node.col_offset : node.col_offset + 1] != (b"-" if negative else b"+"):  # `~ x`, read as `+ x`: Jinja cannot read it
                raise _Unsure("sign")
            return _call("_pnp_signed", _constant(negative), self.made(node.operand, depth))
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in (ast.Is, ast.IsNot):
            return self.tested(node, depth)
        if isinstance(node, ast.Call) and not node.keywords and not any(isinstance(arg, ast.Starred) for arg in node.args):
            return self.called(node, depth)
        raise _Unsure(type(node).__name__)

    def called(self, node: ast.Call, depth: int) -> ast.expr:
        """A text test (`id.startswith('x')`), a dict's keys(), values() or items(), or one
        of pnp's functions by its name (`values(cities, 'main')`)."""
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in _TEXT_TESTS
            and len(node.args) == 1
            and self.literal(node.args[0])
            and type(node.args[0].value) is str
        ):
            self.operations += 1
            return _call("_pnp_text_test", self.made(func.value, depth), _constant(func.attr), node.args[0])
        if isinstance(func, ast.Attribute) and func.attr in _DICT_METHODS and not node.args:
            return _spending("_pnp_method", self.made(func.value, depth), _constant(func.attr))
        if isinstance(func, ast.Name):
            return _spending("_pnp_called", self.made(func, depth), *(self.made(arg, depth) for arg in node.args))
        raise _Unsure("call")

    def subject(self, left: ast.AST, right: ast.AST, word: bytes) -> None:
        """That a filter's or a test's subject (`left`, before `word`, `|` or `is`) is what
        Jinja's filter or test binds to as Python binds it: a name, an attribute, an item,
        a call, a literal, another filter, or anything in brackets (`(a ~ b) | f`); not
        `a ~ b | f`, where Jinja filters b."""
        written = b" ".join(self.between(left, right).split())
        if written == word and (isinstance(left, _FILTERED) or (isinstance(left, ast.BinOp) and isinstance(left.op, ast.BitOr))):
            return
        if written.endswith(word) and written[: -len(word)].replace(b" ", b"").strip(b")") == b"" and written != word:
            return
        raise _Unsure("binds")

    def tested(self, node: ast.Compare, depth: int) -> ast.expr:
        """`value is number`, `value is not none`: one of Jinja's tests of one value, named
        as written, after what Jinja's test binds to."""
        test = node.comparators[0]
        if not isinstance(test, ast.Name) or test.id not in _IS_TESTS or self.written(test) != test.id:
            raise _Unsure("is")
        after = _LEADING_WORD.match(self.text[test.end_col_offset :].lstrip())
        if after is not None and after.group() not in (b"and", b"or", b"else"):
            raise _Unsure("is")  # `x is number if c else d`: Jinja reads the word after a test as its argument
        negated = isinstance(node.ops[0], ast.IsNot)
        self.subject(node.left, test, b"is not" if negated else b"is")
        tested = _spending("_pnp_is", self.made(node.left, depth), _constant(test.id))
        return ast.UnaryOp(ast.Not(), tested, **_AT) if negated else tested

    def filtered(self, node: ast.BinOp, depth: int) -> ast.expr:
        """`value | filter` or `value | filter(arguments)`: a filter of those above, its
        name as written right after the bar, after what Jinja's filter binds to."""
        left, right = node.left, node.right
        self.subject(left, right, b"|")  # not `x | (f)`, which Jinja cannot read
        call = right if isinstance(right, ast.Call) else None
        name = call.func if call is not None else right
        if not isinstance(name, ast.Name) or self.written(name) != name.id or name.col_offset != right.col_offset:  # not `x | (f)(a)`
            raise _Unsure("filter")
        args = call.args if call is not None else []
        keywords = {keyword.arg: keyword.value for keyword in call.keywords} if call is not None else {}
        if any(isinstance(arg, ast.Starred) for arg in args) or None in keywords:
            raise _Unsure("arguments")
        value = self.made(left, depth)
        filter_name = name.id
        if filter_name == "length" and call is None:
            self.operations += 1
            return _call("_pnp_length", value)
        if filter_name == "list" and call is None:
            return _spending("_pnp_listed", value)
        if filter_name in _SELECTS and not keywords:
            by_attribute, keep = _SELECTS[filter_name]
            attribute = None
            if by_attribute:
                if not args:
                    raise _Unsure("attribute")
                written = self.text_literal(args[0])
                attribute = (written, _attribute_parts(written))
                args = args[1:]
            test = self.text_literal(args[0]) if args else None
            if test is not None and (test not in _TESTS or len(args) != 2):
                raise _Unsure("test")
            rest = [self.made(arg, depth) for arg in args[1:]]
            return _spending("_pnp_select", value, _constant(attribute), _constant(test), ast.Tuple(rest, ast.Load(), **_AT), _constant(keep))
        if filter_name == "map" and not args and set(keywords) == {"attribute"}:
            return _spending("_pnp_mapped", value, _constant(_attribute_parts(self.text_literal(keywords["attribute"]))))
        if filter_name == "unique" and not args and set(keywords) <= {"attribute", "case_sensitive"}:
            parts = _attribute_parts(self.text_literal(keywords["attribute"])) if "attribute" in keywords else ()
            case = self.made(keywords["case_sensitive"], depth) if "case_sensitive" in keywords else _constant(False)
            if not isinstance(case, ast.Constant) or type(case.value) is not bool:
                raise _Unsure("case_sensitive")
            return _spending("_pnp_unique", value, _constant(parts), case)
        if filter_name == "join" and len(args) <= 1 and set(keywords) <= {"attribute"} | (set() if args else {"d"}):
            sep = args[0] if args else keywords.get("d")
            parts = _attribute_parts(self.text_literal(keywords["attribute"])) if "attribute" in keywords else None
            made_sep = self.made(sep, depth) if sep is not None else _constant("")
            positional = ast.Tuple([made_sep] if args else [], ast.Load(), **_AT)
            return _spending("_pnp_joined", value, made_sep, _constant(parts), positional)
        raise _Unsure(filter_name)


@lru_cache(maxsize=1024)
def _simple(source: str) -> tuple[Any, frozenset[str], int] | None:
    """The Python function of an expression that evaluates it as Jinja would (see above),
    given the context and a budget, with the names it reads and what its comparisons,
    lengths and text tests may spend at most; or None: Jinja evaluates it."""
    if "\n" in source or "\r" in source or "\\" in source or len(source) > _MAX_SOURCE:  # one line, as Jinja and Python both read it
        return None
    text = source.strip().encode()
    try:
        tree = ast.parse(_tilde_as_plus(text), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    python = _Python(text)
    if python.text[tree.body.end_col_offset :].strip(b") \t\f"):  # a `# comment` after it: Python ignores it, Jinja cannot read it
        return None
    try:
        body = python.made(tree.body)
    except _Unsure:
        return None
    if python.operations > _MAX_OPERATIONS:
        return None
    arguments = ast.arguments(posonlyargs=[], args=[ast.arg(_CTX, **_AT), ast.arg(_SPENT, **_AT)], kwonlyargs=[], kw_defaults=[], defaults=[])
    function = ast.Expression(ast.Lambda(arguments, body, **_AT))
    code = compile(function, "<expression>", "eval")
    return eval(code, _HELPERS), frozenset(python.names), python.operations * _STATIC_STEPS  # noqa: S307 - made by _Python of the operators above only


def _named(ctx: dict[str, Any], names: frozenset[str]) -> dict[str, Any] | None:
    """The context with every name of `names` in it, found as Jinja finds a name the
    context lacks (sandbox._Context: its globals, then the decks and the fields other
    types declare); None where that is not one of these: Jinja says what it is."""
    if ctx.keys() >= names:
        return ctx
    decks = ctx.get("decks")
    if type(decks) is not Decks:
        return None
    found = dict(ctx)
    for name in names:
        if name not in ctx:
            value = _ABSENT if name in _JINJA_GLOBALS else decks._resolve(name, "card" in ctx, _ABSENT)
            if value is _ABSENT:
                return None
            found[name] = value
    return found


def _final(value: Any) -> bool:
    """Whether a simple expression's value is one Jinja gives as it is (not a generator, nor
    a dict's view, which compares by what it is, not by its items)."""
    return type(value) is not _Lazy and type(value) not in _DICT_VIEWS


def _evaluated_simply(source: str, ctx: dict[str, Any]) -> Any:
    """The value of a simple expression (`_simple`), or _ABSENT where Jinja must evaluate it."""
    simple = _simple(source)
    if simple is None:
        return _ABSENT
    function, names, static = simple
    named = _named(ctx, names)
    if named is None:
        return _ABSENT
    try:
        value = function(named, _Spent(MAX_STEPS - static))
    except Exception:  # Jinja raises the same, or finds what a helper left to it, and says it as it does
        return _ABSENT
    return value if _final(value) else _ABSENT


class _Template(NamedTuple):
    """A template of text and simple expressions, read once (`_simple_template`): its
    pieces, each a text to write as it is or an expression's `_simple`, and what every
    filling of it needs of them alike: the names they read, and what they may spend."""

    pieces: tuple[Any, ...]
    names: frozenset[str]
    static: int


@lru_cache(maxsize=4096)
def _simple_template(source: str) -> _Template | None:
    """A template of text and simple expressions (`_TAG`) as a `_Template`; None for any
    other template."""
    if "\r" in source:  # Jinja writes every line break as \n
        return None
    text = source[:-1] if source.endswith("\n") else source  # Jinja drops one newline at the end
    pieces: list[Any] = []
    strip_next = False
    at = 0
    for tag in _TAG.finditer(text):
        between = text[at : tag.start()]
        if strip_next:
            between = between.lstrip()
        if tag.group(1):
            between = between.rstrip()
        if "{" in between:
            return None
        if between:
            pieces.append(between)
        simple = _simple(tag.group(2))
        if simple is None:
            return None
        pieces.append(simple)
        strip_next = tag.group(3) is not None
        at = tag.end()
    rest = text[at:].lstrip() if strip_next else text[at:]
    if "{" in rest:
        return None
    if rest:
        pieces.append(rest)
    expressions = [piece for piece in pieces if type(piece) is tuple]
    return _Template(tuple(pieces), frozenset().union(*(names for _, names, _ in expressions)), sum(static for _, _, static in expressions))


def _as_written(value: Any) -> str | None:
    """What Jinja writes for a value it writes as str() does (a text, a whole number, true
    or false, an enumeration value) or as nothing (None), within what it may write; None for any
    other value (Jinja writes it, or says why not)."""
    kind = type(value)
    if kind is str or kind is EnumValue:
        return str(value) if len(value) <= MAX_LENGTH else None
    if value is None:
        return ""
    if kind is bool:
        return str(value)
    if kind is int and -(10**18) < value < 10**18:
        return str(value)
    return None


def _written_simply(source: str, ctx: dict[str, Any]) -> str | None:
    """What a template of text and simple expressions writes ('{{ title }}', '**{{
    strings.condition }}** {{ condition }}'), found without Jinja, or None: Jinja fills
    it in. Each piece spends what the sandbox's writing of it does."""
    template = _simple_template(source)
    if template is None:
        return None
    named = _named(ctx, template.names)
    if named is None:
        return None
    spent = _Spent(MAX_STEPS - template.static)
    written = []
    size = 0
    try:
        for piece in template.pieces:
            if type(piece) is str:
                text = piece
            else:
                value = piece[0](named, spent)
                text = _as_written(value) if _final(value) else None
                if text is None:
                    return None
            spent.spend_text(text)
            size += len(text)
            if size > MAX_LENGTH:
                return None
            written.append(text)
    except Exception:  # Jinja raises the same, or finds what a helper left to it, and says it as it does
        return None
    return "".join(written)


def evaluate(source: str, ctx: dict[str, Any]) -> Any:
    """The value of an expression; raises on any failure, an undefined result included
    (`where: kidn` must not quietly select nothing)."""
    value = _evaluated_simply(source, ctx)  # a lone name is a simple expression
    if value is _ABSENT:
        value = _jinja().evaluated(source, ctx)
    if "jinja2" in sys.modules:  # Jinja's undefined, a result or a name bound to one, is refused (there is none without Jinja)
        _jinja().refuse_undefined(value)
    return value


def filled(source: str, ctx: dict[str, Any]) -> str:
    """A template filled in (by Jinja unless it is simple text and expressions); raises on
    any failure (fill_in reports it)."""
    written = _written_simply(source, ctx)
    if written is not None:
        return written
    sandbox = _jinja()
    return sandbox.rendered(sandbox.template(source), ctx)


@cache
def _jinja() -> ModuleType:
    """The sandbox (sandbox.py), imported when a template or expression first needs Jinja:
    a deck whose templates are all lone names never loads it."""
    from pnp.templates import sandbox  # here for speed: Jinja is slow to import

    return sandbox


def unreadable(source: str) -> str | None:
    """What Jinja says of a template it cannot read, or None: one rule for a template in the
    game's files and in a catalogue. A text with no {{ or {% is not read at all."""
    if "{{" not in source and "{%" not in source:
        return None
    sandbox = _jinja()
    try:
        sandbox.ENV.parse(source)
    except sandbox.TemplateSyntaxError as exc:
        return exc.message or str(exc)
    return None


FAILED = object()  # what `evaluate_at` returns for an expression that failed (and was reported)


def evaluate_at(source: str, ctx: dict[str, Any], loc: Location, what: str, problems: Problems, once: set | None = None) -> Any:
    """The value of an expression, or FAILED with the error reported at `loc` as '{what}: why'.
    With `once`, an undefined name is reported once per place, not once per component."""
    try:
        return evaluate(source, ctx)
    except Exception as exc:  # undefined names, sandbox refusals, errors inside the expression
        _report(exc, ctx, loc, what, problems, once)
    return FAILED


def fill_in(source: str, ctx: dict[str, Any], loc: Location, what: str, problems: Problems, once: set | None = None) -> str | None:
    """A template filled in, or None with the error reported at `loc` as '{what}: why'
    (an undefined name once per place, with `once`)."""
    if "{" not in source:
        return source
    written = _written_simply(source, ctx)
    if written is not None:
        return written
    try:
        return filled(source, ctx)
    except Exception as exc:
        _report(exc, ctx, loc, what, problems, once)
    return None


def _report(exc: Exception, ctx: dict[str, Any], loc: Location, what: str, problems: Problems, once: set | None) -> None:
    sandbox = _jinja()
    if once is not None and isinstance(exc, sandbox.UndefinedName) and exc.owner is sandbox.missing:  # the same for every component
        if (loc, exc.name) in once:
            return
        once.add((loc, exc.name))
    problems.error(loc, CODE, f"{what}: {explain(exc, ctx)}")


def explain(exc: BaseException, ctx: dict[str, Any]) -> str:
    """Why an expression failed, in words, with what was expected."""
    sandbox = _jinja()
    if isinstance(exc, sandbox.UndefinedName):
        return _undefined(exc, ctx)
    if isinstance(exc, UnknownComponent):
        return str(exc)  # it says what it expected
    if isinstance(exc, sandbox.TemplateSyntaxError):
        return f"cannot read it: {exc.message}; expected Jinja such as {{{{ title }}}} or cards | length"
    if isinstance(exc, sandbox.TemplateError):
        return exc.message or str(exc)
    if isinstance(exc, RecursionError):
        return "it calls itself without end (a macro that calls itself); expected a macro that stops calling itself"
    return f"{type(exc).__name__}: {exc}"


def _undefined(exc: Any, ctx: dict[str, Any]) -> str:
    """Why a name or attribute is undefined (a sandbox.UndefinedName), and what there is."""
    name, owner = exc.name, exc.owner
    if owner is _jinja().missing:
        decks = ctx.get("decks")
        per_component = "card" in ctx
        known = set(ctx) | (decks._names(per_component) if isinstance(decks, Decks) else set())
        expected = "a field of the component or a game value" if per_component else "a deck or a game value (game, enums, strings, ...)"
        return f"'{name}' is undefined{suggest(str(name), known)}; expected {expected}"
    if isinstance(owner, dict):
        keys = [str(key) for key in owner]
        what = f"component '{owner['id']}' has no field" if isinstance(owner, View) else "there is no key"
        return f"{what} '{name}'{suggest(str(name), keys)}; expected {one_of(keys, 'nothing: it is empty')}"
    if isinstance(owner, EnumValue):
        keys = list(owner.attrs)
        return f"'{owner}' has no attribute '{name}'{suggest(str(name), keys)}; expected {one_of(keys, f'nothing: {owner!r} has no attributes')}"
    return exc.message or str(exc)


# --- what expressions see ------------------------------------------------------------------


class View(dict):
    """What expressions see of a component: its fields, id, type, copies and deck. Names
    in `_blank` (fields other types declare) are None here rather than undefined."""

    __slots__ = ("_blank",)

    def __init__(self, items: dict[str, Any], blank: frozenset[str] = frozenset()):
        super().__init__(items)
        self._blank = blank

    def __missing__(self, key: str) -> Any:
        if key in self._blank:
            return None
        raise KeyError(key)


def card_view(card: Card, blank: frozenset[str] = frozenset()) -> View:
    """What expressions see of a card: its fields, id, type, copies and deck (no field
    is named like those: load/game.py refuses one)."""
    view = View(card.fields, blank)
    view.update({name: getattr(card, name) for name in COMPONENT_NAMES})
    return view


def read(card: Card, name: str) -> Any:
    """What a rule's field name (`unique: title`, `group_by: deck`) reads of a component:
    what `card.NAME` is in an expression, its id, type, copies or deck, or a field (no
    field is named like those four); None for a field it lacks."""
    return getattr(card, name) if name in COMPONENT_NAMES else card.fields.get(name)


def values_of(cards: list[dict], *names: str) -> list[Any]:
    """Distinct non-empty values of the given fields over cards, lists flattened."""
    found: list[Any] = []
    for card in cards:
        for name in names:
            value = card.get(name)
            for v in value if isinstance(value, list) else [value]:
                if v is not None and v not in found:
                    found.append(v)
    return found


def total(cards: list[dict]) -> int:
    """Printed copies of the cards."""
    return sum(card.get("copies", 1) for card in cards)


class UnknownComponent(LookupError):
    """`component(deck, id)` names a deck or an id that does not exist; the template's
    error handler reports it at the element (or rulebook line) that asked."""


class Decks:
    """Every deck's components by deck id, for templates: `decks.fields` or `decks['fields']`,
    a list of card views (id and fields). Not a dict, so a deck called `items` or `keys`
    is that deck and not a dict method. A deck's views are made when a template first asks
    for them: a layout that never looks at another deck costs nothing per card."""

    def __init__(self, game: Game):
        self._game = game
        self._decks = {deck_id: deck.cards for deck_id, deck in game.decks.items()}
        self._blank = frozenset(name for tdef in game.types.values() for name in tdef.fields)
        self._views: dict[str, list[View]] = {}
        self._by_id: dict[str, dict[str, View]] = {}
        self._all: dict[str, View] = {}  # component id -> its view with the blank fields
        self._components: list[View] | None = None
        self._deals: list[View] | None = None
        self.read: set[str] = set()  # the decks templates asked for: what a face set with them depends on

    def _deck(self, name: str) -> list[View]:
        self.read.add(name)
        views = self._views.get(name)
        if views is None:
            views = self._views[name] = [card_view(card) for card in self._decks[name]]
        return views

    def _view(self, card: Card) -> View:
        """The view of a component an expression is about, or of one of `components`."""
        view = self._all.get(card.id)
        if view is None:
            view = self._all[card.id] = card_view(card, self._blank)
        return view

    def _resolve(self, key: str, per_component: bool, absent: Any) -> Any:
        """The names of a context that are made when first used (sandbox.py asks); `absent`
        for the rest."""
        if key in self._decks:
            return self._deck(key)
        if key == "components":
            self.read.update(self._decks)
            if self._components is None:
                self._components = [self._view(card) for card in self._game.cards()]
            return self._components
        if key == "deals":
            if self._deals is None:
                self._deals = [card_view(deal) for deal in self._game.deals]
            return self._deals
        if per_component and key in self._blank:
            return None
        return absent

    def _names(self, per_component: bool) -> set[str]:
        return {*self._decks, "components", "deals", *(self._blank if per_component else ())}

    def component(self, deck: str, id: str) -> dict[str, Any]:
        """One component by deck and id, for templates: `component('starting', 'farm')`.
        A function, not `decks.starting.farm`: an id may be any word, a list method's too."""
        if deck not in self._decks:
            raise UnknownComponent(f"there is no deck '{deck}'{suggest(str(deck), self._decks)}; expected {one_of(self._decks, NO_DECKS)}")
        by_id = self._by_id.get(deck)
        if by_id is None:
            by_id = self._by_id[deck] = {view["id"]: view for view in self._deck(deck)}
        view = by_id.get(id)
        if view is None:
            ids = list(by_id)
            raise UnknownComponent(
                f"deck '{deck}' has no component '{id}'{suggest(str(id), ids)}; expected {one_of(ids, 'nothing: the deck has no components')}"
            )
        return view

    def __getattr__(self, name: str) -> list[View]:
        if name.startswith("_") or name not in self.__dict__.get("_decks", {}):
            raise AttributeError(name)
        return self._deck(name)

    def __getitem__(self, name: str) -> list[View]:
        return self._deck(name)

    def __contains__(self, name: object) -> bool:
        return name in self._decks

    def __iter__(self) -> Iterator[str]:
        return iter(self._decks)

    def __len__(self) -> int:
        return len(self._decks)


class Strings(dict):
    """`strings` as templates see them: a string that is itself a template ("{{ level }}
    {{ school }} spell", translated "Sort {{ school }} de niveau {{ level }}") is filled in
    with the names of the place that prints it, once per place; so a name built from parts
    is one string a translator can reorder."""

    __slots__ = ("_ctx", "_done", "_filling")

    def __init__(self, items: dict[str, Any], ctx: dict[str, Any]):
        super().__init__(items)
        self._ctx = ctx
        self._done: dict[str, str] = {}
        self._filling: set[str] = set()  # the strings being filled in: one that names itself, through others or not, is a mistake

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if not isinstance(value, str) or ("{{" not in value and "{%" not in value):
            return value
        if key in self._filling:
            raise _jinja().TemplateError(f"strings.{key} names itself; expected a string that names other strings, not itself")
        if key not in self._done:
            self._filling.add(key)
            try:
                self._done[key] = filled(value, self._ctx)
            except Exception as exc:
                where = f" ({value.loc})" if isinstance(getattr(value, "loc", None), Location) else ""
                raise _jinja().TemplateError(f"strings.{key}{where}: {explain(exc, self._ctx)}") from None
            finally:
                self._filling.discard(key)
        return self._done[key]


_MAPPINGS = frozenset({dict, View, Strings})  # the mappings whose attributes and items `_attribute` and `_item` read
_ITERABLES = frozenset({list, tuple, str, dict, View})  # what a filter goes through (`_items`)


def _templated(strings: dict[str, Any]) -> bool:
    return any(isinstance(v, str) and ("{{" in v or "{%" in v) for v in strings.values())


class Names:
    """The names of one game, in the order of the module docstring; `bound` are names the
    whole use binds (a rulebook's lang and mode)."""

    def __init__(self, game: Game, **bound: Any):
        meta = game.meta
        self.decks = Decks(game)
        self.base: dict[str, Any] = {
            "game": game_info(meta),
            "strings": dict(meta.strings),
            "symbol_names": dict(meta.symbol_names),
            "enums": game.enums,
            "decks": self.decks,
            "component": self.decks.component,
            "values": values_of,
            "total": total,
            "_pnp_plurals": game.plurals if game.plurals is not None else Plurals(meta.language),
            **bound,
        }
        self._templated = _templated(self.base["strings"])  # strings that are templates: filled in where they are printed
        # what the game says once, the same for every component (no field is named like
        # one: load/game.py refuses it)
        self._fixed = frozenset({"game", "symbol_names", "enums", *(() if self._templated else ("strings",))})

    def fixed(self, source: str) -> bool:
        """Whether a template (in a component's context, with no names bound) fills in the
        same for every component: it names nothing, or only what the game says once (its
        title, strings that are not templates, symbol names, enums), as names alone
        (`{{ game.title }}`). Anything else might not (a field, another deck, a filter):
        never a wrong yes, a no that costs only speed (renderer.py)."""
        if "{" not in source:
            return True
        names = [match.group(1).split(".", 1)[0].strip() for match in _LONE_TEMPLATE.finditer(source)]  # the lone names in it
        return "{" not in _LONE_TEMPLATE.sub("", source) and all(name in self._fixed for name in names)

    def view(self, card: Card) -> View:
        """The view of a component, as `card` and the items of `components` show it."""
        return self.decks._view(card)

    def of_game(self, **bindings: Any) -> dict[str, Any]:
        """The context of an expression about the whole game (a rulebook, a rule's expression:)."""
        ctx = {**self.base, **bindings}
        if self._templated:
            ctx["strings"] = Strings(self.base["strings"], ctx)
        return ctx

    def of(self, card: Card, **bindings: Any) -> dict[str, Any]:
        """The context of an expression about one component: its fields under pnp's names
        and the decks; `bindings` are what the place adds (value, deal, cell, ...)."""
        return self.around(self.view_of(card), **bindings)

    def view_of(self, card: Card, kept: dict[int, View] | None = None) -> View:
        """The view `of` shows of a component: the one `components` made, else one made
        anew, and kept in `kept` (by the card's id()) for a caller that asks of each card
        many times (the rules check); a face is drawn once, so `of` keeps none."""
        view = self.decks._all.get(card.id) or (kept.get(id(card)) if kept is not None else None)
        if view is None:
            view = card_view(card, self.decks._blank)
            if kept is not None:
                kept[id(card)] = view
        return view

    def around(self, view: View, **bindings: Any) -> dict[str, Any]:
        """The context of an expression about the component `view` shows (`of`): for a
        caller that evaluates many expressions about each component and keeps its views."""
        ctx = dict(view)
        ctx.update(self.base)
        ctx.update(bindings)
        ctx["card"] = view
        if self._templated:
            ctx["strings"] = Strings(self.base["strings"], ctx)
        return ctx
