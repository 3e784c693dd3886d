"""The pictures of docs/sheets.md drawn from this example game as `pnp build` prints it:

- docs/images/paper-sizes.png: the first sheet of the deck on A4, Letter and tabloid
  (the game's own paper), side by side at one scale, so that the papers compare as they
  are: A4 and Letter hold 9 of its poker cards, tabloid all 16;
- docs/images/copyshop-sheet.png: the game's own sheet (tabloid, 1.5 mm of outer bleed)
  whole, at 30 dpi.

Run `python docs/examples/copyshop/pictures.py` from the top folder of the checkout after
changing the example or the drawing (or `... pictures.py FOLDER` to write them elsewhere).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
TOP = HERE.parents[2]
PAPERS = [("a4", "A4: 9 cards a sheet"), ("letter", "Letter: 9"), ("tabloid", "tabloid, the game's own: 16")]
BACKGROUND, INK = "#e4e4e4", "#333333"


def build(out: Path, paper: str) -> Path:
    """The example's deck built by pnp itself on `paper`; the path of its PDF."""
    command = [sys.executable, "-m", "pnp", "build", str(HERE), "--paper", paper, "--out", str(out), "--quiet"]
    subprocess.run(command, check=True, cwd=TOP, capture_output=True)
    return out / HERE.name / f"stalls-en-{paper}.pdf"


def render(pdf: Path, dpi: float) -> Image.Image:
    """The first page, with a grey edge so that white paper shows on a white page."""
    document = pdfium.PdfDocument(str(pdf))
    image = document[0].render(scale=dpi / 72).to_pil().convert("RGB")
    document.close()
    framed = Image.new("RGB", (image.width + 2, image.height + 2), "#9a9a9a")
    framed.paste(image, (1, 1))
    return framed


def save(image: Image.Image, path: Path, colours: int = 48) -> None:
    """A PNG of few colours: a few tens of KB, and the same bytes each time."""
    path.parent.mkdir(parents=True, exist_ok=True)
    image.quantize(colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


def pictures(images: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pdfs = {paper: build(Path(tmp) / paper, paper) for paper, _ in PAPERS}
        dpi, pad, caption = 22, 12, 18
        sheets = [render(pdfs[paper], dpi) for paper, _ in PAPERS]
        width = sum(sheet.width for sheet in sheets) + pad * (len(sheets) + 1)
        height = max(sheet.height for sheet in sheets) + 2 * pad + caption
        both = Image.new("RGB", (width, height), BACKGROUND)
        draw = ImageDraw.Draw(both)
        font = ImageFont.truetype(str(TOP / "fonts" / "SourceSansPro-Regular.ttf"), 13)
        x = pad
        for sheet, (_, label) in zip(sheets, PAPERS):
            top = pad + max(s.height for s in sheets) - sheet.height  # on one base line
            both.paste(sheet, (x, top))
            draw.text((x + sheet.width // 2, height - pad // 2 - caption // 2), label, font=font, fill=INK, anchor="mm")
            x += sheet.width + pad
        save(both, images / "paper-sizes.png")
        save(render(pdfs["tabloid"], 30), images / "copyshop-sheet.png")


if __name__ == "__main__":
    pictures(Path(sys.argv[1]) if len(sys.argv) > 1 else TOP / "docs" / "images")
