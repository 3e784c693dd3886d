"""One cause, one message: the same mistake on many cards is printed once per element and
place it comes from, with each other place once, and how many more cards."""

from __future__ import annotations

from pathlib import Path

from conftest import edit, make_small_game, run

from pnp.base.errors import Location, Problem, grouped

RULES = """\
types:
  card:
    fields:
      title: {type: text}
      text: {type: text, required: false}
      pic: {type: text, required: false}
      pic2: {type: text, required: false}
"""


def csv_game(tmp_path: Path, layout: str, rows: list[str]) -> Path:
    """A game whose cards come from cards.csv, drawn by `layout` (its elements)."""
    game = make_small_game(tmp_path / "hra")
    (game / "rules.yaml").write_text(RULES, encoding="utf-8")
    (game / "cards.yaml").unlink()
    (game / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (game / "layouts").mkdir()
    (game / "layouts" / "mine.yaml").write_text("size: [63, 88]\nelements:\n" + layout, encoding="utf-8")
    edit(game / "game.yaml", "data: cards.yaml", "data: cards.csv")
    edit(game / "game.yaml", "front: basic/card", "front: mine")
    return game


def problem_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if "[" in line or line.startswith("  the same")]


def test_an_image_path_outside_the_game_in_two_columns_is_one_message_per_column(tmp_path):
    images = '  - image: "{{ pic }}"\n    box: [0, 0, 10, 10]\n  - image: "{{ pic2 }}"\n    box: [10, 0, 10, 10]\n'
    game = csv_game(tmp_path, images, ["id,title,pic,pic2"] + [f"c{i},Karta,../art/x.png,../art/y.png" for i in range(6)])
    result = run("check", game)
    assert result.exit_code == 1
    lines = problem_lines(result.output.replace(str(tmp_path) + "/", ""))
    assert lines == [
        "hra/cards.csv:2:3: card 'c0' (front, layout 'mine'): image '../art/x.png' (field 'pic') points outside the game folder or is absolute; "
        "expected an image file inside the game folder [path-outside]",
        "  the same at 3:3, 4:3, 5:3 ... and 2 more cards",
        "hra/cards.csv:2:4: card 'c0' (front, layout 'mine'): image '../art/y.png' (field 'pic2') points outside the game folder or is absolute; "
        "expected an image file inside the game folder [path-outside]",
        "  the same at 3:4, 4:4, 5:4 ... and 2 more cards",
    ], result.output


def test_a_mistake_at_one_layout_element_on_many_cards_names_the_cards_not_the_same_place(tmp_path):
    game = csv_game(tmp_path, '  - image: "art/{{ id }}.png"\n    box: [0, 0, 10, 10]\n', ["id,title"] + [f"c{i},Karta" for i in range(6)])
    result = run("check", game)
    assert result.exit_code == 1
    lines = problem_lines(result.output.replace(str(tmp_path) + "/", ""))
    assert lines[0].startswith("hra/layouts/mine.yaml:3:5: card 'c0' (front, layout 'mine'): image 'art/c0.png' does not exist")
    assert lines[1:] == ["  the same for cards 'c1', 'c2', 'c3' ... and 2 more cards"], result.output


def test_two_text_boxes_that_overflow_are_two_groups_though_both_are_texts(tmp_path):
    texts = '  - text: "{{ title }}!"\n    box: [5, 5, 50, 3]\n  - text: "{{ title }}?"\n    box: [5, 20, 50, 3]\n'
    game = csv_game(tmp_path, texts, ["id,title"] + [f"c{i},Karta s dlhým názvom" for i in range(6)])
    result = run("check", game)
    assert result.exit_code == 1
    lines = problem_lines(result.output.replace(str(tmp_path) + "/", ""))
    firsts = [line for line in lines if "[text-overflow]" in line]
    assert len(firsts) == 2, result.output
    assert "(hra/layouts/mine.yaml:3:5)" in firsts[0] and "(hra/layouts/mine.yaml:5:5)" in firsts[1]
    assert lines.count("  the same at 3:1, 4:1, 5:1 ... and 2 more cards") == 2, result.output


def test_an_svg_used_as_an_image_says_once_that_svg_is_for_symbols_without_a_full_path(tmp_path):
    game = csv_game(tmp_path, '  - image: "{{ pic }}"\n    box: [0, 0, 10, 10]\n', ["id,title,pic"] + [f"c{i},Karta,art/icon.svg" for i in range(6)])
    (game / "art").mkdir()
    (game / "art" / "icon.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="4"/></svg>', encoding="utf-8"
    )
    result = run("check", game)
    assert result.exit_code == 1
    assert str(tmp_path) not in result.output.replace(f"{tmp_path}/hra/cards.csv:", "")
    lines = problem_lines(result.output)
    assert len(lines) == 2, result.output
    assert "image 'art/icon.svg' (field 'pic') is an SVG file; expected a PNG or JPEG file (pnp draws an SVG as a symbol" in lines[0]
    assert "'symbol:' element" in lines[0] and lines[0].endswith("[image-svg]")


def test_one_more_card_is_singular():
    problems = [Problem(Location("cards.csv", n, 3), "card-enum", f"field 'color' of card 'c{n}' is 'rde'") for n in range(2, 7)]
    assert grouped(problems)[1] == "  the same at 3:3, 4:3, 5:3 ... and 1 more card"


def test_a_place_listed_once_though_several_mistakes_are_there():
    """Two texts of one card at its line, on many cards: each line once in the list."""
    problems = [
        Problem(Location("cards.yaml", line, 3), "text-overflow", f"text of card 'c{line}' does not fit its {size} mm box")
        for line in range(1, 5)
        for size in (40.5, 41.0)
    ]
    assert grouped(problems)[1] == "  the same at 2:3, 3:3, 4:3"


def test_a_message_that_names_no_card_is_one_line_when_it_recurs_at_as_many_places():
    """Each image of a folder (pnp impose) too dark in dpi: one line and the other places,
    from GROUP_FROM on; fewer are printed one by one, and the same place twice is not a group."""
    message = "the image has 81 dpi at 63 mm across; expected at least 150 for a sharp print"
    many = [Problem(Location(f"art/c{n}.png"), "image-resolution", message, "warning") for n in range(1, 7)]
    assert grouped(many) == [str(many[0]), "  the same at art/c2.png, art/c3.png, art/c4.png ... and 2 more places"]
    assert grouped(many[:4]) == [str(p) for p in many[:4]]
    twice = [Problem(Location("layouts/card.yaml", 3, 5), "x", "something is wrong; expected right")] * 5
    assert grouped(twice) == [str(p) for p in twice]
