"""`pnp new`: a game folder that checks, builds and translates at once, and never
overwrites anything."""

from __future__ import annotations

import pytest
from conftest import run
from pdfread import card_boxes, reader, text

from pnp.exports.shops import SHOPS


def test_new_game_checks_and_builds_at_once(tmp_path):
    result = run("new", "mygame", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    game = tmp_path / "mygame"
    for name in ("game.yaml", "rules.yaml", "cards.yaml", "layouts/card.yaml", "layouts/back.yaml", "rules.md", "locale/messages.pot", "locale/de.po"):
        assert (game / name).is_file(), name
    checked = run("check", game)
    assert checked.exit_code == 0, checked.output
    assert "0 errors, 4 warnings" in checked.output  # only what pnp new left to fill in
    assert checked.output.count("[new-placeholder]") == 4
    built = run("build", game, "--out", tmp_path / "out")
    assert built.exit_code == 0, built.output
    pdf = tmp_path / "out" / "mygame" / "cards-en-a4.pdf"
    assert len(reader(pdf).pages) == 2  # 5 cards: one sheet of fronts, one of backs
    assert len(card_boxes(reader(pdf).pages[0])) == 5
    words = text(pdf)
    assert "Dawn" in words and "Midnight" in words and "Mygame" in words


def test_new_game_has_an_empty_catalogue_for_a_second_language(tmp_path):
    assert run("new", "g", "--out", tmp_path, "--lang", "sk", "--translation", "cs").exit_code == 0
    status = run("i18n", "status", tmp_path / "g")
    assert status.exit_code == 0, status.output
    assert "cs: 0/" in status.output and "missing: dawn.title" in status.output
    assert "Language: cs" in (tmp_path / "g" / "locale" / "cs.po").read_text(encoding="utf-8")
    assert "language: sk" in (tmp_path / "g" / "game.yaml").read_text(encoding="utf-8")
    fallback = run("build", tmp_path / "g", "--lang", "cs", "--allow-untranslated", "--out", tmp_path / "out")
    assert fallback.exit_code == 0, fallback.output
    assert (tmp_path / "out" / "g" / "cards-cs-a4.pdf").is_file()


def test_new_refuses_an_existing_folder_and_leaves_it_alone(tmp_path):
    game = tmp_path / "mygame"
    game.mkdir()
    (game / "game.yaml").write_text("mine", encoding="utf-8")
    result = run("new", "mygame", "--out", tmp_path)
    assert result.exit_code == 1
    assert "mygame: 'mygame'" not in result.output  # located at the folder, said once
    assert f"{game}: '{game}' already exists" in result.output
    assert "[new-exists]" in result.output and "Traceback" not in result.output
    assert (game / "game.yaml").read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mygame"]  # no staging folder left behind


def test_new_fills_an_empty_folder(tmp_path):
    (tmp_path / "empty").mkdir()
    assert run("new", tmp_path / "empty").exit_code == 0
    assert run("check", tmp_path / "empty").exit_code == 0


def test_titles_with_yaml_characters_survive(tmp_path):
    title = 'Quote "this": #1 & co'
    assert run("new", "q", "--out", tmp_path, "--title", title, "--translation", "none").exit_code == 0
    assert not (tmp_path / "q" / "locale").exists()
    assert run("build", tmp_path / "q", "--out", tmp_path / "out").exit_code == 0
    assert title in text(tmp_path / "out" / "q" / "cards-en-a4.pdf")


def test_new_rejects_a_language_that_is_not_a_code(tmp_path):
    result = run("new", "g", "--out", tmp_path, "--lang", "English")
    assert result.exit_code == 1
    assert "'English' is not a language code" in result.output
    assert not (tmp_path / "g").exists()


def test_the_readme_tutorial_works_as_written(tmp_path, monkeypatch):
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    tutorial = readme.split("## Your own game")[1].split("\n## ")[0]
    monkeypatch.chdir(tmp_path)
    assert run("new", "mygame").exit_code == 0
    assert "[new-placeholder]" in run("check", "mygame").output
    game = tmp_path / "mygame"
    for path, old, new in (
        ("game.yaml", "author: Your Name", "author: Ada"),
        ("game.yaml", "CHOOSE-A-LICENCE", "CC BY 4.0"),
        ("game.yaml", "© Your Name", "© Ada"),
        ("rules.md", "Write how the game ends and who wins.", "The game ends when the deck runs out."),
    ):
        (game / path).write_text((game / path).read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    assert "no problems found" in run("check", "mygame").output
    cards = tmp_path / "mygame" / "cards.yaml"
    text_before = cards.read_text(encoding="utf-8")
    cards.write_text(text_before.replace("suit: moon\n  value: 3", "suit: mon\n  value: 3"), encoding="utf-8")
    error = run("check", "mygame").output.splitlines()[0]
    assert error in tutorial  # the message the README shows is the one a user gets
    cards.write_text(text_before, encoding="utf-8")
    assert "wrote output/mygame/cards-en-a4.pdf" in run("build", "mygame").output
    assert (tmp_path / "output" / "mygame" / "cards-en-a4.pdf").is_file()
    assert run("list", "mygame").exit_code == 0
    assert run("export", "png", "mygame", "--dpi", "72").exit_code == 0
    assert "Objects > Components > Custom > Deck" in run("export", "tts", "mygame", "--dpi", "40").output
    assert run("i18n", "update", "mygame").exit_code == 0
    assert run("build", "mygame", "--lang", "de", "--allow-untranslated").exit_code == 0


def test_a_german_game_gets_an_english_catalogue(tmp_path):
    assert run("new", "spiel", "--out", tmp_path, "--lang", "de").exit_code == 0
    assert (tmp_path / "spiel" / "locale" / "en.po").is_file()
    assert run("check", tmp_path / "spiel").exit_code == 0


@pytest.mark.parametrize(
    ("lang", "card", "says", "heading"),
    [
        ("en", "Dawn", "Draw a card.", "Set-up"),
        ("sk", "Úsvit", "Potiahni si kartu.", "Príprava"),
        ("cs", "Úsvit", "Dober si kartu.", "Příprava"),
        ("de", "Morgenrot", "Ziehe eine Karte.", "Vorbereitung"),
        ("pl", "Świt", "Dobierz kartę.", "Przygotowanie"),
        ("fr", "Aube", "Piochez une carte.", "Mise en place"),
    ],
)
def test_new_writes_its_cards_and_rulebook_in_the_language_asked(tmp_path, lang, card, says, heading):
    result = run("new", "g", "--out", tmp_path, "--lang", lang)
    assert result.exit_code == 0, result.output
    assert "no starter text" not in result.output
    game = tmp_path / "g"
    assert f"language: {lang} " in (game / "game.yaml").read_text(encoding="utf-8")
    checked = run("check", game)
    assert "0 errors, 4 warnings" in checked.output, checked.output  # what is left to fill in, in that language too
    assert checked.output.count("[new-placeholder]") == 4
    built = run("build", game, "--out", tmp_path / "out")
    assert built.exit_code == 0, built.output
    words = " ".join(text(tmp_path / "out" / "g" / f"cards-{lang}-a4.pdf").split())
    assert card in words and says in words
    assert lang == "en" or "Dawn" not in words and "Draw a card" not in words
    book = text(tmp_path / "out" / "g" / f"rules-{lang}-a4.pdf")
    assert heading in book and "5 " in book


def test_a_language_without_starter_text_gets_english_declared_as_english_and_a_catalogue(tmp_path):
    result = run("new", "g", "--out", tmp_path, "--lang", "it")
    assert result.exit_code == 0, result.output
    assert (
        "note: pnp has no starter text in 'it': the texts are English and game.yaml says 'language: en'; "
        "translate them in locale/it.po (pnp build --lang it), or write them in 'it' yourself and set 'language: it'"
    ) in result.output
    game = tmp_path / "g"
    assert "language: en " in (game / "game.yaml").read_text(encoding="utf-8")
    assert (game / "locale" / "it.po").is_file() and (game / "locale" / "de.po").is_file()
    built = run("build", game, "--lang", "it", "--allow-untranslated", "--out", tmp_path / "out")
    assert built.exit_code == 0, built.output


def test_a_new_catalogue_is_headed_from_game_yaml_the_same_every_time(tmp_path):
    for folder in ("a", "b"):
        assert run("new", "mygame", "--out", tmp_path / folder, "--title", "Star Run").exit_code == 0
    po = (tmp_path / "a" / "mygame" / "locale" / "de.po").read_text(encoding="utf-8")
    assert po.startswith('# German translation of Star Run.\n# The game: Your Name, CHOOSE-A-LICENCE.\nmsgid ""\n')
    for default in ("ORGANIZATION", "FIRST AUTHOR", "pnp project"):
        assert default not in po
    for name in ("de.po", "messages.pot"):
        assert (tmp_path / "a" / "mygame" / "locale" / name).read_bytes() == (tmp_path / "b" / "mygame" / "locale" / name).read_bytes()


@pytest.mark.parametrize("profile", sorted(SHOPS))
def test_the_starter_game_fills_every_shops_bleed(tmp_path, profile):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    result = run("export", "shop", tmp_path / "g", "--profile", profile, "--no-pdfx", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "[shop-bleed]" not in result.output


def test_new_clears_what_a_killed_new_left_beside_it(tmp_path):
    """A `pnp new` killed while writing leaves its staged folder; the next `pnp new` there
    removes it (its process is gone) and keeps a running one's and the user's files."""
    left = tmp_path / ".old.999999999.abcd_123.tmp"  # no process has this id
    (left / "layouts").mkdir(parents=True)
    (left / "game.yaml").write_text("title: Old\n")
    mine = tmp_path / ".notes.txt"
    mine.write_text("mine")
    assert run("new", tmp_path / "fresh").exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [".notes.txt", "fresh"]
