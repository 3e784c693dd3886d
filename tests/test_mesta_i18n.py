"""Mestá in English and Czech: complete, current, and no Slovak left on the cards."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from conftest import edit, run
from pdfread import text


def test_english_and_czech_are_complete():
    result = run("i18n", "status")
    assert result.exit_code == 0
    assert re.search(r"^cs: (\d+)/\1 translated \(100 %\), 0 fuzzy, 0 missing$", result.output, re.M), result.output
    assert re.search(r"^en: (\d+)/\1 translated \(100 %\), 0 fuzzy, 0 missing$", result.output, re.M), result.output


@pytest.fixture(scope="module")
def translated(tmp_path_factory):
    out = tmp_path_factory.mktemp("lang")
    result = run("build", "--lang", "all", "--out", out)
    assert result.exit_code == 0, result.output
    return out / "mesta"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["Julius Caesar", "Roman Commander", "Condition:", "Economic Crisis", "pnp project"]),
        ("cs", ["Julius Caesar", "Římský velitel", "Podmínka:", "Hospodářská krize", "projektu pnp"]),
    ],
)
def test_translated_decks_carry_the_translation_and_no_slovak(translated, lang, expected):
    printed = text(translated / f"events-{lang}-a4.pdf") + text(translated / f"cities-{lang}-a4.pdf")
    for phrase in expected:
        assert phrase in re.sub(r"\s+", " ", printed), phrase
    for slovak in ("Všetci hráči", "Podmienka", "kôpky", "Hlavné mesto", "Udalosť", "strácajú"):
        assert slovak not in printed, slovak


def test_changing_a_slovak_text_makes_exactly_it_fuzzy_and_check_names_it(mesta):
    edit(mesta / "events.yaml", "text: Všetci hráči strácajú všetky rímske mestá.", "text: Všetci hráči okamžite strácajú všetky rímske mestá.")
    result = run("i18n", "update", mesta)
    assert "cs: 0 new, 1 fuzzy, 0 obsolete" in result.output and "en: 0 new, 1 fuzzy, 0 obsolete" in result.output
    for lang in ("cs", "en"):
        with (mesta / "locale" / f"{lang}.po").open("rb") as handle:
            fuzzy = [m.context for m in read_po(handle) if m.id and m.fuzzy]
        assert fuzzy == ["julius-caesar.text"]
    check = run("check", mesta, "--lang", "all")
    assert check.exit_code == 1
    assert re.search(r"locale/cs\.po:\d+: 'julius-caesar\.text' is fuzzy", check.output)
    assert re.search(r"locale/en\.po:\d+: 'julius-caesar\.text' is fuzzy", check.output)
