"""The index in the reader's alphabet: Slovak and Czech letters of their own (č, ch, š, ž,
Czech ř) where a reader of those languages looks for them, other accents breaking ties."""

from __future__ import annotations

import re
from pathlib import Path

from test_rulebook import GOAL, build, make_game, pages_text

from pnp.rulebook.collate import Alphabet, sort_terms

SLOVAK = ["cesta", "čaj", "chata", "hora", "šach", "sova", "žaba", "zima"]


def test_slovak_letters_of_their_own() -> None:
    words = SLOVAK + ["ďateľ", "dub", "ľad", "lúka", "ťava", "tma", "ňufák", "nos"]
    assert sort_terms(reversed(words), "sk") == [
        "cesta", "čaj", "dub", "ďateľ", "hora", "chata", "lúka", "ľad", "nos", "ňufák", "sova", "šach", "tma", "ťava", "zima", "žaba",
    ]  # fmt: skip


def test_other_accents_only_break_ties() -> None:
    assert sort_terms(["ábel", "abeceda", "ačkoľvek", "Ábel", "ä", "a"], "sk") == ["a", "ä", "abeceda", "ábel", "Ábel", "ačkoľvek"]
    assert sort_terms(["Úsvit", "Útok", "Uhol"], "sk") == ["Uhol", "Úsvit", "Útok"]


def test_czech_r_caron_and_soft_consonants() -> None:
    assert sort_terms(["řeka", "sok", "ruka", "rak", "chata", "hora", "čaj", "cesta"], "cs") == ["cesta", "čaj", "hora", "chata", "rak", "ruka", "řeka", "sok"]
    assert sort_terms(["dub", "ďábel", "dům"], "cs") == ["ďábel", "dub", "dům"]  # ď only breaks ties in Czech...
    assert sort_terms(["dub", "ďábel", "dům"], "sk") == ["dub", "dům", "ďábel"]  # ...but is a letter in Slovak
    assert sort_terms(["řeka", "ruka", "rak"], "sk") == ["rak", "řeka", "ruka"]


def test_other_languages_sort_by_base_letters() -> None:
    assert sort_terms(["Zürich", "Zebra", "Äpfel", "Apfel", "Öl", "Ofen"], "de") == ["Apfel", "Äpfel", "Ofen", "Öl", "Zebra", "Zürich"]
    assert sort_terms(["ñu", "nube", "oso"], "es") == ["nube", "ñu", "oso"]
    assert sort_terms(["źle", "zupa", "żaba", "łza", "lis"], "pl") == ["lis", "łza", "zupa", "źle", "żaba"]


def test_index_letters() -> None:
    slovak, czech = Alphabet("sk"), Alphabet("cs-CZ")
    assert [slovak.initial(w) for w in ("chata", "Čaj", "Ábel", "ďateľ", "„Hry“", "12 miest")] == ["Ch", "Č", "A", "Ď", "H", ""]
    assert [czech.initial(w) for w in ("chata", "ďábel", "řeka")] == ["Ch", "D", "Ř"]


def test_the_printed_index_follows_the_slovak_alphabet(tmp_path: Path) -> None:
    terms = " ".join(f"[{word}]{{.index}}" for word in reversed(SLOVAK))
    game = make_game(tmp_path / "hra", GOAL.replace("v rohu.", f"v rohu. Slová: {terms}."))
    index = pages_text(build(game) / "rules-basic-sk-a4.pdf")[-1].split("Register", 1)[1]
    printed = [re.sub(r"\s*\d[\d, .]*$", "", line).strip() for line in index.splitlines()]
    printed = printed[: printed.index("žaba") + 1]
    assert [line for line in printed if line] == [
        "B", "bodovanie", "C", "cesta", "Č", "čaj", "H", "hora", "Ch", "chata", "K", "karta", "S", "sova", "Š", "šach", "Z", "zima", "Ž", "žaba",
    ]  # fmt: skip
