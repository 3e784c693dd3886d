"""Folded sheets (--sides fold), read from the written PDF: fold the page along its dashed
line, and each back lands on its own front's trim box to 0.05 mm, the right way up; the
PDF asks for no duplex printing, and nothing but marks is printed within the margin."""

from __future__ import annotations

import pytest
from conftest import run
from makers import fold_game
from pdfread import MM, card_boxes, marks, placed_text, reader
from test_rulers_and_margins import ink_in_margin


def fold_line(page) -> tuple[bool, float]:
    """The fold, read from the page: the long dashed line across it (vertical?, where)."""
    w, h = float(page.mediabox.width), float(page.mediabox.height)
    found = [
        (x1 == x2, x1 if x1 == x2 else y1) for x1, y1, x2, y2 in marks(page) if (x1 == x2 and abs(y2 - y1) > 0.8 * h) or (y1 == y2 and abs(x2 - x1) > 0.8 * w)
    ]
    assert len(found) == 1, found
    return found[0]


def inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    x, y = point
    bx, by, bw, bh = box
    return bx <= x <= bx + bw and by <= y <= by + bh


@pytest.mark.parametrize(
    ("w", "h", "landscape", "vertical"),
    [(90, 60, False, True), (60, 40, False, False), (63, 88, True, True)],
)
def test_each_back_lands_on_its_front_when_folded(tmp_path, w, h, landscape, vertical):
    out = tmp_path / "out"
    result = run("build", fold_game(tmp_path, w, h), "--out", out, "--sides", "fold", "--bleed", "1")
    assert result.exit_code == 0, result.output
    assert "fold each sheet" in result.output and "double-sided" not in result.output
    path = out / "hra" / "cards-sk-a4-fold.pdf"
    pdf = reader(path)
    assert "/Duplex" not in str(pdf.trailer["/Root"].get("/ViewerPreferences", {})), "printed one-sided"
    seen = set()
    for page in pdf.pages:
        page_w, page_h = float(page.mediabox.width), float(page.mediabox.height)
        assert (page_w > page_h) == landscape
        is_vertical, at = fold_line(page)
        assert is_vertical == vertical
        boxes = card_boxes(page)  # trim + 1 mm of bleed
        texts = placed_text(page)

        def folded(x: float, y: float, at: float = at) -> tuple[float, float]:
            return (2 * at - x, y) if vertical else (x, 2 * at - y)

        for title, x, y in texts:
            if not title.startswith("K"):
                continue
            front = next(b for b in boxes if inside((x, y), b))
            back_title = [(bx, by) for t, bx, by in texts if t == "Z" + title]
            assert len(back_title) == 1
            back = next(b for b in boxes if inside(back_title[0], b))
            (x1, y1), (x2, y2) = folded(back[0], back[1]), folded(back[0] + back[2], back[1] + back[3])
            assert abs(min(x1, x2) - front[0]) < 0.05 * MM and abs(max(x1, x2) - front[0] - front[2]) < 0.05 * MM
            assert abs(min(y1, y2) - front[1]) < 0.05 * MM and abs(max(y1, y2) - front[1] - front[3]) < 0.05 * MM
            fx, fy = folded(*back_title[0])
            assert fy > front[1] + front[3] - 12 * MM, "the back's top lies behind the front's top"
            feet = [folded(bx, by) for t, bx, by in texts if t == "FOOT" and inside((bx, by), back)]
            assert len(feet) == 1 and feet[0][1] < front[1] + 12 * MM, "and its foot behind the front's foot"
            seen.add(title)
    assert seen == {f"K{i}" for i in range(11)}
    assert not ink_in_margin(path)


def test_fold_asks_for_no_cutter(tmp_path):
    result = run("build", fold_game(tmp_path, 63, 88, 2), "--out", tmp_path / "out", "--sides", "fold", "--cutter", "silhouette")
    assert result.exit_code != 0 and "cannot be combined" in result.output


def test_cards_too_large_to_fold_are_printed_double_sided_with_a_warning(tmp_path):
    out = tmp_path / "out"
    result = run("build", fold_game(tmp_path, 180, 150, 2), "--out", out, "--sides", "fold")
    assert result.exit_code == 0, result.output
    assert "[sheet-fold-fit]" in result.output and "double-sided" in result.output
    assert len(reader(out / "hra" / "cards-sk-a4-fold.pdf").pages) == 4  # one card a sheet, fronts and backs
