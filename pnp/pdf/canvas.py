"""A reportlab canvas that writes each page to its file as soon as the page is finished.

Why: reportlab keeps every page's content until `save()` and then builds the whole file
in memory, so memory grows with the deck. Here a finished page and its content stream
are formatted, compressed and written at `showPage`, and only their object numbers and
file offsets are kept; shared objects (fonts, images, symbol forms, the page tree) are
written by reportlab's own code at `save()`, followed by the cross-reference table. The
objects are reportlab's, so the file is what reportlab would write, in a different
object order: the same input still gives the same bytes.

This is the one module that uses reportlab's internals (pdfdoc objects, underscore
names): the streaming document above, set text written straight into a page's content
(`draw_text`), what a drawing wrote taken and written again as it was (`code_since`,
`write_again`, `font_codes`: pnp/live/kept_code.py keeps them between builds), a
symbol's operators written again into the next PDF (`portable_code`), a rounded frame
written again as it was (`round_rect`), ASCII text encoded for reportlab by Python's
codec (`_pdfdoc_encoded`, in place of pdfdoc's `pdfdocEnc`), an SVG that svglib
read drawn in the canvas's font (`draw_drawing`), a font registered again when its file
changed (`register_font`), a TrueType font's per-glyph tables read whole, not a number
at a time (`_extract_info`), a rulebook's pages set as forms and copied from one PDF into
another (`FormPagesCanvas`, `KeptPagesCanvas`, `copy_pages`), and at the end the few
things the rest of pnp needs that reportlab has no public way to ask (a flowable's
frame, a table's row heights, a KeepTogether's flowables) or set (whether a document
template writes its file). tests/code/test_fences.py lists
every internal name used here; a reportlab upgrade that moves one breaks here and in
tests/pdf/test_canvas.py, nowhere else; pyproject.toml bounds it.
"""

from __future__ import annotations

import copy
from array import array
from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from pathlib import Path
from struct import unpack_from
from typing import TYPE_CHECKING, BinaryIO, Protocol
from weakref import WeakKeyDictionary

from reportlab import rl_config
from reportlab.lib.colors import Color
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics, ttfonts
from reportlab.pdfbase.pdfdoc import (
    NoEncryption,
    PDFArray,
    PDFAxialShading,
    PDFDictionary,
    PDFDocument,
    PDFFile,
    PDFFormXObject,
    PDFIndirectObject,
    PDFName,
    PDFObject,
    PDFObjectReference,
    PDFPage,
    PDFPages,
    PDFRadialShading,
    PDFResourceDictionary,
    PDFStream,
    PDFTrailer,
    PDFZCompress,
)
from reportlab.pdfbase.pdfdoc import format as pdfdoc_format
from reportlab.pdfbase.ttfonts import TTFError, TTFont, TTFontFile
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas, ExtGState

from pnp.base.signals import stop_if_received

if TYPE_CHECKING:  # platypus is for rulebooks only, graphics for symbols svglib reads: sheets need not import them
    from reportlab.graphics.shapes import Drawing
    from reportlab.platypus import BaseDocTemplate, Flowable, KeepTogether
    from reportlab.platypus.tables import Table

rl_config.useA85 = 0  # plain binary streams in every PDF pnp writes (sheets, rulebooks, an export's in memory): smaller files


class _PageTree(PDFPages):
    """reportlab's page tree, holding the names of pages already written instead of the
    pages themselves."""

    def check_format(self, document: PDFDocument) -> None:
        kids = PDFArray([PDFObjectReference(page) if isinstance(page, str) else page for page in self.pages])
        kids.References(document)
        self.Kids = kids
        self.Count = len(self.pages)


_OTHER_PAGE_KEYS = tuple(
    sorted(
        set(PDFPage.__NoDefault__) - {"MediaBox", "Resources", "Contents", "Rotate", "Trans", "CropBox", "ArtBox", "BleedBox", "TrimBox", "Parent", "Annots"}
    )
)  # a page naming one is formatted by reportlab


def _number(value: float) -> bytes:
    return fp_str(value).encode()


class _Formatted(PDFObject):
    """A PDF object already formatted, written as it is."""

    def __init__(self, data: bytes):
        self.data = data

    def format(self, document: PDFDocument) -> bytes:
        return self.data


class StreamingDocument(PDFDocument):
    """A PDFDocument that writes to an open binary file as it goes (`start` first).

    What it keeps of a written object is its file offset, by object number; a written
    page also keeps its name, by which the page tree refers to it. reportlab's own
    tables forget both, so they do not grow with the pages."""

    def start(self, out: BinaryIO) -> None:
        self._out = out
        self._offset = 0
        self._offsets = array("Q", [0])  # by object number; 0: not written yet (the header is at 0)
        self._header = PDFFile(self._pdfVersion).strings[0]  # reportlab's header line
        self._write(self._header)
        self.Pages.__class__ = _PageTree
        self.flate = None  # the page streams' compressor when not reportlab's (compress_with)

    def _write(self, data: bytes) -> int:
        """Append to the file; return where the data starts."""
        offset = self._offset
        self._out.write(data)
        self._offset += len(data)
        return offset

    def _write_object(self, name: str, data: bytes | None = None, forget: str = "") -> None:
        """Write a registered object (`data`: it formatted). A page and its content
        stream are then forgotten: `forget="object"` keeps only the page's number (the
        page tree refers to it by name), `forget="all"` keeps nothing (only the page
        refers to its stream)."""
        obj = self.idToObject[name]
        if data is None:
            data = PDFIndirectObject(name, obj).format(self)
        number = self.idToObjectNumberAndVersion[name][0]
        if not rl_config.invariant and rl_config.pdfComments:  # as reportlab's format() does
            self._write(f"% {ascii(name)}: class {obj.__class__.__name__[:50]} \n".encode("latin-1"))
        if len(self._offsets) <= number:
            self._offsets.extend([0] * (number + 1 - len(self._offsets)))
        self._offsets[number] = self._write(data)
        if forget:
            del self.idToObject[name], self.numberToId[number]
        if forget == "all":
            del self.idToObjectNumberAndVersion[name]

    def addPage(self, page: PDFPage) -> None:
        """Register the page as reportlab does, then write it and its content stream now."""
        stop_if_received()  # a signal a library dropped while the page was drawn stops the build here
        if (
            not page.Contents and page.stream and page.compression and not rl_config.useA85
        ):  # as PDFPage.check_format makes it, with the compressor given (compress_with)
            page.Contents = PDFStream(content=page.stream, filters=[self.flate or PDFZCompress])
            page.Contents.__Comment__ = "page stream"
        _share_resources(self, page)
        super().addPage(page)
        name = page.__InternalName__
        plain = self._plain_page(page)
        if plain is not None:
            self._write_object(name, plain[0], forget="object")
            self._write_object(page.Contents.__InternalName__, plain[1], forget="all")  # the page's stream, after it as reportlab orders them
            self.Pages.pages[-1] = name
            return
        try:
            data = PDFIndirectObject(name, page).format(self)  # registers the content stream
        except KeyError as exc:  # refers to something not yet defined: left for save() (unless it is a signal reportlab turned into a KeyError)
            stop_if_received(exc)
            return
        self._write_object(name, data, forget="object")
        stream = page.Contents
        if isinstance(stream, PDFStream) and getattr(stream, "__InternalName__", None) in self.idToObject:
            self._write_object(stream.__InternalName__, forget="all")
        self.Pages.pages[-1] = name

    def _plain_page(self, page: PDFPage) -> tuple[bytes, bytes] | None:
        """A page of boxes, a rotation, resources formatted once (`_resources`) and one
        compressed content stream, and that stream, formatted byte for byte as
        PDFPage.check_format and format, then PDFStream.format, write them; None for any
        other page (links, transitions, a document with comments), which
        reportlab formats. Why: reportlab's general formatting of these two small
        dictionaries is slow for what they hold, and every page has them."""
        contents = page.Contents
        if (
            page.Override_default_compilation
            or page.Annots
            or not isinstance(page.Resources, _Formatted)
            or not (page.stream and page.compression)
            or contents is None
            or contents.content is not page.stream
            or len(contents.filters or ()) != 1
            or contents.dictionary.dict
            or (page.Trans is not None and page.Trans.dict)
            or any(getattr(page, key) is not None for key in _OTHER_PAGE_KEYS)
            or rl_config.pdfMultiLine
            or (rl_config.pdfComments and not rl_config.invariant)
        ):
            return None
        values = {"Resources": page.Resources.data, "Type": b"/Page"}
        if page.Rotate is not None:
            values["Rotate"] = _number(page.Rotate)
        if page.Trans is not None:
            values["Trans"] = b"<<\n\n>>"
        media = page.MediaBox or (page.Rotate in (90, 270) and [0, 0, page.pageheight, page.pagewidth] or [0, 0, page.pagewidth, page.pageheight])
        for key, box in (("MediaBox", media), ("CropBox", page.CropBox), ("ArtBox", page.ArtBox), ("BleedBox", page.BleedBox), ("TrimBox", page.TrimBox)):
            if box is not None:
                numbers = box.sequence if isinstance(box, PDFArray) else box
                if len(numbers) > 10 or any(type(n) not in (float, int) for n in numbers):
                    return None
                values[key] = b"[ " + b" ".join(_number(n) for n in numbers) + b" ]"
        values["Parent"] = self.Reference(self.Pages).format(self)  # first: the first page registers the page tree before its stream
        values["Contents"] = self.Reference(contents).format(self)
        items = [b"/" + key.encode() + b" " + values[key] for key in sorted(values)]
        for i in reversed(range(6, len(items), 6)):
            items.insert(i, b"\n ")
        flate = contents.filters[0]
        content = flate.encode(page.stream)
        return (
            b"%d %d obj\n<<\n%s\n>>\nendobj\n" % (*self.idToObjectNumberAndVersion[page.__InternalName__], b" ".join(items)),
            b"%d %d obj\n<<\n/Filter [ /%s ] /Length %d\n>>\nstream\n%sendstream\nendobj\n"
            % (*self.idToObjectNumberAndVersion[contents.__InternalName__], flate.pdfname.encode(), len(content), content),
        )

    def SaveToFile(self, filename, canvas) -> None:  # noqa: N802 - reportlab's name
        self.GetPDFData(canvas)  # fonts, info, catalog; then format() below writes the rest
        self._out.close()

    def format(self) -> None:
        """reportlab's PDFDocument.format, writing what is not written yet, then the
        cross-reference table and the trailer."""
        if not isinstance(self.encrypt, NoEncryption):
            raise ValueError("a streamed PDF cannot be encrypted")
        cat, info = self.Catalog, self.info
        self.Reference(cat)
        self.Reference(info)
        number = 1
        while number <= self.objectcounter:  # objects may register new ones while being formatted
            if number >= len(self._offsets) or not self._offsets[number]:
                self._write_object(self.numberToId[number])
            number += 1
        count = len(self._offsets)
        xref = b"".join([b"xref\n0 %d\n0000000000 65535 f \n" % count, *(b"%010d 00000 n \n" % offset for offset in self._offsets[1:])])
        start = self._write(xref)
        trailer = PDFTrailer(startxref=start, Size=count, Root=self.Reference(cat), Info=self.Reference(info), ID=self.ID())
        self._write(trailer.format(self))
        header = PDFFile(self._pdfVersion).strings[0]
        if header != self._header:  # a feature used on the way needs a later PDF version
            assert len(header) == len(self._header)
            self._out.seek(0)
            self._out.write(header)


def _share_resources(document: PDFDocument, page: PDFPage) -> None:
    """Give the page its resources as PDFPage.check_format makes them, formatted once for
    all the document's pages that name the same forms and images (a deck's pages mostly
    do); a page with graphics states, colour spaces or shadings keeps reportlab's. Why:
    reportlab formats each page's resource dictionary anew, name by name."""
    if page.Resources or page.ExtGState or _names_colours(page):
        return
    page.Resources = _shared_resources(document, page.XObjects, page.hasImages)


def _shared_resources(document: PDFDocument, xobjects: PDFDictionary | None, images: bool) -> _Formatted:
    """The resources of a page or form naming `xobjects`, formatted once per document."""
    formatted: dict[tuple, _Formatted] = document.__dict__.setdefault("_pnp_resources", {})
    key = (bool(images), tuple(sorted(xobjects.dict)) if xobjects else ())
    found = formatted.get(key)
    if found is None:
        found = formatted[key] = _Formatted(pdfdoc_format(_resource_dict(xobjects, images), document))
    return found


class _SharingDocument(PDFDocument):
    """A PDFDocument whose pages and forms share their formatted resources."""

    def addPage(self, page: PDFPage) -> None:
        _share_resources(self, page)
        super().addPage(page)

    def addForm(self, name: str, form: PDFObject) -> None:
        """Register the form (or image) as reportlab does, a form's resources those
        PDFFormXObject.format makes (fonts, procedure sets, forms placed), shared
        (`_shared_resources`); a form with graphics states is given its own by end_form
        after, and one placing a form not yet defined keeps reportlab's, made when the
        file is written."""
        super().addForm(name, form)
        if not isinstance(form, PDFFormXObject) or form.Resources or form.ExtGState:
            return
        try:
            form.Resources = _shared_resources(self, form.XObjects, form.hasImages)
        except KeyError as exc:  # a forward reference (unless it is a signal reportlab turned into a KeyError)
            stop_if_received(exc)


class MemoryCanvas(Canvas):
    """A Canvas for a PDF that only pdfium reads, in memory (an export's faces): the same
    pages as reportlab's, written with less formatting (`_SharingDocument`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._doc.__class__ = _SharingDocument  # what the canvas has registered in it stays valid


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


def place_form(canvas: Canvas, name: str, matrix: tuple[float, float, float, float, float, float]) -> None:
    """Form `name` placed through `matrix`: the operators saveState, transform, doForm and
    restoreState write, without their bookkeeping (a symbol is placed thousands of times)."""
    canvas._code.extend(("q", f"{fp_str(*matrix)} cm", f"/{canvas._doc.getXObjectName(name)} Do", "Q"))
    canvas._formsinuse.append(name)


def enter_clipped(canvas: Canvas, box: tuple[float, float, float, float], x: float, y: float) -> None:
    """Save the state, clip to `box` (x, y, width, height) and move the origin to x, y: the
    operators saveState, a clip path and translate write, without building a path object
    (a face is placed thousands of times); the caller restores the state."""
    canvas.saveState()
    canvas._code.append(f"n {fp_str(*box)} re {'W*' if canvas._fillMode == FILL_EVEN_ODD else 'W'} n")
    a, b, c, d, e, f = canvas._currentMatrix
    canvas._currentMatrix = (a, b, c, d, a * x + c * y + e, b * x + d * y + f)
    canvas._code.append(f"1 0 0 1 {fp_str(x, y)} cm")


def portable_code(canvas: Canvas) -> list[str] | None:
    """The operators drawn so far into the form being defined on `canvas`, if they name
    nothing of its document (no font, graphics state, form, image, colour space or
    shading), so that another document's form can be given them as they are; else None."""
    code = canvas._code
    if canvas._formsinuse or names_per_page(canvas, code) or any(op.endswith((" Tf", " Do", " sh")) or op.startswith("BT") for op in code):
        return None
    return list(code)


def write_code(canvas: Canvas, code: list[str]) -> None:
    """Operators (from `portable_code`) written into the page or form being drawn."""
    canvas._code.extend(code)


def draw_drawing(canvas: Canvas, drawing: Drawing) -> None:
    """A drawing of reportlab's graphics (an SVG svglib read) drawn at the origin by
    renderPDF, whose default font is the canvas's while it draws: renderPDF selects its own
    (Helvetica, never embedded) before drawing, and a PDF must name no font it does not
    embed. The default is reportlab's, for the whole process: it is put back after."""
    from reportlab.graphics import renderPDF  # here for speed: reportlab.graphics brings in platypus
    from reportlab.graphics.shapes import STATE_DEFAULTS

    default_font = STATE_DEFAULTS["fontName"]
    STATE_DEFAULTS["fontName"] = canvas._fontname
    try:
        renderPDF.draw(drawing, canvas, 0, 0)
    finally:
        STATE_DEFAULTS["fontName"] = default_font


def tinted(drawing: Drawing, tint: Color) -> Drawing:
    """A copy of a drawing (an SVG svglib read) with every shape's fill and stroke colour
    `tint`, each keeping its opacity: a symbol's `tint:` where its operators are not kept."""
    copied = copy.deepcopy(drawing)
    shapes = [copied]
    while shapes:
        node = shapes.pop()
        shapes.extend(getattr(node, "contents", ()))
        for attr in ("fillColor", "strokeColor"):
            colour = getattr(node, attr, None)
            if colour is not None:
                setattr(node, attr, Color(tint.red, tint.green, tint.blue, getattr(colour, "alpha", 1)))
    return copied


def names_per_page(canvas: Canvas, code: list[str]) -> bool:
    """Whether what was drawn names what reportlab names per page or form: a colour space,
    a shading or a graphics state (transparency)."""
    return _names_colours(canvas) or any(line.endswith(" gs") for line in code)


def _names_colours(drawn: Canvas | PDFPage) -> bool:
    """Whether a canvas's page (or a page it made) names a colour space or a shading."""
    return bool(drawn._colorsUsed or drawn._shadingUsed)


def _resource_dict(xobjects: object, images: bool = True, states: object = None) -> PDFResourceDictionary:
    """A page's or form's resources as reportlab makes them (the document's fonts, the
    procedure sets, the forms and images placed), with `states`, its graphics states."""
    resources = PDFResourceDictionary()
    resources.basicFonts()
    if images:
        resources.allProcs()
    else:
        resources.basicProcs()
    if xobjects:
        resources.XObject = xobjects
    if states:
        resources.ExtGState = states
    return resources


def end_form(canvas: Canvas, patterns: list[str] | None = None) -> None:
    """End the form being defined (reportlab's endForm), with its graphics states,
    shadings and `patterns` (shading_pattern's names) in its resources: reportlab notes
    the states on the form but writes only its fonts and forms, so a translucent symbol or
    face drawn as a form would name a state its PDF lacks (viewers complain, and draw it
    opaque), and a face with a gradient a shading it lacks."""
    name = canvas._formData[0]
    shadings = dict(canvas._shadingUsed)
    canvas.endForm()
    _name_states(canvas._doc.idToObject[canvas._doc.getXObjectName(name)], shadings, patterns)


def _name_states(form: PDFFormXObject, shadings: dict[str, str] | None = None, patterns: list[str] | None = None) -> None:
    """The form's resources as reportlab writes them, with its graphics states, shadings
    and patterns."""
    states = getattr(form, "ExtGState", None)
    if states or shadings or patterns:
        form.Resources = _resource_dict(form.XObjects, states=states)
    if shadings:
        form.Resources.setShading(shadings)
    for pattern in patterns or ():
        form.Resources.Pattern[pattern] = PDFObjectReference(pattern)


def shading_pattern(canvas: Canvas, name: str, radial: bool, coords: tuple[float, ...], colors: list[Color], matrix: tuple[float, ...]) -> None:
    """A shading pattern of the gradient `coords` (linear x1, y1, x2, y2; radial cx, cy,
    r) through `colors`, its end colours kept past its ends, as reportlab's
    linearGradient and radialGradient shade; `matrix` maps its space to that of the form
    that paints with it. Registered in the canvas's document as `name` (once: one form
    paints with it), for end_form's `patterns` and the colour operators `/Pattern cs /NAME
    scn`. Why a pattern: a
    colour that is a gradient paints every fill and stroke it is set for (a symbol's
    tint), where a shading (`sh`) paints only through a clip."""
    from reportlab.pdfgen.canvas import _buildColorFunction, _gradientExtendStr, _normalizeColors

    color_space, ncolors = _normalizeColors(colors)
    function = _buildColorFunction(ncolors, None)
    extend = _gradientExtendStr(True)
    if radial:
        x, y, r = coords
        shading = PDFRadialShading(x, y, 0.0, x, y, r, Function=function, ColorSpace=color_space, Extend=extend)
    else:
        shading = PDFAxialShading(*coords, Function=function, ColorSpace=color_space, Extend=extend)
    canvas._doc.Reference(PDFDictionary({"Type": PDFName("Pattern"), "PatternType": 2, "Shading": shading, "Matrix": PDFArray(list(matrix))}), name)


def drawn_code(canvas: Canvas, drawing: Drawing) -> list[str]:
    """The operators draw_drawing writes for `drawing`, taken back instead of written (for
    the caller to write them changed); what they name (graphics states) stays noted."""
    start = len(canvas._code)
    draw_drawing(canvas, drawing)
    code = canvas._code[start:]
    del canvas._code[start:]
    return code


def draw_text(canvas: Canvas, color: Color | None, pieces: Iterable[tuple[str, float, float, float, float, str | Sequence[GlyphLike]]]) -> None:
    """Set text, written as PDF text operators straight into the page (or form) being
    drawn: each piece is (registered TrueType font, size, word space, x, y, text), its
    text a string or shaped glyphs (`_draw_glyphs`); in `color`, or, with `color` None,
    painting nothing: its glyphs are added to the clip (text render mode 7), for what
    the caller paints next through them (a gradient) before it restores the state.

    Why not reportlab's text objects: they split every string into font subsets anew and
    format their state per call; here a string is encoded by a table per font
    and document (`_Encoding`), and a piece costs a few string operations. The operators are those reportlab writes (a
    subset's font name and size, Tw for justified lines, Tm for each piece's origin), so
    text extracts and copies the same."""
    paint = "7 Tr" if color is None else f"{fp_str(color.red, color.green, color.blue)} rg"
    code = [f"BT 1 0 0 1 0 0 Tm {paint}"]  # from the origin, as reportlab: a text object reads as its own line
    add = code.append
    doc = canvas._doc
    current: tuple[str, float] | None = None
    spacing = 0.0
    encodings: dict[str, _Encoding] = {}  # this text's fonts' (most pieces share one)
    for font, size, word_space, x, y, text in pieces:
        if word_space != spacing:
            add(f"{fp_str(word_space)} Tw")
            spacing = word_space
        add(f"1 0 0 1 {fp_str(x, y)} Tm")
        if not isinstance(text, str):
            current = _draw_glyphs(doc, font, size, text, add, current)
            continue
        encoding = encodings.get(font)
        if encoding is None:
            encoding = encodings[font] = _encoding(doc, font)
        if text and encoding.known.issuperset(text):  # most pieces: characters the first subset codes (_Encoding.runs, inline)
            name = encoding.first
            if current is None or current[0] != name or current[1] != size:
                add(f"{name} {fp_str(size)} Tf")
                current = (name, size)
            add(f"({text.translate(encoding.table)}) Tj")
            continue
        for name, encoded in encoding.runs(text):
            if current != (name, size):
                add(f"{name} {fp_str(size)} Tf")
                current = (name, size)
            add(f"({encoded}) Tj")
    if spacing:
        add("0 Tw")  # word spacing outlives the text object in PDF
    add("ET")
    canvas._code.append(" ".join(code))


class GlyphLike(Protocol):
    """A glyph as shaping.py gives it: its id and name, its own advance, the advance and
    offsets shaping gave it, all at size 1."""

    gid: int
    name: str
    natural: float
    advance: float
    x_offset: float
    y_offset: float
    source: str  # for a glyph no character maps to: the characters it stands for ('' when unknown)


def _draw_glyphs(
    doc: PDFDocument, font: str, size: float, glyphs: Sequence[GlyphLike], add: Callable[[str], None], current: tuple[str, float] | None
) -> tuple[str, float] | None:
    """Shaped glyphs as TJ arrays: each glyph by the character reportlab's subset codes it
    with (a private-use one, added by reportlab's own shaping support, for a glyph no
    character maps to: a joined form, a conjunct), moved by its offsets and advanced by the
    advance shaping gave it rather than its own (as reportlab's ShapedStr is drawn). A
    vertical offset (a mark above a letter) is a rise (Ts). Returns the font set last."""
    encoding = _encoding(doc, font)
    tj: list[str] = []
    rise = 0.0

    def flush() -> None:
        if tj:
            add(f"[{' '.join(tj)}] TJ")
            tj.clear()

    for g, char in zip(glyphs, glyph_chars(font, glyphs)):
        name, encoded = encoding.runs(char)[0]
        if current != (name, size):
            flush()
            add(f"{name} {fp_str(size)} Tf")
            current = (name, size)
        if g.y_offset * size != rise:
            flush()
            rise = g.y_offset * size
            add(f"{fp_str(rise)} Ts")
        if g.x_offset:
            tj.append(fp_str(-g.x_offset * 1000))
        if tj and tj[-1][-1] == ")":  # a glyph after a glyph: one string
            tj[-1] = f"{tj[-1][:-1]}{encoded})"
        else:
            tj.append(f"({encoded})")
        after = (g.natural - g.advance + g.x_offset) * 1000
        if abs(after) > 1e-6:
            tj.append(fp_str(after))
    flush()
    if rise:
        add("0 Ts")
    return current


def glyph_chars(font: str, glyphs: Sequence[GlyphLike]) -> str:
    """The characters reportlab's subsets code shaped glyphs by: the first character the font
    maps to each glyph, or a private-use one that reportlab's own shaping support adds to the
    font for a glyph no character maps to (a joined form, a conjunct). A glyph the font maps
    only a private-use character to (the lowered Thai tone marks of the TLWG fonts) is
    copied out as the characters it stands for, like the ones reportlab adds."""
    ttf = pdfmetrics.getFont(font)
    to_char = ttf.face.glyphToChar
    out = []
    for g in glyphs:
        chars = to_char.get(g.gid)
        if chars:
            if g.source and 0xE000 <= chars[0] <= 0xF8FF:  # a font's own private-use code for a form (Thai fonts' lowered tone marks)
                _SOURCES.setdefault(ttf, {})[chars[0]] = g.source
            out.append(chr(chars[0]))
        else:
            ttf.hbFont(1)
            private = ttf.hbAddPrivate(g.name, g.gid, g.natural * 1000)
            if g.source:  # the same glyph always stands for the same characters
                _SOURCES.setdefault(ttf, {})[private] = g.source
            out.append(chr(private))
    return "".join(out)


# The characters each private-use code of a font stands for (a conjunct's, a ligature's), by
# its TTFont (each font numbers its own codes; kept while the font is): the ToUnicode map of
# its subsets maps the code to them, so that copying the text (or pypdf's extraction) gives
# the characters that were written, not a private-use one. reportlab's TTFont.addObjects
# writes the maps with its module's makeToUnicodeCMap, which is given the subset alone:
# the font being written is noted while it runs.
_WRITING: list[TTFont] = []
_SOURCES: WeakKeyDictionary[TTFont, dict[int, str]] = WeakKeyDictionary()


def _to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """reportlab's ToUnicode CMap of a subset, with each private-use code that shaping
    drew a conjunct or ligature by mapped to the characters it stands for."""
    cmap = _reportlab_cmap(fontname, subset)
    sources = _SOURCES.get(_WRITING[-1]) if _WRITING else None
    if not sources:
        return cmap
    for i, code in enumerate(subset):
        text = sources.get(code)
        if text:
            utf16 = text.encode("utf-16-be").hex().upper()
            cmap = cmap.replace(f"<{i:02X}> <{code:04X}>", f"<{i:02X}> <{utf16}>", 1)
    return cmap


def _add_objects(self: TTFont, doc: PDFDocument):
    _WRITING.append(self)
    try:
        return _reportlab_add_objects(self, doc)
    finally:
        _WRITING.pop()


_reportlab_cmap = ttfonts.makeToUnicodeCMap
_reportlab_add_objects = TTFont.addObjects
ttfonts.makeToUnicodeCMap = _to_unicode_cmap
TTFont.addObjects = _add_objects


def _extract_info(self: TTFontFile, charInfo: int = 1) -> None:  # noqa: N803 - reportlab's name
    """reportlab's TTFontFile.extractInfo (what reading a TrueType font finds), with the
    tables of one value per character or glyph read whole: reportlab reads the cmap, hmtx
    and loca tables one number per call (35,000 calls for Mestá's five fonts, 6,000 glyphs
    for DejaVu Sans alone), `_char_info` unpacks each array at once. The face is the same:
    every attribute, in the same order, with the same values and types (tests/pdf
    compares them for every font it finds). What `_char_info` does not read (another cmap
    format, a table missing or cut short) is read by reportlab's own code from the start,
    so an unusual font is read as before and a damaged one fails with reportlab's error."""
    _reportlab_extract_info(self, 0)  # the names, head, OS/2, post, hhea and maxp tables: reportlab's reading
    if not charInfo:
        return
    del self.charToGlyph, self.defaultWidth, self.charWidths  # reportlab's blanks without the characters: set again below in its order
    try:
        info = _char_info(self)
    except CmapTooLarge:
        raise
    except Exception:  # a table that ends early or is missing: reportlab's reading below says what is wrong
        info = None
    if info is None:
        _reportlab_extract_info(self, charInfo)
    else:
        self.__dict__.update(info)


def _char_info(face: TTFontFile) -> dict[str, object] | None:
    """The characters' glyphs and every glyph's width and place, as reportlab's
    extractInfo sets them (charToGlyph, glyphToChar, charWidths, hmetrics, defaultWidth,
    glyphPos), or None for a font whose glyph data or cmap format (other than 4 and 12)
    reportlab's own code reads. Each step mirrors reportlab's loop it replaces."""
    data, table = face._ttf_data, face.table
    head = table["head"]["offset"]
    loca_format, glyph_format = unpack_from(">HH", data, head + 50)
    (long_metrics,) = unpack_from(">H", data, table["hhea"]["offset"] + 34)
    if glyph_format != 0 or "loca" not in table or loca_format not in (0, 1):
        return None
    # cmap: the last Unicode subtable, chosen as reportlab chooses it
    cmap = table["cmap"]["offset"]
    version, count = unpack_from(">HH", data, cmap)
    if count == 0 and version != 0:
        count = version
    records = unpack_from(">" + "HHL" * count, data, cmap + 4)
    at, kind = None, 0
    for platform, encoding, offset in zip(records[0::3], records[1::3], records[2::3]):
        if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
            at, kind = offset, 1
        elif platform == 1 and encoding == 0 and kind != 1:
            at, kind = offset, 2
    if at is None:
        return None
    at += cmap
    (form,) = unpack_from(">H", data, at)
    chars: list[int] = []
    glyphs: list[int] = []
    if form == 4:  # segments of characters, each a delta from its glyphs or an index into an array of them
        length, _ = unpack_from(">HH", data, at + 2)
        segments = unpack_from(">H", data, at + 6)[0] >> 1
        ends = unpack_from(f">{segments}H", data, at + 14)
        starts = unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
        deltas = unpack_from(f">{segments}h", data, at + 16 + 4 * segments)
        ranges_at = at + 16 + 6 * segments
        ranges = unpack_from(f">{segments}H", data, ranges_at)
        _within_unicode(starts, ends)
        for n, (start, end, delta, range_offset) in enumerate(zip(starts, ends, deltas, ranges)):
            codes = range(start, end + 1)
            chars += codes
            if range_offset == 0:
                glyphs += [(code + delta) & 0xFFFF for code in codes]
            else:
                first = ranges_at + 2 * n + range_offset
                inside = min(len(codes), max(0, (at + length - first + 1) // 2))  # reportlab gives glyph 0 to a code past the subtable's end
                glyphs += [(glyph + delta) & 0xFFFF if glyph else 0 for glyph in unpack_from(f">{inside}H", data, first)]
                glyphs += [0] * (len(codes) - inside)
    elif form == 12:  # groups of consecutive characters and glyphs
        unpack_from(">LL", data, at + 4)  # its length and language, which reportlab reads and does not use
        (groups,) = unpack_from(">L", data, at + 12)
        fields = unpack_from(f">{3 * groups}L", data, at + 16)
        _within_unicode(fields[0::3], fields[1::3])
        for start, end, first in zip(fields[0::3], fields[1::3], fields[2::3]):
            codes = range(start, end + 1)
            chars += codes
            glyphs += range(first, first + len(codes))
    else:
        return None
    char_to_glyph = dict(zip(chars, glyphs))
    glyph_to_chars: dict[int, list[int]] = {}
    for char, glyph in zip(chars, glyphs):
        if glyph in glyph_to_chars:
            glyph_to_chars[glyph].append(char)
        else:
            glyph_to_chars[glyph] = [char]
    # hmtx: an advance and a side bearing per glyph, the last advance repeated for the glyphs after the long metrics
    hmtx = table["hmtx"]["offset"]
    pairs = unpack_from(f">{2 * long_metrics}H", data, hmtx)
    bearings = unpack_from(f">{face.numGlyphs - long_metrics}H", data, hmtx + 4 * long_metrics) if face.numGlyphs > long_metrics else ()
    advances = pairs[0::2]
    scale = 1000 / face.unitsPerEm  # reportlab's _pdfScale: widths in thousandths, kept as ints for a font of 1000 units
    widths = list(advances) if face.unitsPerEm == 1000 else [advance * scale for advance in advances]
    last = widths[-1]  # reportlab pairs the glyphs after the long metrics with the scaled advance
    hmetrics = [*zip(advances, pairs[1::2]), *zip(repeat(last), bearings)]
    widths += repeat(last, len(bearings))
    glyph_count = len(widths)
    char_widths = {char: widths[glyph] for glyph in sorted(glyph_to_chars) if glyph < glyph_count for char in glyph_to_chars[glyph]}
    # loca: where each glyph's outline starts, in half-units (format 0) or bytes (format 1)
    loca = table["loca"]["offset"]
    if loca_format == 0:
        glyph_pos = [place << 1 for place in unpack_from(f">{face.numGlyphs + 1}H", data, loca)]
    else:
        glyph_pos = list(unpack_from(f">{face.numGlyphs + 1}L", data, loca))
    end = loca + 2 * (loca_format + 1) * (face.numGlyphs + 1)  # where reportlab's reading stops
    if 0x20 in char_to_glyph:  # a no-break space is drawn as a space, and the other way round
        char_to_glyph[0xA0] = char_to_glyph[0x20]
        char_widths[0xA0] = char_widths[0x20]
    elif 0xA0 in char_to_glyph:
        char_to_glyph[0x20] = char_to_glyph[0xA0]
        char_widths[0x20] = char_widths[0xA0]
    return {
        "charToGlyph": char_to_glyph,
        "glyphToChar": glyph_to_chars,
        "charWidths": char_widths,
        "hmetrics": hmetrics,
        "defaultWidth": widths[0],
        "glyphPos": glyph_pos,
        "_pos": end,
    }


class CmapTooLarge(TTFError):
    """A font whose characters are more than Unicode has: a damaged or hostile cmap that
    reportlab would read code by code into gigabytes."""


def _within_unicode(starts: Sequence[int], ends: Sequence[int]) -> None:
    """Refuse a cmap whose ranges hold more codes than Unicode (U+0000 to U+10FFFF) has, or
    one past it: what a font maps is at most that, so more is damage or an attack."""
    total = sum(end - start + 1 for start, end in zip(starts, ends) if end >= start)
    if total > _UNICODE or any(end >= _UNICODE for end in ends):
        raise CmapTooLarge(f"its character map claims {total:,} characters, up to U+{max(ends):X}, where Unicode has {_UNICODE:,} up to U+10FFFF")


_UNICODE = 0x110000
_reportlab_extract_info = TTFontFile.extractInfo
TTFontFile.extractInfo = _extract_info

_NOT_PDFDOC = bytes(range(0x18, 0x20))  # the ASCII codes PDFDocEncoding gives to accents (breve, caron, ...): reportlab's codec refuses them


def _pdfdoc_encoded(text: str | bytes) -> bytes:
    """reportlab's pdfdocEnc (a str in PDFDocEncoding; bytes as they are), ASCII text
    encoded by Python's own codec. Why: reportlab's codec looks every character up in a
    dict, and every uncompressed content stream (an export's PDFs in memory) and every
    form's operators pass through it. The bytes are the same: PDFDocEncoding is ASCII
    below 128 but for the eight codes from 0x18, which go to reportlab's codec as before
    (and are refused by it, as before)."""
    if isinstance(text, str):
        if text.isascii():
            data = text.encode("ascii")
            if len(data.translate(None, _NOT_PDFDOC)) == len(data):  # none of them (a C loop; a regular expression's search cost five times more)
                return data
        return text.encode("extpdfdoc")
    return text


pdfdoc.pdfdocEnc = _pdfdoc_encoded  # pdfdoc's formatting and forms look it up by this name


def draw_string(canvas: Canvas, x: float, y: float, text: str) -> None:
    """canvas.drawString in the current font, its operators kept by the document: the same
    string drawn again at the same place in the same font (the ruler's caption on every
    page) is written as it was, not split into font subsets anew.

    The operators depend on nothing else: its characters have their codes in the
    document's subsets since it was first drawn. At most _KEPT_STRINGS are kept."""
    key = (canvas._fontname, canvas._fontsize, canvas._leading, x, y, text)
    kept: dict[tuple, str] = canvas._doc.__dict__.setdefault("_pnp_strings", {})
    code = kept.get(key)
    if code is None:
        canvas.drawString(x, y, text)
        if len(kept) >= _KEPT_STRINGS:
            kept.clear()
        code = kept[key] = canvas._code[-1]
    else:
        canvas._code.append(code)


_KEPT_STRINGS = 64


def round_rect(canvas: Canvas, x: float, y: float, width: float, height: float, radius: float, stroke: int, fill: int) -> None:
    """canvas.roundRect, its operators kept by the document: a frame drawn again at the
    same place (a deck's every card, each drawn from its own origin) is written as it
    was, not built anew from four curves and four lines, each formatted by reportlab's
    number formatting (sprintf per number). The operators depend on nothing else but
    the fill rule. At most _KEPT_STRINGS are kept."""
    key = (x, y, width, height, radius, stroke, fill, canvas._fillMode)
    kept: dict[tuple, list[str]] = canvas._doc.__dict__.setdefault("_pnp_round_rects", {})
    code = kept.get(key)
    if code is None:
        start = len(canvas._code)
        canvas.roundRect(x, y, width, height, radius, stroke=stroke, fill=fill)
        if len(kept) >= _KEPT_STRINGS:
            kept.clear()
        kept[key] = canvas._code[start:]
    else:
        canvas._code.extend(code)


class _Encoding:
    """What one TrueType font's characters are in one document, where reportlab gives each
    character its code in a subset of the font the first time the document draws it.

    Why: reportlab splits every string into subsets anew (a Python loop per character);
    here a character of the first subset, once seen, is translated by a table (one C
    call per string), and only a string with a character not seen before is split."""

    def __init__(self, font: str, doc: PDFDocument):
        self.font = pdfmetrics.getFont(font)
        self.doc = doc
        self.table: dict[int, str] = {}  # character -> its escaped code in the first subset
        self.known: set[str] = set()
        self.first = ""  # the first subset's font name, once the document uses the font

    def runs(self, text: str) -> list[tuple[str, str]]:
        """`text` as runs of one subset each: (the subset's font name, its escaped codes)."""
        font, doc = self.font, self.doc
        if self.known.issuperset(text) and text:
            return [(self.first, text.translate(self.table))]
        runs = [(font.getSubsetInternalName(subset, doc), escapePDF(data)) for subset, data in font.splitString(text, doc)]
        self.first = font.getSubsetInternalName(0, doc)
        for char in set(text) - self.known:  # now coded: remembered when in the first subset
            ((subset, data),) = font.splitString(char, doc)
            if subset == 0:
                self.table[ord(char)] = escapePDF(data)
                self.known.add(char)
        return runs


def _encoding(doc: PDFDocument, font: str) -> _Encoding:
    """The document's encoding of `font` (kept on the document: it holds for that one)."""
    encodings = doc.__dict__.setdefault("_pnp_encodings", {})
    found = encodings.get(font)
    if found is None:
        found = encodings[font] = _Encoding(font, doc)
    return found


def code_position(canvas: Canvas) -> tuple[int, int]:
    """Where the page (or form) being drawn stands: its operators and the forms it placed so far."""
    return len(canvas._code), len(canvas._formsinuse)


def code_since(canvas: Canvas, position: tuple[int, int]) -> tuple[list[str], list[str]]:
    """The operators written and the forms placed since `position` (code_position)."""
    return canvas._code[position[0] :], canvas._formsinuse[position[1] :]


def write_again(canvas: Canvas, code: list[str], forms: list[str]) -> None:
    """Operators and the forms they place (from `code_since`) written again into the page being drawn."""
    canvas._code.extend(code)
    canvas._formsinuse.extend(forms)


def forms_defined(canvas: Canvas, names: list[str]) -> bool:
    """Whether the document defines every form (and image) of `names`."""
    doc = canvas._doc
    return all(doc.hasForm(name) for name in names)


def font_codes(canvas: Canvas, texts: dict[str, str]) -> tuple | None:
    """Each font's characters of `texts` (font -> characters) with the codes the document
    gave them; None when one has none yet."""
    return _coded(canvas._doc, texts)


def still_coded(canvas: Canvas, fonts: tuple) -> bool:
    """Whether the characters of `fonts` (from `font_codes`) still have those codes in the document."""
    return _still_coded(canvas._doc, fonts)


def compress_with(canvas: Canvas, compressor: object) -> None:
    """The page streams of `canvas`'s document compressed by `compressor` (an object with
    reportlab's PDFZCompress's `pdfname` and `encode`) instead of reportlab's own."""
    canvas._doc.flate = compressor


def _coded(doc: PDFDocument, texts: dict[str, str]) -> tuple | None:
    """Each font's characters with the codes the document gave them (reportlab's subset
    assignments); None when one has none yet."""
    found = []
    for name, chars in texts.items():
        font = pdfmetrics.getFont(name)
        state = getattr(font, "state", {}).get(doc)
        if state is None or state.internalName is None:
            return None
        glyphs = font.face.charToGlyph
        codes = sorted({32 if c == 0xA0 else c for c in map(ord, chars)} & glyphs.keys())  # as splitString: a missing glyph is always code 0
        assigned = _assigned(state, codes)
        if assigned is None:
            return None
        found.append((name, array("L", codes), state.internalName, assigned))
    return tuple(found)


def _assigned(state: TTFont.State, codes) -> array | None:
    """The codes reportlab's subsets give these characters; None if one has none yet."""
    try:
        return array("L", map(state.assignments.__getitem__, codes))
    except KeyError:
        return None


def _still_coded(doc: PDFDocument, fonts: tuple) -> bool:
    for name, codes, internal, assigned in fonts:
        state = pdfmetrics.getFont(name).state.get(doc)
        if state is None or state.internalName != internal or _assigned(state, codes) != assigned:
            return False
    return True


def register_font(font: TTFont) -> None:
    """Register a TrueType font under its name, replacing the font registered under that
    name before (its file edited while the watcher runs): reportlab's registerFont keeps
    the first font of a name for the life of the process, and maps a face name to it."""
    old = pdfmetrics._fonts.pop(font.fontName, None)
    if old is not None and pdfmetrics._dynFaceNames.get(old.face.name) is old:
        del pdfmetrics._dynFaceNames[old.face.name]
    pdfmetrics.registerFont(font)


def at_top_of_frame(flowable: Flowable) -> bool:
    """Whether platypus is placing `flowable` at the top of its frame (nothing above it
    in the column), where waiting for the next page would not give it more room."""
    frame = getattr(flowable, "_frame", None)
    return frame is not None and bool(getattr(frame, "_atTop", False))


def split_in_frame_of(parent: Flowable, child: Flowable, aw: float, ah: float) -> list[Flowable]:
    """Split `child` as placed in the frame `parent` is in, so that at_top_of_frame holds
    for the first child of a flowable at the top of a page."""
    child._frame = parent._frame
    try:
        return child.split(aw, ah)
    finally:
        del child._frame


def room_in_frame_of(flowable: Flowable, following: Flowable) -> float | None:
    """The height `following` would have if placed next in the frame `flowable` is being
    split in (its space before counted as the frame counts it); None outside a frame."""
    frame = getattr(flowable, "_frame", None)
    if frame is None:
        return None
    space = 0.0
    if not frame._atTop:
        space = following.getSpaceBefore()
        if frame._oASpace:
            space = max(space - frame._prevASpace, 0)
    return frame._y - frame._y1p - space


def kept_flowables(keep: KeepTogether) -> list[Flowable]:
    """The flowables a KeepTogether holds together, in order."""
    return keep._content


def row_heights(table: Table) -> list[float]:
    """The height of each row of a table, once it is wrapped."""
    return table._rowHeights


# --- Pages as forms, and pages copied into another PDF (a rulebook's booklet) ----------------------
# Kept apart from the streaming document above: a canvas of its own, not streamed.


class FormPagesCanvas(Canvas):
    """A Canvas whose pages become forms instead of pages, named by their number
    (`page_form(n)`); at `save()`, `place(canvas, pages)` draws the pages that place them
    (with `doForm` and `sheet()`), so a booklet is imposed as its pages are drawn or
    copied (`copy_pages`), not read back. Links, bookmarks and outline entries are left
    out: a form has no annotations, and they would point at the sheets, not the pages."""

    def __init__(self, *args, place: Callable[[FormPagesCanvas, int], None], **kwargs):
        super().__init__(*args, **kwargs)
        self._place = place
        self._forms = 0

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        """The page is finished: it becomes a form (reportlab's endForm, for a page)."""
        width, height = self._pagesize
        self._forms += 1
        form = PDFFormXObject(lowerx=0, lowery=0, upperx=width, uppery=height)
        form.compression = self._pageCompression
        form.setStreamList([self._preamble, *self._code, " "])
        self._setColorSpace(form)
        self._setExtGState(form)
        self._setXObjects(form)
        _name_states(form)
        self._doc.addForm(page_form(self._forms), form)
        self._startPage()

    def sheet(self) -> None:
        """A page of the file, holding what was drawn (the forms placed) since the last."""
        Canvas.showPage(self)

    def save(self) -> None:
        self._place(self, self._forms)
        super().save()

    def linkRect(self, *args, **kwargs) -> None:  # noqa: N802 - reportlab's name
        pass

    def bookmarkPage(self, *args, **kwargs) -> None:  # noqa: N802 - reportlab's name
        pass

    def addOutlineEntry(self, *args, **kwargs) -> None:  # noqa: N802 - reportlab's name
        pass


class KeptPagesCanvas(Canvas):
    """A canvas that keeps each page as it was set (its operators from `begin_page` on,
    and the forms and images it placed), so that `copy_pages` can write the same pages into
    another PDF without setting them again (the rulebook's booklet, from its paper book);
    `then(canvas)` is called just before the PDF is saved, while its fonts' codes are open."""

    def __init__(self, *args, then: Callable[[KeptPagesCanvas], None], **kwargs):
        super().__init__(*args, **kwargs)
        self._then = then
        self._page_from = 0
        self.kept: list[
            tuple[list[str], list[str], ExtGState, bool]
        ] = []  # operators, forms placed, graphics states, whether it named a colour space or shading

    def begin_page(self, matrix: tuple[float, float, float, float, float, float]) -> None:
        """A page begins: `matrix` (drawn on this PDF's page, not kept) places what it draws
        from here on, which is the page kept. Links and bookmarks are placed through it too."""
        self.transform(*matrix)
        self._page_from = len(self._code)

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        self.kept.append((self._code[self._page_from :], list(self._formsinuse), self._extgstate, _names_colours(self)))
        self._page_from = 0
        super().showPage()

    def save(self) -> None:
        self._then(self)
        super().save()


def canvas_like(template: BaseDocTemplate, buffer: BinaryIO, canvasmaker: Callable[..., Canvas]) -> Canvas:
    """A canvas for another PDF made as `template` makes its own (page size, fonts,
    compression, metadata): platypus's own maker, which it has no public name for."""
    return template._makeCanvas(buffer, canvasmaker)


def set_saving(template: BaseDocTemplate, save: bool) -> None:
    """Whether platypus writes the file when `template` is built (its switch, which it has
    no public name for): a pass that draws nothing writes no file."""
    template._doSave = int(save)


def copy_pages(source: KeptPagesCanvas, target: FormPagesCanvas) -> None:
    """Write the pages `source` kept into `target` as its page forms, as setting them there
    would: the same operators, the characters coded as the source coded them (its fonts'
    subsets, copied), its forms, images, graphics states and fonts under the same names.
    Raises ValueError for what pnp never draws and this does not copy: a page naming a
    colour space or shading (a spot colour), a font the target already names otherwise."""
    src, dst = source._doc, target._doc
    if any(named for *_, named in source.kept):
        raise ValueError("a page names a colour space or shading, which pages are not copied with")
    for name, internal in src.fontMapping.items():
        font = pdfmetrics.getFont(name)
        if getattr(font, "_dynamicFont", False):  # its subsets: the characters' codes as the source gave them
            font.state[dst] = copy.deepcopy(font.state[src])
            dst.fontMapping[name] = internal
        elif name not in dst.fontMapping:  # a standard font (an SVG's text): named in the order the source named it
            font.addObjects(dst)
        if dst.fontMapping[name] != internal:
            raise ValueError(f"font {name} is {dst.fontMapping[name]} in the other PDF, not {internal}")
    dst.delayedFonts = list(src.delayedFonts)
    for name, obj in list(src.idToObject.items()):
        if name.startswith("FormXob.") and name not in dst.idToObject:  # forms and images, by the names pages place them by
            twin = copy.copy(obj)
            twin.__dict__.pop("__InternalName__", None)  # reportlab's mark of the document that numbered it
            dst.Reference(twin, name)
    for code, forms, states, _ in source.kept:
        target._code, target._formsinuse, target._extgstate = list(code), list(forms), states
        target.showPage()


def page_form(number: int) -> str:
    """The name of the form FormPagesCanvas made of its page `number` (from 1)."""
    return f"Page{number}"
