"""What every sheet PDF promises the person printing it, read from the PDFs of every bundled
game on A4 and Letter: a ruler to measure on the first page (in a margin, compact in a
narrow one, else on a page of its own), and nothing but crop marks within the 5 mm margin
a home printer may not print."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run
from pdfread import MM, card_boxes, marks, placed_text, reader, sheet_pages
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
    missing = [
        str(p.relative_to(p.parents[2])) for p in sheet_pdfs if not any(caption in first_page_text(p) for caption in ("this ruler is", "toto pravítko má"))
    ]  # English and Slovak games
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
    assert "toto pravítko má 100 mm" in pages[0].extract_text()
    assert pages[1].extract_text().strip() == ""  # its back
    assert len(pages) == 6 and not any("toto pravítko" in page.extract_text() for page in pages[2:])  # then two sheets of 88 tokens and their backs


def test_a_last_sheet_with_empty_rows_carries_the_ruler_instead_of_a_page_of_its_own(tmp_path):
    """70 tokens leave two rows of their sheet empty: the ruler goes there."""
    result = run("build", token_game(tmp_path, 70), "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pages = reader(tmp_path / "out" / "hra" / "cards-sk-a4.pdf").pages
    assert len(pages) == 2  # one sheet of 70 tokens and its backs
    assert "toto pravítko má 50 mm" in pages[0].extract_text() and len(card_boxes(pages[0])) == 70
    lowest_token = min(y for _, y, _, _ in card_boxes(pages[0]))
    (ruler_y,) = [y for text, _, y in placed_text(pages[0]) if "toto pravítko má" in text]
    assert 5 * MM < ruler_y < lowest_token, "below the last row of tokens, above the margin"


def trim_lines_marked_within_print(page, margin: float = 5 * MM, reach: float = 3 * MM) -> tuple[set[float], set[float]]:
    """The x of each vertical and the y of each horizontal trim line that some crop mark
    shows at least `reach` inside the printable area (past the printer margin)."""
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    xs, ys = set(), set()
    for x1, y1, x2, y2 in marks(page):
        if abs(x1 - x2) < 0.01:  # vertical
            low, high = max(min(y1, y2), margin), min(max(y1, y2), height - margin)
            if high - low >= reach - 0.01:
                xs.add(round(x1, 1))
        elif abs(y1 - y2) < 0.01:
            low, high = max(min(x1, x2), margin), min(max(x1, x2), width - margin)
            if high - low >= reach - 0.01:
                ys.add(round(y1, 1))
    return xs, ys


@pytest.mark.parametrize(("paper", "bleed", "gap"), [("a4", 3, 4), ("letter", 2, 4), ("a4", 0, 4)])
def test_every_trim_line_has_a_mark_the_printer_prints(tmp_path, paper, bleed, gap):
    """However the bleed and gap fill the sheet, every trim line of every card is shown by
    a crop mark reaching at least 3 mm past the 5 mm margin (or in the gaps between cards)."""
    from conftest import make_small_game

    game = make_small_game(tmp_path / "hra", "".join(f"- {{id: t{i}, title: T{i}}}\n" for i in range(30)))
    (game / "layouts").mkdir()
    for side in ("front", "back"):  # 41 x 63 mm cards: with a gap they fill A4's and Letter's width
        (game / "layouts" / f"{side}.yaml").write_text("size: [41, 63]\nelements:\n  - rect: [0, 0, 41, 63]\n    fill: '#336699'\n", encoding="utf-8")
    text = (game / "game.yaml").read_text(encoding="utf-8").replace("front: basic/card, back: basic/back", "front: front, back: back")
    (game / "game.yaml").write_text(text, encoding="utf-8")
    result = run("build", game, "--out", tmp_path / "out", "--paper", paper, "--bleed", str(bleed), "--gap", str(gap))
    assert result.exit_code == 0, result.output
    assert "[sheet-marks-short]" not in result.output
    page = sheet_pages(tmp_path / "out" / "hra" / f"cards-sk-{paper}.pdf")[0]
    xs, ys = trim_lines_marked_within_print(page)
    for x, y, w, h in card_boxes(page):
        trim = (x + bleed * MM, y + bleed * MM, x + w - bleed * MM, y + h - bleed * MM)
        assert {round(trim[0], 1), round(trim[2], 1)} <= xs and {round(trim[1], 1), round(trim[3], 1)} <= ys, (trim, xs, ys)


def test_marks_the_printer_may_not_print_are_said(tmp_path):
    """Poker cards on Letter leave 7.7 mm above and below: the marks there reach 1.7 mm past
    the margin, and no gap to tick them in: a warning, once, says so and what to do."""
    from conftest import make_small_game

    result = run("check", make_small_game(tmp_path / "hra"), "--paper", "letter")
    lines = [line for line in result.output.splitlines() if "[sheet-marks-short]" in line]
    assert len(lines) == 1, result.output
    assert "deck 'cards' fills LETTER so far that its crop marks at the top and bottom reach only 1.7 mm past the 5 mm margin" in lines[0]
    assert "expected --gap 4 or more (the cut lines are then ticked between the cards)" in lines[0]
