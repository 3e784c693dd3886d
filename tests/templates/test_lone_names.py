"""A template or expression that is one name (`{{ title }}`, `{{ game.title }}`, `when: army`) is looked up
without rendering it through Jinja: what it writes and what it means must be what Jinja
would make of it, and a name the component lacks is still an error naming it."""

from __future__ import annotations

import pytest
from makers import loads_jinja

from pnp.base.errors import Location, Problems
from pnp.load.model import EnumValue
from pnp.templates.expressions import FAILED, evaluate_at, fill_in
from pnp.templates.sandbox import template


class Named:
    title = "an attribute"


CTX = {
    "title": "Kováč",
    "empty": "",
    "cost": 3,
    "none": "a field named none",
    "items": ["a"],
    "nothing": None,
    "flag": False,
    "game": {"title": "Mestá", "items": "a key named items", "inner": {"name": "Hlboko"}, "none": None, "true": "a key named true"},
    "thing": Named(),
    "empire": EnumValue("grecko", {"color": "#1f4e8c", "name": "Grécko", "upper": "an attribute named like a text's method", "none": None, "points": 2}),
    "big": 10**30,
}
WHERE = Location("layouts/card.yaml", 4, 9)


@pytest.mark.parametrize(
    "source",
    [
        "{{ title }}",
        "{{title}}",
        "{{ title }}\n",
        "{{- title -}}",
        " {{ title }}",
        "{{ empty }}",
        "{{ cost }}",
        "{{ none }}",
        "{{ true }}",
        "{{ items }}",
        "{{ nothing }}",
        "{{ game.title }}",
        "{{ game . title }}",
        "{{- game.inner.name }}",
        "{{ game.items }}",
        "{{ game.none }}",
        "{{ game }}",
        "{{ thing.title }}",
        "{{ (title) }}",
        "{{ title -}}\n",
        "{{-title}}",
        "{{ title }}\n\n",
        "{{ True }}",
        "{{ game.true }}",
        "{{ empire }}",
        "{{ empire.color }}",
        "{{ empire.name }}",
        "{{ empire.none }}",
        "{{ empire.points }}",
        "{{ empire.upper }}",
        "{{ empire.attrs }}",
        "{{ big }}",
    ],
)
def test_a_template_writes_what_jinja_writes(source):
    assert fill_in(source, CTX, WHERE, "text", Problems()) == template(source).render(CTX)


@pytest.mark.parametrize(("source", "value"), [("title", "Kováč"), ("flag", False), ("items", ["a"]), ("none", None), ("not flag", True), ("cost > 2", True)])
def test_an_expression_means_what_jinja_means(source, value):
    assert evaluate_at(source, CTX, WHERE, "when", Problems()) == value


@pytest.mark.parametrize(
    ("source", "evaluate", "said"),
    [("{{ titel }}", False, "'titel' is undefined"), ("titel", True, "'titel' is undefined"), ("{{ game.titel }}", False, "no key 'titel'")],
)
def test_a_name_the_component_lacks_is_an_error_naming_it(source, evaluate, said):
    problems = Problems()
    got = evaluate_at(source, CTX, WHERE, "when", problems) if evaluate else fill_in(source, CTX, WHERE, "text", problems)
    assert got is (FAILED if evaluate else None)
    (problem,) = problems.items
    assert said in str(problem) and "'title'" in str(problem)


HIDING = {**CTX, "range": "a field named range"}


@pytest.mark.parametrize(
    ("source", "ctx"),
    [
        ("{{ range(3) | join(',') }}", CTX),
        ("{{ dict(a=cost) }}", CTX),
        ("{% set ns = namespace(n=cost) %}{{ ns.n + 1 }}", CTX),
        ("{{ range ~ '!' }}", HIDING),
    ],
)
def test_jinja_names_are_seen_and_a_field_hides_one_as_in_jinja(source, ctx):
    """Templates see Jinja's own names (range, dict, namespace), and a field of the same
    name hides one, as when Jinja renders the template itself."""
    assert fill_in(source, ctx, WHERE, "text", Problems()) == template(source).render(ctx)


@pytest.mark.parametrize(("source", "ctx", "value"), [("range(3) | list", CTX, [0, 1, 2]), ("range is string", HIDING, True)])
def test_an_expression_sees_jinja_names_unless_a_field_hides_one(source, ctx, value):
    assert evaluate_at(source, ctx, WHERE, "when", Problems()) == value


def test_a_template_of_one_name_whose_value_is_a_number_or_an_enumeration_value_never_loads_jinja():
    """`{{ points }}`, `{{ empire }}` and `{{ empire.color }}` are written as Jinja writes
    them without compiling and rendering them with Jinja (a card's templates are mostly such)."""
    script = (
        "from pnp.base.errors import Location, Problems\n"
        "from pnp.load.model import EnumValue\n"
        "from pnp.templates.expressions import fill_in\n"
        "ctx = {'points': 3, 'empire': EnumValue('grecko', {'color': '#1f4e8c'}), 'nothing': None}\n"
        "got = [fill_in(s, ctx, Location('card.yaml'), 'text', Problems()) for s in ('{{ points }}', '{{ empire }}', '{{ empire.color }}', '{{ nothing }}')]\n"
        "assert got == ['3', 'grecko', '#1f4e8c', ''], got\n"
    )
    assert not loads_jinja(script)
