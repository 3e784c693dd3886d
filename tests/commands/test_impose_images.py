"""`pnp impose`: finished card images on the same sheets as a generated deck: same grid,
crop marks and duplex backs, in file-name order."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from conftest import edit, run
from pdfread import MM, card_boxes, marks, reader
from PIL import Image

from pnp.commands.impose_images import made_bleed, size_from

COLOURS = ["#d62728", "#2ca02c", "#1f77b4", "#ff7f0e", "#9467bd"]


def images(folder, names, size=(744, 1039), colours=COLOURS):
    folder.mkdir(parents=True, exist_ok=True)
    for name, colour in zip(names, colours):
        Image.new("RGB", size, colour).save(folder / name)
    return folder


def geometry(pdf):
    pages = reader(pdf).pages
    return [
        (
            round(float(p.mediabox.width), 2),
            round(float(p.mediabox.height), 2),
            sorted(tuple(round(v, 2) for v in box) for box in card_boxes(p)),
            sorted(tuple(round(v, 2) for v in seg) for seg in marks(p)),
        )
        for p in pages
    ]


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--paper", "letter", "--bleed", "2", "--gap", "1.5"],
        ["--flip", "short", "--back-offset", "0.5,-1", "--bleed", "3"],
    ],
)
def test_imposed_images_have_the_geometry_of_a_generated_deck(tmp_path, options):
    assert run("new", "g", "--out", tmp_path).exit_code == 0  # five 63 x 88 mm cards
    built = run("build", tmp_path / "g", "--out", tmp_path / "built", *options)
    assert built.exit_code == 0, built.output
    fronts = images(tmp_path / "art", [f"card{i}.png" for i in range(1, 6)])
    images(tmp_path, ["back.png"], colours=["#333333"])
    result = run("impose", fronts, "--back", tmp_path / "back.png", "--size", "63x88", "--out", tmp_path / "imposed", *options)
    assert result.exit_code == 0, result.output
    paper = "letter" if "letter" in options else "a4"
    ours = geometry(tmp_path / "imposed" / f"art-{paper}.pdf")
    theirs = geometry(tmp_path / "built" / "g" / f"cards-en-{paper}.pdf")
    assert len(ours) == 2  # a sheet of fronts, then its backs
    assert ours == theirs


def test_default_size_is_poker_for_portrait_images_and_keeps_other_proportions():
    assert size_from((744, 1039), 0) == (63.0, 88.0)
    assert size_from((750, 1050), 0) == (63.0, 88.0)  # near enough: 2.5 x 3.5 inches
    assert size_from((815, 1110), 3) == (63.0, 88.0)  # the images include 3 mm of bleed
    assert size_from((1039, 744), 0) == (88.0, 63.0)
    assert size_from((600, 600), 0) == (63.0, 63.0)
    assert size_from((500, 1000), 0) == (63.0, 126.0)


def test_cards_follow_natural_file_name_order_and_backs_land_behind_their_fronts(tmp_path):
    fronts = images(tmp_path / "fronts", ["card1.png", "card10.png", "card2.png"], colours=["#ff0000", "#0000ff", "#00ff00"])
    backs = images(tmp_path / "backs", ["b1.png", "b10.png", "b2.png"], colours=["#800000", "#000080", "#008000"])
    result = run("impose", fronts, "--back", backs, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "fronts-a4.pdf"
    document = pdfium.PdfDocument(str(pdf))
    scale = 1.0  # 72 dpi: a pixel per point

    def colour(page_index, x, y):
        page = document[page_index]
        image = page.render(scale=scale).to_pil()
        return image.getpixel((round(x), round(image.height - y)))

    boxes = card_boxes(reader(pdf).pages[0])
    centres = [(x + w / 2, y + h / 2) for x, y, w, h in boxes]
    assert [colour(0, *c) for c in centres] == [(255, 0, 0), (0, 255, 0), (0, 0, 255)]  # card1, card2, card10
    width = float(reader(pdf).pages[0].mediabox.width)
    behind = [colour(1, width - x, y) for x, y in centres]  # long-edge flip mirrors left and right
    assert behind == [(128, 0, 0), (0, 128, 0), (0, 0, 128)]
    document.close()


def test_problems_with_the_images_are_reported_before_anything_is_written(tmp_path):
    fronts = images(tmp_path / "fronts", ["a.png", "b.png"], size=(300, 300))
    backs = images(tmp_path / "backs", ["x.png"])
    result = run("impose", fronts, "--back", backs, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "1 back images for 2 fronts" in result.output
    assert not (tmp_path / "out").exists()
    (fronts / "broken.png").write_bytes(b"not an image")
    result = run("impose", fronts, "--out", tmp_path / "out")
    assert "broken.png: cannot read this image" in result.output
    assert run("impose", tmp_path / "empty-nothing").exit_code == 2


def test_mismatched_proportions_and_low_resolution_are_warnings(tmp_path):
    fronts = images(tmp_path / "fronts", ["a.png"], size=(200, 200))
    result = run("impose", fronts, "--size", "63x88", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "a.png: warning: the image is 200 x 200 pixels, not in the proportions of 63 x 88 mm" in result.output
    assert "warning: the image has 81 dpi" in result.output
    assert len(reader(tmp_path / "out" / "fronts-a4.pdf").pages) == 1  # no back: fronts only
    assert float(reader(tmp_path / "out" / "fronts-a4.pdf").pages[0].mediabox.width) == pytest.approx(210 * MM, abs=0.01)


def test_cards_that_only_fit_turned_are_imposed_on_landscape_sheets(tmp_path):
    # 270 x 180 mm does not fit portrait A4 (200 x 287 mm printable); turned it does, as a
    # built board would be, its back behind it over the paper's long edge
    fronts = images(tmp_path / "boards", ["a.png"], size=(1620, 1080))
    images(tmp_path, ["back.png"], size=(1620, 1080), colours=["#333333"])
    result = run("impose", fronts, "--size", "270x180", "--back", tmp_path / "back.png", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = reader(tmp_path / "out" / "boards-a4.pdf")
    assert [(round(float(p.mediabox.width) / MM), round(float(p.mediabox.height) / MM)) for p in pdf.pages] == [(297, 210), (297, 210)]
    assert [(round(w / MM), round(h / MM)) for _, _, w, h in card_boxes(pdf.pages[0])] == [(270, 180)]
    assert result.output.rstrip().endswith("Print double-sided, flip on the long edge, at 100 % (actual size); check the ruler on the sheet.")


def test_cards_larger_than_the_paper_are_printed_in_pieces_without_their_backs(tmp_path):
    fronts = images(tmp_path / "maps", ["a.png", "b.png"], size=(2400, 1800))
    images(tmp_path, ["back.png"], size=(2400, 1800), colours=["#333333"])
    result = run("impose", fronts, "--size", "400x300", "--back", tmp_path / "back.png", "--out", tmp_path / "out", "--overlap", "15")
    assert result.exit_code == 0, result.output
    assert "maps: warning: the cards (400 x 300 mm) are larger than A4 and printed in pieces; their backs are not printed" in result.output
    assert result.output.rstrip().splitlines()[-1] == "Print at 100 % (actual size); check the ruler on the sheet."
    pdf = reader(tmp_path / "out" / "maps-a4.pdf")
    texts = [page.extract_text() for page in pdf.pages]
    assert len(texts) == 10  # per card: an assembly page and four pieces
    assert "maps · a: assembly" in texts[0] and "maps · b: assembly" in texts[5]
    assert "400 x 300 mm in 4 pieces (2 rows of 2), overlapping 15 mm" in texts[0]
    assert "The backs are not printed" in texts[0]
    assert "/Duplex" not in (pdf.trailer["/Root"].get("/ViewerPreferences") or {})
    result = run("impose", fronts, "--size", "400x300", "--back", tmp_path / "back.png", "--out", tmp_path / "out", "--sides", "backs")
    assert result.exit_code == 1
    assert "printed in pieces, which have no backs; expected --paper a3 or larger" in result.output


def test_a_truncated_image_is_reported_by_name_before_anything_is_written(tmp_path):
    fronts = images(tmp_path / "fronts", ["a.png", "b.png"])
    Image.effect_noise((744, 1039), 60).convert("RGB").save(fronts / "b.png")
    whole = (fronts / "b.png").read_bytes()
    (fronts / "b.png").write_bytes(whole[: len(whole) // 2])
    result = run("impose", fronts, "--out", tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert "fronts/b.png: cannot read this image (image file is truncated" in result.output and "[image-unreadable]" in result.output
    assert "internal error" not in result.output and not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["impose", "build", "check"])
def test_sheet_options_that_contradict_each_other_are_a_usage_error_before_anything_is_read(tmp_path, command):
    """--sides fold with --cutter: the same usage error (exit 2, nothing written) from every
    command that takes the sheet options, never an internal error."""
    out = tmp_path / "out"
    args = [command, tmp_path] if command != "check" else [command]
    result = run(*args, "--sides", "fold", "--cutter", "silhouette", *(["--out", out] if command != "check" else []))
    assert result.exit_code == 2
    assert "--sides fold and --cutter cannot be combined; expected one of them (a cutting machine cuts duplex sheets)" in result.output
    assert "internal error" not in result.output and not out.exists()


def test_images_of_export_png_are_imposed_with_the_bleed_and_size_they_were_exported_with(tmp_path):
    """`pnp export png --bleed 3` writes its trim and bleed into each PNG: impose takes them
    without being told again, as if `--bleed 3` (and the card's size) had been typed."""
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    edit(tmp_path / "g" / "layouts" / "card.yaml", "size: [63, 88]", "size: [44, 68]")  # not of poker proportions: the size too comes from the PNGs
    edit(tmp_path / "g" / "layouts" / "back.yaml", "size: [63, 88]", "size: [44, 68]")
    exported = run("export", "png", tmp_path / "g", "--bleed", "3", "--dpi", "200", "--force", "--out", tmp_path / "png")
    assert exported.exit_code == 0, exported.output
    cards = tmp_path / "png" / "g" / "png-en" / "cards"
    learned = run("impose", cards, "--back", cards / "back.png", "--out", tmp_path / "learned")
    assert learned.exit_code == 0, learned.output
    assert "warning" not in learned.output, learned.output
    typed = run("impose", cards, "--back", cards / "back.png", "--bleed", "3", "--size", "44x68", "--out", tmp_path / "typed")
    assert typed.exit_code == 0, typed.output
    assert (tmp_path / "learned" / "cards-a4.pdf").read_bytes() == (tmp_path / "typed" / "cards-a4.pdf").read_bytes()
    zero = run("impose", cards, "--back", cards / "back.png", "--bleed", "0", "--size", "44x68", "--out", tmp_path / "zero")  # typed: what the user says wins
    assert "[image-proportions]" in zero.output


def rendered(pdf) -> list[bytes]:
    """Each page's pixels at 36 dpi."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        return [page.render(scale=0.5).to_pil().tobytes() for page in document]
    finally:
        document.close()


def test_a_deck_exported_as_png_is_imposed_with_its_back_behind_every_card(tmp_path):
    """`pnp export png` writes a deck's one back as back.png beside the fronts: `pnp impose`
    of that folder prints it behind every card, as `--back back.png` does, not as a card
    of its own. At 150 dpi (372 pixels for 63 mm) nothing says the images are under 150 dpi."""
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    exported = run("export", "png", tmp_path / "g", "--dpi", "150", "--force", "--out", tmp_path / "png")
    assert exported.exit_code == 0, exported.output
    cards = tmp_path / "png" / "g" / "png-en" / "cards"
    found = run("impose", cards, "--out", tmp_path / "found")
    assert found.exit_code == 0, found.output
    assert "the back: back.png (pnp export png's), behind every card" in found.output
    assert "(4 cards, 2 pages)" in found.output, found.output
    assert "warning" not in found.output, found.output
    told = run("impose", cards, "--back", cards / "back.png", "--out", tmp_path / "told")
    assert told.exit_code == 0, told.output
    assert (tmp_path / "found" / "cards-a4.pdf").read_bytes() == (tmp_path / "told" / "cards-a4.pdf").read_bytes()


def test_a_deck_exported_with_a_back_per_card_is_imposed_with_each_back_behind_its_front(tmp_path):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    edit(tmp_path / "g" / "layouts" / "back.yaml", 'text: "{{ strings.back }}"', 'text: "{{ title }}"')  # a back of its own per card
    exported = run("export", "png", tmp_path / "g", "--dpi", "150", "--force", "--out", tmp_path / "png")
    assert exported.exit_code == 0, exported.output
    cards = tmp_path / "png" / "g" / "png-en" / "cards"
    fronts = sorted(cards.glob("*-front.png"))
    assert len(fronts) == 4 and len(list(cards.glob("*-back.png"))) == 4
    found = run("impose", cards, "--out", tmp_path / "found")
    assert found.exit_code == 0, found.output
    assert "the backs: 4 ID-back.png (pnp export png's), each behind its front" in found.output
    backs = tmp_path / "backs"  # the same backs as a --back folder, in the fronts' order
    backs.mkdir()
    for number, front in enumerate(fronts):
        (backs / f"{number}.png").write_bytes((cards / front.name.replace("-front.", "-back.")).read_bytes())
    told = run("impose", cards, "--back", backs, "--out", tmp_path / "told")
    assert told.exit_code == 0, told.output
    assert "the folder's 4 back images of pnp export png left out: --back gives the backs" in told.output
    assert "(4 cards, 2 pages)" in found.output and "(4 cards, 2 pages)" in told.output
    assert rendered(tmp_path / "found" / "cards-a4.pdf") == rendered(tmp_path / "told" / "cards-a4.pdf")  # the same pages (images named by their files)
    (cards / fronts[0].name.replace("-front.", "-back.")).unlink()
    broken = run("impose", cards, "--out", tmp_path / "broken")
    assert broken.exit_code == 1
    assert (
        f"3 back images of pnp export png for 4 fronts ({fronts[0].name} without its ID-back.png); "
        "expected one back.png, or an ID-back.png beside each ID-front.png (export the deck again), or --back [images-backs]"
    ) in broken.output


def test_the_same_warning_for_many_images_is_one_line_with_the_places(tmp_path):
    fronts = images(tmp_path / "fronts", [f"c{n}.png" for n in range(1, 6)], size=(200, 280))
    result = run("impose", fronts, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "[image-resolution]" in line or "the same at" in line]
    assert len(lines) == 2, result.output
    assert lines[0].endswith("c1.png: warning: the image has 81 dpi at 63 mm across; expected at least 150 for a sharp print [image-resolution]")
    shown = [str(fronts / name) for name in ("c2.png", "c3.png", "c4.png")]
    assert lines[1] == f"  the same at {', '.join(shown)} ... and 1 more place"


def edged(folder, names, size=(630, 880)):
    """Images cut at the trim: blue, the left column red, the top-left pixel green."""
    folder.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGB", size, (0, 0, 255))
    image.paste((255, 0, 0), (0, 0, 1, size[1]))
    image.putpixel((0, 0), (0, 255, 0))
    for name in names:
        image.save(folder / name)
    return folder


def test_make_bleed_stretches_the_outermost_pixels(tmp_path):
    fronts = edged(tmp_path / "art", ["c1.png", "c2.png"])
    result = run("impose", fronts, "--make-bleed", "3", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "art-a4.pdf"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["art-a4.pdf"]  # the extended images were temporary
    # placed as images with 3 mm of bleed of their own are: the same grid, clips and crop marks
    bled = tmp_path / "bled"
    bled.mkdir()
    for name in ("c1.png", "c2.png"):
        Image.new("RGB", (690, 940), (0, 0, 255)).save(bled / name)
    assert run("impose", bled, "--bleed", "3", "--size", "63x88", "--out", tmp_path / "theirs").exit_code == 0
    assert geometry(pdf) == geometry(tmp_path / "theirs" / "bled-a4.pdf")

    (x, y, w, h), _ = card_boxes(reader(pdf).pages[0])  # the clip: the trim and its bleed
    assert (round(w / MM, 1), round(h / MM, 1)) == (69.0, 94.0)
    document = pdfium.PdfDocument(str(pdf))
    scale = 4.0
    image = document[0].render(scale=scale).to_pil()

    def colour(px, py):  # points from the page's bottom left
        return image.getpixel((round(px * scale), round(image.height - py * scale)))

    left, bottom, top = x + 3 * MM, y + 3 * MM, y + h - 3 * MM  # the trim
    assert colour(left - 1.5 * MM, bottom + 40 * MM) == (255, 0, 0)  # the left column, stretched outwards
    assert colour(left + 30 * MM, bottom - 1.5 * MM) == (0, 0, 255)  # the bottom row
    assert colour(left - 1.5 * MM, top + 1.5 * MM) == (0, 255, 0)  # the corner: its corner pixel
    assert colour(x + w - 1.5 * MM, bottom + 40 * MM) == (0, 0, 255)  # the right edge
    document.close()


def test_make_bleed_and_bleed_together_are_a_usage_error(tmp_path):
    fronts = edged(tmp_path / "art", ["c1.png"])
    result = run("impose", fronts, "--make-bleed", "3", "--bleed", "2", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "--bleed says how much bleed the images hold, --make-bleed makes bleed for images that hold none; expected one of them" in result.output
    assert not (tmp_path / "out").exists()


def banded(folder, names, size=(630, 880)):
    """Images cut at the trim (10 px a mm) whose left and top edges have 1 mm bands:
    red, green, yellow from the left edge in; white, magenta from the top edge down."""
    folder.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGB", size, (0, 0, 255))
    for index, colour in enumerate([(255, 0, 0), (0, 255, 0), (255, 255, 0)]):
        image.paste(colour, (index * 10, 0, index * 10 + 10, size[1]))
    image.paste((255, 0, 255), (30, 10, size[0], 20))
    image.paste((255, 255, 255), (30, 0, size[0], 10))
    for name in names:
        image.save(folder / name)
    return folder


def test_mirrored_bleed_is_the_reflection_of_the_image_in_its_edges(tmp_path):
    source = banded(tmp_path / "art", ["c.png"]) / "c.png"
    target = tmp_path / "made.png"
    made_bleed(source, 30, 40, target, "mirror")
    with Image.open(source) as image, Image.open(target) as out:
        w, h = image.size
        assert out.size == (w + 60, h + 80)
        for d in range(30):  # the pixel d + 1 outside the left (right) edge is the one d inside it
            for y in (0, 37, h - 1):
                assert out.getpixel((29 - d, 40 + y)) == image.getpixel((d, y))
                assert out.getpixel((30 + w + d, 40 + y)) == image.getpixel((w - 1 - d, y))
        for d in range(40):  # above and below; the corners reflected both ways
            assert out.getpixel((30 + 55, 39 - d)) == image.getpixel((55, d))
            assert out.getpixel((30 + 55, 40 + h + d)) == image.getpixel((55, h - 1 - d))
            assert out.getpixel((29 - d % 30, 39 - d)) == image.getpixel((d % 30, d))


def test_make_bleed_mirror_on_the_sheet_and_what_the_summary_says(tmp_path):
    fronts = banded(tmp_path / "art", ["c1.png", "c2.png"])
    result = run("impose", fronts, "--make-bleed", "3", "--make-bleed-mode", "mirror", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "made 3 mm bleed (mirrored) for 2 images cut at the trim" in result.output
    pdf = tmp_path / "out" / "art-a4.pdf"
    (x, y, w, h), _ = card_boxes(reader(pdf).pages[0])
    assert (round(w / MM, 1), round(h / MM, 1)) == (69.0, 94.0)
    document = pdfium.PdfDocument(str(pdf))
    scale = 4.0
    image = document[0].render(scale=scale).to_pil().convert("RGB")

    def colour(px, py):  # points from the page's bottom left
        return image.getpixel((round(px * scale), round(image.height - py * scale)))

    left, top, middle = x + 3 * MM, y + h - 3 * MM, y + h / 2
    for mm_in, expected in ((0.5, (255, 0, 0)), (1.5, (0, 255, 0)), (2.5, (255, 255, 0))):
        assert colour(left + mm_in * MM, middle) == expected
        assert colour(left - mm_in * MM, middle) == expected  # its reflection in the left edge
    assert colour(left + 30 * MM, top + 0.5 * MM) == (255, 255, 255)  # the top edge's bands, reflected
    assert colour(left + 30 * MM, top + 1.5 * MM) == (255, 0, 255)
    assert colour(left - 1.5 * MM, top + 1.5 * MM) == (0, 255, 0)  # the corner: reflected both ways
    document.close()


def test_make_bleed_refuses_images_that_hold_bleed_already(tmp_path):
    from PIL.PngImagePlugin import PngInfo

    from pnp.exports.png import BLEED_KEY, TRIM_KEY

    folder = tmp_path / "art"
    folder.mkdir()
    for name in ("a.png", "b.png"):
        info = PngInfo()
        info.add_text(TRIM_KEY, "63x88")
        info.add_text(BLEED_KEY, "3")
        Image.new("RGB", (690, 940), (0, 0, 255)).save(folder / name, pnginfo=info)
    result = run("impose", folder, "--make-bleed", "2", "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert (
        "art: 2 images (a.png, b.png) hold 3 mm of bleed already (pnp export png wrote it into them); "
        "expected --make-bleed 2 only for images cut at the trim, or --bleed 3 without it [images-make-bleed]"
    ) in result.output
    assert not (tmp_path / "out" / "art-a4.pdf").exists()


def test_outer_bleed_of_images_is_made_or_said_to_be_short(tmp_path):
    fronts = edged(tmp_path / "art", [f"c{i}.png" for i in range(9)])
    short = run("impose", fronts, "--outer-bleed", "3", "--out", tmp_path / "short")
    assert short.exit_code == 0, short.output
    assert (
        "warning: the images hold 0 mm of bleed, less than --outer-bleed 3 asks for; those edges get 0 mm "
        "(expected --make-bleed for images cut at the trim, or images with more bleed) [images-bleed-short]"
    ) in short.output
    made = run("impose", fronts, "--make-bleed", "1", "--outer-bleed", "3", "--out", tmp_path / "made")
    assert made.exit_code == 0, made.output
    assert "made 1 mm bleed (stretched, 3 mm for --outer-bleed and --back-bleed) for 9 images cut at the trim" in made.output
    boxes = card_boxes(reader(tmp_path / "made" / "art-a4.pdf").pages[0])
    widths = sorted({round(w / MM, 2) for _, _, w, _ in boxes})
    assert widths == [65.0, 67.0]  # the middle column: 1 mm a side; the outer ones 3 mm on their outer edge


def test_lang_prints_pnps_words_on_the_sheets_and_in_the_subject_in_that_language(tmp_path):
    fronts = images(tmp_path / "art", ["a.png", "b.png"])
    images(tmp_path, ["back.png"], colours=["#333333"])
    result = run("impose", fronts, "--back", tmp_path / "back.png", "--lang", "sk", "--sides", "fold", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = reader(tmp_path / "out" / "art-a4-fold.pdf")
    printed = " ".join(page.extract_text() for page in pdf.pages)
    assert "tlačte na 100 % (skutočná veľkosť): toto pravítko má" in printed and "prehnúť" in printed
    assert "print at 100 %" not in printed and "fold" not in printed
    assert pdf.metadata["/Subject"] == "2 karty, 63 x 88 mm, A4, na prehnutie"
    maps = images(tmp_path / "maps", ["a.png"], size=(2400, 1800))
    result = run("impose", maps, "--size", "400x300", "--lang", "cs", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = reader(tmp_path / "out" / "maps-a4.pdf")
    assert "maps · a: sestavení" in pdf.pages[0].extract_text()
    assert pdf.metadata["/Subject"] == "1 karta, 400 x 300 mm, 4 dílky na kus, A4, jednostranně"


def test_a_language_pnp_has_no_words_in_is_a_warning_and_english(tmp_path):
    fronts = images(tmp_path / "art", ["a.png"])
    result = run("impose", fronts, "--lang", "ja", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "warning: pnp has no words in 'ja'; the sheets' words are in English (pnp/i18n/own has a catalogue per language)" in result.output
    assert "print at 100 % (actual size)" in reader(tmp_path / "out" / "art-a4.pdf").pages[0].extract_text()
    assert run("impose", fronts, "--lang", "s/k").exit_code == 2
