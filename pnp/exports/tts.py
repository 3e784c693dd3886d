"""The whole table in Tabletop Simulator: image sheets and one saved object.

`pnp export tts` rasterises every face like `pnp export png` (raster.render_all) and
writes what Tabletop Simulator (TTS) loads from its Saved Objects folder: one JSON file
(with a PNG thumbnail beside it) holding a custom deck per card deck, a custom tile per
board or map, and per token a custom tile in its shape (square, hex, circle), its copies
in a bag. What is a card, a board or a token is read from the front layout: its shape
and its size (`kind_of`).

Sizes on the table come from one model of TTS's units (`Units`, docs/commands.md says
where each figure comes from): a card at scale 1 and a tile at scale 1 as TTS shows them,
in mm, each axis of a card on its own. A calibration card and tile of the same size lie
beside the game, so that a user whose TTS shows them otherwise measures them and exports
again with `--calibration`.

TTS cuts a deck from sheets of at most 10 x 7 cards, and loads images of at most 4096
px a side everywhere (larger ones, up to 10,000, cost video memory and fail on small
graphics cards), so each deck is put on the smallest grid that holds it within that size.
Each distinct card is on its sheet once; its copies are repeated card ids in the deck.
A deck's faces are rendered in one stream (raster.render_pages: a few dozen faces to a
PDF in memory) and each is rendered by pdfium straight into its cell of the sheet; a sheet is
dropped once it is written, so memory does not grow with the deck. Every file is written into one transaction and moved
into place at the end: a failed or interrupted export leaves the previous one whole.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path, PurePath
from urllib.parse import quote

from PIL import Image, ImageDraw, ImageFont

from pnp.base.errors import Location, PnpError, Problems, display_path
from pnp.base.output import Transaction, transaction
from pnp.exports.raster import (
    Exported,
    Rendered,
    SheetMemory,
    check_pixels,
    face_job,
    game_faces,
    image_digest,
    one_size,
    pixels,
    render_all,
    render_pages,
    save_image,
)
from pnp.load.model import TypeDef, title_of

MAX_COLS, MAX_ROWS = 10, 7  # the largest card sheet TTS cuts
SHEET_PIXELS = 4096  # per side: what every graphics card running TTS loads
HARD_PIXELS = 10_000  # per side: TTS refuses larger images
TOKEN_MAX_MM = 40.0  # a square component no larger than this is a token (the smallest cards are 41 mm wide)
CARD_MAX_MM = 130.0  # a rectangle larger than this on a side is a board or map (tarot cards are 120 mm)
TILE_TYPE = {"rect": 0, "hex": 1, "round": 2}  # CustomTile.Type: 0 square, 1 hex, 2 circle
THUMBNAIL_PIXELS = 256  # the longer side of the PNG TTS shows beside the saved object
SAVED_OBJECTS = (
    ("Windows", r"%USERPROFILE%\Documents\My Games\Tabletop Simulator\Saves\Saved Objects"),
    ("macOS", "~/Library/Tabletop Simulator/Saves/Saved Objects"),
    ("Linux", "~/.local/share/Tabletop Simulator/Saves/Saved Objects"),
)

# The model of TTS's units: the one home of these figures (docs/commands.md, "Sizes on the table").
UNIT_MM = 25.4  # a TTS unit, which positions are in and its Line tool measures: an inch (TTS knowledge base)
CARD_MM = (56.0, 80.0)  # a custom card at scale 1, across (X) and along (Z): measured by tts-deckconverter
TILE_MM = 30.0  # the longer side of a custom tile at scale 1: derived from cards and tiles seen side by side
CALIBRATION_UNITS = 2.0  # each side of the calibration card and tile, in TTS units, as the model places them


def kind_of(size_mm: tuple[float, float], shape: str | None) -> str:
    """'token', 'card' or 'board': round and hex components are tokens, a small square one
    too; a rectangle up to CARD_MAX_MM a side is a card, a larger one a board or map."""
    if shape in ("round", "hex") or max(size_mm) <= TOKEN_MAX_MM:
        return "token"
    return "card" if max(size_mm) <= CARD_MAX_MM else "board"


@dataclass(frozen=True)
class Units:
    """What TTS shows at scale 1, in mm: a card across and along, and a tile's longer
    side. A card is scaled on each axis to its size (TTS draws every card on the same
    card, its image stretched to fit); a landscape card is that card turned
    (SidewaysCard), so its axes swap. A tile keeps its image's proportions and is scaled
    evenly, by its longer side."""

    card: tuple[float, float] = CARD_MM
    tile: float = TILE_MM

    def card_scale(self, size_mm: tuple[float, float]) -> tuple[float, float]:
        """(scaleX, scaleZ) that show a card of `size_mm` (width, height) at that size."""
        across, along = self.card if not sideways(size_mm) else (self.card[1], self.card[0])
        return round(size_mm[0] / across, 4), round(size_mm[1] / along, 4)

    def tile_scale(self, size_mm: tuple[float, float]) -> float:
        """The even scale that shows a tile of `size_mm` at that size."""
        return round(max(size_mm) / self.tile, 4)

    def calibrated(self, measured: tuple[float, float, float]) -> Units:
        """The model corrected by what a user's TTS shows of the calibration card (across,
        along) and tile, in TTS units, each placed to be CALIBRATION_UNITS a side."""
        card_x, card_z, tile = (value / CALIBRATION_UNITS for value in measured)
        return Units((self.card[0] * card_x, self.card[1] * card_z), self.tile * tile)


def sideways(size_mm: tuple[float, float]) -> bool:
    """A landscape card: TTS lays it and holds it in a hand turned (SidewaysCard)."""
    return size_mm[0] > size_mm[1]


@dataclass(frozen=True, repr=False, eq=False)
class Grid:
    """The columns and rows of a TTS sheet."""

    cols: int
    rows: int

    @property
    def cells(self) -> int:
        return self.cols * self.rows


def largest_grid(cell: tuple[int, int], max_pixels: int) -> Grid:
    """The most cards a sheet holds: at most 10 x 7 and `max_pixels` a side (at least one card)."""
    return Grid(max(1, min(MAX_COLS, max_pixels // cell[0])), max(1, min(MAX_ROWS, max_pixels // cell[1])))


def grid_for(count: int, largest: Grid) -> Grid:
    """The smallest grid of `largest`'s width or less that holds `count` cards: a small
    deck gets a small sheet."""
    cols = min(largest.cols, count)
    return Grid(cols, min(largest.rows, math.ceil(count / cols)))


@dataclass(repr=False, eq=False)
class Urls:
    """Where TTS finds the images: local file URLs, or `base` + the path under `root`."""

    root: Path
    base: str | None = None

    def of(self, path: PurePath) -> str:
        if self.base is None:
            return file_url(Path(path).resolve())
        return self.base.rstrip("/") + "/" + quote(path.relative_to(self.root).as_posix())


def file_url(path: PurePath) -> str:
    """The file:/// URL TTS reads for an absolute path: on Windows the drive after three
    slashes, forward slashes, and every space and letter outside ASCII (a Czech or Slovak
    user's name in C:\\Users) percent-encoded as UTF-8, as pathlib's `as_uri` writes it."""
    return path.as_uri()


@dataclass(repr=False, eq=False)
class Guids:
    """Object GUIDs as TTS writes them (6 hex digits), from what the object is rather than
    at random: the same game gives the same GUIDs, and none repeats within the save (TTS
    loses track of objects that share one)."""

    used: set[str] = field(default_factory=set)

    def of(self, key: str) -> str:
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()
        while digest[:6] in self.used:
            digest = hashlib.sha256(digest.encode("ascii")).hexdigest()
        self.used.add(digest[:6])
        return digest[:6]


@dataclass(repr=False, eq=False)
class Table:
    """The saved object being assembled, and where the next object goes (in TTS units)."""

    units: Units = field(default_factory=Units)
    objects: list[dict] = field(default_factory=list)
    guids: Guids = field(default_factory=Guids)
    next_deck: int = 1  # CustomDeck keys: a card's id is key * 100 + its cell
    x: dict[str, float] = field(default_factory=lambda: {"card": 0.0, "board": 0.0, "token": 0.0})

    def place(self, kind: str, width_mm: float) -> tuple[float, float]:
        """(x, z) of the next object of `kind`, `width_mm` across: cards in a row, boards
        behind, tokens in front."""
        width_units = width_mm / UNIT_MM
        x = self.x[kind] + width_units / 2
        self.x[kind] += width_units + 0.5
        return round(x, 3), {"card": 0.0, "board": 12.0, "token": -6.0}[kind]

    def deck_key(self) -> int:
        key = self.next_deck
        self.next_deck += 1
        return key


def transform(x: float, y: float, z: float, scale: tuple[float, float], face_down: bool = False) -> dict:
    return {
        "posX": x,
        "posY": y,
        "posZ": z,
        "rotX": 0,
        "rotY": 180 if face_down else 0,
        "rotZ": 180 if face_down else 0,
        "scaleX": scale[0],
        "scaleY": 1.0,
        "scaleZ": scale[1],
    }


def export_tts(
    folder: Path,
    out: Path,
    dpi: int = 150,
    fmt: str = "jpg",
    lang: str | None = None,
    decks: list[str] | None = None,
    allow_untranslated: bool = False,
    force: bool = False,
    deal: str | None = None,
    base_url: str | None = None,
    max_pixels: int = SHEET_PIXELS,
    measured: tuple[float, float, float] | None = None,
) -> Exported:
    """Sheets, boards and tokens as images in out/GAME/tts-LANG[-DEAL]/ and the saved object
    GAME.json that places them all, with its thumbnail GAME.png; with `deal`, only the
    components that deal uses; with `measured`, sizes corrected by what the user's TTS
    showed of the calibration objects."""
    from pnp.project.deals import deal_members

    edition, all_faces, problems = game_faces(folder, lang, decks, allow_untranslated, force)
    result = Exported(problems=problems)
    game = edition.game
    members = deal_members(game, deal) if deal else None
    symbols = edition.project.symbols
    font = edition.project.fonts.get("sans").registered
    where = out / game.name / (f"tts-{edition.lang}" + (f"-{deal}" if deal else ""))
    urls = Urls(where, base_url)
    suffix = "jpg" if fmt == "jpg" else "png"
    check_pixels(all_faces, dpi, 0.0, problems)
    chosen = []
    mixed = [faces for faces in all_faces if not one_size(faces, "Tabletop Simulator", problems)]
    if mixed:
        raise PnpError(problems)
    for faces in all_faces:
        front_layout = edition.project.layouts[faces.deck.id][0]
        keep = [i for i, card in enumerate(faces.deck.cards) if members is None or card.id in members]
        if keep:
            chosen.append((faces, kind_of(front_layout.size, front_layout.shape), front_layout.shape or "rect", keep))
    _check_sizes(chosen, dpi, max_pixels, game.loc, problems)
    table = Table(Units().calibrated(measured) if measured else Units())
    largest = max((_sheet_bytes(faces, keep, dpi, max_pixels) for faces, kind, _, keep in chosen if kind == "card"), default=0)
    raster = Raster(symbols, dpi, font, SheetMemory(largest))
    thumbnail: Image.Image | None = None
    with transaction() as txn:  # every file moved into place at the end, or none
        for faces, kind, shape, keep in chosen:
            deck_def = game.meta.decks.get(faces.deck.id)
            described = Described(game.types.get(faces.deck.type), deck_def.markup if deck_def is not None else True)
            small = thumbnail is None  # only the first deck's first face is made small: the save has one thumbnail
            if kind == "card":
                first = _deck(faces, keep, raster, described, where, suffix, max_pixels, urls, table, result, txn, small)
            else:
                first = _pieces(faces, kind, shape, keep, raster, described, where, suffix, urls, table, result, txn, small)
            if small:
                thumbnail = first
        if not table.objects:
            return result
        _calibration(where, urls, table, result, txn)
        saved = where / f"{game.name}.json"
        title = game.meta.title or game.name
        document = {"SaveName": title + (f" ({deal})" if deal else ""), "ObjectStates": table.objects}
        txn.path_for(saved).write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        result.files.append(saved)
        if thumbnail is not None:
            save_image(thumbnail, saved.with_suffix(".png"), dpi, result.files, txn)
    result.notes.append(f"Saved object: {display_path(saved)} ({len(table.objects)} objects) and its thumbnail {saved.with_suffix('.png').name}")
    result.notes.append("In Tabletop Simulator: copy both into the Saved Objects folder:")
    result.notes.extend(f"  {system}: {path}" for system, path in SAVED_OBJECTS)
    result.notes.append("then, in a game, Objects > Saved Objects and click it: decks, boards and tokens are placed on the table.")
    result.notes.append("(A deck by hand: Objects > Components > Custom > Deck, with the Face, Back, Width, Height and Number above.)")
    side = CALIBRATION_UNITS
    result.notes.append(
        f"Sizes: the card and tile named 'pnp calibration' should each measure {side:g} x {side:g} in (Line tool); "
        f"if yours differ, export again with --calibration ACROSS,ALONG,TILE (the card across and along, the tile, as measured)."
    )
    if base_url is None:
        result.notes.append(
            "The images are local files (file:///): only this computer sees them. To play with others, upload them "
            "(Modding > Cloud Manager, or any web host with --base-url URL) before you share the table."
        )
    else:
        result.notes.append(f"The JSON finds the images at {base_url.rstrip('/')}/...: upload everything in {display_path(where)} there, keeping the names.")
    return result


@dataclass(repr=False, eq=False)
class Raster:
    """What every face is rasterised with."""

    symbols: object
    dpi: int
    font: str
    memory: SheetMemory = field(default_factory=SheetMemory)  # where each sheet is made, in turn

    def all(self, faces: Iterable) -> Iterator[Image.Image]:
        """Each face's image, in order, as it is rendered: many faces to one PDF in memory
        (render_all), not a PDF of its own each, which embedded the fonts and the art
        again for every face and was most of the export's time."""
        return render_all((face_job(face, self.symbols, self.dpi, 0.0) for face in faces), self.font)

    def pages(self, faces: Iterable) -> Iterator[Rendered]:
        """Each face's page, in order, to be rendered straight into a sheet (`_sheet`)."""
        return render_pages((face_job(face, self.symbols, self.dpi, 0.0) for face in faces), self.font)


@dataclass(repr=False, eq=False)
class Described:
    """A card's description in TTS (shown on hover, searched in decks and bags): its text
    fields other than the title, in the order its type declares them."""

    type_def: TypeDef | None
    markup: bool = True  # the deck's: false prints every field as written

    def of(self, card) -> str:
        if self.type_def is None:
            return ""
        title = next((name for name in ("title", "name") if card.fields.get(name) not in (None, "")), None)
        texts = []
        for name, definition in self.type_def.fields.items():
            value = card.fields.get(name)
            if definition.type == "text" and name != title and isinstance(value, str) and value.strip():
                texts.append(plain(value.strip()) if self.markup and definition.markup else value.strip())
        return "\n".join(texts)


EMPHASIS = re.compile(r"(?<![\w\\*])\*{1,3}(?=[^\s*])|(?<=[^\s*\\])\*{1,3}(?![\w*])")
ESCAPED = re.compile(r"\\([*:\\])")


def plain(text: str) -> str:
    """A text with pnp's markup as TTS shows it, as plain text: the asterisks of bold and
    italic dropped, escaped characters as themselves, a symbol as its `:name:`."""
    return ESCAPED.sub(r"\1", EMPHASIS.sub("", text))


def _check_sizes(chosen: list, dpi: int, max_pixels: int, game_loc: Location, problems: Problems) -> None:
    """Refuses an image TTS would not load (more than HARD_PIXELS a side) and warns about
    one above `max_pixels` or SHEET_PIXELS, saying what it costs and the dpi that fits."""
    if max_pixels > SHEET_PIXELS:
        problems.warn(
            game_loc,
            "tts-large-sheets",
            f"sheets up to {max_pixels} px a side take up to {max_pixels * max_pixels * 4 / 2**20:,.0f} MB of video memory each "
            f"(a {SHEET_PIXELS} px sheet {SHEET_PIXELS * SHEET_PIXELS * 4 / 2**20:,.0f} MB) and do not load on every graphics card; "
            f"expected --max-sheet {SHEET_PIXELS} for a table everyone can open",
        )
    for faces, kind, _shape, keep in chosen:
        deck = faces.deck
        width, height = faces.front_sizes[keep[0]]
        w, h = pixels(width, dpi), pixels(height, dpi)
        limit = max(max_pixels, SHEET_PIXELS)
        if max(w, h) <= limit:
            continue
        fit = max(1, math.floor(dpi * limit / max(w, h)))
        loc = deck.locs.get("front", deck.loc)
        if max(w, h) > HARD_PIXELS:
            problems.error(
                loc,
                "tts-too-large",
                f"deck '{deck.id}': a {kind} at {dpi} dpi is {w} x {h} pixels; Tabletop Simulator takes at most {HARD_PIXELS} a side: expected --dpi {fit} or less",
            )
            raise PnpError(problems)
        problems.warn(
            loc,
            "tts-large-image",
            f"deck '{deck.id}': a {kind} at {dpi} dpi is {w} x {h} pixels, {w * h * 4 / 2**20:,.0f} MB of video memory, more than the {limit} px a side "
            f"Tabletop Simulator loads on every graphics card: expected --dpi {fit} or less",
        )


def _size_mm(size: tuple[float, float]) -> tuple[float, float]:
    """A face's trim size (width, height in points) in mm."""
    return size[0] / 72 * UNIT_MM, size[1] / 72 * UNIT_MM


def _backs(faces, keep: list[int], raster: Raster) -> tuple[Image.Image | None, Iterator[Rendered]]:
    """The back every kept card shares, rasterised once (None when they differ: each is
    then rasterised with its sheet), and the stream of the kept cards' fronts' pages. Backs drawn
    alike (raster.art_key) are found without rasterising them; backs drawn differently are
    compared by their pixels, until two differ. A shared back is the first face of the
    fronts' stream, in the same PDFs: each PDF a stream draws embeds the fonts and symbols
    again, and a PDF of its own for one back cost about as much as rendering it."""
    fronts = faces.fronts(keep)
    if not faces.backed:
        return None, raster.pages(fronts)
    distinct: dict[int, int] = {}  # art digest -> the first kept card whose back draws it
    for i in keep:
        distinct.setdefault(faces.back_keys[i], i)
    if len(distinct) == 1:
        stream = raster.pages(chain(faces.backs(distinct.values()), fronts))  # each laid out as it is reached
        back = next(stream)
        return back.image(), stream  # of its own memory: it outlives the sheets
    first: Image.Image | None = None
    digest = ""
    images = raster.all(faces.backs(distinct.values()))
    try:
        for image in images:
            if first is None:
                first, digest = image, image_digest(image)
            elif image_digest(image) != digest:
                return None, raster.pages(fronts)
    finally:
        images.close()  # the PDF of a batch left unread is closed now
    return first, raster.pages(fronts)


def _deck(
    faces, keep, raster: Raster, described: Described, where, suffix, max_pixels, urls: Urls, table: Table, result: Exported, txn: Transaction, small: bool
) -> Image.Image | None:
    """A card deck: sheets of its distinct cards, made one at a time; its back (one image,
    or back sheets when the backs differ); and a DeckCustom (a Card when it is one card)
    with every copy. Returns the first card's face made small, for the thumbnail, when
    `small` asks for it (else None: a resize is not cheap)."""
    deck = faces.deck
    size_mm = _size_mm(faces.front_sizes[keep[0]])
    cell = _cell(faces, keep, raster.dpi)
    largest = largest_grid(cell, max_pixels)
    shared_back, fronts = _backs(faces, keep, raster)  # fronts: one stream for the deck, read sheet by sheet, each face laid out as it is drawn
    unique_backs = faces.backed and shared_back is None
    back_file = None
    if not unique_backs:
        back_file = where / f"{deck.id}-back.{suffix}"
        save_image(shared_back if shared_back is not None else Image.new("RGB", cell, "white"), back_file, raster.dpi, result.files, txn)
    del shared_back
    groups = [keep[i : i + largest.cells] for i in range(0, len(keep), largest.cells)]
    sheets: dict[int, dict] = {}  # CustomDeck key -> its entry
    ids: dict[int, int] = {}  # card index -> CardID
    first: Image.Image | None = None
    backs = raster.pages(faces.backs(keep)) if unique_backs else iter(())
    total = sum(deck.cards[i].copies for i in keep)
    lines = [f"{deck.id}: {total} cards ({len(keep)} different) on {len(groups)} sheet{'s' if len(groups) != 1 else ''}"]
    for number, group in enumerate(groups, start=1):
        grid = grid_for(len(group), largest)
        key = table.deck_key()
        face_file = where / f"{deck.id}-{number}.{suffix}"
        with _sheet(raster.memory, islice(fronts, len(group)), grid, cell) as sheet:
            if small and first is None:
                first = _thumbnail(sheet.crop((0, 0, *cell)).convert("RGB"))
            save_image(sheet, face_file, raster.dpi, result.files, txn)
        this_back = back_file
        if unique_backs:
            this_back = where / f"{deck.id}-{number}-back.{suffix}"
            with _sheet(raster.memory, islice(backs, len(group)), grid, cell) as sheet:
                save_image(sheet, this_back, raster.dpi, result.files, txn)
        assert this_back is not None
        sheets[key] = {
            "FaceURL": urls.of(face_file),
            "BackURL": urls.of(this_back),
            "NumWidth": grid.cols,
            "NumHeight": grid.rows,
            "BackIsHidden": True,  # a card in another player's hand shows its back, as on the table
            "UniqueBack": unique_backs,
            "Type": 0,
        }
        for cell_index, i in enumerate(group):
            ids[i] = key * 100 + cell_index
        lines.append(
            f"  Face: {display_path(face_file)}   Back: {display_path(this_back)}   Width {grid.cols}, Height {grid.rows}, Number {len(group)}"
            + ("   tick 'Unique backs'" if unique_backs else "")
        )
    result.notes.extend(lines)
    scale = table.units.card_scale(size_mm)
    turned = sideways(size_mm)
    x, z = table.place("card", size_mm[0])
    cards = []
    for i in keep:
        card = deck.cards[i]
        key = ids[i] // 100
        name, description = _name(card), described.of(card)  # once a card, not once a copy
        for copy in range(card.copies):
            cards.append(
                {
                    "GUID": table.guids.of(f"card/{deck.id}/{card.id}/{copy}"),
                    "Name": "Card",
                    "Nickname": name,
                    "Description": description,
                    "GMNotes": card.id,
                    "Transform": transform(x, 1.0, z, scale, True),
                    "CardID": ids[i],
                    "SidewaysCard": turned,
                    "CustomDeck": {str(key): sheets[key]},  # each card carries its own sheet, as TTS writes it
                }
            )
    if len(cards) == 1:
        table.objects.append(cards[0])
    else:
        table.objects.append(
            {
                "GUID": table.guids.of(f"deck/{deck.id}"),
                "Name": "DeckCustom",
                "Nickname": deck.name,
                "Description": "",
                "Transform": transform(x, 1.0, z, scale, True),
                "SidewaysCard": turned,
                "DeckIDs": [card["CardID"] for card in cards],
                "CustomDeck": {str(key): sheet for key, sheet in sheets.items()},
                "ContainedObjects": cards,
            }
        )
    return first


def _pieces(
    faces, kind, shape, keep, raster: Raster, described: Described, where, suffix, urls: Urls, table: Table, result: Exported, txn: Transaction, small: bool
) -> Image.Image | None:
    """Boards and tokens as custom tiles in their shape, with their backs: one tile for a
    piece the game has once, a bag of its copies for one it has several times (the
    game's count, not an endless supply). Returns the first piece's face made small, for
    the thumbnail, when `small` asks for it (else None)."""
    deck = faces.deck
    count = 0
    first: Image.Image | None = None
    fronts = raster.all(faces.fronts(keep))  # rendered in one stream, each laid out as it is drawn and written as it comes
    backs = raster.all(faces.backs(keep))
    for i in keep:
        card = deck.cards[i]
        front_file = where / deck.id / f"{card.id}.{suffix}"
        front = next(fronts)
        if small and first is None:
            first = _thumbnail(front)
        save_image(front, front_file, raster.dpi, result.files, txn)
        del front
        back_url = ""
        if faces.backed:
            back_file = where / deck.id / f"{card.id}-back.{suffix}"
            save_image(next(backs), back_file, raster.dpi, result.files, txn)
            back_url = urls.of(back_file)
        size_mm = _size_mm(faces.front_sizes[i])
        scale = table.units.tile_scale(size_mm)
        x, z = table.place(kind, max(size_mm))
        tile = {"Type": TILE_TYPE[shape], "Thickness": 0.2 if kind == "board" else 0.1, "Stackable": kind == "token", "Stretch": kind == "token"}
        image = {"ImageURL": urls.of(front_file), "ImageSecondaryURL": back_url, "ImageScalar": 1.0, "WidthScale": 0.0, "CustomTile": tile}
        name, description = _name(card), described.of(card)  # once a piece, not once a copy
        at = transform(x, 1.0, z, (scale, scale)) if card.copies == 1 else transform(0.0, 0.0, 0.0, (scale, scale))  # in a bag: at the bag
        tiles = [
            {
                "GUID": table.guids.of(f"tile/{deck.id}/{card.id}/{copy}"),
                "Name": "Custom_Tile",
                "Nickname": name,
                "Description": description,
                "GMNotes": card.id,
                "Transform": at,
                "CustomImage": image,
            }
            for copy in range(card.copies)
        ]
        count += len(tiles)
        if len(tiles) == 1:
            table.objects.append(tiles[0])
        else:
            table.objects.append(
                {
                    "GUID": table.guids.of(f"bag/{deck.id}/{card.id}"),
                    "Name": "Bag",
                    "Nickname": f"{name} ({len(tiles)})",
                    "Description": description,
                    "GMNotes": card.id,
                    "Transform": transform(x, 1.0, z, (1.0, 1.0)),
                    "Bag": {"Order": 0},
                    "ContainedObjects": tiles,
                }
            )
    what = "board" if kind == "board" else f"{ {'rect': 'square'}.get(shape, shape) } token"
    result.notes.append(f"{deck.id}: {count} {what}{'s' if count != 1 else ''} ({len(keep)} different) in {display_path(where / deck.id)}")
    return first


def _calibration(where: Path, urls: Urls, table: Table, result: Exported, txn: Transaction) -> None:
    """A card and a tile that the model makes CALIBRATION_UNITS a side, side by side left
    of the cards: a user measures them with TTS's Line tool, and `--calibration` takes what
    they measured. Square, so that each of a card's axes shows its own error."""
    side_mm = CALIBRATION_UNITS * UNIT_MM
    size = (side_mm, side_mm)
    card_file, tile_file = where / "calibration-card.png", where / "calibration-tile.png"
    for path, label in ((card_file, "card"), (tile_file, "tile")):
        save_image(_calibration_image(label), path, 150, result.files, txn)
    key = table.deck_key()
    sheet = {
        "FaceURL": urls.of(card_file),
        "BackURL": urls.of(card_file),
        "NumWidth": 1,
        "NumHeight": 1,
        "BackIsHidden": True,
        "UniqueBack": False,
        "Type": 0,
    }
    z = -12.0
    note = f"pnp calibration: should measure {CALIBRATION_UNITS:g} x {CALIBRATION_UNITS:g} in with the Line tool"
    table.objects.append(
        {
            "GUID": table.guids.of("calibration/card"),
            "Name": "Card",
            "Nickname": "pnp calibration card",
            "Description": note,
            "GMNotes": "",
            "Transform": transform(0.0, 1.0, z, table.units.card_scale(size)),
            "CardID": key * 100,
            "SidewaysCard": False,
            "CustomDeck": {str(key): sheet},
        }
    )
    tile = {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": True}
    image = {"ImageURL": urls.of(tile_file), "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0, "CustomTile": tile}
    scale = table.units.tile_scale(size)
    table.objects.append(
        {
            "GUID": table.guids.of("calibration/tile"),
            "Name": "Custom_Tile",
            "Nickname": "pnp calibration tile",
            "Description": note,
            "GMNotes": "",
            "Transform": transform(CALIBRATION_UNITS + 0.5, 1.0, z, (scale, scale)),
            "CustomImage": image,
        }
    )


def _calibration_image(label: str) -> Image.Image:
    """A square with a frame, its label and its size written on it."""
    side = 300
    image = Image.new("RGB", (side, side), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, side - 1, side - 1), outline="black", width=6)
    draw.line((0, side // 2, side - 1, side // 2), fill="black", width=2)
    draw.line((side // 2, 0, side // 2, side - 1), fill="black", width=2)
    try:
        font = ImageFont.load_default(size=26)
    except TypeError:  # pragma: no cover - Pillow before 10.1 has one size
        font = ImageFont.load_default()
    draw.text((16, 16), f"pnp calibration {label}", fill="black", font=font)
    draw.text((16, side - 44), f"{CALIBRATION_UNITS:g} x {CALIBRATION_UNITS:g} in", fill="black", font=font)
    return image


def _thumbnail(image: Image.Image) -> Image.Image:
    """A small copy of `image`, its longer side THUMBNAIL_PIXELS at most."""
    factor = min(1.0, THUMBNAIL_PIXELS / max(image.size))
    size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
    return image.resize(size, Image.Resampling.LANCZOS) if size != image.size else image.copy()


def _name(card) -> str:
    """A card's name as TTS shows it: its title as errata and the preview show it (its
    `title`, else its `name` field), else its id."""
    title = title_of(card.fields)
    return title if title is not None and title.strip() else card.id


def _cell(faces, keep: list[int], dpi: int) -> tuple[int, int]:
    """The pixels of one card of a deck's sheets (its cards are one size: one_size)."""
    width, height = faces.front_sizes[keep[0]]
    return pixels(width, dpi), pixels(height, dpi)


def _sheet_bytes(faces, keep: list[int], dpi: int, max_pixels: int) -> int:
    """The memory of a deck's largest sheet (its first) as `_deck` makes it."""
    cell = _cell(faces, keep, dpi)
    largest = largest_grid(cell, max_pixels)
    grid = grid_for(min(len(keep), largest.cells), largest)
    return cell[0] * grid.cols * cell[1] * grid.rows * 4


@contextmanager
def _sheet(memory: SheetMemory, cards: Iterable[Rendered], grid: Grid, cell: tuple[int, int]) -> Iterator[Image.Image]:
    """`cards` on a `grid` of `cell`-sized cells, row by row from the top left, each
    rendered straight into its cell as it comes (no image of its own, pasted: that cost a
    bitmap, a PIL copy and a paste per face); cells left empty stay white. An RGBX image
    (`Pixels`) in the export's `memory`, valid inside the `with`."""
    cell_w, cell_h = cell
    with memory.pixels((cell_w * grid.cols, cell_h * grid.rows)) as sheet:
        for slot, page in enumerate(cards):
            if page.size_px != cell:  # pragma: no cover - one_size: a deck's faces are one size
                raise RuntimeError(f"a face of {page.size_px} pixels on a sheet of {cell} cells")
            row, col = divmod(slot, grid.cols)
            page.into(sheet, col * cell_w, row * cell_h)
        yield sheet.image()
