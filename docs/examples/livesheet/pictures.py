"""The picture of docs/cards.md's live spreadsheet, docs/images/livesheet.png: the sheet
`sheet/cards.csv` as a spreadsheet shows it (column letters, row numbers), one row
marked, beside the card pnp drew from that row, fetched from the sheet served on the web
as README.md says (here at a free port of 127.0.0.1, in a copy of the example whose
`data:` names it) and exported with `pnp export png` at 72 dpi.

Run `python docs/examples/livesheet/pictures.py` from the top folder of the checkout after
changing the example or the drawing (or `... pictures.py FOLDER` to write it elsewhere).
"""

from __future__ import annotations

import csv
import functools
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
TOP = HERE.parents[2]
URL = "http://127.0.0.1:8765/cards.csv"  # as game.yaml names it
CARD = "long-day"  # the row marked, and its card
GRID, HEAD, MARK, INK, ARROW = "#c8c8c8", "#eeeeee", "#d9e8fb", "#222222", "#1a73e8"


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def card_image(out: Path) -> Image.Image:
    """The front of CARD as `pnp export png` draws it from the served sheet."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(HERE / "sheet")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        game = out / "livesheet"
        shutil.copytree(HERE, game, ignore=shutil.ignore_patterns("__pycache__"))
        text = (game / "game.yaml").read_text(encoding="utf-8")
        (game / "game.yaml").write_text(text.replace(URL, f"http://127.0.0.1:{server.server_address[1]}/cards.csv"), encoding="utf-8")
        command = [sys.executable, "-m", "pnp", "export", "png", str(game), "--dpi", "72", "--out", str(out / "out"), "--quiet"]
        subprocess.run(command, check=True, cwd=TOP, capture_output=True)
    finally:
        server.shutdown()
        server.server_close()
    with Image.open(out / "out" / "livesheet" / "png-en" / "cards" / f"{CARD}-front.png") as image:
        return image.convert("RGB")


def sheet_image(rows: list[list[str]], marked: int) -> Image.Image:
    """The rows as a spreadsheet shows them: letters over the columns, numbers beside the
    rows, row `marked` (0: the header) shaded."""
    font = ImageFont.truetype(str(TOP / "fonts" / "SourceSansPro-Regular.ttf"), 13)
    bold = ImageFont.truetype(str(TOP / "fonts" / "SourceSansPro-Bold.ttf"), 13)
    pad, height, gutter = 6, 22, 30
    widths = [max(round(bold.getlength(row[c])) for row in rows) + 2 * pad for c in range(len(rows[0]))]
    image = Image.new("RGB", (gutter + sum(widths) + 1, height * (len(rows) + 1) + 1), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, image.width - 1, height], fill=HEAD)
    draw.rectangle([0, 0, gutter, image.height - 1], fill=HEAD)
    draw.rectangle([gutter, height * (marked + 1), image.width - 1, height * (marked + 2)], fill=MARK)
    x = gutter
    for c, width in enumerate(widths):
        draw.text((x + width // 2, height // 2), chr(ord("A") + c), font=font, fill=INK, anchor="mm")
        for r, row in enumerate(rows, 1):
            draw.text((x + pad, r * height + height // 2), row[c], font=bold if r == 1 else font, fill=INK, anchor="lm")
        x += width
    for r in range(1, len(rows) + 1):
        draw.text((gutter // 2, r * height + height // 2), str(r), font=font, fill=INK, anchor="mm")
    x = gutter
    for width in [0, *widths]:
        x += width
        draw.line([(x, 0), (x, image.height - 1)], fill=GRID)
    for r in range(len(rows) + 2):
        draw.line([(0, r * height), (image.width - 1, r * height)], fill=GRID)
    draw.line([(0, 0), (0, image.height - 1)], fill=GRID)
    return image


def picture(images: Path) -> None:
    with (HERE / "sheet" / "cards.csv").open(encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file))
    marked = next(i for i, row in enumerate(rows) if row[0] == CARD)
    with tempfile.TemporaryDirectory() as tmp:
        card = card_image(Path(tmp))
    sheet = sheet_image(rows, marked)
    pad, arrow = 12, 48
    both = Image.new("RGB", (sheet.width + arrow + card.width + 3 * pad, max(sheet.height, card.height) + 2 * pad), "white")
    both.paste(sheet, (pad, pad))
    left = pad + sheet.width + arrow + pad
    both.paste(card, (left, pad))
    draw = ImageDraw.Draw(both)
    draw.rectangle([left - 1, pad - 1, left + card.width, pad + card.height], outline=GRID)
    y = pad + 22 * (marked + 1) + 11  # the middle of the marked row
    start, end = pad + sheet.width + 6, left - 8
    draw.line([(start, y), (end, y)], fill=ARROW, width=3)
    draw.polygon([(end + 6, y), (end - 4, y - 7), (end - 4, y + 7)], fill=ARROW)
    images.mkdir(parents=True, exist_ok=True)
    both.quantize(48, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(images / "livesheet.png", optimize=True)


if __name__ == "__main__":
    picture(Path(sys.argv[1]) if len(sys.argv) > 1 else TOP / "docs" / "images")
