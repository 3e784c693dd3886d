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


def check_rulebooks(project, game: Game, lang: str) -> Problems:
    """What `pnp check` reports about the rulebooks in one language (each once, though a
    block is rendered once per mode), including characters the fonts lack: every text
    is set once, without pages."""
    from .writer import check_text

    source_game = project.game
    problems = Problems()
    sources = read_sources(source_game, problems)
    if lang == source_game.meta.language:
        for source in sources:
            check_facts(source, source_game, problems)
    for source, doc in documents(source_game, game, lang, problems, sources):
        check_document(doc, game, project.symbols.ids, problems)
        check_text(doc, _inputs(project, game, lang, problems), source.title_locs)
    problems.items = list(dict.fromkeys(problems.items))
    return problems


def _inputs(project, game: Game, lang: str, problems: Problems, face=None):
    from .labels import labels
    from .writer import Inputs

    return Inputs(
        project.fonts, project.symbols, game.meta.title, game.meta.author, labels(lang, game.meta.strings), face or (lambda ref: None), problems, game.root
    )


def write_rulebooks(project, game: Game, lang: str, out, paper: str, problems: Problems, txn, force: bool = False) -> list:
    """Every rulebook of the game in one language (one per mode): the PDF on `paper` and
    the A5 booklet, written as temporary files of the build's transaction `txn`. Returns
    (path, 0, pages) per file, like the decks; nothing when a check fails (unless `force`)."""
    from ..render import Renderer
    from .booklet import impose
    from .writer import PAPERS, write_pdf

    found = check_rulebooks(project, game, lang)
    problems.extend(found)
    if found.errors and not force:
        return []
    local = Problems()
    pairs = documents(project.game, game, lang, local, read_sources(project.game, local))
    if not pairs:
        return []
    renderer = Renderer(game, project.fonts, project.symbols, lang)

    def face(ref):
        layouts = project.layouts.get(ref.deck)
        card = next((c for c in game.decks[ref.deck].cards if c.id == ref.id), None)
        if layouts is None or card is None:
            return None
        layout = layouts[1] if ref.side == "back" else layouts[0]
        return renderer.face(card, layout, ref.side, problems) if layout is not None else None

    inputs = _inputs(project, game, lang, problems, face)
    paper = {"a3": "a4", "legal": "letter"}.get(paper, paper)
    written = []
    for source, doc in pairs:
        name = source.id + (f"-{doc.mode}" if doc.mode else "")
        data, pages = write_pdf(doc, PAPERS[paper], inputs)
        target = out / game.name / f"{name}-{lang}-{paper}.pdf"
        txn.path_for(target).write_bytes(data)
        written.append((target, 0, pages))
        a5, _ = write_pdf(doc, PAPERS["a5"], inputs)
        booklet, sides = impose(a5, f"{game.meta.title}: {doc.title}", game.meta.author)
        target = out / game.name / f"{name}-{lang}-a5-booklet.pdf"
        txn.path_for(target).write_bytes(booklet)
        written.append((target, 0, sides))
    problems.items = list(dict.fromkeys(problems.items))
    return written
