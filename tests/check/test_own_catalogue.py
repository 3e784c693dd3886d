"""A build or check in a language pnp has no words of its own in (pnp/i18n/own/LANG.po)
warns once, at game.yaml's `language` line (or the translation's catalogue), that what
pnp prints itself will be English, and how to give those words."""

from __future__ import annotations

from conftest import edit, make_small_game, run

from pnp.i18n.own import SOURCE, placeholders
from pnp.templates.plurals import Plurals

WARNING = (
    "warning: pnp has no words of its own in 'ja': what it prints itself (the ruler's caption, the sheets' and folds' labels, the assembly pages,"
    " a rulebook's contents and index, the PDFs' subjects) will be in English; expected pnp.ID strings in game.yaml"
    " (pnp/i18n/own.py lists the ids) or a catalogue of pnp's words, pnp/i18n/own/ja.po [own-words-missing]"
)


def test_a_game_in_a_language_pnp_has_no_words_in_is_warned_once_at_its_language_line(tmp_path):
    game = make_small_game(tmp_path / "hra")
    edit(game / "game.yaml", "language: sk", "language: ja")
    for command in (["check"], ["build", "--out", tmp_path / "out"]):
        result = run(*command, game)
        assert result.exit_code == 0, result.output
        assert f"game.yaml:2:11: {WARNING}" in result.output
        assert result.output.count("[own-words-missing]") == 1


def test_a_language_with_pnps_words_or_a_game_that_gives_them_all_is_not_warned(tmp_path):
    game = make_small_game(tmp_path / "hra")
    result = run("check", game)
    assert result.exit_code == 0 and "own-words-missing" not in result.output, result.output
    edit(game / "game.yaml", "language: sk", "language: ja")
    given = "".join(f"  pnp.{key}: '{replacement(key)}'\n" for key in SOURCE)
    edit(game / "game.yaml", "strings:\n", "strings:\n" + given)
    result = run("check", game)
    assert result.exit_code == 0 and "own-words-missing" not in result.output, result.output


def replacement(key: str) -> str:
    """A game's replacement of pnp's word `key` that keeps its values, in each plural form."""
    source = SOURCE[key]
    values = " ".join(sorted(placeholders(source[-1] if isinstance(source, tuple) else source)))
    text = "x " + " ".join(f"{{{name}}}" for name in values.split())
    return "|".join([text] * Plurals("ja").count) if isinstance(source, tuple) else text


def test_a_translation_into_a_language_pnp_has_no_words_in_is_warned_at_its_catalogue(tmp_path):
    game = make_small_game(tmp_path / "hra")
    assert run("i18n", "update", game, "--add", "ja").exit_code == 0
    result = run("check", game, "--lang", "ja", "--allow-untranslated")
    assert f"locale/ja.po:1:1: {WARNING}" in result.output, result.output
