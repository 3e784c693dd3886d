"""Vector symbols: SVG files read once and drawn as PDF form objects, so a symbol used on
a thousand cards is stored in the PDF once. A plain SVG is read by `svgplain`; svglib
(slow to import) reads the others."""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from weakref import WeakKeyDictionary

from reportlab.lib.colors import Color, black
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from pnp.assets.svgplain import Reader, length
from pnp.assets.svgplain import drawing as plain_drawing
from pnp.base.errors import Location, Problems, display_path
from pnp.base.versions import per_version
from pnp.pdf.canvas import draw_drawing, drawn_code, end_form, place_form, portable_code, shading_pattern, tinted, write_code

if TYPE_CHECKING:  # reportlab.graphics (with platypus) is imported only once an SVG is read or drawn
    from reportlab.graphics.shapes import Drawing

MAX_SVG_BYTES = 2 * 1024 * 1024
MAX_SVG_SIDE = 10_000  # px (about 2.6 m): a symbol is drawn a few mm wide; more is a typo or an attack
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"]*)", re.IGNORECASE)
_FORMS: WeakKeyDictionary[Canvas, set[str]] = WeakKeyDictionary()  # the symbols' forms each canvas has defined, forgotten with the canvas


@dataclass(repr=False, eq=False)
class Symbol:
    """A symbol of the game, read from its SVG file once a build."""

    id: str
    drawing: Drawing | None  # svglib's; None for a plain SVG, whose code svgplain gave
    width: float
    height: float
    code: list[str] | None = None  # the operators its form draws, once one is made: the same in every PDF (see SymbolSet.form)


class SymbolSet:
    """The symbols of one game, loaded on first use."""

    def __init__(self, files: dict[str, Path]):
        self.files = files
        self._loaded: dict[str, Symbol] = {}

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(self.files)

    def load_all(self, problems: Problems) -> None:
        for sid in self.files:
            self.get(sid, problems)

    def get(self, sid: str, problems: Problems | None = None) -> Symbol | None:
        if sid in self._loaded:
            return self._loaded[sid]
        path = self.files.get(sid)
        if path is None:
            return None
        read = _read_svg(path, problems)
        if read is None:
            return None
        symbol = Symbol(sid, *read)
        self._loaded[sid] = symbol
        return symbol

    def form(self, canvas: Canvas, sid: str, tint: Color | GradientLike | None = None, matrix: Matrix | None = None) -> str | None:
        """The name of the PDF form that draws symbol `sid` in `canvas` (every fill and
        stroke in `tint`, when given), defined on first use (outside any other form: forms
        do not nest while being defined); None for a symbol that cannot be drawn (reported
        by the layout check). A gradient tint is given on the face, so its form is that
        of one placement (`matrix`, as `placement` makes it)."""
        symbol = self.get(sid)
        if symbol is None:
            return None
        forms = _FORMS.get(canvas)
        if forms is None:
            forms = _FORMS[canvas] = set()
        shaded = tint is not None and not isinstance(tint, Color)
        if shaded:
            assert matrix is not None
            key = gradient_key(tint, matrix)
            name = f"pnpsym_{sid}_{key}"
        else:
            name = f"pnpsym_{sid}" if tint is None else f"pnpsym_{sid}_{tint.hexval()[2:]}"
        if name not in forms:
            patterns = None
            canvas.beginForm(name, lowerx=0, lowery=0, upperx=symbol.width, uppery=symbol.height)
            if shaded:
                patterns = [_render_shaded(symbol, canvas, tint, matrix, f"Pnp{key}")]
            elif tint is not None:
                _render_tinted(symbol, canvas, tint)
            elif symbol.code is not None:
                write_code(canvas, symbol.code)
            else:
                _render(symbol, canvas)
            end_form(canvas, patterns)
            forms.add(name)
        return name

    def placement(self, sid: str, x: float, y: float, size: float) -> Matrix | None:
        """Where symbol `sid` goes fitted into a size x size square with its lower left at
        x, y: the matrix its form is placed through (None for a symbol that cannot be drawn)."""
        symbol = self.get(sid)
        if symbol is None:
            return None
        scale = size / max(symbol.width, symbol.height)
        return (scale, 0, 0, scale, x + (size - symbol.width * scale) / 2, y + (size - symbol.height * scale) / 2)

    def draw(self, canvas: Canvas, sid: str, x: float, y: float, size: float, tint: Color | GradientLike | None = None) -> None:
        """Draw symbol `sid` fitted into a size x size square with its lower left at x, y
        (in `tint`, when given)."""
        matrix = self.placement(sid, x, y, size)
        name = self.form(canvas, sid, tint, matrix) if matrix is not None else None
        if name is None:  # reported by the layout check; never drawn as a blank silently
            return
        place_form(canvas, name, matrix)


Matrix = tuple[float, float, float, float, float, float]


class GradientLike(Protocol):
    """A gradient tint as the layout gives it (layout.faces.Gradient, a later stage):
    linear (x1, y1, x2, y2) or radial (cx, cy, r) `coords` on the face, through `colors`."""

    radial: bool
    coords: tuple[float, ...]
    colors: tuple[Color, ...]


def gradient_key(gradient: GradientLike, at: tuple[float, ...]) -> str:
    """A short name for a gradient tint at one placement (its matrix, or x, y and size),
    the same on every run: its form's, and the order forms are defined in (write.drawing)."""
    text = f"{gradient.radial}{fp_str(*gradient.coords)}{[c.hexval() for c in gradient.colors]}{fp_str(*at)}"
    return "g" + hashlib.sha1(text.encode()).hexdigest()[:12]


def _render(symbol: Symbol, canvas: Canvas) -> None:
    """Draw the symbol into the form being defined, and keep the operators it drew when
    they name nothing of the document (no font, transparency, image or shading): renderPDF
    walks the drawing's shapes slowly, and a build writes the same symbol into every deck's
    PDF and the rulebook, so the next form is those operators again (the same bytes)."""
    draw_drawing(canvas, symbol.drawing)  # in the canvas's font: no unembedded font is named
    symbol.code = portable_code(canvas)


_COLOUR_OPERATOR = re.compile(r"^(?:[-+]?[\d.]+ ){1,4}(rg|RG|g|G|k|K)$")  # a fill (lower case) or stroke colour, grey, RGB or CMYK


def _render_tinted(symbol: Symbol, canvas: Canvas, tint: Color) -> None:
    """The symbol drawn with every fill and stroke colour `tint` (a one-colour symbol
    recoloured): its operators with their colours replaced, or, for a drawing svglib read
    whose operators are not kept, a copy of the drawing with its shapes' colours replaced
    (their opacity kept)."""
    fill = f"{fp_str(tint.red, tint.green, tint.blue)} rg"
    if symbol.code is not None:
        write_code(canvas, [(fill if m.group(1).islower() else fill.upper()) if (m := _COLOUR_OPERATOR.match(line)) else line for line in symbol.code])
        return
    draw_drawing(canvas, tinted(symbol.drawing, tint))


def _render_shaded(symbol: Symbol, canvas: Canvas, tint: GradientLike, matrix: Matrix, pattern: str) -> str:
    """The symbol drawn with every fill and stroke in the gradient `tint` (its points on
    the face): a shading pattern named `pattern` whose space is the face's, seen from the
    form placed through `matrix`, set as the colour wherever the symbol sets one (its
    opacity kept). Returns the pattern's name, for the form's resources."""
    scale, _, _, _, x, y = matrix
    shading_pattern(canvas, pattern, tint.radial, tint.coords, list(tint.colors), (1 / scale, 0, 0, 1 / scale, -x / scale, -y / scale))
    fill, stroke = f"/Pattern cs /{pattern} scn", f"/Pattern CS /{pattern} SCN"
    # drawn by renderPDF (in one colour) when its operators are not kept, then recoloured as the kept ones are
    code = symbol.code if symbol.code is not None else drawn_code(canvas, tinted(symbol.drawing, black))
    write_code(canvas, [(fill if m.group(1).islower() else stroke) if (m := _COLOUR_OPERATOR.match(line)) else line for line in code])
    return pattern


class _Refused(Exception):
    """What makes an SVG unsafe or unusable, where it is: raised by the expat handlers."""

    def __init__(self, code: str, message: str):
        self.code, self.message = code, message
        self.at: tuple[int, int] | None = None  # line, 1-based column: set by the handler that refused


def _inside_only(value: str) -> bool:
    """A reference that stays in the file: a fragment (#id) or inline data (data:)."""
    value = value.strip()
    return value.startswith("#") or value.lower().startswith("data:")


def _side(value: str | None, what: str) -> None:
    """A width, height or viewBox side: a number at most MAX_SVG_SIDE px."""
    if value is None:
        return
    size = length(value)
    if size is None:
        return  # a percentage or a unit svglib does not read: svglib's own check follows
    if not math.isfinite(size) or abs(size) > MAX_SVG_SIDE:
        raise _Refused("symbol-svg-size", f"the SVG's {what} is {value.strip()}; expected at most {MAX_SVG_SIDE} px (a symbol is drawn a few mm wide)")


def _check_svg(data: bytes, loc: Location, reader: Reader) -> tuple[Location, str, str] | None:
    """Why the SVG must not reach svglib, where: a DOCTYPE or entities, a reference to
    another file (href, src, CSS url() or @import, a stylesheet), an absurd size, or XML
    that is not well-formed (what is checked must be what svglib reads). The elements
    go to `reader` as well (svgplain's), so that the file is parsed once."""
    from xml.parsers import expat  # only when an SVG is read: a game without symbols never needs it

    parser = expat.ParserCreate(namespace_separator=" ")
    depth = 0

    def refuse(*_: Any) -> None:
        raise _Refused(
            "symbol-svg-doctype", "the SVG declares a DOCTYPE or entities; expected plain SVG (entities can expand without bound or read other files)"
        )

    def css(text: str, where: str) -> None:
        for m in _URL.finditer(text):
            if not _inside_only(m.group(1)):
                raise _Refused("symbol-svg-reference", f"{where} refers to '{m.group(1).strip()}'; expected references inside this SVG only ('url(#id)')")
        if "@import" in text:
            raise _Refused("symbol-svg-reference", f"{where} imports another stylesheet; expected the styles inside this SVG")

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal depth
        depth += 1
        tag = name.rsplit(" ", 1)[-1]
        for key, value in attrs.items():
            local = key.rsplit(" ", 1)[-1]
            if local in ("href", "src") and not _inside_only(value):
                raise _Refused("symbol-svg-reference", f"<{tag} {local}=\"{value}\"> refers to another file; expected references inside this SVG only ('#id')")
            if local == "base" and key.startswith("http://www.w3.org/XML/1998/namespace"):
                raise _Refused("symbol-svg-reference", f'<{tag} xml:base="{value}"> points references elsewhere; expected no xml:base')
            if local == "style":
                css(value, f"the style of <{tag}>")
        if depth == 1:
            _side(attrs.get("width"), "width")
            _side(attrs.get("height"), "height")
            box = (attrs.get("viewBox") or "").replace(",", " ").split()
            if len(box) == 4:
                _side(box[2], "viewBox width")
                _side(box[3], "viewBox height")
        reader.start(name, attrs)

    def end(name: str) -> None:
        nonlocal depth
        depth -= 1
        reader.end(name)

    def text(data: str) -> None:
        if not data.isspace():  # most text is the space between elements: nothing to look for in it
            css(data, "a <style>")

    def instruction(target: str, data: str) -> None:
        if target.lower() == "xml-stylesheet":
            raise _Refused("symbol-svg-reference", "the SVG links a stylesheet (<?xml-stylesheet ...?>); expected the styles inside this SVG")

    def located(handler: Any) -> Any:
        """The handler, its refusal placed where the event starts (after it, expat is past it)."""

        def run(*args: Any) -> None:
            try:
                handler(*args)
            except _Refused as refused:
                refused.at = refused.at or (parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
                raise

        return run

    parser.StartDoctypeDeclHandler = located(refuse)
    parser.EntityDeclHandler = located(refuse)
    parser.StartElementHandler = located(start)
    parser.EndElementHandler = end
    parser.CharacterDataHandler = located(text)
    parser.ProcessingInstructionHandler = located(instruction)
    try:
        parser.Parse(data, True)
    except _Refused as refused:
        line, col = refused.at or (parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        return Location(loc.file, line, col), refused.code, refused.message
    except expat.ExpatError as exc:
        return (
            Location(loc.file, exc.lineno, exc.offset + 1),
            "symbol-unreadable",
            f"cannot read this SVG: {expat.ErrorString(exc.code)}; expected well-formed XML",
        )
    return None


_Read = tuple["Drawing | None", float, float, "list[str] | None"]  # a Symbol's drawing, width, height and code


def _read_svg(path: Path, problems: Problems | None) -> _Read | None:
    """The symbol as read, once per version of its file (the watcher and `pnp serve`
    build again and again: a symbol is read again only when its file changed), with what
    reading it found reported each time."""
    read, found = _svg(path)
    if problems is not None and found.items:  # the file's name as shown found only for what is reported: most symbols have nothing
        shown = display_path(path)
        problems.extend([replace(problem, location=replace(problem.location, file=shown)) for problem in found.items])
    return read


_SHOWN = "?"  # the file of what _svg reports: its name as shown, put in by _read_svg


@per_version(maxsize=512)
def _svg(path: Path) -> tuple[_Read | None, Problems]:
    problems = Problems()
    loc = Location(_SHOWN)
    if path.stat().st_size > MAX_SVG_BYTES:  # refused before it is read
        problems.error(loc, "symbol-too-large", f"symbol file is larger than {MAX_SVG_BYTES} bytes; expected a small SVG")
        return None, problems
    data = path.read_bytes()
    reader = Reader()
    refused = _check_svg(data, loc, reader)
    if refused is not None:
        problems.error(*refused)
        return None, problems
    plain = plain_drawing(reader)
    if plain is not None:  # of a size _check_svg allowed, and more than none (svgplain's)
        return (None, *plain), problems
    # imported here, for the SVGs svgplain leaves to it: svglib pulls in lxml, and reportlab.graphics all of platypus
    try:
        from svglib.svglib import svg2rlg
    except ImportError:  # the `svg` extra is not installed
        problems.error(
            loc,
            "symbol-needs-svglib",
            "this SVG uses what pnp's own reader does not draw (opacity, CSS, gradients, text, ...) and svglib, "
            'which reads it, is not installed; expected pip install "pnpkit[svg]" (or pip install svglib), '
            "or the symbol saved as plain shapes and paths in solid colours",
        )
        return None, problems

    import logging  # only for svglib's warnings: a build without such a symbol never needs it

    class _Collect(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.WARNING)
            self.messages: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.messages.append(record.getMessage())

    handler = _Collect()
    logger = logging.getLogger("svglib")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        drawing = svg2rlg(str(path))
    except Exception as exc:  # svglib raises many kinds for broken files
        drawing = None
        handler.messages.append(str(exc))
    finally:
        logger.removeHandler(handler)
    for message in handler.messages:
        problems.warn(loc, "symbol-svg", f"svglib: {message}")
    if drawing is None or not all(math.isfinite(side) and 0 < side <= MAX_SVG_SIDE for side in (float(drawing.width), float(drawing.height))):
        problems.error(loc, "symbol-unreadable", f"cannot read this SVG; expected an SVG file with a width and height (at most {MAX_SVG_SIDE} px)")
        return None, problems
    return (drawing, float(drawing.width), float(drawing.height), None), problems
