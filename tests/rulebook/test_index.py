"""The printed index in the reader's alphabet, grouped under its letters: in Slovak and Czech
'Ch' after 'H', 'Š' after 'S' (the order itself: tests/rulebook/test_collation.py)."""

from __future__ import annotations

import re
from pathlib import Path

from makers import GOAL, build_book, make_game, pages_text

from pnp.rulebook.collation import initial

SLOVAK = ["cesta", "čaj", "chata", "hora", "šach", "sova", "žaba", "zima"]


def test_index_letters() -> None:
    assert [initial(w, "sk") for w in ("chata", "Čaj", "Ábel", "ďateľ", "ôsmy", "„Hry“", "12 miest")] == ["Ch", "Č", "A", "D", "Ô", "H", ""]
    assert [initial(w, "cs-CZ") for w in ("chata", "ďábel", "řeka", "ôsmy")] == ["Ch", "D", "Ř", "O"]
    assert [initial(w, "en") for w in ("chata", "Škoda", "éclair")] == ["C", "S", "E"]


def test_the_printed_index_follows_the_slovak_alphabet(tmp_path: Path) -> None:
    terms = " ".join(f"[{word}]{{.index}}" for word in reversed(SLOVAK))
    game = make_game(tmp_path / "hra", GOAL.replace("v rohu.", f"v rohu. Slová: {terms}."))
    index = "\n".join(pages_text(build_book(game) / "rules-basic-sk-a4.pdf")[-3:-1]).split("Register", 1)[1]  # before the back cover
    printed = [re.sub(r"\s*\d[\d, .]*$", "", line).strip() for line in index.splitlines()]
    printed = [line for line in printed if line not in ("Hra: Pravidlá — Basic", "Register")]  # the running head of the index's next page
    printed = printed[: printed.index("žaba") + 1]
    assert [line for line in printed if line] == [
        "B", "bodovanie", "C", "cesta", "Č", "čaj", "H", "hora", "Ch", "chata", "K", "karta", "S", "sova", "Š", "šach", "Z", "zima", "Ž", "žaba",
    ]  # fmt: skip
