"""A two-page calibration sheet: rulers to check 100 % printing, and crosshairs printed
on both sides at the same spot, to hold against the light and measure the back offset."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import black
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.base.output import atomic_path
from pnp.i18n.own import Words
from pnp.impose.paper import paper as paper_named
from pnp.impose.sheets import Flip
from pnp.write.pdf import DocInfo, new_canvas, subject

CROSS = 8 * mm  # arm length of a crosshair


def _ruler(canvas: Canvas, x: float, y: float, length_mm: int, vertical: bool) -> None:
    canvas.saveState()
    canvas.translate(x, y)
    if vertical:
        canvas.rotate(90)
    canvas.line(0, 0, length_mm * mm, 0)
    for i in range(length_mm + 1):
        tick = 4 * mm if i % 10 == 0 else 2.5 * mm if i % 5 == 0 else 1.2 * mm
        canvas.line(i * mm, 0, i * mm, tick)
        if i % 10 == 0:
            canvas.drawCentredString(i * mm, 5 * mm, str(i))
    canvas.restoreState()


def _cross(canvas: Canvas, x: float, y: float) -> None:
    canvas.line(x - CROSS, y, x + CROSS, y)
    canvas.line(x, y - CROSS, x, y + CROSS)
    canvas.circle(x, y, 3 * mm)


def _lines(canvas: Canvas, lines: list[str], font: str, width: float, top: float) -> float:
    """Lines of 9 pt from `top` down, smaller (all alike) when one would run past the right
    margin; returns their size."""
    widest = max(canvas.stringWidth(line, font, 9) for line in lines)
    size = min(9.0, 9.0 * (width - 30 * mm) / widest)
    canvas.setFont(font, size)
    for i, text in enumerate(lines):
        canvas.drawString(15 * mm, top - i * 12, text)
    return size


def write_calibration(target: Path, paper: str, flip: Flip, font: str, words: Words) -> None:
    """The calibration sheet on `paper`, for duplex turned over the `flip` edge, its
    instructions in `words`' language."""
    width, height = paper_named(paper).size()
    points = [(width * fx, height * fy) for fx, fy in ((0.25, 0.3), (0.75, 0.3), (0.5, 0.55), (0.25, 0.8), (0.75, 0.8))]
    info = DocInfo(words("meta.calibration"), "pnp", subject(words, "", paper_named(paper).shown, "duplex", flip), font, flip)
    with atomic_path(target) as tmp:
        canvas = new_canvas(tmp, (width, height), info)
        canvas.setLineWidth(0.5)
        canvas.setStrokeColor(black)
        lines = [line for key in ("calibrate.print", "calibrate.rulers", "calibrate.light", "calibrate.offset") for line in words(key).split("\n")]
        if _lines(canvas, lines, font, width, height - 15 * mm) != 9:
            canvas.setFont(font, 9)  # the rulers' numbers
        _ruler(canvas, (width - 100 * mm) / 2, 20 * mm, 100, vertical=False)
        _ruler(canvas, 15 * mm, (height - 100 * mm) / 2 - 20 * mm, 100, vertical=True)
        for x, y in points:
            _cross(canvas, x, y)
        canvas.showPage()
        canvas.setLineWidth(0.5)
        _lines(canvas, [words("calibrate.back")], font, width, height - 15 * mm)
        for x, y in points:
            _cross(canvas, width - x, y) if flip == "long" else _cross(canvas, x, height - y)
        canvas.showPage()
        canvas.save()
