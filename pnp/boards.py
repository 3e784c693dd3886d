"""Board elements: numbered tracks, card slots and symbol legends.

A track's spaces are generated from a range, never listed by hand, so a score track of
0..99 cannot skip or repeat a number, and a change of the range moves every space. The
geometry (`track_spaces`) is plain arithmetic in millimetres, apart from the renderer, so
it can be reasoned about and tested alone. A legend is generated from the game's symbol
set, so it never misses a symbol the components use.

This module must not import pnp.layouts or pnp.render at load time: layouts imports
these element classes and render imports these functions (the renderers import the
drawing operations when they run).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal
from weakref import WeakKeyDictionary

from reportlab.lib.units import mm

from .errors import Location, Problems
from .schema import suggest
from .text import TextStyle, typeset

if TYPE_CHECKING:
    from .render import Frame, Op, Renderer, TextOp

Box = tuple[float, float, float, float]  # x, y, width, height in mm from the top left
MIN_SPACE = 3.0  # mm: a smaller space cannot hold a pawn or a readable number
MAX_SPACES = 2000  # in one track; more is a typo in the range
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")
LINE_DIRECTIONS = ("right", "left", "down", "up")
TURNS = ("clockwise", "counterclockwise")

# Labels of spaces and slots are centred unless the layout names a style.
TRACK_STYLE = TextStyle(size=8, min_size=5, align="center", valign="middle", hyphenate=False)
SLOT_STYLE = TextStyle(size=9, min_size=6, align="center", valign="middle")
LEGEND_STYLE = TextStyle(size=8, align="left", valign="middle")


# --- the elements, as read from a layout -------------------------------------------------


@dataclass
class SpaceDef:
    """How each space of a track is drawn; strings are templates that see n and i."""

    fill: str | None = None
    stroke: str | None = "#333333"
    stroke_width: float = 0.5  # points
    radius: float = 0.0  # mm: rounded corners (ring spaces are circles)


@dataclass
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


@dataclass
class Track:
    track: TrackDef
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        """What can be told from the layout alone; the rest (templates, sizes) at render."""
        from .layouts import check_style  # layouts imports this module

        t, spec = self.track, raw["track"]
        ok = check_style(t.style, spec, styles, "track", problems)
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


@dataclass
class SlotDef:
    at: tuple[float, float]  # mm: top-left corner
    deck: str | None = None  # size from this deck's front layout
    size: tuple[float, float] | None = None  # or given in mm
    label: str = ""
    style: str | None = None
    stroke: str | None = "#666666"
    stroke_width: float = 0.6  # points
    dash: list[float] = field(default_factory=lambda: [3.0, 2.0])  # points on, off
    fill: str | None = None


@dataclass
class Slot:
    slot: SlotDef
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        from .layouts import check_style  # layouts imports this module

        s, spec = self.slot, raw["slot"]
        ok = check_style(s.style, spec, styles, "slot", problems)
        if (s.deck is None) == (s.size is None):
            problems.error(spec.loc, "slot-size", "a slot needs either 'deck' (its cards' size) or 'size: [w, h]' in mm, not both")
            ok = False
        if s.size is not None and (s.size[0] <= 0 or s.size[1] <= 0):
            problems.error(spec.loc_of("size"), "slot-size", f"slot size {list(s.size)} has no area; expected a positive width and height")
            ok = False
        return ok


@dataclass
class LegendDef:
    box: Box
    columns: int = 1
    style: str | None = None
    symbols: str | list[str] = "all"  # all, a list of ids, or a template giving ids


@dataclass
class Legend:
    legend: LegendDef
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        from .layouts import check_style  # layouts imports this module

        g, spec = self.legend, raw["legend"]
        ok = check_style(g.style, spec, styles, "legend", problems)
        if g.columns < 1:
            problems.error(spec.loc_of("columns"), "legend-columns", f"columns is {g.columns}; expected a whole number from 1")
            ok = False
        if g.box[2] <= 0 or g.box[3] <= 0:
            problems.error(spec.loc_of("box"), "legend-box", f"legend box {list(g.box)} has no area; expected a positive width and height")
            ok = False
        return ok


# --- track geometry ----------------------------------------------------------------------


@dataclass(frozen=True)
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
    whole = sum(weights)
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


# --- drawing -----------------------------------------------------------------------------

_LOADERS: WeakKeyDictionary = WeakKeyDictionary()  # renderer -> LayoutLoader, for slot sizes


def _style(r: Renderer, f: Frame, name: str | None, default: TextStyle) -> TextStyle:
    style = f.layout.styles.get(name, default) if name else default
    scale = f.layout.lang_scale.get(r.lang)
    if scale:
        style = replace(style, size=style.size * scale, min_size=style.min_size * scale if style.min_size else None)
    return style


def set_text(r: Renderer, f: Frame, content: str, style: TextStyle, box: Box, loc: Location, what: str, fix: str, extra: dict | None = None) -> TextOp | None:
    """Text set in a box (mm from the top left), for labels of generated parts. Text that
    does not fit, a missing glyph, an unknown symbol and unreadable markup are errors
    naming `what`."""
    from .render import TextOp, _color

    if style.font not in r.fonts:
        f.problems.error(loc, "font-unknown", f"{f.where}: font '{style.font}' does not exist; expected one of: {', '.join(r.fonts.names())}")
        return None
    x, y, w, h = box
    result = typeset(content, style, w * mm, h * mm, r.fonts, r.lang, r.symbol_ids)
    if result.overflow:
        f.problems.error(loc, "label-overflow", f"{f.where}: {what} does not fit its {w:.1f} x {h:.1f} mm box even at {result.size:g} pt; expected {fix}")
    if result.missing:
        chars = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in result.missing)
        f.problems.error(loc, "font-glyph", f"{f.where}: {what} uses {chars}, missing from font '{style.font}'; expected a font that has them")
    for sid in result.unknown_symbols:
        f.problems.error(loc, "symbol-unknown", f"{f.where}: {what} uses symbol ':{sid}:', which does not exist{suggest(sid, r.symbol_ids)}")
    for issue in result.markup:
        f.problems.error(loc, "text-markup", f"{f.where}: {what} has markup the text engine cannot read: {issue.describe(content)}")
    top = f.y(y)
    block = len(result.lines) * result.leading
    offset = {"top": 0.0, "middle": (h * mm - block) / 2, "bottom": h * mm - block}[style.valign]
    color = r.color(style.color, f, loc, extra) or _color("#000000")
    return TextOp(x * mm, top - max(0.0, offset) - result.ascent, result, color)


def _bound(r: Renderer, f: Frame, value: int | str, loc: Location) -> int | None:
    if isinstance(value, int):
        return value
    text = r.fill_in(value, f, loc)
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        f.problems.error(loc, "track-range", f"{f.where}: range value '{value}' gives '{text}'; expected a whole number")
        return None


def draw_track(r: Renderer, el: Track, f: Frame) -> list[Op]:
    from .render import EllipseOp, RectOp

    t, loc = el.track, el._loc
    first, last = _bound(r, f, t.range[0], loc), _bound(r, f, t.range[1], loc)
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
    style = _style(r, f, t.style, TRACK_STYLE)
    ops: list[Op] = []
    outer, f = f, replace(f, problems=Problems())  # per-space mistakes, reported once below
    for i, sp in enumerate(spaces):
        n = first + i
        extra = {"n": n, "i": i, "first": i == 0, "last": i == count - 1}
        fill = r.color(t.space.fill, f, loc, extra)
        stroke = r.color(t.space.stroke, f, loc, extra)
        if sp.round:
            ops.append(EllipseOp((sp.x + sp.w / 2) * mm, f.y(sp.y + sp.h / 2), sp.w / 2 * mm, sp.h / 2 * mm, fill, stroke, t.space.stroke_width))
            inner = (sp.x + 0.09 * sp.w, sp.y + 0.22 * sp.h, 0.82 * sp.w, 0.56 * sp.h)  # a box inside the circle
        else:
            ops.append(
                RectOp(sp.x * mm, f.y(sp.y, sp.h), sp.w * mm, sp.h * mm, fill, stroke, t.space.stroke_width, min(t.space.radius, sp.w / 2, sp.h / 2) * mm)
            )
            pad = min(0.5, 0.1 * sp.w, 0.1 * sp.h)
            inner = (sp.x + pad, sp.y + pad, sp.w - 2 * pad, sp.h - 2 * pad)
        label = r.fill_in(t.label, f, loc, extra) if t.label else ""
        sid = r.fill_in(t.symbol, f, loc, extra) if t.symbol else ""
        label_box, symbol_box = inner, inner
        if label and sid:  # the number above, the symbol below
            ix, iy, iw, ih = inner
            label_box, symbol_box = (ix, iy, iw, ih * 0.45), (ix, iy + ih * 0.45, iw, ih * 0.55)
        if label:
            what = f"label '{label}' of space {n} of the track"
            op = set_text(r, f, label, style, label_box, loc, what, "a shorter label, a smaller style or min_size, or fewer spaces", extra)
            if op is not None:
                ops.append(op)
        if sid:
            symbol = r.symbol(sid, symbol_box, f, loc)
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


def _front_size(r: Renderer, deck_id: str) -> tuple[float, float] | None:
    from .layouts import LayoutLoader

    loader = _LOADERS.get(r)
    if loader is None:
        loader = _LOADERS[r] = LayoutLoader(r.game.root)
    deck = r.game.decks[deck_id]
    if not deck.front:
        return None
    layout = loader.load(deck.front, deck.locs.get("front", deck.loc), Problems())  # its own errors are reported when its deck is built
    return layout.size if layout is not None else None


def draw_slot(r: Renderer, el: Slot, f: Frame) -> list[Op]:
    from .render import ShapeOp

    s, loc = el.slot, el._loc
    if s.size is not None:
        w, h = s.size
    else:
        deck = str(s.deck)
        if deck not in r.game.decks:
            f.problems.error(
                loc, "slot-deck", f"{f.where}: the slot's deck '{deck}' does not exist{suggest(deck, r.game.decks)}; expected one of: {', '.join(r.game.decks)}"
            )
            return []
        size = _front_size(r, deck)
        if size is None:
            f.problems.error(loc, "slot-deck", f"{f.where}: deck '{deck}' is not printed, so it has no card size; expected 'size: [w, h]' in mm")
            return []
        w, h = size
    x, y = s.at
    corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    points = tuple((px * mm, f.y(py)) for px, py in corners)
    ops: list[Op] = [ShapeOp(points, True, r.color(s.fill, f, loc), r.color(s.stroke, f, loc), s.stroke_width, tuple(s.dash))]
    label = r.fill_in(s.label, f, loc) if s.label else ""
    if label:
        pad = min(2.0, w / 10, h / 10)
        box = (x + pad, y + pad, w - 2 * pad, h - 2 * pad)
        op = set_text(r, f, label, _style(r, f, s.style, SLOT_STYLE), box, loc, f"the slot's label '{label}'", "a shorter label or a smaller style")
        if op is not None:
            ops.append(op)
    return ops


_IDS = re.compile(r"[\s,]+")


def legend_label(r: Renderer, sid: str) -> str | None:
    """A symbol's name: game.yaml's symbol_names, else the name of an enum value with the
    same id (so a resource enum names its own symbols)."""
    name = r.game.meta.symbol_names.get(sid)
    if name:
        return name
    for values in r.game.enums.values():
        if sid in values:
            return str(values[sid].attrs.get("name") or sid)
    return None


def draw_legend(r: Renderer, el: Legend, f: Frame) -> list[Op]:
    g, loc = el.legend, el._loc
    if g.symbols == "all":
        ids = list(r.game.symbols)
    else:
        listed = g.symbols if isinstance(g.symbols, list) else _IDS.split(r.fill_in(g.symbols, f, loc) or "")
        ids = [sid for sid in (str(s).strip() for s in listed) if sid]
    entries = []
    for sid in ids:
        if sid not in r.symbol_ids:
            f.problems.error(
                loc,
                "symbol-unknown",
                f"{f.where}: the legend lists symbol '{sid}', which does not exist{suggest(sid, r.symbol_ids)}; expected one of: {', '.join(sorted(r.symbol_ids))}",
            )
            continue
        label = legend_label(r, sid)
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
    style = _style(r, f, g.style, LEGEND_STYLE)
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
        fit = typeset(label, style, text_w * mm, h * mm, r.fonts, r.lang, r.symbol_ids)
        heights.append(max(icon, fit.height / mm) + style.size * 0.3 / mm)
    columns = _flow(heights, g.columns, h)
    if columns is None:
        need = _flow(heights, g.columns, math.inf) or []
        tallest = max(sum(heights[i] for i in col) for col in need) if need else sum(heights)
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
            symbol = r.symbol(sid, (cx, cy + (row - icon) / 2, icon, icon), f, loc)
            if symbol is not None:
                ops.append(symbol)
            op = set_text(
                r,
                f,
                label,
                replace(style, valign="middle"),
                (cx + icon + space, cy, text_w, row),
                loc,
                f"the legend's label of '{sid}'",
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
    if all(sum(heights[i] for i in col) <= limit + 1e-6 for col in balanced):
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
