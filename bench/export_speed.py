"""Exports against rasterising: `python bench/export_speed.py [--cards 100,1000] [--runs 3]`.

For each case (`pnp export png` of Mestá's events at 300 dpi and `pnp export tts` of
Mestá; `pnp export png`, `pnp export shop --profile tgc` and `pnp export tts` of the
synthetic decks of bench/make_deck.py), paired and alternating run by run:

- **export**: the command itself, in a fresh process (`python -m pnp export ...`): loading,
  checking and laying out the game, drawing, rendering and writing every image.
- **render**: a minimal script in a fresh process that opens a PDF of the same faces, one
  page per face the export rendered, each page exactly the face's image size (made
  beforehand, untimed, from the very faces the export drew: the export's jobs are recorded
  through `raster.render_all` or `raster.render_pages`), renders the pages with pypdfium2 and writes the same files
  (same names, same format and Pillow options): a face written as an image of its own is
  a page saved; a Tabletop Simulator sheet is its faces' pages pasted, as they are
  rendered, into an image of the sheet's size and grid, then saved. The few images that are
  no face (a TTS thumbnail, the calibration card and tile, a blank back) are written from
  copies made beforehand. That is the floor: rasterising and encoding alone.

Prints the median CPU time (user + system) and peak resident memory of each (every process
started from this small one, which prepares the PDFs in a process of their own: a child's
peak counts what it inherited before it started Python), their ratios, and per kind of
synthetic case the export's peak at the largest deck against the smallest. The targets:
CPU at most 1.5 times the render's, and a peak that grows by at most 20 % from the smallest
deck to the largest. Exits 1 when a case misses either."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
TARGET = 1.5  # export CPU / render CPU
GROWTH = 0.20  # export peak, largest deck against smallest
FACE, SHEET = "bench:face", "bench:sheet"  # what an image is made of, in its info while the export is recorded


def render(pdf: Path, files: Path, out: Path) -> None:
    """The minimal script: each file `files` lists, from the pages of `pdf` (one pixel a
    point) or from a copy, saved as the export saved it."""
    import pypdfium2 as pdfium
    from PIL import Image

    document = pdfium.PdfDocument(str(pdf))

    def face(number: int) -> Image.Image:
        page = document[number]
        image = page.render(scale=1).to_pil().convert("RGB")
        page.close()
        return image

    for entry in json.loads(files.read_text(encoding="utf-8")):
        if "sheet" in entry:
            (cols, rows), (width, height) = entry["grid"], entry["cell"]
            image = Image.new("RGB", (width * cols, height * rows), "white")
            for slot, number in enumerate(entry["sheet"]):
                row, col = divmod(slot, cols)
                image.paste(face(number), (col * width, row * height))
        elif "page" in entry:
            image = face(entry["page"])
        else:
            with Image.open(entry["copy"]) as copy:
                image = copy.convert("RGB")
        target = out / entry["file"]
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as handle:
            if target.suffix.lower() in (".jpg", ".jpeg"):
                image.save(handle, "JPEG", quality=90, dpi=(entry["dpi"], entry["dpi"]))
            else:
                info = None
                if entry.get("text"):
                    from PIL.PngImagePlugin import PngInfo

                    info = PngInfo()
                    for key, value in entry["text"].items():
                        info.add_text(key, value)
                image.save(handle, "PNG", dpi=(entry["dpi"], entry["dpi"]), optimize=False, pnginfo=info)
    document.close()


def prepare(args: list[str], pdf: Path, files: Path, out: Path) -> None:
    """Run the export once, in this process, recording the jobs it renders (a page each of
    one PDF) and how each file it writes is made of them (a face, a sheet of faces, or
    neither: then a lossless copy beside `pdf`), in the order written."""
    from reportlab.pdfgen.canvas import Canvas

    import pnp.exports.png as png
    import pnp.exports.raster as raster
    import pnp.exports.shop as shop
    import pnp.exports.tts as tts
    from pnp.cli import main

    jobs: list = []
    entries: list[dict] = []
    modules = (png, shop, tts)

    def recording(todo, font):
        todo = list(todo)
        first = len(jobs)
        jobs.extend((job, font) for job in todo)
        for number, image in enumerate(raster.render_all(todo, font)):
            image.info[FACE] = first + number
            yield image

    class Numbered:
        """A page of `raster.render_pages` with its face number (tts renders a sheet's
        faces straight into it, and a shared back as an image of its own)."""

        def __init__(self, page, number: int):
            self.page, self.size_px, self.info = page, page.size_px, {FACE: number}

        def into(self, pixels, left: int, top: int) -> None:
            self.page.into(pixels, left, top)

        def image(self):
            image = self.page.image()
            image.info[FACE] = self.info[FACE]
            return image

    def recording_pages(todo, font):
        todo = list(todo)
        first = len(jobs)
        jobs.extend((job, font) for job in todo)
        for number, page in enumerate(raster.render_pages(todo, font)):
            yield Numbered(page, first + number)

    @contextmanager
    def sheeting(memory, cards, grid, cell):
        used: list[int] = []

        def noted():
            for image in cards:
                used.append(image.info[FACE])
                yield image

        with tts_sheet(memory, noted(), grid, cell) as sheet:
            sheet.info[SHEET] = {"sheet": used, "grid": [grid.cols, grid.rows], "cell": list(cell)}
            yield sheet

    def shrinking(image):
        small = tts_thumbnail(image)
        small.info.pop(FACE, None)
        small.info.pop(SHEET, None)
        return small

    def saving(image, target, dpi, files, txn, text=None):
        entry: dict = {"file": str(target.relative_to(out)), "dpi": dpi, "text": text}
        if SHEET in image.info:
            entry.update(image.info[SHEET])
        elif FACE in image.info:
            entry["page"] = image.info[FACE]
        else:
            copy = pdf.with_name(f"{pdf.stem}-copy-{len(entries)}.png")
            image.save(copy, "PNG")
            entry["copy"] = str(copy)
        entries.append(entry)
        raster.save_image(image, target, dpi, files, txn, text)

    tts_sheet, tts_thumbnail = tts._sheet, tts._thumbnail
    for module in modules:
        module.render_all, module.save_image = recording, saving
    tts._sheet, tts._thumbnail, tts.render_pages = sheeting, shrinking, recording_pages
    try:
        main([*args, "--out", str(out)], standalone_mode=False)
    finally:
        for module in modules:
            module.render_all, module.save_image = raster.render_all, raster.save_image
        tts._sheet, tts._thumbnail, tts.render_pages = tts_sheet, tts_thumbnail, raster.render_pages
    canvas = Canvas(str(pdf), invariant=1, initialFontName=jobs[0][1])
    for job, _ in jobs:
        canvas.setPageSize(job.size_px)
        job.draw(canvas)
        canvas.showPage()
    canvas.save()
    files.write_text(json.dumps(entries), encoding="utf-8")


def measure(command: list[str]) -> tuple[float, float]:
    """CPU seconds (user + system) and peak resident MB of one process."""
    child = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"failed: {' '.join(command)}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def case(label: str, args: list[str], runs: int, tmp: Path) -> tuple[str, float, float, float, float]:
    pdf, files = tmp / f"{label}.pdf", tmp / f"{label}.json"
    prep = [sys.executable, __file__, "--prepare", str(pdf), str(files), str(tmp / f"{label}-prep"), "--", *args]
    subprocess.run(prep, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True, capture_output=True)  # apart: this process stays small
    export, floor = [], []
    for run in range(runs):
        export.append(measure([sys.executable, "-m", "pnp", *args, "--out", str(tmp / f"{label}-export-{run}")]))
        floor.append(measure([sys.executable, __file__, "--render", str(pdf), str(files), str(tmp / f"{label}-render-{run}")]))
    cpu_e, cpu_r = statistics.median(c for c, _ in export), statistics.median(c for c, _ in floor)
    mem_e, mem_r = statistics.median(m for _, m in export), statistics.median(m for _, m in floor)
    print(f"{label}: export {cpu_e:.2f} s {mem_e:.0f} MB, render {cpu_r:.2f} s {mem_r:.0f} MB", file=sys.stderr, flush=True)
    return label, cpu_e, cpu_r, mem_e, mem_r


KINDS = {  # the synthetic cases: a deck's folder -> the command's arguments
    "png": lambda deck: ["export", "png", deck],
    "shop-tgc": lambda deck: ["export", "shop", deck, "--profile", "tgc"],
    "tts": lambda deck: ["export", "tts", deck],
}
MESTA = {"png": ("mesta-events-png", ["export", "png", "cards/mesta", "--deck", "events"]), "tts": ("mesta-tts", ["export", "tts", "cards/mesta"])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="100,1000", help="sizes of the synthetic decks")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default=",".join(KINDS), help=f"the exports to measure, comma-separated ({', '.join(KINDS)})")
    parser.add_argument("--render", nargs=3, metavar=("PDF", "FILES", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--prepare", nargs=3, metavar=("PDF", "FILES", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("command", nargs="*", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.prepare:
        pdf, files, out = options.prepare
        prepare(options.command, Path(pdf), Path(files), Path(out))
        return 0
    if options.render:
        pdf, files, out = options.render
        render(Path(pdf), Path(files), Path(out))
        return 0
    from make_deck import make

    kinds = [kind for kind in options.only.split(",") if kind]
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        parser.error(f"--only: unknown export {', '.join(unknown)}; expected some of {', '.join(KINDS)}")
    sizes = [int(x) for x in options.cards.split(",")]
    rows = []
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="pnp-export-bench-") as folder:
        tmp = Path(folder)
        cases = [MESTA[kind] for kind in kinds if kind in MESTA]
        for n in sizes:
            make(n, tmp / f"deck{n}")
            cases += [(f"deck{n}-{kind}", KINDS[kind](str(tmp / f"deck{n}"))) for kind in kinds]
        for label, args in cases:
            rows.append(case(label, args, options.runs, tmp))
            load.append(os.getloadavg()[0])
    print(f"load average (1 min) between the cases: {min(load):.1f} to {max(load):.1f} on {os.cpu_count()} cores")
    print("| case | export CPU | render CPU | export / render | export peak | render peak |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, cpu_e, cpu_r, mem_e, mem_r in rows:
        print(f"| {label} | {cpu_e:.2f} s | {cpu_r:.2f} s | {cpu_e / cpu_r:.2f} | {mem_e:.0f} MB | {mem_r:.0f} MB |")
    missed = [label for label, cpu_e, cpu_r, _, _ in rows if cpu_e / cpu_r > TARGET]
    peaks = {label: mem_e for label, _, _, mem_e, _ in rows}
    if len(sizes) > 1:
        small, large = min(sizes), max(sizes)
        for kind in kinds:
            growth = peaks[f"deck{large}-{kind}"] / peaks[f"deck{small}-{kind}"] - 1
            print(f"{kind}: export peak {small} -> {large} cards {growth:+.0%}")
            if growth > GROWTH:
                missed.append(f"{kind} peak")
    if missed:
        print(f"missed the target: {', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
