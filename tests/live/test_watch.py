"""`pnp build --watch`: rebuilds after a change, reports errors without exiting, and stops
cleanly on Ctrl-C."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from conftest import edit, run

import pnp.base.output
import pnp.cli
import pnp.live.session
import pnp.live.watch
from pnp.live.watch import Changes, Skipped, changed, snapshot, watch


class FakeChanges:
    """Stands in for watch.Changes: each wait is one step of the story."""

    truncated = False  # a game folder of fewer than MAX_FILES files
    notified = True

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
    skipped = Skipped.of(tmp_path, [tmp_path / "output"])
    before, _ = snapshot(tmp_path, skipped)
    assert sorted(before) == ["game.yaml", os.path.join("layouts", "card.yaml")]
    (tmp_path / "output" / "cards.pdf").write_text("new pdf", encoding="utf-8")
    (tmp_path / "layouts" / "card.yaml").unlink()
    (tmp_path / "rules.yaml").write_text("r", encoding="utf-8")
    assert changed(before, snapshot(tmp_path, skipped)[0]) == [os.path.join("layouts", "card.yaml"), "rules.yaml"]


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


def poller(folder: Path, out: Path) -> Changes:
    """A watcher that polls at once: a change made before `wait` is what its first look finds."""
    return Changes(folder, [out], poll=True, settle=0.0, interval=0.0)


def test_out_equal_to_the_game_folder_still_sees_every_save(tmp_path):
    """--out GAME writes into GAME/NAME/: that folder is left out, the game's files are not."""
    game = tmp_path / "hra"
    (game / "hra").mkdir(parents=True)
    (game / "game.yaml").write_text("a", encoding="utf-8")
    changes = poller(game, game)
    try:
        (game / "hra" / "cards-sk-a4.pdf").write_text("pdf", encoding="utf-8")  # what a build writes
        (game / "game.yaml").write_text("b", encoding="utf-8")
        assert changes.wait(timeout=5) == ["game.yaml"]
    finally:
        changes.close()


def test_a_game_folder_inside_out_still_sees_every_save(tmp_path):
    """--out PARENT of the game folder: the build writes into the game folder itself; what
    it writes there is left out, the game's own files are watched."""
    game = tmp_path / "hra"
    game.mkdir()
    (game / "game.yaml").write_text("a", encoding="utf-8")
    changes = poller(game, tmp_path)
    try:
        (game / "cards-sk-a4.pdf").write_text("pdf", encoding="utf-8")
        (game / "manifest-sk-a4.json").write_text("{}", encoding="utf-8")
        assert changes.wait(timeout=0.05) == []
        (game / "game.yaml").write_text("b", encoding="utf-8")
        assert changes.wait(timeout=5) == ["game.yaml"]
    finally:
        changes.close()


def test_links_out_of_the_game_folder_are_not_followed(tmp_path):
    """A link to the parent folder (or anywhere outside) is not the game's: its files are
    neither looked at nor reported."""
    game = tmp_path / "hra"
    game.mkdir()
    (game / "game.yaml").write_text("a", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("s", encoding="utf-8")
    (game / "up").symlink_to("..")
    (game / "secret.txt").symlink_to(tmp_path / "secret.txt")
    found, truncated = snapshot(game, Skipped.of(game, []))
    assert sorted(found) == ["game.yaml"] and not truncated


def test_a_folder_of_more_files_than_compared_still_notices_a_save(tmp_path, monkeypatch):
    monkeypatch.setattr(pnp.live.watch, "MAX_FILES", 3)
    for name in "abcdef":
        (tmp_path / f"{name}.yaml").write_text(name, encoding="utf-8")
    changes = Changes(tmp_path, [tmp_path / "output"], settle=0.01)
    try:
        if not changes.notified:
            pytest.skip("no file notifications here")
        assert changes.truncated
        (tmp_path / "f.yaml").write_text("changed", encoding="utf-8")
        assert changes.wait(timeout=10) == ["f.yaml"]
    finally:
        changes.close()


def test_watch_says_when_the_folder_has_more_files_than_it_compares(tmp_path):
    said = []
    changes = FakeChanges([lambda: (_ for _ in ()).throw(KeyboardInterrupt())])
    changes.truncated = True
    watch(tmp_path, lambda: None, said.append, changes)
    assert any("holds more than" in line and "saves to the others are noticed as the system reports them" in line for line in said), said


def test_every_file_a_build_writes_into_the_game_folder_is_left_out(tmp_path):
    """`--out` the game's parent: the build writes into the game folder itself; the
    watcher leaves out exactly what it wrote (PDFs, manifest, cut files), so a build does
    not set off the next one, and sees the game's own files still."""
    assert run("new", tmp_path / "g").exit_code == 0
    game = tmp_path / "g"
    skipped = Skipped.of(game, [tmp_path])
    before, _ = snapshot(game, skipped)
    result = run("build", game, "--out", tmp_path, "--cutter", "silhouette")
    assert result.exit_code == 0, result.output
    written = {p.name for p in game.iterdir()} - {p.split(os.sep)[0] for p in before}
    assert any(n.endswith(".pdf") for n in written) and any(n.startswith("manifest-") for n in written)
    assert any("-cut-" in n for n in written), written
    assert snapshot(game, skipped)[0] == before
