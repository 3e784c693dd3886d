"""The benchmark's floor is fair: bench/minimal_writer.py prints the pages pnp prints for a
synthetic deck (bench/verify_minimal.py compares every word's position and the pixels
of larger decks; this checks the words and the cards' lines, cheaply), so a ratio against it compares the same work."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

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
