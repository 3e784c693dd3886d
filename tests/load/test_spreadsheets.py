"""Card data from spreadsheets: CSV and XLSX rows checked like YAML cards, with every
mistake located by row and column (and sheet)."""

from __future__ import annotations

import datetime
import zipfile
from xml.sax.saxutils import escape

import openpyxl
import pytest
from conftest import edit, make_small_game, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdfread import text

import pnp.load.packed
import pnp.load.spreadsheets
from pnp.base.errors import PnpError, Problems
from pnp.load.game import load_game

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
      power: {type: int, required: false, min: 0, max: 9}
      tags: {type: list, item: text, required: false}
      colors: {type: list, item: enum, enum: color, required: false}
constraints:
  - id: tagged
    message: Karta má dva tagy.
    type: card
    expect: tags | length != 2
    severity: warning
"""


def sheet_game(tmp_path, data: str, name: str = "cards.csv"):
    game = make_small_game(tmp_path / "hra")
    (game / "rules.yaml").write_text(RULES, encoding="utf-8")
    edit(game / "game.yaml", "data: cards.yaml", f"data: {name}")
    (game / "cards.yaml").unlink()
    if data:
        (game / name).write_bytes(data.encode("utf-8"))
    return game


def test_a_typo_in_row_12_is_reported_at_row_12(tmp_path):
    rows = ["id,title,color,power"] + [f"c{i},Karta {i},red,{i % 10}" for i in range(2, 12)] + ["c12,Karta 12,rde,3"]
    game = sheet_game(tmp_path, "\n".join(rows) + "\n")
    result = run("check", game)
    assert result.exit_code == 1
    assert "hra/cards.csv:12:3: field 'color' of card 'c12' is 'rde', which is not in 'color' (did you mean 'red'?)" in result.output.replace(
        str(tmp_path) + "/", ""
    )
    assert result.output.count("error") == 1 or "1 error" in result.output


def test_a_csv_exported_by_a_spreadsheet_builds_unchanged(tmp_path):
    data = (
        "\ufeffid,title,text,copies,color,tags\r\n"
        'a,Prvá,"Hráč získa mesto, potom ""dve"" karty.",2,red,"vojna; mier"\r\n'
        'b,Druhá,"Riadok jeden\r\nriadok dva",,,\r\n'
        ",,,,,\r\n"  # the blank rows a spreadsheet leaves at the end
        ",,,,,\r\n"
    )
    game = sheet_game(tmp_path, data)
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "(3 cards" in result.output  # copies: 2 + an empty cell, which means 1
    words = text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")
    assert 'potom "dve"' in words and "Riadok jeden" in words


def test_semicolon_separated_csv_from_a_european_excel(tmp_path):
    game = sheet_game(tmp_path, "id;title;tags\na;Prvá;x, y\n")
    assert run("check", game).exit_code == 0


def test_list_cells_split_on_semicolons_or_commas_and_each_item_is_checked(tmp_path):
    game = sheet_game(tmp_path, 'id,title,colors,tags\na,A,red; bleu,one\nb,B,"red,blue","x, y"\n')
    result = run("check", game)
    assert result.exit_code == 1
    assert "cards.csv:2:3: item 2 of field 'colors' of card 'a' is 'bleu'" in result.output
    edit(game / "cards.csv", "bleu", "blue")
    result = run("check", game)
    assert result.exit_code == 0, result.output
    assert "cards.csv:3:1: warning: Karta má dva tagy. (card 'b' fails" in result.output  # the rules model sees the split list


def test_empty_cells_are_absent_fields_and_an_empty_required_cell_is_reported_at_itself(tmp_path):
    game = sheet_game(tmp_path, "id,title,text\na,,\n")
    result = run("check", game)
    assert "cards.csv:2:2: card 'a' has no 'title'; expected text [card-missing-field]" in result.output


def test_unknown_and_missing_columns_are_reported_once_at_the_header(tmp_path):
    rows = "id,title,colour\n" + "".join(f"c{i},T{i},red\n" for i in range(5))
    result = run("check", sheet_game(tmp_path, rows))
    assert result.output.count("unknown column 'colour'") == 1
    assert "cards.csv:1:3: unknown column 'colour' (did you mean 'color'?)" in result.output
    result = run("check", sheet_game(tmp_path / "2", "name,title\nx,y\n"))
    assert "cards.csv:1:1: no 'id' column in the header row" in result.output
    assert result.exit_code == 1


def test_a_value_under_no_header_is_located(tmp_path):
    result = run("check", sheet_game(tmp_path, "id,title\na,A,stray\n"))
    assert "cards.csv:2:3: a value in column 3, which has no name in the header row" in result.output


def test_copies_that_are_not_a_number_are_located(tmp_path):
    result = run("check", sheet_game(tmp_path, "id,title,copies\na,A,two\n"))
    assert "cards.csv:2:3: copies of card 'a' is 'two'" in result.output


def test_a_csv_that_is_not_utf8_says_how_to_save_it(tmp_path):
    game = sheet_game(tmp_path, "")
    (game / "cards.csv").write_bytes("id,title\na,Prvá\n".encode("cp1250"))
    result = run("check", game)
    assert result.exit_code == 2
    assert "cards.csv:2: the file is not UTF-8 text" in result.output and "CSV UTF-8" in result.output


def test_old_excel_files_are_refused_with_a_reason(tmp_path):
    game = sheet_game(tmp_path, "", name="cards.xls")
    (game / "cards.xls").write_bytes(b"\xd0\xcf\x11\xe0")
    result = run("check", game)
    assert result.exit_code == 2
    assert "cards.xls: this is an old Excel workbook; expected a .csv (UTF-8) or .xlsx file" in result.output


def test_files_over_20_mb_are_refused_before_reading(tmp_path):
    game = sheet_game(tmp_path, "id,title\n")
    with (game / "cards.csv").open("r+b") as handle:
        handle.truncate(21 * 1024 * 1024)
    result = run("check", game)
    assert result.exit_code == 2
    assert "expected at most 20971520" in result.output and "[sheet-limit]" in result.output


def test_too_many_rows_are_refused_at_the_first_card_too_many(tmp_path, monkeypatch):
    monkeypatch.setattr(pnp.load.spreadsheets, "MAX_ROWS", 10)
    game = sheet_game(tmp_path, "id,title\n" + ",\n" * 5 + "".join(f"c{i},T\n" for i in range(11)) + ",\n" * 20)  # blank rows are no cards
    result = run("check", game)
    assert result.exit_code == 2
    assert "cards.csv:17: this row is card 11; expected at most 10 cards in one file (rows with values) [sheet-limit]" in result.output
    edit(game / "cards.csv", "c10,T\n", "")
    assert run("check", game).exit_code == 0


def workbook(path, sheets: dict[str, list[list]]):
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(path)


def raw_workbook(path, rows: str, shared=(), dimension="A1"):
    """A workbook as a spreadsheet program saves it, written part by part: `rows` is the sheet's <sheetData> content."""
    parts = {
        "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
        "_rels/.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Karty" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<dimension ref="{dimension}"/><sheetData>{rows}</sheetData></worksheet>',
        "xl/sharedStrings.xml": '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        + "".join(f"<si><t>{escape(s)}</t></si>" for s in shared)
        + "</sst>",
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)


def _shared_text_rows(count: int) -> str:
    """A header (id, title, text) and `count` cards whose text is shared string 0."""

    def inline(ref: str, text: str) -> str:
        return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'

    head = f'<row r="1">{inline("A1", "id")}{inline("B1", "title")}{inline("C1", "text")}</row>'
    return head + "".join(f'<row r="{i}">{inline(f"A{i}", f"c{i}")}{inline(f"B{i}", "Karta")}<c r="C{i}" t="s"><v>0</v></c></row>' for i in range(2, count + 2))


def test_a_formatted_blank_cell_far_away_does_not_make_the_sheet_huge(tmp_path, monkeypatch):
    """Excel saves the used range as the sheet's dimension: one formatted blank cell at
    XFD1048576 says 17 billion cells. The rows are read as saved, up to the last one."""
    monkeypatch.setattr(pnp.load.spreadsheets, "MAX_ROWS", 10)  # blank rows are no cards: they do not count
    game = sheet_game(tmp_path, "", name="cards.xlsx")
    book = openpyxl.Workbook()
    book.active.title = "Karty"
    for row in (["id", "title"], ["a", "Prvá"], ["b", "Druhá"]):
        book.active.append(row)
    book.active["XFD1048576"].font = openpyxl.styles.Font(bold=True)
    book.save(game / "cards.xlsx")
    with zipfile.ZipFile(game / "cards.xlsx") as archive:
        assert b'<dimension ref="A1:XFD1048576"/>' in archive.read("xl/worksheets/sheet1.xml")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "(2 cards" in result.output and "Druhá" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")


def test_a_value_past_the_last_column_read_is_an_error_at_its_cell(tmp_path):
    game = sheet_game(tmp_path, "", name="cards.xlsx")
    raw_workbook(
        game / "cards.xlsx",
        '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>title</t></is></c></row>'
        '<row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c><c r="B2" t="inlineStr"><is><t>Prvá</t></is></c><c r="ALN2"><v>7</v></c></row>',
    )
    result = run("check", game)
    assert result.exit_code == 1, result.output
    assert "cards.xlsx:Karty!ALN2: a value of card 'a' in column 1,002; expected at most 1,000 columns [sheet-limit]" in result.output


def test_a_cell_longer_than_a_spreadsheet_holds_is_an_error_at_each_cell_that_holds_it_once_grouped(tmp_path):
    """One shared string of 10 MB in every row: refused at the cells, not read into memory once per row."""
    game = sheet_game(tmp_path, "", name="cards.xlsx")
    raw_workbook(game / "cards.xlsx", _shared_text_rows(40), ["slovo " * 1_700_000])
    result = run("check", game)
    assert result.exit_code == 1, result.output
    lines = [
        line
        for line in result.output.replace(str(tmp_path) + "/", "").splitlines()
        if ("[" in line and ": note: " not in line) or line.startswith("  the same")
    ]
    assert lines == [
        "hra/cards.xlsx:Karty!C2: the cell of card 'c2' holds 10,200,000 characters; expected at most 32,767 (a spreadsheet cell's limit) [sheet-limit]",
        "  the same at Karty!C3, Karty!C4, Karty!C5 ... and 36 more cards",
    ]


def test_a_long_text_in_many_rows_is_held_once(tmp_path):
    game = sheet_game(tmp_path, "", name="cards.xlsx")
    raw_workbook(game / "cards.xlsx", _shared_text_rows(300), [" Hráč získa mesto. " * 1_500])  # 28,500 characters, spaces around
    problems = Problems()
    rows = pnp.load.spreadsheets.read_sheet(game / "cards.xlsx", load_game(game)[0].types["card"], problems)
    assert not problems.items and len(rows) == 300
    assert rows[0]["text"] == (" Hráč získa mesto. " * 1_500).strip()
    assert all(row["text"] is rows[0]["text"] for row in rows)  # one string, not 300 copies


def test_xlsx_rows_are_cards_and_errors_name_the_sheet(tmp_path):
    game = sheet_game(tmp_path, "", name="cards.xlsx")
    workbook(
        game / "cards.xlsx",
        {"Karty": [["id", "title", "power", "copies", "text"], ["a", "Prvá", 3, 2, "Text"], ["b", "Druhá", 12.0, None, None], [101, "Číslo", 1.0, 1.0, None]]},
    )
    result = run("check", game)
    assert result.exit_code == 1
    assert "cards.xlsx:Karty!C3: field 'power' of card 'b' is 12; expected a value from 0 to 9" in result.output
    assert "101" not in result.output.replace(str(tmp_path), "")  # a numeric id is a plain name; 1.0 is the number 1 (the folder pytest made may hold 101)
    workbook(game / "cards.xlsx", {"Karty": [["id", "title", "power", "copies"], ["a", "Prvá", 3, 2], [101, "Číslo", 1.0, 1.0]]})
    built = run("build", game, "--out", tmp_path / "out")
    assert built.exit_code == 0, built.output
    assert "(3 cards" in built.output
    assert "Číslo" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")


def test_xlsx_sheet_is_chosen_by_name(tmp_path):
    game = sheet_game(tmp_path, "", name="cards.xlsx")
    workbook(game / "cards.xlsx", {"Notes": [["whatever"]], "Cards": [["id", "title"], ["a", "Z hárku Cards"]]})
    edit(game / "game.yaml", "data: cards.xlsx", "data: cards.xlsx, sheet: Cards")
    assert run("build", game, "--out", tmp_path / "out").exit_code == 0
    assert "Z hárku Cards" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")
    edit(game / "game.yaml", "sheet: Cards", "sheet: Card")
    result = run("check", game)
    assert result.exit_code == 2
    assert "hra/game.yaml:5:" in result.output.replace(str(tmp_path) + "/", "")
    assert "the workbook has no sheet 'Card' (did you mean 'Cards'?); expected one of: Notes, Cards" in result.output


def test_a_damaged_workbook_is_an_error_not_a_traceback(tmp_path):
    game = sheet_game(tmp_path, "", name="cards.xlsx")
    (game / "cards.xlsx").write_bytes(b"PK\x03\x04 not really a zip")
    result = run("check", game)
    assert result.exit_code == 2
    assert "cannot read this workbook" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("name", ["cards.csv", "cards.xlsx"])
def test_translations_point_at_the_spreadsheet(tmp_path, name):
    game = sheet_game(tmp_path, "id,title\na,Prvá\n" if name.endswith("csv") else "", name=name)
    if name.endswith("xlsx"):
        workbook(game / name, {"S": [["id", "title"], ["a", "Prvá"]]})
    assert run("i18n", "update", game, "--add", "en").exit_code == 0
    pot = (game / "locale" / "messages.pot").read_text(encoding="utf-8")
    assert f"#: {name}" in pot and 'msgctxt "a.title"' in pot


def test_sheet_is_only_for_workbooks(tmp_path):
    game = make_small_game(tmp_path / "hra")
    edit(game / "game.yaml", "data: cards.yaml", "data: cards.yaml, sheet: Karty")
    result = run("check", game)
    assert result.exit_code == 1
    assert "'sheet: Karty' is only for XLSX workbooks" in result.output


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.one_of(st.binary(max_size=400), st.text(alphabet=st.sampled_from('id,title;text"\r\n\ufeffax\x00 1'), max_size=200).map(str.encode)))
def test_any_csv_bytes_give_located_errors_or_cards(tmp_path_factory, data):
    game = sheet_game(tmp_path_factory.mktemp("fuzz"), "")
    (game / "cards.csv").write_bytes(data)
    try:
        load_game(game)
    except PnpError as err:
        assert all(p.location.file.endswith(("cards.csv", "hra")) for p in err.problems.items), err


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.binary(max_size=300))
def test_any_xlsx_bytes_give_located_errors(tmp_path_factory, data):
    game = sheet_game(tmp_path_factory.mktemp("fuzz"), "", name="cards.xlsx")
    (game / "cards.xlsx").write_bytes(b"PK\x03\x04" + data)
    with pytest.raises(PnpError) as err:
        load_game(game)
    assert all("cards.xlsx" in p.location.file for p in err.value.problems.items)


def test_workbook_values_print_as_the_sheet_shows_them_unless_the_field_is_yes_or_no(tmp_path):
    """TRUE, a date, a whole number: on the card as in the sheet, not as Python writes them;
    a yes/no field reads TRUE as yes."""
    game = sheet_game(tmp_path, "", name="cards.xlsx")
    edit(game / "rules.yaml", "      power:", "      hidden: {type: bool, required: false}\n      power:")
    rows = [
        ["id", "title", "text", "hidden"],
        ["a", True, datetime.date(2024, 3, 1), True],
        ["b", 3.0, False, False],
        ["c", 2.5, datetime.datetime(2024, 3, 1, 14, 30), None],
    ]
    workbook(game / "cards.xlsx", {"Karty": rows})
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    words = text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")
    assert "TRUE" in words and "FALSE" in words and "2024-03-01\n" in words and "2024-03-01 14:30" in words and "2.5" in words
    assert "True" not in words and "False" not in words and "3.0" not in words
    loaded, _ = load_game(game)
    assert [card.fields["hidden"] for card in loaded.decks["cards"].cards] == [True, False, False]


def test_a_camel_case_header_matches_its_field(tmp_path):
    game = sheet_game(tmp_path, "iD,Title,textBody\na,Prvá,Text\n")
    edit(game / "rules.yaml", "      text:", "      text_body: {type: text, required: false}\n      text:")
    loaded, _ = load_game(game)
    assert loaded.decks["cards"].cards[0].fields["text_body"] == "Text"
    (game / "cards.csv").write_text("ID,TITLE,Text-Body\na,Prvá,Text\n", encoding="utf-8")
    loaded, _ = load_game(game)
    assert loaded.decks["cards"].cards[0].fields["text_body"] == "Text"


def test_a_csv_without_its_header_row_is_one_error_saying_so(tmp_path):
    game = sheet_game(tmp_path, "#FF00FF,Dragon,3\n#00FF00,Knight,2\n")
    result = run("check", game)
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.endswith("]") and ": note: " not in line]
    assert len(lines) == 1, result.output
    assert "hra/cards.csv:1:1: row 1 does not look like a header: none of its values ('#FF00FF', 'Dragon', '3') is a field name" in lines[0]
    assert "expected a header row of field names first, such as: id, copies, title" in lines[0] and lines[0].endswith("[sheet-header]")


def test_an_unknown_header_that_yaml_would_misread_is_quoted_in_the_suggestion(tmp_path):
    game = sheet_game(tmp_path, "id,title,#FF00FF\na,Prvá,x\n")
    result = run("check", game)
    assert "unknown column '#FF00FF'" in result.output
    assert """'columns: {"#FF00FF": FIELD}' in the deck to map it, 'columns: {"#FF00FF": ignore}' to leave it out""" in result.output


def test_a_large_decks_cards_keep_their_sheet_in_the_places_messages_name(tmp_path, monkeypatch):
    """A deck of more than a few thousand cards is packed (load/packed.py): a card read back
    still names its cell as the sheet does, not as a line and column."""
    monkeypatch.setattr(pnp.load.packed, "_KEPT", 1)
    game = sheet_game(tmp_path, "", name="cards.xlsx")
    workbook(
        game / "cards.xlsx", {"Karty": [["id", "title", "text"], ["a", "Prvá", "Krátky."], ["b", "Druhá", "Krátky."], ["c", "Tretia", "Príliš dlhý. " * 400]]}
    )
    result = run("check", game)
    assert result.exit_code == 1, result.output
    assert "cards.xlsx:Karty!C4: text of card 'c' does not fit" in result.output, result.output
