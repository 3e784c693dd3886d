"""Pages are written to the file as they are finished (pdfstream): the PDF is still
complete and valid, draws exactly what reportlab's own writer draws, and a failed build
leaves nothing behind."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from conftest import make_small_game, run
from pdfread import reader, text
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnp.base.paths import FONTS_DIR
from pnp.layout.faces import BLACK
from pnp.pdf.canvas import MemoryCanvas, StreamingCanvas, StreamingDocument, draw_string, draw_text, round_rect
from pnp.pipeline.build import build
from pnp.project.options import BuildOptions
from pnp.write import pdf


def xref_points_at_objects(data: bytes) -> None:
    """Every cross-reference entry points at the start of its object, as a strict reader needs."""
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF\n$", data).group(1))
    assert data[start:].startswith(b"xref\n0 ")
    count = int(re.match(rb"xref\n0 (\d+)\n", data[start:]).group(1))
    entries = re.findall(rb"(\d{10}) (\d{5}) ([nf]) ", data[start:])[:count]
    assert len(entries) == count and entries[0][2] == b"f"
    for number, (offset, _, kind) in enumerate(entries[1:], 1):
        assert kind == b"n"
        assert data[int(offset) :].startswith(b"%d 0 obj\n" % number), f"object {number}"


def draw(canvas: Canvas, pages: int) -> None:
    """Pages sharing an embedded font (subset at save) and a form object, each with its own text."""
    pdfmetrics.registerFont(TTFont("StreamSans", str(FONTS_DIR / "SourceSansPro-Regular.ttf")))
    canvas.beginForm("mark")
    canvas.circle(10, 10, 8, fill=1)
    canvas.endForm()
    for i in range(pages):
        canvas.setFont("StreamSans", 12)
        canvas.drawString(72, 720, f"Strana {i + 1}: žluťoučký kůň")
        canvas.rect(72, 72, 100, 50, fill=1)
        canvas.doForm("mark")
        canvas.showPage()
    canvas.save()


def page_streams(path: Path) -> list[bytes]:
    return [page.get_contents().get_data() for page in reader(path).pages]


def test_streamed_pages_draw_what_reportlab_draws(tmp_path):
    plain, streamed = tmp_path / "plain.pdf", tmp_path / "streamed.pdf"
    draw(Canvas(str(plain), pagesize=A4, invariant=1, pageCompression=1), 30)
    draw(StreamingCanvas(streamed, pagesize=A4), 30)
    assert page_streams(streamed) == page_streams(plain)
    assert text(streamed) == text(plain)
    assert "Strana 30: žluťoučký kůň" in text(streamed)
    xref_points_at_objects(streamed.read_bytes())
    assert reader(streamed).pdf_header == reader(plain).pdf_header


def test_text_written_directly_reads_as_reportlabs_own_across_font_subsets(tmp_path):
    """pdfstream.draw_text writes set text without reportlab's text objects: the same
    characters come out of the PDF, also past the first 256 of a font (a second subset),
    with the words of a line on it in order."""
    pdfmetrics.registerFont(TTFont("DirectSans", str(FONTS_DIR / "SourceSansPro-Regular.ttf")))
    covered = pdfmetrics.getFont("DirectSans").face.charToGlyph
    chars = [chr(c) for c in range(0x21, 0x180) if c in covered and chr(c).isalnum()]
    assert len(chars) > 256
    words = ["".join(chars[i : i + 7]) for i in range(0, len(chars), 7)]
    lines = [" ".join(words[i : i + 5]) for i in range(0, len(words), 5)]
    direct, plain = tmp_path / "direct.pdf", tmp_path / "plain.pdf"
    canvas = StreamingCanvas(direct, pagesize=A4)
    for _ in range(2):  # the second page: every character already coded
        draw_text(canvas, BLACK, [("DirectSans", 10, 0.0, 40, 800 - 14 * i, line) for i, line in enumerate(lines)])
        canvas.showPage()
    canvas.save()
    canvas = Canvas(str(plain), pagesize=A4, invariant=1)
    for _ in range(2):
        canvas.setFont("DirectSans", 10)
        for i, line in enumerate(lines):
            canvas.drawString(40, 800 - 14 * i, line)
        canvas.showPage()
    canvas.save()
    assert re.search(rb"/F\d+\+1 10 Tf", b"".join(page_streams(direct)))  # a second subset was needed
    assert [page.extract_text().splitlines() for page in reader(direct).pages] == [page.extract_text().splitlines() for page in reader(plain).pages]
    assert all(line in text(direct) for line in lines)


def test_strings_drawn_again_are_reportlabs_byte_for_byte(tmp_path):
    """pdfstream.draw_string writes a string drawn before in the same place and font as it
    was first written (the ruler's caption): every page is what reportlab's drawString
    writes, a string past the font's first subset, one in another size or place, one new
    on each page included."""
    pdfmetrics.registerFont(TTFont("AgainSans", str(FONTS_DIR / "SourceSansPro-Regular.ttf")))
    covered = pdfmetrics.getFont("AgainSans").face.charToGlyph
    many = "".join(chr(c) for c in range(0x21, 0x180) if c in covered and chr(c).isalnum())
    assert len(many) > 256

    def strings(page: int) -> list[tuple[float, float, float, str]]:
        return [
            (6, 0, -6.8, "print at 100 %: this ruler is 50 mm"),
            (6, 0, -13.7, f"sheet {page}/3 front"),
            (8, 0, -6.8, "print at 100 %: this ruler is 50 mm"),
            (6, 5, 0, many),
        ]

    streams = []
    for again in (False, True):
        path = tmp_path / f"{again}.pdf"
        canvas = StreamingCanvas(path, pagesize=A4, invariant=1, pageCompression=1)
        for page in range(3):
            for size, x, y, line in strings(page):
                canvas.setFont("AgainSans", size)
                if again:
                    draw_string(canvas, x, y, line)
                else:
                    canvas.drawString(x, y, line)
            canvas.showPage()
        canvas.save()
        streams.append(page_streams(path))
    assert streams[0] == streams[1]
    assert len(set(streams[1][1:])) == 2  # each page has its own sheet number


def test_a_large_build_is_complete_valid_and_repeatable(tmp_path):
    cards = "".join(f"- {{id: c{i}, title: Karta {i}, text: Hráč získa {i} miest.}}\n" for i in range(300))
    game = make_small_game(tmp_path / "g", cards=cards)
    pdfs = []
    for name in ("one", "two"):
        assert run("build", game, "--out", tmp_path / name).exit_code == 0
        pdfs.append(tmp_path / name / "g" / "cards-sk-a4.pdf")
    data = pdfs[0].read_bytes()
    assert data == pdfs[1].read_bytes()  # same input, same bytes
    xref_points_at_objects(data)
    document = PdfReader(str(pdfs[0]), strict=True)
    assert len(document.pages) == 2 * -(-300 // 9)  # fronts and backs of every sheet
    printed = text(pdfs[0])
    for i in range(300):
        assert f"Karta {i}\n" in printed + "\n"


def test_a_failed_build_leaves_no_file_and_no_open_handle(tmp_path, monkeypatch):
    game = make_small_game(tmp_path / "g", cards="".join(f"- {{id: c{i}, title: Karta {i}}}\n" for i in range(40)))
    opened = []
    real = StreamingCanvas.__init__

    def spy(self, path, **kwargs):
        real(self, path, **kwargs)
        opened.append(self._file)

    calls = 0

    def fail_on_third(*args):
        nonlocal calls
        calls += 1
        if calls == 3:
            raise RuntimeError("disk on fire")
        return real_face(*args)

    real_face = pdf.draw_face
    monkeypatch.setattr(StreamingCanvas, "__init__", spy)
    monkeypatch.setattr(pdf, "draw_face", fail_on_third)
    with pytest.raises(RuntimeError):
        build(game, BuildOptions(out=tmp_path / "out"))
    assert opened and all(f.closed for f in opened)
    assert not [p for p in (tmp_path / "out").rglob("*") if p.is_file()]


def test_pages_copied_into_another_pdf_draw_what_was_drawn(tmp_path):
    """pdfstream.copy_pages writes the pages one PDF drew into another as forms (the
    rulebook's booklet, from its paper book): the same text, past the first 256 characters
    of a font, the same images and forms, without drawing them again; what it cannot copy
    is refused, not written wrong."""
    from PIL import Image
    from reportlab.lib.colors import CMYKColorSep

    from pnp.pdf.canvas import FormPagesCanvas, KeptPagesCanvas, copy_pages, page_form, place_form

    pdfmetrics.registerFont(TTFont("CopySans", str(FONTS_DIR / "SourceSansPro-Regular.ttf")))
    covered = pdfmetrics.getFont("CopySans").face.charToGlyph
    chars = [chr(c) for c in range(0x21, 0x180) if c in covered and chr(c).isalnum()]
    lines = ["".join(chars[i : i + 40]) for i in range(0, len(chars), 40)]
    Image.new("RGB", (20, 10), "red").save(tmp_path / "red.png")
    copies = tmp_path / "copies.pdf"

    def place(canvas: FormPagesCanvas, pages: int) -> None:  # each page on a sheet of its own
        for number in range(1, pages + 1):
            place_form(canvas, page_form(number), (1, 0, 0, 1, 0, 0))
            canvas.sheet()

    def copy(kept: KeptPagesCanvas) -> None:
        target = FormPagesCanvas(str(copies), pagesize=A4, invariant=1, place=place)
        copy_pages(kept, target)
        target.save()

    drawn = tmp_path / "drawn.pdf"
    canvas = KeptPagesCanvas(str(drawn), pagesize=A4, invariant=1, then=copy)
    canvas.beginForm("mark")
    canvas.circle(10, 10, 8, fill=1)
    canvas.endForm()
    for page in range(3):
        canvas.begin_page((2, 0, 0, 2, 0, 0))  # drawn twice as large here; the copies at the size set
        draw_text(canvas, BLACK, [("CopySans", 5, 0.0, 10, 400 - 7 * i, line) for i, line in enumerate(lines[page::3] or lines)])
        canvas.drawImage(str(tmp_path / "red.png"), 20, 20, 40, 20)
        canvas.doForm("mark")
        canvas.setFillAlpha(0.25 * (page + 1))  # a translucent box: a graphics state of the page's own
        canvas.rect(100, 20, 30, 30, fill=1)
        canvas.setFont("Times-Roman", 8)  # a standard font, which only this PDF has named yet
        canvas.drawString(100, 60, f"Times {page + 1}")
        canvas.showPage()
    canvas.save()
    original, copied = reader(drawn), reader(copies)
    assert len(copied.pages) == len(original.pages) == 3
    assert [p.extract_text() for p in copied.pages] == [p.extract_text() for p in original.pages]
    assert all(line in text(copies) for line in lines) and "Times 3" in text(copies)
    for number, page in enumerate(copied.pages, 1):
        (form,) = [f.get_object() for f in page["/Resources"]["/XObject"].values()]
        assert {n.split(".")[0] for n in form["/Resources"]["/XObject"]} == {"/FormXob"} and len(form["/Resources"]["/XObject"]) == 2  # the image and the form
        (state,) = re.findall(rb"/(\S+) gs", form.get_data())
        assert form["/Resources"]["/ExtGState"]["/" + state.decode()]["/ca"] == 0.25 * number  # its own translucency, named in its resources
        assert "/Times-Roman" in {font.get_object()["/BaseFont"] for font in form["/Resources"]["/Font"].values()}

    refused = []

    def separated(kept: KeptPagesCanvas) -> None:
        with pytest.raises(ValueError, match="colour space"):
            copy_pages(kept, FormPagesCanvas(str(tmp_path / "never.pdf"), pagesize=A4, place=place))
        refused.append(True)

    canvas = KeptPagesCanvas(str(tmp_path / "spot.pdf"), pagesize=A4, then=separated)
    canvas.setFillColor(CMYKColorSep(0, 0.5, 1, 0, spotName="PANTONE 130"))
    canvas.rect(10, 10, 50, 50, fill=1)
    canvas.showPage()
    canvas.save()
    assert refused == [True]


@pytest.mark.parametrize("flags", [[], ["--bleed", "3", "--flip", "short"], ["--sides", "fold", "--paper", "letter"], ["--cutter", "silhouette"]])
def test_pages_formatted_straight_to_bytes_are_reportlabs_byte_for_byte(tmp_path, monkeypatch, flags):
    """A sheet's page and its content stream are formatted without reportlab's general
    formatter (StreamingDocument._plain_page); the file is the one reportlab's formatting
    gives, with boxes, bleed, rotation and every route to paper."""
    game = make_small_game(tmp_path / "g", cards="".join(f"- {{id: c{i}, title: Karta {i}, text: Hráč získa {i} miest.}}\n" for i in range(20)))
    plain_page, formatted = StreamingDocument._plain_page, []

    def noted(self, page):
        found = plain_page(self, page)
        formatted.append(found is not None)
        return found

    monkeypatch.setattr(StreamingDocument, "_plain_page", noted)
    assert run("build", game, "--out", tmp_path / "fast", *flags).exit_code == 0
    assert formatted and all(formatted)  # every sheet page took the short way
    monkeypatch.setattr(StreamingDocument, "_plain_page", lambda self, page: None)  # every page through reportlab's formatter
    assert run("build", game, "--out", tmp_path / "reportlab", *flags).exit_code == 0
    names = sorted(p.name for p in (tmp_path / "fast" / "g").glob("*.pdf"))
    assert names and names == sorted(p.name for p in (tmp_path / "reportlab" / "g").glob("*.pdf"))
    for name in names:
        assert (tmp_path / "fast" / "g" / name).read_bytes() == (tmp_path / "reportlab" / "g" / name).read_bytes(), name


def test_uncompressed_streams_are_encoded_as_ascii_to_reportlabs_bytes(tmp_path, monkeypatch):
    """An uncompressed PDF's content streams (an export's, rasterised in memory) and every
    form's operators are ASCII: Python's codec encodes them, not reportlab's PDFDocEncoding
    codec character by character, and the file is the one reportlab's codec gives; what
    is not ASCII, and the codes PDFDocEncoding gives to accents, still go to its codec."""
    by_codec: list[str] = []  # the texts reportlab's codec encodes

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.endswith("rl_codecs.py") and frame.f_code.co_name == "encode":
            by_codec.append(frame.f_locals["input"])

    ascii_way = tmp_path / "ascii.pdf"
    sys.setprofile(profile)
    try:
        draw(Canvas(str(ascii_way), pagesize=A4, invariant=1, pageCompression=0), 3)
    finally:
        sys.setprofile(None)
    assert by_codec and not [text for text in by_codec if "\n" in text]  # the document's information (its dates, producer) only, no operators
    assert pdfdoc.pdfdocEnc("Café") == "Café".encode("extpdfdoc") and pdfdoc.pdfdocEnc(b"\xff") == b"\xff"
    with pytest.raises(UnicodeEncodeError):
        pdfdoc.pdfdocEnc("a\x18b")
    monkeypatch.setattr(pdfdoc, "pdfdocEnc", lambda x: x.encode("extpdfdoc") if isinstance(x, str) else x)  # reportlab's own
    codec_way = tmp_path / "codec.pdf"
    draw(Canvas(str(codec_way), pagesize=A4, invariant=1, pageCompression=0), 3)
    assert ascii_way.read_bytes() == codec_way.read_bytes()
    assert b"Tj" in ascii_way.read_bytes()  # uncompressed: the text's operators are in the file


@pytest.mark.parametrize("images", [False, True])
def test_memory_pdfs_share_resources_and_are_reportlabs_byte_for_byte(images):
    """An export's in-memory PDF (MemoryCanvas) formats the resources of pages and forms
    naming the same forms once; the file is reportlab's own, with pages naming other
    forms, forms placing forms (one not yet defined), a translucent page (its graphics
    state keeps reportlab's resources) and images."""
    import io

    from reportlab.lib.utils import ImageReader

    def pages(canvas: Canvas) -> bytes:
        for name in ("a", "b"):
            canvas.beginForm(name)
            canvas.circle(10, 10, 8, fill=1)
            canvas.endForm()
        for name, placed in (("c", "d"), ("d", "a"), ("e", "a")):  # c places d before d is defined
            canvas.beginForm(name)
            canvas.doForm(placed)
            canvas.endForm()
        for forms in (["a"], ["a"], ["b", "a"], ["b"], ["a"], ["c", "e"]):
            for name in forms:
                canvas.doForm(name)
            if forms == ["b"]:
                canvas.setFillAlpha(0.5)
                canvas.rect(0, 0, 10, 10, fill=1)
            if images:
                from PIL import Image

                canvas.drawImage(ImageReader(Image.new("RGB", (2, 2), "red")), 0, 0, 20, 20)
            canvas.showPage()
        canvas.save()
        return canvas.getpdfdata()

    ours, theirs = io.BytesIO(), io.BytesIO()
    data = pages(MemoryCanvas(ours, pagesize=A4, invariant=1, pageCompression=0))
    assert data == pages(Canvas(theirs, pagesize=A4, invariant=1, pageCompression=0))
    assert data.count(b"/ExtGState") == 1 and data.count(b"/Type /Page\n") == 6


def test_round_rects_drawn_again_are_reportlabs_byte_for_byte(tmp_path, monkeypatch):
    """A frame drawn again at the same place (every card of a deck, each from its own
    origin) is written as reportlab wrote it, without building its path anew; one drawn
    elsewhere, or only filled, is built."""
    built = []
    reportlab_round_rect = Canvas.roundRect
    monkeypatch.setattr(Canvas, "roundRect", lambda self, *args, **kwargs: built.append(args) or reportlab_round_rect(self, *args, **kwargs))
    kept, reportlabs = tmp_path / "kept.pdf", tmp_path / "reportlab.pdf"
    frames = [(10.5, 20.25, 180.0, 250.0, 8.5, 1, 1), (10.5, 20.25, 180.0, 250.0, 8.5, 0, 1), (12.0, 20.25, 180.0, 250.0, 8.5, 1, 1)]
    for path, drawn in ((kept, round_rect), (reportlabs, lambda c, x, y, w, h, r, s, f: reportlab_round_rect(c, x, y, w, h, r, stroke=s, fill=f))):
        canvas = Canvas(str(path), pagesize=A4, invariant=1, pageCompression=0)
        for _ in range(3):
            for frame in frames:
                drawn(canvas, *frame)
            canvas.showPage()
        canvas.save()
    assert kept.read_bytes() == reportlabs.read_bytes()
    assert b" c" in kept.read_bytes() and len(built) == len(frames)  # each built once, for the first page
