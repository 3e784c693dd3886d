"""Images placed on components: found inside the game folder only, checked once for size
(a decompression bomb is refused before it is decoded) and drawn by file name, so
reportlab stores each image once however many cards show it."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from .errors import Location, PnpError, fail
from .paths import LAYOUTS_DIR, resolve_inside

MAX_PIXELS = 50_000_000  # about 7000 x 7000: more than any card needs at 600 dpi


def find_image(name: str, game_root: Path, loc: Location, what: str) -> Path:
    """The image file `name` (relative to the game folder), checked; raises PnpError."""
    found = _locate(name, game_root)
    if isinstance(found, Path):
        return found
    code, message = found
    raise fail(loc, code, f"{what} '{name}' {message}")


@lru_cache(maxsize=1024)
def _locate(name: str, game_root: Path) -> Path | tuple[str, str]:
    """Checked once per file, however many cards use it: a path, or (code, reason)."""
    try:
        path = resolve_inside(name, game_root, [game_root, LAYOUTS_DIR], Location("?"), "image")
    except PnpError:
        return "path-outside", "points outside the game folder or is absolute; expected an image file inside the game folder"
    if not path.is_file():
        return "image-missing", "does not exist; expected an image file inside the game folder"
    try:
        with Image.open(path) as image:  # reads the header only
            width, height = image.size
            if width * height > MAX_PIXELS:
                return "image-too-large", f"is {width} x {height} pixels; expected at most {MAX_PIXELS:,} pixels (scale it down)"
            image.load()  # a truncated or corrupt file fails here, not while a PDF is drawn
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError) as exc:
        return "image-unreadable", f"cannot be read as an image ({exc}); expected a whole PNG or JPEG file"
    return path.resolve()


@lru_cache(maxsize=1024)
def image_size(path: str) -> tuple[int, int]:
    """Pixel size of an image already checked by find_image (header only)."""
    with Image.open(path) as image:
        return image.size
