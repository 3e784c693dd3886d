"""`pnp export shop`: a game's decks as a print shop takes them (profiles in shops.py).

Per deck, in OUT/GAME/shop-KEY-LANG/DECK/: one image per card face at the shop's exact
pixel size with its bleed, named with the card's quantity (`03x-caesar-front.png`, the
deck's one back `75x-back.png`), or for a PDF shop one PDF of one card per page (back,
front, back, front, each card as often as its quantity; TrimBox and BleedBox on every
page; PDF/X through Ghostscript where the shop asks for it). Beside them `manifest.csv`
(file, deck, card, side, quantity, size, bleed_mm, pixels, pages), which `pnp impose`
reads back, and `preflight.txt`, the shop preflight's findings (preflight.py, and here
what is measured on the rendered faces: white edges where the art is coloured).

The art fills the shop's bleed: backgrounds that reach the trim are run on to the bleed's
edge (`extend_to_bleed`), never padded with white; a deck without backs gets a blank back
with a warning, since the shop prints one on every card. Every file goes into one
transaction, moved into place at the end (and the earlier export's files this one does not
write removed then): a failed or interrupted export leaves the previous one whole.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image, ImageChops
from reportlab.lib.units import inch, mm
from reportlab.pdfgen.canvas import Canvas

from pnp.base.errors import Location, PnpError, Problems, display_path
from pnp.base.output import Transaction, transaction
from pnp.exports.pdfx import DocInfo, convert
from pnp.exports.preflight import FaceParts, cards_text, preflight
from pnp.exports.raster import DeckFaces, Exported, art_key, blank_job, game_faces, one_size, render_all, save_image, shop_job
from pnp.exports.shops import MANIFEST, SHOPS, TOLERANCE_MM, CardSize, Shop
from pnp.i18n.own import own_words
from pnp.layout.faces import Face, Op, RectOp
from pnp.load.model import Deck

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


def _in_game(line: str, game: Path) -> str:
    """A finding as preflight.txt holds it: its place relative to the game folder, so the
    file reads the same wherever the export was run from (messages on the terminal are
    relative to the working directory)."""
    shown = display_path(game).rstrip("/") + "/"
    return line[len(shown) :] if shown != "./" and line.startswith(shown) else line


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
    edition, all_faces, problems = game_faces(folder, lang, decks, allow_untranslated, force)
    result = Exported(problems=problems)
    plans = []
    for faces in all_faces:
        if not faces.front_sizes or not one_size(faces, shop.name, problems):
            continue
        deck = faces.deck
        width, height = faces.front_sizes[0]
        trim_mm = (width / mm, height / mm)
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
        plans.append(_Plan(faces, size, trim_pt, (trim_pt[0] / width, trim_pt[1] / height)))
    if problems.errors:
        raise PnpError(problems)
    symbols = edition.project.symbols
    font = edition.project.fonts.get("sans").registered
    meta = edition.game.meta
    words = own_words(edition.lang, meta.strings)  # the PDF's subject in the export's language
    root = out / edition.game.name / f"shop-{shop.key}-{edition.lang}"
    with transaction() as txn:  # every file moved into place at the end, or none
        for plan in plans:
            deck = plan.faces.deck
            where = root / deck.id
            findings = preflight(shop, deck.id, _parts(plan.faces), plan.scale, problems)
            if not plan.faces.backed:
                _no_back(shop, deck, problems, findings)
            if shop.output == "pdf":
                info = DocInfo(f"{meta.title}: {deck.name or deck.id}", meta.author, words("meta.shop", what=words("meta.cards", n=deck.count), shop=shop.name))
                written = _write_pdf(shop, plan, where, symbols, font, pdfx, icc, info, problems, findings, txn)
            else:
                written = _write_images(shop, plan, where, symbols, font, problems, findings, txn)
            manifest = where / MANIFEST
            _write_text(manifest, _csv(written), txn)
            report = where / PREFLIGHT
            _write_text(
                report,
                "\n".join(
                    [_in_game(line, edition.game.root) for line in findings]
                    or [
                        f"{shop.name}: no text in the unsafe zone, no image under {shop.dpi} dpi, no white edge where the art at the trim is coloured (measured on every face)"
                    ]
                )
                + "\n",
                txn,
            )
            files = sorted({where / row[0] for row in written})
            result.files.extend([*files, manifest, report])
            _remove_stale(where, files, txn)
            cards = deck.count
            shown = f"{plan.size.name} {plan.size.width_in:g} x {plan.size.height_in:g} in"
            px = "" if shop.output == "pdf" else ", {} x {} px".format(*shop.pixels(plan.size))
            result.notes.append(f"{deck.id}: {cards} cards ({len(deck.cards)} distinct) as {shop.name}'s {shown}{px}: {display_path(where)}")
            trim_mm = (plan.faces.front_sizes[0][0] / mm, plan.faces.front_sizes[0][1] / mm)
            if max(abs(plan.scale[0] - 1), abs(plan.scale[1] - 1)) > 0.0005:
                result.notes.append(
                    f"  its {trim_mm[0]:g} x {trim_mm[1]:g} mm are printed at the shop's {plan.trim_pt[0] / mm:.1f} x {plan.trim_pt[1] / mm:.1f} mm (scaled {plan.scale[0]:.3f} x {plan.scale[1]:.3f})"
                )
    if plans:
        result.notes.append(f"Upload: {shop.upload}.")
    return result


def extend_to_bleed(face: Face, reach: float) -> Face:
    """`face` with its backgrounds run `reach` points past the trim: every filled, unstroked,
    square-cornered rectangle that reaches the trim on a side goes on to `reach` beyond it
    on that side. Layouts draw their backgrounds BLEED_MM out, and a shop's bleed is
    often more (The Game Crafter's 1/8 in, after scaling to its size); what is drawn at the
    trim is what the bleed must show, not the paper's white."""
    ops: list[Op] = []
    for op in face.ops:
        if isinstance(op, RectOp) and op.fill is not None and op.stroke is None and not op.radius and op.w > 0 and op.h > 0:
            left, bottom, right, top = op.x, op.y, op.x + op.w, op.y + op.h
            left = min(left, -reach) if left <= _AT_TRIM else left
            bottom = min(bottom, -reach) if bottom <= _AT_TRIM else bottom
            right = max(right, face.width + reach) if right >= face.width - _AT_TRIM else right
            top = max(top, face.height + reach) if top >= face.height - _AT_TRIM else top
            op = replace(op, x=left, y=bottom, w=right - left, h=top - bottom)
        ops.append(op)
    return replace(face, ops=tuple(ops))


_AT_TRIM = 0.01  # points: a rectangle this near the trim reaches it
_WHITE = 250  # a channel at least this bright is the paper's white
SIDES = ("top", "bottom", "left", "right")


def white_edges(image: Image.Image, bleed_px: float) -> dict[str, int]:
    """Measured on the image: per side, how many pixels deep its edge is white where the art
    at the trim (just inside it) is coloured; the sides with none are left out. A white
    band there is paper that shows where the cut drifts into the bleed."""
    w, h = image.size
    depth = min(int(bleed_px) + 2, w // 2, h // 2)  # the edge to one pixel inside the trim
    strips = {
        "top": image.crop((0, 0, w, depth)),
        "bottom": image.crop((0, h - depth, w, h)).transpose(Image.Transpose.FLIP_TOP_BOTTOM),
        "left": image.crop((0, 0, depth, h)).transpose(Image.Transpose.TRANSPOSE),
        "right": image.crop((w - depth, 0, w, h)).transpose(Image.Transpose.TRANSPOSE).transpose(Image.Transpose.FLIP_TOP_BOTTOM),
    }
    found = {}
    for side, strip in strips.items():
        r, g, b = (band.point(lambda v: 255 if v >= _WHITE else 0) for band in strip.convert("RGB").split())
        white = ImageChops.multiply(ImageChops.multiply(r, g), b)
        length = white.size[0]
        coloured = ImageChops.invert(white.crop((0, depth - 1, length, depth)))
        least = max(2, coloured.histogram()[255] // 100)  # a few stray pixels are anti-aliasing
        band = 0
        while band < depth - 1 and ImageChops.multiply(white.crop((0, band, length, band + 1)), coloured).histogram()[255] >= least:
            band += 1
        if band:
            found[side] = band
    return found


def _write_images(shop: Shop, plan: _Plan, where: Path, symbols, font: str, problems: Problems, findings: list[str], txn: Transaction) -> list[tuple]:
    """One image per card face at the shop's pixels, each written as soon as it is rendered;
    the deck's backs once when they all draw the same; returns the manifest rows."""
    deck = plan.faces.deck
    turned = plan.trim_pt[0] > plan.trim_pt[1] and plan.size.width_in < plan.size.height_in
    px = shop.pixels(plan.size)
    size_px = (px[1], px[0]) if turned else px
    trim_px = (plan.trim_pt[0] / 72 * shop.dpi, plan.trim_pt[1] / 72 * shop.dpi)
    reach = _reach(plan, shop.bleed_in * 72)
    size = f"{plan.trim_pt[0] / mm:.2f}x{plan.trim_pt[1] / mm:.2f}"
    bleed = f"{shop.bleed_in * 25.4:.3f}"
    pixels = f"{size_px[0]}x{size_px[1]}"
    rows: list[tuple] = []
    files: list[Path] = []
    faces = plan.faces
    todo: list[tuple[str, str, int | None, str, int]] = []  # file name, side, card index (None: blank), card id, quantity
    todo += [(quantity_name(card.copies, f"{card.id}-front.png"), "front", i, card.id, card.copies) for i, card in enumerate(deck.cards)]
    if not faces.backed or faces.one_back():
        todo.append((quantity_name(deck.count, "back.png"), "back", 0 if faces.backed else None, "", deck.count))
    else:
        todo += [(quantity_name(card.copies, f"{card.id}-back.png"), "back", i, card.id, card.copies) for i, card in enumerate(deck.cards)]
    jobs = (  # each face laid out as it is drawn, then dropped
        blank_job(size_px) if i is None else shop_job(extend_to_bleed(faces.lay_out(i, side, None), reach), symbols, size_px, trim_px, shop.dpi)
        for _, side, i, _, _ in todo
    )
    measured: list[tuple[str, str, dict[str, int]]] = []
    for (name, side, _, card_id, copies), image in zip(todo, render_all(jobs, font)):
        measured.append((side, card_id, white_edges(image, shop.bleed_px)))
        save_image(image, where / name, shop.dpi, files, txn)
        rows.append((name, deck.id, card_id, side, copies, size, bleed, pixels, ""))
    _report_edges(shop, plan, measured, shop.dpi, problems, findings)
    return rows


def _parts(faces: DeckFaces) -> Iterator[FaceParts]:
    """Every face of the deck with what each element drew on it, fronts then backs, for the
    preflight: laid out once more, one at a time, and dropped once looked at."""
    for side, count in (("front", len(faces.front_sizes)), ("back", len(faces.back_sizes))):
        for i, card in enumerate(faces.deck.cards[:count]):
            parts: list = []
            face = faces.lay_out(i, side, parts)
            yield FaceParts(card, side, face, parts)


def _reach(plan: _Plan, bleed_pt: float) -> float:
    """How far past the trim, in the face's own points, the art must run to fill the shop's
    bleed at the shop's size (and one point more: the edge pixels are whole)."""
    return bleed_pt / min(plan.scale) + 1


def _no_back(shop: Shop, deck: Deck, problems: Problems, findings: list[str]) -> None:
    """A deck without a back layout: the shop prints a back on every card all the same."""
    loc = deck.locs.get("front", deck.loc)
    message = (
        f"deck '{deck.id}' has no back layout, and {shop.name} prints a back on every card: pnp wrote a blank (white) back; "
        f"expected a `back:` layout for the deck in game.yaml (e.g. the game's title and credits)"
    )
    problems.warn(loc, "shop-no-back", message)
    findings.append(f"{loc}: {message} [shop-no-back]")


def _report_edges(shop: Shop, plan: _Plan, measured: list[tuple[str, str, dict[str, int]]], dpi: int, problems: Problems, findings: list[str]) -> None:
    """One warning per side of the deck whose images have white edges where the art is
    coloured (`white_edges`), with the cards, the sides and the deepest band."""
    deck = plan.faces.deck
    for side in ("front", "back"):
        found = [(card_id, edges) for s, card_id, edges in measured if s == side and edges]
        if not found:
            continue
        cards = [card_id or "back" for card_id, _ in found]
        sides = [name for name in SIDES if any(name in edges for _, edges in found)]
        deepest = max(max(edges.values()) for _, edges in found)
        reach = math.ceil(shop.bleed_in * 25.4 / min(plan.scale) * 10) / 10
        loc = deck.locs.get(side, deck.loc)
        message = (
            f"deck '{deck.id}': the {side} of {cards_text(cards)} has a white edge up to {deepest} px ({deepest / dpi * 25.4:.2f} mm) deep on its {', '.join(sides)} "
            f"where the art at the trim is coloured: its art stops short of {shop.name}'s bleed, so a white edge may show where the cut drifts; "
            f"expected the layout's art to reach {reach:.1f} mm beyond the trim (its images and shapes at the edge drawn further out)"
        )
        problems.warn(loc, "shop-bleed", message)
        findings.append(f"{loc}: {message} [shop-bleed]")


def _write_pdf(
    shop: Shop,
    plan: _Plan,
    where: Path,
    symbols,
    font: str,
    pdfx: bool,
    icc: Path | None,
    info: DocInfo,
    problems: Problems,
    findings: list[str],
    txn: Transaction,
) -> list[tuple]:
    """One PDF for the deck, one card face per page: back, front, back, front, each card as
    often as its quantity (a blank back when the deck has none); MediaBox = BleedBox = trim
    + 2 x bleed, TrimBox inset by the bleed. The first page of each distinct face is
    rendered to measure its edges (`white_edges`). Returns the manifest rows (the pages
    of each card's faces)."""
    import pypdfium2 as pdfium

    from pnp.write.drawing import draw_face

    deck = plan.faces.deck
    bleed = shop.bleed_in * inch
    tw, th = plan.trim_pt
    page = (tw + 2 * bleed, th + 2 * bleed)
    name = quantity_name(deck.count, f"{deck.id}.pdf")
    target = where / name
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=page, invariant=1, initialFontName=font, pageCompression=1)
    canvas.setTitle(info.title)
    canvas.setAuthor(info.author)
    canvas.setSubject(info.subject)
    canvas.setCreator("pnp")
    canvas.setBleedBox((0, 0, page[0], page[1]))
    canvas.setTrimBox((bleed, bleed, bleed + tw, bleed + th))
    size = f"{tw / mm:.2f}x{th / mm:.2f}"
    reach = _reach(plan, bleed)
    rows = []
    number = 0
    sx, sy = plan.scale
    measure: list[tuple[int, str, str]] = []  # page index, side, card id: each distinct face once
    seen: set[tuple] = set()
    faces = plan.faces
    for i, card in enumerate(deck.cards):
        first = number + 1
        sides = [("back", faces.back(i) if faces.backed else None), ("front", faces.front(i))]  # laid out for this card's pages, then dropped
        for copy in range(card.copies):
            for side, face in sides:
                if copy == 0 and face is not None and (side, hash(art_key(face))) not in seen:
                    seen.add((side, hash(art_key(face))))
                    measure.append((number, side, card.id if side == "front" or len(faces.back_sizes) > 1 else ""))
                if face is not None:
                    canvas.saveState()
                    canvas.translate(bleed, bleed)
                    canvas.scale(sx, sy)
                    draw_face(canvas, extend_to_bleed(face, reach), 0, 0, max(bleed / sx, bleed / sy), symbols)
                    canvas.restoreState()
                canvas.showPage()
                number += 1
        pages = f"{first}-{number}"
        rows.append((name, deck.id, card.id, "front", card.copies, size, f"{shop.bleed_in * 25.4:.3f}", "", pages))
        rows.append((name, deck.id, card.id, "back", card.copies, size, f"{shop.bleed_in * 25.4:.3f}", "", pages))
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        measured = [(side, card_id, white_edges(document[index].render(scale=shop.dpi / 72).to_pil(), shop.bleed_px)) for index, side, card_id in measure]
    finally:
        document.close()
    _report_edges(shop, plan, measured, shop.dpi, problems, findings)
    tmp = txn.path_for(target)
    if pdfx and shop.pdfx:
        source = txn.path_for(target.with_name(target.name + ".rgb"))  # Ghostscript's input: a temporary file too, never moved into place
        source.write_bytes(buffer.getvalue())
        try:
            convert(source, tmp, icc, shop.pdfx, info, Location(display_path(target)))
        finally:
            txn.drop(source)
    else:
        tmp.write_bytes(buffer.getvalue())
    return rows


def _csv(rows: list[tuple]) -> str:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    return text.getvalue()


def _write_text(path: Path, text: str, txn: Transaction) -> None:
    txn.path_for(path).write_text(text, encoding="utf-8")


def _remove_stale(folder: Path, written: list[Path], txn: Transaction) -> None:
    """Files an earlier export wrote that this one did not (a card removed, a quantity
    changed), removed when the export commits: only names this export writes, never the
    user's own files."""
    keep = set(written)
    for path in folder.iterdir() if folder.is_dir() else []:
        if path.is_file() and path not in keep and _WRITTEN.match(path.name):
            txn.remove(path)
