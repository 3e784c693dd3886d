"""The area a stroke covers, as outlines to clip to: how a gradient strokes a shape.

A gradient is painted through a clip (`pdf._paint_gradient`: the `sh` operator, in the
user space of the moment). A fill's clip is the shape's path; a stroke's is the outline
of what the stroke would paint, worked out here as PDF strokes: butt caps, mitred joins
(bevelled past PDF's miter limit of 10, which pnp never changes), dashes from the path's
start. Why not a shading pattern as the stroking colour (`/Pattern CS /P SCN`): a
pattern's matrix maps to the default space of the page or form it is used in, not to the
user space of the moment, so each use would need the whole transformation tracked through
faces placed on sheets, forms, turned groups, pieces and rasters (and the watcher's pages
written again), and reportlab writes no pattern resources; a clip and `sh` is what fills
already do, which reportlab and pdfium both draw in the current user space.

Every outline is a closed ring of points; filled with the nonzero rule their union is the
stroke: counterclockwise rings add, clockwise ones (the inside of a closed shape's ring)
cut out. Curves (rounded corners, ellipses) are flattened finely enough that the outline
strays from the true stroke by less than a hundredth of a millimetre on a card."""

from __future__ import annotations

import math
from collections.abc import Sequence

from pnp.layout.faces import EllipseOp, LineOp, RectOp, ShapeOp

Point = tuple[float, float]
Ring = list[Point]

MITER_LIMIT = 10.0  # PDF's default: a join longer than this many line widths is bevelled
ARC_STEPS = 128  # straight pieces per full turn of a flattened curve
HAIRLINE = 0.1  # points: the width a stroke of width 0 (PDF's thinnest line) is painted at


def stroke_outline(op: RectOp | LineOp | ShapeOp | EllipseOp) -> list[Ring]:
    """The rings whose union (nonzero rule) is the area `op`'s stroke covers."""
    half = max(op.stroke_width, HAIRLINE) / 2
    dash = tuple(getattr(op, "dash", ()))
    if isinstance(op, RectOp):
        return _rect_rings(op, half)
    if isinstance(op, LineOp):
        return _polyline(((op.x1, op.y1), (op.x2, op.y2)), False, half, dash)
    if isinstance(op, EllipseOp):
        if not dash:
            return _band(_ellipse(op.cx, op.cy, op.rx + half, op.ry + half), _ellipse(op.cx, op.cy, op.rx - half, op.ry - half))
        return _polyline(_ellipse(op.cx, op.cy, op.rx, op.ry), True, half, dash)
    return _polyline(op.points, op.closed, half, dash)


def _rect_rings(op: RectOp, half: float) -> list[Ring]:
    """A rectangle's stroke: the band between the rectangle grown and shrunk by half the
    width (mitred corners are square; rounded ones grow and shrink their radius)."""
    radius = min(op.radius, op.w / 2, op.h / 2)
    outer = _round_rect(op.x - half, op.y - half, op.w + 2 * half, op.h + 2 * half, radius + half if radius else 0.0)
    inner = _round_rect(op.x + half, op.y + half, op.w - 2 * half, op.h - 2 * half, max(radius - half, 0.0))
    return _band(outer, inner)


def _band(outer: Ring, inner: Ring) -> list[Ring]:
    """The area between two closed outlines: the outer counterclockwise, the inner clockwise
    (none when the stroke is wider than the shape: it covers it all)."""
    rings = [_turned(outer, True)]
    if len(inner) >= 3 and abs(_area(inner)) > 1e-9:
        rings.append(_turned(inner, False))
    return rings


def _round_rect(x: float, y: float, w: float, h: float, r: float) -> Ring:
    if w <= 0 or h <= 0:
        return []
    if r <= 0:
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    steps = ARC_STEPS // 4
    ring: Ring = []
    for cx, cy, start in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180)):
        for i in range(steps + 1):
            a = math.radians(start + 90 * i / steps)
            ring.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return ring


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> Ring:
    """An ellipse as reportlab draws one: from its rightmost point, counterclockwise."""
    if rx <= 0 or ry <= 0:
        return []
    return [(cx + rx * math.cos(2 * math.pi * i / ARC_STEPS), cy + ry * math.sin(2 * math.pi * i / ARC_STEPS)) for i in range(ARC_STEPS)]


def _polyline(points: Sequence[Point], closed: bool, half: float, dash: tuple[float, ...]) -> list[Ring]:
    """A path's stroke as pieces: a quadrilateral per straight stretch and a wedge per join
    (dashed: per dash, joined where a dash runs round a corner)."""
    path = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if closed and len(path) > 1 and path[-1] == path[0]:
        path.pop()
    if len(path) < 2:
        return []
    if dash and any(dash):
        runs = _dashes(path + path[:1] if closed else path, dash)
        return [ring for run in runs for ring in _pieces(run, False, half)]
    return _pieces(path, closed, half)


def _dashes(path: list[Point], dash: tuple[float, ...]) -> list[list[Point]]:
    """The stretches of `path` a dash pattern (on, off, ...; from the start, as PDF's
    `[...] 0 d`) paints."""
    pattern = list(dash) * (2 if len(dash) % 2 else 1)
    index, left, on = 0, pattern[0], True
    runs: list[list[Point]] = []
    current = [path[0]]
    for a, b in zip(path, path[1:]):
        length = math.dist(a, b)
        pos = 0.0
        while length - pos > left:
            pos += left
            t = pos / length
            point = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if on:
                current.append(point)
                runs.append(current)
            else:
                current = [point]
            index = (index + 1) % len(pattern)
            left, on = pattern[index], not on
        left -= length - pos
        if on:
            current.append(b)
    if on:
        runs.append(current)
    return [run for run in runs if sum(math.dist(p, q) for p, q in zip(run, run[1:])) > 1e-9]


def _pieces(path: list[Point], closed: bool, half: float) -> list[Ring]:
    rings: list[Ring] = []
    path = [p for i, p in enumerate(path) if i == 0 or math.dist(p, path[i - 1]) > 1e-9]
    ends = list(zip(path, path[1:] + path[:1] if closed else path[1:]))
    for a, b in ends:
        nx, ny = _normal(a, b, half)
        rings.append(_turned([(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny)], True))
    turns = range(len(path)) if closed else range(1, len(path) - 1)
    for i in turns:
        wedge = _join(path[i - 1], path[i], path[(i + 1) % len(path)], half)
        if wedge:
            rings.append(wedge)
    return rings


def _normal(a: Point, b: Point, half: float) -> Point:
    """The normal of a→b to its left, `half` long."""
    length = math.dist(a, b)
    return -(b[1] - a[1]) / length * half, (b[0] - a[0]) / length * half


def _join(a: Point, b: Point, c: Point, half: float) -> Ring | None:
    """The wedge that fills the outer side of the corner at b: mitred, or bevelled past the limit."""
    (ux, uy), (vx, vy) = ((b[0] - a[0], b[1] - a[1]), (c[0] - b[0], c[1] - b[1]))
    cross = ux * vy - uy * vx
    if abs(cross) < 1e-12 * math.hypot(ux, uy) * math.hypot(vx, vy):
        return None  # straight on (or straight back: nothing to join)
    side = -1.0 if cross > 0 else 1.0  # a left turn's outer side is the right
    n1, n2 = _normal(a, b, half * side), _normal(b, c, half * side)
    p1, p2 = (b[0] + n1[0], b[1] + n1[1]), (b[0] + n2[0], b[1] + n2[1])
    sx, sy = n1[0] + n2[0], n1[1] + n2[1]
    reach = sx * sx + sy * sy  # |n1 + n2|², with |n1| = |n2| = half
    if reach <= 0 or 2 * half / math.sqrt(reach) > MITER_LIMIT:
        return _turned([b, p1, p2], True)
    miter = (b[0] + sx * 2 * half * half / reach, b[1] + sy * 2 * half * half / reach)
    return _turned([b, p1, miter, p2], True)


def _area(ring: Ring) -> float:
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1])) / 2


def _turned(ring: Ring, counterclockwise: bool) -> Ring:
    return ring if (_area(ring) >= 0) == counterclockwise else ring[::-1]
