"""Boards: numbered tracks generated from a range (along a line, in rows, around the edge,
on a ring), card slots and symbol legends, read back from the built PDF where a player
would look at them."""

from __future__ import annotations

import math
from pathlib import Path
from textwrap import dedent, indent

from conftest import run
from pdfread import MM, card_boxes, operations, placed_text, reader

GAME = """\
title: Board
language: en
decks:
  boards: {type: board, data: boards.yaml, front: board}
  events: {type: card, data: events.yaml, front: basic/card}
symbol_names:
  star: Victory point
"""
RULES = """\
enums:
  resource:
    coin: {name: Gold}
    wood: {name: Timber}
types:
  board:
    fields:
      title: {type: text}
      top: {type: int}
  card:
    fields:
      title: {type: text}
"""
STAR = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><polygon points="5,0 6.5,3.5 10,4 7.5,6.5 8,10 5,8 2,10 2.5,6.5 0,4 3.5,3.5"/></svg>\n'


def board(tmp_path: Path, elements: str, size: str = "[180, 180]", styles: str = "") -> Path:
    """A game with one 180 x 180 mm board (field `top` = 99) drawn by `elements`, a deck of
    poker cards (for slots) and three symbols: star (named in game.yaml), coin and wood
    (named by the enum `resource`)."""
    folder = tmp_path / "board"
    (folder / "layouts").mkdir(parents=True)
    (folder / "symbols").mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "rules.yaml").write_text(RULES, encoding="utf-8")
    (folder / "boards.yaml").write_text("- {id: main, title: Main board, top: 99}\n", encoding="utf-8")
    (folder / "events.yaml").write_text("- {id: storm, title: Storm}\n", encoding="utf-8")
    for sid in ("star", "coin", "wood"):
        (folder / "symbols" / f"{sid}.svg").write_text(STAR, encoding="utf-8")
    layout = f"size: {size}\nstyles:\n  small: {{size: 6, align: center, valign: middle}}\n{styles}elements:\n" + indent(dedent(elements), "  ")
    (folder / "layouts" / "board.yaml").write_text(layout, encoding="utf-8")
    return folder


def build(folder: Path, *args: str) -> Path:
    out = folder.parent / "out"
    result = run("build", folder, "--out", out, "--deck", "boards", *args)
    assert result.exit_code == 0, result.output
    return out / folder.name / f"boards-{args[-1] if args else 'en'}-a4.pdf"


def labels(pdf: Path) -> list[tuple[str, float, float]]:
    """Text on the board: (text, x, y) in mm from the top left of the board's trim, where
    each run starts (left end of its baseline)."""
    page = reader(pdf).pages[0]
    bx, by, _bw, bh = card_boxes(page)[0]
    return [(t, (x - bx) / MM, (by + bh - y) / MM) for t, x, y in placed_text(page)]


def numbers(pdf: Path) -> dict[int, tuple[float, float]]:
    found: dict[int, tuple[float, float]] = {}
    for t, x, y in labels(pdf):
        if t.isdigit():
            assert int(t) not in found, f"{t} printed twice"
            found[int(t)] = (x, y)
    return found


def errors(folder: Path) -> str:
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    return result.output.replace(str(folder.parent) + "/", "")


# --- tracks --------------------------------------------------------------------------------


def test_an_edge_track_of_0_to_99_prints_every_number_once_around_the_board(tmp_path):
    folder = board(
        tmp_path,
        """\
        - track:
            range: [0, "{{ top }}"]
            path: edge
            box: [0, 0, 180, 180]
        """,
    )
    at = numbers(build(folder))
    assert sorted(at) == list(range(100))
    # a square board: 24 spaces on each side between the corners 0, 25, 50 and 75
    depth = 2 * 360 / 104  # the band is as deep as a space is long
    x0, y0 = at[0]
    assert x0 < depth and y0 < depth  # 0 in the top-left corner
    assert at[25][0] > 180 - depth and at[25][1] < depth
    assert at[50][0] > 180 - depth and at[50][1] > 180 - depth
    assert at[75][0] < depth and at[75][1] > 180 - depth
    xs = [at[n][0] for n in range(0, 26)]
    assert xs == sorted(xs) and all(abs(at[n][1] - y0) < 0.1 for n in range(26))  # along the top, rightwards
    ys = [at[n][1] for n in range(25, 51)]
    assert ys == sorted(ys)  # down the right side
    xs = [at[n][0] for n in range(50, 76)]
    assert xs == sorted(xs, reverse=True)  # back along the bottom
    ys = [at[n][1] for n in range(75, 100)]
    assert ys == sorted(ys, reverse=True) and at[99][1] > y0  # up the left side, ending below 0
    for n in range(100):  # every space is next to the one before it, and 99 is next to 0
        assert math.dist(at[n], at[(n + 1) % 100]) < 1.5 * depth, n
        x, y = at[n]
        assert min(x, y, 180 - x, 180 - y) < depth  # on the edge


def test_an_edge_track_starts_at_its_corner_and_turns_as_asked(tmp_path):
    folder = board(
        tmp_path,
        """\
        - track:
            range: [1, 40]
            path: edge
            start: bottom-right
            direction: counterclockwise
            box: [10, 10, 160, 100]
        """,
    )
    at = numbers(build(folder))
    assert sorted(at) == list(range(1, 41))
    assert at[1][0] > 150 and at[1][1] > 100  # 1 in the bottom-right corner
    assert abs(at[2][0] - at[1][0]) < 1 and at[2][1] < at[1][1]  # 2 above it: up the right side
    # sides get shares proportional to their lengths: the long sides more spaces
    top = [n for n, (x, y) in at.items() if y < 20]
    right = [n for n, (x, y) in at.items() if x > 150 and 20 < y < 100]
    assert len(top) > len(right) + 4


def test_rows_snake_back_and_forth_from_the_bottom(tmp_path):
    folder = board(
        tmp_path,
        """\
        - track:
            range: [1, 20]
            path: rows
            columns: 5
            snake: true
            start: bottom-left
            box: [10, 10, 100, 80]
        """,
    )
    at = numbers(build(folder))
    assert sorted(at) == list(range(1, 21))
    row = [at[n] for n in range(1, 6)]
    assert [x for x, _ in row] == sorted(x for x, _ in row) and all(y > 70 for _, y in row)  # bottom row, rightwards
    assert abs(at[6][0] - at[5][0]) < 0.5 and at[6][1] < at[5][1] - 15  # 6 right above 5
    assert at[10][0] < at[6][0]  # the second row runs back
    assert abs(at[11][0] - at[10][0]) < 0.5 and abs(at[20][0] - at[16][0]) > 50


def test_a_line_runs_in_its_direction(tmp_path):
    folder = board(
        tmp_path,
        """\
        - track:
            range: [1, 10]
            direction: up
            box: [10, 10, 12, 150]
        """,
    )
    at = numbers(build(folder))
    ys = [at[n][1] for n in range(1, 11)]
    assert ys == sorted(ys, reverse=True) and at[1][1] > 145


def test_a_ring_puts_its_numbers_on_the_circle_clockwise_from_the_top(tmp_path):
    folder = board(
        tmp_path,
        """\
        - track:
            range: [0, 19]
            path: ring
            size: 8
            box: [50, 50, 80, 80]
        - track:
            range: [1, 12]
            path: ring
            start: 90
            direction: counterclockwise
            box: [70, 70, 40, 40]
        """,
    )
    found = labels(build(folder))
    outer = {int(t): (x, y) for t, x, y in found if t.isdigit() and math.dist((x, y), (90, 90)) > 25}
    inner = {int(t): (x, y) for t, x, y in found if t.isdigit() and math.dist((x, y), (90, 90)) <= 25}
    assert sorted(outer) == list(range(20)) and sorted(inner) == list(range(1, 13))
    for x, y in outer.values():  # centres 36 mm from the middle; a label starts within 3 mm of its centre
        assert 32 < math.dist((x, y), (90, 90)) < 40

    def clockwise(p):  # degrees from the top, clockwise (the page's y runs down)
        return math.degrees(math.atan2(p[0] - 90, 90 - p[1])) % 360

    angles = [clockwise(outer[n]) for n in range(20)]
    assert angles[0] > 350 or angles[0] < 10  # 0 at the top
    assert angles[1:] == sorted(angles[1:]) and all(5 < b - a < 30 for a, b in zip(angles[1:], angles[2:]))
    assert 60 < clockwise(inner[1]) < 120  # starts at 90 degrees, on the right
    assert 10 < clockwise(inner[2]) < 90  # and turns counterclockwise


def test_space_templates_see_n_first_last_and_the_components_fields(tmp_path):
    folder = board(
        tmp_path,
        """\
        - track:
            range: [1, 15]
            path: rows
            columns: 5
            box: [10, 10, 150, 60]
            label: "{{ 'Start' if first else ('End' if last else n) }}"
            symbol: "{{ 'star' if n % 5 == 0 else '' }}"
            space: {fill: "{{ '#ffcc00' if n == top - 90 else 'none' }}"}
        """,
    )
    pdf = build(folder)
    words = [t for t, _, _ in labels(pdf)]
    assert "Start" in words and "End" in words and "1" not in words and "15" not in words and "14" in words
    page = reader(pdf).pages[0]
    ops = operations(page)
    assert sum(1 for _, op in ops if op == b"Do") == 3  # stars on 5, 10 and 15
    assert ([1, 0.8, 0], b"rg") in [([round(float(v), 2) for v in args], op) for args, op in ops if op == b"rg"]  # space 9 filled


def test_a_label_that_does_not_fit_its_space_names_the_track_and_the_number(tmp_path):
    folder = board(
        tmp_path,
        """\
        - track:
            range: [1, 30]
            box: [10, 10, 160, 8]
            label: "{{ 'Jerusalem' if n == 7 else n }}"
        """,
    )
    assert (
        "board/layouts/board.yaml:5:5: card 'main' (front, layout 'board'): label 'Jerusalem' of space 7 of the track does not fit its 4.3 x 7.0 mm box even at 5 pt; expected a shorter label, a smaller style or min_size, or fewer spaces [label-overflow]"
        in errors(folder)
    )


def test_a_reversed_range_is_an_error(tmp_path):
    folder = board(tmp_path, "- track: {range: [10, 1], box: [10, 10, 100, 10]}\n")
    assert "board/layouts/board.yaml:5:20: range [10, 1] runs backwards; expected [first, last] with first <= last [track-range]" in errors(folder)
    folder = board(tmp_path / "t", "- track: {range: [1, '{{ top - 100 }}'], box: [10, 10, 100, 10]}\n")
    assert (
        "board/layouts/board.yaml:5:5: card 'main' (front, layout 'board'): the track's range [1, -1] runs backwards; expected [first, last] with first <= last [track-range]"
        in errors(folder).replace("t/", "", 1)
    )


def test_more_spaces_than_the_box_holds_is_an_error(tmp_path):
    folder = board(tmp_path, "- track: {range: [0, '{{ top }}'], path: edge, box: [10, 10, 60, 40]}\n")
    assert (
        "board/layouts/board.yaml:5:5: card 'main' (front, layout 'board'): 100 spaces do not fit the track's box [10.0, 10.0, 60.0, 40.0]: a space would be 1.9 mm, less than 3 mm; expected fewer spaces or a larger box [track-too-small]"
        in errors(folder)
    )


def test_an_unknown_path_and_keys_of_another_path_are_errors(tmp_path):
    folder = board(
        tmp_path,
        """\
        - track: {range: [1, 10], path: rign, box: [10, 10, 100, 100]}
        - track: {range: [1, 10], path: ring, columns: 5, box: [10, 10, 100, 100]}
        - track: {range: [1, 10], path: edge, start: top-rigth, box: [10, 10, 100, 100]}
        """,
    )
    out = errors(folder)
    assert "board/layouts/board.yaml:5:35: 'path' is 'rign'; expected one of 'line', 'rows', 'edge', 'ring' (did you mean 'ring'?) [schema-value]" in out
    assert "board/layouts/board.yaml:6:41: 'columns' is for rows tracks, not for a ring track; remove it or change 'path' [track-key]" in out
    assert "start 'top-rigth' is not a corner (did you mean 'top-right'?); expected one of: top-left, top-right, bottom-right, bottom-left [track-start]" in out
