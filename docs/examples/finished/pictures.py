"""Finished card images without bleed, for `pnp impose --make-bleed`, and the pictures of
bleed in docs/sheets.md and docs/commands.md (docs/images/bleed-*.png).

The cards are the pnp project's own art, drawn here with Pillow: four poker-size fronts
(63 x 88 mm at 6 px a mm, 152 dpi) and one back, cut exactly at the trim. Their edges
are diagonal stripes and a lattice that run off the card, so that the two ways of making
bleed differ where one can see it. Impose them with, from the top folder of the checkout:

    pnp impose docs/examples/finished/fronts --back docs/examples/finished/back.png --make-bleed 3
    pnp impose docs/examples/finished/fronts --back docs/examples/finished/back.png --make-bleed 3 --make-bleed-mode mirror

Run `python docs/examples/finished/pictures.py` from the top folder after changing the
cards or the drawing: it draws the cards again (the same bytes), imposes them with `pnp
impose` and cuts the pictures out of the PDFs as pdfium renders them.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont

from pnp.impose.sheets import SheetSpec, plan_grid

HERE = Path(__file__).resolve().parent
TOP = HERE.parents[2]
IMAGES = TOP / "docs" / "images"
PX = 6  # pixels a mm of the cards
W, H = 63, 88  # mm: poker size
PT = 72 / 25.4  # points a mm
FRONTS = [("#2f6db5", "#24568f", "1"), ("#b3261e", "#8e1d17", "2"), ("#3f7d3a", "#30612c", "3"), ("#c27a1a", "#9c6214", "4")]
CREAM, INK, GOLD, NIGHT = "#f6efe0", "#2b2116", "#d8b45a", "#26304a"
CUT = (0, 170, 220)  # the trim line drawn over the pictures: where the card is cut


def stripes(draw: ImageDraw.ImageDraw, colour: str, width: int, step: int) -> None:
    """Diagonal stripes over the whole card, running off its edges."""
    for start in range(-H * PX, W * PX + H * PX, step):
        draw.line([(start, 0), (start + H * PX, H * PX)], fill=colour, width=width)


def front(background: str, stripe: str, number: str) -> Image.Image:
    image = Image.new("RGB", (W * PX, H * PX), background)
    draw = ImageDraw.Draw(image)
    stripes(draw, stripe, 3 * PX, 7 * PX)
    draw.rounded_rectangle([7 * PX, 7 * PX, (W - 7) * PX, (H - 7) * PX], radius=4 * PX, fill=CREAM, outline=INK, width=PX // 2)
    centre = (W * PX // 2, 34 * PX)
    draw.ellipse([centre[0] - 16 * PX, centre[1] - 16 * PX, centre[0] + 16 * PX, centre[1] + 16 * PX], fill=background, outline=INK, width=PX // 2)
    font = ImageFont.truetype(str(TOP / "fonts" / "SourceSerifPro-Bold.ttf"), 22 * PX)
    draw.text(centre, number, font=font, fill=CREAM, anchor="mm")
    for row in range(3):  # lines of "text": the card's rules, as bars
        y = (58 + 6 * row) * PX
        draw.rounded_rectangle([14 * PX, y, (W - 14 - 8 * (row == 2)) * PX, y + 2 * PX], radius=PX, fill="#b9ad96")
    return image


def back() -> Image.Image:
    image = Image.new("RGB", (W * PX, H * PX), NIGHT)
    draw = ImageDraw.Draw(image)
    for start in range(-H * PX, W * PX + H * PX, 9 * PX):  # a lattice running off the edges
        draw.line([(start, 0), (start + H * PX, H * PX)], fill="#34406a", width=PX)
        draw.line([(start, H * PX), (start + H * PX, 0)], fill="#34406a", width=PX)
    centre = (W * PX // 2, H * PX // 2)
    for radius, width in ((20, PX), (17, PX // 2)):
        draw.ellipse(
            [centre[0] - radius * PX, centre[1] - radius * PX, centre[0] + radius * PX, centre[1] + radius * PX], fill=NIGHT, outline=GOLD, width=width
        )
    draw.regular_polygon((centre, 11 * PX), 4, rotation=45, fill=GOLD)
    return image


def save(image: Image.Image, path: Path, colours: int = 24) -> None:
    """A PNG of few colours: a few KB, and the same bytes each time."""
    path.parent.mkdir(parents=True, exist_ok=True)
    image.quantize(colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


def draw_cards() -> None:
    for index, (background, stripe, number) in enumerate(FRONTS, 1):
        save(front(background, stripe, number), HERE / "fronts" / f"card{index}.png")
    save(back(), HERE / "back.png")


def impose(out: Path, *options: str) -> Path:
    """The example imposed with `options` by pnp itself; the path of its PDF."""
    command = [sys.executable, "-m", "pnp", "impose", str(HERE / "fronts"), "--back", str(HERE / "back.png"), "--out", str(out), *options]
    subprocess.run(command, check=True, cwd=TOP, capture_output=True)
    return out / "fronts-a4.pdf"


def render(pdf: Path, page: int, dpi: float) -> Image.Image:
    document = pdfium.PdfDocument(str(pdf))
    image = document[page].render(scale=dpi / 72).to_pil().convert("RGB")
    document.close()
    return image


def cut_lines(image: Image.Image, dpi: float, xs: list[float], ys: list[float]) -> None:
    """Dashed lines along the trims (x and y in mm from the picture's top left)."""
    draw = ImageDraw.Draw(image)
    scale, dash = dpi / 25.4, max(2, round(dpi / 50))
    for x in xs:
        for y in range(0, image.height, 2 * dash):
            draw.line([(round(x * scale), y), (round(x * scale), y + dash - 1)], fill=CUT)
    for y in ys:
        for x in range(0, image.width, 2 * dash):
            draw.line([(x, round(y * scale)), (x + dash - 1, round(y * scale))], fill=CUT)


def crop(image: Image.Image, dpi: float, left: float, top: float, width: float, height: float) -> Image.Image:
    """The part of a rendered page `width` x `height` mm whose top left is `left`, `top` mm
    from the page's top left."""
    scale = dpi / 25.4
    return image.crop((round(left * scale), round(top * scale), round((left + width) * scale), round((top + height) * scale)))


def grid_corner(**spec: float) -> tuple[float, float]:
    """Where the top left card's trim corner is on an A4 page, in mm from the page's top
    left, for the sheet options `spec`: as pnp's own plan places it."""
    grid = plan_grid(SheetSpec(**spec), W * PT, H * PT)
    return grid.x0 / PT, (grid.page_h - grid.y0) / PT


def pictures() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        dpi = 240  # about 3 x the size the docs' other pictures show paper at
        for mode in ("stretch", "mirror"):  # the corner of one card, made 3 mm of bleed each way
            pdf = impose(out / mode, "--make-bleed", "3", "--make-bleed-mode", mode)
            x, y = grid_corner(bleed=3)
            picture = crop(render(pdf, 0, dpi), dpi, x - 5, y - 5, 18, 18)
            cut_lines(picture, dpi, [5], [5])
            picture.save(IMAGES / f"bleed-{mode}.png", optimize=True)
        dpi = 90  # whole cards: the corner of a sheet (mirrored bleed, which continues the patterns)
        pdf = impose(out / "outer", "--make-bleed", "1", "--outer-bleed", "3", "--make-bleed-mode", "mirror")
        x, y = grid_corner(bleed=1, outer_bleed=3)
        picture = crop(render(pdf, 0, dpi), dpi, x - 8, y - 8, W + 36, H + 28)
        cut_lines(picture, dpi, [8, 8 + W, 8 + W + 2], [8, 8 + H, 8 + H + 2])
        save(picture, IMAGES / "bleed-outer.png", 64)
        pdf = impose(out / "back", "--make-bleed", "1", "--back-bleed", "3", "--make-bleed-mode", "mirror")
        x, y = grid_corner(bleed=1, back_bleed=3)
        fronts = crop(render(pdf, 0, dpi), dpi, x - 8, y - 8, W + 30, H + 28)
        backs = crop(render(pdf, 1, dpi), dpi, 210 - x - W - 22, y - 8, W + 30, H + 28)  # behind it: the back page's top right
        cut_lines(fronts, dpi, [8, 8 + W, 8 + W + 6], [8, 8 + H, 8 + H + 6])
        cut_lines(backs, dpi, [22 - 6, 22, 22 + W], [8, 8 + H, 8 + H + 6])
        both = Image.new("RGB", (fronts.width + backs.width + 12, fronts.height), "#9a9a9a")
        both.paste(fronts, (0, 0))
        both.paste(backs, (fronts.width + 12, 0))
        save(both, IMAGES / "bleed-back.png", 64)


if __name__ == "__main__":
    draw_cards()
    pictures()
