"""What faces and pages wrote into a PDF, kept by the watcher for the next build of that
PDF: the watcher's `Writing` (write/pdf.py), which writes a drawing again as it was where
that is exactly what drawing it would write now.

Why: a save that changes one card of a thousand still writes the whole PDF, and turning
every face into operators again is the costly part of it. A drawing (a face, a page) is
written again only where it has the same faces (the same objects: the watcher keeps an
unchanged face) and inputs, the drawer in the same state (write.pdf.Forms), its characters
already coded in this document with the same codes (codes are given in the order
characters are first drawn, so an edit can move them), the forms and images it places
already defined, and it names no graphics state or colour space (those are named per
page). Anything else is drawn, and kept anew. What it writes and reads of the document
goes through pdf/canvas.py, the one home of reportlab's internals."""

from __future__ import annotations

import hashlib
import zlib
from array import array
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from pnp.layout.faces import Face
from pnp.pdf.canvas import code_position, code_since, compress_with, font_codes, forms_defined, names_per_page, still_coded, write_again
from pnp.write.pdf import Forms, Writing


@dataclass(slots=True, repr=False, eq=False)
class _Drawn:
    """What one drawing (a face, a page) wrote, with what it was drawn from and what it
    refers to in the document."""

    owners: tuple  # the faces drawn, compared by identity and kept alive by this
    inputs: object  # the rest of what was drawn, compared by value
    before: object  # the drawer's own state when it began (write.pdf.Forms), compared by value
    after: object  # and when it ended: restored when the code is written again
    code: list[str]
    forms: list[str]  # forms and images placed (the page's resources must name them)
    fonts: tuple[tuple[str, array, str, array], ...]  # font, the characters drawn, the font's name in the document, their codes
    parts: tuple[tuple, ...]  # the keys of the drawings inside this one (a page's faces)


@dataclass(repr=False, eq=False)
class _Mark:
    """Where a page (or form) stood when a drawing began."""

    position: tuple[int, int]  # pdf.canvas.code_position
    parts: int


class KeptCode(Writing):
    """What faces and pages wrote into one PDF, each under a key (a face: its object, bleed
    and lead; a page: its number), kept from one build of the PDF to the next."""

    def __init__(self) -> None:
        self._last: dict[tuple, _Drawn] = {}
        self._now: dict[tuple, _Drawn] = {}
        self._parts: list[tuple] = []  # the keys written or kept since the PDF began, in order
        self._state: object = None  # the drawer's state between pages: one page's end is the next one's start
        self.flate = _KeptFlate()

    def begin(self, canvas: Canvas, forms: Forms) -> None:
        """A build of the PDF starts on `canvas`: what the last one kept is what this one may reuse."""
        if self._now:
            self._last, self._now = self._now, {}
        self.flate.begin()
        self._parts = []
        compress_with(canvas, self.flate)
        self._state = forms.state()

    def face(self, canvas: Canvas, key: tuple, face: Face, draw: Callable[[], None], texts: Callable[[], dict[str, str]]) -> None:
        if self._replay(canvas, key, (face,)) is None:
            mark = self._mark(canvas)
            draw()
            self._keep(canvas, key, (face,), mark, texts())

    def page(
        self,
        canvas: Canvas,
        forms: Forms,
        key: tuple,
        faces: tuple[Face, ...],
        inputs: tuple,
        draw: Callable[[], None],
        again: Callable[[], None],
        texts: Callable[[], dict[str, str]],
    ) -> None:
        before = self._state
        found = self._replay(canvas, key, faces, inputs, before)
        if found is not None:
            forms.restore(found.after)
            again()
            self._state = found.after
            return
        mark = self._mark(canvas)
        draw()
        self._state = forms.state()
        self._keep(canvas, key, faces, mark, texts(), inputs, before, self._state)

    def _replay(self, canvas: Canvas, key: tuple, owners: tuple, inputs: object = None, before: object = None) -> _Drawn | None:
        """Write what was drawn under `key` again, if it is still exact; returns what was kept."""
        kept = self._now.get(key) or self._last.get(key)
        if kept is None or len(kept.owners) != len(owners) or not all(a is b for a, b in zip(kept.owners, owners)):
            return None
        if kept.inputs != inputs or kept.before != before:
            return None
        if not forms_defined(canvas, kept.forms) or not still_coded(canvas, kept.fonts):
            return None
        write_again(canvas, kept.code, kept.forms)
        self._now[key] = kept
        for part in kept.parts:  # the faces of a page written again: kept for the next build too
            found = self._last.get(part)
            if found is not None:
                self._now.setdefault(part, found)
        self._parts.append(key)
        return kept

    def _mark(self, canvas: Canvas) -> _Mark:
        return _Mark(code_position(canvas), len(self._parts))

    def _keep(
        self, canvas: Canvas, key: tuple, owners: tuple, mark: _Mark, texts: dict[str, str], inputs: object = None, before: object = None, after: object = None
    ) -> None:
        """What was drawn since `mark`, setting `texts` (font -> its characters), is kept
        under `key`, unless it cannot be written again as it is."""
        parts = tuple(self._parts[mark.parts :])
        self._parts.append(key)
        code, forms = code_since(canvas, mark.position)
        if names_per_page(canvas, code):
            return
        fonts = font_codes(canvas, texts)
        if fonts is not None:
            self._now[key] = _Drawn(owners, inputs, before, after, code, forms, fonts, parts)


class _KeptFlate:
    """The page streams' compression (as reportlab's PDFZCompress), remembering what it
    compressed in the last build of the PDF: a page written again as it was is not
    compressed again."""

    pdfname = "FlateDecode"

    def __init__(self) -> None:
        self._last: dict[bytes, bytes] = {}  # digest of the stream -> the stream compressed
        self._now: dict[bytes, bytes] = {}

    def begin(self) -> None:
        """A build of the PDF starts: what the last one compressed may be reused (if it
        compressed anything: a build that wrote nothing leaves the one before it)."""
        if self._now:
            self._last, self._now = self._now, {}

    def encode(self, text: str) -> bytes:
        data = text.encode("utf8")
        key = hashlib.blake2b(data, digest_size=16).digest()
        found = self._last.get(key)
        if found is None:
            found = zlib.compress(data)
        self._now[key] = found
        return found
