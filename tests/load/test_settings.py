"""The user's config file and PNP_* variables: the sheet options of their printer, taken
command line > environment > config file > built-in default (pnp/load/settings.py and
the options of pnp/cli.py). Every test names its own config file (PNP_CONFIG, in
tmp_path) and clears the PNP_* variables: the developer's own never count."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs
import pytest
from conftest import edit, line_of, make_small_game, run
from pdfread import reader

from pnp.base.paths import LAYOUTS_DIR
from pnp.impose.paper import paper
from pnp.load.settings import config_path


@pytest.fixture
def config(tmp_path: Path, monkeypatch) -> Path:
    """A config file of this test's own (not yet written), and no PNP_* variable set."""
    for name in [n for n in os.environ if n.startswith("PNP_")]:
        monkeypatch.delenv(name)
    path = tmp_path / "settings" / "config.yaml"
    path.parent.mkdir()
    monkeypatch.setenv("PNP_CONFIG", str(path))
    return path


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return make_small_game(tmp_path_factory.mktemp("game") / "hra")


def build(game: Path, out: Path, *args: str):
    result = run("-v", "build", game, "--out", out, *args)
    assert result.exit_code == 0, result.output
    return result


def sources(output: str) -> list[str]:
    """The lines of `build --verbose` saying where a sheet option came from."""
    return [line for line in output.splitlines() if "(from " in line]


def page_size(out: Path, paper: str) -> tuple[float, float]:
    box = reader(out / "hra" / f"cards-sk-{paper}.pdf").pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def size_of(name: str) -> tuple[float, float]:
    width, height = paper(name).size()
    return round(width), round(height)


def test_without_a_config_file_a_build_is_as_before(config, game, tmp_path):
    assert not config.exists()
    result = build(game, tmp_path / "out")
    assert sources(result.output) == []
    assert page_size(tmp_path / "out", "a4") == size_of("a4")


def test_an_empty_config_file_changes_nothing(config, game, tmp_path):
    config.write_text("# my printer\n", encoding="utf-8")
    result = build(game, tmp_path / "out")
    assert sources(result.output) == []


def test_precedence_command_line_over_environment_over_config_over_built_in(config, game, tmp_path, monkeypatch):
    config.write_text("paper: letter\nback_offset: 0.4,-0.8\nflip: short\n", encoding="utf-8")
    result = build(game, tmp_path / "config")
    assert sources(result.output) == [
        f"paper: letter (from {config})",
        f"flip: short (from {config})",
        f"back_offset: 0.4,-0.8 (from {config})",
    ]
    assert page_size(tmp_path / "config", "letter") == size_of("letter")

    monkeypatch.setenv("PNP_PAPER", "a3")
    monkeypatch.setenv("PNP_BACK_OFFSET", "1,2")
    result = build(game, tmp_path / "env")
    assert sources(result.output) == [
        "paper: a3 (from PNP_PAPER)",
        f"flip: short (from {config})",
        "back_offset: 1,2 (from PNP_BACK_OFFSET)",
    ]
    assert page_size(tmp_path / "env", "a3") == size_of("a3")

    result = build(game, tmp_path / "cli", "--paper", "legal", "--back-offset", "-0.5,0")
    assert sources(result.output) == [
        "paper: legal (from the command line)",
        f"flip: short (from {config})",
        "back_offset: -0.5,0 (from the command line)",
    ]
    assert page_size(tmp_path / "cli", "legal") == size_of("legal")


def test_the_config_sets_check_and_calibrate_too(config, game, tmp_path):
    config.write_text("paper: letter\nflip: short\n", encoding="utf-8")
    result = run("calibrate", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "calibration-letter-short.pdf").exists()
    assert f"save it as back_offset: X,Y in {config} (or set PNP_BACK_OFFSET=X,Y)" in result.output
    assert run("check", game).exit_code == 0


def test_a_list_of_two_numbers_is_an_offset_too(config, game, tmp_path):
    config.write_text("back-offset: [0.5, -1]\n", encoding="utf-8")
    assert sources(build(game, tmp_path / "out").output) == [f"back_offset: 0.5,-1 (from {config})"]


def test_a_bad_value_and_an_unknown_key_are_located_errors(config, game, tmp_path, monkeypatch):
    monkeypatch.chdir(config.parent)
    config.write_text("paper: leter\nback_offst: 0.4,-0.8\nbleed: 9\nback_offset: 0.4\ncutter: yes\n", encoding="utf-8")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "config.yaml:1:8: 'paper' is 'leter'; expected one of: a4, letter, a3, a3+, legal, a5, b4, b5, half-letter, tabloid, ansi-c, arch-a, arch-b, arch-c,"
        " or WIDTHxHEIGHT in mm or in, portrait, each from 50 to 2000 mm (e.g. 300x450, 11x17in) (did you mean 'letter'?) [config-value]",
        "config.yaml:2:1: unknown key 'back_offst' in the config file (did you mean 'back_offset'?);"
        " expected one of: paper, sides, flip, back_offset, bleed, outer_bleed, back_bleed, gap, overlap, cutter, corner_radius, mark_inset [config-unknown-key]",
        "config.yaml:3:8: 'bleed' is 9; expected a number of mm from 0 to 6 [config-value]",
        "config.yaml:4:14: 'back_offset' is 0.4; expected X,Y in mm, at most 20 each way, e.g. 0.5,-1 [config-value]",
        "config.yaml:5:9: 'cutter' is true; expected one of: silhouette, cricut [config-value]",
        "5 errors; nothing was written.",
    ]
    assert not (tmp_path / "out").exists()


def test_a_config_file_that_is_not_a_mapping(config, game, tmp_path, monkeypatch):
    monkeypatch.chdir(config.parent)
    config.write_text("- paper: letter\n", encoding="utf-8")
    result = run("check", game)
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == (
        "config.yaml:1:1: the config file is not a mapping; expected keys such as paper, sides, flip, back_offset, bleed, outer_bleed, back_bleed, gap, overlap, cutter, corner_radius, mark_inset [config-type]"
    )


def test_commands_without_sheet_options_do_not_read_the_config(config, game):
    config.write_text("paper: leter\n", encoding="utf-8")
    assert run("list", game).exit_code == 0


def test_the_config_file_is_in_the_platforms_config_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("PNP_CONFIG")
    monkeypatch.setattr(platformdirs, "user_config_dir", lambda name, appauthor: str(tmp_path / name))
    assert config_path() == tmp_path / "pnp" / "config.yaml"


@pytest.fixture
def letter_game(tmp_path: Path) -> Path:
    """A game whose designer made it for Letter with 2 mm bleed (game.yaml's `sheet:`)."""
    folder = make_small_game(tmp_path / "hra")
    with (folder / "game.yaml").open("a", encoding="utf-8") as file:
        file.write("sheet:\n  paper: letter\n  bleed: 2\n")
    return folder


def test_the_games_defaults_come_below_the_players_own(config, letter_game, tmp_path, monkeypatch):
    result = build(letter_game, tmp_path / "game")
    game_file = letter_game / "game.yaml"
    assert sources(result.output) == [f"paper: letter (from {game_file})", f"bleed: 2 (from {game_file})"]
    assert page_size(tmp_path / "game", "letter") == size_of("letter")

    config.write_text("paper: a3\n", encoding="utf-8")  # the player's printer takes A3
    result = build(letter_game, tmp_path / "config")
    assert sources(result.output) == [f"paper: a3 (from {config})", f"bleed: 2 (from {game_file})"]
    assert page_size(tmp_path / "config", "a3") == size_of("a3")

    monkeypatch.setenv("PNP_BLEED", "0")
    result = build(letter_game, tmp_path / "env", "--paper", "legal")
    assert sources(result.output) == ["paper: legal (from the command line)", "bleed: 0 (from PNP_BLEED)"]
    assert page_size(tmp_path / "env", "legal") == size_of("legal")


def test_the_games_defaults_apply_to_check(config, tmp_path):
    """pnp check reports what a build on the game's own sheets would: a 130 x 190 mm card
    folds on A4 without bleed, but not with the game's 6 mm."""
    folder = make_small_game(tmp_path / "hra")
    (folder / "layouts" / "big").mkdir(parents=True)
    for name in ("card", "back"):
        text = (LAYOUTS_DIR / "basic" / f"{name}.yaml").read_text(encoding="utf-8")
        (folder / "layouts" / "big" / f"{name}.yaml").write_text(text.replace("size: [63, 88]", "size: [130, 190]"), encoding="utf-8")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("basic/", "big/") + "sheet:\n  sides: fold\n", encoding="utf-8")
    assert "no problems found" in run("check", folder).output
    with game_yaml.open("a", encoding="utf-8") as file:
        file.write("  bleed: 6\n")
    result = run("check", folder)
    assert "does not fit half a sheet of A4" in result.output and "[sheet-fold-fit]" in result.output
    assert "no problems found" in run("check", folder, "--bleed", "0").output


def test_a_printer_setting_in_game_yaml_is_a_located_error(config, letter_game, tmp_path):
    with (letter_game / "game.yaml").open("a", encoding="utf-8") as file:
        file.write("  flip: short\n  papr: a3\n  gap: lots\n")
    result = run("build", letter_game, "--out", tmp_path / "out")
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if "game.yaml:" in line]
    assert len(lines) == 3, result.output
    assert lines[0].endswith(
        f"'flip' is the player's printer setting, not the game's; expected it in the player's config file ({config}) or on the command line [game-sheet-players]"
    )
    assert (
        "unknown key 'papr' in game.yaml's sheet (did you mean 'paper'?); expected one of: paper, sides, bleed, outer_bleed, back_bleed, gap, overlap, corner_radius"
        in lines[1]
    )
    assert "'gap' is 'lots'; expected a number of mm from 0 to 20 [config-value]" in lines[2]
    assert not (tmp_path / "out").exists()


def test_a_custom_paper_in_the_config_and_in_game_yaml(config, letter_game, tmp_path, monkeypatch):
    """Any size WIDTHxHEIGHT in mm, wherever a paper is named; the files are named by it."""
    config.write_text("paper: 300X450\n", encoding="utf-8")
    game_file = letter_game / "game.yaml"
    result = build(letter_game, tmp_path / "config")
    assert sources(result.output)[0] == f"paper: 300x450 (from {config})"
    assert page_size(tmp_path / "config", "300x450") == (850, 1276)

    config.write_text("", encoding="utf-8")
    edit(game_file, "paper: letter", "paper: 11x17")
    monkeypatch.chdir(letter_game)
    result = run("build", ".", "--out", tmp_path / "bad")
    assert result.exit_code == 2
    line = line_of(game_file, "11x17")
    assert (
        result.output.splitlines()[0]
        == f"game.yaml:{line}:10: 'paper' is '11x17'; expected a custom paper from 50 to 2000 mm on each side (did you mean '11x17in'?) [config-value]"
    )
    edit(game_file, "paper: 11x17", "paper: ledger")  # tabloid by another name: the files are named tabloid
    build(letter_game, tmp_path / "ledger")
    assert page_size(tmp_path / "ledger", "tabloid") == (792, 1224)


def test_outer_and_back_bleed_are_set_wherever_bleed_is(config, tmp_path, monkeypatch):
    """--outer-bleed and --back-bleed from the command line, a PNP_* variable, the config
    file and game.yaml's sheet: draw the same sheets; a bad value is located."""
    folder = make_small_game(tmp_path / "hra")
    cli = build(folder, tmp_path / "cli", "--outer-bleed", "3", "--back-bleed", "1")
    assert sources(cli.output) == ["outer_bleed: 3 (from the command line)", "back_bleed: 1 (from the command line)"]
    expected = (tmp_path / "cli" / "hra" / "cards-sk-a4.pdf").read_bytes()
    build(folder, tmp_path / "plain")
    assert (tmp_path / "plain" / "hra" / "cards-sk-a4.pdf").read_bytes() != expected

    monkeypatch.setenv("PNP_OUTER_BLEED", "3")
    monkeypatch.setenv("PNP_BACK_BLEED", "1")
    env = build(folder, tmp_path / "env")
    assert sources(env.output) == ["outer_bleed: 3 (from PNP_OUTER_BLEED)", "back_bleed: 1 (from PNP_BACK_BLEED)"]
    assert (tmp_path / "env" / "hra" / "cards-sk-a4.pdf").read_bytes() == expected
    monkeypatch.delenv("PNP_OUTER_BLEED")
    monkeypatch.delenv("PNP_BACK_BLEED")

    config.write_text("outer-bleed: 3\nback_bleed: 1\n", encoding="utf-8")
    assert sources(build(folder, tmp_path / "config").output) == [f"outer_bleed: 3 (from {config})", f"back_bleed: 1 (from {config})"]
    assert (tmp_path / "config" / "hra" / "cards-sk-a4.pdf").read_bytes() == expected
    config.unlink()

    game_file = folder / "game.yaml"
    with game_file.open("a", encoding="utf-8") as file:
        file.write("sheet:\n  outer_bleed: 3\n  back_bleed: 1\n")
    assert sources(build(folder, tmp_path / "game").output) == [f"outer_bleed: 3 (from {game_file})", f"back_bleed: 1 (from {game_file})"]
    assert (tmp_path / "game" / "hra" / "cards-sk-a4.pdf").read_bytes() == expected

    monkeypatch.chdir(tmp_path)
    edit(game_file, "  outer_bleed: 3", "  outer_bleed: 12")
    result = run("build", folder, "--out", tmp_path / "bad")
    assert result.exit_code == 2
    line = line_of(game_file, "outer_bleed: 12")
    assert f"hra/game.yaml:{line}:16: 'outer_bleed' is 12; expected a number of mm from 0 to 10 [config-value]" in result.output
