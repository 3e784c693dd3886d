"""Tuck box layouts, and the tuck boxes of a game ready to draw (stage 1, load).

A tuck box layout says what is drawn on each face of a box, face by face:

    extends: mesta/base          # an ordinary layout: its styles (and lang_scale)
    styles: {...}                # more styles, as in any layout
    faces:
      front: [elements]          # the same element kinds as a card, in mm from the
      back: [elements]           # face's top left, the face upright
      spine: [elements]          # both sides of the box, as a landscape strip
      top: [elements]
      bottom: [elements]

A face's size comes from the deck (pnp/impose/tuckbox.py), so the layout has no `size:`;
a face the layout leaves out is left blank. The elements are read by the same code as a
card layout's (read.py), so a box shows every mistake a card would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnp.base.errors import Location, Problems
from pnp.impose.tuckbox import FACES, Net, plan_net
from pnp.layout.elements.base import ElementKind, Layout
from pnp.layout.read import LayoutLoader, StyleDef, read_elements, resolve_styles  # one reader of elements and styles for every layout
from pnp.layout.text import TextStyle
from pnp.load.model import Game
from pnp.load.schema import MISSING, build, suggest

MAX_NET = 2000.0  # mm: a net larger than this either way is a mistake (a layout is at most 2000 mm too)


@dataclass(repr=False, eq=False)
class BoxLayoutFile:
    """A tuck box's layout file as written: the elements of each face of the box."""

    faces: dict[str, list[Any]]
    extends: str | None = None  # an ordinary layout whose styles the faces use
    styles: dict[str, StyleDef] = field(default_factory=dict)
    doc: str = ""


@dataclass(repr=False, eq=False)
class BoxLayout:
    """A tuck box layout, resolved: its styles and the elements of each face it draws."""

    name: str
    styles: dict[str, TextStyle]
    lang_scale: dict[str, float]
    faces: dict[str, list[ElementKind]]
    loc: Location
    _layouts: dict[tuple[str, tuple[float, float]], Layout] = field(default_factory=dict, repr=False)

    def face_layout(self, face: str, size: tuple[float, float]) -> Layout:
        """One face as an ordinary layout of the face's size (made once per face and size),
        so that its elements draw as on any card."""
        key = (face, size)
        layout = self._layouts.get(key)
        if layout is None:
            layout = self._layouts[key] = Layout(f"{self.name}: {face}", size, 0.0, self.styles, self.faces.get(face, []), self.loc, self.lang_scale)
        return layout


@dataclass(repr=False, eq=False)
class Tuckbox:
    """A tuck box of the game: its deck, its net and its layout."""

    id: str
    deck: str
    net: Net
    layout: BoxLayout
    loc: Location  # where game.yaml declares it
    locs: dict[str, Location]  # of deck, layout, thickness, clearance


def load_box_layout(loader: LayoutLoader, name: str, loc: Location, problems: Problems) -> BoxLayout | None:
    """Read tuck box layout `name` (layouts/NAME.yaml, the game's or a bundled one)."""
    raw = loader.read(name, loc, problems, "a tuck box layout", "a mapping with faces (and styles)")
    if raw is None:
        return None
    shown = raw.loc.file
    if "faces" not in raw and ("elements" in raw or "size" in raw):
        problems.error(
            raw.loc,
            "tuckbox-layout",
            f"layout '{name}' is a card layout (size and elements); expected a tuck box layout, with 'faces:' naming the elements of {', '.join(FACES)}",
        )
        return None
    spec = build(BoxLayoutFile, raw, problems, f"tuck box layout '{name}'")
    if spec is MISSING:
        return None
    parent = loader.load(spec.extends, raw.loc_of("extends"), problems) if spec.extends else None
    if spec.extends and parent is None:
        return None
    styles = dict(parent.styles) if parent else {}
    styles.update(resolve_styles(spec.styles, styles, raw.get("styles"), problems))
    faces: dict[str, list[ElementKind]] = {}
    raw_faces = raw["faces"]
    for face, items in spec.faces.items():
        if face not in FACES:
            problems.error(
                raw_faces.key_locs.get(face, raw_faces.loc),
                "tuckbox-face",
                f"tuck box layout '{name}' has a face '{face}', which a tuck box does not have{suggest(face, FACES)}; expected one of: {', '.join(FACES)}",
            )
            continue
        faces[face] = read_elements(items, raw_faces[face], styles, problems)
    if not spec.faces:
        problems.error(raw.loc_of("faces"), "tuckbox-face", f"tuck box layout '{name}' draws no face; expected elements for some of: {', '.join(FACES)}")
    return BoxLayout(name, styles, dict(parent.lang_scale) if parent else {}, faces, Location(shown, 1, 1))


def load_tuckboxes(game: Game, loader: LayoutLoader, card_sizes: dict[str, tuple[float, float]], decks: set[str], problems: Problems) -> dict[str, Tuckbox]:
    """The tuck boxes of the printed decks in `decks`, each with its net and layout. What
    game.yaml says of them alone was checked when it was read (load/game.py)."""
    boxes: dict[str, Tuckbox] = {}
    for box_id, spec in game.meta.tuckboxes.items():
        if spec.deck not in decks or spec.deck not in card_sizes:  # not asked for, or reported (unknown deck, data only, no layout)
            continue
        locs, loc = spec._locs, spec._loc
        layout = load_box_layout(loader, spec.layout, locs.get("layout", loc), problems)
        card_w, card_h = card_sizes[spec.deck]
        deck = game.decks[spec.deck]
        net = plan_net(card_w, card_h, deck.count, spec.thickness, spec.clearance)
        if max(net.size) > MAX_NET:
            problems.error(
                locs.get("deck", loc),
                "tuckbox-size",
                f"tuck box '{box_id}' for {deck.count} cards of deck '{deck.id}' would be {net.depth:.0f} mm deep and its net {net.size[0]:.0f} x {net.size[1]:.0f} mm; "
                f"expected a net of at most {MAX_NET:.0f} mm (a box for part of the deck, or thinner cards)",
            )
            continue
        if layout is not None:
            boxes[box_id] = Tuckbox(box_id, spec.deck, net, layout, loc, locs)
    return boxes
