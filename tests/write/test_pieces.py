"""Large components: turned to a landscape sheet when that is enough, otherwise split into
labelled, overlapping pieces with alignment targets and an assembly page first."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from conftest import run
from pdfread import MM, card_boxes, circles, marks, operations, placements, reader

from pnp.impose.sheets import SheetSpec, impose, plan_grid, plan_tiling, row_letters

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


def board_layout(w: float, h: float, shape: str | None = None) -> str:
    """A board drawn with plain elements: a frame, a grid of squares, a title, a polygon."""
    lines = [f"size: [{w}, {h}]", *([f"shape: {shape}"] if shape else []), "elements:", f"  - rect: [0, 0, {w}, {h}]", "    fill: '#f4efe1'"]
    for row in range(int(h // 50)):
        for col in range(int(w // 50)):
            colour = ["#e07a5f", "#81b29a", "#f2cc8f", "#3d405b"][(row + col) % 4]
            lines += [f"  - rect: [{col * 50 + 2}, {row * 50 + 2}, 46, 46]", f"    fill: '{colour}'", "    radius: 3"]
            lines += [f"  - text: '{row * 10 + col}'", f"    box: [{col * 50 + 5}, {row * 50 + 5}, 40, 10]", "    size: 12"]
    lines += ["  - text: '{{ title }}'", f"    box: [20, {h / 2 - 20}, {w - 40}, 40]", "    size: 40", "    align: center", "    valign: middle"]
    lines += [f"  - polygon: [[10, {h - 10}], [{w - 10}, {h - 10}], [{w / 2}, 10]]", "    stroke: '#000000'", "    stroke_width: 2"]
    return "\n".join(lines) + "\n"


def make_board(folder: Path, size: tuple[float, float], back: bool = False, shape: str | None = None) -> Path:
    (folder / "layouts").mkdir(parents=True)
    (folder / "layouts" / "board.yaml").write_text(board_layout(*size, shape), encoding="utf-8")
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


def piece_texts(pdf) -> list[str]:
    return [page.extract_text() for page in pdf.pages]


def test_a_400_x_300_board_on_a4_is_an_assembly_page_and_four_labelled_pieces(tmp_path):
    pdf, output = build(make_board(tmp_path / "plan", (400, 300)), tmp_path / "out")
    assert len(pdf.pages) == 5
    assert {size_mm(page) for page in pdf.pages} == {(297.0, 210.0)}  # landscape: 2 x 2 pieces, not 3 x 2
    assembly, *pieces = piece_texts(pdf)
    assert "Doska · Plán · main: zostavenie" in assembly
    assert "400 x 300 mm v 4 dielikoch (2 rady po 2), s presahom 10 mm" in assembly
    assert "toto pravítko má 50 mm" in assembly
    for text, label in zip(pieces, ["A1", "A2", "B1", "B2"]):
        assert f"{label}\nDoska · Plán · main · dielik" in text
    assert "lepiť pod A2" in pieces[0] and "lepiť pod B1" in pieces[0]
    assert "položte na A1" in pieces[1] and "lepiť pod B2" in pieces[1]
    assert "glue under" not in pieces[3]  # the last piece lies on top of the others
    assert "sheet-split-back" not in output
    # the assembly page shows the whole board scaled down, every piece the board at full size
    (_, _, scale), *_ = placements(pdf.pages[0])
    assert 0.5 < scale < 0.7
    assert all(s == 1 for page in pdf.pages[1:] for _, _, s in placements(page))


def test_neighbouring_pieces_line_up(tmp_path):
    pdf, _ = build(make_board(tmp_path / "plan", (400, 300)), tmp_path / "out")
    a1, a2, b1, b2 = ((x, y) for (x, y, _), *_ in (placements(page) for page in pdf.pages[1:]))
    # 2 x 2 landscape pieces of one size: the board and one overlap shared by two pieces
    piece_w, piece_h = (400 + 10) / 2, (300 + 10) / 2
    step_x, step_y = (piece_w - 10) * MM, (piece_h - 10) * MM  # a piece less the overlap
    left, top = (297 - piece_w) / 2, (210 + piece_h) / 2  # each piece is centred on its sheet
    # each piece shows the board from its own corner: the board's top-left corner lies at the
    # top-left of A1, and the same board point moves by one step per piece
    assert a1 == pytest.approx((left * MM, (top - 300) * MM), abs=0.2 * MM)
    assert (a2[0] - a1[0], a2[1] - a1[1]) == pytest.approx((-step_x, 0), abs=0.2 * MM)
    assert (b1[0] - a1[0], b1[1] - a1[1]) == pytest.approx((0, step_y), abs=0.2 * MM)
    assert (b2[0] - a1[0], b2[1] - a1[1]) == pytest.approx((-step_x, step_y), abs=0.2 * MM)

    def targets(page) -> set[tuple[float, float]]:
        """Centres of the alignment targets on a page, in mm."""
        return {(round(x / MM, 1), round(y / MM, 1)) for x, y, _ in circles(page, 2 * MM)}

    t_a1, t_a2, t_b1 = targets(pdf.pages[1]), targets(pdf.pages[2]), targets(pdf.pages[3])
    # the targets of the seam A1 | A2 lie on A2's left edge, and on the same board points
    # on A1, one step to the right
    seam = {(x, y) for x, y in t_a2 if abs(x - left) < 0.2}
    assert len(seam) == 3
    assert {(round(x + step_x / MM, 1), y) for x, y in seam} <= t_a1
    # the seam A1 / B1 lies on B1's top edge
    top_seam = {(x, y) for x, y in t_b1 if abs(y - top) < 0.2}
    assert len(top_seam) == 3
    assert {(x, round(y - step_y / MM, 1)) for x, y in top_seam} <= t_a1


def test_the_pieces_of_a_400_mm_wide_board_are_equal_in_width(tmp_path):
    # 400 x 150 mm on landscape A4 (287 mm printable): two pieces. Each the whole printable
    # width would leave the second one holding 123 mm; even pieces hold 205 mm each.
    pdf, _ = build(make_board(tmp_path / "plan", (400, 150)), tmp_path / "out")
    assert "400 x 150 mm v 2 dielikoch (1 rad po 2)" in pdf.pages[0].extract_text()
    widths = []
    for page in pdf.pages[1:]:
        (x, y, w, h), *_ = card_boxes(page)  # the clip of what the piece shows
        widths.append(round(w / MM, 1))
        assert x == pytest.approx((297 - w / MM) / 2 * MM, abs=0.2 * MM)  # centred on the sheet
    assert widths == [205.0, 205.0]


def test_on_a3_the_same_board_is_one_page(tmp_path):
    # 400 x 280 mm: too big for A4 even turned, inside the printable area of A3 landscape
    # (410 x 287 mm; a 300 mm side does not fit on a sheet 297 mm high)
    game = make_board(tmp_path / "plan", (400, 280))
    a4, _ = build(game, tmp_path / "a4")
    assert len(a4.pages) == 4  # portrait: 3 pieces in a row beat 2 x 2 landscape ones
    assert "400 x 280 mm v 3 dielikoch (1 rad po 3)" in a4.pages[0].extract_text()
    a3, _ = build(game, tmp_path / "a3", "--paper", "a3")
    check, board = a3.pages  # the board leaves no margin for the ruler: it comes on a page of its own, first
    assert "toto pravítko má 100 mm" in check.extract_text() and not card_boxes(check)
    assert size_mm(board) == (420.0, 297.0)
    assert "zostavenie" not in board.extract_text()
    assert [(round(w / MM), round(h / MM)) for _, _, w, h in card_boxes(board)] == [(400, 280)]


def test_a_split_board_with_a_back_says_the_back_is_not_printed(tmp_path):
    game = make_board(tmp_path / "plan", (400, 300), back=True)
    pdf, output = build(game, tmp_path / "out")
    assert "game.yaml:5:" in output
    assert (
        "warning: deck 'board' (400 x 300 mm) is larger than A4 and printed in pieces; its back ('board-back') is not printed, because pieces cannot be printed double-sided"
        in output
    )
    assert len(pdf.pages) == 5  # no back pages
    assert "Rub („board-back“) sa netlačí" in pdf.pages[0].extract_text()
    result = run("build", game, "--out", tmp_path / "fronts", "--sides", "fronts")
    assert result.exit_code == 0 and "sheet-split-back" not in result.output
    assert len(reader(tmp_path / "fronts" / "plan" / "board-sk-a4-fronts.pdf").pages) == 5


def test_overlap_sets_how_far_pieces_overlap(tmp_path):
    pdf, _ = build(make_board(tmp_path / "plan", (400, 300)), tmp_path / "out", "--overlap", "20")
    assert "s presahom 20 mm" in pdf.pages[0].extract_text()
    (a1, *_), (a2, *_) = placements(pdf.pages[1]), placements(pdf.pages[2])
    assert a1[0] - a2[0] == pytest.approx(((400 + 20) / 2 - 20) * MM, abs=0.2 * MM)  # a piece less the overlap


def test_bleed_keeps_the_crop_marks_on_the_trim_of_a_split_board(tmp_path):
    pdf, _ = build(make_board(tmp_path / "plan", (400, 300)), tmp_path / "out", "--bleed", "3")
    a1, b2 = pdf.pages[1], pdf.pages[4]
    left = (297 - (406 + 10) / 2) / 2  # the left edge of every (centred) piece; the art is 406 mm wide
    xs = {round(x1 / MM, 1) for x1, y1, x2, y2 in marks(a1) if x1 == x2}
    assert round(left + 3, 1) in xs  # the board's left trim edge, inside the 3 mm bleed
    assert round(left, 1) not in xs  # A1 has no cut edge on its left
    xs = {round(x1 / MM, 1) for x1, y1, x2, y2 in marks(b2) if x1 == x2}
    assert round(left, 1) in xs  # B2's left edge is cut: it lies on B1


def stroked_outlines(page) -> list[tuple[tuple[float, ...], tuple[float, ...] | None, list[tuple[float, float]]]]:
    """Closed outlines stroked on the page itself, each with its stroke colour and the
    clip rectangle it is drawn in (x, y, w, h, or None): the cut lines."""
    found, points, colour, clips, rect = [], [], [(0.0, 0.0, 0.0)], [None], None
    for operands, op in operations(page):
        if op == b"q":
            colour.append(colour[-1])
            clips.append(clips[-1])
        elif op == b"Q":
            colour.pop()
            clips.pop()
        elif op == b"RG":
            colour[-1] = tuple(round(float(v), 2) for v in operands)
        elif op == b"re":
            rect = tuple(float(v) for v in operands)
        elif op in (b"W", b"W*"):
            clips[-1] = rect
        elif op == b"m":
            points = [(float(operands[0]), float(operands[1]))]
        elif op in (b"l", b"c"):
            points.append((float(operands[-2]), float(operands[-1])))
        elif op in (b"S", b"s") and len(points) > 4:
            found.append((colour[-1], clips[-1], points))
    return found


CUT_GREY = (0.3, 0.3, 0.3)


def test_a_round_board_in_pieces_shows_its_outline_on_every_piece(tmp_path):
    # 360 mm across: 2 x 2 pieces on A4. Each piece shows the part of the circle it holds,
    # in the grey of the cut lines on token sheets, clipped to the piece like the art.
    pdf, _ = build(make_board(tmp_path / "plan", (360, 360), shape="round"), tmp_path / "out")
    assembly, *pieces = pdf.pages
    assert len(pieces) == 4
    for page in pieces:
        (x, y, _), *_ = placements(page)  # where the board's trim corner lies on this page
        clip, *_ = card_boxes(page)  # what the piece shows
        (colour, clipped, points), *others = [o for o in stroked_outlines(page) if o[0] == CUT_GREY]
        assert not others and clipped == pytest.approx(clip)
        cx, cy = x + 180 * MM, y + 180 * MM
        assert all(math.dist((cx, cy), p) == pytest.approx(180 * MM, abs=0.01) for p in points)
        assert [r for _, _, r in circles(page, 180 * MM)] == [pytest.approx(180 * MM)]

    # round: no crop marks along the square the circle sits in, only at the pieces' cut
    # edges (A1 has none, B2 its left and top edge); a square board has them at its edges
    def crop_marks(page) -> list:
        return [m for m in marks(page) if 0 in m[:2] or float(page.mediabox.width) == m[2] or float(page.mediabox.height) == m[3]]

    assert crop_marks(pieces[0]) == []
    assert len(crop_marks(pieces[3])) == 4
    square, _ = build(make_board(tmp_path / "square", (360, 360)), tmp_path / "square-out")
    assert len(crop_marks(square.pages[1])) == 4
    # the assembly page shows the outline too, scaled down with the board
    (x, y, scale), *_ = placements(assembly)
    (colour, _, points), *_ = [o for o in stroked_outlines(assembly) if o[0] == CUT_GREY]
    cx, cy = x + 180 * MM * scale, y + 180 * MM * scale
    assert all(math.dist((cx, cy), p) == pytest.approx(180 * MM * scale, abs=0.01) for p in points)


def test_a_hex_board_in_pieces_shows_its_hexagon(tmp_path):
    pdf, _ = build(make_board(tmp_path / "plan", (400, 346.41), shape="hex"), tmp_path / "out")
    for page in pdf.pages[1:]:
        (x, y, _), *_ = placements(page)
        (_, _, points), *others = [o for o in stroked_outlines(page) if o[0] == CUT_GREY]
        assert not others
        corners = {(round((px - x) / MM, 1), round((py - y) / MM, 1)) for px, py in points}
        assert corners == {(0, 173.2), (100, 346.4), (300, 346.4), (400, 173.2), (300, 0), (100, 0)}


def test_a_rectangular_board_in_pieces_has_no_cut_outline(tmp_path):
    pdf, _ = build(make_board(tmp_path / "plan", (400, 300)), tmp_path / "out")
    assert not [o for page in pdf.pages for o in stroked_outlines(page) if o[0] == CUT_GREY]


@pytest.mark.parametrize(("size", "landscape", "grid"), [((400, 300), True, (2, 2)), ((300, 400), False, (2, 2)), ((600, 150), True, (3, 1))])
def test_pieces_take_the_orientation_that_needs_fewer(size, landscape, grid):
    tiling = plan_tiling(SheetSpec(), size[0] * MM, size[1] * MM)
    assert (tiling.page_w > tiling.page_h, tiling.cols, tiling.rows) == (landscape, *grid)


def test_pieces_cover_the_whole_board_and_overlap_exactly():
    spec = SheetSpec(bleed=2)
    tiling = plan_tiling(spec, 600 * MM, 500 * MM)
    left, bottom, right, top = tiling.art
    windows = [p.window for p in tiling.pieces]
    assert min(w[0] for w in windows) == pytest.approx(left) and max(w[2] for w in windows) == pytest.approx(right)
    assert min(w[1] for w in windows) == pytest.approx(bottom) and max(w[3] for w in windows) == pytest.approx(top)
    for piece in tiling.pieces:
        beside, below = tiling.piece(piece.row, piece.col + 1), tiling.piece(piece.row + 1, piece.col)
        if beside:
            assert piece.window[2] - beside.window[0] == pytest.approx(10 * MM)
        if below:
            assert below.window[3] - piece.window[1] == pytest.approx(10 * MM)
    # every piece the same size, inside the printable area of its sheet
    sizes = {(round((w[2] - w[0]) / MM, 3), round((w[3] - w[1]) / MM, 3)) for w in windows}
    assert len(sizes) == 1
    (w, h), *_ = sizes
    assert w <= tiling.page_w / MM - 10 + 1e-6 and h <= tiling.page_h / MM - 10 + 1e-6


def test_row_letters_run_past_z():
    assert [row_letters(r) for r in (0, 1, 25, 26, 27)] == ["A", "B", "Z", "AA", "AB"]


# --- what the build says about printing: double-sided only for what has backs ----------

ONE_SIDED = "Print at 100 % (actual size); check the ruler on the sheet."


def test_a_build_of_pieces_only_does_not_say_double_sided(tmp_path):
    # the board has a back layout, but pieces are printed without it: nothing is duplex
    _, output = build(make_board(tmp_path / "plan", (400, 300), back=True), tmp_path / "out")
    assert output.rstrip().splitlines()[-1] == ONE_SIDED


def test_fronts_only_output_does_not_say_double_sided(mesta, tmp_path):
    result = run("build", mesta, "--out", tmp_path / "out", "--deck", "cities", "--sides", "fronts")
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith(ONE_SIDED) and "double-sided" not in result.output


def test_decks_with_backs_say_double_sided_on_the_edge_asked_for(mesta, tmp_path):
    game = (mesta / "game.yaml").read_text(encoding="utf-8")
    (mesta / "game.yaml").write_text(game[: game.index("tuckboxes:")], encoding="utf-8")  # only decks with backs: no tuck box, which is one-sided
    result = run("build", mesta, "--out", tmp_path / "out", "--deck", "cities", "--deck", "events", "--flip", "short")
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("Print double-sided, flip on the short edge, at 100 % (actual size); check the ruler on the sheet.")


def test_a_mixed_build_names_what_to_print_double_sided(mesta, tmp_path):
    # the cards have backs (long edge, as asked), the booklet is folded (short edge), the
    # tuck boxes one-sided, and the A4 rulebook is named too
    result = run("build", mesta, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    advice = result.output.rstrip().splitlines()[-5:]
    assert advice == [
        ONE_SIDED,
        "  double-sided, flipping on the long edge: cities-sk-a4.pdf, events-sk-a4.pdf, aids-sk-a4.pdf",
        "  double-sided, flipping on the short edge: rules-sk-a5-booklet.pdf",
        "  one-sided: cities-box-sk-a4.pdf, events-box-sk-a4.pdf",
        "  one- or double-sided, as you like: rules-sk-a4.pdf",
    ]  # the A4 rulebook has no backs to land behind anything: it prints either way


def test_pieces_beside_cards_are_named_one_sided(tmp_path):
    # Ember Ages: cards with backs, and a nation board and card row too large for A4
    result = run("build", Path(__file__).resolve().parents[2] / "cards" / "ages", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    advice = result.output.rstrip().splitlines()
    assert advice[-3] == ONE_SIDED
    assert advice[-2].startswith("  double-sided, flipping on the long edge: civil-en-a4.pdf, military-en-a4.pdf")
    assert advice[-1] == "  one-sided: aids-en-a4.pdf, counters-en-a4.pdf, nations-en-a4.pdf, board-en-a4.pdf, row-en-a4.pdf"  # no backs, or in pieces
