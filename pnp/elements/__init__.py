"""Element kinds of layouts, one module each (schema, checks and drawing), and the one
registry of them: the key that names a kind in a layout's `elements:` list -> its class.

A new kind is a module here with a dataclass whose first field is named like its key
(see base.ElementKind for the methods it may have), added to KINDS below."""

from __future__ import annotations

from .areas import Areas
from .base import ElementKind
from .circle import Circle
from .grid import Grid
from .hexgrid import HexGrid
from .image import Image
from .legend import Legend
from .line import Line
from .polygon import Polygon
from .rect import Rect
from .slot import Slot
from .symbol import SymbolEl
from .text import Text
from .track import Track

KINDS: dict[str, type[ElementKind]] = {
    "rect": Rect,
    "line": Line,
    "polygon": Polygon,
    "circle": Circle,
    "text": Text,
    "symbol": SymbolEl,
    "image": Image,
    "track": Track,
    "slot": Slot,
    "legend": Legend,
    "grid": Grid,
    "hexgrid": HexGrid,
    "areas": Areas,
}
