"""`pnp export png`: a PNG of every component face, rasterised as it prints (raster.py).
Files are named from deck and card ids (never from time or order of work), so the same
game gives the same files; a deck whose backs all draw the same (raster.art_key, found
without rasterising them) gets one back image. Faces are laid out as they are drawn
(raster.DeckFaces), never all held. Each image is written as soon as it is
rendered (raster.render_all): one image in memory at a time. Each PNG says in its text
chunks the trim and the bleed it was drawn with and its side (`exported_card`), so that `pnp impose` puts the deck's folder on sheets as it is, its
backs behind its fronts, without being told again. Every file goes into one
transaction: they are moved into place together at the end, the earlier export's faces
this one does not write are removed then, and a failed or interrupted export leaves the
previous one as it was."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from PIL import Image, UnidentifiedImageError
from reportlab.lib.units import mm

from pnp.base.output import Transaction, transaction
from pnp.exports.raster import Exported, check_pixels, face_job, game_faces, render_all, save_image

TRIM_KEY = "pnp:trim-mm"  # a PNG's text chunk: the card's trim, "63x88"
BLEED_KEY = "pnp:bleed-mm"  # and the bleed the image holds beyond it on every side, "3"
SIDE_KEY = "pnp:side"  # and which side of the card it is, "front" or "back"


def card_text(width_pt: float, height_pt: float, bleed: float, side: str) -> dict[str, str]:
    """The text chunks of a card face's PNG: its trim and bleed in mm, and its side."""
    return {TRIM_KEY: f"{round(width_pt / mm, 2):g}x{round(height_pt / mm, 2):g}", BLEED_KEY: f"{bleed:g}", SIDE_KEY: side}


@dataclass(frozen=True)
class PngCard:
    """What a PNG of `pnp export png` says of itself in its text chunks."""

    side: str  # "front" or "back" (for a PNG written before its side was, as its name says: back.png, ID-back.png)
    held: tuple[tuple[float, float], float] | None  # its trim (mm) and the bleed it holds (mm a side); None if not readable

    @property
    def is_back(self) -> bool:
        return self.side == "back"


def exported_card(path: Path) -> PngCard | None:
    """What `path` says of itself if `pnp export png` wrote it, read once (its header only);
    None for any other image, or one that cannot be read (the caller says why). `pnp
    impose` of an exported deck's folder takes its backs as backs, and its trim and bleed
    as they are."""
    try:
        with Image.open(path) as image:
            trim, bleed, side = image.info.get(TRIM_KEY), image.info.get(BLEED_KEY), image.info.get(SIDE_KEY)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError):
        return None
    if not isinstance(trim, str):
        return None
    if side not in ("front", "back"):
        side = "back" if path.name == "back.png" or path.name.endswith("-back.png") else "front"
    held = None
    if isinstance(bleed, str):
        try:
            width, height = (float(part) for part in trim.split("x"))
            held = (width, height), float(bleed)
        except ValueError:
            pass
    return PngCard(side, held)


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
    with transaction() as txn:
        for faces in all_faces:
            where = out / edition.game.name / f"png-{edition.lang}" / faces.deck.id
            cards = faces.deck.cards
            one_back = faces.one_back()
            backs = [0] if one_back else range(len(faces.back_sizes))
            names = [f"{card.id}-front.png" for card in cards] + (["back.png"] if one_back else [f"{card.id}-back.png" for card in cards[: len(backs)]])
            sizes = [*faces.front_sizes, *(faces.back_sizes[i] for i in backs)]
            drawn = chain(faces.fronts(), faces.backs(backs))  # each face laid out as it is drawn, then dropped
            jobs = (face_job(face, symbols, dpi, bleed_pt) for face in drawn)
            for number, (name, (width, height), image) in enumerate(zip(names, sizes, render_all(jobs, font))):
                save_image(image, where / name, dpi, result.files, txn, card_text(width, height, bleed, "front" if number < len(cards) else "back"))
                if progress and number < len(cards):
                    progress(1)
            _remove_stale(where, result.files, txn)
    return result


def _remove_stale(folder: Path, written: list[Path], txn: Transaction) -> None:
    """Remove, when the export commits, the faces an earlier export wrote that this one did
    not (a card renamed or removed, backs that became one back.png): the folder shows the
    deck as it is now. Only names pnp writes are touched, never a file the user put there."""
    keep = set(written)
    for path in folder.glob("*.png"):
        if path not in keep and (path.name == "back.png" or path.name.endswith(("-front.png", "-back.png"))):
            txn.remove(path)
