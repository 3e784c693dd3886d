"""The plan (pnp/plan/): how each deck goes on paper is decided before anything is drawn,
so `pnp check` reports every sheet-* problem a build would meet, with the build's sheet
options, and the build draws the grids the plan says."""

from __future__ import annotations

import json

import pytest
from conftest import line_of, run
from makers import group, make_tokens
from pdfread import MM, card_boxes, marks, reader

from pnp.base.paths import DEFAULT_GAME
from pnp.impose.sheets import SheetSpec
from pnp.plan.game import plan_game
from pnp.plan.sheets import GridSheets
from pnp.project.project import prepare

TOO_BIG = "deck 'mats' of group 'tokens': 280.0 x 190.0 mm does not fit on A4"


def _mats(tmp_path):
    """Coins and table mats on shared sheets: a mat fits A4 only turned, which shared sheets never are."""
    game = make_tokens(tmp_path / "mix", {"coins": ((25, 25), "round", False), "mats": ((280, 190), None, False)})
    group(game, {"coins": "tokens", "mats": "tokens"})
    return game


def _lines(output: str, code: str) -> list[str]:
    return [line for line in output.splitlines() if line.endswith(f"[{code}]")]


def test_check_reports_a_deck_that_does_not_fit_the_paper_as_the_build_does(tmp_path):
    game = _mats(tmp_path)
    checked = run("check", game)
    built = run("build", game, "--out", tmp_path / "out")
    assert checked.exit_code == 1 and built.exit_code == 1
    (line,) = _lines(checked.output, "sheet-fit")
    assert _lines(built.output, "sheet-fit") == [line]
    assert line.startswith(f"{game / 'game.yaml'}:{line_of(game / 'game.yaml', 'mats:')}:") and TOO_BIG in line  # at the deck's group
    assert not (tmp_path / "out" / "mix").exists()


def test_check_reports_it_as_json_too(tmp_path):
    result = run("check", _mats(tmp_path), "--format", "json")
    assert result.exit_code == 1
    (found,) = [p for p in json.loads(result.output) if p["code"] == "sheet-fit"]
    assert TOO_BIG in found["message"] and found["file"].endswith("game.yaml") and found["severity"] == "error"


def test_the_paper_given_to_check_changes_what_it_reports(tmp_path):
    game = _mats(tmp_path)
    assert run("check", game).exit_code == 1
    a3 = run("check", game, "--paper", "a3")
    assert a3.exit_code == 0, a3.output
    assert "sheet-fit" not in a3.output and "no problems found" in a3.output
    letter = run("check", game, "--paper", "letter")
    assert letter.exit_code == 1 and "280.0 x 190.0 mm does not fit on LETTER" in letter.output


def test_check_takes_the_sheet_options_of_the_build(tmp_path):
    game = make_tokens(tmp_path / "mats", {"mats": ((280, 190), None, True)})
    folded = run("check", game, "--sides", "fold")
    assert folded.exit_code == 0 and "[sheet-fold-fit]" in folded.output  # half a sheet is too small: warned
    assert "[sheet-fold-fit]" not in run("check", game).output
    cut = run("check", game, "--cutter", "silhouette", "--sides", "fold")
    assert cut.exit_code == 2 and "--sides fold and --cutter cannot be combined" in cut.output  # checked as the build checks them


def test_every_unit_that_cannot_be_printed_is_reported_at_once(tmp_path):
    game = make_tokens(
        tmp_path / "mix",
        {"coins": ((25, 25), "round", False), "mats": ((280, 190), None, False), "chips": ((20, 20), "round", False), "boards": ((250, 200), None, False)},
    )
    group(game, {"coins": "tokens", "mats": "tokens", "chips": "tiles", "boards": "tiles"})
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert [line.split(": ", 1)[1].split(":")[0] for line in _lines(result.output, "sheet-fit")] == [
        "deck 'mats' of group 'tokens'",
        "deck 'boards' of group 'tiles'",
    ]


def test_a_warning_of_the_plan_is_reported_once_by_check_and_by_build(tmp_path):
    game = make_tokens(tmp_path / "mats", {"mats": ((280, 190), None, True)})
    built = run("build", game, "--sides", "fold", "--out", tmp_path / "out")
    assert built.exit_code == 0, built.output
    assert _lines(built.output, "sheet-fold-fit") == _lines(run("check", game, "--sides", "fold").output, "sheet-fold-fit")
    assert len(_lines(built.output, "sheet-fold-fit")) == 1 and (tmp_path / "out" / "mats" / "mats-sk-a4-fold.pdf").is_file()


@pytest.fixture(scope="module")
def mesta_plan():
    return plan_game(prepare(DEFAULT_GAME), SheetSpec())


def _rounded(values) -> list[float]:
    return sorted({round(v, 1) for v in values})


def test_the_plan_of_mesta_on_a4_is_what_the_build_draws(built, mesta_plan):
    grids = [unit for unit in mesta_plan.units if isinstance(unit.sheets, GridSheets)]
    assert [unit.decks for unit in grids] == [["cities"], ["events"], ["aids"]]
    for unit in grids:
        plan = unit.sheets
        pdf = reader(unit.target(built.parent, "sk"))
        grid = plan.fronts
        assert len(pdf.pages) == 2 * plan.sheets  # each sheet's fronts, then its backs; the ruler in a margin
        left = len(plan.items)
        for number in range(plan.sheets):
            front = pdf.pages[2 * number]
            on_sheet = min(grid.per_sheet, left)
            assert len(card_boxes(front)) == on_sheet
            left -= on_sheet
            segments = marks(front)
            assert _rounded(x1 for x1, y1, x2, y2 in segments if x1 == x2) == _rounded(grid.x_edges())  # the crop marks: every trim edge
            assert _rounded(y1 for x1, y1, x2, y2 in segments if y1 == y2) == _rounded(grid.y_edges())
            assert float(front.mediabox.width) == pytest.approx(grid.page_w) and float(front.mediabox.height) == pytest.approx(grid.page_h)
        assert left == 0


def test_the_plan_names_the_files_the_build_writes(built, mesta_plan):
    planned = {unit.target(built.parent, "sk").name for unit in mesta_plan.units} | {box.target(built.parent, "sk").name for box in mesta_plan.tuckboxes}
    assert planned == {"cities-sk-a4.pdf", "events-sk-a4.pdf", "aids-sk-a4.pdf", "cities-box-sk-a4.pdf", "events-box-sk-a4.pdf"}
    assert planned <= {path.name for path in built.glob("*.pdf")}
    assert mesta_plan.problems.items == []


def test_a_tuck_box_is_centred_where_its_plan_says(built, mesta_plan):
    for box in mesta_plan.tuckboxes:
        assert box.grid is not None and box.tiling is None  # a poker deck's box fits A4
        page = reader(box.target(built.parent, "sk")).pages[0]
        (x, y, w, h), bleed = card_boxes(page)[0], box.grid.bleed  # the art's clip: the net and its bleed
        assert (x + bleed, y + h - bleed) == pytest.approx((box.grid.x0, box.grid.y0), abs=0.01)
        assert w - 2 * bleed == pytest.approx(box.grid.trim_w, abs=0.01) and x + w / 2 == pytest.approx(box.grid.page_w / 2, abs=0.01)


def test_back_bleed_leaves_the_sheets_of_components_without_backs_as_they_were(tmp_path):
    """--back-bleed is about backs: one-sided components keep their cells (and their cards a
    sheet), while a backed deck's cells hold the backs' bleed."""
    game = make_tokens(tmp_path / "game", {"plain": ((63, 88), None, False), "backed": ((63, 88), None, True)})
    before = run("build", game, "--out", tmp_path / "before")
    after = run("build", game, "--back-bleed", "2", "--out", tmp_path / "after")
    assert before.exit_code == after.exit_code == 0, after.output
    assert "warning" not in after.output

    def boxes(out, deck):
        return [sorted(card_boxes(page)) for page in reader(out / "game" / f"{deck}-sk-a4.pdf").pages]

    assert boxes(tmp_path / "after", "plain") == boxes(tmp_path / "before", "plain")
    widened = [w / MM for _, _, w, _ in boxes(tmp_path / "after", "backed")[1]]  # the backs' page
    assert widened == pytest.approx([67.0] * len(widened))
