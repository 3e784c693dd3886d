"""The bundled Mestá deck, built as a player would: what ends up on the paper."""

from __future__ import annotations

import re
from collections import Counter

import pytest
import yaml
from pdfread import MM, card_boxes, fonts, marks, reader, text

from pnp.base.paths import DEFAULT_GAME

A4 = (210 * MM, 297 * MM)
LETTER = (215.9 * MM, 279.4 * MM)


def events():
    return yaml.safe_load((DEFAULT_GAME / "events.yaml").read_text(encoding="utf-8"))


def squash(s: str) -> str:
    """Whitespace-insensitive text, with line-end hyphenation undone."""
    return re.sub(r"\s+", " ", re.sub(r"-\n", "", s)).strip()


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
    printed = text(built / "events-sk-a4.pdf")
    titles = Counter()
    for card in events():
        titles[card["title"]] += card.get("copies", 1)
    assert sum(titles.values()) == 75
    for title, count in titles.items():
        assert len(re.findall(rf"(?m)^{re.escape(title)}$", printed)) == count, title


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


def test_backs_carry_title_licence_and_attribution(built):
    back = reader(built / "cities-sk-a4.pdf").pages[1].extract_text()
    assert "Mestá" in back
    assert "Stanislav Hoferek" in squash(back)
    assert "CC BY-NC-ND" in back
