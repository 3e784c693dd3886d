"""`pnp export shop`: each shop's card images at its exact pixels, quantities in file names
and in manifest.csv (read back by `pnp impose`), the preflight, and DriveThruCards' one
card per page PDF/X with its page boxes and output intent."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import edit, line_of, run
from pdfread import drawn as pdfread_drawn
from pdfread import reader
from PIL import Image

from pnp.exports import pdfx
from pnp.exports.shops import SHOPS

HAS_GS = shutil.which("gs") is not None
needs_gs = pytest.mark.skipif(not HAS_GS and not os.environ.get("CI"), reason="Ghostscript (gs) is not installed; .ci/run installs it")


def new_game(tmp_path):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    return tmp_path / "g"


def rows(folder):
    with (folder / "manifest.csv").open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize(
    ("profile", "size", "pixels", "safe"),
    [
        ("tgc", "poker", (825, 1125), (675, 975)),
        ("tgc", "bridge", (750, 1125), (600, 975)),
        ("tgc", "mini", (600, 825), (450, 675)),
        ("tgc", "tarot", (900, 1500), (750, 1350)),
        ("mpc", "poker", (822, 1122), (678, 978)),
        ("mpc", "tarot", (897, 1497), (753, 1353)),
        ("mpc", "domino", (597, 1122), (453, 978)),
    ],
)
def test_each_shop_size_in_exact_pixels_with_its_bleed_and_safe_zone(profile, size, pixels, safe):
    shop = SHOPS[profile]
    (card,) = [s for s in shop.sizes if s.name == size]
    assert shop.pixels(card) == pixels
    assert shop.safe_pixels(card) == safe


def white_where_coloured(image: Image.Image, bleed_px: int) -> list[tuple[str, int]]:
    """The edge pixels that are paper white where the art one pixel inside the trim, on the
    same row or column, is coloured: each as (side, position along it)."""
    image = image.convert("RGB")
    w, h = image.size
    inside = bleed_px + 1

    def white(xy: tuple[int, int]) -> bool:
        return min(image.getpixel(xy)) >= 250

    found = []
    for x in range(w):
        found += [("top", x)] if white((x, 0)) and not white((x, inside)) else []
        found += [("bottom", x)] if white((x, h - 1)) and not white((x, h - 1 - inside)) else []
    for y in range(h):
        found += [("left", y)] if white((0, y)) and not white((inside, y)) else []
        found += [("right", y)] if white((w - 1, y)) and not white((w - 1 - inside, y)) else []
    return found


@pytest.mark.parametrize(("profile", "pixels"), [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_image_shops_get_one_image_per_face_at_their_pixels_named_with_quantities(tmp_path, profile, pixels):
    game = new_game(tmp_path)
    for layout in ("card", "back"):  # the background 3 mm into the bleed (pnp new's reaches 4 mm)
        edit(game / "layouts" / f"{layout}.yaml", "rect: [-4, -4, 71, 96]", "rect: [-3, -3, 69, 94]")
    result = run("export", "shop", game, "--profile", profile, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "g" / f"shop-{profile}-en" / "cards"
    images = sorted(p.name for p in folder.glob("*.png"))
    assert images == ["01x-dawn-front.png", "01x-dusk-front.png", "01x-midnight-front.png", "02x-noon-front.png", "05x-back.png"]
    for name in images:  # the layouts' backgrounds reach 3 mm out, less than the shop's bleed at its size: pnp runs them to the edge
        with Image.open(folder / name) as image:
            assert image.size == pixels
            assert white_where_coloured(image, 37) == [], name
    listed = {(r["file"], r["card"], r["side"], r["quantity"]) for r in rows(folder)}
    assert ("02x-noon-front.png", "noon", "front", "2") in listed
    assert ("05x-back.png", "", "back", "5") in listed
    assert "63 x 88 mm are printed at the shop's 63.5 x 88.9 mm" in result.output
    report = (folder / "preflight.txt").read_text()
    assert "no white edge where the art at the trim is coloured" in report
    assert "[shop-bleed]" not in result.output and "[shop-unsafe-zone]" not in report and "[shop-resolution]" not in report


def test_art_that_stops_short_of_the_shops_bleed_is_measured_and_reported_never_padded(tmp_path):
    game = new_game(tmp_path)
    layout = game / "layouts" / "card.yaml"
    edit(layout, "rect: [-4, -4, 71, 96]", "rect: [-3, -3, 69, 94]")  # 3 mm into the bleed, less than the shop's at its size (pnp new's reaches 4 mm)
    edit(layout, '    fill: "#fbf7ee"', '    fill: "#fbf7ee"\n    stroke: "#fbf7ee"\n    stroke_width: 0.1')  # a stroked rect is not a background pnp extends
    result = run("export", "shop", game, "--profile", "tgc", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "g" / "shop-tgc-en" / "cards"
    with Image.open(folder / "01x-dawn-front.png") as image:
        assert {side for side, _ in white_where_coloured(image, 37)} == {"top", "bottom", "left", "right"}  # what the preflight measured
    with Image.open(folder / "05x-back.png") as image:
        assert white_where_coloured(image, 37) == []
    report = (folder / "preflight.txt").read_text()
    for text in (report, result.output):
        assert (
            "deck 'cards': the front of cards 'dawn', 'noon', 'dusk' and 1 more has a white edge up to 1 px (0.08 mm) deep on its top, bottom, left, right"
            in text
        )
        assert "expected the layout's art to reach 3.2 mm beyond the trim" in text and "[shop-bleed]" in text
    assert "the back of" not in report


def test_a_deck_without_backs_gets_a_blank_back_where_the_shop_prints_one_with_a_warning(tmp_path):
    game = new_game(tmp_path)
    edit(game / "game.yaml", "    back: back ", "    # no back ")
    result = run("export", "shop", game, "--profile", "tgc", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "deck 'cards' has no back layout, and The Game Crafter prints a back on every card: pnp wrote a blank (white) back" in result.output
    assert "[shop-no-back]" in result.output
    folder = tmp_path / "out" / "g" / "shop-tgc-en" / "cards"
    with Image.open(folder / "05x-back.png") as image:
        assert image.size == (825, 1125) and image.getextrema() == ((255, 255), (255, 255), (255, 255))
    assert ("05x-back.png", "", "back", "5") in {(r["file"], r["card"], r["side"], r["quantity"]) for r in rows(folder)}
    result = run("export", "shop", game, "--profile", "dtc", "--no-pdfx", "--out", tmp_path / "out")
    assert result.exit_code == 0 and "[shop-no-back]" in result.output
    document = reader(tmp_path / "out" / "g" / "shop-dtc-en" / "cards" / "05x-cards.pdf")
    assert len(document.pages) == 10  # back, front for each of the 5 cards, as the shop expects
    assert "Dawn" in document.pages[1].extract_text() and document.pages[0].extract_text() == ""
    assert ("noon", "back", "3-6") in [(r["card"], r["side"], r["pages"]) for r in rows(tmp_path / "out" / "g" / "shop-dtc-en" / "cards")]


def test_impose_reads_the_manifest_and_places_each_card_as_often_as_its_quantity(tmp_path):
    game = new_game(tmp_path)
    edit(game / "cards.yaml", "copies: 2", "copies: 3")
    assert run("export", "shop", game, "--profile", "tgc", "--out", tmp_path / "out").exit_code == 0
    folder = tmp_path / "out" / "g" / "shop-tgc-en" / "cards"
    result = run("impose", folder, "--out", tmp_path / "sheets")
    assert result.exit_code == 0, result.output
    assert "(6 cards, 2 pages)" in result.output  # dawn, dusk, midnight once, noon three times
    front, back = reader(tmp_path / "sheets" / "cards-a4.pdf").pages

    def drawn(page) -> list[int]:
        return sorted(pdfread_drawn(page).values())

    assert drawn(front) == [1, 1, 1, 3]
    assert drawn(back) == [6]  # the deck's one back behind each card


def test_impose_refuses_more_bleed_than_the_images_hold(tmp_path):
    game = new_game(tmp_path)
    assert run("export", "shop", game, "--profile", "mpc", "--out", tmp_path / "out").exit_code == 0
    result = run("impose", tmp_path / "out" / "g" / "shop-mpc-en" / "cards", "--bleed", 5, "--out", tmp_path / "sheets")
    assert result.exit_code == 1
    assert "manifest.csv" in result.output and "--bleed 5 is more than the 3.048 mm of bleed the images hold" in result.output


def test_a_deck_of_a_size_the_shop_does_not_make_is_an_error_naming_it(tmp_path):
    result = run("export", "shop", "--profile", "tgc", "--deck", "cities", "--out", tmp_path)
    assert result.exit_code == 1
    assert "deck 'cities' is 44 x 68 mm, a size The Game Crafter does not make" in result.output
    assert "poker 63.5 x 88.9 mm" in result.output and "[shop-size]" in result.output
    assert not (tmp_path / "mesta").exists()


def test_preflight_names_text_in_the_unsafe_zone_and_images_under_the_shops_resolution(tmp_path):
    game = new_game(tmp_path)
    layout = game / "layouts" / "card.yaml"
    edit(layout, "box: [21, 6, 36, 12]", "box: [21, 1, 36, 12]")  # the title 1 mm from the top
    Image.new("RGB", (40, 40), "red").save(game / "art.png")  # 40 px across 20 mm: about 50 ppi
    edit(layout, "  - line: [10, 27, 53, 27]", "  - image: art.png\n    box: [40, 60, 20, 20]\n  - line: [10, 27, 53, 27]")
    result = run("export", "shop", game, "--profile", "tgc", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    title_line = line_of(layout, "box: [21, 1, 36, 12]") - 1
    image_line = line_of(layout, "image: art.png")
    report = (tmp_path / "out" / "g" / "shop-tgc-en" / "cards" / "preflight.txt").read_text()
    for text in (result.output, report):
        assert f"card.yaml:{title_line}:" in text and "text '{{ title }}' (front) of cards 'dawn', 'noon', 'dusk' and 1 more" in text
        assert "reaches 2.2 mm into The Game Crafter's unsafe zone" in text and "[shop-unsafe-zone]" in text
        assert f"card.yaml:{image_line}:" in text and "image 'art.png' (front) on cards 'dawn', 'noon', 'dusk' and 1 more" in text
        assert "prints at 50 pixels per inch" in text and "[shop-resolution]" in text
    assert text.count("[shop-unsafe-zone]") == 1  # once per element, not once per card


@pytest.mark.parametrize("where", ["inside", "outside"])
def test_preflight_report_names_places_in_the_game_folder_wherever_it_ran(tmp_path, monkeypatch, where):
    """preflight.txt travels with the files to the shop: its places are the game's own
    (layouts/card.yaml:N), not the path from wherever the export was run."""
    game = new_game(tmp_path)
    edit(game / "layouts" / "card.yaml", "box: [21, 6, 36, 12]", "box: [21, 1, 36, 12]")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(tmp_path if where == "inside" else elsewhere)
    result = run("export", "shop", game, "--profile", "tgc", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    report = (tmp_path / "out" / "g" / "shop-tgc-en" / "cards" / "preflight.txt").read_text()
    assert report.startswith("layouts/card.yaml:"), report
    assert str(tmp_path) not in report


def test_png_export_bleed_takes_millimetres(tmp_path):
    game = new_game(tmp_path)
    assert run("export", "png", game, "--out", tmp_path / "out", "--dpi", 254, "--bleed", 1.5).exit_code == 0
    with Image.open(tmp_path / "out" / "g" / "png-en" / "cards" / "dawn-front.png") as image:
        assert image.size == (660, 910)  # (63 + 3) and (88 + 3) mm at 10 px per mm


def boxes(page) -> dict[str, list[float]]:
    return {name: [round(float(v), 2) for v in page[name]] for name in ("/MediaBox", "/BleedBox", "/TrimBox")}


@needs_gs
def test_drivethrucards_gets_one_pdf_x_of_one_card_per_page_with_trim_and_bleed_boxes(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1709294400")
    game = new_game(tmp_path)
    result = run("export", "shop", game, "--profile", "dtc", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "g" / "shop-dtc-en" / "cards"
    pdf = folder / "05x-cards.pdf"
    document = reader(pdf)
    assert len(document.pages) == 10  # back, front for each of the 5 cards
    for page in document.pages:  # 2.5 x 3.5 in with 1/8 in bleed: 2.75 x 3.75 in
        assert boxes(page) == {"/MediaBox": [0, 0, 198, 270], "/BleedBox": [0, 0, 198, 270], "/TrimBox": [9, 9, 189, 261]}
    assert "Dawn" in document.pages[1].extract_text() and "Dawn" not in document.pages[0].extract_text()
    assert "Noon" in document.pages[3].extract_text() and "Noon" in document.pages[5].extract_text()  # two copies
    intent = document.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "CGATS TR 001"
    assert len(intent["/DestOutputProfile"].get_object().get_data()) > 1000  # the ICC profile itself
    assert document.pdf_header == "%PDF-1.3"
    info = document.metadata  # the game's own title and author, the PDF/X keys a reader looks for, the date of SOURCE_DATE_EPOCH
    assert info["/Title"] == "G: Cards" and info["/Author"] == "Your Name" and info["/Creator"] == "pnp"
    assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2001" and info["/GTS_PDFXConformance"] == "PDF/X-1a:2001" and info["/Trapped"] == "/False"
    assert info["/CreationDate"] == info["/ModDate"] == "D:20240301120000Z"
    content = b"".join(page.get_contents().get_data() for page in document.pages)
    assert b" rg" not in content and b" RG" not in content and b" k" in content  # CMYK, no RGB
    if shutil.which("pdfinfo"):  # poppler, not pnp, reads the boxes and the PDF/X version
        info = subprocess.run(["pdfinfo", "-box", str(pdf)], capture_output=True, text=True).stdout
        assert "PDF/X-1a:2001" in info and "TrimBox:             9.00     9.00   189.00   261.00" in info
    listed = [(r["card"], r["side"], r["pages"]) for r in rows(folder)]
    assert ("noon", "front", "3-6") in listed
    again = tmp_path / "again"
    assert run("export", "shop", game, "--profile", "dtc", "--out", again).exit_code == 0
    assert (again / "g" / "shop-dtc-en" / "cards" / "05x-cards.pdf").read_bytes() == pdf.read_bytes()  # same input, same bytes
    result = run("impose", folder, "--out", tmp_path / "sheets")
    assert result.exit_code == 1 and "pnp impose places images" in result.output


@pytest.mark.parametrize(
    ("installed", "found"),
    [
        ({"gs": "/usr/bin/gs", "gswin64c": "C:/gs/bin/gswin64c.exe"}, "/usr/bin/gs"),
        ({"gswin64c": "C:/gs/bin/gswin64c.exe", "gswin32c": "C:/gs/bin/gswin32c.exe"}, "C:/gs/bin/gswin64c.exe"),
        ({"gswin32c": "C:/gs/bin/gswin32c.exe"}, "C:/gs/bin/gswin32c.exe"),
        ({}, None),
    ],
)
def test_ghostscript_is_found_by_its_windows_names_too(monkeypatch, installed, found):
    asked = []

    def which(name):
        asked.append(name)
        return installed.get(name)

    monkeypatch.setattr(pdfx.shutil, "which", which)
    assert pdfx.ghostscript() == found
    assert asked == ["gs", "gswin64c", "gswin32c"][: len(asked)] and (found is not None or len(asked) == 3)


def test_drivethrucards_without_ghostscript_says_what_is_missing(tmp_path, monkeypatch):
    game = new_game(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    result = run("export", "shop", game, "--profile", "dtc", "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "needs Ghostscript (gs, or gswin64c or gswin32c on Windows)" in result.output and "--no-pdfx" in result.output
    result = run("export", "shop", game, "--profile", "dtc", "--no-pdfx", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    page = reader(tmp_path / "out" / "g" / "shop-dtc-en" / "cards" / "05x-cards.pdf").pages[0]
    assert boxes(page)["/TrimBox"] == [9, 9, 189, 261]


def _fake_ghostscript(path: Path, search_path: str = "") -> str:
    """An executable at `path` that answers `-h` as Ghostscript does, with `search_path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\nprintf 'GPL Ghostscript 10.04.0\\nSearch path:\\n{search_path}\\nFor more information\\n'\n", encoding="utf-8")
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize(
    ("executable", "profile", "search_path"),
    [
        ("gs/gs10.04.0/bin/gswin64c", "gs/gs10.04.0/iccprofiles", ""),  # Windows: C:\Program Files\gs\gs10.04.0\bin
        ("homebrew/bin/gs", "homebrew/share/ghostscript/10.04.0/iccprofiles", ""),  # macOS, Homebrew and MacPorts
        ("elsewhere/bin/gs", "share/gs/10.04.0/iccprofiles", "   {root}/share/gs/10.04.0/Resource/Init :\\n   {root}/share/gs/10.04.0/lib : {root}/fonts"),
    ],
)
def test_ghostscripts_own_profile_is_found_beside_it(monkeypatch, tmp_path, executable, profile, search_path):
    monkeypatch.setattr(pdfx, "ICC_CANDIDATES", ())  # not this machine's Linux paths
    gs = _fake_ghostscript(tmp_path / executable, search_path.format(root=tmp_path))
    assert pdfx.default_icc(gs) is None
    (tmp_path / profile).mkdir(parents=True)
    (tmp_path / profile / "default_cmyk.icc").write_bytes(b"icc")
    assert pdfx.default_icc(gs) == tmp_path / profile / "default_cmyk.icc"


def test_preflight_measures_a_turned_text_as_it_is_turned(tmp_path):
    game = new_game(tmp_path)
    layout = game / "layouts" / "card.yaml"
    edit(
        layout, "box: [21, 6, 36, 12]\n    style: title", "box: [21, 6, 36, 12]\n    style: title\n    rotate: 90"
    )  # now 36 mm high about its centre, 12 mm from the top
    result = run("export", "shop", game, "--profile", "tgc", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "text '{{ title }}' (front) of cards 'dawn', 'noon', 'dusk' and 1 more" in result.output and "[shop-unsafe-zone]" in result.output
