"""Rulebooks: what a reader of the printed book notices (contents, cross-references,
index, modes, the booklet's page order, fonts) and what `pnp check` says about mistakes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import edit, line_of, run
from makers import RULEBOOK_CARDS, build_book, make_game, pages_text, squash
from pdfread import fonts
from pypdf import PdfReader

from pnp.rulebook.booklet import saddle_order


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path / "hra")


def heading_page(pages: list[str], title: str) -> int:
    """The page (1-based) where a heading is printed: its own line, after the cover and the contents."""
    for number, text in enumerate(pages[2:], 3):
        if re.search(rf"^{re.escape(title)}$", text, re.M):
            return number
    raise AssertionError(f"heading {title!r} not found")


def toc_page(pages: list[str], title: str) -> int:
    match = re.search(rf"{re.escape(title)}\s*(\d+)", re.sub(r"\s+", " ", pages[0]).replace(" .", ""))
    assert match, f"{title!r} not in the contents: {pages[0]!r}"
    return int(match.group(1))


def test_contents_lists_the_pages_the_headings_are_on(game: Path) -> None:
    book = pages_text(build_book(game) / "rules-basic-sk-a4.pdf")
    lines = [re.sub(r"[ \u00a0]+", " ", p) for p in book]
    found = {}
    for title in ("1 Cieľ hry", "1.1 Príprava", "2 Priebeh hry", "2.1 Ťah hráča"):
        found[title] = heading_page(lines, title)
        assert toc_page([squash(book[1])], title) == found[title], title  # the contents: page 2, after the cover
    assert len(set(found.values())) >= 3, "the test book should spread its headings over pages"


def test_cross_reference_prints_number_and_page(game: Path) -> None:
    book = [re.sub(r"[ \u00a0]+", " ", p) for p in pages_text(build_book(game) / "rules-basic-sk-a4.pdf")]
    setup = heading_page(book, "1.1 Príprava")
    turn = heading_page(book, "2.1 Ťah hráča")
    text = squash(" ".join(book))
    assert f"pozri aj 1.1, s. {setup} a prípravu (1.1)." in text
    assert f"a 2.1, s. {turn}." in text
    assert setup != turn


def links(path: Path) -> list[tuple[int, int, str]]:
    """The internal links of a PDF: (page, the page it leads to, the text under it), as a
    viewer shows them (text read by PDFium)."""
    import pypdfium2 as pdfium

    reader, document = PdfReader(str(path)), pdfium.PdfDocument(str(path))
    found = []
    for number, page in enumerate(reader.pages, 1):
        text = document[number - 1].get_textpage()
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") == "/Link":
                x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
                target = reader.get_destination_page_number(reader._build_destination("", annot["/Dest"])) + 1
                found.append((number, target, squash(text.get_text_bounded(left=x0, bottom=y0, right=x1, top=y1)).strip()))
    return found


def test_references_and_contents_link_to_their_headings(game: Path) -> None:
    path = build_book(game) / "rules-basic-sk-a4.pdf"
    book = [re.sub(r"[ \u00a0]+", " ", p) for p in pages_text(path)]
    setup, turn = heading_page(book, "1.1 Príprava"), heading_page(book, "2.1 Ťah hráča")
    found = links(path)
    contents = {text.split(" .")[0]: target for page, target, text in found if page == 2}
    assert contents["1.1 Príprava"] == setup and contents["2.1 Ťah hráča"] == turn and contents["Register"] == len(book) - 1  # before the back cover
    assert contents["1 Cieľ hry"] == heading_page(book, "1 Cieľ hry")
    body = {(text, target) for page, target, text in found if page > 2}
    assert (f"1.1, s. {setup}", setup) in body and ("prípravu (1.1)", setup) in body  # [](#setup) and [prípravu](#setup)
    assert any(text.startswith(f"2.1, s. {turn}") and target == turn for text, target in body)


def test_removing_a_card_changes_the_count_the_book_prints(game: Path) -> None:
    text = squash(" ".join(pages_text(build_book(game) / "rules-basic-sk-a4.pdf")))
    assert "Hra má 5 kariet." in text and "Zamiešaj všetkých 5 kariet." in text
    edit(game / "cards.yaml", "- {id: c5, title: Karta 5, text: Hráč získa mesto.}\n", "")
    text = squash(" ".join(pages_text(build_book(game) / "rules-basic-sk-a4.pdf")))
    assert "Hra má 4 kariet." in text and "Karta 4" in text and "Karta 5" not in text


def check(game: Path) -> str:
    result = run("check", game)
    assert result.exit_code == 1, result.output
    return result.output


def test_dangling_reference_fails_check_at_its_line(game: Path) -> None:
    edit(game / "rules" / "02-turn.md", "[](#turn).", "[](#turnn).")
    line = line_of(game / "rules" / "02-turn.md", "(#turnn)")
    col = (game / "rules" / "02-turn.md").read_text(encoding="utf-8").splitlines()[line - 1].index("(#turnn)") + 1
    output = check(game)
    assert f"rules/02-turn.md:{line}:{col}: reference to '#turnn', which no heading names (did you mean 'turn'?)" in output


def test_unknown_symbol_fails_check(game: Path) -> None:
    edit(game / "rules" / "01-goal.md", "kartu :div:", "kartu :dvi:")
    line = line_of(game / "rules" / "01-goal.md", ":dvi:")
    output = check(game)
    assert f"rules/01-goal.md:{line}:18: symbol ':dvi:' does not exist (did you mean 'div'?)" in output
    assert output.count(":dvi:") == 1, output  # once, at its column: setting the text does not report it again


def test_wrong_hand_written_number_fails_check(game: Path) -> None:
    edit(game / "rules" / "01-goal.md", "Zamiešaj všetkých {{ cards | length }} kariet", "Zamiešaj všetkých 54 kariet")
    line = line_of(game / "rules" / "01-goal.md", "54 kariet")
    output = check(game)
    assert f"rules/01-goal.md:{line}:19: the text says '54 kariet' but the data says 5 ({{{{ cards | length }}}})" in output
    assert "write '{{ cards | length }} kariet'" in output
    edit(game / "rules" / "01-goal.md", "54 kariet", "5 kariet")
    assert run("check", game).exit_code == 0


def test_unknown_card_and_template_error_fail_check(game: Path) -> None:
    edit(game / "rules" / "02-turn.md", "card:cards/c1", "card:cards/c9")
    edit(game / "rules" / "01-goal.md", "{{ c.title }}", "{{ c.titel }}")
    output = check(game)
    assert f"rules/02-turn.md:{line_of(game / 'rules' / '02-turn.md', 'c9')}:5: deck 'cards' has no card 'c9'" in output
    line = line_of(game / "rules" / "01-goal.md", "c.titel")
    assert f"rules/01-goal.md:{line}:" in output and "has no field 'titel' (did you mean 'title'?)" in output and "[template]" in output


def test_characters_the_fonts_lack_fail_check_at_their_block(game: Path) -> None:
    goal, turn = game / "rules" / "01-goal.md", game / "rules" / "02-turn.md"
    edit(goal, "Zamiešaj všetkých", "Zamiešaj 漢 všetkých")
    edit(goal, "| Karta | Text |", "| Karta | Text 㐀 |")  # a letter: the fallback symbol font gives only symbols
    edit(turn, "[bodovanie]{.index}", '[bodovanie]{.index term="bodovanie ⛄"}')
    edit(game / "game.yaml", "title: Pravidlá", "title: Pravidlá ⛵")  # not in the fallback symbol font either
    output = check(game)
    assert f"rules/01-goal.md:{line_of(goal, '漢')}:1: the rulebook uses '漢' (U+6F22), missing from font 'serif'" in output
    assert f"rules/01-goal.md:{line_of(goal, '㐀')}:1: the rulebook uses '㐀' (U+3400), missing from font 'sans-bold'" in output  # a table's header
    assert f"rules/02-turn.md:{line_of(turn, '⛄')}:26: the rulebook uses '⛄' (U+26C4)" in output  # an index term, printed only in the index
    assert f"game.yaml:{line_of(game / 'game.yaml', '⛵')}:12: the rulebook uses '⛵' (U+26F5)" in output
    assert output.count("[font-glyph]") == 4  # once each, though the book is set once per mode


def test_failed_build_keeps_the_previous_pdf(game: Path) -> None:
    target = build_book(game) / "rules-basic-sk-a4.pdf"
    before = target.read_bytes()
    edit(game / "rules" / "02-turn.md", "[](#turn).", "[](#nowhere).")
    result = run("build", game, "--out", game.parent / "out")
    assert result.exit_code == 1 and "#nowhere" in result.output
    assert target.read_bytes() == before


def test_same_input_same_bytes(game: Path) -> None:
    first = {p.name: p.read_bytes() for p in build_book(game).glob("rules*.pdf")}
    second = {p.name: p.read_bytes() for p in build_book(game).glob("rules*.pdf")}
    assert first == second and len(first) == 4


def test_mode_blocks_appear_only_in_their_mode(game: Path) -> None:
    out = build_book(game)
    basic = squash(" ".join(pages_text(out / "rules-basic-sk-a4.pdf")))
    solo = squash(" ".join(pages_text(out / "rules-solo-sk-a4.pdf")))
    assert "Sólová hra" in solo and "Sólová hra" not in basic
    assert "Hra pre viacerých hráčov." in basic and "Hra pre viacerých hráčov." not in solo


def test_unknown_mode_fails_check(game: Path) -> None:
    edit(game / "rules" / "01-goal.md", "::: only solo", "::: only sollo")
    output = check(game)
    assert (
        f"rules/01-goal.md:{line_of(game / 'rules' / '01-goal.md', 'sollo')}:1: mode 'sollo' is not a mode of rulebook 'rules' (did you mean 'solo'?)" in output
    )


def test_fonts_are_embedded(game: Path) -> None:
    out = build_book(game)
    for name in ("rules-basic-sk-a4.pdf", "rules-basic-sk-a5-booklet.pdf"):
        found = fonts(out / name)
        assert found and all(found.values()), found
        assert not any("Helvetica" in f for f in found)


def test_index_lists_terms_with_their_pages(game: Path) -> None:
    book = [re.sub(r"[ \u00a0]+", " ", p) for p in pages_text(build_book(game) / "rules-basic-sk-a4.pdf")]
    goal, turn = heading_page(book, "1 Cieľ hry"), heading_page(book, "2.1 Ťah hráča")
    index = squash(book[-2]).split("Register", 1)[1].replace(" .", "").replace(".", "")
    pages = {term: [int(n) for n in found.split(", ")] for term, found in re.findall(r"(\w+) (\d+(?:, \d+)*)", index)}
    scoring = next(n for n, text in enumerate(book, 1) if "pozri na bodovanie" in squash(text))
    assert pages["karta"] == sorted({goal, turn}) and goal != turn  # [kartu]{.index term="karta"} counts as karta
    assert pages["bodovanie"] == [scoring]
    assert "kartu" not in pages


def test_paper_letter(game: Path) -> None:
    out = build_book(game, "--paper", "letter")
    page = PdfReader(str(out / "rules-basic-sk-letter.pdf")).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)


def _halves(path: Path) -> list[tuple[str | None, str | None]]:
    """The page numbers printed at the foot of the left and right A5 halves of each sheet side
    (read by PDFium, as a viewer shows them)."""
    import pypdfium2 as pdfium

    sides = []
    document = pdfium.PdfDocument(str(path))
    for page in document:
        width, _ = page.get_size()
        text = page.get_textpage()
        feet = [text.get_text_bounded(left=x, bottom=0, right=x + width / 2, top=35).strip() or None for x in (0, width / 2)]
        sides.append(tuple(feet))
    return sides


def test_booklet_pages_in_saddle_stitch_order(game: Path) -> None:
    out = build_book(game)
    booklet = PdfReader(str(out / "rules-basic-sk-a5-booklet.pdf"))
    sheet = booklet.pages[0]
    assert (round(float(sheet.mediabox.width)), round(float(sheet.mediabox.height))) == (842, 595)
    sides = len(booklet.pages)
    total = sides * 2
    assert total % 4 == 0 and total >= 8
    printed = _halves(out / "rules-basic-sk-a5-booklet.pdf")
    # the cover and the back cover have no number; padding pages (before the back cover) are blank
    numbered = max(int(n) for pair in printed for n in pair if n)
    expected = [tuple(str(n) if 1 < n <= numbered else None for n in pair) for pair in saddle_order(total)]
    assert printed == expected
    assert total - numbered < 4


def test_on_letter_the_booklet_is_half_letter_pages_on_letter_sheets(game: Path) -> None:
    """A US printer has no A4: with --paper letter the booklet's sheets are Letter
    (11 x 8.5 in, landscape), each holding two half-letter pages (5.5 x 8.5 in)."""
    out = build_book(game, "--paper", "letter")
    assert not (out / "rules-basic-sk-a5-booklet.pdf").exists()
    booklet = PdfReader(str(out / "rules-basic-sk-half-letter-booklet.pdf"))
    assert {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in booklet.pages} == {(792, 612)}
    assert "brožúra Half-letter na papieri Letter" in booklet.metadata["/Subject"]  # in the game's language (Slovak)
    printed = _halves(out / "rules-basic-sk-half-letter-booklet.pdf")
    numbered = max(int(n) for pair in printed for n in pair if n)
    total = len(booklet.pages) * 2
    assert printed == [tuple(str(n) if 1 < n <= numbered else None for n in pair) for pair in saddle_order(total)]


def test_the_booklet_and_the_paper_book_are_one_setting(game: Path) -> None:
    """Set once: every page of the booklet is the paper book's page of that number, the same
    words in the same places, at its own size (A5) where the paper book enlarges it to A4."""
    import pypdfium2 as pdfium

    out = build_book(game)
    paper = pdfium.PdfDocument(str(out / "rules-basic-sk-a4.pdf"))
    booklet = pdfium.PdfDocument(str(out / "rules-basic-sk-a5-booklet.pdf"))
    a4_width, a4_height = paper[0].get_size()
    sheet_width, sheet_height = booklet[0].get_size()
    scale = a4_width / (sheet_width / 2)
    assert abs(scale - 2**0.5) < 1e-3 and abs(a4_height / sheet_height - 2**0.5) < 1e-3  # A5 to A4
    where = {number: (side, half) for side, pair in enumerate(saddle_order(len(booklet) * 2)) for half, number in enumerate(pair)}
    for number in range(1, len(paper) + 1):
        side, half = where[len(booklet) * 2 if number == len(paper) else number]  # the back cover: the booklet's last page
        enlarged = paper[number - 1].get_textpage().get_text_bounded()
        small = booklet[side].get_textpage().get_text_bounded(left=half * sheet_width / 2, bottom=0, right=(half + 1) * sheet_width / 2, top=sheet_height)
        assert squash(enlarged) == squash(small) != "", number
    assert len(paper) >= 4


def test_saddle_order() -> None:
    assert saddle_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]


def test_the_documented_example_builds_as_documented(tmp_path: Path) -> None:
    doc = (Path(__file__).parents[2] / "docs" / "rulebook.md").read_text(encoding="utf-8")
    example = doc.split("## An example", 1)[1]
    goal, turn = re.findall(r"```markdown\n(.*?)```", example, re.S)[:2]
    folder = make_game(tmp_path / "hra", goal, turn, RULEBOOK_CARDS + "- {id: rim, title: Rím, text: Hlavné mesto.}\n")
    shutil.copy(folder / "symbols" / "div.svg", folder / "symbols" / "coin.svg")
    book = [re.sub(r"[ \u00a0]+", " ", p) for p in pages_text(build_book(folder) / "rules-basic-sk-a4.pdf")]
    text = squash(" ".join(book))
    turn_page = heading_page(book, "2.1 Ťah hráča")
    assert f"ťah opisuje 2.1, s. {turn_page}." in text and "pozri cieľ hry (1)." in text
    assert "Hra má 6 kariet." in text and "Rím Hlavné mesto." in text
    assert re.search(r"Register mesto\W+3", text)  # page 1 is the cover, page 2 the contents
    assert "Pri hre jedného hráča" not in text


def test_pictures_of_the_game_folder_are_placed(game: Path) -> None:
    from PIL import Image

    Image.new("RGBA", (300, 150), (200, 120, 40, 128)).save(game / "setup.png")  # translucent: drawn with a soft mask
    edit(game / "rules" / "02-turn.md", "![](card:cards/c1)", "![](card:cards/c1) ![](setup.png){width=60}")
    out = build_book(game)
    book = PdfReader(str(out / "rules-basic-sk-a4.pdf"))
    assert sum(len(page.images) for page in book.pages) == 1
    booklet = PdfReader(str(out / "rules-basic-sk-a5-booklet.pdf"))  # the same pages, copied with their image and its mask
    placed = [image for sheet in booklet.pages for image in sheet.images]
    assert len(placed) == 1 and "/SMask" in placed[0].indirect_reference.get_object()
    edit(game / "rules" / "02-turn.md", "setup.png", "setpu.png")
    assert "image 'setpu.png' does not exist" in check(game)


def test_a_block_inside_a_block_needs_more_colons(game: Path) -> None:
    edit(game / "rules" / "01-goal.md", "::: example\nHráč zahrá", "::: example\n::: note\nPozor.\n:::\nHráč zahrá")
    output = check(game)
    assert "this ':::' closes no block; to put a block inside another, give the outer one more colons" in output
    edit(game / "rules" / "01-goal.md", "::: example\n::: note\nPozor.\n:::\nHráč zahrá kartu :div: a získa **dva body**.\n:::", "")
    edit(game / "rules" / "01-goal.md", "::: only solo\n", ":::: only solo\n::: note\nPozor.\n:::\n")
    edit(game / "rules" / "01-goal.md", "hráš proti balíčku.\n:::", "hráš proti balíčku.\n::::")
    assert run("check", game).exit_code == 0
    solo = squash(" ".join(pages_text(build_book(game) / "rules-solo-sk-a4.pdf")))
    assert "Poznámka Pozor. Sólová hra" in solo


def test_right_aligned_and_centred_columns_are_as_wide_as_their_text(game: Path) -> None:
    edit(game / "rules" / "01-goal.md", "| Karta | Text |\n|---|---|", "| Karta | Text |\n|---:|:---:|")
    page = next(p for p in PdfReader(str(build_book(game) / "rules-basic-sk-a4.pdf")).pages if "Karta 1" in p.extract_text())
    found = {}

    def visit(text, cm, tm, font, size) -> None:
        if text.strip() in ("Karta 1", "Hráč získa mesto."):
            found.setdefault(text.strip(), tm[4])

    page.extract_text(visitor_text=visit)
    left = 24 * 72 / 25.4  # the A4 left margin
    assert found["Karta 1"] - left < 20 * 72 / 25.4  # a narrow first column, not the whole page
    assert found["Hráč získa mesto."] - found["Karta 1"] < 30 * 72 / 25.4


def test_emphasis_nests_and_literal_asterisks_print(game: Path) -> None:
    edit(game / "rules" / "01-goal.md", "## Príprava {#setup}", "## Príprava *celej* hry {#setup}")
    edit(game / "rules" / "01-goal.md", "| Karta | Text |\n|---|---|\n", "| Karta | Text |\n|---|---|\n| **Spolu *všetky* karty** | 2 \\* 3 = 6 :div: |\n")
    assert run("check", game).exit_code == 0
    out = build_book(game) / "rules-basic-sk-a4.pdf"
    text = squash(" ".join(pages_text(out)))
    assert "Príprava celej hry" in text and "Spolu všetky karty" in text and "2 * 3 = 6" in text
    assert any(name.endswith("SourceSansPro-BoldIt") for name in fonts(out))  # the heading's and the cell's italic words


def test_a_word_the_game_lists_unhyphenated_never_breaks_in_the_rulebook(tmp_path):
    """game.yaml's `hyphenation:` reaches the rulebooks too (docs/typography.md)."""
    long_word = "najpravdepodobnejšieho"
    text = " ".join(f"{'ťah ' * (i % 7)}hráča {long_word} kola" for i in range(40))
    broken = re.compile(rf"\b{long_word[:3]}\w*-\n")

    def book(folder: Path) -> str:
        return "\n".join(pages_text(build_book(folder) / "rules-basic-sk-a4.pdf"))

    assert broken.search(book(make_game(tmp_path / "patterns", goal=f"# Cieľ hry\n\n{text}\n", turn="# Ťah\n\nHráč ťahá.\n")))
    listed = make_game(tmp_path / "listed", goal=f"# Cieľ hry\n\n{text}\n", turn="# Ťah\n\nHráč ťahá.\n")
    edit(listed / "game.yaml", "rulebooks:", f"hyphenation:\n  sk: [{long_word}]\nrulebooks:")
    found = book(listed)
    assert long_word in found and not broken.search(found)
