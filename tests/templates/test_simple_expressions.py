"""An expression of names, literals, comparisons, attributes, items, lengths, a text's
startswith or endswith, `~`, a dict's keys(), values() or items(), pnp's functions and the
filters list, join, map(attribute=...), unique, select, reject, selectattr and rejectattr
(`kind == 'hry'`, `empire.adjective in text`, `disciplines | length > 1`,
`enums.discipline | reject('in', used) | list`), and a template of text and such
expressions, is evaluated by Python, not compiled by Jinja: its value and what it writes
must be the ones Jinja gives, within the same budget, and every mistake must still be
reported as Jinja says it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import run
from makers import instances_of, loads_jinja

from pnp.base.errors import Location, Problems
from pnp.load.model import EnumValue
from pnp.templates import expressions
from pnp.templates.expressions import FAILED, Strings, View, evaluate_at, explain, fill_in
from pnp.templates.sandbox import evaluated, refuse_undefined, rendered, template


class Colour:
    """A value of a class of its own, compared by its own __eq__ (as an enumeration value is)."""

    def __init__(self, name: str):
        self.name = name

    def __eq__(self, other: object) -> bool:
        return self.name == (other.name if isinstance(other, Colour) else other)

    def __hash__(self) -> int:
        return hash(self.name)


CTX = {
    "kind": "hry",
    "points": 3,
    "second": 0,
    "capital": False,
    "empty": "",
    "nothing": None,
    "names": ["grecko", "egypt"],
    "text": "Kováč z Egypta",
    "colour": Colour("red"),
}
EMPIRE = EnumValue(
    "grecko",
    {
        "name": "Grécko",
        "adjective": "Kováč",
        "color": "#1f4e8c",
        "upper": "an attribute named like a text's method",
        "attrs": "one named attrs",
        "_hidden": "an underscore attribute",
        "none": None,
    },
)
MORE = {
    **CTX,
    "empire": EMPIRE,
    "game": {
        "title": "Mestá",
        "items": "a key named items",
        "values": [1],
        "get": "g",
        "keys": "k",
        "inner": {"name": "Hlboko"},
        "_private": "an underscore key",
    },
    "card": View({"id": "atheny", "title": "Atény"}, frozenset({"region"})),
    "disciplines": [EMPIRE, "kov"],
    "pair": ("a", "b"),
    "deal": View({"id": "short", "empires": ["grecko", "egypt"], "neutral": False}),
}
MORE["strings"] = Strings({"neutral": "Neutrálne", "everything": "všetko", "made": "{{ kind }} a {{ points }}"}, MORE)
WHERE = Location("rules.yaml", 12, 12)

EGYPT = EnumValue("egypt", {"name": "Egypt", "region": "south", "adjective": "egyptský"})
ROME = EnumValue("rim", {"name": "Rím", "region": "west", "adjective": "rímsky"})
GREECE = EnumValue("grecko", {"name": "Grécko", "region": "west", "adjective": "grécky"})
CITIES = [
    View({"id": "atheny", "empire": GREECE, "capital": True, "main": "kov", "second": None, "copies": 1}),
    View({"id": "sparta", "empire": GREECE, "capital": False, "main": "boj", "second": "kov", "copies": 2}),
    View({"id": "memfis", "empire": EGYPT, "capital": False, "main": "kov", "second": "obchod", "copies": 1}),
    View({"id": "roma", "empire": ROME, "capital": True, "main": "boj", "second": None, "copies": 1}),
]
FILTERED = {
    **MORE,
    "cities": CITIES,
    "enums": {
        "empire": {"grecko": GREECE, "egypt": EGYPT, "rim": ROME},
        "discipline": {"kov": EnumValue("kov", {}), "boj": EnumValue("boj", {}), "viera": EnumValue("viera", {})},
    },
    "values": expressions.values_of,
    "total": expressions.total,
    "empires": ["grecko", "Grecko", "egypt", "rim"],
    "value": "grecko",
}


@pytest.mark.parametrize(
    "source",
    [
        "kind == 'hry'",
        "kind != 'hry'",
        'kind == "velitel"',
        "not capital",
        "not nothing",
        "points < 3",
        "points >= 3 and second <= points",
        "second and points",
        "empty or kind",
        "capital or nothing",
        "kind in ['hry', 'nepokoje']",
        "'grecko' not in names",
        "'Kováč' in text",
        "colour == 'red'",
        "colour in ['blue', 'red']",
        "points if capital else kind",
        "True and points == 3",
        "nothing == None",
        "(kind == 'hry') and (points == 3)",
    ],
)
def test_a_simple_expression_means_what_jinja_means(source):
    got = evaluate_at(source, CTX, WHERE, "where", problems := Problems())
    assert not problems.items
    assert got == evaluated(source, CTX) and type(got) is type(evaluated(source, CTX))


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("kidn == 'hry'", "'kidn' is undefined (did you mean 'kind'?); expected a field of the component or a game value"),
        ("kind < 3", "TypeError: '<' not supported between instances of 'str' and 'int'"),
        ("points in 3", "TypeError: argument of type 'int' is not iterable"),
    ],
)
def test_a_mistake_in_a_simple_expression_is_reported_as_jinja_says_it(source, said):
    problems = Problems()
    assert evaluate_at(source, {**CTX, "card": {}}, WHERE, "constraint 'c': where", problems) is FAILED
    (problem,) = problems.items
    assert str(problem) == f"rules.yaml:12:12: constraint 'c': where: {said} [template]"


def test_a_game_whose_expressions_are_simple_never_loads_jinja():
    """Jinja is slow to import and to compile each expression: a game's rules made of
    comparisons (Mestá's `where:` clauses) need neither."""
    script = (
        "from pnp.base.errors import Location, Problems\n"
        "from pnp.templates.expressions import evaluate_at\n"
        "ctx = {'kind': 'hry', 'points': 2, 'capital': True, 'names': ['a']}\n"
        "for source in [\"kind == 'hry'\", 'not capital', \"kind in ['hry', 'nepokoje']\", 'points < 3 and capital', \"'a' in names\"]:\n"
        "    assert evaluate_at(source, ctx, Location('rules.yaml'), 'where', Problems()) is not None\n"
    )
    assert not loads_jinja(script)


def jinja_value(source: str, ctx: dict):
    """What Jinja alone makes of an expression: its value, or the words of its error."""
    try:
        value = evaluated(source, ctx)
        refuse_undefined(value)
    except Exception as exc:
        return ("error", explain(exc, ctx))
    return value


def jinja_writes(source: str, ctx: dict):
    """What Jinja alone writes for a template, or the words of its error."""
    try:
        return rendered(template(source), ctx)
    except Exception as exc:
        return ("error", explain(exc, ctx))


SIMPLE_MORE = [
    "empire.name",
    "empire.none",
    "empire.adjective in text",
    "empire and empire.adjective in text",
    "empire.color if empire else '#6d6a60'",
    "not capital or kind != empire.name",
    "game.title",
    "game . inner . name",
    "game._private",
    "card.title",
    "card.region",
    "card.region == None",
    "strings.neutral",
    "strings.made",
    "disciplines[0]",
    "disciplines[0].name",
    "disciplines[1] == 'kov'",
    "pair[1]",
    "game['title']",
    "game['items']",
    "game['values'][0]",
    "card['region']",
    "disciplines | length > 1",
    "disciplines|length",
    "text | length",
    "game | length",
    "game.inner | length",
    "disciplines[0] | length",
    "[1, 2, points] | length == 3",
    "not names | length",
    "names | length if capital else pair | length",
    "kind in deal.empires",
    "(empire in deal.empires) if empire else (kind != 'city' or deal.neutral)",
    "(nothing in deal.empires) if nothing else (kind != 'city' or deal.neutral)",
    "kind.startswith('h')",
    "kind.startswith('')",
    "text.endswith('Egypta')",
    "card.id.startswith('ath') and not kind.endswith('x')",
    'empire.name.startswith("Gr")',
    "'hry'.startswith ( 'hr', )",
    "kind.startswith('h') == (text.endswith('a'))",
]


@pytest.mark.parametrize("source", SIMPLE_MORE)
def test_attributes_items_and_lengths_mean_what_jinja_means(source):
    got = evaluate_at(source, MORE, WHERE, "where", problems := Problems())
    assert not problems.items
    assert got == jinja_value(source, MORE) and type(got) is type(jinja_value(source, MORE))


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("game.items == 'a key named items'", False),  # Jinja's getattr finds the dict's method first
        ("game['items'] == 'a key named items'", True),  # its getitem finds the key first
        ("game.values == [1]", False),
        ("game.get == 'g'", False),
        ("kind[0]", "h"),  # an item of a text: Jinja's
        ("empire.upper == 'an attribute named like a text's method'".replace("text's", "texts"), False),
        ("empire.attrs == 'one named attrs'", False),
        ("(names) | length", 2),
        ("kind.startswith(('x', 'h'))", True),  # a tuple: Jinja's own
        ("empire.startswith('gre')", True),  # a method of an enumeration value: Jinja finds it
        ("kind.startswith('h', 1)", False),
    ],
)
def test_what_python_is_not_sure_of_is_left_to_jinja(source, value):
    """A key named like a dict method, an enumeration value's attribute named like a text's
    method or `attrs`, an item of a text: Jinja reads them otherwise than as a key."""
    got = evaluate_at(source, MORE, WHERE, "where", Problems())
    assert got == value == jinja_value(source, MORE)


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("game.titel", "there is no key 'titel' (did you mean 'title'?); expected one of: title, items, values, get, keys, inner, _private"),
        ("game.titel == 'Mestá'", "there is no key 'titel' (did you mean 'title'?); expected one of: title, items, values, get, keys, inner, _private"),
        ("empire.colour", "'grecko' has no attribute 'colour' (did you mean 'color'?); expected one of: name, adjective, color, upper, attrs, _hidden, none"),
        ("empire._hidden", "access to attribute '_hidden' of 'EnumValue' object is unsafe."),
        ("card.titel", "component 'atheny' has no field 'titel' (did you mean 'title'?); expected one of: id, title"),
        ("nothing.name", "'None' has no attribute 'name'"),
        ("disciplines.name", "'list object' has no attribute 'name'"),
        ("points | length", "TypeError: object of type 'int' has no len()"),
        ("nothing | length > 1", "TypeError: object of type 'NoneType' has no len()"),
        ("disciplines[5]", "list object has no element 5"),
        ("pair[2] == 'c'", "tuple object has no element 2"),
        ("game['titel']", "there is no key 'titel' (did you mean 'title'?); expected one of: title, items, values, get, keys, inner, _private"),
        ("disciplines['name']", "'list object' has no attribute 'name'"),
        ("strings.neutrall", "there is no key 'neutrall' (did you mean 'neutral'?); expected one of: neutral, everything, made"),
        ("points.startswith('1')", "'int object' has no attribute 'startswith'"),
        ("nothing.endswith('e')", "'None' has no attribute 'endswith'"),
        ("names.startswith('g')", "'list object' has no attribute 'startswith'"),
        ("kind.startswith(1)", "TypeError: startswith first arg must be str or a tuple of str, not int"),
        ("points | reject('in', names) | list", "TypeError: 'int' object is not iterable"),
        ("names | selectattr('empire', 'eq', 1) | list", "'str object' has no attribute 'empire'"),
        (
            "cities | selectattr('empir', 'eq', 1) | list",
            "component 'atheny' has no field 'empir' (did you mean 'empire'?); expected one of: id, empire, capital, main, second, copies",
        ),
        ("cities | map(attribute='empire.nam') | join", "'grecko' has no attribute 'nam' (did you mean 'name'?); expected one of: name, region, adjective"),
        ("[[1], [1]] | unique | list", "TypeError: unhashable type: 'list'"),
        ("'x' ~ nothing.name", "'None' has no attribute 'name'"),
        ("values(points, 'main')", "TypeError: 'int' object is not iterable"),
        ("names | select('in', points) | list", "TypeError: argument of type 'int' is not iterable"),
    ],
)
def test_a_mistake_in_an_attribute_item_length_or_filter_is_reported_as_jinja_says_it(source, said):
    problems = Problems()
    assert evaluate_at(source, FILTERED, WHERE, "constraint 'c': where", problems) is FAILED
    (problem,) = problems.items
    assert str(problem) == f"rules.yaml:12:12: constraint 'c': where: {said} [template]"
    assert jinja_value(source, FILTERED) == ("error", said)


@pytest.mark.parametrize(
    "source",
    [
        "{{ empire.color if empire else '#6d6a60' }}",
        "{{ 'vsetko' if capital else kind }}",
        "{{ 1 if capital else points }}",
        "{{ strings.everything if capital else empire.name }}",
        "{{ empire.name if empire else strings.neutral }}",
        "{{ nothing or empire or kind }}",
        "{{ empire if empire else 'mesto' }}",
        "{{ disciplines[0] }}",
        "{{ disciplines | length }}",
        "{{- empire.name -}}\n",
        "{{ empire.name -}}",
        "{{empire.name}}\n",
        "{{ card.region }}",
        "{{ strings.made }}",
        "{{ game.items }}",
        "{{ capital }}",
        "{{ names }}",
        "{{ kind == 'hry' }}",
        "{{ pair if capital else names[0] }}",
        "{{ empire.name }}\n\n",
        " {{ empire.name }}",
        "{{ empire.name }} {{ kind }}",
        "{{ '}}' if capital else kind }}",
        "{{ empire.name-}}",
        "{{-1 }}",
    ],
)
def test_a_template_of_one_expression_writes_what_jinja_writes(source):
    assert fill_in(source, MORE, WHERE, "text", Problems()) == jinja_writes(source, MORE)


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("{{ empire._hidden }}", "access to attribute '_hidden' of 'EnumValue' object is unsafe."),
        ("{{ nothing.name if kind else 1 }}", "'None' has no attribute 'name'"),
        ("{{ disciplines[5] }}", "list object has no element 5"),
        ("{{ points | length }}", "TypeError: object of type 'int' has no len()"),
        ("{{ game.titel }}", "there is no key 'titel' (did you mean 'title'?); expected one of: title, items, values, get, keys, inner, _private"),
    ],
)
def test_a_mistake_in_a_template_of_one_expression_is_reported_as_jinja_says_it(source, said):
    problems = Problems()
    assert fill_in(source, MORE, WHERE, "text", problems) is None
    (problem,) = problems.items
    assert str(problem) == f"rules.yaml:12:12: text: {said} [template]"
    assert jinja_writes(source, MORE) == ("error", said)


@pytest.mark.parametrize(
    ("source", "evaluate"),
    [("kind == 'hry' # a comment", True), ("(kind) # a comment", True), ("{{ kind # a comment }}", False), ("{{ empire.color # '#6d6a60' }}", False)],
)
def test_a_python_comment_is_a_mistake_as_jinja_says_it(source, evaluate):
    """Python reads `# ...` as a comment; Jinja cannot read it at all."""
    problems = Problems()
    got = evaluate_at(source, MORE, WHERE, "where", problems) if evaluate else fill_in(source, MORE, WHERE, "where", problems)
    assert got is (FAILED if evaluate else None)
    (problem,) = problems.items
    said = jinja_value(source, MORE) if evaluate else jinja_writes(source, MORE)
    assert str(problem) == f"rules.yaml:12:12: where: {said[1]} [template]"
    assert "cannot read it" in str(problem)


def test_attributes_items_lengths_and_templates_of_them_never_load_jinja():
    """Mestá's deals, `when:` and the templates that choose a colour or a word by an empire
    (`{{ empire.color if empire else '#6d6a60' }}`) need neither Jinja nor its compiling."""
    script = (
        "from pnp.base.errors import Location, Problems\n"
        "from pnp.load.model import EnumValue\n"
        "from pnp.templates.expressions import View, evaluate_at, fill_in\n"
        "empire = EnumValue('grecko', {'name': 'Grécko', 'color': '#1f4e8c', 'adjective': 'grécky'})\n"
        "ctx = {'empire': empire, 'type': 'city', 'capital': False, 'text': 'grécky', 'disciplines': [empire, 'kov'], 'second': 'kov',\n"
        "       'deal': View({'id': 'short', 'empires': ['grecko'], 'neutral': True}), 'strings': {'everything': 'všetko'}}\n"
        "where = Location('game.yaml')\n"
        "values = [evaluate_at(s, ctx, where, 'where', Problems()) for s in (\n"
        "    \"(empire in deal.empires) if empire else (type != 'city' or deal.neutral)\", 'disciplines | length > 1',\n"
        "    'empire and empire.adjective in text', \"disciplines[1] == 'kov'\", 'not capital or second != empire.name',\n"
        "    \"type.startswith('ci') and not second.endswith('x')\")]\n"
        "assert values == [True, True, True, True, True, True], values\n"
        "written = [fill_in(s, ctx, where, 'text', Problems()) for s in (\n"
        "    \"{{ empire.color if empire else '#6d6a60' }}\", '{{ strings.everything if capital else second }}', '{{ disciplines[0] }}',\n"
        "    '{{ 1 if capital else disciplines | length }}', '{{ empire.name if empire else strings.neutral }}')]\n"
        "assert written == ['#1f4e8c', 'kov', 'grecko', '2', 'Grécko'], written\n"
    )
    assert not loads_jinja(script)


BUNDLED = sorted(  # but the example whose data a web server gives (tests/pipeline/test_docs_examples.py serves it): its templates are lone names
    path.parent
    for pattern in ("cards/*/game.yaml", "docs/examples/*/game.yaml")
    for path in Path(__file__).resolve().parents[2].glob(pattern)
    if "http://" not in path.read_text(encoding="utf-8")
)


@pytest.mark.parametrize("game", BUNDLED, ids=lambda path: path.name)
def test_every_expression_and_template_of_a_bundled_game_means_what_jinja_means(game, monkeypatch):
    """Every expression and template `pnp check` evaluates for a bundled game (rules, deals,
    layouts, in every language) that Python evaluates gives what Jinja gives."""
    value_simply, written_simply = expressions._evaluated_simply, expressions._written_simply
    differ: list[str] = []
    simple: set[str] = set()

    def value(source: str, ctx: dict):
        got = value_simply(source, ctx)
        if got is not expressions._ABSENT:
            simple.add(source)
            expected = jinja_value(source, ctx)
            if got != expected or type(got) is not type(expected):
                differ.append(f"{source!r}: {got!r}, Jinja {expected!r}")
        return got

    def written(source: str, ctx: dict):
        got = written_simply(source, ctx)
        if got is not None:
            simple.add(source)
            if got != jinja_writes(source, ctx):
                differ.append(f"{source!r}: {got!r}, Jinja {jinja_writes(source, ctx)!r}")
        return got

    monkeypatch.setattr(expressions, "_evaluated_simply", value)
    monkeypatch.setattr(expressions, "_written_simply", written)
    result = run("check", game, "--lang", "all")
    assert result.exit_code == 0, result.output
    assert not differ
    assert simple
    if game.name == "mesta":  # what a Mestá export evaluated through Jinja before, each hundreds of times
        assert {
            "(empire in deal.empires) if empire else (type != 'city' or deal.neutral)",
            "disciplines | length > 1",
            "{{ empire.color if empire else '#6d6a60' }}",
            "{{ discipline or empire or kind }}",
            "{{ disciplines[0] }}",
            "id.startswith('common')",
            "empires | unique | list | length == empires | length",
            "['grecko', 'egypt', 'perzia'] | reject('in', empires) | list | length == 0",
            "enums.discipline | reject('in', values(cities | selectattr('empire', 'eq', value) | rejectattr('capital') | list, 'main', 'second')) | list | length > 0",
            "**{{ strings.condition }}** {{ condition }}",
            "{{ game.title }} · {{ game.author }}",
        } <= simple


FILTERS = [  # what Mestá's rules and layouts write, and more of the same filters
    "enums.discipline | reject('in', values(cities | selectattr('empire', 'eq', value) | rejectattr('capital') | list, 'main', 'second')) | list | length > 0",
    "['grecko', 'egypt', 'perzia'] | reject('in', empires) | list | length == 0",
    "empires | unique | list | length == empires | length",
    "empires | unique | list",
    "empires | unique(case_sensitive=true) | list",
    "cities | unique(attribute='empire') | map(attribute='id') | list",
    "('west (' ~ (enums.empire.values() | selectattr('region', 'eq', 'west') | map(attribute='name') | join(', ')) ~ ')') in 'west (Grécko, Rím)'",
    "'west (' ~ (enums.empire.values() | selectattr('region', '==', 'west') | map(attribute='name') | join(', ')) ~ ')'",
    "enums.empire.keys() | list",
    "enums.empire.items() | list | length",
    "enums.empire | join(' ')",
    "cities | map(attribute='empire.name') | join(', ')",
    "cities | join(', ', attribute='id')",
    "cities | join(d='/', attribute='id')",
    "names | join",
    "cities | selectattr('capital') | map(attribute='id') | list",
    "cities | rejectattr('second') | list | length",
    "cities | selectattr('empire.region', 'ne', 'west') | map(attribute='id') | list",
    "[3, 1, 4, 1, 5] | select('gt', 2) | list",
    "[3, 1, 4, 1, 5] | reject('lessthan', 4) | list",
    "[0, '', 'a', none, [1]] | select | list",
    "'abcab' | unique | list",
    "[] | select('in', names) | list",
    "cities | map(attribute='copies') | list",
    "values(cities, 'main', 'second')",
    "total(cities)",
    "kind ~ '-' ~ points ~ nothing ~ capital",
    "empire ~ empire.name",
    "(kind ~ points) | length",
    "names | list == ['grecko', 'egypt']",
]


ARITHMETIC = [  # what the bundled games' tracks and rules write, and more of the same
    "'#b58fd0' if points % 10 == 0 else ('#e6d8f0' if points % 5 == 0 else '#f7f1fa')",
    "second == (100 - points) // 25",
    "points == 1 + 2 * (points - 2)",
    "points / 2",
    "points / 2 * 3 - 1.5",
    "-points + +points - -2",
    "points % 2 == 1 and points // 2 == 1",
    "capital + capital + 1",
    "(kind ~ points) ~ (points * 2)",
    "points is number",
    "kind is not number",
    "nothing is none and kind is string",
    "not capital is boolean",
    "points is integer and (points / 2) is float",
    "names | length is number",
    "capital is false and not capital is true",
    "names[points - 2]",
    "names[-1] ~ pair[second]",
    "game['ti' ~ 'tle']",
]


@pytest.mark.parametrize("source", FILTERS + ARITHMETIC)
def test_filters_tests_calls_and_joins_mean_what_jinja_means(source):
    """Each is evaluated by Python (not left to Jinja) and gives what Jinja gives."""
    assert expressions._evaluated_simply(source, FILTERED) is not expressions._ABSENT
    got = evaluate_at(source, FILTERED, WHERE, "where", problems := Problems())
    assert not problems.items
    assert got == jinja_value(source, FILTERED) and type(got) is type(jinja_value(source, FILTERED))


@pytest.mark.parametrize(
    "source",
    [
        "names | reject('in', names)",  # a generator: Jinja's value is one, and says so written
        "names | select('in', names) | length",  # a generator has no length
        "'a' in names | select('in', names)",
        "enums.empire.values()",  # a dict's view compares by what it is
        "kind | reject('odd') | list",  # a test of one value: Jinja's
        "names | map('upper') | list",  # a filter by its name: Jinja's
        "names | sort | list",
        "game.title ~ names",  # a list written by str(): Jinja's
        "names | selectattr('x') | list",
        "'a' ~ kind | length",  # Jinja filters kind, Python would filter the join
        "'a' + kind",
        "range(3) | list",  # Jinja's globals
        "names | reject(kind, names) | list",  # a test named by a value
        "names | select('in', names | reject('in', [])) | list",  # `in` a generator
        "values(names | select('in', names), 'x')",
        "card.values()",
        "points + 1 is number",  # Jinja tests 1: points + True
        "points / 2 is float",  # points / False: Jinja divides by zero
        "1 + points ~ 'x'",  # Jinja joins points and 'x' first
        "points - 1 ~ 'x'",
        "~ points",  # Python reads ~ as +; Jinja cannot read it
        "points ** 2",
        "'%s!' % kind",  # a text's % formats: the sandbox's
        "kind + 'x'",
        "points is defined",
        "points is None",  # Jinja has no test of that name
        "points is number if kind else 1.5",  # Jinja reads `if` as the test's argument
        "points // 0",
        "names[1.5]",  # a key Python and Jinja read otherwise
        "names[0:1]",
        "names[kind]",
        "10 ** 400 * 10 ** 400",  # more digits than the sandbox lets a product have
        "[names | select('in', names), 1]",  # a list holding a generator
        "[1, nothing or names | reject('in', [])]",
        "names | (list)",  # Jinja cannot read these
        "names | (join)(', ')",
        "cities | map(attribute='empire.²') | list",
        "names | selectattr('1²') | list",
    ],
)
def test_what_python_is_not_sure_of_in_a_filter_is_left_to_jinja(source):
    assert expressions._evaluated_simply(source, FILTERED) is expressions._ABSENT
    got, expected = evaluate_at(source, FILTERED, WHERE, "where", Problems()), jinja_value(source, FILTERED)
    if isinstance(expected, tuple):  # an error: reported
        assert got is FAILED
    else:  # a generator or a dict's view (each of its own) is Jinja's
        assert got == expected or type(got) is type(expected)


def test_a_filter_over_its_budget_is_stopped_by_jinja_with_the_limit():
    """Python counts the steps a filter's tests spend as the sandbox does: one that would go
    over is left to Jinja, which stops it and says so; one just within gives Jinja's value."""
    long = "x" * 10_000  # each `eq` test spends 101 steps
    within, over = {"items": ["a"] * 9_000, "long": long}, {"items": ["a"] * 10_000, "long": long}
    source = "items | select('eq', long) | list | length"
    assert expressions._evaluated_simply(source, within) == 0 == jinja_value(source, within)
    assert expressions._evaluated_simply(source, over) is expressions._ABSENT
    problems = Problems()
    assert evaluate_at(source, over, WHERE, "where", problems) is FAILED
    assert [str(p) for p in problems.items] == [
        "rules.yaml:12:12: where: it ran more than 1,000,000 steps (pnp's limit for one expression or template); expected fewer or shorter loops [template]"
    ]


@pytest.mark.parametrize(
    "source",
    [
        "**{{ strings.neutral }}** {{ kind }}",
        "{{ game.title }} · {{ empire.name }}",
        "{{ enums.discipline | join(' ') }} vsetko div",
        "{{ enums.discipline | reject('eq', 'kov') | join(' ') }}",
        "a {{- kind }} b {{ points -}} c\n",
        "a\n  {{- kind -}}\n  b {{ nothing }}c{{ capital }}\n\n",
        "{{ kind }}}} {{ points }}",
        "text {{ kind }} more text",
        "{{ kind }}{{ kind }}{{ kind }}",
        "}} {{ kind }}",
    ],
)
def test_a_template_of_text_and_expressions_writes_what_jinja_writes(source):
    assert expressions._written_simply(source, FILTERED) is not None
    assert fill_in(source, FILTERED, WHERE, "text", Problems()) == jinja_writes(source, FILTERED)


@pytest.mark.parametrize(
    "source",
    [
        "{ {{ kind }}",  # a brace Jinja might read as a tag
        "{{{ kind }}",
        "{% if kind %}{{ kind }}{% endif %}",
        "{# a comment #}{{ kind }}",
        "{{ kind }}\r\n",
        "{{ names }} {{ kind }}",  # a list, written by str(): Jinja's
        "{{ names | reject('in', []) }}",
    ],
)
def test_a_template_python_is_not_sure_of_is_left_to_jinja(source):
    assert expressions._written_simply(source, FILTERED) is None
    expected = jinja_writes(source, FILTERED)
    assert fill_in(source, FILTERED, WHERE, "text", Problems()) == (None if isinstance(expected, tuple) else expected)


def test_the_names_jinja_finds_before_a_deck_are_its_globals():
    """A deck named `range` is not what `range` means to Jinja: Python leaves such a name to it."""
    from pnp.templates import sandbox

    assert set(sandbox.ENV.globals) == expressions._JINJA_GLOBALS


def test_a_mesta_tts_export_never_loads_jinja(tmp_path):
    """Every rule, deal and template Mestá's export evaluates (filters, `~`, templates of
    several expressions among them) is evaluated without Jinja, which is slow to import
    and to compile each one."""
    script = (
        "from click.testing import CliRunner\nfrom pnp.cli import main\n"
        f"result = CliRunner().invoke(main, ['export', 'tts', 'cards/mesta', '--out', {str(tmp_path)!r}])\n"
        "assert result.exit_code == 0, result.output\n"
    )
    assert not loads_jinja(script)
    assert (tmp_path / "mesta" / "tts-sk" / "mesta.json").is_file()


def _random_expression(pick: random.Random, depth: int = 0) -> str:
    """An expression of FILTERED's names, literals, operators and filters, nested at random:
    most mean something, many are mistakes, some Jinja cannot read."""
    atoms = ["kind", "names", "cities", "enums", "empires", "nothing", "points", "capital", "empire", "card", "deal", "text", "pair"]
    atoms += ["'a'", "'in'", "'grecko'", "'empire'", "'main'", "0", "1", "true", "none", "False", "[]", "['a', 'grecko']", "''", "'x.y'"]
    filters = ["length", "list", "unique", "join", "join(', ')", "join(d='-')", "map(attribute='id')", "map(attribute='empire.name')", "map(attribute='0')"]
    filters += ["select", "reject('in', empires)", "select('eq', 'a')", "selectattr('capital')", "rejectattr('capital')", "unique(case_sensitive=true)"]
    filters += [
        "selectattr('empire', 'eq', 'grecko')",
        "selectattr('empire.region', '==', 'west')",
        "unique(attribute='empire')",
        "select('gt', 0)",
        "join(attribute='id')",
    ]
    roll = pick.random()
    if depth > 3 or roll < 0.3:
        return pick.choice(atoms)
    inner = _random_expression(pick, depth + 1)
    if roll < 0.55:
        return f"{inner} | {pick.choice(filters)}"
    if roll < 0.75:
        return (
            inner
            + pick.choice([" == ", " != ", " in ", " not in ", " and ", " or ", " ~ ", " < ", " + ", " - ", " * ", " % ", " // ", " / "])
            + _random_expression(pick, depth + 1)
        )
    if roll < 0.85:
        return pick.choice(["({})", "not {}", "values({}, 'main')", "[{}, kind]", "-{}", "{} is number", "{} is not none", "{} is string"]).format(inner)
    if roll < 0.93:
        return inner + "." + pick.choice(["name", "values()", "keys()", "items()", "id", "startswith('a')"])
    return f"{inner} if {_random_expression(pick, depth + 1)} else {_random_expression(pick, depth + 1)}"


def test_random_expressions_python_evaluates_mean_what_jinja_means():
    """Hundreds of expressions made at random (the same each run): each that Python
    evaluates, and each template of one with text around it, gives what Jinja gives;
    the rest are left to it."""
    pick = random.Random(31)
    simple, differ = 0, []
    for _ in range(600):
        source = _random_expression(pick)
        got = expressions._evaluated_simply(source, FILTERED)
        if got is expressions._ABSENT:
            continue
        simple += 1
        expected = jinja_value(source, FILTERED)
        if got != expected or type(got) is not type(expected):
            differ.append((source, got, expected))
        template_source = f"x {{{{ {source} }}}} y {{{{- kind }}}}"
        written = expressions._written_simply(template_source, FILTERED)
        if written is not None and written != jinja_writes(template_source, FILTERED):
            differ.append((template_source, written, jinja_writes(template_source, FILTERED)))
    assert differ == []
    assert simple > 150  # a test of what Python evaluates, not of what it leaves to Jinja


@pytest.mark.parametrize(
    "source",
    [
        "enums.empire.values() | selectattr('region', 'eq', 'west') | map(attribute='name') | join(', ')",
        "long_names | join(long_sep)",
        "long_rows | join(d=long_sep, attribute='0')",
        "long_names | unique | list",
        "long_names | select('in', long_names) | list",
        "long_rows | reject('eq', long_sep) | map(attribute='1') | unique | list",
        "(values(cities, 'main', 'second') | join) ~ long_sep ~ long_sep",
        "long_cards.keys() | list",
        "long_sep ~ (long_names | join)",
    ],
)
def test_python_spends_at_least_what_jinja_spends(source, monkeypatch):
    """What Python counts of an expression's budget is what Jinja's sandbox counts, or more:
    never less, or an expression Jinja stops might pass here."""
    from pnp.templates import sandbox

    counted, spent = instances_of(monkeypatch, expressions, "_Spent"), instances_of(monkeypatch, sandbox, "Budget")
    names = [f"{i:03d}" + "n" * 150 for i in range(300)]
    ctx = {**FILTERED, "long_names": names, "long_sep": "s" * 250, "long_cards": dict.fromkeys(names, 1)}
    ctx["long_rows"] = [[name, name.upper()] for name in names]
    assert expressions._evaluated_simply(source, ctx) == jinja_value(source, ctx)
    assert expressions._simple(source)[2] == 0  # no comparison, length or text test: all it spends is counted as it goes
    (mine,), (jinja,) = counted, spent
    assert mine.steps >= jinja.steps > 1


def test_a_string_that_names_itself_is_one_clear_mistake():
    """`strings.a` filled in with `{{ strings.a }}`, or through another string: said once,
    with the strings it went through (not Python's recursion, string after string)."""
    ctx: dict = {"kind": "hry"}
    ctx["strings"] = Strings({"a": "{{ strings.a }}", "b": "x {{ strings.c }}", "c": "{{ strings.b }} y", "d": "{{ kind }}!"}, ctx)
    said = []
    for source in ("{{ strings.a }}", "{{ strings.b }}", "{{ strings.d }} {{ strings.d }}"):
        problems = Problems()
        said.append(fill_in(source, ctx, WHERE, "text", problems))
        said.extend(str(problem) for problem in problems.items)
    itself = "names itself; expected a string that names other strings, not itself [template]"
    assert said == [
        None,
        f"rules.yaml:12:12: text: strings.a: strings.a {itself}",
        None,
        f"rules.yaml:12:12: text: strings.b: strings.c: strings.b {itself}",
        "hry! hry!",
    ]
