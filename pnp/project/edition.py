"""A game in one language (an edition: "the Czech edition"; not the game's `edition:`
field, its version), made once and handed to everything that checks or draws it in that
language: the decks, the rulebooks, the exported images.

Translating a game takes every string of it (cards, strings, rulebook blocks), the
language's catalogue and a copy of the game with the translations put in; the rulebooks'
Markdown is read both to extract its blocks and to set them. No stage does that for
itself (`pnp check --lang all` would extract the strings again and again, and read every
catalogue and rulebook file more than once): what every language is made from
(`Originals`) is read once per command, and each language is translated once into an
`Edition`; a build makes them all before it forks the process that sets the rulebooks,
which inherits them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pnp.assets.fonts import FontSet, missing_glyphs
from pnp.assets.shaping import needs_shaping
from pnp.base.errors import Location, Problems, display_path
from pnp.i18n.catalogues import Entry, extract, languages, locale_dir, translate, translations
from pnp.layout.renderer import Renderer
from pnp.load.model import Game
from pnp.project.project import Project

if TYPE_CHECKING:
    from pnp.rulebook.source import Source


@dataclass(repr=False, eq=False)
class Originals:
    """What every edition of a game is made from, read once: the rulebooks' Markdown cut
    into blocks (with what reading it found) and the strings to translate. Each is left
    empty when the command needs none: no rulebook is set, no language translated."""

    sources: list[Source] = field(default_factory=list)
    problems: Problems = field(default_factory=Problems)  # unreadable or missing rulebook files, reported where the rulebooks are checked
    entries: list[Entry] = field(default_factory=list)


def read_originals(game: Game, rulebooks: bool = True, translated: bool = True) -> Originals:
    """The rulebooks' sources (for `rulebooks`, or to extract their blocks) and, if
    anything is `translated`, every translatable string."""
    problems = Problems()
    sources: list[Source] = []
    rulebook: list[Entry] = []
    if game.meta.rulebooks and (rulebooks or translated):
        from pnp.rulebook.source import read_sources, rulebook_entries  # Markdown and Jinja: only for a game with rulebooks

        sources = read_sources(game, problems)
        rulebook = rulebook_entries(sources) if translated else []
    return Originals(sources, problems, extract(game, rulebook) if translated else [])


@dataclass(repr=False, eq=False)
class Edition:
    """The game in one language, with everything the lay-out stage needs to set it."""

    project: Project  # the game as written, its fonts, symbols and layouts
    lang: str
    game: Game  # in `lang`: the source game itself, or a translated copy
    strings: dict[str, str] | None  # usable translations by entry key (strings, cards, rulebook blocks); None in the source language
    originals: Originals = field(default_factory=Originals)  # shared by every edition of a command
    problems: Problems = field(default_factory=Problems)  # what translating found: reported by the command that uses the edition

    @classmethod
    def translated(
        cls, project: Project, lang: str, strings: dict[str, str] | None, originals: Originals | None = None, problems: Problems | None = None
    ) -> Edition:
        """The edition with `strings` put in (None: the source language); a worker process
        of a parallel build makes it from the strings the parent sends."""
        game = project.game if strings is None else translate(project.game, strings, lang)
        return cls(project, lang, game, strings, originals or Originals(), problems or Problems())

    @property
    def source(self) -> Game:
        """The game as written, in its source language."""
        return self.project.game

    @property
    def fonts(self) -> FontSet:
        """The game's fonts in this edition's language (fonts.yaml may replace some for it)."""
        return self.project.fonts.in_language(self.lang)

    def plain(self, deck: str | None = None) -> str:
        """The game's title, or `deck`'s name, as the sheets' own captions print it (the
        ruler's, a piece's label): those are plain lines in pnp's sans, not set by the text
        engine, so a name in a script that needs shaping, or with letters that font lacks,
        is printed as the game's source language has it (never boxes, nor letters in the
        wrong order). check.run.check_languages warns where that too cannot be printed."""
        if deck is None:
            name, source = self.game.meta.title, self.source.meta.title
        else:
            name, source = self.game.decks[deck].name, self.source.decks[deck].name
        return source if name != source and unprintable(name, self.project.fonts.get("sans").registered) else name

    def renderer(self) -> Renderer:
        """A renderer that sets faces of this edition."""
        return Renderer(self.game, self.fonts, self.project.symbols, self.lang, self.project.card_sizes)


def unprintable(text: str, font: str) -> bool:
    """Whether a plain line in `font` (a sheet's caption) cannot print `text` as written."""
    return needs_shaping(text) or bool(missing_glyphs(font, text))


def make_editions(project: Project, langs: list[str], allow_untranslated: bool = False, rulebooks: bool = True) -> list[Edition]:
    """The game in each of `langs`, translated once each from originals read once (the
    rulebooks' sources only if `rulebooks` are set or something is translated). A missing
    or stale translation is an error of the edition, or with `allow_untranslated` a
    warning that it is printed in the source language."""
    game = project.game
    originals = read_originals(game, rulebooks, any(lang != game.meta.language for lang in langs))
    return [_edition(project, lang, originals, allow_untranslated) for lang in langs]


def _edition(project: Project, lang: str, originals: Originals, allow_untranslated: bool) -> Edition:
    game = project.game
    if lang == game.meta.language:
        return Edition.translated(project, lang, None, originals)
    problems = Problems()
    strings, fallback = translations(game, originals.entries, lang, allow_untranslated, problems)
    if fallback and allow_untranslated:
        problems.warn(
            Location(display_path(locale_dir(game) / f"{lang}.po")),
            "untranslated-fallback",
            f"{fallback} strings are missing or fuzzy in '{lang}' and are printed in the source language",
        )
    return Edition.translated(project, lang, strings, originals, problems)


def resolve_languages(game: Game, langs: list[str] | None) -> list[str]:
    """None: the source language; 'all': the source and every catalogue."""
    if not langs:
        return [game.meta.language]
    if "all" in langs:
        return [game.meta.language] + [lang for lang in languages(game) if lang != game.meta.language]
    return list(dict.fromkeys(langs))
