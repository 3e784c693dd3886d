"""How each print unit goes on paper, decided before anything is drawn: a deck on a grid
(duplex, one-sided or folded), a deck of several sizes on sheets of each size, a group's
decks on shared sheets, or a component larger than the paper in pieces. Sizes come from
the layouts (their trim size and shape), never from a laid-out face; positions from
impose/sheets.py. Every `sheet-*` problem of a deck is found here, so `pnp check` reports
it, and the writer (pipeline/sheets.py) places only what a plan says."""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from reportlab.lib.units import mm

from pnp.base.errors import Problems
from pnp.impose.sheets import (
    MARK_REACH,
    TICK_GAP,
    DoesNotFit,
    Fold,
    Grid,
    Member,
    Page,
    Shape,
    SharedSheets,
    SheetSpec,
    Tiling,
    fit_grid,
    impose,
    impose_fold,
    mark_reach,
    plan_fold,
    plan_grid,
    plan_shared,
    plan_tiling,
    printable,
    short_marks,
)
from pnp.load.model import Deck
from pnp.project.project import Project

Unit = tuple[str | None, list[str]]  # what one PDF holds: a deck, or a group's decks


def print_units(project: Project) -> list[Unit]:
    """Each deck on its own, except decks with a `group`, which share one PDF (in the order
    their first deck comes in game.yaml)."""
    units: list[Unit] = []
    groups: dict[str, list[str]] = {}
    for deck_id in project.layouts:
        group = project.game.decks[deck_id].group
        if group is None:
            units.append((None, [deck_id]))
        elif group in groups:
            groups[group].append(deck_id)
        else:
            groups[group] = [deck_id]
            units.append((group, groups[group]))
    return units


def paper_tail(spec: SheetSpec, deal: str | None) -> str:
    """What a sheet PDF's name ends with after the language: the paper, the sides unless
    duplex, the cutting machine and the deal."""
    return spec.paper + ("" if spec.sides == "duplex" else f"-{spec.sides}") + (f"-{spec.cutter}" if spec.cutter else "") + (f"-{deal}" if deal else "")


@dataclass(repr=False, eq=False)
class PdfName:
    """The name of a PDF a build writes, in any language: GAME/ID-LANG-TAIL.pdf under --out."""

    game: str  # the game folder's name
    id: str  # the deck's, the group's or the tuck box's
    tail: str  # after the language: the paper and what else sets the build apart (paper_tail)

    def file(self, lang: str) -> str:
        return f"{self.game}/{self.id}-{lang}-{self.tail}.pdf"

    def target(self, out: Path, lang: str) -> Path:
        return out / self.file(lang)


@dataclass(repr=False, eq=False)
class GridSheets:
    """A deck of one size on a grid of its cards (portrait paper, else landscape): each
    sheet's fronts, then their backs (duplex), or fronts or backs alone, or fronts and
    backs side by side on one folded page."""

    deck: str
    items: Sequence[int]  # the card of each copy printed, in order (an array: a list of 10,000 numbers would hold an object each)
    grid: Grid  # the cards' grid on the paper (its fronts' on a folded sheet: `fronts`)
    fold: Fold | None  # --sides fold: fronts in one half, their backs mirrored across the fold
    spec: SheetSpec  # the sheet as printed: sides 'fronts' for a deck without a back, 'duplex' for cards too large to fold
    shape: Shape  # what the cut lines follow

    @property
    def fronts(self) -> Grid:
        """Where the fronts go: the grid, or on a folded sheet the grid in its half."""
        return self.fold.grid if self.fold is not None else self.grid

    @property
    def sheets(self) -> int:
        return -(-len(self.items) // self.fronts.per_sheet)

    @property
    def sides(self) -> str:
        """How it is printed, as the PDF says: 'folded', 'duplex', 'fronts' or 'backs'."""
        return "folded" if self.fold is not None else self.spec.sides

    @property
    def duplex(self) -> bool:
        return self.fold is None and self.spec.sides == "duplex"

    def pages(self) -> Iterator[Page]:
        """Every page, made as it is drawn: a 10,000-card deck's pages are never all held."""
        if self.fold is not None:
            return impose_fold(len(self.items), self.fold, self.spec, self.shape)
        return impose(len(self.items), self.grid, self.spec, self.shape)


@dataclass(repr=False, eq=False)
class SizedSheets:
    """A deck that chooses its layout per card: the cards of each size (in the order of
    their first card) on sheets of their own, every sheet the paper turned the same way."""

    deck: str
    items: list[int]  # the card of each copy printed, size by size
    grids: list[Grid]  # one for each size, all on the paper turned the same way
    pages: list[Page]
    sheets: int
    sides: str  # 'fronts' when no card has a back

    @property
    def duplex(self) -> bool:
        return self.sides == "duplex"


@dataclass(repr=False, eq=False)
class GroupSheets:
    """The decks of a group on shared sheets: each deck, and each front layout of it, in
    rows of its own size."""

    entries: list[tuple[str, int]]  # (deck, card index) of each component placed, copies repeated
    shared: SharedSheets
    sides: str  # 'duplex' for --sides fold: shared sheets are not folded
    duplex: bool  # printed double-sided: duplex, and some component has a back

    @property
    def sheets(self) -> int:
        return max((page.sheet for page in self.shared.pages), default=0)


@dataclass(repr=False, eq=False)
class Pieces:
    """A deck whose components do not fit the paper even turned: each component on an
    assembly page and overlapping pieces to glue (write/pieces.py). Backs are not printed."""

    deck: str
    items: Sequence[int]  # the card of each copy printed
    tiling: Tiling
    notes: list[tuple[str, dict[str, str]]]  # printed on the assembly page: pnp's own words (i18n/own.py), by id and values


Sheets = GridSheets | SizedSheets | GroupSheets | Pieces


@dataclass(repr=False, eq=False)
class UnitPlan:
    """How one print unit goes on paper: the PDF it makes, and what its pages hold."""

    unit: Unit
    pdf: PdfName
    sheets: Sheets | None  # None: nothing to print (--sides backs of cards without backs), or no way to print it (an error in `problems`)
    problems: Problems = field(default_factory=Problems)  # the sheet-* problems of printing it so

    @property
    def decks(self) -> list[str]:
        return self.unit[1]

    def target(self, out: Path, lang: str) -> Path:
        return self.pdf.target(out, lang)


def plan_unit(project: Project, unit: Unit, spec: SheetSpec, members: set[str] | None = None, deal: str | None = None) -> UnitPlan:
    """How one unit is printed with the sheet `spec`: only the cards in `members` (a deal's;
    None: every card), into the PDF the build names with `deal`."""
    group, ids = unit
    plan = UnitPlan(unit, PdfName(project.game.name, group or ids[0], paper_tail(spec, deal)), None)
    if group is None:
        plan.sheets = _deck(project, project.game.decks[ids[0]], spec, members, plan.problems)
    else:
        plan.sheets = _group(project, group, ids, spec, members, plan.problems)
    return plan


def _deck(project: Project, deck: Deck, spec: SheetSpec, members: set[str] | None, problems: Problems) -> Sheets | None:
    if deck.id in project.per_card:
        if spec.sides == "fold" or spec.cutter:
            route = "--sides fold" if spec.sides == "fold" else f"--cutter {spec.cutter}"
            problems.error(
                deck.locs.get("front", deck.loc),
                "sheet-route",
                f"deck '{deck.id}' chooses its layout per card, which {route} does not print yet; expected a duplex or one-sided build of it, or one layout for the deck",
            )
            return None
        return _sizes(project, deck, spec, members, problems)
    front, back = project.layouts[deck.id]
    if back is None:
        spec = _no_backs(spec)
    grid = fit_grid(spec, front.width * mm, front.height * mm)
    if spec.sides == "backs" and back is None:
        return None
    items = array("I", (i for i, copies in enumerate(deck.copies()) if members is None or deck.card_id(i) in members for _ in range(copies)))
    if grid is None and spec.cutter:
        by_hand = replace(spec, cutter=None, corner_radius=None, mark_inset=None)
        grid = fit_grid(by_hand, front.width * mm, front.height * mm)
        if grid is not None:  # too large for the machine, not for the paper: printed whole, to cut by hand
            message = f"deck '{deck.id}' ({front.width:g} x {front.height:g} mm) does not fit {spec.cutter.title()}'s cutting area; it is printed whole with crop marks, to cut by hand, and has no cut file"
            problems.warn(deck.locs.get("front", deck.loc), "sheet-cutter-by-hand", message + "; expected it printed without --cutter, or larger paper")
            spec = by_hand
    if grid is None:
        return _pieces(project, deck, spec, items, problems)
    if spec.outer_bleed > max(spec.bleed, spec.backs_bleed):
        _outer_room(deck, grid, spec, problems)
    sides = spec.sides if back is not None else "fronts"  # a deck without a back has nothing for the reverse
    fold = _fold(spec, deck, front.width, front.height, problems) if sides == "fold" else None
    if fold is not None:
        return GridSheets(deck.id, items, grid, fold, spec, front.shape)
    sides = "duplex" if sides == "fold" else sides  # too large to fold: printed double-sided (warned)
    if front.shape == "rect" and spec.marks and not spec.cutter:
        _short_marks(deck, grid, spec, problems)
    return GridSheets(deck.id, items, grid, None, replace(spec, sides=sides), front.shape)


def _no_backs(spec: SheetSpec) -> SheetSpec:
    """The sheet of components that have no backs: --back-bleed is about backs, so it
    neither widens their cells nor costs them a row (their art reaches --bleed)."""
    return replace(spec, back_bleed=None)


def _outer_room(deck: Deck, grid: Grid, spec: SheetSpec, problems: Problems) -> None:
    """Say so when --outer-bleed costs the sheet cards: the grid makes room for it by
    holding fewer (or by turning the sheet), which the user pays for in paper."""
    plain = fit_grid(replace(spec, outer_bleed=0.0), grid.trim_w, grid.trim_h)
    if plain is None or plain.per_sheet <= grid.per_sheet:
        return
    left, bottom, right, top = plain.art_box
    area = printable(spec, plain.page_w, plain.page_h)
    slack = min(left - area[0], bottom - area[1], area[2] - right, area[3] - top)
    most = math.floor((plain.reach + slack) / mm * 10 + 1e-6) / 10  # the largest outer bleed that keeps them, to 0.1 mm
    problems.warn(
        deck.locs.get("front", deck.loc),
        "sheet-outer-bleed",
        f"deck '{deck.id}': --outer-bleed {spec.outer_bleed:g} leaves room for {grid.per_sheet} cards a sheet of {spec.sheet_paper.shown} instead of {plain.per_sheet}; "
        f"expected --outer-bleed {most:g} or less to keep {plain.per_sheet} a sheet, if the paper matters more",
    )


def _short_marks(deck: Deck, grid: Grid, spec: SheetSpec, problems: Problems) -> None:
    """Say so when the cards fill the sheet so far that crop marks on a side reach less than
    MARK_REACH past the printer margin (a printer may not print them) and no ticks between
    the cards make up for them: the grid keeps its cards rather than lose a row to them."""
    short = short_marks(grid, spec.margin * mm)
    if not short:
        return
    side, foot = mark_reach(grid, spec.margin * mm)
    reach = {"top and bottom": foot, "left and right": side}
    said = " and ".join(f"at the {where} reach only {max(reach[where], 0.0) / mm:.1f} mm" for where in short)
    outer = "a smaller --outer-bleed, " if grid.outer > grid.bleed else ""
    problems.warn(
        deck.locs.get("front", deck.loc),
        "sheet-marks-short",
        f"deck '{deck.id}' fills {spec.sheet_paper.shown} so far that its crop marks {said} past the {spec.margin:g} mm margin a home printer leaves blank "
        f"(less than {MARK_REACH / mm:g} mm: they may not print); expected --gap {TICK_GAP / mm:g} or more (the cut lines are then ticked between the cards), other paper (--paper), {outer}or cutting along the art's edges",
    )


def _fold(spec: SheetSpec, deck: Deck, width: float, height: float, problems: Problems) -> Fold | None:
    """The folded sheet for a deck, or None (with a warning) when its cards do not fit half a sheet."""
    try:
        return plan_fold(spec, width * mm, height * mm)
    except DoesNotFit as exc:
        problems.warn(
            deck.locs.get("front", deck.loc),
            "sheet-fold-fit",
            f"deck '{deck.id}': {exc}; its backs are printed on the reverse pages instead, double-sided (flip on the {spec.flip} edge), or use larger paper (--paper)",
        )
        return None


def _sizes(project: Project, deck: Deck, spec: SheetSpec, members: set[str] | None, problems: Problems) -> SizedSheets | None:
    """A deck that chooses its layout per card, in one PDF: the cards of each size (in the
    order of their first card) on sheets of their own, every sheet in one orientation of
    the paper."""
    pairs = [project.card_layouts(deck.id, i) for i in range(len(deck.cards))]
    if spec.sides == "backs" and not any(back for _, back in pairs):
        return None
    if not any(back for _, back in pairs):
        spec = _no_backs(spec)
    sizes: dict[tuple[float, float, str], list[int]] = {}  # trim size and shape -> card indices, copies repeated
    for index, card in enumerate(deck.cards):
        if members is None or card.id in members:
            front = pairs[index][0]
            sizes.setdefault((front.width, front.height, front.shape), []).extend([index] * card.copies)
    grids = _common_grids(spec, deck, list(sizes), problems)
    if grids is None:
        return None
    items: list[int] = []
    pages = []
    total_sheets = 0
    for (_, _, shape), grid, indices in zip(sizes, grids, sizes.values()):
        backed = any(pairs[i][1] is not None for i in indices)
        for page in impose(len(indices), grid, spec if backed else replace(spec, sides="fronts"), shape):
            if page.sheet == 0 and total_sheets:
                continue  # the ruler's page of its own: once, before the first sheets
            placements = tuple(replace(p, item=p.item + len(items)) for p in page.placements)
            pages.append(replace(page, sheet=page.sheet + total_sheets if page.sheet else 0, placements=placements))
        total_sheets += -(-len(indices) // grid.per_sheet)
        items += indices
    sides = spec.sides if any(back for _, back in pairs) else "fronts"
    return SizedSheets(deck.id, items, grids, pages, total_sheets, sides)


def _common_grids(spec: SheetSpec, deck: Deck, sizes: list[tuple[float, float, str]], problems: Problems) -> list[Grid] | None:
    """A grid for each size of card, all on the paper turned the same way (one PDF has
    one page size): upright if every size fits so, else landscape; None (an error) when
    they fit neither way."""
    failed = None
    for landscape in (False, True):
        try:
            return [plan_grid(spec, w * mm, h * mm, landscape) for w, h, _ in sizes]
        except DoesNotFit as exc:
            failed = exc
    problems.error(
        deck.locs.get("front", deck.loc),
        "sheet-fit",
        f"deck '{deck.id}' chooses its layout per card, and its cards of {' and '.join(f'{w:g} x {h:g} mm' for w, h, _ in sizes)} do not all fit on {spec.sheet_paper.shown} "
        f"turned the same way ({failed}); expected larger paper (--paper), or the largest cards in a deck of their own",
    )
    return None


def _pieces(project: Project, deck: Deck, spec: SheetSpec, items: Sequence[int], problems: Problems) -> Pieces | None:
    """A deck whose components do not fit the paper even turned: each component on an
    assembly page and overlapping pieces. Backs are not printed (warned)."""
    front, back = project.layouts[deck.id]
    try:
        tiling = plan_tiling(spec, front.width * mm, front.height * mm, front.shape)
    except DoesNotFit as exc:
        problems.error(deck.locs.get("front", deck.loc), "sheet-fit", f"deck '{deck.id}': {exc}; expected a smaller --overlap or larger paper (--paper)")
        return None
    notes: list[tuple[str, dict[str, str]]] = []
    if back is not None and spec.sides != "fronts":
        message = f"deck '{deck.id}' ({front.width:g} x {front.height:g} mm) is larger than {spec.sheet_paper.shown} and printed in pieces; its back ('{back.name}') is not printed, because pieces cannot be printed double-sided"
        problems.warn(deck.locs.get("back", deck.loc), "sheet-split-back", message + "; expected --paper a3 or larger if the back matters")
        notes.append(("assembly.no-back", {"back": back.name}))
    if spec.sides == "backs":
        return None
    if spec.cutter:
        message = f"deck '{deck.id}' ({front.width:g} x {front.height:g} mm) does not fit {spec.cutter.title()}'s cutting area and is printed in pieces, cut by hand; it has no cut file"
        problems.warn(deck.locs.get("front", deck.loc), "sheet-cutter-pieces", message + "; expected it printed without --cutter")
    return Pieces(deck.id, items, tiling, notes)


def _group(project: Project, group: str, ids: list[str], spec: SheetSpec, members: set[str] | None, problems: Problems) -> GroupSheets | None:
    """The decks of one group on shared sheets: each deck in rows of its own size. A deck
    whose cards do not fit the paper upright is reported, each such deck once. Shared
    sheets have no grid whose outside --outer-bleed could mean: said, and left at --bleed."""
    game = project.game
    if spec.outer_bleed > spec.bleed:
        first = game.decks[ids[0]]
        problems.warn(
            first.locs.get("group", first.loc),
            "sheet-outer-bleed",
            f"the decks of group '{group}' share sheets, in rows of different sizes with no outer edges of their own: --outer-bleed {spec.outer_bleed:g} does not apply to them; their edges get --bleed {spec.bleed:g} (expected a larger --bleed for them)",
        )
        spec = replace(spec, outer_bleed=0.0)
    entries: list[tuple[str, int]] = []  # (deck, card index), copies repeated
    placed: list[Member] = []
    for deck_id in ids:
        deck = game.decks[deck_id]
        for front, _ in project.pairs(deck_id):
            try:
                plan_grid(spec, front.width * mm, front.height * mm)
            except DoesNotFit as exc:
                problems.error(
                    deck.locs.get("group", deck.loc),
                    "sheet-fit",
                    f"deck '{deck_id}' of group '{group}': {exc}; expected it outside the group, where it is turned or split",
                )
                break
        chosen: dict[str, list[tuple[int, Member]]] = {}  # rows of one size: the cards of each front layout together
        for index, card in enumerate(deck.cards):
            if members is None or card.id in members:
                front, back = project.card_layouts(deck_id, index)
                member = Member(front.width * mm, front.height * mm, front.shape, back is not None, f"{deck_id}/{front.name}")  # a new row for each size
                chosen.setdefault(front.name, []).append((index, member))
        for rows in chosen.values():
            for index, member in rows:
                entries += [(deck_id, index)] * deck.cards[index].copies
                placed += [member] * deck.cards[index].copies
    if problems.errors:
        return None
    if spec.sides == "backs" and not any(m.back for m in placed):
        return None
    if not any(m.back for m in placed):
        spec = _no_backs(spec)
    if spec.sides == "fold" and any(m.back for m in placed):
        first = game.decks[ids[0]]
        problems.warn(
            first.locs.get("group", first.loc),
            "sheet-fold-group",
            f"the decks of group '{group}' share sheets, which are not folded; their backs are printed on the reverse pages, double-sided (flip on the {spec.flip} edge)",
        )
        spec = replace(spec, sides="duplex")
    shared = plan_shared(spec, placed)
    return GroupSheets(entries, shared, spec.sides, spec.sides == "duplex" and any(m.back for m in placed))
