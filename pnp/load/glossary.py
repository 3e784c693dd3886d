"""The game's glossary: canonical terms and the forms texts may use.

A word that begins with a term's stem but is none of its forms is most likely a typo or
drift from the canonical term ("Otrokárstvo" for "Otroctvo"); it is reported as a warning
with the card and line, so the designer either fixes the text or records the new form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pnp.base.errors import Location, Problems, display_path
from pnp.load.schema import MISSING, build, suggest
from pnp.load.yamlfile import LMap, load_yaml

_WORD = re.compile(r"\w+")
_SYMBOL = re.compile(r":[a-z0-9][a-z0-9_-]*:")


@dataclass(repr=False, eq=False)
class Term:
    """A term of the glossary, with the forms in which texts may use it."""

    term: str
    ref: str | None = None  # enum.value the term names
    forms: list[str] = field(default_factory=list)
    stem: str | None = None  # lower-case prefix; words starting with it are checked
    note: str = ""
    _loc: Location = field(default=Location("?"), repr=False)

    def accepted(self) -> set[str]:
        words = {w.lower() for form in [self.term, *self.forms] for w in _WORD.findall(form)}
        return words | {form.lower() for form in [self.term, *self.forms]}


@dataclass(repr=False, eq=False)
class GlossaryFile:
    """The glossary file as written: its terms."""

    terms: list[Term] = field(default_factory=list)


def load_glossary(path: Path, game_enums: dict, problems: Problems) -> list[Term]:
    raw = load_yaml(path, problems)
    if not isinstance(raw, LMap):
        problems.error(Location(display_path(path), 1, 1), "glossary-shape", "the glossary must be a mapping with 'terms:'; expected a list of terms under it")
        return []
    glossary = build(GlossaryFile, raw, problems, "glossary")
    if glossary is MISSING:
        return []
    for i, term in enumerate(glossary.terms):
        term._loc = raw["terms"].loc_of(i)
        if term.ref is not None:
            enum, _, value = term.ref.partition(".")
            if enum not in game_enums or value not in game_enums[enum]:
                choices = [f"{e}.{v}" for e, values in game_enums.items() for v in values]
                problems.error(
                    term._loc,
                    "glossary-ref",
                    f"term '{term.term}' refers to '{term.ref}', which is not an enumeration value{suggest(term.ref, choices)}; expected ENUM.VALUE",
                )
        if term.stem is not None and len(term.stem) < 3:
            problems.error(term._loc, "glossary-stem", f"stem '{term.stem}' of term '{term.term}' is shorter than 3 letters; expected a longer stem or none")
    return glossary.terms
