"""Stage 3, lay out: turn one component and its layout into a Face, a list of drawing
operations in points with every text already set. Nothing here touches a PDF, so
`pnp check` runs the same code to find text that does not fit, missing glyphs and
unknown symbols without building anything."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from reportlab.lib.colors import Color, HexColor, toColor
from reportlab.lib.units import mm

from .boards import Legend, Slot, Track, draw_legend, draw_slot, draw_track
from .errors import Location, PnpError, Problems
from .expressions import FAILED, Names, evaluate_at, fill_in
from .fonts import FontSet
from .i18n import PSEUDO
from .images import find_image
from .layouts import Circle, Image, Layout, Line, Polygon, Rect, SymbolEl, Text, text_style
from .maps import MAP_ELEMENTS
from .model import Card, Game
from .text import TextLayout, TextStyle, typeset

_FIELD = re.compile(r"^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$")


@dataclass(frozen=True)
class RectOp:
    x: float
    y: float
    w: float
    h: float
    fill: Color | None
    stroke: Color | None
    stroke_width: float
    radius: float


@dataclass(frozen=True)
class LineOp:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Color
    stroke_width: float
    dash: tuple[float, ...]


@dataclass(frozen=True)
class TextOp:
    x: float  # left edge of the box
    baseline: float  # baseline of the first line
    text: TextLayout
    color: Color


@dataclass(frozen=True)
class SymbolOp:
    symbol: str
    x: float
    y: float
    size: float


@dataclass(frozen=True)
class ImageOp:
    path: str
    x: float
    y: float
    w: float
    h: float
    fit: str = "contain"  # contain: whole image, centred; cover: fill the box, cropped; stretch


@dataclass(frozen=True)
class ShapeOp:
    """A polygon (closed) or polyline through points in points, origin bottom left."""

    points: tuple[tuple[float, float], ...]
    closed: bool
    fill: Color | None
    stroke: Color | None
    stroke_width: float
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class EllipseOp:
    cx: float
    cy: float
    rx: float
    ry: float
    fill: Color | None
    stroke: Color | None
    stroke_width: float
    dash: tuple[float, ...] = ()


Op = RectOp | LineOp | ShapeOp | EllipseOp | TextOp | SymbolOp | ImageOp


@dataclass(frozen=True)
class Face:
    """One side of one component, ready to draw: size in points, origin bottom left."""

    name: str  # e.g. "rim (front)", for messages
    width: float
    height: float
    ops: tuple[Op, ...]


@dataclass
class Frame:
    """What every element of one face is drawn in: the component, its template context,
    the face height in points (PDF y runs up, layouts measure down) and how messages name it."""

    card: Card
    layout: Layout
    ctx: dict[str, Any]
    height: float
    where: str
    problems: Problems

    def y(self, top_mm: float, h_mm: float = 0.0) -> float:
        """PDF y of the bottom of a box whose top is `top_mm` from the top of the face."""
        return self.height - (top_mm + h_mm) * mm


@lru_cache(maxsize=256)
def _color(value: str) -> Color:
    if value.startswith("#"):
        return HexColor(value)
    return toColor(value)


class Renderer:
    """Lays out faces of one game in one language."""

    def __init__(self, game: Game, fonts: FontSet, symbols: Any, lang: str):
        self.game = game
        self.fonts = fonts
        self.symbols = symbols
        self.symbol_ids = symbols.ids
        self.lang = lang
        self._text_specs: dict[tuple[int, int], tuple[TextStyle, str, str | None]] = {}
        self.names = Names(game)
        self._undefined: set = set()  # (place, name) of undefined names: reported once, not per card

    def context(self, card: Card) -> dict[str, Any]:
        return self.names.of(card)

    def face(self, card: Card, layout: Layout, side: str, problems: Problems) -> Face:
        ctx = self.context(card)
        frame = Frame(card, layout, ctx, layout.height * mm, f"card '{card.id}' ({side}, layout '{layout.name}')", problems)
        ops: list[Op] = []
        for el in layout.elements:
            if el.when is not None and not self._when(el.when, ctx, el._loc, frame.where, problems):
                continue
            ops.extend(ELEMENTS[type(el)](self, el, frame))
        return Face(f"{card.id} ({side})", layout.width * mm, frame.height, tuple(ops))

    # --- helpers element renderers share -------------------------------------------------

    def fill_in(self, source: str, frame: Frame, loc: Location, extra: dict | None = None) -> str | None:
        """A template filled in for this component (plus `extra` names, e.g. a track's `n`)."""
        return self._render(source, {**frame.ctx, **extra} if extra else frame.ctx, loc, frame.where, frame.problems)

    def color(self, value: str | None, frame: Frame, loc: Location, extra: dict | None = None) -> Color | None:
        return self._color(value, {**frame.ctx, **extra} if extra else frame.ctx, loc, frame.where, frame.problems)

    def symbol(self, source: str, box: tuple[float, float, float, float], frame: Frame, loc: Location, extra: dict | None = None) -> SymbolOp | None:
        """A symbol centred in a box given in mm from the top left; None when the template is
        empty, an error (never a blank) when the symbol does not exist."""
        sid = self.fill_in(source, frame, loc, extra)
        if not sid:
            return None
        if sid not in self.symbol_ids:
            frame.problems.error(loc, "symbol-unknown", f"{frame.where}: symbol '{sid}' does not exist; expected one of: {', '.join(sorted(self.symbol_ids))}")
            return None
        x, y, w, h = box
        size = min(w, h) * mm
        return SymbolOp(sid, x * mm + (w * mm - size) / 2, frame.height - (y + h) * mm + (h * mm - size) / 2, size)

    def _text(self, el: Text, layout: Layout, card: Card, ctx: dict, where: str, problems: Problems) -> TextOp | None:
        content = self._render(el.text, ctx, el._loc, where, problems)
        if not content:
            return None
        style, label, field = self._text_spec(layout, el)
        if style.font not in self.fonts:
            problems.error(el._loc, "font-unknown", f"{where}: font '{style.font}' does not exist; expected one of: {', '.join(self.fonts.names())}")
            return None
        x, y, w, h = el.box
        result = typeset(content, style, w * mm, h * mm, self.fonts, self.lang, self.symbol_ids)
        loc = card.loc_of(field) if field else card.loc
        if result.overflow:
            problems.error(
                loc,
                "text-overflow",
                f"{label} of card '{card.id}' does not fit its box in layout '{layout.name}' even at {result.size:g} pt: it needs {result.height / mm:.1f} mm, the box is {h:g} x {w:g} mm; shorten the text or enlarge the box",
            )
        elif self.lang == PSEUDO and result.size < style.size - 1e-6:
            problems.warn(
                loc,
                "text-shrunk",
                f"{label} of card '{card.id}' shrinks from {style.size:g} to {result.size:g} pt in the pseudo-language: a longer translation may not fit its box in layout '{layout.name}'",
            )
        if result.missing:
            chars = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in result.missing)
            problems.error(loc, "font-glyph", f"{label} of card '{card.id}' uses {chars}, missing from font '{style.font}'; expected a font that has them")
        for sid in result.unknown_symbols:
            problems.error(
                loc,
                "symbol-unknown",
                f"{label} of card '{card.id}' uses symbol ':{sid}:', which does not exist; expected one of: {', '.join(sorted(self.symbol_ids))}",
            )
        for issue in result.markup:
            problems.error(loc, "text-markup", f"{label} of card '{card.id}' has markup the text engine cannot read: {issue.describe(content)}")
        top = (layout.height - y) * mm
        block = len(result.lines) * result.leading
        offset = {"top": 0.0, "middle": (h * mm - block) / 2, "bottom": h * mm - block}[style.valign]
        color = self._color(style.color, ctx, el._loc, where, problems) or _color("#000000")
        return TextOp(x * mm, top - max(0.0, offset) - result.ascent, result, color)

    def _text_spec(self, layout: Layout, el: Text) -> tuple[TextStyle, str, str | None]:
        """Per text element, not per card: its style in this language, what messages call
        it, and the card field it shows alone (whose line a message points at)."""
        key = (id(layout), id(el))
        spec = self._text_specs.get(key)
        if spec is None:
            style = text_style(layout, el)
            scale = layout.lang_scale.get(self.lang)
            if scale:
                style = replace(style, size=style.size * scale, min_size=style.min_size * scale if style.min_size else None)
            match = _FIELD.match(el.text)
            field = match.group(1) if match else None
            spec = self._text_specs[key] = (style, el.name or field or "text", field)
        return spec

    def _render(self, source: str, ctx: dict, loc: Location, where: str, problems: Problems) -> str | None:
        if "{" not in source:
            return source
        text = fill_in(source, ctx, loc, f"{where}: cannot fill in '{source}'", problems, self._undefined)
        return text.strip() if text is not None else None

    def _when(self, source: str, ctx: dict, loc: Location, where: str, problems: Problems) -> bool:
        ok = evaluate_at(source, ctx, loc, f"{where}: cannot evaluate when: '{source}'", problems, self._undefined)
        return ok is not FAILED and bool(ok)

    def _color(self, value: str | None, ctx: dict, loc: Location, where: str, problems: Problems) -> Color | None:
        if value is None:
            return None
        text = self._render(value, ctx, loc, where, problems)
        if not text or text == "none":
            return None
        try:
            return _color(text)
        except (ValueError, AttributeError):
            problems.error(loc, "color", f"{where}: colour '{text}' is not a colour; expected '#rrggbb' or a colour name")
            return None


# --- one renderer per element kind: (renderer, element, frame) -> ops --------------------


def _rect(r: Renderer, el: Rect, f: Frame) -> list[Op]:
    x, y, w, h = el.rect
    fill = r.color(el.fill, f, el._loc)
    stroke = r.color(el.stroke, f, el._loc)
    return [RectOp(x * mm, f.y(y, h), w * mm, h * mm, fill, stroke, el.stroke_width, el.radius * mm)]


def _line(r: Renderer, el: Line, f: Frame) -> list[Op]:
    x1, y1, x2, y2 = el.line
    stroke = r.color(el.stroke, f, el._loc) or _color("#000000")
    return [LineOp(x1 * mm, f.y(y1), x2 * mm, f.y(y2), stroke, el.stroke_width, tuple(el.dash))]


def _shape(r: Renderer, el: Polygon | Circle, f: Frame) -> list[Op]:
    fill = r.color(el.fill, f, el._loc)
    stroke = r.color(el.stroke, f, el._loc)
    if isinstance(el, Circle):
        cx, cy, radius = el.circle
        return [EllipseOp(cx * mm, f.y(cy), radius * mm, radius * mm, fill, stroke, el.stroke_width, tuple(el.dash))]
    points = tuple((x * mm, f.y(y)) for x, y in el.polygon)
    return [ShapeOp(points, el.closed, fill, stroke, el.stroke_width, tuple(el.dash))]


def _text(r: Renderer, el: Text, f: Frame) -> list[Op]:
    op = r._text(el, f.layout, f.card, f.ctx, f.where, f.problems)
    return [op] if op is not None else []


def _symbol(r: Renderer, el: SymbolEl, f: Frame) -> list[Op]:
    op = r.symbol(el.symbol, el.box, f, el._loc)
    return [op] if op is not None else []


def _image(r: Renderer, el: Image, f: Frame) -> list[Op]:
    name = r.fill_in(el.image, f, el._loc)
    if not name:
        return []
    try:
        path = find_image(name, r.game.root, el._loc, f"{f.where}: image")
    except PnpError as err:
        f.problems.extend(err.problems)
        return []
    x, y, w, h = el.box
    return [ImageOp(str(path), x * mm, f.y(y, h), w * mm, h * mm, el.fit)]


ELEMENTS: dict[type, Callable[[Renderer, Any, Frame], list[Op]]] = {
    Rect: _rect,
    Line: _line,
    Polygon: _shape,
    Circle: _shape,
    Text: _text,
    SymbolEl: _symbol,
    Image: _image,
    Track: draw_track,
    Slot: draw_slot,
    Legend: draw_legend,
}
ELEMENTS.update(MAP_ELEMENTS)
