"""Faces as pixels, for every export: each face drawn by the same code as the print PDFs
(`write.drawing.draw_face`) onto a page of a PDF in memory, which pypdfium2 rasterises, so an
exported image is exactly what prints: each page is the image's size in points, one point
a pixel, so pdfium renders it at exactly that size (nothing resampled); faces are drawn
and rendered in batches and handed on one at a time (`render_all`), so an export keeps
one image in memory however long the deck; faces that draw the same (`art_key`) are
found without rasterising them; the faces of a game's decks laid out once to find every
problem before anything is drawn (`game_faces`), then again one at a time as they are
drawn (`DeckFaces`), so that no export holds a deck's faces (a game of at most KEPT_FACES
faces keeps those of the first pass instead: a few MB); images saved into the
export's one transaction (`save_image`), all moved into place at the end or none."""

from __future__ import annotations

import ctypes
import gc
import hashlib
import io
import math
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.base.errors import PnpError, Problems
from pnp.base.output import Transaction
from pnp.layout.faces import Face
from pnp.load.model import Deck
from pnp.pdf.canvas import MemoryCanvas

if TYPE_CHECKING:
    from pnp.project.edition import Edition

BLEED_MM = 3.0  # the usual print bleed; layouts draw their backgrounds this far out


MAX_MEGAPIXELS = 100  # per image: a board at 1200 dpi would take gigabytes to rasterise
KEPT_FACES = 256  # a game with at most this many faces to export keeps them from the check pass (some 15-20 kB each)


@dataclass(repr=False, eq=False)
class DeckFaces:
    """The faces of one deck in one language, laid out anew each time they are asked for
    (`front`, `fronts`, ...) and dropped once drawn: an export holds the face it is
    drawing, never the deck's (a face is some 15-20 kB; a deck of thousands would be tens
    of MB). What an export decides before drawing is kept per card, small: each face's size
    and a digest of each back's art (`art_key`)."""

    deck: Deck
    front_sizes: list[tuple[float, float]]  # per card, its front's width and height in points
    back_sizes: list[tuple[float, float]]  # per card; empty when the deck has no back layout
    back_keys: list[int]  # per card, hash(art_key(back)): backs drawn alike, found without keeping or rasterising them
    lay_out: Callable[[int, str, list | None], Face]  # card index, side, parts (when given, receives (element, ops)) -> the face

    @property
    def backed(self) -> bool:
        return bool(self.back_sizes)

    def front(self, i: int) -> Face:
        return self.lay_out(i, "front", None)

    def back(self, i: int) -> Face:
        return self.lay_out(i, "back", None)

    def fronts(self, cards: Iterable[int] | None = None) -> Iterator[Face]:
        """The fronts of `cards` (indices; every card when None), each laid out when reached."""
        return (self.front(i) for i in (range(len(self.deck.cards)) if cards is None else cards))

    def backs(self, cards: Iterable[int] | None = None) -> Iterator[Face]:
        """The backs of `cards` (every card when None; none when the deck has no back), each laid out when reached."""
        if not self.backed:
            return iter(())
        return (self.back(i) for i in (range(len(self.deck.cards)) if cards is None else cards))

    def one_back(self) -> bool:
        """Whether the deck has backs and all of them draw the same."""
        return self.backed and len(set(self.back_keys)) == 1


@dataclass(repr=False, eq=False)
class Exported:
    """What an export wrote, found wrong and has to tell the user."""

    files: list[Path] = field(default_factory=list)
    problems: Problems = field(default_factory=Problems)
    notes: list[str] = field(default_factory=list)  # what to tell the user (TTS import)


def pixels(length_pt: float, dpi: int) -> int:
    """A length in points as whole pixels at `dpi` (at least one)."""
    return max(1, round(length_pt / 72 * dpi))


def largest_dpi(width_pt: float, height_pt: float, dpi: int, limit: int) -> int:
    """The largest dpi up to `dpi` at which an image of this size has at most `limit` pixels."""
    fit = min(dpi, math.floor(dpi * math.sqrt(limit / (pixels(width_pt, dpi) * pixels(height_pt, dpi)))))
    while fit > 1 and pixels(width_pt, fit) * pixels(height_pt, fit) > limit:
        fit -= 1
    return fit


def one_size(faces: DeckFaces, what: str, problems: Problems) -> bool:
    """Whether every card of the deck is one size; when its cards choose layouts of several
    sizes, says so, for `what` (an export that takes one size per deck)."""
    sizes = sorted({(round(width / mm, 2), round(height / mm, 2)) for width, height in faces.front_sizes})
    if len(sizes) <= 1:
        return True
    deck = faces.deck
    problems.error(
        deck.locs.get("front", deck.loc),
        "export-sizes",
        f"deck '{deck.id}' has cards of {len(sizes)} sizes ({', '.join(f'{w:g} x {h:g} mm' for w, h in sizes)}), chosen per card; "
        f"{what} takes one size per deck: expected one size, or --deck to export the other decks",
    )
    return False


def check_pixels(all_faces: list[DeckFaces], dpi: int, bleed_pt: float, problems: Problems) -> None:
    """Refuses, before anything is rasterised, a face that would be more than MAX_MEGAPIXELS
    at `dpi`; says the largest dpi that fits that component. Raises PnpError."""
    limit = MAX_MEGAPIXELS * 1_000_000
    for faces in all_faces:
        for side, side_sizes in (("front", faces.front_sizes), ("back", faces.back_sizes)):
            for card, (face_width, face_height) in zip(faces.deck.cards, side_sizes):
                width, height = face_width + 2 * bleed_pt, face_height + 2 * bleed_pt
                px_w, px_h = pixels(width, dpi), pixels(height, dpi)
                if px_w * px_h > limit:
                    problems.error(
                        faces.deck.locs.get(side, faces.deck.loc),
                        "image-too-large",
                        f"deck '{faces.deck.id}': the {side} of '{card.id}' at {dpi} dpi is {px_w} x {px_h} pixels ({px_w * px_h / 1e6:,.0f} megapixels); "
                        f"pnp exports at most {MAX_MEGAPIXELS} megapixels per image: expected --dpi {largest_dpi(width, height, dpi, limit)} or less",
                    )
                    raise PnpError(problems)


def rasterise(face: Face, symbols, dpi: int, bleed_pt: float, font: str) -> Image.Image:
    """`face` (with `bleed_pt` of its surroundings) as an RGB image at `dpi`."""
    return next(render_all([face_job(face, symbols, dpi, bleed_pt)], font))


@dataclass(frozen=True, repr=False, eq=False)
class Job:
    """One image to render: `draw` puts it on a page of `size_px` points, one point a
    pixel (so that pdfium's image is exactly `size_px`, never resampled)."""

    draw: Callable[[Canvas], None]
    size_px: tuple[int, int]


def face_job(face: Face, symbols, dpi: int, bleed_pt: float) -> Job:
    """`face` with `bleed_pt` of its surroundings at `dpi`, stretched by less than a pixel
    to whole pixels."""
    from pnp.write.drawing import draw_face

    width, height = face.width + 2 * bleed_pt, face.height + 2 * bleed_pt
    px_w, px_h = pixels(width, dpi), pixels(height, dpi)

    def draw(canvas: Canvas) -> None:
        canvas.scale(px_w / width, px_h / height)
        draw_face(canvas, face, bleed_pt, bleed_pt, bleed_pt, symbols)

    return Job(draw, (px_w, px_h))


def shop_job(face: Face, symbols, size_px: tuple[int, int], trim_px: tuple[float, float], dpi: int) -> Job:
    """`face` as an image of exactly `size_px`, its trim `trim_px` across (scaled to it: a
    shop's size) and centred, the rest its bleed, clipped to the image: a print shop's
    card image."""
    from pnp.write.drawing import draw_face

    sx, sy = trim_px[0] / face.width, trim_px[1] / face.height  # pixels per face point
    bleed_x, bleed_y = (size_px[0] - trim_px[0]) / 2, (size_px[1] - trim_px[1]) / 2

    def draw(canvas: Canvas) -> None:
        canvas.translate(bleed_x, bleed_y)
        canvas.scale(sx, sy)
        draw_face(canvas, face, 0, 0, max(bleed_x / sx, bleed_y / sy), symbols)

    return Job(draw, size_px)


def blank_job(size_px: tuple[int, int]) -> Job:
    """A white image of `size_px` (a shop's back for a deck that has none)."""
    return Job(lambda canvas: None, size_px)


BATCH = 64  # faces per in-memory PDF: fonts and symbols embedded once per batch (a deck of up to 64 cards in one), and the PDF stays small (some 2.5 kB a face uncompressed)
COLLECT_FACES = 128  # faces rendered between two collections: a collection scans the whole game, a batch's cycles hold its PDF


def render_all(jobs: Iterable[Job], font: str) -> Iterator[Image.Image]:
    """Each job's image, in order, as soon as it is rendered (render_pages)."""
    return (page.image() for page in render_pages(jobs, font))


def render_pages(jobs: Iterable[Job], font: str) -> Iterator[Rendered]:
    """Each job's page, in order, ready to be rendered where the caller wants its pixels
    (`Rendered`): the jobs are drawn BATCH at a time onto the pages of one PDF in memory;
    only that PDF and the page being handed over are held, however long the deck. Every
    COLLECT_FACES faces the collector runs: each batch leaves cycles (its PDF canvas and
    buffer), which pnp's high collector threshold (cli.py) would keep for thousands of
    faces, and the peak would grow with the deck."""
    batch: list[Job] = []
    uncollected = 0  # faces rendered since the last collection
    for job in jobs:
        batch.append(job)
        if len(batch) == BATCH:
            yield from _render_batch(batch, font)
            batch = []
            uncollected += BATCH
            if uncollected >= COLLECT_FACES:
                gc.collect()
                uncollected = 0
    if batch:
        yield from _render_batch(batch, font)


def _render_batch(jobs: list[Job], font: str) -> Iterator[Rendered]:
    import pypdfium2 as pdfium  # only for exports: pnp --help stays fast

    buffer = io.BytesIO()
    # Uncompressed: pdfium reads this PDF once, at once, from memory; compressing its pages
    # and fonts only to inflate them again cost about a tenth of the rendering (bench/FIGURES.md).
    canvas = MemoryCanvas(buffer, pagesize=jobs[0].size_px, invariant=1, initialFontName=font, pageCompression=0)
    for job in jobs:
        canvas.setPageSize(job.size_px)
        job.draw(canvas)
        canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        for number, job in enumerate(jobs):
            page = document[number]
            try:
                if (math.ceil(page.get_width()), math.ceil(page.get_height())) != job.size_px:  # pragma: no cover - a page of whole points
                    raise RuntimeError(f"pdfium has a page of {page.get_size()} for {job.size_px} points")
                yield Rendered(page, job.size_px)
            finally:
                page.close()
    finally:
        document.close()


@dataclass(frozen=True, repr=False, eq=False)
class Rendered:
    """One job's page in pdfium, valid until its stream moves on: rasterised where its
    pixels are wanted, an image of its own (`image`) or a cell of a sheet (`into`), so a
    sheet's faces are rendered straight into it, not each into a bitmap copied twice."""

    page: object  # a pypdfium2 PdfPage
    size_px: tuple[int, int]

    def image(self) -> Image.Image:
        """The page as an RGB image of exactly `size_px` (one point a pixel)."""
        pixels = Pixels(self.size_px)
        self.into(pixels, 0, 0)
        return pixels.image().convert("RGB")

    def into(self, pixels: Pixels, left: int, top: int) -> None:
        """Render the page onto `pixels` with its top left corner at (`left`, `top`),
        over what is there (white): pdfium draws into the region of the bigger buffer
        (a bitmap with that buffer's stride), in RGB order, as PIL takes it."""
        import pypdfium2.raw as pdfium_c

        width, height = self.size_px
        if left < 0 or top < 0 or left + width > pixels.size[0] or top + height > pixels.size[1]:  # pragma: no cover - callers place whole cells
            raise ValueError(f"a page of {self.size_px} does not fit at ({left}, {top}) in {pixels.size}")
        stride = pixels.size[0] * 4
        first = ctypes.addressof(pixels.buffer) + top * stride + left * 4
        bitmap = pdfium_c.FPDFBitmap_CreateEx(width, height, pdfium_c.FPDFBitmap_BGRx, first, stride)
        try:
            flags = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER
            pdfium_c.FPDF_RenderPageBitmap(bitmap, self.page, 0, 0, width, height, 0, flags)
        finally:
            pdfium_c.FPDFBitmap_Destroy(bitmap)


class Pixels:
    """A white RGBX image in a buffer of ours, that pdfium renders pages into
    (`Rendered.into`) and PIL reads without a copy (`image`): a TTS sheet is made in
    place, one fill and no copy per face. Its memory is its own, or the start of
    `memory` (white already: SheetMemory's)."""

    def __init__(self, size: tuple[int, int], memory: bytearray | None = None) -> None:
        self.size = size
        length = size[0] * size[1] * 4
        self.buffer = (ctypes.c_ubyte * length).from_buffer(bytearray(b"\xff") * length if memory is None else memory)

    def image(self) -> Image.Image:
        """The pixels as an RGBX image sharing this buffer (a JPEG is saved from it as
        from RGB; anything else converts it)."""
        return Image.frombuffer("RGBX", self.size, self.buffer, "raw", "RGBX", 0, 1)


class SheetMemory:
    """The memory an export's sheets are made in, one after another: each sheet in the same
    buffer, filled white again, not in a new one. Why: every page of a new buffer of tens
    of MB is faulted in and zeroed by the system at its first touch (some 0.5 ms a MB,
    about a tenth of an export of Mestá's two decks), where filling memory already in use
    costs a twelfth of that (bench/FIGURES.md). `reserve` bytes (the export's largest sheet)
    are taken at the first sheet; the memory grows if a sheet needs more."""

    def __init__(self, reserve: int = 0) -> None:
        self.reserve = reserve
        self._memory = bytearray()
        self._lent = False

    @contextmanager
    def pixels(self, size: tuple[int, int]) -> Iterator[Pixels]:
        """A white sheet of `size` in this memory, valid inside the `with` only (an image
        of it, `Pixels.image`, too): the next sheet is made in the same bytes."""
        if self._lent:  # pragma: no cover - sheets are made one at a time
            raise RuntimeError("a sheet is still being made in this memory")
        length = size[0] * size[1] * 4
        if len(self._memory) < length:
            self._memory = bytearray()  # the smaller one released before the larger is made
            self._memory = bytearray(b"\xff") * max(length, self.reserve)
        else:
            ctypes.memset((ctypes.c_ubyte * length).from_buffer(self._memory), 0xFF, length)
        self._lent = True
        try:
            yield Pixels(size, self._memory)
        finally:
            self._lent = False


def art_key(face: Face) -> tuple:
    """What a face draws (its size and operations, not its name): two faces with the same
    key give the same pixels, found without rasterising either (a deck's shared back)."""
    return (face.width, face.height, face.ops)


def game_faces(folder: Path, lang: str | None, decks: list[str] | None, allow_untranslated: bool, force: bool) -> tuple[Edition, list[DeckFaces], Problems]:
    """Check the game and set every face of the chosen decks in one language, like
    `pnp build` does, to find every problem before anything is drawn; raises PnpError on
    errors unless `force`. The faces themselves are dropped (DeckFaces lays each out again
    when it is drawn): only their sizes and the backs' art digests are kept, unless the
    export has at most KEPT_FACES faces, when laying them out again would cost more
    than a small game's rendering (bench/export_speed.py)."""
    from pnp.check.run import check_game
    from pnp.project.edition import make_editions
    from pnp.project.project import prepare

    project = prepare(folder, decks)
    problems = check_game(project, None)  # images: nothing on sheets of paper
    (edition,) = make_editions(project, [lang or project.game.meta.language], allow_untranslated, rulebooks=False)
    problems.extend(edition.problems)
    renderer = edition.renderer()
    keep = sum(2 * len(edition.game.decks[deck_id].cards) for deck_id in project.layouts) <= KEPT_FACES
    result = []
    for deck_id in project.layouts:
        deck = edition.game.decks[deck_id]
        pairs = [project.card_layouts(deck_id, i) for i in range(len(deck.cards))]  # each card's own, as the build prints it
        backed = any(back for _, back in pairs)
        kept: dict[tuple[int, str], Face] = {}
        sizes: dict[str, list[tuple[float, float]]] = {"front": [], "back": []}
        back_keys = []
        for side, column in (("front", 0), ("back", 1)) if backed else (("front", 0),):
            for i, card in enumerate(deck.cards):
                face = renderer.face(card, pairs[i][column], side, problems)
                sizes[side].append((face.width, face.height))
                if column:
                    back_keys.append(hash(art_key(face)))
                if keep:
                    kept[i, side] = face
        front_sizes, back_sizes = sizes["front"], sizes["back"]
        result.append(DeckFaces(deck, front_sizes, back_sizes, back_keys, _lay_out(renderer, deck, pairs, kept)))
    if problems.errors and not force:
        raise PnpError(problems)
    return edition, result, problems


def _lay_out(renderer, deck: Deck, pairs: list, kept: dict[tuple[int, str], Face]) -> Callable[[int, str, list | None], Face]:
    """A deck's faces laid out again, one at a time, as game_faces laid them out (what they
    report was reported then, so it goes nowhere now), or the face game_faces kept. A
    caller that asks for the parts (element, ops) gets a face laid out anew with them."""

    def lay_out(i: int, side: str, parts: list | None) -> Face:
        face = kept.get((i, side)) if parts is None else None
        return face if face is not None else renderer.face(deck.cards[i], pairs[i][0 if side == "front" else 1], side, Problems(), parts)

    return lay_out


def save_image(image: Image.Image, target: Path, dpi: int, files: list[Path], txn: Transaction, text: dict[str, str] | None = None) -> None:
    """Write `image` into a temporary file of the export's transaction `txn`, moved into
    place with every other file of the export when it is done: a failed or interrupted
    export leaves the previous one whole, and only one image is in memory at a time. A
    PNG carries `text` as its text chunks; an RGBX image (a sheet made in place,
    `Pixels`) is saved as RGB."""
    kind = "JPEG" if target.suffix.lower() in (".jpg", ".jpeg") else "PNG"
    with txn.path_for(target).open("wb") as handle:
        if kind == "JPEG":
            image.save(handle, kind, quality=90, dpi=(dpi, dpi))
        else:
            if image.mode == "RGBX":  # PNG has no RGBX: the X byte dropped (JPEG drops it itself)
                image = image.convert("RGB")
            info = None
            if text:
                from PIL.PngImagePlugin import PngInfo

                info = PngInfo()
                for key, value in text.items():
                    info.add_text(key, value)
            image.save(handle, kind, dpi=(dpi, dpi), optimize=False, pnginfo=info)
    files.append(target)


def image_digest(image: Image.Image) -> str:
    return hashlib.sha256(image.tobytes()).hexdigest()
