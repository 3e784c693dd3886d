"""Images out: PNGs of every face at the asked resolution (Tabletop Simulator: test_tts.py)."""

from __future__ import annotations

import re

from conftest import edit, run
from PIL import Image

from pnp.base.paths import CARDS_DIR as CARDS

MM_PER_INCH = 25.4


def px(mm: float, dpi: int) -> int:
    return round(mm / MM_PER_INCH * dpi)


def new_game(tmp_path):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    return tmp_path / "g"


def test_png_one_file_per_face_at_the_chosen_dpi(tmp_path):
    game = new_game(tmp_path)
    result = run("export", "png", game, "--out", tmp_path / "out", "--dpi", 200)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "g" / "png-en" / "cards"
    assert sorted(p.name for p in folder.iterdir()) == ["back.png", "dawn-front.png", "dusk-front.png", "midnight-front.png", "noon-front.png"]
    with Image.open(folder / "dawn-front.png") as image:
        assert image.size == (px(63, 200), px(88, 200))
        assert image.getpixel((image.width // 2, 2)) != (255, 255, 255)  # the background reaches the trim
        assert round(image.info["dpi"][0]) == 200


def test_png_with_bleed_adds_3_mm_of_art_on_every_side(tmp_path):
    game = new_game(tmp_path)
    assert run("export", "png", game, "--out", tmp_path / "out", "--dpi", 100, "--bleed", 3).exit_code == 0
    with Image.open(tmp_path / "out" / "g" / "png-en" / "cards" / "noon-front.png") as image:
        assert image.size == (px(69, 100), px(94, 100))
        assert image.getpixel((0, 0)) == (0xFB, 0xF7, 0xEE)  # the layout's background, not paper white


def test_png_backs_that_differ_are_one_file_per_card(tmp_path):
    game = new_game(tmp_path)
    edit(game / "layouts" / "back.yaml", '"{{ strings.back }}"', '"{{ title }}"')
    assert run("export", "png", game, "--out", tmp_path / "out", "--dpi", 72).exit_code == 0
    names = sorted(p.name for p in (tmp_path / "out" / "g" / "png-en" / "cards").glob("*-back.png"))
    assert names == ["dawn-back.png", "dusk-back.png", "midnight-back.png", "noon-back.png"]


def test_png_of_a_renamed_card_replaces_the_old_one(tmp_path):
    game = new_game(tmp_path)
    folder = tmp_path / "out" / "g" / "png-en" / "cards"
    assert run("export", "png", game, "--out", tmp_path / "out", "--dpi", 72).exit_code == 0
    (folder / "notes.png").write_bytes(b"the user's own file")
    edit(game / "cards.yaml", "id: dawn", "id: sunrise")
    edit(game / "layouts" / "back.yaml", '"{{ strings.back }}"', '"{{ title }}"')
    assert run("export", "png", game, "--out", tmp_path / "out", "--dpi", 72).exit_code == 0
    names = sorted(p.name for p in folder.iterdir())
    assert "dawn-front.png" not in names and "sunrise-front.png" in names
    assert "back.png" not in names and "sunrise-back.png" in names  # the backs differ now: one per card
    assert "notes.png" in names  # not a name pnp writes: left alone


def test_png_in_another_language_and_errors_stop_the_export(tmp_path):
    game = new_game(tmp_path)
    result = run("export", "png", game, "--out", tmp_path / "out", "--lang", "de")
    assert result.exit_code == 1
    assert "has no de translation" in result.output
    assert not (tmp_path / "out").exists()
    result = run("export", "png", game, "--out", tmp_path / "out", "--lang", "de", "--allow-untranslated", "--dpi", 72)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "g" / "png-de" / "cards" / "dawn-front.png").is_file()


def test_png_refuses_a_board_above_the_pixel_budget_and_says_the_dpi_that_fits(tmp_path):
    result = run("export", "png", CARDS / "ages", "--deck", "board", "--dpi", 1200, "--out", tmp_path / "out")
    assert result.exit_code == 1, result.output
    match = re.search(
        r"game\.yaml:\d+:\d+: deck 'board': the front of 'board' at 1200 dpi is (\d+) x (\d+) pixels \(\d+ megapixels\); "
        r"pnp exports at most 100 megapixels per image: expected --dpi (\d+) or less \[image-too-large\]",
        result.output,
    )
    assert match, result.output
    width, height, fit = (int(n) for n in match.groups())
    assert width * height > 100_000_000
    ratio = width / 1200, height / 1200
    assert round(ratio[0] * fit) * round(ratio[1] * fit) <= 100_000_000 < round(ratio[0] * (fit + 1)) * round(ratio[1] * (fit + 1))
    assert not (tmp_path / "out").exists()


def truncated_png(path, size=(200, 200)):
    Image.effect_noise(size, 60).convert("RGB").save(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def test_png_draws_each_card_in_the_layout_it_chooses(tmp_path):
    """A deck that chooses its layout per card is exported in each card's own layout, as
    `pnp build` prints it, not all in the first card's."""
    game = new_game(tmp_path)
    wide = (game / "layouts" / "card.yaml").read_text(encoding="utf-8").replace("size: [63, 88]", "size: [88, 63]", 1)
    (game / "layouts" / "wide.yaml").write_text(wide.replace("[6, 30, 51, 50]", "[6, 20, 76, 30]"), encoding="utf-8")
    back = (game / "layouts" / "back.yaml").read_text(encoding="utf-8").replace("size: [63, 88]", "size: [88, 63]", 1)
    (game / "layouts" / "wide-back.yaml").write_text(back, encoding="utf-8")
    edit(game / "game.yaml", "front: card ", "front: \"{{ 'wide' if value > 4 else 'card' }}\" ")
    edit(game / "game.yaml", "back: back ", "back: \"{{ 'wide-back' if value > 4 else 'back' }}\" ")
    result = run("export", "png", game, "--out", tmp_path / "out", "--dpi", 100)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "g" / "png-en" / "cards"
    sizes = {}
    for card in ("dawn", "noon", "dusk", "midnight"):
        with Image.open(folder / f"{card}-front.png") as image:
            sizes[card] = image.size
    assert sizes == {
        "dawn": (px(63, 100), px(88, 100)),
        "dusk": (px(63, 100), px(88, 100)),
        "noon": (px(88, 100), px(63, 100)),
        "midnight": (px(88, 100), px(63, 100)),
    }
    result = run("export", "tts", game, "--out", tmp_path / "tts")
    assert result.exit_code == 1
    assert "deck 'cards' has cards of 2 sizes (63 x 88 mm, 88 x 63 mm), chosen per card; Tabletop Simulator takes one size per deck" in result.output
    assert not (tmp_path / "tts").exists()


def test_png_is_rendered_at_its_exact_pixels_never_resampled(tmp_path):
    game = new_game(tmp_path)
    layout = game / "layouts" / "card.yaml"  # black left half, white right half, on top of everything: their edge at 31.5 mm
    halves = '  - rect: [-3, -3, 34.5, 94]\n    fill: "#000000"\n  - rect: [31.5, -3, 34.5, 94]\n    fill: "#ffffff"\n'
    layout.write_text(layout.read_text(encoding="utf-8") + halves, encoding="utf-8")
    for dpi in (254, 300):  # at both, the image's size is not a whole number of points: it used to be drawn a pixel larger and resized
        assert run("export", "png", game, "--out", tmp_path / "out", "--dpi", dpi).exit_code == 0
        with Image.open(tmp_path / "out" / "g" / "png-en" / "cards" / "dawn-front.png") as image:
            assert image.size == (px(63, dpi), px(88, dpi))
            edge = 31.5 / 63 * image.size[0]  # the art is stretched by less than a pixel to whole pixels
            row = [image.getpixel((x, image.size[1] // 2)) for x in range(image.size[0])]
            assert set(row[: int(edge)]) == {(0, 0, 0)} and set(row[int(edge) + 1 :]) == {(255, 255, 255)}, dpi  # sharp: no resampling's ringing


def test_png_draws_a_turned_and_translucent_element_as_the_pdf_does(tmp_path):
    game = new_game(tmp_path)
    edit(
        game / "layouts" / "card.yaml",
        "  - line: [10, 27, 53, 27]",
        "  - rect: [29, 10, 5, 60]\n    fill: '#ff0000'\n    rotate: 90\n    opacity: 0.5\n  - line: [10, 27, 53, 27]",
    )
    assert run("export", "png", game, "--out", tmp_path / "out", "--dpi", 254).exit_code == 0  # 10 px per mm
    with Image.open(tmp_path / "out" / "g" / "png-en" / "cards" / "dawn-front.png") as image:
        r, g, b = image.getpixel((65, 400))[:3]  # 6.5 mm from the left, 40 from the top: the bar turned across the card
        assert r > 240 and 110 < g < 150 and 110 < b < 150  # half red over the pale background
        assert image.getpixel((315, 150))[:3] == image.getpixel((315, 820))[:3]  # where the bar stood upright: the background
