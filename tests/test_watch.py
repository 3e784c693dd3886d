"""`pnp build --watch`: rebuilds after a change, reports errors without exiting, and stops
cleanly on Ctrl-C."""

from __future__ import annotations

import os

from conftest import edit, run

import pnp.watch
from pnp.watch import changed, snapshot


def touch_later(path, seconds: int) -> None:
    """Give a file a clearly newer modification time (file systems round them)."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + seconds * 1_000_000_000))


def test_watch_rebuilds_on_change_reports_errors_and_stops_on_ctrl_c(tmp_path, monkeypatch):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    cards = tmp_path / "g" / "cards.yaml"
    steps = []

    def fake_sleep(seconds):  # each look at the folder is one step of the story
        steps.append(seconds)
        if len(steps) == 2:
            edit(cards, "suit: moon\n  value: 9", "suit: mon\n  value: 9")  # a typo
            touch_later(cards, 1)
        elif len(steps) == 4:
            edit(cards, "suit: mon", "suit: moon")  # fixed
            touch_later(cards, 2)
        elif len(steps) == 6:
            raise KeyboardInterrupt

    monkeypatch.setattr(pnp.watch.time, "sleep", fake_sleep)
    result = run("build", tmp_path / "g", "--out", tmp_path / "out", "--watch")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("cards-en-a4.pdf (") == 2  # the first build and the one after the fix
    assert "changed: cards.yaml; rebuilding" in out
    assert "is 'mon', which is not in 'suit'" in out and "nothing was written" in out
    assert out.index("is 'mon'") < out.rindex("wrote ")
    assert out.rstrip().endswith("stopped watching")
    assert steps == [0.5] * 6


def test_snapshot_ignores_hidden_files_and_the_output_folder(tmp_path):
    (tmp_path / "game.yaml").write_text("a", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "index").write_text("x", encoding="utf-8")
    (tmp_path / "output").mkdir()
    (tmp_path / "output" / "cards.pdf").write_text("pdf", encoding="utf-8")
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.yaml").write_text("l", encoding="utf-8")
    before = snapshot(tmp_path, [tmp_path / "output"])
    assert sorted(before) == ["game.yaml", os.path.join("layouts", "card.yaml")]
    (tmp_path / "output" / "cards.pdf").write_text("new pdf", encoding="utf-8")
    (tmp_path / "layouts" / "card.yaml").unlink()
    (tmp_path / "rules.yaml").write_text("r", encoding="utf-8")
    assert changed(before, snapshot(tmp_path, [tmp_path / "output"])) == [os.path.join("layouts", "card.yaml"), "rules.yaml"]
