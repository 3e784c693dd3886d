"""Setting text in a box: what a reader of the card sees."""

from __future__ import annotations

import pytest

from pnp.fonts import bundled_fonts
from pnp.text import TextStyle, typeset

FONTS = bundled_fonts()
MM = 72 / 25.4


def words(layout) -> list[str]:
    return [" ".join(p.text for p in line if p.font) for line in layout.lines]


def test_short_text_keeps_its_size():
    out = typeset("Mor", TextStyle(size=11, min_size=6), 50 * MM, 20 * MM, FONTS, "sk")
    assert out.size == 11 and not out.overflow and words(out) == ["Mor"]


def test_long_text_shrinks_but_not_below_the_minimum():
    text = "Každý hráč stráca 1 hlavné mesto a 2 bežné mestá podľa vlastného výberu. " * 3
    out = typeset(text, TextStyle(size=11, min_size=6), 50 * MM, 30 * MM, FONTS, "sk")
    assert 6 <= out.size < 11 and not out.overflow
    assert out.height <= 30 * MM + 0.01
    tiny = typeset(text * 5, TextStyle(size=11, min_size=6), 50 * MM, 30 * MM, FONTS, "sk")
    assert tiny.overflow and tiny.size == 6


def test_no_shrinking_without_a_minimum():
    text = "Hráč získa všetky ostatné vyložené mestá z rovnakého impéria od iných hráčov."
    out = typeset(text, TextStyle(size=11), 30 * MM, 5 * MM, FONTS, "sk")
    assert out.size == 11 and out.overflow


def test_slovak_hyphenation_is_used_only_when_needed():
    word = "najnepravdepodobnejšieho"
    wide = typeset(f"to je {word} mesto", TextStyle(size=10), 80 * MM, 20 * MM, FONTS, "sk")
    assert not any(line.endswith("-") for line in words(wide))
    narrow = typeset(f"to je {word} mesto", TextStyle(size=10), 28 * MM, 40 * MM, FONTS, "sk")
    assert any(line.endswith("-") for line in words(narrow)), words(narrow)
    joined = "".join(w[:-1] if w.endswith("-") else w + " " for w in words(narrow))
    assert word in joined


def test_one_letter_prepositions_never_end_a_line_in_slovak():
    text = "Hráč(i) s najviac bodmi v staviteľstve získava(jú) 2 nové mestá z kôpky a tiež o meste."
    for width in range(20, 60, 2):
        out = typeset(text, TextStyle(size=10), width * MM, 100 * MM, FONTS, "sk")
        for line in words(out):
            assert line.split()[-1] not in {"s", "v", "z", "a", "o"}, (width, words(out))


def test_markup_bold_italic_and_symbols():
    out = typeset("**Podmienka:** *iba* :armada: mesto", TextStyle(size=10), 80 * MM, 20 * MM, FONTS, "sk", frozenset({"armada"}))
    pieces = [p for line in out.lines for p in line]
    fonts = {p.text: p.font for p in pieces}
    assert fonts["Podmienka:"].endswith("sans-bold")
    assert fonts["iba"].endswith("sans-italic")
    assert fonts["armada"] == ""  # a symbol, drawn as vector art
    assert not out.unknown_symbols


def test_unknown_symbol_and_missing_glyph_are_reported():
    out = typeset("znak :neznamy: a 漢", TextStyle(size=10), 80 * MM, 20 * MM, FONTS, "sk", frozenset({"armada"}))
    assert out.unknown_symbols == ("neznamy",)
    assert out.missing == "漢"


def test_a_lone_asterisk_is_text():
    out = typeset("mestá označené * doplnil projekt", TextStyle(size=10), 80 * MM, 20 * MM, FONTS, "sk")
    assert "*" in " ".join(words(out))


@pytest.mark.parametrize("align", ["left", "center", "right", "justify"])
def test_lines_stay_inside_the_box(align):
    text = "Hráč si vymení maximálne 5 svojich nepoužitých udalostí za rovnaký počet nových udalostí z kôpky."
    width = 40 * MM
    out = typeset(text, TextStyle(size=9, align=align), width, 60 * MM, FONTS, "sk")
    for line in out.lines:
        assert line[0].x >= -0.01
        assert line[-1].x + line[-1].width <= width + 0.01


def test_a_short_number_stays_with_the_word_it_counts():
    text = "Hráč získa 2 nové mestá z kôpky a 1 udalosť."
    for width in range(20, 60, 2):
        out = typeset(text, TextStyle(size=10), width * MM, 100 * MM, FONTS, "en")
        for line in words(out):
            assert not line.split()[-1].isdigit(), (width, words(out))


def test_a_glued_word_keeps_its_space_before_a_symbol_or_emphasis():
    out = typeset("Hráč s :armada: a *kurzívou*.", TextStyle(size=10), 120 * MM, 20 * MM, FONTS, "sk", frozenset({"armada"}))
    (line,) = out.lines
    symbol = next(p for p in line if not p.font)
    before = line[line.index(symbol) - 1]
    assert before.text == "Hráč s " and symbol.x >= before.x + before.width - 0.01  # the space is set, not lost
    assert [p.text for p in line[line.index(symbol) + 1 :]] == ["a ", "kurzívou", "."]


def test_a_glued_word_breaks_only_inside_its_last_word():
    text = "Hráči sa striedajú v smere hodinových ručičiek a hra pokračuje ďalším hráčom a hra v smere"
    for width in range(25, 60):
        out = typeset(text, TextStyle(font="serif", size=9, align="justify"), width * MM, 200 * MM, FONTS, "sk")
        for line in out.lines:
            last = line[-1].text
            assert not last.endswith((" -", " h-")) and not last.endswith("v -"), (width, last)
