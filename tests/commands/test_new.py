"""`pnp new`: a game folder that checks, builds and translates at once, and never
overwrites anything."""

from __future__ import annotations

from conftest import run
from pdfread import card_boxes, reader, text


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
