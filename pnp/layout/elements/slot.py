"""`slot`: the dashed outline of a place for a card on a board, sized from a deck's cards
(so the slot follows when the card size changes) or given in mm, with a label."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.units import mm

from pnp.base.errors import Location, Problems, one_of
from pnp.layout.elements.base import ElementKind, Frame, GradientDef, check_paints, check_style
from pnp.layout.faces import Op, ShapeOp
from pnp.layout.text import TextStyle
from pnp.load.model import Game
from pnp.load.schema import suggest
from pnp.templates.expressions import NO_DECKS

SLOT_STYLE = TextStyle(size=9, min_size=6, align="center", valign="middle")  # a label without a named style


@dataclass(repr=False, eq=False)
class SlotDef:
    at: tuple[float, float]  # mm: top-left corner
    deck: str | None = None  # size from this deck's front layout
    size: tuple[float, float] | None = None  # or given in mm
    label: str = ""
    style: str | None = None
    stroke: str | GradientDef | None = "#666666"
    stroke_width: float = 0.6  # points
    dash: list[float] = field(default_factory=lambda: [3.0, 2.0])  # points on, off
    fill: str | GradientDef | None = None


@dataclass(repr=False, eq=False)
class Slot(ElementKind):
    slot: SlotDef
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw: Any, styles: dict, problems: Problems) -> bool:
        s, spec = self.slot, raw["slot"]
        ok = check_style(s.style, spec, styles, "slot", problems) & check_paints(s, spec, "slot", problems)
        if (s.deck is None) == (s.size is None):
            problems.error(spec.loc, "slot-size", "a slot needs either 'deck' (its cards' size) or 'size: [w, h]' in mm, not both")
            ok = False
        if s.size is not None and (s.size[0] <= 0 or s.size[1] <= 0):
            problems.error(spec.loc_of("size"), "slot-size", f"slot size {list(s.size)} has no area; expected a positive width and height")
            ok = False
        return ok

    def check_game(self, game: Game, deck_type: str | None, card_sizes: dict[str, tuple[float, float]], where: str, problems: Problems) -> None:
        deck = self.slot.deck
        if deck is None:
            return
        if deck not in game.decks:
            problems.error(
                self._loc, "slot-deck", f"{where}: the slot's deck '{deck}' does not exist{suggest(deck, game.decks)}; expected {one_of(game.decks, NO_DECKS)}"
            )
        elif deck not in card_sizes:
            problems.error(self._loc, "slot-deck", f"{where}: deck '{deck}' is not printed, so it has no card size; expected 'size: [w, h]' in mm")

    def draw(self, f: Frame) -> list[Op]:
        s, loc = self.slot, self._loc
        size = s.size if s.size is not None else f.services.card_sizes.get(str(s.deck))
        if size is None:  # reported by check_game
            return []
        w, h = size
        x, y = s.at
        corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
        points = tuple((px * mm, f.y(py)) for px, py in corners)
        ops: list[Op] = [ShapeOp(points, True, f.paint(s.fill, loc), f.paint(s.stroke, loc), s.stroke_width, tuple(s.dash))]
        label = f.fill_in(s.label, loc) if s.label else ""
        if label:
            pad = min(2.0, w / 10, h / 10)
            box = (x + pad, y + pad, w - 2 * pad, h - 2 * pad)
            op = f.text(label, f.style(s.style, SLOT_STYLE), box, loc, f"{f.where}: the slot's label '{label}'", "a shorter label or a smaller style")
            if op is not None:
                ops.append(op)
        return ops
