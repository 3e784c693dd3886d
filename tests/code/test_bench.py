"""The benchmark's floor is fair: bench/minimal_writer.py prints the pages pnp prints for a
synthetic deck (bench/verify_minimal.py compares every word's position and the pixels
of larger decks; this checks the words and the cards' lines, cheaply), so a ratio against it compares the same work."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import run
from pdfread import placed_text
from pypdf import PdfReader

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
from make_deck import make  # noqa: E402


def words(pdf: Path) -> list[Counter]:
    """Per page, the words it shows (form content included), in any order."""
    return [Counter(page.extract_text().split()) for page in PdfReader(pdf).pages]


def card_text(page) -> list[tuple[str, float, float]]:
    """The runs of text on the cards of a page (above the ruler), where they start to 0.1 pt."""
    return sorted((text, round(x, 1), round(y, 1)) for text, x, y in placed_text(page) if y > 46.77)


def test_minimal_writer_prints_the_words_pnp_prints_on_every_page(tmp_path):
    make(12, tmp_path / "deck")  # two sheets, the second one partly filled
    assert run("build", tmp_path / "deck", "--out", tmp_path / "out").exit_code == 0
    subprocess.run([sys.executable, str(BENCH / "minimal_writer.py"), str(tmp_path / "deck"), str(tmp_path / "minimal.pdf")], check=True)
    pnp_words, minimal_words = words(tmp_path / "out" / "deck" / "cards-sk-a4.pdf"), words(tmp_path / "minimal.pdf")
    assert len(minimal_words) == len(pnp_words) == 4
    assert minimal_words == pnp_words
    pnp_pages, minimal_pages = PdfReader(tmp_path / "out" / "deck" / "cards-sk-a4.pdf").pages, PdfReader(tmp_path / "minimal.pdf").pages
    for front in (0, 2):  # the same lines at the same places (the backs are forms, which placed_text cannot place)
        assert card_text(minimal_pages[front]) == card_text(pnp_pages[front])
    assert pnp_words[3]["Benchmark"] == 3  # the backs of the three cards of the last sheet
    assert any(word.endswith("-") for page in pnp_words for word in page)  # hyphenated lines are compared too


def files_in(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.mark.parametrize("export", [["png"], ["shop", "--profile", "tgc"], ["tts"]], ids=["png", "shop", "tts"])
def test_export_speed_floor_writes_the_files_the_export_writes(tmp_path, export):
    """bench/export_speed.py's render (the floor it holds each export to) writes every image
    the export writes, byte for byte: a TTS sheet too, pasted from the same faces."""
    make(3, tmp_path / "deck")
    env = {**os.environ, "PYTHONPATH": str(BENCH.parent)}
    pdf, files = tmp_path / "faces.pdf", tmp_path / "files.json"
    script = str(BENCH / "export_speed.py")
    command = [export[0], str(tmp_path / "deck"), *export[1:]]
    subprocess.run(
        [sys.executable, script, "--prepare", str(pdf), str(files), str(tmp_path / "export"), "--", "export", *command],
        check=True,
        env=env,
        capture_output=True,
    )
    subprocess.run([sys.executable, script, "--render", str(pdf), str(files), str(tmp_path / "render")], check=True, env=env)
    exported = {name: data for name, data in files_in(tmp_path / "export").items() if name.endswith((".png", ".jpg"))}
    assert len(exported) >= 4  # three fronts (or a sheet of them), a back, ...
    assert files_in(tmp_path / "render") == exported
