"""An expression of names, literals and comparisons (`kind == 'hry'`, `not capital`,
`empire in ['grecko', 'egypt']`) is evaluated by Python, not compiled by Jinja: its value
must be the one Jinja gives, and every mistake must still be reported as Jinja says it."""

from __future__ import annotations

import pytest
from makers import loads_jinja

from pnp.base.errors import Location, Problems
from pnp.templates.expressions import FAILED, evaluate_at
from pnp.templates.sandbox import evaluated


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
WHERE = Location("rules.yaml", 12, 12)


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
