"""Element kinds of layouts, one module each (schema, checks and drawing), and the one
registry of them: the key that names a kind in a layout's `elements:` list -> its class.

A new kind is a module here with a dataclass whose first field is named like its key
(see base.ElementKind for the methods it may have), added to KINDS below. A kind's module
is imported when a layout first names it, for speed: a deck of cards does not load the
code of boards (tracks, grids, areas)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import ElementKind

KINDS: dict[str, tuple[str, str]] = {  # the key -> its module here, and the class in it
    "rect": ("rect", "Rect"),
    "line": ("line", "Line"),
    "polygon": ("polygon", "Polygon"),
    "circle": ("circle", "Circle"),
    "text": ("text", "Text"),
    "symbol": ("symbol", "SymbolEl"),
    "image": ("image", "Image"),
    "track": ("track", "Track"),
    "slot": ("slot", "Slot"),
    "legend": ("legend", "Legend"),
    "grid": ("grid", "Grid"),
    "hexgrid": ("hexgrid", "HexGrid"),
    "areas": ("areas", "Areas"),
}


def kind_class(key: str) -> type[ElementKind]:
    """The class of the element kind a layout names by `key` (one of KINDS), its module imported now."""
    module, name = KINDS[key]
    return getattr(import_module(f"{__name__}.{module}"), name)
