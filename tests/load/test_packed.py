"""What keeps a large deck's memory flat, seen from outside: card data read item by item
from the parser's events and, past a few thousand cards, kept packed (cardstore) must
still say where every mistake is, read YAML as YAML (anchors, merges), and give back the
cards exactly as loaded, packed or not."""

from __future__ import annotations

import json
import weakref

import pytest
from conftest import SMALL_CARDS, edit, line_of, make_small_game, run

from pnp.base.errors import display_path
from pnp.base.output import Output, writing_under
from pnp.base.paths import DEFAULT_GAME
from pnp.live.session import Session
from pnp.load import packed as cardstore
from pnp.load.game import load_game
from pnp.load.packed import PackedCards
from pnp.pipeline.build import build
from pnp.project.edition import make_editions
from pnp.project.options import BuildOptions
from pnp.project.project import prepare

KEPT = [0, 10, cardstore._KEPT]  # packed from the first card, from the eleventh, or (Mestá's decks) kept as loaded


def test_a_syntax_error_late_in_a_deck_is_located_with_the_mistakes_before_it(tmp_path):
    cards = "".join(f"- {{id: c{i}, title: Karta {i}}}\n" for i in range(50))
    cards = cards.replace("title: Karta 3}", "titel: Karta 3}") + "- {id: z, title: [Zlá}\n"
    game = make_small_game(tmp_path / "g", cards=cards)
    result = run("check", game)
    assert result.exit_code == 2
    assert f"cards.yaml:{line_of(game / 'cards.yaml', 'titel')}:12: unknown field 'titel' on card 'c3'" in result.output
    assert "cards.yaml:51:" in result.output and "YAML syntax error" in result.output
    assert "Traceback" not in result.output


def test_an_item_that_is_not_a_card_is_located(tmp_path):
    game = make_small_game(tmp_path / "g", cards=SMALL_CARDS + "- just words\n")
    result = run("check", game)
    assert result.exit_code == 1
    assert "cards.yaml:3:3: item 3 is not a card; expected a mapping such as '- id: ...'" in result.output


def test_a_byte_that_is_not_utf8_is_located(tmp_path):
    game = make_small_game(tmp_path / "g")
    (game / "cards.yaml").write_bytes(SMALL_CARDS.encode("utf-8") + b"- {id: c, title: Tretia \xff}\n")
    result = run("check", game)
    assert result.exit_code == 2
    assert "cards.yaml:3: the file is not valid UTF-8 text; save it as UTF-8" in result.output


def test_anchors_and_merge_keys_read_as_yaml(tmp_path):
    cards = "- &base {id: a, title: Prvá, text: Hráč získa mesto., color: red}\n- {<<: *base, id: b, title: Druhá}\n- {<<: [{title: Tretia}, *base], id: c}\n"
    game = make_small_game(tmp_path / "g", cards=cards)
    result = run("check", game)
    assert result.exit_code == 0, result.output  # the mapping's own keys win over merged ones: no duplicates
    loaded, _ = load_game(game)
    titles = {card.id: card.fields["title"] for card in loaded.decks["cards"].cards}
    assert titles == {"a": "Prvá", "b": "Druhá", "c": "Tretia"}  # of two merged mappings, the first wins
    assert {card.fields["text"] for card in loaded.decks["cards"].cards} == {"Hráč získa mesto."}


def test_a_duplicate_id_names_where_the_first_one_is(tmp_path):
    game = make_small_game(tmp_path / "g", cards=SMALL_CARDS + "- {id: a, title: Znova}\n")
    result = run("check", game)
    assert result.exit_code == 1
    assert "cards.yaml:3:3: id 'a' is used twice (first at " in result.output and "cards.yaml:1:3)" in result.output


@pytest.mark.parametrize("kept", KEPT)
def test_packed_cards_read_back_as_loaded(monkeypatch, kept):
    monkeypatch.setattr(cardstore, "_KEPT", kept)
    game, _ = load_game(DEFAULT_GAME)
    for deck in game.decks.values():
        assert isinstance(deck.cards, PackedCards)
        cards = list(deck.cards)
        assert cards and list(PackedCards(game.enums, cards)) == cards
        where = f"{display_path(DEFAULT_GAME / f'{deck.id}.yaml')}:"  # the file as the user is shown it
        for card in cards:
            assert str(card.loc).startswith(where)
            assert all(str(loc).startswith(where) for loc in card.field_locs.values())
    rim = next(card for card in game.decks["cities"].cards if card.id == "rim")
    assert rim.fields["empire"] is game.enums["empire"]["rim"]  # enumeration values shared, not copied
    cities = game.decks["cities"].cards
    assert cities[-1] == list(cities)[-1] and cities[2:4] == list(cities)[2:4]  # read by index, from the end, by slice


@pytest.mark.parametrize("kept", KEPT)
def test_a_translated_game_packs_its_own_enumeration_values(monkeypatch, kept):
    monkeypatch.setattr(cardstore, "_KEPT", kept)
    project = prepare(DEFAULT_GAME)
    (edition,) = make_editions(project, ["en"], allow_untranslated=True)
    english = edition.game
    rim = next(card for card in english.decks["cities"].cards if card.id == "rim")
    assert rim.fields["empire"] is english.enums["empire"]["rim"]
    assert rim.fields["empire"].name == english.enums["empire"]["rim"].attrs["name"]


def test_a_build_holds_a_few_cards_at_a_time_whatever_the_size_of_the_deck(tmp_path, monkeypatch):
    """Memory flat with the deck: every stage of a build, the manifest of its faces
    included, reads a packed deck's cards one at a time and lets each go."""
    alive, most = [0], [0]
    unpack = PackedCards._unpack

    def counted(self, data):
        card = unpack(self, data)
        alive[0] += 1
        most[0] = max(most[0], alive[0])
        weakref.finalize(card, lambda: alive.__setitem__(0, alive[0] - 1))
        return card

    monkeypatch.setattr(PackedCards, "_unpack", counted)
    monkeypatch.setattr(cardstore, "_KEPT", 100)  # a deck as large as those that are packed
    cards = "".join(f"- {{id: c{i}, title: Karta {i}, text: Hráč získa mesto.}}\n" for i in range(400))
    game = make_small_game(tmp_path / "g", cards=cards)
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "out" / "g" / "manifest-sk-a4.json").read_text(encoding="utf-8"))
    assert list(manifest["cards"]["cards"]) == sorted(f"c{i}" for i in range(400))  # every card, by id, each with both sides
    assert all(set(row) == {"copies", "title", "front", "back"} for row in manifest["cards"]["cards"].values())
    assert most[0] < 40, most  # of 400: a sheet's faces at most


@pytest.mark.parametrize("kept", [0, 3, cardstore._KEPT])
def test_the_watcher_sets_again_only_the_cards_edited_or_added_whether_the_deck_is_packed_or_not(tmp_path, monkeypatch, kept):
    """With kept=3 the deck is kept as loaded in the first build and packed once a card is
    added: the cards that did not change are not set again."""
    monkeypatch.setattr(cardstore, "_KEPT", kept)
    game = make_small_game(tmp_path / "g", cards=SMALL_CARDS + "- {id: c, title: Tretia, text: Hráč získa mesto.}\n")
    out = tmp_path / "out"
    session = Session(game, [out])

    def rebuild() -> str:
        with writing_under(Output(out)):
            build(game, BuildOptions(out=out), reuse=session)
        return session.rebuild_summary()

    assert rebuild().startswith("rebuilt cards-sk-a4.pdf (3 cards changed)")
    assert rebuild().startswith("nothing to rebuild")
    edit(game / "cards.yaml", "Tretia", "Tretia karta")
    assert rebuild().startswith("rebuilt cards-sk-a4.pdf (1 card changed)")
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text(encoding="utf-8") + "- {id: d, title: Štvrtá}\n", encoding="utf-8")
    assert rebuild().startswith("rebuilt cards-sk-a4.pdf (1 card changed)")
    assert "Štvrtá" in json.dumps(json.loads((out / "g" / "manifest-sk-a4.json").read_text(encoding="utf-8")), ensure_ascii=False)
