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
from ..files import Written
from ..model import Game
from ..paper import BOOKLET_PAGE, rulebook_page
from ..render import Face
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
    problems = Problems()
    _checked_documents(project, game, lang, problems, set_text=True)
    return problems


def _checked_documents(project, game: Game, lang: str, problems: Problems, set_text: bool) -> list[tuple[Source, Document]]:
    """Read, fill in and parse every rulebook once, and check them; `set_text` also sets
    every text to find characters the fonts lack (a build does that when it typesets)."""
    from .writer import check_text

    source_game = project.game
    sources = read_sources(source_game, problems)
    if lang == source_game.meta.language:
        for source in sources:
            check_facts(source, source_game, problems)
    pairs = documents(source_game, game, lang, problems, sources)
    for source, doc in pairs:
        check_document(doc, game, project.symbols.ids, problems)
        if set_text:
            check_text(doc, _inputs(project, game, lang, problems), source.title_locs)
    return pairs


def _inputs(project, game: Game, lang: str, problems: Problems, face=None):
    from .labels import labels
    from .writer import Inputs

    return Inputs(
        project.fonts, project.symbols, game.meta.title, game.meta.author, labels(lang, game.meta.strings), face or (lambda ref: None), problems, game.root
    )


def write_rulebooks(project, game: Game, lang: str, out, paper: str, kind: str, problems: Problems, txn, force: bool = False) -> list:
    """Every rulebook of the game in one language (one per mode), of one `kind`: "paper"
    (the PDF on `paper`) or "booklet" (A5 pages imposed on A4), written as temporary files
    of the build's transaction `txn`. Returns (path, 0, pages) per file, like the decks;
    nothing when a check fails (unless `force`)."""
    from ..render import Renderer
    from .writer import write_pdf

    found = Problems()
    pairs = _checked_documents(project, game, lang, found, set_text=False)  # write_pdf sets the texts and reports them
    problems.extend(found)
    if (found.errors and not force) or not pairs:
        return []
    renderer = Renderer(game, project.fonts, project.symbols, lang)
    faces: dict[tuple[str, str, str], Face | None] = {}

    def face(ref):  # a card shown in the book: laid out once, drawn in every pass and format
        key = (ref.deck, ref.id, ref.side)
        if key not in faces:
            layouts = project.layouts.get(ref.deck)
            card = next((c for c in game.decks[ref.deck].cards if c.id == ref.id), None)
            layout = None if layouts is None or card is None else layouts[1] if ref.side == "back" else layouts[0]
            faces[key] = renderer.face(card, layout, ref.side, problems) if layout is not None else None
        return faces[key]

    inputs = _inputs(project, game, lang, problems, face)
    page = rulebook_page(paper)
    written = []
    for source, doc in pairs:
        name = source.id + (f"-{doc.mode}" if doc.mode else "")
        if kind == "paper":
            data, pages = write_pdf(doc, page, inputs)
            target = out / game.name / f"{name}-{lang}-{page.paper.name}.pdf"
            txn.path_for(target).write_bytes(data)
            written.append(Written(target, 0, pages, "either"))  # no backs to line up
        if kind == "booklet":
            from .booklet import impose  # with pypdf, slow to import: only where it is used

            a5, _ = write_pdf(doc, BOOKLET_PAGE, inputs)
            booklet, sides = impose(a5, f"{game.meta.title}: {doc.title}", game.meta.author)
            target = out / game.name / f"{name}-{lang}-{BOOKLET_PAGE.paper.name}-booklet.pdf"
            txn.path_for(target).write_bytes(booklet)
            written.append(Written(target, 0, sides, "short"))  # folded: turned over its short edge
    return written
