"""Cut files for cutting machines (`--cutter`): the outline of every component on a sheet
page of fronts, as SVG (Silhouette Studio, Cricut Design Space) and DXF (the machines'
other software), one pair of files per page, beside the PDF. The DXF files need ezdxf,
the `cutter` extra (`pip install "pnpkit[cutter]"`, from a checkout `pip install ".[cutter]"`); without it the SVG files are written
alone, and the build says so (`dxf_installed`).

The outlines are the page's `machine` cuts, the same `sheets.Cut`s the PDF's placements
were made with, so the cut file and the print cannot disagree. Units are millimetres on
the whole page: SVG from the page's top-left corner with y down (as SVG has it, and as
the cutter's software shows the page), DXF from its bottom-left corner with y up (as the
PDF). Registration marks are not in the files: the cutter's software draws its own, at
the same place when set as docs/sheets.md says; a mark in the file would be cut.
"""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

from reportlab.lib.units import mm

from pnp.impose.sheets import Cut, Page, SheetSpec

QUARTER_BULGE = math.tan(math.pi / 8)  # a DXF bulge that makes a quarter circle


DXF_EXTRA = 'pip install "pnpkit[cutter]" (or pip install ezdxf)'  # what installs ezdxf, which writes the DXF cut files; double quotes work in every shell


def dxf_installed() -> bool:
    """Whether ezdxf, which writes the DXF cut files, is installed (the `cutter` extra)."""
    try:
        import ezdxf  # noqa: F401  # only a build with --cutter asks
    except ImportError:
        return False
    return True


NAMES = re.compile(r".+-cut-\d+\.(svg|dxf)")  # every name cut_files gives (the watcher leaves them out)


def cut_files(target: Path, pages: list[Page], spec: SheetSpec, page_w: float, page_h: float) -> list[tuple[Path, bytes]]:
    """For each page with outlines, `NAME-cut-N.svg` and `NAME-cut-N.dxf` beside `target`
    (NAME.pdf), N its sheet number; the SVG files alone when ezdxf is not installed."""
    width = len(str(max(page.sheet for page in pages)))
    with_dxf = dxf_installed()
    out = []
    for page in pages:
        stem = f"{target.stem}-cut-{page.sheet:0{width}d}"
        title = f"{target.name}, sheet {page.sheet} ({spec.cutter})"
        out.append((target.with_name(stem + ".svg"), svg(page.machine, page_w, page_h, title).encode("utf-8")))
        if with_dxf:
            out.append((target.with_name(stem + ".dxf"), dxf(page.machine, page_w, page_h).encode("ascii")))
    return out


def _n(value: float) -> str:
    """A length in mm, to 0.0001 mm, without trailing zeros."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def svg(cuts: tuple[Cut, ...], page_w: float, page_h: float, title: str) -> str:
    """The outlines as an SVG of the page's size in mm, y down from the top-left corner."""
    w, h = page_w / mm, page_h / mm
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(w)}mm" height="{_n(h)}mm" viewBox="0 0 {_n(w)} {_n(h)}">',
        f"<title>pnp cut lines: {_escape(title)}</title>",
        "<!-- millimetres from the top-left corner of the page; print the PDF at 100 % -->",
        '<g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">',
    ]
    for cut in cuts:
        x, top, cw, ch = cut.x / mm, h - (cut.y + cut.h) / mm, cut.w / mm, cut.h / mm
        if cut.shape == "round":
            lines.append(f'<ellipse cx="{_n(x + cw / 2)}" cy="{_n(top + ch / 2)}" rx="{_n(cw / 2)}" ry="{_n(ch / 2)}"/>')
        elif cut.shape == "hex":
            points = " ".join(f"{_n(px / mm)},{_n(h - py / mm)}" for px, py in cut.points())
            lines.append(f'<polygon points="{points}"/>')
        else:
            r = f' rx="{_n(cut.radius / mm)}" ry="{_n(cut.radius / mm)}"' if cut.radius else ""
            lines.append(f'<rect x="{_n(x)}" y="{_n(top)}" width="{_n(cw)}" height="{_n(ch)}"{r}/>')
    lines += ["</g>", "</svg>", ""]
    return "\n".join(lines)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def dxf_outline(cut: Cut) -> list[tuple[float, float, float]] | tuple[float, ...]:
    """A cut in mm, y up: a circle (cx, cy, r), an axis-aligned ellipse (cx, cy, rx, ry),
    or a closed polyline of (x, y, bulge) vertices (a bulge makes the segment to the next
    vertex an arc)."""
    x, y, w, h = cut.x / mm, cut.y / mm, cut.w / mm, cut.h / mm
    if cut.shape == "round":
        if abs(w - h) < 1e-9:
            return x + w / 2, y + h / 2, w / 2
        return x + w / 2, y + h / 2, w / 2, h / 2
    if cut.shape == "hex":
        return [(px / mm, py / mm, 0.0) for px, py in reversed(cut.points())]  # counter-clockwise, as DXF draws
    r = cut.radius / mm
    if not r:
        return [(x, y, 0.0), (x + w, y, 0.0), (x + w, y + h, 0.0), (x, y + h, 0.0)]
    b = QUARTER_BULGE
    return [
        (x + r, y, 0.0),
        (x + w - r, y, b),
        (x + w, y + r, 0.0),
        (x + w, y + h - r, b),
        (x + w - r, y + h, 0.0),
        (x + r, y + h, b),
        (x, y + h - r, 0.0),
        (x, y + r, b),
    ]


def dxf(cuts: tuple[Cut, ...], page_w: float, page_h: float) -> str:
    """The outlines as DXF R2000, mm, y up from the page's bottom-left corner, on a layer
    CUT: the units declared ($INSUNITS 4, millimetres; R12 has no such field, and software
    guessed inches), the drawing's true extents ($EXTMIN, $EXTMAX: the outlines' box) and
    its limits (the page),
    so software that zooms or places by extents finds the cuts. Ellipses are ELLIPSE
    entities, rounded corners arcs of LWPOLYLINEs. ezdxf's fixed metadata keeps the same
    input giving the same bytes (it would write the time of writing)."""
    import ezdxf  # only a build with --cutter needs it

    ezdxf.options.write_fixed_meta_data_for_testing = True
    doc = ezdxf.new("R2000", units=4)  # 4: millimetres
    doc.header["$MEASUREMENT"] = 1  # metric
    doc.layers.add("CUT", color=1)
    msp = doc.modelspace()
    cut_layer = {"layer": "CUT"}
    for cut in cuts:
        outline = dxf_outline(cut)
        if isinstance(outline, list):
            msp.add_lwpolyline(outline, format="xyb", close=True, dxfattribs=cut_layer)
        elif len(outline) == 3:
            msp.add_circle(outline[:2], outline[2], dxfattribs=cut_layer)
        else:
            cx, cy, rx, ry = outline
            major, ratio = ((rx, 0, 0), ry / rx) if rx >= ry else ((0, ry, 0), rx / ry)
            msp.add_ellipse((cx, cy), major_axis=major, ratio=ratio, dxfattribs=cut_layer)
    msp.dxf.set("limmin", (0.0, 0.0))  # the drawing's area: the page
    msp.dxf.set("limmax", (page_w / mm, page_h / mm))
    if cuts:  # ezdxf writes the header's extents from the model space's
        msp.dxf.set("extmin", (min(c.x for c in cuts) / mm, min(c.y for c in cuts) / mm, 0.0))
        msp.dxf.set("extmax", (max(c.x + c.w for c in cuts) / mm, max(c.y + c.h for c in cuts) / mm, 0.0))
    stream = io.StringIO()
    doc.write(stream)
    return stream.getvalue()
