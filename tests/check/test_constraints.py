"""The rules model: every kind of constraint catches its mistake and passes clean data;
Mestá's own rules catch the mistakes a designer makes."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from textwrap import dedent

import pytest
from conftest import edit, line_of, run
from pdfread import reader

from pnp.check.constraints import KINDS, kind_class
from pnp.check.constraints.base import ConstraintKind

GAME = """\
title: Test
language: sk
decks:
  cards: {type: card, data: cards.yaml, front: basic/card, back: basic/back}
"""

TYPES = """\
enums:
  color:
    red: {name: Červená}
    blue: {name: Modrá}
types:
  card:
    fields:
      title: {type: text}
      text: {type: text, required: false}
      color: {type: enum, enum: color, required: false}
      colors: {type: list, item: enum, enum: color, required: false}
      power: {type: int, required: false}
      cost: {type: int, required: false}
constraints:
"""

CARDS = """\
- {id: a, title: Alfa, color: red, power: 3, cost: 1, colors: [red]}
- {id: b, title: Beta, color: blue, power: 2, cost: 2, colors: [blue], text: "Zahraj kartu Alfa."}
- {id: c, title: Gama, color: red, power: 1, cost: 1, copies: 2}
"""


def game(tmp_path: Path, constraint: str, cards: str = CARDS) -> Path:
    folder = tmp_path / "g"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "rules.yaml").write_text(TYPES + dedent(constraint), encoding="utf-8")
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    return folder


def check(folder: Path):
    return run("check", folder)


CASES = {
    "count total": (
        "  - {id: n, message: Four cards., count: {equals: 4}}\n",
        "  - {id: n, message: Five cards., count: {equals: 5}}\n",
        "found 4, expected 5",
    ),
    "count without copies": (
        "  - {id: n, message: m, count: {equals: 3, copies: false}}\n",
        "  - {id: n, message: m, count: {equals: 4, copies: false}}\n",
        "found 3, expected 4",
    ),
    "count per group": (
        "  - {id: n, message: m, where: color, count: {group_by: color, groups: all, min: 1}}\n",
        "  - {id: n, message: m, where: color == 'red', count: {group_by: color, groups: all, min: 1}}\n",
        "color 'blue': none has 0, expected at least 1",
    ),
    "count each": (
        "  - {id: n, message: m, count: {group_by: title, each: {Alfa: 1, Beta: 1, Gama: 2}}}\n",
        "  - {id: n, message: m, count: {group_by: title, each: {Alfa: 1, Beta: 1, Gama: 3}}}\n",
        "title 'Gama': c has 2, expected 3",
    ),
    "unique": ("  - {id: n, message: m, unique: title}\n", "  - {id: n, message: m, unique: color}\n", "'c' has the same color as 'a'"),
    "reference to cards": (
        "  - {id: n, message: m, reference: {field: text, pattern: 'kartu (\\w+)', to: card.title}}\n",
        "  - {id: n, message: m, reference: {field: text, pattern: 'kartu (\\w+)', to: card.id}}\n",
        "card 'b' names 'Alfa', which is not the id of any 'card' component",
    ),
    "reference to enum": (
        "  - {id: n, message: m, reference: {field: title, to: card.title}}\n",
        "  - {id: n, message: m, reference: {field: title, to: enum color.name}}\n",
        "card 'a' names 'Alfa', which is not the name of any 'color' value",
    ),
    "expect": ("  - {id: n, message: m, expect: power >= cost}\n", "  - {id: n, message: m, expect: power > cost}\n", "card 'b' fails: power > cost"),
    "partition": (
        "  - {id: n, message: m, where: colors, partition: {field: colors, covers: enum color}}\n",
        "  - {id: n, message: m, where: id == 'a', partition: {field: colors, covers: enum color}}\n",
        "missing: blue",
    ),
    "values": (
        "  - {id: n, message: m, where: color == 'red', values: {field: title, equals: [Alfa, Gama]}}\n",
        "  - {id: n, message: m, where: color == 'red', values: {field: title, equals: [Alfa, Beta]}}\n",
        "missing: Beta; not expected: Gama (on c)",
    ),
    "expression": (
        "  - {id: n, message: m, expression: total(cards) == 4}\n",
        "  - {id: n, message: m, for_each: color, expression: \"cards | selectattr('color', 'eq', value) | list | length == 2\"}\n",
        "for blue",
    ),
}


@pytest.mark.parametrize("kind", CASES)
def test_each_kind_of_constraint_passes_and_fails(tmp_path, kind):
    good, bad, detail = CASES[kind]
    passing = check(game(tmp_path / "good", good))
    assert passing.exit_code == 0, passing.output
    failing = check(game(tmp_path / "bad", bad))
    assert failing.exit_code == 1, failing.output
    assert detail in failing.output, failing.output
    assert "[n]" in failing.output  # the rule id


def test_a_warning_does_not_fail_the_check(tmp_path):
    result = check(game(tmp_path, "  - {id: n, message: Few cards., severity: warning, count: {min: 10}}\n"))
    assert result.exit_code == 0
    assert "warning: Few cards. (found 4, expected at least 10) [n]" in result.output


def test_template_escape_in_a_constraint_is_refused(tmp_path):
    result = check(game(tmp_path, '  - {id: n, message: m, expression: "cards.__class__.__mro__[1].__subclasses__()"}\n'))
    assert result.exit_code == 1
    assert "rules.yaml:15:35: constraint 'n': expression: access to attribute '__class__' of 'list' object is unsafe. [template]" in result.output
    assert "Traceback" not in result.output


def test_constraint_with_two_kinds_is_an_error(tmp_path):
    result = check(game(tmp_path, "  - {id: n, message: m, unique: title, expect: power > 0}\n"))
    assert result.exit_code == 1
    assert "constraint 'n' has 2 of count, unique" in result.output


def test_constraints_sharing_a_selection_each_see_it_whole(tmp_path):
    """A selection is chosen once for the constraints that share it (type, where and the
    value of for_each); each still reports its own violations, and a failing `where`
    under its own id."""
    result = check(
        game(
            tmp_path,
            """\
              - {id: s1, message: m1, where: color == 'red', expect: power > 1}
              - {id: s2, message: m2, where: color == 'red', expect: cost > 1}
              - {id: s3, message: "m3 {{ value.name }}", for_each: color, where: color == value, expect: power > 2}
              - {id: s4, message: "m4 {{ value.name }}", for_each: color, where: color == value, count: {equals: 1}}
              - {id: f1, message: m, where: colr == 'red', expect: power > 0}
              - {id: f2, message: m, where: colr == 'red', expect: cost > 0}
            """,
        )
    )
    out = result.output
    assert "m1 (card 'c' fails: power > 1) [s1]" in out
    assert "m2 (card 'a' fails: cost > 1) [s2]" in out and "m2 (card 'c' fails: cost > 1) [s2]" in out
    assert "m3 Červená (card 'c' fails: power > 2) [s3]" in out and "m3 Modrá (card 'b' fails: power > 2) [s3]" in out
    assert "m4 Červená (found 3, expected 1) [s4]" in out and "[s4]" not in out.replace("m4 Červená (found 3, expected 1) [s4]", "")
    assert "constraint 'f1': where: 'colr' is undefined" in out and "constraint 'f2': where: 'colr' is undefined" in out


def test_constraints_are_read_alike_with_one_schema_for_the_kinds_named():
    """load_constraints reads every constraint with one schema, for all the kinds the list
    names, where it has only their keys: the same problems, in the same order, and the
    same constraints as reading each with the schema of its own kinds, over many
    generated lists (known keys, keys of other kinds, misspelt ones, wrong values)."""
    import random

    from pnp.base.errors import Problems
    from pnp.check.constraints import base
    from pnp.load.yamlfile import parse_yaml

    def own_schema(item, named):  # what load_constraints read each constraint with before
        keys = {str(key).replace("-", "_") for key in item}
        schema = base._schema(tuple(k for k in KINDS if k in keys))
        if keys - {f.name for f in fields(schema)}:
            schema = base._schema(tuple(KINDS))
        return schema

    pool = {
        "id": ["a", "b", "[1]"],
        "message": ["m", "{{ id }}"],
        "severity": ["warning", "fatal"],
        "type": ["card"],
        "where": ["power > 1"],
        "for_each": ["color"],
        "count": ["{equals: 1}", "{equals: x}", "3"],
        "unique": ["title"],
        "within": ["color"],
        "expect": ["power > 0", "[1]"],
        "expression": ["total(cards) > 1"],
        "reference": ["{field: text, to: card.id}"],
        "values": ["{field: title, equals: [Alfa]}"],
        "partition": ["{field: colors, covers: enum color}"],
        "graph": ["{field: text}"],
        "expcet": ["x"],
        "_loc": ["x"],
    }

    def shape(value):  # a kind's keys, compared by value (their dataclasses have no __eq__)
        if hasattr(value, "__dict__"):
            return type(value), {key: shape(v) for key, v in vars(value).items()}
        return [shape(v) for v in value] if isinstance(value, list) else value

    rng = random.Random(7)
    for n in range(300):
        lines = []
        for _ in range(rng.randint(1, 4)):
            keys = rng.sample(sorted(pool), rng.randint(1, 5))
            lines.append("- {" + ", ".join(f"{k}: {rng.choice(pool[k])}" for k in keys) + "}")
        raw = parse_yaml("\n".join(lines) + "\n", f"rules{n}.yaml")
        results = []
        for schema_of in (own_schema, base._schema_of):
            real, base._schema_of = base._schema_of, schema_of
            try:
                problems = Problems()
                read = base.load_constraints(raw, problems)
            finally:
                base._schema_of = real
            results.append(([str(p) for p in problems.items], [(c.id, c.message, c.severity, c.where, shape(c.kind)) for c in read]))
        assert results[0] == results[1], lines


# --- the kinds: one module each, one registry ------------------------------------------

RULES_DOC = Path(__file__).parents[2] / "docs" / "rules.md"


def test_every_kind_has_a_module_and_a_row_in_the_docs():
    """A kind in the registry is a module named like its key, with a ConstraintKind whose
    first key is the kind's; docs/rules.md's table of checks has one row per kind, in the
    registry's order, and no other."""
    keys: list[str] = []
    for key, name in KINDS.items():
        cls = kind_class(key)
        assert cls.__name__ == name and cls.__module__ == f"pnp.check.constraints.{key}" and issubclass(cls, ConstraintKind)
        own = [f.name for f in fields(cls)]
        assert own[0] == key, f"the first key of {name} is {own[0]!r}; expected {key!r}"
        keys.extend(own)
    assert len(keys) == len(set(keys)), f"two kinds have a key of the same name: {sorted(k for k in keys if keys.count(k) > 1)}"
    doc = RULES_DOC.read_text(encoding="utf-8")
    table = doc.split("| check | example | holds when |", 1)[1].split("\n\n", 1)[0]
    documented = re.findall(r"(?m)^\| `(\w+)` \|", table)
    assert documented == list(KINDS), f"docs/rules.md documents {documented}; expected a row for each of {list(KINDS)}"


def test_an_unknown_kind_is_named_with_a_suggestion(tmp_path):
    result = check(game(tmp_path, "  - {id: n, message: m, cout: {equals: 4}}\n"))
    assert result.exit_code == 1
    rules = tmp_path / "g" / "rules.yaml"
    assert result.output.splitlines()[:2] == [
        f"{rules}:15:23: unknown key 'cout' in constraint (did you mean 'count'?); expected one of: id, message, severity, type, where, for_each, count, unique, "
        "within, reference, expect, partition, values, graph, expression, doc [schema-unknown-key]",
        f"{rules}:15:3: constraint 'n' has none of count, unique, reference, expect, partition, values, graph, expression; expected exactly one [constraint-kind]",
    ]


# --- Mestá -------------------------------------------------------------------------------


def mestá_error(mesta: Path) -> str:
    result = run("check", mesta)
    assert result.exit_code == 1, result.output
    return result.output


def test_mesta_a_city_removed(mesta):
    cities = mesta / "cities.yaml"
    text = cities.read_text(encoding="utf-8")
    cities.write_text(re.sub(r"- id: ostia\n(  .*\n)+", "", text, count=1), encoding="utf-8")
    out = mestá_error(mesta)
    assert "The game has 54 cities (8 empires x 6 + 6 neutral). (found 53, expected 54) [cities-total]" in out
    assert "empire 'rim': rim, kapua, brundisium, aquileia, puteoli has 5, expected 6) [cities-per-empire]" in out


def test_mesta_a_second_capital(mesta):
    cities = mesta / "cities.yaml"
    edit(cities, "- id: alezia\n  name: Alézia\n  empire: kelti\n", "- id: alezia\n  name: Alézia\n  empire: kelti\n  capital: true\n")
    line = line_of(cities, "- id: alezia")
    out = mestá_error(mesta)
    assert f"cities.yaml:{line}:3: Every empire has exactly one capital. (empire 'kelti': bibracte, alezia has 2, expected 1) [one-capital-per-empire]" in out


def test_mesta_protection_naming_a_missing_event(mesta):
    events = mesta / "events.yaml"
    edit(events, "Veliteľ, Hnev bohov, Útok a Barbari", "Veliteľ, Hnev bohov, Zemetrasenie a Barbari")
    line = line_of(events, "Zemetrasenie")
    out = mestá_error(mesta)
    assert f"events.yaml:{line}:9: Every event named in a protection card's text exists. (card 'mala-protekcia' names 'Zemetrasenie'" in out


def test_mesta_misspelt_discipline_on_a_games_card(mesta):
    events = mesta / "events.yaml"
    edit(events, "  discipline: kultura\n", "  discipline: kultra\n")
    line = line_of(events, "discipline: kultra")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert (
        f"events.yaml:{line}:15: field 'discipline' of card 'hry-kultura' is 'kultra', which is not in 'discipline' (did you mean 'kultura'?)" in result.output
    )


def test_mesta_misspelt_discipline_in_text_is_a_glossary_warning(mesta):
    events = mesta / "events.yaml"
    edit(events, "v otroctve získava", "v otrokárstve získava")
    line = line_of(events, "v otrokárstve")
    result = run("check", mesta)
    assert result.exit_code == 0  # a warning
    assert f"events.yaml:{line}:9: warning: 'otrokárstve' in text of card 'hry-otroctvo' looks like a form of 'Otroctvo'" in result.output


def test_mesta_a_wonder_moved_to_rome(mesta):
    cities = mesta / "cities.yaml"
    edit(cities, "name: Rodos\n  empire: grecko", "name: Rodos\n  empire: rim")
    line = line_of(cities, "- id: rodos")
    out = mestá_error(mesta)
    assert f"cities.yaml:{line}:3: Every wonder city is Greek, Egyptian or Persian. (card 'rodos' fails" in out


def test_mesta_crisis_cards_must_cover_every_discipline(mesta):
    events = mesta / "events.yaml"
    edit(events, "disciplines: [hutnictvo, armada]", "disciplines: [hutnictvo, kultura]")
    out = mestá_error(mesta)
    assert (
        "The four Hospodárska kríza cards name every discipline exactly once. (named twice: kultura; missing: armada) [crisis-covers-every-discipline]" in out
    )


def test_mesta_deal_for_wonders_needs_greece_egypt_persia(mesta):
    edit(mesta / "deals.yaml", "  empires: [grecko, egypt, perzia]\n", "  empires: [grecko, egypt, rim]\n")
    out = mestá_error(mesta)
    assert "Playing for the wonders needs Greece, Egypt and Persia in the deal. (card 'very-short' fails" in out


def test_check_json_lists_every_problem(mesta):
    cities = mesta / "cities.yaml"
    edit(cities, "name: Rodos\n  empire: grecko", "name: Rodos\n  empire: rim")
    result = run("check", mesta, "--format", "json")
    assert result.exit_code == 1
    problems = json.loads(result.output)
    codes = {p["code"] for p in problems}
    assert {"wonders-greek-egyptian-persian", "cities-per-empire"} <= codes
    first = next(p for p in problems if p["code"] == "wonders-greek-egyptian-persian")
    assert first["file"].endswith("cities.yaml") and first["line"] > 0 and first["severity"] == "error"


def test_build_refuses_a_deck_that_breaks_its_rules(mesta, tmp_path):
    edit(mesta / "cities.yaml", "name: Rodos\n  empire: grecko", "name: Rodos\n  empire: rim")
    result = run("build", mesta, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "[wonders-greek-egyptian-persian]" in result.output
    assert not (tmp_path / "out").exists()


def test_deal_prints_only_its_cards(tmp_path):
    assert run("build", "--deal", "very-short", "--out", tmp_path).exit_code == 0
    cities = reader(tmp_path / "mesta" / "cities-sk-a4-very-short.pdf")
    events = reader(tmp_path / "mesta" / "events-sk-a4-very-short.pdf")
    city_text = "\n".join(p.extract_text() for p in cities.pages)
    event_text = "\n".join(p.extract_text() for p in events.pages)
    assert "Atény" in city_text and "Memfis" in city_text and "Perzepolis" in city_text
    assert "Rím" not in city_text and "Massalia" not in city_text  # Rome and the neutral cities are out
    assert "Leonidas" in event_text and "Julius Caesar" not in event_text  # commanders of empires in play only
    assert "Zjednotenie" in event_text
    assert len(re.findall(r"(?m)^Hnev bohov$", event_text)) == 3  # one per empire in play


def test_a_message_can_name_the_card(tmp_path):
    result = check(game(tmp_path, "  - {id: n, message: '{{ title }} is too weak.', expect: power > 1}\n"))
    assert "Gama is too weak. (card 'c' fails: power > 1) [n]" in result.output


def test_text_outside_the_safe_area_is_a_warning(tmp_path):
    folder = game(tmp_path, "")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "edge.yaml").write_text("size: [63, 88]\nelements:\n  - text: '{{ title }}'\n    box: [1, 40, 50, 10]\n", encoding="utf-8")
    edit(folder / "game.yaml", "front: basic/card", "front: edge")
    result = check(folder)
    assert result.exit_code == 0
    assert "layouts/edge.yaml:3:5: warning: text box [1.0, 40.0, 50.0, 10.0] of layout 'edge' reaches into the outer 3 mm" in result.output


TABLE_TYPES = TYPES.replace(
    "      cost: {type: int, required: false}\n",
    "      cost: {type: int, required: false}\n      spaces: {type: table, fields: {n: {type: int}, bonus: {type: int, required: false}}, required: false}\n",
)


def test_unique_within_a_table_names_both_rows(tmp_path):
    rule = "  - {id: n, message: Spaces are numbered once., unique: n, within: spaces}\n"
    cards = "- id: a\n  title: Alfa\n  spaces:\n    - {n: 1}\n    - {n: 2, bonus: 1}\n    - {n: 1}\n- {id: b, title: Beta, spaces: [{n: 1}]}\n"
    folder = game(tmp_path, rule, cards)
    (folder / "rules.yaml").write_text(TABLE_TYPES + rule, encoding="utf-8")
    result = check(folder)
    assert result.exit_code == 1, result.output
    row = cards.splitlines().index("    - {n: 1}", 4) + 1  # the second row numbered 1: the third row
    assert f"cards.yaml:{row}:" in result.output
    assert "Spaces are numbered once. (rows 1 and 3 of 'spaces' in 'a' have the same n=1" in result.output
    assert "'b'" not in result.output  # each component's rows are compared among themselves
    edit(folder / "cards.yaml", "    - {n: 1}\n- {id: b", "    - {n: 3}\n- {id: b")
    assert check(folder).exit_code == 0


def test_within_belongs_to_unique_only(tmp_path):
    result = check(game(tmp_path, "  - {id: n, message: m, expect: power > 0, within: spaces}\n"))
    assert result.exit_code == 1
    assert "constraint 'n' has 'within' but is not a unique check; expected 'within' only beside 'unique'" in result.output


@pytest.mark.parametrize(
    "constraint, found",
    [
        (
            "  - {id: n, message: 'deck {{ group }}', severity: warning, count: {group_by: deck, equals: 2}}\n",
            "deck cards (deck 'cards': a, b, c has 4, expected 2)",
        ),
        ("  - {id: n, message: m, severity: warning, values: {field: type, equals: [deal]}}\n", "missing: deal; not expected: card"),
    ],
)
def test_a_rule_reads_the_names_pnp_provides_as_templates_do(tmp_path, constraint, found):
    """`group_by: deck`, `field: type`: the component's deck and type, as `{{ deck }}` and
    `{{ type }}` are in its message (no field may have those names)."""
    result = check(game(tmp_path, constraint))
    assert found in result.output, result.output


@pytest.mark.parametrize(
    "constraint, key",
    [
        ("  - {id: n, message: m, type: card, unique: [titel, color]}\n", "unique"),
        ("  - {id: n, message: m, count: {group_by: titel, min: 1}}\n", "group_by"),
        ("  - {id: n, message: m, type: card, values: {field: titel, equals: [Alfa]}}\n", "field"),
        ("  - {id: n, message: m, reference: {field: titel, to: card.title}}\n", "field"),
        ("  - {id: n, message: m, partition: {field: titel, covers: enum color}}\n", "field"),
        ("  - {id: n, message: m, reference: {field: text, to: card.titel}}\n", "target"),
    ],
)
def test_a_rule_naming_a_field_no_component_has_is_an_error_not_nothing(tmp_path, constraint, key):
    folder = game(tmp_path, constraint)
    result = check(folder)
    assert result.exit_code == 1, result.output
    has = "type 'card' does not have" if "type: card" in constraint or key == "target" else "no type has"
    assert (
        f"g/rules.yaml:{line_of(folder / 'rules.yaml', 'id: n')}:3: [n] {key} names 'titel', which {has} as a field (did you mean 'title'?); "
        "expected one of: id, type, copies, deck, title, text, color, colors, power, cost [constraint-field]"
    ) in result.output.replace(str(tmp_path) + "/", "")
    assert result.output.count("[constraint-field]") == 1
