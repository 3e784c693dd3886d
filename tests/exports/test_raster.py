"""Exports stream their faces: a longer deck costs its cards' data, not every face laid out
and held (raster.DeckFaces) nor every rendered batch's PDF left for the collector
(raster.render_all)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from make_deck import make  # noqa: E402

SMALL, LARGE = 20, 220
PER_CARD_KB = 12.5  # the cards' own data (a paragraph each, its places in the files, ...): 9-10 kB; holding every face and the batches' PDFs made it 15-17


# One deck's export in a fresh Python (what the test's own process did before cannot fill or
# leave caches the measurement then sees): run once to fill the text engine's caches, then
# again with tracemalloc, with the collector as `pnp` sets it (cli.run) and every face
# streamed (a small game keeps its faces from the check pass: here both stream). Its PNGs
# are compressed at zlib's fastest level: zlib works in C memory tracemalloc does not see,
# and PIL hands Python the same chunks at any level, so the peak is the same, and the shop's
# 825 x 1125 px images take a fifth of the time (two thirds of the export's at level 6).
PEAK = """
import gc, sys, tracemalloc
sys.path.insert(0, sys.argv[1])
from conftest import run
from PIL import Image, PngImagePlugin
import pnp.exports.raster
pnp.exports.raster.KEPT_FACES = 0
def fastest(image, fp, filename, *args, **kwargs):
    image.encoderinfo["compress_level"] = 1
    return PngImagePlugin._save(image, fp, filename, *args, **kwargs)
Image.register_save("PNG", fastest)
split = sys.argv.index("::")
warm, measured = sys.argv[2:split], sys.argv[split + 1 :]
result = run(*warm)
assert result.exit_code == 0, result.output
gc.collect()
gc.set_threshold(100_000, 10, 10)
tracemalloc.start()
result = run(*measured)
_, most = tracemalloc.get_traced_memory()
assert result.exit_code == 0, result.output
print(most)
"""


def peak(export: list[str], deck: Path, warm: Path, out: Path) -> int:
    """The most Python memory the export of `deck` held, in bytes, once warmed up."""
    args = ["export", export[0], str(deck), *export[1:]]
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", PEAK, str(root / "tests"), *args, "--out", str(warm), "::", *args, "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


@pytest.mark.parametrize(
    "export",
    [
        ["png", "--dpi", "36"],
        pytest.param(["shop", "--profile", "tgc"], marks=pytest.mark.slow),
    ],  # shop: 16 s at the shop's 300 dpi; png runs the same streaming (render_all, save_image)
    ids=["png", "shop"],
)
def test_an_exports_peak_memory_grows_with_its_cards_data_only(tmp_path: Path, export: list[str]):
    peaks = {}
    for n in (SMALL, LARGE):
        make(n, tmp_path / f"deck{n}")
        peaks[n] = peak(export, tmp_path / f"deck{n}", tmp_path / "warm", tmp_path / f"out{n}")
    per_card = (peaks[LARGE] - peaks[SMALL]) / (LARGE - SMALL) / 1000
    assert per_card < PER_CARD_KB, f"{per_card:.1f} kB a card"


@pytest.mark.parametrize("export", [["tts"], ["png", "--dpi", "36"], ["shop", "--profile", "tgc"]], ids=["tts", "png", "shop"])
def test_a_small_game_exports_the_same_files_from_the_faces_it_kept(tmp_path: Path, export: list[str], monkeypatch):
    """A game of at most KEPT_FACES faces draws the faces of its check pass rather than
    laying them out again; the files are the same, byte for byte, as when every face is laid
    out anew (but for the folder a TTS save names)."""
    make(12, tmp_path / "deck")
    outputs = {}
    for kept in (256, 0):
        monkeypatch.setattr("pnp.exports.raster.KEPT_FACES", kept)
        out = tmp_path / f"out{kept}"
        result = run("export", export[0], tmp_path / "deck", *export[1:], "--out", out)
        assert result.exit_code == 0, result.output
        outputs[kept] = {
            path.relative_to(out): path.read_bytes().replace(out.as_uri().encode(), b"OUT") for path in sorted(out.rglob("*")) if path.is_file()
        }  # a TTS save names its images by URL
    assert outputs[256] and outputs[256] == outputs[0]


def test_a_page_rendered_into_a_cell_of_a_sheet_is_its_own_image_there_and_the_rest_stays_white():
    """A TTS sheet is made in place (tts._sheet): pdfium renders each face into its cell of
    one buffer, in RGB order, over white; the cell must hold exactly the face's own image
    (what `pnp export png` writes) and nothing may spill out of it."""
    from PIL import Image

    from pnp.exports.raster import Job, Pixels, render_all, render_pages

    def draw(canvas) -> None:
        canvas.setFillColorRGB(0.8, 0.2, 0.1)
        canvas.rect(0.5, 0.5, 4.2, 2.3, fill=1, stroke=0)  # partly covered pixels: anti-aliased edges
        canvas.setFillColorRGB(0.1, 0.3, 0.9)
        canvas.circle(3, 2, 1.5, fill=1, stroke=0)

    job = Job(draw, (6, 4))
    (alone,) = render_all([job], "Helvetica")
    sheet = Pixels((15, 11))
    for page in render_pages([job], "Helvetica"):
        page.into(sheet, 7, 5)
    image = sheet.image().convert("RGB")
    assert alone.mode == "RGB" and alone.size == (6, 4)
    assert image.crop((7, 5, 13, 9)).tobytes() == alone.tobytes()
    assert len(alone.getcolors(maxcolors=256)) > 3  # colours, edges and white: a real image, not a blank
    outside = image.copy()
    outside.paste((255, 255, 255), (7, 5, 13, 9))
    assert outside.tobytes() == Image.new("RGB", (15, 11), "white").tobytes()


def test_sheets_made_one_after_another_in_one_memory_each_start_white():
    """An export's sheets are made in one memory, in turn (raster.SheetMemory): a sheet
    holds its own faces and white, never what the sheet before it left there, whether it
    is smaller or larger than that one."""
    from PIL import Image

    from pnp.exports.raster import Job, SheetMemory, render_all, render_pages

    def draw(canvas) -> None:
        canvas.setFillColorRGB(0.1, 0.6, 0.2)
        canvas.rect(0, 0, 6, 4, fill=1, stroke=0)

    job = Job(draw, (6, 4))
    (alone,) = render_all([job], "Helvetica")
    memory = SheetMemory(reserve=20 * 12 * 4)
    for size, at in (((18, 12), (12, 8)), ((12, 8), (0, 0)), ((12, 8), (6, 4)), ((30, 20), (24, 16)), ((6, 4), (0, 0))):
        with memory.pixels(size) as sheet:
            for page in render_pages([job], "Helvetica"):
                page.into(sheet, *at)
            image = sheet.image().convert("RGB")
        left, top = at
        assert image.crop((left, top, left + 6, top + 4)).tobytes() == alone.tobytes()
        expected = Image.new("RGB", size, "white")
        expected.paste(alone, at)
        assert image.tobytes() == expected.tobytes(), size
