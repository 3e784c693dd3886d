"""`areas`: an area map drawn from a (data-only) deck whose components are the fields of
the map, each an outline of points in mm, with `borders` drawn along the edges two
fields share (from another deck that names the two fields and the border's kind)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.units import mm

from pnp.base.errors import Location, Problems
from pnp.layout.elements.base import ElementKind, Frame, GradientDef, check_paints, check_style, inset
from pnp.layout.elements.cells import LABEL_STYLE, check_deck, label_op
from pnp.layout.faces import Box, Op, ShapeOp, TextOp
from pnp.layout.text import TextStyle, typeset
from pnp.load.model import Game
from pnp.load.schema import suggest
from pnp.templates.expressions import card_view

Point = tuple[float, float]
SAME = 0.01  # mm: two corners closer than this are the same corner


@dataclass(repr=False, eq=False)
class BorderStyle:
    stroke: str | GradientDef = "#000000"  # a colour or a gradient
    stroke_width: float = 1.5
    dash: list[float] = field(default_factory=list)


@dataclass(repr=False, eq=False)
class BordersSpec:
    deck: str  # components with the two fields a border runs between, and its kind
    between: str = "between"  # a list field of two field ids
    kind: str = "kind"  # picks the style
    style: dict[str, BorderStyle] = field(default_factory=dict)
    _loc: Location = field(default=Location("?"), repr=False)


@dataclass(repr=False, eq=False)
class AreasSpec:
    deck: str  # a deck whose components are the fields of the map
    shape: str = "shape"  # their points field: the outline in mm
    origin: tuple[float, float] = (0.0, 0.0)  # mm added to every point
    fill: str | GradientDef | None = None  # templates see `cell`: the field's id and fields
    stroke: str | GradientDef | None = "#333333"
    stroke_width: float = 0.5
    label: str | None = None
    style: str | None = None
    label_at: str | None = None  # a field holding [x, y]; default: the shape's centroid
    label_box: tuple[float, float] | None = None  # mm, centred on the label point; default: the largest that fits the shape
    borders: BordersSpec | None = None
    _loc: Location = field(default=Location("?"), repr=False)


@dataclass(repr=False, eq=False)
class Areas(ElementKind):
    areas: AreasSpec
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        spec, where = self.areas, raw["areas"]
        ok = check_style(spec.style, where, styles, "areas", problems) & check_paints(spec, where, "areas", problems)
        if spec.borders is not None:
            looks = where.get("borders", {}).get("style") if isinstance(where.get("borders"), dict) else None
            for kind, look in spec.borders.style.items():
                ok &= check_paints(look, looks.get(kind) if isinstance(looks, dict) else None, f"border style '{kind}'", problems)
        if spec.label_box is not None and (spec.label_box[0] <= 0 or spec.label_box[1] <= 0):
            problems.error(where.loc_of("label_box"), "areas-label-box", f"label_box {list(spec.label_box)} has no area; expected [width, height] in mm")
            ok = False
        return ok

    def check_game(self, game: Game, deck_type: str | None, card_sizes: dict[str, tuple[float, float]], where: str, problems: Problems) -> None:
        spec = self.areas
        deck = check_deck(game, spec.deck, "areas", spec._loc, where, problems)
        if spec.borders is not None:
            check_deck(game, spec.borders.deck, "borders", spec.borders._loc, where, problems)
        if deck is None:
            return
        fields = game.types[deck.type].fields
        if spec.shape not in fields or fields[spec.shape].type != "points":
            problems.error(
                spec._loc,
                "areas-shape",
                f"{where}: areas shape '{spec.shape}' is not a points field of type '{deck.type}'{suggest(spec.shape, fields)}; expected a field of type points",
            )

    def draw(self, f: Frame) -> list[Op]:
        return _draw(self, f)


# --- polygon geometry ---------------------------------------------------------------------


def centroid(points: list[Point]) -> Point:
    """The centre of mass of a polygon (the mean of its corners if it has no area)."""
    area = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(area) < 1e-9:
        return math.fsum(p[0] for p in points) / len(points), math.fsum(p[1] for p in points) / len(points)
    return cx / (3 * area), cy / (3 * area)


def inside(point: Point, polygon: list[Point]) -> bool:
    x, y = point
    hit = False
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def _crosses(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Do segments ab and cd cross at a point inside both?"""

    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def box_inside(box: Box, polygon: list[Point]) -> bool:
    x, y, w, h = box
    corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    if not all(inside(p, polygon) for p in corners):
        return False
    if any(x < px < x + w and y < py < y + h for px, py in polygon):
        return False
    edges = list(zip(polygon, polygon[1:] + polygon[:1]))
    return not any(_crosses(a, b, c, d) for a, b in zip(corners, corners[1:] + corners[:1]) for c, d in edges)


def largest_box(polygon: list[Point], at: Point, aspect: float) -> Box | None:
    """The largest rectangle of width/height `aspect`, centred on `at`, inside the polygon."""
    if not inside(at, polygon):
        return None
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    low, high = 0.0, max(max(xs) - min(xs), max(ys) - min(ys))
    for _ in range(30):
        h = (low + high) / 2
        if box_inside((at[0] - h * aspect / 2, at[1] - h / 2, h * aspect, h), polygon):
            low = h
        else:
            high = h
    return (at[0] - low * aspect / 2, at[1] - low / 2, low * aspect, low) if low > 0 else None


def shared_edges(a: list[Point], b: list[Point]) -> list[list[Point]]:
    """The runs of corners of `a` that `b` also has, each pair of them an edge of both
    polygons: where the two shapes touch, in `a`'s order."""
    where_b: dict[tuple[int, int], int] = {}
    for j, p in enumerate(b):
        where_b.setdefault((round(p[0] / SAME), round(p[1] / SAME)), j)
    n, m = len(a), len(b)
    index = [where_b.get((round(p[0] / SAME), round(p[1] / SAME))) for p in a]
    shared = [index[i] is not None and index[(i + 1) % n] is not None and (index[i] - index[(i + 1) % n]) % m in (1, m - 1) for i in range(n)]
    if all(shared):
        return [a + a[:1]]
    runs: list[list[Point]] = []
    current: list[Point] = []
    start = shared.index(False) if False in shared else 0
    for step in range(1, n + 1):
        i = (start + step) % n
        if shared[i]:
            current = current or [a[i]]
            current.append(a[(i + 1) % n])
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


def _label_point(value: Any) -> Point | None:
    """[x, y], or the first point of a points field."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return float(value[0]), float(value[1])
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple)):
        return _label_point(value[0])
    return None


ASPECTS = (4.0, 3.0, 2.0, 1.2)  # width/height of the label boxes tried in an area, widest first


def _draw(el: Areas, f: Frame) -> list[Op]:
    spec = el.areas
    deck = f.game.decks.get(spec.deck)
    if deck is None:  # reported by check_game, as a shape field that is not points
        return []
    ox, oy = spec.origin
    style = f.style(spec.style, LABEL_STYLE) if spec.label else None
    shapes: dict[str, list[Point]] = {}
    fills: list[Op] = []
    labels: list[Op] = []
    for card in deck.cards:
        points = [(x + ox, y + oy) for x, y in card.fields.get(spec.shape) or []]
        if len(points) < 3:
            f.problems.error(
                card.loc_of(spec.shape), "areas-shape", f"{f.where}: the shape of '{card.id}' has {len(points)} points; expected at least 3 [x, y] corners"
            )
            continue
        shapes[card.id] = points
        extra = {"cell": card_view(card)}
        fill = f.paint(spec.fill, spec._loc, extra)
        stroke = f.paint(spec.stroke, spec._loc, extra)
        fills.append(ShapeOp(tuple((x * mm, f.y(y)) for x, y in points), True, fill, stroke, spec.stroke_width))
        label = f.fill_in(spec.label, spec._loc, extra) if spec.label else None
        if label and style is not None:
            op = _area_label(f, spec, card, points, label, style)
            if op is not None:
                labels.append(op)
    borders = _borders(f, spec, shapes) if spec.borders else []
    return fills + borders + labels


def _area_label(f: Frame, spec: AreasSpec, card, points: list[Point], label: str, style: TextStyle) -> TextOp | None:
    loc = card.loc_of(spec.label_at) if spec.label_at else card.loc_of(spec.shape)
    what = f"area '{card.id}'"
    if spec.label_at and card.fields.get(spec.label_at):  # absent: the centroid
        at = _label_point(card.fields.get(spec.label_at))
        if at is None:
            f.problems.error(
                loc, "areas-label-at", f"{f.where}: label_at '{spec.label_at}' of '{card.id}' is {card.fields.get(spec.label_at)!r}; expected [x, y] in mm"
            )
            return None
        at = (at[0] + spec.origin[0], at[1] + spec.origin[1])
    else:
        at = centroid(points)
    if spec.label_box:
        w, h = spec.label_box
        return label_op(f, label, style, (at[0] - w / 2, at[1] - h / 2, w, h), loc, what)
    boxes = [box for box in (largest_box(points, at, aspect) for aspect in ASPECTS) if box is not None]
    if not boxes:
        f.problems.error(
            loc,
            "label-overflow",
            f"{f.where}: the label point ({at[0]:g}, {at[1]:g}) of {what} is outside its shape; expected a label_at field inside it",
        )
        return None
    results = [(box, typeset(label, style, *_size_pt(inset(box, 0.5)), f.services.fonts, f.services.typography, f.services.symbol_ids)) for box in boxes]
    box, _ = max(results, key=lambda item: (not item[1].overflow, item[1].size))  # the largest text that fits
    return label_op(f, label, style, inset(box, 0.5), loc, what)


def _borders(f: Frame, spec: AreasSpec, shapes: dict[str, list[Point]]) -> list[Op]:
    bspec = spec.borders
    assert bspec is not None
    deck = f.game.decks.get(bspec.deck)
    if deck is None:  # reported by check_game
        return []
    area_ids = [c.id for c in f.game.decks[spec.deck].cards]
    ops: list[Op] = []
    for card in deck.cards:
        between = card.fields.get(bspec.between)
        if not isinstance(between, list) or len(between) != 2:
            f.problems.error(
                card.loc_of(bspec.between),
                "border-between",
                f"{f.where}: '{bspec.between}' of border '{card.id}' is {between!r}; expected the ids of the two fields it runs between",
            )
            continue
        a, b = (str(v) for v in between)
        missing = [(i, name) for i, name in enumerate((a, b)) if name not in area_ids]
        for i, name in missing:
            f.problems.error(
                card.loc_of(f"{bspec.between}.{i}"),
                "border-between",
                f"{f.where}: border '{card.id}' runs along '{name}', which is not a field of deck '{spec.deck}'{suggest(name, area_ids)}",
            )
        if missing or a not in shapes or b not in shapes:
            continue
        kind = card.fields.get(bspec.kind)
        look = bspec.style.get(str(kind)) if kind is not None else None
        if look is None:
            f.problems.error(
                card.loc_of(bspec.kind),
                "border-style",
                f"{f.where}: border '{card.id}' is of kind '{kind}', which has no style{suggest(str(kind), bspec.style)}; expected one of: {', '.join(bspec.style) or 'none (add borders.style)'}",
            )
            continue
        runs = [run for run in shared_edges(shapes[a], shapes[b]) if len(run) >= 2]
        if not runs:
            f.problems.error(
                card.loc_of(bspec.between),
                "border-no-edge",
                f"{f.where}: border '{card.id}' runs between '{a}' and '{b}', but their shapes share no edge; expected two fields whose shapes have two neighbouring corners in common",
            )
            continue
        extra = {"border": card_view(card)}
        stroke = f.paint(look.stroke, bspec._loc, extra)
        for run in runs:
            ops.append(ShapeOp(tuple((x * mm, f.y(y)) for x, y in run), False, None, stroke, look.stroke_width, tuple(look.dash)))
    return ops


def _size_pt(box: Box) -> tuple[float, float]:
    return box[2] * mm, box[3] * mm
