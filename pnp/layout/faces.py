"""The drawing vocabulary: a `Face` (one side of one component) is a tuple of drawing
operations in points, origin bottom left, with every text already set. The lay-out
stage makes them and the writers (sheets, pieces, PNG, rulebook pictures) draw them;
nothing here knows about layouts, games or PDFs.

Operations, faces, set texts and locations are values: compared and hashed by what they
hold (tables of forms and caches key on them), and never changed once made. They are not
frozen dataclasses all the same (`unsafe_hash`): a frozen one is slower to make (a build
makes them by the thousand) and costs two more generated methods when pnp starts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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
    (write/pdf.py)."""
    found = cache.get(id(obj))
    if found is None or found[0] is not obj or found[1] != also:
        if len(cache) >= 64:
            cache.clear()
        found = cache[id(obj)] = (obj, also, make(obj))
    return found[2]


@dataclass(unsafe_hash=True, repr=False)
class RectOp:
    """A rectangle, filled and/or stroked, with rounded corners when `radius`."""

    x: float
    y: float
    w: float
    h: float
    fill: Color | None
    stroke: Color | None
    stroke_width: float
    radius: float


@dataclass(unsafe_hash=True, repr=False)
class LineOp:
    """A straight line, solid or dashed."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Color
    stroke_width: float
    dash: tuple[float, ...]


@dataclass(unsafe_hash=True, repr=False)
class TextOp:
    """A set text, its first baseline at `baseline`."""

    x: float  # left edge of the box
    baseline: float  # baseline of the first line
    text: TextLayout
    color: Color


@dataclass(unsafe_hash=True, repr=False)
class SymbolOp:
    """A symbol of the game, `size` points high, its bottom-left corner at x, y."""

    symbol: str
    x: float
    y: float
    size: float


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
    fill: Color | None
    stroke: Color | None
    stroke_width: float
    dash: tuple[float, ...] = ()


@dataclass(unsafe_hash=True, repr=False)
class EllipseOp:
    """An ellipse (a circle when rx == ry), filled and/or stroked."""

    cx: float
    cy: float
    rx: float
    ry: float
    fill: Color | None
    stroke: Color | None
    stroke_width: float
    dash: tuple[float, ...] = ()


@dataclass(unsafe_hash=True, repr=False)
class Face:
    """One side of one component, ready to draw: size in points, origin bottom left."""

    name: str  # e.g. "rim (front)", for messages
    width: float
    height: float
    ops: tuple[Op, ...]


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


Op = RectOp | LineOp | ShapeOp | EllipseOp | TextOp | SymbolOp | ImageOp | FaceOp


@lru_cache(maxsize=256)
def parse_color(value: str) -> Color:
    """A colour from '#rrggbb' or a name; ValueError or AttributeError when it is neither."""
    if value.startswith("#"):
        return HexColor(value)
    return toColor(value)


BLACK = parse_color("#000000")
