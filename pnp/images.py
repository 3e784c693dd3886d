"""Images placed on components: found inside the game folder only, checked once for size
(a decompression bomb is refused before it is decoded) and drawn by file name, so
reportlab stores each image once however many cards show it."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from .errors import Location, fail
from .paths import LAYOUTS_DIR, resolve_inside

MAX_PIXELS = 50_000_000  # about 7000 x 7000: more than any card needs at 600 dpi


@lru_cache(maxsize=1024)
def image_size(path: Path) -> tuple[int, int]:
    with Image.open(path) as image:  # reads the header only
        return image.size


@lru_cache(maxsize=1024)
def find_image(name: str, game_root: Path, loc: Location, what: str) -> Path:
    """The image file `name` (relative to the game folder), checked; raises PnpError."""
    path = resolve_inside(name, game_root, [game_root, LAYOUTS_DIR], loc, what)
    if not path.is_file():
        raise fail(loc, "image-missing", f"{what} '{name}' does not exist; expected an image file inside the game folder")
    try:
        width, height = image_size(path.resolve())
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise fail(loc, "image-unreadable", f"{what} '{name}' cannot be read as an image ({exc}); expected a PNG or JPEG file") from None
    if width * height > MAX_PIXELS:
        raise fail(loc, "image-too-large", f"{what} '{name}' is {width} x {height} pixels; expected at most {MAX_PIXELS:,} pixels (scale it down)")
    return path.resolve()
