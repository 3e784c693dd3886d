"""Boards: numbered tracks generated from a range (along a line, in rows, around the edge,
on a ring), card slots and symbol legends, read back from the built PDF where a player
would look at them."""

from __future__ import annotations

import math
from pathlib import Path
from textwrap import dedent, indent

from conftest import edit, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdfread import MM, card_boxes, drawn, operations, placed_text, reader

from pnp.layout.elements.track import CORNERS, TrackDef, TrackTooSmall, track_spaces

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
    """Text on the board (not the sheet's captions): (text, x, y) in mm from the top left of the board's trim, where
    each run starts (left end of its baseline)."""
    page = reader(pdf).pages[0]
    bx, by, bw, bh = card_boxes(page)[0]
    return [(t, (x - bx) / MM, (by + bh - y) / MM) for t, x, y in placed_text(page) if bx <= x <= bx + bw and by <= y <= by + bh]


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
    assert sum(drawn(page).values()) == 3  # stars on 5, 10 and 15
    assert ([1, 0.8, 0], b"rg") in [([round(float(v), 2) for v in args], op) for args, op in ops if op == b"rg"]  # space 9 filled


def test_a_label_that_does_not_fit_its_space_names_the_track_and_the_number(tmp_path):
    folder = board(
        tmp_path,
        """\
        - track:
            range: [1, 30]
            box: [10, 10, 160, 8]
            label: "{{ 'Jerusalem' if n in (7, 9) else n }}"
        """,
    )
    out = errors(folder)
    assert (
        "board/layouts/board.yaml:5:5: card 'main' (front, layout 'board'): label 'Jerusalem' of space 7 of the track does not fit its 4.3 x 7.0 mm box even at 5 pt (a word is wider than the box); expected a shorter label, a smaller style or min_size, or fewer spaces (and 1 more space of this track) [text-overflow]"
        in out
    )
    assert out.count("[text-overflow]") == 1  # one line per mistake, not one per space


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


# --- slots ---------------------------------------------------------------------------------


def dashed_boxes(pdf: Path) -> list[tuple[float, float]]:
    """Width and height in mm of every dashed closed outline on the first page."""
    boxes, dashed, points = [], False, []
    for args, op in operations(reader(pdf).pages[0]):
        if op == b"d":
            dashed = bool(args[0])
        elif op in (b"m", b"l"):
            points.append((float(args[0]), float(args[1])))
        elif op in (b"S", b"s", b"B", b"b", b"f", b"n"):
            if dashed and len(points) == 4:
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                boxes.append((round((max(xs) - min(xs)) / MM, 2), round((max(ys) - min(ys)) / MM, 2)))
            points = []
    return boxes


def test_a_slot_is_a_dashed_outline_the_size_of_its_decks_cards(tmp_path):
    folder = board(
        tmp_path,
        """\
        - slot: {at: [10, 10], deck: events, label: Events}
        - slot: {at: [90, 10], size: [50, 70], label: Discard pile, style: small}
        """,
    )
    pdf = build(folder)
    assert sorted(dashed_boxes(pdf)) == [(50.0, 70.0), (63.0, 88.0)]  # basic/card is 63 x 88 mm
    words = labels(pdf)
    assert [t for t, _, _ in words] == ["Events", "Discard pile"]
    _, x, y = words[0]
    assert 10 < x < 10 + 63 and 10 + 88 / 2 - 5 < y < 10 + 88 / 2 + 5  # inside, in the middle


def test_a_slot_naming_an_unknown_deck_suggests_one(tmp_path):
    folder = board(tmp_path, "- slot: {at: [10, 10], deck: event, label: Events}\n")
    assert (
        "board/layouts/board.yaml:5:5: layout 'board' of deck 'boards': the slot's deck 'event' does not exist (did you mean 'events'?); expected one of: boards, events [slot-deck]"
        in errors(folder)
    )


def test_a_slot_needs_a_deck_or_a_size(tmp_path):
    folder = board(tmp_path, "- slot: {at: [10, 10], label: Events}\n")
    assert "board/layouts/board.yaml:5:11: a slot needs either 'deck' (its cards' size) or 'size: [w, h]' in mm, not both [slot-size]" in errors(folder)


# --- legends -------------------------------------------------------------------------------


def test_a_legend_lists_every_symbol_with_its_name(tmp_path):
    folder = board(tmp_path, "- legend: {box: [10, 10, 120, 20], columns: 2}\n")
    pdf = build(folder)
    found = {t: (x, y) for t, x, y in labels(pdf)}
    assert set(found) == {"Gold", "Victory point", "Timber"}  # coin and wood named by their enum, star by symbol_names
    assert sum(drawn(reader(pdf).pages[0]).values()) == 3
    assert found["Gold"][0] < 60 and found["Timber"][0] > 60  # ids in order, flowing into two columns: coin, star | wood
    assert found["Victory point"][1] > found["Gold"][1]


def test_a_legend_shows_the_listed_symbols_only(tmp_path):
    folder = board(
        tmp_path, "- legend: {box: [10, 10, 120, 20], symbols: '{{ enums.resource | join(\",\") }}'}\n- legend: {box: [10, 40, 120, 20], symbols: [star]}\n"
    )
    assert [t for t, _, _ in labels(build(folder))] == ["Gold", "Timber", "Victory point"]


def test_a_legend_symbol_without_a_name_is_an_error(tmp_path):
    folder = board(tmp_path, "- legend: {box: [10, 10, 120, 20]}\n")
    (folder / "symbols" / "ruby.svg").write_text(STAR, encoding="utf-8")
    assert (
        "board/layouts/board.yaml:5:5: card 'main' (front, layout 'board'): symbol 'ruby' has no name for the legend; expected 'symbol_names: {ruby: ...}' in game.yaml or an enum value 'ruby' with a name [legend-unnamed]"
        in errors(folder)
    )


def test_a_legend_that_does_not_fit_its_box_is_an_error(tmp_path):
    folder = board(tmp_path, "- legend: {box: [10, 10, 120, 6]}\n")
    assert (
        "board/layouts/board.yaml:5:5: card 'main' (front, layout 'board'): the legend's 3 symbols do not fit its box [10.0, 10.0, 120.0, 6.0]: in 1 column they need 14.4 mm of height; expected a larger box, more columns or a smaller style [legend-too-small]"
        in errors(folder)
    )


def test_symbol_names_are_translated_like_strings(tmp_path):
    folder = board(tmp_path, "- legend: {box: [10, 10, 120, 20]}\n")
    assert run("i18n", "update", folder, "--add", "de").exit_code == 0
    po = folder / "locale" / "de.po"
    assert 'msgctxt "symbol.star"\nmsgid "Victory point"' in po.read_text(encoding="utf-8")
    lines = po.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line == 'msgstr ""' and lines[i - 1].startswith("msgid ") and lines[i - 1] != 'msgid ""':
            lines[i] = f'msgstr "DE {lines[i - 1][7:-1]}"'
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = [t for t, _, _ in labels(build(folder, "--lang", "de"))]
    assert found == ["DE Gold", "DE Victory point", "DE Timber"]


def test_symbol_names_naming_no_symbol_is_an_error(tmp_path):
    folder = board(tmp_path, "- legend: {box: [10, 10, 120, 20]}\n")
    edit(folder / "game.yaml", "  star: Victory point", "  star: Victory point\n  rubby: Ruby")
    assert "board/game.yaml:8:3: symbol_names names 'rubby', which is not a symbol; expected one of: coin, star, wood [symbol-name-unknown]" in errors(folder)


# --- geometry, for any box and count -------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    path=st.sampled_from(["line", "rows", "edge", "ring"]),
    count=st.integers(1, 400),
    w=st.floats(5, 600),
    h=st.floats(5, 600),
    columns=st.integers(1, 30),
    snake=st.booleans(),
    start=st.sampled_from(CORNERS),
    turn=st.sampled_from(["clockwise", "counterclockwise"]),
)
def test_spaces_fill_their_box_without_overlapping_or_getting_too_small(path, count, w, h, columns, snake, start, turn):
    track = TrackDef(
        range=(1, count),
        box=(7.0, 11.0, w, h),
        path=path,
        direction=turn if path in ("edge", "ring") else None,
        columns=columns,
        snake=snake,
        start=start if path in ("rows", "edge") else 30.0 if path == "ring" else None,
    )
    try:
        spaces = track_spaces(track, count)
    except TrackTooSmall:
        return
    assert len(spaces) == count
    for i, a in enumerate(spaces):
        assert min(a.w, a.h) >= 3 - 1e-9
        assert a.x >= 7 - 1e-6 and a.y >= 11 - 1e-6 and a.x + a.w <= 7 + w + 1e-6 and a.y + a.h <= 11 + h + 1e-6
        for b in spaces[i + 1 :]:
            if a.round:
                assert math.dist(a.centre, b.centre) >= a.w - 1e-6
            else:
                assert min(a.x + a.w, b.x + b.w) - max(a.x, b.x) <= 1e-6 or min(a.y + a.h, b.y + b.h) - max(a.y, b.y) <= 1e-6
    if path in ("edge", "rows", "line") and count > 1:  # each space touches the next one (edge: and the last the first)
        pairs = list(zip(spaces, spaces[1:])) + ([(spaces[-1], spaces[0])] if path == "edge" else [])
        for a, b in pairs:
            touch_x = abs(a.x + a.w - b.x) < 1e-6 or abs(b.x + b.w - a.x) < 1e-6
            touch_y = abs(a.y + a.h - b.y) < 1e-6 or abs(b.y + b.h - a.y) < 1e-6
            assert touch_x or touch_y or (path == "rows" and not snake)


def test_the_example_in_the_docs_builds(tmp_path):
    doc = (Path(__file__).parents[2] / "docs" / "boards.md").read_text(encoding="utf-8")
    example = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    folder = board(tmp_path, "")
    (folder / "layouts" / "board.yaml").write_text(example, encoding="utf-8")
    edit(folder / "rules.yaml", "top: {type: int}", "max_score: {type: int}")
    edit(folder / "boards.yaml", "top: 99", "max_score: 99")
    edit(folder / "game.yaml", "symbol_names:", "strings:\n  discard: Discard\nsymbol_names:")
    words = [t for t, _, _ in labels(build(folder))]
    assert {str(n) for n in range(100)} <= set(words) and "Discard" in words and "Victory point" in words


def test_when_beside_a_track_hides_it(tmp_path):
    folder = board(tmp_path, "- track: {range: [1, 10], box: [10, 10, 100, 8]}\n  when: top > 100\n- track: {range: [11, 12], box: [10, 30, 100, 8]}\n")
    assert sorted(numbers(build(folder))) == [11, 12]


def test_a_slot_naming_an_unknown_deck_is_one_error_however_many_boards_use_the_layout(tmp_path):
    folder = board(tmp_path, "- slot: {at: [10, 10], deck: event, label: Events}\n")
    (folder / "boards.yaml").write_text("".join(f"- {{id: b{i}, title: Board {i}, top: 99}}\n" for i in range(30)), encoding="utf-8")
    out = errors(folder)
    assert out.count("[slot-deck]") == 1, out
