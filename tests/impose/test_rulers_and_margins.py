"""What every sheet PDF promises the person printing it, read from the PDFs of every bundled
game on A4 and Letter: a ruler to measure on the first page (in a margin, compact in a
narrow one, else on a page of its own), and nothing but crop marks within the 5 mm margin
a home printer may not print."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run
from pdfread import MM, card_boxes, placed_text, reader
from PIL import Image

from pnp.base.paths import DEFAULT_GAME

GAMES = DEFAULT_GAME.parent
MARGIN = 5 * MM


@pytest.fixture(scope="module")
def sheet_pdfs(tmp_path_factory) -> list[Path]:
    out = tmp_path_factory.mktemp("sheets")
    for game in sorted(p for p in GAMES.iterdir() if (p / "game.yaml").exists()):
        for paper in ("a4", "letter"):
            result = run("build", game, "--paper", paper, "--out", out / paper)
            assert result.exit_code == 0, result.output
    pdfs = [p for p in sorted(out.rglob("*.pdf")) if not p.name.startswith("rules")]
    assert len(pdfs) > 20
    return pdfs


def first_page_text(path: Path) -> str:
    """The text of a PDF's first page, as pdfium (a viewer's engine) extracts it: a fortieth of pypdf's time."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        return document[0].get_textpage().get_text_range()
    finally:
        document.close()


def test_every_sheet_pdf_has_a_ruler_on_its_first_page(sheet_pdfs):
    missing = [str(p.relative_to(p.parents[2])) for p in sheet_pdfs if "this ruler is" not in first_page_text(p)]
    assert not missing, f"no ruler on the first page of {missing}"


DARK = bytes(1 if value < 160 else 0 for value in range(256))  # a grey that prints as ink


def ink_in_margin(path: Path, dpi: float = 100) -> list[str]:
    """Where a page is printed within the margin other than by a crop mark, rendered as a
    viewer shows it: in the band along each edge, every dark pixel must belong to a mark,
    a line that runs straight across the band (from the paper's edge towards the art)."""
    import pypdfium2 as pdfium

    found = []
    band = round(5 * dpi / 25.4) - 1  # whole pixels inside the 5 mm margin
    document = pdfium.PdfDocument(str(path))
    for number, page in enumerate(document, 1):
        image = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        width, height = image.size
        boxes = {
            "left": (0, 0, band, height),
            "right": (width - band, 0, width, height),
            "top": (0, 0, width, band),
            "bottom": (0, height - band, width, height),
        }
        for edge, box in boxes.items():
            strip = image.crop(box)
            if edge in ("top", "bottom"):
                strip = strip.transpose(Image.Transpose.ROTATE_90)  # its lines across the band become rows
            w, h = strip.size
            dark = strip.tobytes().translate(DARK)  # a byte 1 for each dark pixel, row after row
            for y in range(h):
                ink = dark.count(1, y * w, (y + 1) * w)
                if ink and ink < 0.8 * w:  # some ink, but not a line across the band: not a crop mark
                    found.append(f"{path.name} page {number}: printed in the {edge} margin near {y * 25.4 / dpi:.0f} mm along it")
                    break
    return found


def test_nothing_but_marks_is_printed_within_the_margin(sheet_pdfs):
    outside = [place for pdf in sheet_pdfs for place in ink_in_margin(pdf)]
    assert not outside, "\n".join(outside[:20])


def token_game(tmp_path, count: int):
    """25 mm square tokens, which fill A4 to its margins (8 x 11 a sheet)."""
    from conftest import make_small_game

    game = make_small_game(tmp_path / "hra", "".join(f"- {{id: t{i}, title: T{i}}}\n" for i in range(count)))
    (game / "layouts").mkdir()
    for side in ("front", "back"):
        (game / "layouts" / f"{side}.yaml").write_text("size: [25, 25]\nelements:\n  - rect: [0, 0, 25, 25]\n    stroke: '#000000'\n", encoding="utf-8")
    text = (game / "game.yaml").read_text(encoding="utf-8").replace("front: basic/card, back: basic/back", "front: front, back: back")
    (game / "game.yaml").write_text(text, encoding="utf-8")
    return game


def test_a_sheet_without_room_for_a_ruler_gets_it_on_a_page_of_its_own_with_a_blank_back(tmp_path):
    """Two full sheets of tokens: the ruler comes first, on a sheet of its own whose back
    is blank, so every later sheet still has its backs behind its fronts."""
    result = run("build", token_game(tmp_path, 176), "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pages = reader(tmp_path / "out" / "hra" / "cards-sk-a4.pdf").pages
    assert "this ruler is 100 mm" in pages[0].extract_text()
    assert pages[1].extract_text().strip() == ""  # its back
    assert len(pages) == 6 and not any("this ruler" in page.extract_text() for page in pages[2:])  # then two sheets of 88 tokens and their backs


def test_a_last_sheet_with_empty_rows_carries_the_ruler_instead_of_a_page_of_its_own(tmp_path):
    """70 tokens leave two rows of their sheet empty: the ruler goes there."""
    result = run("build", token_game(tmp_path, 70), "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pages = reader(tmp_path / "out" / "hra" / "cards-sk-a4.pdf").pages
    assert len(pages) == 2  # one sheet of 70 tokens and its backs
    assert "this ruler is 50 mm" in pages[0].extract_text() and len(card_boxes(pages[0])) == 70
    lowest_token = min(y for _, y, _, _ in card_boxes(pages[0]))
    (ruler_y,) = [y for text, _, y in placed_text(pages[0]) if "this ruler is" in text]
    assert 5 * MM < ruler_y < lowest_token, "below the last row of tokens, above the margin"
