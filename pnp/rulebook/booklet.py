"""A booklet: the rulebook's pages, set half the size of the paper (A5 for A4, half-letter
for Letter), imposed two to a side of a landscape sheet in saddle-stitch order, so that the printed stack, folded once in the middle and
stapled on the fold, reads 1, 2, 3, ... Print it double-sided, flipping on the short edge.

The pages are the paper book's, copied as it drew them into forms of the booklet's file
(canvas.copy_pages, FormPagesCanvas) and placed on the sheets when it is saved: vector,
fonts and all (no PDF read back). Blank pages pad the book to a multiple of four, before
its last page, the back cover, which stays the back of the folded booklet.
"""

from __future__ import annotations

from pnp.impose.paper import RulebookFormats
from pnp.pdf.canvas import FormPagesCanvas, page_form, place_form


def saddle_order(pages: int) -> list[tuple[int, int]]:
    """The (left, right) pages of each sheet side, fronts and backs alternating, for a
    book of `pages` pages (a multiple of 4): sheet 1 front = N and 1, back = 2 and N-1, ..."""
    assert pages % 4 == 0
    sides = []
    for sheet in range(pages // 4):
        sides.append((pages - 2 * sheet, 2 * sheet + 1))
        sides.append((2 * sheet + 2, pages - 2 * sheet - 1))
    return sides


def sheet_sides(pages: int) -> int:
    """The sides of sheets a booklet of `pages` pages is printed on."""
    return len(saddle_order(-(-pages // 4) * 4))


def impose(formats: RulebookFormats, canvas: FormPagesCanvas, pages: int) -> None:
    """Place the `pages` forms of the canvas on the booklet's sheets in saddle order, each
    page centred on its half, and ask viewers to print it on both sides, flipped on the
    short edge, not scaled."""
    width, height = formats.paper.size(landscape=True)
    w, h = formats.page.paper.size()
    canvas.setPageSize((width, height))
    padded = -(-pages // 4) * 4
    for pair in saddle_order(padded):
        for slot, number in enumerate(pair):
            if number == padded:
                number = pages  # the book's last page is the back cover
            elif number >= pages:
                continue  # a blank page of the padding, before the back cover
            place_form(canvas, page_form(number), (1, 0, 0, 1, slot * width / 2 + (width / 2 - w) / 2, (height - h) / 2))
        canvas.sheet()
    canvas.setViewerPreference("Duplex", "DuplexFlipShortEdge")
    canvas.setViewerPreference("PrintScaling", "None")
