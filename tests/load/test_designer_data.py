"""Real designers' data (issue #16): spreadsheets as designers keep them, each mistake
reported once where the designer's program shows it."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
from conftest import edit, make_small_game, run
from pdfread import text

FIXTURES = Path(__file__).parents[1] / "fixtures"

RULES = """\
enums:
  color:
    red: {name: Červená}
    blue: {name: Modrá}
types:
  card:
    fields:
      title: {type: text}
      text: {type: text, required: false}
      color: {type: enum, enum: color, required: false}
      power: {type: int, required: false}
"""


def sheet_game(tmp_path: Path, name: str, deck_extra: str = "") -> Path:
    game = make_small_game(tmp_path / "hra")
    (game / "rules.yaml").write_text(RULES, encoding="utf-8")
    edit(game / "game.yaml", "data: cards.yaml", f"data: {name}{deck_extra}")
    (game / "cards.yaml").unlink()
    return game


def workbook(path: Path, name: str, rows: list[list]) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = name
    for row in rows:
        sheet.append(row)
    book.save(path)


def test_a_workbook_with_capitalised_headers_and_a_qty_column_builds(tmp_path):
    game = sheet_game(tmp_path, "cards.xlsx")
    workbook(
        game / "cards.xlsx",
        "Cards",
        [[" ID ", "Title", "TEXT", "Qty", "Power"], ["a", "Prvá", "Hráč získa mesto.", 3, 1], ["b", "Druhá", None, None, 2]],
    )
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "(4 cards" in result.output  # 3 + 1
    assert "Hráč získa mesto." in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")


def test_workbook_mistakes_are_named_as_the_spreadsheet_names_the_cell(tmp_path):
    game = sheet_game(tmp_path, "cards.xlsx")
    workbook(game / "cards.xlsx", "My Cards", [["Id", "Title", "Power"], ["a", "Prvá", 1], ["b", None, 2], ["c", "Tretia", "veľa"]])
    result = run("check", game)
    assert result.exit_code == 1
    assert "cards.xlsx:'My Cards'!B3: card 'b' has no 'title'; expected text [card-missing-field]" in result.output
    assert "cards.xlsx:'My Cards'!C4: field 'power' of card 'c' is 'veľa'" in result.output
    import json

    rows = json.loads(run("check", game, "--format", "json").stdout)
    assert {(row["line"], row["col"], row["cell"]) for row in rows} == {(3, 2, "'My Cards'!B3"), (4, 3, "'My Cards'!C4")}


def test_columns_map_any_header_to_a_field_or_leave_it_out(tmp_path):
    game = sheet_game(tmp_path, "cards.csv", ", columns: {Name: title, Notes: ignore, Kusov: copies}")
    (game / "cards.csv").write_text("id,Name,Notes,Kusov\na,Prvá,treba prekresliť,2\n", encoding="utf-8")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "(2 cards" in result.output
    edit(game / "game.yaml", "Kusov: copies", "Kusy: copies, Notes: notez")
    result = run("check", game)
    assert result.exit_code == 1
    assert "columns: names 'Kusy', which is not a header of the sheet (did you mean 'Kusov'?)" in result.output
    assert "columns: maps 'Notes' to 'notez', which is not a field" in result.output


def test_ids_from_a_named_column_are_slugged_and_duplicates_reported_at_their_rows(tmp_path):
    game = sheet_game(tmp_path, "cards.csv", ", ids: Title")
    (game / "cards.csv").write_text("Title,Power\nOhnivá guľa (II),1\nLedový šíp,2\nOhnivá Guľa (ii),3\n", encoding="utf-8")
    result = run("check", game)
    assert result.exit_code == 1
    assert "cards.csv:4:1: id 'ohniva-gula-ii' is used twice (first at " in result.output
    assert "cards.csv:2:1)" in result.output
    edit(game / "cards.csv", "Ohnivá Guľa (ii),3", "Ohnivá guľa (III),3")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "Ohnivá guľa (III)" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")


def test_ids_may_name_the_field_a_renamed_column_holds_and_a_wrong_name_is_one_error(tmp_path):
    """`columns: {Card Name: title}` with `ids: title`: the designer thinks in fields; a
    name that is neither header nor field is one error, not also 'the deck has no cards'."""
    game = sheet_game(tmp_path, "cards.csv", ", columns: {Card Name: title}, ids: title")
    (game / "cards.csv").write_text("Card Name,Power\nMorning Star,1\nNight Owl,2\n", encoding="utf-8")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "Night Owl" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")
    edit(game / "game.yaml", "ids: title", "ids: titel")
    result = run("check", game)
    assert result.exit_code == 1
    assert "ids: names column 'titel', which is neither a header of the sheet nor a field one holds (did you mean 'title'?)" in result.output
    assert "[deck-empty]" not in result.output and result.output.count("[sheet-ids]") == 1


def test_a_csv_with_quoted_multi_line_cells_reports_physical_lines(tmp_path):
    game = sheet_game(tmp_path, "cards.csv")
    shutil.copy(FIXTURES / "multiline.csv", game / "cards.csv")
    result = run("check", game)
    assert result.exit_code == 1
    # the record of 'atheny' starts on line 7 and its text takes two lines: its fourth cell is on line 8
    assert "cards.csv:8:4: a value in column 4, which has no name in the header row" in result.output
    lines = (FIXTURES / "multiline.csv").read_text(encoding="utf-8").splitlines()
    assert lines[7].endswith("rde")


def test_a_misspelt_header_is_one_error_not_one_per_card(tmp_path):
    game = sheet_game(tmp_path, "cards.csv")
    (game / "cards.csv").write_text("id,Titel,color\n" + "".join(f"c{i},Karta {i},red\n" for i in range(300)), encoding="utf-8")
    result = run("check", game)
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if line.endswith("]") and ": note: " not in line]
    assert len(errors) == 1, result.output
    assert "cards.csv:1:2: unknown column 'Titel' (did you mean 'title'?)" in errors[0]


def test_a_missing_required_column_is_one_error_at_the_header(tmp_path):
    game = sheet_game(tmp_path, "cards.csv")
    (game / "cards.csv").write_text("id,color\n" + "".join(f"c{i},red\n" for i in range(50)), encoding="utf-8")
    result = run("check", game)
    assert "cards.csv:1:1: no column for required field 'title' in the header row" in result.output
    assert result.output.count("[card-missing-field]") == 0


def test_a_formula_without_a_saved_value_says_how_to_fix_it(tmp_path):
    game = sheet_game(tmp_path, "cards.xlsx")
    workbook(game / "cards.xlsx", "Cards", [["id", "title", "power"], ["a", "Prvá", "=SUM(1,2)"]])  # openpyxl saves no computed value
    result = run("check", game)
    assert result.exit_code == 1
    assert "cards.xlsx:Cards!C2: the cell holds the formula '=SUM(1,2)', whose value was never saved" in result.output
    assert "open the file in a spreadsheet program and save it" in result.output


def test_one_systematic_mistake_over_1275_cards_is_a_few_lines_and_json_has_every_one(tmp_path):
    game = sheet_game(tmp_path, "cards.csv")
    (game / "cards.csv").write_text("id,title,color\n" + "".join(f"c{i},Karta {i},rde\n" for i in range(1275)), encoding="utf-8")
    result = run("check", game)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) <= 11, result.output
    assert "cards.csv:2:3: field 'color' of card 'c0' is 'rde', which is not in 'color' (did you mean 'red'?)" in lines[0]
    assert lines[1] == "  the same at 3:3, 4:3, 5:3 ... and 1,271 more cards"
    assert lines[-1].startswith("1,275 errors")
    listed = run("check", game, "--format", "json")
    import json

    rows = json.loads(listed.stdout)
    errors = [row for row in rows if row["severity"] == "error"]
    assert len(errors) == 1275 and {row["code"] for row in errors} == {"card-enum"}
    assert [row["code"] for row in rows if row["severity"] == "note"] == ["not-checked"]  # every card left out: the layouts not set with them


def test_different_mistakes_stay_apart(tmp_path):
    game = sheet_game(tmp_path, "cards.csv")
    rows = "".join(f"c{i},Karta {i},rde\n" for i in range(6)) + "".join(f"d{i},Karta {i},bleu\n" for i in range(6))
    (game / "cards.csv").write_text("id,title,color\n" + rows, encoding="utf-8")
    result = run("check", game)
    assert result.output.count("the same at") == 2
    assert "is 'rde'" in result.output and "is 'bleu'" in result.output


TAROT = """\
extends: basic/card
size: [70, 120]
override:
  text: {box: [6, 24, 58, 88]}
  frame: {rect: [3, 3, 64, 114]}
"""
TAROT_BACK = """\
extends: basic/back
size: [70, 120]
"""


def test_a_deck_chooses_a_larger_layout_for_long_texts_and_each_size_has_its_own_sheets(tmp_path):
    from pdfread import card_boxes, sheet_pages

    game = make_small_game(tmp_path / "hra")
    (game / "layouts").mkdir()
    (game / "layouts" / "tarot.yaml").write_text(TAROT, encoding="utf-8")
    (game / "layouts" / "tarot-back.yaml").write_text(TAROT_BACK, encoding="utf-8")
    card = (Path(__file__).parents[2] / "layouts" / "basic" / "card.yaml").read_text(encoding="utf-8")
    (game / "layouts" / "basic").mkdir()
    (game / "layouts" / "basic" / "card.yaml").write_text(
        card.replace("  - rect: [3, 3, 57, 82]", "  - name: frame\n    rect: [3, 3, 57, 82]"), encoding="utf-8"
    )
    long_text = "Hráč získa všetky ostatné vyložené mestá. " * 12
    cards = "".join(f"- {{id: k{i}, title: Krátka {i}, text: Krátky text.}}\n" for i in range(10)) + f"- {{id: dlha, title: Dlhá, text: '{long_text}'}}\n"
    (game / "cards.yaml").write_text(cards, encoding="utf-8")
    choose = "\"{{ 'tarot' if text | length > 300 else 'basic/card' }}\""
    edit(
        game / "game.yaml", "front: basic/card, back: basic/back", f"front: {choose}, back: \"{{{{ 'tarot-back' if text | length > 300 else 'basic/back' }}}}\""
    )
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "hra" / "cards-sk-a4.pdf"
    assert "(11 cards" in result.output
    fronts = [page for page in sheet_pages(pdf) if "Krátka" in page.extract_text() or "Dlhá" in page.extract_text()]
    sizes = [sorted({(round(w / 72 * 25.4), round(h / 72 * 25.4)) for _, _, w, h in card_boxes(page)}) for page in fronts]
    assert sizes == [[(63, 88)], [(63, 88)], [(70, 120)]], sizes  # 10 poker cards on two sheets, the long one on its own
    assert "Dlhá" in fronts[-1].extract_text() and "Dlhá" not in fronts[0].extract_text()


def test_override_names_an_element_of_the_layout_it_extends(tmp_path):
    game = make_small_game(tmp_path / "hra")
    (game / "layouts").mkdir()
    (game / "layouts" / "tarot.yaml").write_text(TAROT.replace("  frame: {rect: [3, 3, 64, 114]}\n", "  txt: {box: [1, 1, 5, 5]}\n"), encoding="utf-8")
    edit(game / "game.yaml", "front: basic/card", "front: tarot")
    result = run("check", game)
    assert result.exit_code == 1
    assert "tarot.yaml:5:3: override names 'txt', which is no element of layout 'basic/card' (did you mean 'text'?)" in result.output


def test_text_that_does_not_fit_names_the_cell_the_layout_element_the_box_and_the_smallest_size(tmp_path):
    game = sheet_game(tmp_path, "cards.csv")
    (game / "cards.csv").write_text("id,title,text\na,Prvá," + "Hráč získa všetky ostatné vyložené mestá. " * 40 + "\n", encoding="utf-8")
    result = run("check", game)
    assert result.exit_code == 1
    line = next(line for line in result.output.splitlines() if "[text-overflow]" in line)
    assert "cards.csv:2:3: text of card 'a' does not fit its 51.0 x 56.0 mm box even at 6 pt" in line
    assert "in layout 'basic/card' (" in line and "layouts/basic/card.yaml:14:5)" in line


def censored_game(tmp_path: Path) -> Path:
    return make_small_game(tmp_path / "hra", "- {id: a, title: Prvá, text: 'f**k and s**t'}\n- {id: b, title: Druhá, text: '**Bold** text'}\n")


def test_markup_inside_a_word_is_reported_never_eaten(tmp_path):
    """Censored words print as written, with a warning for each: the build goes on."""
    game = censored_game(tmp_path)
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "warning: text of card 'a' has asterisks that are not markup: '**' at column 2 of 'f**k and s**t' is inside a word" in result.output
    assert "'**' at column 11 of 'f**k and s**t' is inside a word" in result.output
    assert "card 'b'" not in result.output  # markup around whole words is fine
    assert "f**k and s**t" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")


def test_markup_false_prints_a_field_as_written(tmp_path):
    from pdfread import fonts

    game = censored_game(tmp_path)
    edit(game / "rules.yaml", "text: {type: text, required: false}", "text: {type: text, required: false, markup: false}")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "hra" / "cards-sk-a4.pdf"
    words = text(pdf)
    assert "f**k and s**t" in words and "**Bold** text" in words
    assert not any("SansPro-Bold" in name for name in fonts(pdf))  # nothing set in bold: the title is serif


def test_a_deck_can_switch_markup_off_for_all_its_texts(tmp_path):
    game = censored_game(tmp_path)
    edit(game / "game.yaml", "back: basic/back}", "back: basic/back, markup: false}")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "f**k and s**t" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")


def test_markdown_block_syntax_in_a_card_field_is_reported(tmp_path):
    game = make_small_game(
        tmp_path / "hra",
        "- id: a\n  title: Prvá\n  text: |-\n    ## Setup\n    Each player draws.\n- id: b\n  title: Druhá\n  text: |-\n    | a | b |\n    |---|---|\n    | 1 | 2 |\n",
    )
    result = run("check", game)
    assert result.exit_code == 1
    assert "cards.yaml:3:9: field 'text' of card 'a' has a Markdown heading on its line 1 ('## Setup')" in result.output
    assert "field 'text' of card 'b' has a Markdown table on its line 2" in result.output
    edit(game / "rules.yaml", "text: {type: text, required: false}", "text: {type: text, required: false, markup: false}")
    assert run("check", game).exit_code == 0


def test_stars_arrows_and_maths_the_card_font_lacks_come_from_the_fallback_symbol_font(tmp_path):
    from pdfread import fonts

    game = make_small_game(tmp_path / "hra", "- {id: a, title: Prvá, text: 'Zisk ★2, potom ⇒ ♠ ≠ ∑'}\n- {id: b, title: Druhá, text: 'Mesto ⛵'}\n")
    result = run("check", game)
    assert result.exit_code == 1
    assert "text of card 'b' uses '⛵' (U+26F5), missing from font 'sans' and from the fallback symbol font (DejaVu Sans)" in result.output
    assert "card 'a'" not in result.output
    edit(game / "cards.yaml", "Mesto ⛵", "Mesto")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "hra" / "cards-sk-a4.pdf"
    assert any("DejaVuSans" in name for name in fonts(pdf))
    assert "★2" in text(pdf) and "⇒" in text(pdf)


def test_check_warns_about_what_pnp_new_left_to_fill_in_until_it_is_filled_in(tmp_path):
    assert run("new", "mygame", "--out", tmp_path).exit_code == 0
    game = tmp_path / "mygame"
    result = run("check", game)
    assert result.exit_code == 0
    assert "mygame/game.yaml:4:9: warning: author is still 'Your Name', which pnp new wrote for you to replace" in result.output
    assert "mygame/game.yaml:5:10: warning: licence is still 'CHOOSE-A-LICENCE'" in result.output
    assert "warning: attribution still says 'Your Name'" in result.output
    assert "mygame/rules.md:21:1: warning: the rulebook still says 'Write how the game ends and who wins.'" in result.output
    edit(game / "game.yaml", "author: Your Name", "author: Ada Hra")
    edit(game / "game.yaml", "CHOOSE-A-LICENCE", "CC BY 4.0")
    edit(game / "game.yaml", "© Your Name", "© Ada Hra")
    edit(game / "rules.md", "Write how the game ends and who wins.", "The game ends when the deck runs out.")
    assert "no problems found" in run("check", game).output
