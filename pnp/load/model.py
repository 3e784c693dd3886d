"""The typed model every later stage works on: a game, its decks, cards and rules types.

Everything here is plain data with the location it was read from, so any stage can say
`file:line:col` about any value without going back to the YAML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pnp.base.errors import Location

LANGUAGE = re.compile(r"[a-z]{2,3}(_[A-Za-z0-9]{2,8})*")  # with fullmatch: a gettext locale name; it goes into file names (LANG.po)
FieldKind = Literal["text", "int", "number", "bool", "enum", "list", "symbol", "image", "table", "points"]


class EnumValue(str):
    """An enumeration value: compares and prints as its id, and exposes the entry's
    attributes (`empire.name`, `empire.color`) to layout templates."""

    attrs: dict[str, Any]

    def __new__(cls, value: str, attrs: dict[str, Any]) -> EnumValue:
        obj = super().__new__(cls, value)
        obj.attrs = attrs
        return obj

    def __getattr__(self, name: str) -> Any:
        try:
            return self.attrs[name]
        except KeyError:
            raise AttributeError(name) from None

    def __reduce__(self) -> tuple:
        return (EnumValue, (str(self), self.attrs))


# --- the tool's own file formats, read by schema.build --------------------------------


THICKNESS = 0.3  # mm per card: a common 300 gsm card; sleeved cards are about 0.6


CLEARANCE = 1.0  # mm added to every inner side, so the deck slides in and out


@dataclass(repr=False, eq=False)
class FieldDef:
    """One field of a component type, as declared in rules.yaml."""

    type: FieldKind
    enum: str | None = None  # for enum, or list of enum
    item: FieldKind | None = None  # for list: the type of each item
    required: bool | None = None  # default: required unless a default is given
    default: Any = None
    min: float | None = None
    max: float | None = None
    translate: bool = True  # for text: goes to the translators' catalogue
    markup: bool = True  # for text: false prints it as written ('*' and ':' are not markup)
    glossary: bool = True  # for text: checked against the glossary (off for proper names)
    fields: dict[str, FieldDef] | None = None  # for table: what each row holds, checked like a card's fields
    doc: str = ""

    @property
    def needed(self) -> bool:
        """Whether a card must give the field: as declared, else when there is no default
        to take (a bool without one is false)."""
        return self.required if self.required is not None else self.default is None and self.type != "bool"


@dataclass(repr=False, eq=False)
class TypeDef:
    """A card type of rules.yaml: the fields its cards have."""

    fields: dict[str, FieldDef]
    doc: str = ""


@dataclass(repr=False, eq=False)
class RulesFile:
    """rules.yaml: the game's types and enumerations (constraints come with `pnp check`)."""

    enums: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    types: dict[str, TypeDef] = field(default_factory=dict)
    constraints: list[Any] = field(default_factory=list)  # read by check.constraints.base.load_constraints
    translate: list[str] = field(default_factory=lambda: ["name"])  # enum attributes that are texts


@dataclass(repr=False, eq=False)
class DeckDef:
    """A deck as game.yaml declares it: its type, data file and layouts."""

    type: str  # a type from rules.yaml
    data: str  # the data file (YAML, CSV or XLSX), relative to the game folder
    front: str | None = None  # layout name; none: a data-only deck (checked, translated, read by layouts, not printed)
    back: str | None = None  # layout name of the card back
    name: str = ""  # shown on sheets and in messages
    sheet: str | None = None  # for an XLSX data file: the sheet (default: the first)
    group: str | None = None  # decks of one group share sheets and one PDF, named after the group
    columns: dict[str, str] = field(default_factory=dict)  # spreadsheet header -> field, copies, id or ignore
    ids: str | None = None  # a spreadsheet column whose values, slugged, are the cards' ids
    markup: bool = True  # false: the cards' texts print as written, '*' and ':' included


@dataclass(repr=False, eq=False)
class DealsDef:
    """Game set-ups: which components a deal uses (`include`, an expression evaluated
    per component with `deal` bound), and the deals themselves as data of a type."""

    data: str  # file with the list of deals
    type: str = "deal"  # their type in rules.yaml
    include: str = "true"


@dataclass(repr=False, eq=False)
class FactDef:
    """A hand-written number a rulebook may state: a number directly before one of
    `words` (a regular expression alternation) must equal `value` (a template)."""

    words: str
    value: str


@dataclass(repr=False, eq=False)
class RulebookDef:
    """A rulebook: Markdown files in order (pnp/rulebook/, docs/rulebook.md)."""

    files: list[str]
    title: str = ""  # translated; default: the rulebook id
    modes: list[str] = field(default_factory=list)  # one rulebook per mode
    facts: list[FactDef] = field(default_factory=list)
    numbering: bool = True  # headings numbered 1, 1.1, 1.1.1 (False: a rulebook's plain headings)
    cover: list[str] = field(default_factory=list)  # cards drawn on the cover, DECK/ID (templates: `mode`); default: a card of each deck
    _loc: Location = field(default=Location("?"), repr=False)
    _cover_locs: list[Location] = field(default_factory=list, repr=False)  # where each of `cover` is written, for its messages


@dataclass(repr=False, eq=False)
class TuckboxDef:
    """A tuck box for a deck (pnp/impose/tuckbox.py): sized from the deck's card size, its
    number of cards (copies counted) and a card's thickness; its faces drawn by a tuck box
    layout."""

    deck: str  # the deck it holds
    layout: str  # a tuck box layout: elements per face (front, back, spine, top, bottom)
    thickness: float = THICKNESS  # mm per card
    clearance: float = CLEARANCE  # mm added to the inner width, height and depth
    _loc: Location = field(default=Location("?"), repr=False)
    _locs: dict[str, Location] = field(default_factory=dict, repr=False)  # of each key given (game.py)


@dataclass(repr=False, eq=False)
class GameFile:
    """game.yaml: metadata and the components the game is made of."""

    title: str
    language: str  # the source language of every text in the folder
    decks: dict[str, DeckDef]
    author: str = ""
    publisher: str = ""
    edition: str = ""
    licence: str = ""
    attribution: str = ""
    url: str = ""
    rules: str = "rules.yaml"
    symbols: str = "symbols"  # folder of SVG files, one symbol each
    strings: dict[str, str] = field(default_factory=dict)  # texts layouts print
    symbol_names: dict[str, str] = field(default_factory=dict)  # symbol id -> its name in legends
    deals: DealsDef | None = None
    glossary: str = "glossary.yaml"  # canonical terms and their forms (optional file)
    rulebooks: dict[str, RulebookDef] = field(default_factory=dict)  # rulebook id -> its files
    tuckboxes: dict[str, TuckboxDef] = field(default_factory=dict)  # box id -> its deck and layout
    # The game's default sheet options (paper, sides, bleed, outer_bleed, back_bleed, gap, overlap, corner_radius),
    # below the player's own: read and checked before the build by pnp/load/settings.py.
    sheet: dict[str, Any] = field(default_factory=dict)
    # Words the hyphenation patterns split wrongly, per language, with their allowed breaks
    # ('Drachen-blut-eli-xier'; a word without hyphens never breaks): layout/typography.py.
    hyphenation: dict[str, list[str]] = field(default_factory=dict)
    # How each language's layouts run: 'rtl' mirrors them left to right for that language's
    # faces (renderer.py), 'ltr' (the default) prints them as drawn: docs/game.md.
    direction: dict[str, Literal["rtl", "ltr"]] = field(default_factory=dict)


def game_info(meta: GameFile) -> dict[str, str]:
    """What templates see as `game`: the metadata a card, board or rulebook may print."""
    keys = ("title", "author", "publisher", "edition", "licence", "attribution", "url")
    return {key: getattr(meta, key) for key in keys}


# --- the loaded game -------------------------------------------------------------------


@dataclass(repr=False)
class Card:
    """One distinct card (or other component); `copies` says how many are printed."""

    id: str
    type: str
    deck: str
    fields: dict[str, Any]
    copies: int
    loc: Location
    field_locs: dict[str, Location]

    def loc_of(self, name: str) -> Location:
        """Where a field's value is; `name` may be a path into a list or table,
        `neighbours.2` or `hexes.3.terrain`, falling back to the nearest enclosing value."""
        while name not in self.field_locs and "." in name:
            name = name.rsplit(".", 1)[0]
        return self.field_locs.get(name, self.loc)


def title_of(fields_: dict[str, Any]) -> str | None:
    """A component's title as the manifest's errata, the preview and the exports show it:
    its `title` field, else its `name`; None without either."""
    for name in ("title", "name"):
        value = fields_.get(name)
        if value not in (None, ""):
            return str(value)
    return None


# The names pnp provides to every expression and template about a component (what each is,
# for messages and docs): templates/expressions.py builds the context from these, and no
# field may be named like one (load/game.py), so `{{ type }}` and `card.type` never mean
# one thing on one game and another on the next. The first four are the component's own.
COMPONENT_NAMES: dict[str, str] = {
    "id": "the component's id",
    "type": "the component's type, as rules.yaml names it",
    "copies": "how many copies of the component are printed",
    "deck": "the id of the component's deck",
}
GAME_NAMES: dict[str, str] = {
    "card": "the component the expression is about",
    "game": "the game.yaml metadata",
    "strings": "the game's strings",
    "symbol_names": "the names of the game's symbols",
    "enums": "the game's enumerations",
    "decks": "every deck's components",
    "component": "the function component(deck, id)",
    "components": "every component of the game",
    "deals": "the game's deals",
    "values": "the helper values(cards, field, ...)",
    "total": "the helper total(cards)",
    "_pnp_plurals": "the plural rules of the game's language",
}
PROVIDED_NAMES: dict[str, str] = {**COMPONENT_NAMES, **GAME_NAMES}
_INSTEAD = {"type": "kind", "deck": "set", "card": "item", "game": "edition"}


def another_name(name: str) -> str:
    """A name to suggest for a field that may not be called `name`."""
    return _INSTEAD.get(name, f"card_{name.strip('_')}")


@dataclass(repr=False, eq=False)
class Deck:
    """A deck as loaded: its cards, checked against its type."""

    id: str
    name: str
    type: str
    front: str | None  # None: data only, never printed
    back: str | None
    cards: list[Card]
    loc: Location
    locs: dict[str, Location] = field(default_factory=dict)  # of front, back, data, ...
    group: str | None = None  # printed on shared sheets with the other decks of the group

    @property
    def count(self) -> int:
        """Copies printed of all the cards."""
        return sum(self.copies())

    def card_id(self, index: int) -> str:
        """The id of card `index` (a packed deck keeps them: not unpacked here)."""
        packed = getattr(self.cards, "card_id", None)  # packed.PackedCards
        return packed(index) if packed is not None else self.cards[index].id

    def copies(self) -> list[int]:
        """Copies printed of each card (a packed deck has counted them: not unpacked here)."""
        counts = getattr(self.cards, "counts", None)  # packed.PackedCards
        return list(counts) if counts is not None else [card.copies for card in self.cards]


@dataclass(repr=False, eq=False)
class Game:
    """A game folder as loaded and checked: what every later stage reads."""

    root: Path  # the game folder
    meta: GameFile
    enums: dict[str, dict[str, EnumValue]]
    types: dict[str, TypeDef]
    decks: dict[str, Deck]
    symbols: dict[str, Path]
    loc: Location
    constraints: Any = None  # the located `constraints:` list of rules.yaml
    deals: list[Card] = field(default_factory=list)
    glossary: list[Any] = field(default_factory=list)  # glossary.Term
    translate_attributes: list[str] = field(default_factory=lambda: ["name"])
    locs: dict[str, Location] = field(default_factory=dict)  # of game.yaml's keys (author, licence, ...)
    plurals: Any = None  # plurals.Plurals of a translated copy: its plural rule and forms (None: the source language's)
    left_out: list[Card] = field(default_factory=list)  # cards with errors in their own data, in no deck (load_game's keep_going)

    @property
    def name(self) -> str:
        """The folder's own name, also for `.`, `..` or a link: it names the output folder."""
        return self.root.resolve().name

    def cards(self) -> list[Card]:
        return [card for deck in self.decks.values() for card in deck.cards]
