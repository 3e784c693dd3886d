"""A booklet: the rulebook set on pages half the size of the paper (A5 for A4, half-letter
for Letter), imposed two to a side of a landscape sheet in saddle-stitch order, so that the printed stack, folded once in the middle and
stapled on the fold, reads 1, 2, 3, ... Print it double-sided, flipping on the short edge.

The pages are placed as they are (vector, fonts and all) with pypdf; blank pages pad
the book to a multiple of four, at its end. This is the one module that uses pypdf, and
it builds pages from pypdf's generic objects and its writer's `_add_object`, which pypdf
does not promise to keep: pyproject.toml bounds pypdf so that an upgrade is tried here.
"""

from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

from ..paper import Booklet


def saddle_order(pages: int) -> list[tuple[int, int]]:
    """The (left, right) pages of each sheet side, fronts and backs alternating, for a
    book of `pages` pages (a multiple of 4): sheet 1 front = N and 1, back = 2 and N-1, ..."""
    assert pages % 4 == 0
    sides = []
    for sheet in range(pages // 4):
        sides.append((pages - 2 * sheet, 2 * sheet + 1))
        sides.append((2 * sheet + 2, pages - 2 * sheet - 1))
    return sides


def impose(pages: bytes, booklet: Booklet, title: str, author: str) -> tuple[bytes, int]:
    """The booklet's PDF bytes (its `pages` set on the booklet's page size, imposed on its
    sheets) and its number of sheet sides."""
    reader = PdfReader(io.BytesIO(pages))
    count = len(reader.pages)
    total = -(-count // 4) * 4
    width, height = booklet.sheet.size(landscape=True)
    writer = PdfWriter()
    forms = [_as_form(writer, page) for page in reader.pages]
    for left, right in saddle_order(total):
        side = writer.add_blank_page(width, height)
        commands, names = [], DictionaryObject()
        for slot, number in enumerate((left, right)):
            if number > count:
                continue  # a blank page of the padding
            form, (w, h) = forms[number - 1]
            x = slot * width / 2 + (width / 2 - w) / 2
            names[NameObject(f"/P{number}")] = form
            commands.append(f"q 1 0 0 1 {x:.4f} {(height - h) / 2:.4f} cm /P{number} Do Q")
        content = DecodedStreamObject()
        content.set_data("\n".join(commands).encode("ascii"))
        side[NameObject("/Contents")] = writer._add_object(content)
        side[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): names})
    writer.add_metadata(
        {
            "/Title": title,
            "/Author": author,
            "/Subject": f"{booklet.page.paper.title} booklet on {booklet.sheet.title}: print double-sided, flip on the short edge, fold, staple",
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


def _as_form(writer: PdfWriter, page) -> tuple:
    """A booklet page as a form XObject (its content stream as it is, not parsed again)."""
    contents = page.get("/Contents")
    data = b""
    if contents is not None:
        contents = contents.get_object()
        streams = contents if isinstance(contents, ArrayObject) else [contents]
        data = b"\n".join(stream.get_object().get_data() for stream in streams)
    box = page.mediabox
    form = DecodedStreamObject()
    form.set_data(data)
    form.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject([FloatObject(v) for v in (box.left, box.bottom, box.right, box.top)]),
            NameObject("/Resources"): writer._add_object(page["/Resources"].get_object().clone(writer)) if "/Resources" in page else DictionaryObject(),
        }
    )
    compressed = form.flate_encode()
    return writer._add_object(compressed), (float(box.width), float(box.height))
