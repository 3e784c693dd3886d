"""pnp's own words (pnp/i18n/own.py): every catalogue of pnp's says every word in its
language, keeps the values pnp fills in, and has the plural forms its language needs."""

from __future__ import annotations

import pytest

from pnp.i18n.own import OWN_DIR, SOURCE, catalogue, own_words, placeholders
from pnp.templates.plurals import Plurals

COMPLETE = ("sk", "cs", "de", "fr", "pl")  # every word translated
PARTIAL = ("hu", "es", "it")  # a rulebook's words only: the rest in English


def test_pnp_has_its_words_in_these_languages():
    assert sorted(p.stem for p in OWN_DIR.glob("*.po")) == sorted(COMPLETE + PARTIAL)


@pytest.mark.parametrize("lang", COMPLETE)
def test_a_complete_catalogue_translates_every_word_as_it_is_today(lang):
    found = catalogue(lang)
    assert sorted(found) == sorted(SOURCE), "a word missing, or translated from an English text that has changed since"


@pytest.mark.parametrize("lang", PARTIAL)
def test_a_partial_catalogue_translates_a_rulebooks_words(lang):
    found = catalogue(lang)
    assert sorted(found) == sorted(key for key in SOURCE if key.startswith("rulebook."))


@pytest.mark.parametrize("lang", COMPLETE + PARTIAL)
def test_every_translation_keeps_the_values_pnp_fills_in_and_has_its_languages_plural_forms(lang):
    for key, text in catalogue(lang).items():
        source = SOURCE[key]
        if isinstance(source, tuple):
            assert len(text) == Plurals(lang).count, key
            assert all(placeholders(form) == placeholders(source[1]) for form in text), key
        else:
            assert placeholders(text) == placeholders(source), key
            assert text.count("\n") == source.count("\n"), key  # one printed line per line


def test_a_number_picks_the_plural_form_of_the_language():
    sk, cs, pl, en = (own_words(lang) for lang in ("sk", "cs", "pl", "en"))
    assert [sk("assembly.grid", n=n, cols=3) for n in (1, 2, 5)] == ["1 rad po 3", "2 rady po 3", "5 radov po 3"]
    assert [cs("assembly.grid", n=n, cols=3) for n in (1, 3, 6)] == ["1 řada po 3", "3 řady po 3", "6 řad po 3"]
    assert [pl("assembly.grid", n=n, cols=2) for n in (1, 22, 25)] == ["1 rząd po 2", "22 rzędy po 2", "25 rzędów po 2"]
    assert [en("assembly.grid", n=n, cols=3) for n in (1, 2)] == ["1 row of 3", "2 rows of 3"]


def test_a_regional_variant_uses_its_languages_words_and_an_unknown_language_english():
    assert own_words("de_AT")("fold") == "falzen"
    assert own_words("ja")("fold") == "fold"


def test_a_games_string_replaces_a_word_and_its_plural_forms():
    words = own_words("sk", {"pnp.fold": "ohnúť tu", "pnp.assembly.pieces": "{n} kus|{n} kusy|{n} kusov", "fold": "not pnp's"})
    assert words("fold") == "ohnúť tu"
    assert [words("assembly.pieces", n=n) for n in (1, 3, 8)] == ["1 kus", "3 kusy", "8 kusov"]
    assert words("rulebook.index") == "Register"  # the others stay pnp's
