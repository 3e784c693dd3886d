"""`pnp build --watch`: rebuilds after a change, reports errors without exiting, and stops
cleanly on Ctrl-C."""

from __future__ import annotations

import errno
import os

from conftest import edit, run

import pnp.base.output
import pnp.cli
import pnp.live.session
from pnp.live.watch import changed, snapshot


class FakeChanges:
    """Stands in for watch.Changes: each wait is one step of the story."""

    def __init__(self, steps):
        self.steps = iter(steps)
        self.closed = False

    def wait(self, timeout=None):
        return next(self.steps)()

    def close(self):
        self.closed = True


def test_watch_rebuilds_on_change_reports_errors_and_stops_on_ctrl_c(tmp_path, monkeypatch):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    cards = tmp_path / "g" / "cards.yaml"

    def typo():
        edit(cards, "suit: moon\n  value: 9", "suit: mon\n  value: 9")
        return ["cards.yaml"]

    def fix():
        edit(cards, "suit: mon", "suit: sun")  # fixed, and not as it was: a save as the last build saw it would rebuild nothing
        return ["cards.yaml"]

    def stop():
        raise KeyboardInterrupt

    fake = FakeChanges([typo, fix, stop])
    monkeypatch.setattr(pnp.live.session, "Changes", lambda folder, ignore: fake)
    result = run("build", tmp_path / "g", "--out", tmp_path / "out", "--watch")
    assert result.exit_code == 0, result.output
    out = result.output
    assert sum(line.startswith("wrote ") for line in out.splitlines()) == 3  # the first build: the deck and the rulebooks
    assert "changed: cards.yaml; rebuilding" in out
    assert "is 'mon', which is not in 'suit'" in out and "nothing was written" in out
    assert out.index("is 'mon'") < out.index("rebuilt cards-en-a4.pdf (1 card changed); 2 files unchanged")  # the rulebooks come out the same
    assert out.rstrip().endswith("stopped watching")
    assert fake.closed


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


def test_watch_says_that_it_builds_in_one_process(tmp_path, monkeypatch):
    assert run("new", "g", "--out", tmp_path).exit_code == 0

    def stop():
        raise KeyboardInterrupt

    monkeypatch.setattr(pnp.live.session, "Changes", lambda folder, ignore: FakeChanges([stop]))
    result = run("build", tmp_path / "g", "--out", tmp_path / "out", "--watch", "--jobs", 2)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("--jobs 2 is not used with --watch: the watcher keeps what it drew in one process")


def test_watch_reports_a_pdf_open_in_a_viewer_and_goes_on(tmp_path, monkeypatch):
    """On Windows a PDF open in a viewer cannot be replaced: the watcher says which to close
    and builds again at the next save."""
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    cards = tmp_path / "g" / "cards.yaml"
    real = os.replace
    monkeypatch.setattr(pnp.base.output, "SLEEP", lambda seconds: None)

    def held_open(src, dst):
        exc = PermissionError(errno.EACCES, "The process cannot access the file because it is being used by another process", str(src), None, str(dst))
        exc.winerror = 32
        raise exc

    def opened():
        monkeypatch.setattr(pnp.base.output.os, "replace", held_open)
        edit(cards, "suit: moon\n  value: 9", "suit: sun\n  value: 9")
        return ["cards.yaml"]

    def closed():
        monkeypatch.setattr(pnp.base.output.os, "replace", real)
        edit(cards, "value: 9", "value: 8")
        return ["cards.yaml"]

    def stop():
        raise KeyboardInterrupt

    monkeypatch.setattr(pnp.live.session, "Changes", lambda folder, ignore: FakeChanges([opened, closed, stop]))
    result = run("build", tmp_path / "g", "--out", tmp_path / "out", "--watch")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "cannot replace it: it is open in another program; close " in out and "in your PDF viewer and build again [output-in-use]" in out
    assert out.index("[output-in-use]") < out.index("rebuilt cards-en-a4.pdf")
    assert out.rstrip().endswith("stopped watching")
    assert not [p for p in (tmp_path / "out").rglob("*.tmp")]
