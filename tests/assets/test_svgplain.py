"""Plain SVG symbols (pnp/svgplain.py) are drawn without svglib, exactly as svglib draws
them; every other SVG is still svglib's, and broken ones are reported as before."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from reportlab.graphics import renderPDF
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from pnp.assets import svgplain
from pnp.assets.symbols import SymbolSet
from pnp.base.errors import Problems
from pnp.base.paths import CARDS_DIR
from pnp.pdf.canvas import write_code

ROOT = Path(__file__).resolve().parents[2]
SVG = '<svg xmlns="http://www.w3.org/2000/svg" {root}>{body}</svg>'
BOX = 'width="100" height="100" viewBox="0 0 100 100"'

# one feature a case, drawn over a filled background so that a shape drawn wrong shows
PLAIN = {
    "absolute path commands": '<path d="M10 10 L90 10 H80 V80 C70 90 60 90 50 80 S30 70 20 80 Q10 60 15 40 T10 20 Z" fill="#c33" stroke="#333" stroke-width="2"/>',
    "relative path commands": '<path d="m10 10 l80 0 h-10 v70 c-10 10 -20 10 -30 0 s-20 -10 -30 0 q-10 -20 -5 -40 t-5 -20 z" fill="#3c3" stroke="#000"/>',
    "compact numbers and repeats": '<path d="M10-.5.5 10L20,20-.5.5 1e1 1e-3l5.5.5zM50 50l1e1-5e0 3,3 20 20" fill="#33c" stroke="black"/>',
    "arcs": '<path d="M20 50 A30 20 0 0 1 80 50 A30 20 0 1 0 20 50 Z M30 30 a10 10 0 1 1 20 0 a5 15 45 0 0 -20 0" fill="#fa0" stroke="#000" fill-rule="evenodd"/>',
    "open filled path": '<path d="M10 10 L90 10 L50 90 M20 20 L30 20 L30 30" fill="#0a0" stroke="#000" stroke-width="2"/>',
    "circle, stroke only": '<circle cx="50" cy="50" r="40" fill="none" stroke="#123456" stroke-width="4"/>',
    "stroke width 0": '<circle cx="50" cy="50" r="40" fill="red" stroke="blue" stroke-width="0"/>',
    "ellipse, rgb()": '<ellipse cx="50" cy="50" rx="40" ry="20" fill="rgb(10,200,30)" stroke="rgb(50%,20%,0%)" stroke-width="2"/>',
    "rect": '<rect x="10" y="10" width="80" height="60" fill="#abc" stroke="#000" stroke-linejoin="bevel"/>',
    "rect, rx without ry": '<rect x="10" y="10" width="80" height="60" rx="10" fill="#abc"/>',
    "rect, ry beyond half": '<rect x="10" y="10" width="80" height="60" ry="45" fill="#abc" stroke="black"/>',
    "line caps": '<line x1="10" y1="10" x2="90" y2="90" stroke="#000" stroke-width="8" stroke-linecap="round"/>'
    '<line x1="10" y1="90" x2="90" y2="10" stroke="#f00" stroke-width="8" stroke-linecap="square"/>',
    "polyline, unfilled": '<polyline points="10,10 50,90 90,10" stroke="#000" stroke-width="3" stroke-linejoin="round"/>',
    "polyline, filled": '<polyline points="10,10 50,90 90,10" fill="#ff0" stroke="#000" stroke-width="3" transform="rotate(10)"/>',
    "polygon, even-odd": '<polygon points="50,5 80,95 5,35 95,35 20,95" fill="#f0f" fill-rule="evenodd" stroke-miterlimit="2"/>',
    "transforms": '<g transform="translate(50 50) rotate(30) scale(0.5,0.7)"><rect x="-40" y="-40" width="80" height="80" fill="#c00"/></g>'
    '<circle cx="20" cy="20" r="10" transform="matrix(1 0.2 0.3 1 5 5)"/><rect x="60" y="60" width="20" height="20" transform="skewX(20)" fill="blue"/>'
    '<rect x="60" y="10" width="20" height="20" transform="skewY(-20) translate(5)" fill="green"/>'
    '<ellipse cx="30" cy="70" rx="10" ry="5" transform="rotate(45 30 70)" fill="purple"/>',
    "inherited through groups": '<g fill="#0a0" stroke="#060" stroke-width="3"><g stroke-linejoin="round"><polygon points="10,10 90,10 50,80"/>'
    '<circle cx="50" cy="40" r="10" fill="white" stroke="inherit"/></g></g>',
    "style attribute": '<circle cx="50" cy="50" r="30" style="fill: #f80; stroke:#000 ;stroke-width:5" fill="blue"/>',
    "named colours, #rgb": '<circle cx="30" cy="30" r="20" fill="teal" stroke="gold"/><circle cx="70" cy="70" r="20" fill="#F80" stroke="#0aF"/>',
    "units": '<circle cx="10mm" cy="1in" r="20px" fill="#888"/><rect x="2pt" y="1pc" width="1cm" height="2em" fill="#444" stroke-width="1mm" stroke="red"/>',
    "title, desc, metadata": "<title>sun</title><desc>round</desc><metadata><x:y xmlns:x='urn:x'/></metadata>"
    '<circle cx="50" cy="50" r="40" fill="#fc0"><title>disc</title></circle>',
}
ROOTS = {
    "no viewBox": 'width="64" height="48"',
    "viewBox only": 'viewBox="0 0 50 80"',
    "viewBox offset, other aspect": 'width="100" height="50" viewBox="-10 -20 200 100"',
    "units, commas": 'width="20mm" height="1in" viewBox="0,0,10,10" fill="#393" version="1.1" id="s"',
}
ROOT_BODY = '<circle cx="12" cy="12" r="10" stroke="black"/><path d="M2 2h20v5z" fill="#09c"/>'
NOT_PLAIN = {
    "fill-opacity": '<circle cx="50" cy="50" r="40" fill="#c00" fill-opacity="0.5"/>',
    "gradient": '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient></defs>'
    '<rect width="100" height="100" fill="url(#g)"/>',
    "class and <style>": '<style>.a { fill: #0c0 }</style><circle class="a" cx="50" cy="50" r="40"/>',
    "dashes": '<circle cx="50" cy="50" r="40" fill="none" stroke="#000" stroke-width="4" stroke-dasharray="6 3"/>',
}


def _pixels(draw, width: float, height: float) -> Image.Image:
    """One page of the symbol's size, drawn by `draw(canvas)`, rasterised at 150 dpi."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(width, height))
    canvas.setFillColorRGB(0.9, 0.9, 0.7)
    canvas.rect(0, 0, width, height, stroke=0, fill=1)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return pdfium.PdfDocument(out.getvalue())[0].render(scale=150 / 72).to_pil().convert("RGB")


def _svglib_pixels(path: Path) -> Image.Image:
    drawing = svg2rlg(str(path))
    return _pixels(lambda canvas: renderPDF.draw(drawing, canvas, 0, 0), float(drawing.width), float(drawing.height))


@pytest.mark.parametrize("root, body", [(BOX, body) for body in PLAIN.values()] + [(root, ROOT_BODY) for root in ROOTS.values()], ids=list(PLAIN) + list(ROOTS))
def test_a_plain_svg_is_drawn_without_svglib_as_svglib_draws_it(tmp_path, root, body):
    path = tmp_path / "symbol.svg"
    path.write_text(SVG.format(root=root, body=body), encoding="utf-8")
    plain = svgplain.read(path.read_bytes())
    assert plain is not None, "outside the plain set"
    width, height, code = plain
    drawing = svg2rlg(str(path))
    assert (width, height) == (drawing.width, drawing.height)  # fitted into its box alike
    fast = _pixels(lambda canvas: write_code(canvas, code), width, height)
    assert ImageChops.difference(fast, _svglib_pixels(path)).getbbox() is None
    assert ImageChops.difference(fast, _pixels(lambda canvas: None, width, height)).getbbox() is not None  # something is drawn


def test_every_bundled_symbol_is_plain_and_drawn_as_svglib_draws_it():
    for path in sorted(CARDS_DIR.glob("*/symbols/*.svg")):
        plain = svgplain.read(path.read_bytes())
        assert plain is not None, path
        width, height, code = plain
        fast = _pixels(lambda canvas, code=code: write_code(canvas, code), width, height)
        assert ImageChops.difference(fast, _svglib_pixels(path)).getbbox() is None, path


@pytest.mark.parametrize("body", NOT_PLAIN.values(), ids=list(NOT_PLAIN))
def test_an_svg_outside_the_plain_set_is_still_drawn_by_svglib(tmp_path, body):
    path = tmp_path / "fancy.svg"
    path.write_text(SVG.format(root=BOX, body=body), encoding="utf-8")
    assert svgplain.read(path.read_bytes()) is None
    problems = Problems()
    symbols = SymbolSet({"fancy": path})
    symbol = symbols.get("fancy", problems)
    assert symbol is not None and symbol.drawing is not None and not problems.items  # svglib's drawing
    blank = _pixels(lambda canvas: None, symbol.width, symbol.height)
    drawn = _pixels(lambda canvas: symbols.draw(canvas, "fancy", 0, 0, symbol.width), symbol.width, symbol.height)
    assert ImageChops.difference(drawn, blank).getbbox() is not None


def test_a_symbol_is_read_from_the_safety_checks_parse_as_from_its_own(tmp_path):
    """symbols' check gives svgplain the elements of the one parse it makes: each symbol
    read so is the one svgplain.read's own parse gives (every bundled symbol, every case
    here, and the same cut short), and one that is not plain is svglib's or refused."""
    cases = [path.read_bytes() for path in sorted(CARDS_DIR.glob("*/symbols/*.svg"))]
    cases += [SVG.format(root=root, body=body).encode() for root in (BOX, *ROOTS.values()) for body in (*PLAIN.values(), *NOT_PLAIN.values(), ROOT_BODY)]
    cases += [data[: len(data) * 3 // 4] for data in cases]
    for i, data in enumerate(cases):
        path = tmp_path / f"{i}.svg"
        path.write_bytes(data)
        symbol = SymbolSet({"s": path}).get("s", Problems())
        plain = svgplain.read(data)
        if plain is not None:
            assert symbol is not None and symbol.drawing is None and (symbol.width, symbol.height, symbol.code) == plain, data
        else:
            assert symbol is None or symbol.drawing is not None, data


BROKEN = {
    "a command short of numbers": ('<path d="M1 2 L3 4 5"/>', ["symbol-svg", "symbol-unreadable"]),
    "numbers after a close": ('<path d="M1 2 L3 4 Z 5 6"/>', ["symbol-svg", "symbol-unreadable"]),
    "a colour svglib cannot read": ('<circle r="3" fill="#12"/>', ["symbol-svg"]),
    "a percentage svglib cannot place": ('<circle r="50%"/>', ["symbol-svg"]),
    "an unknown element": ("<blink/><circle r='3'/>", []),
    "junk between numbers": ('<path d="M1 2 L3 x 4"/>', []),
    "no size": ('<circle r="3"/>', ["symbol-unreadable"]),
}


@pytest.mark.parametrize("body, codes", BROKEN.values(), ids=list(BROKEN))
def test_broken_svg_is_left_to_svglib_and_reported_as_before(tmp_path, body, codes):
    """Whatever the plain reader does not understand is svglib's: its drawing or its error."""
    path = tmp_path / "broken.svg"
    path.write_text(SVG.format(root='width="10" height="10"' if codes != ["symbol-unreadable"] else "", body=body), encoding="utf-8")
    assert svgplain.read(path.read_bytes()) is None
    problems = Problems()
    symbol = SymbolSet({"broken": path}).get("broken", problems)
    assert [p.code for p in problems.items] == codes
    assert (symbol is None) == ("symbol-unreadable" in codes)
    if symbol is not None:
        assert symbol.drawing is not None  # svglib's


def _imports_after_build(game: Path, out: Path) -> str:
    script = f"import sys\nfrom pnp.cli import main\ntry:\n    main(['-q', 'build', {str(game)!r}, '--out', {str(out)!r}])\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
    script += "print(sorted(m for m in ('svglib', 'lxml', 'reportlab.graphics.shapes') if m in sys.modules))"
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def test_a_game_whose_symbols_are_plain_is_built_without_importing_svglib(tmp_path):
    game = tmp_path / "ages"
    shutil.copytree(CARDS_DIR / "ages", game)
    assert _imports_after_build(game, tmp_path / "out").endswith("[]")
    (game / "symbols" / "ore.svg").write_text(SVG.format(root=BOX, body=NOT_PLAIN["fill-opacity"]), encoding="utf-8")
    assert _imports_after_build(game, tmp_path / "out").endswith("['lxml', 'reportlab.graphics.shapes', 'svglib']")


def test_without_the_svg_extra_a_symbol_only_svglib_reads_is_a_located_error_and_plain_ones_build(tmp_path):
    """svglib is the `svg` extra: without it the bundled games (plain symbols) build, and a
    symbol pnp's own reader does not draw is an error at its file that says what installs it."""
    game = tmp_path / "ages"
    shutil.copytree(CARDS_DIR / "ages", game)
    hide = "import sys\nsys.modules['svglib'] = sys.modules['svglib.svglib'] = None\n"
    build = f"from pnp.cli import main\nmain(['build', {str(game)!r}, '--out', {str(tmp_path / 'out')!r}])\n"
    plain = subprocess.run([sys.executable, "-c", hide + build], cwd=ROOT, capture_output=True, text=True)
    assert plain.returncode == 0, plain.stderr
    (game / "symbols" / "ore.svg").write_text(SVG.format(root=BOX, body=NOT_PLAIN["fill-opacity"]), encoding="utf-8")
    needs = subprocess.run([sys.executable, "-c", hide + build], cwd=ROOT, capture_output=True, text=True)
    assert needs.returncode == 1
    assert (
        f"{game / 'symbols' / 'ore.svg'}: this SVG uses what pnp's own reader does not draw (opacity, CSS, gradients, text, ...) and svglib, "
        'which reads it, is not installed; expected pip install "pnpkit[svg]" (or pip install svglib), or the symbol saved as plain shapes '
        "and paths in solid colours [symbol-needs-svglib]"
    ) in needs.stdout + needs.stderr
