"""Stage 3, lay out: turn one component and its layout into a Face, a list of drawing
operations in points with every text already set. Nothing here touches a PDF, so
`pnp check` runs the same code to find text that does not fit, missing glyphs and
unknown symbols without building anything."""

from __future__ import annotations

from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.units import mm

from .elements.base import Frame, Layout
from .errors import Location, Problems
from .expressions import FAILED, Names, evaluate_at, fill_in
from .faces import Face, Op, parse_color
from .fonts import FontSet
from .model import Card, Game


class Renderer:
    """Lays out faces of one game in one language."""

    def __init__(self, game: Game, fonts: FontSet, symbols: Any, lang: str, card_sizes: dict[str, tuple[float, float]]):
        self.game = game
        self.fonts = fonts
        self.symbols = symbols
        self.symbol_ids = symbols.ids
        self.lang = lang
        self.card_sizes = card_sizes  # deck id -> trim size in mm, for slots sized from a deck
        self.memo: dict[Any, Any] = {}  # per-element values that do not change from card to card
        self.names = Names(game)
        self._undefined: set = set()  # (place, name) of undefined names: reported once, not per card

    def context(self, card: Card) -> dict[str, Any]:
        return self.names.of(card)

    def face(self, card: Card, layout: Layout, side: str, problems: Problems, parts: list | None = None) -> Face:
        """`parts`, when given, receives (element, its ops) for each element drawn: what a
        shop's preflight names."""
        return self.draw(card, layout, self.context(card), f"card '{card.id}' ({side}, layout '{layout.name}')", f"{card.id} ({side})", problems, parts)

    def draw(self, card: Card, layout: Layout, ctx: dict[str, Any], where: str, name: str, problems: Problems, parts: list | None = None) -> Face:
        """A face of `layout` with the names `ctx` (a component's, or a tuck box's);
        `where` names it in messages."""
        frame = Frame(self, card, layout, ctx, layout.height * mm, where, problems)
        ops: list[Op] = []
        for el in layout.elements:
            if el.when is not None and not self._when(el.when, ctx, el._loc, frame.where, problems):
                continue
            drawn = el.draw(frame)
            ops.extend(drawn)
            if parts is not None:
                parts.append((el, drawn))
        return Face(name, layout.width * mm, frame.height, tuple(ops))

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
