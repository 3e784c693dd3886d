"""Vector symbols: SVG files read once with svglib and drawn as PDF form objects, so a
symbol used on a thousand cards is stored in the PDF once."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import STATE_DEFAULTS, Drawing
from reportlab.pdfgen.canvas import Canvas

from .errors import Location, Problems, display_path
from .pdfstream import current_font

MAX_SVG_BYTES = 2 * 1024 * 1024


@dataclass
class Symbol:
    id: str
    drawing: Drawing
    width: float
    height: float


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
        drawing = _read_svg(path, problems)
        if drawing is None:
            return None
        symbol = Symbol(sid, drawing, float(drawing.width), float(drawing.height))
        self._loaded[sid] = symbol
        return symbol

    def draw(self, canvas: Canvas, sid: str, x: float, y: float, size: float) -> None:
        """Draw symbol `sid` fitted into a size x size square with its lower left at x, y."""
        symbol = self.get(sid)
        if symbol is None:  # reported by the layout check; never drawn as a blank silently
            return
        forms = canvas.__dict__.setdefault("_pnp_forms", set())
        name = f"pnpsym_{sid}"
        if name not in forms:
            canvas.beginForm(name, lowerx=0, lowery=0, upperx=symbol.width, uppery=symbol.height)
            # renderPDF selects its default font (Helvetica, never embedded) before drawing;
            # point it at the canvas's embedded font so no unembedded font is referenced.
            default_font = STATE_DEFAULTS["fontName"]
            STATE_DEFAULTS["fontName"] = current_font(canvas)
            try:
                renderPDF.draw(symbol.drawing, canvas, 0, 0)
            finally:
                STATE_DEFAULTS["fontName"] = default_font
            canvas.endForm()
            forms.add(name)
        scale = size / max(symbol.width, symbol.height)
        dx = (size - symbol.width * scale) / 2
        dy = (size - symbol.height * scale) / 2
        canvas.saveState()
        canvas.transform(scale, 0, 0, scale, x + dx, y + dy)
        canvas.doForm(name)
        canvas.restoreState()


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _read_svg(path: Path, problems: Problems | None) -> Drawing | None:
    from svglib.svglib import svg2rlg  # imported here: svglib pulls in lxml, slow to import

    loc = Location(display_path(path))
    if path.stat().st_size > MAX_SVG_BYTES:
        if problems is not None:
            problems.error(loc, "symbol-too-large", f"symbol file is larger than {MAX_SVG_BYTES} bytes; expected a small SVG")
        return None
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
    if problems is not None:
        for message in handler.messages:
            problems.warn(loc, "symbol-svg", f"svglib: {message}")
        if drawing is None or not drawing.width or not drawing.height:
            problems.error(loc, "symbol-unreadable", "cannot read this SVG; expected an SVG file with a width and height")
    return drawing if drawing is not None and drawing.width and drawing.height else None
