"""Ids that name files (card ids in the exports' images, deck ids in their folders) must
differ in more than case: on a file system that ignores case they would be one file."""

from __future__ import annotations

from conftest import make_small_game, run

CASE_CARDS = """\
- {id: Caesar, title: Prvá, text: Hráč získa mesto., color: red}
- {id: b, title: Druhá, text: Hráč stráca mesto.}
- {id: caesar, title: Tretia, text: Hráč stráca mesto.}
"""


def test_card_ids_differing_only_in_case_are_an_error_at_the_second(tmp_path):
    game = make_small_game(tmp_path / "hra", CASE_CARDS)
    result = run("check", game)
    assert result.exit_code == 1
    cards = game / "cards.yaml"
    assert (
        f"{cards}:3:3: card id 'caesar' differs from 'Caesar' (at {cards}:1:3) only in case, and exports name files by card ids; "
        "expected ids that differ in more than case (on Windows and macOS both would be one file) [card-id-case]"
    ) in result.output, result.output


def test_an_export_reports_it_before_writing_anything(tmp_path):
    game = make_small_game(tmp_path / "hra", CASE_CARDS)
    result = run("export", "png", game, "--out", tmp_path / "out")
    assert result.exit_code == 1 and "[card-id-case]" in result.output
    assert not [p for p in (tmp_path / "out").rglob("*") if p.is_file()]


def test_ids_that_differ_in_more_than_case_pass(tmp_path):
    game = make_small_game(tmp_path / "hra", CASE_CARDS.replace("id: caesar", "id: caesar2"))
    result = run("check", game)
    assert result.exit_code == 0, result.output


def test_deck_ids_differing_only_in_case(tmp_path):
    game = make_small_game(tmp_path / "hra")
    (game / "more.yaml").write_text("- {id: c, title: Tretia, text: Hráč stráca mesto.}\n", encoding="utf-8")
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(
        text.replace("back: basic/back}\n", "back: basic/back}\n  Cards: {type: card, data: more.yaml, front: basic/card, back: basic/back}\n"),
        encoding="utf-8",
    )
    result = run("check", game)
    assert result.exit_code == 1 and "deck id 'Cards' differs from 'cards'" in result.output and "[deck-id-case]" in result.output, result.output
