"""The bundled Mestá deck, built as a player would: what ends up on the paper."""

from __future__ import annotations

import re
from collections import Counter

import pytest
import yaml
from pdfread import MM, card_boxes, drawn, fonts, marks, reader, sized_text, text

from pnp.base.paths import DEFAULT_GAME

A4 = (210 * MM, 297 * MM)
LETTER = (215.9 * MM, 279.4 * MM)


def events():
    return yaml.safe_load((DEFAULT_GAME / "events.yaml").read_text(encoding="utf-8"))


def squash(s: str) -> str:
    """Whitespace-insensitive text, with line-end hyphenation undone."""
    return re.sub(r"\s+", " ", re.sub(r"-\n", "", s)).strip()


def cards_text(page) -> list[list[tuple[str, float]]]:
    """The runs of text printed on each card of a sheet, (text, points), card by card in
    drawing order (the ruler and the caption outside the cards left out)."""
    runs = sized_text(page)
    return [[(t, size) for t, x, y, size in runs if bx <= x <= bx + bw and by <= y <= by + bh] for bx, by, bw, bh in card_boxes(page)]


def test_each_deck_and_the_rulebook_get_their_own_pdf(built):
    decks = ["aids-sk-a4.pdf", "cities-sk-a4.pdf", "events-sk-a4.pdf"]
    boxes = ["cities-box-sk-a4.pdf", "events-box-sk-a4.pdf"]
    assert sorted(p.name for p in built.iterdir()) == sorted([*decks, *boxes, "rules-sk-a4.pdf", "rules-sk-a5-booklet.pdf", "manifest-sk-a4.json"])


def test_pages_are_exactly_a4(built):
    for pdf in built.glob("*.pdf"):
        # the A5 booklet is printed two pages to an A4 sheet, landscape
        width, height = A4[::-1] if pdf.name.endswith("-booklet.pdf") else A4
        for page in reader(pdf).pages:
            assert float(page.mediabox.width) == pytest.approx(width, abs=0.01)
            assert float(page.mediabox.height) == pytest.approx(height, abs=0.01)


def test_every_event_text_is_printed_word_for_word(built):
    printed = squash(text(built / "events-sk-a4.pdf"))
    for card in events():
        assert squash(card["text"]) in printed, card["id"]
        assert squash(card["title"]) in printed, card["id"]
        if "condition" in card:
            assert squash("Podmienka: " + card["condition"]) in printed, card["id"]


def test_every_card_is_printed_as_often_as_its_copies(built):
    pdf = reader(built / "events-sk-a4.pdf")
    titles = Counter()
    for card in events():
        titles[card["title"]] += card.get("copies", 1)
    assert sum(titles.values()) == 75
    printed = Counter()
    for page in pdf.pages[0::2]:
        for card in cards_text(page):
            largest = max(size for _, size in card)  # the title, on one line or two
            printed[" ".join(t for t, size in card if size == largest)] += 1
    assert printed == titles


def test_city_deck_has_54_cards_on_its_own_size(built):
    pdf = reader(built / "cities-sk-a4.pdf")
    boxes = [box for page in pdf.pages[0::2] for box in card_boxes(page)]
    assert len(boxes) == 54
    assert {(round(w / MM, 2), round(h / MM, 2)) for _, _, w, h in boxes} == {(44.0, 68.0)}
    events_pdf = reader(built / "events-sk-a4.pdf")
    sizes = {(round(w / MM, 2), round(h / MM, 2)) for page in events_pdf.pages for _, _, w, h in card_boxes(page)}
    assert sizes == {(63.0, 88.0)}


def test_every_font_is_embedded(built):
    for pdf in built.glob("*.pdf"):
        found = fonts(pdf)
        assert found, pdf
        assert all(found.values()), found
        assert not any("Helvetica" in name for name in found)


def test_crop_marks_are_one_card_apart_and_reach_the_sheet_edge(built):
    page = reader(built / "events-sk-a4.pdf").pages[0]
    segs = marks(page)
    vertical = sorted({round(x1, 3) for x1, y1, x2, y2 in segs if x1 == x2 and (y1 == 0 or y2 == pytest.approx(A4[1]))})
    horizontal = sorted({round(y1, 3) for x1, y1, x2, y2 in segs if y1 == y2 and (x1 == 0 or x2 == pytest.approx(A4[0]))})
    assert len(vertical) == 4 and len(horizontal) == 4  # 3 x 3 poker cards, butted
    for a, b in zip(vertical, vertical[1:]):
        assert (b - a) / MM == pytest.approx(63, abs=0.2)
    for a, b in zip(horizontal, horizontal[1:]):
        assert (b - a) / MM == pytest.approx(88, abs=0.2)
    # centred: equal margins left and right, top and bottom
    assert vertical[0] == pytest.approx(A4[0] - vertical[-1], abs=0.01)
    assert horizontal[0] == pytest.approx(A4[1] - horizontal[-1], abs=0.01)


def test_every_back_lands_behind_its_front_on_a_long_edge_flip(built):
    pdf = reader(built / "cities-sk-a4.pdf")
    assert len(pdf.pages) == 8  # 4 sheets of 16 city cards (the last one partly), each front + back
    for front, back in zip(pdf.pages[0::2], pdf.pages[1::2]):
        fronts, backs = card_boxes(front), card_boxes(back)
        assert len(fronts) == len(backs)
        for (fx, fy, fw, _), (bx, by, _, _) in zip(fronts, backs):
            # turning the sheet over its long (vertical) edge maps x to page width - x
            assert bx == pytest.approx(A4[0] - fx - fw, abs=0.01)
            assert by == pytest.approx(fy, abs=0.01)
    last_front = card_boxes(pdf.pages[-2])
    assert len(last_front) == 54 - 3 * 16  # no backs printed for missing fronts


def test_viewer_is_told_to_print_at_actual_size_and_duplex(built):
    prefs = reader(built / "events-sk-a4.pdf").trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge"


def test_sheet_carries_a_ruler_and_print_instructions(built):
    first = reader(built / "events-sk-a4.pdf").pages[0].extract_text()
    assert "tlačte na 100 % (skutočná veľkosť)" in first
    assert "toto pravítko má 50 mm" in first


def symbols(page) -> Counter:
    """How often each of the game's symbols is drawn on a page, by the symbol's name."""
    return Counter({name.split("pnpsym_")[-1]: n for name, n in drawn(page).items() if "pnpsym_" in name})


def test_backs_are_designed_as_backs_without_licence_text(built):
    for deck, word, mark in (("cities", "Mesto", "mesto"), ("events", "Udalosť", "udalost")):
        back = reader(built / f"{deck}-sk-a4.pdf").pages[1]
        for card in cards_text(back):
            assert [t for t, _ in card] == ["Mestá", word], deck  # the game's name and the deck's, nothing else
        assert symbols(back)[mark] == len(card_boxes(back)), deck  # the deck's icon on every back
        assert "CC BY-NC-ND" not in back.extract_text()
        assert "Hoferek" not in back.extract_text()


def test_the_reference_card_carries_the_attribution_and_explains_the_star(built):
    printed = squash(text(built / "aids-sk-a4.pdf"))
    assert "Stanislav Hoferek, Greenie knižnica, CC BY-NC-ND 4.0" in printed
    assert "mestá označené * a sily všetkých miest doplnil projekt pnp" in printed


def test_event_texts_are_set_at_9_points_or_more(built):
    pdf = reader(built / "events-sk-a4.pdf")
    sizes = [size for page in pdf.pages[0::2] for card in cards_text(page) for _, size in card]
    assert len(sizes) > 75 * 3
    assert min(sizes) >= 9


def test_every_event_shows_its_kind_and_commanders_their_empire(built):
    pdf = reader(built / "events-sk-a4.pdf")
    printed = sum((symbols(page) for page in pdf.pages[0::2]), Counter())
    kinds = Counter()
    for card in events():
        kinds[card["kind"]] += card.get("copies", 1)
    for kind, count in kinds.items():
        # in both top corners, and large in the middle unless the card shows what it acts on
        assert printed[kind] >= 2 * count, kind
    first = symbols(pdf.pages[0])  # the eight commanders, each with its empire's emblem
    for empire in ("rim", "grecko", "kartago", "egypt", "perzia", "kelti", "zidia", "etruskovia"):
        assert first[empire] == 1, empire


def test_a_capital_says_it_is_one_without_repeating_its_name(built):
    rim = cards_text(reader(built / "cities-sk-a4.pdf").pages[0])[0]
    words = [t for t, _ in rim]
    assert words.count("Rím") == 1
    assert "Hlavné mesto" in words


def test_city_and_reference_card_labels_are_readable(built):
    cities = reader(built / "cities-sk-a4.pdf")
    sizes = [size for page in cities.pages[0::2] for card in cards_text(page) for _, size in card]
    assert min(sizes) >= 7  # the discipline labels too
    aid = cards_text(reader(built / "aids-sk-a4.pdf").pages[0])
    assert len(aid) == 4  # four reference cards fill the sheet
    assert min(size for card in aid for _, size in card) >= 8
