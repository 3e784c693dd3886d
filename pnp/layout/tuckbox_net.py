"""Stage 3, lay out a tuck box: its net as one Face. Each face of the layout is set like a
card face (renderer.Renderer), at the size of its panel, and placed on the net turned as
the folded box needs (pnp/impose/tuckbox.py says how); over the art, the fold lines
(dashed) and the cut outline (solid). The writers draw it like any other face."""

from __future__ import annotations

from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.units import mm

from pnp.impose.sheets import MARK_WIDTH
from pnp.impose.tuckbox import BLEED, FacePlace
from pnp.layout.faces import BLACK, Face, FaceOp, LineOp, Op, ShapeOp
from pnp.layout.renderer import Renderer
from pnp.layout.tuckbox import Tuckbox
from pnp.load.model import Card

FOLD_GREY = Color(0.45, 0.45, 0.45)
FOLD_DASH = (3.0, 2.0)  # points: a dashed line is a fold, a solid one a cut


def box_names(renderer: Renderer, box: Tuckbox) -> dict[str, Any]:
    """What a tuck box layout's templates see: the game's names and `box`: its id, its deck
    (`deck`, `name`: the deck's name in this language, `cards`: copies counted) and its
    inner size in mm."""
    deck = renderer.game.decks[box.deck]
    net = box.net
    view = {"id": box.id, "deck": deck.id, "name": deck.name, "cards": deck.count, "width": net.width, "height": net.height, "depth": net.depth}
    return renderer.names.of_game(box=view)


def box_face(renderer: Renderer, box: Tuckbox, problems: Any) -> Face:
    """The whole net of `box`, art, folds and cut, in points from its bottom left."""
    deck = renderer.game.decks[box.deck]
    stand_in = Card(box.id, deck.type, deck.id, {}, 1, box.loc, {})  # what messages about its texts point at: the box in game.yaml
    ctx = box_names(renderer, box)
    drawn: dict[str, Face] = {}  # both spines are one face, set once
    ops: list[Op] = []
    for place in box.net.faces:
        if place.face not in box.layout.faces:
            continue
        face = drawn.get(place.face)
        if face is None:
            layout = box.layout.face_layout(place.face, place.size)
            where = f"tuck box '{box.id}' ({place.face}, layout '{box.layout.name}')"
            face = drawn[place.face] = renderer.draw(stand_in, layout, ctx, where, f"{box.id} ({place.face})", problems)
        ops.append(_placed(face, place))
    for x1, y1, x2, y2 in box.net.folds:
        ops.append(LineOp(x1 * mm, y1 * mm, x2 * mm, y2 * mm, FOLD_GREY, MARK_WIDTH, FOLD_DASH))
    outline = tuple((x * mm, y * mm) for x, y in box.net.outline)
    ops.append(ShapeOp(outline, True, None, BLACK, MARK_WIDTH))
    width, height = box.net.size
    return Face(f"{box.id} (tuck box)", width * mm, height * mm, tuple(ops))


def _placed(face: Face, place: FacePlace) -> FaceOp:
    """A face on its panel, turned, its art clipped to the panel and its cut edges' bleed."""
    p = place.panel
    left, bottom, right, top = place.bleed
    clip = ((p.x - left) * mm, (p.y - bottom) * mm, (p.w + left + right) * mm, (p.h + bottom + top) * mm)
    return FaceOp(face, p.x * mm, p.y * mm, place.angle, BLEED * mm, clip)
