"""Each language's typography on a printed card, read back from the PDF: one-letter words
kept with the next word, French no-break spaces, and hyphenation a game lists itself."""

from __future__ import annotations

from pathlib import Path

import pyphen
import pytest
from conftest import edit, make_small_game, run
from makers import catalogue
from pdfread import placed_text, reader

from pnp.layout.typography import CONVENTIONS, Patterns

POLISH = "Gracz kładzie jedną kartę w mieście do końca rundy."  # without the rule, a line ends in 'w'
FRENCH = "Chaque joueur annonce Attention ! puis défausse deux cartes."  # without it, a line starts with '!'
GERMAN = "Trinkt das Drachenblutelixier sofort."

JUSTIFIED = """\
size: [63, 88]
styles:
  body: {font: sans, size: 10, align: justify}
elements:
  - text: "{{ text }}"
    box: [6, 10, 35, 60]
    style: body
"""


def game(tmp_path: Path, lang: str, text: str) -> Path:
    folder = make_small_game(tmp_path / "hra", f"- {{id: a, title: A, text: '{text}'}}\n")
    edit(folder / "game.yaml", "language: sk", f"language: {lang}")
    return folder


def lines(folder: Path, *args: str) -> list[str]:
    """The lines of text on the first card's front, top to bottom (each line is a run)."""
    out = folder.parent / "out"
    result = run("build", folder, "--out", out, *args)
    assert result.exit_code == 0, result.output
    pdf = next((out / folder.name).glob("cards-*.pdf"))
    runs = placed_text(reader(pdf).pages[0])
    return [text for text, _, _ in sorted(runs, key=lambda r: (-round(r[2], 1), r[1]))]


def test_a_polish_line_never_ends_in_a_one_letter_word(tmp_path):
    found = lines(game(tmp_path, "pl", POLISH))
    assert "w mieście do końca rundy." in found, found
    assert not any(line.endswith(" w") for line in found)


def test_a_translation_is_set_with_its_own_language_s_rules(tmp_path):
    """A Slovak game's Polish catalogue: its text follows the Polish rule, not the Slovak."""
    folder = game(tmp_path, "sk", "Hráč položí jednu kartu do mesta až do konca kola.")
    assert run("i18n", "update", folder, "--add", "pl").exit_code == 0
    po = folder / "locale" / "pl.po"
    from babel.messages.pofile import write_po

    catalog = catalogue(po)
    for message in catalog:
        if message.id:
            message.string = POLISH if message.id.startswith("Hráč") else message.id
    with po.open("wb") as handle:
        write_po(handle, catalog, width=0)
    found = lines(folder, "--lang", "pl")
    assert "w mieście do końca rundy." in found, found


def test_french_punctuation_keeps_a_narrow_no_break_space_before_it(tmp_path):
    found = lines(game(tmp_path, "fr", FRENCH))
    assert any("Attention\u202f!" in line for line in found), found  # the bundled sans has U+202F: it is drawn
    assert not any(line.startswith("!") for line in found)


def test_english_keeps_none_of_these_rules(tmp_path):
    """No convention is invented: in English the same line may end in 'w'."""
    assert "en" not in CONVENTIONS and "de" not in CONVENTIONS
    assert "Gracz kładzie jedną kartę w" in lines(game(tmp_path, "en", POLISH))


def german(tmp_path: Path, listed: str | None) -> list[str]:
    folder = game(tmp_path, "de", GERMAN)
    (folder / "layouts").mkdir()
    (folder / "layouts" / "card.yaml").write_text(JUSTIFIED, encoding="utf-8")
    edit(folder / "game.yaml", "front: basic/card", "front: card")
    if listed is not None:
        (folder / "game.yaml").write_text((folder / "game.yaml").read_text(encoding="utf-8") + f"hyphenation:\n  de: [{listed}]\n", encoding="utf-8")
    return lines(folder)


def test_a_listed_word_breaks_only_where_the_game_says(tmp_path):
    assert german(tmp_path / "patterns", None)[:2] == ["Trinkt das Drachenblu-", "telixier sofort."]  # the patterns: 'Dra-chen-blu-te-li-xier'
    assert german(tmp_path / "listed", "Drachen-blut-eli-xier")[:2] == ["Trinkt das Drachenblut-", "elixier sofort."]


def test_a_listed_word_without_hyphens_never_breaks(tmp_path):
    found = german(tmp_path, "Drachenblutelixier")
    assert any("Drachenblutelixier" in line for line in found), found  # whole, on one line


def check_errors(folder: Path) -> str:
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    return result.output.replace(str(folder.parent) + "/", "")


def test_listed_hyphenation_is_checked_where_it_is_written(tmp_path):
    folder = game(tmp_path, "de", GERMAN)
    listing = "hyphenation:\n  de: [Drachen-blut, Drachen_blut2, -Elixier, Dra-chenblut]\n  xx_YY: [Wort]\n"
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text(encoding="utf-8") + listing, encoding="utf-8")
    out = check_errors(folder)
    line = "  de: [Drachen-blut, Drachen_blut2, -Elixier, Dra-chenblut]"
    col = {word: line.index(word) + 1 for word in ("Drachen_blut2", "-Elixier", "Dra-chenblut")}
    expected = "the word's letters with a hyphen at each place it may break ('Drachen-blut-eli-xier'), or the word without hyphens to never break it"
    assert (
        f"hra/game.yaml:9:{col['Drachen_blut2']}: hyphenation word 'Drachen_blut2' for 'de' has '2', '_', which are not a letter or a hyphen; expected {expected} [hyphenation-word]"
        in out
    )
    assert (
        f"hra/game.yaml:9:{col['-Elixier']}: hyphenation word '-Elixier' for 'de' has a hyphen at its start or end, or two together; expected {expected} [hyphenation-word]"
        in out
    )
    assert (
        f"hra/game.yaml:9:{col['Dra-chenblut']}: hyphenation word 'Dra-chenblut' for 'de' is listed before as 'Drachen-blut'; expected each word once, with all the places it may break [hyphenation-word]"
        in out
    )
    assert (
        "hra/game.yaml:10:3: hyphenation lists words for 'xx_YY', which is not a language code that pnp knows; expected one like 'de', 'en' or 'pt_BR' [hyphenation-language]"
        in out
    )


@pytest.mark.parametrize("lang", ["sk", "cs", "pl", "de_DE", "fr", "en_US", "hu_HU", "nl_NL"])
def test_a_dictionary_read_by_pnp_breaks_words_where_pyphen_does(lang):
    """pnp reads pyphen's dictionaries itself, faster (typography.Patterns): the same
    patterns, so the same breaks (nonstandard ones, Hungarian's and Dutch's, at the same
    places), two letters at least on each side, glued words ('a hra') broken as a whole."""
    path = Path(pyphen.LANGUAGES[lang])
    ours, theirs = Patterns(path), pyphen.HyphDict(path)
    expected = {key: (start, tuple(map(int, values))) for key, (start, values) in theirs.patterns.items()}
    assert {key: ours.pattern(key) for key in ours.written} == {key: expected.get(key) for key in ours.written}  # None: a pattern of zeros
    assert ours.written.keys() >= expected.keys()
    words = "hráč vyložené rovnakého impéria Drachenblut-Elixier lettergrepen hyphenation Rechtschreibreform Éléphants Szövegszerkesztő".split()
    for word in [*words, *(f"a {w}" for w in words), *(w.upper() for w in words)]:
        assert list(ours.positions(word)) == list(pyphen.Pyphen(filename=str(path)).positions(word)), word


def test_a_pattern_written_again_counts_unless_it_breaks_nowhere(tmp_path):
    """A dictionary that writes a pattern's letters twice: the later one counts, as pyphen
    reads it, except a later one of zeros, which pyphen never keeps (Patterns.written)."""
    path = tmp_path / "hyph_xx.dic"
    path.write_text("UTF-8\nb1c\nb2c\nd1e\nd0e\nf0g\n", encoding="utf-8")
    ours, theirs = Patterns(path), pyphen.HyphDict(path)
    assert {key: ours.pattern(key) for key in ("bc", "de", "fg", "xy")} == {"bc": (1, (2,)), "de": (1, (1,)), "fg": None, "xy": None}
    assert {key: (start, tuple(map(int, values))) for key, (start, values) in theirs.patterns.items()} == {"bc": (1, (2,)), "de": (1, (1,))}
