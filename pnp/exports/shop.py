"""`pnp export shop`: a game's decks as a print shop takes them (profiles in shops.py).

Per deck, in OUT/GAME/shop-KEY-LANG/DECK/: one image per card face at the shop's exact
pixel size with its bleed, named with the card's quantity (`03x-caesar-front.png`, the
deck's one back `75x-back.png`), or for a PDF shop one PDF of one card per page (back,
front, back, front, each card as often as its quantity; TrimBox and BleedBox on every
page; PDF/X through Ghostscript where the shop asks for it). Beside them `manifest.csv`
(file, deck, card, side, quantity, size, bleed_mm, pixels, pages), which `pnp impose`
reads back, and `preflight.txt`, the shop preflight's findings (preflight.py).
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from reportlab.lib.units import inch, mm
from reportlab.pdfgen.canvas import Canvas

from pnp.base.errors import Location, PnpError, Problems, display_path
from pnp.base.output import atomic_path
from pnp.exports.pdfx import convert
from pnp.exports.preflight import FaceParts, cards_text, preflight
from pnp.exports.raster import DeckFaces, Exported, game_faces, image_digest, one_size, rasterise_to, save_image
from pnp.exports.shops import MANIFEST, SHOPS, TOLERANCE_MM, CardSize, Shop

PREFLIGHT = "preflight.txt"
COLUMNS = ("file", "deck", "card", "side", "quantity", "size", "bleed_mm", "pixels", "pages")
_WRITTEN = re.compile(r"^\d{2,}x-.*\.(png|pdf)$")  # the names this export writes (stale ones are removed)


@dataclass(repr=False, eq=False)
class _Plan:
    """One deck at one of the shop's sizes."""

    faces: DeckFaces
    size: CardSize
    trim_pt: tuple[float, float]  # the shop's trim in points, in the deck's orientation
    scale: tuple[float, float]  # the shop's trim over the deck's, per axis


def quantity_name(quantity: int, name: str) -> str:
    """'03x-caesar-front.png': the quantity first, so that a file list shows it."""
    return f"{quantity:02d}x-{name}"


def export_shop(
    folder: Path,
    out: Path,
    profile: str,
    lang: str | None = None,
    decks: list[str] | None = None,
    allow_untranslated: bool = False,
    force: bool = False,
    pdfx: bool = True,
    icc: Path | None = None,
) -> Exported:
    shop = SHOPS[profile]
    edition, all_faces, problems = game_faces(folder, lang, decks, allow_untranslated, force, parts=True)
    result = Exported(problems=problems)
    plans = []
    for faces in all_faces:
        if not faces.fronts or not one_size(faces, shop.name, problems):
            continue
        deck = faces.deck
        face = faces.fronts[0]
        trim_mm = (face.width / mm, face.height / mm)
        found = shop.size_for(trim_mm)
        if found is None:
            problems.error(
                deck.locs.get("front", deck.loc),
                "shop-size",
                f"deck '{deck.id}' is {trim_mm[0]:g} x {trim_mm[1]:g} mm, a size {shop.name} does not make; expected one of: {shop.sizes_text()} "
                f"(within {TOLERANCE_MM:g} mm), or --deck to export the other decks",
            )
            continue
        size, turned = found
        trim_pt = (size.height_in * inch, size.width_in * inch) if turned else (size.width_in * inch, size.height_in * inch)
        plans.append(_Plan(faces, size, trim_pt, (trim_pt[0] / face.width, trim_pt[1] / face.height)))
    if problems.errors:
        raise PnpError(problems)
    symbols = edition.project.symbols
    font = edition.project.fonts.get("sans").registered
    root = out / edition.game.name / f"shop-{shop.key}-{edition.lang}"
    for plan in plans:
        deck = plan.faces.deck
        where = root / deck.id
        faces = [FaceParts(card, "front", face, parts) for card, face, parts in zip(deck.cards, plan.faces.fronts, plan.faces.front_parts)]
        faces += [FaceParts(card, "back", face, parts) for card, face, parts in zip(deck.cards, plan.faces.backs, plan.faces.back_parts)]
        findings = preflight(shop, deck.id, faces, plan.scale, problems)
        written = (
            _write_pdf(shop, plan, where, symbols, font, pdfx, icc)
            if shop.output == "pdf"
            else _write_images(shop, plan, where, symbols, font, problems, findings)
        )
        manifest = where / MANIFEST
        _write_text(manifest, _csv(written))
        report = where / PREFLIGHT
        _write_text(report, "\n".join(findings or [f"{shop.name}: no text in the unsafe zone, no image under {shop.dpi} dpi, the art fills the bleed"]) + "\n")
        files = sorted({where / row[0] for row in written})
        result.files.extend([*files, manifest, report])
        _remove_stale(where, files)
        cards = deck.count
        shown = f"{plan.size.name} {plan.size.width_in:g} x {plan.size.height_in:g} in"
        px = "" if shop.output == "pdf" else ", {} x {} px".format(*shop.pixels(plan.size))
        result.notes.append(f"{deck.id}: {cards} cards ({len(deck.cards)} distinct) as {shop.name}'s {shown}{px}: {display_path(where)}")
        trim_mm = (plan.faces.fronts[0].width / mm, plan.faces.fronts[0].height / mm)
        if max(abs(plan.scale[0] - 1), abs(plan.scale[1] - 1)) > 0.0005:
            result.notes.append(
                f"  its {trim_mm[0]:g} x {trim_mm[1]:g} mm are printed at the shop's {plan.trim_pt[0] / mm:.1f} x {plan.trim_pt[1] / mm:.1f} mm (scaled {plan.scale[0]:.3f} x {plan.scale[1]:.3f})"
            )
    if plans:
        result.notes.append(f"Upload: {shop.upload}.")
    return result


def short_of_bleed(image: Image.Image, bleed_px: float) -> bool:
    """Does the art stop short of the image's edge (its outermost ring mostly paper white)
    while it reaches the trim (the ring at the trim mostly not)? Then a white edge may show
    where the cut drifts into the bleed."""
    w, h = image.size
    inset = max(1, int(bleed_px))

    def white(ring: list[tuple[int, int]]) -> float:
        return sum(image.getpixel(xy) == (255, 255, 255) for xy in ring) / len(ring)

    def ring(d: int) -> list[tuple[int, int]]:
        xs, ys = range(d, w - d, 7), range(d, h - d, 7)
        return [(x, d) for x in xs] + [(x, h - 1 - d) for x in xs] + [(d, y) for y in ys] + [(w - 1 - d, y) for y in ys]

    return white(ring(0)) > 0.5 and white(ring(inset)) < 0.5


def _write_images(shop: Shop, plan: _Plan, where: Path, symbols, font: str, problems: Problems, findings: list[str]) -> list[tuple]:
    """One image per card face at the shop's pixels; returns the manifest rows."""
    deck = plan.faces.deck
    turned = plan.trim_pt[0] > plan.trim_pt[1] and plan.size.width_in < plan.size.height_in
    px = shop.pixels(plan.size)
    size_px = (px[1], px[0]) if turned else px
    trim_px = (plan.trim_pt[0] / 72 * shop.dpi, plan.trim_pt[1] / 72 * shop.dpi)
    size = f"{plan.trim_pt[0] / mm:.2f}x{plan.trim_pt[1] / mm:.2f}"
    bleed = f"{shop.bleed_in * 25.4:.3f}"
    pixels = f"{size_px[0]}x{size_px[1]}"
    rows: list[tuple] = []
    files: list[Path] = []
    short: dict[str, list[str]] = {}
    for card, face in zip(deck.cards, plan.faces.fronts):
        name = quantity_name(card.copies, f"{card.id}-front.png")
        image = rasterise_to(face, symbols, font, size_px, trim_px, shop.dpi)
        short.setdefault("front", []).extend([card.id] if short_of_bleed(image, shop.bleed_px) else [])
        save_image(image, where / name, shop.dpi, files)
        rows.append((name, deck.id, card.id, "front", card.copies, size, bleed, pixels, ""))
    backs = [rasterise_to(face, symbols, font, size_px, trim_px, shop.dpi) for face in plan.faces.backs]
    short["back"] = [card.id for card, image in zip(deck.cards, backs) if short_of_bleed(image, shop.bleed_px)]
    if backs and len({image_digest(image) for image in backs}) == 1:
        total = deck.count
        name = quantity_name(total, "back.png")
        save_image(backs[0], where / name, shop.dpi, files)
        rows.append((name, deck.id, "", "back", total, size, bleed, pixels, ""))
    else:
        for card, image in zip(deck.cards, backs):
            name = quantity_name(card.copies, f"{card.id}-back.png")
            save_image(image, where / name, shop.dpi, files)
            rows.append((name, deck.id, card.id, "back", card.copies, size, bleed, pixels, ""))
    for side, cards in short.items():
        if cards:
            reach = math.ceil(shop.bleed_in * 25.4 / min(plan.scale) * 10) / 10
            loc = deck.locs.get(side, deck.loc)
            message = (
                f"deck '{deck.id}': the {side} of {cards_text(cards)} stops short of {shop.name}'s bleed, so a white edge may show where the cut drifts; "
                f"expected the layout's background to reach {reach:.1f} mm beyond the trim (e.g. a rect from -{math.ceil(reach * 2) / 2:g} mm)"
            )
            problems.warn(loc, "shop-bleed", message)
            findings.append(f"{loc}: {message} [shop-bleed]")
    return rows


def _write_pdf(shop: Shop, plan: _Plan, where: Path, symbols, font: str, pdfx: bool, icc: Path | None) -> list[tuple]:
    """One PDF for the deck, one card face per page: back, front, back, front, each card as
    often as its quantity; MediaBox = BleedBox = trim + 2 x bleed, TrimBox inset by the
    bleed. Returns the manifest rows (the pages of each card's faces)."""
    from pnp.write.pdf import draw_face

    deck = plan.faces.deck
    bleed = shop.bleed_in * inch
    tw, th = plan.trim_pt
    page = (tw + 2 * bleed, th + 2 * bleed)
    name = quantity_name(deck.count, f"{deck.id}.pdf")
    target = where / name
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=page, invariant=1, initialFontName=font, pageCompression=1)
    canvas.setTitle(f"{deck.id} for {shop.name}")
    canvas.setBleedBox((0, 0, page[0], page[1]))
    canvas.setTrimBox((bleed, bleed, bleed + tw, bleed + th))
    size = f"{tw / mm:.2f}x{th / mm:.2f}"
    rows = []
    number = 0
    sx, sy = plan.scale
    for i, card in enumerate(deck.cards):
        first = number + 1
        for _ in range(card.copies):
            for face in ([plan.faces.backs[i]] if plan.faces.backs else []) + [plan.faces.fronts[i]]:
                canvas.saveState()
                canvas.translate(bleed, bleed)
                canvas.scale(sx, sy)
                draw_face(canvas, face, 0, 0, max(bleed / sx, bleed / sy), symbols)
                canvas.restoreState()
                canvas.showPage()
                number += 1
        pages = f"{first}-{number}"
        rows.append((name, deck.id, card.id, "front", card.copies, size, f"{shop.bleed_in * 25.4:.3f}", "", pages))
        if plan.faces.backs:
            rows.append((name, deck.id, card.id, "back", card.copies, size, f"{shop.bleed_in * 25.4:.3f}", "", pages))
    canvas.save()
    with atomic_path(target) as tmp:
        if pdfx and shop.pdfx:
            source = tmp.with_name(tmp.name + ".rgb.pdf")
            source.write_bytes(buffer.getvalue())
            try:
                convert(source, tmp, icc, shop.pdfx, f"{deck.id} for {shop.name}", Location(display_path(target)))
            finally:
                source.unlink(missing_ok=True)
        else:
            tmp.write_bytes(buffer.getvalue())
    return rows


def _csv(rows: list[tuple]) -> str:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    return text.getvalue()


def _write_text(path: Path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def _remove_stale(folder: Path, written: list[Path]) -> None:
    """Files an earlier export wrote that this one did not (a card removed, a quantity
    changed): only names this export writes, never the user's own files."""
    keep = set(written)
    for path in folder.iterdir():
        if path.is_file() and path not in keep and _WRITTEN.match(path.name):
            path.unlink()
