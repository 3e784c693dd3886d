"""`pnp export png`: a PNG of every component face, rasterised as it prints (raster.py).
Files are named from deck and card ids (never from time or order of work), so the same
game gives the same files; a deck whose backs are all alike gets one back image."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

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
            save_image(rasterise(face, symbols, dpi, bleed_pt, font), where / f"{card.id}-front.png", dpi, result.files)
            if progress:
                progress(1)
        backs = [rasterise(face, symbols, dpi, bleed_pt, font) for face in faces.backs]
        if backs and len({image_digest(image) for image in backs}) == 1:
            save_image(backs[0], where / "back.png", dpi, result.files)
        else:
            for card, image in zip(faces.deck.cards, backs):
                save_image(image, where / f"{card.id}-back.png", dpi, result.files)
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
