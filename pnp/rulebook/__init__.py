"""Rulebooks: Markdown in the game folder, checked against the game's data and typeset
into print-ready PDFs and A5 booklets (docs/rulebook.md).

    source.py    read the files, cut them into blocks, translate, fill in Jinja, parse
    document.py  the typed document (headings, paragraphs, tables, blocks, inline items)
    check.py     references, symbols, cards, facts
    flow.py      the flowables that set text with pnp.text (hyphenated, symbols inline)
    writer.py    pages: TOC, running header, index, multi-pass until page numbers settle
    booklet.py   A5 pages imposed 2-up for saddle stitching
"""

from __future__ import annotations

from ..errors import Problems
from ..model import Game
from .check import check_document, check_facts
from .document import Document
from .source import Source, read_sources, render


def translated_blocks(source_game: Game, lang: str) -> dict[str, str] | None:
    """The usable translations of `lang` (None for the source language). Missing and
    stale ones are reported where the game's strings are (build.language_game)."""
    if lang == source_game.meta.language:
        return None
    from ..i18n import translations

    return translations(source_game, lang, True, Problems())[0]


def documents(source_game: Game, game: Game, lang: str, problems: Problems, sources: list[Source] | None = None) -> list[tuple[Source, Document]]:
    """Every rulebook of the game in one language, once per mode."""
    if sources is None:
        sources = read_sources(source_game, problems)
    strings = translated_blocks(source_game, lang)
    return [(source, render(source, game, lang, mode, strings, problems)) for source in sources for mode in source.defn.modes or [None]]


def check_rulebooks(source_game: Game, game: Game, lang: str, symbols: frozenset[str]) -> Problems:
    """What `pnp check` reports about the rulebooks in one language (each once, though a
    block is rendered once per mode)."""
    problems = Problems()
    sources = read_sources(source_game, problems)
    if lang == source_game.meta.language:
        for source in sources:
            check_facts(source, source_game, problems)
    for _, doc in documents(source_game, game, lang, problems, sources):
        check_document(doc, game, symbols, problems)
    problems.items = list(dict.fromkeys(problems.items))
    return problems
