"""The small interface every element kind is written against.

An element kind is a dataclass read from a layout (its schema), with `check` (what the
layout alone tells, when the layout is read), `check_game` (what needs the game: decks,
fields and card sizes it names, once per deck that uses the layout) and `draw` (its
drawing operations on one face, given a `Frame`). Everything `draw` needs from the rest
of pnp comes through the Frame: templates filled in for the component, colours, symbols,
named text styles in the face's language, and text set in a box."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import cache
from typing import Any, ClassVar, Literal, Protocol

from reportlab.lib.colors import Color
from reportlab.lib.units import mm

from pnp.assets.fonts import FontSet
from pnp.base.errors import Location, Problems, one_of
from pnp.layout.faces import BLACK, Box, Gradient, GroupOp, Op, Paint, SymbolOp, TextOp, bounds, mirrored
from pnp.layout.text import TextStyle
from pnp.layout.textbox import set_in_box
from pnp.layout.typography import Typography
from pnp.load.model import Card, Game
from pnp.load.schema import suggest
from pnp.load.yamlfile import loc_of
from pnp.templates.expressions import NO_SYMBOLS

FIELD_ALONE = re.compile(r"^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$")  # a template that shows one field: its value's place is the field's
Shape = Literal["rect", "round", "hex"]  # the outline a component is cut along


@dataclass(repr=False, eq=False)
class GradientDef:
    """A paint that runs through colours (`stops`, templates like any colour), given in a
    layout wherever a colour may be (a `fill:`, a `stroke:`, a text's `color:`):
    `linear: [[x1, y1], [x2, y2]]` (mm from the face's top left, from the first stop to
    the last) or `radial: [[x, y], radius]` (from the centre out)."""

    stops: list[str]
    linear: tuple[tuple[float, float], tuple[float, float]] | None = None
    radial: tuple[tuple[float, float], float] | None = None


@dataclass(repr=False, eq=False)
class Rotation:
    """`rotate: {angle: 90, about: [x, y]}`: turned about a point in mm from the top left,
    or about a named point (PIVOTS): `card`, the middle of the face (a card with two
    heads), or a corner or edge of the element's box (`top-left`, `bottom`, ...)."""

    angle: float
    about: tuple[float, float] | str | None = None


# The named points an element may turn about: the face's middle, or a point of the element's
# box as fractions of its width and height from its top left (the middle of what it draws for a kind without a box).
PIVOTS: dict[str, tuple[float, float] | None] = {
    "card": None,
    "centre": (0.5, 0.5),
    "center": (0.5, 0.5),
    "middle": (0.5, 0.5),
    "top-left": (0.0, 0.0),
    "top": (0.5, 0.0),
    "top-right": (1.0, 0.0),
    "left": (0.0, 0.5),
    "right": (1.0, 0.5),
    "bottom-left": (0.0, 1.0),
    "bottom": (0.5, 1.0),
    "bottom-right": (1.0, 1.0),
}


def pivot(about: tuple[float, float] | str | None, box: tuple[float, float, float, float] | None, face: tuple[float, float]) -> tuple[float, float]:
    """The point (mm from the top left) an element turns about: `about` as given, a named
    point of `box` (x, y, w, h in mm: the element's box, or what it draws; only these
    read it) or of the face (`face`: its width and height in mm), or the middle of `box`."""
    if isinstance(about, (tuple, list)):
        return about[0], about[1]
    if about == "card":
        return face[0] / 2, face[1] / 2
    fx, fy = PIVOTS[about or "centre"]
    assert box is not None
    x, y, w, h = box
    return x + fx * w, y + fy * h


@dataclass(repr=False, eq=False)
class Effects:
    """What every element kind may have besides its own keys (read.py takes them out of
    the element's mapping): `rotate:` (degrees counterclockwise, about the element's
    centre or `about:`) and `opacity:` (0 invisible to 1 opaque)."""

    rotate: float | Rotation | None = None
    opacity: float | None = None

    @property
    def angle(self) -> float:
        return self.rotate.angle if isinstance(self.rotate, Rotation) else self.rotate or 0.0

    def apply(self, el: ElementKind, ops: list[Op], f: Frame) -> list[Op]:
        """The element's operations as one group, turned and translucent."""
        if not ops:
            return ops
        about = self.rotate.about if isinstance(self.rotate, Rotation) else None
        box = el.own_box()
        if box is None and not isinstance(about, (tuple, list)) and about != "card":  # a point of what it draws, in mm from the top left
            left, bottom, right, top = bounds(ops) or (0.0, 0.0, 0.0, 0.0)
            box = (left / mm, (f.height - top) / mm, (right - left) / mm, (top - bottom) / mm)
        x, y = pivot(about, box, (f.layout.width, f.layout.height))
        return [GroupOp(tuple(ops), self.angle, x * mm, f.y(y), 1.0 if self.opacity is None else self.opacity)]


@dataclass(repr=False, eq=False)
class Layout:
    """How one kind of component is drawn, resolved (parents, styles) by layout/read.py: its
    trim size in mm, named text styles, and elements in drawing order."""

    name: str
    size: tuple[float, float]
    safe: float
    styles: dict[str, TextStyle]
    elements: list[ElementKind]
    loc: Location
    lang_scale: dict[str, float] = field(default_factory=dict)
    shape: Shape = "rect"  # what the sheet's cut lines follow; the art is still clipped to the trim rect
    mirror: bool = True  # mirrored in a language whose direction is rtl (game.yaml); false: a map, a board drawn as it must print

    @property
    def width(self) -> float:
        return self.size[0]

    @property
    def height(self) -> float:
        return self.size[1]

    def scaled(self, style: TextStyle, lang: str) -> TextStyle:
        """A text style in language `lang`: sizes times the layout's `lang_scale` for it."""
        scale = self.lang_scale.get(lang)
        if not scale:
            return style
        return replace(style, size=style.size * scale, min_size=style.min_size * scale if style.min_size else None)


class Services(Protocol):
    """What the lay-out stage gives the elements of every face (renderer.Renderer)."""

    game: Game
    fonts: FontSet
    symbol_ids: Any
    lang: str
    typography: Typography  # how text is set in this language (layout/typography.py)
    card_sizes: dict[str, tuple[float, float]]  # deck id -> its cards' trim size in mm
    memo: dict[Any, Any]  # per-element values that do not change from card to card, in this language
    mirror: bool  # the layouts are mirrored in this language (game.yaml's `direction: rtl`)

    def fill(self, source: str, ctx: dict, loc: Location, where: str, problems: Problems) -> str | None:
        """A template filled in with `ctx`; None (reported) when it cannot be."""

    def colour(self, value: str | None, ctx: dict, loc: Location, where: str, problems: Problems) -> Color | None:
        """A colour template filled in and parsed; None for none, or when reported."""


@dataclass(repr=False, eq=False)
class Frame:
    """One face being drawn: the component, its layout and template context, the face
    height in points (PDF y runs up, layouts measure down) and how messages name it."""

    services: Services
    card: Card
    layout: Layout
    ctx: dict[str, Any]
    height: float
    where: str
    problems: Problems
    placed: dict[int, TextOp] = field(default_factory=dict)  # the texts `text` set in their mirrored boxes, by id (held, so no other takes it)

    @property
    def game(self) -> Game:
        return self.services.game

    @property
    def mirror(self) -> bool:
        """Whether this face is drawn mirrored (faces.mirrored): its language's layouts run
        right to left and its layout does not refuse it (`mirror: false`)."""
        return self.services.mirror and self.layout.mirror

    def y(self, top_mm: float, h_mm: float = 0.0) -> float:
        """PDF y of the bottom of a box whose top is `top_mm` from the top of the face."""
        return self.height - (top_mm + h_mm) * mm

    def fill_in(self, source: str, loc: Location, extra: dict | None = None) -> str | None:
        """A template filled in for this component (plus `extra` names, e.g. a track's `n`)."""
        return self.services.fill(source, {**self.ctx, **extra} if extra else self.ctx, loc, self.where, self.problems)

    def color(self, value: str | None, loc: Location, extra: dict | None = None) -> Color | None:
        return self.services.colour(value, {**self.ctx, **extra} if extra else self.ctx, loc, self.where, self.problems)

    def paint(self, value: str | GradientDef | None, loc: Location, extra: dict | None = None) -> Paint | None:
        """A fill, a stroke or a text's colour: a colour (as `color`), or a gradient with
        its stops filled in and its points on the face; a stop that is no colour is
        reported and leaves it unpainted (None)."""
        if not isinstance(value, GradientDef):
            return self.color(value, loc, extra)
        colors = [self.color(stop, loc, extra) for stop in value.stops]
        if any(c is None for c in colors) or len(colors) < 2 or (value.linear is None) == (value.radial is None):  # the last two reported when read
            return None
        if value.radial is not None:
            (x, y), r = value.radial
            return Gradient(True, (x * mm, self.y(y), r * mm), tuple(colors))
        (x1, y1), (x2, y2) = value.linear
        return Gradient(False, (x1 * mm, self.y(y1), x2 * mm, self.y(y2)), tuple(colors))

    def symbol(self, source: str, box: Box, loc: Location, extra: dict | None = None) -> SymbolOp | None:
        """A symbol centred in a box given in mm from the top left; None when the template is
        empty, an error (never a blank) when the symbol does not exist."""
        sid = self.fill_in(source, loc, extra)
        if not sid:
            return None
        ids = self.services.symbol_ids
        if sid not in ids:
            self.problems.error(
                loc, "symbol-unknown", f"{self.where}: symbol '{sid}' does not exist{suggest(sid, ids)}; expected {one_of(sorted(ids), NO_SYMBOLS)}"
            )
            return None
        x, y, w, h = box
        size = min(w, h) * mm
        return SymbolOp(sid, x * mm + (w * mm - size) / 2, self.height - (y + h) * mm + (h * mm - size) / 2, size)

    def style(self, name: str | None, default: TextStyle) -> TextStyle:
        """A named style of the layout (or `default`), at this face's language's scale."""
        return self.layout.scaled(self.layout.styles.get(name, default) if name else default, self.services.lang)

    def text(
        self, content: str, style: TextStyle, box: Box, loc: Location, subject: str, fix: str, extra: dict | None = None, color_loc: Location | None = None
    ) -> TextOp | None:
        """Text set in a box (mm from the top left) and placed by the style's valign; what
        cannot be printed is an error naming `subject` (see textbox.set_in_box)."""
        services = self.services
        if style.font not in services.fonts:
            self.problems.error(loc, "font-unknown", f"{self.where}: font '{style.font}' does not exist; expected one of: {', '.join(services.fonts.names())}")
            return None
        x, y, w, h = box
        if self.mirror:  # set in the mirrored box, left and right swapped; start and end follow the paragraph as ever
            x = self.layout.width - x - w
            style = replace(style, align={"left": "right", "right": "left"}.get(style.align, style.align))
        result = set_in_box(content, style, (w, h), services.fonts, services.typography, services.symbol_ids, loc, subject, fix, self.problems)
        block = len(result.lines) * result.leading
        offset = {"top": 0.0, "middle": (h * mm - block) / 2, "bottom": h * mm - block}[style.valign]
        color = self.paint(style.color, color_loc or loc, extra) or BLACK
        op = TextOp(x * mm, self.y(y) - max(0.0, offset) - result.ascent, result, color)
        if self.mirror:
            self.placed[id(op)] = op
        return op


class ElementKind:
    """The methods every element kind has; a kind overrides those it needs."""

    _loc: Location
    effects: Effects | None = None  # its rotate: and opacity:, when it has them (read.py)
    # True for a kind that reads the component only through its templates (Frame.fill_in,
    # color, symbol, text): an element of it whose templates name nothing of a component
    # draws the same on every card, so it is drawn once per layout (renderer.py).
    by_templates: ClassVar[bool] = False

    def check(self, raw: Any, styles: dict[str, TextStyle], problems: Problems) -> bool:
        """What the layout alone tells, when it is read; False drops the element."""
        return True

    def check_game(self, game: Game, deck_type: str | None, card_sizes: dict[str, tuple[float, float]], where: str, problems: Problems) -> None:
        """What needs the game (decks, fields, card sizes it names), once per deck whose
        cards use the layout (`deck_type`: their type; None for a layout of no deck)."""

    def draw(self, f: Frame) -> list[Op]:
        raise NotImplementedError

    def own_box(self) -> tuple[float, float, float, float] | None:
        """The box (mm) the element turns about the middle of by default, and its named
        points are of: its `box` (or `rect`); None: what it draws."""
        box = getattr(self, "box", None) or getattr(self, "rect", None)
        if isinstance(box, (tuple, list)) and len(box) == 4:
            return tuple(box)
        return None


def draw_element(el: ElementKind, f: Frame) -> list[Op]:
    """What an element draws on a face, turned and translucent as its `rotate:` and
    `opacity:` say, and mirrored when the face is (Frame.mirror)."""
    ops = el.draw(f)
    if el.effects is not None:
        ops = el.effects.apply(el, ops, f)
    return mirrored(ops, f.layout.width * mm, f.placed) if f.mirror else ops


def turned_box(el: ElementKind, box: Box, face: tuple[float, float]) -> Box:
    """The box (mm) an element's `box` takes on a face of size `face` (mm) once turned by
    its `rotate:`: the bounds of its corners (the box itself when it is not turned)."""
    angle = el.effects.angle if el.effects is not None else 0.0
    if not angle % 360:
        return box
    x, y, w, h = box
    about = el.effects.rotate.about if isinstance(el.effects.rotate, Rotation) else None
    cx, cy = pivot(about, box, face)
    a = math.radians(angle)
    cos, sin = math.cos(a), math.sin(a)
    corners = [(px - cx, py - cy) for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
    xs = [cx + dx * cos + dy * sin for dx, dy in corners]  # y runs down: counterclockwise on the face
    ys = [cy - dx * sin + dy * cos for dx, dy in corners]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def check_effects(effects: Effects, raw: Any, what: str, problems: Problems) -> bool:
    """`rotate:` a finite angle (and point), `opacity:` from 0 to 1."""
    if not check_numbers(effects, raw, what, problems):
        return False
    about = effects.rotate.about if isinstance(effects.rotate, Rotation) else None
    if isinstance(about, str) and about not in PIVOTS:
        where = raw.get("rotate") if isinstance(raw, dict) else None
        problems.error(
            loc_of(where, "about"),
            CODE,
            f"{what}: 'about' is '{about}'{suggest(about, list(PIVOTS))}; expected [x, y] in mm from the top left or a named point: {', '.join(PIVOTS)}",
        )
        return False
    if effects.opacity is not None and not 0 <= effects.opacity <= 1:
        problems.error(loc_of(raw, "opacity"), CODE, f"{what}: 'opacity' is {effects.opacity:g}; expected a number from 0 (invisible) to 1 (opaque)")
        return False
    return True


def check_paint(value: Any, raw: Any, key: str, what: str, problems: Problems) -> bool:
    """A gradient given for `key` has two stops or more, and a `linear:` or a `radial:`
    (not both); a colour is checked when it is drawn."""
    if not isinstance(value, GradientDef):
        return True
    where = raw.get(key) if isinstance(raw, dict) else None
    if len(value.stops) < 2:
        problems.error(
            loc_of(where, "stops"),
            CODE,
            f"{what}: the gradient of '{key}' has {len(value.stops)} stop{'s' if len(value.stops) != 1 else ''}; expected two colours or more in 'stops'",
        )
        return False
    if (value.linear is None) == (value.radial is None):
        problems.error(
            loc_of(raw, key),
            CODE,
            f"{what}: the gradient of '{key}' has {'both' if value.linear else 'neither'} 'linear' {'and' if value.linear else 'nor'} 'radial'; "
            "expected one of them: linear: [[x1, y1], [x2, y2]] or radial: [[x, y], radius]",
        )
        return False
    if value.radial is not None and math.isfinite(value.radial[1]) and value.radial[1] <= 0:
        problems.error(loc_of(where, "radial"), CODE, f"{what}: the radius of the gradient of '{key}' is {value.radial[1]:g}; expected a length above 0 mm")
        return False
    return True


def check_paints(value: Any, raw: Any, what: str, problems: Problems) -> bool:
    """Every gradient among the keys of `value` (an element, or a spec inside one, read
    from the mapping `raw`) checked as check_paint does, each reported at its line."""
    ok = True
    for name in field_names(type(value)):
        if isinstance(getattr(value, name), GradientDef):
            ok &= check_paint(getattr(value, name), raw, name, what, problems)
    return ok


@cache
def field_names(cls: type) -> tuple[str, ...]:
    """The names of a dataclass's fields, found once per class: every element of a
    layout is asked for them, and listing a class's fields is slow."""
    return tuple(f.name for f in fields(cls))


# Layout keys whose numbers must be above 0, and those that must not be negative; every
# number must be finite (YAML reads .nan and .inf as numbers).
_POSITIVE = frozenset({"size", "min_size", "leading", "columns"})
_NOT_NEGATIVE = frozenset({"stroke_width", "radius", "padding", "dash"})
_SIDES = {"box": (2, 3), "rect": (2, 3), "circle": (2,)}  # the lengths of a box (width, height), a circle's radius
CODE = "layout-value"
MIN_SPACE = 3.0  # mm: a track's space or a legend's label narrower than this holds no pawn or readable number


def check_numbers(value: Any, raw: Any, what: str, problems: Problems) -> bool:
    """Every number the layout gave `value` (an element, a spec or style inside one) makes
    sense, each reported at its line: finite; sizes, leading and columns above 0; widths,
    radii, padding and dashes not negative, a dash not all gaps; a box's width and height,
    a circle's radius, above 0. False when one does not."""
    if not isinstance(raw, dict):  # every value a default, which is sound
        return True
    ok = True
    for name, sides in _given(type(value)):
        if name in raw:  # a default is sound
            ok &= _check_value(name, getattr(value, name), raw[name], raw, name, sides, what, problems)
    return ok


@cache
def _given(kind: type) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The fields of a kind of element, spec or style that a layout may give (not its place,
    _loc), each with the sides of it that are lengths: found once per kind, not per value."""
    return tuple((f.name, _SIDES.get(f.name, (2, 3) if "Box" in str(f.type) else ())) for f in fields(kind) if not f.name.startswith("_"))


def _check_value(key: str, value: Any, raw: Any, holder: Any, at: Any, sides: tuple[int, ...], what: str, problems: Problems) -> bool:
    """`value`, read from `raw` = holder[at], checked as check_numbers says (its place found
    only to report it: most values are sound)."""
    if value is None or type(value) is str:  # most of a layout's values, and no number
        return True
    if is_dataclass(value):
        return check_numbers(value, raw, what, problems)
    if isinstance(value, dict):
        ok = True
        for name, item in value.items():
            ok &= _check_value(key, item, raw.get(name) if isinstance(raw, dict) else None, raw, name, (), what, problems)
        return ok
    if isinstance(value, (list, tuple)):
        ok = True
        for i, item in enumerate(value):
            if i in sides and isinstance(item, (int, float)) and math.isfinite(item) and item <= 0:
                side = {"circle": "radius"}.get(key, "width" if i == 2 else "height")
                problems.error(loc_of(raw, i), CODE, f"{what}: the {side} in '{key}' is {item:g}; expected a length above 0 mm")
                ok = False
                continue
            ok &= _check_value(key, item, raw[i] if isinstance(raw, list) and i < len(raw) else None, raw, i, (), what, problems)
        if ok and key == "dash" and value and not any(value):
            problems.error(loc_of(holder, at), CODE, f"{what}: 'dash' {list(value)} has only gaps; expected a dash length above 0 (or no dash)")
            ok = False
        return ok
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return True
    if not math.isfinite(value):
        problems.error(loc_of(holder, at), CODE, f"{what}: '{key}' is {value}, not a number; expected a finite number")
    elif key in _POSITIVE and value <= 0:
        problems.error(loc_of(holder, at), CODE, f"{what}: '{key}' is {value:g}; expected a number above 0")
    elif key in _NOT_NEGATIVE and value < 0:
        problems.error(loc_of(holder, at), CODE, f"{what}: '{key}' is {value:g}; expected 0 or more")
    else:
        return True
    return False


def check_sizes(style: TextStyle, raw: Any, what: str, problems: Problems) -> bool:
    """A text style shrinks to `min_size` at most: not from below its `size`."""
    if style.min_size is None or not 0 < style.size < style.min_size:  # NaN or a size of 0 is check_numbers' to report
        return True
    key = "min_size" if isinstance(raw, dict) and "min_size" in raw else "size"
    problems.error(
        loc_of(raw, key), CODE, f"{what}: min_size {style.min_size:g} is larger than size {style.size:g}; expected a min_size of at most {style.size:g}"
    )
    return False


def check_style(name: str | None, where: Any, styles: dict, what: str, problems: Problems) -> bool:
    """An element's `style:` names a style of the layout; `where` is the mapping holding it."""
    if name is None or name in styles:
        return True
    problems.error(
        where.loc_of("style"),
        "style-missing",
        f"{what} uses style '{name}', which is not defined{suggest(name, styles)}; expected "
        + (f"one of: {', '.join(styles)}" if styles else "a style of the layout's 'styles:'"),
    )
    return False


def inset(box: Box, by: float) -> Box:
    """A box shrunk by `by` mm on each side (at most a quarter of its width and height)."""
    x, y, w, h = box
    by = min(by, w / 4, h / 4)
    return x + by, y + by, w - 2 * by, h - 2 * by
