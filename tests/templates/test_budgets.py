"""A game's templates are bounded (pnp/expressions.py): one that would loop for ever, build
a text or list of gigabytes or a number of millions of digits stops within seconds with an
error at its line that names the limit, in a layout, a rule, a rulebook and a translation.

Within seconds, counted as work, not time: the steps each evaluation spent from its
budget (sandbox.Budget), and the memory what it made took."""

from __future__ import annotations

import re
import shutil
import tracemalloc
from pathlib import Path

import pytest
from babel.messages.pofile import write_po
from conftest import edit, line_of, run
from makers import catalogue, instances_of, make_game, translate_all

from pnp.base.errors import Location, Problems
from pnp.base.paths import DEFAULT_GAME
from pnp.templates import sandbox
from pnp.templates.expressions import FAILED, evaluate_at, fill_in
from pnp.templates.sandbox import MAX_STEPS

AGES = DEFAULT_GAME.parent / "ages"
LIMIT = "(pnp's limit for one expression or template)"
STEPS = f"it ran more than 1,000,000 steps {LIMIT}; expected fewer or shorter loops [template]"
TEXT = f"it makes a text of more than 1,000,000 characters {LIMIT}; expected a shorter text [template]"
LIST = f"it makes a list of more than 1,000,000 items {LIMIT}; expected a shorter list [template]"
NUMBER = f"it makes a number of more than 1,000 digits {LIMIT}; expected a smaller number [template]"
WRITTEN = f"it writes more than 1,000,000 characters {LIMIT}; expected a shorter text [template]"
NESTED = "{% for a in range(100000) %}{% for b in range(100000) %}{% if a < b %}{% endif %}{% endfor %}{% endfor %}{{ title }}"

HOSTILE_TEMPLATES = [
    (NESTED, STEPS),
    ("{% for a in range(50000) %}{% for b in range(50000) %}{% for c in range(50000) %}{% endfor %}{% endfor %}{% endfor %}", STEPS),
    ("{% macro f(n) %}{% for i in range(3) %}{{ f(n) }}{% endfor %}{% endmacro %}{{ f(1) }}", "it calls itself without end"),
    ("{{ 'ab' * 10**9 }}", TEXT),
    ("{{ 10**9 * 'ab' }}", TEXT),
    ("{{ [0] * 10**8 }}", LIST),
    ("{{ range(90000)|list * 90000 }}", LIST),
    ("{{ 7 ** (10**9) }}", NUMBER),
    ("{{ (10 ** 900) * (10 ** 900) }}", NUMBER),
    ("{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}", TEXT),
    ("{% set ns = namespace(s=[1]) %}{% for i in range(64) %}{% set ns.s = ns.s + ns.s %}{% endfor %}", LIST),
    ("{% set l = [1] %}{% for i in range(64) %}{% if l.extend(l) %}{% endif %}{% endfor %}", LIST),
    ("{{ ('x' * 900000).replace('x', 'yyyyyyyy') }}", TEXT),
    ("{{ ('x' * 900000)|replace('x', 'yyyyyyyy') }}", TEXT),
    ("{{ (['z' * 900000] * 900)|join(',') }}", TEXT),
    ("{{ ['z' * 900000] * 900 }}", TEXT),
    ("{{ ('x\n' * 400000)|indent(40) }}", TEXT),
    ("{{ 'x'|center(10**9) }}", TEXT),
    ("{{ [1]|batch(10**9, 0)|list }}", LIST),
    ("{{ '%0999999999d' % 1 }}", TEXT),
    ("{{ '%*d' % (10**9, 1) }}", TEXT),
    ("{{ '%.999999999f'|format(1.5) }}", TEXT),
    ("{{ '{:>999999999}'.format(1) }}", TEXT),
    ("{{ '{:{}}'.format(1, 10**9) }}", TEXT),
    ("{{ (1).to_bytes(10**9, 'big') }}", TEXT),
    ("{% for i in range(2000) %}{{ 'w' * 999 }}{% endfor %}", WRITTEN),
    ("{% for i in range(1000) %}" + "v" * 2000 + "{% endfor %}", WRITTEN),
    ("{% set big = range(99999)|list %}{% for i in range(99999) %}{% if -1 in big %}{% endif %}{% endfor %}", STEPS),
    ("{{ lipsum(10**9) }}", "'lipsum' is undefined"),
]


MOST = MAX_STEPS * 1.05  # what one evaluation may spend: its budget, and what the step past it charged
SIZES = (TEXT, LIST, NUMBER, WRITTEN)  # the limits on what a template makes
MEMORY = 64 * 2**20  # bytes: a value at its limit takes a few MB, one of gigabytes is refused before it is made


@pytest.fixture
def budgets(monkeypatch) -> list[sandbox.Budget]:
    """Every budget an evaluation in this process spends from, as it is made."""
    return instances_of(monkeypatch, sandbox, "Budget")


def within_budgets(budgets: list[sandbox.Budget], ran_out: int) -> None:
    """Every evaluation stopped within its budget, `ran_out` of them at it, and the others
    together spent less than one: the work of a run is bounded by the failures it reports."""
    assert budgets and all(b.steps <= MOST for b in budgets), max(b.steps for b in budgets)
    assert sum(b.steps > MAX_STEPS for b in budgets) == ran_out
    assert sum(b.steps for b in budgets if b.steps <= MAX_STEPS) < MAX_STEPS


def peak_memory(evaluate):
    """What `evaluate()` returns, and the most memory it held at once (bytes)."""
    tracemalloc.start()
    try:
        return evaluate(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(("source", "expected"), HOSTILE_TEMPLATES)
def test_a_hostile_template_stops_fast_with_the_limit_it_reached(source: str, expected: str, budgets: list[sandbox.Budget]) -> None:
    problems = Problems()

    def evaluate():
        return fill_in(source, {}, Location("layouts/x.yaml", 4, 11), "text", problems)

    if expected in SIZES:  # refused before it is made, or once it is as large as the limit
        value, peak = peak_memory(evaluate)
        assert peak < MEMORY
    else:  # memory is traced only where it is what the limit is about: tracing makes a loop five times slower
        value = evaluate()
    assert value is None
    assert budgets and all(b.steps <= MOST for b in budgets)  # stopped by its budget, not past it
    assert len(problems.items) == 1 and str(problems.items[0]).startswith(f"layouts/x.yaml:4:11: text: {expected}"), problems.items


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("'ab' * 10**9 == ''", TEXT),
        ("(range(90000)|list) * 90000", LIST),
        ("2 ** 10**9 > 1", NUMBER),  # Jinja reads it (2 ** 10) ** 9: not too big
        ("2 ** (10**9) > 1", NUMBER),
        ("range(100000)|map('string')|map('center', 999999)|join", STEPS),
    ],
)
def test_a_hostile_expression_stops_fast(source: str, expected: str, budgets: list[sandbox.Budget]) -> None:
    problems = Problems()
    value, peak = peak_memory(lambda: evaluate_at(source, {}, Location("rules.yaml", 3, 12), "where", problems))
    assert peak < MEMORY or expected not in SIZES  # a budget of steps lets a lazy join hold 100 MB of texts before it is spent
    assert budgets and all(b.steps <= MOST for b in budgets)
    if source.startswith("2 ** 10**9"):
        assert value is True and not problems.items
    else:
        assert value is FAILED and [str(p) for p in problems.items] == [f"rules.yaml:3:12: where: {expected}"]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("{{ 'ab' * 3 }}|{{ 3 * 4 }}|{{ 2 ** 10 }}|{{ '%05.1f' % 2.25 }}|{{ '{:>4}'.format('x') }}", "ababab|12|1024|002.2|   x"),
        ("{% for c in cards %}{{ c }}{{ ',' if not loop.last }}{% endfor %}|{{ cards|join('-') }}|{{ 'b' in cards }}", "a,b,c|a-b-c|True"),
        ("{{ (range(100000)|list)|length }}|{{ range(1000)|sum }}|{{ ('x' * 999999)|length }}", "100000|499500|999999"),
        ("{{ none }}|{{ [1, 'a'] }}|{{ 'a' ~ 1 ~ none }}|{{ '%s=%d'|format('n', 4) }}", "|[1, 'a']|a1None|n=4"),
        ("{{ {'a': 1}.get('b', 20000000) }}|{{ '%d' % 123456789012 }}|{{ 10 ** 30 }}", "20000000|123456789012|1000000000000000000000000000000"),
    ],
)
def test_ordinary_templates_are_untouched(source: str, expected: str) -> None:
    problems = Problems()
    assert fill_in(source, {"cards": ["a", "b", "c"]}, Location("x.yaml", 1), "text", problems) == expected
    assert not problems.items


@pytest.fixture
def ages(tmp_path: Path) -> Path:
    target = tmp_path / "ages"
    shutil.copytree(AGES, target)
    return target


def places(output: str, first: str) -> int:
    """How many places the grouped problem whose line holds `first` is reported at."""
    lines = output.splitlines()
    at = next(n for n, line in enumerate(lines) if first in line)
    same = re.fullmatch(r"  the same at ((?:\d+:\d+, )*\d+:\d+)(?: \.\.\. and (\d+) more \w+)?", lines[at + 1]) if at + 1 < len(lines) else None
    return 1 + (len(same.group(1).split(", ")) + int(same.group(2) or 0) if same else 0)


def test_a_layout_that_loops_for_ever_is_an_error_at_its_line(ages: Path, budgets: list[sandbox.Budget]) -> None:
    layout = ages / "layouts" / "aid.yaml"
    edit(layout, '- text: "{{ title }}"', f'- text: "{NESTED}"')
    result = run("build", ages, "--out", ages.parent / "out")
    assert result.exit_code == 1, result.output
    line = line_of(layout, "range(100000)")
    assert f"layouts/aid.yaml:{line}:" in result.output and STEPS in result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert result.output.count(STEPS) == 3  # every aid card reports it...
    within_budgets(budgets, ran_out=3)  # ...each stops within its budget, once
    assert not (ages.parent / "out" / "ages").exists() or not list((ages.parent / "out" / "ages").glob("*.pdf"))


def test_a_rule_that_builds_a_gigabyte_is_an_error_at_its_line(ages: Path, budgets: list[sandbox.Budget]) -> None:
    rules = ages / "rules.yaml"
    edit(rules, "    where: players == 'three'\n", "    where: players == 'three' and ('ab' * 10**9) != ''\n")
    result = run("check", ages)
    assert result.exit_code == 1, result.output
    line = line_of(rules, "10**9")
    assert f"rules.yaml:{line}:12: constraint 'one-three-player-card-per-age': where: {TEXT}" in result.output
    within_budgets(budgets, ran_out=0)  # refused before it is made: no budget spent on it


def test_a_rule_message_that_loops_for_ever_is_an_error_at_its_line(ages: Path, budgets: list[sandbox.Budget]) -> None:
    rules = ages / "rules.yaml"
    hostile = "{% for a in range(99999) %}{% for b in range(99999) %}{% endfor %}{% endfor %}"
    edit(rules, "    message: Antiquity civil cards are used", f'    message: "{hostile}" # Antiquity civil cards are used')
    edit(rules, "    expect: not players\n", "    expect: id != 'asha'\n")  # fails on one card: its message is filled in once
    result = run("check", ages)
    assert result.exit_code == 1, result.output
    line = line_of(rules, "range(99999)")
    assert f"rules.yaml:{line}:14: constraint 'antiquity-has-no-player-marks': message: {STEPS}" in result.output
    within_budgets(budgets, ran_out=places(result.output, "[antiquity-has-no-player-marks]"))  # once for each card it fails on


HOSTILE_GOAL = """\
# Cieľ hry {#goal}

Hra má {{ cards | length }} kariet.

{% for a in range(100000) %}{% for b in range(100000) %}{{ a }}{% endfor %}{% endfor %}
"""


def test_a_rulebook_that_loops_for_ever_is_an_error_at_its_line(tmp_path: Path, budgets: list[sandbox.Budget]) -> None:
    game = make_game(tmp_path / "hra", goal=HOSTILE_GOAL)
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert "rules/01-goal.md:5:" in result.output and STEPS in result.output
    assert "Traceback" not in result.output
    within_budgets(budgets, ran_out=2)  # once for each mode of the rulebook (basic, solo), which both read the file


def test_a_translation_that_builds_a_gigabyte_is_an_error(tmp_path: Path, budgets: list[sandbox.Budget]) -> None:
    game = make_game(tmp_path / "hra")
    assert run("i18n", "update", game, "--add", "en").exit_code == 0
    po = game / "locale" / "en.po"
    translate_all(po)
    catalog = catalogue(po)
    for message in catalog:
        if message.id == "Zamiešaj všetkých {{ cards | length }} kariet.":
            message.string = "Shuffle all {{ '!' * 10**10 ~ cards | length }} cards."  # the same names as the source: only the budget stops it
    with po.open("wb") as handle:
        write_po(handle, catalog, width=0)
    budgets.clear()  # those of making the catalogue
    result = run("build", game, "--out", tmp_path / "out", "--lang", "en")
    assert result.exit_code == 1, result.output
    assert TEXT in result.output and "Traceback" not in result.output
    within_budgets(budgets, ran_out=0)  # refused before it is made
