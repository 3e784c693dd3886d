"""What a designer reaches for beyond shapes and text: any element turned (`rotate:`),
translucent (`opacity:`), a shape filled with a gradient, a one-colour symbol recoloured
per card (`tint:`) and a QR code, read back from the PDF as a viewer draws them; and the
mistakes in them, each an error at its line."""

from __future__ import annotations

from pathlib import Path

import pdfread
import pytest
from conftest import line_of, run
from pypdf.generic import ContentStream

GAME = """\
title: Hra
language: en
symbols: symbols
decks:
  cards: {type: card, data: cards.yaml, front: front, back: back}
"""
RULES = """\
enums:
  empire:
    red: {name: Red, colour: "#b03a2e"}
    blue: {name: Blue, colour: "#2e5fa8"}
    odd: {name: Odd, colour: "purplish"}
types:
  card:
    fields:
      title: {type: text}
      empire: {type: enum, enum: empire, required: false}
      url: {type: text, required: false}
"""
CARDS = """\
- {id: a, title: Alpha, empire: red, url: "https://example.org/a"}
- {id: b, title: Beta, empire: blue, url: "https://example.org/b"}
"""
BACK = """\
size: [63, 88]
elements:
  - rect: [-3, -3, 69, 94]
    fill: BACK_FILL
"""
CROWN = """\
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
  <polygon points="10,80 14,30 32,55 50,20 68,55 86,30 90,80" fill="#333333"/>
</svg>
"""


def make_game(folder: Path, front: str, back_fill: str = '"#eeeeee"', cards: str = CARDS) -> Path:
    """A two-card game whose front layout is `front` (elements under `elements:`)."""
    (folder / "layouts").mkdir(parents=True)
    (folder / "symbols").mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "rules.yaml").write_text(RULES, encoding="utf-8")
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    (folder / "symbols" / "crown.svg").write_text(CROWN, encoding="utf-8")
    (folder / "layouts" / "front.yaml").write_text("size: [63, 88]\nelements:\n" + front, encoding="utf-8")
    (folder / "layouts" / "back.yaml").write_text(BACK.replace("BACK_FILL", back_fill), encoding="utf-8")
    return folder


def build(game: Path, out: Path) -> Path:
    result = run("build", game, "--out", out)
    assert result.exit_code == 0, result.output
    return out / game.name / "cards-en-a4.pdf"


def fails(game: Path) -> str:
    result = run("check", game)
    assert result.exit_code != 0, result.output
    return result.output


def test_a_rotated_text_is_drawn_turned_about_its_box_and_the_rest_upright(tmp_path: Path):
    game = make_game(
        tmp_path / "hra",
        '  - text: "{{ title }} up"\n    box: [-10, 40, 50, 6]\n    rotate: 90\n  - text: "{{ title }} flat"\n    box: [5, 5, 50, 6]\n'
        '  - text: "{{ title }} tilted"\n    box: [5, 60, 50, 6]\n    rotate: {angle: -30, about: [5, 60]}\n',
    )
    page = pdfread.sheet_pages(build(game, tmp_path / "out"))[0]
    angles = {run: angle for run, angle in pdfread.text_angles(page).items() if "Alpha" in run}
    assert angles == {"Alpha up": 90.0, "Alpha flat": 0.0, "Alpha tilted": -30.0}
    # turned about the box's centre [15, 43] mm: the text now runs up the card's left edge
    (x, y), (fx, _) = [(px, py) for run, px, py in pdfread.placed_text(page) if run in ("Alpha up", "Alpha flat")]
    card_left = pdfread.card_boxes(page)[0][0]
    assert abs(x - card_left - 15 * pdfread.MM) < 3 * pdfread.MM  # near the centre's x, as far as the line is high
    assert fx - card_left == pytest.approx(5 * pdfread.MM, abs=0.5)


def test_a_card_with_two_heads_turns_its_second_about_the_card_and_named_points_are_the_boxs(tmp_path: Path):
    """`about: card` turns about the face's middle: the same box, turned 180 degrees, heads
    the other end upside down. A named point of the box turns as the same point given in mm."""
    named = {"top-left": "[20, 40]", "bottom-right": "[50, 46]", "top": "[35, 40]", "centre": "[35, 43]"}
    front = (
        '  - text: "{{ title }} head"\n    box: [5, 5, 53, 6]\n  - text: "{{ title }} tail"\n    box: [5, 5, 53, 6]\n    rotate: {angle: 180, about: card}\n'
    )
    for i, (name, point) in enumerate(named.items()):
        front += f'  - text: "{{{{ title }}}} {i}"\n    box: [20, 40, 30, 6]\n    rotate: {{angle: 70, about: {name}}}\n'
        front += f'  - text: "{{{{ title }}}} {i}m"\n    box: [20, 40, 30, 6]\n    rotate: {{angle: 70, about: {point}}}\n'
    page = pdfread.sheet_pages(build(make_game(tmp_path / "hra", front), tmp_path / "out"))[0]
    placed = {run: (x, y) for run, x, y in pdfread.placed_text(page) if run.startswith("Alpha")}
    angles = pdfread.text_angles(page)
    left, bottom, width, height = pdfread.card_boxes(page)[0]
    (hx, hy), (tx, ty) = placed["Alpha head"], placed["Alpha tail"]
    assert (angles["Alpha head"], abs(angles["Alpha tail"])) == (0.0, 180.0)
    assert (hx + tx, hy + ty) == pytest.approx((2 * left + width, 2 * bottom + height), abs=0.05)  # mirrored through the card's middle
    for i, name in enumerate(named):
        assert placed[f"Alpha {i}"] == pytest.approx(placed[f"Alpha {i}m"], abs=0.01), name
    assert placed["Alpha 0"] != pytest.approx(placed["Alpha 1"], abs=1)  # top-left and bottom-right: different turns


def test_opacity_is_an_alpha_graphics_state_for_fills_and_strokes(tmp_path: Path):
    game = make_game(
        tmp_path / "hra",
        '  - circle: [30, 40, 10]\n    fill: "#b03a2e"\n    stroke: "#000000"\n    opacity: 0.4\n  - symbol: crown\n    box: [5, 5, 10, 10]\n    opacity: 0.5\n',
    )
    page = pdfread.sheet_pages(build(game, tmp_path / "out"))[0]
    states = pdfread.resources_of(page, "/ExtGState")
    alphas = {(key, float(value)) for state in states.values() for key, value in state.items() if key in ("/ca", "/CA")}
    assert {("/ca", 0.4), ("/CA", 0.4), ("/ca", 0.5), ("/CA", 0.5)} <= alphas
    used = [operands[0] for operands, op, _, _ in pdfread.drawn_ops(page) if op == b"gs"]
    assert any(states[name].get("/ca") == 0.4 for name in used) and any(states[name].get("/ca") == 0.5 for name in used)


def test_gradients_are_shadings_clipped_to_the_shape_also_in_a_repeated_face(tmp_path: Path):
    game = make_game(
        tmp_path / "hra",
        "  - rect: [5, 5, 53, 30]\n    fill: {linear: [[5, 5], [58, 35]], stops: ['#ffffff', '#e8c547', '#b03a2e']}\n"
        "  - circle: [31, 60, 12]\n    fill: {radial: [[31, 60], 12], stops: ['#ffffff', '#2e5fa8']}\n",
        back_fill="{radial: [[31, 44], 40], stops: ['#ffffff', '#333333']}",
    )
    pages = pdfread.sheet_pages(build(game, tmp_path / "out"))
    shadings = pdfread.resources_of(pages[0], "/Shading")
    assert {int(s["/ShadingType"]) for s in shadings.values()} == {2, 3}  # axial (linear) and radial
    ops = [op for _, op, _, _ in pdfread.drawn_ops(pages[0])]
    assert ops.count(b"sh") == 4 and ops.count(b"W*") >= 4  # two cards' two gradients, each painted through its clip
    # the backs are one face, drawn twice: a form, whose resources name its shading
    assert {int(s["/ShadingType"]) for s in pdfread.resources_of(pages[1], "/Shading").values()} == {3}
    back_form = next(resources for operands, op, _, resources in pdfread.drawn_ops(pages[1]) if op == b"sh")
    assert "/Shading" in back_form


RED_TO_BLUE = "{linear: [[5, 0], [58, 0]], stops: ['#ff0000', '#0000ff']}"  # across the card, left to right
STROKED = (
    "  - rect: [5, 5, 53, 30]\n    stroke: PAINT\n    stroke_width: 6\n"
    "  - text: GRADIENT\n    box: [5, 45, 53, 12]\n    size: 26\n    font: sans-bold\n    align: center\n    color: PAINT\n"
    "  - polygon: [[10, 65], [30, 84], [50, 65]]\n    stroke: PAINT\n    stroke_width: 4\n    dash: [8, 4]\n"
    "  - circle: [50, 75, 7]\n    stroke: PAINT\n    stroke_width: 3\n"
    "  - line: [5, 62, 58, 62]\n    stroke: PAINT\n    stroke_width: 2\n    dash: [6, 3]\n"
)


def _stroked_game(folder: Path, paint: str, rtl: bool = False) -> Path:
    """A game whose fronts have a stroked rectangle, a text, a dashed triangle, a circle and
    a dashed line, all in `paint`; `rtl`: its language written right to left (mirrored)."""
    game = make_game(folder, STROKED.replace("PAINT", paint))
    if rtl:
        with (game / "game.yaml").open("a", encoding="utf-8") as f:
            f.write("direction:\n  en: rtl\n")
    return game


def _shadings(page) -> list[dict]:
    """Each shading painted on the page's first card (`sh`), in points from the card's
    bottom left: its kind, its colours, its coordinates, what it is painted through: a text
    set as a clip ('text') or a path ('W' nonzero, 'W*' even-odd) and the path's bounds."""
    left, bottom = pdfread.card_boxes(page)[0][:2]
    found, path, clip, text_clip = [], [], None, False
    for operands, op, (a, b, c, d, e, f), resources in pdfread.drawn_ops(page):
        if op in (b"m", b"l"):
            x, y = (float(v) for v in operands)
            path.append((a * x + c * y + e - left, b * x + d * y + f - bottom))
        elif op in (b"W", b"W*"):
            clip, text_clip = (op.decode(), path), False
        elif op == b"n":
            path = []
        elif op == b"Tr":
            text_clip = int(operands[0]) == 7
        elif op == b"sh":
            shading = resources["/Shading"][operands[0]].get_object()
            function = shading["/Function"].get_object()
            assert int(shading["/ShadingType"]) == 2  # axial: x0 y0 x1 y1 (these cards are upright: a is 1, b and c 0)
            x0, _, x1, _ = (a * float(v) + e - left for v in shading["/Coords"])
            through = "text" if text_clip else clip[0]
            xs, ys = [x for x, _ in clip[1]], [y for _, y in clip[1]]
            bounds = None if text_clip else (min(xs), min(ys), max(xs), max(ys))
            colours = [tuple(float(v) for v in function[k]) for k in ("/C0", "/C1")]
            found.append({"through": through, "bounds": bounds, "colours": colours, "x": (round(x0 / pdfread.MM, 2), round(x1 / pdfread.MM, 2))})
    return [s for s in found if 0 <= min(s["x"]) and max(s["x"]) <= 63]  # the other card's are further right


@pytest.mark.parametrize("rtl", [False, True])
def test_a_gradient_stroke_and_text_colour_are_shadings_through_the_stroke_and_the_glyphs(tmp_path: Path, rtl: bool):
    """A stroke's gradient is painted through the area the stroke covers (a nonzero clip:
    the rectangle's band, 3 pt either side of its edges), a text's through its glyphs (a
    text clip, render mode 7), each with its stops' colours from 5 to 58 mm across the card;
    mirrored (right to left), from 58 to 5 mm."""
    page = pdfread.sheet_pages(build(_stroked_game(tmp_path / "hra", RED_TO_BLUE, rtl), tmp_path / "out"))[0]
    shadings = _shadings(page)
    ends = (58.0, 5.0) if rtl else (5.0, 58.0)
    red, blue = (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)
    assert all(s["colours"] == [red, blue] and s["x"] == ends for s in shadings), shadings
    assert [s["through"] for s in shadings] == ["W", "text", "W", "W", "W"]  # rect, text, triangle, circle, line
    half = 3.0  # points: half the rectangle's stroke
    x, y = 5 * pdfread.MM - half, (88 - 35) * pdfread.MM - half
    assert shadings[0]["bounds"] == pytest.approx((x, y, x + 53 * pdfread.MM + 2 * half, y + 30 * pdfread.MM + 2 * half), abs=0.01)
    assert "GRADIENT" in page.extract_text()  # a text painted through still reads


def _render(pdf: Path, scale: float = 4.0):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    image = document[0].render(scale=scale).to_pil().convert("RGB")
    height = document[0].get_height()
    document.close()
    return image, height


def _card_pixel(image, height: float, card: tuple[float, float], x_mm: float, y_mm: float, scale: float = 4.0) -> tuple[int, int, int]:
    """The pixel at x, y mm from the top left of a card whose bottom-left corner is `card` (pt)."""
    left, bottom = card
    return image.getpixel((round((left + x_mm * pdfread.MM) * scale), round((height - bottom - (88 - y_mm) * pdfread.MM) * scale)))


def _card_box(card: tuple[float, float], height: float, scale: float = 4.0) -> tuple[int, int, int, int]:
    """The pixels (left, top, right, bottom) of a 63 x 88 mm card whose bottom-left corner is `card` (pt)."""
    return (
        round(card[0] * scale),
        round((height - card[1] - 88 * pdfread.MM) * scale),
        round((card[0] + 63 * pdfread.MM) * scale),
        round((height - card[1]) * scale),
    )


def _ink(image, box: tuple[int, int, int, int]) -> set[tuple[int, int]]:
    """The pixels in `box` that are not paper white."""
    pixels = image.load()
    return {(x, y) for x in range(box[0], box[2]) for y in range(box[1], box[3]) if sum(pixels[x, y]) < 720}


@pytest.mark.parametrize("rtl", [False, True])
def test_a_gradient_stroke_and_text_render_in_their_end_colours_exactly_where_a_plain_one_paints(tmp_path: Path, rtl: bool):
    """Rendered (pdfium): the rectangle's stroke is red at its left end and blue at its right
    (mirrored: the other way round), and so are the text's first and last letters; and the
    gradient paints exactly the pixels the same strokes and text in plain black paint
    (mitred corners, dashes, the circle), nothing off them."""
    pdf = build(_stroked_game(tmp_path / "hra", RED_TO_BLUE, rtl), tmp_path / "out")
    image, height = _render(pdf)
    card = pdfread.card_boxes(pdfread.sheet_pages(pdf)[0])[0][:2]
    left, right = _card_pixel(image, height, card, 5, 20), _card_pixel(image, height, card, 58, 20)
    if rtl:
        left, right = right, left
    assert left[0] > 200 and left[2] < 60 and right[2] > 200 and right[0] < 60, (left, right)
    assert _card_pixel(image, height, card, 31, 20) == (255, 255, 255)  # inside the rectangle
    assert _card_pixel(image, height, card, 3.5, 20) == (255, 255, 255)  # beside it: 1.5 mm out, the stroke reaches 1.06
    scale = 4.0
    box = _card_box(card, height, scale)
    ink = _ink(image, box)
    text = sorted((x, y) for x, y in ink if (height - card[1] - (88 - 45) * pdfread.MM) * scale < y < (height - card[1] - (88 - 57) * pdfread.MM) * scale)
    pixels = image.load()
    x0, x1 = text[0][0], text[-1][0]
    first = min((pixels[p] for p in text if p[0] < x0 + 0.15 * (x1 - x0)), key=sum)  # the darkest, not an anti-aliased edge
    last = min((pixels[p] for p in text if p[0] > x1 - 0.15 * (x1 - x0)), key=sum)
    if rtl:
        first, last = last, first
    assert first[0] > first[2] + 100 and last[2] > last[0] + 100, (first, last)  # reddish, bluish
    plain = build(_stroked_game(tmp_path / "plain", '"#000000"', rtl), tmp_path / "plain-out")
    plain_ink = _ink(_render(plain)[0], box)
    assert len(ink ^ plain_ink) < 0.01 * len(plain_ink), (len(ink ^ plain_ink), len(plain_ink))  # anti-aliased edges alone


def test_an_exported_png_has_the_gradient_stroke_and_text(tmp_path: Path):
    from PIL import Image

    game = _stroked_game(tmp_path / "hra", RED_TO_BLUE)
    result = run("export", "png", game, "--out", tmp_path / "out", "--dpi", 150)
    assert result.exit_code == 0, result.output
    with Image.open(tmp_path / "out" / "hra" / "png-en" / "cards" / "a-front.png") as image:
        rgb = image.convert("RGB")
    pixels = rgb.load()
    at = [pixels[round(x / 25.4 * 150), round(y / 25.4 * 150)] for x, y in ((5, 20), (58, 20), (31, 20))]  # mm from the top left
    left, right, inside = at
    assert left[0] > 200 and left[2] < 60 and right[2] > 200 and right[0] < 60 and inside == (255, 255, 255), at
    rows = range(round(45 / 25.4 * 150), round(57 / 25.4 * 150))  # the text's box
    inked = [pixels[x, y] for x in range(rgb.width) for y in rows if sum(pixels[x, y]) < 600]
    assert any(r > b + 100 for r, _, b in inked) and any(b > r + 100 for r, _, b in inked)  # the text's glyphs, red to blue


def _colour_ops(page) -> dict[str, set[tuple]]:
    """The fill colours (rg) drawn in each symbol form, by the form's name."""
    found: dict[str, set[tuple]] = {}
    xobjects = {}
    for _, _, _, resources in pdfread.drawn_ops(page):
        xobjects.update({str(k): v.get_object() for k, v in (resources.get("/XObject") or {}).items()})
    for name, form in xobjects.items():
        if "pnpsym" in name:
            ops = ContentStream(form, page.pdf).operations
            found[name.split(".")[-1]] = {tuple(round(float(v), 3) for v in operands) for operands, op in ops if op in (b"rg", b"RG")}
    return found


def test_a_tinted_symbol_is_drawn_in_each_cards_colour_and_the_untinted_in_its_own(tmp_path: Path):
    game = make_game(
        tmp_path / "hra", "  - symbol: crown\n    box: [5, 5, 20, 20]\n    tint: '{{ empire.colour }}'\n  - symbol: crown\n    box: [30, 5, 20, 20]\n"
    )
    page = pdfread.sheet_pages(build(game, tmp_path / "out"))[0]
    colours = _colour_ops(page)
    red, blue, own = (0.69, 0.227, 0.180), (0.180, 0.373, 0.659), (0.2, 0.2, 0.2)
    assert colours["pnpsym_crown_b03a2e"] == {red}  # every fill and stroke
    assert colours["pnpsym_crown_2e5fa8"] == {blue}
    assert own in colours["pnpsym_crown"]
    assert pdfread.drawn(page)["/FormXob.pnpsym_crown"] == 2


@pytest.mark.parametrize("rtl", [False, True])
def test_a_symbol_tinted_with_a_gradient_runs_through_it_where_a_plain_tint_paints(tmp_path: Path, rtl: bool):
    """Rendered (pdfium): a crown tinted with a gradient across the card is red at its left
    and blue at its right (mirrored: the other way round), painting exactly the pixels
    the crown tinted in one colour paints; in the PDF, its form paints with a shading
    pattern, the gradient's colours through every fill."""
    front = "  - symbol: crown\n    box: [5, 5, 50, 50]\n    tint: PAINT\n"

    def game(folder: Path, paint: str) -> Path:
        made = make_game(folder, front.replace("PAINT", paint))
        if rtl:
            with (made / "game.yaml").open("a", encoding="utf-8") as f:
                f.write("direction:\n  en: rtl\n")
        return made

    pdf = build(game(tmp_path / "hra", RED_TO_BLUE), tmp_path / "out")
    image, height = _render(pdf)
    card = pdfread.card_boxes(pdfread.sheet_pages(pdf)[0])[0][:2]
    left, right = _card_pixel(image, height, card, 16, 42), _card_pixel(image, height, card, 47, 42)  # the crown's band, 40 to 45 mm down
    if rtl:
        left, right = right, left
    assert left[0] > left[2] + 100 and right[2] > right[0] + 100, (left, right)  # reddish, bluish
    scale = 4.0
    box = _card_box(card, height, scale)
    ink = _ink(image, box)
    plain_ink = _ink(_render(build(game(tmp_path / "plain", "'#000000'"), tmp_path / "plain-out"))[0], box)
    assert len(ink ^ plain_ink) < 0.01 * len(plain_ink), (len(ink ^ plain_ink), len(plain_ink))
    page = pdfread.sheet_pages(pdf)[0]
    forms = {}
    for _, _, _, resources in pdfread.drawn_ops(page):
        forms.update({str(k): v.get_object() for k, v in (resources.get("/XObject") or {}).items() if "pnpsym" in str(k)})
    (form,) = forms.values()  # both cards' crowns are at the same place: one form
    (pattern,) = (p.get_object() for p in form["/Resources"]["/Pattern"].values())
    assert pattern["/PatternType"] == 2 and pattern["/Shading"]["/ShadingType"] == 2
    ops = [op for _, op in ContentStream(form, page.pdf).operations]
    assert b"scn" in ops and b"rg" not in ops


def test_a_qr_code_is_many_filled_squares_of_its_text(tmp_path: Path):
    from reportlab.graphics.barcode import qrencoder

    game = make_game(tmp_path / "hra", "  - qr: '{{ url }}'\n    box: [10, 10, 40, 40]\n")
    page = pdfread.sheet_pages(build(game, tmp_path / "out"))[0]
    squares = [operands for operands, op, _, _ in pdfread.drawn_ops(page) if op == b"re" and abs(float(operands[2]) - float(operands[3])) < 1e-6]
    dark = 0
    for url in ("https://example.org/a", "https://example.org/b"):
        code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
        code.addData(url)
        code.make()
        dark += sum(map(sum, code.modules))
    side = 40 * pdfread.MM / (len(code.modules) + 8)  # the quiet zone of 4 modules on each side
    assert dark > 300
    assert sum(1 for s in squares if abs(float(s[2]) - side) < 1e-3) == dark


@pytest.mark.parametrize(
    ("element", "needle", "message"),
    [
        ("  - rect: [5, 5, 10, 10]\n    fill: red\n    rotate: ninety\n", "rotate:", "'rotate' is 'ninety'; expected a number or a mapping [schema-type]"),
        (
            "  - rect: [5, 5, 10, 10]\n    fill: red\n    rotate: .nan\n",
            "rotate:",
            "rect element: 'rotate' is nan, not a number; expected a finite number [layout-value]",
        ),
        (
            "  - rect: [5, 5, 10, 10]\n    fill: red\n    rotate: {angle: .inf, about: [1, 2]}\n",
            "rotate:",
            "rect element: 'angle' is inf, not a number; expected a finite number [layout-value]",
        ),
        (
            "  - text: x\n    box: [5, 5, 10, 10]\n    opacity: 1.5\n",
            "opacity:",
            "text element: 'opacity' is 1.5; expected a number from 0 (invisible) to 1 (opaque) [layout-value]",
        ),
        (
            "  - circle: [20, 20, 5]\n    fill: {linear: [[0, 0], [1, 1]], stops: ['#ffffff']}\n",
            "fill:",
            "circle element: the gradient of 'fill' has 1 stop; expected two colours or more in 'stops' [layout-value]",
        ),
        (
            "  - rect: [5, 5, 10, 10]\n    fill: {stops: ['#ffffff', '#000000']}\n",
            "fill:",
            "rect element: the gradient of 'fill' has neither 'linear' nor 'radial'; expected one of them: linear: [[x1, y1], [x2, y2]] or radial: [[x, y], radius] [layout-value]",
        ),
        (
            "  - line: [5, 5, 20, 20]\n    stroke: {linear: [[0, 0], [1, 1]], stops: ['#ffffff']}\n",
            "stroke:",
            "line element: the gradient of 'stroke' has 1 stop; expected two colours or more in 'stops' [layout-value]",
        ),
        (
            "  - text: x\n    box: [5, 5, 10, 10]\n    color: {stops: ['#ffffff', '#000000']}\n",
            "color:",
            "text element: the gradient of 'color' has neither 'linear' nor 'radial'; expected one of them: linear: [[x1, y1], [x2, y2]] or radial: [[x, y], radius] [layout-value]",
        ),
        (
            "  - text: x\n    box: [5, 5, 10, 10]\n    style: title\nstyles:\n  title:\n    color: {radial: [[5, 5], 0], stops: ['#ffffff', '#000000']}\n",
            "color:",
            "style 'title': the radius of the gradient of 'color' is 0; expected a length above 0 mm [layout-value]",
        ),
        (
            "  - track:\n      range: [1, 5]\n      box: [5, 5, 50, 10]\n      space: {stroke: {linear: [[0, 0], [1, 1]], stops: ['#ffffff']}}\n",
            "space:",
            "track space: the gradient of 'stroke' has 1 stop; expected two colours or more in 'stops' [layout-value]",
        ),
        (
            "  - symbol: crown\n    box: [5, 5, 10, 10]\n    tint: blu\n",
            "tint:",
            "symbol element: 'tint' is 'blu', which is not a colour; expected '#rrggbb' or a colour name [layout-value]",
        ),
        (
            "  - symbol: crown\n    box: [5, 5, 10, 10]\n    tint: {linear: [[0, 0], [1, 1]], stops: ['#ffffff']}\n",
            "tint:",
            "symbol element: the gradient of 'tint' has 1 stop; expected two colours or more in 'stops' [layout-value]",
        ),
        (
            "  - rect: [5, 5, 10, 10]\n    fill: {stops: ['#ffffff', '#000000'], linear: [[0, 0], [1, 1]], angle: 30}\n",
            "fill:",
            "unknown key 'angle' in 'fill'; expected one of: stops, linear, radial [schema-unknown-key]",
        ),
        (
            "  - text: x\n    box: [5, 5, 10, 10]\n    rotate: {angle: 90, about: midle}\n",
            "about:",
            "text element: 'about' is 'midle' (did you mean 'middle'?)",
        ),
        (
            "  - circle: [20, 20, 5]\n    rotat: 30\n",
            "rotat:",
            "unknown key 'rotat' in circle element (did you mean 'rotate'?); expected one of: circle, fill, stroke, stroke_width, dash, when, name, rotate, opacity [schema-unknown-key]",
        ),
        (
            "  - qr: ''\n    box: [5, 5, 20, 20]\n",
            "qr:",
            "qr element: 'qr' is empty; expected the text or link to encode (a template, e.g. \"{{ url }}\") [qr-empty]",
        ),
    ],
)
def test_a_mistake_in_an_effect_is_an_error_at_its_line(tmp_path: Path, element: str, needle: str, message: str):
    game = make_game(tmp_path / "hra", element)
    layout = game / "layouts" / "front.yaml"
    output = fails(game)
    line = line_of(layout, needle)
    assert f"layouts/front.yaml:{line}:" in output and message in output, output
    assert output.count(message) == 1


def test_a_tint_that_is_no_colour_is_an_error_at_the_card_that_gave_it(tmp_path: Path):
    cards = CARDS + "- {id: c, title: Gamma, empire: odd, url: x}\n"
    game = make_game(tmp_path / "hra", "  - symbol: crown\n    box: [5, 5, 20, 20]\n    tint: '{{ empire.colour }}'\n", cards=cards)
    output = fails(game)
    line = line_of(game / "cards.yaml", "id: c")
    assert f"cards.yaml:{line}:" in output
    assert "card 'c' (front, layout 'front'): colour 'purplish' is not a colour; expected '#rrggbb' or a colour name [color]" in output
    assert "card 'a'" not in output


def test_a_qr_code_of_an_empty_field_is_an_error_at_the_card(tmp_path: Path):
    cards = CARDS + "- {id: c, title: Gamma}\n"
    game = make_game(tmp_path / "hra", "  - qr: '{{ url }}'\n    box: [5, 5, 20, 20]\n", cards=cards)
    output = fails(game)
    assert f"cards.yaml:{line_of(game / 'cards.yaml', 'id: c')}:" in output
    assert "card 'c' (front, layout 'front'): the QR code of '{{ url }}' is empty; expected a text or link to encode [qr-empty]" in output


def test_a_text_too_long_for_a_qr_code_is_an_error_at_the_card(tmp_path: Path):
    cards = CARDS + f"- {{id: c, title: Gamma, url: {'x' * 3000}}}\n"
    game = make_game(tmp_path / "hra", "  - qr: '{{ url }}'\n    box: [5, 5, 20, 20]\n", cards=cards)
    output = fails(game)
    assert f"cards.yaml:{line_of(game / 'cards.yaml', 'id: c')}:" in output
    assert (
        "card 'c' (front, layout 'front'): the QR code's text is 3000 bytes, more than a QR code of level M holds; expected a shorter text (a link, say) [qr-too-long]"
        in output
    )


def test_a_turned_text_box_is_checked_against_the_safe_area_as_it_is_turned(tmp_path: Path):
    inside = make_game(tmp_path / "in", "  - text: x\n    box: [10, 5, 43, 6]\n")
    assert "layout-safe-area" not in run("check", inside).output
    turned = make_game(tmp_path / "turned", "  - text: x\n    box: [10, 5, 43, 6]\n    rotate: 90\n")
    output = run("check", turned).output
    assert f"layouts/front.yaml:{line_of(turned / 'layouts' / 'front.yaml', 'text: x')}:" in output
    assert "text box [10.0, 5.0, 43.0, 6.0] turned 90° of layout 'front' reaches into the outer 3 mm" in output


def test_a_text_that_does_not_fit_is_measured_in_its_box_unturned(tmp_path: Path):
    long = "word " * 40
    game = make_game(tmp_path / "hra", f"  - text: '{long}'\n    box: [5, 40, 53, 6]\n    rotate: 90\n    name: long\n")
    assert "long of card 'a' does not fit its 53.0 x 6.0 mm box" in fails(game)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("rotate: 10", "rotate: 20"),
        ("opacity: 0.5", "opacity: 0.6"),
        ("tint: '#b03a2e'", "tint: '#2e5fa8'"),
        ("'#222222'", "'#555555'"),  # a stroke's gradient
        ("[[10, 60], 5]", "[[10, 60], 6]"),  # a text's
    ],
)
def test_the_manifest_sees_a_changed_rotation_opacity_tint_or_gradient(tmp_path: Path, old: str, new: str):
    game = make_game(
        tmp_path / "hra",
        "  - symbol: crown\n    box: [5, 5, 20, 20]\n    rotate: 10\n    opacity: 0.5\n    tint: '#b03a2e'\n"
        "  - rect: [5, 30, 20, 20]\n    stroke: {linear: [[5, 30], [25, 50]], stops: ['#111111', '#222222']}\n"
        "  - text: x\n    box: [5, 55, 20, 10]\n    color: {radial: [[10, 60], 5], stops: ['#333333', '#444444']}\n",
    )
    out = tmp_path / "out"
    build(game, out)
    layout = game / "layouts" / "front.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    result = run("list", game, "--out", out, "--changed-since")
    assert result.exit_code == 0, result.output
    assert "(en): 2 changed, 0 new, 0 removed" in result.output


def test_a_symbol_svglib_reads_is_tinted_too_keeping_its_opacity(tmp_path: Path):
    game = make_game(tmp_path / "hra", "  - symbol: ghost\n    box: [5, 5, 20, 20]\n    tint: '#2e5fa8'\n")
    ghost = CROWN.replace('fill="#333333"', 'fill="#333333" fill-opacity="0.5" stroke="#ff0000"')
    (game / "symbols" / "ghost.svg").write_text(ghost, encoding="utf-8")
    page = pdfread.sheet_pages(build(game, tmp_path / "out"))[0]
    colours = _colour_ops(page)["pnpsym_ghost_2e5fa8"] - {(0.0, 0.0, 0.0)}  # renderPDF's default colours, before any shape
    assert colours == {(0.180, 0.373, 0.659)}  # neither the fill's grey nor the stroke's red
    assert 0.5 in {float(state.get("/ca", 1)) for state in pdfread.resources_of(page, "/ExtGState").values()}


def test_a_symbol_svglib_reads_is_tinted_with_a_gradient_too_keeping_its_opacity(tmp_path: Path):
    game = make_game(tmp_path / "hra", f"  - symbol: ghost\n    box: [5, 5, 20, 20]\n    tint: {RED_TO_BLUE}\n")
    ghost = CROWN.replace('fill="#333333"', 'fill="#333333" fill-opacity="0.5" stroke="#ff0000"')
    (game / "symbols" / "ghost.svg").write_text(ghost, encoding="utf-8")
    page = pdfread.sheet_pages(build(game, tmp_path / "out"))[0]
    (name,) = (name for name in _colour_ops(page) if name.startswith("pnpsym_ghost_g"))
    assert _colour_ops(page)[name] == set()  # no colour of its own left: the pattern paints its fills and strokes
    assert 0.5 in {float(state.get("/ca", 1)) for state in pdfread.resources_of(page, "/ExtGState").values()}
    assert pdfread.resources_of(page, "/Pattern")
