"""`track`: a numbered track (score, round, resource) whose spaces are generated from a
range, never listed by hand, so a score track of 0..99 cannot skip or repeat a number and
a change of the range moves every space. Spaces run along a line, in rows, round the edge
of a box or on a ring. The geometry (`track_spaces`) is plain arithmetic in millimetres,
apart from drawing, so it can be reasoned about and tested alone."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from reportlab.lib.units import mm

from pnp.base.errors import Location, Problems
from pnp.layout.elements.base import MIN_SPACE, ElementKind, Frame, GradientDef, check_paints, check_style
from pnp.layout.faces import Box, EllipseOp, Op, RectOp
from pnp.layout.text import TextStyle
from pnp.load.schema import suggest

MAX_SPACES = 2000  # in one track; more is a typo in the range
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")
LINE_DIRECTIONS = ("right", "left", "down", "up")
TURNS = ("clockwise", "counterclockwise")

TRACK_STYLE = TextStyle(size=8, min_size=5, align="center", valign="middle", hyphenate=False)  # labels without a named style


@dataclass(repr=False, eq=False)
class SpaceDef:
    """How each space of a track is drawn; strings are templates that see n and i."""

    fill: str | GradientDef | None = None  # a colour or a gradient
    stroke: str | GradientDef | None = "#333333"
    stroke_width: float = 0.5  # points
    radius: float = 0.0  # mm: rounded corners (ring spaces are circles)


@dataclass(repr=False, eq=False)
class TrackDef:
    range: tuple[int | str, int | str]  # inclusive; each end an int or a template
    box: Box
    path: Literal["line", "rows", "edge", "ring"] = "line"
    direction: Literal["right", "left", "down", "up", "clockwise", "counterclockwise"] | None = None
    columns: int | None = None  # rows: spaces per row
    snake: bool = False  # rows: every other row runs back
    start: float | str | None = None  # edge, rows: a corner; ring: an angle in degrees, 0 = top
    space: SpaceDef = field(default_factory=SpaceDef)
    label: str = "{{ n }}"
    style: str | None = None
    symbol: str | None = None
    size: float | None = None  # ring: the diameter of each space in mm


@dataclass(repr=False, eq=False)
class Track(ElementKind):
    track: TrackDef
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        """What can be told from the layout alone; the rest (templates, sizes) when drawn."""
        t, spec = self.track, raw["track"]
        ok = check_style(t.style, spec, styles, "track", problems) & check_paints(t.space, spec.get("space"), "track space", problems)
        if t.box[2] <= 0 or t.box[3] <= 0:
            problems.error(spec.loc_of("box"), "track-box", f"track box {list(t.box)} has no area; expected a positive width and height")
            ok = False
        if all(isinstance(v, int) for v in t.range) and t.range[0] > t.range[1]:
            problems.error(spec.loc_of("range"), "track-range", f"range {list(t.range)} runs backwards; expected [first, last] with first <= last")
            ok = False
        allowed = {
            "line": LINE_DIRECTIONS,
            "rows": (),
            "edge": TURNS,
            "ring": TURNS,
        }[t.path]
        if t.direction is not None and t.direction not in allowed:
            expect = f"one of: {', '.join(allowed)}" if allowed else "no direction (the first row starts at the corner 'start' names)"
            problems.error(spec.loc_of("direction"), "track-direction", f"direction '{t.direction}' does not apply to a {t.path} track; expected {expect}")
            ok = False
        for key, paths in (("columns", ("rows",)), ("snake", ("rows",)), ("size", ("ring",))):
            if key in spec and t.path not in paths:
                problems.error(
                    spec.key_locs[key], "track-key", f"'{key}' is for {' and '.join(paths)} tracks, not for a {t.path} track; remove it or change 'path'"
                )
                ok = False
        if t.path == "rows" and (t.columns is None or t.columns < 1):
            problems.error(
                spec.loc_of("columns") if "columns" in spec else spec.loc,
                "track-columns",
                "a rows track needs 'columns', the spaces per row; expected a whole number from 1",
            )
            ok = False
        if t.size is not None and t.size <= 0:
            problems.error(spec.loc_of("size"), "track-size", f"size {t.size:g} is not a size; expected the diameter of a space in mm")
            ok = False
        if t.start is not None:
            if t.path == "ring":
                if not isinstance(t.start, float):
                    problems.error(spec.loc_of("start"), "track-start", f"start '{t.start}' of a ring track is not an angle; expected degrees, 0 = top")
                    ok = False
            elif t.path in ("edge", "rows"):
                if t.start not in CORNERS:
                    problems.error(
                        spec.loc_of("start"),
                        "track-start",
                        f"start '{t.start}' is not a corner{suggest(str(t.start), CORNERS)}; expected one of: {', '.join(CORNERS)}",
                    )
                    ok = False
            else:
                problems.error(spec.key_locs["start"], "track-start", "a line track starts where 'direction' says; remove 'start'")
                ok = False
        return ok

    def draw(self, f: Frame) -> list[Op]:
        return _draw(self, f)


# --- track geometry ----------------------------------------------------------------------


@dataclass(frozen=True, repr=False, eq=False)
class Space:
    """One space of a track: its box in mm from the top left; a ring's spaces are round."""

    x: float
    y: float
    w: float
    h: float
    round: bool = False

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


class TrackTooSmall(Exception):
    """The spaces do not fit the box; the message says how small they would be."""


def track_spaces(t: TrackDef, count: int) -> list[Space]:
    """The spaces of a track of `count` spaces, in the order of its numbers."""
    if t.path == "line":
        return _line(t, count)
    if t.path == "rows":
        return _rows(t, count)
    if t.path == "edge":
        return _edge(t, count)
    return _ring(t, count)


def _too_small(count: int, smallest: float, t: TrackDef, hint: str) -> TrackTooSmall:
    return TrackTooSmall(
        f"{count} spaces do not fit the track's box {[round(v, 2) for v in t.box]}: a space would be {smallest:.1f} mm, less than {MIN_SPACE:g} mm; expected fewer spaces or {hint}"
    )


def _line(t: TrackDef, count: int) -> list[Space]:
    x, y, w, h = t.box
    direction = t.direction or "right"
    across = direction in ("right", "left")
    step = (w if across else h) / count
    if min(step, h if across else w) < MIN_SPACE:
        raise _too_small(count, min(step, h if across else w), t, "a larger box")
    spaces = [Space(x + i * step, y, step, h) if across else Space(x, y + i * step, w, step) for i in range(count)]
    return spaces[::-1] if direction in ("left", "up") else spaces


def _rows(t: TrackDef, count: int) -> list[Space]:
    x, y, w, h = t.box
    columns = t.columns or 1
    rows = math.ceil(count / columns)
    cw, ch = w / columns, h / rows
    if min(cw, ch) < MIN_SPACE:
        raise _too_small(count, min(cw, ch), t, "a larger box or other columns")
    start = str(t.start or "top-left")
    from_top, leftwards = start.startswith("top"), start.endswith("right")
    spaces = []
    for i in range(count):
        row, col = divmod(i, columns)
        back = leftwards != (t.snake and row % 2 == 1)
        c = columns - 1 - col if back else col
        r = row if from_top else rows - 1 - row
        spaces.append(Space(x + c * cw, y + r * ch, cw, ch))
    return spaces


def shares(total: int, weights: list[float]) -> list[int]:
    """Split `total` into whole shares proportional to `weights` (largest remainder)."""
    whole = math.fsum(weights)
    if total <= 0 or whole <= 0:
        return [0] * len(weights)
    exact = [total * wt / whole for wt in weights]
    out = [math.floor(e) for e in exact]
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - out[i]), i))
    for i in order[: total - sum(out)]:
        out[i] += 1
    return out


def _edge(t: TrackDef, count: int) -> list[Space]:
    """Around the box's perimeter, clockwise from the top-left corner, then turned to
    `start` and `direction`. The band is as deep as the spaces are long (square spaces),
    so the count decides both; each side gets a share proportional to its length."""
    x, y, w, h = t.box
    if count < 4:
        raise TrackTooSmall(f"an edge track has a space in each corner, so it needs at least 4 spaces; it has {count}")
    depth = min(2 * (w + h) / (count + 4), min(w, h) / 2)
    iw, ih = w - 2 * depth, h - 2 * depth
    top, right, bottom, left = shares(count - 4, [iw, ih, iw, ih])
    lengths = [iw / n for n in (top, bottom) if n] + [ih / n for n in (right, left) if n]
    smallest = min([depth, *lengths])
    if smallest < MIN_SPACE:
        raise _too_small(count, smallest, t, "a larger box")
    lt, lr, lb, ll = (iw / top if top else 0), (ih / right if right else 0), (iw / bottom if bottom else 0), (ih / left if left else 0)
    x2, y2 = x + w - depth, y + h - depth

    def corner(left_edge: bool, top_edge: bool, across: int, down: int) -> Space:
        """A corner space; where a side gets no spaces its two corners stretch to meet."""
        cw, ch = (depth if across else w / 2), (depth if down else h / 2)
        return Space(x if left_edge else x + w - cw, y if top_edge else y + h - ch, cw, ch)

    cycle = [corner(True, True, top, left)]
    cycle += [Space(x + depth + j * lt, y, lt, depth) for j in range(top)]
    cycle.append(corner(False, True, top, right))
    cycle += [Space(x2, y + depth + j * lr, depth, lr) for j in range(right)]
    cycle.append(corner(False, False, bottom, right))
    cycle += [Space(x + w - depth - (j + 1) * lb, y2, lb, depth) for j in range(bottom)]
    cycle.append(corner(True, False, bottom, left))
    cycle += [Space(x, y + h - depth - (j + 1) * ll, depth, ll) for j in range(left)]
    corner = {"top-left": 0, "top-right": 1 + top, "bottom-right": 2 + top + right, "bottom-left": 3 + top + right + bottom}[str(t.start or "top-left")]
    cycle = cycle[corner:] + cycle[:corner]
    if t.direction == "counterclockwise":
        cycle = cycle[:1] + cycle[:0:-1]
    return cycle


def _ring(t: TrackDef, count: int) -> list[Space]:
    """On the circle (an ellipse if the box is not square) inside the box, touching it;
    0 degrees is the top, angles grow clockwise unless the direction says otherwise."""
    x, y, w, h = t.box
    rx, ry = w / 2, h / 2
    cx, cy = x + rx, y + ry
    radius = min(rx, ry)
    size = t.size
    if size is None:  # neighbours nearly touch
        chord = 2 * math.sin(math.pi / count) * 0.85 if count > 1 else 2.0
        size = min(chord * radius / (1 + chord / 2), radius)
    if size < MIN_SPACE:
        raise _too_small(count, size, t, "a larger box")
    if size > 2 * radius:
        raise TrackTooSmall(f"ring spaces of {size:g} mm do not fit the box {[round(v, 2) for v in t.box]}; expected a size up to {2 * radius:.1f} mm")
    sign = -1 if t.direction == "counterclockwise" else 1
    start = float(t.start or 0.0)
    centres = []
    for i in range(count):
        angle = math.radians(start + sign * i * 360 / count)
        centres.append((cx + (rx - size / 2) * math.sin(angle), cy - (ry - size / 2) * math.cos(angle)))
    if count > 1:
        gap = min(math.dist(centres[i], centres[(i + 1) % count]) for i in range(count))
        if gap < size - 1e-6:
            raise TrackTooSmall(
                f"{count} ring spaces of {size:g} mm overlap on a circle of {2 * radius:g} mm: neighbours are {gap:.1f} mm apart; expected a smaller size, fewer spaces or a larger box"
            )
    return [Space(px - size / 2, py - size / 2, size, size, round=True) for px, py in centres]


def _bound(f: Frame, value: int | str, loc: Location) -> int | None:
    if isinstance(value, int):
        return value
    text = f.fill_in(value, loc)
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        f.problems.error(loc, "track-range", f"{f.where}: range value '{value}' gives '{text}'; expected a whole number")
        return None


def _draw(el: Track, f: Frame) -> list[Op]:
    t, loc = el.track, el._loc
    first, last = _bound(f, t.range[0], loc), _bound(f, t.range[1], loc)
    if first is None or last is None:
        return []
    if first > last:
        f.problems.error(loc, "track-range", f"{f.where}: the track's range [{first}, {last}] runs backwards; expected [first, last] with first <= last")
        return []
    count = last - first + 1
    if count > MAX_SPACES:
        f.problems.error(loc, "track-range", f"{f.where}: the track's range [{first}, {last}] has {count} spaces; expected at most {MAX_SPACES}")
        return []
    try:
        spaces = track_spaces(t, count)
    except TrackTooSmall as exc:
        f.problems.error(loc, "track-too-small", f"{f.where}: {exc}")
        return []
    style = f.style(t.style, TRACK_STYLE)
    ops: list[Op] = []
    outer, f = f, replace(f, problems=Problems())  # per-space mistakes, reported once below
    for i, sp in enumerate(spaces):
        n = first + i
        extra = {"n": n, "i": i, "first": i == 0, "last": i == count - 1}
        fill = f.paint(t.space.fill, loc, extra)
        stroke = f.paint(t.space.stroke, loc, extra)
        if sp.round:
            ops.append(EllipseOp((sp.x + sp.w / 2) * mm, f.y(sp.y + sp.h / 2), sp.w / 2 * mm, sp.h / 2 * mm, fill, stroke, t.space.stroke_width))
            inner = (sp.x + 0.09 * sp.w, sp.y + 0.22 * sp.h, 0.82 * sp.w, 0.56 * sp.h)  # a box inside the circle
        else:
            ops.append(
                RectOp(sp.x * mm, f.y(sp.y, sp.h), sp.w * mm, sp.h * mm, fill, stroke, t.space.stroke_width, min(t.space.radius, sp.w / 2, sp.h / 2) * mm)
            )
            pad = min(0.5, 0.1 * sp.w, 0.1 * sp.h)
            inner = (sp.x + pad, sp.y + pad, sp.w - 2 * pad, sp.h - 2 * pad)
        label = f.fill_in(t.label, loc, extra) if t.label else ""
        sid = f.fill_in(t.symbol, loc, extra) if t.symbol else ""
        label_box, symbol_box = inner, inner
        if label and sid:  # the number above, the symbol below
            ix, iy, iw, ih = inner
            label_box, symbol_box = (ix, iy, iw, ih * 0.45), (ix, iy + ih * 0.45, iw, ih * 0.55)
        if label:
            what = f"label '{label}' of space {n} of the track"
            op = f.text(label, style, label_box, loc, f"{f.where}: {what}", "a shorter label, a smaller style or min_size, or fewer spaces", extra)
            if op is not None:
                ops.append(op)
        if sid:
            symbol = f.symbol(sid, symbol_box, loc)
            if symbol is not None:
                ops.append(symbol)
    _once_per_kind(f.problems, outer.problems)
    return ops


def _once_per_kind(found: Problems, problems: Problems) -> None:
    """A template or a style that fails for one space fails for all of them: report the
    first of each kind and how many spaces share it, not a hundred lines."""
    groups: dict[tuple[str, str], list] = {}
    for p in found.items:
        groups.setdefault((p.code, p.severity), []).append(p)
    for same in groups.values():
        first = same[0]
        more = f" (and {len(same) - 1} more space{'s' if len(same) > 2 else ''} of this track)" if len(same) > 1 else ""
        problems.add(replace(first, message=first.message + more))
