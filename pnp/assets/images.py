"""Images placed on components: found inside the game folder only, checked once per version
of the file for size (a decompression bomb is refused before it is decoded) and drawn by
file name, so reportlab stores each image once however many cards show it. What is
remembered is kept per version of the file (base.versions), as manifest.file_hash is: an
image replaced while the watcher runs is seen as it is now."""

from __future__ import annotations

from pathlib import Path
from stat import S_ISREG

from PIL import Image, UnidentifiedImageError

from pnp.base.errors import Location, PnpError, fail
from pnp.base.paths import LAYOUTS_DIR, resolve_inside
from pnp.base.versions import Version, per_version

MAX_PIXELS = 50_000_000  # about 7000 x 7000: more than any card needs at 600 dpi


def find_image(name: str, game_root: Path, loc: Location, what: str, known: dict[str, Path | tuple[str, str]] | None = None, source: str = "") -> Path:
    """The image file `name` (relative to the game folder), checked; raises PnpError whose
    message is `what 'name'source ...` (source: where the name comes from, " (field 'art')").
    `known`: what one build found already, by name: a build draws an image on every card,
    and resolving its path (every symlink, against the game folder) for each would be the
    slow part of drawing it; the next build starts with none known and resolves it anew."""
    found = known.get(name) if known is not None else None
    if found is None:
        found = _locate(name, game_root)
        if known is not None:
            known[name] = found
    if isinstance(found, Path):
        return found
    code, message = found
    raise fail(loc, code, f"{what} '{name}'{source} {message}")


def _locate(name: str, game_root: Path) -> Path | tuple[str, str]:
    """A path, or (code, reason): resolved every time (a file may be added, removed or
    replaced while the watcher runs), checked once per version of the file."""
    try:
        path = resolve_inside(name, game_root, [game_root, LAYOUTS_DIR], Location("?"), "image", real=True)
    except PnpError as err:
        if err.problems.items and err.problems.items[0].code == "path-url":
            return "path-url", "is a web address; pnp fetches nothing but a deck's data (data:); expected an image file inside the game folder"
        return "path-outside", "points outside the game folder or is absolute; expected an image file inside the game folder"
    try:
        stat = path.stat()
    except OSError:
        stat = None
    if stat is None or not S_ISREG(stat.st_mode):
        return "image-missing", "does not exist; expected an image file inside the game folder"
    return _check.at(path, Version.of(stat))  # the stat that found a file gives its version


@per_version(maxsize=1024)
def _check(path: Path) -> Path | tuple[str, str]:
    """Checked once per version of a file, however many cards use it."""
    if path.suffix.lower() == ".svg":
        return "image-svg", (
            "is an SVG file; expected a PNG or JPEG file (pnp draws an SVG as a symbol: put it in the game's symbols folder "
            "and name it without '.svg' in a 'symbol:' element, or as :name: in the rulebook)"
        )
    try:
        with Image.open(path) as image:  # reads the header only
            width, height = image.size
    except UnidentifiedImageError:
        return "image-unreadable", "is not an image file pnp can read; expected a PNG or JPEG file"
    except Image.DecompressionBombError:
        return "image-too-large", f"has too many pixels to be read safely; expected at most {MAX_PIXELS:,} pixels (scale it down)"
    except OSError as exc:
        return "image-unreadable", f"cannot be read as an image ({exc.strerror or type(exc).__name__}); expected a PNG or JPEG file"
    if width * height > MAX_PIXELS:
        return "image-too-large", f"is {width} x {height} pixels; expected at most {MAX_PIXELS:,} pixels (scale it down)"
    try:  # decoded once, here, so that drawing never meets a truncated or damaged file
        with Image.open(path) as image:
            image.verify()  # checksums (PNG)
        with Image.open(path) as image:
            image.load()  # every pixel (a JPEG cut short)
    except Exception as exc:  # Pillow raises many kinds for damaged data
        return "image-damaged", f"is damaged ({exc or type(exc).__name__}); expected a complete PNG or JPEG file (export it again)"
    return path


@per_version(maxsize=1024)
def image_size(path: str) -> tuple[int, int]:
    """Pixel size of an image already checked by find_image (header only), read again
    when the file changes."""
    with Image.open(path) as image:
        return image.size
