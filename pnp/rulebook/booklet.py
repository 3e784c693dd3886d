"""An A5 booklet: the rulebook set on A5 pages, imposed two to a side of an A4 landscape
sheet in saddle-stitch order, so that the printed stack, folded once in the middle and
stapled on the fold, reads 1, 2, 3, ... Print it double-sided, flipping on the short edge.

The A5 pages are placed as they are (vector, fonts and all) with pypdf; blank pages pad
the book to a multiple of four, at its end.
"""

from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter, Transformation
from pypdf.generic import NameObject
from reportlab.lib.pagesizes import A4, landscape


def saddle_order(pages: int) -> list[tuple[int, int]]:
    """The (left, right) A5 pages of each sheet side, fronts and backs alternating, for a
    book of `pages` pages (a multiple of 4): sheet 1 front = N and 1, back = 2 and N-1, ..."""
    assert pages % 4 == 0
    sides = []
    for sheet in range(pages // 4):
        sides.append((pages - 2 * sheet, 2 * sheet + 1))
        sides.append((2 * sheet + 2, pages - 2 * sheet - 1))
    return sides


def impose(a5: bytes, title: str, author: str) -> tuple[bytes, int]:
    """The booklet's PDF bytes and its number of sheet sides."""
    reader = PdfReader(io.BytesIO(a5))
    count = len(reader.pages)
    total = -(-count // 4) * 4
    width, height = landscape(A4)
    writer = PdfWriter()
    for left, right in saddle_order(total):
        side = writer.add_blank_page(width, height)
        for slot, number in enumerate((left, right)):
            if number > count:
                continue  # a blank page of the padding
            page = reader.pages[number - 1]
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            x = slot * width / 2 + (width / 2 - w) / 2
            side.merge_transformed_page(page, Transformation().translate(x, (height - h) / 2))
    writer.add_metadata(
        {
            "/Title": title,
            "/Author": author,
            "/Subject": "A5 booklet: print double-sided, flip on the short edge, fold, staple",
            "/Producer": "pnp (pypdf)",
            "/Creator": "pnp",
        }
    )
    writer.create_viewer_preferences()
    writer.viewer_preferences[NameObject("/Duplex")] = NameObject("/DuplexFlipShortEdge")
    writer.viewer_preferences[NameObject("/PrintScaling")] = NameObject("/None")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue(), len(writer.pages)
