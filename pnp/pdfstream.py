"""A reportlab canvas that writes each page to its file as soon as the page is finished.

Why: reportlab keeps every page's content until `save()` and then builds the whole file
in memory, so memory grows with the deck. Here a finished page and its content stream
are formatted, compressed and written at `showPage`, and only their object numbers and
file offsets are kept; shared objects (fonts, images, symbol forms, the page tree) are
written by reportlab's own code at `save()`, followed by the cross-reference table. The
objects are reportlab's, so the file is what reportlab would write, in a different
object order: the same input still gives the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import (
    NoEncryption,
    PDFCrossReferenceTable,
    PDFDocument,
    PDFFile,
    PDFIndirectObject,
    PDFObject,
    PDFObjectReference,
    PDFPage,
    PDFStream,
    PDFTrailer,
)
from reportlab.pdfgen.canvas import Canvas


class _Written(PDFObject):
    """Stands in for an object already in the file (its offset is in idToOffset)."""


_WRITTEN = _Written()


class StreamingDocument(PDFDocument):
    """A PDFDocument that writes to an open binary file as it goes (`start` first)."""

    def start(self, out: BinaryIO) -> None:
        self._out = out
        self._offset = 0
        self._header = PDFFile(self._pdfVersion).strings[0]  # reportlab's header line
        self._write(self._header)

    def _write(self, data: bytes) -> int:
        """Append to the file; return where the data starts."""
        offset = self._offset
        self._out.write(data)
        self._offset += len(data)
        return offset

    def _write_object(self, name: str, data: bytes) -> None:
        if not rl_config.invariant and rl_config.pdfComments:  # as reportlab's format() does
            self._write(f"% {ascii(name)}: class {self.idToObject[name].__class__.__name__[:50]} \n".encode("latin-1"))
        self.idToOffset[name] = self._write(data)
        self.idToObject[name] = _WRITTEN

    def addPage(self, page: PDFPage) -> None:
        """Register the page as reportlab does, then write it and its content stream now."""
        super().addPage(page)
        name = page.__InternalName__
        try:
            data = PDFIndirectObject(name, page).format(self)  # registers the content stream
        except KeyError:  # refers to something not yet defined: left for save()
            return
        self._write_object(name, data)
        stream = page.Contents
        if isinstance(stream, PDFStream) and getattr(stream, "__InternalName__", None):
            sname = stream.__InternalName__
            self._write_object(sname, PDFIndirectObject(sname, stream).format(self))
        self.Pages.pages[-1] = PDFObjectReference(name)  # the page object itself can go

    def SaveToFile(self, filename, canvas) -> None:  # noqa: N802 - reportlab's name
        self.GetPDFData(canvas)  # fonts, info, catalog; then format() below writes the rest
        self._out.close()

    def format(self) -> None:
        """reportlab's PDFDocument.format, writing to the file and skipping what is
        already written."""
        if not isinstance(self.encrypt, NoEncryption):
            raise ValueError("a streamed PDF cannot be encrypted")
        cat, info = self.Catalog, self.info
        self.Reference(cat)
        self.Reference(info)
        counter = 0
        ids = []
        while True:  # objects may register new ones while being formatted
            counter += 1
            if counter not in self.numberToId:
                break
            oid = self.numberToId[counter]
            if self.idToObject[oid] is not _WRITTEN:
                self._write_object(oid, PDFIndirectObject(oid, self.idToObject[oid]).format(self))
            ids.append(oid)
        xref = PDFCrossReferenceTable()
        xref.addsection(0, ids)
        start = self._write(xref.format(self))
        trailer = PDFTrailer(startxref=start, Size=len(ids) + 1, Root=self.Reference(cat), Info=self.Reference(info), ID=self.ID())
        self._write(trailer.format(self))
        header = PDFFile(self._pdfVersion).strings[0]
        if header != self._header:  # a feature used on the way needs a later PDF version
            assert len(header) == len(self._header)
            self._out.seek(0)
            self._out.write(header)


class StreamingCanvas(Canvas):
    """A Canvas whose pages go to `path` as they are finished; `save()` completes the
    file, `close()` releases it after a failure."""

    def __init__(self, path: Path, pageCompression: int = 1, invariant: int = 1, **kwargs):  # noqa: N803 - reportlab's names
        super().__init__(str(path), pageCompression=pageCompression, invariant=invariant, **kwargs)
        self._file = open(path, "wb")  # noqa: SIM115 - closed by save() or close()
        # The document reportlab made, turned into a streaming one: what the canvas has
        # already registered in it (the initial font of the page preamble) stays valid.
        self._doc.__class__ = StreamingDocument
        self._doc.start(self._file)

    def close(self) -> None:
        self._file.close()
