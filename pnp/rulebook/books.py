"""Every rulebook of a game in one language (an edition), once per mode: read, checked
against the game's data, set once and written as a PDF on the build's paper and as a booklet.

    source.py    read the files, cut them into blocks, translate, fill in Jinja, parse
    document.py  the typed document (headings, paragraphs, tables, blocks, inline items)
    check.py     references, symbols, cards, facts
    flow.py      the flowables that set text with pnp.text (hyphenated, symbols inline)
    writer.py    pages: TOC, running header, index, multi-pass until page numbers settle
    booklet.py   half-size pages imposed 2-up for saddle stitching
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ..edition import Edition
from ..errors import Problems
from ..faces import Face
from ..files import Written
from ..options import BuildOptions
from ..paper import rulebook_formats
from ..render import Renderer
from .booklet import sheet_sides
from .check import check_document, check_facts
from .document import CardRef, Document
from .labels import labels
from .settled import SettledPages, Slot
from .source import Source, render

if TYPE_CHECKING:  # platypus: only where rulebooks are set
    from .flow import Book


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


@dataclass
class Rulebooks:
    """Every rulebook of one language, filled in, parsed and checked once (in the build's
    process, before it forks the one that sets them) and set from these once for the
    paper and the booklet; the cards they show are laid out once for every pass."""

    edition: Edition
    documents: list[tuple[Source, Document]]  # one per rulebook and mode
    problems: Problems  # what reading and checking them found, then what laying out their cards finds
    faces: dict[tuple[str, str, str], Face | None] = field(default_factory=dict)  # (deck, card, side)

    def face(self, ref: CardRef) -> Face | None:
        """A card shown in a book, by its own layout; None if the book names no such card
        (reported by the check)."""
        key = (ref.deck, ref.id, ref.side)
        if key not in self.faces:
            edition = self.edition
            pair = edition.project.layouts.get(ref.deck)
            card = next((c for c in edition.game.decks[ref.deck].cards if c.id == ref.id), None) if ref.deck in edition.game.decks else None
            layout = None if pair is None or card is None else pair[1] if ref.side == "back" else pair[0]
            self.faces[key] = self.renderer.face(card, layout, ref.side, self.problems) if layout is not None else None
        return self.faces[key]

    @cached_property
    def renderer(self) -> Renderer:
        return self.edition.renderer()


def prepare_rulebooks(edition: Edition) -> Rulebooks:
    """The rulebooks of `edition`, filled in, parsed and checked (not yet set: setting them
    reports what their texts lack)."""
    problems = Problems()
    return Rulebooks(edition, _checked_documents(edition, problems, set_text=False), problems)


def write_rulebook(
    books: Rulebooks, source: Source, doc: Document, options: BuildOptions, problems: Problems, txn, settled: SettledPages
) -> tuple[list[Written], Slot, Book]:
    """One rulebook in one mode, set once and written as the paper book (on the build's
    paper) and as the booklet (A5 pages on A4, half-letter on Letter), each a temporary
    file of the build's transaction `txn`, and the pages it settled on (set from those in
    `settled`); what setting it finds goes to `problems`."""
    from .writer import write_pdfs

    game, lang = books.edition.game, books.edition.lang
    formats = rulebook_formats(options.sheet.paper)
    slot = (lang, source.id, doc.mode)
    paper, booklet, pages, book = write_pdfs(doc, formats, _inputs(books.edition, problems, books.face), settled.books.get(slot))
    stem = options.out / game.name / f"{source.id}{f'-{doc.mode}' if doc.mode else ''}-{lang}"
    on_paper, folded = Path(f"{stem}-{formats.paper.name}.pdf"), Path(f"{stem}-{formats.page.paper.name}-booklet.pdf")
    txn.path_for(on_paper).write_bytes(paper)
    txn.path_for(folded).write_bytes(booklet)
    return (
        [
            Written(on_paper, 0, pages, "either"),  # no backs to line up
            Written(folded, 0, sheet_sides(pages), "short"),  # folded: turned over its short edge
        ],
        slot,
        book,
    )
