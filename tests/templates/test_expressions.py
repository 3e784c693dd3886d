"""One expression environment (pnp/expressions.py): a misspelt name is an error at its
line, with the name meant, wherever it is written (rules, deals, rulebooks, layouts), and
a name means the same thing everywhere."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import edit, line_of, make_small_game, run
from pdfread import text

from pnp.base.paths import DEFAULT_GAME
from pnp.load.game import load_game
from pnp.load.model import COMPONENT_NAMES, PROVIDED_NAMES
from pnp.templates.expressions import Names, evaluate

AGES = DEFAULT_GAME.parent / "ages"
EXPECTED = "expected a field of the component or a game value [template]"


@pytest.fixture
def ages(tmp_path: Path) -> Path:
    target = tmp_path / "ages"
    shutil.copytree(AGES, target)
    return target


def constraint_above(path: Path, line: int) -> str:
    """The id of the constraint a line of rules.yaml belongs to."""
    lines = path.read_text(encoding="utf-8").splitlines()[:line]
    return next(row.split("id:")[1].strip() for row in reversed(lines) if row.strip().startswith("- id:"))


def test_a_misspelt_name_in_where_is_an_error_once_at_its_line(ages):
    rules = ages / "rules.yaml"
    edit(rules, "where: kind == 'government'\n", "where: kidn == 'government'\n")
    line = line_of(rules, "kidn")
    result = run("check", ages)
    assert result.exit_code == 1, result.output
    message = f"rules.yaml:{line}:12: constraint '{constraint_above(rules, line)}': where: 'kidn' is undefined (did you mean 'kind'?); {EXPECTED}"
    assert message in result.output
    assert result.output.count("'kidn'") == 1  # once for the constraint, not once per card


def test_a_misspelt_name_alone_is_not_taken_for_false(ages):
    rules = ages / "rules.yaml"
    edit(rules, "where: branch\n", "where: brnach\n")
    line = line_of(rules, "brnach")
    result = run("check", ages)
    assert result.exit_code == 1, result.output
    assert f"rules.yaml:{line}:12: constraint '{constraint_above(rules, line)}': where: 'brnach' is undefined (did you mean 'branch'?)" in result.output


def test_a_misspelt_name_in_expect_is_an_error_at_its_line(ages):
    rules = ages / "rules.yaml"
    edit(rules, "expect: civil_actions and", "expect: civil_actoins and")
    line = line_of(rules, "civil_actoins")
    result = run("check", ages)
    assert result.exit_code == 1, result.output
    expected = (
        f"rules.yaml:{line}:13: constraint '{constraint_above(rules, line)}': expect: 'civil_actoins' is undefined (did you mean 'civil_actions'?); {EXPECTED}"
    )
    assert expected in result.output


def test_a_misspelt_name_in_a_message_is_an_error_at_its_line(ages):
    rules = ages / "rules.yaml"
    edit(rules, "expect: costs == [1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]", "expect: costs == [1]")
    line = line_of(rules, "expect: costs == [1]")
    message_line = next(n for n in range(line, 0, -1) if "message:" in rules.read_text(encoding="utf-8").splitlines()[n - 1])
    text_of = rules.read_text(encoding="utf-8").splitlines()[message_line - 1]
    edit(rules, text_of, text_of.split("message:")[0] + "message: Costs are wrong on {{ nmae }}.")
    result = run("check", ages)
    assert result.exit_code == 1, result.output
    assert f"rules.yaml:{message_line}:14: constraint '{constraint_above(rules, line)}': message: 'nmae' is undefined (did you mean 'name'?)" in result.output
    assert "Costs are wrong on {{ nmae }}." in result.output  # the violation is still reported


def test_a_field_only_other_types_have_is_none_not_an_error(ages):
    """ages selects `components` by a field only civil cards have; a rule without `type:`
    may name a field some types lack."""
    rules = ages / "rules.yaml"
    rules.write_text(
        rules.read_text(encoding="utf-8") + "  - id: governments\n    message: Governments.\n    where: kind == 'government'\n    count: {min: 1}\n",
        encoding="utf-8",
    )
    result = run("check", ages)
    assert result.exit_code == 0, result.output


def test_a_misspelt_name_in_a_deals_include_is_an_error_at_its_line(mesta, tmp_path):
    edit(mesta / "game.yaml", "(empire in deal.empires) if empire else", "(empire in deal.empires) if empir else")
    line = line_of(mesta / "game.yaml", "empir else")
    message = f"game.yaml:{line}:12: deals: include: 'empir' is undefined (did you mean 'empire'?); {EXPECTED}"
    result = run("check", mesta)
    assert result.exit_code == 1, result.output
    assert message in result.output and result.output.count("'empir'") == 1
    result = run("build", mesta, "--deal", "full", "--out", tmp_path / "out", "--force")
    assert result.exit_code == 1 and message in result.output


def test_a_misspelt_attribute_in_a_deals_include_names_the_fields(mesta):
    edit(mesta / "game.yaml", "(empire in deal.empires)", "(empire in deal.empirs)")
    result = run("check", mesta)
    assert result.exit_code == 1, result.output
    assert "deals: include: component 'full' has no field 'empirs' (did you mean 'empires'?); expected one of: name, empires," in result.output


def test_a_misspelt_name_in_a_rulebook_is_an_error_at_its_line_and_column(mesta):
    page = mesta / "rules" / "01-uvod.md"
    edit(page, "{{ cities | selectattr('wonder')", "{{ citties | selectattr('wonder')")
    line = line_of(page, "citties")
    column = page.read_text(encoding="utf-8").splitlines()[line - 1].index("citties") + 1
    result = run("check", mesta)
    assert result.exit_code == 1, result.output
    message = (
        "cannot fill in the template: 'citties' is undefined (did you mean 'cities'?); expected a deck or a game value (game, enums, strings, ...) [template]"
    )
    assert f"rules/01-uvod.md:{line}:{column}: {message}" in result.output


def test_a_misspelt_name_in_a_layout_is_an_error_at_its_element(ages):
    layout = ages / "layouts" / "civil.yaml"
    edit(layout, 'text: "{{ name }}"', 'text: "{{ nmae }}"')
    edit(layout, "    when: players\n", "    when: plyers\n")
    result = run("check", ages)
    assert result.exit_code == 1, result.output
    text_at, when_at = line_of(layout, "nmae"), line_of(layout, "players.symbol")  # the element's first line
    where = "card 'asha' (front, layout 'civil')"  # the first card: a name no card has is reported once, not per card
    assert f"civil.yaml:{text_at}:5: {where}: cannot fill in '{{{{ nmae }}}}': 'nmae' is undefined (did you mean 'name'?); {EXPECTED}" in result.output
    assert f"civil.yaml:{when_at}:5: {where}: cannot evaluate when: 'plyers': 'plyers' is undefined (did you mean 'players'?); {EXPECTED}" in result.output
    assert "2 errors, 0 warnings" in result.output


GAME = """\
title: Hra
language: sk
decks:
  cards: {type: card, data: cards.yaml, front: mine}
  others: {type: card, data: other.yaml}
  total: {type: card, data: total.yaml}
rulebooks:
  rules: {title: Pravidlá, files: [rules.md]}
"""
RULES = """\
types:
  card:
    fields:
      title: {type: text}
      other: {type: text, required: false}
constraints:
  - id: names
    severity: warning
    message: "rule: {{ others | length }} {{ card.other }} {{ total(others) }}"
    type: card
    where: id == 'a'
    expect: "false"
"""
NAMES = "{{ others | length }} {{ total(others) }} {{ decks.total | length }}"


def test_a_name_means_the_same_in_layouts_rules_and_rulebooks(tmp_path):
    """pnp's names, the decks and the component's fields, the same in every place: a deck
    named like one of pnp's names is `decks.total`; nothing hides `total`."""
    game = tmp_path / "g"
    (game / "layouts").mkdir(parents=True)
    (game / "game.yaml").write_text(GAME, encoding="utf-8")
    (game / "rules.yaml").write_text(RULES, encoding="utf-8")
    (game / "cards.yaml").write_text("- {id: a, title: Alfa, other: pole}\n", encoding="utf-8")
    (game / "other.yaml").write_text("- {id: x, title: X}\n- {id: y, title: Y, copies: 2}\n- {id: z, title: Z}\n", encoding="utf-8")
    (game / "total.yaml").write_text("- {id: t, title: T}\n", encoding="utf-8")
    layout = f'size: [63, 88]\nelements:\n  - text: "layout: {NAMES} {{{{ card.other }}}} {{{{ other }}}}"\n    box: [5, 5, 53, 20]\n'
    (game / "layouts" / "mine.yaml").write_text(layout, encoding="utf-8")
    (game / "rules.md").write_text(f"# Mená\n\nrulebook: {NAMES}\n", encoding="utf-8")
    result = run("check", game)
    assert result.exit_code == 0, result.output
    assert "warning: rule: 3 pole 4 (card 'a' fails: false) [names]" in result.output
    out = tmp_path / "out"
    result = run("build", game, "--out", out)
    assert result.exit_code == 0, result.output
    assert "layout: 3 4 1 pole pole" in text(out / "g" / "cards-sk-a4.pdf")
    assert "rulebook: 3 4 1" in text(out / "g" / "rules-sk-a4.pdf")


def test_the_names_pnp_provides_are_every_name_a_component_sees_but_its_fields_and_the_decks(tmp_path):
    """load.model.PROVIDED_NAMES is the one list of pnp's names (load refuses a field
    named like one, the docs list them): it must be what the context really holds."""
    game, _ = load_game(make_small_game(tmp_path / "hra"))
    names = Names(game)
    card = game.decks["cards"].cards[0]
    ctx = names.of(card)
    fields = {name for tdef in game.types.values() for name in tdef.fields}
    made_when_asked = names.decks._names(True) - set(game.decks) - fields  # components, deals
    assert (set(ctx) | made_when_asked) - fields == set(PROVIDED_NAMES)
    assert set(ctx["card"]) - set(card.fields) == set(COMPONENT_NAMES)
    for name in PROVIDED_NAMES:
        evaluate(name, ctx)  # each one is there, as a name alone
