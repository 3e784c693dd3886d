"""What the map elements (grid, hexgrid, areas) share: where their cells come from (the
rows of a table field of the component, or the components of a deck), the style of their
labels, and a cell's symbol and label set in its inner box.

Why maps are generated and not drawn by hand: a map is data the rules check (`graph`
constraints in pnp/check/rules.py), so the board must be drawn from the same data, or the
two drift apart. Every cell's label goes through the text engine and is an error when it
does not fit its cell, as any other text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnp.base.errors import Location, Problems, one_of
from pnp.layout.elements.base import Frame
from pnp.layout.faces import Box, Op, TextOp
from pnp.layout.text import TextStyle
from pnp.load.model import Deck, Game
from pnp.load.schema import suggest
from pnp.templates.expressions import NO_DECKS, card_view

LABEL_STYLE = TextStyle(size=8, min_size=5, align="center", valign="middle")  # a label without a named style


@dataclass(repr=False, eq=False)
class Cells:
    """The cells of one grid on one face, each with the location its messages point at."""

    source: str  # for messages: "'hexes'" or "deck 'hexes'"
    rows: list[dict]
    locs: list[Location]


def check_deck(game: Game, name: str, kind: str, loc: Location, where: str, problems: Problems) -> Deck | None:
    """The deck a map element reads, or None (reported at the element)."""
    deck = game.decks.get(name)
    if deck is None:
        problems.error(loc, "map-deck", f"{where}: {kind} deck '{name}' does not exist{suggest(name, game.decks)}; expected {one_of(game.decks, NO_DECKS)}")
    return deck


def check_source(spec: Any, kind: str, game: Game, deck_type: str | None, where: str, problems: Problems) -> None:
    """A grid's deck exists, or its field is a table field of the components' type."""
    if spec.deck is not None:
        check_deck(game, spec.deck, kind, spec._loc, where, problems)
        return
    if deck_type is None:
        return
    name = spec.field or ""
    fields = game.types[deck_type].fields
    if name not in fields or fields[name].type != "table":
        tables = [n for n, d in fields.items() if d.type == "table"]
        problems.error(
            spec._loc,
            "map-field",
            f"{where}: {kind} field '{name}' is not a table field of type '{deck_type}'{suggest(name, tables)}; expected one of: {', '.join(tables) or 'none (declare a field of type table)'}",
        )


def cells_of(f: Frame, spec: Any, kind: str) -> Cells | None:
    """The cells of a grid on this face, or None (no cells: reported)."""
    if spec.deck is not None:
        deck = f.game.decks.get(spec.deck)
        if deck is None:  # reported by check_source
            return None
        cards = list(deck.cards)
        if not cards:
            f.problems.error(deck.loc, "map-empty", f"{f.where}: {kind} deck '{spec.deck}' has no components; expected one per cell")
            return None
        return Cells(f"deck '{spec.deck}'", [card_view(c) for c in cards], [c.loc for c in cards])
    name = spec.field or ""
    fields = f.game.types[f.card.type].fields
    if name not in fields or fields[name].type != "table":  # reported by check_source
        return None
    rows = list(f.card.fields.get(name) or [])
    if not rows:
        f.problems.error(f.card.loc_of(name), "map-empty", f"{f.where}: {kind} '{name}' of card '{f.card.id}' has no rows; expected one row per cell")
        return None
    return Cells(f"'{name}'", rows, [f.card.loc_of(f"{name}.{i}") for i in range(len(rows))])


def label_op(f: Frame, content: str, style: TextStyle, box: Box, loc: Location, what: str) -> TextOp | None:
    """A cell's label set in a box (mm from the top left): an error, never a clipped text,
    when it does not fit even at the smallest size."""
    return f.text(content, style, box, loc, f"{f.where}: label '{content}' of {what}", "a shorter label, a smaller style or larger cells")


def cell_content(f: Frame, spec: Any, box: Box, extra: dict, loc: Location, what: str, style: TextStyle | None) -> list[Op]:
    """The symbol and label of one cell in its inner box: the symbol above the label
    when it has both."""
    ops: list[Op] = []
    label = f.fill_in(spec.label, spec._loc, extra) if spec.label else None
    symbol_box, label_box = box, box
    x, y, w, h = box
    if spec.symbol and label:
        symbol_box, label_box = (x, y, w, h * 0.55), (x, y + h * 0.55, w, h * 0.45)
    if spec.symbol:
        op = f.symbol(spec.symbol, symbol_box, spec._loc, extra)
        if op is not None:
            ops.append(op)
    if label and style is not None:
        op = label_op(f, label, style, label_box, loc, what)
        if op is not None:
            ops.append(op)
    return ops


def check_one_source(spec: Any, where: Any, kind: str, problems: Problems) -> bool:
    """A grid's cells come from a table field of the component or from a deck: one of them."""
    if (spec.field is None) == (spec.deck is None):
        has = "both 'field' and 'deck'" if spec.field is not None else "neither 'field' nor 'deck'"
        problems.error(
            where.loc, f"{kind}-source", f"{kind} has {has}; expected one: 'field' (a table field of the component) or 'deck' (one component per cell)"
        )
        return False
    return True
