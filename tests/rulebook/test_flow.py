"""Page flow: a heading stays with the first lines of what follows it, but a long table or
block after it is not pushed whole to the next page (which left pages nearly empty)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conftest import run
from makers import FILLER, build_book, make_game, pages_text, squash
from pdfread import placed_text, reader
from reportlab.platypus.doctemplate import BaseDocTemplate

ROWS = "".join(f"| R{n:03d} | {n} bodov za kartu |\n" for n in range(1, 91))
TABLE_TURN = f"""\
# Priebeh hry

{(FILLER * 3 + chr(10) + chr(10)) * 2}
## Bodovanie {{#score}}

| Riadok | Body |
|---|---:|
{ROWS}
Koniec tabuľky.
"""
EXAMPLE_TURN = f"""\
# Priebeh hry

{(FILLER * 3 + chr(10) + chr(10)) * 2}
## Ukážka {{#show}}

::: example
{"".join(f"Krok E{n:02d}. {FILLER}{chr(10)}{chr(10)}" for n in range(1, 31))}:::

Koniec ukážky.
"""


def page_of(pages: list[str], needle: str) -> int:
    """The page (1-based) that prints `needle`, after the cover and the contents."""
    return next(n for n, text in enumerate(pages[2:-1], 3) if needle in squash(text))


def test_a_table_taller_than_a_page_starts_under_its_heading(tmp_path: Path) -> None:
    pages = pages_text(build_book(make_game(tmp_path / "hra", turn=TABLE_TURN)) / "rules-basic-sk-a4.pdf")
    heading = page_of(pages, "2.1 Bodovanie")
    assert page_of(pages, "R001") == heading  # the first rows under the heading, not on the next page
    assert "Hráči sa striedajú" in squash(pages[heading - 1]).split("2.1 Bodovanie")[0]  # the heading is not at the top of an empty page
    last = page_of(pages, "R090")
    assert last > heading
    for page in range(heading + 1, last + 1):  # the header row repeats on every page the table runs onto
        assert re.search(r"Riadok\s+Body", pages[page - 1]), page


def test_a_long_example_splits_across_pages(tmp_path: Path) -> None:
    pages = pages_text(build_book(make_game(tmp_path / "hra", turn=EXAMPLE_TURN)) / "rules-basic-sk-a4.pdf")
    heading = page_of(pages, "2.1 Ukážka")
    before, after = squash(pages[heading - 1]).split("2.1 Ukážka")
    assert "Príklad Krok E01." in after and "Hráči sa striedajú" in before  # the block begins under its heading, mid-page
    assert page_of(pages, "Krok E30.") > heading


def test_a_heading_keeps_the_first_lines_that_follow_it() -> None:
    """Keep-with-next still holds: at the foot of a page, a heading goes over with its text
    unless two lines of it fit under the heading; then only those stay."""
    from pnp.assets.fonts import bundled_fonts
    from pnp.assets.symbols import SymbolSet
    from pnp.base.errors import Problems
    from pnp.layout.typography import typography
    from pnp.rulebook.flow import Book, HeadingBlock, KeepWithNext, Setting, Styles, TextBlock

    setting = Setting(bundled_fonts(), SymbolSet({}), typography("sk"), Styles.for_size(10), Problems(), Book())
    width = 450.0

    def group() -> KeepWithNext:
        return KeepWithNext([HeadingBlock(setting, "2.1 Bodovanie", 2, "h", "2.1 Bodovanie", None), TextBlock(setting, FILLER * 4, setting.styles.body, None)])

    heading = group()._content[0]
    above = heading.wrap(width, 1e6)[1] + heading.getSpaceAfter()
    line = setting.styles.body.size * setting.styles.body.leading
    assert group().split(width, above + 1.5 * line) == []  # one line would stay: all goes over
    parts = group().split(width, above + 2.2 * line)
    assert [type(p).__name__ for p in parts] == ["HeadingBlock", "TextBlock", "TextBlock"]
    assert parts[1].wrap(width, 1e6)[1] == 2 * line  # two lines stay under the heading, the rest goes over
    assert len(group().split(width, 700)) == 2  # all of it fits: nothing is split


WORDS = FILLER.split()


def tables_at_every_height(count: int = 16, rows: int = 6, lists: bool = False, skip: int = 0) -> str:
    """Paragraphs of growing length, each followed by a lead-in and a short table (or, with
    `lists`, every other one by a list): one of them lands at every height of a page, some
    at its foot. `skip`: words of a paragraph before the first, to move them all."""
    out = ["# Tabuľky\n", " ".join((WORDS * 20)[:skip]) + "\n"]
    for t in range(count):
        words = " ".join((WORDS * 20)[: 40 + 37 * t])
        if lists and t % 2:
            body = "".join(f"- T{t:02d}R{r}: {r} bodov\n" for r in range(1, rows + 1))
            out.append(f"{words}\n\nZoznam T{t:02d} znie takto:\n\n{body}")
            continue
        body = "".join(f"| T{t:02d}R{r} | {r} bodov |\n" for r in range(1, rows + 1))
        out.append(f"{words}\n\nTabuľka T{t:02d} platí takto:\n\n| Riadok {t:02d} | Body |\n|---|---:|\n{body}")
    return "\n".join(out)


def pages_of(pages: list[str], needle: str) -> list[int]:
    return [n for n, text in enumerate(pages, 1) if needle in squash(text)]


def test_a_table_never_leaves_its_header_or_a_single_row_alone(tmp_path: Path) -> None:
    """Wherever a table meets a page foot, each page it is on holds its header and two of
    its rows at least; a table too short to split that way goes over whole."""
    pages = pages_text(build_book(make_game(tmp_path / "hra", turn=tables_at_every_height())) / "rules-basic-sk-a4.pdf")
    split = 0
    for t in range(16):
        on = {r: pages_of(pages, f"T{t:02d}R{r}") for r in range(1, 7)}
        assert all(len(p) == 1 for p in on.values()), on
        spans = sorted({p[0] for p in on.values()})
        split += len(spans) > 1
        for page in spans:
            assert sum(p == [page] for p in on.values()) >= 2, (t, on)  # two rows at least on each page
            assert re.search(rf"Riadok {t:02d}\s+Body", pages[page - 1]), (t, page)  # the header above them
        assert pages_of(pages, f"Riadok {t:02d} Body") == spans, t  # and never alone, without rows
    assert split  # the test placed some table across a page break


def test_a_lead_in_stays_with_the_table_or_list_it_introduces(tmp_path: Path) -> None:
    """A paragraph ending with ':' before a table or list is never the last thing on a page
    while what it introduces starts on the next one."""
    pages = pages_text(build_book(make_game(tmp_path / "hra", turn=tables_at_every_height(40, lists=True, skip=60))) / "rules-basic-sk-a4.pdf")
    for t in range(40):
        lead = pages_of(pages, f"T{t:02d} platí takto:" if t % 2 == 0 else f"T{t:02d} znie takto:")
        first = pages_of(pages, f"T{t:02d}R1")
        assert len(lead) == 1 and lead[-1] == first[0], (t, lead, first)


def test_a_long_lead_in_sends_its_last_two_lines_over_with_what_it_introduces() -> None:
    """A lead-in that fits at a page foot while the table after it does not is not moved
    whole (leaving a gap): its last two lines go over with the start of the table."""
    from pnp.assets.fonts import bundled_fonts
    from pnp.assets.symbols import SymbolSet
    from pnp.base.errors import Problems
    from pnp.layout.typography import typography
    from pnp.rulebook.flow import Book, KeepWithNext, Setting, Styles, TextBlock

    setting = Setting(bundled_fonts(), SymbolSet({}), typography("sk"), Styles.for_size(10), Problems(), Book())
    width = 450.0
    lead = TextBlock(setting, FILLER * 2 + "Body sa počítajú takto:", setting.styles.body, None)
    lead.keepWithNext = True
    lines = lead.wrap(width, 1e6)[1] / lead.layout.leading
    assert lines >= 4
    after = TextBlock(setting, FILLER * 4, setting.styles.body, None)
    parts = KeepWithNext([lead, after]).split(width, lead.height + lead.layout.leading)  # the lead-in and one line after it
    assert [type(p).__name__ for p in parts] == ["TextBlock", "KeepWithNext"]
    assert parts[0].wrap(width, 1e6)[1] == (lines - 2) * lead.layout.leading
    carried = parts[1]._content
    assert carried[0].wrap(width, 1e6)[1] == 2 * lead.layout.leading and carried[1] is after


def index_columns(path: Path) -> list[list[str]]:
    """The lines of each column of the index, top to bottom, page by page (the running
    header and the page number left out)."""
    from pdfread import placed_text, reader

    out = []
    for page in reader(path).pages[2:-1]:  # after the cover and the contents, which list the index too; before the back cover
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        runs = [(text, x, y) for text, x, y in placed_text(page) if 25 * MM < y < height - 22 * MM]
        if not any(text == "Register" for text, _, _ in runs):
            if not out:
                continue
        else:
            below = max(y for text, _, y in runs if text == "Register")
            runs = [run for run in runs if run[2] < below]
        for column in (0, 1):
            lines: dict[float, list[tuple[float, str]]] = {}
            for text, x, y in runs:
                if (x > width / 2) == bool(column):
                    lines.setdefault(round(y), []).append((x, text))
            out.append([" ".join(t for _, t in sorted(line)) for _, line in sorted(lines.items(), reverse=True)])
    return out


MM = 72 / 25.4


def test_an_index_column_or_page_begins_with_its_letter(tmp_path: Path) -> None:
    """Where the index runs on into the next column or page inside a letter's entries, the
    letter is repeated there, marked as continued: 'C (pokr.)'."""
    terms = [f"{word}{n:02d}" for word in ("breh", "cesta", "dom") for n in range(1, 71)]
    marks = " ".join(f"[{term}]{{.index}}" for term in terms)
    game = make_game(tmp_path / "hra", turn=f"# Priebeh hry\n\n{marks}\n")
    columns = [column for column in index_columns(build_book(game) / "rules-basic-sk-a4.pdf") if column]
    assert len(columns) >= 3  # the index runs onto a second page
    continued = 0
    for column in columns:
        assert re.fullmatch(r"[BCD]( \(pokr\.\))?", column[0]), column[:3]
        continued += "pokr." in column[0]
        letters = [line for line in column if re.fullmatch(r"[BCD]( \(pokr\.\))?", line)]
        assert all("pokr." not in line for line in letters[1:])  # only at the top
    assert continued >= 2


# --- what cannot be set on a page: an error or warning at its line, never a traceback or a hang --

LONG = "z" * 5000


PAGES = 100  # pages platypus may begin in one build of these rulebooks: two modes, each a few passes of a few pages (a normal one: 36)


@contextmanager
def pages_counted(tally: Path) -> Iterator[None]:
    """Within, every page platypus begins, in this process or in the one the rulebooks are set
    in, adds a byte to `tally`; past PAGES it fails instead, so that setting that never ends
    (a block retried on page after page) is an error and not a hang."""
    begin = BaseDocTemplate.handle_pageBegin
    counter = os.open(tally, os.O_WRONLY | os.O_CREAT | os.O_APPEND)

    def counted(self) -> None:
        os.write(counter, b".")
        assert os.fstat(counter).st_size <= PAGES, "the rulebook's pages never end"
        begin(self)

    BaseDocTemplate.handle_pageBegin = counted
    try:
        yield
    finally:
        BaseDocTemplate.handle_pageBegin = begin
        os.close(counter)


def build_output(tmp_path: Path, turn: str) -> tuple[int, str]:
    """The build's exit code and output, once it has set its rulebooks in a bounded number of pages."""
    tally = tmp_path / "pages"
    with pages_counted(tally):
        result = run("build", make_game(tmp_path / "hra", turn=turn), "--out", tmp_path / "out")
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    assert 0 < tally.stat().st_size <= PAGES, result.output  # never a setting without end
    return result.exit_code, result.output


def test_a_table_of_too_many_columns_is_an_error_at_its_line(tmp_path: Path) -> None:
    header = "| " + " | ".join(f"Stĺpec {n}" for n in range(1, 31)) + " |\n"
    code, output = build_output(tmp_path, f"# Priebeh hry\n\nÚvod.\n\n{header}|{'---|' * 30}\n| {' | '.join(['bod'] * 30)} |\n")
    assert code == 1
    assert (
        "rules/02-turn.md:5:1: table of 30 columns is wider than the page: its longest words do not fit side by side; "
        "expected fewer columns or shorter cells [rulebook-table-wide]"
    ) in output
    assert output.count("[rulebook-table-wide]") == 1 and "rulebook-too-wide" not in output  # once, for every paper
    assert not (tmp_path / "out" / "hra").exists() or not list((tmp_path / "out" / "hra").glob("rules-*"))


def test_a_word_wider_than_the_page_in_a_cell_is_an_error_at_the_table(tmp_path: Path) -> None:
    code, output = build_output(tmp_path, f"# Priebeh hry\n\n| A | B |\n|---|---|\n| {LONG} | b |\n")
    assert code == 1
    assert "rules/02-turn.md:3:1: table of 2 columns is wider than the page" in output


def test_a_table_row_taller_than_a_page_is_an_error_at_its_line(tmp_path: Path) -> None:
    code, output = build_output(tmp_path, f"# Priebeh hry\n\n| A | B |\n|---|---|\n| {'slovo ' * 4000} | b |\n")
    assert code == 1
    assert "rules/02-turn.md:5:1: a row of the table is taller than a page; expected shorter cells [rulebook-table-tall]" in output


def test_a_5000_letter_word_in_a_heading_or_list_is_a_warning_at_its_line(tmp_path: Path) -> None:
    code, output = build_output(tmp_path, f"# Priebeh hry\n\n## Nadpis {LONG}\n\n- položka {LONG}\n- druhá\n\nText {LONG} a koniec.\n")
    assert code == 0, output
    for line in (3, 5):
        assert re.search(rf"rules/02-turn\.md:{line}:1: warning: a word is wider than the column \(\d+ mm\) and runs into the margin", output), output


def _floating_game(tmp_path: Path) -> Path:
    """Sections that each end in a tall figure, with its caption, at a different height of
    a page, and three paragraphs after it."""
    sections = "".join(
        f"## Časť {n}\n\n{FILLER * (2 + 3 * n)}Je to {n}.\n\nObrázok {n}: veľká karta.\n\n![](card:cards/c1){{width=100}}\n\n"
        + "".join(f"Po obrázku {n}, odsek {k}. {FILLER * 2}\n\n" for k in (1, 2, 3))
        for n in range(8)
    )
    return make_game(tmp_path / "hra", turn=f"# Priebeh hry\n\n{sections}")


def test_text_flows_in_before_a_figure_that_does_not_fit_and_the_figure_begins_the_next_page(tmp_path: Path) -> None:
    path = build_book(_floating_game(tmp_path)) / "rules-basic-sk-a4.pdf"
    pages = [squash(p) for p in pages_text(path)]
    start = next(i for i, text in enumerate(pages) if i > 1 and "Časť 0" in text)
    pages[start] = pages[start].split("2.1 Časť 0", 1)[1]  # the first chapter's table prints the cards' text too
    for text in pages[start:-1]:  # a caption on the page of its card
        assert len(re.findall(r"Obrázok \d", text)) == text.count("Hráč získa mesto."), text
    floated = 0
    for n in range(8):
        before, figure, after = (page_of(pages, text) for text in (f"Je to {n}.", f"Obrázok {n}:", f"Po obrázku {n}, odsek 1."))
        if figure == before:  # it fits under the text before it (drawn smaller if need be)
            assert after >= figure, n
            continue
        floated += 1  # it did not: the text after it fills the page, and it begins the next one
        assert after == before < figure, n
        assert pages[figure - 1].startswith(f"Obrázok {n}:"), pages[figure - 1]
        page = reader(path).pages[before - 1]
        lowest = min(y for text, _, y in placed_text(page) if not text.isdigit())
        assert lowest < float(page.mediabox.height) * 0.3, (n, lowest)  # not left a quarter empty
    assert floated >= 2


def test_in_an_example_the_end_of_the_text_before_a_figure_is_on_the_figure_s_page(tmp_path: Path) -> None:
    """A long paragraph leading to a figure in an example sends its last lines over with the
    figure when the figure does not fit; they were left behind, apart from it."""
    boxes = "".join(
        f"::: example\n{FILLER * (2 + n % 3)}Je to {n}.\n\n![](card:cards/c1){{width=60}}\n:::\n\nPo príklade {n}. {FILLER * (1 + n % 3)}\n\n"
        for n in range(12)
    )
    path = build_book(make_game(tmp_path / "hra", turn=f"# Priebeh hry\n\n{boxes}")) / "rules-basic-sk-a4.pdf"
    pages = [squash(p) for p in pages_text(path)]
    start = next(i for i, text in enumerate(pages) if i > 1 and "Priebeh hry Príklad" in text)
    pages[start] = pages[start].split("Priebeh hry Príklad", 1)[1]  # the first chapter's table prints the cards' text too
    for text in pages[start:-1]:
        assert len(re.findall(r"Je to \d", text)) == text.count("Hráč získa mesto."), text
