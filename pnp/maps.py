"""Map elements for layouts: a square `grid` and a `hexgrid` drawn from a table field of the
component, and `areas`, an area map drawn from a (data-only) deck whose components are
the fields, with `borders` along the edges two fields share.

Why generated and not drawn by hand: a map is data the rules check (`graph` constraints in
check.py), so the board must be drawn from the same data, or the two drift apart. Every
cell's label goes through the text engine and is an error when it does not fit its cell,
as any other text.

Geometry is in millimetres from the top left of the face, y running down, as everywhere in
layouts; hexes follow the usual axial coordinates (q, r), and the offset layouts odd-r,
even-r, odd-q and even-q are converted to them.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from reportlab.lib.units import mm

from .errors import Location, Problems
from .schema import suggest
from .text import TextStyle, typeset

if TYPE_CHECKING:
    from .model import Deck
    from .render import Frame, Op, Renderer, TextOp

Box = tuple[float, float, float, float]
Point = tuple[float, float]
LABEL_STYLE = TextStyle(size=8, min_size=5, align="center", valign="middle")  # a label without a named style
SAME = 0.01  # mm: two corners closer than this are the same corner


# --- the elements, as read from layouts ------------------------------------------------


@dataclass
class GridSpec:
    box: Box  # mm: the area the grid fills
    columns: int
    field: str | None = None  # a table field of the component: one row per cell, row-major
    deck: str | None = None  # or a deck (a spreadsheet, say): one component per cell
    fill: str | None = None  # templates see `cell` (the row), `row`, `col`, `index`
    stroke: str | None = "#333333"
    stroke_width: float = 0.5  # points
    label: str | None = None
    style: str | None = None  # a text style of the layout
    symbol: str | None = None
    padding: float = 1.0  # mm inside each cell kept clear of its label and symbol
    _loc: Location = dataclasses.field(default=Location("?"), repr=False)  # `field` is an attribute here


@dataclass
class Grid:
    grid: GridSpec
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        """What the layout alone tells (layouts.py calls it when the layout is read)."""
        from .layouts import check_style  # layouts imports this module

        spec, where = self.grid, raw["grid"]
        ok = check_style(spec.style, where, styles, "grid", problems) & _check_source(spec, where, "grid", problems)
        if spec.box[2] <= 0 or spec.box[3] <= 0:
            problems.error(where.loc_of("box"), "grid-box", f"grid box {list(spec.box)} has no area; expected a positive width and height")
            ok = False
        if spec.columns < 1:
            problems.error(where.loc_of("columns"), "grid-columns", f"grid has {spec.columns} columns; expected a whole number from 1")
            ok = False
        return ok


@dataclass
class HexGridSpec:
    size: float  # mm from a hex's centre to a corner
    origin: tuple[float, float]  # mm: the centre of hex (0, 0)
    field: str | None = None  # a table field: one row per hex, with whole-number fields q and r
    deck: str | None = None  # or a deck (a spreadsheet, say): one component per hex, with q and r
    coords: Literal["axial", "odd-r", "even-r", "odd-q", "even-q"] = "axial"  # offset: q is the column, r the row
    orientation: Literal["pointy", "flat"] = "pointy"
    fill: str | None = None
    stroke: str | None = "#333333"
    stroke_width: float = 0.5
    label: str | None = None
    style: str | None = None
    symbol: str | None = None
    padding: float = 0.5
    _loc: Location = dataclasses.field(default=Location("?"), repr=False)  # `field` is an attribute here


@dataclass
class HexGrid:
    hexgrid: HexGridSpec
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        from .layouts import check_style  # layouts imports this module

        spec, where = self.hexgrid, raw["hexgrid"]
        ok = check_style(spec.style, where, styles, "hexgrid", problems) & _check_source(spec, where, "hexgrid", problems)
        if spec.size <= 0:
            problems.error(where.loc_of("size"), "hexgrid-size", f"hexgrid size is {spec.size:g}; expected the distance from a hex's centre to a corner in mm")
            ok = False
        return ok


def _check_source(spec: GridSpec | HexGridSpec, where: Any, kind: str, problems: Problems) -> bool:
    """A grid's cells come from a table field of the component or from a deck: one of them."""
    if (spec.field is None) == (spec.deck is None):
        has = "both 'field' and 'deck'" if spec.field is not None else "neither 'field' nor 'deck'"
        problems.error(
            where.loc, f"{kind}-source", f"{kind} has {has}; expected one: 'field' (a table field of the component) or 'deck' (one component per cell)"
        )
        return False
    return True


@dataclass
class BorderStyle:
    stroke: str = "#000000"
    stroke_width: float = 1.5
    dash: list[float] = field(default_factory=list)


@dataclass
class BordersSpec:
    deck: str  # components with the two fields a border runs between, and its kind
    between: str = "between"  # a list field of two field ids
    kind: str = "kind"  # picks the style
    style: dict[str, BorderStyle] = field(default_factory=dict)
    _loc: Location = field(default=Location("?"), repr=False)


@dataclass
class AreasSpec:
    deck: str  # a deck whose components are the fields of the map
    shape: str = "shape"  # their points field: the outline in mm
    origin: tuple[float, float] = (0.0, 0.0)  # mm added to every point
    fill: str | None = None  # templates see `cell`: the field's id and fields
    stroke: str | None = "#333333"
    stroke_width: float = 0.5
    label: str | None = None
    style: str | None = None
    label_at: str | None = None  # a field holding [x, y]; default: the shape's centroid
    label_box: tuple[float, float] | None = None  # mm, centred on the label point; default: the largest that fits the shape
    borders: BordersSpec | None = None
    _loc: Location = field(default=Location("?"), repr=False)


@dataclass
class Areas:
    areas: AreasSpec
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        from .layouts import check_style  # layouts imports this module

        spec, where = self.areas, raw["areas"]
        ok = check_style(spec.style, where, styles, "areas", problems)
        if spec.label_box is not None and (spec.label_box[0] <= 0 or spec.label_box[1] <= 0):
            problems.error(where.loc_of("label_box"), "areas-label-box", f"label_box {list(spec.label_box)} has no area; expected [width, height] in mm")
            ok = False
        return ok


# --- hex geometry -------------------------------------------------------------------------


def to_axial(q: int, r: int, coords: str) -> tuple[int, int]:
    """Axial (q, r) of a hex given in `coords`; for the offset layouts q is the column
    and r the row (odd-r: odd rows are pushed right by half a hex)."""
    if coords == "odd-r":
        return q - (r - (r & 1)) // 2, r
    if coords == "even-r":
        return q - (r + (r & 1)) // 2, r
    if coords == "odd-q":
        return q, r - (q - (q & 1)) // 2
    if coords == "even-q":
        return q, r - (q + (q & 1)) // 2
    return q, r


def hex_centre(q: int, r: int, size: float, orientation: str, origin: Point) -> Point:
    """Centre in mm of axial hex (q, r)."""
    if orientation == "pointy":
        return origin[0] + size * math.sqrt(3) * (q + r / 2), origin[1] + size * 1.5 * r
    return origin[0] + size * 1.5 * q, origin[1] + size * math.sqrt(3) * (r + q / 2)


def hex_corners(centre: Point, size: float, orientation: str) -> list[Point]:
    start = -30 if orientation == "pointy" else 0
    return [(centre[0] + size * math.cos(math.radians(start + 60 * i)), centre[1] + size * math.sin(math.radians(start + 60 * i))) for i in range(6)]


def hex_inner_box(centre: Point, size: float, orientation: str) -> Box:
    """A wide rectangle inside the hex, for its label and symbol."""
    w, h = (math.sqrt(3) * size, size) if orientation == "pointy" else (1.5 * size, math.sqrt(3) / 2 * size)
    return centre[0] - w / 2, centre[1] - h / 2, w, h


# --- polygon geometry ---------------------------------------------------------------------


def centroid(points: list[Point]) -> Point:
    """The centre of mass of a polygon (the mean of its corners if it has no area)."""
    area = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(area) < 1e-9:
        return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
    return cx / (3 * area), cy / (3 * area)


def inside(point: Point, polygon: list[Point]) -> bool:
    x, y = point
    hit = False
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def _crosses(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Do segments ab and cd cross at a point inside both?"""

    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def box_inside(box: Box, polygon: list[Point]) -> bool:
    x, y, w, h = box
    corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    if not all(inside(p, polygon) for p in corners):
        return False
    if any(x < px < x + w and y < py < y + h for px, py in polygon):
        return False
    edges = list(zip(polygon, polygon[1:] + polygon[:1]))
    return not any(_crosses(a, b, c, d) for a, b in zip(corners, corners[1:] + corners[:1]) for c, d in edges)


def largest_box(polygon: list[Point], at: Point, aspect: float) -> Box | None:
    """The largest rectangle of width/height `aspect`, centred on `at`, inside the polygon."""
    if not inside(at, polygon):
        return None
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    low, high = 0.0, max(max(xs) - min(xs), max(ys) - min(ys))
    for _ in range(30):
        h = (low + high) / 2
        if box_inside((at[0] - h * aspect / 2, at[1] - h / 2, h * aspect, h), polygon):
            low = h
        else:
            high = h
    return (at[0] - low * aspect / 2, at[1] - low / 2, low * aspect, low) if low > 0 else None


def shared_edges(a: list[Point], b: list[Point]) -> list[list[Point]]:
    """The runs of corners of `a` that `b` also has, each pair of them an edge of both
    polygons: where the two shapes touch, in `a`'s order."""
    where_b: dict[tuple[int, int], int] = {}
    for j, p in enumerate(b):
        where_b.setdefault((round(p[0] / SAME), round(p[1] / SAME)), j)
    n, m = len(a), len(b)
    index = [where_b.get((round(p[0] / SAME), round(p[1] / SAME))) for p in a]
    shared = [index[i] is not None and index[(i + 1) % n] is not None and (index[i] - index[(i + 1) % n]) % m in (1, m - 1) for i in range(n)]
    if all(shared):
        return [a + a[:1]]
    runs: list[list[Point]] = []
    current: list[Point] = []
    start = shared.index(False) if False in shared else 0
    for step in range(1, n + 1):
        i = (start + step) % n
        if shared[i]:
            current = current or [a[i]]
            current.append(a[(i + 1) % n])
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


# --- drawing ------------------------------------------------------------------------------


def _style(r: Renderer, f: Frame, name: str | None, loc: Location) -> TextStyle | None:
    if name is None:
        style = LABEL_STYLE
    elif name in f.layout.styles:
        style = f.layout.styles[name]
    else:
        f.problems.error(
            loc, "style-missing", f"{f.where}: style '{name}' is not defined{suggest(name, f.layout.styles)}; expected one of: {', '.join(f.layout.styles)}"
        )
        return None
    scale = f.layout.lang_scale.get(r.lang)
    return replace(style, size=style.size * scale, min_size=style.min_size * scale if style.min_size else None) if scale else style


def fit_label(r: Renderer, f: Frame, content: str, style: TextStyle, box: Box):
    """The text set in a box (mm) by the text engine: its TextLayout."""
    return typeset(content, style, box[2] * mm, box[3] * mm, r.fonts, r.lang, r.symbol_ids)


def label_op(r: Renderer, f: Frame, content: str, style: TextStyle, box: Box, loc: Location, what: str) -> TextOp | None:
    """A cell's label set in a box (mm from the top left) by the text engine, as boards set
    theirs: an error, never a clipped text, when it does not fit even at the smallest size."""
    from .boards import set_text

    return set_text(r, f, content, style, box, loc, f"label '{content}' of {what}", "a shorter label, a smaller style or larger cells")


def _inset(box: Box, by: float) -> Box:
    x, y, w, h = box
    by = min(by, w / 4, h / 4)
    return x + by, y + by, w - 2 * by, h - 2 * by


def _cell_content(r: Renderer, f: Frame, spec: GridSpec | HexGridSpec, box: Box, extra: dict, loc: Location, what: str, style: TextStyle | None) -> list[Op]:
    """The symbol and label of one cell in its inner box: the symbol above the label
    when it has both."""
    ops: list[Op] = []
    label = r.fill_in(spec.label, f, spec._loc, extra) if spec.label else None
    symbol_box, label_box = box, box
    x, y, w, h = box
    if spec.symbol and label:
        symbol_box, label_box = (x, y, w, h * 0.55), (x, y + h * 0.55, w, h * 0.45)
    if spec.symbol:
        op = r.symbol(spec.symbol, symbol_box, f, spec._loc, extra)
        if op is not None:
            ops.append(op)
    if label and style is not None:
        op = label_op(r, f, label, style, label_box, loc, what)
        if op is not None:
            ops.append(op)
    return ops


@dataclass
class Cells:
    """Where a grid's cells come from: the rows of a table field of the component, or the
    components of a deck, each with the location its messages point at."""

    source: str  # for messages: "'hexes'" or "deck 'hexes'"
    rows: list[dict]
    locs: list[Location]


def _deck(r: Renderer, f: Frame, name: str, kind: str, loc: Location) -> Deck | None:
    """The deck a map element reads, or None (reported)."""
    deck = r.game.decks.get(name)
    if deck is None:
        f.problems.error(
            loc, "map-deck", f"{f.where}: {kind} deck '{name}' does not exist{suggest(name, r.game.decks)}; expected one of: {', '.join(r.game.decks)}"
        )
    return deck


def _cells(r: Renderer, f: Frame, spec: GridSpec | HexGridSpec, kind: str) -> Cells | None:
    """The cells of a grid, or None (reported)."""
    from .expressions import card_view

    if spec.deck is not None:
        deck = _deck(r, f, spec.deck, kind, spec._loc)
        if deck is None:
            return None
        cards = list(deck.cards)
        if not cards:
            f.problems.error(deck.loc, "map-empty", f"{f.where}: {kind} deck '{spec.deck}' has no components; expected one per cell")
            return None
        return Cells(f"deck '{spec.deck}'", [card_view(c) for c in cards], [c.loc for c in cards])
    name = spec.field or ""
    fields = r.game.types[f.card.type].fields
    if name not in fields or fields[name].type != "table":
        tables = [n for n, d in fields.items() if d.type == "table"]
        f.problems.error(
            spec._loc,
            "map-field",
            f"{f.where}: {kind} field '{name}' is not a table field of type '{f.card.type}'{suggest(name, tables)}; expected one of: {', '.join(tables) or 'none (declare a field of type table)'}",
        )
        return None
    rows = list(f.card.fields.get(name) or [])
    if not rows:
        f.problems.error(f.card.loc_of(name), "map-empty", f"{f.where}: {kind} '{name}' of card '{f.card.id}' has no rows; expected one row per cell")
        return None
    return Cells(f"'{name}'", rows, [f.card.loc_of(f"{name}.{i}") for i in range(len(rows))])


def draw_grid(r: Renderer, el: Grid, f: Frame) -> list[Op]:
    from .render import RectOp

    spec = el.grid
    cells_in = _cells(r, f, spec, "grid")
    if cells_in is None:
        return []
    rows = cells_in.rows
    if spec.columns < 1:  # reported when the layout was read
        return []
    lines = -(-len(rows) // spec.columns)
    if len(rows) % spec.columns:
        f.problems.error(
            cells_in.locs[-1],
            "grid-ragged",
            f"{f.where}: grid {cells_in.source} has {len(rows)} cells, which leave the last row with {len(rows) % spec.columns} of {spec.columns}; expected a multiple of {spec.columns} cells",
        )
    bx, by, bw, bh = spec.box
    w, h = bw / spec.columns, bh / lines
    style = _style(r, f, spec.style, spec._loc) if spec.label else None
    cells: list[Op] = []
    content: list[Op] = []
    for i, row in enumerate(rows):
        line, col = divmod(i, spec.columns)
        extra = {"cell": row, "row": line, "col": col, "index": i}
        x, y = bx + col * w, by + line * h
        fill = r.color(spec.fill, f, spec._loc, extra)
        stroke = r.color(spec.stroke, f, spec._loc, extra)
        cells.append(RectOp(x * mm, f.y(y, h), w * mm, h * mm, fill, stroke, spec.stroke_width, 0.0))
        what = f"cell {i + 1} (row {line + 1}, column {col + 1}) of grid {cells_in.source}"
        content += _cell_content(r, f, spec, _inset((x, y, w, h), spec.padding), extra, cells_in.locs[i], what, style)
    return cells + content


def draw_hexgrid(r: Renderer, el: HexGrid, f: Frame) -> list[Op]:
    from .render import ShapeOp

    spec = el.hexgrid
    cells_in = _cells(r, f, spec, "hexgrid")
    if cells_in is None:
        return []
    rows, source = cells_in.rows, cells_in.source
    if spec.size <= 0:  # reported when the layout was read
        return []
    style = _style(r, f, spec.style, spec._loc) if spec.label else None
    seen: dict[tuple[int, int], int] = {}
    cells: list[Op] = []
    content: list[Op] = []
    for i, row in enumerate(rows):
        loc = cells_in.locs[i]
        q, rr = row.get("q"), row.get("r")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (q, rr)):
            f.problems.error(
                loc,
                "hexgrid-coords",
                f"{f.where}: row {i + 1} of {source} has q={q!r}, r={rr!r}; expected whole numbers q and r ({spec.coords} coordinates; declare them as int fields of the table)",
            )
            continue
        key = to_axial(q, rr, spec.coords)
        if key in seen:
            f.problems.error(
                loc,
                "hexgrid-twice",
                f"{f.where}: rows {seen[key] + 1} and {i + 1} of {source} are both the hex at q={q}, r={rr}; expected one row per hex",
            )
            continue
        seen[key] = i
        centre = hex_centre(*key, spec.size, spec.orientation, spec.origin)
        extra = {"cell": row, "q": q, "r": rr, "index": i}
        fill = r.color(spec.fill, f, spec._loc, extra)
        stroke = r.color(spec.stroke, f, spec._loc, extra)
        points = tuple((x * mm, f.y(y)) for x, y in hex_corners(centre, spec.size, spec.orientation))
        cells.append(ShapeOp(points, True, fill, stroke, spec.stroke_width))
        box = _inset(hex_inner_box(centre, spec.size, spec.orientation), spec.padding)
        content += _cell_content(r, f, spec, box, extra, loc, f"the hex at q={q}, r={rr} of {source}", style)
    return cells + content


def _label_point(value: Any) -> Point | None:
    """[x, y], or the first point of a points field."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return float(value[0]), float(value[1])
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple)):
        return _label_point(value[0])
    return None


ASPECTS = (4.0, 3.0, 2.0, 1.2)  # width/height of the label boxes tried in an area, widest first


def draw_areas(r: Renderer, el: Areas, f: Frame) -> list[Op]:
    from .expressions import card_view
    from .render import ShapeOp

    spec = el.areas
    deck = _deck(r, f, spec.deck, "areas", spec._loc)
    if deck is None:
        return []
    fields = r.game.types[deck.type].fields
    if spec.shape not in fields or fields[spec.shape].type != "points":
        f.problems.error(
            spec._loc,
            "areas-shape",
            f"{f.where}: areas shape '{spec.shape}' is not a points field of type '{deck.type}'{suggest(spec.shape, fields)}; expected a field of type points",
        )
        return []
    ox, oy = spec.origin
    style = _style(r, f, spec.style, spec._loc) if spec.label else None
    shapes: dict[str, list[Point]] = {}
    fills: list[Op] = []
    labels: list[Op] = []
    for card in deck.cards:
        points = [(x + ox, y + oy) for x, y in card.fields.get(spec.shape) or []]
        if len(points) < 3:
            f.problems.error(
                card.loc_of(spec.shape), "areas-shape", f"{f.where}: the shape of '{card.id}' has {len(points)} points; expected at least 3 [x, y] corners"
            )
            continue
        shapes[card.id] = points
        extra = {"cell": card_view(card)}
        fill = r.color(spec.fill, f, spec._loc, extra)
        stroke = r.color(spec.stroke, f, spec._loc, extra)
        fills.append(ShapeOp(tuple((x * mm, f.y(y)) for x, y in points), True, fill, stroke, spec.stroke_width))
        label = r.fill_in(spec.label, f, spec._loc, extra) if spec.label else None
        if label and style is not None:
            op = _area_label(r, f, spec, card, points, label, style)
            if op is not None:
                labels.append(op)
    borders = _borders(r, f, spec, shapes) if spec.borders else []
    return fills + borders + labels


def _area_label(r: Renderer, f: Frame, spec: AreasSpec, card, points: list[Point], label: str, style: TextStyle) -> TextOp | None:
    loc = card.loc_of(spec.label_at) if spec.label_at else card.loc_of(spec.shape)
    what = f"area '{card.id}'"
    if spec.label_at and card.fields.get(spec.label_at):  # absent: the centroid
        at = _label_point(card.fields.get(spec.label_at))
        if at is None:
            f.problems.error(
                loc, "areas-label-at", f"{f.where}: label_at '{spec.label_at}' of '{card.id}' is {card.fields.get(spec.label_at)!r}; expected [x, y] in mm"
            )
            return None
        at = (at[0] + spec.origin[0], at[1] + spec.origin[1])
    else:
        at = centroid(points)
    if spec.label_box:
        w, h = spec.label_box
        return label_op(r, f, label, style, (at[0] - w / 2, at[1] - h / 2, w, h), loc, what)
    boxes = [box for box in (largest_box(points, at, aspect) for aspect in ASPECTS) if box is not None]
    if not boxes:
        f.problems.error(
            loc,
            "label-overflow",
            f"{f.where}: the label point ({at[0]:g}, {at[1]:g}) of {what} is outside its shape; expected a label_at field inside it",
        )
        return None
    results = [(box, fit_label(r, f, label, style, _inset(box, 0.5))) for box in boxes]
    box, _ = max(results, key=lambda item: (not item[1].overflow, item[1].size))  # the largest text that fits
    return label_op(r, f, label, style, _inset(box, 0.5), loc, what)


def _borders(r: Renderer, f: Frame, spec: AreasSpec, shapes: dict[str, list[Point]]) -> list[Op]:
    from .expressions import card_view
    from .render import ShapeOp

    bspec = spec.borders
    assert bspec is not None
    deck = _deck(r, f, bspec.deck, "borders", bspec._loc)
    if deck is None:
        return []
    area_ids = [c.id for c in r.game.decks[spec.deck].cards]
    ops: list[Op] = []
    for card in deck.cards:
        between = card.fields.get(bspec.between)
        if not isinstance(between, list) or len(between) != 2:
            f.problems.error(
                card.loc_of(bspec.between),
                "border-between",
                f"{f.where}: '{bspec.between}' of border '{card.id}' is {between!r}; expected the ids of the two fields it runs between",
            )
            continue
        a, b = (str(v) for v in between)
        missing = [(i, name) for i, name in enumerate((a, b)) if name not in area_ids]
        for i, name in missing:
            f.problems.error(
                card.loc_of(f"{bspec.between}.{i}"),
                "border-between",
                f"{f.where}: border '{card.id}' runs along '{name}', which is not a field of deck '{spec.deck}'{suggest(name, area_ids)}",
            )
        if missing or a not in shapes or b not in shapes:
            continue
        kind = card.fields.get(bspec.kind)
        look = bspec.style.get(str(kind)) if kind is not None else None
        if look is None:
            f.problems.error(
                card.loc_of(bspec.kind),
                "border-style",
                f"{f.where}: border '{card.id}' is of kind '{kind}', which has no style{suggest(str(kind), bspec.style)}; expected one of: {', '.join(bspec.style) or 'none (add borders.style)'}",
            )
            continue
        runs = [run for run in shared_edges(shapes[a], shapes[b]) if len(run) >= 2]
        if not runs:
            f.problems.error(
                card.loc_of(bspec.between),
                "border-no-edge",
                f"{f.where}: border '{card.id}' runs between '{a}' and '{b}', but their shapes share no edge; expected two fields whose shapes have two neighbouring corners in common",
            )
            continue
        extra = {"border": card_view(card)}
        stroke = r.color(look.stroke, f, bspec._loc, extra)
        for run in runs:
            ops.append(ShapeOp(tuple((x * mm, f.y(y)) for x, y in run), False, None, stroke, look.stroke_width, tuple(look.dash)))
    return ops


MAP_ELEMENTS = {Grid: draw_grid, HexGrid: draw_hexgrid, Areas: draw_areas}
