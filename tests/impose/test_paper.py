"""Papers: every named paper at its standard size, any custom size WIDTHxHEIGHT in mm,
wherever a paper is named (--paper of every command, the file names, the PDF's
subject), and a paper that is neither refused with what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_small_game, run
from makers import make_game
from pdfread import MM, reader

INCH = 72.0
# The standards' sizes, portrait, as a printer's driver lists them (ISO 216, ANSI, ANSI/ASME Y14.1 architectural).
STANDARD = {
    "a3": (297 * MM, 420 * MM),
    "a3+": (329 * MM, 483 * MM),
    "a4": (210 * MM, 297 * MM),
    "a5": (148 * MM, 210 * MM),
    "b4": (250 * MM, 353 * MM),
    "b5": (176 * MM, 250 * MM),
    "letter": (8.5 * INCH, 11 * INCH),
    "legal": (8.5 * INCH, 14 * INCH),
    "half-letter": (5.5 * INCH, 8.5 * INCH),
    "tabloid": (11 * INCH, 17 * INCH),
    "ansi-c": (17 * INCH, 22 * INCH),
    "arch-a": (9 * INCH, 12 * INCH),
    "arch-b": (12 * INCH, 18 * INCH),
    "arch-c": (18 * INCH, 24 * INCH),
}


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return make_small_game(tmp_path_factory.mktemp("game") / "hra")


def size(pdf: Path) -> tuple[float, float]:
    box = reader(pdf).pages[0].mediabox
    return float(box.width), float(box.height)


@pytest.mark.parametrize("name", list(STANDARD))
def test_every_named_paper_is_its_standard_size(tmp_path, name):
    result = run("calibrate", "--paper", name, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    width, height = size(tmp_path / f"calibration-{name}-long.pdf")
    assert width == pytest.approx(STANDARD[name][0], abs=0.2) and height == pytest.approx(STANDARD[name][1], abs=0.2)


def test_a_custom_paper_names_the_files_and_the_subject(game, tmp_path):
    result = run("build", game, "--paper", "300X450", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "hra" / "cards-sk-300x450.pdf"
    assert size(pdf) == pytest.approx((300 * MM, 450 * MM), abs=0.01)
    assert reader(pdf).metadata["/Subject"].startswith("2 karty, 300 x 450 mm, obojstranne")  # in the game's language (Slovak)


def test_a_paper_in_inches_is_that_size_named_in_inches(game, tmp_path):
    """A size in inches, as US users and copy shops give it: exact to the point, the files
    and the subject named as given, the rulebook on Letter (a US paper)."""
    for value in ("11x17in", "11 x 17 in", '11x17"', "11X17 inches"):
        result = run("build", game, "--paper", value, "--out", tmp_path / "in")
        assert result.exit_code == 0, result.output
        pdf = tmp_path / "in" / "hra" / "cards-sk-11x17in.pdf"
        assert size(pdf) == pytest.approx((11 * INCH, 17 * INCH), abs=0.01)
        assert "11 x 17 in" in reader(pdf).metadata["/Subject"]
    result = run("build", make_game(tmp_path / "g"), "--paper", "8.5x13in", "--out", tmp_path / "book")
    assert result.exit_code == 0, result.output
    assert {p.name for p in (tmp_path / "book" / "g").glob("rules-basic-*.pdf")} == {"rules-basic-sk-letter.pdf", "rules-basic-sk-half-letter-booklet.pdf"}


@pytest.mark.parametrize("value, name", [("A3+", "a3+"), ("super b", "a3+"), ("ANSI B", "tabloid"), ("half_letter", "half-letter"), ("Arch  B", "arch-b")])
def test_a_name_is_read_whatever_its_case_spaces_or_underscores(game, tmp_path, value, name):
    result = run("build", game, "--paper", value, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert size(tmp_path / "hra" / f"cards-sk-{name}.pdf") == pytest.approx(STANDARD[name], abs=0.2)


def test_an_alias_names_the_files_by_the_paper_it_stands_for(game, tmp_path):
    result = run("build", game, "--paper", "ledger", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert size(tmp_path / "hra" / "cards-sk-tabloid.pdf") == pytest.approx(STANDARD["tabloid"], abs=0.2)


@pytest.mark.parametrize(
    "value, expected",
    [
        (
            "leter",
            "'leter' is not a paper; expected one of: a4, letter, a3, a3+, legal, a5, b4, b5, half-letter, tabloid, ansi-c, arch-a, arch-b, arch-c, or WIDTHxHEIGHT in mm or in, portrait, each from 50 to 2000 mm (e.g. 300x450, 11x17in) (did you mean 'letter'?)",
        ),
        ("40x300", "'40x300' is not a paper; expected a custom paper from 50 to 2000 mm on each side"),
        ("11x17", "'11x17' is not a paper; expected a custom paper from 50 to 2000 mm on each side (did you mean '11x17in'?)"),
        ("1x17in", "'1x17in' is not a paper; expected a custom paper from 50 to 2000 mm (1.97 to 78.7 in) on each side"),
        ("17x11in", "'17x11in' is not a paper; expected the portrait size, the width no larger than the height (11x17in): pnp turns"),
        ("11x17cm", "'11x17cm' is not a paper; expected one of: a4,"),
        ("300x2500", "'300x2500' is not a paper; expected a custom paper from 50 to 2000 mm on each side"),
        (
            "450x300",
            "'450x300' is not a paper; expected the portrait size, the width no larger than the height (300x450): pnp turns the sheet itself where a component fits only turned",
        ),
        ("300x", "'300x' is not a paper; expected one of: a4,"),
    ],
)
def test_a_paper_that_is_neither_is_a_usage_error(game, tmp_path, value, expected):
    result = run("check", game, "--paper", value)
    assert result.exit_code == 2
    assert f"Invalid value for '--paper' (env var: 'PNP_PAPER'): {expected}" in result.output
    assert not (tmp_path / "hra").exists()


def test_a_rulebook_is_printed_on_a4_or_letter_whatever_the_sheets(tmp_path):
    folder = make_game(tmp_path / "g")
    for paper, book, booklet in (("tabloid", "letter", "half-letter"), ("b4", "a4", "a5"), ("300x450", "a4", "a5")):
        result = run("build", folder, "--paper", paper, "--out", tmp_path / paper)
        assert result.exit_code == 0, result.output
        names = sorted(p.name for p in (tmp_path / paper / "g").glob("rules-basic-*.pdf"))
        assert set(names) == {f"rules-basic-sk-{booklet}-booklet.pdf", f"rules-basic-sk-{book}.pdf"}
