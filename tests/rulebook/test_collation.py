"""An index in Slovak or Czech is in the order a reader of that language looks things up."""

from __future__ import annotations

from pnp.rulebook.collation import sort_key


def order(words: list[str], lang: str) -> list[str]:
    return sorted(words, key=lambda w: sort_key(w, lang))


def test_slovak_letters_of_their_own():
    words = ["žaba", "zima", "šach", "sova", "hora", "chata", "čaj", "cesta", "ôsmy", "oko", "ďateľ", "dom", "ísť", "ihla", "ťava", "tma"]
    assert order(words, "sk") == ["cesta", "čaj", "ďateľ", "dom", "hora", "chata", "ihla", "ísť", "oko", "ôsmy", "sova", "šach", "ťava", "tma", "zima", "žaba"]


def test_czech_r_with_caron_after_r_and_ch_after_h():
    assert order(["řeka", "rys", "ryba", "chléb", "hrad", "isté"], "cs") == ["hrad", "chléb", "isté", "ryba", "rys", "řeka"]


def test_accents_only_break_ties_and_case_comes_last():
    assert order(["ár", "ar", "as", "Ar"], "sk") == ["ar", "Ar", "ár", "as"]


def test_other_languages_ignore_accents_for_order():
    assert order(["šach", "sova", "chata", "hora"], "en") == ["chata", "hora", "šach", "sova"]


def test_the_mesta_rulebook_index_is_in_slovak_order(built):
    from pypdf import PdfReader

    reader = PdfReader(built / "rules-sk-a4.pdf")
    text = " ".join(page.extract_text() for page in reader.pages[-3:-1])  # the index ends the book, before the back cover
    at = {word: text.rindex(word) for word in ("Hutníctvo", "Charizma", "Kartágo", "Strata vplyvu", "Špionáž", "Ticho", "Zjednotenie", "Židia")}
    assert at["Hutníctvo"] < at["Charizma"] < at["Kartágo"]  # ch after h
    assert at["Strata vplyvu"] < at["Špionáž"] < at["Ticho"]  # š after s
    assert at["Zjednotenie"] < at["Židia"]
