"""docs/layouts.md stays true: every key of the element kinds it describes is there, with
the pictures it shows, drawn from an example game that checks clean."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from conftest import run

from pnp.layout.elements import kind_class

DOCS = Path(__file__).parents[2] / "docs"
KINDS_HERE = ("rect", "line", "polygon", "circle", "text", "symbol", "image", "qr")  # the others: boards.md, maps.md
STYLE_KEYS = {"font", "size", "min_size", "color", "align", "valign"}  # a text's "any style key"


def test_every_key_of_every_element_kind_is_documented():
    doc = (DOCS / "layouts.md").read_text(encoding="utf-8")
    for kind in KINDS_HERE:
        row = next(line for line in doc.splitlines() if line.startswith(f"| `{kind}` |"))
        keys = {f.name for f in fields(kind_class(kind)) if not f.name.startswith("_") and f.name != "when"}
        if kind == "text":
            keys -= STYLE_KEYS
        missing = [key for key in keys if f"`{key}" not in row]
        assert not missing, f"{kind}: {missing} not in its row of docs/layouts.md"
    for key in ("when:", "name:", "rotate:", "opacity:", "tint:", "linear:", "radial:", "stops"):
        assert f"`{key}" in doc, key


def test_the_pictures_of_the_docs_exist_and_their_game_checks_clean():
    doc = (DOCS / "layouts.md").read_text(encoding="utf-8")
    pictures = re.findall(r"\]\((images/[^)]+\.png)\)", doc)
    assert len(pictures) >= 15
    for picture in pictures:
        assert (DOCS / picture).is_file(), picture
    assert sum((DOCS / picture).stat().st_size for picture in set(pictures)) < 300_000
    result = run("check", DOCS / "examples" / "elements")
    assert result.exit_code == 0 and "no problems found" in result.output, result.output
