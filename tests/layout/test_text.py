"""Setting text in a box: what a reader of the card sees."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import edit, run

from pnp.assets.fonts import FontSet, bundled_fonts
from pnp.base.errors import Location, Problems
from pnp.base.paths import FONTS_DIR
from pnp.layout.text import TextStyle, typeset
from pnp.layout.textbox import set_in_box
from pnp.layout.typography import typography

FONTS = bundled_fonts()
MM = 72 / 25.4


def words(layout) -> list[str]:
    return [" ".join(p.text for p in line if p.font) for line in layout.lines]


def test_short_text_keeps_its_size():
    out = typeset("Mor", TextStyle(size=11, min_size=6), 50 * MM, 20 * MM, FONTS, typography("sk"))
    assert out.size == 11 and not out.overflow and words(out) == ["Mor"]


def test_long_text_shrinks_but_not_below_the_minimum():
    text = "Každý hráč stráca 1 hlavné mesto a 2 bežné mestá podľa vlastného výberu. " * 3
    out = typeset(text, TextStyle(size=11, min_size=6), 50 * MM, 30 * MM, FONTS, typography("sk"))
    assert 6 <= out.size < 11 and not out.overflow
    assert out.height <= 30 * MM + 0.01
    tiny = typeset(text * 5, TextStyle(size=11, min_size=6), 50 * MM, 30 * MM, FONTS, typography("sk"))
    assert tiny.overflow and tiny.size == 6


@pytest.mark.parametrize("align", ["left", "justify"])
@pytest.mark.parametrize("repeat", [1, 2, 3, 5, 8])
def test_a_shrunk_text_takes_the_largest_size_that_fits(align, repeat):
    text = "Každý hráč stráca 1 hlavné mesto a 2 bežné mestá podľa vlastného výberu. " * repeat
    out = typeset(text, TextStyle(size=12, min_size=5, align=align), 50 * MM, 30 * MM, FONTS, typography("sk"))
    assert not out.overflow and out.height <= 30 * MM + 0.01
    if out.size < 12:  # a quarter point larger (the next size tried) does not fit
        assert typeset(text, TextStyle(size=out.size + 0.25, align=align), 50 * MM, 30 * MM, FONTS, typography("sk")).overflow


def test_no_shrinking_without_a_minimum():
    text = "Hráč získa všetky ostatné vyložené mestá z rovnakého impéria od iných hráčov."
    out = typeset(text, TextStyle(size=11), 30 * MM, 5 * MM, FONTS, typography("sk"))
    assert out.size == 11 and out.overflow


def test_slovak_hyphenation_is_used_only_when_needed():
    word = "najnepravdepodobnejšieho"
    wide = typeset(f"to je {word} mesto", TextStyle(size=10), 80 * MM, 20 * MM, FONTS, typography("sk"))
    assert not any(line.endswith("-") for line in words(wide))
    narrow = typeset(f"to je {word} mesto", TextStyle(size=10), 28 * MM, 40 * MM, FONTS, typography("sk"))
    assert any(line.endswith("-") for line in words(narrow)), words(narrow)
    joined = "".join(w[:-1] if w.endswith("-") else w + " " for w in words(narrow))
    assert word in joined


def test_one_letter_prepositions_never_end_a_line_in_slovak():
    text = "Hráč(i) s najviac bodmi v staviteľstve získava(jú) 2 nové mestá z kôpky a tiež o meste."
    for width in range(20, 60, 2):
        out = typeset(text, TextStyle(size=10), width * MM, 100 * MM, FONTS, typography("sk"))
        for line in words(out):
            assert line.split()[-1] not in {"s", "v", "z", "a", "o"}, (width, words(out))


def test_markup_bold_italic_and_symbols():
    out = typeset("**Podmienka:** *iba* :armada: mesto", TextStyle(size=10), 80 * MM, 20 * MM, FONTS, typography("sk"), frozenset({"armada"}))
    pieces = [p for line in out.lines for p in line]
    fonts = {p.text: p.font for p in pieces}
    assert fonts["Podmienka:"].endswith("sans-bold")
    assert fonts["iba"].endswith("sans-italic")
    assert fonts["armada"] == ""  # a symbol, drawn as vector art
    assert not out.unknown_symbols


def test_unknown_symbol_and_missing_glyph_are_reported():
    out = typeset("znak :neznamy: a 漢", TextStyle(size=10), 80 * MM, 20 * MM, FONTS, typography("sk"), frozenset({"armada"}))
    assert out.unknown_symbols == ("neznamy",)
    assert out.missing == "漢"


def test_a_lone_asterisk_is_text():
    out = typeset("mestá označené * doplnil projekt", TextStyle(size=10), 80 * MM, 20 * MM, FONTS, typography("sk"))
    assert "*" in " ".join(words(out))


@pytest.mark.parametrize("align", ["left", "center", "right", "justify"])
def test_lines_stay_inside_the_box(align):
    text = "Hráč si vymení maximálne 5 svojich nepoužitých udalostí za rovnaký počet nových udalostí z kôpky."
    width = 40 * MM
    out = typeset(text, TextStyle(size=9, align=align), width, 60 * MM, FONTS, typography("sk"))
    for line in out.lines:
        assert line[0].x >= -0.01
        assert line[-1].x + line[-1].width <= width + 0.01


def test_a_short_number_stays_with_the_word_it_counts():
    text = "Hráč získa 2 nové mestá z kôpky a 1 udalosť."
    for width in range(20, 60, 2):
        out = typeset(text, TextStyle(size=10), width * MM, 100 * MM, FONTS, typography("en"))
        for line in words(out):
            assert not line.split()[-1].isdigit(), (width, words(out))


def test_a_glued_word_keeps_its_space_before_a_symbol_or_emphasis():
    out = typeset("Hráč s :armada: a *kurzívou*.", TextStyle(size=10), 120 * MM, 20 * MM, FONTS, typography("sk"), frozenset({"armada"}))
    (line,) = out.lines
    symbol = next(p for p in line if not p.font)
    before = line[line.index(symbol) - 1]
    assert before.text == "Hráč s " and symbol.x >= before.x + before.width - 0.01  # the space is set, not lost
    assert [p.text for p in line[line.index(symbol) + 1 :]] == ["a ", "kurzívou", "."]


def test_a_glued_word_breaks_only_inside_its_last_word():
    text = "Hráči sa striedajú v smere hodinových ručičiek a hra pokračuje ďalším hráčom a hra v smere"
    for width in range(25, 60):
        out = typeset(text, TextStyle(font="serif", size=9, align="justify"), width * MM, 200 * MM, FONTS, typography("sk"))
        for line in out.lines:
            last = line[-1].text
            assert not last.endswith((" -", " h-")) and not last.endswith("v -"), (width, last)


# --- markup: nesting, symbols inside emphasis, and markup the engine cannot read ----------


def fonts_of(layout) -> dict[str, str]:
    return {p.text: p.font for line in layout.lines for p in line}


def markup_issues(text: str) -> list[str]:
    out = typeset(text, TextStyle(size=10), 80 * MM, 40 * MM, FONTS, typography("sk"), frozenset({"civil"}))
    return [issue.describe(text) for issue in out.markup]


def test_a_symbol_inside_bold_or_italic_is_a_symbol():
    out = typeset("**Gain 2 :civil:** and *lose :civil:*", TextStyle(size=10), 80 * MM, 20 * MM, FONTS, typography("en"), frozenset({"civil"}))
    symbols = [p for line in out.lines for p in line if not p.font]
    assert [p.text for p in symbols] == ["civil", "civil"]
    assert not any(":" in p.text for line in out.lines for p in line if p.font)
    assert next(p.font for line in out.lines for p in line if p.text.startswith("Gain")).endswith("sans-bold")
    assert not out.markup


def test_bold_and_italic_nest():
    out = typeset("**bold *both* bold** and *it **both too** it* and ***all***", TextStyle(size=10), 120 * MM, 20 * MM, FONTS, typography("en"))
    fonts = fonts_of(out)
    assert fonts["both"].endswith("sans-bold-italic") and fonts["both too"].endswith("sans-bold-italic") and fonts["all"].endswith("sans-bold-italic")
    assert fonts["bold"].endswith("sans-bold") and fonts["it"].endswith("sans-italic")
    assert "*" not in " ".join(words(out)) and not out.markup


def test_italic_in_a_bold_style_stays_bold():
    out = typeset("Ťah *hráča* končí", TextStyle(font="sans-bold", size=10), 120 * MM, 20 * MM, FONTS, typography("sk"))
    fonts = fonts_of(out)
    assert fonts["hráča"].endswith("sans-bold-italic") and fonts["končí"].endswith("sans-bold")


def test_three_asterisks_close_one_mark_at_a_time():
    out = typeset("***a* b** and ***c** d*", TextStyle(size=10), 120 * MM, 20 * MM, FONTS, typography("en"))
    fonts = fonts_of(out)
    assert fonts["a"].endswith("bold-italic") and fonts["b"].endswith("sans-bold")
    assert fonts["c"].endswith("bold-italic") and fonts["d"].endswith("sans-italic")
    assert not out.markup


def test_escaped_characters_print_as_themselves():
    out = typeset(r"2 \* 3 at 10\:30\: and a \\ **bold\***", TextStyle(size=10), 120 * MM, 20 * MM, FONTS, typography("en"), frozenset({"civil"}))
    assert " ".join(words(out)).replace("  ", " ") == "2 * 3 at 10:30: and a \\ bold*"
    assert not out.markup and not out.unknown_symbols


def test_unreadable_markup_is_reported_where_it_is():
    assert markup_issues("**Gain 2 :civil:") == [
        "'**' at column 1 of '**Gain 2 :civil:' is never closed; expected a closing '**' after the text it marks, or '\\*' for a literal asterisk"
    ]
    assert markup_issues("first line\nmestá*") == [
        "'*' at line 2, column 6 of 'mestá*' closes nothing; expected an opening '*' before the text it marks, or '\\*' for a literal asterisk"
    ]
    assert [m.split(" of ")[0] for m in markup_issues("**bold *half bold**")] == ["'*' at column 8"]  # the bold still closes
    assert markup_issues("a****b")[0].startswith("'****' at column 2 of 'a****b' is not markup")
    assert markup_issues("rated * and ** here") == []  # an asterisk between spaces is a character


def test_unreadable_markup_is_printed_not_lost():
    out = typeset("**Gain 2", TextStyle(size=10), 80 * MM, 20 * MM, FONTS, typography("en"))
    assert words(out) == ["**Gain 2"]


def test_a_glued_word_keeps_its_space_before_a_symbol_or_another_font():
    out = typeset("cost 1 :civil: a **bold** word", TextStyle(size=10), 120 * MM, 20 * MM, FONTS, typography("sk"), frozenset({"civil"}))
    pieces = [p for line in out.lines for p in line]
    one = next(p for p in pieces if p.text.startswith("cost 1"))
    symbol = next(p for p in pieces if not p.font)
    space = 10 * 0.2  # a space is about a fifth of the size
    assert symbol.x >= one.x + typeset("cost 1", TextStyle(size=10), 120 * MM, 20 * MM, FONTS, typography("en")).lines[0][0].width + space
    a = next(p for p in pieces if p.font.endswith("sans") and p.text.rstrip().endswith("a"))
    bold = next(p for p in pieces if p.text == "bold")
    assert bold.x - (a.x + typeset(a.text.rstrip(), TextStyle(size=10), 120 * MM, 20 * MM, FONTS, typography("en")).lines[0][0].width) >= space


# --- the same on a built card, as a player and `pnp check` see it -------------------------


def card_game(tmp_path, text: str):
    import shutil

    from conftest import make_small_game

    from pnp.base.paths import DEFAULT_GAME

    game = make_small_game(tmp_path / "hra", f"- id: a\n  title: Prvá\n  text: '{text}'\n")
    (game / "symbols").mkdir()
    shutil.copy(DEFAULT_GAME / "symbols" / "armada.svg", game / "symbols" / "civil.svg")
    return game


def forms_drawn(page) -> set[str]:
    """Names of the forms (symbols) a page's content draws."""
    from pdfread import operations

    return {str(operands[0]) for operands, op in operations(page) if op == b"Do"}


def test_a_symbol_inside_bold_is_drawn_on_the_card(tmp_path):
    from conftest import run
    from pdfread import fonts, reader, text

    game = card_game(tmp_path, "**Získa 2 :civil:** a **tučné *oboje* tučné**")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "hra" / "cards-sk-a4.pdf"
    assert any(name.endswith("pnpsym_civil") for name in forms_drawn(reader(pdf).pages[0]))
    printed = text(pdf)
    assert "Získa 2" in printed and "civil" not in printed and "*" not in printed
    assert any(name.endswith("SourceSansPro-BoldIt") for name in fonts(pdf))


def test_an_unclosed_marker_fails_check_at_the_field(tmp_path):
    from conftest import run

    game = card_game(tmp_path, "**Získa 2 :civil: a mesto")
    result = run("check", game)
    assert result.exit_code == 1
    assert (
        "cards.yaml:3:9: text of card 'a' has markup the text engine cannot read: '**' at column 1 of '**Získa 2 :civil: a mesto' is never closed; expected a closing '**'"
        in result.output
    ), result.output


# --- what a text the fonts cannot print says ---------------------------------------------------

DEJAVU = FONTS_DIR / "DejaVuSans.ttf"  # the bundled fallback symbol font, which has Hebrew letters


def title_check(mesta: Path, title: str) -> str:
    events = mesta / "events.yaml"
    edit(events, "  title: Leonidas\n", f"  title: {title}\n")
    return run("check", mesta).output


def test_a_character_another_bundled_font_has_names_that_font(mesta):
    output = title_check(mesta, "Leonidas Ŋ")
    assert (
        "title of card 'leonidas' uses 'Ŋ' (U+014A), missing from font 'serif-bold'; "
        "expected a font that has them: 'sans', 'sans-bold', 'sans-semibold' (the style's 'font:') [font-glyph]"
    ) in output, output


def test_arabic_no_font_has_says_so(mesta):
    output = title_check(mesta, "ليونيداس")
    assert (
        "title of card 'leonidas' uses 'ا' (U+0627), 'د' (U+062F), 'س' (U+0633), 'ل' (U+0644), 'ن' (U+0646), 'و' (U+0648), 'ي' (U+064A), missing from font 'serif-bold'"
        in output
    )
    assert (
        "expected a font that has them: no bundled or game font does (add a .ttf that has them to the game's fonts/ folder, named in fonts/fonts.yaml) [font-glyph]"
    ) in output, output


def test_hebrew_a_game_font_has_is_named(mesta):
    (mesta / "fonts").mkdir()
    shutil.copy(DEJAVU, mesta / "fonts" / "DejaVuSans.ttf")
    (mesta / "fonts" / "fonts.yaml").write_text("hebrew: DejaVuSans.ttf\n", encoding="utf-8")
    output = title_check(mesta, "לאונידס")
    assert "expected a font that has them: 'hebrew' (the style's 'font:')" in output


def test_hebrew_a_font_has_is_set_right_to_left_without_a_problem(tmp_path):
    shutil.copy(DEJAVU, tmp_path / "DejaVuSans.ttf")
    (tmp_path / "fonts.yaml").write_text("hebrew: DejaVuSans.ttf\n", encoding="utf-8")
    fonts = FontSet([tmp_path, FONTS_DIR])
    problems = Problems()
    result = set_in_box(
        "שלום", TextStyle(font="hebrew"), (40, 10), fonts, typography("he"), (), Location("cards.yaml", 3, 10), "title of card 'x'", "", problems
    )
    assert [str(p) for p in problems.items] == []
    assert [(p.text, p.shape) for p in result.lines[0]] == [("שלום", "rtl")]


def test_a_symbol_in_a_game_without_symbols_says_there_are_none(tmp_path):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    game = tmp_path / "g"
    edit(game / "cards.yaml", "  text: Draw a card.\n", "  text: 'Draw a :star: card.'\n")
    edit(game / "layouts" / "card.yaml", "elements:\n", 'elements:\n  - symbol: "{{ suit }}"\n    box: [1, 1, 5, 5]\n')
    output = run("check", game).output
    assert "text of card 'dawn' uses symbol ':star:', which does not exist; expected nothing: the game defines no symbols [symbol-unknown]" in output
    assert "symbol 'sun' does not exist; expected nothing: the game defines no symbols [symbol-unknown]" in output
    assert "expected one of: " not in output and "expected one of: [" not in output


def test_a_component_of_a_deck_that_has_none_says_so(tmp_path):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    game = tmp_path / "g"
    edit(game / "layouts" / "card.yaml", '  - text: "{{ title }}"', "  - text: \"{{ component('cards', 'twilight').title }}\"")
    output = run("check", game).output
    assert "deck 'cards' has no component 'twilight' (did you mean 'midnight'?); expected one of: dawn, noon, dusk, midnight [template]" in output


def test_a_plain_line_with_a_colon_and_symbols_inside_words_prints_what_it_says():
    """A colon that opens no symbol prints; a symbol written against a word stays part of it."""
    out = typeset("Cena: 2:sun: za 3:moon:: každý", TextStyle(size=10), 120 * MM, 20 * MM, FONTS, typography("sk"), frozenset({"sun", "moon"}))
    (line,) = out.lines
    assert [(p.text, bool(p.font)) for p in line] == [("Cena: 2", True), ("sun", False), ("za 3", True), ("moon", False), (": každý", True)]
    assert not out.unknown_symbols and not out.markup


# --- each language's typography (layout/typography.py) ------------------------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [("cs", "kKsSvVzZoOuUaAiI"), ("sk", "kKsSvVzZoOuUaAiI"), ("pl", "wWzZiIoOaAuU"), ("en", ""), ("de", ""), ("fr", "")],
)
def test_the_one_letter_words_each_language_keeps_with_the_next_word(lang, words):
    for letter in "aAiIkKoOsSuUvVwWzZ":
        out = typeset(f"slovo {letter} druhé", TextStyle(size=10), 17 * MM, 40 * MM, FONTS, typography(lang))
        kept = any(f"{letter} druhé" in w for w in words_of(out))
        assert kept == (letter in words), (lang, letter, words_of(out))


def words_of(layout) -> list[str]:
    return ["".join(p.text for p in line if p.font) for line in layout.lines]


def test_french_spaces_before_punctuation_and_inside_guillemets_never_break():
    text = "Annoncez : « Ville » ; puis ? fin !"
    for width in range(12, 60, 2):
        out = typeset(text, TextStyle(size=10), width * MM, 80 * MM, FONTS, typography("fr"))
        found = words_of(out)
        assert not any(line.startswith((":", ";", "?", "!", "»")) or line.endswith("«") for line in found), found
    assert words_of(typeset(text, TextStyle(size=10), 120 * MM, 20 * MM, FONTS, typography("fr"))) == [
        "Annoncez\u00a0: «\u00a0Ville\u00a0»\u202f; puis\u202f? fin\u202f!"
    ]


def test_a_font_without_a_narrow_no_break_space_draws_a_no_break_space():
    """Source Serif (the bundled serif) lacks U+202F: a no-break space stands in, never a missing glyph."""
    out = typeset("Attention !", TextStyle(font="serif", size=10), 120 * MM, 20 * MM, FONTS, typography("fr"))
    assert words_of(out) == ["Attention\u00a0!"] and out.missing == ""


def test_a_no_break_space_does_not_stretch_on_a_justified_line():
    """reportlab draws U+00A0 as a space, which PDF word spacing would widen: a run holding
    one carries no word spacing, so the line ends at the box's edge."""
    out = typeset("Le joueur : gagne deux cartes et une ville de plus à la fin", TextStyle(size=10, align="justify"), 40 * MM, 80 * MM, FONTS, typography("fr"))
    for line in out.lines[:-1]:
        assert not any("\u00a0" in p.text and p.word_space for p in line)
        end = line[-1].x + line[-1].width
        assert end == pytest.approx(40 * MM, abs=0.01)


def test_a_word_with_its_own_hyphen_breaks_after_it_with_one_hyphen():
    """The patterns break on both sides of a compound's hyphen ('Dra-chen---E-li-xier'):
    the line ends in the word's own hyphen, never in two, and none starts with one."""
    for width in range(16, 40):
        out = typeset("Trinkt Drachen-Elixier", TextStyle(size=10, align="justify"), width * MM, 80 * MM, FONTS, typography("de"))
        found = words_of(out)
        assert not any(line.endswith("--") or line.startswith("-") for line in found), (width, found)
