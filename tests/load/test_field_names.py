"""A card's own data is never shadowed: a field named like a name pnp provides to every
template and rule (its type, its deck, game, strings, ...) or like a deck is refused where
it is declared, and a column or a card key with such a name says how to rename it."""

from __future__ import annotations

import openpyxl
import pytest
from conftest import edit, line_of, make_small_game, run
from pdfread import text

from pnp.load.model import PROVIDED_NAMES

RULES = """\
types:
  card:
    fields:
      title: {type: text}
      FIELD: {type: text, required: false}
"""
CARDS = "- {id: a, title: Prvá}\n- {id: b, title: Druhá}\n"
LAYOUT = """\
size: [63, 88]
elements:
  - text: "{{ title }}: {{ kind }}"
    box: [5, 5, 53, 20]
"""


def shown(result, game) -> str:
    return result.output.replace(str(game.parent) + "/", "")


@pytest.mark.parametrize("name", list(PROVIDED_NAMES))
def test_a_field_named_like_any_name_pnp_provides_is_refused_at_its_declaration(tmp_path, name):
    game = make_small_game(tmp_path / "hra", CARDS)
    (game / "rules.yaml").write_text(RULES.replace("FIELD", name), encoding="utf-8")
    result = run("check", game)
    assert result.exit_code == 1
    line = line_of(game / "rules.yaml", f"      {name}:")
    if name in ("id", "copies"):  # built in: every card has them, as keys of its own
        assert f"hra/rules.yaml:{line}:" in shown(result, game) and f"field '{name}' is built in" in result.output
        return
    assert (
        f"hra/rules.yaml:{line}:" in shown(result, game)
        and f"field '{name}' of type 'card' is a name pnp provides ({PROVIDED_NAMES[name]}), which templates and rules would read instead of the field; "
        f"expected another name, such as '"
        in result.output
        and "[field-name-reserved]" in result.output
    )
    assert result.output.count("[field-name-reserved]") == 1  # one cause, one error: the cards that fill the field are not reported


def test_a_type_field_is_refused_with_a_name_to_use_instead(tmp_path):
    game = make_small_game(tmp_path / "hra", "- {id: a, title: Prvá, type: Normal}\n")
    (game / "rules.yaml").write_text(RULES.replace("FIELD", "type"), encoding="utf-8")
    result = run("check", game)
    assert (
        "hra/rules.yaml:5:13: field 'type' of type 'card' is a name pnp provides (the component's type, as rules.yaml names it), "
        "which templates and rules would read instead of the field; expected another name, such as 'kind' [field-name-reserved]"
    ) in shown(result, game)


def test_a_field_named_like_a_deck_is_refused_naming_the_deck(tmp_path):
    game = make_small_game(tmp_path / "hra", CARDS)
    (game / "rules.yaml").write_text(RULES.replace("FIELD", "cards"), encoding="utf-8")
    result = run("check", game)
    assert result.exit_code == 1
    assert (
        "hra/rules.yaml:5:14: field 'cards' of type 'card' is the id of deck 'cards' (hra/game.yaml:5:10), which templates and rules would read "
        "instead of the field; expected another name, such as 'card_cards' (or another id for the deck) [field-name-reserved]"
    ) in shown(result, game)


def test_a_card_that_gives_its_deck_is_told_to_use_another_name(tmp_path):
    game = make_small_game(tmp_path / "hra")
    edit(game / "cards.yaml", "color: red}", "deck: base}")
    result = run("check", game)
    assert result.exit_code == 1
    assert (
        "hra/cards.yaml:1:49: 'deck' on card 'a' is a name pnp provides (the id of the component's deck), which no field may have; "
        "expected a field of type 'card' (title, text, color), or a field of another name declared in rules.yaml, such as 'set' [field-name-reserved]"
    ) in shown(result, game)


def workbook_game(tmp_path, columns: str = ""):
    """The reported workbook: a `Type` column of Pokémon-like types, and a rule that two
    cards of one kind are a mistake."""
    game = make_small_game(tmp_path / "hra", CARDS)
    (game / "rules.yaml").write_text(
        RULES.replace("FIELD", "kind") + "constraints:\n  - id: one-per-kind\n    message: Two cards of one kind.\n    severity: warning\n    unique: kind\n",
        encoding="utf-8",
    )
    (game / "layouts").mkdir()
    (game / "layouts" / "card.yaml").write_text(LAYOUT, encoding="utf-8")
    edit(game / "game.yaml", "data: cards.yaml, front: basic/card", f"data: cards.xlsx, front: card{columns}")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for row in (["id", "Title", "Type"], ["a", "Pikachu", "Electric"], ["b", "Machop", "Fighting"]):
        sheet.append(row)
    book.save(game / "cards.xlsx")
    return game


def test_a_type_column_is_refused_at_its_header_with_the_columns_mapping_to_use(tmp_path):
    game = workbook_game(tmp_path)
    result = run("check", game)
    assert result.exit_code == 1
    assert (
        "hra/cards.xlsx:Cards!C1: column 'Type' is named like a name pnp provides (the component's type, as rules.yaml names it), which no field may have; "
        "expected 'columns: {Type: kind}' in the deck, with a field 'kind' (or another name) declared in rules.yaml, or 'columns: {Type: ignore}' to leave it out "
        "[field-name-reserved]"
    ) in shown(result, game)
    assert result.output.count("error") == 1 or "1 error" in result.output  # not once per card


def test_a_type_column_mapped_onto_type_is_refused_at_the_mapping(tmp_path):
    game = workbook_game(tmp_path, ", columns: {Type: type}")
    result = run("check", game)
    assert result.exit_code == 1
    assert (
        "columns: maps 'Type' to 'type', a name pnp provides (the component's type, as rules.yaml names it), which no field may have; "
        "expected a field of another name, such as 'columns: {Type: kind}' with a field 'kind' declared in rules.yaml [field-name-reserved]"
    ) in result.output
    assert "1 error" in result.output  # the cards do not report the column again


def test_a_type_column_renamed_is_printed_and_checked_as_the_cards_data(tmp_path):
    game = workbook_game(tmp_path, ", columns: {Type: kind}")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    words = text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")
    assert "Pikachu: Electric" in words and "Machop: Fighting" in words
    book = openpyxl.load_workbook(game / "cards.xlsx")
    book.active["C3"] = "Electric"
    book.save(game / "cards.xlsx")
    result = run("check", game)
    assert "warning: Two cards of one kind." in result.output  # the rule reads the same data the cards print
