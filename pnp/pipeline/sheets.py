"""Draw each print unit and tuck box as its plan says (plan/): the faces are laid out as
their sheets are drawn, and placed where the plan put them. Nothing here decides a
position or finds a sheet-* problem: a unit that could not be planned was reported by the
check, and is not drawn."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from reportlab.lib.units import mm

from pnp.base.errors import PnpError, Problems
from pnp.base.output import Written
from pnp.i18n.own import Words, own_words
from pnp.impose.sheets import Grid, Page, SharedSheets, Tiling
from pnp.layout.elements.base import Layout
from pnp.layout.faces import Face
from pnp.layout.renderer import Renderer
from pnp.load.model import Deck
from pnp.pipeline.reuse import COLD, Reuse
from pnp.plan.sheets import GridSheets, GroupSheets, Pieces, SizedSheets, UnitPlan
from pnp.project.edition import Edition
from pnp.project.options import BuildOptions
from pnp.write.manifest import Drawn, Hashes, face_hash
from pnp.write.pdf import DocInfo, Writing, ruler_caption, subject, write_sheets

if TYPE_CHECKING:
    from pnp.plan.tuckboxes import TuckboxPlan


class PathFor(Protocol):
    """Gives each PDF its temporary file: the build's Transaction, or in a worker process the file its parent chose."""

    def path_for(self, target: Path) -> Path: ...


@dataclass(repr=False, eq=False)
class Sheets:
    """What drawing the sheet PDFs of one language of a build takes besides the deck."""

    edition: Edition
    renderer: Renderer  # the edition's (counting the faces it sets, for the progress bar)
    options: BuildOptions
    members: set[str] | None  # the components of --deal; None: every component
    problems: Problems  # where the problems found while laying out go
    txn: PathFor  # gives each PDF its temporary file
    cut_files: list[tuple[Path, bytes]] = field(default_factory=list)  # a cutting machine's files, written by the build
    drawn: Drawn = field(default_factory=Drawn)  # the hashes of the faces drawn: the manifest
    hashes: Hashes = field(default_factory=Hashes)  # what the faces' hashes share, found once a language (manifest.face_hash)
    reuse: Reuse = COLD  # what earlier builds left that this one may reuse (the watcher's)

    def record(self, deck_id: str, index: int, card_id: str, side: str, face: Face) -> Face:
        """Note a face drawn (of card `index`, `card_id`), to be hashed for the manifest (write/manifest.py)."""
        if self.drawn.noted(deck_id, index, side):  # a copy drawn again
            return face
        make = partial(face_hash, face, self.edition.project.symbols, self.hashes)
        found = self.reuse.face_hash(self.edition.lang, deck_id, card_id, side, face, make)
        if isinstance(found, str):  # known already
            self.drawn.add(deck_id, index, side, found)
        else:
            self.drawn.note(deck_id, index, side, found)
        return face

    def face(self, deck: Deck, index: int, layout: Layout, side: str) -> Face:
        """Card `index` of `deck` set in `layout`, its hash recorded; a face kept from an
        earlier build is found without unpacking the card."""
        card_id = deck.card_id(index)
        found = self.reuse.face(self.renderer, deck.id, card_id, layout, side, self.problems)
        if found is None:
            found = self.renderer.face(deck.cards[index], layout, side, self.problems)
        return self.record(deck.id, index, card_id, side, found)

    @property
    def words(self) -> Words:
        """pnp's own words in the edition's language, with the game's replacements (`strings: pnp.ID`)."""
        return own_words(self.edition.lang, self.edition.game.meta.strings)

    def writing(self, target: Path) -> Writing:
        """How the faces and pages of `target` get into it (write.pdf.Writing), as `reuse` has it."""
        return self.reuse.writing(target)


def write_cut_files(files: list[tuple[Path, bytes]], txn: PathFor) -> list[Path]:
    """Write a cutting machine's files that drawing a PDF made (`Sheets.cut_files`) into the build's transaction."""
    for target, data in files:
        txn.path_for(target).write_bytes(data)
    return [target for target, _ in files]


def write_unit(sheets: Sheets, plan: UnitPlan) -> Written | None:
    """Draw one print unit into a temporary file of the build, as planned; None when it
    prints nothing."""
    _stop_if_unplanned(sheets, plan.problems)
    drawn = plan.sheets
    if drawn is None:
        return None
    target = plan.target(sheets.options.out, sheets.edition.lang)
    if isinstance(drawn, GridSheets):
        return _draw_grid(sheets, drawn, target)
    if isinstance(drawn, SizedSheets):
        return _draw_sizes(sheets, drawn, target)
    if isinstance(drawn, GroupSheets):
        return _draw_group(sheets, drawn, target, plan.unit[0] or "", plan.decks)
    return _draw_pieces(sheets, drawn, target)


def _draw_grid(sheets: Sheets, plan: GridSheets, target: Path) -> Written:
    """A deck of one size on its grid (or folded sheet)."""
    deck = sheets.edition.game.decks[plan.deck]
    front, back = sheets.edition.project.layouts[deck.id]
    items = plan.items

    @lru_cache(maxsize=2 * plan.grid.per_sheet + 2)  # a sheet's fronts, then the same cards' backs (sized by the grid, folded or not)
    def face(index: int, side: str) -> Face:
        return sheets.face(deck, index, front if side == "front" else back, side)

    def face_of(side, item):
        return face(items[item], side)

    spec = sheets.options.sheet
    info = _doc_info(sheets, deck.name, sheets.words("meta.cards", n=len(items)), plan.sides, plan.duplex)
    words = sheets.words
    caption = ruler_caption(_named(sheets.edition, deck.id), words, plan.sheets)
    pages = _keep_cuts(plan.pages(), sheets, target, plan.fronts)
    count = write_sheets(
        sheets.txn.path_for(target), pages, plan.fronts, info, face_of, sheets.edition.project.symbols, caption, spec.bleed * mm, words, sheets.writing(target)
    )
    return Written(target, len(items), count, spec.flip if plan.duplex else "fold" if plan.fold else None)


def _draw_sizes(sheets: Sheets, plan: SizedSheets, target: Path) -> Written:
    """A deck that chooses its layout per card: each card in the layouts it chose."""
    project, spec = sheets.edition.project, sheets.options.sheet
    deck = sheets.edition.game.decks[plan.deck]
    items = plan.items

    @lru_cache(maxsize=2 * max(g.per_sheet for g in plan.grids) + 2)
    def face(index: int, side: str) -> Face:
        front, back = project.card_layouts(deck.id, index)
        return sheets.face(deck, index, front if side == "front" else back, side)

    def face_of(side, item):
        return face(items[item], side)

    info = _doc_info(sheets, deck.name, sheets.words("meta.cards", n=len(items)), plan.sides, plan.duplex)
    words = sheets.words
    caption = ruler_caption(_named(sheets.edition, deck.id), words, plan.sheets)
    count = write_sheets(
        sheets.txn.path_for(target), plan.pages, plan.grids[0], info, face_of, project.symbols, caption, spec.bleed * mm, words, sheets.writing(target)
    )
    return Written(target, len(items), count, spec.flip if plan.duplex else None)


def _draw_group(sheets: Sheets, plan: GroupSheets, target: Path, group: str, ids: list[str]) -> Written:
    """The decks of one group on their shared sheets."""
    game, project = sheets.edition.game, sheets.edition.project
    entries = plan.entries

    @lru_cache(maxsize=512)
    def face(item: int, side: str) -> Face:
        deck_id, index = entries[item]
        front, back = project.card_layouts(deck_id, index)
        return sheets.face(game.decks[deck_id], index, front if side == "front" else back, side)

    def face_of(side, item):
        return face(item, side)

    spec = sheets.options.sheet
    names = ", ".join(game.decks[d].name for d in ids)
    info = _doc_info(sheets, names, sheets.words("meta.components", n=len(entries)), plan.sides, plan.duplex)
    words = sheets.words
    caption = ruler_caption(f"{sheets.edition.plain()} · {group}", words, plan.sheets)
    pages = _keep_cuts(plan.shared.pages, sheets, target, plan.shared)
    count = write_sheets(
        sheets.txn.path_for(target), pages, plan.shared, info, face_of, project.symbols, caption, spec.bleed * mm, words, sheets.writing(target)
    )
    return Written(target, len(entries), count, spec.flip if plan.duplex else None)


def _draw_pieces(sheets: Sheets, plan: Pieces, target: Path) -> Written:
    """A deck larger than the paper: each component on an assembly page and its pieces."""
    edition = sheets.edition
    game = edition.game
    deck = game.decks[plan.deck]
    front, _ = edition.project.layouts[deck.id]

    named = _named(edition, deck.id)

    def faces():
        for index in plan.items:
            yield f"{named} · {deck.card_id(index)}", sheets.face(deck, index, front, "front")

    count = sheets.words("meta.pieces", n=len(plan.tiling.pieces), what=sheets.words("meta.components", n=len(plan.items)))
    info = _doc_info(sheets, deck.name, count, "one-sided", False)
    words = sheets.words
    notes = [words(key, **values) for key, values in plan.notes]
    count = _write_pieces(sheets, target, plan.tiling, faces(), info, ruler_caption(named, words), notes)
    return Written(target, len(plan.items), count)  # pieces are printed one-sided


def _write_pieces(sheets: Sheets, target: Path, tiling: Tiling, faces: Iterable[tuple[str, Face]], info: DocInfo, caption, notes: list[str]) -> int:
    """Components larger than the paper into `target`: each (its label, its face) on an
    assembly page and its pieces (write/pieces.py); returns the page count."""
    project = sheets.edition.project
    bold = project.fonts.get("sans-bold").registered if "sans-bold" in project.fonts else info.initial_font
    from pnp.write.pieces import write_pieces  # here for speed: only a component larger than the paper is printed in pieces

    return write_pieces(sheets.txn.path_for(target), tiling, faces, info, project.symbols, (info.initial_font, bold), caption, notes, sheets.words)


def _stop_if_unplanned(sheets: Sheets, problems: Problems) -> None:
    """A PDF whose plan failed (its error reported by the check) ends the build here, as with --force."""
    if problems.errors:
        sheets.problems.extend(problems)
        raise PnpError(sheets.problems)


def _keep_cuts(pages: Iterable[Page], sheets: Sheets, target: Path, grid: Grid | SharedSheets) -> Iterator[Page]:
    """The pages, passed on as they are drawn; with a cutting machine, each page's cut file
    (SVG and DXF, beside the PDF) is kept for the build to write."""
    spec = sheets.options.sheet
    if spec.cutter is None:
        yield from pages
        return
    kept = []
    for page in pages:
        if page.machine:
            kept.append(page)
        yield page
    if kept:
        from pnp.write.cutfiles import cut_files  # here for speed: only a build for a cutting machine writes cut files

        sheets.cut_files.extend(cut_files(target, kept, spec, grid.page_w, grid.page_h))


def draw_tuckbox(sheets: Sheets, plan: TuckboxPlan, target: Path) -> Written:
    """One tuck box's net, laid out now, where its plan puts it: alone on a sheet, or in pieces."""
    _stop_if_unplanned(sheets, plan.problems)
    edition = sheets.edition
    symbols = edition.project.symbols
    box = edition.project.tuckboxes[plan.box]
    deck = edition.game.decks[box.deck]
    from pnp.impose.tuckbox import BLEED  # here for speed, as box_face
    from pnp.layout.tuckbox_net import box_face  # here for speed: only a game with tuck boxes draws one

    face = box_face(sheets.renderer, box, sheets.problems)
    words = sheets.words
    what = words("tuckbox", deck=deck.name)
    info = _doc_info(sheets, what, words("meta.tuckbox", n=deck.count), "one-sided", False)
    label = f"{edition.plain()} · {words('tuckbox', deck=edition.plain(deck.id))}"  # as the sheets' captions print it
    caption = ruler_caption(label, words)
    if plan.grid is not None:
        count = write_sheets(sheets.txn.path_for(target), plan.pages, plan.grid, info, lambda page, item, face=face: face, symbols, caption, BLEED * mm, words)
    else:
        assert plan.tiling is not None
        notes = [words("assembly.tuckbox")]
        count = _write_pieces(sheets, target, plan.tiling, [(label, face)], info, caption, notes)
    return Written(target, 0, count)


def _named(edition: Edition, deck: str) -> str:
    """'Game · Deck' as the sheets' own captions print it (Edition.plain)."""
    return f"{edition.plain()} · {edition.plain(deck)}"


def _doc_info(sheets: Sheets, what: str, count: str, sides: str, duplex: bool) -> DocInfo:
    """A sheet PDF's title and subject (what it holds, on what paper, how to print it: `sides`
    is 'duplex', 'fronts', 'backs', 'folded' or 'one-sided') in the edition's language and,
    for duplex, the edge viewers are asked to turn the paper over."""
    meta, spec, words = sheets.edition.game.meta, sheets.options.sheet, sheets.words
    return DocInfo(
        title=f"{meta.title}: {what}",
        author=meta.author,
        subject=subject(words, count, spec.sheet_paper.shown, sides, spec.flip if duplex else None),
        initial_font=sheets.edition.project.fonts.get("sans").registered,
        flip=spec.flip if duplex else None,
    )
