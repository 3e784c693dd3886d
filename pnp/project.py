"""Stage 1, load, for a whole game: the game's data (load.py) with the fonts, symbols and
layouts it is drawn with, read once and handed to every later stage as a `Project`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .elements.base import Layout
from .errors import Problems
from .fonts import FontSet
from .layouts import LayoutLoader
from .load import load_game
from .model import Game
from .paths import FONTS_DIR
from .symbols import SymbolSet
from .tuckboxlayout import Tuckbox, load_tuckboxes


@dataclass
class Project:
    """A loaded game with everything needed to draw it."""

    game: Game
    fonts: FontSet
    symbols: SymbolSet
    layouts: dict[str, tuple[Layout, Layout | None]]  # deck id -> front, back; data-only decks have none
    problems: Problems
    card_sizes: dict[str, tuple[float, float]]  # every printed deck's trim size in mm (slots take theirs)
    tuckboxes: dict[str, Tuckbox] = field(default_factory=dict)  # of the decks asked for


def prepare(folder: Path, decks: list[str] | None = None) -> Project:
    """Load the game, its fonts, symbols and the layouts of `decks` (default: all); raise
    PnpError when something cannot be read. The checks are the check stage's (check.py)."""
    game, problems = load_game(folder)
    fonts = FontSet([game.root / "fonts", FONTS_DIR])
    symbols = SymbolSet(game.symbols)
    symbols.load_all(problems)
    loader = LayoutLoader(game.root)
    layouts: dict[str, tuple[Layout, Layout | None]] = {}
    if decks:
        for name in decks:
            if name not in game.decks:
                problems.error(game.loc, "deck-unknown", f"there is no deck '{name}'; expected one of: {', '.join(game.decks)}")
    card_sizes: dict[str, tuple[float, float]] = {}
    for deck in game.decks.values():
        if deck.front is None:  # data only: read by layouts and rules, never printed
            if decks and deck.id in decks:
                problems.warn(deck.loc, "deck-data-only", f"deck '{deck.id}' has no front layout: it is data only and is not printed")
            continue
        selected = not decks or deck.id in decks
        front = loader.load(deck.front, deck.locs.get("front", deck.loc), problems if selected else Problems())
        if front is not None:
            card_sizes[deck.id] = front.size
        if not selected:
            continue
        back = loader.load(deck.back, deck.locs.get("back", deck.loc), problems) if deck.back else None
        if front:
            layouts[deck.id] = (front, back)
    tuckboxes = load_tuckboxes(game, loader, card_sizes, set(layouts), problems)
    problems.raise_if_errors()
    return Project(game, fonts, symbols, layouts, problems, card_sizes, tuckboxes)
