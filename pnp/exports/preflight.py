"""A print shop's preflight: what on the drawn faces the shop will not print well, named by
card and layout element, once per element (not once per card).

- Text in the unsafe zone: the box of a layout element that set text on a face (its `box`,
  or where its lines are when it has none) reaches nearer the trim than the shop's safe
  zone allows; the cut may take it.
- Images under the shop's resolution: a picture drawn on a face at fewer pixels per inch,
  at the shop's card size, than the shop wants; it prints blurred.

Both are warnings: the files are still written, and the user decides.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.units import mm

from pnp.assets.images import image_size
from pnp.base.errors import Location, Problems
from pnp.exports.shops import Shop
from pnp.layout.faces import Face, GroupOp, ImageOp, Op, TextOp
from pnp.load.model import Card

DESCENT = 0.25  # of the font size below the last baseline, for text without a box


@dataclass(repr=False, eq=False)
class FaceParts:
    """One drawn face and what each layout element drew on it."""

    card: Card
    side: str
    face: Face
    parts: list[tuple[object, list[Op]]]


@dataclass(repr=False, eq=False)
class _Finding:
    loc: Location
    what: str  # "text 'title'" or "image 'art/x.png'"
    cards: list[str] = field(default_factory=list)
    worst: float = 0.0  # mm into the unsafe zone, or the lowest ppi


def _name(el: object) -> str:
    kind = type(el).__name__.lower()
    label = getattr(el, "name", None) or getattr(el, "text", None)
    return f"{kind} '{label}'" if isinstance(label, str) and label else kind


def _text_box(el: object, op: TextOp, face: Face) -> tuple[float, float, float, float]:
    """left, bottom, right, top in points on the face: the element's box, else the lines' ink."""
    box = getattr(el, "box", None)
    if box is not None and len(box) == 4:
        x, y, w, h = box
        return x * mm, face.height - (y + h) * mm, (x + w) * mm, face.height - y * mm
    text = op.text
    pieces = [p for line in text.lines for p in line]
    left = op.x + min((p.x for p in pieces), default=0.0)
    right = op.x + max((p.x + p.width for p in pieces), default=0.0)
    top = op.baseline + text.ascent
    bottom = op.baseline - (len(text.lines) - 1) * text.leading - DESCENT * text.size
    return left, bottom, right, top


def _flat(ops: list[Op] | tuple[Op, ...], group: GroupOp | None = None):
    """Each operation with the turned group it is drawn in (an element's `rotate:`), if any."""
    for op in ops:
        if isinstance(op, GroupOp):
            yield from _flat(op.ops, op if op.angle % 360 else group)
        else:
            yield op, group


def _turned(box: tuple[float, float, float, float], group: GroupOp | None) -> tuple[float, float, float, float]:
    """left, bottom, right, top of a box once turned with its group: the bounds of its corners."""
    if group is None:
        return box
    left, bottom, right, top = box
    a = math.radians(group.angle)
    corners = [(x - group.cx, y - group.cy) for x in (left, right) for y in (bottom, top)]
    xs = [group.cx + dx * math.cos(a) - dy * math.sin(a) for dx, dy in corners]
    ys = [group.cy + dx * math.sin(a) + dy * math.cos(a) for dx, dy in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _ppi(op: ImageOp, scale: tuple[float, float]) -> float | None:
    """Pixels per inch of the image as printed at the shop's size; None for vector art."""
    if not op.path.lower().endswith((".png", ".jpg", ".jpeg", ".gif", ".webp", ".tif", ".tiff", ".bmp")):
        return None
    iw, ih = image_size(op.path)
    sx, sy = op.w / iw, op.h / ih  # points per pixel, stretched
    if op.fit == "contain":
        sx = sy = min(sx, sy)
    elif op.fit == "cover":
        sx = sy = max(sx, sy)
    return min(72 / (sx * scale[0]), 72 / (sy * scale[1]))


def preflight(shop: Shop, deck_id: str, faces: Iterable[FaceParts], scale: tuple[float, float], problems: Problems) -> list[str]:
    """Warn (into `problems`) about text in the shop's unsafe zone and images under its
    resolution on these faces, drawn at `scale` (the shop's trim over the face's, per
    axis); returns the same as lines for preflight.txt."""
    texts: dict[tuple[int, str], _Finding] = {}
    images: dict[tuple[int, str], _Finding] = {}
    for fp in faces:
        face = fp.face
        inset_x, inset_y = shop.safe_in * 72 / scale[0], shop.safe_in * 72 / scale[1]  # face points
        for el, ops in fp.parts:
            loc = getattr(el, "_loc", Location("?"))
            for op, group in _flat(ops):
                if isinstance(op, TextOp):
                    left, bottom, right, top = _turned(_text_box(el, op, face), group)
                    into = max(
                        (inset_x - left) * scale[0],
                        (right - (face.width - inset_x)) * scale[0],
                        (inset_y - bottom) * scale[1],
                        (top - (face.height - inset_y)) * scale[1],
                    )
                    if into > 0.01 * mm:
                        finding = texts.setdefault((id(el), fp.side), _Finding(loc, f"{_name(el)} ({fp.side})"))
                        if fp.card.id not in finding.cards:
                            finding.cards.append(fp.card.id)
                        finding.worst = max(finding.worst, into / mm)
                        break  # one finding per element and face
                elif isinstance(op, ImageOp):
                    ppi = _ppi(op, scale)
                    if ppi is not None and ppi < shop.dpi - 0.5:
                        finding = images.setdefault((id(el), op.path), _Finding(loc, f"image '{Path(op.path).name}' ({fp.side})", worst=ppi))
                        if fp.card.id not in finding.cards:
                            finding.cards.append(fp.card.id)
                        finding.worst = min(finding.worst, ppi)
    lines = []
    safe_mm = shop.safe_in * 25.4
    for f in texts.values():
        message = (
            f"deck '{deck_id}': {f.what} of {cards_text(f.cards)} reaches {f.worst:.1f} mm into {shop.name}'s unsafe zone, the outer {safe_mm:.1f} mm of the card, "
            f"which the cut may take; expected its box at least {safe_mm:.1f} mm inside the trim"
        )
        problems.warn(f.loc, "shop-unsafe-zone", message)
        lines.append(f"{f.loc}: {message} [shop-unsafe-zone]")
    for f in images.values():
        message = (
            f"deck '{deck_id}': {f.what} on {cards_text(f.cards)} prints at {f.worst:.0f} pixels per inch at {shop.name}'s card size; "
            f"expected at least {shop.dpi} (a larger image file)"
        )
        problems.warn(f.loc, "shop-resolution", message)
        lines.append(f"{f.loc}: {message} [shop-resolution]")
    return lines


def cards_text(ids: list[str], shown: int = 3) -> str:
    names = ", ".join(f"'{c}'" for c in ids[:shown])
    more = len(ids) - shown
    return f"card {names}" if len(ids) == 1 else f"cards {names}" + (f" and {more} more" if more > 0 else "")
