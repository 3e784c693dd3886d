"""Fuzzing rulebooks: mutated Markdown never makes check or build raise anything but pnp's
own located errors."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from conftest import assert_located
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.base.errors import PnpError
from pnp.base.paths import DEFAULT_GAME
from pnp.check.run import check_all
from pnp.pipeline.build import build
from pnp.project.options import BuildOptions
from pnp.project.project import prepare

GAME = """\
title: Hra
language: sk
decks:
  cards: {type: card, data: cards.yaml, front: basic/card}
rulebooks:
  rules:
    files: [rules.md]
    modes: [solo]
    facts:
      - {words: "kariet", value: "{{ cards | length }}"}
"""
RULES = "types:\n  card:\n    fields:\n      title: {type: text}\n"
CARDS = "- {id: a, title: A}\n- {id: b, title: B}\n"
SOURCE = """\
# Cieľ {#goal}

Hra má 2 kariet a :div: symbol; pozri [](#turn) a [term]{.index}.

::: example
**Príklad** s *dôrazom*.
:::

::: only solo
Sólo.
:::

## Ťah {#turn}

- jeden
- dva

| a | b |
|---|---|
{% for c in cards %}
| {{ c.title }} | x |
{% endfor %}

![](card:cards/a)
"""

nasty = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "\x00",
            "\u202eevil",
            "🎲",
            "{{",
            "{%",
            "{% for x in y %}",
            "}}",
            ":::",
            "::: note",
            "::::",
            "{#",
            "{#x}",
            "[](#",
            "](#x)",
            "![](card:",
            "|",
            "\n\n",
            "#",
            "*",
            "`",
            "<b>",
        ]
    ),
)


@st.composite
def mutation(draw):
    kind = draw(st.sampled_from(["insert", "truncate", "bytes"]))
    at = draw(st.integers(0, len(SOURCE)))
    if kind == "insert":
        return (SOURCE[:at] + draw(nasty) + SOURCE[at:]).encode("utf-8")
    if kind == "truncate":
        return SOURCE[:at].encode("utf-8")
    return SOURCE.encode("utf-8")[:at] + draw(st.binary(max_size=8)) + SOURCE.encode("utf-8")[at:]


def make(folder: Path, source: bytes) -> Path:
    folder.mkdir()
    (folder / "symbols").mkdir()
    shutil.copy(DEFAULT_GAME / "symbols" / "div.svg", folder / "symbols")
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "rules.yaml").write_text(RULES, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (folder / "rules.md").write_bytes(source)
    return folder


def test_the_unmutated_source_is_clean(tmp_path: Path) -> None:
    folder = make(tmp_path / "g", SOURCE.encode("utf-8"))
    assert not check_all(prepare(folder), ["sk"]).errors


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(mutation())
def test_mutated_rulebooks_fail_only_with_located_errors(source: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = make(Path(tmp) / "g", source)
        try:
            problems = check_all(prepare(folder), ["sk"])
        except PnpError as err:
            assert_located(err.problems.items)
            return
        assert_located(problems.items)
        if problems.errors:
            return
        try:
            build(folder, BuildOptions(out=Path(tmp) / "out"))
        except PnpError as err:
            assert_located(err.problems.items)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation())
def test_mutated_rulebooks_fail_only_with_located_errors_long(source: bytes) -> None:
    test_mutated_rulebooks_fail_only_with_located_errors.hypothesis.inner_test(source)
