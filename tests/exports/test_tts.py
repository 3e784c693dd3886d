"""`pnp export tts`: the whole table as one Tabletop Simulator saved object, checked against
the structure TTS loads (object names, CustomDeck entries, card ids that index into their
sheets, sheet sizes in pixels) and against the game's data (every card, its copies)."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path, PurePosixPath, PureWindowsPath
from urllib.parse import unquote, urlparse

import pytest
from conftest import edit, line_of, run
from PIL import Image, ImageChops, ImageStat

from pnp.base.paths import CARDS_DIR as CARDS
from pnp.exports import tts
from pnp.load.game import load_game
from pnp.project.deals import deal_members
from pnp.project.project import prepare

CUSTOM_DECK_KEYS = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}
TRANSFORM_KEYS = {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}


def px(mm: float, dpi: int) -> int:
    return round(mm / 25.4 * dpi)


def export(game: Path, out: Path, *args) -> tuple[dict, str]:
    result = run("export", "tts", game, "--out", out, *args)
    assert result.exit_code == 0, result.output
    (saved,) = out.glob("*/tts-*/*.json")
    return json.loads(saved.read_text(encoding="utf-8")), result.output


def game_objects(saved: dict) -> list[dict]:
    """The objects of the game, without the calibration card and tile."""
    return [obj for obj in saved["ObjectStates"] if not obj["Nickname"].startswith("pnp calibration")]


def calibration(saved: dict) -> dict[str, dict]:
    return {obj["Name"]: obj for obj in saved["ObjectStates"] if obj["Nickname"].startswith("pnp calibration")}


def tiles(saved: dict) -> list[dict]:
    """Every Custom_Tile of the game, those in bags too."""
    found = []
    for obj in game_objects(saved):
        found.extend(obj["ContainedObjects"] if obj["Name"] == "Bag" else [obj] if obj["Name"] == "Custom_Tile" else [])
    return found


def every_object(objects: list[dict]):
    for obj in objects:
        yield obj
        yield from every_object(obj.get("ContainedObjects", []))


def local(url: str) -> Path:
    assert url.startswith("file:///"), url
    return Path(unquote(urlparse(url).path))


def check_deck(obj: dict, images: bool = True) -> list[tuple[str, int]]:
    """The deck's (card id, CardID) per card, after checking it is a deck TTS loads: its
    ids index into its sheets, whose pixel size is their grid of equal cells."""
    assert set(obj["Transform"]) == TRANSFORM_KEYS
    cards = obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]
    if obj["Name"] == "DeckCustom":
        assert obj["DeckIDs"] == [card["CardID"] for card in cards]
    for sheet in obj["CustomDeck"].values():
        assert set(sheet) == CUSTOM_DECK_KEYS and sheet["Type"] == 0 and sheet["BackIsHidden"] is True
        assert 1 <= sheet["NumWidth"] <= 10 and 1 <= sheet["NumHeight"] <= 7
        if images:
            with Image.open(local(sheet["FaceURL"])) as face:
                assert face.width % sheet["NumWidth"] == 0 and face.height % sheet["NumHeight"] == 0
                assert max(face.size) <= 4096
                if sheet["UniqueBack"]:
                    with Image.open(local(sheet["BackURL"])) as back:
                        assert back.size == face.size
                else:
                    with Image.open(local(sheet["BackURL"])) as back:
                        assert back.size == (face.width // sheet["NumWidth"], face.height // sheet["NumHeight"])
    for card in cards:
        assert card["Name"] == "Card" and set(card["Transform"]) == TRANSFORM_KEYS
        key, cell = divmod(card["CardID"], 100)
        sheet = obj["CustomDeck"][str(key)]
        assert cell < sheet["NumWidth"] * sheet["NumHeight"]
        assert card["CustomDeck"] == {str(key): sheet}  # each card carries its sheet, as TTS writes it
        assert card["SidewaysCard"] == obj["SidewaysCard"] and (card["Transform"]["scaleX"], card["Transform"]["scaleZ"]) == (
            obj["Transform"]["scaleX"],
            obj["Transform"]["scaleZ"],
        )
    return [(card["GMNotes"], card["CardID"]) for card in cards]


@pytest.fixture(scope="module")
def mesta(tmp_path_factory):
    return export(CARDS / "mesta", tmp_path_factory.mktemp("mesta"))


def test_mesta_saved_object_holds_54_cities_75_events_and_its_aids(mesta):
    saved, output = mesta
    game, _ = load_game(CARDS / "mesta")
    assert saved["SaveName"] == "Mestá"
    decks = {obj["Nickname"]: obj for obj in game_objects(saved)}
    assert [obj["Name"] for obj in game_objects(saved)] == ["DeckCustom"] * 3
    for deck_id, expected in (("cities", 54), ("events", 75), ("aids", game.decks["aids"].count)):
        deck = game.decks[deck_id]
        cards = check_deck(decks[deck.name])
        assert len(cards) == expected == deck.count
        names = Counter(name for name, _ in cards)
        for card in deck.cards:  # every card, as many times as the data says
            assert names[card.id] == card.copies
        ids = Counter(card_id for _, card_id in cards)
        assert sorted(ids.values()) == sorted(card.copies for card in deck.cards)  # one sheet cell per distinct card
    assert "Saved Objects" in output and "Objects > Saved Objects" in output
    assert "Library/Tabletop Simulator/Saves/Saved Objects" in output and ".local/share/Tabletop Simulator" in output


def card_size(game: Path, deck: str) -> tuple[float, float]:
    return prepare(game, [deck]).layouts[deck][0].size


def test_sheet_cells_are_the_cards_at_the_asked_dpi_and_a_small_deck_gets_a_small_grid(mesta):
    saved, output = mesta
    game, _ = load_game(CARDS / "mesta")
    names = {deck.name: deck.id for deck in game.decks.values()}
    for obj in game_objects(saved):
        width, height = card_size(CARDS / "mesta", names[obj["Nickname"]])
        for sheet in obj["CustomDeck"].values():
            with Image.open(local(sheet["FaceURL"])) as face:
                assert face.size == (sheet["NumWidth"] * px(width, 150), sheet["NumHeight"] * px(height, 150))
    aids = next(obj for obj in game_objects(saved) if obj["DeckIDs"] and len(set(obj["DeckIDs"])) < 3)
    (sheet,) = aids["CustomDeck"].values()
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (len(set(aids["DeckIDs"])), 1)  # not a 10 x 7 sheet for one aid
    assert re.search(r"cities-1\.jpg .*Width 10, Height 6, Number 54", output)


def test_large_cards_get_a_grid_that_fits_4096_pixels(tmp_path):
    saved, output = export(CARDS / "mesta", tmp_path, "--deck", "events", "--dpi", 300)
    (deck,) = game_objects(saved)
    assert len(check_deck(deck)) == 75
    width, height = card_size(CARDS / "mesta", "events")
    cell = (px(width, 300), px(height, 300))
    for sheet in deck["CustomDeck"].values():
        assert sheet["NumWidth"] <= 4096 // cell[0] and sheet["NumHeight"] <= 4096 // cell[1]
    assert sum(1 for _ in deck["CustomDeck"]) == -(-53 // ((4096 // cell[0]) * (4096 // cell[1])))  # 53 distinct events
    assert "warning" not in output.lower()


def test_boards_maps_and_tokens_are_tiles_in_their_shapes_and_copies_are_in_bags(tmp_path):
    saved, _ = export(CARDS / "ages", tmp_path)
    game, _ = load_game(CARDS / "ages")
    objects = game_objects(saved)
    by_name = Counter(obj["GMNotes"] for obj in tiles(saved))
    boards = [obj for obj in tiles(saved) if obj["GMNotes"] in {card.id for d in ("board", "nations", "row") for card in game.decks[d].cards}]
    assert {obj["GMNotes"] for obj in boards} == {card.id for d in ("board", "nations", "row") for card in game.decks[d].cards}
    for deck_id in ("board", "nations", "row", "counters"):
        for card in game.decks[deck_id].cards:
            assert by_name[card.id] == card.copies  # every piece, as many times as the data says
    for obj in boards:
        assert obj["CustomImage"]["CustomTile"]["Type"] == 0 and obj["CustomImage"]["CustomTile"]["Stackable"] is False
        assert local(obj["CustomImage"]["ImageURL"]).is_file()
    counters = game.decks["counters"]
    for card in counters.cards:  # a counter the game has several times: a bag of exactly its copies
        (held,) = [obj for obj in objects if obj.get("GMNotes") == card.id]
        if card.copies == 1:
            assert held["Name"] == "Custom_Tile"
            continue
        assert held["Name"] == "Bag" and len(held["ContainedObjects"]) == card.copies
        assert len({json.dumps(obj["CustomImage"]) for obj in held["ContainedObjects"]}) == 1
    for obj in tiles(saved):
        if obj["GMNotes"] in {card.id for card in counters.cards}:
            tile = obj["CustomImage"]["CustomTile"]
            assert tile["Type"] == 2 and tile["Stackable"] is True  # round counters: circle tiles
    assert len(objects) < 50 < counters.count  # not one object per copy
    decks = [obj for obj in objects if obj["Name"] in ("DeckCustom", "Card")]
    assert sum(len(check_deck(obj, images=False)) for obj in decks) == sum(game.decks[d].count for d in ("civil", "military", "aids"))


def test_two_sided_square_tokens_and_boards(tmp_path):
    saved, output = export(CARDS / "scharz", tmp_path, "--deck", "markers", "--deck", "map")
    markers = [obj for obj in tiles(saved) if "markers" in obj["CustomImage"]["ImageURL"]]
    assert markers and all(obj["CustomImage"]["CustomTile"]["Type"] == 0 for obj in markers)  # square markers
    assert all(local(obj["CustomImage"]["ImageSecondaryURL"]).is_file() for obj in markers)  # with their backs
    assert "square token" in output
    assert any("map" in obj["CustomImage"]["ImageURL"] for obj in tiles(saved))


def test_deal_keeps_only_its_components(tmp_path):
    game, _ = load_game(CARDS / "mesta")
    deal = "quick"  # fewer empires: not every city
    members = deal_members(game, deal)
    saved, _ = export(CARDS / "mesta", tmp_path, "--deal", deal, "--deck", "cities")
    (deck,) = game_objects(saved)
    names = Counter(name for name, _ in check_deck(deck))
    expected = {card.id: card.copies for card in game.decks["cities"].cards if card.id in members}
    assert dict(names) == expected and len(expected) < len(game.decks["cities"].cards)
    assert deal in saved["SaveName"]


def test_base_url_names_the_uploaded_images(tmp_path):
    saved, output = export(CARDS / "scharz", tmp_path, "--base-url", "https://example.org/mine/", "--deck", "goods")
    urls = [obj["CustomImage"][key] for obj in tiles(saved) for key in ("ImageURL", "ImageSecondaryURL")]
    assert urls and all(url.startswith("https://example.org/mine/goods/") for url in urls)
    folder = next(tmp_path.glob("*/tts-*"))
    assert all((folder / url.removeprefix("https://example.org/mine/")).is_file() for url in urls)
    assert "file:" not in json.dumps(saved) and "https://example.org/mine" in output
    assert all(url.startswith("https://example.org/mine/calibration-") for url in json.dumps(calibration(saved)).split('"') if "example.org" in url)


def new_game(tmp_path):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    return tmp_path / "g"


def test_copies_repeat_card_ids_and_the_same_game_gives_the_same_files(tmp_path):
    game = new_game(tmp_path)
    first, _ = export(game, tmp_path / "a", "--dpi", 60)
    second, _ = export(game, tmp_path / "b", "--dpi", 60)
    (deck,) = game_objects(first)
    cards = check_deck(deck)
    assert len(cards) == 5 and len({card_id for _, card_id in cards}) == 4  # noon twice, on the sheet once
    for name in ("cards-1.jpg", "cards-back.jpg"):
        assert (tmp_path / "a" / "g" / "tts-en" / name).read_bytes() == (tmp_path / "b" / "g" / "tts-en" / name).read_bytes()
    a, b = (json.dumps(doc).replace(str(tmp_path / x), "") for doc, x in ((first, "a"), (second, "b")))
    assert a == b
    with Image.open(tmp_path / "a" / "g" / "tts-en" / "cards-1.jpg") as sheet:
        w, h = px(63, 60), px(88, 60)
        assert sheet.size == (4 * w, h)
        first_card, second_card = sheet.crop((0, 0, w, h)), sheet.crop((w, 0, 2 * w, h))
        assert max(ImageStat.Stat(ImageChops.difference(first_card, second_card)).mean) > 2  # different cards


def test_larger_sheets_warn_what_they_cost_and_a_card_tts_cannot_load_is_refused(tmp_path):
    game = new_game(tmp_path)
    result = run("export", "tts", game, "--out", tmp_path / "a", "--dpi", 60, "--max-sheet", 8192)
    assert result.exit_code == 0, result.output
    assert re.search(r"sheets up to 8192 px a side take up to 256 MB of video memory each .*\[tts-large-sheets\]", result.output), result.output
    result = run("export", "tts", CARDS / "ages", "--deck", "row", "--dpi", 600, "--out", tmp_path / "b")
    assert result.exit_code == 1
    assert re.search(
        r"deck 'row': a board at 600 dpi is \d+ x \d+ pixels; Tabletop Simulator takes at most 10000 a side: expected --dpi \d+ or less", result.output
    )
    assert not (tmp_path / "b").exists()


def test_a_board_above_4096_pixels_is_a_warning_with_the_dpi_that_fits(tmp_path):
    result = run("export", "tts", CARDS / "ages", "--deck", "row", "--dpi", 200, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert re.search(
        r"deck 'row': a board at 200 dpi is 5039 x \d+ pixels, \d+ MB of video memory, .*expected --dpi 16[0-9] or less \[tts-large-image\]", result.output
    )


def truncated_png(path, size=(200, 200)):
    Image.effect_noise(size, 60).convert("RGB").save(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def test_tts_with_a_truncated_picture_names_the_file_and_writes_nothing(tmp_path):
    game = tmp_path / "ages"
    shutil.copytree(CARDS / "ages", game)
    truncated_png(game / "art.png")
    edit(game / "layouts" / "aid.yaml", '  - text: "{{ title }}"', '  - image: art.png\n    box: [5, 20, 20, 20]\n  - text: "{{ title }}"')
    result = run("export", "tts", game, "--deck", "aids", "--out", tmp_path / "out")
    assert result.exit_code == 1, result.output
    at = line_of(game / "layouts" / "aid.yaml", "image: art.png")
    assert f"layouts/aid.yaml:{at}:5: image 'art.png' is damaged (" in result.output
    assert result.output.count("[image-damaged]") == 1  # one image, one error, however many cards show it
    assert "internal error" not in result.output and not (tmp_path / "out").exists()


def test_a_card_is_named_by_its_title_as_errata_and_the_preview_name_it():
    from types import SimpleNamespace

    from pnp.exports.tts import _name

    assert _name(SimpleNamespace(id="c1", fields={"name": "Rome", "title": "Roma"})) == "Roma"
    assert _name(SimpleNamespace(id="c1", fields={"name": "Rome"})) == "Rome"
    assert _name(SimpleNamespace(id="c1", fields={"title": " "})) == "c1"


@pytest.mark.parametrize(
    ("path", "url"),
    [
        (
            PureWindowsPath("C:\\Users\\Jožo Mrkvička\\Documents\\My Games\\Tabletop Simulator\\Saved Objects\\mesta\\cities.png"),
            "file:///C:/Users/Jo%C5%BEo%20Mrkvi%C4%8Dka/Documents/My%20Games/Tabletop%20Simulator/Saved%20Objects/mesta/cities.png",
        ),
        (PureWindowsPath("D:\\hry\\Ťava & Ďateľ\\x.png"), "file:///D:/hry/%C5%A4ava%20%26%20%C4%8Eate%C4%BE/x.png"),
        (PurePosixPath("/home/jožo/Saved Objects/x.png"), "file:///home/jo%C5%BEo/Saved%20Objects/x.png"),
    ],
)
def test_file_urls_of_folders_with_spaces_and_diacritics(path, url):
    """What TTS reads: the drive after three slashes, forward slashes, UTF-8 percent-encoded."""
    assert tts.file_url(path) == url


def test_uploaded_urls_of_windows_paths_use_forward_slashes():
    root = PureWindowsPath("C:\\Users\\Jožo Mrkvička\\out")
    urls = tts.Urls(root, "https://example.org/mine/")
    assert urls.of(root / "mesta" / "Ťažké karty.png") == "https://example.org/mine/mesta/%C5%A4a%C5%BEk%C3%A9%20karty.png"


def shown_card_mm(obj: dict, units: tts.Units | None = None) -> tuple[float, float]:
    """What the model says TTS shows of a card object: its scale on each axis times the
    card at scale 1, turned when it lies sideways."""
    units = units or tts.Units()
    across, along = (units.card[1], units.card[0]) if obj["SidewaysCard"] else units.card
    return obj["Transform"]["scaleX"] * across, obj["Transform"]["scaleZ"] * along


def test_cards_show_at_their_size_on_each_axis_and_mestas_two_decks_keep_their_ratio(mesta):
    saved, _ = mesta
    game, _ = load_game(CARDS / "mesta")
    decks = {obj["Nickname"]: obj for obj in game_objects(saved)}
    shown = {}
    for deck_id in ("cities", "events"):
        width, height = card_size(CARDS / "mesta", deck_id)
        obj = decks[game.decks[deck_id].name]
        shown[deck_id] = shown_card_mm(obj)
        assert shown[deck_id] == pytest.approx((width, height), abs=0.01)
        assert obj["SidewaysCard"] is False and obj["Transform"]["scaleY"] == 1.0
    (cities_w, cities_h), (events_w, events_h) = card_size(CARDS / "mesta", "cities"), card_size(CARDS / "mesta", "events")
    assert shown["cities"][1] / shown["events"][1] == pytest.approx(cities_h / events_h, abs=0.001)  # 68 / 88, as printed
    assert shown["cities"][0] / shown["events"][0] == pytest.approx(cities_w / events_w, abs=0.001)


def test_tokens_and_boards_show_at_their_size_beside_the_cards(tmp_path):
    saved, _ = export(CARDS / "ages", tmp_path, "--dpi", 40)
    project = prepare(CARDS / "ages")
    game, _ = load_game(CARDS / "ages")
    deck_of = {card.id: deck.id for deck in game.decks.values() for card in deck.cards}
    for obj in tiles(saved):
        width, height = project.layouts[deck_of[obj["GMNotes"]]][0].size
        assert obj["Transform"]["scaleX"] == obj["Transform"]["scaleZ"]  # a tile keeps its image's proportions
        assert obj["Transform"]["scaleX"] * tts.TILE_MM == pytest.approx(max(width, height), abs=0.01)


def test_the_calibration_card_and_tile_are_the_same_size_and_measurements_correct_every_scale(tmp_path):
    saved, output = export(CARDS / "mesta", tmp_path / "a", "--deck", "cities", "--dpi", 40)
    parts = calibration(saved)
    side = tts.CALIBRATION_UNITS * tts.UNIT_MM
    assert shown_card_mm(parts["Card"]) == pytest.approx((side, side), abs=0.01)
    assert parts["Custom_Tile"]["Transform"]["scaleX"] * tts.TILE_MM == pytest.approx(side, abs=0.01)
    assert local(parts["Card"]["CustomDeck"][str(parts["Card"]["CardID"] // 100)]["FaceURL"]).is_file()
    assert "should each measure 2 x 2 in" in output and "--calibration ACROSS,ALONG,TILE" in output
    # a TTS that showed the card 2.2 across, 1.8 along, and the tile 3: every size corrected
    corrected, _ = export(CARDS / "mesta", tmp_path / "b", "--deck", "cities", "--dpi", 40, "--calibration", "2.2,1.8,3")
    units = tts.Units((tts.CARD_MM[0] * 1.1, tts.CARD_MM[1] * 0.9), tts.TILE_MM * 1.5)
    (deck,) = game_objects(corrected)
    assert shown_card_mm(deck, units) == pytest.approx(card_size(CARDS / "mesta", "cities"), abs=0.01)
    assert shown_card_mm(calibration(corrected)["Card"], units) == pytest.approx((side, side), abs=0.01)
    assert calibration(corrected)["Custom_Tile"]["Transform"]["scaleX"] * units.tile == pytest.approx(side, abs=0.01)
    assert shown_card_mm(deck)[0] < card_size(CARDS / "mesta", "cities")[0]  # a card TTS showed too wide is made narrower


@pytest.mark.parametrize("value", ["2,2", "2,x,2", "2,0,2", "nan,2,2"])
def test_a_calibration_that_is_not_three_lengths_is_refused(tmp_path, value):
    result = run("export", "tts", new_game(tmp_path), "--calibration", value, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert f"'{value}' is not three lengths; expected ACROSS,ALONG,TILE in inches" in result.output
    assert not (tmp_path / "out").exists()


def test_guids_are_six_hex_digits_unique_in_the_save_and_the_same_for_the_same_game(tmp_path):
    first, _ = export(CARDS / "scharz", tmp_path / "a", "--dpi", 36)
    second, _ = export(CARDS / "scharz", tmp_path / "b", "--dpi", 36)
    guids = [obj["GUID"] for obj in every_object(first["ObjectStates"])]
    assert len(guids) > 60 and len(set(guids)) == len(guids)
    assert all(re.fullmatch(r"[0-9a-f]{6}", guid) for guid in guids)
    assert guids == [obj["GUID"] for obj in every_object(second["ObjectStates"])]


def test_guids_that_collide_are_made_unique_in_the_same_way_each_time():
    guids = tts.Guids()
    first, second = guids.of("card/x/1/0"), guids.of("card/x/1/0")  # the same key twice: as two objects whose GUIDs collide
    assert first != second and re.fullmatch(r"[0-9a-f]{6}", second)
    again = tts.Guids()
    assert [again.of("card/x/1/0"), again.of("card/x/1/0")] == [first, second]


def test_cards_have_their_texts_as_description_without_markup(tmp_path):
    saved, _ = export(new_game(tmp_path), tmp_path / "out", "--dpi", 36)
    (deck,) = game_objects(saved)
    described = {card["GMNotes"]: card["Description"] for card in deck["ContainedObjects"]}
    assert described["noon"] == "Play two cards this turn."  # '**two**' in cards.yaml
    assert described["dawn"] == "Draw a card."
    assert described["midnight"] == ""  # no text


def test_landscape_cards_lie_sideways_at_their_size(tmp_path):
    game = new_game(tmp_path)
    for name in ("card", "back"):
        edit(game / "layouts" / f"{name}.yaml", "size: [63, 88]", "size: [88, 63]")
    saved, _ = export(game, tmp_path / "out", "--dpi", 36)
    (deck,) = game_objects(saved)
    check_deck(deck)
    assert deck["SidewaysCard"] is True and all(card["SidewaysCard"] is True for card in deck["ContainedObjects"])
    assert shown_card_mm(deck) == pytest.approx((88, 63), abs=0.01)
    assert calibration(saved)["Card"]["SidewaysCard"] is False


def test_the_thumbnail_is_the_first_cards_face_small(tmp_path):
    saved, output = export(new_game(tmp_path), tmp_path / "out", "--dpi", 150)
    folder = tmp_path / "out" / "g" / "tts-en"
    with Image.open(folder / "g.png") as thumbnail, Image.open(folder / "cards-1.jpg") as sheet:
        assert max(thumbnail.size) == tts.THUMBNAIL_PIXELS
        first = sheet.crop((0, 0, px(63, 150), px(88, 150))).convert("RGB").resize(thumbnail.size)
        assert max(ImageStat.Stat(ImageChops.difference(first, thumbnail.convert("RGB"))).mean) < 8
    assert "its thumbnail g.png" in output


def test_only_the_thumbnail_the_save_shows_is_made(tmp_path, monkeypatch):
    """Mestá has three decks and one thumbnail: a face made small for each deck cost a
    resize of each deck's first card for nothing."""
    made = []
    monkeypatch.setattr(tts, "_thumbnail", lambda image, made_small=tts._thumbnail: made.append(image.size) or made_small(image))
    saved, _ = export(CARDS / "mesta", tmp_path / "out", "--dpi", 36)
    assert len(game_objects(saved)) == 3
    assert len(made) == 1
