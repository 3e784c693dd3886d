"""Fuzzing: mutated game folders never make the pipeline raise anything but its own
located errors. The quick profile runs with the tests; the long one (10,000 examples)
is `python -m pytest -m slow tests/load/test_fuzz.py`."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from conftest import SMALL_CARDS, SMALL_GAME, SMALL_RULES, assert_located, make_small_game, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.base.errors import PnpError
from pnp.impose.sheets import SheetSpec
from pnp.pipeline.build import build
from pnp.project.options import BuildOptions

FILES = {"cards.yaml": SMALL_CARDS, "game.yaml": SMALL_GAME, "rules.yaml": SMALL_RULES}

nasty_text = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "\x1b[31m",
            "\u202eevil\u202c",
            "e\u0301\u0301\u0301",
            "🎲🃏",
            "שלום",
            "مرحبا",
            "\ufeff",
            "\t\r\n",
            "'",
            '"',
            ":",
            "- ",
            "*",
            "**x**",
            ":armada:",
            "{{ x }}",
            "&a",
            "*a",
            "!!python/object:os.system",
            "~",
            "null",
        ]
    ),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
)


@st.composite
def mutation(draw):
    name = draw(st.sampled_from(sorted(FILES)))
    source = FILES[name]
    kind = draw(st.sampled_from(["insert", "truncate", "replace-value", "nest", "bytes"]))
    if kind == "truncate":
        cut = draw(st.integers(0, len(source)))
        return name, source[:cut].encode()
    if kind == "insert":
        at = draw(st.integers(0, len(source)))
        return name, (source[:at] + draw(nasty_text) + source[at:]).encode("utf-8", "surrogatepass")
    if kind == "nest":
        depth = draw(st.integers(1, 300))
        return name, (source + "deep: " + "[" * depth + "]" * depth + "\n").encode()
    if kind == "bytes":
        at = draw(st.integers(0, len(source)))
        junk = draw(st.binary(min_size=1, max_size=20))
        data = source.encode()
        return name, data[:at] + junk + data[at:]
    # replace one value (after a ': ') with something nasty
    pieces = source.split(": ")
    index = draw(st.integers(1, len(pieces) - 1))
    value = draw(nasty_text)
    rest = pieces[index]
    end = min((rest.find(ch) for ch in ",}\n" if rest.find(ch) >= 0), default=len(rest))
    pieces[index] = value + rest[end:]
    return name, ": ".join(pieces).encode("utf-8", "surrogatepass")


def run_pipeline(name: str, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = make_small_game(Path(tmp) / "g")
        (folder / name).write_bytes(data)
        try:
            build(folder, BuildOptions(sheet=SheetSpec(sides="fronts"), out=Path(tmp) / "out"))
        except PnpError as err:
            assert_located(err.problems.items)


@pytest.mark.parametrize("name", ["game.yaml", "cards.yaml"])  # read whole, and item by item
def test_a_character_yaml_refuses_is_reported_at_its_line(tmp_path, name):
    folder = make_small_game(tmp_path / "g")
    lines = (folder / name).read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1][:5] + "\x1b" + lines[1][5:]
    (folder / name).write_text("".join(lines), encoding="utf-8")
    result = run("check", folder)
    assert result.exit_code == 2
    assert (
        f"{name}:2:6: YAML syntax error: unacceptable character #x001b: " in result.output
        and "; expected printable text: delete the character (most editors do not show it) [yaml-syntax]" in result.output
    )


@pytest.mark.parametrize(("text", "found"), [("hello\n", "'hello'"), ("# no cards yet\n", "an empty file")])
def test_card_data_that_is_not_a_list_is_reported_at_the_start_of_the_file(tmp_path, text, found):
    folder = make_small_game(tmp_path / "g")
    (folder / "cards.yaml").write_text(text, encoding="utf-8")
    result = run("check", folder)
    assert result.exit_code == 1
    assert f"cards.yaml:1:1: card data must be a list of cards (each starting with '- id: ...'); found {found} [data-shape]" in result.output


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(mutation())
def test_mutated_games_fail_only_with_located_errors(change):
    run_pipeline(*change)


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation())
def test_mutated_games_fail_only_with_located_errors_long(change):
    run_pipeline(*change)
