"""`grid`: a square grid whose cells come from a table field of the component (one row
per cell, row-major) or from a deck (one component per cell), each with a fill, a symbol
and a label."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.units import mm

from pnp.base.errors import Location, Problems
from pnp.layout.elements.base import ElementKind, Frame, GradientDef, check_paints, check_style, inset
from pnp.layout.elements.cells import LABEL_STYLE, cell_content, cells_of, check_one_source, check_source
from pnp.layout.faces import Box, Op, RectOp
from pnp.load.model import Game


@dataclass(repr=False, eq=False)
class GridSpec:
    box: Box  # mm: the area the grid fills
    columns: int
    field: str | None = None  # a table field of the component: one row per cell, row-major
    deck: str | None = None  # or a deck (a spreadsheet, say): one component per cell
    fill: str | GradientDef | None = None  # templates see `cell` (the row), `row`, `col`, `index`
    stroke: str | GradientDef | None = "#333333"
    stroke_width: float = 0.5  # points
    label: str | None = None
    style: str | None = None  # a text style of the layout
    symbol: str | None = None
    padding: float = 1.0  # mm inside each cell kept clear of its label and symbol
    _loc: Location = dataclasses.field(default=Location("?"), repr=False)  # `field` is an attribute here


@dataclass(repr=False, eq=False)
class Grid(ElementKind):
    grid: GridSpec
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        """What the layout alone tells (layout/read.py calls it when the layout is read)."""
        spec, where = self.grid, raw["grid"]
        ok = check_style(spec.style, where, styles, "grid", problems) & check_one_source(spec, where, "grid", problems)
        ok &= check_paints(spec, where, "grid", problems)
        if spec.box[2] <= 0 or spec.box[3] <= 0:
            problems.error(where.loc_of("box"), "grid-box", f"grid box {list(spec.box)} has no area; expected a positive width and height")
            ok = False
        if spec.columns < 1:
            problems.error(where.loc_of("columns"), "grid-columns", f"grid has {spec.columns} columns; expected a whole number from 1")
            ok = False
        return ok

    def check_game(self, game: Game, deck_type: str | None, card_sizes: dict[str, tuple[float, float]], where: str, problems: Problems) -> None:
        check_source(self.grid, "grid", game, deck_type, where, problems)

    def draw(self, f: Frame) -> list[Op]:
        return _draw(self, f)


def _draw(el: Grid, f: Frame) -> list[Op]:
    spec = el.grid
    cells_in = cells_of(f, spec, "grid")
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
    style = f.style(spec.style, LABEL_STYLE) if spec.label else None
    cells: list[Op] = []
    content: list[Op] = []
    for i, row in enumerate(rows):
        line, col = divmod(i, spec.columns)
        extra = {"cell": row, "row": line, "col": col, "index": i}
        x, y = bx + col * w, by + line * h
        fill = f.paint(spec.fill, spec._loc, extra)
        stroke = f.paint(spec.stroke, spec._loc, extra)
        cells.append(RectOp(x * mm, f.y(y, h), w * mm, h * mm, fill, stroke, spec.stroke_width, 0.0))
        what = f"cell {i + 1} (row {line + 1}, column {col + 1}) of grid {cells_in.source}"
        content += cell_content(f, spec, inset((x, y, w, h), spec.padding), extra, cells_in.locs[i], what, style)
    return cells + content
