"""Check that bench/minimal_writer.py draws what pnp draws: `python bench/verify_minimal.py [N] [--keep DIR]`.

Makes an N-card deck (default 100), builds it with `pnp build` and with the minimal
writer, then compares page by page: every word (the string, where it starts and the bottom of
its line, form content included, read with poppler's `pdftotext -bbox`) must be in both
PDFs at the same place within 0.1 pt (so every line of text is), and the pages rendered with pdftoppm at 60 dpi must differ in at most
0.1 % of their pixels (text is antialiased, so glyph edges may differ by a shade).
The exit status is 1 when they do not match."""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageChops

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_deck import make  # noqa: E402

TOLERANCE = 0.1  # points
PIXELS = 0.001  # share of a page's pixels that may differ
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>')


def runs(path: Path) -> list[list[tuple[float, float, str]]]:
    """Per page, each word as (left, bottom of its line box, the word), read with poppler's
    `pdftotext -bbox` (which reads form content in place). Words, not lines: how poppler
    groups words into lines depends on the order they are drawn in, not on where."""
    xml = subprocess.run(["pdftotext", "-bbox", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return [[(float(x), float(y), html.unescape(w)) for x, y, w in WORD.findall(page)] for page in xml.split("<page ")[1:]]


def compare_text(pnp_pdf: Path, minimal_pdf: Path) -> list[str]:
    """What differs, as readable lines (empty when every run matches)."""
    a, b = runs(pnp_pdf), runs(minimal_pdf)
    if len(a) != len(b):
        return [f"pnp has {len(a)} pages, the minimal writer {len(b)}"]
    errors = []
    total = 0
    for number, (pa, pb) in enumerate(zip(a, b), 1):
        key = sorted(pa, key=lambda r: (-round(r[1], 1), r[0])), sorted(pb, key=lambda r: (-round(r[1], 1), r[0]))
        total += len(key[0])
        if len(pa) != len(pb):
            errors.append(f"page {number}: pnp draws {len(pa)} words, the minimal writer {len(pb)}")
        for ra, rb in zip(*key):
            if ra[2] != rb[2] or abs(ra[0] - rb[0]) > TOLERANCE or abs(ra[1] - rb[1]) > TOLERANCE:
                errors.append(f"page {number}: pnp {ra[2]!r} at ({ra[0]:.2f}, {ra[1]:.2f}), minimal {rb[2]!r} at ({rb[0]:.2f}, {rb[1]:.2f})")
                break
    print(f"text: {total} words on {len(a)} pages compared, {'all match' if not errors else f'{len(errors)} pages differ'} (within {TOLERANCE} pt)")
    return errors


def compare_pixels(pnp_pdf: Path, minimal_pdf: Path, work: Path) -> list[str]:
    errors = []
    for name, pdf in (("pnp", pnp_pdf), ("min", minimal_pdf)):
        subprocess.run(["pdftoppm", "-r", "60", "-png", str(pdf), str(work / name)], check=True)
    worst = anything = 0.0
    pngs = sorted(work.glob("pnp-*.png"))
    for png in pngs:
        one, two = Image.open(png).convert("RGB"), Image.open(work / png.name.replace("pnp-", "min-")).convert("RGB")
        histogram = ImageChops.difference(one, two).convert("L").histogram()
        share = sum(histogram[33:]) / (one.width * one.height)
        worst = max(worst, share)
        anything = max(anything, sum(histogram[1:]) / (one.width * one.height))
        if share > PIXELS:
            errors.append(f"{png.name}: {share:.3%} of the pixels differ")
    print(f"pixels: {len(pngs)} pages rendered at 60 dpi, at most {worst:.4%} of a page's pixels differ by more than 32 of 255, {anything:.4%} by anything")
    return errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cards", nargs="?", type=int, default=100)
    parser.add_argument("--keep", type=Path, help="keep the deck, both PDFs and the rendered pages in this folder")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pnp-verify-"))
    try:
        game = work / "deck"
        make(args.cards, game)
        env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
        subprocess.run([sys.executable, "-m", "pnp", "build", str(game), "--out", str(work / "out")], check=True, env=env, stdout=subprocess.DEVNULL)
        pnp_pdf, minimal_pdf = work / "out" / "deck" / "cards-sk-a4.pdf", work / "minimal.pdf"
        subprocess.run([sys.executable, str(HERE / "minimal_writer.py"), str(game), str(minimal_pdf)], check=True)
        errors = compare_text(pnp_pdf, minimal_pdf) + compare_pixels(pnp_pdf, minimal_pdf, work)
        for line in errors[:20]:
            print(line)
        print(f"PDF sizes: pnp {pnp_pdf.stat().st_size / 1000:.0f} KB, minimal writer {minimal_pdf.stat().st_size / 1000:.0f} KB")
        if args.keep:
            shutil.copytree(work, args.keep, dirs_exist_ok=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
