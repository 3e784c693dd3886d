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
import re
import sys
from collections.abc import Iterator
from functools import cache, lru_cache
from types import ModuleType
from typing import Any

from pnp.base.errors import Location, Problems, one_of
from pnp.load.model import COMPONENT_NAMES, Card, EnumValue, Game, game_info
from pnp.load.schema import suggest
from pnp.templates.plurals import Plurals

CODE = "template"  # the code of every expression or template that cannot be evaluated or filled in
NO_DECKS = "nothing: the game defines no decks"
NO_SYMBOLS = "nothing: the game defines no symbols"
MAX_LENGTH = 1_000_000  # characters of a text, items of a list: what a template may write (sandbox.py checks the same)
_SIZED = (str, bytes, list, tuple, dict, set, frozenset)  # what the sandbox spends a step per hundred items of (sandbox.py)
_SEQUENCES = frozenset({list, tuple})  # what `_item` reads an item of, with the mappings (_MAPPINGS, after them below)


_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_LONE_TEMPLATE = re.compile(
    rf"\{{\{{-?\s*({_NAME}(?:\s*\.\s*{_NAME})*)(?:\s*\}}\}}|\s+-\}}\}})\n?"
)  # a template of one name (Strings: which strings need no filling in)
# A template that is one `{{ expression }}` and nothing else (`{{-`, ` -}}` and one newline
# after allowed: Jinja drops it): its expression may be simple (`_simple`: a lone name such
# as `{{ title }}` is one), and is then written without Jinja when Jinja would write its
# value as str() does or as nothing (`_as_written`). No { or } inside, so no text literal
# can hide the end of the tag.
_ONE_EXPRESSION = re.compile(r"\{\{-?([^{}]*?)(?:\s-)?\}\}\n?")
_NOT_NAMES = frozenset({"true", "false", "none", "True", "False", "None", "not", "and", "or", "in", "is", "if", "else"})
_ABSENT = object()  # what the fast paths give where Jinja must say what an expression is


class _Unsure(Exception):
    """Raised where Python cannot be sure to give what Jinja gives: Jinja evaluates it."""


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
    raise _Unsure(name)


def _item(value: Any, key: int | str) -> Any:
    """`value[key]` as the sandbox's getitem reads it, for a list, a tuple or a mapping of
    `_attribute`'s: the item, which Jinja tries first. What has no such item raises
    (IndexError, KeyError): Jinja then tries an attribute or says what is missing."""
    if type(value) in _SEQUENCES or type(value) in _MAPPINGS:
        return value[key]
    raise _Unsure(key)


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
    if isinstance(value, _SIZED) and len(value) > MAX_LENGTH:
        raise _Unsure("long")
    return value


@cache
def _jinja() -> ModuleType:
    """The sandbox (sandbox.py), imported when a template or expression first needs Jinja:
    a deck whose templates are all lone names never loads it."""
    from pnp.templates import sandbox  # here for speed: Jinja is slow to import

    return sandbox


# A simple expression: names, literals, the operators that Jinja compiles to the same
# Python operator (==, !=, <, <=, >, >=, in, not in, not, and, or, x if c else y), an
# attribute (`empire.name`), an item by a literal (`disciplines[0]`, `game['title']`),
# the `length` filter (`disciplines | length > 1`) and a text's startswith or endswith of
# a text literal (`id.startswith('common')`): `kind == 'hry'`, `not capital`,
# `empire.adjective in text`, most of a game's `where:`, `when:` and deals. Jinja's own
# code for one runs these operators on the context's values, so Python runs them directly;
# attributes, items, lengths and those two methods go through `_attribute`, `_item`,
# `_length` and `_text_test`, which
# do what the sandbox does where they are sure of it and raise elsewhere. Only ASCII names
# (not Jinja's constants) and attributes, plain quoted texts without escapes, decimal whole
# numbers, lists of these, one operator per comparison, `length` right after a name, an
# attribute, an item or a list (where Jinja's filter binds as Python's `|` does), on one
# line; anything else, a name the context lacks (Jinja finds decks and other types' fields
# lazily) and any error goes to Jinja, which says what it is.
#
# The sandbox's budget (sandbox.py) cannot stop what Python evaluates: Jinja spends one step
# per comparison, filter and call, and one per hundred items of a comparison's right side, a
# filtered value or a call's text; those are at most MAX_LENGTH long here (`_short`,
# `_length`, `_text_test`; literals
# are shorter than the expression), and an expression has at most _MAX_OPERATIONS of them,
# so it spends at most 64 * 10,001 steps, well under MAX_STEPS (1,000,000), and makes
# nothing longer than it reads. _MAX_DEPTH keeps it within what Jinja's parser and the
# Python it compiles to can nest.
_COMPARISONS = frozenset({ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn})
_FILTERED = (ast.Name, ast.Attribute, ast.Subscript, ast.List)  # what `x | length` may filter: Jinja's filter binds to it as Python's | does
_MAX_OPERATIONS = 64
_MAX_DEPTH = 32
_TEXT_LITERAL = re.compile(r"'[^'\\\n]*'|\"[^\"\\\n]*\"")
_WHOLE_NUMBER = re.compile(r"[0-9]+")
_ASCII_NAME = re.compile(_NAME)
_CTX = "_pnp_ctx"  # the one argument of an expression's function: the context, whose names it reads as items
_TEXT_TESTS = frozenset({"startswith", "endswith"})  # the methods `_text_test` calls
_HELPERS = {"__builtins__": {}, "_pnp_attribute": _attribute, "_pnp_item": _item, "_pnp_length": _length, "_pnp_short": _short, "_pnp_text_test": _text_test}


def _call(helper: str, *args: ast.expr) -> ast.expr:
    return ast.Call(ast.Name(helper, ast.Load()), list(args), [])


class _Python:
    """A simple expression's syntax tree (Python's reading of it) made into Python that
    evaluates it as Jinja does, or _Unsure where it is not simple."""

    def __init__(self, text: bytes):
        self.text = text  # the expression, to read what each literal was written as (the nodes' offsets count UTF-8 bytes)
        self.names: set[str] = set()  # the names it reads of the context
        self.operations = 0

    def written(self, node: ast.AST) -> str:
        return self.text[node.col_offset : node.end_col_offset].decode()

    def literal(self, node: ast.AST) -> bool:
        """Whether `node` is a literal Jinja reads as Python does: a plain quoted text, a
        decimal whole number, None, True or False."""
        if not isinstance(node, ast.Constant):
            return False
        if type(node.value) is str:
            return _TEXT_LITERAL.fullmatch(self.written(node)) is not None
        if type(node.value) is int:
            return _WHOLE_NUMBER.fullmatch(self.written(node)) is not None
        return node.value is None or type(node.value) is bool  # None, True, False: Jinja's constants too

    def made(self, node: ast.AST, depth: int = 0) -> ast.expr:
        if depth > _MAX_DEPTH:
            raise _Unsure("deep")
        depth += 1
        if isinstance(node, ast.Name):
            if node.id in _NOT_NAMES or not _ASCII_NAME.fullmatch(node.id):
                raise _Unsure(node.id)
            self.names.add(node.id)
            return ast.Subscript(ast.Name(_CTX, ast.Load()), ast.Constant(node.id), ast.Load())
        if isinstance(node, ast.Constant):
            if not self.literal(node):
                raise _Unsure("literal")
            return node
        if isinstance(node, ast.List):
            return ast.List([self.made(item, depth) for item in node.elts], ast.Load())
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return ast.UnaryOp(ast.Not(), self.made(node.operand, depth))
        if isinstance(node, ast.BoolOp):
            return ast.BoolOp(node.op, [self.made(value, depth) for value in node.values])
        if isinstance(node, ast.IfExp):
            return ast.IfExp(self.made(node.test, depth), self.made(node.body, depth), self.made(node.orelse, depth))
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARISONS:
            self.operations += 1
            right = self.made(node.comparators[0], depth)
            if not isinstance(node.comparators[0], (ast.Constant, ast.List)):  # a literal is as short as the expression
                right = _call("_pnp_short", right)
            return ast.Compare(self.made(node.left, depth), node.ops, [right])
        if isinstance(node, ast.Attribute) and _ASCII_NAME.fullmatch(node.attr):
            return _call("_pnp_attribute", self.made(node.value, depth), ast.Constant(node.attr))
        if isinstance(node, ast.Subscript) and self.literal(node.slice) and type(node.slice.value) in (int, str):
            return _call("_pnp_item", self.made(node.value, depth), node.slice)
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.BitOr)
            and isinstance(node.left, _FILTERED)
            and isinstance(node.right, ast.Name)
            and node.right.id == "length"
            and self.text[node.left.end_col_offset : node.right.col_offset].strip() == b"|"  # not `x | (length)`, which Jinja cannot read
            and self.written(node.right) == "length"
        ):
            self.operations += 1
            return _call("_pnp_length", self.made(node.left, depth))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _TEXT_TESTS
            and len(node.args) == 1
            and not node.keywords
            and self.literal(node.args[0])
            and type(node.args[0].value) is str
        ):
            self.operations += 1
            return _call("_pnp_text_test", self.made(node.func.value, depth), ast.Constant(node.func.attr), node.args[0])
        raise _Unsure(type(node).__name__)


@lru_cache(maxsize=1024)
def _simple(source: str) -> tuple[Any, tuple[str, ...]] | None:
    """The Python function of an expression that evaluates it as Jinja would (see above),
    given the context, with the names it reads; or None: Jinja evaluates it."""
    if "\n" in source or "\r" in source or "\\" in source:  # one line, as Jinja and Python both read it
        return None
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    python = _Python(source.strip().encode())
    if python.text[tree.body.end_col_offset :].strip(b") \t\f"):  # a `# comment` after it: Python ignores it, Jinja cannot read it
        return None
    try:
        body = python.made(tree.body)
    except _Unsure:
        return None
    if python.operations > _MAX_OPERATIONS:
        return None
    arguments = ast.arguments(posonlyargs=[], args=[ast.arg(_CTX)], kwonlyargs=[], kw_defaults=[], defaults=[])
    function = ast.fix_missing_locations(ast.Expression(ast.Lambda(arguments, body)))
    return eval(compile(function, "<expression>", "eval"), _HELPERS), tuple(python.names)  # noqa: S307 - made by _Python of the operators above only


def _evaluated_simply(source: str, ctx: dict[str, Any]) -> Any:
    """The value of a simple expression (`_simple`), or _ABSENT where Jinja must evaluate it."""
    simple = _simple(source)
    if simple is None:
        return _ABSENT
    function, names = simple
    if any(name not in ctx for name in names):
        return _ABSENT
    try:
        return function(ctx)
    except Exception:  # Jinja raises the same, or finds what a helper left to it, and says it as it does
        return _ABSENT


@lru_cache(maxsize=4096)
def _one_expression(source: str) -> str | None:
    """The expression of a template that is one `{{ expression }}` and nothing else, or None."""
    match = _ONE_EXPRESSION.fullmatch(source)
    return None if match is None else match.group(1)


def _as_written(value: Any) -> str | None:
    """What Jinja writes for a value it writes as str() does (a text, a whole number, an
    enumeration value) or as nothing (None), within what it may write; None for any
    other value (Jinja writes it, or says why not)."""
    kind = type(value)
    if kind is str or kind is EnumValue:
        return str(value) if len(value) <= MAX_LENGTH else None
    if value is None:
        return ""
    if kind is int and -(10**18) < value < 10**18:
        return str(value)
    return None


def _written_simply(source: str, ctx: dict[str, Any]) -> str | None:
    """What a template that is one simple expression writes ('{{ title }}', '{{ empire.name
    if empire else strings.neutral }}'), found without Jinja, or None: Jinja fills it in."""
    expression = _one_expression(source)
    if expression is None:
        return None
    value = _evaluated_simply(expression, ctx)
    return None if value is _ABSENT else _as_written(value)


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
    """A template filled in by Jinja; raises on any failure (fill_in reports it)."""
    sandbox = _jinja()
    return sandbox.rendered(sandbox.template(source), ctx)


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

    __slots__ = ("_ctx", "_done")

    def __init__(self, items: dict[str, Any], ctx: dict[str, Any]):
        super().__init__(items)
        self._ctx = ctx
        self._done: dict[str, str] = {}

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if not isinstance(value, str) or ("{{" not in value and "{%" not in value):
            return value
        if key not in self._done:
            try:
                self._done[key] = filled(value, self._ctx)
            except Exception as exc:
                where = f" ({value.loc})" if isinstance(getattr(value, "loc", None), Location) else ""
                raise _jinja().TemplateError(f"strings.{key}{where}: {explain(exc, self._ctx)}") from None
        return self._done[key]


_MAPPINGS = frozenset({dict, View, Strings})  # the mappings whose attributes and items `_attribute` and `_item` read


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
