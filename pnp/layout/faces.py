"""The drawing vocabulary: a `Face` (one side of one component) is a tuple of drawing
operations in points, origin bottom left, with every text already set. The lay-out
stage makes them and the writers (sheets, pieces, PNG, rulebook pictures) draw them;
nothing here knows about layouts, games or PDFs.

Operations, faces, set texts and locations are values: compared and hashed by what they
hold (tables of forms and caches key on them), and never changed once made. They are not
frozen dataclasses all the same (`unsafe_hash`): a frozen one is slower to make (a build
makes them by the thousand) and costs two more generated methods when pnp starts."""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from reportlab.lib.colors import Color, HexColor, toColor

from pnp.layout.text import TextLayout

Box = tuple[float, float, float, float]  # x, y, width, height in mm from the top left of a face


def once_per_object(cache: dict[int, tuple[Any, Any, Any]], obj: Any, make: Callable[[Any], Any], also: Any = None) -> Any:
    """`make(obj)`, kept in `cache` by the object's id with the object held (so its id is
    no other's while kept) and `also`, what else the result depends on (compared by
    value); the cache emptied at 64 (not the oldest entry alone: a dict's first key is
    found past every key deleted before it). For what faces share as one object
    (renderer.py: a deck's back, a front's frame; a style's colour), worked out once for
    every face that holds it: its hash (write/manifest.py), its key in a PDF's forms
    (write/pdf.py's Forms)."""
    found = cache.get(id(obj))
    if found is None or found[0] is not obj or found[1] != also:
        if len(cache) >= 64:
            cache.clear()
        found = cache[id(obj)] = (obj, also, make(obj))
    return found[2]


@dataclass(unsafe_hash=True, repr=False)
class Gradient:
    """A paint that runs through `colors`, evenly spaced: linear from (x1, y1) to (x2, y2)
    (`coords`: x1, y1, x2, y2), or radial from the centre out to the radius (`coords`:
    cx, cy, r); points on the face, origin bottom left. Past its ends it keeps its end
    colours; what it paints clips it: a shape's inside (a fill), the area its stroke
    covers (a stroke), a text's glyphs (a text's colour)."""

    radial: bool
    coords: tuple[float, ...]
    colors: tuple[Color, ...]


Paint = Color | Gradient  # what fills or strokes a shape, or colours a text


@dataclass(unsafe_hash=True, repr=False)
class RectOp:
    """A rectangle, filled and/or stroked, with rounded corners when `radius`."""

    x: float
    y: float
    w: float
    h: float
    fill: Paint | None
    stroke: Paint | None
    stroke_width: float
    radius: float


@dataclass(unsafe_hash=True, repr=False)
class LineOp:
    """A straight line, solid or dashed."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Paint
    stroke_width: float
    dash: tuple[float, ...]


@dataclass(unsafe_hash=True, repr=False)
class TextOp:
    """A set text, its first baseline at `baseline`."""

    x: float  # left edge of the box
    baseline: float  # baseline of the first line
    text: TextLayout
    color: Paint


@dataclass(unsafe_hash=True, repr=False)
class SymbolOp:
    """A symbol of the game, `size` points high, its bottom-left corner at x, y."""

    symbol: str
    x: float
    y: float
    size: float
    tint: Paint | None = None  # every fill and stroke of the symbol in this colour or gradient


@dataclass(unsafe_hash=True, repr=False)
class ImageOp:
    """An image file fitted into a box."""

    path: str
    x: float
    y: float
    w: float
    h: float
    fit: str = "contain"  # contain: whole image, centred; cover: fill the box, cropped; stretch


@dataclass(unsafe_hash=True, repr=False)
class ShapeOp:
    """A polygon (closed) or polyline through points in points, origin bottom left."""

    points: tuple[tuple[float, float], ...]
    closed: bool
    fill: Paint | None
    stroke: Paint | None
    stroke_width: float
    dash: tuple[float, ...] = ()


@dataclass(unsafe_hash=True, repr=False)
class EllipseOp:
    """An ellipse (a circle when rx == ry), filled and/or stroked."""

    cx: float
    cy: float
    rx: float
    ry: float
    fill: Paint | None
    stroke: Paint | None
    stroke_width: float
    dash: tuple[float, ...] = ()


@dataclass(unsafe_hash=True, repr=False)
class QrOp:
    """A QR code: `rows` of its modules ("1" dark), `size` points square with its
    bottom-left corner at x, y, the dark modules filled in `color`."""

    x: float
    y: float
    size: float
    rows: tuple[str, ...]
    color: Paint


@dataclass(unsafe_hash=True, repr=False)
class GroupOp:
    """An element's operations turned `angle` degrees counterclockwise about (cx, cy)
    and drawn at `opacity` (1: opaque): a layout's `rotate:` and `opacity:`."""

    ops: tuple[Op, ...]
    angle: float
    cx: float
    cy: float
    opacity: float = 1.0


@dataclass(unsafe_hash=True, repr=False)
class Face:
    """One side of one component, ready to draw: size in points, origin bottom left."""

    name: str  # e.g. "rim (front)", for messages
    width: float
    height: float
    ops: tuple[Op, ...]
    shape: str = "rect"  # the outline it is cut along (its layout's `shape:`): rect, round or hex


@dataclass(unsafe_hash=True, repr=False)
class FaceOp:
    """A face drawn inside another (a panel of a tuck box): turned `angle` degrees
    counterclockwise (0, 90, 180, 270), its trim's bottom-left corner then at x, y; its
    art runs `bleed` past its trim and is clipped to `clip` (x, y, w, h on the outer face)."""

    face: Face
    x: float
    y: float
    angle: int
    bleed: float
    clip: tuple[float, float, float, float]

    @property
    def origin(self) -> tuple[float, float]:
        """Where the inner face's own origin lies once turned, for translate-then-rotate."""
        w, h = self.face.width, self.face.height
        dx, dy = {0: (0, 0), 90: (h, 0), 180: (w, h), 270: (0, w)}[self.angle]
        return self.x + dx, self.y + dy


Op = RectOp | LineOp | ShapeOp | EllipseOp | TextOp | SymbolOp | ImageOp | FaceOp | QrOp | GroupOp


def bounds(ops: tuple[Op, ...] | list[Op]) -> tuple[float, float, float, float] | None:
    """left, bottom, right, top in points of what `ops` draw (a text by its lines' extent,
    a turned group by its operations unturned); None for nothing. Where an element without
    a box of its own turns by default: about the middle of this."""
    xs: list[float] = []
    ys: list[float] = []
    for op in ops:
        if isinstance(op, (RectOp, ImageOp)):
            xs += (op.x, op.x + op.w)
            ys += (op.y, op.y + op.h)
        elif isinstance(op, LineOp):
            xs += (op.x1, op.x2)
            ys += (op.y1, op.y2)
        elif isinstance(op, ShapeOp):
            xs += [x for x, _ in op.points]
            ys += [y for _, y in op.points]
        elif isinstance(op, EllipseOp):
            xs += (op.cx - op.rx, op.cx + op.rx)
            ys += (op.cy - op.ry, op.cy + op.ry)
        elif isinstance(op, (SymbolOp, QrOp)):
            xs += (op.x, op.x + op.size)
            ys += (op.y, op.y + op.size)
        elif isinstance(op, TextOp):
            pieces = [p for line in op.text.lines for p in line]
            xs += (op.x + min((p.x for p in pieces), default=0.0), op.x + max((p.x + p.width for p in pieces), default=0.0))
            ys += (op.baseline + op.text.ascent, op.baseline - len(op.text.lines) * op.text.leading)
        elif isinstance(op, GroupOp) and (inner := bounds(op.ops)) is not None:
            xs += inner[::2]
            ys += inner[1::2]
        elif isinstance(op, FaceOp):
            xs += (op.clip[0], op.clip[0] + op.clip[2])
            ys += (op.clip[1], op.clip[1] + op.clip[3])
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def mirrored(ops: list[Op] | tuple[Op, ...], width: float, placed: Container[int] = ()) -> list[Op]:
    """`ops` mirrored about the vertical axis of a face `width` points wide (a layout for
    a language written right to left, game.yaml's `direction:`): every position moves to
    the other side, and nothing is drawn flipped (a text, an image, a symbol or a QR code
    reads as before); a turned group turns the other way. A text moves line by line, each
    line's words in their order (left-aligned lines end up right-aligned); a text whose id
    is in `placed` was set in its mirrored box already (elements.base.Frame.text) and is
    kept."""
    return [_mirrored(op, width, placed) for op in ops]


def _mirrored(op: Op, width: float, placed: Container[int]) -> Op:
    if isinstance(op, RectOp):
        return replace(op, x=width - op.x - op.w, fill=_mirrored_paint(op.fill, width), stroke=_mirrored_paint(op.stroke, width))
    if isinstance(op, ImageOp):
        return replace(op, x=width - op.x - op.w)
    if isinstance(op, SymbolOp):
        return replace(op, x=width - op.x - op.size, tint=_mirrored_paint(op.tint, width))
    if isinstance(op, QrOp):
        return replace(op, x=width - op.x - op.size, color=_mirrored_paint(op.color, width))
    if isinstance(op, LineOp):
        return replace(op, x1=width - op.x1, x2=width - op.x2, stroke=_mirrored_paint(op.stroke, width))
    if isinstance(op, ShapeOp):
        return replace(op, points=tuple((width - x, y) for x, y in op.points), fill=_mirrored_paint(op.fill, width), stroke=_mirrored_paint(op.stroke, width))
    if isinstance(op, EllipseOp):
        return replace(op, cx=width - op.cx, fill=_mirrored_paint(op.fill, width), stroke=_mirrored_paint(op.stroke, width))
    if isinstance(op, GroupOp):
        return replace(op, ops=tuple(mirrored(op.ops, width, placed)), angle=-op.angle if op.angle else op.angle, cx=width - op.cx)
    if isinstance(op, TextOp) and id(op) in placed:  # set in its mirrored box: only a gradient colour moves
        return replace(op, color=_mirrored_paint(op.color, width)) if isinstance(op.color, Gradient) else op
    if isinstance(op, TextOp):
        lines = []
        for line in op.text.lines:
            if line:
                shift = width - 2 * op.x - min(p.x for p in line) - max(p.x + p.width for p in line)
                line = tuple(p._replace(x=p.x + shift) for p in line)
            lines.append(line)
        return replace(op, text=replace(op.text, lines=tuple(lines)), color=_mirrored_paint(op.color, width))
    return op  # a face in a face (a tuck box's net is never mirrored)


def _mirrored_paint(paint: Paint | None, width: float) -> Paint | None:
    if not isinstance(paint, Gradient):
        return paint
    c = paint.coords
    return replace(paint, coords=(width - c[0], *c[1:]) if paint.radial else (width - c[0], c[1], width - c[2], c[3]))


@lru_cache(maxsize=256)
def parse_color(value: str) -> Color:
    """A colour from '#rrggbb' or a name; ValueError or AttributeError when it is neither."""
    if value.startswith("#"):
        return HexColor(value)
    return toColor(value)


BLACK = parse_color("#000000")
