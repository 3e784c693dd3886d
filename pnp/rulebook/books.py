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

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ..edition import Edition
from ..errata import face_hash, file_hash
from ..errors import PnpError, Problems
from ..faces import Face
from ..files import Written
from ..images import find_image
from ..options import BuildOptions
from ..paper import booklet_for, rulebook_page
from ..render import Renderer
from .booklet import sheet_sides
from .check import check_document, check_facts
from .document import CardRef, Document, Picture, spans_of, walk
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
    process, before it forks the one that sets them) and set from these on the paper and
    as a booklet; the cards they show are laid out once for both formats and every pass."""

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

    def key(self, paper: str) -> str:
        """What the rulebooks of this language printed for sheets on `paper` depend on, as a
        short hash: the documents (after translation and Jinja), the faces of the cards and
        the pictures they show, the symbol and font files, the labels and titles, and the
        page formats. Equal keys mean equal PDFs, so a watcher that kept the last key may
        skip setting them again. Lays out the cards shown (once: setting them reuses them)."""
        edition, project = self.edition, self.edition.project
        parts: list = [paper, rulebook_page(paper), booklet_for(paper), edition.lang, edition.game.meta.title, edition.game.meta.author]
        parts.append(labels(edition.lang, edition.game.meta.strings))
        for _, doc in self.documents:
            parts.append(repr(doc))
            for span in (span for block in walk(doc.blocks) for spans in spans_of(block) for span in spans):
                if isinstance(span, CardRef):
                    face = self.face(span)
                    parts.append(face_hash(face, project.symbols) if face is not None else None)
                elif isinstance(span, Picture):
                    parts.append(_picture_hash(span, edition.game.root))
        parts += [(sid, file_hash(str(path))) for sid, path in sorted(project.symbols.files.items())]
        parts += [(name, file_hash(str(project.fonts.get(name).path))) for name in project.fonts.names()]
        return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()[:20]


def _picture_hash(picture: Picture, root: Path) -> str | None:
    try:
        return file_hash(str(find_image(picture.path, root, picture.loc, "image")))
    except PnpError:
        return None  # reported by the check


def prepare_rulebooks(edition: Edition) -> Rulebooks:
    """The rulebooks of `edition`, filled in, parsed and checked (not yet set: setting them
    reports what their texts lack)."""
    problems = Problems()
    return Rulebooks(edition, _checked_documents(edition, problems, set_text=False), problems)


def write_rulebook(
    books: Rulebooks, source: Source, doc: Document, kind: str, options: BuildOptions, problems: Problems, txn, settled: SettledPages
) -> tuple[Written, Slot, Book]:
    """One rulebook in one mode, of one `kind`: "paper" (the PDF on the build's paper) or
    "booklet" (A5 pages on A4, half-letter on Letter), written as a temporary file of the
    build's transaction `txn`, and the pages it settled on (set from those in `settled`);
    what setting it finds goes to `problems`."""
    from .writer import write_pdf

    game, lang = books.edition.game, books.edition.lang
    inputs = _inputs(books.edition, problems, books.face)
    name = source.id + (f"-{doc.mode}" if doc.mode else "")
    out = options.out / game.name
    slot = (lang, source.id, doc.mode, kind)
    if kind == "paper":
        page = rulebook_page(options.sheet.paper)
        data, pages, book = write_pdf(doc, page, inputs, known=settled.books.get(slot))
        target = out / f"{name}-{lang}-{page.paper.name}.pdf"
        txn.path_for(target).write_bytes(data)
        return Written(target, 0, pages, "either"), slot, book  # no backs to line up
    booklet = booklet_for(options.sheet.paper)
    data, pages, book = write_pdf(doc, booklet.page, inputs, booklet, settled.books.get(slot))
    target = out / f"{name}-{lang}-{booklet.page.paper.name}-booklet.pdf"
    txn.path_for(target).write_bytes(data)
    return Written(target, 0, sheet_sides(pages), "short"), slot, book  # folded: turned over its short edge
