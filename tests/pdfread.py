"""Read what matters to a user out of our PDFs with pypdf: text, fonts, page sizes,
crop marks and where each card was placed (its clip rectangle)."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 72 / 25.4


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


def marks(page) -> list[tuple[float, float, float, float]]:
    """Line segments drawn at page level (not inside a card): the crop marks."""
    segs, depth, start = [], 0, None
    for operands, op in operations(page):
        if op == b"q":
            depth += 1
        elif op == b"Q":
            depth -= 1
        elif depth == 0 and op == b"m":
            start = [float(v) for v in operands]
        elif depth == 0 and op == b"l" and start:
            segs.append((start[0], start[1], float(operands[0]), float(operands[1])))
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
    left end of its baseline, through the text and graphics matrices."""
    runs: list[tuple[str, float, float]] = []

    def visit(text, cm, tm, font, size) -> None:
        if text.strip():
            x, y = tm[4], tm[5]
            runs.append((text.strip(), x * cm[0] + y * cm[2] + cm[4], x * cm[1] + y * cm[3] + cm[5]))

    page.extract_text(visitor_text=visit)
    return runs


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
    found, matrix = [], [(0.0, 0.0, 1.0)]
    for operands, op in operations(page):
        if op == b"q":
            matrix.append(matrix[-1])
        elif op == b"Q":
            matrix.pop()
        elif op == b"cm":
            a, _, _, _, e, f = (float(v) for v in operands)
            x, y, s = matrix[-1]
            matrix[-1] = (x + e * s, y + f * s, s * a)
        elif op == b"Do":
            found.append(matrix[-1])
    return found


CHECK_PAGE = "the sheets' margins have no room for a ruler"


def sheet_pages(path: Path) -> list:
    """The pages of a sheet PDF that hold components: without the page of its own that
    carries the ruler (and its blank back) when no sheet's margin has room for one."""
    pages = list(reader(path).pages)
    if pages and CHECK_PAGE in pages[0].extract_text():
        return pages[2:] if len(pages) > 1 and not pages[1].extract_text().strip() and not card_boxes(pages[1]) else pages[1:]
    return pages
