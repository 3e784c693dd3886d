"""`legend`: every symbol the game has (or those listed) with its name, in columns, so a
player aid never misses a symbol the components use."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

from reportlab.lib.units import mm

from pnp.base.errors import Location, Problems, one_of
from pnp.layout.elements.base import MIN_SPACE, ElementKind, Frame, check_style
from pnp.layout.faces import Box, Op
from pnp.layout.text import TextStyle, typeset
from pnp.load.model import Game
from pnp.load.schema import suggest
from pnp.templates.expressions import NO_SYMBOLS

LEGEND_STYLE = TextStyle(size=8, align="left", valign="middle")  # labels without a named style


@dataclass(repr=False, eq=False)
class LegendDef:
    """Where a legend goes and how it is set: its box, columns and style."""

    box: Box
    columns: int = 1
    style: str | None = None
    symbols: str | list[str] = "all"  # all, a list of ids, or a template giving ids


@dataclass(repr=False, eq=False)
class Legend(ElementKind):
    """The game's symbols with their names, in columns."""

    legend: LegendDef
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        g, spec = self.legend, raw["legend"]
        ok = check_style(g.style, spec, styles, "legend", problems)
        if g.columns < 1:
            problems.error(spec.loc_of("columns"), "legend-columns", f"columns is {g.columns}; expected a whole number from 1")
            ok = False
        if g.box[2] <= 0 or g.box[3] <= 0:
            problems.error(spec.loc_of("box"), "legend-box", f"legend box {list(g.box)} has no area; expected a positive width and height")
            ok = False
        return ok

    def draw(self, f: Frame) -> list[Op]:
        return _draw(self, f)


_IDS = re.compile(r"[\s,]+")


def legend_label(game: Game, sid: str) -> str | None:
    """A symbol's name: game.yaml's symbol_names, else the name of an enum value with the
    same id (so a resource enum names its own symbols)."""
    name = game.meta.symbol_names.get(sid)
    if name:
        return name
    for values in game.enums.values():
        if sid in values:
            return str(values[sid].attrs.get("name") or sid)
    return None


def _draw(el: Legend, f: Frame) -> list[Op]:
    symbol_ids = f.services.symbol_ids
    g, loc = el.legend, el._loc
    if g.symbols == "all":
        ids = list(f.game.symbols)
    else:
        listed = g.symbols if isinstance(g.symbols, list) else _IDS.split(f.fill_in(g.symbols, loc) or "")
        ids = [sid for sid in (str(s).strip() for s in listed) if sid]
    entries = []
    for sid in ids:
        if sid not in symbol_ids:
            f.problems.error(
                loc,
                "symbol-unknown",
                f"{f.where}: the legend lists symbol '{sid}', which does not exist{suggest(sid, symbol_ids)}; expected {one_of(sorted(symbol_ids), NO_SYMBOLS)}",
            )
            continue
        label = legend_label(f.game, sid)
        if label is None:
            f.problems.error(
                loc,
                "legend-unnamed",
                f"{f.where}: symbol '{sid}' has no name for the legend; expected 'symbol_names: {{{sid}: ...}}' in game.yaml or an enum value '{sid}' with a name",
            )
            continue
        entries.append((sid, label))
    if not entries:
        return []
    style = f.style(g.style, LEGEND_STYLE)
    x, y, w, h = g.box
    gap = 2.0  # mm between columns
    icon = style.size * 1.4 / mm  # mm: the symbol's side
    space = style.size * 0.4 / mm  # mm between the symbol and its label
    col_w = (w - gap * (g.columns - 1)) / g.columns
    text_w = col_w - icon - space
    if text_w < MIN_SPACE:
        f.problems.error(
            loc, "legend-too-small", f"{f.where}: legend columns of {col_w:.1f} mm leave no room for labels; expected fewer columns or a wider box"
        )
        return []
    heights = []
    for _sid, label in entries:
        fit = typeset(label, style, text_w * mm, h * mm, f.services.fonts, f.services.typography, symbol_ids)
        heights.append(max(icon, fit.height / mm) + style.size * 0.3 / mm)
    columns = _flow(heights, g.columns, h)
    if columns is None:
        need = _flow(heights, g.columns, math.inf) or []
        tallest = max(math.fsum(heights[i] for i in col) for col in need) if need else math.fsum(heights)
        f.problems.error(
            loc,
            "legend-too-small",
            f"{f.where}: the legend's {len(entries)} symbols do not fit its box {[round(v, 2) for v in g.box]}: in {g.columns} column{'s' if g.columns > 1 else ''} they need {tallest:.1f} mm of height; expected a larger box, more columns or a smaller style",
        )
        return []
    ops: list[Op] = []
    for c, col in enumerate(columns):
        cx, cy = x + c * (col_w + gap), y
        for i in col:
            sid, label = entries[i]
            row = heights[i]
            symbol = f.symbol(sid, (cx, cy + (row - icon) / 2, icon, icon), loc)
            if symbol is not None:
                ops.append(symbol)
            op = f.text(
                label,
                replace(style, valign="middle"),
                (cx + icon + space, cy, text_w, row),
                loc,
                f"{f.where}: the legend's label of '{sid}'",
                "a shorter name or a smaller style",
            )
            if op is not None:
                ops.append(op)
            cy += row
    return ops


def _flow(heights: list[float], columns: int, limit: float) -> list[list[int]] | None:
    """Entries in newspaper columns of at most `limit` mm: balanced (the same count per
    column) when that fits, else as many as fit in each column in turn; None if neither."""
    per = math.ceil(len(heights) / columns)
    balanced = [list(range(i, min(i + per, len(heights)))) for i in range(0, len(heights), per)]
    if all(math.fsum(heights[i] for i in col) <= limit + 1e-6 for col in balanced):
        return balanced
    out: list[list[int]] = [[]]
    used = 0.0
    for i, hgt in enumerate(heights):
        if used + hgt > limit + 1e-6 and out[-1]:
            out.append([])
            used = 0.0
        if hgt > limit + 1e-6 or len(out) > columns:
            return None
        out[-1].append(i)
        used += hgt
    return out
