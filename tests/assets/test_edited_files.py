"""Files edited while pnp runs (the watcher, pnp serve): two builds in one process see each
image and font file as it is at the time of the build, not as it was at the first."""

from __future__ import annotations

import io
import os
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import svglib.svglib
from conftest import edit, make_small_game, run
from pdfread import MM, fonts, operations, placed_text, reader
from PIL import Image

import pnp.assets.symbols
from pnp.base.paths import CARDS_DIR, FONTS_DIR


@pytest.fixture
def small(tmp_path: Path) -> Path:
    folder = make_small_game(tmp_path / "hra")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "mine.yaml").write_text(
        'size: [63, 88]\nelements:\n  - image: "art.png"\n    box: [0, 0, 63, 40]\n    fit: cover\n', encoding="utf-8"
    )
    edit(folder / "game.yaml", "front: basic/card", "front: mine")
    return folder


def saved(image: Image.Image, path: Path) -> None:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    saved_bytes(buffer.getvalue(), path)


def saved_bytes(data: bytes, path: Path) -> None:
    """Save over `path` as an editor does: a later modification time."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_bytes(data)
    if path.stat().st_mtime_ns <= before:  # a coarse clock: the same tick as the last save
        os.utime(path, ns=(before + 1_000_000, before + 1_000_000))


def drawn_size(out: Path) -> tuple[float, float]:
    """The size in mm the image is drawn at on the first card."""
    page = reader(out / "hra" / "cards-sk-a4-fronts.pdf").pages[0]
    placed = [ops for ops, op in operations(page) if op == b"cm" and ops[1] == 0 and ops[0] != 1]
    return round(float(placed[0][0]) / MM, 1), round(float(placed[0][3]) / MM, 1)


def test_an_image_replaced_by_one_of_another_size_is_drawn_at_its_new_aspect(small, tmp_path):
    saved(Image.new("RGB", (200, 100), "red"), small / "art.png")  # 2:1 covering a 63 x 40 mm box
    assert run("build", small, "--out", tmp_path / "out", "--sides", "fronts").exit_code == 0
    assert drawn_size(tmp_path / "out") == (80.0, 40.0)
    saved(Image.new("RGB", (100, 100), "blue"), small / "art.png")  # now square
    assert run("build", small, "--out", tmp_path / "out", "--sides", "fronts").exit_code == 0
    assert drawn_size(tmp_path / "out") == (63.0, 63.0)


def test_a_damaged_image_once_fixed_is_accepted(small, tmp_path):
    saved(Image.new("RGB", (200, 100), "red"), small / "art.png")
    whole = (small / "art.png").read_bytes()
    (small / "art.png").write_bytes(whole[: len(whole) // 2])  # cut short, as by a crashed export
    result = run("build", small, "--out", tmp_path / "out", "--sides", "fronts")
    assert result.exit_code == 1 and "image 'art.png' is damaged" in result.output, result.output
    saved(Image.new("RGB", (200, 100), "red"), small / "art.png")
    result = run("build", small, "--out", tmp_path / "out", "--sides", "fronts")
    assert result.exit_code == 0, result.output
    assert drawn_size(tmp_path / "out") == (80.0, 40.0)


def test_a_font_file_replaced_is_embedded_as_it_is_now(tmp_path):
    game = make_small_game(tmp_path / "hra")
    (game / "fonts").mkdir()
    (game / "fonts" / "fonts.yaml").write_text("own: own.ttf\n", encoding="utf-8")
    (game / "layouts").mkdir()
    (game / "layouts" / "mine.yaml").write_text(
        "size: [63, 88]\nelements:\n  - text: '{{ title }}'\n    box: [5, 5, 50, 20]\n    font: own\n    align: right\n", encoding="utf-8"
    )
    edit(game / "game.yaml", "front: basic/card", "front: mine")
    own, pdf = game / "fonts" / "own.ttf", tmp_path / "out" / "hra" / "cards-sk-a4-fronts.pdf"
    starts: dict[str, float] = {}
    for font, other in (("SourceSerifPro-Regular", "SourceSerifPro-Bold"), ("SourceSerifPro-Bold", "SourceSerifPro-Regular")):
        saved_bytes((FONTS_DIR / f"{font}.ttf").read_bytes(), own)
        result = run("build", game, "--out", tmp_path / "out", "--sides", "fronts")
        assert result.exit_code == 0, result.output
        embedded = {name.split("+")[-1] for name in fonts(pdf)}
        assert font in embedded and other not in embedded, embedded
        starts[font] = min(x for _, x, _ in placed_text(reader(pdf).pages[0]))  # right-aligned: where it starts tells its width
    fresh = run("build", game, "--out", tmp_path / "fresh", "--sides", "fronts")  # the bold one again, measured by a build that never saw the regular
    assert fresh.exit_code == 0, fresh.output
    assert starts["SourceSerifPro-Bold"] == pytest.approx(
        min(x for _, x, _ in placed_text(reader(tmp_path / "fresh" / "hra" / "cards-sk-a4-fronts.pdf").pages[0]))
    )
    assert starts["SourceSerifPro-Bold"] < starts["SourceSerifPro-Regular"] - 0.5  # bold is wider: laid out with its own widths


def test_a_symbol_is_read_once_per_version_of_its_file(tmp_path, monkeypatch):
    """The watcher builds again and again: an SVG symbol is read again only when it changed,
    plain (svgplain) or by svglib."""
    game = tmp_path / "ages"
    shutil.copytree(CARDS_DIR / "ages", game)
    edit(game / "symbols" / "ore.svg", "<svg ", '<svg style="opacity:1" ')  # outside svgplain's set: svglib's
    reads: list[str] = []
    real = svglib.svglib.svg2rlg
    monkeypatch.setattr(svglib.svglib, "svg2rlg", lambda path, *a, **k: reads.append(Path(path).name) or real(path, *a, **k))
    plain = pnp.assets.symbols.plain_drawing
    monkeypatch.setattr(pnp.assets.symbols, "plain_drawing", lambda reader: reads.append("plain") or plain(reader))
    pdf = tmp_path / "out" / "ages" / "civil-en-a4-fronts.pdf"

    def build() -> bytes:
        result = run("build", game, "--out", tmp_path / "out", "--sides", "fronts", "--deck", "civil")
        assert result.exit_code == 0, result.output
        return pdf.read_bytes()

    first = build()
    assert reads.count("ore.svg") == 1 and reads.count("plain") == len(list((game / "symbols").glob("*.svg")))  # each read once
    reads.clear()
    assert build() == first and reads == []  # nothing changed: nothing read again
    edit(game / "symbols" / "food.svg", 'fill="#e3b23c"', 'fill="#3c7be3"')
    again = build()
    assert reads == ["plain"] and again != first  # the edited one only, drawn as it is now
    edit(game / "symbols" / "ore.svg", "<svg ", "<svg  ")
    reads.clear()
    build()
    assert reads == ["plain", "ore.svg"]  # tried plain, then read by svglib


def test_an_image_that_links_out_of_the_game_folder_is_refused_and_one_that_links_inside_is_drawn(small, tmp_path):
    saved(Image.new("RGB", (200, 100), "red"), tmp_path / "secret.png")
    (small / "art.png").symlink_to(tmp_path / "secret.png")
    result = run("build", small, "--out", tmp_path / "out", "--sides", "fronts")
    assert result.exit_code == 1 and "image 'art.png' points outside the game folder" in result.output, result.output
    (small / "art.png").unlink()
    (small / "pictures").mkdir()
    saved(Image.new("RGB", (200, 100), "red"), small / "pictures" / "red.png")
    (small / "art.png").symlink_to(small / "pictures" / "red.png")
    result = run("build", small, "--out", tmp_path / "out", "--sides", "fronts")
    assert result.exit_code == 0, result.output
    assert drawn_size(tmp_path / "out") == (80.0, 40.0)


def test_a_game_folder_reached_through_a_link_draws_its_images(small, tmp_path):
    saved(Image.new("RGB", (200, 100), "red"), small / "art.png")
    (tmp_path / "link").symlink_to(small)
    result = run("build", tmp_path / "link", "--out", tmp_path / "out", "--sides", "fronts")
    assert result.exit_code == 0, result.output
    assert drawn_size(tmp_path / "out") == (80.0, 40.0)


def test_an_image_replaced_by_one_of_the_same_size_makes_its_cards_changed(small, tmp_path):
    """The errata compare what each face draws: the same box with another picture is another face."""
    saved(Image.new("RGB", (200, 100), "red"), small / "art.png")
    assert run("build", small, "--out", tmp_path / "out").exit_code == 0
    assert "(sk): none" in run("list", small, "--out", tmp_path / "out", "--changed-since").output
    saved(Image.new("RGB", (200, 100), "blue"), small / "art.png")
    result = run("list", small, "--out", tmp_path / "out", "--changed-since")
    assert result.exit_code == 0 and "(sk): none" not in result.output and "changed" in result.output, result.output


def test_an_image_that_is_a_link_to_itself_is_reported_not_a_crash(small, tmp_path):
    (small / "art.png").symlink_to(small / "art.png")
    result = run("build", small, "--out", tmp_path / "out", "--sides", "fronts")
    assert result.exit_code == 1 and "image 'art.png' does not exist" in result.output and "internal error" not in result.output, result.output


def test_an_image_removed_between_two_builds_is_reported_by_the_second(small, tmp_path):
    """A build finds each image once for all its cards; the next build looks again."""
    saved(Image.new("RGB", (200, 100), "red"), small / "art.png")
    assert run("build", small, "--out", tmp_path / "out", "--sides", "fronts").exit_code == 0
    (small / "art.png").unlink()
    result = run("build", small, "--out", tmp_path / "out", "--sides", "fronts")
    assert result.exit_code != 0
    assert "image 'art.png' does not exist" in result.output
    assert "[image-missing]" in result.output


def _symbol_form(pdf: Path, sid: str):
    """The form that draws symbol `sid` in the PDF (None if it has none)."""
    for page in reader(pdf).pages:
        for name, form in (page["/Resources"].get("/XObject") or {}).items():
            form = form.get_object()
            if name == f"/FormXob.pnpsym_{sid}":
                return form
            for inner, placed in (form.get("/Resources", {}).get("/XObject") or {}).items():
                if inner == f"/FormXob.pnpsym_{sid}":
                    return placed.get_object()
    return None


def _states_named(form) -> bool:
    """Whether the form uses graphics states (transparency), each named in its resources."""
    used = {name.decode() for name in re.findall(rb"/(\S+) gs", form.get_data())}
    return bool(used) and used <= {name[1:] for name in form["/Resources"].get("/ExtGState", {})}


def test_a_symbol_is_walked_once_per_build_and_drawn_the_same_in_every_pdf(mesta, tmp_path, monkeypatch):
    """renderPDF turns a symbol's drawing into operators once per build; every PDF of the
    build draws the same operators. A translucent symbol names its PDF's graphics state,
    so it is drawn anew into each PDF, translucent in every one. A plain symbol is never
    walked: svgplain gave its operators."""
    import multiprocessing

    from reportlab.graphics import renderPDF

    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])  # the rulebook set in this process, counted too
    walked: list[int] = []
    real = renderPDF.draw
    monkeypatch.setattr(renderPDF, "draw", lambda drawing, *a, **k: walked.append(id(drawing)) or real(drawing, *a, **k))
    edit(mesta / "symbols" / "kultura.svg", '<circle cx="50" cy="50" r="47" fill="#6a2c8a"', '<circle cx="50" cy="50" r="47" fill="#6a2c8a" fill-opacity="0.5"')
    edit(mesta / "symbols" / "armada.svg", "<svg ", '<svg style="opacity:1" ')  # outside svgplain's set: svglib's, opaque
    result = run("build", mesta, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    out = tmp_path / "out" / "mesta"
    pdfs = [out / "cities-sk-a4.pdf", out / "events-sk-a4.pdf", out / "rules-sk-a4.pdf"]
    armada = [_symbol_form(pdf, "armada").get_data() for pdf in pdfs]
    kultura = [_symbol_form(pdf, "kultura") for pdf in pdfs]
    assert armada.count(armada[0]) == len(pdfs)  # the same operators in every PDF
    assert all(_states_named(form) for form in kultura)  # translucent in each, its state named where a viewer finds it
    with_kultura = sum(_symbol_form(pdf, "kultura") is not None for pdf in out.glob("*.pdf") if not pdf.name.endswith("booklet.pdf"))
    assert _symbol_form(out / "rules-sk-a5-booklet.pdf", "kultura").get_data() == kultura[2].get_data()  # the booklet: the paper book's pages, copied
    assert sorted(Counter(walked).values()) == [1, with_kultura]  # armada once, kultura once per PDF, the plain ones never
    assert _symbol_form(out / "cities-sk-a4.pdf", "div").get_data() == _symbol_form(out / "rules-sk-a4.pdf", "div").get_data()  # plain: alike too
