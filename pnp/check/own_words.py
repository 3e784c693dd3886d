"""A game's replacements of pnp's own words (`strings:` keys `pnp.ID`, pnp/i18n/own.py):
each must name a word pnp prints, keep the values pnp fills in, and for a word that agrees
with a number give one form for each plural form of its language. And a language pnp has
no words in, which the game does not give them for: its sheets would carry English."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pnp.base.errors import Location, Problems, display_path
from pnp.i18n.catalogues import PSEUDO, Translated, locale_dir, yaml_locations
from pnp.i18n.own import OPTIONAL, PREFIX, RENAMED, SEPARATOR, SOURCE, base_language, catalogue, placeholders
from pnp.load.model import Game
from pnp.load.schema import suggest
from pnp.templates.plurals import Plurals


def check_own_words(game: Game, strings: Mapping[str, str], lang: str, where: Callable[[str], Location] | None = None) -> Problems:
    """The `pnp.ID` strings of `game` in `lang` (`strings`: its source's, or an edition's,
    whose translations say where they are); `where(key)`: where a string of the source is."""
    problems = Problems()
    if where is None:
        found: list[dict] = []  # game.yaml and the rules read again for their lines only when a string is wrong: most games have none wrong

        def where(key: str) -> Location:
            if not found:
                found.append(yaml_locations(game))
            return found[0].get(("strings", key), game.locs.get("strings", game.loc))

    known = [f"{PREFIX}{key}" for key in (*SOURCE, *OPTIONAL)]

    def at(key: str, text: str) -> Location:
        return text.loc if isinstance(text, Translated) else where(key)

    for key, text in strings.items():
        if key in RENAMED:
            problems.warn(
                at(key, text), "pnp-string", f"string '{key}' is no longer read: pnp's own words are replaced with {PREFIX}ID keys; expected '{RENAMED[key]}'"
            )
            continue
        if not key.startswith(PREFIX):
            continue
        word = key[len(PREFIX) :]
        if word in OPTIONAL:
            continue
        source = SOURCE.get(word)
        if source is None:
            problems.error(
                at(key, text),
                "pnp-string",
                f"string '{key}' replaces none of pnp's own words{suggest(key, known)}; expected one of the ids in pnp/i18n/own.py, after '{PREFIX}'",
            )
            continue
        english = source if isinstance(source, tuple) else (source,)
        values = set().union(*map(placeholders, english)) - {"n"}
        forms = text.split(SEPARATOR) if isinstance(source, tuple) else [text]
        wanted = Plurals(lang).count if isinstance(source, tuple) else 1
        if isinstance(source, tuple) and len(forms) != wanted:
            problems.error(
                at(key, text),
                "pnp-string",
                f"string '{key}' has {len(forms)} forms; expected {Plurals(lang).expected()}, separated by '{SEPARATOR}' ('{source[0]}{SEPARATOR}{source[1]}' in English)",
            )
            continue
        for form in forms:
            extra = placeholders(form) - values - {"n"}
            missing = values - placeholders(form)
            if extra or missing:
                said = f"drops '{{{sorted(missing)[0]}}}'" if missing else f"has '{{{sorted(extra)[0]}}}', which pnp does not fill in"
                problems.error(at(key, text), "pnp-string", f"string '{key}' {said}; expected the values of the English '{english[-1]}' kept")
                break
    return problems


def check_own_catalogue(game: Game, strings: Mapping[str, str], lang: str) -> Problems:
    """A warning when pnp has no words (or not all of them) in `lang` and the game's
    `strings` in that language do not give the rest: the ruler's caption, the sheets' and
    folds' labels, the assembly pages, a rulebook's contents and index and the PDFs'
    subjects would be English in a build in `lang`. Said at game.yaml's `language` line
    for the source language, at the catalogue for a translation."""
    problems = Problems()
    if base_language(lang) == "en" or lang == PSEUDO:
        return problems
    found = catalogue(lang)
    missing = [key for key in SOURCE if key not in found and f"{PREFIX}{key}" not in strings]
    if not missing:
        return problems
    if lang == game.meta.language:
        where = game.locs.get("language", game.loc)
    else:
        where = Location(display_path(locale_dir(game) / f"{lang}.po"), 1, 1)
    said = "no words of its own" if len(missing) == len(SOURCE) else f"only {len(SOURCE) - len(missing)} of its {len(SOURCE)} own words"
    problems.warn(
        where,
        "own-words-missing",
        f"pnp has {said} in '{lang}': what it prints itself (the ruler's caption, the sheets' and folds' labels, the assembly pages,"
        f" a rulebook's contents and index, the PDFs' subjects) will be in English; expected {PREFIX}ID strings in game.yaml"
        f" (pnp/i18n/own.py lists the ids) or a catalogue of pnp's words, pnp/i18n/own/{base_language(lang)}.po",
    )
    return problems
