"""Exports against rasterising: `python bench/export_speed.py [--cards 100,400] [--runs 3]`.

For each case (`pnp export png` of Mestá's events at 300 dpi; `pnp export png` and
`pnp export shop --profile tgc` of the synthetic decks of bench/make_deck.py), paired and
alternating run by run:

- **export**: the command itself, in a fresh process (`python -m pnp export ...`): loading,
  checking and laying out the game, drawing, rendering and writing every image.
- **render**: a minimal script in a fresh process that opens a PDF of the same faces, one
  page per image the export wrote, each page exactly the image's size (made beforehand,
  untimed, from the very faces the export drew: the export's jobs are recorded through
  `raster.render_all`), renders every page with pypdfium2 and writes the same PNG files
  (same names, same Pillow options). That is the floor: rasterising and encoding alone.

Prints the median CPU time (user + system) and peak resident memory of each (every process
started from this small one, which prepares the PDFs in a process of their own: a child's
peak counts what it inherited before it started Python), and their ratios; the target is CPU at most 1.5 times the render's, and a peak that does not grow
with the deck. Exits 1 when a CPU ratio is above 1.5."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
TARGET = 1.5


def render(pdf: Path, names: Path, out: Path, dpi: int) -> None:
    """The minimal script: every page of `pdf` at one pixel a point, saved as `names` says."""
    import pypdfium2 as pdfium

    files = json.loads(names.read_text(encoding="utf-8"))
    document = pdfium.PdfDocument(str(pdf))
    for number, name in enumerate(files):
        page = document[number]
        image = page.render(scale=1).to_pil().convert("RGB")
        page.close()
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as handle:
            image.save(handle, "PNG", dpi=(dpi, dpi), optimize=False)
    document.close()


def prepare(args: list[str], pdf: Path, names: Path, out: Path) -> None:
    """Run the export once, in this process, recording the jobs it renders; write them as one
    PDF, a page per image, and the images' names (relative to `out`) in the same order."""
    from reportlab.pdfgen.canvas import Canvas

    import pnp.exports.png as png
    import pnp.exports.raster as raster
    import pnp.exports.shop as shop
    from pnp.cli import main

    jobs: list = []
    saved: list[Path] = []

    def recording(todo, font):
        todo = list(todo)
        jobs.extend((job, font) for job in todo)
        return raster.render_all(todo, font)

    def saving(image, target, dpi, files):
        saved.append(target)
        raster.save_image(image, target, dpi, files)

    png.render_all = shop.render_all = recording
    png.save_image = shop.save_image = saving
    try:
        main([*args, "--out", str(out)], standalone_mode=False)
    finally:
        png.render_all = shop.render_all = raster.render_all
        png.save_image = shop.save_image = raster.save_image
    canvas = Canvas(str(pdf), invariant=1, initialFontName=jobs[0][1])
    for job, _ in jobs:
        canvas.setPageSize(job.size_px)
        job.draw(canvas)
        canvas.showPage()
    canvas.save()
    if len(saved) != len(jobs):
        raise SystemExit(f"{len(saved)} images written, {len(jobs)} rendered")
    names.write_text(json.dumps([str(p.relative_to(out)) for p in saved]), encoding="utf-8")


def measure(command: list[str]) -> tuple[float, float]:
    """CPU seconds (user + system) and peak resident MB of one process."""
    child = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"failed: {' '.join(command)}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def case(label: str, args: list[str], dpi: int, runs: int, tmp: Path) -> tuple[str, float, float, float, float]:
    pdf, names = tmp / f"{label}.pdf", tmp / f"{label}.json"
    prep = [sys.executable, __file__, "--prepare", str(pdf), str(names), str(tmp / f"{label}-prep"), "--", *args]
    subprocess.run(prep, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True, capture_output=True)  # apart: this process stays small
    export, floor = [], []
    for run in range(runs):
        export.append(measure([sys.executable, "-m", "pnp", *args, "--out", str(tmp / f"{label}-export-{run}")]))
        floor.append(measure([sys.executable, __file__, "--render", str(pdf), str(names), str(tmp / f"{label}-render-{run}"), str(dpi)]))
    cpu_e, cpu_r = statistics.median(c for c, _ in export), statistics.median(c for c, _ in floor)
    mem_e, mem_r = statistics.median(m for _, m in export), statistics.median(m for _, m in floor)
    return label, cpu_e, cpu_r, mem_e, mem_r


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="100,400", help="sizes of the synthetic decks")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--render", nargs=4, metavar=("PDF", "NAMES", "OUT", "DPI"), help=argparse.SUPPRESS)
    parser.add_argument("--prepare", nargs=3, metavar=("PDF", "NAMES", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("command", nargs="*", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.prepare:
        pdf, names, out = options.prepare
        prepare(options.command, Path(pdf), Path(names), Path(out))
        return 0
    if options.render:
        pdf, names, out, dpi = options.render
        render(Path(pdf), Path(names), Path(out), int(dpi))
        return 0
    from make_deck import make

    rows = []
    with tempfile.TemporaryDirectory(prefix="pnp-export-bench-") as folder:
        tmp = Path(folder)
        cases = [("mesta-events-png", ["export", "png", "cards/mesta", "--deck", "events"])]
        for n in (int(x) for x in options.cards.split(",")):
            make(n, tmp / f"deck{n}")
            cases.append((f"deck{n}-png", ["export", "png", str(tmp / f"deck{n}")]))
            cases.append((f"deck{n}-shop-tgc", ["export", "shop", str(tmp / f"deck{n}"), "--profile", "tgc"]))
        for label, args in cases:
            rows.append(case(label, args, 300, options.runs, tmp))
    print("| case | export CPU | render CPU | export / render | export peak | render peak |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, cpu_e, cpu_r, mem_e, mem_r in rows:
        print(f"| {label} | {cpu_e:.2f} s | {cpu_r:.2f} s | {cpu_e / cpu_r:.2f} | {mem_e:.0f} MB | {mem_r:.0f} MB |")
    return 1 if any(cpu_e / cpu_r > TARGET for _, cpu_e, cpu_r, _, _ in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
