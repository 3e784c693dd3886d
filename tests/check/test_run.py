"""`pnp check` (check/run.py) reports every mistake in one run: a card with an error in
its data is left out and the rest is checked (the other cards, the layouts' own keys,
the templates on the faces that can be set), and a check that cannot run says which and
why; `pnp build` reports the same set."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import edit, run

PROBLEM = re.compile(r"^(?P<where>\S+:\d+:\d+): (?:(?P<severity>warning|note): )?.*\[(?P<code>[a-z-]+)\]$")


@pytest.fixture
def game(tmp_path: Path, monkeypatch) -> Path:
    """`pnp new`'s game, with a rule that counts the moon cards, then a newcomer's four
    mistakes of four kinds."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "g").exit_code == 0
    folder = tmp_path / "g"
    edit(
        folder / "rules.yaml",
        "constraints:\n",
        "constraints:\n  - id: two-moons\n    message: Two moon cards.\n    type: card\n    where: suit == 'moon'\n    count: {equals: 2}\n",
    )
    edit(folder / "cards.yaml", "suit: moon\n  value: 3", "suit: mon\n  value: 3")  # a card's value
    edit(folder / "cards.yaml", "- id: midnight\n  title: Midnight\n", "- id: midnight\n")  # a missing field
    edit(folder / "layouts" / "card.yaml", "stroke_width: 1.2", "stroke_widht: 1.2")  # a misspelt layout key
    edit(folder / "layouts" / "card.yaml", "{{ title }}", "{{ titel }}")  # a misspelt template name
    return folder


def lines(output: str) -> list[tuple[str, str | None, str]]:
    """Each problem printed: where, its severity (None: an error) and its code."""
    return [(m["where"], m["severity"], m["code"]) for m in map(PROBLEM.match, output.splitlines()) if m]


def test_one_check_reports_the_four_mistakes_of_four_kinds(game: Path):
    result = run("check", game)
    assert result.exit_code == 1
    found = lines(result.output)
    errors = [(where, code) for where, severity, code in found if severity is None]
    assert errors == [
        ("g/cards.yaml:17:9", "card-enum"),
        ("g/cards.yaml:21:3", "card-missing-field"),
        ("g/layouts/card.yaml:15:5", "schema-unknown-key"),
        ("g/layouts/card.yaml:23:5", "template"),
    ]
    assert "'titel' is undefined (did you mean 'title'?)" in result.output
    assert "Two moon cards" not in result.output  # the rule would miss the card left out: not a mistake of its own
    notes = [where for where, severity, _ in found if severity == "note"]
    assert notes == ["g/rules.yaml:17:3", "g/game.yaml:25:3"]
    assert (
        "g/rules.yaml:17:3: note: the game's rules (constraints, deals) were not checked: 2 cards are left out for the errors in their data (dusk, midnight), "
        "and they must see every card; fix those errors first [not-checked]"
    ) in result.output
    warnings = sum(severity == "warning" for _, severity, _ in found)
    assert result.output.splitlines()[-1] == f"4 errors, {warnings} warnings; 2 checks not run (see the notes)"


def test_json_lists_the_same_problems(game: Path):
    listed = json.loads(run("check", game, "--format", "json").output)
    printed = lines(run("check", game).output)
    assert {"card-enum", "card-missing-field", "schema-unknown-key", "template", "not-checked"} <= {p["code"] for p in listed}
    assert [(f"{p['file']}:{p['line']}:{p['col']}", None if p["severity"] == "error" else p["severity"], p["code"]) for p in listed] == printed


def test_a_build_reports_the_same_set_and_writes_nothing_even_with_force(game: Path, tmp_path: Path):
    checked = lines(run("check", game).output)
    for force in ([], ["--force"]):
        result = run("build", game, "--out", tmp_path / "out", *force)
        assert result.exit_code == 1
        assert lines(result.output) == checked
        assert result.output.splitlines()[-1] == "4 errors; 2 checks not run (see the notes); nothing was written."
        assert not (tmp_path / "out").exists()


def test_the_rules_run_once_the_cards_are_fixed(game: Path):
    edit(game / "cards.yaml", "suit: mon", "suit: moon")
    edit(game / "cards.yaml", "- id: midnight\n", "- id: midnight\n  title: Midnight\n")
    edit(game / "cards.yaml", "suit: moon\n  value: 9", "suit: sun\n  value: 9")  # one moon card too few
    result = run("check", game)
    assert "[two-moons]" in result.output
    assert "not-checked" not in result.output


def test_a_deck_none_of_whose_cards_can_be_read_says_its_faces_were_not_set(game: Path):
    edit(game / "rules.yaml", "value: {type: int, min: 1, max: 9}", "value: {type: int, min: 10, max: 19}")  # every card out of range
    result = run("check", game)
    assert result.exit_code == 1
    assert "g/layouts/card.yaml:15:5: unknown key 'stroke_widht'" in result.output  # the layout's own keys, checked all the same
    assert (
        "g/game.yaml:15:12: note: the layouts of deck 'cards' were not checked against its cards (their templates, text that does not fit): "
        "none of its cards could be read, 4 cards are left out for the errors in their data (dawn, noon, dusk, midnight); fix those errors first [not-checked]"
    ) in result.output


def test_a_layout_that_cannot_be_read_says_its_faces_were_not_checked(game: Path):
    (game / "layouts" / "card.yaml").write_text("size: [63, 88]\nelements: [\n", encoding="utf-8")
    result = run("check", game)
    assert result.exit_code == 2  # the game cannot be read whole
    assert "g/cards.yaml:17:9: field 'suit' of card 'dusk' is 'mon'" in result.output  # the data is checked all the same
    assert "note: the faces of deck 'cards' were not checked (their templates, text that does not fit): its front layout could not be read" in result.output


def test_an_error_that_keeps_the_game_from_loading_says_what_was_not_checked(tmp_path: Path):
    """A deck naming a type rules.yaml lacks stops the load: the one error is not all there
    is to fix, and pnp check says what it could not look at (a layout broken too, here)."""
    assert run("new", tmp_path / "g").exit_code == 0
    edit(tmp_path / "g" / "game.yaml", "type: card ", "type: crad ")
    result = run("check", tmp_path / "g")
    assert result.exit_code == 1
    out = result.output.splitlines()
    assert "deck 'cards' has type 'crad', which rules.yaml does not declare" in out[0]
    assert out[1].endswith(
        "game.yaml: note: the cards, layouts, rules' constraints, translations, rulebooks and sheets were not checked: "
        "the errors above keep the game from loading; fix them and run pnp check again [not-checked]"
    )
    assert out[-1] == "1 error, 0 warnings; 1 check not run (see the notes)"
    listed = json.loads(run("check", tmp_path / "g", "--format", "json").output)
    assert [p["code"] for p in listed] == ["deck-type", "not-checked"]
