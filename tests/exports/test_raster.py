"""Exports stream their faces: a longer deck costs its cards' data, not every face laid out
and held (raster.DeckFaces) nor every rendered batch's PDF left for the collector
(raster.render_all)."""

from __future__ import annotations

import gc
import sys
import tracemalloc
from pathlib import Path

import pytest
from conftest import run

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from make_deck import make  # noqa: E402

SMALL, LARGE = 20, 220
PER_CARD_KB = 12.5  # the cards' own data (a paragraph each, its places in the files, ...): 9-10 kB; holding every face and the batches' PDFs made it 15-17


def peak(*args: str) -> int:
    """The most Python memory the export held, in bytes, with the collector as `pnp` sets it (cli.run)."""
    threshold = gc.get_threshold()
    gc.collect()
    gc.set_threshold(100_000, 10, 10)
    tracemalloc.start()
    try:
        result = run(*args)
        _, most = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        gc.set_threshold(*threshold)
    assert result.exit_code == 0, result.output
    return most


@pytest.mark.parametrize("export", [["png", "--dpi", "36"], ["shop", "--profile", "tgc"]], ids=["png", "shop"])
def test_an_exports_peak_memory_grows_with_its_cards_data_only(tmp_path: Path, export: list[str], monkeypatch):
    monkeypatch.setattr("pnp.exports.raster.KEPT_FACES", 0)  # a small game keeps its faces from the check pass: here both stream
    peaks = {}
    for n in (SMALL, LARGE):
        make(n, tmp_path / f"deck{n}")
        run("export", export[0], tmp_path / f"deck{n}", *export[1:], "--out", tmp_path / "warm")  # the text engine's caches filled alike
        peaks[n] = peak("export", export[0], tmp_path / f"deck{n}", *export[1:], "--out", tmp_path / f"out{n}")
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
