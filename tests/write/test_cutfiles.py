"""Cutting machines (--cutter), read from what was written: the registration marks where
the machine looks for them, no crop marks, and cut files (SVG and DXF) whose every
outline lies on a card's trim box in the PDF to 0.05 mm; and every sheet page's TrimBox
and BleedBox."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import ezdxf
import pytest
from conftest import run
from makers import fold_game
from pdfread import MM, card_boxes, marks, operations, reader

SVG = "{http://www.w3.org/2000/svg}"


def filled_rects(page) -> list[tuple[float, float, float, float]]:
    """Rectangles filled on the page itself (outside any card): (left, bottom, right, top)."""
    found, depth, last = [], 0, None
    for operands, op in operations(page):
        if op == b"q":
            depth += 1
        elif op == b"Q":
            depth -= 1
        elif depth == 0 and op == b"re":
            last = [float(v) for v in operands]
        elif depth == 0 and op in (b"f", b"f*") and last:
            x, y, w, h = last
            found.append((x, y, x + w, y + h))
            last = None
    return found


def svg_outlines(path: Path, page_h: float) -> list[tuple[str, tuple[float, float, float, float], float]]:
    """(kind, (left, bottom, right, top) in PDF points, corner radius in mm) of each outline."""
    root = ET.parse(path).getroot()
    assert root.get("viewBox") == f"0 0 {root.get('width')[:-2]} {root.get('height')[:-2]}"
    out = []
    for el in root.iter():
        tag = el.tag.removeprefix(SVG)
        if tag == "rect":
            x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
            out.append(("rect", (x * MM, page_h - (y + h) * MM, (x + w) * MM, page_h - y * MM), float(el.get("rx", 0))))
        elif tag == "ellipse":
            cx, cy, rx, ry = (float(el.get(k)) for k in ("cx", "cy", "rx", "ry"))
            out.append(("round", ((cx - rx) * MM, page_h - (cy + ry) * MM, (cx + rx) * MM, page_h - (cy - ry) * MM), 0.0))
    return out


def dxf_outlines(path: Path) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The outlines of a DXF cut file, each with its box in points; the file must declare
    millimetres and extents that are the outlines' box."""
    doc = ezdxf.readfile(path)
    assert doc.dxfversion >= "AC1015", "R2000 or later: R12 cannot say its units"
    assert doc.header["$INSUNITS"] == 4 and doc.header["$MEASUREMENT"] == 1, "millimetres"
    out = []
    for entity in doc.modelspace():
        if entity.dxftype() == "CIRCLE":
            (cx, cy, _), r = entity.dxf.center, entity.dxf.radius
            out.append(("round", ((cx - r) * MM, (cy - r) * MM, (cx + r) * MM, (cy + r) * MM)))
        elif entity.dxftype() == "ELLIPSE":
            (cx, cy, _), (mx, my, _), ratio = entity.dxf.center, entity.dxf.major_axis, entity.dxf.ratio
            rx, ry = (abs(mx), abs(mx) * ratio) if mx else (abs(my) * ratio, abs(my))
            out.append(("round", ((cx - rx) * MM, (cy - ry) * MM, (cx + rx) * MM, (cy + ry) * MM)))
        elif entity.dxftype() == "LWPOLYLINE":
            xs, ys = zip(*((x, y) for x, y, *_ in entity.get_points("xy")))
            out.append(("rect", (min(xs) * MM, min(ys) * MM, max(xs) * MM, max(ys) * MM)))
        else:
            raise AssertionError(f"unexpected {entity.dxftype()} in a cut file")
    if out:
        low, high = doc.header["$EXTMIN"], doc.header["$EXTMAX"]
        box = [min(b[0] for _, b in out), min(b[1] for _, b in out), max(b[2] for _, b in out), max(b[3] for _, b in out)]
        assert near((low[0] * MM, low[1] * MM, high[0] * MM, high[1] * MM), box), "the extents are the outlines' box"
    return out


def near(a, b) -> bool:
    return all(abs(p - q) < 0.05 * MM for p, q in zip(a, b))


@pytest.mark.parametrize("cutter", ["silhouette", "cricut"])
def test_cut_files_hold_every_card_outline_of_the_pdf(tmp_path, cutter):
    out = tmp_path / "out"
    result = run("build", fold_game(tmp_path, 63, 88, 11), "--out", out, "--cutter", cutter, "--bleed", "1")
    assert result.exit_code == 0, result.output
    assert "cut files for the cutting machine" in result.output
    folder = out / "hra"
    pdf = reader(folder / f"cards-sk-a4-{cutter}.pdf")
    fronts = [page for i, page in enumerate(pdf.pages) if i % 2 == 0]
    assert len(fronts) == len(list(folder.glob("*.svg"))) == len(list(folder.glob("*.dxf"))) > 1
    for number, page in enumerate(fronts, 1):
        page_w, page_h = float(page.mediabox.width), float(page.mediabox.height)
        assert not marks(page), "no crop marks: the machine cuts"
        trims = [(x + MM, y + MM, x + w - MM, y + h - MM) for x, y, w, h in card_boxes(page)]
        svg = svg_outlines(folder / f"cards-sk-a4-{cutter}-cut-{number}.svg", page_h)
        dxf = dxf_outlines(folder / f"cards-sk-a4-{cutter}-cut-{number}.dxf")
        assert len(svg) == len(dxf) == len(trims) > 0
        for trim in trims:
            assert [kind for kind, box, radius in svg if near(box, trim) and radius == 3] == ["rect"]
            assert [kind for kind, box in dxf if near(box, trim)] == ["rect"]
        bars = filled_rects(page)
        if cutter == "silhouette":
            assert_silhouette_marks(page, bars, 10)
        else:  # everything inside Design Space's 6.75 x 9.25 in, centred; a black border around it
            left, bottom = (page_w - 6.75 * 72) / 2, (page_h - 9.25 * 72) / 2
            for x, y, w, h in card_boxes(page):
                assert x >= left - 0.01 and x + w <= page_w - left + 0.01 and y >= bottom - 0.01 and y + h <= page_h - bottom + 0.01
            assert len(bars) == 4 and min(b[0] for b in bars) < left and max(b[2] for b in bars) > page_w - left
    assert not filled_rects(pdf.pages[1]), "the backs carry no registration"


def assert_silhouette_marks(page, bars, inset: float) -> None:
    """Silhouette Studio's Type 1 marks as the reference draws them: 1 mm lines centred on
    the inset with square caps (ink from inset - 0.5 mm), the arms 5 mm long; a square
    top left whose 1 mm edge is centred on the inset (ink inset - 0.5 to inset + 5.5);
    within 0.05 mm. The cards keep inside the inset and 1 mm clear of the marks."""
    page_w, page_h = float(page.mediabox.width), float(page.mediabox.height)
    a, b = (inset - 0.5) * MM, (inset + 5.5) * MM  # the ink from the edge: outer and inner
    square = (a, page_h - b, b, page_h - a)
    expected = [
        square,
        (page_w - b, page_h - (inset + 0.5) * MM, page_w - a, page_h - a),  # top right: the arm running left
        (page_w - (inset + 0.5) * MM, page_h - b, page_w - a, page_h - a),  # and the arm running down
        (a, a, b, (inset + 0.5) * MM),  # bottom left: right
        (a, a, (inset + 0.5) * MM, b),  # and up
    ]
    for box in expected:
        assert any(all(abs(p - q) <= 0.05 * MM for p, q in zip(bar, box)) for bar in bars), (box, bars)
    keep_out = [(x - MM, y - MM, x2 + MM, y2 + MM) for x, y, x2, y2 in (square, (page_w - b, page_h - b, page_w - a, page_h - a), (a, a, b, b))]
    for x, y, w, h in card_boxes(page):
        assert x >= inset * MM and x + w <= page_w - inset * MM and y >= inset * MM and y + h <= page_h - inset * MM
        assert not any(x < c[2] and c[0] < x + w and y < c[3] and c[1] < y + h for c in keep_out)


@pytest.mark.parametrize("inset", [15.875, 5])
def test_the_mark_inset_moves_silhouettes_marks_and_the_cards_inside(tmp_path, inset):
    """--mark-inset: for the Auto Sheet Feeder's 0.625 in, or a printer that prints close to the edge."""
    out = tmp_path / "out"
    result = run("build", fold_game(tmp_path, 63, 88, 11), "--out", out, "--cutter", "silhouette", "--mark-inset", str(inset))
    assert result.exit_code == 0, result.output
    page = reader(out / "hra" / "cards-sk-a4-silhouette.pdf").pages[0]
    assert_silhouette_marks(page, filled_rects(page), inset)


def test_the_mark_inset_is_for_silhouette(tmp_path):
    result = run("build", fold_game(tmp_path, 63, 88, 2), "--out", tmp_path / "out", "--cutter", "cricut", "--mark-inset", "12")
    assert result.exit_code == 2
    assert "--mark-inset places Silhouette's registration marks; expected it with --cutter silhouette" in result.output


@pytest.mark.parametrize(("w", "h"), [(30, 30), (40, 25)])
def test_round_tokens_are_cut_as_circles_and_ellipses(tmp_path, w, h):
    folder = fold_game(tmp_path, w, h, 5)
    for name in ("front.yaml", "back.yaml"):
        layout = folder / "layouts" / name
        layout.write_text(layout.read_text(encoding="utf-8").replace(f"size: [{w}, {h}]", f"size: [{w}, {h}]\nshape: round"), encoding="utf-8")
    out = tmp_path / "out"
    result = run("build", folder, "--out", out, "--cutter", "silhouette")
    assert result.exit_code == 0, result.output
    page = reader(out / "hra" / "cards-sk-a4-silhouette.pdf").pages[0]
    trims = card_boxes(page)
    svg = svg_outlines(out / "hra" / "cards-sk-a4-silhouette-cut-1.svg", float(page.mediabox.height))
    dxf = dxf_outlines(out / "hra" / "cards-sk-a4-silhouette-cut-1.dxf")
    for x, y, w, h in trims:
        assert [kind for kind, box, _ in svg if near(box, (x, y, x + w, y + h))] == ["round"]
        assert [kind for kind, box in dxf if near(box, (x, y, x + w, y + h))] == ["round"]


def test_cut_files_are_the_same_bytes_every_time(tmp_path):
    folder = fold_game(tmp_path, 63, 88, 3)
    for out in ("a", "b"):
        assert run("build", folder, "--out", tmp_path / out, "--cutter", "silhouette").exit_code == 0
    for suffix in ("svg", "dxf"):
        first, second = (tmp_path / out / "hra" / f"cards-sk-a4-silhouette-cut-1.{suffix}" for out in ("a", "b"))
        assert first.read_bytes() == second.read_bytes()


def test_without_ezdxf_the_svg_cut_files_are_written_and_one_warning_line_says_what_installs_the_dxf_ones(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ezdxf", None)  # `import ezdxf` fails, as when the cutter extra is not installed
    out = tmp_path / "out"
    result = run("build", fold_game(tmp_path, 63, 88, 11), "--out", out, "--cutter", "silhouette")
    assert result.exit_code == 0, result.output
    folder = out / "hra"
    assert len(list(folder.glob("*.svg"))) > 1
    assert not list(folder.glob("*.dxf"))
    assert "cut files for the cutting machine, one per sheet of fronts (SVG) in" in result.output
    lines = [line for line in result.output.splitlines() if "DXF" in line]
    assert lines == [
        'warning: no DXF cut files were written, only SVG: ezdxf is not installed; pip install "pnpkit[cutter]" (or pip install ezdxf) installs it [cutter-dxf]'
    ]


def test_with_ezdxf_no_warning_is_given(tmp_path):
    result = run("build", fold_game(tmp_path, 63, 88, 3), "--out", tmp_path / "out", "--cutter", "cricut")
    assert result.exit_code == 0, result.output
    assert "(SVG, and DXF beside each)" in result.output and "[cutter-dxf]" not in result.output


@pytest.mark.parametrize("sides", ["duplex", "fold"])
def test_every_sheet_page_declares_its_trim_and_bleed(tmp_path, sides):
    out = tmp_path / "out"
    result = run("build", fold_game(tmp_path, 63, 88, 11), "--out", out, "--bleed", "2", "--sides", sides)
    assert result.exit_code == 0, result.output
    suffix = "" if sides == "duplex" else "-fold"
    for page in reader(out / "hra" / f"cards-sk-a4{suffix}.pdf").pages:
        boxes = card_boxes(page)
        art = (min(x for x, _, _, _ in boxes), min(y for _, y, _, _ in boxes), max(x + w for x, _, w, _ in boxes), max(y + h for _, y, _, h in boxes))
        trim = (art[0] + 2 * MM, art[1] + 2 * MM, art[2] - 2 * MM, art[3] - 2 * MM)
        assert near([float(v) for v in page.bleedbox], art)
        assert near([float(v) for v in page.trimbox], trim)


def test_a_board_too_large_for_the_machine_but_not_for_the_paper_is_printed_whole(tmp_path):
    """270 x 180 mm fits A4 turned (inside the 5 mm margin) but not inside Silhouette's
    marks: one page per board with crop marks, to cut by hand; no assembly page, no pieces."""
    out = tmp_path / "out"
    result = run("build", fold_game(tmp_path, 270, 180, 2), "--out", out, "--cutter", "silhouette")
    assert result.exit_code == 0, result.output
    assert "deck 'cards' (270 x 180 mm) does not fit Silhouette's cutting area; it is printed whole with crop marks, to cut by hand" in result.output
    pdf = reader(out / "hra" / "cards-sk-a4-silhouette.pdf")
    assert len(pdf.pages) == 4  # two boards, each with its back behind it
    boxes = card_boxes(pdf.pages[0])
    assert len(boxes) == 1 and abs(boxes[0][2] - 270 * MM) < 0.01 and abs(boxes[0][3] - 180 * MM) < 0.01
    assert marks(pdf.pages[0]), "crop marks: cut by hand"
    assert not list((out / "hra").glob("*-cut-*")), "nothing for the machine to cut"
