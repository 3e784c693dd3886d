"""The example games of the docs (docs/examples/*/game.yaml): every one passes `pnp check`.
Night Market (docs/examples/copyshop) prints on the paper and with the outer bleed its
game.yaml sets; Live Sheet (docs/examples/livesheet) builds from its sheet served on the
web as its README.md says, and offline from the copy a build kept; the pictures of
docs/sheets.md and docs/cards.md are what the examples' pictures.py draw now."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run
from pdfread import MM, card_boxes, reader, text
from websheet import serving

TOP = Path(__file__).resolve().parents[2]
DOCS = TOP / "docs"
EXAMPLES = DOCS / "examples"
COPYSHOP = EXAMPLES / "copyshop"
LIVESHEET = EXAMPLES / "livesheet"
SHEET_URL = "http://127.0.0.1:8765/cards.csv"  # where the README serves the sheet
TITLES = {"Paper Lanterns": 3, "Glass Lantern": 1, "Dragon Kite": 3, "Silk Kite": 1, "Green Tea": 2, "Smoked Tea": 2, "Pepper": 2, "Saffron": 2}


@pytest.fixture
def server():
    yield from serving()


def served_copy(folder: Path, server) -> Path:
    """A copy of Live Sheet whose data: names the test's server, which serves its sheet."""
    game = folder / "livesheet"
    shutil.copytree(LIVESHEET, game, ignore=shutil.ignore_patterns("__pycache__"))
    server.pages["/cards.csv"] = (200, "text/csv", (LIVESHEET / "sheet" / "cards.csv").read_bytes())
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(SHEET_URL, f"{server.url}/cards.csv"), encoding="utf-8")
    return game


@pytest.mark.parametrize("name", sorted(p.parent.name for p in EXAMPLES.glob("*/game.yaml")))
def test_every_example_of_the_docs_passes_check(name, server, tmp_path):
    game = served_copy(tmp_path, server) if name == "livesheet" else EXAMPLES / name
    result = run("check", game)
    assert result.exit_code == 0 and result.output.strip() == "no problems found", result.output


def test_night_market_prints_its_whole_deck_on_one_tabloid_sheet_with_1_5_mm_of_outer_bleed(tmp_path):
    result = run("build", COPYSHOP, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    assert sorted(p.name for p in (tmp_path / "copyshop").glob("*.pdf")) == ["stalls-en-tabloid.pdf"]
    pdf = reader(tmp_path / "copyshop" / "stalls-en-tabloid.pdf")
    assert len(pdf.pages) == 2  # one sheet: its fronts and its backs
    assert (round(float(pdf.pages[0].mediabox.width)), round(float(pdf.pages[0].mediabox.height))) == (792, 1224)  # 11 x 17 in
    boxes = card_boxes(pdf.pages[0])
    assert len(boxes) == 16
    sizes = sorted({(round(w / MM, 1), round(h / MM, 1)) for _, _, w, h in boxes})
    assert sizes == [(63.0, 88.0), (63.0, 89.5), (64.5, 88.0), (64.5, 89.5)]  # 1.5 mm past the outer cuts only
    left, bottom = min(x for x, _, _, _ in boxes), min(y for _, y, _, _ in boxes)
    right, top = max(x + w for x, _, w, _ in boxes), max(y + h for _, y, _, h in boxes)
    assert (round((right - left) / MM, 1), round((top - bottom) / MM, 1)) == (4 * 63 + 3, 4 * 88 + 3)
    fronts = pdf.pages[0].extract_text()
    for title, copies in TITLES.items():
        assert fronts.count(title) == copies, title


def test_night_market_on_a_players_paper_and_the_letter_warning_the_docs_show(tmp_path):
    result = run("-v", "build", COPYSHOP, "--paper", "a4", "--out", tmp_path)
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    (source,) = [line for line in result.output.splitlines() if line.startswith("outer_bleed: ")]
    assert source.startswith("outer_bleed: 1.5 (from ") and source.endswith(f"copyshop{os.sep}game.yaml)"), source
    assert len(reader(tmp_path / "copyshop" / "stalls-en-a4.pdf").pages) == 4  # two sheets of 9
    result = run("check", COPYSHOP, "--paper", "letter")
    assert "fills LETTER so far that its crop marks at the top and bottom reach only 0.2 mm past the 5 mm margin" in result.output
    assert "[sheet-marks-short]" in result.output


def test_live_sheet_builds_from_its_served_sheet_then_offline_from_the_kept_copy(server, tmp_path):
    assert f"data: {SHEET_URL}" in (LIVESHEET / "game.yaml").read_text(encoding="utf-8")
    readme = (LIVESHEET / "README.md").read_text(encoding="utf-8")
    assert "python -m http.server 8765 --bind 127.0.0.1 -d docs/examples/livesheet/sheet" in readme
    game = served_copy(tmp_path, server)
    out = tmp_path / "out"
    result = run("build", game, "--out", out)
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    pdf = out / "livesheet" / "cards-en-a4.pdf"
    fronts = reader(pdf).pages[0].extract_text()
    for title, copies in {"Thaw": 2, "First Bloom": 1, "Long Day": 2, "Harvest": 1, "First Frost": 1}.items():
        assert fronts.count(title) == copies, title
    assert "Summer" in fronts and "Every other player discards a card." in fronts
    (kept,) = (out / ".pnp-cache").iterdir()
    assert kept.read_bytes() == (LIVESHEET / "sheet" / "cards.csv").read_bytes()
    server.stop()
    result = run("build", game, "--out", out, "--offline")
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    assert "Long Day" in text(pdf)
    assert server.requests == ["/cards.csv"]  # the first build's fetch alone


def pictures_made(script: Path, tmp_path: Path) -> dict[str, bytes]:
    """What an example's pictures.py draws now (its pnp this checkout's), by file name."""
    env = {**os.environ, "PYTHONPATH": str(TOP)}
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "images")], cwd=TOP, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return {p.name: p.read_bytes() for p in (tmp_path / "images").iterdir()}


@pytest.mark.parametrize(
    "example, doc, heading, names",
    [
        ("copyshop", "sheets.md", "## Paper: its size, and a game's own", ["copyshop-sheet.png", "paper-sizes.png"]),
        ("livesheet", "cards.md", "## A live spreadsheet", ["livesheet.png"]),
    ],
)
def test_the_pictures_are_what_the_examples_pictures_py_draws_now_and_shown_where_they_belong(example, doc, heading, names, tmp_path):
    made = pictures_made(EXAMPLES / example / "pictures.py", tmp_path)
    assert sorted(made) == names
    text_of_doc = (DOCS / doc).read_text(encoding="utf-8")
    start = text_of_doc.index(heading)
    section = text_of_doc[start : text_of_doc.find("\n## ", start + 1)]
    for name, data in made.items():
        assert (DOCS / "images" / name).read_bytes() == data, f"docs/images/{name} is not what {example}/pictures.py draws now: run it again"
        assert len(data) < 40_000, name
        assert f"](images/{name})" in section, f"docs/images/{name} is not shown in {doc}'s {heading}"
