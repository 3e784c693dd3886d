"""Run pnp and hold it at a chosen point of a build until a test signals or kills it, so
that the test stops the build where it means to, however fast the machine is:

    python tests/stop_at.py POINT COUNT -- pnp's arguments

At the COUNT-th time the build reaches POINT, this prints "at POINT" on standard output
and waits there (60 s at most, only against hanging) for what the test sends. POINT is

- `page`: a page of a deck's PDF has just been written (pnp's code, between pages);
- `page-reference`: reportlab formats a reference while a page of a deck is written;
- `save-reference`: reportlab formats a reference in the final save of a deck's PDF.

The last two stop inside reportlab's `PDFObjectReference.format`, whose bare `except:`
turns whatever is raised there into a KeyError: a signal arriving while reportlab formats.
"""

from __future__ import annotations

import sys
import time

from reportlab.pdfbase.pdfdoc import PDFObjectReference

from pnp.cli import run
from pnp.pdf.canvas import StreamingCanvas, StreamingDocument

POINTS = ("page", "page-reference", "save-reference")
WAIT = 60  # seconds: only against hanging; the test's signal ends the wait


def main(point: str, count: int, args: list[str]) -> None:
    if point not in POINTS:
        raise SystemExit(f"unknown point {point!r}; expected one of {', '.join(POINTS)}")
    reached = 0
    saving = False

    def reach() -> None:
        nonlocal reached
        reached += 1
        if reached == count:
            print(f"at {point}", flush=True)
            time.sleep(WAIT)  # the signal's handler raises out of the sleep

    if point == "page":
        show_page = StreamingCanvas.showPage

        def page_written(self) -> None:
            show_page(self)
            reach()

        StreamingCanvas.showPage = page_written
    else:
        reference = PDFObjectReference.format.__code__

        class Numbers(dict):
            """The document's object numbers; a lookup from inside PDFObjectReference.format
            (in the page writes or in the final save) is a point reached."""

            def __getitem__(self, name):
                if sys._getframe(1).f_code is reference and saving == (point == "save-reference"):
                    reach()
                return super().__getitem__(name)

        start, document_format = StreamingDocument.start, StreamingDocument.format

        def started(self, out) -> None:
            start(self, out)
            self.idToObjectNumberAndVersion = Numbers(self.idToObjectNumberAndVersion)

        def formatted(self) -> None:
            nonlocal saving
            saving = True
            try:
                document_format(self)
            finally:
                saving = False

        StreamingDocument.start, StreamingDocument.format = started, formatted
    sys.argv = ["pnp", *args]
    run()


if __name__ == "__main__":
    point, count, separator, *rest = sys.argv[1:]
    assert separator == "--", "usage: stop_at.py POINT COUNT -- pnp's arguments"
    main(point, int(count), rest)
