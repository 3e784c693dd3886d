"""Read what matters to a user out of our PDFs with pypdf: text, fonts, page sizes,
crop marks and where each card was placed (its clip rectangle)."""

from __future__ import annotations

import copy
import logging
import math
import re
import weakref
from collections import Counter
from pathlib import Path

from pypdf import PageObject, PdfReader
from pypdf.generic import ContentStream, DictionaryObject, NameObject

MM = 72 / 25.4
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)  # a transformation matrix that moves nothing


def _fonts_read_once() -> None:
    """pypdf reads a font's character map anew for every page and form that names it: four
    fifths of extracting the text of a deck, whose every card face is a form naming the same
    fonts. Each font of a file is read once here, and each caller given its own copy (pypdf
    sets the copy's space width): the text extracted is the same. Left as it is where pypdf
    has no Font.from_font_resource (before 6)."""
    try:
        from pypdf.generic._font import Font
    except ImportError:
        return
    read = Font.from_font_resource.__func__
    kept: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # the reader -> its fonts read, by object number

    def from_font_resource(cls, font):
        ref = getattr(font, "indirect_reference", None)
        if ref is None or ref.pdf is None:
            return read(cls, font)
        fonts = kept.setdefault(ref.pdf, {})
        key = (ref.idnum, ref.generation)
        if key not in fonts:
            fonts[key] = read(cls, font)
        return copy.copy(fonts[key])

    Font.from_font_resource = classmethod(from_font_resource)


_fonts_read_once()


def reader(path: Path) -> PdfReader:
    return PdfReader(str(path))


def text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in reader(path).pages)


def fonts(path: Path) -> dict[str, bool]:
    """Base font name -> embedded?"""
    found: dict[str, bool] = {}

    def visit(resources) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            desc = font.get("/FontDescriptor")
            if "/DescendantFonts" in font:
                desc = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            found[str(font["/BaseFont"])] = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        for xobj in (resources.get("/XObject") or {}).values():
            visit(xobj.get_object().get("/Resources"))

    for page in reader(path).pages:
        visit(page.get("/Resources"))
    return found


def operations(page) -> list[tuple[list, bytes]]:
    content = ContentStream(page.get_contents(), page.pdf)
    return [(operands, op) for operands, op in content.operations]


def drawn_strings(page) -> list[tuple[str, float]]:
    """Each string the page's own content draws (Tj or TJ), in the order of the stream, with
    the x of its text matrix: its characters as the fonts' ToUnicode maps name them, each
    glyph in the order it is drawn, left to right (pypdf's text extraction reorders
    right-to-left letters into reading order: this reads what is printed where)."""
    maps: dict[str, dict[int, str]] = {}
    for name, font in page["/Resources"]["/Font"].items():
        data = font.get_object()["/ToUnicode"].get_object().get_data().decode("latin-1")
        maps[name] = {int(a, 16): chr(int(b, 16)) for a, b in re.findall(r"<([0-9A-Fa-f]{2})> <([0-9A-Fa-f]{4})>", data)}
    found: list[tuple[str, float]] = []
    font, x = "", 0.0
    for operands, op in operations(page):
        if op == b"Tf":
            font = operands[0]
        elif op == b"Tm":
            x = float(operands[4])
        elif op in (b"Tj", b"TJ"):
            strings = [operands[0]] if op == b"Tj" else [o for o in operands[0] if not isinstance(o, (int, float))]
            found.append(("".join(maps[font].get(b, "?") for s in strings for b in (s.original_bytes if hasattr(s, "original_bytes") else bytes(s))), x))
    return found


def marks(page) -> list[tuple[float, float, float, float]]:
    """Line segments drawn at page level (not inside a card), directly or in a form placed
    there as it is (pnp draws a page layout's crop marks once, as a form): the crop marks."""
    return _page_level_lines(operations(page), page)


def _page_level_lines(ops: list[tuple[list, bytes]], page) -> list[tuple[float, float, float, float]]:
    segs, depth, start = [], 0, None
    for operands, op in ops:
        if op == b"q":
            depth += 1
        elif op == b"Q":
            depth -= 1
        elif depth == 0 and op == b"m":
            start = [float(v) for v in operands]
        elif depth == 0 and op == b"l" and start:
            segs.append((start[0], start[1], float(operands[0]), float(operands[1])))
        elif depth == 0 and op == b"Do":
            form = page["/Resources"]["/XObject"][operands[0]].get_object()
            segs += _page_level_lines(list(ContentStream(form, page.pdf).operations), page)
    return segs


def card_boxes(page) -> list[tuple[float, float, float, float]]:
    """The clip rectangles (x, y, w, h) of the cards on a page, in drawing order."""
    boxes, previous = [], None
    for operands, op in operations(page):
        if op in (b"W", b"W*") and previous and previous[1] == b"re":
            boxes.append(tuple(float(v) for v in previous[0]))
        previous = (operands, op)
    return boxes


def placed_text(page) -> list[tuple[str, float, float]]:
    """Each run of text on a page with where it starts: (text, x, y) in page points of the
    left end of its baseline (see sized_text)."""
    return [(run, x, y) for run, x, y, _ in sized_text(page)]


def sized_text(page) -> list[tuple[str, float, float, float]]:
    """Each run of text on a page with where it starts and the size it is printed at:
    (text, x, y, points), through the text and graphics matrices, and through the matrix of
    each form it is drawn in (pypdf reads a form's text in the form's own space, so each
    form is read on its own, once however often it is placed, and its runs moved to where
    it is placed)."""
    runs: list[tuple[str, float, float, float]] = []
    read: dict[tuple[int, int], tuple] = {}  # a form's runs in its own space, by its contents and resources
    for contents, resources, (a, b, c, d, e, f) in _drawings(page, page["/Contents"], page["/Resources"], IDENTITY, {}):
        key = (id(contents.get_object()), id(resources))
        if key not in read:
            read[key] = (contents.get_object(), resources, _runs(page, contents, resources))  # the objects kept: their ids stay theirs
        for text, px, py, size, scale in read[key][2]:
            runs.append((text, px * a + py * c + e, px * b + py * d + f, size * (scale * abs(a * d - b * c)) ** 0.5))
    return runs


def _runs(page, contents, resources) -> list[tuple[str, float, float, float, float]]:
    """The runs of text of a page's or form's contents, in its own space: (text, x, y,
    size, the area scale of the text and graphics matrices)."""
    found = []
    alone = PageObject.create_blank_page(page.pdf, width=1, height=1)
    alone[NameObject("/Resources")] = _without_forms(resources)  # their text is read with their own placement
    alone[NameObject("/Contents")] = contents  # as written: rewriting a stream would re-encode its strings

    def visit(text, cm, tm, font, size) -> None:
        if text.strip():
            x, y = tm[4], tm[5]
            px, py = x * cm[0] + y * cm[2] + cm[4], x * cm[1] + y * cm[3] + cm[5]
            found.append((text.strip(), px, py, size, abs(tm[0] * tm[3] - tm[1] * tm[2]) * abs(cm[0] * cm[3] - cm[1] * cm[2])))

    quiet = logging.getLogger("pypdf._page")  # it says it cannot read the forms left out
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        alone.extract_text(visitor_text=visit)
    finally:
        quiet.setLevel(level)
    return found


def card_text(page) -> list[tuple[str, float]]:
    """Each run of text printed on a card of a sheet page, with its size in points: the
    runs of sized_text that start inside a card's box (not the sheet's caption or ruler)."""
    boxes = card_boxes(page)
    return [(run, size) for run, x, y, size in sized_text(page) if any(bx <= x <= bx + bw and by <= y <= by + bh for bx, by, bw, bh in boxes)]


def _without_forms(resources) -> DictionaryObject:
    kept = DictionaryObject({key: value for key, value in resources.items() if key != "/XObject"})
    if "/XObject" in resources:
        xobjects = resources["/XObject"].get_object()
        kept[NameObject("/XObject")] = DictionaryObject({k: v for k, v in xobjects.items() if v.get_object().get("/Subtype") != "/Form"})
    return kept


def _with_matrix(ops, matrix=IDENTITY):
    """Each operation with the current transformation matrix it is drawn under (through
    q, Q and cm), starting from `matrix`."""
    stack = [matrix]
    for operands, op in ops:
        if op == b"q":
            stack.append(stack[-1])
        elif op == b"Q":
            stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            m = stack[-1]
            stack[-1] = (
                a * m[0] + b * m[2],
                a * m[1] + b * m[3],
                c * m[0] + d * m[2],
                c * m[1] + d * m[3],
                e * m[0] + f * m[2] + m[4],
                e * m[1] + f * m[3] + m[5],
            )
        yield operands, op, stack[-1]


def _drawings(page, contents, resources, matrix, parsed: dict[int, tuple] | None = None):
    """A page's (or form's) contents, its resources and the matrix that places it on the
    page, then the same for each form it places, each where it is placed; `parsed`: the
    operations of the contents read so far (a form placed again is parsed once)."""
    resources = resources.get_object()
    parsed = {} if parsed is None else parsed
    stream = contents.get_object()
    if id(stream) not in parsed:
        parsed[id(stream)] = (stream, list(ContentStream(stream, page.pdf).operations))  # the stream kept: its id stays its own
    forms = []
    for operands, op, placed in _with_matrix(parsed[id(stream)][1], matrix):
        if op == b"Do":
            xobject = resources["/XObject"][operands[0]]
            if xobject.get_object().get("/Subtype") == "/Form":
                forms.append((xobject, xobject.get_object().get("/Resources", resources), placed))
    yield contents, resources, matrix
    for form, inner, placed in forms:
        yield from _drawings(page, form, inner, placed, parsed)


def drawn(page) -> Counter:
    """How often each image and each symbol (a form of pnp's, 'pnpsym_...') is drawn on a
    page, by name, counted through the forms pnp places repeated content with."""
    found: Counter = Counter()

    def walk(contents, resources) -> None:
        for operands, op in ContentStream(contents, page.pdf).operations:
            if op != b"Do":
                continue
            xobject = resources["/XObject"][operands[0]].get_object()
            if xobject.get("/Subtype") == "/Form" and "pnpsym" not in operands[0]:
                walk(xobject, xobject.get("/Resources", resources).get_object())
            else:
                found[str(operands[0])] += 1

    walk(page.get_contents(), page["/Resources"])
    return found


def outlines(page) -> list[tuple[bool, list[tuple[float, float]]]]:
    """Paths stroked on the page itself, outside any moved or scaled drawing (a card, a
    form): (curved, the points the path runs through). Cut lines, targets, marks."""
    out, points, curved, moved = [], [], False, [False]
    for operands, op in operations(page):
        if op == b"q":
            moved.append(moved[-1])
        elif op == b"Q":
            moved.pop()
        elif op == b"cm":
            moved[-1] = moved[-1] or [float(v) for v in operands] != [1, 0, 0, 1, 0, 0]
        elif moved[-1]:
            continue
        elif op == b"m":
            points, curved = [(float(operands[0]), float(operands[1]))], False
        elif op == b"l":
            points.append((float(operands[0]), float(operands[1])))
        elif op == b"c":
            points.append((float(operands[4]), float(operands[5])))
            curved = True
        elif op in (b"S", b"s"):
            out.append((curved, points))
            points = []
        elif op == b"n":
            points = []
    return out


def circles(page, radius: float | None = None) -> list[tuple[float, float, float]]:
    """Stroked circles on the page itself: (centre x, centre y, radius), in points."""
    found = []
    for curved, points in outlines(page):
        if not curved or len(points) < 4:
            continue
        xs, ys = [x for x, _ in points], [y for _, y in points]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        r = (max(xs) - min(xs)) / 2
        if radius is None or abs(r - radius) < 0.05:
            found.append((cx, cy, r))
    return found


def placements(page) -> list[tuple[float, float, float]]:
    """Where each form (a drawing placed whole, e.g. a component split into pieces) is
    drawn: the x, y translation and the scale of the `cm` before its `Do`."""
    return [(m[4], m[5], m[0]) for _, op, m in _with_matrix(operations(page)) if op == b"Do"]


CHECK_PAGE = "the sheets' margins have no room for a ruler"


def sheet_pages(path: Path) -> list:
    """The pages of a sheet PDF that hold components: without the page of its own that
    carries the ruler (and its blank back) when no sheet's margin has room for one."""
    pages = list(reader(path).pages)
    if pages and CHECK_PAGE in pages[0].extract_text():
        return pages[2:] if len(pages) > 1 and not pages[1].extract_text().strip() and not card_boxes(pages[1]) else pages[1:]
    return pages


def small_text_on_faces(path: Path, points: float = 7.0) -> list[tuple[str, float]]:
    """The runs of text printed on the components of a sheet PDF (inside their clip
    boxes, not the sheet's own caption) at less than `points`, with their sizes; an
    assembly page of a component in pieces is left out (its picture is scaled down)."""
    pages = sheet_pages(path)
    if pages and "assembly" in (pages[0].extract_text() or ""):
        pages = pages[1:]
    return [(run, round(size, 2)) for page in pages for run, size in card_text(page) if size < points - 0.01]


def drawn_ops(page):
    """Every operation on the page and in the forms it places: (operands, operator, the
    matrix it is drawn under, the resources it names things in)."""
    for contents, resources, matrix in _drawings(page, page["/Contents"], page["/Resources"], IDENTITY):
        for operands, op, placed in _with_matrix(ContentStream(contents.get_object(), page.pdf).operations, matrix):
            yield operands, op, placed, resources.get_object()


def text_angles(page) -> dict[str, float]:
    """The angle (degrees counterclockwise) each run of text is drawn at, by its text."""
    found = {}
    for operands, op, (a, b, *_), _ in drawn_ops(page):
        if op == b"Tj":
            found[operands[0]] = round(math.degrees(math.atan2(b, a)), 3)
    return found


def resources_of(page, kind: str) -> dict:
    """The entries of resource `kind` (/ExtGState, /Shading) of the page and its forms."""
    found = {}
    for _, _, _, resources in drawn_ops(page):
        for name, value in (resources.get(kind) or {}).items():
            found[name] = value.get_object()
    return found
