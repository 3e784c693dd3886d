"""The example games in cards/: every one passes `pnp check` and builds. For Ember Ages
(cards/ages) and Frontier Holds (cards/settlers), what a player finds on the printed
sheets: score tracks numbered once each round the board, the boards and their pieces,
and the fields of the cards."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml
from conftest import edit, line_of, run
from pdfread import MM, card_boxes, card_text, circles, drawn, placed_text, reader, small_text_on_faces, text

CARDS = Path(__file__).resolve().parents[2] / "cards"
GAMES = sorted(p.parent.name for p in CARDS.glob("*/game.yaml"))
AGES = CARDS / "ages"
SETTLERS = CARDS / "settlers"


def data(game: Path, name: str) -> list[dict]:
    return yaml.safe_load((game / name).read_text(encoding="utf-8"))


def squash(s: str) -> str:
    """Whitespace-insensitive text, with line-end hyphenation undone."""
    return re.sub(r"\s+", " ", re.sub(r"-\n", "", s)).strip()


def page_text(pdf: Path, index: int) -> str:
    return reader(pdf).pages[index].extract_text() or ""


def build(out: Path, game: Path, *args: str) -> Path:
    result = run("build", game, "--out", out, *args)
    assert result.exit_code == 0, result.output
    return out / game.name


def edge_numbers(pdf: Path, width: float, height: float, spaces: int) -> Counter:
    """How often each number is printed in the band round the edge of the first page's
    component (the band is as deep as an edge track's space is long)."""
    page = reader(pdf).pages[0]
    bx, by, bw, bh = card_boxes(page)[0]
    assert (round(bw / MM), round(bh / MM)) == (width, height)
    depth = 2 * (width + height) / (spaces + 4)
    found: Counter = Counter()
    for t, x, y in placed_text(page):
        left, top = (x - bx) / MM, (by + bh - y) / MM
        if t.isdigit() and min(left, top, width - left, height - top) < depth:
            found[int(t)] += 1
    return found


@pytest.fixture(scope="module")
def ages(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("ages"), AGES)


@pytest.fixture(scope="module")
def settlers(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("settlers"), SETTLERS)


# --- every example game -------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_example_game_passes_check(game):
    result = run("check", CARDS / game)
    assert result.exit_code == 0, result.output
    assert "no problems found" in result.output


@pytest.mark.parametrize("game", GAMES)
def test_every_example_game_builds_a_pdf_for_each_printed_deck(game, tmp_path):
    built = build(tmp_path, CARDS / game)
    meta = yaml.safe_load((CARDS / game / "game.yaml").read_text(encoding="utf-8"))
    printed = {spec.get("group", deck) for deck, spec in meta["decks"].items() if spec.get("front")}  # a group shares one PDF
    for name in printed:
        assert (built / f"{name}-{meta['language']}-a4.pdf").is_file(), name


# --- Ember Ages -----------------------------------------------------------------------------


def test_ages_culture_counter_runs_0_to_199_once_round_the_whole_board_on_a3(tmp_path):
    pdf = build(tmp_path, AGES, "--deck", "board", "--paper", "a3") / "board-en-a3.pdf"
    assert len(reader(pdf).pages) == 1  # whole, on one landscape sheet
    assert edge_numbers(pdf, 380, 275, 200) == Counter(range(200))


def test_ages_board_prints_in_two_a4_pieces_after_its_assembly_page(ages):
    pdf = ages / "board-en-a4.pdf"
    pages = reader(pdf).pages
    assert len(pages) == 3
    assert "assembly" in page_text(pdf, 0)
    assert "A1" in page_text(pdf, 1) and "A2" in page_text(pdf, 2)
    pieces = page_text(pdf, 1) + page_text(pdf, 2)
    numbers = set(re.findall(r"\b\d+\b", pieces))
    assert {str(n) for n in range(200)} <= numbers  # every culture space is on some piece
    for label in ("Science points", "Culture per turn", "Science per turn", "Strength", "Civil deck", "Military deck", "Current event", "Past events"):
        assert label in squash(pieces), label


def test_ages_board_legend_names_every_symbol(ages):
    names = yaml.safe_load((AGES / "game.yaml").read_text(encoding="utf-8"))["symbol_names"]
    enums = data(AGES, "rules.yaml")["enums"]
    card_art = {*enums["civil_kind"], *enums["military_kind"], "ember"}  # the kinds' icons and the backs' emblem
    assert set(names) == {p.stem for p in (AGES / "symbols").glob("*.svg")} - card_art
    printed = squash(page_text(ages / "board-en-a4.pdf", 0))  # the assembly page shows it whole
    for name in names.values():
        assert name in printed, name


def test_ages_nation_boards_one_per_colour_with_banks_and_starting_techs(ages):
    pdf = ages / "nations-en-a4.pdf"
    pages = reader(pdf).pages
    assert len(pages) == 4  # 260 x 175 mm: one per landscape sheet, whole
    starting = [tech["name"] for tech in data(AGES, "starting.yaml")]
    banks = data(AGES, "banks.yaml")
    for index, colour in enumerate(["Teal", "Crimson", "Violet", "Slate"]):
        printed = squash(page_text(pdf, index))
        assert f"{colour} · Ember Ages" in printed
        for name in starting:
            assert name in printed, (colour, name)
        for field in banks:  # food eaten under each yellow field, corruption under each blue one
            shown = f"-{field['food']}" if field["bank"] == "yellow" else f"empty: -{field['corruption']}"
            assert shown in printed, (colour, field["id"])
        labels = [t for t, _x, _y in placed_text(pages[index])]
        assert "8+" in labels and all(str(n) in labels for n in range(8))  # the happy-face indicator


def test_ages_card_row_has_13_spaces_with_their_costs(ages):
    pdf = ages / "row-en-a4.pdf"
    assert len(reader(pdf).pages) == 4  # assembly and three pieces of a 640 mm strip
    whole = page_text(pdf, 0)
    costs = data(AGES, "row.yaml")[0]["costs"]
    for cost in (1, 2, 3):
        assert len(re.findall(rf"\b{cost} ×", whole)) == costs.count(cost)
    labels = [t for t, _x, _y in placed_text(reader(pdf).pages[0])]
    assert all(str(n) in labels for n in range(1, 14))


def test_ages_civil_cards_print_each_name_as_often_as_its_copies_with_their_fields(ages):
    printed = squash(text(ages / "civil-en-a4.pdf"))
    titles = printed.replace("Replaces: Charter of Rights", "")
    for card in data(AGES, "civil.yaml"):
        assert titles.count(card["name"]) == card.get("copies", 1), card["id"]
    assert "3 / 8" in printed and "revolution / peaceful" in printed and "Limit: 3" in printed  # a government
    assert "Stages: 3 · 2 · 1" in printed  # a wonder
    assert "Mine I" in printed and "Farm II" in printed  # type labels with the level
    assert "Replaces: Charter of Rights" in printed  # a special tech names the one it replaces
    for age in ("Antiquity", "Age I", "Age II", "Age III"):  # the backs, to sort the decks
        assert age in printed


def test_ages_military_cards_show_their_kind_fields(ages):
    printed = squash(text(ages / "military-en-a4.pdf"))
    cards = data(AGES, "military.yaml")
    for card in cards:
        assert card["name"] in printed, card["id"]
    territories = sum(1 for c in cards if c["kind"] == "territory")
    assert printed.count("At once:") == printed.count("While held:") == territories
    for card in cards:
        if card["kind"] == "tactic":
            assert f"+{card['bonus']}" in printed and f"(+{card['obsolete']} obsolete)" in printed
    defense = [c for c in cards if c["kind"] == "defense"]
    assert printed.count("Defense / Colonization") == len(defense)  # the kind, then each value's caption
    assert printed.count("Colonization") == 2 * len(defense)


@pytest.mark.parametrize("deck", ["civil", "military"])
def test_ages_every_front_shows_its_kinds_icon_and_no_card_text_is_below_7_pt(ages, deck):
    pdf = ages / f"{deck}-en-a4.pdf"
    colours = {kind: value["color"].lstrip("#") for kind, value in data(AGES, "rules.yaml")["enums"][f"{deck}_kind"].items()}
    icons: Counter = Counter()
    for page in reader(pdf).pages:
        icons.update(drawn(page))
        small = [(run, round(size, 1)) for run, size in card_text(page) if size < 6.95]
        assert not small, small
    cards = data(AGES, f"{deck}.yaml")
    for kind, colour in colours.items():
        count = sum(card.get("copies", 1) for card in cards if card["kind"] == kind)
        assert icons[f"/FormXob.pnpsym_{kind}_{colour}"] == count, kind  # beside the kind's name, in its colour


def test_ages_counters_are_round_with_a_cut_line_each(ages):
    pdf = ages / "counters-en-a4.pdf"
    count = sum(c.get("copies", 1) for c in data(AGES, "counters.yaml"))
    cut = sum(len(circles(page, radius=7 * MM)) for page in reader(pdf).pages)
    assert count == cut == 229


def test_ages_deal_for_two_players_leaves_out_the_marked_civil_cards(tmp_path):
    pdf = build(tmp_path, AGES, "--deck", "civil", "--deal", "two") / "civil-en-a4-two.pdf"
    printed = squash(text(pdf))
    for card in data(AGES, "civil.yaml"):
        assert (card["name"] in printed) == ("players" not in card), card["id"]


# --- Frontier Holds -------------------------------------------------------------------------


def test_settlers_scoring_track_prints_0_to_99_exactly_once_round_the_board_on_a3(tmp_path):
    pdf = build(tmp_path, SETTLERS, "--deck", "scoring", "--paper", "a3") / "scoring-en-a3.pdf"
    assert len(reader(pdf).pages) == 1
    assert edge_numbers(pdf, 380, 260, 100) == Counter(range(100))
    printed = page_text(pdf, 0)
    assert "Rounds" in printed and all(str(n) in printed for n in range(1, 6))


def test_settlers_scoring_board_prints_in_two_a4_pieces_with_every_number(settlers):
    pdf = settlers / "scoring-en-a4.pdf"
    assert len(reader(pdf).pages) == 3
    assert "assembly" in page_text(pdf, 0)
    pieces = page_text(pdf, 1) + page_text(pdf, 2)
    assert "A1" in page_text(pdf, 1) and "A2" in page_text(pdf, 2)
    assert {str(n) for n in range(100)} <= set(re.findall(r"\b\d+\b", pieces))


def test_settlers_location_cards_show_code_copies_deal_and_raze_fields(settlers):
    for deck in ("frost", "jade", "common"):
        cards = data(SETTLERS, f"{deck}.yaml")
        printed = squash(text(settlers / f"{deck}-en-a4.pdf"))
        for card in cards:
            copies = card.get("copies", 1)
            assert printed.count(f"{card['code']} {' '.join('/' * copies)}") == copies, card["id"]
            assert printed.count(card["name"]) == copies, card["id"]
        with_deal = sum(c.get("copies", 1) for c in cards if "deal" in c)
        with_raze = sum(c.get("copies", 1) for c in cards if "raze" in c)
        assert printed.count("Deal:") == with_deal
        assert printed.count("Raze and gain") == with_raze
        assert with_deal == (0 if deck == "common" else 10)
        assert (with_raze > 0) == (deck != "frost")  # only common and Jade Court cards are razed for goods


def test_settlers_location_cards_show_their_kind_s_icon_and_their_deck_s_emblem_front_and_back(settlers):
    licence = yaml.safe_load((SETTLERS / "game.yaml").read_text(encoding="utf-8"))["licence"]
    for deck in ("frost", "jade", "common"):
        cards = data(SETTLERS, f"{deck}.yaml")
        pdf = settlers / f"{deck}-en-a4.pdf"
        symbols = sum((drawn(page) for page in reader(pdf).pages), Counter())
        for ability in ("production", "feature", "action"):
            assert symbols[f"/FormXob.pnpsym_{ability}"] == sum(c.get("copies", 1) for c in cards if c["ability"] == ability), (deck, ability)
        assert symbols[f"/FormXob.pnpsym_{deck}"] == 2 * sum(c.get("copies", 1) for c in cards), deck  # on each front's foot and each back
        backs = squash(" ".join(page_text(pdf, i) for i in range(1, len(reader(pdf).pages), 2)))
        assert "Frontier Holds" in backs and licence not in backs and "©" not in backs, backs


def test_settlers_prints_no_text_under_7_points_on_any_component(settlers):
    small = {deck: small_text_on_faces(settlers / f"{deck}-en-a4.pdf") for deck in ("frost", "jade", "common", "factions", "scoring", "aids", "tokens")}
    assert small == dict.fromkeys(small, []), small


def test_settlers_faction_boards_have_a_leader_on_each_side(settlers):
    pdf = settlers / "factions-en-a4.pdf"
    assert len(reader(pdf).pages) == 2  # both boards on one sheet, then their backs
    fronts, backs = squash(page_text(pdf, 0)), squash(page_text(pdf, 1))
    for board in data(SETTLERS, "factions.yaml"):
        assert board["leader_a"] in fronts and board["leader_a"] not in backs
        assert board["leader_b"] in backs and board["leader_b"] not in fronts
    for side in (fronts, backs):
        assert side.count("Keep at Cleanup:") == 2 and side.count("Production") >= 2


def test_settlers_tokens_are_round_with_a_cut_line_each(settlers):
    pdf = settlers / "tokens-en-a4.pdf"
    count = sum(c.get("copies", 1) for c in data(SETTLERS, "tokens.yaml"))
    assert count == sum(len(circles(page, radius=7 * MM)) for page in reader(pdf).pages)


# --- the games' own rules catch mistakes in their data --------------------------------------


def broken(tmp_path: Path, game: Path, file: str, old: str, new: str) -> str:
    """What `pnp check` says of a copy of `game` with one edit in `file` (paths from the copy's parent)."""
    copy = tmp_path / game.name
    shutil.copytree(game, copy)
    edit(copy / file, old, new)
    result = run("check", copy)
    assert result.exit_code == 1, result.output
    return result.output.replace(str(tmp_path) + "/", "")


def test_ages_a_revolution_dearer_than_a_peaceful_change_is_reported_at_the_card(tmp_path):
    output = broken(tmp_path, AGES, "civil.yaml", "revolution: 3\n  peaceful: 8", "revolution: 9\n  peaceful: 8")
    card_line = line_of(AGES / "civil.yaml", "id: crowned-rule")
    assert f"ages/civil.yaml:{card_line}:3: A revolution costs less science than a peaceful change of government." in output
    assert "[revolution-is-cheaper]" in output


def test_ages_an_event_with_an_unknown_ranking_phrase_is_reported(tmp_path):
    output = broken(tmp_path, AGES, "military.yaml", "The weakest player loses", "The poorest player loses")
    assert "names 'poorest player', which is not the name of any 'ranking' value" in output
    assert "[events-use-the-ranking-phrases]" in output


def test_settlers_a_code_of_another_deck_and_a_missing_deal_are_reported(tmp_path):
    output = broken(tmp_path, SETTLERS, "frost.yaml", "code: FRO004", "code: JAD004")
    assert f"settlers/frost.yaml:{line_of(SETTLERS / 'frost.yaml', 'id: watch-cairn')}:3:" in output
    assert "[code-format]" in output
    output = broken(tmp_path / "deal", SETTLERS, "jade.yaml", "  deal: [{resource: card, amount: 1}]\n", "")
    assert "Every faction card has a deal field. (card 'tea-house' fails: deal) [faction-cards-have-a-deal]" in output


# --- the layout effects, as the bundled games use them ------------------------------------


def test_the_mesta_reference_card_carries_a_qr_code_of_the_game_s_address(built):
    """The back of Mestá's reference card: a QR code of game.yaml's url, one filled square
    per dark module of that address's code."""
    import pdfread
    from reportlab.graphics.barcode import qrencoder

    url = yaml.safe_load((CARDS / "mesta" / "game.yaml").read_text(encoding="utf-8"))["url"]
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(url)
    code.make()
    side = 22 * MM / (len(code.modules) + 8)
    back = pdfread.sheet_pages(built / "aids-sk-a4.pdf")[1]
    squares = [ops for ops, op, _, _ in pdfread.drawn_ops(back) if op == b"re" and abs(float(ops[2]) - side) < 1e-3 and abs(float(ops[3]) - side) < 1e-3]
    cards = len(card_boxes(back))
    assert cards == 4 and len(squares) == cards * sum(map(sum, code.modules))


def test_cradle_of_crowns_unexplored_tiles_are_stamped_at_an_angle(tmp_path):
    import pdfread

    out = build(tmp_path, CARDS / "civ")
    back = pdfread.sheet_pages(out / "tiles-en-a4.pdf")[1]
    angles = pdfread.text_angles(back)
    assert angles.get("Unexplored") == 8.0 and angles.get("The Reed Kingdom") == 0.0, angles


def test_ember_ages_civil_backs_glow_with_gradients_and_a_faint_ember(ages):
    import pdfread

    back = pdfread.sheet_pages(ages / "civil-en-a4.pdf")[1]
    shadings = pdfread.resources_of(back, "/Shading")
    assert {int(s["/ShadingType"]) for s in shadings.values()} == {3}  # radial: the parchment and the medallion
    alphas = {float(state.get("/ca", 1)) for state in pdfread.resources_of(back, "/ExtGState").values()}
    assert 0.08 in alphas  # the ember behind the frame, at 8 %


def test_frontier_holds_location_backs_fall_lighter_to_darker_through_a_faint_linear_gradient(settlers):
    import pdfread

    for deck in ("frost", "jade", "common"):
        back = pdfread.sheet_pages(settlers / f"{deck}-en-a4.pdf")[1]
        shadings = pdfread.resources_of(back, "/Shading")
        assert {int(s["/ShadingType"]) for s in shadings.values()} == {2}, deck  # axial: top to bottom
        alphas = {float(state.get("/ca", 1)) for state in pdfread.resources_of(back, "/ExtGState").values()}
        assert 0.14 in alphas, deck  # laid over the deck's colour at 14 %
