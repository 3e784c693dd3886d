"""The whole table in Tabletop Simulator: image sheets and one saved object.

`pnp export tts` rasterises every face like `pnp export png` (png.rasterise) and
writes what Tabletop Simulator (TTS) loads from its Saved Objects folder: one JSON file
holding a custom deck per card deck, a custom board or tile per board or map, and a
custom tile in its shape (square, hex, circle) per token. What is a card, a board or a
token is read from the front layout: its shape and its size (`kind_of`).

TTS cuts a deck from sheets of at most 10 x 7 cards, and loads images of at most 4096
px a side everywhere (larger ones, up to 10,000, cost video memory and fail on small
graphics cards), so each deck is put on the smallest grid that holds it within that size.
Each distinct card is on its sheet once; its copies are repeated card ids in the deck.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from urllib.parse import quote

from PIL import Image

from pnp.base.errors import Location, PnpError, Problems, display_path
from pnp.base.output import atomic_path
from pnp.exports.raster import Exported, check_pixels, game_faces, image_digest, one_size, pixels, rasterise, save_image
from pnp.write.manifest import title_of

MAX_COLS, MAX_ROWS = 10, 7  # the largest card sheet TTS cuts
SHEET_PIXELS = 4096  # per side: what every graphics card running TTS loads
HARD_PIXELS = 10_000  # per side: TTS refuses larger images
TOKEN_MAX_MM = 40.0  # a square component no larger than this is a token (the smallest cards are 41 mm wide)
CARD_MAX_MM = 130.0  # a rectangle larger than this on a side is a board or map (tarot cards are 120 mm)
INCH_MM = 25.4  # a TTS unit is about an inch (its knowledge base: "in-game units (about an inch)")
CARD_WIDTH_MM = 63.5  # assumed width of a TTS card at scale 1 (a poker card); cards are scaled from it
TILE_UNITS = 2.0  # assumed size in units of a custom tile or board at scale 1; tiles are scaled from it
TILE_TYPE = {"rect": 0, "hex": 1, "round": 2}  # CustomTile.Type: 0 square, 1 hex, 2 circle
SAVED_OBJECTS = (
    ("Windows", r"%USERPROFILE%\Documents\My Games\Tabletop Simulator\Saves\Saved Objects"),
    ("macOS", "~/Library/Tabletop Simulator/Saves/Saved Objects"),
    ("Linux", "~/.local/share/Tabletop Simulator/Saves/Saved Objects"),
)


def kind_of(size_mm: tuple[float, float], shape: str | None) -> str:
    """'token', 'card' or 'board': round and hex components are tokens, a small square one
    too; a rectangle up to CARD_MAX_MM a side is a card, a larger one a board or map."""
    if shape in ("round", "hex") or max(size_mm) <= TOKEN_MAX_MM:
        return "token"
    return "card" if max(size_mm) <= CARD_MAX_MM else "board"


@dataclass(frozen=True, repr=False, eq=False)
class Grid:
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
class Table:
    """The saved object being assembled, and where the next object goes (in TTS units)."""

    objects: list[dict] = field(default_factory=list)
    next_deck: int = 1  # CustomDeck keys: a card's id is key * 100 + its cell
    x: dict[str, float] = field(default_factory=lambda: {"card": 0.0, "board": 0.0, "token": 0.0})

    def place(self, kind: str, width_units: float) -> tuple[float, float]:
        """(x, z) of the next object of `kind`: cards in a row, boards behind, tokens in front."""
        x = self.x[kind] + width_units / 2
        self.x[kind] += width_units + 0.5
        return round(x, 3), {"card": 0.0, "board": 12.0, "token": -6.0}[kind]


def transform(x: float, y: float, z: float, scale: float, face_down: bool = False) -> dict:
    return {
        "posX": x,
        "posY": y,
        "posZ": z,
        "rotX": 0,
        "rotY": 180 if face_down else 0,
        "rotZ": 180 if face_down else 0,
        "scaleX": scale,
        "scaleY": 1.0,
        "scaleZ": scale,
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
) -> Exported:
    """Sheets, boards and tokens as images in out/GAME/tts-LANG[-DEAL]/ and the saved object
    GAME.json that places them all; with `deal`, only the components that deal uses."""
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
    table = Table()
    for faces, kind, shape, keep in chosen:
        fronts = {i: rasterise(faces.fronts[i], symbols, dpi, 0.0, font) for i in keep}
        backs = {i: rasterise(faces.backs[i], symbols, dpi, 0.0, font) for i in keep} if faces.backs else {}
        if kind == "card":
            _deck(faces.deck, keep, fronts, backs, where, suffix, dpi, max_pixels, urls, table, result)
        else:
            _pieces(faces.deck, kind, shape, keep, fronts, backs, where, suffix, dpi, urls, table, result)
    if not table.objects:
        return result
    saved = where / f"{game.name}.json"
    title = game.meta.title or game.name
    document = {"SaveName": title + (f" ({deal})" if deal else ""), "ObjectStates": table.objects}
    with atomic_path(saved) as tmp:
        tmp.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    result.files.append(saved)
    result.notes.append(f"Saved object: {display_path(saved)} ({len(table.objects)} objects)")
    result.notes.append("In Tabletop Simulator: copy it (and, if you like, a PNG of the same name as its thumbnail) into the Saved Objects folder:")
    result.notes.extend(f"  {system}: {path}" for system, path in SAVED_OBJECTS)
    result.notes.append("then, in a game, Objects > Saved Objects and click it: decks, boards and tokens are placed on the table.")
    result.notes.append("(A deck by hand: Objects > Components > Custom > Deck, with the Face, Back, Width, Height and Number above.)")
    if base_url is None:
        result.notes.append(
            "The images are local files (file:///): only this computer sees them. To play with others, upload them "
            "(Modding > Cloud Manager, or any web host with --base-url URL) before you share the table."
        )
    else:
        result.notes.append(f"The JSON finds the images at {base_url.rstrip('/')}/...: upload everything in {display_path(where)} there, keeping the names.")
    return result


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
        face = faces.fronts[keep[0]]
        w, h = pixels(face.width, dpi), pixels(face.height, dpi)
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


def _deck(deck, keep, fronts, backs, where, suffix, dpi, max_pixels, urls: Urls, table: Table, result: Exported) -> None:
    """A card deck: sheets of its distinct cards, its back (one image, or back sheets when the
    backs differ), and a DeckCustom (a Card when it is one card) with every copy."""
    cell = fronts[keep[0]].size
    largest = largest_grid(cell, max_pixels)
    unique_backs = len({image_digest(image) for image in backs.values()}) > 1
    shared_back = next(iter(backs.values())) if backs and not unique_backs else Image.new("RGB", cell, "white")
    back_file = None
    if not unique_backs:
        back_file = where / f"{deck.id}-back.{suffix}"
        save_image(shared_back, back_file, dpi, result.files)
    groups = [keep[i : i + largest.cells] for i in range(0, len(keep), largest.cells)]
    custom: dict[str, dict] = {}
    ids: dict[int, int] = {}  # card index -> CardID
    total = sum(deck.cards[i].copies for i in keep)
    lines = [f"{deck.id}: {total} cards ({len(keep)} different) on {len(groups)} sheet{'s' if len(groups) != 1 else ''}"]
    for number, group in enumerate(groups, start=1):
        grid = grid_for(len(group), largest)
        key = table.next_deck
        table.next_deck += 1
        face_file = where / f"{deck.id}-{number}.{suffix}"
        save_image(_sheet([fronts[i] for i in group], grid, cell), face_file, dpi, result.files)
        this_back = back_file
        if unique_backs:
            this_back = where / f"{deck.id}-{number}-back.{suffix}"
            save_image(_sheet([backs[i] for i in group], grid, cell), this_back, dpi, result.files)
        assert this_back is not None
        custom[str(key)] = {
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
    width_mm = fronts[keep[0]].size[0] / dpi * INCH_MM
    scale = round(width_mm / CARD_WIDTH_MM, 4)
    x, z = table.place("card", width_mm / INCH_MM)
    cards = [(deck.cards[i], ids[i]) for i in keep for _ in range(deck.cards[i].copies)]
    if len(cards) == 1:
        card, card_id = cards[0]
        table.objects.append(
            {
                "Name": "Card",
                "Nickname": _name(card),
                "GMNotes": card.id,
                "Transform": transform(x, 1.0, z, scale, True),
                "CardID": card_id,
                "CustomDeck": custom,
            }
        )
        return
    contained = [
        {"Name": "Card", "Nickname": _name(card), "GMNotes": card.id, "CardID": card_id, "Transform": transform(x, 1.0, z, scale, True)}
        for card, card_id in cards
    ]
    table.objects.append(
        {
            "Name": "DeckCustom",
            "Nickname": deck.name,
            "Transform": transform(x, 1.0, z, scale, True),
            "DeckIDs": [card_id for _, card_id in cards],
            "CustomDeck": custom,
            "ContainedObjects": contained,
        }
    )


def _pieces(deck, kind, shape, keep, fronts, backs, where, suffix, dpi, urls: Urls, table: Table, result: Exported) -> None:
    """Boards and tokens, one object per copy: a one-sided board is a Custom_Board; a
    two-sided board and every token a Custom_Tile in its shape with its back."""
    count = 0
    for i in keep:
        card = deck.cards[i]
        front_file = where / deck.id / f"{card.id}.{suffix}"
        save_image(fronts[i], front_file, dpi, result.files)
        back_url = ""
        if i in backs:
            back_file = where / deck.id / f"{card.id}-back.{suffix}"
            save_image(backs[i], back_file, dpi, result.files)
            back_url = urls.of(back_file)
        w_mm, h_mm = (n / dpi * INCH_MM for n in fronts[i].size)
        scale = round(max(w_mm, h_mm) / INCH_MM / TILE_UNITS, 4)
        x, z = table.place(kind, max(w_mm, h_mm) / INCH_MM)
        for copy in range(card.copies):
            where_y = 1.0 + copy * 0.2
            if kind == "board" and not back_url:
                image = {"ImageURL": urls.of(front_file), "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}
                table.objects.append(
                    {"Name": "Custom_Board", "Nickname": _name(card), "GMNotes": card.id, "Transform": transform(x, where_y, z, scale), "CustomImage": image}
                )
            else:
                tile = {"Type": TILE_TYPE[shape], "Thickness": 0.2 if kind == "board" else 0.1, "Stackable": kind == "token", "Stretch": kind == "token"}
                image = {"ImageURL": urls.of(front_file), "ImageSecondaryURL": back_url, "ImageScalar": 1.0, "WidthScale": 0.0, "CustomTile": tile}
                table.objects.append(
                    {"Name": "Custom_Tile", "Nickname": _name(card), "GMNotes": card.id, "Transform": transform(x, where_y, z, scale), "CustomImage": image}
                )
            count += 1
    what = "board" if kind == "board" else f"{ {'rect': 'square'}.get(shape, shape) } token"
    result.notes.append(f"{deck.id}: {count} {what}{'s' if count != 1 else ''} ({len(keep)} different) in {display_path(where / deck.id)}")


def _name(card) -> str:
    """A card's name as TTS shows it: its title as errata and the preview show it (its
    `title`, else its `name` field), else its id."""
    title = title_of(card.fields)
    return title if title is not None and title.strip() else card.id


def _sheet(cards: list[Image.Image], grid: Grid, cell: tuple[int, int]) -> Image.Image:
    """`cards` on a `grid` of `cell`-sized cells, row by row from the top left."""
    cell_w, cell_h = cell
    sheet = Image.new("RGB", (cell_w * grid.cols, cell_h * grid.rows), "white")
    for slot, image in enumerate(cards):
        row, col = divmod(slot, grid.cols)
        sheet.paste(image if image.size == cell else image.resize(cell), (col * cell_w, row * cell_h))
    return sheet
