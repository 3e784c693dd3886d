"""Tuck boxes: the net's arithmetic on its own, then the boxes pnp builds for Mestá, measured
in the written PDFs (the cut outline, the folds, the deck's name on the front), on A4 and
Letter, in pieces when the box is larger than the paper, and the mistakes a declaration
can hold, each at its line."""

from __future__ import annotations

import itertools
import shutil

import pytest
from pypdf.generic import ContentStream

from pnp.base.paths import LAYOUTS_DIR
from pnp.impose.tuckbox import FACES, Net, plan_net
from tests.conftest import edit, line_of, run
from tests.pdfread import MM, placed_text, reader, text

CITIES = (44, 68, 54)  # Mestá's decks: card width, height (mm) and cards, copies counted
EVENTS = (63, 88, 75)


# --- the net alone ------------------------------------------------------------------------


def test_panels_match_the_deck():
    net = plan_net(*CITIES)
    assert (net.width, net.height) == (45, 69)  # the card and 1 mm of clearance
    assert net.depth == pytest.approx(54 * 0.3 + 1)
    for name in ("front", "back"):
        assert (net.panel(name).w, net.panel(name).h) == (45, 69)
    for name in ("left", "right"):
        assert (net.panel(name).w, net.panel(name).h) == pytest.approx((net.depth, 69))
    for name in ("top", "bottom"):
        assert (net.panel(name).w, net.panel(name).h) == pytest.approx((45, net.depth))
    thick = plan_net(63, 88, 75, thickness=0.5, clearance=2)
    assert (thick.width, thick.height, thick.depth) == pytest.approx((65, 90, 75 * 0.5 + 2))


def test_faces_are_the_sizes_a_designer_draws():
    net = plan_net(*EVENTS)
    assert {place.face for place in net.faces} == set(FACES)
    assert net.face_size("front") == net.face_size("back") == (64, 89)
    assert net.face_size("spine") == pytest.approx((89, net.depth))  # a landscape strip
    assert net.face_size("top") == net.face_size("bottom") == pytest.approx((64, net.depth))
    turned = {(place.face, place.panel.name): place.angle for place in net.faces}
    assert turned == {("front", "front"): 0, ("back", "back"): 0, ("top", "top"): 0, ("bottom", "bottom"): 180, ("spine", "left"): 270, ("spine", "right"): 90}


def _crosses(a, b, c, d) -> bool:
    """Whether segments ab and cd cross at a point inside both (touching ends do not count)."""

    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < -1e-9 and side(c, d, a) * side(c, d, b) < -1e-9


@pytest.mark.parametrize("deck", [CITIES, EVENTS, (70, 120, 200), (41, 63, 5)])
def test_the_outline_is_one_closed_simple_polygon_around_the_panels(deck):
    net = plan_net(*deck)
    points = net.outline
    edges = list(zip(points, points[1:] + points[:1]))
    for (i, e), (j, f) in itertools.combinations(enumerate(edges), 2):
        assert not _crosses(*e, *f), (i, j)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    assert (min(xs), min(ys)) == (0, 0) and (max(xs), max(ys)) == pytest.approx(net.size)
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in edges) / 2
    assert area < 0  # clockwise
    walls = sum(p.w * p.h for p in net.panels if p.name in ("front", "back", "left", "right", "top", "bottom"))
    assert walls < -area < sum(p.w * p.h for p in net.panels)  # the flaps are cut narrower than their panels, the notch out of the front


def _on_edge(panel, segment) -> bool:
    x1, y1, x2, y2 = segment
    left, bottom, right, top = panel.x, panel.y, panel.x + panel.w, panel.y + panel.h
    if x1 == x2:
        return x1 in (pytest.approx(left), pytest.approx(right)) and bottom - 1e-6 <= min(y1, y2) and max(y1, y2) <= top + 1e-6
    return y1 in (pytest.approx(bottom), pytest.approx(top)) and left - 1e-6 <= min(x1, x2) and max(x1, x2) <= right + 1e-6


def test_every_fold_lies_between_two_panels_and_every_panel_has_one():
    net = plan_net(*CITIES)
    for fold in net.folds:
        touching = [p.name for p in net.panels if _on_edge(p, fold)]
        assert len(touching) == 2, (fold, touching)
    assert all(any(_on_edge(p, fold) for fold in net.folds) for p in net.panels)


def test_flaps_at_the_ends_and_the_glue_tab_on_the_right():
    net = plan_net(*CITIES)
    width, height = net.size
    glue, front = net.panel("glue"), net.panel("front")
    assert glue.x + glue.w == pytest.approx(width) and glue.x == pytest.approx(max(p.x for p in net.panels))
    assert net.panel("top-tuck").y + net.panel("top-tuck").h == pytest.approx(height)  # the top flap ends the net at the top
    assert net.panel("bottom-tuck").y == 0
    notch = [(x, y) for x, y in net.outline if front.x < x < front.x + front.w and y < front.y + front.h - 1e-6 and y > front.y]
    assert notch and min(y for _, y in notch) == pytest.approx(front.y + front.h - net.notch)  # the thumb notch, cut down into the front's top


# --- the PDFs -----------------------------------------------------------------------------


def strokes(page) -> list[tuple[tuple[float, ...], list[tuple[float, float]]]]:
    """Every path stroked on a page with lines, in page points through the transforms:
    (its dash pattern, its points)."""
    found = []
    ctm, stack, dash, points = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), [], (), []

    def at(x, y):
        a, b, c, d, e, f = ctm
        return (a * x + c * y + e, b * x + d * y + f)

    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append((ctm, dash))
        elif op == b"Q":
            ctm, dash = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif op == b"d":
            dash = tuple(float(v) for v in operands[0])
        elif op == b"m":
            points = [at(*(float(v) for v in operands))]
        elif op == b"l":
            points.append(at(*(float(v) for v in operands)))
        elif op in (b"S", b"s", b"B", b"b"):
            if len(points) > 1:
                found.append((dash, points))
            points = []
    return found


def outline_and_folds(page) -> tuple[list[tuple[float, float]], list[tuple[float, float, float, float]]]:
    paths = strokes(page)
    outline = max((points for dash, points in paths if not dash), key=len)
    folds = [(*points[0], *points[1]) for dash, points in paths if dash and len(points) == 2]
    return outline, folds


def measured(page, net: Net) -> tuple[float, float, list, list]:
    """The outline's bounding box (its bottom-left corner and size, mm) and the folds, in
    mm from that corner."""
    outline, folds = outline_and_folds(page)
    xs, ys = [x for x, _ in outline], [y for _, y in outline]
    x0, y0 = min(xs), min(ys)
    size = ((max(xs) - x0) / MM, (max(ys) - y0) / MM)
    return x0, y0, size, [tuple(round(v, 3) for v in ((x1 - x0) / MM, (y1 - y0) / MM, (x2 - x0) / MM, (y2 - y0) / MM)) for x1, y1, x2, y2 in folds]


@pytest.mark.parametrize(("box", "deck"), [("cities-box", CITIES), ("events-box", EVENTS)])
def test_the_printed_net_measures_what_the_deck_needs(built, box, deck):
    net = plan_net(*deck)
    pages = reader(built / f"{box}-sk-a4.pdf").pages
    assert len(pages) == 1
    page = pages[0]
    x0, y0, size, folds = measured(page, net)
    assert size == pytest.approx(net.size, abs=0.01)
    assert sorted(folds) == sorted(tuple(round(v, 3) for v in fold) for fold in net.folds)
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert x0 == pytest.approx((width - net.size[0] * MM) / 2, abs=0.01)  # one box, centred
    assert y0 == pytest.approx((height - net.size[1] * MM) / 2, abs=0.01)
    assert "toto pravítko má 50 mm" in page.extract_text()


@pytest.mark.parametrize(("box", "deck", "name"), [("cities-box", CITIES, "Mestá"), ("events-box", EVENTS, "Udalosti")])
def test_the_deck_name_is_on_the_front_and_reads_along_the_spines(built, box, deck, name):
    net = plan_net(*deck)
    page = reader(built / f"{box}-sk-a4.pdf").pages[0]
    x0, y0, _, _ = measured(page, net)

    def on(panel_name):
        p = net.panel(panel_name)
        left, bottom = x0 + p.x * MM, y0 + p.y * MM
        return [t for t, x, y in placed_text(page) if left < x < left + p.w * MM and bottom < y < bottom + p.h * MM]

    assert name in on("front")
    assert any(name in t for t in on("left")) and any(name in t for t in on("right"))
    assert name in on("top")
    assert f"Počet kariet: {deck[2]}" in on("bottom") and f"Počet kariet: {deck[2]}" in on("front")


def test_translated_boxes_and_letter_paper(tmp_path):
    result = run("build", "--paper", "letter", "--lang", "en", "--deck", "events", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "mesta" / "events-box-en-letter.pdf"
    assert "one-sided: events-box-en-letter.pdf" in result.output
    page = reader(pdf).pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((215.9 * MM, 279.4 * MM), abs=0.01)
    assert measured(page, plan_net(*EVENTS))[2] == pytest.approx(plan_net(*EVENTS).size, abs=0.01)
    assert "Cards: 75" in text(pdf) and not (tmp_path / "mesta" / "cities-box-en-letter.pdf").exists()  # only the deck asked for


def test_a_box_larger_than_the_paper_is_printed_in_pieces(mesta, tmp_path):
    edit(mesta / "game.yaml", "    layout: mesta/events-box", "    layout: mesta/events-box\n    thickness: 1.5")
    result = run("build", mesta, "--deck", "events", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    net = plan_net(63, 88, 75, thickness=1.5)
    assert net.size[0] > 287  # wider than A4 either way
    pdf = reader(tmp_path / "mesta" / "events-box-sk-a4.pdf")
    assert len(pdf.pages) >= 3  # the assembly page, then at least two pieces
    assert "zostavenie" in pdf.pages[0].extract_text() and "dielik 1 z" in pdf.pages[1].extract_text()
    assert f"{net.size[0]:.0f} x {net.size[1]:.0f} mm v {len(pdf.pages) - 1} dielikoch" in pdf.pages[0].extract_text()


def test_no_box_for_the_backs_only(tmp_path):
    result = run("build", "--sides", "backs", "--deck", "cities", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "mesta").glob("*.pdf")) == ["cities-sk-a4-backs.pdf"]


# --- mistakes -----------------------------------------------------------------------------


def own_layout(game, name: str):
    """A copy of a bundled Mestá layout in the game's own layouts/ folder (found first), to break."""
    target = game / "layouts" / "mesta" / f"{name}.yaml"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(LAYOUTS_DIR / "mesta" / f"{name}.yaml", target)
    return target


def check(folder) -> str:
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    return result.output


def test_an_unknown_deck_is_located_with_a_suggestion(mesta):
    edit(mesta / "game.yaml", "    deck: cities\n", "    deck: citis\n")
    out = check(mesta)
    line = line_of(mesta / "game.yaml", "deck: citis")
    assert f"game.yaml:{line}:11: tuck box 'cities-box' is for deck 'citis', which does not exist (did you mean 'cities'?)" in out
    assert "[tuckbox-deck]" in out


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("thickness: 0", "tuckbox-thickness"),
        ("thickness: 9", "tuckbox-thickness"),
        ("thickness: .nan", "tuckbox-thickness"),
        ("clearance: -1", "tuckbox-clearance"),
    ],
)
def test_a_bad_thickness_or_clearance_is_located(mesta, value, code):
    key = value.split(":")[0]
    edit(mesta / "game.yaml", f"    {key}: {'0.3' if key == 'thickness' else '1'}\n", f"    {value}\n")
    out = check(mesta)
    assert f"game.yaml:{line_of(mesta / 'game.yaml', value)}:" in out and f"[{code}]" in out and "expected" in out


def test_a_thickness_that_is_not_a_number_is_located(mesta):
    edit(mesta / "game.yaml", "    thickness: 0.3\n", "    thickness: thin\n")
    out = check(mesta)
    assert f"game.yaml:{line_of(mesta / 'game.yaml', 'thickness: thin')}:16: 'thickness' is 'thin'; expected a number [schema-type]" in out


def test_a_face_the_box_does_not_have_is_located_in_the_layout(mesta):
    layout = own_layout(mesta, "cities-box")
    layout.write_text("extends: mesta/base\nfaces:\n  frnt:\n    - text: '{{ box.name }}'\n      box: [3, 10, 39, 10]\n", encoding="utf-8")
    out = check(mesta)
    assert "cities-box.yaml:3:3: tuck box layout 'mesta/cities-box' has a face 'frnt', which a tuck box does not have (did you mean 'front'?)" in out
    assert "expected one of: front, back, spine, top, bottom [tuckbox-face]" in out


def test_a_card_layout_is_not_a_box_layout(mesta):
    edit(mesta / "game.yaml", "    layout: mesta/cities-box", "    layout: mesta/city")
    out = check(mesta)
    assert "layout 'mesta/city' is a card layout (size and elements); expected a tuck box layout" in out and "[tuckbox-layout]" in out


def test_a_box_named_like_a_deck_is_refused(mesta):
    edit(mesta / "game.yaml", "  events-box:\n", "  events:\n")
    out = check(mesta)
    assert "[tuckbox-name]" in out
    assert "tuck box 'events' has the name of a deck, whose PDF would have the same file name" in out


def test_a_text_that_runs_off_its_face_is_a_warning_with_the_face_size(mesta):
    edit(own_layout(mesta, "cities-box"), "      box: [3, 2, 39, 13.2]\n      style: name", "      box: [3, 2, 49, 13.2]\n      style: name")
    result = run("check", mesta)
    assert "runs off face 'top' of tuck box 'cities-box' (layout 'mesta/cities-box'), which is 45.0 x 17.2 mm for this deck" in result.output
    assert "[tuckbox-face-area]" in result.output


def test_a_text_that_does_not_fit_its_box_names_the_box(mesta):
    edit(own_layout(mesta, "cities-box"), "      name: count\n      box: [4, 52, 37, 6]", "      name: count\n      box: [4, 52, 3, 2]")
    out = check(mesta)
    assert "count of card 'cities-box'" in out and "cities-box.yaml" in out
