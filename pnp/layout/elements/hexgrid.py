"""`hexgrid`: hexes whose cells come from a table field of the component or from a deck,
each row with whole-number coordinates q and r: axial, or one of the offset layouts odd-r,
even-r, odd-q and even-q, which are converted to axial."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, Literal

from reportlab.lib.units import mm

from pnp.base.errors import Location, Problems
from pnp.layout.elements.base import ElementKind, Frame, GradientDef, check_paints, check_style, inset
from pnp.layout.elements.cells import LABEL_STYLE, cell_content, cells_of, check_one_source, check_source
from pnp.layout.faces import Box, Op, ShapeOp
from pnp.load.model import Game

Point = tuple[float, float]


@dataclass(repr=False, eq=False)
class HexGridSpec:
    size: float  # mm from a hex's centre to a corner
    origin: tuple[float, float]  # mm: the centre of hex (0, 0)
    field: str | None = None  # a table field: one row per hex, with whole-number fields q and r
    deck: str | None = None  # or a deck (a spreadsheet, say): one component per hex, with q and r
    coords: Literal["axial", "odd-r", "even-r", "odd-q", "even-q"] = "axial"  # offset: q is the column, r the row
    orientation: Literal["pointy", "flat"] = "pointy"
    fill: str | GradientDef | None = None
    stroke: str | GradientDef | None = "#333333"
    stroke_width: float = 0.5
    label: str | None = None
    style: str | None = None
    symbol: str | None = None
    padding: float = 0.5
    _loc: Location = dataclasses.field(default=Location("?"), repr=False)  # `field` is an attribute here


@dataclass(repr=False, eq=False)
class HexGrid(ElementKind):
    hexgrid: HexGridSpec
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        spec, where = self.hexgrid, raw["hexgrid"]
        ok = check_style(spec.style, where, styles, "hexgrid", problems) & check_one_source(spec, where, "hexgrid", problems)
        ok &= check_paints(spec, where, "hexgrid", problems)
        if spec.size <= 0:
            problems.error(where.loc_of("size"), "hexgrid-size", f"hexgrid size is {spec.size:g}; expected the distance from a hex's centre to a corner in mm")
            ok = False
        return ok

    def check_game(self, game: Game, deck_type: str | None, card_sizes: dict[str, tuple[float, float]], where: str, problems: Problems) -> None:
        check_source(self.hexgrid, "hexgrid", game, deck_type, where, problems)

    def draw(self, f: Frame) -> list[Op]:
        return _draw(self, f)


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


def _draw(el: HexGrid, f: Frame) -> list[Op]:
    spec = el.hexgrid
    cells_in = cells_of(f, spec, "hexgrid")
    if cells_in is None:
        return []
    rows, source = cells_in.rows, cells_in.source
    if spec.size <= 0:  # reported when the layout was read
        return []
    style = f.style(spec.style, LABEL_STYLE) if spec.label else None
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
        fill = f.paint(spec.fill, spec._loc, extra)
        stroke = f.paint(spec.stroke, spec._loc, extra)
        points = tuple((x * mm, f.y(y)) for x, y in hex_corners(centre, spec.size, spec.orientation))
        cells.append(ShapeOp(points, True, fill, stroke, spec.stroke_width))
        box = inset(hex_inner_box(centre, spec.size, spec.orientation), spec.padding)
        content += cell_content(f, spec, box, extra, loc, f"the hex at q={q}, r={rr} of {source}", style)
    return cells + content
