"""Stage 3, lay out: turn one component and its layout into a Face, a list of drawing
operations in points with every text already set. Nothing here touches a PDF, so
`pnp check` runs the same code to find text that does not fit, missing glyphs and
unknown symbols without building anything."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import partial
from itertools import chain
from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.units import mm

from pnp.assets.fonts import FontSet
from pnp.base.errors import Location, Problems
from pnp.layout.elements.base import ElementKind, Frame, Layout, draw_element
from pnp.layout.faces import Face, Op, parse_color
from pnp.layout.typography import base_language, typography
from pnp.load.model import Card, Game
from pnp.templates.expressions import FAILED, Names, evaluate_at, fill_in


class Renderer:
    """Lays out faces of one game in one language."""

    def __init__(self, game: Game, fonts: FontSet, symbols: Any, lang: str, card_sizes: dict[str, tuple[float, float]]):
        self.game = game
        self.fonts = fonts
        self.symbols = symbols
        self.symbol_ids = symbols.ids
        self.lang = lang
        self.typography = typography(lang, game.meta.hyphenation)
        direction = game.meta.direction
        self.mirror = direction.get(lang, direction.get(base_language(lang))) == "rtl"  # 'ar' serves 'ar_EG'; 'ar_EG' may say otherwise
        self.card_sizes = card_sizes  # deck id -> trim size in mm, for slots sized from a deck
        self.memo: dict[Any, Any] = {}  # per-element values that do not change from card to card
        self.names = Names(game)
        self._undefined: set = set()  # (place, name) of undefined names: reported once, not per card
        self._same: dict[int, _Same] = {}  # by the layout's id: what its elements draw on every card

    def context(self, card: Card) -> dict[str, Any]:
        return self.names.of(card)

    def face(self, card: Card, layout: Layout, side: str, problems: Problems, parts: list | None = None) -> Face:
        """`parts`, when given, receives (element, its ops) for each element drawn: what a
        shop's preflight names. What draws the same on every card (a deck's back, a
        front's frame and art) is drawn once: see _Same."""
        name = f"{card.id} ({side})"
        same = self._same.get(id(layout))
        if same is None or same.layout is not layout:
            same = self._same[id(layout)] = _Same(layout, [self._fixed(el, layout) for el in layout.elements])
        elif same.ops is not None and parts is None:
            return Face(name, layout.width * mm, layout.height * mm, same.ops, layout.shape or "rect")
        return self.draw(card, layout, self.context(card), f"card '{card.id}' ({side}, layout '{layout.name}')", name, problems, parts, same)

    def draw(
        self, card: Card, layout: Layout, ctx: dict[str, Any], where: str, name: str, problems: Problems, parts: list | None = None, same: _Same | None = None
    ) -> Face:
        """A face of `layout` with the names `ctx` (a component's, or a tuck box's);
        `where` names it in messages; `same`, for a component's face, keeps what draws the
        same on every card."""
        frame = Frame(self, card, layout, ctx, layout.height * mm, where, problems)
        ops: list[Op] = []
        for i, el in enumerate(layout.elements):
            if same is not None and same.fixed[i]:
                drawn = same.drawn[i]
                if drawn is None:
                    drawn = same.keep(i, partial(draw_element, el), frame)
            elif el.when is not None and not self._when(el.when, ctx, el._loc, frame.where, problems):
                continue
            else:
                drawn = draw_element(el, frame)
            ops.extend(drawn)
            if parts is not None:
                parts.append((el, drawn))
        return Face(name, layout.width * mm, frame.height, tuple(ops), layout.shape or "rect")

    def _fixed(self, el: ElementKind, layout: Layout) -> bool:
        """Whether `el` draws the same on every card: a kind that reads a card only through
        templates, no `when`, and templates (its own, and those of the layout style it
        names: a text's) that name nothing of a card (Names.fixed)."""
        style = layout.styles.get(getattr(el, "style", None) or "")
        return (
            el.by_templates
            and el.when is None
            and all(self.names.fixed(source) for source in _strings(el))
            and (style is None or all(self.names.fixed(source) for source in _strings(style)))
        )

    # --- what elements ask of the renderer through their Frame (elements.base.Services) ---

    def fill(self, source: str, ctx: dict, loc: Location, where: str, problems: Problems) -> str | None:
        if "{" not in source:
            return source
        text = fill_in(source, ctx, loc, f"{where}: cannot fill in '{source}'", problems, self._undefined)
        return text.strip() if text is not None else None

    def _when(self, source: str, ctx: dict, loc: Location, where: str, problems: Problems) -> bool:
        ok = evaluate_at(source, ctx, loc, f"{where}: cannot evaluate when: '{source}'", problems, self._undefined)
        return ok is not FAILED and bool(ok)

    def colour(self, value: str | None, ctx: dict, loc: Location, where: str, problems: Problems) -> Color | None:
        if value is None:
            return None
        text = self.fill(value, ctx, loc, where, problems)
        if not text or text == "none":
            return None
        try:
            return parse_color(text)
        except (ValueError, AttributeError):
            problems.error(loc, "color", f"{where}: colour '{text}' is not a colour; expected '#rrggbb' or a colour name")
            return None


@dataclass(repr=False, eq=False)
class _Same:
    """What the elements of one layout draw on every card: a deck's back, a front's frame
    and art are drawn once (each card's face holds the same operations, which
    write/manifest.py hashes and write/pdf.py's Forms compare once too). `fixed`: whether
    each element draws the same on every card (Renderer._fixed); `drawn`: its operations,
    once drawn without a problem (one with a problem is drawn again for every card, so
    that each is reported where it is); `ops`: the face's, when every element is kept."""

    layout: Layout
    fixed: list[bool]
    drawn: list[tuple[Op, ...] | None] = field(init=False)
    ops: tuple[Op, ...] | None = None

    def __post_init__(self) -> None:
        self.drawn = [None] * len(self.fixed)

    def keep(self, i: int, draw: Callable[[Frame], list[Op]], frame: Frame) -> tuple[Op, ...]:
        found = Problems()
        drawn = tuple(draw(replace(frame, problems=found)))
        frame.problems.extend(found)
        if not found.items:
            self.drawn[i] = drawn
            if all(kept is not None for kept in self.drawn):  # every element: the whole face is the same on every card
                self.ops = tuple(chain.from_iterable(self.drawn))
        return drawn


def _strings(value: Any) -> Iterator[str]:
    """The strings in an element or style read from a layout (its templates, among others)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            if not f.name.startswith("_"):  # its place in the layout (_loc)
                yield from _strings(getattr(value, f.name))
