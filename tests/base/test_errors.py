"""Mistakes in a game folder: each reported as file:line:col with what was expected,
all at once, with the right exit code, no traceback, and nothing written."""

from __future__ import annotations

from conftest import edit, line_of, run

from pnp.base.errors import display_path
from pnp.base.paths import LAYOUTS_DIR


def test_clean_game_checks_with_exit_0(mesta):
    result = run("check", mesta)
    assert result.exit_code == 0, result.output
    assert "no problems found" in result.output


def test_unknown_field_is_located_with_a_suggestion(mesta):
    events = mesta / "events.yaml"
    edit(events, "  text: Všetci hráči strácajú všetky rímske mestá.", "  txt: Všetci hráči strácajú všetky rímske mestá.")
    line = line_of(events, "  txt: Všetci")
    result = run("build", mesta, "--out", mesta / "out")
    assert result.exit_code == 1
    assert f"events.yaml:{line}:3: unknown field 'txt' on card 'julius-caesar' (did you mean 'text'?)" in result.output
    assert "card 'julius-caesar' has no 'text'" in result.output
    assert "Traceback" not in result.output
    assert not (mesta / "out").exists()


def test_all_mistakes_are_reported_at_once(mesta):
    cities = mesta / "cities.yaml"
    edit(cities, "  main_points: 2\n", "  main_points: two\n")
    edit(cities, "  empire: kelti\n", "  empire: kelts\n")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert "field 'main_points' of card" in result.output and "expected a whole number" in result.output
    assert "is 'kelts', which is not in 'empire' (did you mean 'kelti'?)" in result.output


def test_yaml_syntax_error_is_located_and_exits_2(mesta):
    events = mesta / "events.yaml"
    edit(events, "  title: Leonidas\n", "  title: [Leonidas\n")
    result = run("check", mesta)
    assert result.exit_code == 2
    assert "events.yaml:" in result.output and "YAML syntax error" in result.output
    assert "Traceback" not in result.output


def test_unknown_layout_is_located_in_game_yaml(mesta):
    game = mesta / "game.yaml"
    edit(game, "front: mesta/event\n", "front: mesta/evnt\n")
    line = line_of(game, "mesta/evnt")
    result = run("build", mesta, "--out", mesta / "out")
    assert result.exit_code == 1
    assert f"game.yaml:{line}:12: layout 'mesta/evnt' does not exist (did you mean 'mesta/event'?)" in result.output


def test_text_that_does_not_fit_names_card_and_field(mesta):
    events = mesta / "events.yaml"
    edit(events, "  text: Všetci hráči strácajú všetky rímske mestá.", "  text: " + "Všetci hráči strácajú všetky rímske mestá. " * 25)
    line = line_of(events, "  text: Všetci hráči strácajú všetky rímske mestá. Všetci")
    result = run("check", mesta)
    assert result.exit_code == 1
    layout = display_path(LAYOUTS_DIR / "mesta" / "event.yaml")  # bundled: shown as the user's shell would reach it
    assert (
        f"events.yaml:{line}:9: text of card 'julius-caesar' does not fit its 46.0 x 29.5 mm box even at 8 pt (it needs 98.2 mm of height); expected a shorter text, or a larger box or smaller min_size in layout 'mesta/event' ({layout}:110:5) [text-overflow]"
        in result.output
    )


def test_a_character_missing_from_the_font_is_an_error(mesta):
    events = mesta / "events.yaml"
    edit(events, "  title: Leonidas\n", "  title: Leonidas 漢\n")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert "title of card 'leonidas' uses '漢' (U+6F22), missing from font 'serif-bold'" in result.output


def test_an_unknown_inline_symbol_is_an_error(mesta):
    events = mesta / "events.yaml"
    edit(events, "  text: Všetci hráči strácajú všetky rímske mestá.", "  text: 'Všetci hráči strácajú všetky :armda: mestá.'")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert "text of card 'julius-caesar' uses symbol ':armda:', which does not exist" in result.output


def test_unknown_key_in_a_layout_is_located(mesta):
    layouts = mesta / "layouts" / "mesta"
    layouts.mkdir(parents=True)
    (layouts / "event.yaml").write_text(
        "extends: mesta/base\nsize: [63, 88]\nelements:\n  - text: '{{ title }}'\n    box: [5, 5, 50, 10]\n    colour: '#ff0000'\n", encoding="utf-8"
    )
    result = run("check", mesta)
    assert result.exit_code == 1
    assert "event.yaml:6:5: unknown key 'colour' in text element (did you mean 'color'?)" in result.output


def test_a_failed_build_keeps_the_last_good_pdf(mesta, tmp_path):
    out = tmp_path / "out"
    assert run("build", mesta, "--out", out).exit_code == 0
    good = (out / "mesta" / "events-sk-a4.pdf").read_bytes()
    written = sorted(p.name for p in (out / "mesta").iterdir())
    edit(mesta / "events.yaml", "  title: Leonidas\n", "  title: [Leonidas\n")
    assert run("build", mesta, "--out", out).exit_code == 2
    assert (out / "mesta" / "events-sk-a4.pdf").read_bytes() == good
    assert sorted(p.name for p in (out / "mesta").iterdir()) == written
    assert {"aids-sk-a4.pdf", "cities-sk-a4.pdf", "events-sk-a4.pdf"} <= set(written)


def test_force_builds_despite_errors(mesta, tmp_path):
    edit(mesta / "events.yaml", "  title: Leonidas\n", "  title: Leonidas 漢\n")
    result = run("build", mesta, "--force", "--out", tmp_path)
    assert result.exit_code == 0
    assert "missing from font" in result.output
    assert (tmp_path / "mesta" / "events-sk-a4.pdf").is_file()


def test_not_a_game_folder(tmp_path):
    result = run("build", tmp_path)
    assert result.exit_code == 2
    assert "no game.yaml in this folder" in result.output


def test_a_language_that_is_not_a_code_is_located(mesta):
    # it becomes part of every output file name, so pattern characters must not get through
    game = mesta / "game.yaml"
    edit(game, "language: sk\n", "language: s**k\n")
    result = run("build", mesta, "--out", mesta / "out")
    assert result.exit_code == 1
    assert (
        f"game.yaml:{line_of(game, 'language: s**k')}:11: language 's**k' is not a language code that pnp knows (its plural rule comes from the CLDR); expected one like 'sk', 'en' or 'pt_BR'"
        in result.output
    )
    assert not (mesta / "out").exists()
