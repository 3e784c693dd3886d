"""Sheet geometry: how many cards fit, where fronts and backs go, where the marks are."""

from __future__ import annotations

import pytest
from conftest import edit, run
from pdfread import MM, card_boxes, marks, reader

from pnp.impose.sheets import SheetSpec, impose, plan_grid


@pytest.mark.parametrize(
    ("paper", "size", "fit"),
    [("a4", (63, 88), (3, 3)), ("letter", (63, 88), (3, 3)), ("a4", (44, 68), (4, 4)), ("letter", (44, 68), (4, 3)), ("a3", (63, 88), (4, 4))],
)
def test_as_many_cards_as_fit_inside_a_5mm_margin(paper, size, fit):
    grid = plan_grid(SheetSpec(paper=paper), size[0] * MM, size[1] * MM)
    assert (grid.cols, grid.rows) == fit


def test_full_bleed_costs_a_row_of_poker_cards():
    grid = plan_grid(SheetSpec(bleed=3), 63 * MM, 88 * MM)
    assert (grid.cols, grid.rows) == (2, 3)  # 3 mm of bleed each side: 69 x 94 mm cells
    assert plan_grid(SheetSpec(bleed=1.5), 63 * MM, 88 * MM).per_sheet == 9


def test_short_edge_flip_reverses_rows_not_columns():
    spec = SheetSpec(flip="short")
    grid = plan_grid(spec, 63 * MM, 88 * MM)
    front, back = list(impose(9, grid, spec))
    for f, b in zip(front.placements, back.placements):
        assert b.x == pytest.approx(f.x)
        assert b.y == pytest.approx(grid.page_h - f.y - grid.trim_h)


def test_back_offset_is_as_seen_from_the_front():
    spec = SheetSpec(back_offset=(1.0, -2.0))
    grid = plan_grid(spec, 63 * MM, 88 * MM)
    front, back = list(impose(9, grid, spec))
    plain = list(impose(9, grid, SheetSpec()))[1]
    for moved, still in zip(back.placements, plain.placements):
        assert moved.x - still.x == pytest.approx(-1.0 * MM)  # the back page is seen mirrored
        assert moved.y - still.y == pytest.approx(-2.0 * MM)
    assert front.marks == list(impose(9, grid, SheetSpec()))[0].marks


def test_fronts_only_and_backs_only(tmp_path):
    assert run("build", "--sides", "fronts", "--deck", "events", "--out", tmp_path).exit_code == 0
    fronts = reader(tmp_path / "mesta" / "events-sk-a4-fronts.pdf")
    assert len(fronts.pages) == 9  # 75 cards, 9 per sheet
    assert "Julius Caesar" in fronts.pages[0].extract_text()
    assert run("build", "--sides", "backs", "--deck", "events", "--out", tmp_path).exit_code == 0
    backs = reader(tmp_path / "mesta" / "events-sk-a4-backs.pdf")
    assert len(backs.pages) == 9
    assert "Julius Caesar" not in backs.pages[0].extract_text()


def test_letter_paper_is_exactly_letter(tmp_path):
    assert run("build", "--paper", "letter", "--out", tmp_path).exit_code == 0
    page = reader(tmp_path / "mesta" / "cities-sk-letter.pdf").pages[0]
    assert float(page.mediabox.width) == pytest.approx(215.9 * MM, abs=0.01)
    assert float(page.mediabox.height) == pytest.approx(279.4 * MM, abs=0.01)
    assert len(card_boxes(page)) == 12


def test_bleed_extends_the_art_and_keeps_marks_on_the_trim(tmp_path):
    assert run("build", "--bleed", "1.5", "--deck", "events", "--out", tmp_path).exit_code == 0
    page = reader(tmp_path / "mesta" / "events-sk-a4.pdf").pages[0]
    boxes = card_boxes(page)
    assert {(round(w / MM, 2), round(h / MM, 2)) for _, _, w, h in boxes} == {(66.0, 91.0)}
    xs = sorted({round(x1, 2) for x1, y1, x2, y2 in marks(page) if x1 == x2})
    assert len(xs) == 6  # 3 columns, each card with its own two cuts
    assert (xs[1] - xs[0]) / MM == pytest.approx(63, abs=0.05)
    left_box = min(x for x, _, _, _ in boxes)
    assert xs[0] - left_box == pytest.approx(1.5 * MM, abs=0.01)  # the cut is 1.5 mm inside the art


def test_same_input_gives_the_same_bytes(built, tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", "Pacific/Auckland")
    monkeypatch.setenv("LC_ALL", "C")
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    monkeypatch.chdir(tmp_path)
    assert run("build", "--out", tmp_path / "b").exit_code == 0
    for name in ("cities-sk-a4.pdf", "events-sk-a4.pdf"):
        assert (built / name).read_bytes() == (tmp_path / "b" / "mesta" / name).read_bytes()


def test_calibration_sheet_has_rulers_and_crosshairs_behind_each_other(tmp_path):
    assert run("calibrate", "--out", tmp_path).exit_code == 0
    pdf = reader(tmp_path / "calibration-a4-long.pdf")
    assert len(pdf.pages) == 2
    assert "100 % (actual size)" in pdf.pages[0].extract_text()
    width = float(pdf.pages[0].mediabox.width)

    def centres(page):
        return sorted((round((x1 + x2) / 2, 2), round(y1, 2)) for x1, y1, x2, y2 in marks(page) if y1 == y2 and x2 - x1 == pytest.approx(16 * MM, abs=0.01))

    front, back = centres(pdf.pages[0]), centres(pdf.pages[1])
    assert len(front) == 5
    assert sorted((round(width - x, 2), y) for x, y in back) == front


def test_parallel_build_gives_the_same_bytes(built_in_every_language, tmp_path):
    one = built_in_every_language  # built with one job
    assert run("build", "--lang", "all", "--jobs", "2", "--out", tmp_path / "two").exit_code == 0
    names = sorted(p.name for p in one.iterdir())
    decks = {f"{deck}-{lang}-a4.pdf" for deck in ("aids", "cities", "events") for lang in ("cs", "en", "sk")}
    assert decks <= set(names) and names == sorted(p.name for p in (tmp_path / "two" / "mesta").iterdir())
    for name in names:
        assert (one / name).read_bytes() == (tmp_path / "two" / "mesta" / name).read_bytes()


def test_parallel_build_reports_errors_and_writes_nothing(mesta, tmp_path):
    edit(mesta / "events.yaml", "grécke mestá.", "grécke mestá 漢.")
    result = run("build", mesta, "--jobs", "2", "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "text of card 'leonidas' uses '漢' (U+6F22), missing from font 'sans'" in result.output
    assert not list((tmp_path / "out").rglob("*.pdf"))
