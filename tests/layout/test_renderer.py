"""What draws the same on every card (a deck's back, a front's frame and art) is laid out
once per layout (render._Same), and only that: a template that names anything of a card,
even through a string of the game or a field shown as written, is filled in per card, and
a problem of what is drawn once is still reported for every card, where it is."""

from __future__ import annotations

from pathlib import Path

import pdfread
import pytest
from conftest import run

from pnp.exports.raster import game_faces
from pnp.load.game import load_game
from pnp.templates.expressions import Names

GAME = """\
title: Hra
language: sk
decks:
  cards: {type: card, data: cards.yaml, front: front, back: back}
  big: {type: card, data: big.yaml, front: big-front, back: big-back}
strings:
  label: "{{ title }}!"
  motto: Kto skôr príde, ten skôr melie.
"""
RULES = """\
types:
  card:
    fields:
      title: {type: text}
      own: {type: text, required: false, markup: false}
"""
FRONT = """\
size: [63, 88]
elements:
  - rect: [2, 2, 59, 84]
    stroke: "#333333"
  - text: "{{ strings.label }}"
    box: [4, 4, 55, 11]
  - text: "{{ own }}"
    box: [4, 20, 55, 11]
  - text: "{{ strings.motto | upper }}"
    box: [4, 40, 55, 11]
"""
BACK = """\
size: [63, 88]
elements:
  - rect: [3, 3, 57, 82]
    stroke: "#333333"
  - text: "{{ game.title }}: kto skôr príde, ten skôr melie."
    box: [5, 10, 53, 30]
    size: 9
"""
BIG_BACK = """\
extends: back
size: [70, 120]
"""
BIG_FRONT = BIG_BACK.replace("back", "front")


def _game(folder: Path, back: str = BACK, rules: str = RULES) -> Path:
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "rules.yaml").write_text(rules, encoding="utf-8")
    (folder / "cards.yaml").write_text(
        "- {id: a, title: Prvá, own: Jedna}\n- {id: b, title: Druhá, own: Vlastná}\n- {id: c, title: Tretia, own: Tri}\n", encoding="utf-8"
    )
    (folder / "big.yaml").write_text("- {id: x, title: Veľká, own: X}\n- {id: y, title: Väčšia, own: Y}\n", encoding="utf-8")
    (folder / "layouts" / "front.yaml").write_text(FRONT, encoding="utf-8")
    (folder / "layouts" / "back.yaml").write_text(back, encoding="utf-8")
    (folder / "layouts" / "big-back.yaml").write_text(BIG_BACK, encoding="utf-8")
    (folder / "layouts" / "big-front.yaml").write_text(BIG_FRONT, encoding="utf-8")
    return folder


def test_whether_a_template_fills_in_the_same_for_every_card(tmp_path: Path):
    game, _ = load_game(_game(tmp_path / "hra"))
    names = Names(game)
    same = ["Karta", "", "{{ game.title }}", "v{{- game.title -}}!", "{{ symbol_names }} {{ enums }}", "a } b"]
    per_card = [
        "{{ title }}",  # a field
        "{{ own }}",  # a field
        "{{ strings.label }}",  # a string that is a template: filled in per card
        "{{ game.title | upper }}",  # a filter: Jinja's to say
        "{% if true %}x{% endif %}",
        "{{ decks.cards }}",  # another deck: the watcher records what a face reads
        "{{ card.id }}",
        "{ {{ game.title }}",  # a brace that is not a lone name
    ]
    assert [s for s in same if not names.fixed(s)] == []
    assert [s for s in per_card if names.fixed(s)] == []
    (tmp_path / "plain").mkdir()
    plain = _game(tmp_path / "plain" / "hra")
    (plain / "game.yaml").write_text(GAME.replace('label: "{{ title }}!"', "label: Štítok"), encoding="utf-8")
    assert Names(load_game(plain)[0]).fixed("{{ strings.label }}")  # no string is a template: the game's strings are the game's


def test_each_card_shows_its_own_data_and_the_back_its_games(tmp_path: Path):
    game = _game(tmp_path / "hra")
    out = tmp_path / "out"
    result = run("build", game, "--out", out)
    assert result.exit_code == 0, result.output
    pdf = out / "hra" / "cards-sk-a4.pdf"
    text = pdfread.text(pdf)
    assert [text.count(f"{title}!") for title in ("Prvá", "Druhá", "Tretia")] == [1, 1, 1]  # strings.label, filled in per card
    assert [text.count(own) for own in ("Jedna", "Vlastná", "Tri")] == [1, 1, 1]  # each card's own field, shown as written
    assert text.count("KTO SKÔR PRÍDE") == 3
    assert text.count("Hra: kto skôr príde") == 3  # the back of every card
    # the same back, drawn once as a form, is placed on every card of the back page
    backs = pdfread.reader(pdf).pages[1]
    assert len(pdfread.card_boxes(backs)) == 3


def test_a_layout_that_extends_another_lays_out_its_own_size(tmp_path: Path):
    _, decks, _ = game_faces(_game(tmp_path / "hra"), None, None, False, False)
    small, big = decks
    small_backs, big_backs = list(small.backs()), list(big.backs())
    assert [(face.width / pdfread.MM, face.height / pdfread.MM) for face in small_backs] == [pytest.approx((63, 88))] * 3
    assert [(face.width / pdfread.MM, face.height / pdfread.MM) for face in big_backs] == [pytest.approx((70, 120))] * 2
    # measured down from the top: the text sits lower on the taller card
    tops = [face.height - face.ops[1].baseline for face in (small_backs[0], big_backs[0])]
    assert tops[0] == pytest.approx(tops[1])
    assert small_backs[0].ops[1].baseline != pytest.approx(big_backs[0].ops[1].baseline)
    assert [face.name for face in small_backs] == ["a (back)", "b (back)", "c (back)"]


def test_what_is_drawn_once_is_still_reported_on_every_card(tmp_path: Path):
    back = BACK.replace("box: [5, 10, 53, 30]", "box: [5, 10, 53, 3]") + "  - image: missing.png\n    box: [5, 50, 20, 20]\n"
    game = _game(tmp_path / "hra", back)
    out = tmp_path / "out"
    result = run("build", game, "--out", out)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    overflow = [line for line in lines if "does not fit its 53.0 x 3.0 mm box" in line]
    assert [line.split(":", 3)[:3] for line in overflow] == [[str(game / "cards.yaml"), str(n), "3"] for n in (1, 2, 3)] + [
        [str(game / "big.yaml"), str(n), "3"] for n in (1, 2)
    ]
    assert [f"text of card '{c}'" in line for line, c in zip(overflow, "abcxy")] == [True] * 5
    assert sum("image 'missing.png' does not exist" in line for line in lines) == 1  # the same file: one error, as before
    assert not out.exists()


def test_an_element_that_reads_a_card_itself_is_drawn_per_card(tmp_path: Path):
    """A grid reads its cells from the card, not through a template: with no template that
    names the card, it is still drawn for each card (6 squares, then 3)."""
    from test_maps import TILE_LAYOUT, TILES, map_game, operations

    layout = TILE_LAYOUT.replace('fill: "{{ cell.terrain.color }}"', 'fill: "#88aa66"').replace(
        'label: "{{ cell.terrain.name }} {{ cell.yield }}"', 'label: "{{ game.title }}"'
    )
    tiles = TILES + "- id: pasture\n  squares:\n" + "    - {terrain: plains, yield: 1}\n" * 3
    out = tmp_path / "out"
    result = run("build", map_game(tmp_path, layouts__tile_yaml=layout, tiles_yaml=tiles), "--out", out, "--deck", "tiles")
    assert result.exit_code == 0, result.output
    page = pdfread.reader(out / "mare" / "tiles-en-a4.pdf").pages[0]
    squares = [operands for operands, op in operations(page) if op == b"re" and round(float(operands[2]) / pdfread.MM, 2) == 20.0]
    assert len(squares) == 6 + 3
