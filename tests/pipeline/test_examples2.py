"""The example games Cradle of Crowns (cards/civ) and Marchlands (cards/scharz), checked
and built as a player would get them: what ends up on the paper, and what `pnp check`
says about a map whose data does not hold together."""

from __future__ import annotations

import math
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml
from conftest import edit, line_of, run
from pdfread import MM, card_boxes, card_text, circles, operations, placed_text, reader, small_text_on_faces, text

CARDS = Path(__file__).resolve().parents[2] / "cards"
CIV = CARDS / "civ"
SCHARZ = CARDS / "scharz"


def data(game: Path, name: str) -> list[dict]:
    return yaml.safe_load((game / name).read_text(encoding="utf-8"))


def build(game: Path, out: Path, *options: str) -> Path:
    result = run("build", game, "--out", out, *options)
    assert result.exit_code == 0, result.output
    return out / game.name


@pytest.fixture(scope="module")
def civ(tmp_path_factory) -> Path:
    return build(CIV, tmp_path_factory.mktemp("civ"))


@pytest.fixture(scope="module")
def scharz(tmp_path_factory) -> Path:
    return build(SCHARZ, tmp_path_factory.mktemp("scharz"))


def symbols_drawn(page) -> Counter:
    """How often each game symbol is drawn on a page (symbols are PDF forms named by id)."""
    found: Counter = Counter()
    for operands, op in operations(page):
        if op == b"Do" and str(operands[0]).startswith("/FormXob.pnpsym_"):
            found[str(operands[0]).removeprefix("/FormXob.pnpsym_")] += 1
    return found


@pytest.mark.parametrize("game", [CIV, SCHARZ], ids=["civ", "scharz"])
def test_the_example_game_checks_clean(game):
    result = run("check", game)
    assert result.exit_code == 0, result.output
    assert "no problems found" in result.output


# --- Cradle of Crowns -------------------------------------------------------------------


def test_civ_prints_tiles_sheets_and_technologies(civ):
    assert sorted(p.name for p in civ.iterdir()) == [
        "aids-en-a4.pdf",
        "manifest-en-a4.json",
        "nations-en-a4.pdf",
        "scenario-en-a4.pdf",
        "techs-en-a4.pdf",
        "tiles-en-a4.pdf",
    ]


def test_the_reference_card_explains_every_symbol_and_the_costs(civ):
    front, back = (page.extract_text().replace("\n", " ") for page in reader(civ / "aids-en-a4.pdf").pages)
    assert "5 Research." in front
    names = ["Coin", "Culture", "Hut", "Incense", "Iron", "Production", "Silk", "Spy", "Trade", "Uranium", "Village", "Wheat"]
    assert all(name in back for name in names)  # the legend, from the game's symbols
    assert "A technology of level I: 6, II: 11, III: 16, IV: 21" in back


def test_every_tile_square_shows_its_terrain_and_what_lies_on_it(civ):
    tiles = data(CIV, "tiles.yaml")
    squares = [square for tile in tiles for square in tile["squares"]]
    assert all(len(tile["squares"]) == 16 for tile in tiles)
    front = reader(civ / "tiles-en-a4.pdf").pages[0]  # all four tiles fit one sheet
    printed = front.extract_text()
    for terrain, count in Counter(s["terrain"] for s in squares).items():
        assert len(re.findall(rf"(?m)^{terrain.capitalize()}$", printed)) == count, terrain
    for tile in tiles:
        assert tile["name"] in printed
    drawn = symbols_drawn(front)
    for key in ("resource", "marker"):
        for value, count in Counter(s[key] for s in squares if key in s).items():
            assert drawn[value] == count, value
    assert drawn["start"] == sum(1 for s in squares if s.get("start")) == 2
    assert drawn["coin"] == sum(1 for s in squares if s.get("coin"))  # gold veins


def test_tile_backs_say_whose_homeland_they_are(civ):
    back = reader(civ / "tiles-en-a4.pdf").pages[1].extract_text()
    assert back.count("Homeland of") == 2 and back.count("Unexplored") == 2
    assert "The Amber Coast" in back and "The Reed Kingdom" in back


def ring(page, box, centre_mm, radius_mm) -> dict[str, float]:
    """Text runs on one ring of a sheet placed at `box`: text -> clockwise angle from the
    top (degrees), for the runs whose distance from the centre is about `radius_mm`."""
    x0, y0, _, h = box
    cx, cy = x0 + centre_mm[0] * MM, y0 + h - centre_mm[1] * MM
    found = {}
    for run_text, x, y in placed_text(page):
        # a run is placed at the left end of its baseline: take the middle of a label
        # about 2 mm wide and 2.5 mm high
        mx, my = x + len(run_text) * 0.9 * MM, y + 1.2 * MM
        if abs(math.hypot(mx - cx, my - cy) - radius_mm * MM) < 3 * MM and x0 <= x <= x0 + box[2] and y0 <= y <= y0 + h:
            angle = math.degrees(math.atan2(mx - cx, my - cy)) % 360
            assert run_text not in found, run_text
            found[run_text] = angle
    return found


def test_the_two_dials_are_rings_numbered_clockwise_from_the_top(civ):
    page = reader(civ / "nations-en-a4.pdf").pages[0]
    boxes = card_boxes(page)
    assert len(boxes) == 2  # one sheet per nation
    for box in boxes:
        trade = ring(page, box, (58, 73), 44.5)  # trade: 0-27, the outer ring
        coins = ring(page, box, (58, 73), 25)  # coins: 0-15, the inner ring
        assert sorted(trade, key=int) == [str(n) for n in range(28)]
        assert sorted(coins, key=int) == [str(n) for n in range(16)]
        for dial, count in ((trade, 28), (coins, 16)):
            by_angle = sorted(dial, key=lambda label: (dial[label] + 360 / count / 2) % 360)
            assert by_angle == [str(n) for n in range(count)]  # 0 at the top, then clockwise
        # the level of a technology costing that much trade, just inside the trade ring
        levels = ring(page, box, (58, 73), 33)
        for roman, cost in (("I", "6"), ("II", "11"), ("III", "16"), ("IV", "21")):
            assert abs((levels[roman] - trade[cost] + 180) % 360 - 180) < 8, roman


def test_each_technology_shows_its_level_and_cost(civ):
    techs = data(CIV, "techs.yaml")
    printed = text(civ / "techs-en-a4.pdf")
    levels = Counter(t["level"] for t in techs)
    assert [levels[level] for level in ("one", "two", "three", "four")] == [5, 4, 3, 2]  # the pyramid
    for roman, cost, level in (("I", 6, "one"), ("II", 11, "two"), ("III", 16, "three"), ("IV", 21, "four")):
        assert len(re.findall(rf"Level {roman} · {cost}\b", printed)) == levels[level], roman
    for tech in techs:
        assert tech["name"] in printed.replace("\n", " "), tech["id"]


def test_civ_cards_print_no_text_below_7_pt_and_the_attribution_only_on_the_reference_card(civ):
    attribution = yaml.safe_load((CIV / "game.yaml").read_text(encoding="utf-8"))["attribution"]
    for deck in ("techs", "aids", "tiles"):
        for page in reader(civ / f"{deck}-en-a4.pdf").pages:
            small = [(run, round(size, 1)) for run, size in card_text(page) if size < 6.95]
            assert not small, (deck, small)
    techs = reader(civ / "techs-en-a4.pdf").pages
    backs = " ".join(page.extract_text() for page in techs[1::2])
    assert backs.count("Technology") == len(data(CIV, "techs.yaml")) and "pnp project" not in backs
    assert "pnp project" not in " ".join(page.extract_text() for page in techs[::2])
    turn = re.sub(r"\s+", " ", reader(civ / "aids-en-a4.pdf").pages[0].extract_text())
    assert turn.count(attribution) == 2  # once on each player's reference card


def test_a_broken_tech_pyramid_is_reported(tmp_path):
    game = tmp_path / "civ"
    shutil.copytree(CIV, game)
    edit(game / "techs.yaml", "- id: aqueducts\n  name: Aqueducts\n  level: two", "- id: aqueducts\n  name: Aqueducts\n  level: three")
    result = run("check", game)
    assert result.exit_code == 1
    assert "each level needs at least one card fewer than the level below it" in result.output
    assert "for three" in result.output


def filled_hexagons(page) -> list[list[tuple[float, float]]]:
    """Closed, filled paths of six corners drawn on a page: the hexes of a hex map."""
    found, points = [], []
    for operands, op in operations(page):
        if op == b"m":
            points = [(float(operands[0]), float(operands[1]))]
        elif op == b"l":
            points.append((float(operands[0]), float(operands[1])))
        elif op in (b"B", b"B*", b"b", b"b*", b"f", b"f*"):
            if len(points) == 6:
                found.append(points)
            points = []
    return found


def test_the_scenario_map_draws_every_hex_with_its_label_and_symbol(civ):
    (scenario,) = data(CIV, "scenario.yaml")
    hexes = scenario["hexes"]
    pdf = reader(civ / "scenario-en-a4.pdf")
    assert len(pdf.pages) == 1  # the map fits one A4 page, no pieces
    (page,) = pdf.pages
    printed = page.extract_text()
    assert "The Twin Shores" in printed
    labels = [h["label"] for h in hexes if "label" in h]
    assert len(labels) == 9
    for label in labels:
        assert label in printed, label
    for terrain, count in Counter(h["terrain"] for h in hexes).items():
        assert len(re.findall(rf"(?m)^{terrain.capitalize()}$", printed)) == count, terrain
    drawn = filled_hexagons(page)
    assert len(drawn) == len(hexes) == 30
    # the edges meet: two neighbouring hexes (odd-r: odd rows half a hex to the right)
    # draw their common edge at the same two points, so it is one edge, not two
    axial = {(h["q"] - (h["r"] - (h["r"] & 1)) // 2, h["r"]) for h in hexes}
    pairs = sum((q + dq, r + dr) in axial for q, r in axial for dq, dr in ((1, 0), (0, 1), (-1, 1)))
    edges = {
        frozenset(((round(a[0], 1), round(a[1], 1)), (round(b[0], 1), round(b[1], 1)))) for hexagon in drawn for a, b in zip(hexagon, hexagon[1:] + hexagon[:1])
    }
    assert pairs == 69 and len(edges) == 6 * 30 - pairs
    symbols = symbols_drawn(page)  # the text under the map shows :start: and :coin: once each
    assert symbols["start"] == 2 + 1 and symbols["coin"] == 1 + 1
    assert symbols["hut"] == 2 and symbols["village"] == 2 and symbols["wheat"] == 2
    assert "The map has 30 hexes" in printed.replace("\n", " ")


def check_scenario_edited(tmp_path, old: str, new: str):
    """`pnp check` of a copy of Cradle of Crowns whose scenario map has one row changed."""
    game = tmp_path / "civ"
    shutil.copytree(CIV, game)
    edit(game / "scenario.yaml", old, new)
    result = run("check", game)
    assert result.exit_code == 1
    return game, result


def test_a_bad_terrain_in_the_scenario_map_is_reported_at_its_line(tmp_path):
    game, result = check_scenario_edited(tmp_path, "{q: 3, r: 3, terrain: water}", "{q: 3, r: 3, terrain: lake}")
    row = line_of(game / "scenario.yaml", "{q: 3, r: 3, terrain: lake}")
    assert f"scenario.yaml:{row}:" in result.output
    assert "'lake', which is not in 'terrain'" in result.output
    assert "expected one of: desert, forest, grassland, mountains, water" in result.output


def test_two_hexes_at_the_same_place_are_reported_at_the_second(tmp_path):
    game, result = check_scenario_edited(tmp_path, "{q: 3, r: 3, terrain: water}", "{q: 2, r: 3, terrain: water}")
    row = line_of(game / "scenario.yaml", "{q: 2, r: 3, terrain: water}")
    assert f"scenario.yaml:{row}:" in result.output
    assert "are both the hex at q=2, r=3" in result.output
    assert result.output.count("[hexgrid-twice]") == 1  # found by each of the map's three layers, said once
    assert "rows 21 and 22 of 'hexes' in 'twin-shores' have the same q=2, r=3" in result.output  # unique within
    assert "Two hexes of twin-shores have the same q and r" in result.output  # rules.yaml


def test_the_scenario_counts_its_huts_as_its_text_says(tmp_path):
    _, result = check_scenario_edited(tmp_path, "{q: 2, r: 1, terrain: forest, marker: hut}", "{q: 2, r: 1, terrain: forest}")
    assert "The scenario's text promises 2 huts and 2 villages (twin-shores)." in result.output


# --- Marchlands -------------------------------------------------------------------------


FIELD_NAMES = [field["name"] for field in data(SCHARZ, "fields.yaml")]


def test_the_map_comes_on_a4_in_labelled_pieces(scharz):
    pdf = reader(scharz / "map-en-a4.pdf")
    assembly, *pieces = pdf.pages
    assert "380 x 270 mm in 2 pieces (1 row of 2)" in assembly.extract_text()
    assert all(name in assembly.extract_text() for name in FIELD_NAMES)  # the whole map, scaled
    texts = [page.extract_text() for page in pieces]
    for number, (label, piece) in enumerate(zip(["A1", "A2"], texts), 1):
        assert f"{label}\nMarchlands · Map · map · piece {number} of 2 · print at 100 %" in piece
    assert "glue under A2" in texts[0] and "lay it over A1" in texts[1]
    for page in pdf.pages:
        assert (round(float(page.mediabox.width) / MM), round(float(page.mediabox.height) / MM)) == (210, 297)


def test_the_map_comes_whole_on_a3(tmp_path):
    out = build(SCHARZ, tmp_path, "--deck", "map", "--paper", "a3")
    (page,) = reader(out / "map-en-a3.pdf").pages
    assert (round(float(page.mediabox.width) / MM), round(float(page.mediabox.height) / MM)) == (420, 297)
    assert [(round(w / MM), round(h / MM)) for _, _, w, h in card_boxes(page)] == [(380, 270)]
    printed = page.extract_text()
    assert "assembly" not in printed
    for name in FIELD_NAMES:
        assert name in printed
    for house in ("House Raven", "House Boar", "House Heron", "House Lynx"):
        assert house in printed  # each house's start field


def test_neighbouring_fields_share_the_corners_of_their_common_edge():
    fields = {f["id"]: f for f in data(SCHARZ, "fields.yaml")}
    for field in fields.values():
        corners = {tuple(p) for p in field["shape"]}
        for other in field["neighbours"]:
            shared = corners & {tuple(p) for p in fields[other]["shape"]}
            assert len(shared) >= 2, (field["id"], other)


def test_player_boards_have_their_tracks_on_landscape_pages(scharz):
    pdf = reader(scharz / "boards-en-a4.pdf")
    assert len(pdf.pages) == 4
    for page, house in zip(pdf.pages, ("Raven", "Boar", "Heron", "Lynx")):
        assert float(page.mediabox.width) > float(page.mediabox.height)
        printed = page.extract_text()
        assert f"House {house}" in printed
        assert "Gold (start 5)" in printed and "Prestige (start 7)" in printed
        numbers = Counter(t for t, _, _ in placed_text(page) if t.isdigit())
        # gold 0-29, prestige 0-79, victory points 0-10
        assert all(numbers[str(n)] == 3 for n in range(11))
        assert all(numbers[str(n)] == 2 for n in range(11, 30))
        assert all(numbers[str(n)] == 1 for n in range(30, 80))
        for goal in ("Sovereignty", "Supremacy", "Power", "Significance", "Rival"):
            assert goal in printed


def test_the_tokens_share_one_sheet_with_round_cut_lines_on_both_sides(scharz):
    assert not any((scharz / f"{deck}-en-a4.pdf").exists() for deck in ("goods", "markers", "ranks"))
    front, back = reader(scharz / "tokens-en-a4.pdf").pages
    for page in (front, back):
        assert len(circles(page, 10 * MM)) == 22  # goods, 20 mm
        assert len(circles(page, 6.5 * MM)) == 18  # experience and plunder, 13 mm
    front_text, back_text = front.extract_text(), back.extract_text()
    assert "Sheep" in front_text and "Lambs" in back_text and "Lambs" not in front_text
    assert front_text.count("Building site") == 8 and back_text.count("Fortification") == 8  # square, 18 mm


def test_marchlands_prints_no_text_under_7_points_on_any_component(scharz):
    small = {deck: small_text_on_faces(scharz / f"{deck}-en-a4.pdf") for deck in ("map", "boards", "tokens")}
    assert small == dict.fromkeys(small, []), small


def test_each_mode_s_book_shows_another_house_s_board_on_its_cover(scharz):
    covers = {mode: reader(scharz / f"rules-{mode}-en-a4.pdf").pages[0].extract_text() for mode in ("first", "white", "yellow")}
    # the map on every cover names the four houses at their start fields; the board, its house once more
    boards = {mode: [house for house, n in Counter(re.findall(r"House \w+", cover)).items() if n > 1] for mode, cover in covers.items()}
    assert boards == {"first": ["House Raven"], "white": ["House Boar"], "yellow": ["House Heron"]}, covers


def test_one_rulebook_per_mode_with_its_own_blocks(scharz):
    # the pages between the covers (the covers draw the game's boards, whose words are not the book's)
    books = {
        mode: " ".join(page.extract_text() for page in reader(scharz / f"rules-{mode}-en-a4.pdf").pages[1:-1]).replace("\n", " ")
        for mode in ("first", "white", "yellow")
    }
    assert "In the first game a building starts 50 % done, so it takes 2 rounds." in books["first"]
    assert "In the White mode a building starts 50 % done" in books["white"]
    assert "In the Yellow mode a building starts from nothing and takes 4 rounds." in books["yellow"]
    assert "White mode" not in books["first"] and "Starting bonuses" not in books["white"]
    assert "Sovereignty" in books["white"] and "Sovereignty" not in books["first"]  # the table of goals
    for mode, rounds in (("first", 4), ("white", 4), ("yellow", 6)):
        assert f"A year has {rounds} rounds" in books[mode]
    for book in books.values():
        assert "16 fields: 12 land fields and 4 sea fields" in book  # from the data
        assert "(see 2, p. 3)" in book  # a cross-reference with number and page (page 1: the cover)
        assert "Index" in book


# --- map checks: a copy of Marchlands broken in one way each ----------------------------


@pytest.fixture
def marchlands(tmp_path) -> Path:
    game = tmp_path / "marchlands"
    shutil.copytree(SCHARZ, game)
    return game


def check(game: Path) -> str:
    result = run("check", game)
    assert result.exit_code == 1, result.output
    return result.output


def test_a_one_way_neighbour_is_an_error_naming_both_fields(marchlands):
    edit(marchlands / "fields.yaml", "neighbours: [aldern, caldor, eskar]", "neighbours: [aldern, eskar]")
    output = check(marchlands)
    assert "'caldor' lists 'brevia' as a neighbour but 'brevia' does not list 'caldor'" in output
    assert "fields.yaml:" in output


def test_an_unreachable_field_is_an_error_naming_it(marchlands):
    fields = marchlands / "fields.yaml"
    edit(fields, "neighbours: [aldern, caldor, eskar]", "neighbours: [aldern, eskar]")
    edit(fields, "neighbours: [brevia, fennmark]", "neighbours: []")
    edit(fields, "neighbours: [caldor, eastern-reach, eskar, jorvan]", "neighbours: [eastern-reach, eskar, jorvan]")
    edit(marchlands / "borders.yaml", "- id: ridge-caldor\n  between: [brevia, caldor]\n  kind: impassable\n", "")
    output = check(marchlands)
    assert "(not reachable from 'aldern': 'caldor')" in output


def test_a_coastal_field_without_sea_is_an_error_naming_it(marchlands):
    edit(marchlands / "fields.yaml", "  name: Galdra\n  terrain: land\n  soil: green\n", "  name: Galdra\n  terrain: land\n  soil: green\n  coastal: true\n")
    output = check(marchlands)
    assert "Field galdra is coastal but has no sea neighbour." in output


def test_a_field_by_the_sea_must_say_it_is_coastal(marchlands):
    edit(marchlands / "fields.yaml", "  name: Hollin\n  terrain: land\n  soil: green\n  coastal: true\n", "  name: Hollin\n  terrain: land\n  soil: green\n")
    output = check(marchlands)
    assert "Field hollin borders the sea, so it is coastal" in output
