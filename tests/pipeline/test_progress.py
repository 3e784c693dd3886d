"""Feedback: --verbose timings, --quiet silence, and a progress bar on a terminal only."""

from __future__ import annotations

import io
import re

from conftest import edit, run

from pnp.pipeline.build import build
from pnp.pipeline.progress import BuildProgress
from pnp.project.options import BuildOptions


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def big_game(tmp_path):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    edit(tmp_path / "g" / "cards.yaml", "copies: 2", "copies: 600")  # 603 cards: worth a bar
    return tmp_path / "g"


def test_verbose_prints_how_long_each_deck_took(tmp_path):
    result = run("-v", "build", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert re.search(r"wrote \S+cities-sk-a4.pdf \(54 cards, 8 pages, \d+\.\d\d s\)", result.output)
    assert re.search(r"wrote \S+events-sk-a4.pdf \(75 cards, 18 pages, \d+\.\d\d s\)", result.output)
    assert re.search(r"built in \d+\.\d\d s", result.output)


def test_quiet_prints_nothing_but_problems(tmp_path):
    result = run("-q", "build", "--out", tmp_path)
    assert result.exit_code == 0
    assert result.output == ""


def test_a_long_build_shows_a_progress_bar_on_a_terminal(tmp_path):
    game = big_game(tmp_path)
    terminal = Terminal()
    result = build(game, BuildOptions(out=tmp_path / "out"), BuildProgress(stream=terminal))
    assert result.files[0][1] == 603
    shown = terminal.getvalue()
    assert "building" in shown and "100%" in shown


def test_no_bar_when_not_a_terminal_or_the_build_is_short(tmp_path):
    game = big_game(tmp_path)
    piped = io.StringIO()
    build(game, BuildOptions(out=tmp_path / "out"), BuildProgress(stream=piped))
    assert piped.getvalue() == ""
    edit(game / "cards.yaml", "copies: 600", "copies: 2")
    terminal = Terminal()
    build(game, BuildOptions(out=tmp_path / "out"), BuildProgress(stream=terminal))
    assert terminal.getvalue() == ""


def test_one_card_is_one_card(tmp_path):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    cards = tmp_path / "g" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text[: text.index("- id: noon")], encoding="utf-8")
    result = run("build", tmp_path / "g", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "cards-en-a4.pdf (1 card, 2 pages)" in result.output
