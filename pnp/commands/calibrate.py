"""A two-page calibration sheet: rulers to check 100 % printing, and crosshairs printed
on both sides at the same spot, to hold against the light and measure the back offset."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import black
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.base.output import atomic_path
from pnp.impose.paper import paper as paper_named
from pnp.impose.sheets import Flip
from pnp.write.pdf import DocInfo, new_canvas

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


def write_calibration(target: Path, paper: str, flip: Flip, font: str) -> None:
    width, height = paper_named(paper).size()
    points = [(width * fx, height * fy) for fx, fy in ((0.25, 0.3), (0.75, 0.3), (0.5, 0.55), (0.25, 0.8), (0.75, 0.8))]
    info = DocInfo("pnp calibration sheet", "pnp", f"{paper_named(paper).shown}, duplex {flip} edge", font, flip)
    with atomic_path(target) as tmp:
        canvas = new_canvas(tmp, (width, height), info)
        canvas.setLineWidth(0.5)
        canvas.setStrokeColor(black)
        canvas.setFont(font, 9)
        lines = [
            "Print this page double-sided at 100 % (actual size), not 'fit to page'.",
            "1. Measure the rulers: 100 mm must measure exactly 100 mm, or the printer scaled the page.",
            "2. Hold the sheet against the light: the crosshairs on the back should sit exactly behind these.",
            "   If the back ones are 1 mm to the right and 0.5 mm lower (seen from this side), build with",
            "   --back-offset -1,0.5 : the offset moves the backs right and up, as seen from the front.",
        ]
        for i, text in enumerate(lines):
            canvas.drawString(15 * mm, height - 15 * mm - i * 12, text)
        _ruler(canvas, (width - 100 * mm) / 2, 20 * mm, 100, vertical=False)
        _ruler(canvas, 15 * mm, (height - 100 * mm) / 2 - 20 * mm, 100, vertical=True)
        for x, y in points:
            _cross(canvas, x, y)
        canvas.showPage()
        canvas.setLineWidth(0.5)
        canvas.setFont(font, 9)
        canvas.drawString(15 * mm, height - 15 * mm, "Back of the calibration sheet: each crosshair should lie exactly behind one on the front.")
        for x, y in points:
            _cross(canvas, width - x, y) if flip == "long" else _cross(canvas, x, height - y)
        canvas.showPage()
        canvas.save()
