"""The plain-scalar path of the YAML converter (`_plain`) reads every value as the
general one (`_Converter.construct`) does."""

from __future__ import annotations

import math

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.base.errors import Location, Problems
from pnp.load.yamlfile import _GENERAL, _Converter, _kept_plain, _plain, parse_yaml

TRICKY = [
    "12",
    "-3",
    "+4",
    "0",
    "012",
    "0x1f",
    "0o17",
    "1_000",
    "1:30",
    "2.5",
    "-0.75",
    "1.",
    ".5",
    "1.5e3",
    "1e3",
    ".inf",
    "-.inf",
    ".nan",
    "true",
    "False",
    "yes",
    "No",
    "on",
    "OFF",
    "y",
    "null",
    "~",
    "Null",
    "",
    "=",
    "<<",
    "2024-01-02",
    "2024-01-02 10:00:00",
    "name",
    "a b",
    "0.0",
    "00",
    "-0",
    "+.5",
    "1,000",
    "١٢",
    "12abc",
    "TRUE",
    "tRuE",
]


def _general(value: str) -> object:
    """`value` as the converter's general path reads a plain scalar."""
    converter = _Converter("t.yaml", Problems(), None, "")
    mark = yaml.Mark("t.yaml", 0, 0, 0, None, None)
    event = yaml.ScalarEvent(None, None, (True, False), value, mark, mark, style="")
    return converter.construct(event, Location("t.yaml", 1, 1))


def _same(fast: object, general: object) -> bool:
    if isinstance(fast, float) and isinstance(general, float) and math.isnan(fast):
        return math.isnan(general)
    return type(fast) is type(general) and fast == general


@pytest.mark.parametrize("value", TRICKY)
def test_plain_scalars_read_as_the_general_path_reads_them(value):
    fast = _plain(value)
    assert fast is _GENERAL or _same(fast, _general(value))
    assert _kept_plain(value) is _GENERAL or _same(_kept_plain(value), _general(value))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789+-._:eExXoObBTtRrUuFfAaLlSsNnIi~ ", min_size=1, max_size=12))
def test_generated_plain_scalars_read_as_the_general_path_reads_them(value):
    fast = _plain(value)
    assert fast is _GENERAL or _same(fast, _general(value))


def test_a_document_reads_plain_values_with_their_locations():
    data = parse_yaml("a: 12\nb: [2.5, true, ~, x]\n", "t.yaml")
    assert data == {"a": 12, "b": [2.5, True, None, "x"]}
    assert data.locs["a"] == Location("t.yaml", 1, 4)
    assert data["b"].locs[3] == Location("t.yaml", 2, 19)
