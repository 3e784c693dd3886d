"""Hostile and careless input on the reading side: names that would become paths outside
their folder, symlinks and SVG references that lead out of the game folder, damaged
images, spreadsheets and catalogues, absurd sizes and nesting. Each is one located
error, never a traceback, and nothing is read from outside the game folder."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest
from conftest import edit, line_of, run


def _errors(result) -> list[str]:
    return [line for line in result.output.splitlines() if "[" in line and line.rstrip().endswith("]")]


# --- names that become file names -------------------------------------------------------


@pytest.mark.parametrize("bad", ["../cities", "a/b", ".hidden", "c\\d", "''"])
def test_a_deck_id_that_is_not_a_plain_name_is_refused_at_its_key(mesta, bad):
    game = mesta / "game.yaml"
    edit(game, "  cities:\n    name: Mestá", f"  {bad}:\n    name: Mestá")
    line = line_of(game, f"  {bad}:")
    result = run("check", mesta)
    assert result.exit_code == 1
    shown = bad.strip("'")
    assert f"game.yaml:{line}:3: deck id '{shown}' is not a plain name; expected letters, digits, '-', '_' or '.'" in result.output
    assert "Traceback" not in result.output


def test_a_group_a_rulebook_id_and_a_mode_that_leave_their_folder_are_refused(mesta):
    game = mesta / "game.yaml"
    edit(game, "  events:\n    name: Udalosti", "  events:\n    group: ../../etc\n    name: Udalosti")
    edit(game, "rulebooks:\n  rules:\n    title: Pravidlá", "rulebooks:\n  /abs:\n    modes: [basic, x/../../y]\n    title: Pravidlá")
    result = run("build", mesta, "--out", mesta / "out")
    assert result.exit_code == 1
    assert f"game.yaml:{line_of(game, 'group: ../../etc')}:12: group '../../etc' of deck 'events' is not a plain name" in result.output
    assert f"game.yaml:{line_of(game, '/abs:')}:3: rulebook id '/abs' is not a plain name" in result.output
    assert f"game.yaml:{line_of(game, 'modes: [basic')}:20: mode 'x/../../y' of rulebook '/abs' is not a plain name" in result.output
    assert not (mesta / "out").exists()


def test_a_card_id_with_a_separator_is_refused_at_its_line(mesta):
    events = mesta / "events.yaml"
    edit(events, "- id: julius-caesar\n", "- id: ../julius-caesar\n")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert f"events.yaml:{line_of(events, '../julius-caesar')}:7: card id '../julius-caesar' is not a plain name" in result.output


def test_an_id_too_long_for_a_file_name_is_refused_at_its_line_before_anything_is_written(mesta, tmp_path):
    long_card, long_deck = "c" * 300, "d" * 101
    events, game = mesta / "events.yaml", mesta / "game.yaml"
    edit(events, "- id: julius-caesar\n", f"- id: {long_card}\n")
    edit(game, "  cities:\n    name: Mestá", f"  {long_deck}:\n    name: Mestá")
    edit(game, "  events:\n    name: Udalosti", "  events:\n    group: " + "g" * 200 + "\n    name: Udalosti")
    for command in (["build", mesta, "--out", tmp_path / "out"], ["export", "png", mesta, "--out", tmp_path / "out"]):
        result = run(*command)
        assert result.exit_code == 1, result.output
        limit = "expected at most 100 (it becomes part of file names, which the file system limits)"
        assert f"events.yaml:{line_of(events, long_card)}:7: card id 'cccccccccccccccccccc…' is 300 characters long; {limit} [card-id]" in result.output
        assert f"game.yaml:{line_of(game, long_deck)}:3: deck id 'dddddddddddddddddddd…' is 101 characters long; {limit} [id-invalid]" in result.output
        assert (
            f"game.yaml:{line_of(game, 'group: ggg')}:12: group 'gggggggggggggggggggg…' of deck 'events' is 200 characters long; {limit} [id-invalid]"
            in result.output
        )
        assert "internal error" not in result.output and not (tmp_path / "out").exists()
    edit(events, long_card, "c" * 100)  # at the limit: a card of the deck
    edit(game, long_deck, "d" * 100)
    edit(game, "g" * 200, "g" * 100)
    result = run("check", mesta)
    assert "characters long" not in result.output, result.output


# --- YAML that reads as something else -------------------------------------------------


def test_a_colon_inside_a_plain_value_is_located_with_the_value_quoted(mesta):
    events = mesta / "events.yaml"
    edit(events, "  text: Všetci hráči strácajú všetky rímske mestá.", "  text: Získaj 2: potom ťahaj")
    line = line_of(events, "Získaj 2: potom")
    result = run("check", mesta)
    assert result.exit_code == 2
    assert (
        f"events.yaml:{line}:17: YAML syntax error: mapping values are not allowed in this context; a ': ' inside a plain value starts a new key: quote the value, e.g. text: \"Získaj 2: potom ťahaj\" [yaml-syntax]"
        in result.output
    )


@pytest.mark.parametrize("character", ["\x00", "\x08", "\x1b"])
def test_a_control_character_is_located_with_a_hint(mesta, character):
    events = mesta / "events.yaml"
    edit(events, "  title: Leonidas", f"  title: Leo{character}nidas")
    line = line_of(events, "title: Leo")
    result = run("check", mesta)
    assert result.exit_code == 2
    assert f"events.yaml:{line}:13: YAML syntax error: unacceptable character #x{ord(character):04x}" in result.output
    assert "expected printable text: delete the character (most editors do not show it) [yaml-syntax]" in result.output


def test_a_control_character_written_as_an_escape_is_refused_at_its_value(mesta):
    events = mesta / "events.yaml"
    edit(events, "  title: Leonidas", '  title: "Leo\\0nidas"')
    result = run("check", mesta)
    assert result.exit_code == 1
    assert (
        f"events.yaml:{line_of(events, 'Leo')}:10: the value holds control character U+0000 (written as an escape); expected printable text [yaml-value]"
        in result.output
    )


@pytest.mark.parametrize(("value", "kind"), [("!!int zz", "int"), ("!!float abc", "float"), ("!!timestamp 2020-13-45", "timestamp"), ("!!bool maybe", "bool")])
def test_a_value_its_tag_does_not_fit_is_refused_at_its_value(mesta, value, kind):
    events = mesta / "events.yaml"
    edit(events, "  title: Leonidas", f"  title: {value}")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert (
        f"events.yaml:{line_of(events, value)}:10: cannot read '{value.split()[1]}' as {kind}; expected a value of that type, or no tag [yaml-value]"
        in result.output
    )


# --- decks without cards --------------------------------------------------------------


def _csv_deck(mesta: Path, text: str) -> Path:
    edit(mesta / "game.yaml", "    data: events.yaml", "    data: events.csv")
    path = mesta / "events.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_csv_with_a_header_and_no_rows_is_a_deck_without_cards(mesta):
    _csv_deck(mesta, "id,title,text\n\n,,\n")
    result = run("build", mesta, "--out", mesta / "out")
    assert result.exit_code == 1
    assert (
        "events.csv:1:1: deck 'events' has no cards; expected at least one event (a row under the header, or an item '- id: ...') [deck-empty]" in result.output
    )
    assert not (mesta / "out").exists()


def test_an_empty_list_of_data_only_cards_is_an_error_too(mesta):
    game = mesta / "game.yaml"
    edit(game, "decks:\n", "decks:\n  spare: {type: aid, data: spare.yaml}\n")
    (mesta / "spare.yaml").write_text("# none yet\n[]\n", encoding="utf-8")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert "spare.yaml:2:1: deck 'spare' has no cards" in result.output


def test_a_csv_cell_with_a_control_character_is_located(mesta):
    path = _csv_deck(mesta, "")
    buffer = io.StringIO()
    csv.writer(buffer).writerow(["id", "title", "text"])
    csv.writer(buffer).writerow(["a", "Tit\x00le", "Text"])
    path.write_text(buffer.getvalue(), encoding="utf-8")
    result = run("check", mesta)
    assert "events.csv:2:2: the cell holds control character U+0000; expected printable text (delete the character) [sheet-value]" in result.output


def _workbook(mesta: Path, change) -> None:
    """Mestá's aids as an XLSX workbook whose worksheet XML `change` rewrites."""
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["id", "title"])
    book.active.append(["a", "T"])
    plain = io.BytesIO()
    book.save(plain)
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(mesta / "aids.xlsx", "w") as target:
        for name in source.namelist():
            data = source.read(name)
            target.writestr(name, change(data) if name == "xl/worksheets/sheet1.xml" else data)
    edit(mesta / "game.yaml", "    data: aids.yaml", "    data: aids.xlsx")


def test_a_workbook_that_declares_xml_entities_is_refused_before_it_is_parsed(mesta):
    laughs = b'<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    _workbook(mesta, lambda data: laughs + data.replace(b">T<", b">&b;<"))
    result = run("check", mesta)
    assert result.exit_code == 2
    assert (
        "aids.xlsx: the spreadsheet declares XML entities (a DOCTYPE in xl/worksheets/sheet1.xml); "
        "expected a workbook saved by a spreadsheet program, which never declares any [sheet-xml-entities]"
    ) in result.output


def test_a_workbook_whose_sheet_is_cut_short_is_an_error_at_the_file(mesta):
    _workbook(mesta, lambda data: data[: len(data) // 2])
    result = run("check", mesta)
    assert result.exit_code == 2
    assert "aids.xlsx: cannot read sheet 'Sheet' (" in result.output and "[sheet-unreadable]" in result.output
    assert "Traceback" not in result.output


# --- nothing read from outside the game folder ------------------------------------------


def test_a_symbol_that_is_a_link_out_of_the_game_folder_is_refused_naming_where_it_leads(mesta, tmp_path):
    secret = tmp_path / "secret.svg"
    secret.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>', encoding="utf-8")
    (mesta / "symbols" / "leak.svg").symlink_to(secret)
    result = run("check", mesta)
    assert result.exit_code == 1
    assert "symbols/leak.svg: symbol 'leak' is a link to outside the game folder; expected a file inside it [path-outside]" in result.output
    assert str(secret) not in result.output


def test_a_symbol_that_links_inside_the_game_folder_is_read(mesta):
    (mesta / "art").mkdir()
    (mesta / "symbols" / "div.svg").rename(mesta / "art" / "div.svg")
    (mesta / "symbols" / "div.svg").symlink_to(mesta / "art" / "div.svg")
    result = run("check", mesta)
    assert result.exit_code == 0, result.output


SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">\n{}\n</svg>'


@pytest.mark.parametrize(
    ("body", "col", "message"),
    [
        ('  <use xlink:href="../game.yaml#x"/>', 3, "<use href=\"../game.yaml#x\"> refers to another file; expected references inside this SVG only ('#id')"),
        ('  <image href="file:///etc/hostname" width="1" height="1"/>', 3, '<image href="file:///etc/hostname"> refers to another file'),
        ('  <use href="http://example.org/a.svg#b"/>', 3, '<use href="http://example.org/a.svg#b"> refers to another file'),
        (
            '  <rect style="fill: url( \'/tmp/p.svg#g\' )" width="1" height="1"/>',
            3,
            "the style of <rect> refers to '/tmp/p.svg#g'; expected references inside this SVG only ('url(#id)')",
        ),
        ("  <style>@import 'x.css';</style>", 10, "a <style> imports another stylesheet; expected the styles inside this SVG"),
    ],
)
def test_an_svg_reference_to_another_file_is_refused_at_its_line(mesta, body, col, message):
    (mesta / "symbols" / "div.svg").write_text(SVG.format(body), encoding="utf-8")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert f"symbols/div.svg:2:{col}: {message}" in result.output
    assert "Traceback" not in result.output


def test_an_svg_reference_inside_the_file_is_drawn(mesta):
    body = '  <defs><circle id="c" r="4" cx="5" cy="5"/></defs><use xlink:href="#c" style="fill:url(#c)"/>'
    (mesta / "symbols" / "div.svg").write_text(SVG.format(body), encoding="utf-8")
    result = run("check", mesta)
    assert result.exit_code == 0, result.output


def test_an_svg_with_entities_is_refused_before_it_is_parsed(mesta):
    text = '<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY x SYSTEM "file:///etc/hostname">\n]>\n' + SVG.format("<text>&x;</text>")
    (mesta / "symbols" / "div.svg").write_text(text, encoding="utf-8")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert "symbols/div.svg:2:15: the SVG declares a DOCTYPE or entities; expected plain SVG" in result.output


@pytest.mark.parametrize(
    ("attrs", "what"),
    [('width="1e9" height="10"', "width is 1e9"), ('viewBox="0 0 10 4e12"', "viewBox height is 4e12"), ('width="30000mm"', "width is 30000mm")],
)
def test_an_svg_of_absurd_size_is_refused_with_the_limit(mesta, attrs, what):
    (mesta / "symbols" / "div.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg"\n     {attrs}><rect width="1" height="1"/></svg>', encoding="utf-8")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert f"symbols/div.svg:1:1: the SVG's {what}; expected at most 10000 px (a symbol is drawn a few mm wide) [symbol-svg-size]" in result.output


def test_an_svg_cut_short_is_an_error_at_its_end(mesta):
    (mesta / "symbols" / "div.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n<rect', encoding="utf-8")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert "symbols/div.svg:2:" in result.output and "cannot read this SVG: unclosed token; expected well-formed XML [symbol-unreadable]" in result.output


# --- damaged images ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["art.png", "art.jpg"])
def test_an_image_cut_short_is_an_error_at_the_check_not_when_drawing(mesta, name):
    from PIL import Image

    image = Image.effect_noise((120, 80), 60).convert("RGB")
    whole = io.BytesIO()
    image.save(whole, format="PNG" if name.endswith("png") else "JPEG")
    (mesta / name).write_bytes(whole.getvalue()[: len(whole.getvalue()) * 3 // 4])
    rules = mesta / "rules" / "01-uvod.md"
    edit(rules, "# O hre {#o-hre}\n", f"# O hre {{#o-hre}}\n\n![obraz]({name})\n")
    result = run("build", mesta, "--out", mesta / "out")
    assert result.exit_code == 1
    assert (
        f"rules/01-uvod.md:3:10: image '{name}' is damaged (" in result.output
        and "expected a complete PNG or JPEG file (export it again) [image-damaged]" in result.output
    )
    assert "Traceback" not in result.output and not (mesta / "out").exists()


# --- Markdown nested without end ------------------------------------------------------


@pytest.mark.parametrize(
    ("deep", "line", "what"),
    [
        (">" * 1000 + " hlboko\n", 3, "lists, quotes and ::: blocks"),
        ("".join("  " * i + "- bod\n" for i in range(1000)), 23, "lists, quotes and ::: blocks"),
        pytest.param(  # markdown-it takes seconds to read a thousand ::: blocks (quadratic): the next case is the same, ten times shallower
            "".join(":" * (1003 - i) + " note\n" for i in range(1000)) + "text\n" + "".join(":" * (4 + i) + "\n" for i in range(1000)),
            23,
            "lists, quotes and ::: blocks",
            marks=pytest.mark.slow,
        ),
        (
            "".join(":" * (103 - i) + " note\n" for i in range(100)) + "text\n" + "".join(":" * (4 + i) + "\n" for i in range(100)),
            23,
            "lists, quotes and ::: blocks",
        ),
        ("*" * 1000 + "slovo" + "*" * 1000 + "\n", 3, "emphasis, links and spans"),
    ],
)
def test_a_rulebook_nested_a_thousand_levels_deep_is_an_error_at_the_line_past_the_limit(mesta, deep, line, what):
    rules = mesta / "rules" / "02-obsah.md"
    rules.write_text("# Obsah\n\n" + deep, encoding="utf-8")
    result = run("build", mesta, "--out", mesta / "out")
    assert result.exit_code == 1
    assert (
        f"rules/02-obsah.md:{line}:1: {what} nest more than 20 levels deep here; expected at most 20 levels, one inside another [rulebook-nesting]"
        in result.output
    )
    assert "Traceback" not in result.output and "RecursionError" not in result.output


def test_twenty_levels_of_lists_are_printed_whole(mesta, tmp_path):
    from pdfread import text

    rules = mesta / "rules" / "02-obsah.md"
    rules.write_text("# Obsah\n\n" + "".join("  " * i + f"- úroveň{i + 1}\n" for i in range(20)), encoding="utf-8")
    result = run("build", mesta, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    printed = "".join(text(pdf) for pdf in (tmp_path / "out").rglob("rules*.pdf"))
    assert "úroveň1" in printed and "úroveň20" in printed
