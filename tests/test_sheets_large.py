"""Large components: turned to a landscape sheet when that is enough, otherwise split into
labelled, overlapping pieces with alignment targets and an assembly page first."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run
from pdfread import MM, card_boxes, marks, reader

from pnp.impose import SheetSpec, impose, plan_grid

GAME = """\
title: Doska
language: sk
attribution: Test.
decks:
  board: {{type: board, data: boards.yaml, front: board{back}, name: Plán}}
"""
RULES = """\
types:
  board:
    fields:
      title: {type: text}
"""
BOARDS = "- {id: main, title: Veľký plán}\n"


def board_layout(w: float, h: float) -> str:
    """A board drawn with plain elements: a frame, a grid of squares, a title, a polygon."""
    lines = [f"size: [{w}, {h}]", "elements:", f"  - rect: [0, 0, {w}, {h}]", "    fill: '#f4efe1'"]
    for row in range(int(h // 50)):
        for col in range(int(w // 50)):
            colour = ["#e07a5f", "#81b29a", "#f2cc8f", "#3d405b"][(row + col) % 4]
            lines += [f"  - rect: [{col * 50 + 2}, {row * 50 + 2}, 46, 46]", f"    fill: '{colour}'", "    radius: 3"]
            lines += [f"  - text: '{row * 10 + col}'", f"    box: [{col * 50 + 5}, {row * 50 + 5}, 40, 10]", "    size: 12"]
    lines += ["  - text: '{{ title }}'", f"    box: [20, {h / 2 - 20}, {w - 40}, 40]", "    size: 40", "    align: center", "    valign: middle"]
    lines += [f"  - polygon: [[10, {h - 10}], [{w - 10}, {h - 10}], [{w / 2}, 10]]", "    stroke: '#000000'", "    stroke_width: 2"]
    return "\n".join(lines) + "\n"


def make_board(folder: Path, size: tuple[float, float], back: bool = False) -> Path:
    (folder / "layouts").mkdir(parents=True)
    (folder / "layouts" / "board.yaml").write_text(board_layout(*size), encoding="utf-8")
    if back:
        (folder / "layouts" / "board-back.yaml").write_text(
            f"size: [{size[0]}, {size[1]}]\nelements:\n  - rect: [0, 0, {size[0]}, {size[1]}]\n    fill: '#333333'\n"
        )
    (folder / "game.yaml").write_text(GAME.format(back=", back: board-back" if back else ""), encoding="utf-8")
    (folder / "rules.yaml").write_text(RULES, encoding="utf-8")
    (folder / "boards.yaml").write_text(BOARDS, encoding="utf-8")
    return folder


def build(game: Path, out: Path, *options: str):
    result = run("build", game, "--out", out, *options)
    assert result.exit_code == 0, result.output
    return reader(out / game.name / f"board-sk-{'a3' if 'a3' in options else 'a4'}.pdf"), result.output


def size_mm(page) -> tuple[float, float]:
    return round(float(page.mediabox.width) / MM, 1), round(float(page.mediabox.height) / MM, 1)


def test_a_board_that_fits_landscape_a4_is_put_on_a_landscape_page(tmp_path):
    pdf, output = build(make_board(tmp_path / "plan", (270, 180), back=True), tmp_path / "out", "--back-offset", "0,2")
    assert [size_mm(page) for page in pdf.pages] == [(297.0, 210.0), (297.0, 210.0)]  # front, back
    (x, y, w, h), *rest = card_boxes(pdf.pages[0])
    assert not rest and (round(w / MM, 1), round(h / MM, 1)) == (270.0, 180.0)
    assert x == pytest.approx((297 - 270) / 2 * MM, abs=0.01)
    assert marks(pdf.pages[0])
    # turned over the paper's long edge, a landscape page swaps top and bottom: a back moved
    # 2 mm up as seen from the front is 2 mm lower on the back page
    (bx, by, _, _), *_ = card_boxes(pdf.pages[1])
    assert bx == pytest.approx(x, abs=0.01)
    assert by == pytest.approx(float(pdf.pages[1].mediabox.height) - y - h - 2 * MM, abs=0.01)
    assert "sheet-split" not in output


def test_on_a_landscape_sheet_the_long_edge_flip_reverses_rows():
    spec = SheetSpec()
    grid = plan_grid(spec, 63 * MM, 88 * MM, landscape=True)
    assert (grid.page_w > grid.page_h, grid.cols, grid.rows) == (True, 4, 2)
    front, back = list(impose(8, grid, spec))
    for f, b in zip(front.placements, back.placements):
        assert b.x == pytest.approx(f.x)
        assert b.y == pytest.approx(grid.page_h - f.y - grid.trim_h)


def test_cards_that_fit_portrait_stay_portrait(tmp_path):
    pdf, _ = build(make_board(tmp_path / "plan", (190, 270)), tmp_path / "out")
    assert size_mm(pdf.pages[0]) == (210.0, 297.0)
