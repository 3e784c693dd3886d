"""Bleed where it is needed: --outer-bleed on the edges at the grid's outside, --back-bleed
on the backs. Read back from the written PDFs (the cards' clips, the crop marks, the
BleedBox and the rendered pixels) and checked against the sheets' own geometry by a
checker that knows nothing of how pnp chose the bleeds: an edge is an outer one when it
faces no other card on the page."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from conftest import run
from pdfread import MM, card_boxes, marks, reader

from pnp.base.paths import CARDS_DIR
from pnp.impose.sheets import SheetSpec, impose, plan_grid

EXACT = 0.0002 * MM  # how exactly backs land behind fronts


def trim_lines(page) -> tuple[list[float], list[float]]:
    """The x of the vertical and the y of the horizontal crop marks: the trim lines."""
    segs = marks(page)
    return sorted({round(x1, 3) for x1, y1, x2, y2 in segs if x1 == x2}), sorted({round(y1, 3) for x1, y1, x2, y2 in segs if y1 == y2})


def sides(box, trim_w: float, trim_h: float, xs: list[float], ys: list[float]) -> tuple[float, float, float, float]:
    """A clip box's bleed past the trim lines it lies on, left, bottom, right, top, in mm:
    its trim is the pair of trim lines inside it that are one card apart."""
    x, y, w, h = box
    left = min(v for v in xs if v >= x - 1e-3)
    bottom = min(v for v in ys if v >= y - 1e-3)
    return round((left - x) / MM, 3), round((bottom - y) / MM, 3), round((x + w - left - trim_w) / MM, 3), round((y + h - bottom - trim_h) / MM, 3)


def outside(box, boxes) -> tuple[bool, bool, bool, bool]:
    """Which edges of `box` face no other card (the paper's margin, or an empty slot): no
    other card lies beyond them, across from them."""
    x, y, w, h = box
    across = [o for o in boxes if o != box and o[1] < y + h - 1e-3 and o[1] + o[3] > y + 1e-3]  # beside it, left or right
    above = [o for o in boxes if o != box and o[0] < x + w - 1e-3 and o[0] + o[2] > x + 1e-3]  # above or below it
    return (
        not any(o[0] + o[2] <= x + 1e-3 for o in across),
        not any(o[1] + o[3] <= y + 1e-3 for o in above),
        not any(o[0] >= x + w - 1e-3 for o in across),
        not any(o[1] >= y + h - 1e-3 for o in above),
    )


def test_outer_bleed_reaches_past_the_outer_edges_only_and_keeps_the_trims(tmp_path):
    assert run("build", "--deck", "events", "--out", tmp_path / "plain").exit_code == 0
    result = run("build", "--deck", "events", "--outer-bleed", "3", "--out", tmp_path / "outer")
    assert result.exit_code == 0, result.output
    plain = reader(tmp_path / "plain" / "mesta" / "events-sk-a4.pdf")
    pdf = reader(tmp_path / "outer" / "mesta" / "events-sk-a4.pdf")
    assert len(pdf.pages) == len(plain.pages)  # still 9 cards a sheet
    for page, before in zip(pdf.pages[:2], plain.pages[:2]):
        xs, ys = trim_lines(page)
        assert (xs, ys) == trim_lines(before)  # the crop marks stay at the trims
        boxes = card_boxes(page)
        assert len(boxes) == 9
        for box in boxes:
            want = tuple(3.0 if out else 0.0 for out in outside(box, boxes))
            assert sides(box, 63 * MM, 88 * MM, xs, ys) == want
        trim, bleed = page.trimbox, page.bleedbox
        assert [round(float(b) - float(t), 3) for b, t in zip(bleed, trim)] == [round(v * MM, 3) for v in (-3, -3, 3, 3)]


def test_outer_bleed_is_drawn_on_fronts_and_backs(tmp_path):
    result = run("build", "--deck", "events", "--outer-bleed", "3", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    path = tmp_path / "mesta" / "events-sk-a4.pdf"
    document = pdfium.PdfDocument(str(path))
    scale = 4.0
    for number in (0, 1):
        page = reader(path).pages[number]
        xs, ys = trim_lines(page)
        image = document[number].render(scale=scale).to_pil().convert("RGB")

        def colour(px, py, image=image):
            return image.getpixel((round(px * scale), round(image.height - py * scale)))

        middle = (ys[0] + ys[-1]) / 2
        assert colour(xs[0] - 2.5 * MM, middle) != (255, 255, 255)  # the art runs 3 mm past the left trim
        assert colour(xs[-1] + 2.5 * MM, middle) != (255, 255, 255)
        assert colour(xs[0] - 3.5 * MM, middle) == (255, 255, 255)  # and no further
    document.close()


def test_back_bleed_reaches_past_the_backs_alone_and_backs_land_behind_fronts(tmp_path):
    result = run("build", "--deck", "events", "--back-bleed", "2", "--gap", "1", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pdf = reader(tmp_path / "mesta" / "events-sk-a4.pdf")
    front, back = pdf.pages[0], pdf.pages[1]
    page_w = float(front.mediabox.width)
    fronts, backs = card_boxes(front), card_boxes(back)
    assert {(round(w / MM, 3), round(h / MM, 3)) for _, _, w, h in fronts} == {(63.0, 88.0)}  # the fronts: no bleed
    assert {(round(w / MM, 3), round(h / MM, 3)) for _, _, w, h in backs} == {(67.0, 92.0)}  # the backs: 2 mm a side
    lefts = sorted({round(x, 3) for x, _, _, _ in fronts})
    assert lefts[1] - lefts[0] == pytest.approx((63 + 2 * 2 + 1) * MM, abs=1e-3)  # cells hold the wider bleed: the backs' art never overlaps
    for x, y, _, _ in backs:  # the back's trim, turned over the long edge, lies exactly on a front's trim
        trim_x, trim_y = x + 2 * MM, y + 2 * MM
        assert any(abs((page_w - trim_x - 63 * MM) - fx) < EXACT and abs(trim_y - fy) < EXACT for fx, fy, _, _ in fronts)


@pytest.mark.parametrize("flip", ["long", "short"])
def test_outer_edges_of_backs_are_those_facing_the_margin_after_the_turn(flip):
    spec = SheetSpec(outer_bleed=4, back_bleed=1, flip=flip)
    grid = plan_grid(spec, 63 * MM, 88 * MM)
    for page in impose(9, grid, spec):
        own = 1.0 if page.side == "back" else 0.0
        boxes = [(p.x, p.y, 63 * MM, 88 * MM) for p in page.placements]
        for placement, box in zip(page.placements, boxes):
            bleed = placement.bleed if isinstance(placement.bleed, tuple) else (placement.bleed,) * 4
            assert tuple(round(b / MM, 6) for b in bleed) == tuple(4.0 if out else own for out in outside(box, boxes))


def test_outer_bleed_makes_room_inside_the_margin_and_says_what_it_costs(tmp_path):
    result = run("check", "--outer-bleed", "8")
    assert (
        "warning: deck 'events': --outer-bleed 8 leaves room for 6 cards a sheet of A4 instead of 9; "
        "expected --outer-bleed 5.5 or less to keep 9 a sheet, if the paper matters more [sheet-outer-bleed]"
    ) in result.output
    grid = plan_grid(SheetSpec(outer_bleed=8), 63 * MM, 88 * MM)
    left, bottom, right, top = grid.art_box
    assert min(left, bottom, grid.page_w - right, grid.page_h - top) >= 5 * MM - 1e-6  # the art inside the 5 mm margin
    assert "deck 'events': --outer-bleed" not in run("check", "--outer-bleed", "5.5").output


def test_folded_backs_take_their_bleed_and_lie_behind_their_fronts_across_the_fold(tmp_path):
    result = run("build", "--deck", "events", "--sides", "fold", "--back-bleed", "2", "--gap", "1", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    page = reader(tmp_path / "mesta" / "events-sk-a4-fold.pdf").pages[0]
    page_w = float(page.mediabox.width)
    boxes = card_boxes(page)
    fronts = [b for b in boxes if round(b[2] / MM, 3) == 63.0]
    backs = [b for b in boxes if round(b[2] / MM, 3) == 67.0]
    assert len(fronts) == len(backs) == 4 and len(boxes) == 8
    for x, y, _, _ in backs:  # folded over the vertical line in the middle of the page
        trim_x, trim_y = x + 2 * MM, y + 2 * MM
        assert any(abs((page_w - trim_x - 63 * MM) - fx) < EXACT and abs(trim_y - fy) < EXACT for fx, fy, _, _ in fronts)


def test_outer_bleed_does_not_apply_to_shared_sheets_and_says_so(tmp_path):
    result = run("check", CARDS_DIR / "scharz", "--outer-bleed", "3")
    assert (
        "warning: the decks of group 'tokens' share sheets, in rows of different sizes with no outer edges of their own: "
        "--outer-bleed 3 does not apply to them; their edges get --bleed 0 (expected a larger --bleed for them) [sheet-outer-bleed]"
    ) in result.output
