"""Plurals: words that agree with a number, in the forms of the game's language.

{% plural EXPR %}FORM{% pluralform %}FORM...{% endplural %} writes the form of the noun
that goes with the number EXPR (Slovak: 1 mesto, 2 mestá, 5 miest), with `n` bound to the
number inside each form. The sandbox (sandbox.py) rewrites the tag, before Jinja reads
the template, into a call that picks the form by the language's gettext plural rule
(babel's CLDR data), and in a translated edition the forms of the catalogue's
msgid_plural entry (i18n/catalogues.py). Here is what needs no Jinja: the rule, the forms, and
finding the tags in a text, so that a game's names (expressions.Names) can hold its
plurals without loading the template engine.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable
from functools import cached_property

PLURAL_CONTEXT = "plural"  # msgctxt of a plural's catalogue entry
_PLURAL = re.compile(r"\{%-?\s*plural\s+(.+?)\s*-?%\}(.*?)\{%-?\s*endplural\s*-?%\}", re.S)
_PLURAL_FORM = re.compile(r"\{%-?\s*pluralform\s*-?%\}")


def plural_forms(text: str) -> list[tuple[int, tuple[str, ...]]]:
    """The plurals a text holds: (offset, forms as written), in order."""
    return [(m.start(), tuple(_PLURAL_FORM.split(m.group(2)))) for m in _PLURAL.finditer(text)]


def plural_calls(source: str) -> str:
    """`source` with each {% plural %} tag rewritten into a call of _pnp_plural (sandbox.py)
    with the number and the forms as written, which Jinja then reads."""
    if "plural" not in source:
        return source
    return _PLURAL.sub(lambda m: "{{ _pnp_plural(" + m.group(1) + ", " + ", ".join(_literal(f) for f in _PLURAL_FORM.split(m.group(2))) + ") }}", source)


def _literal(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"  # its newlines kept: the lines of what follows stay where they were


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
                from jinja2 import TemplateError  # here for speed: chosen while rendering, when Jinja is loaded; a game's names hold a Plurals without it

                raise TemplateError(f"this plural has {len(written)} forms; expected {self.expected()}, each after {{% pluralform %}}")
            return written[min(self.index(n), self.count - 1)]
        if written[0] in self.forms and self.forms[written[0]] is None and self.source is not None:
            return self.source.choose(n, written)  # untranslated (reported as such, or allowed): the source forms
        forms = self.forms.get(written[0])
        if forms is None:
            from jinja2 import TemplateError  # here for speed: chosen while rendering, when Jinja is loaded

            raise TemplateError(
                f"the plural '{written[0]}' has no {self.lang} translation; expected the {{% plural %}} tag kept as in the source, its forms translated in their own catalogue entry (msgctxt '{PLURAL_CONTEXT}')"
            )
        return forms[min(self.index(n), len(forms) - 1)]
