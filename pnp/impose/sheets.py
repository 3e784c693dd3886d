"""Stage 4, impose: place components on sheets of paper, with crop marks, duplex backs
and a calibration ruler. Pure geometry in points; the writer draws what this returns.

Coordinates: points, origin at the bottom left of the page (as in PDF).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Literal

from reportlab.lib.units import mm

from pnp.impose.paper import SHEET_MARGIN, Paper, paper

Flip = Literal["long", "short"]
Sides = Literal["duplex", "fronts", "backs", "fold"]
Shape = Literal["rect", "round", "hex"]
Cutter = Literal["silhouette", "cricut"]
Box = tuple[float, float, float, float]  # left, bottom, right, top
Bleed = float | Box  # how far a face's art runs past its trim: the same on every side, or left, bottom, right, top on the page

MARK_GAP = 1.0 * mm  # crop marks stop this far from the art (cards and their bleed)
MARK_WIDTH = 0.5  # points: thinner vanishes in print


@dataclass(eq=False)
class SheetSpec:
    """How the user wants sheets made; all lengths in mm."""

    paper: str = "a4"  # a name of impose.paper's PAPERS or a custom WIDTHxHEIGHT, as impose.paper.paper() names it
    margin: float = SHEET_MARGIN
    bleed: float = 0.0  # art extends this far beyond the trim on each side
    outer_bleed: float = 0.0  # edges at the grid's outside (facing the paper's margin) get at least this much bleed, against duplex drift
    back_bleed: float | None = None  # the backs' bleed; None: bleed
    gap: float = 0.0  # extra space between neighbouring cards
    flip: Flip = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm to shift backs, right and up
    sides: Sides = "duplex"
    marks: bool = True
    ruler: bool = True
    overlap: float = 10.0  # how far the pieces of a split component overlap, for gluing
    cutter: Cutter | None = None  # a cutting machine cuts the components: its registration marks, no crop marks, a cut file
    corner_radius: float | None = None  # of a rectangular component's cut outline; None: CUTTER_RADIUS with a cutter
    mark_inset: float | None = None  # Silhouette's marks' corners from the page's edges; None: SILHOUETTE_INSET

    @property
    def backs_bleed(self) -> float:
        """The backs' bleed in mm: --back-bleed, else --bleed."""
        return self.bleed if self.back_bleed is None else self.back_bleed

    @property
    def sheet_paper(self) -> Paper:
        """The paper named by `paper` (a name or WIDTHxHEIGHT, as `--paper` took it)."""
        return paper(self.paper)

    @property
    def radius(self) -> float:
        """The corner radius of rectangular outlines in the cut file, in points."""
        if self.corner_radius is not None:
            return self.corner_radius * mm
        return CUTTER_RADIUS * mm if self.cutter else 0.0

    @property
    def inset(self) -> float:
        """How far Silhouette's registration marks' corners are from the page's edges, in points."""
        return (SILHOUETTE_INSET if self.mark_inset is None else self.mark_inset) * mm


@dataclass(repr=False, eq=False)
class Grid:
    """A grid of equal cells centred on the page. A cell is a trim box plus its bleed."""

    page_w: float
    page_h: float
    trim_w: float
    trim_h: float
    bleed: float
    cols: int
    rows: int
    pitch_x: float  # distance from one card's trim to the next one's
    pitch_y: float
    x0: float  # left trim edge of column 0
    y0: float  # top trim edge of row 0
    outer: float = 0.0  # the least bleed of the edges at the grid's outside (--outer-bleed)
    sides: tuple[float, float] | None = None  # the fronts' and the backs' own bleed, when they differ from `bleed` (the larger, which spaces the cells)

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def trim_origin(self, index: int) -> tuple[float, float]:
        """Bottom-left corner of the trim box of slot `index` (row-major from the top left)."""
        row, col = divmod(index, self.cols)
        return self.x0 + col * self.pitch_x, self.y0 - row * self.pitch_y - self.trim_h

    def back_origin(self, index: int, flip: Flip, offset: tuple[float, float]) -> tuple[float, float]:
        """Where the back of slot `index` goes on the reverse page, so it lands behind its
        front when the sheet is turned over the page's long (or short) side. `offset` is in
        mm, right and up as seen from the front with the sheet held against the light.
        Turned over the short side, the reverse page stands upside down behind the front:
        the back's art is turned too (`Placement.turned`)."""
        x, y = self.trim_origin(index)
        if flip == "long":  # columns reversed, rows kept
            x = self.page_w - x - self.trim_w
        else:  # rows reversed, columns kept
            y = self.page_h - y - self.trim_h
        dx, dy = back_shift(flip, offset)
        return x + dx, y + dy

    def x_edges(self) -> list[float]:
        """Vertical trim lines, left to right, without duplicates (butted cards share one)."""
        return _unique([self.x0 + c * self.pitch_x + d for c in range(self.cols) for d in (0.0, self.trim_w)])

    def y_edges(self) -> list[float]:
        return _unique([self.y0 - r * self.pitch_y - d for r in range(self.rows) for d in (0.0, self.trim_h)])

    @property
    def reach(self) -> float:
        """How far the art reaches past the grid's outer trims: the cells' bleed, or more
        with --outer-bleed."""
        return max(self.bleed, self.outer)

    @property
    def art_box(self) -> tuple[float, float, float, float]:
        """Left, bottom, right, top of everything printed on the grid, bleed included."""
        reach = self.reach
        left = self.x0 - reach
        right = self.x0 + (self.cols - 1) * self.pitch_x + self.trim_w + reach
        top = self.y0 + reach
        bottom = self.y0 - (self.rows - 1) * self.pitch_y - self.trim_h - reach
        return left, bottom, right, top

    def slot_bleed(self, index: int, back: bool = False, flip: Flip = "long", filled: int | None = None) -> Bleed:
        """The bleed of the front (or, `back`, the back turned over `flip` in the page's
        terms) in slot `index`, on its page: its side's own bleed, or at least `outer` on
        the edges that face no other card: those at the grid's outside, and those beside
        the slots a part-filled last sheet (`filled` slots) leaves empty. Turning the
        sheet mirrors which edges those are."""
        own = self.bleed if self.sides is None else self.sides[1 if back else 0]
        if self.outer <= own:
            return own
        filled = self.per_sheet if filled is None else filled
        row, col = divmod(index, self.cols)
        left, top = col == 0, row == 0
        right = col == self.cols - 1 or index + 1 >= filled
        bottom = row == self.rows - 1 or index + self.cols >= filled
        if back and flip == "long":
            left, right = right, left
        elif back:
            bottom, top = top, bottom
        if not (left or bottom or right or top):
            return own
        return tuple(self.outer if outside else own for outside in (left, bottom, right, top))  # type: ignore[return-value]


def back_shift(flip: Flip, offset: tuple[float, float]) -> tuple[float, float]:
    """An offset seen from the front, in the back page's own coordinates (points): turning
    the sheet mirrors one axis."""
    dx, dy = offset[0] * mm, offset[1] * mm
    return (-dx, dy) if flip == "long" else (dx, -dy)


def _unique(values: list[float]) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or abs(v - out[-1]) > 0.01:
            out.append(v)
    return out


class DoesNotFit(ValueError):
    """The component is larger than the printable area of the paper."""


def plan_grid(spec: SheetSpec, trim_w: float, trim_h: float, landscape: bool = False) -> Grid:
    """As many cells as fit inside the printable area (the printer margin, or a cutting
    machine's), clear of the machine's registration marks, the grid centred on the page."""
    page_w, page_h = spec.sheet_paper.size(landscape)
    reg = registration(spec, page_w, page_h)
    turned = " landscape" if landscape else ""
    where = f"on {spec.sheet_paper.shown}{turned} " + (CUTTER_AREA[spec.cutter] if spec.cutter else f"inside a {spec.margin:g} mm margin")
    return _grid_in(spec, page_w, page_h, printable(spec, page_w, page_h), trim_w, trim_h, reg.keep_out if reg else (), where)


def _grid_in(spec: SheetSpec, page_w: float, page_h: float, area: Box, trim_w: float, trim_h: float, keep_out: tuple[Box, ...], where: str) -> Grid:
    """The largest grid of cells inside `area`, centred in it, whose art overlaps none of
    `keep_out` (among grids of as many cells, the one with more columns)."""
    front, back = spec.bleed * mm, spec.backs_bleed * mm
    bleed, gap = max(front, back), spec.gap * mm  # cells hold the wider of the two sides' bleeds: no art overlaps its neighbour's
    sides = (front, back) if front != back else None
    outer = spec.outer_bleed * mm
    extra = max(0.0, outer - bleed)  # the outer bleed beyond the cells' own, on each side of the grid
    left, bottom, right, top = area
    if extra:
        left, bottom, right, top = left + extra, bottom + extra, right - extra, top - extra
    cell_w, cell_h = trim_w + 2 * bleed, trim_h + 2 * bleed
    usable_w, usable_h = right - left, top - bottom
    most_cols = math.floor((usable_w + gap + 1e-6) / (cell_w + gap))
    most_rows = math.floor((usable_h + gap + 1e-6) / (cell_h + gap))
    shapes = sorted(((c, r) for c in range(most_cols, 0, -1) for r in range(most_rows, 0, -1)), key=lambda cr: -cr[0] * cr[1])
    pitch_x, pitch_y = cell_w + gap, cell_h + gap
    for cols, rows in shapes:
        grid_w, grid_h = cols * pitch_x - gap, rows * pitch_y - gap
        x0 = left + (usable_w - grid_w) / 2 + bleed
        y0 = top - (usable_h - grid_h) / 2 - bleed
        grid = Grid(page_w, page_h, trim_w, trim_h, bleed, cols, rows, pitch_x, pitch_y, x0, y0, outer, sides)
        if not any(_overlap(grid.art_box, box) for box in keep_out):
            return grid
    raise DoesNotFit(f"{trim_w / mm:.1f} x {trim_h / mm:.1f} mm does not fit {where}")


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _grow(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


# --- cutting machines: where they look for registration, where they can cut -------------

CUTTER_RADIUS = 3.0  # mm: the default corner of a cut card (a poker card's; silhouette-card-maker's)
SILHOUETTE_INSET = 10.0  # mm: Silhouette Studio's default inset, which silhouette-card-maker uses too
SILHOUETTE_LENGTH = 5.0 * mm
SILHOUETTE_THICKNESS = 1.0 * mm
MARK_CLEARANCE = 1.0 * mm  # art keeps this far from a registration mark, so the sensor sees the mark alone
CRICUT_W, CRICUT_H = 6.75 * 72, 9.25 * 72  # Design Space's largest Print Then Cut image (on Letter and A4), portrait
CRICUT_GAP = 2.0 * mm  # between the print area and its registration border
CRICUT_BORDER = 1.5 * mm  # the border's thickness
CUTTER_AREA = {
    "silhouette": "inside Silhouette's registration marks",
    "cricut": "inside Cricut's Print Then Cut area (6.75 x 9.25 in)",
}


@dataclass(unsafe_hash=True, repr=False)
class Registration:
    """What a cutting machine's optical sensor looks for on the page, as filled
    rectangles, and where components must not go."""

    cutter: Cutter
    bars: tuple[Box, ...]
    keep_out: tuple[Box, ...]


def printable(spec: SheetSpec, page_w: float, page_h: float) -> Box:
    """Where components may go: inside the printer margin; with Silhouette, inside the
    registration marks' frame; with Cricut, inside Design Space's Print Then Cut area,
    centred on the page (turned with a landscape page)."""
    if spec.cutter == "cricut":
        w, h = (CRICUT_W, CRICUT_H) if page_w <= page_h else (CRICUT_H, CRICUT_W)
        margin = spec.margin * mm + CRICUT_GAP + CRICUT_BORDER
        w, h = min(w, page_w - 2 * margin), min(h, page_h - 2 * margin)
        return (page_w - w) / 2, (page_h - h) / 2, (page_w + w) / 2, (page_h + h) / 2
    inset = max(spec.inset, spec.margin * mm) if spec.cutter == "silhouette" else spec.margin * mm
    return inset, inset, page_w - inset, page_h - inset


def registration(spec: SheetSpec, page_w: float, page_h: float) -> Registration | None:
    """Silhouette's three-mark layout as Silhouette Studio draws it for its Type 1 marks
    and silhouette-card-maker prints it: a square in the top-left corner and L-shaped corners
    top right and bottom left, the arms 5 mm long, 1 mm lines centred on the inset (where
    the arms meet, `--mark-inset` from both edges, 10 mm by default) with square caps
    reaching half a line past each end. Cricut: a black rectangle around the Print Then
    Cut area."""
    if spec.cutter == "silhouette":
        i, n, h = spec.inset, SILHOUETTE_LENGTH, SILHOUETTE_THICKNESS / 2
        right, top = page_w - i, page_h - i
        bars = (
            (i - h, top - n - h, i + n + h, top + h),  # the square, top left, its 1 mm edge centred on the inset
            (right - n - h, top - h, right + h, top + h),  # top right: an L whose arms run left and down
            (right - h, top - n - h, right + h, top + h),
            (i - h, i - h, i + n + h, i + h),  # bottom left: arms run right and up
            (i - h, i - h, i + h, i + n + h),
        )
        corners = (bars[0], (right - n - h, top - n - h, right + h, top + h), (i - h, i - h, i + n + h, i + n + h))
        return Registration("silhouette", bars, tuple(_grow(box, MARK_CLEARANCE) for box in corners))
    if spec.cutter == "cricut":
        il, ib, ir, it = _grow(printable(spec, page_w, page_h), CRICUT_GAP)
        ol, ob, orr, ot = _grow((il, ib, ir, it), CRICUT_BORDER)
        bars = ((ol, ob, orr, ib), (ol, it, orr, ot), (ol, ib, il, it), (ir, ib, orr, it))
        return Registration("cricut", bars, ())
    return None


def fit_grid(spec: SheetSpec, trim_w: float, trim_h: float) -> Grid | None:
    """The sheet grid for a component: portrait, else landscape; None when it fits on
    neither and is to be split into pieces (`plan_tiling`)."""
    for landscape in (False, True):
        try:
            return plan_grid(spec, trim_w, trim_h, landscape)
        except DoesNotFit:
            continue
    return None


@dataclass(unsafe_hash=True, repr=False)
class Placement:
    """One component's place on a page: its trim box's origin, and how it is turned."""

    item: int  # index into the list of components being imposed
    x: float  # trim box origin on the page
    y: float
    turned: bool = False  # the art turned 180 degrees in its trim box (a back whose page is turned over its short side)
    back: bool = False  # the component's back, on a page of fronts (folded sheets)
    bleed: Bleed | None = None  # its art past the trim when not the sheet's --bleed all round (--outer-bleed, --back-bleed)


@dataclass(unsafe_hash=True, repr=False)
class Cut:
    """The outline of a component, drawn on the sheet to cut along: round and hex ones,
    and every one on shared sheets."""

    shape: Shape
    x: float  # trim box on the page
    y: float
    w: float
    h: float
    radius: float = 0.0  # the corners of a rectangle (a cutting machine's outline)

    def points(self) -> tuple[tuple[float, float], ...]:
        """Corners of the flat-top hexagon inscribed in the trim box, clockwise from the left."""
        x, y, w, h = self.x, self.y, self.w, self.h
        return ((x, y + h / 2), (x + w / 4, y + h), (x + 3 * w / 4, y + h), (x + w, y + h / 2), (x + 3 * w / 4, y), (x + w / 4, y))


@dataclass(unsafe_hash=True, repr=False)
class Page:
    """One side of one sheet as imposed: what goes where, its crop marks, ruler and cut outlines."""

    side: Literal["front", "back"]
    sheet: int  # 1-based sheet number
    placements: tuple[Placement, ...]
    marks: tuple[tuple[float, float, float, float], ...]  # crop mark segments
    ruler: Ruler | None  # where the calibration ruler goes; sheet 0 is the page of its own for it
    cuts: tuple[Cut, ...] = ()  # outlines of round and hex components, drawn on the page
    fold: FoldLine | None = None  # a folded sheet's fold
    registration: Registration | None = None  # a cutting machine's marks
    machine: tuple[Cut, ...] = ()  # what the cutting machine cuts (the cut file), not drawn


MARK_REACH = 3.0 * mm  # how far a crop mark must reach past the printer margin to be seen on paper
TICK_CLEAR = 0.5 * mm  # a tick between cards stops this far from their art
TICK_GAP = MARK_REACH + 2 * TICK_CLEAR  # the least gap between cards whose gaps hold ticks as long as MARK_REACH


def mark_reach(grid: Grid, margin: float) -> tuple[float, float]:
    """How far the crop marks reach past the printer margin: the side ones (along the
    horizontal trim lines) and the top and bottom ones (along the vertical lines)."""
    left, bottom, _, _ = grid.art_box
    return left - MARK_GAP - margin, bottom - MARK_GAP - margin


def _gap(pitch: float, trim: float, bleed: float) -> float:
    return pitch - trim - 2 * bleed


def short_marks(grid: Grid, margin: float) -> tuple[str, ...]:
    """The sides whose crop marks reach less than MARK_REACH past the margin and that have
    no ticks between the cards to make up for them: what a printer may not print."""
    side, foot = mark_reach(grid, margin)
    short = []
    if foot < MARK_REACH - 1e-6 and not (grid.rows > 1 and _gap(grid.pitch_y, grid.trim_h, grid.bleed) >= TICK_GAP - 1e-6):
        short.append("top and bottom")
    if side < MARK_REACH - 1e-6 and not (grid.cols > 1 and _gap(grid.pitch_x, grid.trim_w, grid.bleed) >= TICK_GAP - 1e-6):
        short.append("left and right")
    return tuple(short)


def crop_marks(grid: Grid, dx: float = 0.0, dy: float = 0.0, margin: float = 0.0) -> tuple[tuple[float, float, float, float], ...]:
    """Lines along every trim edge, from the sheet edge to just outside the art, on all
    four sides: they survive the first cut of a paper trimmer. Where those on a side
    reach less than MARK_REACH past the printer `margin` (the art fills the page) and the
    cards have a gap of TICK_GAP or more, the trim lines are ticked in the gaps between
    the cards as well, where the printer prints."""
    left, bottom, right, top = grid.art_box
    segs = []
    for x in grid.x_edges():
        segs.append((x + dx, 0.0, x + dx, bottom + dy - MARK_GAP))
        segs.append((x + dx, top + dy + MARK_GAP, x + dx, grid.page_h))
    for y in grid.y_edges():
        segs.append((0.0, y + dy, left + dx - MARK_GAP, y + dy))
        segs.append((right + dx + MARK_GAP, y + dy, grid.page_w, y + dy))
    side, foot = mark_reach(grid, margin)
    gap_y, gap_x = _gap(grid.pitch_y, grid.trim_h, grid.bleed), _gap(grid.pitch_x, grid.trim_w, grid.bleed)
    if foot < MARK_REACH - 1e-6 and gap_y >= TICK_GAP - 1e-6:  # vertical ticks in the gaps between rows
        for row in range(grid.rows - 1):
            upper = grid.y0 - row * grid.pitch_y - grid.trim_h - grid.bleed  # the art's foot of this row
            segs += [(x + dx, upper - gap_y + TICK_CLEAR + dy, x + dx, upper - TICK_CLEAR + dy) for x in grid.x_edges()]
    if side < MARK_REACH - 1e-6 and gap_x >= TICK_GAP - 1e-6:  # horizontal ticks in the gaps between columns
        for col in range(grid.cols - 1):
            edge = grid.x0 + col * grid.pitch_x + grid.trim_w + grid.bleed  # the art's right edge of this column
            segs += [(edge + TICK_CLEAR + dx, y + dy, edge + gap_x - TICK_CLEAR + dx, y + dy) for y in grid.y_edges()]
    return tuple(segs)


Ruler = tuple[float, float, float, bool, bool]  # x, y, length (points), vertical, compact
RULER_ROOM = 9 * mm  # ticks (3 mm) on one side of the line, two lines of small text on the other
COMPACT_ROOM = 5.5 * mm  # shorter ticks and one line of text: for the narrow margins of Letter


def ruler_spot(grid: Grid, margin: float, reg: Registration | None = None, marked: bool = True) -> Ruler | None:
    """A place for the calibration ruler in a free margin, between two marks: below the
    middle column or beside the middle row (the roomier), else a compact ruler wherever
    one fits; None when no margin has room (`check_page` then carries it). With Cricut's
    border around the cards, below the border. Without crop marks (round and hex
    components, cut along their outlines) nothing is in its way along the whole grid, so
    small tokens still have a ruler on their sheet."""
    left, bottom, right, top = grid.art_box
    side_room = left - MARK_GAP - margin  # left margin, beside the middle row
    foot_room = bottom - MARK_GAP - margin  # bottom margin, below the middle column
    if reg is not None and reg.cutter == "cricut":
        side_room, foot_room = 0.0, min(bar[1] for bar in reg.bars) - MARK_GAP - margin
    for need, compact in ((RULER_ROOM, False), (COMPACT_ROOM, True)):
        if max(side_room, foot_room) < need:
            continue
        if foot_room >= side_room if not compact else foot_room >= need:
            spot = _foot_ruler(grid, margin, foot_room, need, compact, marked)
        else:
            spot = _side_ruler(grid, margin, side_room, need, compact, marked)
        if spot is not None:
            return spot
    return None


def _ruler_length(span: float) -> float:
    return min(50 * mm, math.floor((span - 4 * mm) / (10 * mm)) * 10 * mm)


def _foot_ruler(grid: Grid, margin: float, room: float, need: float, compact: bool, marked: bool) -> Ruler | None:
    y = margin + (room - need) / 2 + need - (2.8 if compact else 3.5) * mm
    if not marked:
        left, _, right, _ = grid.art_box
        length = _ruler_length(right - left)
        return ((left + right - length) / 2, y, length, False, compact) if length >= 20 * mm else None
    length = _ruler_length(grid.trim_w)
    col = (grid.cols - 1) // 2
    x = grid.x0 + col * grid.pitch_x + (grid.trim_w - length) / 2
    return (x, y, length, False, compact) if length >= 20 * mm else None


def _side_ruler(grid: Grid, margin: float, room: float, need: float, compact: bool, marked: bool) -> Ruler | None:
    x = margin + (room - need) / 2 + (2.8 if compact else 3.5) * mm
    if not marked:
        _, bottom, _, top = grid.art_box
        length = _ruler_length(top - bottom)
        return (x, (bottom + top - length) / 2, length, True, compact) if length >= 20 * mm else None
    length = _ruler_length(grid.trim_h)
    row = (grid.rows - 1) // 2
    y = grid.y0 - row * grid.pitch_y - grid.trim_h + (grid.trim_h - length) / 2
    return (x, y, length, True, compact) if length >= 20 * mm else None


def check_page(page_w: float, page_h: float, side: Literal["front", "back"]) -> Page:
    """A page of its own for the ruler, first in the PDF, when no margin of the sheets has
    room for one: the ruler across the middle (and, for duplex, the blank back of it)."""
    length = 100 * mm
    ruler = ((page_w - length) / 2, page_h / 2, length, False, False) if side == "front" else None
    return Page(side, 0, (), (), ruler)


def page_flip(grid: Grid, flip: Flip) -> Flip:
    """The flip in the page's own terms: a landscape page lies turned on the paper, so
    turning the paper over its long edge reverses the page's rows, not its columns."""
    if grid.page_w <= grid.page_h:
        return flip
    return "short" if flip == "long" else "long"


def impose(count: int, grid: Grid, spec: SheetSpec, shape: Shape = "rect") -> Iterator[Page]:
    """Pages for `count` components: per sheet a page of fronts, then (duplex) its backs.
    Backs are placed only behind slots that hold a front, to save ink. Round and hex
    components get their outline as a cut line instead of crop marks."""
    per = grid.per_sheet
    sheets = max(1, math.ceil(count / per)) if count else 0
    flip = page_flip(grid, spec.flip)
    marked = spec.marks and shape == "rect" and spec.cutter is None
    front_marks = crop_marks(grid, margin=spec.margin * mm) if marked else ()
    reg = registration(spec, grid.page_w, grid.page_h)
    back_marks = crop_marks(grid, *back_shift(flip, spec.back_offset), margin=spec.margin * mm) if marked else ()
    ruler = ruler_spot(grid, spec.margin * mm, reg, marked) if spec.ruler else None
    last_ruler = None  # a ruler in the empty rows of the last sheet, when no margin has room
    if spec.ruler and ruler is None and sheets and spec.sides != "backs":
        last_ruler = _ruler_in_empty_rows(grid, count - (sheets - 1) * per)
    if spec.ruler and ruler is None and last_ruler is None and sheets:
        yield from _check_pages(grid.page_w, grid.page_h, spec)

    def cuts(placements: tuple[Placement, ...]) -> tuple[Cut, ...]:
        if shape == "rect" or not spec.marks or spec.cutter:
            return ()
        return outlines(placements, grid, shape, spec)

    for sheet in range(sheets):
        first = sheet * per
        slots = range(min(per, count - first))
        if spec.sides in ("duplex", "fronts"):
            placements = tuple(Placement(first + s, *grid.trim_origin(s), bleed=own_bleed(grid, s, len(slots))) for s in slots)
            machine = outlines(placements, grid, shape, spec) if spec.cutter else ()
            on_sheet = last_ruler if sheet == sheets - 1 and last_ruler is not None else ruler
            yield Page("front", sheet + 1, placements, front_marks, on_sheet, cuts(placements), registration=reg, machine=machine)
        if spec.sides in ("duplex", "backs"):
            placements = tuple(
                Placement(first + s, *grid.back_origin(s, flip, spec.back_offset), flip == "short", bleed=own_bleed(grid, s, len(slots), True, flip))
                for s in slots
            )
            yield Page("back", sheet + 1, placements, back_marks, ruler if spec.sides == "backs" else None, cuts(placements))


def own_bleed(grid: Grid, index: int, filled: int, back: bool = False, flip: Flip = "long") -> Bleed | None:
    """A placement's bleed (Grid.slot_bleed, on a sheet of `filled` slots) where a side's
    or an edge's differs from the grid's one bleed; None (the sheet's --bleed all round)
    where none does."""
    if not grid.outer and grid.sides is None:
        return None
    return grid.slot_bleed(index, back, flip, filled)


def _ruler_in_empty_rows(grid: Grid, on_last: int) -> Ruler | None:
    """A ruler across the rows the last sheet leaves empty (no mark runs there: marks lie
    outside the whole grid), so a sheet of small tokens that fills its margins does not
    need a page of its own for the ruler; None when those rows have no room for one."""
    used_rows = -(-on_last // grid.cols)
    if used_rows >= grid.rows:
        return None
    left, bottom, right, _ = grid.art_box
    floor = bottom  # the foot of the grid: the empty rows run from it up to the last used row's art
    ceiling = grid.y0 - (used_rows - 1) * grid.pitch_y - grid.trim_h - grid.reach - MARK_GAP  # --outer-bleed reaches into the empty rows too
    room = ceiling - floor
    if room < RULER_ROOM:
        return None
    length = _ruler_length(right - left)
    y = floor + (room - RULER_ROOM) / 2 + RULER_ROOM - 3.5 * mm
    return ((left + right - length) / 2, y, length, False, False) if length >= 20 * mm else None


def outlines(placements: Iterable[Placement], grid: Grid, shape: Shape, spec: SheetSpec) -> tuple[Cut, ...]:
    """The outline of each placed component: the one geometry the page's cut lines and a
    cutting machine's cut file are both drawn from."""
    radius = min(spec.radius, grid.trim_w / 2, grid.trim_h / 2) if shape == "rect" else 0.0
    return tuple(Cut(shape, p.x, p.y, grid.trim_w, grid.trim_h, radius) for p in placements)


# --- folded sheets: fronts in one half, backs in the other -------------------------------

FOLD_GUTTER = 4.0 * mm  # from the fold line to the art on either side: a fold never lies exactly on its line
FOLD_LABEL_ROOM = 3.5 * mm  # the band beside the art that holds the word "fold"
FOLD_LABEL_INSET = 6.0 * mm  # from the margin to the middle of the word, when it goes in the gutter


@dataclass(unsafe_hash=True, repr=False)
class FoldLine:
    """The fold of a folded sheet: the line from paper edge to paper edge (solid within
    the printer margin, like a crop mark, dashed between) and where the word "fold" goes."""

    line: tuple[float, float, float, float]
    margin: float
    labels: tuple[tuple[float, float, float], ...]  # x, y (the middle of the word), angle in degrees


@dataclass(repr=False, eq=False)
class Fold:
    """Fronts in one half of the page (the left, or the top), their backs in the other,
    mirrored across the fold line: folded along it, blank sides together, each back lies
    behind its own front. Folded over a vertical line the back stays upright; over a
    horizontal one it stands upside down, so its art is turned 180 degrees."""

    grid: Grid  # the fronts
    vertical: bool
    at: float  # x of a vertical fold line, y of a horizontal one

    def back_origin(self, index: int) -> tuple[float, float]:
        x, y = self.grid.trim_origin(index)
        if self.vertical:
            return 2 * self.at - x - self.grid.trim_w, y
        return x, 2 * self.at - y - self.grid.trim_h

    @property
    def backs(self) -> Grid:
        """The grid the backs make (slots in mirrored order)."""
        g = self.grid
        if self.vertical:
            return replace(g, x0=2 * self.at - (g.x0 + (g.cols - 1) * g.pitch_x + g.trim_w))
        return replace(g, y0=2 * self.at - (g.y0 - (g.rows - 1) * g.pitch_y - g.trim_h))

    def marks(self) -> tuple[tuple[float, float, float, float], ...]:
        """Crop marks on the outside only: nothing is printed between the halves but the fold."""
        f, b = self.grid, self.backs
        page_w, page_h = f.page_w, f.page_h
        segs = []
        if self.vertical:
            for grid in (f, b):
                _, bottom, _, top = grid.art_box
                segs += [seg for x in grid.x_edges() for seg in ((x, 0.0, x, bottom - MARK_GAP), (x, top + MARK_GAP, x, page_h))]
            segs += [seg for y in f.y_edges() for seg in ((0.0, y, f.art_box[0] - MARK_GAP, y), (b.art_box[2] + MARK_GAP, y, page_w, y))]
        else:
            for grid in (f, b):
                left, _, right, _ = grid.art_box
                segs += [seg for y in grid.y_edges() for seg in ((0.0, y, left - MARK_GAP, y), (right + MARK_GAP, y, page_w, y))]
            segs += [seg for x in f.x_edges() for seg in ((x, f.art_box[3] + MARK_GAP, x, page_h), (x, 0.0, x, b.art_box[1] - MARK_GAP))]
        return tuple(segs)

    def line(self, margin: float) -> FoldLine:
        """The fold, with the word "fold" at both ends in the bands between the margin and
        the art, where they are wide enough."""
        g = self.grid
        page_w, page_h = g.page_w, g.page_h
        left, bottom, right, top = g.art_box
        labels = []
        inset = margin + FOLD_LABEL_INSET  # where no band has room: in the gutter, along the line
        if self.vertical:
            for room, y, end in ((page_h - margin - top, top, page_h - inset), (bottom - margin, margin, inset)):
                labels.append((self.at, y + room / 2, 0.0) if room >= FOLD_LABEL_ROOM else (self.at, end, 90.0))
            return FoldLine((self.at, 0.0, self.at, page_h), margin, tuple(labels))
        for room, x, end in ((left - margin, margin, inset), (page_w - margin - right, right, page_w - inset)):
            labels.append((x + room / 2, self.at, 90.0) if room >= FOLD_LABEL_ROOM else (end, self.at, 0.0))
        return FoldLine((0.0, self.at, page_w, self.at), margin, tuple(labels))


def plan_fold(spec: SheetSpec, trim_w: float, trim_h: float) -> Fold:
    """The folded sheet that holds the most components: portrait or landscape paper, folded
    over a vertical or a horizontal line (in that order of preference on a tie; a vertical
    fold keeps the backs upright). Each half is the printable area up to a gutter beside
    the fold; the fronts are centred in theirs."""
    best = None
    margin = spec.margin * mm
    for landscape in (False, True):
        page_w, page_h = spec.sheet_paper.size(landscape)
        for vertical in (True, False):
            at = page_w / 2 if vertical else page_h / 2
            area = (margin, margin, at - FOLD_GUTTER, page_h - margin) if vertical else (margin, at + FOLD_GUTTER, page_w - margin, page_h - margin)
            try:
                grid = _grid_in(spec, page_w, page_h, area, trim_w, trim_h, (), "")
            except DoesNotFit:
                continue
            if best is None or grid.per_sheet > best.grid.per_sheet:
                best = Fold(grid, vertical, at)
    if best is None:
        raise DoesNotFit(
            f"{trim_w / mm:.1f} x {trim_h / mm:.1f} mm does not fit half a sheet of {spec.sheet_paper.shown} (either way) inside a {spec.margin:g} mm margin and a {FOLD_GUTTER / mm:g} mm gutter at the fold"
        )
    return best


def impose_fold(count: int, fold: Fold, spec: SheetSpec, shape: Shape = "rect") -> Iterator[Page]:
    """One page per sheet: its fronts, and their backs mirrored across the fold, printed
    one-sided. A round or hex component gets its outline on both halves."""
    grid = fold.grid
    per = grid.per_sheet
    sheets = math.ceil(count / per) if count else 0
    marks = fold.marks() if spec.marks and shape == "rect" else ()
    margin = spec.margin * mm
    ruler = ruler_spot(grid if fold.vertical else fold.backs, margin, marked=bool(marks)) if spec.ruler else None  # never in the gutter
    if spec.ruler and ruler is None and sheets:
        yield from _check_pages(grid.page_w, grid.page_h, replace(spec, sides="fronts"))
    line = fold.line(margin)
    for sheet in range(sheets):
        first = sheet * per
        slots = range(min(per, count - first))
        fronts = tuple(Placement(first + s, *grid.trim_origin(s), bleed=own_bleed(grid, s, len(slots))) for s in slots)
        mirror = "long" if fold.vertical else "short"  # a vertical fold mirrors the columns, as turning over the long edge does
        backs = tuple(
            Placement(first + s, *fold.back_origin(s), turned=not fold.vertical, back=True, bleed=own_bleed(grid, s, len(slots), True, mirror)) for s in slots
        )
        cuts = outlines(fronts + backs, grid, shape, spec) if shape != "rect" and spec.marks else ()
        yield Page("front", sheet + 1, fronts + backs, marks, ruler, cuts, fold=line)


def _check_pages(page_w: float, page_h: float, spec: SheetSpec) -> Iterator[Page]:
    """The ruler's page of its own, with a blank back when the sheets are printed duplex
    (so each later sheet's fronts and backs stay on one sheet of paper)."""
    if spec.sides in ("duplex", "fronts"):
        yield check_page(page_w, page_h, "front")
    if spec.sides in ("duplex", "backs"):
        yield check_page(page_w, page_h, "back" if spec.sides == "duplex" else "front")


# --- components larger than the sheet: overlapping pieces to glue together -------------


def row_letters(row: int) -> str:
    """A, B, ..., Z, AA, AB, ... for row 0, 1, ..."""
    letters = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _count(length: float, usable: float, overlap: float) -> int:
    """Pieces needed along one side: each shows at most `usable`, neighbours share `overlap`."""
    if length <= usable + 1e-6:
        return 1
    return math.ceil((length - overlap - 1e-6) / (usable - overlap))


def _even(length: float, count: int, overlap: float) -> float:
    """The length each of `count` equal pieces shows so that, overlapping by `overlap`,
    together they cover `length` exactly: no last piece holding a sliver on a whole sheet."""
    return (length + (count - 1) * overlap) / count


@dataclass(unsafe_hash=True, repr=False)
class Piece:
    """One sheet of a split component. Component coordinates are points from the trim's
    bottom-left corner (as in a Face); `origin` is where that corner lies on the page."""

    row: int
    col: int
    label: str  # "A1": row letter, column number
    window: tuple[float, float, float, float]  # left, bottom, right, top of what this piece shows
    origin: tuple[float, float]

    def on_page(self, x: float, y: float) -> tuple[float, float]:
        return x + self.origin[0], y + self.origin[1]


@dataclass(repr=False, eq=False)
class Tiling:
    """A component cut into rows x cols pieces of one size (at most the printable area of
    a sheet, centred on it), each overlapping its right and lower neighbours by `overlap`.
    Later pieces lie on earlier ones: a piece's left and top edges are cut, its right and
    bottom bands glued under. A round or hex component keeps its outline on every piece."""

    page_w: float
    page_h: float
    margin: float  # the printer margin: nothing but crop marks is printed in it
    overlap: float
    trim_w: float
    trim_h: float
    bleed: float
    cols: int
    rows: int
    pieces: tuple[Piece, ...]
    shape: Shape = "rect"

    def piece(self, row: int, col: int) -> Piece | None:
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return self.pieces[row * self.cols + col]
        return None

    @property
    def art(self) -> tuple[float, float, float, float]:
        """Left, bottom, right, top of the whole component, bleed included."""
        b = self.bleed
        return -b, -b, self.trim_w + b, self.trim_h + b

    def cut(self, piece: Piece) -> Cut | None:
        """The outline of a round or hex component on the page of `piece` (to be clipped to
        what the piece shows); None for a rectangle, which its crop marks outline."""
        if self.shape == "rect":
            return None
        return Cut(self.shape, *piece.on_page(0.0, 0.0), self.trim_w, self.trim_h)

    def seams(self) -> list[tuple[Piece, Piece, tuple[float, float, float, float]]]:
        """Every pair of neighbours (beneath, on top) and the edge of the top one that
        lies on the piece beneath, as a segment in component coordinates."""
        out = []
        for p in self.pieces:
            for q in (self.piece(p.row, p.col + 1), self.piece(p.row + 1, p.col)):
                if q is None:
                    continue
                left, bottom, right, top = p.window
                if q.col > p.col:  # q's left edge, along p's rows (less the bands above and below)
                    x = q.window[0]
                    y0 = bottom + (self.overlap if p.row < self.rows - 1 else 0)
                    y1 = top - (self.overlap if p.row > 0 else 0)
                    out.append((p, q, (x, y0, x, y1)))
                else:  # q's top edge
                    y = q.window[3]
                    x0 = left + (self.overlap if p.col > 0 else 0)
                    x1 = right - (self.overlap if p.col < self.cols - 1 else 0)
                    out.append((p, q, (x0, y, x1, y)))
        return out

    def targets(self, seam: tuple[float, float, float, float]) -> list[tuple[float, float]]:
        """Alignment targets along a seam, in component coordinates: the same points on
        both pieces, centred on the top piece's cut edge so each shows half of them."""
        x0, y0, x1, y1 = seam
        return [(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t) for t in (1 / 6, 1 / 2, 5 / 6)]


def plan_tiling(spec: SheetSpec, trim_w: float, trim_h: float, shape: Shape = "rect") -> Tiling:
    """Split a component into as few overlapping pieces as fit, on portrait or landscape
    sheets (whichever needs fewer sheets; portrait on a tie), then share it out evenly:
    every piece is the same size, the component divided by the piece grid, so the last
    column or row is no thin strip. Each piece is centred on its sheet."""
    bleed, margin, overlap = max(spec.bleed, spec.outer_bleed) * mm, spec.margin * mm, spec.overlap * mm  # every edge of a lone component is an outer one
    art_w, art_h = trim_w + 2 * bleed, trim_h + 2 * bleed
    best = None
    for landscape in (False, True):
        page_w, page_h = spec.sheet_paper.size(landscape)
        usable_w, usable_h = page_w - 2 * margin, page_h - 2 * margin
        if overlap * 2 > min(usable_w, usable_h):
            raise DoesNotFit(
                f"an overlap of {spec.overlap:g} mm leaves too little of each {spec.sheet_paper.shown} piece; expected at most {min(usable_w, usable_h) / 2 / mm:.0f} mm"
            )
        cols, rows = _count(art_w, usable_w, overlap), _count(art_h, usable_h, overlap)
        if best is None or cols * rows < best[0] * best[1]:
            best = (cols, rows, page_w, page_h)
    assert best is not None
    cols, rows, page_w, page_h = best
    piece_w, piece_h = _even(art_w, cols, overlap), _even(art_h, rows, overlap)
    page_left, page_top = (page_w - piece_w) / 2, (page_h + piece_h) / 2  # where each piece's window lies
    pieces = []
    for row in range(rows):
        top = trim_h + bleed - row * (piece_h - overlap)
        bottom = top - piece_h if row < rows - 1 else -bleed  # exact at the far edges
        for col in range(cols):
            left = -bleed + col * (piece_w - overlap)
            right = left + piece_w if col < cols - 1 else trim_w + bleed
            origin = (page_left - left, page_top - top)
            pieces.append(Piece(row, col, f"{row_letters(row)}{col + 1}", (left, bottom, right, top), origin))
    return Tiling(page_w, page_h, margin, overlap, trim_w, trim_h, bleed, cols, rows, tuple(pieces), shape)


def piece_marks(tiling: Tiling, piece: Piece) -> tuple[tuple[float, float, float, float], ...]:
    """Crop marks in the margins of a piece, on the page: along the component's own trim
    edges that the piece shows, and along the piece's cut edges (left and top when it lies
    on a neighbour), from the sheet edge to just outside the art. A round or hex component
    is cut along its outline instead of its trim edges, as on ordinary sheets."""
    left, bottom, right, top = piece.window
    (pl, pb), (pr, pt) = piece.on_page(left, bottom), piece.on_page(right, top)
    trim = tiling.shape == "rect"
    xs = []
    if trim and piece.col == 0:
        xs.append(0.0)
    if trim and piece.col == tiling.cols - 1:
        xs.append(tiling.trim_w)
    if piece.col > 0:
        xs.append(left)
    ys = []
    if trim and piece.row == 0:
        ys.append(tiling.trim_h)
    if trim and piece.row == tiling.rows - 1:
        ys.append(0.0)
    if piece.row > 0:
        ys.append(top)
    segs = []
    for x in xs:
        px = x + piece.origin[0]
        segs += [(px, 0.0, px, pb - MARK_GAP), (px, pt + MARK_GAP, px, tiling.page_h)]
    for y in ys:
        py = y + piece.origin[1]
        segs += [(0.0, py, pl - MARK_GAP, py), (pr + MARK_GAP, py, tiling.page_w, py)]
    return tuple(segs)


# --- several decks on shared sheets (a deck `group`) -------------------------------------


@dataclass(repr=False, eq=False)
class Member:
    """One component to place on shared sheets: its trim size, its outline, whether it
    has a back, and the deck it comes from (each deck starts a new row)."""

    w: float
    h: float
    shape: Shape
    back: bool
    deck: str


@dataclass(repr=False, eq=False)
class SharedSheets:
    """The pages of several decks imposed together on shared sheets."""

    page_w: float
    page_h: float
    pages: tuple[Page, ...]


def plan_shared(spec: SheetSpec, members: list[Member]) -> SharedSheets:
    """Rows of components, each deck starting a new row, rows filling the sheet from the
    top margin down (a part-filled sheet is white at the foot, where more rows would go,
    not in a band at the top) and centred across. Every component gets its outline as a
    cut line (crop marks of different sizes would cross each other); backs are mirrored
    like cards. With a cutting machine, the rows keep inside its area and clear of its
    marks (Silhouette's: inside their corners), and the outlines go to the cut file."""
    page_w, page_h = spec.sheet_paper.size()
    front, back = spec.bleed * mm, spec.backs_bleed * mm
    bleed, gap, margin = max(front, back), spec.gap * mm, spec.margin * mm  # cells hold the wider of the sides' bleeds
    front_bleed, back_bleed = (None, None) if front == back else (front, back)
    reg = registration(spec, page_w, page_h)
    area = printable(spec, page_w, page_h)
    if spec.cutter == "silhouette":
        area = _grow(area, -(SILHOUETTE_LENGTH + SILHOUETTE_THICKNESS / 2 + MARK_CLEARANCE))
    usable_w, usable_h = area[2] - area[0], area[3] - area[1]
    sheets: list[list[list[int]]] = [[]]  # sheet -> rows -> member indices
    x = used_h = 0.0
    for index, m in enumerate(members):
        cell_w, cell_h = m.w + 2 * bleed, m.h + 2 * bleed
        if cell_w > usable_w + 1e-6 or cell_h > usable_h + 1e-6:
            where = CUTTER_AREA[spec.cutter] if spec.cutter else f"inside a {spec.margin:g} mm margin"
            raise DoesNotFit(f"{m.w / mm:.1f} x {m.h / mm:.1f} mm does not fit on {spec.sheet_paper.shown} {where}")
        rows = sheets[-1]
        row = rows[-1] if rows else None
        if row is None or members[row[0]].deck != m.deck or x + cell_w > usable_w + 1e-6:
            height = used_h + (gap if rows else 0) + cell_h
            if rows and height > usable_h + 1e-6:
                sheets.append([])
                rows, used_h = sheets[-1], 0.0
            used_h += (gap if rows else 0) + cell_h
            rows.append([])
            x = 0.0
        rows[-1].append(index)
        x += cell_w + gap
    flip = spec.flip  # shared sheets are portrait
    dx, dy = back_shift(flip, spec.back_offset)
    any_back = any(m.back for m in members)
    pages: list[Page] = []
    for number, rows in enumerate(sheets, 1):
        widths = [math.fsum(members[i].w + 2 * bleed for i in row) + gap * (len(row) - 1) for row in rows]
        heights = [members[row[0]].h + 2 * bleed for row in rows]
        block_w, block_h = max(widths), math.fsum(heights) + gap * (len(rows) - 1)
        left, top = (page_w - block_w) / 2, area[3]
        fronts, backs = [], []
        y = top
        for row, height in zip(rows, heights):
            x = left
            for i in row:
                m = members[i]
                placed = Placement(i, x + bleed, y - bleed - m.h, bleed=front_bleed)
                fronts.append(placed)
                if m.back:
                    bx = page_w - placed.x - m.w if flip == "long" else placed.x
                    by = placed.y if flip == "long" else page_h - placed.y - m.h
                    backs.append(Placement(i, bx + dx, by + dy, flip == "short", bleed=back_bleed))
                x += m.w + 2 * bleed + gap
            y -= height + gap
        foot = min(bar[1] for bar in reg.bars) if reg is not None and reg.cutter == "cricut" else top - block_h
        ruler = _shared_ruler(page_w, foot, margin) if spec.ruler else None

        def outline(p: Placement) -> Cut:
            m = members[p.item]
            return Cut(m.shape, p.x, p.y, m.w, m.h, min(spec.radius, m.w / 2, m.h / 2) if m.shape == "rect" else 0.0)

        def cuts(placements: list[Placement]) -> tuple[Cut, ...]:
            return tuple(outline(p) for p in placements) if spec.marks and not spec.cutter else ()

        if number == 1 and spec.ruler and ruler is None:
            pages += _check_pages(page_w, page_h, replace(spec, sides=spec.sides if any_back else "fronts"))
        if spec.sides in ("duplex", "fronts"):
            machine = tuple(outline(p) for p in fronts) if spec.cutter else ()
            pages.append(Page("front", number, tuple(fronts), (), ruler, cuts(fronts), registration=reg, machine=machine))
        if any_back and spec.sides in ("duplex", "backs"):
            pages.append(Page("back", number, tuple(backs), (), ruler if spec.sides == "backs" else None, cuts(backs)))
    return SharedSheets(page_w, page_h, tuple(pages))


def _shared_ruler(page_w: float, bottom: float, margin: float) -> Ruler | None:
    """The calibration ruler at the foot of the page, centred across, if the rows leave
    room for it; at the same place on every sheet."""
    room = bottom - MARK_GAP - margin
    need = 9 * mm
    if room < need:
        return None
    length = 50 * mm
    return (page_w - length) / 2, margin + 5.5 * mm, length, False, False
