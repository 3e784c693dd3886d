"""Translations: catalogues a translator's tool reads, stale strings caught, nothing lost."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from conftest import edit, line_of, make_small_game, run
from pdfread import text


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return make_small_game(tmp_path / "hra")


def catalog(folder: Path, lang: str):
    with (folder / "locale" / f"{lang}.po").open("rb") as handle:
        return {m.context: m for m in read_po(handle) if m.id}


def translate_all(folder: Path, lang: str, prefix: str) -> None:
    """Fill every msgstr like a translator would (prefix + source)."""
    path = folder / "locale" / f"{lang}.po"
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        if line == 'msgstr ""' and i > 0 and lines[i - 1].startswith("msgid ") and lines[i - 1] != 'msgid ""':
            line = f'msgstr "{prefix}{lines[i - 1][7:-1]}"'
        out.append(line)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def test_update_writes_a_template_and_catalogues_with_stable_ids(small):
    result = run("i18n", "update", small, "--add", "en", "--add", "cs")
    assert result.exit_code == 0, result.output
    assert (small / "locale" / "messages.pot").is_file()
    ids = set(catalog(small, "en"))
    assert {"a.title", "a.text", "b.title", "b.text", "game.title", "game.attribution", "strings.back", "enum.color.red.name", "deck.cards.name"} <= ids
    assert all(not m.string for m in catalog(small, "cs").values())


def test_catalogues_pass_msgfmt(small):
    if not shutil.which("msgfmt"):
        pytest.skip("msgfmt (gettext) is not installed")
    run("i18n", "update", small, "--add", "en")
    translate_all(small, "en", "EN ")
    subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(small / "locale" / "en.po")], check=True)


def test_a_changed_source_text_becomes_fuzzy_in_every_catalogue_and_nothing_else(small):
    run("i18n", "update", small, "--add", "en", "--add", "cs")
    translate_all(small, "en", "EN ")
    translate_all(small, "cs", "CS ")
    assert run("check", small, "--lang", "all").exit_code == 0
    edit(small / "cards.yaml", "Hráč stráca mesto.", "Hráč stráca dve mestá.")
    result = run("i18n", "update", small)
    assert "en: 0 new, 1 fuzzy, 0 obsolete" in result.output and "cs: 0 new, 1 fuzzy, 0 obsolete" in result.output
    for lang in ("en", "cs"):
        messages = catalog(small, lang)
        fuzzy = [sid for sid, m in messages.items() if m.fuzzy]
        assert fuzzy == ["b.text"]
        assert messages["b.text"].string == f"{lang.upper()} Hráč stráca mesto."  # the old translation is kept
        po = (small / "locale" / f"{lang}.po").read_text(encoding="utf-8")
        assert '#| msgid "Hráč stráca mesto."\nmsgctxt "b.text"' in po  # the old source, shown to the translator
    check = run("check", small, "--lang", "en")
    assert check.exit_code == 1
    line = messages["b.text"].lineno
    assert f"locale/en.po:{line}: 'b.text' is fuzzy" in check.output


def test_a_removed_card_becomes_obsolete_and_is_kept(small):
    run("i18n", "update", small, "--add", "en")
    translate_all(small, "en", "EN ")
    edit(small / "cards.yaml", "- {id: b, title: Druhá, text: Hráč stráca mesto.}\n", "")
    result = run("i18n", "update", small)
    assert "en: 0 new, 0 fuzzy, 2 obsolete" in result.output
    po = (small / "locale" / "en.po").read_text(encoding="utf-8")
    assert '#~ msgctxt "b.text"' in po and "EN Hráč stráca mesto." in po
    edit(small / "cards.yaml", "- {id: a,", "- {id: b, title: Druhá, text: Hráč stráca mesto.}\n- {id: a,")
    run("i18n", "update", small)
    assert catalog(small, "en")["b.text"].string == "EN Hráč stráca mesto."  # back from the dead


def test_status_counts_and_names_what_is_left(small):
    run("i18n", "update", small, "--add", "en")
    result = run("i18n", "status", small)
    assert "en: 0/9 translated (0 %), 0 fuzzy, 9 missing" in result.output
    assert "missing: a.title" in result.output
    translate_all(small, "en", "EN ")
    assert "en: 9/9 translated (100 %), 0 fuzzy, 0 missing" in run("i18n", "status", small).output


def test_build_in_a_language_prints_the_translation(small, tmp_path):
    run("i18n", "update", small, "--add", "en")
    translate_all(small, "en", "EN ")
    result = run("build", small, "--lang", "en", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    printed = text(tmp_path / "out" / "hra" / "cards-en-a4.pdf")
    assert "EN Prvá" in printed and "EN Hráč získa mesto." in printed
    assert "Hráč stráca mesto." not in printed.replace("EN Hráč stráca mesto.", "")


def test_missing_translation_is_an_error_unless_allowed(small, tmp_path):
    run("i18n", "update", small, "--add", "en")
    result = run("build", small, "--lang", "en", "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "locale/en.po:" in result.output and "'a.title' has no en translation" in result.output
    assert not (tmp_path / "out").exists()
    allowed = run("build", small, "--lang", "en", "--allow-untranslated", "--out", tmp_path / "out")
    assert allowed.exit_code == 0
    assert "9 strings are missing or fuzzy in 'en' and are printed in the source language" in allowed.output


def test_unknown_language_is_an_error(small):
    result = run("check", small, "--lang", "de")
    assert result.exit_code == 1
    assert "there is no catalogue for 'de'" in result.output


def test_pseudo_language_is_accented_and_longer(small, tmp_path):
    result = run("build", small, "--lang", "qps", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    printed = text(tmp_path / "out" / "hra" / "cards-qps-a4.pdf")
    assert "[Ďřůhá" in printed
    assert "Druhá" not in printed


def test_pseudo_language_reports_boxes_at_risk(mesta):
    result = run("check", mesta, "--lang", "qps")
    assert result.exit_code == 0
    assert "shrinks from 11 to" in result.output and "in the pseudo-language" in result.output


def test_update_is_reproducible_from_any_directory(small, tmp_path, monkeypatch):
    run("i18n", "update", small, "--add", "en")
    first = (small / "locale" / "en.po").read_bytes()
    monkeypatch.chdir(tmp_path)
    run("i18n", "update", small)
    assert (small / "locale" / "en.po").read_bytes() == first


def test_each_game_yaml_string_names_its_own_line(small):
    edit(small / "game.yaml", "strings:\n  back: Karta\n", "strings:\n  back: Karta\n  front: Líce\nsymbol_names: {}\n")
    run("i18n", "update", small, "--add", "en")
    pot = read_po((small / "locale" / "messages.pot").open("rb"))
    where = {m.context: m.locations for m in pot if m.id}
    assert where["game.title"] == [("game.yaml", 1)]
    assert where["game.attribution"] == [("game.yaml", 3)]
    assert where["strings.back"] == [("game.yaml", 7)] and where["strings.front"] == [("game.yaml", 8)]
    assert where["enum.color.red.name"] == [("rules.yaml", 3)]


SPELL_CARDS = """\
- {id: a, title: Prvá, color: red}
- {id: b, title: Druhá, color: red}
"""


def spell_game(tmp_path: Path) -> Path:
    """A card name built from parts: one string of game.yaml, a template the layout prints."""
    game = make_small_game(tmp_path / "hra", SPELL_CARDS)
    edit(game / "game.yaml", "front: basic/card", "front: spell")
    edit(game / "game.yaml", "  back: Karta\n", '  back: Karta\n  spell: "{{ color.name }} kúzlo {{ title }}"\n')
    (game / "layouts").mkdir()
    (game / "layouts" / "spell.yaml").write_text('size: [63, 88]\nelements:\n  - text: "{{ strings.spell }}"\n    box: [4, 4, 55, 20]\n', encoding="utf-8")
    return game


def test_a_name_built_from_parts_is_one_template_a_translator_can_reorder(tmp_path):
    game = spell_game(tmp_path)
    assert run("i18n", "update", game, "--add", "en").exit_code == 0
    assert catalog(game, "en")["strings.spell"].id == "{{ color.name }} kúzlo {{ title }}"  # the msgid is the template
    translate_all(game, "en", "")
    edit(game / "locale" / "en.po", 'msgstr "{{ color.name }} kúzlo {{ title }}"', 'msgstr "Spell {{ title }} of the {{ color.name }} school"')
    edit(game / "locale" / "en.po", 'msgstr "Červená"', 'msgstr "Red"')
    out = tmp_path / "out"
    result = run("build", game, "--out", out, "--lang", "all")
    assert result.exit_code == 0, result.output
    assert "Červená kúzlo Prvá" in text(out / "hra" / "cards-sk-a4.pdf")
    assert "Spell Prvá of the Red school" in text(out / "hra" / "cards-en-a4.pdf")


@pytest.mark.parametrize(
    ("translation", "message"),
    [
        ("Spell {{ title }}", "drops '{{ color.name }}'"),
        ("Spell {{ titel }} of {{ color.name }}", "drops '{{ title }}'"),
        ("Spell {{ title } of {{ color.name }}", "is not a template pnp can read: unexpected '}'"),
    ],
)
def test_a_reordered_name_that_drops_or_misspells_a_placeholder_is_an_error_at_its_po_line(tmp_path, translation, message):
    game = spell_game(tmp_path)
    run("i18n", "update", game, "--add", "en")
    translate_all(game, "en", "")
    po = game / "locale" / "en.po"
    edit(po, 'msgstr "{{ color.name }} kúzlo {{ title }}"', f'msgstr "{translation}"')
    line = next(n for n, row in enumerate(po.read_text(encoding="utf-8").splitlines(), 1) if row == 'msgctxt "strings.spell"') + 1  # the msgid
    result = run("check", game, "--lang", "en")
    assert result.exit_code == 1
    assert f"locale/en.po:{line}: the en translation of 'strings.spell' {message}" in result.output, result.output


@pytest.mark.parametrize("language", ["bb", "x1", "sk/x"])
def test_a_game_in_a_language_babel_does_not_know_is_an_error_at_its_line(tmp_path, language):
    """A game's language decides its plural rule and hyphenation: one nobody knows is said
    at its line, not found out by a crash while the cards are set."""
    game = make_small_game(tmp_path / "hra")
    edit(game / "game.yaml", "language: sk", f"language: {language}")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert f"game.yaml:2:11: language '{language}' is not a language code that pnp knows" in result.output
    assert "internal error" not in result.output


def test_a_reworded_rulebook_keeps_each_paragraphs_translation_comparing_each_with_a_few(tmp_path, monkeypatch):
    """Every paragraph of a rulebook shares one context: each reworded one is matched with
    its own old entry by comparing it with a few likely ones, not with every paragraph
    left over (which took time growing with the square of the rulebook: bench/i18n_update.py)."""
    import difflib

    game = make_small_game(tmp_path / "hra")
    paragraphs = [f"Odsek {i}: hráč potiahne kartu číslo {i * 7 % 101} a zahrá ju na stôl." for i in range(200)]
    (game / "rules.md").write_text("# Pravidlá\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
    with (game / "game.yaml").open("a", encoding="utf-8") as handle:
        handle.write("rulebooks:\n  rules:\n    title: Pravidlá\n    files: [rules.md]\n")
    assert run("i18n", "update", game, "--add", "en").exit_code == 0
    po = game / "locale" / "en.po"
    with po.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if message.id:
            message.string = f"EN {message.id}"
    with po.open("wb") as handle:
        write_po(handle, catalog, width=0)
    edit(game / "rules.md", "hráč potiahne", "hráč rýchlo potiahne", count=200)
    compared = []
    real = difflib.SequenceMatcher
    monkeypatch.setattr(difflib, "SequenceMatcher", lambda *args: compared.append(args) or real(*args))
    result = run("i18n", "update", game)
    assert result.exit_code == 0 and "en: 0 new, 200 fuzzy, 0 obsolete" in result.output, result.output
    with po.open("rb") as handle:
        after = [m for m in read_po(handle) if m.id and m.id.startswith("Odsek")]
    assert len(after) == 200 and all(m.fuzzy and m.string == "EN " + m.id.replace("hráč rýchlo", "hráč") for m in after)  # each its own
    assert len(compared) <= 200 * 13, len(compared)  # a few candidates each (before: 20,100 comparisons)


@pytest.mark.parametrize(
    ("saved_as", "said"),
    [
        (
            "utf-8",
            "the header says charset=ISO-8859-2, but the catalogue is UTF-8 text; expected charset=UTF-8 (gettext tools would read this file as ISO-8859-2) [po-charset]",
        ),
        (
            "iso-8859-2",
            "the header says charset=ISO-8859-2, and the catalogue is saved so; expected UTF-8: convert it (msgconv --to-code=UTF-8, or save it as UTF-8 in your editor) and set charset=UTF-8 [po-charset]",
        ),
    ],
)
def test_a_catalogue_whose_header_names_another_charset_is_an_error_at_the_header(mesta, saved_as, said):
    po = mesta / "locale" / "cs.po"
    text = po.read_text(encoding="utf-8").replace("charset=utf-8", "charset=ISO-8859-2")
    po.write_bytes(text.encode(saved_as, errors="replace"))
    line = line_of(po, "charset=") if saved_as == "utf-8" else text.split("charset=")[0].count("\n") + 1
    for command in (["check", mesta, "--lang", "cs"], ["i18n", "update", mesta]):
        result = run(*command)
        assert result.exit_code != 0, result.output
        assert f"cs.po:{line}:28: {said}" in result.output and result.output.count("[po-") == 1, result.output
