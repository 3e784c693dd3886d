"""Every rulebook of a game in one language (an edition), once per mode: read, checked
against the game's data, and written as a PDF on the build's paper or as a booklet.

    source.py    read the files, cut them into blocks, translate, fill in Jinja, parse
    document.py  the typed document (headings, paragraphs, tables, blocks, inline items)
    check.py     references, symbols, cards, facts
    flow.py      the flowables that set text with pnp.text (hyphenated, symbols inline)
    writer.py    pages: TOC, running header, index, multi-pass until page numbers settle
    booklet.py   half-size pages imposed 2-up for saddle stitching
"""

from __future__ import annotations

from ..edition import Edition
from ..errors import Problems
from ..faces import Face
from ..files import Written
from ..options import BuildOptions
from ..paper import booklet_for, rulebook_page
from .check import check_document, check_facts
from .document import Document
from .labels import labels
from .source import Source, render


def documents(edition: Edition, problems: Problems) -> list[tuple[Source, Document]]:
    """Every rulebook of the game in the edition's language, once per mode: its sources,
    read once for every language, with the edition's translations of their blocks."""
    return [
        (source, render(source, edition.game, edition.lang, mode, edition.strings, problems))
        for source in edition.originals.sources
        for mode in source.defn.modes or [None]
    ]


def check_rulebooks(edition: Edition) -> Problems:
    """What `pnp check` reports about the rulebooks in one language (each once, though a
    block is rendered once per mode), including characters the fonts lack: every text
    is set once, without pages."""
    problems = Problems()
    _checked_documents(edition, problems, set_text=True)
    return problems


def _checked_documents(edition: Edition, problems: Problems, set_text: bool) -> list[tuple[Source, Document]]:
    """Fill in and parse every rulebook once, and check them (with what reading their
    files found); `set_text` also sets every text to find characters the fonts lack (a
    build does that when it typesets)."""
    from .writer import check_text

    problems.extend(edition.originals.problems)
    if edition.lang == edition.source.meta.language:  # facts are about the game as written: checked once
        for source in edition.originals.sources:
            check_facts(source, edition.source, problems)
    pairs = documents(edition, problems)
    for source, doc in pairs:
        check_document(doc, edition.game, edition.project.symbols.ids, problems)
        if set_text:
            check_text(doc, _inputs(edition, problems), source.title_locs)
    return pairs


def _inputs(edition: Edition, problems: Problems, face=None):
    from .writer import Inputs

    project, game = edition.project, edition.game
    return Inputs(
        project.fonts,
        project.symbols,
        game.meta.title,
        game.meta.author,
        labels(edition.lang, game.meta.strings),
        face or (lambda ref: None),
        problems,
        game.root,
    )


def write_rulebooks(edition: Edition, options: BuildOptions, kind: str, problems: Problems, txn) -> list:
    """Every rulebook of the game in one language (one per mode), of one `kind`: "paper"
    (the PDF on the build's paper) or "booklet" (A5 pages on A4, half-letter on Letter), written as
    temporary files of the build's transaction `txn`. Returns (path, 0, pages) per file,
    like the decks; nothing when a check fails (unless --force)."""
    from .writer import write_pdf

    found = Problems()
    pairs = _checked_documents(edition, found, set_text=False)  # write_pdf sets the texts and reports them
    problems.extend(found)
    if (found.errors and not options.force) or not pairs:
        return []
    game, lang, layouts = edition.game, edition.lang, edition.project.layouts
    renderer = edition.renderer()
    faces: dict[tuple[str, str, str], Face | None] = {}

    def face(ref):  # a card shown in the book: laid out once, drawn in every pass and format
        key = (ref.deck, ref.id, ref.side)
        if key not in faces:
            pair = layouts.get(ref.deck)
            card = next((c for c in game.decks[ref.deck].cards if c.id == ref.id), None)
            layout = None if pair is None or card is None else pair[1] if ref.side == "back" else pair[0]
            faces[key] = renderer.face(card, layout, ref.side, problems) if layout is not None else None
        return faces[key]

    inputs = _inputs(edition, problems, face)
    page = rulebook_page(options.sheet.paper)
    out = options.out / game.name
    written = []
    for source, doc in pairs:
        name = source.id + (f"-{doc.mode}" if doc.mode else "")
        if kind == "paper":
            data, pages = write_pdf(doc, page, inputs)
            target = out / f"{name}-{lang}-{page.paper.name}.pdf"
            txn.path_for(target).write_bytes(data)
            written.append(Written(target, 0, pages, "either"))  # no backs to line up
        if kind == "booklet":
            from .booklet import impose  # with pypdf, slow to import: only where it is used

            booklet = booklet_for(options.sheet.paper)
            pages, _ = write_pdf(doc, booklet.page, inputs)
            data, sides = impose(pages, booklet, f"{game.meta.title}: {doc.title}", game.meta.author)
            target = out / f"{name}-{lang}-{booklet.page.paper.name}-booklet.pdf"
            txn.path_for(target).write_bytes(data)
            written.append(Written(target, 0, sides, "short"))  # folded: turned over its short edge
    return written
