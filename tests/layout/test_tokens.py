"""Tokens: round and hex components get their outline as a cut line instead of crop marks,
their backs land behind their fronts, and each size is a deck of its own."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from conftest import run
from makers import group, make_tokens
from pdfread import MM, card_boxes, circles, marks, outlines, sheet_pages


def build(game: Path, out: Path, *options: str) -> Path:
    result = run("build", game, "--out", out, *options)
    assert result.exit_code == 0, result.output
    return out / game.name


def centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    x, y, w, h = box
    return round(x + w / 2, 1), round(y + h / 2, 1)


def test_round_tokens_have_circular_cut_lines_and_no_crop_marks(tmp_path):
    game = make_tokens(tmp_path / "coins", {"coins": ((25, 25), "round", True)})
    pdf = sheet_pages(build(game, tmp_path / "out") / "coins-sk-a4.pdf")
    front = pdf[0]
    cuts = circles(front)
    assert len(cuts) == 10  # one per token, copies counted
    assert all(r == pytest.approx(12.5 * MM, abs=0.01) for _, _, r in cuts)
    assert sorted((round(x, 1), round(y, 1)) for x, y, _ in cuts) == sorted(centre(b) for b in card_boxes(front))
    paths = outlines(front)
    assert len(paths) == 10 and all(curved for curved, _ in paths)
    for (_, points), (cx, cy, r) in zip(paths, cuts):  # every point of every cut lies on its circle
        assert all(math.dist((cx, cy), p) == pytest.approx(r, abs=0.01) for p in points)
    assert marks(front) == []  # no crop marks from edge to edge
    assert marks(pdf[1]) == []


def test_a_tokens_back_lands_behind_its_front(tmp_path):
    game = make_tokens(tmp_path / "coins", {"coins": ((25, 25), "round", True)})
    pdf = sheet_pages(build(game, tmp_path / "out") / "coins-sk-a4.pdf")
    width = float(pdf[0].mediabox.width)
    front, back = pdf[0], pdf[1]
    fronts = [(x, y) for x, y, _ in circles(front)]
    backs = [(x, y) for x, y, _ in circles(back)]
    assert len(backs) == len(fronts) == 10
    mirrored = sorted((round(width - x, 1), round(y, 1)) for x, y in fronts)  # long edge: columns reversed
    assert sorted((round(x, 1), round(y, 1)) for x, y in backs) == mirrored
    assert sorted(centre(b) for b in card_boxes(back)) == mirrored  # the back art sits inside its cut line


def test_short_edge_flip_mirrors_token_rows(tmp_path):
    game = make_tokens(tmp_path / "coins", {"coins": ((25, 25), "round", True)})
    pdf = sheet_pages(build(game, tmp_path / "out", "--flip", "short") / "coins-sk-a4.pdf")
    height = float(pdf[0].mediabox.height)
    fronts = sorted((round(x, 1), round(height - y, 1)) for x, y, _ in circles(pdf[0]))
    assert sorted((round(x, 1), round(y, 1)) for x, y, _ in circles(pdf[1])) == fronts


def test_hex_tokens_are_cut_along_a_flat_top_hexagon(tmp_path):
    size = (30, 30 * math.sqrt(3) / 2)
    game = make_tokens(tmp_path / "hexes", {"hexes": ((size[0], round(size[1], 2)), "hex", False)})
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0 and "layout-hex-size" not in result.output
    page = sheet_pages(tmp_path / "out" / "hexes" / "hexes-sk-a4.pdf")[0]
    hexagons = [points for curved, points in outlines(page) if not curved]
    boxes = card_boxes(page)
    assert len(hexagons) == len(boxes) == 10
    for points, (x, y, w, h) in zip(hexagons, boxes):
        assert len(points) == 6
        sides = [math.dist(a, b) for a, b in zip(points, points[1:] + points[:1])]
        assert all(side == pytest.approx(15 * MM, abs=0.05) for side in sides)  # regular: every side half the width
        assert min(px for px, _ in points) == pytest.approx(x) and max(px for px, _ in points) == pytest.approx(x + w)
        tops = [px for px, py in points if py == pytest.approx(y + h)]
        assert len(tops) == 2  # flat top: an edge, not a corner


def test_a_stretched_hex_is_a_warning_that_says_the_right_height(tmp_path):
    game = make_tokens(tmp_path / "hexes", {"hexes": ((30, 30), "hex", False)})
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0
    assert "layouts/hexes.yaml:2:8: warning: layout 'hexes' is a hex of 30 x 30 mm" in result.output
    assert "expected a height of 25.98 mm" in result.output


def test_each_token_size_is_its_own_deck_and_pdf(tmp_path):
    game = make_tokens(tmp_path / "mix", {"small": ((20, 20), "round", False), "large": ((40, 40), "round", False)})
    out = build(game, tmp_path / "out")
    small = circles(sheet_pages(out / "small-sk-a4.pdf")[0])
    large = circles(sheet_pages(out / "large-sk-a4.pdf")[0])
    assert {round(r / MM, 2) for _, _, r in small} == {10.0}
    assert {round(r / MM, 2) for _, _, r in large} == {20.0}


def test_rect_stays_the_default_with_crop_marks(tmp_path):
    game = make_tokens(tmp_path / "tiles", {"tiles": ((25, 25), None, False)})
    page = sheet_pages(build(game, tmp_path / "out") / "tiles-sk-a4.pdf")[0]
    assert circles(page) == [] and marks(page)


def test_a_back_of_another_shape_is_an_error(tmp_path):
    game = make_tokens(tmp_path / "coins", {"coins": ((25, 25), "round", True)})
    back = game / "layouts" / "coins-back.yaml"
    back.write_text(back.read_text(encoding="utf-8").replace("shape: round", "shape: hex"), encoding="utf-8")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "game.yaml:5:" in result.output
    assert "back layout 'coins-back' is hex but the front 'coins' is round; expected the same shape" in result.output


def test_an_unknown_shape_is_an_error_naming_the_shapes(tmp_path):
    game = make_tokens(tmp_path / "coins", {"coins": ((25, 25), "rund", False)})
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code != 0
    assert "layouts/coins.yaml:2:8: 'shape' is 'rund'; expected one of 'rect', 'round', 'hex'" in result.output


def test_token_decks_of_one_group_share_sheets(tmp_path):
    hex_size = (30, round(30 * math.sqrt(3) / 2, 2))
    game = make_tokens(tmp_path / "mix", {"coins": ((25, 25), "round", True), "hexes": (hex_size, "hex", False), "tiles": ((40, 40), None, False)})
    group(game, {"coins": "tokens", "hexes": "tokens"})
    out = build(game, tmp_path / "out")
    assert sorted(p.name for p in out.glob("*.pdf")) == ["tiles-sk-a4.pdf", "tokens-sk-a4.pdf"]
    pdf = sheet_pages(out / "tokens-sk-a4.pdf")
    assert len(pdf) == 2  # 10 coins and 10 hexes on one sheet, and its backs
    front, back = pdf
    coins = circles(front)
    hexagons = [points for curved, points in outlines(front) if not curved and len(points) == 6]
    assert len(coins) == 10 and len(hexagons) == 10
    assert not [m for m in marks(front) if 0.0 in m]  # no crop marks from the sheet edge, crossing the other sizes
    # each deck starts its own row: every coin lies above every hex
    assert min(y for _, y, _ in coins) - 12.5 * MM > max(y for points in hexagons for _, y in points) - 0.05  # rows butt: no gap
    # the part-filled sheet fills from the top margin, as a sheet you keep filling: the
    # first row touches the 5 mm margin, the white is at the foot
    height = float(front.mediabox.height)
    assert max(y for _, y, _ in coins) + 12.5 * MM == pytest.approx(height - 5 * MM, abs=0.01)
    assert min(y for points in hexagons for _, y in points) > height / 2
    # only the coins have backs, each behind its own front
    width = float(front.mediabox.width)
    assert sorted((round(x, 1), round(y, 1)) for x, y, _ in circles(back)) == sorted((round(width - x, 1), round(y, 1)) for x, y, _ in coins)
    assert len(card_boxes(back)) == 10


def test_a_group_named_like_another_deck_is_an_error(tmp_path):
    game = make_tokens(tmp_path / "mix", {"coins": ((25, 25), "round", False), "hexes": ((30, 25.98), "hex", False)})
    group(game, {"coins": "hexes"})
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "group 'hexes' of deck 'coins' names the PDF of the group, which would be the PDF of deck 'hexes'; expected" in result.output
    assert "not the id of a deck outside the group" in result.output


def test_a_grouped_build_is_the_same_in_parallel(tmp_path):
    game = make_tokens(tmp_path / "mix", {"coins": ((25, 25), "round", True), "hexes": ((30, 25.98), "hex", True), "tiles": ((40, 40), None, False)})
    group(game, {"coins": "tokens", "hexes": "tokens"})
    one, two = build(game, tmp_path / "one"), build(game, tmp_path / "two", "--jobs", "2")
    for name in ("tokens-sk-a4.pdf", "tiles-sk-a4.pdf"):
        assert (one / name).read_bytes() == (two / name).read_bytes()


def test_a_group_member_too_big_for_an_upright_sheet_is_an_error(tmp_path):
    game = make_tokens(tmp_path / "mix", {"coins": ((25, 25), "round", False), "mats": ((280, 190), None, False)})
    group(game, {"coins": "tokens", "mats": "tokens"})
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "deck 'mats' of group 'tokens': 280.0 x 190.0 mm does not fit on A4" in result.output
    assert "expected it outside the group, where it is turned or split" in result.output
