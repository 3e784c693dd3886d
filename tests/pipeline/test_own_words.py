"""What pnp itself prints on sheets and pages (the ruler's caption, the fold, a tuck box's
sheet, a board's assembly page and pieces, a rulebook's contents and index, the
calibration sheet) is in the language of the build: a Slovak or Czech build has no
English word of pnp's on any page, and a game may replace any of them."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import edit, make_small_game, run
from pdfread import reader

from pnp.base.paths import DEFAULT_GAME
from pnp.i18n.own import SOURCE, catalogue
from pnp.impose.paper import PAPERS

WORD = re.compile(r"[^\W\d_]{3,}")
PAPER_NAMES = {word.lower() for paper in PAPERS.values() for word in WORD.findall(paper.title)}


def english_words(lang: str, keys: list[str] | None = None) -> set[str]:
    """The words of pnp's English texts (of `keys`, or all) that `lang` does not share:
    none of them may be on a page of a build in `lang`."""
    english: set[str] = set()
    for key in keys or list(SOURCE):
        source = SOURCE[key]
        for text in source if isinstance(source, tuple) else (source,):
            english.update(word.lower() for word in WORD.findall(re.sub(r"\{\w+\}", " ", text)))
    shared: set[str] = set()
    for text in catalogue(lang).values():
        for form in text if isinstance(text, tuple) else (text,):
            shared.update(word.lower() for word in WORD.findall(re.sub(r"\{\w+\}", " ", form)))
    return english - shared


def game_words(game: Path, lang: str) -> set[str]:
    """The words a game's rulebooks write themselves in `lang` (their Markdown and its
    catalogue): Mestá's names the command `pnp build`, which is no word of pnp's on its page."""
    files = [path for path in game.rglob("*") if path.suffix == ".md" or path.name == f"{lang}.po"]
    texts = [re.sub(r"(^|\s)#.*", "", path.read_text(encoding="utf-8")) for path in files]  # not the comments, which are English
    return {word.lower() for text in texts for word in WORD.findall(text)}


def english_on(pdf: Path, lang: str, keys: list[str] | None = None, game: Path | None = None) -> list[tuple[int | str, str]]:
    """(page, word) for each English word of pnp's on a page of `pdf`, or in what a viewer
    shows of its metadata ('/Title', '/Subject', '/Keywords' in place of the page; a paper's
    name there, 'Half-letter', is a name), but those that `game` writes itself."""
    forbidden = english_words(lang, keys) - (game_words(game, lang) if game is not None else set())
    found: list[tuple[int | str, str]] = []
    read = reader(pdf)
    for number, page in enumerate(read.pages, 1):
        found += [(number, word) for word in WORD.findall(page.extract_text()) if word.lower() in forbidden]
    for field in ("/Title", "/Subject", "/Keywords"):
        text = str((read.metadata or {}).get(field, ""))
        found += [(field, word) for word in WORD.findall(text) if word.lower() in forbidden - PAPER_NAMES]
    return found


@pytest.fixture(scope="module")
def mesta_sk_cs(tmp_path_factory) -> Path:
    """Mestá built in Slovak and Czech, folded, with its tuck boxes and rulebooks."""
    out = tmp_path_factory.mktemp("own-words")
    result = run("build", DEFAULT_GAME, "--lang", "sk", "--lang", "cs", "--sides", "fold", "--out", out)
    assert result.exit_code == 0, result.output
    return out / "mesta"


@pytest.mark.parametrize("lang", ["sk", "cs"])
def test_no_page_of_a_slovak_or_czech_build_has_an_english_word_of_pnps(mesta_sk_cs, lang):
    pdfs = sorted(mesta_sk_cs.glob(f"*-{lang}-*.pdf"))
    names = {p.name for p in pdfs}
    assert {f"cities-{lang}-a4-fold.pdf", f"cities-box-{lang}-a4.pdf", f"rules-{lang}-a4.pdf", f"rules-{lang}-a5-booklet.pdf"} <= names
    assert english_words(lang) - game_words(DEFAULT_GAME, lang) >= {"print", "actual", "ruler", "sheet", "front", "fold", "tuck", "contents"}
    assert {pdf.name: english_on(pdf, lang, game=DEFAULT_GAME) for pdf in pdfs} == {pdf.name: [] for pdf in pdfs}


def test_the_slovak_sheets_say_how_to_print_them_in_slovak(mesta_sk_cs):
    fold = reader(mesta_sk_cs / "cities-sk-a4-fold.pdf").pages[0].extract_text()
    assert "prehnúť" in fold and "tlačte na 100 % (skutočná veľkosť): toto pravítko má" in fold
    box = reader(mesta_sk_cs / "cities-box-cs-a4.pdf").pages[0].extract_text()
    assert "tiskněte na 100 % (skutečná velikost): toto pravítko má 50 mm\nMěsta · Města (krabička)" in box
    rules = "".join(page.extract_text() for page in reader(mesta_sk_cs / "rules-cs-a4.pdf").pages)
    assert "Obsah" in rules and "Rejstřík" in rules


BOARD_GAME = """\
title: Deska
language: {lang}
attribution: Test.
decks:
  board: {{type: board, data: boards.yaml, front: board, back: board-back, name: Plán}}
"""


def board_game(folder: Path, lang: str) -> Path:
    """A board of 400 x 300 mm with a back: on A4, an assembly page and four pieces."""
    (folder / "layouts").mkdir(parents=True)
    for name, colour in (("board", "#f4efe1"), ("board-back", "#333333")):
        (folder / "layouts" / f"{name}.yaml").write_text(f"size: [400, 300]\nelements:\n  - rect: [0, 0, 400, 300]\n    fill: '{colour}'\n", encoding="utf-8")
    (folder / "game.yaml").write_text(BOARD_GAME.format(lang=lang), encoding="utf-8")
    (folder / "rules.yaml").write_text("types:\n  board:\n    fields:\n      title: {type: text}\n", encoding="utf-8")
    (folder / "boards.yaml").write_text("- {id: main, title: Plán}\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("lang", ["sk", "cs"])
def test_a_board_in_pieces_says_how_to_put_it_together_in_the_language_of_the_build(tmp_path, lang):
    result = run("build", board_game(tmp_path / "deska", lang), "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "deska" / f"board-{lang}-a4.pdf"
    assert len(reader(pdf).pages) == 5  # the assembly page, then four pieces
    assert english_on(pdf, lang) == []
    assembly = reader(pdf).pages[0].extract_text()
    assert {"sk": "v 4 dielikoch (2 rady po 2)", "cs": "v 4 dílcích (2 řady po 2)"}[lang] in assembly
    assert {"sk": "Rub („board-back“) sa netlačí", "cs": "Rub („board-back“) se netiskne"}[lang] in assembly


def test_the_calibration_sheet_in_slovak(tmp_path):
    result = run("calibrate", "--lang", "sk", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "calibration-a4-long.pdf"
    front, back = (page.extract_text() for page in reader(pdf).pages)
    assert "Túto stranu vytlačte obojstranne na 100 % (skutočná veľkosť)" in front and "--back-offset -1,0.5" in front
    assert back.startswith("Rub kalibračného hárku")
    assert english_on(pdf, "sk", [key for key in SOURCE if key.startswith("calibrate.")]) == []


def test_a_calibration_sheet_in_a_language_pnp_has_no_words_in_is_english_and_says_so(tmp_path):
    result = run("calibrate", "--lang", "ja", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert "warning: pnp has no words in 'ja'; the sheet's instructions are in English" in result.output
    assert "Print this page double-sided" in reader(tmp_path / "calibration-a4-long.pdf").pages[0].extract_text()


def test_a_game_replaces_pnps_word_with_its_own_string(tmp_path):
    game = make_small_game(tmp_path / "hra")
    edit(game / "game.yaml", "strings:\n", "strings:\n  pnp.fold: ohnúť tu\n")
    result = run("build", game, "--sides", "fold", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    page = reader(tmp_path / "out" / "hra" / "cards-sk-a4-fold.pdf").pages[0].extract_text()
    assert "ohnúť tu" in page and "prehnúť" not in page


@pytest.mark.parametrize(
    "line, message",
    [
        (
            "pnp.flod: ohni",
            "string 'pnp.flod' replaces none of pnp's own words (did you mean 'pnp.fold'?); expected one of the ids in pnp/i18n/own.py, after 'pnp.'",
        ),
        (
            "pnp.ruler: tlačte na 100 %",
            "string 'pnp.ruler' drops '{length}'; expected the values of the English 'print at 100 % (actual size): this ruler is {length} mm' kept",
        ),
        (
            "pnp.assembly.pieces: '{n} kus|{n} kusov'",
            "string 'pnp.assembly.pieces' has 2 forms; expected 3 forms for sk, for 1; for 2, 3, 4; for 0, 5, 6, ..., separated by '|' ('{n} piece|{n} pieces' in English)",
        ),
    ],
)
def test_a_games_replacement_that_pnp_cannot_use_is_an_error_at_its_line(tmp_path, line, message):
    game = make_small_game(tmp_path / "hra")
    edit(game / "game.yaml", "strings:\n", f"strings:\n  {line}\n")
    result = run("check", game)
    assert result.exit_code == 1, result.output
    column = 2 + line.index(": ") + 2 + 1  # at the value
    assert f"game.yaml:7:{column}: {message} [pnp-string]" in result.output.replace(str(game) + "/", "")


def test_an_old_key_of_a_rulebook_word_is_a_warning_that_names_the_new_one(tmp_path):
    game = make_small_game(tmp_path / "hra")
    edit(game / "game.yaml", "strings:\n", "strings:\n  rulebook_contents: Obsah hry\n")
    result = run("check", game)
    assert "string 'rulebook_contents' is no longer read: pnp's own words are replaced with pnp.ID keys; expected 'pnp.rulebook.contents'" in result.output


def pseudo_catalogues(game: Path, langs: tuple[str, ...]) -> None:
    """Catalogues for `langs` of an English game with every string pseudo-translated
    (accented, its markup and templates kept, as `--lang qps` does): the game's own words
    on its pages are then no English word, and every English word left there is pnp's."""
    from babel.messages.pofile import read_po, write_po

    from pnp.i18n.catalogues import pseudo_markdown

    result = run("i18n", "update", game, *(arg for lang in langs for arg in ("--add", lang)))
    assert result.exit_code == 0, result.output
    for lang in langs:
        po = game / "locale" / f"{lang}.po"
        with po.open("rb") as handle:
            catalogue_ = read_po(handle)
        for message in catalogue_:
            if not message.id:
                continue
            if isinstance(message.id, tuple):
                forms = [pseudo_markdown(form) for form in message.id]
                message.string = tuple(forms + forms[-1:] * (catalogue_.num_plurals - len(forms)))
            else:
                message.string = pseudo_markdown(message.id)
            message.flags.discard("fuzzy")
        with po.open("wb") as handle:
            write_po(handle, catalogue_, width=0)


GAMES = sorted(path.name for path in DEFAULT_GAME.parent.iterdir() if (path / "game.yaml").is_file())
FAST = "settlers"  # a board in pieces, tokens and cards, cut for a Silhouette on Letter, in about 10 s; the others are slow


@pytest.mark.parametrize("name", [name if name == FAST else pytest.param(name, marks=pytest.mark.slow) for name in GAMES])
def test_no_pdf_of_a_bundled_game_built_in_slovak_or_czech_has_an_english_word_of_pnps(tmp_path, name):
    """Every bundled game in sk and cs (and each language it declares but English), its
    pages and metadata: boards in pieces, tuck boxes, rulebooks and their booklets (Mestá
    folded above, on Letter and cut for a Silhouette here)."""
    game = tmp_path / name
    shutil.copytree(DEFAULT_GAME.parent / name, game)
    declared = {path.stem for path in (game / "locale").glob("*.po")} - {"en"}
    langs = tuple(sorted({"sk", "cs"} | declared))
    if not {"sk", "cs"} <= declared:
        pseudo_catalogues(game, tuple(sorted({"sk", "cs"} - declared)))
    options = ["--cutter", "silhouette", "--paper", "letter"] if name in ("mesta", FAST) else []
    result = run("build", game, *(arg for lang in langs for arg in ("--lang", lang)), *options, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    for lang in langs:
        pdfs = sorted((tmp_path / "out" / name).glob(f"*-{lang}-*.pdf"))
        assert pdfs
        assert {pdf.name: english_on(pdf, lang, game=game) for pdf in pdfs} == {pdf.name: [] for pdf in pdfs}


@pytest.mark.parametrize(("lang", "subject"), [("sk", "75 kariet pre DriveThruCards"), ("cs", "75 karet pro DriveThruCards")])
def test_a_print_shops_pdf_says_what_it_holds_in_the_language_of_the_export(tmp_path, lang, subject):
    pytest.importorskip("pypdf")
    result = run("export", "shop", DEFAULT_GAME, "--profile", "dtc", "--deck", "events", "--lang", lang, "--no-pdfx", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "mesta" / f"shop-dtc-{lang}" / "events" / "75x-events.pdf"
    assert reader(pdf).metadata["/Subject"] == subject
    assert [found for found in english_on(pdf, lang, game=DEFAULT_GAME) if found[0] == "/Subject"] == []
