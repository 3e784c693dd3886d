"""Draw a component larger than the sheet: an assembly page (the whole component scaled
down, the pieces drawn over it with their labels), then one page per piece with its
label, cut edges, glue hints and alignment targets. Geometry comes from
`sheets.plan_tiling`; each face is drawn once into a PDF form and placed on every page
that shows part of it, so the file does not grow with the number of pieces."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from reportlab.lib.colors import Color, black, white
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.i18n.own import Words
from pnp.impose.sheets import MARK_WIDTH, Box, Cut, Page, Piece, Tiling, piece_marks
from pnp.layout.faces import Face
from pnp.pdf.canvas import end_form
from pnp.write.drawing import draw_face
from pnp.write.pdf import DocInfo, draw_marks, draw_outlines, draw_ruler, new_canvas, set_boxes

GRID_RED = Color(0.8, 0.12, 0.1)  # the piece grid on the assembly page
HINT_GREY = Color(0.25, 0.25, 0.25)
LABEL_ROOM = 4.5 * mm  # a band beside a piece, inside the printer margin, this wide holds a line of 7 pt
TARGET_RADIUS = 2.0 * mm
TARGET_ARM = 3.5 * mm


def write_pieces(
    target: Path,
    tiling: Tiling,
    faces: Iterable[tuple[str, Face]],
    info: DocInfo,
    symbols,
    fonts: tuple[str, str],
    caption: Callable[[Page, int], str],
    notes: list[str],
    words: Words,
) -> int:
    """For each (title, face): its assembly page, then its pieces, their instructions in
    `words`' language (`notes`: more lines for the assembly page, in it too). Returns the
    page count."""
    canvas = new_canvas(target, (tiling.page_w, tiling.page_h), info)
    count = 0
    for n, (title, face) in enumerate(faces, 1):
        form = f"pnpPiece{n}"
        left, bottom, right, top = tiling.art
        canvas.beginForm(form, lowerx=left, lowery=bottom, upperx=right, uppery=top)
        draw_face(canvas, face, 0, 0, tiling.bleed, symbols)
        end_form(canvas)
        set_boxes(canvas, None)  # the assembly page shows the component scaled down
        _assembly_page(canvas, tiling, form, title, fonts, caption, notes, n, words)
        canvas.showPage()
        count += 1
        for piece in tiling.pieces:
            set_boxes(canvas, piece_boxes(tiling, piece))
            _piece_page(canvas, tiling, piece, form, title, fonts, words)
            canvas.showPage()
            count += 1
    canvas.save()
    return count


def piece_boxes(tiling: Tiling, piece: Piece) -> tuple[Box, Box]:
    """A piece page's TrimBox (what it shows of the component's trim) and BleedBox (all
    it shows of the component, bleed included), on the page."""
    left, bottom, right, top = piece.window
    trim = (max(left, 0.0), max(bottom, 0.0), min(right, tiling.trim_w), min(top, tiling.trim_h))
    (tl, tb), (tr, tt) = piece.on_page(*trim[:2]), piece.on_page(*trim[2:])
    (bl, bb), (br, bt) = piece.on_page(left, bottom), piece.on_page(right, top)
    return (tl, tb, tr, tt), (bl, bb, br, bt)


def assembly_steps(tiling: Tiling, words: Words) -> list[str]:
    """How to put the pieces together, in words (the assembly page and docs say the same)."""
    size = f"{tiling.trim_w / mm:.0f} x {tiling.trim_h / mm:.0f} mm"
    pieces = words("assembly.pieces", n=len(tiling.pieces))
    grid = words("assembly.grid", n=tiling.rows, cols=tiling.cols)
    return [
        words("assembly.size", size=size, pieces=pieces, grid=grid, overlap=f"{tiling.overlap / mm:g}"),
        words(f"assembly.cut.{tiling.shape}"),
        words("assembly.order"),
        words("assembly.targets"),
    ]


def _assembly_page(canvas: Canvas, tiling: Tiling, form: str, title: str, fonts: tuple[str, str], caption, notes: list[str], number: int, words: Words) -> None:
    regular, bold = fonts
    m = tiling.margin + 3 * mm
    width = tiling.page_w - 2 * m
    y = tiling.page_h - m - 12
    canvas.setFillColor(black)
    _fit_text(canvas, words("assembly.title", title=title), bold, 14, m, y, width)
    y -= 8
    for line in assembly_steps(tiling, words) + notes:
        y -= 11
        _fit_text(canvas, line, regular, 8.5, m, y, width)
    ruler_y = tiling.margin + 12 * mm  # the ruler and its two caption lines below it
    area_top, area_bottom = y - 6 * mm, ruler_y + 6 * mm
    left, bottom, right, top = tiling.art
    scale = min(width / (right - left), (area_top - area_bottom) / (top - bottom))
    x0 = m + (width - (right - left) * scale) / 2 - left * scale
    y0 = area_bottom + (area_top - area_bottom - (top - bottom) * scale) / 2 - bottom * scale

    def at(x: float, y: float) -> tuple[float, float]:
        return x0 + x * scale, y0 + y * scale

    canvas.saveState()
    canvas.translate(x0, y0)
    canvas.scale(scale, scale)
    canvas.doForm(form)
    canvas.restoreState()
    if tiling.shape != "rect":  # the outline to cut along, scaled down like the art
        draw_outlines(canvas, [Cut(tiling.shape, *at(0, 0), tiling.trim_w * scale, tiling.trim_h * scale)])
    canvas.setStrokeColor(black)
    canvas.setLineWidth(0.5)
    canvas.rect(*at(left, bottom), (right - left) * scale, (top - bottom) * scale, stroke=1, fill=0)
    canvas.setStrokeColor(GRID_RED)
    canvas.setLineWidth(1)
    canvas.setDash([4, 2])
    for piece in tiling.pieces:
        pl, pb, pr, pt = piece.window
        canvas.rect(*at(pl, pb), (pr - pl) * scale, (pt - pb) * scale, stroke=1, fill=0)
    canvas.setDash([])
    size = max(7.0, min(18.0, 0.25 * scale * min(tiling.page_w, tiling.page_h)))
    for piece in tiling.pieces:
        cx, cy = at(*_own_centre(tiling, piece))
        w = canvas.stringWidth(piece.label, bold, size) + size * 0.6
        canvas.setFillColor(white)
        canvas.setStrokeColor(GRID_RED)
        canvas.roundRect(cx - w / 2, cy - size * 0.55, w, size * 1.1, size * 0.2, stroke=1, fill=1)
        canvas.setFillColor(GRID_RED)
        canvas.setFont(bold, size)
        canvas.drawCentredString(cx, cy - size * 0.35, piece.label)
    length = 50 * mm
    spot = Page("front", number, (), (), (tiling.page_w / 2 - length / 2, ruler_y, length, False, False))
    draw_ruler(canvas, spot, caption, regular)


def _own_centre(tiling: Tiling, piece: Piece) -> tuple[float, float]:
    """The middle of what stays visible of a piece once the later ones lie on it."""
    left, bottom, right, top = piece.window
    if piece.col < tiling.cols - 1:
        right -= tiling.overlap
    if piece.row < tiling.rows - 1:
        bottom += tiling.overlap
    return (left + right) / 2, (bottom + top) / 2


def _piece_page(canvas: Canvas, tiling: Tiling, piece: Piece, form: str, title: str, fonts: tuple[str, str], words: Words) -> None:
    regular, bold = fonts
    left, bottom, right, top = piece.window
    (pl, pb), (pr, pt) = piece.on_page(left, bottom), piece.on_page(right, top)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(pl, pb, pr - pl, pt - pb)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.saveState()
    canvas.translate(*piece.origin)
    canvas.doForm(form)
    canvas.restoreState()
    cut = tiling.cut(piece)  # a round or hex outline, clipped to the piece like the art
    if cut is not None:
        draw_outlines(canvas, [cut])
    canvas.restoreState()

    draw_marks(canvas, piece_marks(tiling, piece))
    canvas.setDash([3, 2])
    if piece.col > 0:  # cut edges: this piece lies on its left and upper neighbours
        canvas.line(pl, pb, pl, pt)
    if piece.row > 0:
        canvas.line(pl, pt, pr, pt)
    canvas.setStrokeColor(HINT_GREY)
    canvas.setDash([1, 2])
    right_band = tiling.piece(piece.row, piece.col + 1)
    lower_band = tiling.piece(piece.row + 1, piece.col)
    if right_band:  # where the edge of the piece on top will lie
        x = pr - tiling.overlap
        canvas.line(x, pb, x, pt)
    if lower_band:
        y = pb + tiling.overlap
        canvas.line(pl, y, pr, y)
    canvas.setDash([])
    canvas.saveState()  # on the piece on top, only the half inside its edge: the rest is cut off
    clip = canvas.beginPath()
    clip.rect(pl, pb, pr - pl, pt - pb)
    canvas.clipPath(clip, stroke=0, fill=0)
    for beneath, on_top, seam in tiling.seams():
        if piece in (beneath, on_top):
            for x, y in tiling.targets(seam):
                _target(canvas, *piece.on_page(x, y))
    canvas.restoreState()

    # Labels go in the bands between the printer margin (where nothing but crop marks is
    # printed) and the piece where they are wide enough; the head (which piece this is)
    # else in the foot band, else on the glue band that the next piece covers.
    m = tiling.margin
    top_room, foot_room = tiling.page_h - m - pt, pb - m
    left_room, right_room = pl - m, tiling.page_w - m - pr
    number = tiling.pieces.index(piece) + 1
    head = words("piece.head", title=title, number=number, count=len(tiling.pieces))
    if top_room >= LABEL_ROOM:
        head_y = pt + top_room / 2 - 3  # a baseline that centres small text in the band
    elif foot_room >= LABEL_ROOM:
        head_y = pb - foot_room / 2 - 3
    elif lower_band:
        head_y = pb + tiling.overlap - 4 * mm
    else:
        head_y = None
    if head_y is not None:
        label_w = canvas.stringWidth(piece.label, bold, 9)
        canvas.setFillColor(black)
        canvas.setFont(bold, 9)
        canvas.drawString(pl + 3 * mm, head_y, piece.label)
        _fit_text(canvas, head, regular, 7, pl + 3 * mm + label_w + 2 * mm, head_y, (pr - pl) / 2 - label_w - 6 * mm)
    canvas.setFillColor(HINT_GREY)
    cuts = []  # what to cut, beside the head (the left edge's instruction beside it when there is no room there)
    if piece.row > 0:
        cuts.append(words("piece.cut.top", label=tiling.piece(piece.row - 1, piece.col).label))
    if piece.col > 0 and left_room < LABEL_ROOM:
        cuts.append(words("piece.cut.left", label=tiling.piece(piece.row, piece.col - 1).label))
    if cuts and head_y is not None:
        _fit_text(canvas, "; ".join(cuts), regular, 7, pl + (pr - pl) / 2, head_y, (pr - pl) / 2 - 3 * mm)
    if lower_band:
        if foot_room >= LABEL_ROOM and head_y is not None and head_y > pb:
            _centred(canvas, words("piece.glue", label=lower_band.label), regular, 7, (pl + pr) / 2, pb - foot_room / 2 - 1.2, 0, pr - pl)
        _centred(canvas, f"{piece.label}: {words('piece.glue', label=lower_band.label)}", regular, 7, (pl + pr) / 2, pb + tiling.overlap / 2 - 2.5, 0, pr - pl)
    if right_band:
        if right_room >= LABEL_ROOM:
            _centred(canvas, words("piece.glue", label=right_band.label), regular, 7, pr + right_room / 2 - 2.5, (pb + pt) / 2, -90, pt - pb)
        _centred(
            canvas, f"{piece.label}: {words('piece.glue', label=right_band.label)}", regular, 7, pr - tiling.overlap / 2 - 2.5, (pb + pt) / 2, -90, pt - pb
        )
    if piece.col > 0 and left_room >= LABEL_ROOM:
        beside = tiling.piece(piece.row, piece.col - 1)
        _centred(canvas, words("piece.cut.left", label=beside.label), regular, 7, pl - left_room / 2 + 2.5, (pb + pt) / 2, 90, pt - pb)


def _target(canvas: Canvas, x: float, y: float) -> None:
    """A circle with a cross, drawn white under black so it shows on dark art too."""
    for colour, width in ((white, 1.6), (black, MARK_WIDTH)):
        canvas.setStrokeColor(colour)
        canvas.setLineWidth(width)
        canvas.circle(x, y, TARGET_RADIUS, stroke=1, fill=0)
        canvas.line(x - TARGET_ARM, y, x + TARGET_ARM, y)
        canvas.line(x, y - TARGET_ARM, x, y + TARGET_ARM)


def _fit_text(canvas: Canvas, text: str, font: str, size: float, x: float, y: float, width: float) -> None:
    """One line of text at x, y, shrunk (never below 5 pt) to stay within `width`."""
    natural = canvas.stringWidth(text, font, size)
    if natural > width > 0:
        size = max(5.0, size * width / natural)
    canvas.setFont(font, size)
    canvas.drawString(x, y, text)


def _centred(canvas: Canvas, text: str, font: str, size: float, x: float, y: float, angle: float, width: float) -> None:
    """Text centred on x, y, turned by `angle` degrees, shrunk to stay within `width`."""
    natural = canvas.stringWidth(text, font, size)
    if natural > width > 0:
        size = max(5.0, size * width / natural)
    canvas.saveState()
    canvas.translate(x, y)
    canvas.rotate(angle)
    canvas.setFont(font, size)
    canvas.drawCentredString(0, 0, text)
    canvas.restoreState()
