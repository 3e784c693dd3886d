"""The example game of docs/layouts.md (docs/examples/elements) in its Hebrew and Arabic
editions, as its translators made them: every text translated, drawn in the bundled DejaVu
Sans, the layouts mirrored (direction: rtl) but the compass's (mirror: false). Each builds,
passes `pnp check`, reads back from the PDF in its words' logical order, and puts the
mirrored card's value at the mirrored place."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from conftest import run
from fontTools.ttLib import TTFont
from pdfread import card_boxes, placed_text, reader

from pnp.base.paths import FONTS_DIR

pytest.importorskip("uharfbuzz")
pytest.importorskip("bidi")

GAME = Path(__file__).parents[2] / "docs" / "examples" / "elements"
MM = 72 / 25.4
# Texts of one run each (one font, no number) and what they read back as, in logical order
READ_BACK = {
    "he": ("לאורך הצד", "מעבר צבע ליניארי", "התאמת תמונה", "ללא שיקוף", "משוקף", "סייר"),
    "ar": ("على طول الجانب", "تدرج خطي", "ملاءمة الصورة", "بلا انعكاس", "معكوس", "كشاف"),
}


@pytest.fixture(scope="module")
def editions(tmp_path_factory) -> dict[str, Path]:
    """The example's PDF in English, Hebrew and Arabic."""
    out = tmp_path_factory.mktemp("elements")
    found = {}
    for lang in ("en", "he", "ar"):
        result = run("build", GAME, "--lang", lang, "--out", out)
        assert result.exit_code == 0, result.output
        found[lang] = out / "elements" / f"elements-{lang}-a4.pdf"
    return found


@pytest.mark.parametrize("lang", ["he", "ar"])
def test_the_translation_is_complete_and_checks_clean(lang):
    """Its one warning: pnp has no catalogue of its own words in the language (the ruler's
    caption is set in the bundled sans, unshaped, so it stays English)."""
    result = run("check", GAME, "--lang", lang)
    said = result.output.splitlines()
    assert result.exit_code == 0 and said[-1] == "0 errors, 1 warning", result.output
    assert said[0].endswith(
        f"pnp has no words of its own in '{lang}': what it prints itself (the ruler's caption, the sheets' and folds' labels, the assembly pages, a rulebook's contents and index, the PDFs' subjects) will be in English; expected pnp.ID strings in game.yaml (pnp/i18n/own.py lists the ids) or a catalogue of pnp's words, pnp/i18n/own/{lang}.po [own-words-missing]"
    ), result.output
    status = run("i18n", "status", GAME)
    assert f"{lang}: 34/34 translated (100 %), 0 fuzzy, 0 missing" in status.output, status.output


@pytest.mark.parametrize("lang", ["he", "ar"])
def test_the_translation_reads_back_in_logical_order(editions, lang):
    text = unicodedata.normalize("NFKC", reader(editions[lang]).pages[0].extract_text())  # Arabic's presentation forms as letters
    lines = text.splitlines()
    for words in READ_BACK[lang]:
        assert words in lines, (words, lines)


def _advance(font: str, char: str, size: float) -> float:
    """The width of one character in a bundled font, in points."""
    ttf = TTFont(FONTS_DIR / font)
    return ttf["hmtx"][ttf.getBestCmap()[ord(char)]][0] / ttf["head"].unitsPerEm * size


def _on_card(pdf: Path, wanted: str) -> float:
    """Where the run `wanted` starts, in mm from the left edge of the card it is printed on."""
    page = reader(pdf).pages[0]
    boxes = card_boxes(page)
    ((x, box),) = [(x, b) for t, x, y in placed_text(page) if t == wanted for b in boxes if b[0] <= x <= b[0] + b[2] and b[1] <= y <= b[1] + b[3]]
    return (x - box[0]) / MM


def test_the_mirrored_card_has_its_value_in_the_other_corner(editions):
    """The value '3' is centred in its box [2, 2, 10, 10] of the 40 mm card: its middle is
    7 mm from the left in English, 33 mm in Hebrew (the box is [28, 2, 10, 10] there)."""
    english = _on_card(editions["en"], "3") + _advance("SourceSansPro-Bold.ttf", "3", 11) / 2 / MM
    hebrew = _on_card(editions["he"], "3") + _advance("DejaVuSans-Bold.ttf", "3", 11) / 2 / MM
    assert abs(english - 7) < 0.01 and abs(hebrew - 33) < 0.01, (english, hebrew)


def test_a_layout_that_says_mirror_false_is_not_mirrored(editions):
    """The compass keeps east on the right and west on the left in Hebrew."""
    assert _on_card(editions["he"], "מזרח") > 30 and _on_card(editions["he"], "מערב") < 10
    assert _on_card(editions["en"], "E") > 30 and _on_card(editions["en"], "W") < 10


@pytest.mark.parametrize("lang", ["he", "ar"])
def test_the_sheets_caption_names_the_game_in_letters_it_can_print(editions, lang):
    """The caption under the ruler is a plain line in pnp's sans, which has no Hebrew or
    Arabic (and would not shape them): it names the game and deck as the source language
    does, never as boxes."""
    text = reader(editions[lang]).pages[0].extract_text()
    caption = [line for line in text.splitlines() if "sheet 1/1" in line]
    assert caption == ["Elements · Elements · sheet 1/1 front"], caption


def test_a_title_the_captions_cannot_print_even_in_the_source_language_is_a_warning(tmp_path):
    from conftest import edit, make_small_game

    game = make_small_game(tmp_path / "g")
    edit(game / "game.yaml", "title: ", "title: משחק # ")
    result = run("check", game)
    assert (
        "warning: the game's title 'משחק' cannot be printed in the captions pnp writes on the sheets (under the ruler, on pieces), "
        "plain lines in the game's sans font, which cannot shape its script: they will show it as boxes or in the wrong order; "
        "expected a title and deck names in the Latin, Greek or Cyrillic alphabet in the game's source language [caption-script]"
    ) in result.output, result.output
