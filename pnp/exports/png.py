"""`pnp export png`: a PNG of every component face, rasterised as it prints (raster.py).
Files are named from deck and card ids (never from time or order of work), so the same
game gives the same files; a deck whose backs are all alike gets one back image. Each
PNG says in its text chunks the trim and the bleed it was drawn with (`exported_as`), so
that `pnp impose` puts it on sheets as it is without being told again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, UnidentifiedImageError
from reportlab.lib.units import mm

from pnp.exports.raster import (
    Exported,
    check_pixels,
    game_faces,
    image_digest,
    rasterise,
    save_image,
)

if TYPE_CHECKING:
    pass

TRIM_KEY = "pnp:trim-mm"  # a PNG's text chunk: the card's trim, "63x88"
BLEED_KEY = "pnp:bleed-mm"  # and the bleed the image holds beyond it on every side, "3"


def card_text(width_pt: float, height_pt: float, bleed: float) -> dict[str, str]:
    """The text chunks of a card face's PNG: its trim and bleed in mm."""
    return {TRIM_KEY: f"{round(width_pt / mm, 2):g}x{round(height_pt / mm, 2):g}", BLEED_KEY: f"{bleed:g}"}


def exported_as(path: Path) -> tuple[tuple[float, float], float] | None:
    """The trim (mm) and the bleed (mm a side) a PNG of `pnp export png` holds, as its text
    chunks say; None for any other image (or one that cannot be read: the caller says why)."""
    try:
        with Image.open(path) as image:
            trim, bleed = image.info.get(TRIM_KEY), image.info.get(BLEED_KEY)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError):
        return None
    if not isinstance(trim, str) or not isinstance(bleed, str):
        return None
    try:
        width, height = (float(part) for part in trim.split("x"))
        return (width, height), float(bleed)
    except ValueError:
        return None


def export_png(
    folder: Path,
    out: Path,
    dpi: int = 300,
    bleed: float = 0.0,
    lang: str | None = None,
    decks: list[str] | None = None,
    allow_untranslated: bool = False,
    force: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Exported:
    """One PNG per distinct face: out/GAME/png-LANG/DECK/ID-front.png and ID-back.png, or
    one back.png when every card of the deck has the same back; `bleed` mm of the art
    around each card's trim (layouts draw their backgrounds BLEED_MM out)."""
    edition, all_faces, problems = game_faces(folder, lang, decks, allow_untranslated, force)
    result = Exported(problems=problems)
    symbols = edition.project.symbols
    font = edition.project.fonts.get("sans").registered
    bleed_pt = bleed * mm
    check_pixels(all_faces, dpi, bleed_pt, problems)
    for faces in all_faces:
        where = out / edition.game.name / f"png-{edition.lang}" / faces.deck.id
        for card, face in zip(faces.deck.cards, faces.fronts):
            save_image(
                rasterise(face, symbols, dpi, bleed_pt, font), where / f"{card.id}-front.png", dpi, result.files, card_text(face.width, face.height, bleed)
            )
            if progress:
                progress(1)
        backs = [rasterise(face, symbols, dpi, bleed_pt, font) for face in faces.backs]
        texts = [card_text(face.width, face.height, bleed) for face in faces.backs]
        if backs and len({image_digest(image) for image in backs}) == 1:
            save_image(backs[0], where / "back.png", dpi, result.files, texts[0])
        else:
            for card, image, text in zip(faces.deck.cards, backs, texts):
                save_image(image, where / f"{card.id}-back.png", dpi, result.files, text)
        _remove_stale(where, result.files)
    return result


def _remove_stale(folder: Path, written: list[Path]) -> None:
    """Remove the faces an earlier export wrote that this one did not (a card renamed or
    removed, backs that became one back.png): the folder shows the deck as it is now.
    Only names pnp writes are touched, never a file the user put there."""
    keep = set(written)
    for path in folder.glob("*.png"):
        if path not in keep and (path.name == "back.png" or path.name.endswith(("-front.png", "-back.png"))):
            path.unlink()
