"""A card's text is text in every language: `{{ ... }}` and `{% ... %}` in it print as
written in the source and in each translation. A string of `strings:` is a template in
every language, the pseudo-language included."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import edit, make_small_game, run
from makers import squash
from pdfread import text

CARDS = """\
- {id: a, title: "Prvá {{ x }}", text: "Napíš {{ meno }} a {% if %} tu."}
- {id: b, title: Druhá, text: "Hráč stráca {% plural n %}1 mesto{% pluralform %}{{ n }} mestá{% endplural %}."}
"""
GERMAN = {
    "Hra": "Spiel",
    "Autor hry.": "Spielautor.",
    "Karta": "Karte",
    "cards": "Karten",
    "Červená": "Rot",
    "Prvá {{ x }}": "Erste {{ x }}",
    "Napíš {{ meno }} a {% if %} tu.": "Schreib {{ Name }} und {% if %} hier.",  # text: what is in braces is translated too
    "Druhá": "Zweite",
    "Hráč stráca {% plural n %}1 mesto{% pluralform %}{{ n }} mestá{% endplural %}.": "Der Spieler verliert {% plural n %}1 Stadt{% pluralform %}{{ n }} Städte{% endplural %}.",
}


def translate(po: Path, translations: dict[str, str]) -> None:
    def fill(m: re.Match) -> str:
        return f'msgid "{m.group(1)}"\nmsgstr "{translations[m.group(1)]}"'

    po.write_text(re.sub(r'^msgid "(.+)"\nmsgstr ""$', fill, po.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")


def test_template_syntax_in_a_card_text_prints_as_written_in_the_source_and_in_a_translation(tmp_path: Path):
    game = make_small_game(tmp_path / "hra", CARDS)
    assert run("i18n", "update", game, "--add", "de").exit_code == 0
    po = game / "locale" / "de.po"
    assert 'msgctxt "plural"' not in po.read_text(encoding="utf-8")  # a card's {% plural %} is text: nothing to translate apart
    translate(po, GERMAN)
    status = run("i18n", "status", game)
    assert status.exit_code == 0, status.output
    assert "de: 9/9 translated (100 %), 0 fuzzy, 0 missing" in status.output
    result = run("build", game, "--lang", "all", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    source = squash(text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf"))
    assert "Prvá {{ x }}" in source and "Napíš {{ meno }} a {% if %} tu." in source
    assert "Hráč stráca {% plural n %}1 mesto{% pluralform %}{{ n }} mestá{% endplural %}." in source
    german = squash(text(tmp_path / "out" / "hra" / "cards-de-a4.pdf"))
    assert "Erste {{ x }}" in german and "Schreib {{ Name }} und {% if %} hier." in german
    assert "Der Spieler verliert {% plural n %}1 Stadt" in german


def test_a_card_text_translated_without_its_braces_is_a_translation_like_any_other(tmp_path: Path):
    game = make_small_game(tmp_path / "hra", CARDS)
    run("i18n", "update", game, "--add", "de")
    translate(game / "locale" / "de.po", {**GERMAN, "Napíš {{ meno }} a {% if %} tu.": "Schreib deinen Namen hier."})
    result = run("check", game, "--lang", "de")
    assert result.exit_code == 0, result.output


def test_a_string_of_strings_is_a_template_in_every_language(tmp_path: Path):
    game = make_small_game(tmp_path / "hra")
    edit(game / "game.yaml", "front: basic/card", "front: spell")
    edit(game / "game.yaml", "  back: Karta\n", '  back: Karta\n  spell: "Kúzlo {{ title }}"\n')
    (game / "layouts").mkdir()
    (game / "layouts" / "spell.yaml").write_text('size: [63, 88]\nelements:\n  - text: "{{ strings.spell }}"\n    box: [4, 4, 55, 20]\n', encoding="utf-8")
    result = run("build", game, "--lang", "qps", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "[Kúžľô [Přvá žž] žž]" in squash(text(tmp_path / "out" / "hra" / "cards-qps-a4.pdf"))  # the title filled in, not accented as text
    run("i18n", "update", game, "--add", "de")
    translate(
        game / "locale" / "de.po", {**GERMAN, "Kúzlo {{ title }}": "Zauber {{ title }", "Prvá": "Erste", "Hráč získa mesto.": "A", "Hráč stráca mesto.": "B"}
    )
    result = run("check", game, "--lang", "de")
    assert result.exit_code == 1
    assert "the de translation of 'strings.spell' is not a template pnp can read" in result.output
