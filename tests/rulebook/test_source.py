"""Jinja in rulebook text: a template tag must not change the words around it."""

from __future__ import annotations

from pathlib import Path

from makers import GOAL, build_book, make_game, pages_text, squash


def test_a_tag_ending_a_line_of_text_keeps_the_space_to_the_next_line(tmp_path: Path) -> None:
    goal = GOAL.replace(
        "Zamiešaj všetkých",
        "Balíček je {% if cards | length > 3 %}veľký{% else %}malý{% endif %}\na stačí na hru.\n\nZamiešaj všetkých",
    )
    text = squash(" ".join(pages_text(build_book(make_game(tmp_path / "hra", goal=goal)) / "rules-basic-sk-a4.pdf")))
    assert "Balíček je veľký a stačí na hru." in text  # not 'veľkýa'
    assert "| Karta 1 |" not in text and "Karta 5" in text  # a loop's own lines still leave no blank lines: the table holds


def test_a_percent_brace_that_closes_no_tag_is_text(tmp_path: Path) -> None:
    goal = GOAL.replace("Zamiešaj všetkých", "Balíček má {{ cards | length }} kariet, zľava 50 %}\na nič viac.\n\nZamiešaj všetkých")
    text = squash(" ".join(pages_text(build_book(make_game(tmp_path / "hra", goal=goal)) / "rules-basic-sk-a4.pdf")))
    assert "zľava 50 %} a nič viac." in text  # not '50 +%}'
