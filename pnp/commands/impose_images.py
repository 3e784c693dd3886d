"""`pnp impose`: finished card images (a folder of fronts, one back or a folder of backs)
on the same sheets as generated decks: the grid, crop marks, duplex backs and calibration
ruler all come from `impose.sheets` and `pdf.write_sheets`, each card a Face with one image.

Images are taken in natural file-name order ("card2" before "card10"). The card size is
given, or read from the images' proportions: portrait cards of about poker proportions are
63 x 88 mm, others keep their proportions at 63 mm across the short side.

A folder with a `manifest.csv` (what `pnp export shop` writes) is read from it instead:
each front as many times as its quantity, with its own back or the deck's one back, at
the trim size and with the bleed the manifest states.

Images cut at the trim, without bleed, get bleed made for them (`--make-bleed`), so that
a cut a little off shows the card's own edge, never the paper's white: each image is
extended outwards either by its outermost pixels (`stretch`: each edge's row or column
stretched, each corner filled with its corner pixel) or by its edge strip reflected
outwards (`mirror`: the pixels next to the edge repeated in reverse order, as in a
mirror laid on the cut; each corner reflected both ways), which keeps a pattern or a
photograph going past the cut where stretching would smear it into stripes.
"""

from __future__ import annotations

import csv
import re
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from PIL import Image, UnidentifiedImageError
from reportlab.lib.units import mm

from pnp.assets.fonts import bundled_fonts
from pnp.assets.images import MAX_PIXELS
from pnp.base.errors import Location, PnpError, Problems, display_path
from pnp.base.output import Written, atomic_path, transaction
from pnp.exports.png import PngCard, exported_card  # what `pnp export png` wrote into its images
from pnp.exports.shops import MANIFEST  # written by `pnp export shop` (exports/shop.py)
from pnp.i18n.own import ENGLISH, Words
from pnp.impose.sheets import DoesNotFit, SheetSpec, fit_grid, impose, impose_fold, plan_fold, plan_tiling
from pnp.layout.faces import Face, ImageOp
from pnp.write.cutfiles import cut_files

SUFFIXES = {".png", ".jpg", ".jpeg"}
POKER = (63.0, 88.0)
SHORT_SIDE = 63.0  # mm: the default width of a card that is not of poker proportions
MIN_DPI = 150  # below this a printed card looks blurred
MAX_IMAGES = 10_000
MANIFEST_COLUMNS = ("file", "deck", "card", "side", "quantity", "size", "bleed_mm")
BleedMode = Literal["stretch", "mirror"]
MADE = {"stretch": "stretched", "mirror": "mirrored"}  # how the summary says which way bleed was made


@dataclass(repr=False, eq=False)
class Artwork:
    fronts: list[Path]
    backs: list[Path]  # empty, one for every card, or one per front
    size: tuple[float, float]  # trim in mm
    problems: Problems = field(default_factory=Problems)
    bleed: float | None = None  # mm the images hold beyond the trim, when a manifest says; else --bleed
    learned: float | None = None  # the bleed the images say they were exported with (pnp export png), when --bleed was not given
    notes: list[str] = field(default_factory=list)  # summary lines: how the images were read (the backs of pnp export png)


def natural_key(path: Path) -> list:
    """'card2.png' sorts before 'card10.png', as a file manager shows them."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def image_files(folder: Path, skip: Path | None = None) -> list[Path]:
    """The PNG and JPEG files of a folder in natural order, hidden files and `skip` left out."""
    files = [p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES and not p.name.startswith(".")]
    if skip is not None:
        files = [p for p in files if p.resolve() != skip.resolve()]
    return sorted(files, key=natural_key)


def parse_size(text: str) -> tuple[float, float]:
    """'63x88' (mm) -> (63.0, 88.0); raises ValueError with a reason."""
    parts = re.split(r"\s*[x×X,]\s*", text.strip().removesuffix("mm").strip())
    if len(parts) != 2:
        raise ValueError(f"'{text}' is not a size; expected WIDTHxHEIGHT in mm, e.g. 63x88")
    width, height = (float(p) for p in parts)
    if not (10 <= width <= 500 and 10 <= height <= 500):
        raise ValueError(f"'{text}' is out of range; expected a width and height from 10 to 500 mm")
    return width, height


def _pixels(path: Path, problems: Problems) -> tuple[int, int] | None:
    """The image's size, once it is known to decode whole: Image.open reads only the header,
    and a truncated or corrupt file would fail later, while the sheets are written."""
    try:
        with Image.open(path) as image:
            size = image.size
            if size[0] * size[1] > MAX_PIXELS:  # before decoding it
                problems.error(
                    Location(display_path(path)), "image-too-large", f"the image is {size[0]} x {size[1]} pixels; expected at most {MAX_PIXELS:,} pixels"
                )
                return None
            image.load()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError) as exc:
        problems.error(Location(display_path(path)), "image-unreadable", f"cannot read this image ({exc}); expected a whole PNG or JPEG file")
        return None
    return size


def size_from(pixels: tuple[int, int], bleed: float) -> tuple[float, float]:
    """A trim size in mm for images of these proportions, which include `bleed` mm a side."""
    w, h = pixels
    if w <= h:
        height = (SHORT_SIDE + 2 * bleed) * h / w - 2 * bleed
        size = (SHORT_SIDE, round(height, 1))
        return POKER if abs(size[1] - POKER[1]) / POKER[1] < 0.03 else size
    width = (SHORT_SIDE + 2 * bleed) * w / h - 2 * bleed
    size = (round(width, 1), SHORT_SIDE)
    return (POKER[1], POKER[0]) if abs(size[0] - POKER[1]) / POKER[1] < 0.03 else size


def collect(folder: Path, back: Path | None, size: tuple[float, float] | None, bleed: float | None) -> Artwork:
    """Find and check the images; raises PnpError with every problem found. `bleed` None
    (not given): the bleed, and unless `size` is given the trim, that the fronts say they
    were exported with (pnp export png writes them into each PNG), when they all agree;
    else none."""
    problems = Problems()
    shown = Location(display_path(folder))
    if not folder.is_dir():
        problems.error(shown, "images-missing", "this is not a folder; expected a folder of card fronts (PNG or JPEG)")
        problems.unreadable = True
        raise PnpError(problems)
    fronts = image_files(folder, skip=back if back is not None and back.is_file() else None)
    if not fronts:
        problems.error(shown, "images-missing", "no PNG or JPEG images in this folder; expected one image per card front")
        problems.unreadable = True
        raise PnpError(problems)
    if len(fronts) > MAX_IMAGES:
        problems.error(shown, "images-limit", f"{len(fronts)} images; expected at most {MAX_IMAGES}")
        raise PnpError(problems)
    cards = {path: exported_card(path) for path in fronts}  # each file's header read once
    fronts, found, notes = _exported_backs(folder, fronts, cards, problems if back is None else Problems())  # an exported deck's backs are never fronts
    if back is None:
        backs = found
    else:
        notes = [f"the folder's {len(found)} back image{'s' if len(found) != 1 else ''} of pnp export png left out: --back gives the backs"] if found else []
        if back.is_dir():
            backs = image_files(back)
            if len(backs) != len(fronts):
                problems.error(
                    Location(display_path(back)),
                    "images-backs",
                    f"{len(backs)} back images for {len(fronts)} fronts; expected one back per front (in the same file-name order) or a single back file",
                )
        elif back.is_file():
            backs = [back]
        else:
            problems.error(Location(display_path(back)), "images-missing", "this back image or folder does not exist; expected a PNG or JPEG file, or a folder")
    sizes = {path: _pixels(path, problems) for path in fronts + backs}
    problems.raise_if_errors()
    learned = None
    if bleed is None:
        exported = {card.held if card is not None else None for card in map(cards.get, fronts)}
        found = exported.pop() if len(exported) == 1 else None
        if found is not None:
            size, learned = size or found[0], found[1]
        bleed = learned or 0.0
    trim = size or size_from(sizes[fronts[0]], bleed)  # type: ignore[arg-type]
    art_w, art_h = trim[0] + 2 * bleed, trim[1] + 2 * bleed
    for path, pixels in sizes.items():
        assert pixels is not None
        ratio, want = pixels[0] / pixels[1], art_w / art_h
        where = Location(display_path(path))
        if abs(ratio - want) / want > 0.02:
            problems.warn(
                where,
                "image-proportions",
                f"the image is {pixels[0]} x {pixels[1]} pixels, not in the proportions of {art_w:g} x {art_h:g} mm; it is centred with white margins (check --size and --bleed)",
            )
        dpi = pixels[0] / (art_w / 25.4)
        if round(dpi) < MIN_DPI:  # as it is said: an image exported at 150 dpi is 149.98 of them, to whole pixels
            problems.warn(where, "image-resolution", f"the image has {dpi:.0f} dpi at {art_w:g} mm across; expected at least {MIN_DPI} for a sharp print")
    return Artwork(fronts, backs, trim, problems, learned=learned, notes=notes)


def _exported_backs(folder: Path, files: list[Path], cards: dict[Path, PngCard | None], problems: Problems) -> tuple[list[Path], list[Path], list[str]]:
    """A deck's folder of `pnp export png` holds its backs beside its fronts (one back.png,
    or ID-back.png beside each ID-front.png), each PNG saying its side: the fronts, the
    backs (one for every card, or one per front in the fronts' order) and the summary's
    line. Any other folder is all fronts."""
    backs = [path for path in files if (card := cards[path]) is not None and card.is_back]
    if not backs:
        return files, [], []
    fronts = [path for path in files if not (card := cards[path]) or not card.is_back]
    if not fronts:  # a folder of backs alone: imposed as it is asked, as cards
        return files, [], []
    if len(backs) == 1:
        return fronts, backs, [f"the back: {backs[0].name} (pnp export png's), behind every card"]
    by_name = {path.name: path for path in backs}
    paired = [by_name.get(front.name.replace("-front.", "-back.")) for front in fronts]
    if None in paired or len(backs) != len(fronts):
        unpaired = [front.name for front, found in zip(fronts, paired) if found is None]
        problems.error(
            Location(display_path(folder)),
            "images-backs",
            f"{len(backs)} back images of pnp export png for {len(fronts)} fronts"
            + (f" ({', '.join(unpaired[:3])}{' ...' if len(unpaired) > 3 else ''} without its ID-back.png)" if unpaired else "")
            + "; expected one back.png, or an ID-back.png beside each ID-front.png (export the deck again), or --back",
        )
        return fronts, backs, []
    return fronts, [path for path in paired if path is not None], [f"the backs: {len(backs)} ID-back.png (pnp export png's), each behind its front"]


def collect_manifest(folder: Path, bleed: float) -> Artwork:
    """The cards a manifest.csv lists: each front `quantity` times, paired with its own back
    (same card) or the one back of the deck (no card); raises PnpError with every problem."""
    problems = Problems()
    path = folder / MANIFEST
    shown = display_path(path)
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
        columns = set(rows[0]) if rows else set()
    missing = [c for c in MANIFEST_COLUMNS if c not in columns]
    if missing:
        problems.error(
            Location(shown, 1, 1),
            "manifest",
            f"no column {', '.join(missing)}; expected the columns {', '.join(MANIFEST_COLUMNS)} (as pnp export shop writes them)",
        )
        raise PnpError(problems)
    fronts: list[tuple[Path, str]] = []  # (image, card id), one per copy
    own_backs: dict[str, Path] = {}
    shared_back: Path | None = None
    sizes, bleeds = set(), set()
    for line, row in enumerate(rows, start=2):
        where = Location(shown, line, 1)
        name = row["file"]
        image = folder / name
        if Path(name).suffix.lower() not in SUFFIXES:
            problems.error(
                where,
                "manifest",
                f"'{name}' is not a PNG or JPEG image; pnp impose places images, and a PDF shop's file is already one card per page: expected the folder of an image shop's export (--profile tgc or mpc)",
            )
            continue
        if Path(name).name != name or not image.is_file():
            problems.error(where, "images-missing", f"'{name}' is not a file in {display_path(folder)}; expected the images the manifest lists beside it")
            continue
        try:
            quantity = int(row["quantity"])
            if not 1 <= quantity <= MAX_IMAGES:
                raise ValueError
        except ValueError:
            problems.error(where, "manifest", f"quantity '{row['quantity']}' of '{name}'; expected a whole number from 1 to {MAX_IMAGES}")
            continue
        sizes.add(row["size"])
        bleeds.add(row["bleed_mm"])
        if row["side"] == "front":
            fronts.extend([(image, row["card"])] * quantity)
        elif row["side"] == "back" and row["card"]:
            own_backs[row["card"]] = image
        elif row["side"] == "back":
            shared_back = image
        else:
            problems.error(where, "manifest", f"side '{row['side']}' of '{name}'; expected front or back")
    if len(fronts) > MAX_IMAGES:
        problems.error(Location(shown), "images-limit", f"{len(fronts)} cards; expected at most {MAX_IMAGES}")
    if len(sizes) > 1 or len(bleeds) > 1:
        problems.error(
            Location(shown),
            "manifest",
            f"cards of sizes {', '.join(sorted(sizes))} mm with bleeds {', '.join(sorted(bleeds))} mm; expected one deck (one size) per manifest",
        )
    if not fronts and not problems.errors:
        problems.error(Location(shown), "images-missing", "no front listed; expected a row with side 'front' per card")
    problems.raise_if_errors()
    try:
        size = parse_size(sizes.pop())
        image_bleed = float(bleeds.pop())
    except ValueError as exc:
        problems.error(Location(shown), "manifest", f"{exc}; expected the size and bleed_mm pnp export shop writes")
        raise PnpError(problems) from None
    if bleed > image_bleed + 1e-6:
        problems.error(
            Location(shown),
            "manifest",
            f"--bleed {bleed:g} is more than the {image_bleed:g} mm of bleed the images hold; expected --bleed {image_bleed:g} or less",
        )
        raise PnpError(problems)
    backs: list[Path] = []
    if own_backs or shared_back:
        lacking = sorted({card for _, card in fronts if card not in own_backs}) if shared_back is None else []
        if lacking:
            problems.error(
                Location(shown), "images-backs", f"no back for card {', '.join(lacking)}; expected a back row per card, or one for the deck (no card)"
            )
            raise PnpError(problems)
        backs = [own_backs.get(card, shared_back) for _, card in fronts]  # type: ignore[misc]
    for image in {p for p, _ in fronts} | set(backs):
        _pixels(image, problems)
    problems.raise_if_errors()
    return Artwork([p for p, _ in fronts], backs, size, problems, image_bleed)


def made_bleed(source: Path, pad_x: int, pad_y: int, target: Path, mode: BleedMode = "stretch") -> None:
    """`source` with `pad_x` pixels more on the left and right and `pad_y` above and
    below, saved as PNG at `target`. `stretch`: made of its outermost pixels, each edge's
    row or column stretched outwards, each corner filled with its corner pixel. `mirror`:
    the image reflected in each of its edges (a corner: reflected in both), so the pixel
    `d` pixels outside an edge is the one `d - 1` pixels inside it; bleed wider than the
    image itself reflects it again, back and forth."""
    with Image.open(source) as image:
        image.load()
        if image.mode not in ("RGB", "RGBA"):
            image = image.convert("RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB")
        w, h = image.size
        if mode == "mirror":
            _mirrored(image, pad_x, pad_y).save(target, "PNG")
            return
        out = Image.new(image.mode, (w + 2 * pad_x, h + 2 * pad_y))
        out.paste(image, (pad_x, pad_y))
        if pad_y:
            out.paste(image.crop((0, 0, w, 1)).resize((w, pad_y)), (pad_x, 0))
            out.paste(image.crop((0, h - 1, w, h)).resize((w, pad_y)), (pad_x, pad_y + h))
        if pad_x:
            out.paste(image.crop((0, 0, 1, h)).resize((pad_x, h)), (0, pad_y))
            out.paste(image.crop((w - 1, 0, w, h)).resize((pad_x, h)), (pad_x + w, pad_y))
        if pad_x and pad_y:
            for x, y, px, py in ((0, 0, 0, 0), (w - 1, 0, pad_x + w, 0), (0, h - 1, 0, pad_y + h), (w - 1, h - 1, pad_x + w, pad_y + h)):
                out.paste(image.getpixel((x, y)), (px, py, px + pad_x, py + pad_y))
        out.save(target, "PNG")


def _mirrored(image: Image.Image, pad_x: int, pad_y: int) -> Image.Image:
    """`image` reflected outwards in its edges by `pad_x` and `pad_y` pixels: a 3 x 3 tiling
    of it and its mirror images (flipped left-right beside it, top-bottom above and below,
    both ways in the corners), cropped; tiled again while the bleed is wider than the image."""
    w, h = image.size
    flipped_x = image.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    flipped_y = image.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    flipped_xy = image.transpose(Image.Transpose.ROTATE_180)
    reps_x, reps_y = -(-pad_x // w), -(-pad_y // h)  # images needed beside it on each side
    tiled = Image.new(image.mode, ((2 * reps_x + 1) * w, (2 * reps_y + 1) * h))
    for i in range(-reps_x, reps_x + 1):
        for j in range(-reps_y, reps_y + 1):
            tile = (image, flipped_x, flipped_y, flipped_xy)[(i % 2) + 2 * (j % 2)]
            tiled.paste(tile, ((i + reps_x) * w, (j + reps_y) * h))
    left, top = reps_x * w - pad_x, reps_y * h - pad_y
    return tiled.crop((left, top, left + w + 2 * pad_x, top + h + 2 * pad_y))


def impose_images(
    folder: Path,
    back: Path | None,
    size: tuple[float, float] | None,
    spec: SheetSpec,
    out: Path,
    title: str | None = None,
    learn_bleed: bool = False,
    make_bleed: float = 0.0,
    mode: BleedMode = "stretch",
    words: Words = ENGLISH,
) -> tuple[Written, Problems, list[Path], list[str]]:
    """Write the sheets of the images in `folder` to one PDF; returns what was written (its
    path, the number of cards and pages, whether it is printed double-sided), the
    warnings, the cut files written beside it (--cutter) and the lines of the summary
    that say what was done to the images (the bleed made for them). `learn_bleed` (--bleed not given): images of `pnp export png` are imposed
    with the bleed they hold. Cards too large for the paper are turned to landscape, or
    else printed in overlapping pieces, as `pnp build` does; folded (--sides fold) when
    half a sheet holds them, else double-sided. `make_bleed`: mm of bleed made for
    images that have none (`made_bleed`, by `mode`), in place of `spec.bleed` (what the
    images include); as much more as --outer-bleed and --back-bleed ask for. `words`:
    pnp's own words on the sheets and in the PDF's subject, in the language asked for (a
    folder of images has none of its own)."""
    if back is None and (folder / MANIFEST).is_file():
        art = collect_manifest(folder, spec.bleed)
        if size is not None:
            art.size = size
    else:
        art = collect(folder, back, size, None if learn_bleed and not make_bleed else spec.bleed)
        if art.learned is not None:
            spec = replace(spec, bleed=art.learned)
    if not make_bleed:
        return (*_impose(folder, art, _within_images(folder, art, spec), out, title, words), art.notes)
    _refuse_bled(folder, art, make_bleed)
    made = max(make_bleed, spec.outer_bleed, spec.backs_bleed if spec.back_bleed is not None else 0.0)  # the images must reach as far as any edge is printed
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".pnp-bleed-", dir=out) as work:  # under --out, removed once the PDF is written
        images: dict[Path, Path] = {}
        for index, path in enumerate(dict.fromkeys(art.fronts + art.backs)):
            with Image.open(path) as image:
                w, h = image.size
            target = Path(work) / str(index) / f"{path.stem}.png"  # named as the image: the pieces' labels show it
            target.parent.mkdir()
            made_bleed(path, round(made * w / art.size[0]), round(made * h / art.size[1]), target, mode)
            images[path] = target
        count = len(images)
        art.fronts = [images[p] for p in art.fronts]
        art.backs = [images[p] for p in art.backs]
        art.bleed = made
        asking = [
            name
            for name, value in (("--outer-bleed", spec.outer_bleed), ("--back-bleed", spec.backs_bleed if spec.back_bleed is not None else 0.0))
            if value > make_bleed
        ]
        wider = f", {made:g} mm for {' and '.join(asking)}" if asking else ""  # the options that asked for more, each as given
        said = f"made {make_bleed:g} mm bleed ({MADE[mode]}{wider}) for {count} image{'s' if count != 1 else ''} cut at the trim"
        return (*_impose(folder, art, replace(spec, bleed=make_bleed), out, title, words), [*art.notes, said])


def _refuse_bled(folder: Path, art: Artwork, make_bleed: float) -> None:
    """--make-bleed is for images cut at the trim: images that say they hold bleed (a
    manifest's, or what pnp export png wrote into each PNG) are an error, all in one."""
    if art.bleed:
        art.problems.error(
            Location(display_path(folder / MANIFEST)),
            "images-make-bleed",
            f"the images hold {art.bleed:g} mm of bleed already (the manifest says so); expected --make-bleed only for images cut at the trim, or --bleed {art.bleed:g}",
        )
        raise PnpError(art.problems)
    bled: dict[float, list[str]] = {}
    for path in dict.fromkeys(art.fronts + art.backs):
        card = exported_card(path)
        if card is not None and card.held is not None and card.held[1] > 0:
            bled.setdefault(card.held[1], []).append(path.name)
    for held, names in sorted(bled.items()):
        listed = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        art.problems.error(
            Location(display_path(folder)),
            "images-make-bleed",
            f"{len(names)} image{'s' if len(names) != 1 else ''} ({listed}) hold {held:g} mm of bleed already (pnp export png wrote it into them); expected --make-bleed {make_bleed:g} only for images cut at the trim, or --bleed {held:g} without it",
        )
    art.problems.raise_if_errors()


def _within_images(folder: Path, art: Artwork, spec: SheetSpec) -> SheetSpec:
    """`spec` with --outer-bleed and --back-bleed no larger than the bleed the images hold
    (an edge cannot show art the image does not have), saying so where they were larger."""
    held = spec.bleed if art.bleed is None else art.bleed
    asked = {"--outer-bleed": spec.outer_bleed, "--back-bleed": spec.backs_bleed}
    over = {name: value for name, value in asked.items() if value > held + 1e-9}
    if not over:
        return spec
    said = " and ".join(f"{name} {value:g}" for name, value in over.items())
    art.problems.warn(
        Location(display_path(folder)),
        "images-bleed-short",
        f"the images hold {held:g} mm of bleed, less than {said} asks for; those edges get {held:g} mm (expected --make-bleed for images cut at the trim, or images with more bleed)",
    )
    return replace(spec, outer_bleed=min(spec.outer_bleed, held), back_bleed=min(spec.backs_bleed, held))


def _impose(folder: Path, art: Artwork, spec: SheetSpec, out: Path, title: str | None, words: Words) -> tuple[Written, Problems, list[Path]]:
    """The sheets of the cards of `art` (see impose_images)."""
    from pnp.write.pdf import DocInfo, ruler_caption, subject, write_sheets

    width, height = art.size[0] * mm, art.size[1] * mm
    grid = fit_grid(spec, width, height)
    bleed = spec.bleed * mm
    held = bleed if art.bleed is None else art.bleed * mm  # how far the images reach beyond the trim

    def face(path: Path, side: str) -> Face:
        return Face(f"{path.name} ({side})", width, height, (ImageOp(str(path.resolve()), -held, -held, width + 2 * held, height + 2 * held),))

    fronts = [face(p, "front") for p in art.fronts]
    backs = [face(p, "back") for p in art.backs]
    name = title or folder.resolve().name
    suffix = ("" if spec.sides == "duplex" else f"-{spec.sides}") + (f"-{spec.cutter}" if spec.cutter else "")
    target = out / f"{folder.resolve().name}-{spec.paper}{suffix}.pdf"
    if grid is None:
        return (*_impose_pieces(folder, art, fronts, spec, target, name, words), [])

    def face_of(side: str, item: int) -> Face:
        if side == "front":
            return fronts[item]
        return backs[item] if len(backs) > 1 else backs[0]

    if spec.sides == "backs" and not backs:
        art.problems.error(Location(display_path(folder)), "images-backs", "--sides backs needs back images; expected --back FILE or FOLDER")
        raise PnpError(art.problems)
    sides = spec.sides if backs else "fronts"
    fold = None
    if sides == "fold":
        try:
            fold = plan_fold(spec, width, height)
        except DoesNotFit as exc:
            message = f"{exc}; the backs are printed on the reverse pages instead, double-sided (flip on the {spec.flip} edge), or use larger paper (--paper)"
            art.problems.warn(Location(display_path(folder)), "sheet-fold-fit", message)
            sides = "duplex"
    if fold is not None:
        grid = fold.grid
        pages = list(impose_fold(len(fronts), fold, spec))
    else:
        pages = list(impose(len(fronts), grid, replace(spec, sides=sides)))
    sheets = -(-len(fronts) // grid.per_sheet)

    duplex = sides == "duplex"
    info = DocInfo(
        title=name,
        author="",
        subject=subject(
            words, f"{words('meta.cards', n=len(fronts))}, {art.size[0]:g} x {art.size[1]:g} mm", spec.sheet_paper.shown, "folded" if fold else sides
        ),
        initial_font=bundled_fonts().get("sans").registered,
        flip=spec.flip if duplex else None,
    )
    cuts = []
    with transaction() as txn:  # the PDF and its cut files moved into place together, or none
        count = write_sheets(txn.path_for(target), pages, grid, info, face_of, None, ruler_caption(name, words, sheets), bleed, words)
        machine = [page for page in pages if page.machine]
        for path, data in cut_files(target, machine, spec, grid.page_w, grid.page_h) if machine else []:
            txn.path_for(path).write_bytes(data)
            cuts.append(path)
    return Written(target, len(fronts), count, spec.flip if duplex else "fold" if fold else None), art.problems, cuts


def _impose_pieces(folder: Path, art: Artwork, fronts: list[Face], spec: SheetSpec, target: Path, name: str, words: Words) -> tuple[Written, Problems]:
    """Cards larger than the paper even turned: each on an assembly page and overlapping
    pieces to glue (pieces.py), one-sided, so their backs are not printed."""
    from pnp.write.pdf import DocInfo, ruler_caption, subject
    from pnp.write.pieces import write_pieces

    where = Location(display_path(folder))
    try:
        tiling = plan_tiling(spec, fronts[0].width, fronts[0].height)
    except DoesNotFit as exc:
        art.problems.error(where, "sheet-fit", f"{exc}; expected a smaller --overlap or larger paper (--paper)")
        raise PnpError(art.problems) from None
    size = f"{art.size[0]:g} x {art.size[1]:g} mm"
    if spec.sides == "backs":
        art.problems.error(
            where,
            "sheet-split-back",
            f"the cards ({size}) are larger than {spec.sheet_paper.shown} and printed in pieces, which have no backs; expected --paper a3 or larger for the backs",
        )
        raise PnpError(art.problems)
    notes = []
    if art.backs and spec.sides == "duplex":
        message = f"the cards ({size}) are larger than {spec.sheet_paper.shown} and printed in pieces; their backs are not printed, because pieces cannot be printed double-sided"
        art.problems.warn(where, "sheet-split-back", message + "; expected --paper a3 or larger if the backs matter")
        notes.append(words("assembly.no-backs"))

    fonts = bundled_fonts()
    info = DocInfo(
        title=name,
        author="",
        subject=subject(
            words, words("meta.pieces", n=len(tiling.pieces), what=f"{words('meta.cards', n=len(fronts))}, {size}"), spec.sheet_paper.shown, "one-sided"
        ),
        initial_font=fonts.get("sans").registered,
    )
    faces = ((f"{name} · {path.stem}", face) for path, face in zip(art.fronts, fronts))
    with atomic_path(target) as tmp:
        count = write_pieces(tmp, tiling, faces, info, None, (info.initial_font, fonts.get("sans-bold").registered), ruler_caption(name, words), notes, words)
    return Written(target, len(fronts), count), art.problems
