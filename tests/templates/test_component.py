"""`component(deck, id)`: one component of a deck by its id, in layouts and rulebooks, and
a misspelt deck or id reported where it is written, with a did-you-mean."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import edit, line_of, run
from pdfread import text

AGES = Path(__file__).resolve().parents[2] / "cards" / "ages"


def ages(tmp_path: Path) -> Path:
    game = tmp_path / "ages"
    shutil.copytree(AGES, game)
    return game


def test_a_layout_reads_another_decks_component_by_id(tmp_path):
    out = tmp_path / "out"
    result = run("build", AGES, "--out", out, "--deck", "nations")
    assert result.exit_code == 0, result.output
    # the nation boards print the starting card 'bronze-tools' (starting.yaml) and the food
    # of counter bank 'yellow-1' (banks.yaml), both looked up with component()
    printed = text(out / "ages" / "nations-en-a4.pdf")
    assert "Bronze Tools" in printed and "-1" in printed


def test_an_unknown_component_id_is_an_error_at_the_element_with_a_suggestion(tmp_path):
    game = ages(tmp_path)
    layout = game / "layouts" / "nation.yaml"
    edit(layout, "component('banks', 'yellow-1').slots", "component('banks', 'yelow-1').slots")
    line = line_of(layout, "yelow-1") - 1  # the element's line: its `- track:`
    result = run("check", game)
    assert result.exit_code == 1
    assert f"layouts/nation.yaml:{line}:5: card 'nation-teal' (front, layout 'nation'): cannot fill in" in result.output
    assert "deck 'banks' has no component 'yelow-1' (did you mean 'yellow-1'?); expected one of: yellow-1, yellow-2" in result.output
    assert "Traceback" not in result.output


def test_an_unknown_deck_is_an_error_naming_the_decks(tmp_path):
    game = ages(tmp_path)
    edit(game / "layouts" / "civil.yaml", "component('civil', replaces)", "component('civic', replaces)")
    result = run("check", game)
    assert result.exit_code == 1
    assert "there is no deck 'civic' (did you mean 'civil'?); expected one of: civil, military" in result.output


def test_a_rulebook_reads_a_component_by_id(mesta, tmp_path):
    page = mesta / "rules" / "04-mesta.md"
    edit(page, "{% plural cities | length %}", "Mesto {{ component('cities', 'rim').name }} je hlavné. {% plural cities | length %}")
    out = tmp_path / "out"
    result = run("build", mesta, "--out", out)
    assert result.exit_code == 0, result.output
    assert "Mesto Rím je hlavné." in text(out / "mesta" / "rules-sk-a4.pdf")
    edit(page, "component('cities', 'rim')", "component('cities', 'rimm')")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert f"rules/04-mesta.md:{line_of(page, 'rimm')}" in result.output
    assert "deck 'cities' has no component 'rimm' (did you mean 'rim'?)" in result.output
