"""The net of a tuck box: plain arithmetic in millimetres, nothing drawn here.

A straight-tuck box for a deck: four walls in a row (back, left spine, front, right
spine) with a glue tab on the right that goes under the back's free edge; a lid with a
tuck flap at the back's top and at its bottom, folding over to tuck into the front; dust
flaps on the spines' ends, folding in under the lids; a thumb notch in the front's top
edge to pull the top flap out. The inside measures the cards plus a clearance:

    width  = card width  + clearance
    height = card height + clearance
    depth  = cards x thickness + clearance

Coordinates: mm, origin at the bottom left of the net's bounding box, y up (as on a PDF
page), the printed side (the outside of the box) facing the viewer.

How each face is turned on the net so that it reads upright on the folded box: lay the
box on the table, front up; the front, the back (turned over like a page) and the four
edges each read upright seen from their own side, so the top of every edge face is at
the front, like the spine of a book lying face up. On the net the front, back and top
lid are upright, the bottom lid upside down, the left spine turned clockwise (its text
runs down the box) and the right spine counterclockwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.load.model import CLEARANCE, THICKNESS

MAX_TUCK = 15.0  # mm: the flap that tucks into the front
MAX_GLUE = 10.0  # mm: the glue tab
MAX_NOTCH = 8.0  # mm: radius of the thumb notch
BLEED = 2.0  # mm the art of a face runs past each cut edge of its panel

FACES = ("front", "back", "spine", "top", "bottom")  # what a tuck box layout may draw
Point = tuple[float, float]
Segment = tuple[float, float, float, float]


@dataclass(repr=False, eq=False)
class Panel:
    """A rectangle of the net (mm): a wall, a lid, a flap or the glue tab."""

    name: str
    x: float
    y: float
    w: float
    h: float


@dataclass(repr=False, eq=False)
class FacePlace:
    """Where a face of the layout goes: on `panel`, turned `angle` degrees counterclockwise
    (0, 90, 180 or 270), its art running `bleed` mm past the panel's cut edges (left,
    bottom, right, top of the panel on the net; folds get none)."""

    face: str
    panel: Panel
    angle: int
    bleed: tuple[float, float, float, float]

    @property
    def size(self) -> tuple[float, float]:
        """The face as the designer draws it, upright: width, height in mm."""
        w, h = self.panel.w, self.panel.h
        return (h, w) if self.angle in (90, 270) else (w, h)


@dataclass(repr=False, eq=False)
class Net:
    """The flat box: inner size, panels, cut outline (a closed polygon, clockwise) and
    fold lines (segments between panels)."""

    width: float  # inside, mm
    height: float
    depth: float
    tuck: float
    dust: float
    glue: float
    notch: float
    panels: tuple[Panel, ...]
    outline: tuple[Point, ...]
    folds: tuple[Segment, ...]
    faces: tuple[FacePlace, ...]
    size: tuple[float, float]  # the bounding box of the outline

    def panel(self, name: str) -> Panel:
        return next(p for p in self.panels if p.name == name)

    def face_size(self, face: str) -> tuple[float, float]:
        """The size of a face of the layout (both spines have one size)."""
        return next(place.size for place in self.faces if place.face == face)


def depth_of(cards: int, thickness: float = THICKNESS, clearance: float = CLEARANCE) -> float:
    """The inner depth: the stack of cards plus the clearance."""
    return cards * thickness + clearance


def plan_net(card_w: float, card_h: float, cards: int, thickness: float = THICKNESS, clearance: float = CLEARANCE) -> Net:
    """The net of a box for `cards` cards of `card_w` x `card_h` mm, each `thickness` thick."""
    w, h, d = card_w + clearance, card_h + clearance, depth_of(cards, thickness, clearance)
    tuck = min(MAX_TUCK, h / 3)
    dust = min(max(0.9 * d, 6.0), w / 2 - 1)
    glue = min(MAX_GLUE, w / 4)
    notch = min(MAX_NOTCH, w / 6, h / 6)
    base = d + tuck  # the bottom lid and its flap lie below the walls
    x_left, x_front, x_right, x_glue = w, w + d, 2 * w + d, 2 * w + 2 * d
    top = base + h

    panels = (
        Panel("back", 0, base, w, h),
        Panel("left", x_left, base, d, h),
        Panel("front", x_front, base, w, h),
        Panel("right", x_right, base, d, h),
        Panel("glue", x_glue, base, glue, h),
        Panel("top", 0, top, w, d),
        Panel("top-tuck", 0, top + d, w, tuck),
        Panel("bottom", 0, tuck, w, d),
        Panel("bottom-tuck", 0, 0, w, tuck),
        Panel("left-top-dust", x_left, top, d, dust),
        Panel("right-top-dust", x_right, top, d, dust),
        Panel("left-bottom-dust", x_left, base - dust, d, dust),
        Panel("right-bottom-dust", x_right, base - dust, d, dust),
    )
    taper = min(d / 3, dust / 2)  # dust flaps narrow towards their free edge, clear of the lids' hinges
    chamfer = min(glue, h / 4, 5.0)
    side = min(1.5, w / 20)  # the tuck flap narrows so that it slides into the front
    outline: list[Point] = [(0, base), (0, top + d)]
    outline += _tuck_flap(0, top + d, w, tuck, side, up=True)
    outline += [(w, top + d), (w, top)]
    outline += [(x_left + taper, top + dust), (x_front - taper, top + dust), (x_front, top)]
    outline += _notch(x_front + w / 2, top, notch)
    outline += [(x_right, top), (x_right + taper, top + dust), (x_glue - taper, top + dust), (x_glue, top)]
    outline += [(x_glue + glue, top - chamfer), (x_glue + glue, base + chamfer), (x_glue, base)]
    outline += [(x_glue - taper, base - dust), (x_right + taper, base - dust), (x_right, base)]
    outline += [(x_front, base)]
    outline += [(x_front - taper, base - dust), (x_left + taper, base - dust), (x_left, base)]
    outline += [(w, tuck)]
    outline += _tuck_flap(0, tuck, w, tuck, side, up=False)
    outline += [(0, tuck)]

    folds = (
        (x_left, base, x_left, top),
        (x_front, base, x_front, top),
        (x_right, base, x_right, top),
        (x_glue, base, x_glue, top),
        (0, top, w, top),
        (0, top + d, w, top + d),
        (x_left, top, x_front, top),
        (x_right, top, x_glue, top),
        (0, base, w, base),
        (0, tuck, w, tuck),
        (x_left, base, x_front, base),
        (x_right, base, x_glue, base),
    )
    b = BLEED
    faces = (
        FacePlace("front", panels[2], 0, (0, b, 0, b)),
        FacePlace("back", panels[0], 0, (b, 0, 0, 0)),
        FacePlace("spine", panels[1], 270, (0, 0, 0, 0)),
        FacePlace("spine", panels[3], 90, (0, 0, 0, 0)),
        FacePlace("top", panels[5], 0, (b, 0, b, 0)),
        FacePlace("bottom", panels[7], 180, (b, 0, b, 0)),
    )
    size = (x_glue + glue, top + d + tuck)
    return Net(w, h, d, tuck, dust, glue, notch, panels, tuple(_clean(outline)), folds, faces, size)


def _tuck_flap(x: float, y: float, w: float, tuck: float, side: float, up: bool) -> list[Point]:
    """The free edge of a tuck flap hinged along y from x to x + w: narrowing by `side` on
    each side, with round corners; the points from the left hinge end (up) or the right
    one (down), as the clockwise outline passes them."""
    sign = 1 if up else -1
    r = min(tuck / 2, w / 4, 5.0)
    far = y + sign * tuck
    left = [(x + side, far - sign * r)] + _arc(x + side + r, far - sign * r, r, 180, 90 if up else 270)
    right = _arc(x + w - side - r, far - sign * r, r, 90 if up else 270, 0 if up else 360) + [(x + w - side, far - sign * r)]
    points = left + right
    return points if up else points[::-1]


def _notch(cx: float, y: float, r: float) -> list[Point]:
    """A half circle cut down into an edge at height y, left to right."""
    return _arc(cx, y, r, 180, 360)


def _arc(cx: float, cy: float, r: float, start: float, end: float, steps: int = 8) -> list[Point]:
    """Points of a circular arc from angle `start` to `end` (degrees), both ends included."""
    return [
        (cx + r * math.cos(math.radians(start + (end - start) * i / steps)), cy + r * math.sin(math.radians(start + (end - start) * i / steps)))
        for i in range(steps + 1)
    ]


def _clean(points: list[Point]) -> list[Point]:
    """Rounded to a micrometre, without repeated points (the arcs end where lines start)."""
    out: list[Point] = []
    for x, y in points:
        p = (round(x, 6) + 0.0, round(y, 6) + 0.0)
        if not out or abs(p[0] - out[-1][0]) > 1e-6 or abs(p[1] - out[-1][1]) > 1e-6:
            out.append(p)
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out
