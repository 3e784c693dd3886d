"""A font file that is not what fonts.yaml says: one located error at its line in fonts.yaml."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from conftest import edit, make_small_game, run
from pdfread import fonts

from pnp.base.paths import FONTS_DIR

SFNT = 0x00010000  # the version a TrueType file begins with


def _game_with_font(folder: Path, data: bytes) -> Path:
    game = make_small_game(folder)
    (game / "fonts").mkdir()
    (game / "fonts" / "fonts.yaml").write_text("# the game's own font\nown: own.ttf\n", encoding="utf-8")
    (game / "fonts" / "own.ttf").write_bytes(data)
    (game / "layouts").mkdir()
    (game / "layouts" / "mine.yaml").write_text(
        "size: [63, 88]\nelements:\n  - text: '{{ title }}'\n    box: [5, 5, 50, 20]\n    font: own\n", encoding="utf-8"
    )
    edit(game / "game.yaml", "front: basic/card", "front: mine")
    return game


def _stretched_cmap() -> bytes:
    """Source Sans Pro with the first group of its Unicode cmap (format 12) stretched to
    U+FFFFFF: 16 million characters, which reportlab would read one by one into gigabytes."""
    data = bytearray((FONTS_DIR / "SourceSansPro-Regular.ttf").read_bytes())
    tables = struct.unpack_from(">H", data, 4)[0]
    cmap = next(struct.unpack_from(">L", data, 12 + 16 * n + 8)[0] for n in range(tables) if data[12 + 16 * n : 16 + 16 * n] == b"cmap")
    for record in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * record)
        if (platform, encoding) == (3, 10):
            struct.pack_into(">L", data, cmap + offset + 16 + 4, 0xFFFFFF)  # the first group's last character
    return bytes(data)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (struct.pack(">IHHHH", SFNT, 0, 0, 0, 0), "it has no 'name' table"),  # a valid header naming no tables
        ((FONTS_DIR / "SourceSerifPro-Regular.ttf").read_bytes()[:300], "it ends before its tables do (a file cut short?)"),
        (b"\x13\x37 junk bytes " * 10, "Not a recognized TrueType font: version=0x1337206A"),
        (b"", "is not a TTF file: can't read version"),
        (_stretched_cmap(), "its character map claims 16,"),
    ],
    ids=["no tables", "cut short", "junk", "empty", "too many characters"],
)
def test_a_damaged_font_is_an_error_at_its_line_in_fonts_yaml(tmp_path: Path, data: bytes, why: str):
    game = _game_with_font(tmp_path / "hra", data)
    for command in ("check", "build"):
        result = run(command, game, "--out", tmp_path / "out") if command == "build" else run(command, game)
        assert result.exit_code == 1, result.output
        assert (
            "fonts.yaml:2:6: font 'own' (" in result.output
            and f"own.ttf) cannot be used: {why}" in result.output
            and "; expected a TrueType (.ttf) file [font-unreadable]" in result.output
        )
        assert "internal error" not in result.output and result.output.count("[font-unreadable]") == 1


def _game_with_fonts_yaml(folder: Path, listing: str) -> Path:
    game = make_small_game(folder)
    (game / "fonts").mkdir()
    (game / "fonts" / "fonts.yaml").write_text(listing, encoding="utf-8")
    return game


def test_a_language_may_be_drawn_in_a_font_file_pnp_bundles(tmp_path: Path):
    """fonts.yaml names DejaVuSans.ttf, which the game does not have: pnp's own file is used
    (the Hebrew and Arabic editions of docs/examples/elements are drawn so)."""
    game = _game_with_fonts_yaml(
        tmp_path / "hra", "sk:\n  sans: DejaVuSans.ttf\n  sans-bold: DejaVuSans-Bold.ttf\n  serif: DejaVuSans.ttf\n  serif-bold: DejaVuSans-Bold.ttf\n"
    )
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    (pdf,) = (tmp_path / "out").rglob("cards-*.pdf")
    used = {name.split("+")[-1] for name in fonts(pdf)}
    assert "DejaVuSans" in used and "DejaVuSans-Bold" in used, used


def test_a_font_file_neither_the_game_nor_pnp_has_is_an_error_at_its_line(tmp_path: Path):
    game = _game_with_fonts_yaml(tmp_path / "hra", "sk:\n  sans: DejaVuSansMono.ttf\n")
    result = run("check", game)
    assert result.exit_code == 1, result.output
    assert (
        "hra/fonts/fonts.yaml:2:9: font file 'DejaVuSansMono.ttf' does not exist; expected a .ttf file beside fonts.yaml, or one that pnp bundles (DejaVuSans.ttf, ...) [font-missing]"
        in result.output
    ), result.output


def test_two_games_whose_own_fonts_share_a_name_each_draw_in_their_own_file(tmp_path: Path):
    """One process for several games (the tests; a server of several): a second game whose
    'own' font is another file does not replace the first game's 'own' for the first game."""
    serif = _game_with_font(tmp_path / "serif", (FONTS_DIR / "SourceSerifPro-Regular.ttf").read_bytes())
    dejavu = _game_with_font(tmp_path / "dejavu", (FONTS_DIR / "DejaVuSans.ttf").read_bytes())
    used = {}
    for game, out in ((serif, "one"), (dejavu, "two"), (serif, "three")):
        result = run("build", game, "--out", tmp_path / out)
        assert result.exit_code == 0, result.output
        (pdf,) = (tmp_path / out).rglob("cards-*.pdf")
        used[out] = {name.split("+")[-1] for name in fonts(pdf)}
    assert "SourceSerifPro-Regular" in used["one"] and "DejaVuSans" in used["two"]
    assert used["three"] == used["one"], used
