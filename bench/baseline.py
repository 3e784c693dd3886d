"""Plain reportlab drawing the same content as a benchmark deck: the bare limit pnp is
measured against. `python bench/baseline.py DIR OUT.pdf` (DIR made by make_deck.py).

Per card: a frame, the shared art image, a title, and a hyphenated justified paragraph
(Paragraph with pyphen), 9 poker cards per A4 page, fronts then backs per sheet."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

FONTS = Path(__file__).resolve().parent.parent / "fonts"


def main(folder: Path, target: Path) -> None:
    pdfmetrics.registerFont(TTFont("Sans", str(FONTS / "SourceSansPro-Regular.ttf")))
    pdfmetrics.registerFont(TTFont("SerifBold", str(FONTS / "SourceSerifPro-Bold.ttf")))
    cards = yaml.load((folder / "cards.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    art = str(folder / "art.png")
    title_style = ParagraphStyle("t", fontName="SerifBold", fontSize=13, alignment=TA_CENTER)
    body_style = ParagraphStyle("b", fontName="Sans", fontSize=9, leading=10.8, alignment=TA_JUSTIFY, hyphenationLang="sk_SK")
    w, h = 63 * mm, 88 * mm
    x0, y0 = (A4[0] - 3 * w) / 2, (A4[1] - 3 * h) / 2
    canvas = Canvas(str(target), pagesize=A4, invariant=1, initialFontName="Sans")
    for first in range(0, len(cards), 9):
        sheet = cards[first : first + 9]
        for i, card in enumerate(sheet):
            row, col = divmod(i, 3)
            x, y = x0 + col * w, y0 + (2 - row) * h
            canvas.roundRect(x + 2 * mm, y + 2 * mm, w - 4 * mm, h - 4 * mm, 2 * mm)
            canvas.drawImage(art, x + 4 * mm, y + 42 * mm, 55 * mm, 30 * mm)
            title = Paragraph(card["title"], title_style)
            title.wrap(55 * mm, 11 * mm)
            title.drawOn(canvas, x + 4 * mm, y + 75 * mm)
            body = Paragraph(card["text"].replace(":sun:", "").replace(":moon:", ""), body_style)
            _, used = body.wrap(53 * mm, 36 * mm)
            body.drawOn(canvas, x + 5 * mm, y + 40 * mm - used)
        canvas.showPage()
        for i, _ in enumerate(sheet):
            row, col = divmod(i, 3)
            x, y = x0 + (2 - col) * w, y0 + (2 - row) * h
            canvas.setFillColorRGB(0.18, 0.31, 0.44)
            canvas.rect(x, y, w, h, stroke=0, fill=1)
            canvas.setFillColorRGB(1, 1, 1)
            canvas.setFont("SerifBold", 18)
            canvas.drawCentredString(x + w / 2, y + h / 2, "Benchmark")
        canvas.showPage()
    canvas.save()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python bench/baseline.py DIR OUT.pdf")
    main(Path(sys.argv[1]), Path(sys.argv[2]))
