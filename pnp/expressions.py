"""Expressions and templates: the one sandboxed Jinja environment a game is written in.
Layouts (`{{ title }}` texts and `when:`), rules (`where:`, `expect:`, `expression:`,
graph `some:` and messages), deals (`include:`) and rulebooks (Markdown with `{{ }}`)
all see names the same way, and all report a mistake the same way.

The names an expression sees, first match wins:

  1. pnp's names: game, strings, symbol_names, enums, decks, component, components,
     deals, values, total; `card`, the component the expression is about; and what the
     place binds (lang and mode in a rulebook, value and group in a rule with for_each,
     name in a reference message, deal in deals.include, n on a track, cell, border)
  2. the decks, by id: the list of their components
  3. the component's own fields, with id, type, copies and deck

So a deck named like a field hides the field, and nothing hides pnp's names; what is
hidden stays reachable as `card.NAME` or `decks.NAME`. An optional field left out is
None. A field that only other component types declare is None too, named alone or on
`card` and the items of `components` (an expression about each component may visit
several types); the components of one deck are of one type, so there a field their
type lacks is a mistake. Any other name is undefined: an error at the expression, with
the closest name that exists. The environment is strict and sandboxed: templates cannot
reach Python internals, and a misspelt name never quietly means "nothing".
"""

from __future__ import annotations

import gettext
import math
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cached_property, lru_cache, partial
from typing import Any

from jinja2 import StrictUndefined, Template, TemplateError, TemplateSyntaxError, UndefinedError, nodes, pass_context
from jinja2.compiler import CodeGenerator, Frame, operators
from jinja2.ext import Extension
from jinja2.parser import Parser
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment
from jinja2.utils import _PassArg, consume, missing

from .errors import Location, Problems
from .model import Card, EnumValue, Game, game_info
from .schema import suggest

CODE = "template"  # the code of every expression or template that cannot be evaluated or filled in
NO_DECKS = "nothing: the game defines no decks"
NO_SYMBOLS = "nothing: the game defines no symbols"


class UndefinedName(UndefinedError):
    """A name, or an attribute of `owner`, that does not exist: says which, for did-you-mean."""

    def __init__(self, message: str | None = None, name: Any = None, owner: Any = missing):
        super().__init__(message)
        self.name = name
        self.owner = owner


class _Undefined(StrictUndefined):
    """Strict: any use of an undefined name fails, and the failure names it."""

    __slots__ = ()

    def __init__(self, hint: str | None = None, obj: Any = missing, name: str | None = None, exc: Any = UndefinedError):
        if exc is UndefinedError:  # not a sandbox refusal (SecurityError), which says what it refused
            exc = partial(UndefinedName, name=name, owner=obj)
        super().__init__(hint, obj, name, exc)


# --- the budget: what one expression or template may do --------------------------------------
# A game's templates must not hang a build (or the watcher) nor fill the memory: each
# evaluation of an expression and each rendering of a template has a budget of steps (a
# loop's turn, a call, a filter, an operator, and per hundred items of a text or list it goes
# through or makes), and nothing it makes or writes may be longer than MAX_LENGTH. What would
# grow a value many times over (`'x' * 10**9`, `2 ** 10**9`, `s | replace('a', long)`,
# `'%999999999d' % 1`) is refused before it is made.

MAX_STEPS = 1_000_000
MAX_LENGTH = 1_000_000  # characters of a text, items of a list
MAX_DIGITS = 1_000  # of a whole number
_PER_STEP = 100  # items of a text or list gone through or made that cost one step
_LIMIT = "pnp's limit for one expression or template"
_SIZED = (str, bytes, list, tuple, dict, set, frozenset)


class OverBudget(TemplateError):
    """An expression or template that did more than pnp lets one do; its message names the limit."""


def _too_long(value: Any) -> OverBudget:
    if isinstance(value, (str, bytes)):
        return OverBudget(f"it makes a text of more than {MAX_LENGTH:,} characters ({_LIMIT}); expected a shorter text")
    return OverBudget(f"it makes a list of more than {MAX_LENGTH:,} items ({_LIMIT}); expected a shorter list")


def _too_big() -> OverBudget:
    return OverBudget(f"it makes a number of more than {MAX_DIGITS:,} digits ({_LIMIT}); expected a smaller number")


class Budget:
    """What one evaluation has spent: steps, and characters written."""

    __slots__ = ("steps", "written")

    def __init__(self) -> None:
        self.steps = 0
        self.written = 0

    def step(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > MAX_STEPS:
            raise OverBudget(f"it ran more than {MAX_STEPS:,} steps ({_LIMIT}); expected fewer or shorter loops")

    def spend(self, *values: Any) -> None:
        """One step, and one per hundred items of the texts and lists `values`."""
        self.step(1 + sum(len(v) for v in values if isinstance(v, _SIZED)) // _PER_STEP)

    def write(self, text: str) -> str:
        self.written += len(text)
        if self.written > MAX_LENGTH:
            raise OverBudget(f"it writes more than {MAX_LENGTH:,} characters ({_LIMIT}); expected a shorter text")
        self.spend(text)
        return text


def _made(value: Any) -> Any:
    """`value`, unless it is longer (or a number larger) than the budget allows."""
    if isinstance(value, _SIZED):
        if len(value) > MAX_LENGTH:
            raise _too_long(value)
    elif isinstance(value, int) and value.bit_length() > MAX_DIGITS * 3.33:
        raise _too_big()
    return value


def _length(n: int, like: Any) -> None:
    """Refuses to make a value like `like` of `n` characters or items."""
    if n > MAX_LENGTH:
        raise _too_long(like)


def _text_size(value: Any, limit: int = MAX_LENGTH) -> int:
    """How long `value` is as text, counted up to a little over `limit` (a list holding one long
    text a million times is short as a list and endless as text)."""
    seen: set[int] = set()

    def size(v: Any, left: int) -> int:
        if isinstance(v, (str, bytes)):
            return len(v)
        if not isinstance(v, (list, tuple, dict, set, frozenset)) or id(v) in seen:
            return 8
        seen.add(id(v))
        total = 2
        for item in v.items() if isinstance(v, dict) else v:
            total += 2 + size(item, left - total)
            if total > left:
                break
        seen.discard(id(v))
        return total

    return size(value, limit)


def _text(value: Any) -> Any:
    """`value`, unless it would make too long a text."""
    if isinstance(value, (list, tuple, dict, set, frozenset)) and _text_size(value) > MAX_LENGTH:
        raise _too_long("")
    return value


_FORMAT_NUMBERS = re.compile(r"%[#0 +-]*(\d+|\*)?(?:\.(\d+|\*))?|\{[^{}]*:([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}")


def _format(fmt: str, args: Iterable[Any]) -> None:
    """Refuses a %- or {}-format whose widths or precisions would make too long a text."""
    args = list(args)
    for value in args:
        _text(value)
    for spec in _FORMAT_NUMBERS.finditer(fmt):
        text = "".join(part or "" for part in spec.groups())
        if any(int(n) > MAX_LENGTH for n in re.findall(r"\d+", text)):
            raise _too_long("")
        if ("*" in text or "{" in text) and any(isinstance(v, int) and v > MAX_LENGTH for v in args):
            raise _too_long("")


def _repeat(left: Any, right: Any) -> None:
    for seq, n in ((left, right), (right, left)):
        if isinstance(seq, (str, bytes, list, tuple)) and isinstance(n, int):
            _length(len(seq) * n, seq)
    if isinstance(left, int) and isinstance(right, int) and (left.bit_length() + right.bit_length()) > MAX_DIGITS * 3.33:
        raise _too_big()


def _power(base: Any, exponent: Any) -> None:
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0 and abs(base) > 1:
        if exponent * math.log10(abs(base)) > MAX_DIGITS:
            raise _too_big()


def _replace(text: Any, old: Any, new: Any, *rest: Any) -> None:
    if isinstance(text, (str, bytes)) and isinstance(old, type(text)) and isinstance(new, type(text)) and len(new) > len(old):
        _length(len(text) + (text.count(old) if old else len(text) + 1) * (len(new) - len(old)), text)


def _join(sep: Any, items: Any, *rest: Any) -> None:
    if isinstance(sep, (str, bytes)) and isinstance(items, (list, tuple, set, frozenset, dict)):
        _length(len(sep) * len(items) + _text_size(items), sep)


def _expandtabs(text: Any, size: Any = 8) -> None:
    if isinstance(text, (str, bytes)) and isinstance(size, int):
        _length(len(text) + text.count("\t" if isinstance(text, str) else b"\t") * size, text)


def _translate(text: Any, table: Any) -> None:
    if isinstance(text, str) and isinstance(table, dict):
        _length(len(text) * max((len(v) for v in table.values() if isinstance(v, str)), default=1), text)


# What a method of a text would make: checked before it runs (its self first).
_METHODS: dict[str, Callable[..., None]] = {
    "replace": _replace,
    "join": lambda sep, items=(), *rest: _join(sep, items),
    "expandtabs": _expandtabs,
    "translate": _translate,
}


def _indent(text: Any, width: Any = 4, *rest: Any, **kwargs: Any) -> None:
    width = kwargs.get("width", width)
    if isinstance(text, str):
        per_line = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
        _length(len(text) + (text.count("\n") + 1) * per_line, text)


def _wordwrap(text: Any, width: Any = 79, *rest: Any, **kwargs: Any) -> None:
    wrap = kwargs.get("wrapstring", rest[1] if len(rest) > 1 else None)
    if isinstance(text, str) and isinstance(wrap, str) and isinstance(width, int):
        _length(len(text) + (len(text) // max(width, 1) + 1) * len(wrap), text)


def _counts(value: Any, *args: Any, **kwargs: Any) -> None:
    """batch, slice and center: their number is how many items (or characters) they make."""
    if any(isinstance(n, int) and n > MAX_LENGTH for n in (*args, *kwargs.values())):
        raise _too_long(value)


def _sum(items: Any, attribute: Any = None, start: Any = 0, **kwargs: Any) -> None:
    start = kwargs.get("start", start)
    if isinstance(start, _SIZED) and isinstance(items, (list, tuple)):
        _length(len(start) + sum(len(v) for v in items if isinstance(v, _SIZED)), start)


# What a filter would make: checked before it runs (the filtered value first).
_FILTERS: dict[str, Callable[..., None]] = {
    "replace": _replace,
    "join": lambda items, sep="", *rest, **kwargs: _join(kwargs.get("d", sep), items),
    "format": lambda fmt, *args, **kwargs: _format(fmt, (*args, *kwargs.values())) if isinstance(fmt, str) else None,
    "indent": _indent,
    "wordwrap": _wordwrap,
    "center": _counts,
    "batch": _counts,
    "slice": _counts,
    "sum": _sum,
}
# Filters that do not turn their value into text (the rest are checked for how long that text is).
_NOT_TEXT = frozenset(
    "abs attr batch count d default dictsort first float groupby int items last length list map max min random reject rejectattr reverse round select selectattr slice sort sum unique".split()
)


def _budgeted(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """A filter or test that spends from the budget of the evaluation that uses it (and so is
    never run while a template is compiled, outside any budget)."""
    pass_arg = _PassArg.from_obj(func)
    check = _FILTERS.get(name)
    text = name not in _NOT_TEXT

    @pass_context
    def budgeted(context: Context, value: Any, *args: Any, **kwargs: Any) -> Any:
        if check is not None:
            check(value, *args, **kwargs)
        if text:
            _text(value)
        if pass_arg is _PassArg.context:
            result = func(context, value, *args, **kwargs)
        elif pass_arg is _PassArg.eval_context:
            result = func(context.eval_ctx, value, *args, **kwargs)
        elif pass_arg is _PassArg.environment:
            result = func(context.environment, value, *args, **kwargs)
        else:
            result = func(value, *args, **kwargs)
        context.budget.spend(value, *args, result)
        return _made(result)

    return budgeted


@pass_context
def _loop(context: Context, items: Iterable[Any]) -> Iterator[Any]:
    """What a `{% for %}` goes through, a step per turn."""
    budget = context.budget
    for item in items:
        budget.step()
        yield item


_LOOP = "_pnp_loop"  # the filter every {% for %} goes through


class _CodeGenerator(CodeGenerator):
    """Jinja's, with every loop, output, `~` and comparison spending from the budget."""

    def visit_Template(self, node: nodes.Template, frame: Frame | None = None) -> None:
        for loop in node.find_all(nodes.For):
            loop.iter = nodes.Filter(loop.iter, _LOOP, [], [], None, None, lineno=loop.iter.lineno)
        super().visit_Template(node, frame)

    def _output_const_repr(self, group: Iterable[Any]) -> str:
        return f"context.budget.write({super()._output_const_repr(group)})"

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.joined(context, ")
        super().visit_Concat(node, frame)
        self.write(")")

    def visit_Operand(self, node: nodes.Operand, frame: Frame) -> None:
        self.write(f" {operators[node.op]} ")
        self.write("environment.spent(context, ")
        self.visit(node.expr, frame)
        self.write(")")


class _Context(Context):
    """Finds the names a context holds lazily (decks, components, deals, fields of other
    types): a layout that never names another deck costs nothing per card. Holds the
    budget of the evaluation it is made for."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.budget = Budget()

    def resolve_or_missing(self, key: str) -> Any:
        value = super().resolve_or_missing(key)
        if value is missing:
            decks = self.parent.get("decks")
            if isinstance(decks, Decks):
                value = decks._resolve(key, "card" in self.parent)
        return value


class _Environment(SandboxedEnvironment):
    """The sandbox, within a budget."""

    context_class = _Context
    code_generator_class = _CodeGenerator
    intercepted_binops = frozenset({"+", "*", "**", "%"})

    def __init__(self, **options: Any):
        super().__init__(**options)
        del self.globals["lipsum"]  # lipsum(10**9) is work without a loop
        self.filters = {name: _budgeted(name, func) for name, func in self.filters.items()}
        self.filters[_LOOP] = _loop
        self.tests = {name: _budgeted(name, func) for name, func in self.tests.items()}

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            _repeat(left, right)
        elif operator == "**":
            _power(left, right)
        elif operator == "%" and isinstance(left, str):
            _format(left, right if isinstance(right, tuple) else right.values() if isinstance(right, dict) else (right,))
        context.budget.spend(left, right)
        return _made(self.binop_table[operator](left, right))

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (as Jinja's: no name a template passes can clash)
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, (str, bytes, int)) and not isinstance(__obj, type):
            # a width or a length: 'x'.center(n), (1).to_bytes(n); a dict's get(key, 10**7) is a value
            if any(isinstance(v, int) and v > MAX_LENGTH for v in (*args, *kwargs.values())):
                raise _too_long(owner if isinstance(owner, _SIZED) else "")
            check = _METHODS.get(getattr(__obj, "__name__", ""))
            if check is not None:
                check(owner, *args, **kwargs)
        result = super().call(__context, __obj, *args, **kwargs)
        __context.budget.spend(owner, *args, *kwargs.values(), result)
        if isinstance(owner, _SIZED):
            _made(owner)  # a list a method made longer (append, extend)
        return _made(result)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        formatted = super().wrap_str_format(value)
        if formatted is None:
            return None
        fmt = value.__self__

        def checked(*args: Any, **kwargs: Any) -> str:
            values = [*args, *kwargs.values()]
            if value.__name__ == "format_map" and args and isinstance(args[0], dict):
                values = list(args[0].values())
            _format(fmt, values)
            return _made(formatted(*args, **kwargs))

        return checked

    def joined(self, context: Context, text: str) -> str:
        """A `~` that made too long a text is stopped (one doubling a text in a loop soon is)."""
        context.budget.spend(text)
        return _made(text)

    def spent(self, context: Context, value: Any) -> Any:
        """The right side of a comparison: `in` and `==` go through a whole list or text."""
        context.budget.spend(value)
        return value


# --- plurals: words that agree with a number ---------------------------------------------
# {% plural EXPR %}FORM{% pluralform %}FORM...{% endplural %} writes the form of the noun
# that goes with the number EXPR, in the forms of the game's language (Slovak: 1 mesto,
# 2 mestá, 5 miest), with `n` bound to the number inside each form. The tag is rewritten,
# before Jinja reads the template, into a call of _pnp_plural with the forms as written;
# the call picks the form by the language's gettext plural rule (babel's CLDR data), and
# in a translated edition the forms of the catalogue's msgid_plural entry (i18n.py).

PLURAL_CONTEXT = "plural"  # msgctxt of a plural's catalogue entry
_PLURAL = re.compile(r"\{%-?\s*plural\s+(.+?)\s*-?%\}(.*?)\{%-?\s*endplural\s*-?%\}", re.S)
_PLURAL_FORM = re.compile(r"\{%-?\s*pluralform\s*-?%\}")


def plural_forms(text: str) -> list[tuple[int, tuple[str, ...]]]:
    """The plurals a text holds: (offset, forms as written), in order."""
    return [(m.start(), tuple(_PLURAL_FORM.split(m.group(2)))) for m in _PLURAL.finditer(text)]


def _literal(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"  # its newlines kept: the lines of what follows stay where they were


class PluralExtension(Extension):
    """Rewrites {% plural %} tags into a call that picks the form; nothing else."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        if "plural" not in source:
            return source
        return _PLURAL.sub(lambda m: "{{ _pnp_plural(" + m.group(1) + ", " + ", ".join(_literal(f) for f in _PLURAL_FORM.split(m.group(2))) + ") }}", source)


class Plurals:
    """A language's plural rule, and in a translated edition the forms of every plural
    (by its first source form)."""

    def __init__(self, lang: str, forms: dict[str, tuple[str, ...]] | None = None, source: Plurals | None = None):
        self.lang = lang
        self.forms = forms  # None: the source language, whose forms are written in the tag; else by first source form (None: untranslated)
        self.source = source  # the source language's rule: an untranslated plural falls back to the source forms

    @cached_property
    def _rule(self) -> tuple[str, int]:
        """The gettext plural expression and the number of forms, read when a plural is
        first chosen: every game has a Plurals, few write a plural."""
        from babel.messages.plurals import get_plural  # here for speed: babel's catalogues come with it

        try:
            rule = get_plural(self.lang)
            return rule.plural_expr, rule.num_plurals
        except (ValueError, TypeError):
            return "(n != 1)", 2

    @property
    def count(self) -> int:
        return self._rule[1]

    @cached_property
    def index(self) -> Callable[[int], int]:
        """The form for a number, by the plural expression."""
        return gettext.c2py(self._rule[0])

    def examples(self) -> list[str]:
        """Which numbers each form is for: '1', '2, 3, 4', '0, 5, 6, ...'."""
        found: list[list[int]] = [[] for _ in range(self.count)]
        for n in range(0, 200):
            i = self.index(n)
            if 0 <= i < self.count and len(found[i]) < 4:
                found[i].append(n)
        return [", ".join(map(str, ns[:3])) + (", ..." if len(ns) > 3 else "") for ns in found]

    def expected(self) -> str:
        return f"{self.count} forms for {self.lang}, " + "; ".join(f"for {e}" for e in self.examples())

    def choose(self, n: int, written: tuple[str, ...]) -> str:
        if self.forms is None:
            if len(written) != self.count:
                raise TemplateError(f"this plural has {len(written)} forms; expected {self.expected()}, each after {{% pluralform %}}")
            return written[min(self.index(n), self.count - 1)]
        if written[0] in self.forms and self.forms[written[0]] is None and self.source is not None:
            return self.source.choose(n, written)  # untranslated (reported as such, or allowed): the source forms
        forms = self.forms.get(written[0])
        if forms is None:
            raise TemplateError(
                f"the plural '{written[0]}' has no {self.lang} translation; expected the {{% plural %}} tag kept as in the source, its forms translated in their own catalogue entry (msgctxt '{PLURAL_CONTEXT}')"
            )
        return forms[min(self.index(n), len(forms) - 1)]


@lru_cache(maxsize=1024)
def _form_template(env: Any, source: str):
    return env.from_string(source)


@pass_context
def _pnp_plural(context: Context, n: Any, *written: str) -> str:
    """The form of a plural for the number n, filled in with n bound."""
    if isinstance(n, bool) or not isinstance(n, (int, float)) or n != int(n):
        raise TemplateError(f"a plural counts '{n}', which is not a whole number; expected {{% plural cards | length %}} or another count")
    n = int(n)
    plurals = context.get("_pnp_plurals")
    if not isinstance(plurals, Plurals):
        plurals = Plurals("en")
    form = plurals.choose(n, written)
    template = _form_template(context.environment, form)
    inner = _context(template, {**context.get_all(), "n": n})
    inner.budget = context.budget
    return "".join(template.root_render_func(inner))


@pass_context
def _finalize(context: Context, value: Any) -> str:
    """What `{{ }}` writes: None is nothing, and the text spends from the budget."""
    return context.budget.write("" if value is None else str(_text(value)))


# Not optimized: Jinja's optimizer folds constant expressions, of which a game's templates
# have next to none, and costs a seventh of compiling one; a template is compiled once.
ENV = _Environment(undefined=_Undefined, finalize=_finalize, autoescape=False, extensions=[PluralExtension], optimized=False)
ENV.globals["_pnp_plural"] = _pnp_plural
# Rulebooks: Jinja comments are {## ... ##} there ({#id} names a heading, as in Pandoc), and
# a block tag on its own line leaves no blank line behind.
MARKDOWN = ENV.overlay(comment_start_string="{##", comment_end_string="##}", trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


@lru_cache(maxsize=4096)
def template(source: str):
    return ENV.from_string(source)


@lru_cache(maxsize=2048)
def markdown_template(source: str):
    return MARKDOWN.from_string(source)


@lru_cache(maxsize=1024)
def _expression(source: str) -> Template:
    """The template that evaluates an expression (into its variable `result`), as Jinja
    compiles it (the one inside its TemplateExpression), run with `_context` rather than
    through that object."""
    return ENV.compile_expression(source, undefined_to_none=False)._template


def _context(template: Template, ctx: dict[str, Any]) -> Context:
    """A context for `template` (made by this module without globals of its own: its
    globals are its environment's) with the names of `ctx`. The two are merged as plain
    dicts: Jinja's own way (`Template.render`, an expression's call) merges them key by
    key through a ChainMap, which costs more than the rest of evaluating a typical rule or
    layout expression, and a build evaluates thousands."""
    return template.new_context({**template.environment.globals, **ctx}, shared=True)


def rendered(template: Template, ctx: dict[str, Any]) -> str:
    """`template.render(ctx)`, with the context made by `_context`; an error is raised as
    `render` raises it (its traceback in the template's lines)."""
    try:
        return template.environment.concat(template.root_render_func(_context(template, ctx)))
    except Exception:
        template.environment.handle_exception()


# What a lone name can look like, and more: a source that does not match is no lone name
# and is not parsed to find out (compiling it parses it again).
_NAME_EXPRESSION = re.compile(r"[\s()]*\w+[\s()]*")
_NAME_TEMPLATE = re.compile(r"\s*\{\{[-+]?[\s()]*\w+(?:\s*\.\s*\w+)*[\s()]*[-+]?\}\}\s*")


@lru_cache(maxsize=4096)
def _lone_name(source: str, expression: bool) -> tuple[str, ...] | None:
    """The name a template (`{{ title }}`, `{{ game.title }}`) or an expression (`army`) is
    and nothing more, as Jinja reads it, with the attributes it reads of it, or None: its
    value is looked up in the context directly, without the Jinja context that rendering
    makes (most of a card's templates are such names)."""
    if not (_NAME_EXPRESSION if expression else _NAME_TEMPLATE).fullmatch(source):
        return None
    try:
        if expression:  # read as compile_expression reads it
            parser = Parser(ENV, source, state="variable")
            node = parser.parse_expression()
            if not parser.stream.eos:
                return None
        else:
            body = ENV.parse(source).body
            if len(body) != 1 or not isinstance(body[0], nodes.Output) or len(body[0].nodes) != 1:
                return None
            node = body[0].nodes[0]
    except TemplateSyntaxError:
        return None
    attributes: list[str] = []
    while isinstance(node, nodes.Getattr) and node.ctx == "load":
        attributes.insert(0, node.attr)
        node = node.node
    return (node.name, *attributes) if isinstance(node, nodes.Name) and node.ctx == "load" else None


def _looked_up(path: tuple[str, ...] | None, ctx: dict[str, Any]) -> Any:
    """The value of a lone name (`_lone_name`) in `ctx`, or `missing` where Jinja must say
    what it is: a name the context lacks, or an attribute read of anything but a plain
    dict that has it as a key and not as a method (Jinja's getattr would find the method)."""
    if path is None or path[0] not in ctx:
        return missing
    value = ctx[path[0]]
    for attribute in path[1:]:
        if type(value) is not dict or attribute not in value or hasattr(dict, attribute):
            return missing
        value = value[attribute]
    return value


def evaluate(source: str, ctx: dict[str, Any]) -> Any:
    """The value of an expression; raises on any failure, an undefined result included
    (`where: kidn` must not quietly select nothing)."""
    value = _looked_up(_lone_name(source, True), ctx)  # a name of the context is its value
    if value is missing:
        expression = _expression(source)
        context = _context(expression, ctx)
        consume(expression.root_render_func(context))
        value = context.vars["result"]
    if isinstance(value, StrictUndefined):
        value._fail_with_undefined_error()
    return value


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
    value = _looked_up(_lone_name(source, False), ctx)  # '{{ title }}' writes a text as it is
    if type(value) is str and len(value) <= MAX_LENGTH:
        return value
    try:
        return rendered(template(source), ctx)
    except Exception as exc:
        _report(exc, ctx, loc, what, problems, once)
    return None


def _report(exc: Exception, ctx: dict[str, Any], loc: Location, what: str, problems: Problems, once: set | None) -> None:
    if once is not None and isinstance(exc, UndefinedName) and exc.owner is missing:  # the same for every component
        if (loc, exc.name) in once:
            return
        once.add((loc, exc.name))
    problems.error(loc, CODE, f"{what}: {explain(exc, ctx)}")


def explain(exc: BaseException, ctx: dict[str, Any]) -> str:
    """Why an expression failed, in words, with what was expected."""
    if isinstance(exc, UndefinedName):
        return _undefined(exc, ctx)
    if isinstance(exc, UnknownComponent):
        return str(exc)  # it says what it expected
    if isinstance(exc, TemplateSyntaxError):
        return f"cannot read it: {exc.message}; expected Jinja such as {{{{ title }}}} or cards | length"
    if isinstance(exc, TemplateError):
        return exc.message or str(exc)
    if isinstance(exc, RecursionError):
        return "it calls itself without end (a macro that calls itself); expected a macro that stops calling itself"
    return f"{type(exc).__name__}: {exc}"


def _undefined(exc: UndefinedName, ctx: dict[str, Any]) -> str:
    name, owner = exc.name, exc.owner
    if owner is missing:
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


def one_of(names: Iterable[str], none: str) -> str:
    """What a message expects: 'one of: a, b, ... (40 in all)', or `none` (say what is really
    the case: "nothing: the game defines no symbols") when there is nothing to choose from."""
    names = [str(name) for name in names]
    if not names:
        return none
    return "one of: " + ", ".join(names[:12]) + (f", ... ({len(names)} in all)" if len(names) > 12 else "")


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
    """What expressions see of a card: its fields, id, type, copies and deck."""
    view = View(card.fields, blank)
    view.update(id=card.id, type=card.type, copies=card.copies, deck=card.deck)
    return view


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
        self.read: set[str] = set()  # the decks templates asked for: what the watcher's record of a face depends on (session.py)

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

    def _resolve(self, key: str, per_component: bool) -> Any:
        """The names of a context that are made when first used; `missing` for the rest."""
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
        return missing

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
                self._done[key] = rendered(template(value), self._ctx)
            except Exception as exc:
                where = f" ({value.loc})" if isinstance(getattr(value, "loc", None), Location) else ""
                raise TemplateError(f"strings.{key}{where}: {explain(exc, self._ctx)}") from None
        return self._done[key]


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
        fields = set(self.decks._blank) | {"id", "type", "copies", "deck"}
        self._hidden = fields & self.decks._names(False)  # fields a deck (or components, deals) hides

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
        view = self.decks._all.get(card.id) or card_view(card, self.decks._blank)  # a face is drawn once: its view is not kept
        ctx = dict(view)
        for name in self._hidden:
            ctx.pop(name, None)
        ctx.update(self.base)
        ctx.update(bindings)
        ctx["card"] = view
        if self._templated:
            ctx["strings"] = Strings(self.base["strings"], ctx)
        return ctx
