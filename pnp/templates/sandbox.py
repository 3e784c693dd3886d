"""The sandboxed Jinja environment a game's expressions and templates run in (see
expressions.py for the names they see and how mistakes are reported): strict undefined
names, a budget of steps and lengths per evaluation, the {% plural %} tag, and the
compiled templates and expressions, each compiled once.

Why a module of its own: Jinja is slow to import, and most games'
templates are lone names (`{{ title }}`) that expressions.py looks up without it; this is
imported when a template or expression needs Jinja, so a deck that never does never
loads it.

This is the one module that uses Jinja's internals (its code generator, subclassed; how a
filter asks for its context; the template inside a compiled expression; what an undefined
raises): tests/code/test_fences.py lists them, and pyproject.toml bounds Jinja.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache, partial
from typing import Any

from jinja2 import StrictUndefined, Template, TemplateError, Undefined, UndefinedError, nodes, pass_context
from jinja2 import TemplateSyntaxError as TemplateSyntaxError  # for expressions.explain, which tells it apart without importing Jinja
from jinja2.compiler import CodeGenerator, Frame, operators
from jinja2.ext import Extension
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment
from jinja2.utils import _PassArg, consume, missing

from pnp.templates.budget import MAX_DIGITS, MAX_LENGTH, MAX_STEPS, SIZED, joined_size, steps, text_size
from pnp.templates.plurals import Plurals, plural_calls


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


# --- the budget: what one expression or template may do (budget.py) ----------------------------
# What would grow a value many times over (`'x' * 10**9`, `2 ** 10**9`, `s | replace('a', long)`,
# `'%999999999d' % 1`) is refused before it is made.

_LIMIT = "pnp's limit for one expression or template"


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
        self.step(steps(values))

    def write(self, text: str) -> str:
        self.written += len(text)
        if self.written > MAX_LENGTH:
            raise OverBudget(f"it writes more than {MAX_LENGTH:,} characters ({_LIMIT}); expected a shorter text")
        self.spend(text)
        return text


def _made(value: Any) -> Any:
    """`value`, unless it is longer (or a number larger) than the budget allows."""
    if isinstance(value, SIZED):
        if len(value) > MAX_LENGTH:
            raise _too_long(value)
    elif isinstance(value, int) and value.bit_length() > MAX_DIGITS * 3.33:
        raise _too_big()
    return value


def _length(n: int, like: Any) -> None:
    """Refuses to make a value like `like` of `n` characters or items."""
    if n > MAX_LENGTH:
        raise _too_long(like)


def _text(value: Any) -> Any:
    """`value`, unless it would make too long a text."""
    if isinstance(value, (list, tuple, dict, set, frozenset)) and text_size(value) > MAX_LENGTH:
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
    size = joined_size(sep, items)
    if size is not None:
        _length(size, sep)


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
    if isinstance(start, SIZED) and isinstance(items, (list, tuple)):
        _length(len(start) + sum(len(v) for v in items if isinstance(v, SIZED)), start)


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
            resolve = getattr(self.parent.get("decks"), "_resolve", None)  # expressions.Decks: pnp's names win, so `decks` is always one
            if resolve is not None:
                value = resolve(key, "card" in self.parent, missing)
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
                raise _too_long(owner if isinstance(owner, SIZED) else "")
            check = _METHODS.get(getattr(__obj, "__name__", ""))
            if check is not None:
                check(owner, *args, **kwargs)
        result = super().call(__context, __obj, *args, **kwargs)
        __context.budget.spend(owner, *args, *kwargs.values(), result)
        if isinstance(owner, SIZED):
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


# --- plurals (plurals.py): the tag rewritten into a call that picks the form --------------------


class PluralExtension(Extension):
    """Rewrites {% plural %} tags into a call that picks the form (plurals.plural_calls); nothing else."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return plural_calls(source)


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
# have next to none, and it adds to compiling every template; a template is compiled once.
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
    key through a ChainMap, which is slow for what a rule or layout expression needs, and a
    build evaluates thousands."""
    return template.new_context({**template.environment.globals, **ctx}, shared=True)


def rendered(template: Template, ctx: dict[str, Any]) -> str:
    """`template.render(ctx)`, with the context made by `_context`; an error is raised as
    `render` raises it (its traceback in the template's lines)."""
    try:
        return template.environment.concat(template.root_render_func(_context(template, ctx)))
    except Exception:
        template.environment.handle_exception()


def refuse_undefined(value: Any) -> None:
    """Raise the error Jinja's undefined `value` raises when used (it names the name and
    why it is undefined); nothing for any other value."""
    if isinstance(value, Undefined):
        value._fail_with_undefined_error()


def evaluated(source: str, ctx: dict[str, Any]) -> Any:
    """The value of an expression (expressions.evaluate, for one that is not a lone name,
    which refuses an undefined result); raises on any other failure."""
    expression = _expression(source)
    context = _context(expression, ctx)
    consume(expression.root_render_func(context))
    return context.vars["result"]
