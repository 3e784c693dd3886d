"""Stage 1, load, for a whole game: the game's data (load/game.py) with the fonts, symbols and
layouts it is drawn with, read once and handed to every later stage as a `Project`.

A deck's `front:` and `back:` name a layout, or choose one per card with a template
(`front: "{{ 'tarot' if text | length > 300 else 'poker' }}"`, `front: "{{ size }}"`):
the choice is made here, once, in the game's source language, so every language prints
each card on the same size of card."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.assets.fonts import FontSet
from pnp.assets.symbols import SymbolSet
from pnp.base.errors import Location, Problems
from pnp.base.paths import FONTS_DIR
from pnp.layout.elements.base import Layout
from pnp.layout.read import LayoutLoader
from pnp.load.game import load_game
from pnp.load.model import Deck, Game
from pnp.templates.expressions import Names, fill_in

if TYPE_CHECKING:
    from pnp.layout.tuckbox import Tuckbox

Pair = tuple[Layout, Layout | None]  # a front and its back


@dataclass(repr=False, eq=False)
class Project:
    """A loaded game with everything needed to draw it."""

    game: Game
    fonts: FontSet
    symbols: SymbolSet
    layouts: dict[str, Pair]  # deck id -> front, back (of its first card, when chosen per card); data-only decks have none
    problems: Problems
    card_sizes: dict[str, tuple[float, float]]  # every printed deck's trim size in mm (slots take theirs)
    per_card: dict[str, list[Pair]] = field(default_factory=dict)  # deck id -> each card's front and back, for decks that choose per card

    def card_layouts(self, deck_id: str, index: int) -> Pair:
        """The front and back of card `index` of a deck."""
        chosen = self.per_card.get(deck_id)
        return chosen[index] if chosen is not None else self.layouts[deck_id]

    def pairs(self, deck_id: str) -> list[Pair]:
        """Every front and back a deck's cards use, in the order of their first card."""
        chosen = self.per_card.get(deck_id)
        if chosen is None:
            return [self.layouts[deck_id]]
        return list({(front.name, back.name if back else None): (front, back) for front, back in chosen}.values())

    tuckboxes: dict[str, Tuckbox] = field(default_factory=dict)  # of the decks asked for
    layout_files: dict[str, tuple[Path, ...]] = field(default_factory=dict)  # layout name -> the files it was read from: what its faces depend on


def prepare(folder: Path, decks: list[str] | None = None, keep_going: bool = False) -> Project:
    """Load the game, its fonts, symbols and the layouts of `decks` (default: all); raise
    PnpError when something cannot be read. With `keep_going` (`pnp check`, a build's
    checks, the preview), only what makes the game unusable raises: a card with errors in
    its data is left out (load_game), a layout that cannot be read leaves its deck without
    faces, an element with a mistake is dropped, and the errors are in `problems`, so the
    check stage checks the rest. The checks are the check stage's (pnp/check/)."""
    game, problems = load_game(folder, keep_going)
    fonts = FontSet([game.root / "fonts", FONTS_DIR])
    symbols = SymbolSet(game.symbols)
    symbols.load_all(problems)
    loader = LayoutLoader(game.root)
    layouts: dict[str, Pair] = {}
    per_card: dict[str, list[Pair]] = {}
    if decks:
        for name in decks:
            if name not in game.decks:
                problems.error(game.loc, "deck-unknown", f"there is no deck '{name}'; expected one of: {', '.join(game.decks)}")
    card_sizes: dict[str, tuple[float, float]] = {}
    names: Names | None = None
    for deck in game.decks.values():
        if deck.front is None:  # data only: read by layouts and rules, never printed
            if decks and deck.id in decks:
                problems.warn(deck.loc, "deck-data-only", f"deck '{deck.id}' has no front layout: it is data only and is not printed")
            continue
        selected = not decks or deck.id in decks
        found = problems if selected else Problems()
        if "{" in deck.front or (deck.back and "{" in deck.back):  # chosen per card
            names = names or Names(game)
            chosen = _per_card(deck, loader, names, found)
            if chosen:
                card_sizes[deck.id] = chosen[0][0].size
                if selected:
                    per_card[deck.id] = chosen
                    layouts[deck.id] = chosen[0]
            continue
        front = loader.load(deck.front, deck.locs.get("front", deck.loc), found)
        if front is not None:
            card_sizes[deck.id] = front.size
        if not selected:
            continue
        back = loader.load(deck.back, deck.locs.get("back", deck.loc), problems) if deck.back else None
        if front:
            layouts[deck.id] = (front, back)
    tuckboxes: dict[str, Tuckbox] = {}
    if game.meta.tuckboxes:
        from pnp.layout.tuckbox import load_tuckboxes  # here for speed: only a game with tuck boxes plans their nets

        tuckboxes = load_tuckboxes(game, loader, card_sizes, set(layouts), problems)
    if not keep_going:
        problems.raise_if_errors()
    return Project(game, fonts, symbols, layouts, problems, card_sizes, per_card, tuckboxes, loader.files)


def _per_card(deck: Deck, loader: LayoutLoader, names: Names, problems: Problems) -> list[Pair] | None:
    """Each card's front and back, by the deck's templates; None when one cannot be had
    (reported at the deck's `front:` or `back:`, naming the card)."""
    chosen: list[Pair] = []
    ok = True
    for card in deck.cards:
        ctx = names.of(card)
        front = _choose(deck.front, "front", deck, card.id, ctx, loader, problems)
        back = _choose(deck.back, "back", deck, card.id, ctx, loader, problems) if deck.back else None
        if front is None or (deck.back and back is None):
            ok = False
            continue
        chosen.append((front, back))
    return chosen if ok and chosen else None


def _choose(source: str | None, side: str, deck: Deck, card_id: str, ctx: dict, loader: LayoutLoader, problems: Problems) -> Layout | None:
    loc: Location = deck.locs.get(side, deck.loc)
    name = fill_in(source or "", ctx, loc, f"deck '{deck.id}', card '{card_id}': cannot choose its {side} layout", problems)
    if name is None:
        return None
    name = name.strip()
    if not name:
        problems.error(
            loc,
            "layout-choice",
            f"deck '{deck.id}': the {side} layout of card '{card_id}' is empty; expected the template to give a layout name for every card",
        )
        return None
    return loader.load(name, loc, problems)
