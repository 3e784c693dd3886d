"""Layout values that make no sense (a box of NaN, a font size of 0, a negative leading or
stroke width, ...) are errors at their lines when the layout is read, not shapes drawn
wrong or a page that never ends."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run

from pnp.base.paths import CARDS_DIR

LAYOUT = """\
size: [63, 88]
styles:
  title: {font: serif-bold, size: SIZE, min_size: MIN, leading: LEADING}
elements:
  - rect: RECT
    stroke_width: WIDTH
    radius: RADIUS
  - text: "{{ title }}"
    box: BOX
    style: title
  - line: LINE
    dash: DASH
  - circle: CIRCLE
  - polygon: POLYGON
  - text: "{{ text }}"
    box: [6, 17, 51, 65]
    size: OWN_SIZE
    min_size: OWN_MIN
"""
SOUND = {
    "SIZE": "12",
    "MIN": "8",
    "LEADING": "1.2",
    "RECT": "[3, 3, 57, 82]",
    "WIDTH": "0.8",
    "RADIUS": "2.5",
    "BOX": "[5, 3.5, 53, 10]",
    "LINE": "[5, 40, 58, 40]",
    "DASH": "[2, 1]",
    "CIRCLE": "[30, 60, 5]",
    "POLYGON": "[[1, 1], [5, 1], [3, 4]]",
    "OWN_SIZE": "7.5",
    "OWN_MIN": "5.5",
}
LIMIT = "[layout-value]"


def aid_layout(tmp_path: Path, **values: str) -> tuple[Path, Path]:
    """Ages with its aid card drawn by LAYOUT, `values` replacing the sound ones."""
    game = tmp_path / "ages"
    shutil.copytree(CARDS_DIR / "ages", game)
    text = LAYOUT
    for key, value in {**SOUND, **values}.items():
        text = text.replace(key, value, 1)
    layout = game / "layouts" / "aid.yaml"
    layout.write_text(text, encoding="utf-8")
    return game, layout


def test_the_sound_layout_passes(tmp_path: Path) -> None:
    game, _ = aid_layout(tmp_path)
    result = run("check", game)
    assert "layout-value" not in result.output, result.output


@pytest.mark.parametrize(
    ("values", "line", "col", "message"),
    [
        ({"BOX": "[5, .nan, 53, 10]"}, 9, 14, "text element: 'box' is nan, not a number; expected a finite number"),
        ({"RECT": "[3, 3, .inf, 82]"}, 5, 18, "rect element: 'rect' is inf, not a number; expected a finite number"),
        ({"BOX": "[5, 3.5, 0, 10]"}, 9, 19, "text element: the width in 'box' is 0; expected a length above 0 mm"),
        ({"RECT": "[3, 3, 57, -82]"}, 5, 22, "rect element: the height in 'rect' is -82; expected a length above 0 mm"),
        ({"CIRCLE": "[30, 60, 0]"}, 13, 22, "circle element: the radius in 'circle' is 0; expected a length above 0 mm"),
        ({"WIDTH": "-1"}, 6, 19, "rect element: 'stroke_width' is -1; expected 0 or more"),
        ({"RADIUS": ".NaN"}, 7, 13, "rect element: 'radius' is nan, not a number; expected a finite number"),
        ({"DASH": "[2, -1]"}, 12, 15, "line element: 'dash' is -1; expected 0 or more"),
        ({"DASH": "[0, 0]"}, 12, 11, "line element: 'dash' [0.0, 0.0] has only gaps; expected a dash length above 0 (or no dash)"),
        ({"POLYGON": "[[1, 1], [.nan, 1], [3, 4]]"}, 14, 24, "polygon element: 'polygon' is nan, not a number; expected a finite number"),
        ({"SIZE": "0"}, 3, 35, "style 'title': 'size' is 0; expected a number above 0"),
        ({"LEADING": "-1.2"}, 3, 61, "style 'title': 'leading' is -1.2; expected a number above 0"),
        ({"LEADING": ".nan"}, 3, 61, "style 'title': 'leading' is nan, not a number; expected a finite number"),
        ({"MIN": "14"}, 3, 49, "style 'title': min_size 14 is larger than size 12; expected a min_size of at most 12"),
        ({"OWN_SIZE": "-7"}, 17, 11, "text element: 'size' is -7; expected a number above 0"),
        ({"OWN_MIN": "9"}, 18, 15, "text element: min_size 9 is larger than size 7.5; expected a min_size of at most 7.5"),
    ],
)
def test_a_value_that_makes_no_sense_is_an_error_at_its_line(tmp_path: Path, values: dict[str, str], line: int, col: int, message: str) -> None:
    game, _ = aid_layout(tmp_path, **values)
    result = run("check", game)
    assert result.exit_code == 1, result.output
    assert f"layouts/aid.yaml:{line}:{col}: {message} {LIMIT}" in result.output
    assert result.output.count(LIMIT) == 1, result.output  # once, however many cards use the layout
    assert "Traceback" not in result.output and "internal error" not in result.output
