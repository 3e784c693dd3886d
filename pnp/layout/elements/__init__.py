"""Element kinds of layouts, one module each (schema, checks and drawing), and the one
registry of them: the key that names a kind in a layout's `elements:` list -> its class.

A new kind is a module here, named like its key, with a dataclass whose first field is named like the key
(see base.ElementKind for the methods it may have), added to KINDS below. A kind's module
is imported when a layout first names it, for speed: a deck of cards does not load the
code of boards (tracks, grids, areas)."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pnp.layout.elements.base import ElementKind

KINDS: dict[str, str] = {  # the key, which is also its module's name here -> the class in it
    "rect": "Rect",
    "line": "Line",
    "polygon": "Polygon",
    "circle": "Circle",
    "text": "Text",
    "symbol": "SymbolEl",
    "image": "Image",
    "qr": "Qr",
    "track": "Track",
    "slot": "Slot",
    "legend": "Legend",
    "grid": "Grid",
    "hexgrid": "HexGrid",
    "areas": "Areas",
}


@cache
def kind_class(key: str) -> type[ElementKind]:
    """The class of the element kind a layout names by `key` (one of KINDS), its module
    imported now; found once per kind, as a layout names a kind for each of its elements."""
    return getattr(import_module(f"{__name__}.{key}"), KINDS[key])
