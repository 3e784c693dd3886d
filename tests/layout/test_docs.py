"""docs/layouts.md stays true: every key of the element kinds it describes is there, with
the pictures it shows, drawn from an example game that checks clean; the pictures of
docs/layouts.md and docs/typography.md are what the example's pictures.sh draws now."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest
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


def test_the_pictures_are_what_pictures_sh_draws_now(tmp_path):
    """pictures.sh run on a copy of the example (its `pnp` this checkout's): every picture it
    makes is committed as it makes it, and docs/layouts.md or docs/typography.md shows it."""
    pytest.importorskip("uharfbuzz")  # the Hebrew and Arabic pictures
    pytest.importorskip("bidi")
    top = tmp_path / "checkout"
    shutil.copytree(DOCS / "examples" / "elements", top / "docs" / "examples" / "elements")
    (top / "docs" / "images").mkdir()
    shim = tmp_path / "bin" / "pnp"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pnp "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(DOCS.parent)}
    done = subprocess.run(["sh", "docs/examples/elements/pictures.sh"], cwd=top, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    made = {p.name: p.read_bytes() for p in (top / "docs" / "images").iterdir()}
    assert {"mirror-en.png", "mirror-he.png", "mirror-false-he.png", "script-he.png", "script-ar.png", "element-rect.png"} <= set(made), sorted(made)
    shown = (DOCS / "layouts.md").read_text(encoding="utf-8") + (DOCS / "typography.md").read_text(encoding="utf-8")
    for name, data in made.items():
        assert (DOCS / "images" / name).read_bytes() == data, f"docs/images/{name} is not what pictures.sh draws now: run it again"
        assert f"](images/{name})" in shown, f"docs/images/{name} is shown by no doc"
