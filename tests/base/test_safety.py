"""Shared game folders are untrusted: no code from templates, no files outside the
folder, no resource exhaustion, and no good PDF lost."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import edit, line_of, make_small_game, run
from PIL import Image


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return make_small_game(tmp_path / "hra")


def own_layout(folder: Path, body: str) -> None:
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "layouts" / "mine.yaml").write_text("size: [63, 88]\nelements:\n" + body, encoding="utf-8")
    edit(folder / "game.yaml", "front: basic/card", "front: mine")


@pytest.mark.parametrize(
    "escape",
    [
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ cycler.__init__.__globals__.os.system('true') }}",
        "{{ title.__class__.__base__.__subclasses__() }}",
        "{{ self._TemplateReference__context }}",
        "{{ lipsum.__globals__['os'].popen('id').read() }}",
    ],
)
def test_a_template_cannot_reach_python(small, escape):
    own_layout(small, f'  - text: "{escape}"\n    box: [5, 5, 50, 20]\n')
    result = run("check", small)
    assert result.exit_code == 1, result.output
    assert "layouts/mine.yaml:3:5:" in result.output and "cannot fill in" in result.output
    assert "Traceback" not in result.output


def test_data_outside_the_game_folder_is_refused(small, tmp_path):
    (tmp_path / "secret.yaml").write_text("- {id: x, title: Secret}\n", encoding="utf-8")
    edit(small / "game.yaml", "data: cards.yaml", "data: ../secret.yaml")
    result = run("check", small)
    assert result.exit_code == 1
    assert f"game.yaml:{line_of(small / 'game.yaml', 'secret')}:" in result.output
    assert "data '../secret.yaml' points outside the game folder" in result.output


def test_an_absolute_path_is_refused(small):
    edit(small / "game.yaml", "data: cards.yaml", "data: /etc/passwd")
    result = run("check", small)
    assert result.exit_code == 1
    assert "data '/etc/passwd' is an absolute path" in result.output


def test_a_symlink_that_leaves_the_folder_is_refused(small, tmp_path):
    (tmp_path / "outside.yaml").write_text("- {id: x, title: Secret}\n", encoding="utf-8")
    os.symlink(tmp_path / "outside.yaml", small / "link.yaml")
    edit(small / "game.yaml", "data: cards.yaml", "data: link.yaml")
    result = run("check", small)
    assert result.exit_code == 1
    assert "data 'link.yaml' points outside the game folder" in result.output


def test_an_image_outside_the_folder_is_refused(small, tmp_path):
    Image.new("RGB", (10, 10)).save(tmp_path / "art.png")
    own_layout(small, '  - image: "../art.png"\n    box: [0, 0, 63, 40]\n')
    result = run("check", small)
    assert result.exit_code == 1
    assert "layouts/mine.yaml:3:5:" in result.output and "points outside the game folder" in result.output


def test_a_decompression_bomb_is_refused_before_decoding(small):
    Image.new("1", (9000, 9000)).save(small / "bomb.png")
    own_layout(small, '  - image: "bomb.png"\n    box: [0, 0, 63, 40]\n')
    result = run("check", small)
    assert result.exit_code == 1
    assert "is 9000 x 9000 pixels; expected at most 50,000,000 pixels" in result.output


def test_an_image_in_the_folder_is_drawn_once(small, tmp_path):
    Image.new("RGB", (40, 30), "red").save(small / "art.png")
    own_layout(small, '  - image: "art.png"\n    box: [0, 0, 63, 40]\n  - text: "{{ title }}"\n    box: [5, 50, 50, 10]\n')
    edit(small / "cards.yaml", "- {id: a,", "- {id: c, title: Tretia, copies: 30}\n- {id: a,")
    result = run("build", small, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    data = (tmp_path / "out" / "hra" / "cards-sk-a4.pdf").read_bytes()
    assert data.count(b"/Subtype /Image") == 1  # 32 cards, one stored image


def test_billion_laughs_is_refused(small, monkeypatch):
    """Refused before its aliases are written out into a billion values: at most MAX_NODES
    values are made (the most a file may hold, aliases written out)."""
    from pnp.load import yamlfile

    made = 0
    copy, convert = yamlfile._copy, yamlfile._Converter.convert

    def counted(function):
        def count(*args):
            nonlocal made
            made += 1
            assert made <= yamlfile.MAX_NODES, "the aliases are being expanded"
            return function(*args)

        return count

    monkeypatch.setattr(yamlfile, "_copy", counted(copy))
    monkeypatch.setattr(yamlfile._Converter, "convert", counted(convert))
    lol = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(8)
    )
    (small / "cards.yaml").write_text(lol, encoding="utf-8")
    result = run("check", small)
    assert result.exit_code == 2
    assert 0 < made <= yamlfile.MAX_NODES  # values read and copied (aliases written out), not a billion
    assert "cards.yaml:" in result.output and "expected" in result.output and "[yaml-limit]" in result.output


def test_deep_nesting_is_refused(small):
    (small / "cards.yaml").write_text("- id: a\n  title: " + "[" * 200 + "]" * 200 + "\n", encoding="utf-8")
    result = run("check", small)
    assert result.exit_code == 2
    assert "[yaml-limit]" in result.output


def test_absurd_copies_are_refused(small):
    edit(small / "cards.yaml", "- {id: b,", "- {id: b, copies: 99999999,")
    result = run("check", small)
    assert result.exit_code == 1
    assert "copies of card 'b' is 99999999; expected a whole number from 1 to 10000" in result.output


def test_layouts_that_inherit_in_a_cycle_are_refused(small):
    (small / "layouts").mkdir()
    (small / "layouts" / "one.yaml").write_text("extends: two\nsize: [63, 88]\n", encoding="utf-8")
    (small / "layouts" / "two.yaml").write_text("extends: one\n", encoding="utf-8")
    edit(small / "game.yaml", "front: basic/card", "front: one")
    result = run("check", small)
    assert result.exit_code == 1
    assert "layout 'one' extends itself through one -> two -> one" in result.output


def test_output_goes_only_where_out_says(small, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = {p for p in tmp_path.rglob("*")}
    assert run("build", small, "--out", tmp_path / "here").exit_code == 0
    after = {p for p in tmp_path.rglob("*")} - before
    assert after and all(p == tmp_path / "here" or (tmp_path / "here") in p.parents for p in after)


def test_a_killed_build_leaves_the_last_good_pdf(tmp_path):
    big = make_small_game(
        tmp_path / "big", cards="".join(f"- {{id: c{i}, title: Karta {i}, text: Hráč získa {i} miest a stráca jedno mesto.}}\n" for i in range(60))
    )
    out = tmp_path / "out"
    assert run("build", big, "--out", out, "--sides", "fronts").exit_code == 0
    target = out / "big" / "cards-sk-a4-fronts.pdf"
    good = target.read_bytes()
    edit(big / "cards.yaml", "title: Karta 0,", "title: Zmenená 0,")
    stop_at = Path(__file__).parents[1] / "stop_at.py"  # held after its third page until killed
    process = subprocess.Popen(
        [sys.executable, str(stop_at), "page", "3", "--", "build", str(big), "--out", str(out), "--sides", "fronts"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        ready, _, _ = select.select([process.stdout], [], [], 60)  # the limit is only against hanging
        assert ready and process.stdout.readline() == "at page\n", "the build never reached its third page"
        assert len(list(target.parent.glob(".*.tmp"))) == 1  # the new PDF, half written
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == -signal.SIGKILL
    assert target.read_bytes() == good
    assert len(list(target.parent.glob(".*.tmp"))) == 1  # what the killed build left
    assert run("build", big, "--out", out, "--sides", "fronts").exit_code == 0  # and the next build cleans up
    assert not list(target.parent.glob(".*.tmp"))
    assert target.read_bytes() != good


@pytest.mark.parametrize(("fit", "size"), [("contain", (63.0, 31.5)), ("stretch", (63.0, 40.0)), ("cover", (80.0, 40.0))])
def test_image_fit_modes(small, tmp_path, fit, size):
    from pdfread import MM, operations, reader

    Image.new("RGB", (200, 100), "red").save(small / "art.png")  # 2:1, into a 63 x 40 mm box
    own_layout(small, f'  - image: "art.png"\n    box: [0, 0, 63, 40]\n    fit: {fit}\n')
    assert run("build", small, "--out", tmp_path / "out", "--sides", "fronts").exit_code == 0
    page = reader(tmp_path / "out" / "hra" / "cards-sk-a4-fronts.pdf").pages[0]
    placed = [ops for ops, op in operations(page) if op == b"cm" and ops[1] == 0 and ops[0] != 1]
    w, h = float(placed[0][0]) / MM, float(placed[0][3]) / MM
    assert (round(w, 1), round(h, 1)) == size
