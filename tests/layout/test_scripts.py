"""Text in scripts beyond Latin, Greek and Cyrillic: Arabic joined and set right to left,
Hebrew in visual order, CJK broken between ideographs, Thai, Lao, Khmer and Myanmar where
ICU finds a word's end, and the error when the `scripts` extra that shapes them is missing. Read from the PDF, as a reader sees the card."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from conftest import make_small_game, run
from pdfread import drawn_strings, placed_text, reader

from pnp.assets import shaping
from pnp.assets.fonts import FontSet
from pnp.base.paths import FONTS_DIR
from pnp.layout import text
from pnp.layout.text import TextStyle, typeset, units
from pnp.layout.typography import typography

CJK = Path(__file__).parent.parent / "fixtures" / "fonts" / "DroidSansFallback-subset.ttf"  # a subset: see its README.md
MM = 72 / 25.4

LAYOUT = """\
size: [63, 88]
styles:
  body: {font: letters, size: 12, align: start}
elements:
  - text: "{{ title }}"
    box: [6, 6, 51, 14]
    style: body
  - text: "{{ text }}"
    box: [6, 24, 51, 56]
    style: body
    when: text is defined and text
"""


def script_game(folder: Path, cards: str, font: Path = FONTS_DIR / "DejaVuSans.ttf", language: str = "sk") -> Path:
    """The small game with its cards drawn in `font` (DejaVu Sans has Arabic and Hebrew)."""
    game = make_small_game(folder, cards)
    (game / "fonts").mkdir()
    shutil.copy(font, game / "fonts" / font.name)
    (game / "fonts" / "fonts.yaml").write_text(f"letters: {font.name}\n", encoding="utf-8")
    (game / "layouts").mkdir()
    (game / "layouts" / "card.yaml").write_text(LAYOUT, encoding="utf-8")
    game_yaml = (game / "game.yaml").read_text(encoding="utf-8")
    game_yaml = game_yaml.replace("front: basic/card", "front: card").replace("language: sk", f"language: {language}")
    (game / "game.yaml").write_text(game_yaml, encoding="utf-8")
    return game


def card_runs(game: Path, tmp_path: Path) -> list[tuple[str, float]]:
    """The strings drawn on the first sheet of fronts, as printed (left to right), with their x."""
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    (pdf,) = (tmp_path / "out" / game.name).glob("cards-*.pdf")
    return drawn_strings(reader(pdf).pages[0])


def test_arabic_is_drawn_joined_right_to_left(tmp_path):
    game = script_game(tmp_path / "g", "- {id: a, title: مرحبا}\n- {id: b, title: Druhá}\n", language="ar")
    runs = card_runs(game, tmp_path)
    # the joined forms (final alef, medial beh, initial meem: Arabic Presentation Forms-B),
    # left to right as they are seen: never the isolated letters U+0645 U+0631 U+062D U+0628 U+0627
    (x,) = [x for t, x in runs if t == "\ufe8e\ufe92\ufea3\ufeae\ufee3"]
    assert x > 100, runs  # align: start is on the right in Arabic (the box starts at 17 pt)
    assert not any(set(t) & set("مرحبا") for t, _ in runs)


def test_hebrew_is_in_visual_order_and_starts_on_the_right(tmp_path):
    game = script_game(tmp_path / "g", "- {id: a, title: שלום עולם}\n- {id: b, title: Druhá}\n")
    runs = card_runs(game, tmp_path)
    (x,) = [x for t, x in runs if t == "םלוע םולש"]  # one run with its space: the first word on the right, each letter drawn right to left
    assert x > 100, runs  # align: start is the right edge in a right-to-left paragraph ('Druhá' starts at 17 pt)
    assert "שלום עולם" in reader(tmp_path / "out" / game.name / "cards-sk-a4.pdf").pages[0].extract_text()  # copied out: both words, in order


def test_cjk_breaks_between_ideographs_not_before_closing_punctuation(tmp_path):
    body = "日本語のテキスト、「引用」です。" * 2
    game = script_game(tmp_path / "g", f"- {{id: a, title: 一二三, text: {body}}}\n- {{id: b, title: 二}}\n", font=CJK)
    runs = card_runs(game, tmp_path)
    lines = [t for t, _ in runs if t not in ("一二三", "二")][:-2]  # drawn line by line, top first; then the ruler's captions
    assert len(lines) == 3 and "".join(lines) == body, lines
    assert all(not line.startswith(("、", "。", "」")) and not line.endswith("「") for line in lines), lines


def test_units_follow_uax14_for_cjk_and_zero_width_spaces():
    assert units("日本語") == ["日", "本", "語"]
    assert units("「引用」です。") == ["「引", "用」", "で", "す。"]
    assert units("テキスト") == ["テ", "キ", "ス", "ト"]
    assert units("ข้าว\u200bปลา") == ["ข้าว", "ปลา"]
    assert units("Latin") == ["Latin"]


THAI = Path("/usr/share/fonts/truetype/tlwg/Loma.ttf")  # Debian's fonts-thai-tlwg (.ci/run installs it)


def test_thai_lao_khmer_and_myanmar_break_where_icu_finds_a_word_end():
    pytest.importorskip("icu4py")
    assert units("ภาษาไทยเป็นภาษาที่สวยงาม") == ["ภาษา", "ไทย", "เป็น", "ภาษา", "ที่", "สวยงาม"]
    assert units("ພາສາລາວ") == ["ພາສາ", "ລາວ"]
    assert units("ភាសាខ្មែរគឺជាភាសា") == ["ភាសាខ្មែរ", "គឺជា", "ភាសា"]
    assert units("မြန်မာဘာသာစကား") == ["မြန်မာဘာသာ", "စကား"]
    assert units("ไทย日本語") == ["ไทย", "日", "本", "語"]  # CJK keeps pnp's own rules beside them


@pytest.mark.parametrize("python, expected", [((3, 11), ""), ((99, 0), "Python 99.0 or later (icu4py has no wheel for Python {v}), then ")])
def test_thai_without_icu4py_is_an_error_that_says_what_installs_it(python, expected, tmp_path, monkeypatch):
    """Without icu4py (on Python 3.10 the extra installs none), a Thai text would run unbroken
    past its box: it is an error naming icu4py, and the Python it needs where it is too old."""
    if not THAI.is_file():
        pytest.skip(f"the font {THAI} is not installed (Debian package fonts-thai-tlwg)")
    monkeypatch.setattr(shaping, "missing_extra", lambda dictionary=False: "icu4py" if dictionary else "")
    monkeypatch.setattr(shaping, "ICU_PYTHON", python)
    text._typeset.cache_clear()
    try:
        game = script_game(tmp_path / "g", "- {id: a, title: ภาษาไทยเป็นภาษาที่สวยงาม}\n- {id: b, title: Druhá}\n", font=THAI, language="th")
        output = run("check", game).output
    finally:
        text._typeset.cache_clear()
    expected = expected.format(v=f"{sys.version_info[0]}.{sys.version_info[1]}")
    assert (
        "cards.yaml:1:18: title of card 'a' is in the Thai script, which pnp sets only with its 'scripts' extra (icu4py is not installed); "
        f'expected the extra installed: {expected}pip install "pnpkit[scripts]" (or pip install uharfbuzz python-bidi icu4py) [text-shaping]'
    ) in output, output
    assert "2 errors" not in output and "text-overflow" not in output  # the only problem


def test_a_text_that_needs_shaping_without_the_extra_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setattr(shaping, "missing_extra", lambda dictionary=False: "uharfbuzz")
    text._typeset.cache_clear()
    try:
        game = script_game(tmp_path / "g", "- {id: a, title: שלום}\n- {id: b, title: Druhá}\n")
        output = run("check", game).output
    finally:
        text._typeset.cache_clear()
    assert (
        "cards.yaml:1:18: title of card 'a' is in the Hebrew script, which pnp sets only with its 'scripts' extra (uharfbuzz is not installed); "
        'expected the extra installed: pip install "pnpkit[scripts]" (or pip install uharfbuzz python-bidi) [text-shaping]'
    ) in output, output
    assert "2 errors" not in output  # the only problem


@pytest.mark.parametrize("align, rtl, edge", [("start", False, "left"), ("start", True, "right"), ("end", True, "left")])
def test_start_and_end_follow_the_paragraph(align, rtl, edge, tmp_path):
    shutil.copy(FONTS_DIR / "DejaVuSans.ttf", tmp_path / "DejaVuSans.ttf")
    (tmp_path / "fonts.yaml").write_text("letters: DejaVuSans.ttf\n", encoding="utf-8")
    fonts = FontSet([tmp_path, FONTS_DIR])
    out = typeset("שלום" if rtl else "Mor", TextStyle(font="letters", align=align), 50 * MM, 20 * MM, fonts, typography("he" if rtl else "en"))
    (piece,) = out.lines[0]
    assert (piece.x + piece.width > 50 * MM - 0.01) == (edge == "right")


def test_latin_is_not_shaped():
    out = typeset("Hello world", TextStyle(), 50 * MM, 20 * MM, FontSet([FONTS_DIR]), typography("en"))
    assert all(not p.shape for line in out.lines for p in line)


def test_a_code_point_not_yet_assigned_takes_its_default_direction():
    """Python's Unicode data gives unassigned code points no class; UAX #9 gives them L, or R
    and AL in the blocks kept for right-to-left scripts (found by the rulebook fuzzer)."""
    pytest.importorskip("bidi")
    from pnp.assets.shaping import levels

    assert levels("\U00010c49 abc", None) == [1, 1, 2, 2, 2]  # R first: the paragraph runs right to left
    assert levels("\U000e0080 abc", None) == [0, 0, 0, 0, 0]  # L


MIRRORED = """\
size: [63, 88]
styles:
  body: {font: letters, size: 12, align: left}
elements:
  - rect: [4, 4, 10, 10]
    fill: "#ff0000"
  - text: "{{ title }}"
    box: [20, 6, 30, 14]
    style: body
"""


def _mirrored_game(tmp_path: Path, direction: str, mirror: str = "") -> Path:
    game = script_game(tmp_path / "g", "- {id: a, title: שלום}\n- {id: b, title: עולם}\n", language="he")
    (game / "layouts" / "card.yaml").write_text(mirror + MIRRORED, encoding="utf-8")
    with (game / "game.yaml").open("a", encoding="utf-8") as f:
        f.write(direction)
    return game


def _first_card(game: Path, tmp_path: Path) -> tuple[float, float]:
    """Where the first card's red square starts on the card, and its title on the sheet (pt)."""
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    (pdf,) = (tmp_path / "out" / game.name).glob("cards-*.pdf")
    page = reader(pdf).pages[0]
    (square, *_) = [(x, w) for x, y, w, h in _red_rects(page)]
    (title,) = [x for t, x, _ in placed_text(page) if t == "שלום"]
    return square[0], title


def _red_rects(page) -> list[tuple[float, float, float, float]]:
    from pypdf.generic import ContentStream

    found, red = [], False
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"rg":
            red = [float(v) for v in operands] == [1.0, 0.0, 0.0]
        elif op == b"re" and red:
            found.append(tuple(float(v) for v in operands))
    return found


def test_direction_rtl_mirrors_the_layout_and_mirror_false_refuses_it(tmp_path):
    """game.yaml's `direction: {he: rtl}`: the square at 4 mm from the left is drawn 4 mm
    from the right, and the title aligned left in its box [20, 6, 30, 14] ends at 43 mm (the
    box mirrored, its text aligned right); a layout with `mirror: false` stays as drawn."""
    plain = _first_card(_mirrored_game(tmp_path / "plain", ""), tmp_path / "plain")
    mirrored = _first_card(_mirrored_game(tmp_path / "rtl", "direction:\n  he: rtl\n"), tmp_path / "rtl")
    kept = _first_card(_mirrored_game(tmp_path / "kept", "direction:\n  he: rtl\n", "mirror: false\n"), tmp_path / "kept")
    assert abs(plain[0] - 4 * MM) < 0.01 and abs(mirrored[0] - 49 * MM) < 0.01, (plain, mirrored)  # on the card: 63 - 4 - 10
    left = plain[1] - 20 * MM  # the card's left edge on the sheet: the title starts its box
    assert left + 30 * MM < mirrored[1] < left + 43 * MM, (plain, mirrored)  # ending where its box ends
    assert kept == plain


def test_a_direction_for_no_language_is_an_error(tmp_path):
    game = _mirrored_game(tmp_path, "direction:\n  xx: rtl\n")
    output = run("check", game).output.replace(f"{game}/", "")
    assert (
        "game.yaml:" in output
        and (": direction is given for 'xx', which is not a language code that pnp knows; expected one like 'ar', 'he' or 'fa' [direction-language]") in output
    ), output


def test_fonts_yaml_replaces_fonts_in_one_language(tmp_path):
    """`he: {letters: ...}` in fonts.yaml draws the Hebrew edition in that file; a key that is
    no language is an error at its line."""
    game = _mirrored_game(tmp_path, "")
    (game / "fonts" / "fonts.yaml").write_text("letters: DejaVuSans.ttf\nxx:\n  letters: DejaVuSans.ttf\n", encoding="utf-8")
    output = run("check", game).output.replace(f"{game}/", "")
    assert (
        "fonts/fonts.yaml:2:1: fonts.yaml maps 'xx' to fonts, but 'xx' is not a language code that pnp knows; "
        "expected a font name with its .ttf file ('sans: MyFont.ttf'), or a language code with the fonts it uses ('ar: {sans: KacstOne.ttf}') [fonts-language]"
    ) in output, output
