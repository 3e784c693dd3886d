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
