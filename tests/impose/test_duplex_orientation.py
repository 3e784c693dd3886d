"""Where a back lands and which way up, read from the written PDF: for every paper
orientation and flip, each back's top lies behind its own front's top once the sheet is
turned over. A card's back carries 'TOP' by its top edge and 'FOOT' by its bottom edge;
the reverse page is folded onto the front page as the printer turns the paper."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_small_game, run
from pdfread import MM, card_boxes, placed_text, reader

BACK = """\
size: [{w}, {h}]
elements:
  - text: "TOP"
    box: [5, 3, 20, 8]
  - text: "FOOT"
    box: [5, {foot}, 20, 8]
"""
FRONT = """\
size: [{w}, {h}]
elements:
  - text: "{{{{ title }}}}"
    box: [5, 3, 40, 10]
"""


def game(tmp_path: Path, w: float, h: float) -> Path:
    folder = make_small_game(tmp_path / "hra", "".join(f"- {{id: c{i}, title: Karta{i}}}\n" for i in range(5)))
    (folder / "layouts").mkdir()
    (folder / "layouts" / "front.yaml").write_text(FRONT.format(w=w, h=h), encoding="utf-8")
    (folder / "layouts" / "back.yaml").write_text(BACK.format(w=w, h=h, foot=h - 11), encoding="utf-8")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("front: basic/card, back: basic/back", "front: front, back: back"), encoding="utf-8")
    return folder


def behind(x: float, y: float, page_w: float, page_h: float, flip: str) -> tuple[float, float]:
    """The point of the front page that a point of the reverse page lies behind, when the
    paper is turned over its long (or short) edge, whatever way the page lies on it."""
    paper_long_edge_vertical = page_h >= page_w
    mirror_x = (flip == "long") == paper_long_edge_vertical
    return (page_w - x, y) if mirror_x else (x, page_h - y)


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize(("w", "h", "landscape"), [(63, 88, False), (230, 150, True)])
def test_each_back_top_lies_behind_its_front_top(tmp_path, flip, w, h, landscape):
    folder = game(tmp_path, w, h)
    out = tmp_path / "out"
    result = run("build", folder, "--out", out, "--flip", flip)
    assert result.exit_code == 0, result.output
    pdf = reader(out / "hra" / "cards-sk-a4.pdf")
    front, back = pdf.pages[0], pdf.pages[1]
    page_w, page_h = float(front.mediabox.width), float(front.mediabox.height)
    assert (page_w > page_h) == landscape
    boxes = {}  # front trim boxes by card title
    for text, x, y in placed_text(front):
        for bx, by, bw, bh in card_boxes(front):
            if bx <= x <= bx + bw and by <= y <= by + bh:
                boxes[text] = (bx, by, bw, bh)
    assert len(boxes) == len(card_boxes(front)) > 0
    tops = [behind(x, y, page_w, page_h, flip) for text, x, y in placed_text(back) if text == "TOP"]
    feet = [behind(x, y, page_w, page_h, flip) for text, x, y in placed_text(back) if text == "FOOT"]
    assert len(tops) == len(feet) == len(boxes)
    for bx, by, bw, bh in boxes.values():
        top = [p for p in tops if bx <= p[0] <= bx + bw and by <= p[1] <= by + bh]
        foot = [p for p in feet if bx <= p[0] <= bx + bw and by <= p[1] <= by + bh]
        assert len(top) == len(foot) == 1, "each front has its own back behind it"
        assert top[0][1] > by + bh - 12 * MM, "the back's top lies behind the front's top"
        assert foot[0][1] < by + 12 * MM, "and its foot behind the front's foot"
