"""What repeats in a PDF is stored once: a deck's back, copies of a card, the crop marks
of a page layout (pdf.Forms); and set texts are remembered across builds."""

from __future__ import annotations

import os
from pathlib import Path

import pdfread
from conftest import make_small_game, run

from pnp.assets.fonts import FontSet
from pnp.base.paths import FONTS_DIR
from pnp.layout.text import TextStyle, typeset
from pnp.layout.typography import typography

CARDS = "".join(f"- {{id: c{i}, title: Karta {i}, text: Hráč získa mesto {i}.}}\n" for i in range(12)) + "- {id: twin, title: Dvojča, copies: 3}\n"


def _forms(pdf: Path) -> list[bytes]:
    """The content of every form in the file, each once."""
    found: dict[int, bytes] = {}
    for page in pdfread.reader(pdf).pages:
        for ref in (page["/Resources"].get("/XObject") or {}).values():
            found[ref.idnum] = ref.get_object().get_data()
    return list(found.values())


def _placed(page) -> int:
    return sum(1 for _, op in pdfread.operations(page) if op == b"Do")


def test_the_back_and_copies_are_stored_once_and_placed_per_card(tmp_path: Path):
    game = make_small_game(tmp_path / "hra", CARDS)
    out = tmp_path / "out"
    result = run("build", str(game), "--out", str(out))
    assert result.exit_code == 0, result.output
    pdf = out / "hra" / "cards-sk-a4.pdf"
    pages = pdfread.reader(pdf).pages
    assert len(pages) == 4  # 15 cards: two sheets of 9, fronts and backs
    forms = _forms(pdf)
    assert sum(b"Dvoj" in form for form in forms) == 1  # the three copies of 'twin': one drawing
    # placed forms per page: the crop marks on each, the ruler's scale on the fronts, each
    # card met before (the first back and the first 'twin' are drawn as they are), and on
    # every other card drawn as it is, the frame it begins with like the card before it
    assert [_placed(page) for page in pages] == [1 + 1 + 8, 1 + (1 + 8), 1 + 1 + (2 + 4), 1 + 6]
    assert [len(pdfread.card_boxes(page)) for page in pages] == [9, 9, 6, 6]  # every card keeps its place
    assert pdfread.text(pdf).count("Dvojča") == 3
    assert all(pdfread.marks(page) for page in pages)  # crop marks on every page, read through their form


def test_the_frame_every_card_begins_with_is_drawn_once_not_per_card(tmp_path: Path):
    game = make_small_game(tmp_path / "hra", CARDS)
    assert run("build", str(game), "--out", str(tmp_path / "out")).exit_code == 0
    pdf = tmp_path / "out" / "hra" / "cards-sk-a4.pdf"
    frame = b"170.0787 233.8583 l"  # a side of basic/card's rounded frame
    pages = pdfread.reader(pdf).pages
    drawn = sum(page.get_contents().get_data().count(frame) for page in pages) + sum(form.count(frame) for form in _forms(pdf))
    assert drawn == 4  # the first front, the frame's form, the back's and the twin's: not once per card (15)
    assert [len(pdfread.card_boxes(page)) for page in pages] == [9, 9, 6, 6]
    assert pdfread.text(pdf).count("Hráč získa mesto") == 12  # each card's own text, once per card


def test_a_build_is_byte_for_byte_the_same_twice(tmp_path: Path):
    game = make_small_game(tmp_path / "hra", CARDS)
    for out in ("one", "two"):
        assert run("build", str(game), "--out", str(tmp_path / out)).exit_code == 0
    assert (tmp_path / "one/hra/cards-sk-a4.pdf").read_bytes() == (tmp_path / "two/hra/cards-sk-a4.pdf").read_bytes()


def test_set_text_is_remembered_for_the_next_build_until_a_font_file_changes(tmp_path: Path):
    """The watcher makes a new FontSet on every build: one of the same files finds the
    texts the last one set; a changed font file sets them anew."""
    folder = tmp_path / "fonts"
    folder.mkdir()
    (folder / "fonts.yaml").write_text("title: own.ttf\n", encoding="utf-8")
    (folder / "own.ttf").write_bytes((FONTS_DIR / "SourceSerifPro-Bold.ttf").read_bytes())
    style = TextStyle(font="title", size=11, min_size=6)
    first = typeset("Každý hráč stráca mesto.", style, 120, 40, FontSet([folder, FONTS_DIR]), typography("sk"))
    assert typeset("Každý hráč stráca mesto.", style, 120, 40, FontSet([folder, FONTS_DIR]), typography("sk")) is first
    stat = (folder / "own.ttf").stat()
    os.utime(folder / "own.ttf", ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert typeset("Každý hráč stráca mesto.", style, 120, 40, FontSet([folder, FONTS_DIR]), typography("sk")) is not first
