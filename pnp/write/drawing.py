"""Stage 5, write: a face drawn onto a PDF canvas, operation by operation (texts, shapes,
images, symbols, inner faces, QR codes, gradients), clipped to its trim and bleed. One
home for drawing a face, whatever the face is drawn for: a build's sheets (write/pdf.py),
a rulebook, the images of an export (exports/raster.py), which impose nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Protocol

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import FILL_NON_ZERO, Canvas

from pnp.assets.images import image_size
from pnp.assets.shaping import shape
from pnp.assets.symbols import gradient_key
from pnp.layout.faces import EllipseOp, Face, FaceOp, Gradient, GroupOp, ImageOp, LineOp, Op, QrOp, RectOp, ShapeOp, SymbolOp, TextOp
from pnp.layout.text import SYMBOL_EM
from pnp.pdf.canvas import draw_text, enter_clipped, glyph_chars, round_rect
from pnp.write.strokes import stroke_outline

if TYPE_CHECKING:
    from pnp.impose.sheets import Bleed


class FaceWriting(Protocol):
    """How a face gets into its PDF (write.pdf.Writing): drawn, or written again as its
    last build wrote it (the watcher's)."""

    def face(self, canvas: Canvas, key: tuple, face: Face, draw: Callable[[], None], texts: Callable[[], dict[str, str]]) -> None: ...


def draw_face(
    canvas: Canvas,
    face: Face,
    x: float,
    y: float,
    bleed: Bleed,
    symbols,
    turned: bool = False,
    lead: tuple[str, int] | None = None,
    writing: FaceWriting | None = None,
) -> None:
    """Draw a face with its trim origin at x, y, clipped to the trim plus the bleed (the
    same all round, or left, bottom, right, top on the page);
    `turned`: upside down in the same box (a back on a page turned over its short side);
    `lead`: a form (Forms) that draws the face's first operations, and how many;
    `writing`: how the face gets into the PDF (None: drawn)."""
    enter_box(canvas, face, x, y, bleed, turned)
    ops = face.ops
    if lead is not None:
        canvas.doForm(lead[0])
        ops = ops[lead[1] :]
    if writing is None:
        _draw_ops(canvas, ops, symbols)
    else:
        writing.face(canvas, ("face", id(face), bleed, len(face.ops) - len(ops)), face, partial(_draw_ops, canvas, ops, symbols), partial(_texts, ops))
    canvas.restoreState()


def _draw_ops(canvas: Canvas, ops: tuple[Op, ...], symbols) -> None:
    for op in ops:
        if isinstance(op, TextOp):
            _draw_text(canvas, op, symbols)
        elif isinstance(op, RectOp) and (isinstance(op.fill, Gradient) or isinstance(op.stroke, Gradient)):
            _draw_shape(canvas, op)
        elif isinstance(op, RectOp):
            if op.fill is not None:
                canvas.setFillColor(op.fill)
            if op.stroke is not None:
                canvas.setStrokeColor(op.stroke)
                canvas.setLineWidth(op.stroke_width)
                canvas.setDash([])
            fill, stroke = int(op.fill is not None), int(op.stroke is not None)
            if op.radius:
                round_rect(canvas, op.x, op.y, op.w, op.h, op.radius, stroke, fill)
            else:
                canvas.rect(op.x, op.y, op.w, op.h, stroke=stroke, fill=fill)
        elif isinstance(op, LineOp) and isinstance(op.stroke, Gradient):
            _paint_gradient(canvas, _outline_path(canvas, op), op.stroke, nonzero=True)
        elif isinstance(op, LineOp):
            canvas.setStrokeColor(op.stroke)
            canvas.setLineWidth(op.stroke_width)
            canvas.setDash(list(op.dash) if op.dash else [])
            canvas.line(op.x1, op.y1, op.x2, op.y2)
        elif isinstance(op, (ShapeOp, EllipseOp)):
            _draw_shape(canvas, op)
        elif isinstance(op, SymbolOp):
            symbols.draw(canvas, op.symbol, op.x, op.y, op.size, op.tint)
        elif isinstance(op, ImageOp):
            _draw_image(canvas, op)
        elif isinstance(op, FaceOp):
            _draw_inner(canvas, op, symbols)
        elif isinstance(op, QrOp):
            _draw_qr(canvas, op)
        elif isinstance(op, GroupOp):
            _draw_group(canvas, op, symbols)


def _draw_group(canvas: Canvas, op: GroupOp, symbols) -> None:
    """An element turned about its point and drawn translucent (a layout's rotate: and opacity:)."""
    canvas.saveState()
    if op.angle % 360:
        canvas.translate(op.cx, op.cy)
        canvas.rotate(op.angle)
        canvas.translate(-op.cx, -op.cy)
    ops = op.ops
    if op.opacity < 1:
        canvas.setFillAlpha(op.opacity)
        canvas.setStrokeAlpha(op.opacity)
        ops = tuple(_faded(inner, op.opacity) for inner in ops)
    _draw_ops(canvas, ops, symbols)
    canvas.restoreState()


_COLOURED = ("fill", "stroke", "color")  # the fields of operations that hold a colour


def _faded(op: Op, opacity: float) -> Op:
    """`op` with its colours at `opacity` times their own: reportlab sets the fill's and
    stroke's opacity from each colour it is given, over the group's (symbols, images and
    gradients, which give none, keep the group's); an inner group at its own times this."""
    if isinstance(op, GroupOp):
        return replace(op, opacity=op.opacity * opacity)
    changes = {name: Color(c.red, c.green, c.blue, getattr(c, "alpha", 1) * opacity) for name in _COLOURED if isinstance(c := getattr(op, name, None), Color)}
    return replace(op, **changes) if changes else op


def _draw_qr(canvas: Canvas, op: QrOp) -> None:
    """The dark modules of a QR code, one filled square each, in one path."""
    unit = op.size / len(op.rows)
    top = op.y + op.size
    path = canvas.beginPath()
    for r, row in enumerate(op.rows):
        for c, dark in enumerate(row):
            if dark == "1":
                path.rect(op.x + c * unit, top - (r + 1) * unit, unit, unit)
    if isinstance(op.color, Gradient):
        _paint_gradient(canvas, path, op.color)
        return
    canvas.setFillColor(op.color)
    canvas.drawPath(path, stroke=0, fill=1)


def contents(ops: tuple[Op, ...], chars: dict[str, set[str]], symbols: set[str]) -> None:
    """Add to `chars` the characters `ops` set in each font, and to `symbols` the symbols
    they draw (inline in texts, and in inner faces too)."""
    for op in ops:
        if isinstance(op, TextOp):
            for line in op.text.lines:
                for piece in line:
                    if piece.shape:  # the characters its glyphs are coded by
                        chars.setdefault(piece.font, set()).update(glyph_chars(piece.font, shape(piece.text, piece.font, piece.shape == "rtl")))
                    elif piece.font:
                        chars.setdefault(piece.font, set()).update(piece.text)
                    else:
                        symbols.add(piece.text)
        elif isinstance(op, SymbolOp):
            if isinstance(op.tint, Gradient):  # a form of its own for each placement (symbols.py)
                symbols.add((op.symbol, op.tint, op.x, op.y, op.size))
            else:
                symbols.add(op.symbol if op.tint is None else (op.symbol, op.tint))
        elif isinstance(op, FaceOp):
            contents(op.face.ops, chars, symbols)
        elif isinstance(op, GroupOp):
            contents(op.ops, chars, symbols)


def _texts(ops: tuple[Op, ...]) -> dict[str, str]:
    """The characters set in each font by `ops` (inner faces too)."""
    chars: dict[str, set[str]] = {}
    contents(ops, chars, set())
    return {font: "".join(sorted(found)) for font, found in chars.items()}


def enter_box(canvas: Canvas, face: Face, x: float, y: float, bleed: Bleed, turned: bool) -> None:
    """Save the state, clip to the face's trim plus its bleed with the trim origin at x, y,
    and move the origin there (`turned`: upside down in the same box: the bleed's sides are
    the page's); the caller restores."""
    if isinstance(bleed, tuple):
        left, bottom, right, top = bleed
        box = (x - left, y - bottom, face.width + left + right, face.height + bottom + top)
    else:
        box = (x - bleed, y - bleed, face.width + 2 * bleed, face.height + 2 * bleed)
    if not turned:
        enter_clipped(canvas, box, x, y)
        return
    enter_clipped(canvas, box, x + face.width, y + face.height)
    canvas.rotate(180)  # reportlab joins it to the move into one matrix


def symbol_order(sid: str | tuple) -> tuple[str, str]:
    """The order the forms of a face's symbols are defined in: the same on every run."""
    if isinstance(sid, str):
        return (sid, "")
    if len(sid) == 2:
        return (sid[0], sid[1].hexval())
    return (sid[0], "~" + gradient_key(sid[1], sid[2:]))


def symbols_of(face: Face) -> set[str | tuple]:
    """The symbols a face draws (in texts and inner faces too), a tinted one with its tint
    (and one tinted with a gradient with where it is placed)."""
    symbols: set[str | tuple] = set()
    contents(face.ops, {}, symbols)
    return symbols


def _draw_inner(canvas: Canvas, op: FaceOp, symbols) -> None:
    enter_clipped(canvas, op.clip, *op.origin)
    canvas.rotate(op.angle)
    draw_face(canvas, op.face, 0, 0, op.bleed, symbols)
    canvas.restoreState()


def _draw_shape(canvas: Canvas, op: ShapeOp | EllipseOp | RectOp) -> None:
    if op.fill is None and op.stroke is None:
        return
    gradient = op.fill if isinstance(op.fill, Gradient) else None
    if op.fill is not None and gradient is None:
        canvas.setFillColor(op.fill)
    stroke = op.stroke if not isinstance(op.stroke, Gradient) else None  # a gradient's, after the fill
    if stroke is not None:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(op.stroke_width)
        canvas.setDash(list(getattr(op, "dash", ())) or [])
    path = canvas.beginPath()
    if isinstance(op, EllipseOp):
        path.ellipse(op.cx - op.rx, op.cy - op.ry, 2 * op.rx, 2 * op.ry)
    elif isinstance(op, RectOp):
        if op.radius:
            path.roundRect(op.x, op.y, op.w, op.h, op.radius)
        else:
            path.rect(op.x, op.y, op.w, op.h)
    else:
        (x0, y0), *rest = op.points
        path.moveTo(x0, y0)
        for x, y in rest:
            path.lineTo(x, y)
        if op.closed:
            path.close()
    filled = op.fill is not None and (not isinstance(op, ShapeOp) or op.closed)
    if gradient is not None and filled:
        _paint_gradient(canvas, path, gradient)
        filled = False
    if filled or stroke is not None:
        canvas.drawPath(path, stroke=int(stroke is not None), fill=int(filled))
    if isinstance(op.stroke, Gradient):
        _paint_gradient(canvas, _outline_path(canvas, op), op.stroke, nonzero=True)


def _outline_path(canvas: Canvas, op: ShapeOp | EllipseOp | RectOp | LineOp):
    """The area the shape's stroke covers (strokes.py), as a path to clip to (nonzero rule)."""
    path = canvas.beginPath()
    for (x0, y0), *rest in stroke_outline(op):
        path.moveTo(x0, y0)
        for x, y in rest:
            path.lineTo(x, y)
        path.close()
    return path


def _paint_gradient(canvas: Canvas, clip, gradient: Gradient, nonzero: bool = False) -> None:
    """A gradient painted through a clip, its end colours kept past its ends: a shape's
    path (a fill, or a QR code's modules), the area a stroke covers (`nonzero`: the rule
    that joins its pieces, strokes.py), or, with `clip` None, the clip the caller set
    (a text's glyphs: draw_text with no colour)."""
    canvas.saveState()
    if clip is not None:
        canvas.clipPath(clip, stroke=0, fill=0, fillMode=FILL_NON_ZERO if nonzero else None)
    colors = list(gradient.colors)
    if gradient.radial:
        canvas.radialGradient(*gradient.coords, colors, extend=True)
    else:
        canvas.linearGradient(*gradient.coords, colors, extend=True)
    canvas.restoreState()


def _draw_image(canvas: Canvas, op: ImageOp) -> None:
    if op.fit == "cover":  # scale to fill the box, centred, and cut what sticks out
        iw, ih = image_size(op.path)
        scale = max(op.w / iw, op.h / ih)
        w, h = iw * scale, ih * scale
        canvas.saveState()
        box = canvas.beginPath()
        box.rect(op.x, op.y, op.w, op.h)
        canvas.clipPath(box, stroke=0, fill=0)
        canvas.drawImage(op.path, op.x + (op.w - w) / 2, op.y + (op.h - h) / 2, w, h, mask="auto")
        canvas.restoreState()
    else:
        canvas.drawImage(op.path, op.x, op.y, op.w, op.h, preserveAspectRatio=op.fit == "contain", anchor="c", mask="auto")


def _draw_text(canvas: Canvas, op: TextOp, symbols) -> None:
    layout = op.text
    size = layout.size
    pieces = []
    marks = []
    for i, line in enumerate(layout.lines):
        baseline = op.baseline - i * layout.leading
        for piece in line:
            if piece.shape:  # glyphs HarfBuzz chose and placed (shaping.py), left to right
                pieces.append((piece.font, size, 0.0, op.x + piece.x, baseline, shape(piece.text, piece.font, piece.shape == "rtl")))
            elif piece.font:
                pieces.append((piece.font, size, piece.word_space, op.x + piece.x, baseline, piece.text))
            else:
                marks.append((piece.text, op.x + piece.x, baseline - 0.22 * size, SYMBOL_EM * size))
    if isinstance(op.color, Gradient):  # the glyphs a clip the gradient is painted through
        canvas.saveState()
        draw_text(canvas, None, pieces)
        _paint_gradient(canvas, None, op.color)
        canvas.restoreState()
    else:
        draw_text(canvas, op.color, pieces)
    for sid, x, y, s in marks:
        symbols.draw(canvas, sid, x, y, s)
