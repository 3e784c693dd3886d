"""Every rulebook of a game in one language (an edition), once per mode: read, checked
against the game's data, set once and written as a PDF on the build's paper and as a booklet.

    rulebook/source.py    read the files, cut them into blocks, translate, fill in Jinja, parse
    rulebook/document.py  the typed document (headings, paragraphs, tables, blocks, inline items)
    check/rulebooks.py    references, symbols, cards, facts
    rulebook/flow.py      the flowables that set text with pnp.layout.text (hyphenated, symbols inline)
    rulebook/writer.py    pages: TOC, running header, index, multi-pass until page numbers settle
    rulebook/booklet.py   half-size pages imposed 2-up for saddle stitching
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.base.errors import Location, PnpError, Problems, fail
from pnp.base.forked import Aside
from pnp.base.output import Transaction, Written
from pnp.base.signals import Interrupted, stop_if_received
from pnp.check.rulebooks import book_inputs, checked_documents
from pnp.impose.paper import rulebook_formats
from pnp.layout.faces import Face
from pnp.layout.renderer import Renderer
from pnp.layout.typography import hyphenator
from pnp.project.edition import Edition
from pnp.project.options import BuildOptions
from pnp.rulebook.booklet import sheet_sides
from pnp.rulebook.document import CardRef, Document
from pnp.rulebook.settled import SettledPages, Slot
from pnp.rulebook.source import Source

if TYPE_CHECKING:  # platypus: only where rulebooks are set
    from pnp.rulebook.flow import Book


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
    return Rulebooks(edition, checked_documents(edition, problems, set_text=False), problems)


def write_rulebook(
    books: Rulebooks, source: Source, doc: Document, options: BuildOptions, problems: Problems, txn, settled: SettledPages
) -> tuple[list[Written], Slot, Book]:
    """One rulebook in one mode, set once and written as the paper book (on the build's
    paper) and as the booklet (A5 pages on A4, half-letter on Letter), each a temporary
    file of the build's transaction `txn`, and the pages it settled on (set from those in
    `settled`); what setting it finds goes to `problems`."""
    from pnp.rulebook.writer import write_pdfs

    game, lang = books.edition.game, books.edition.lang
    formats = rulebook_formats(options.sheet.paper)
    slot = (lang, source.id, doc.mode)
    paper, booklet, pages, book = write_pdfs(doc, formats, book_inputs(books.edition, problems, books.face), settled.books.get(slot))
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


def start_rulebooks(editions: list[Edition], options: BuildOptions, txn: Transaction, settled: SettledPages) -> list[Aside]:
    """The rulebooks of every language, filled in, parsed and checked here, then set aside
    in one forked process (set once for both formats), which inherits them, the fonts they are set in
    and the imports, while this one draws the decks; each is set from the pages it last
    settled on (`settled`, which keeps the new ones). Join the returned Asides for their
    files."""
    from pnp.rulebook.flow import Styles

    books = [prepare_rulebooks(edition) for edition in editions]
    names = Styles.for_size(rulebook_formats(options.sheet.paper).page.body).fonts()
    for edition in editions:  # registered once, here (each language's own): the decks use most of them too
        for name in names:
            edition.fonts.get(name)
    for edition in editions:  # read once, here: the decks hyphenate the same languages
        hyphenator(edition.lang)
    where = next(iter(editions[0].game.meta.rulebooks.values()))._loc
    return [Aside(partial(_write_rulebooks, books, options, settled), txn, "setting the rulebooks", where, settled.keep)]


def _write_rulebooks(books: list[Rulebooks], options: BuildOptions, settled: SettledPages, problems: Problems, txn: Transaction) -> list[tuple]:
    """Every rulebook in every language asked for, set once and written on the paper and as
    the booklet, with the pages each settled on. The editions' translation problems are
    reported with the decks. Each rulebook is set on its own, so that one pnp cannot set
    is named, with its language, where it is defined, and the others are still tried."""
    files, failed = [], False
    for book in books:
        problems.extend(book.problems)
        if book.problems.errors and not options.force:
            continue
        for source, doc in book.documents:
            try:
                files.append(write_rulebook(book, source, doc, options, problems, txn, settled))
            except Interrupted:
                raise
            except PnpError as err:
                problems.extend(err.problems)
                failed = True
            except OSError as exc:
                if txn.writes(exc):
                    raise txn.problem(exc) from None
                problems.extend(_unset(source.id, book.edition.lang, source.loc, exc).problems)
                failed = True
            except Exception as exc:  # noqa: BLE001 - a bug met on this rulebook: named, not a traceback from another process
                stop_if_received(exc)  # unless it was a signal, turned into another exception on its way
                problems.extend(_unset(source.id, book.edition.lang, source.loc, exc).problems)
                failed = True
        problems.extend(book.problems)  # what laying out the cards they show found
    if failed:
        raise PnpError(problems)
    return files


def _unset(rulebook: str, lang: str, where: Location, exc: BaseException) -> PnpError:
    return fail(
        where,
        "rulebook-failed",
        f"rulebook '{rulebook}' in '{lang}' could not be set: {type(exc).__name__}: {exc}; "
        "expected it set (simplify what it fails on, and report this as a bug in pnp)",
    )
