"""An export writes as a build does: all or nothing. Stopped by a signal or by a full disk
at any point of its writing, it leaves the previous export byte for byte as it was (the
faces of a card renamed since included: they are removed only when the new export is in
place), no temporary file, and says so."""

from __future__ import annotations

import errno
import os
import signal
from pathlib import Path

import pytest
from conftest import edit, full_disk, run, tree
from makers import signal_on_first_move
from PIL import Image
from stop_at import signalled

EXPORTS = {
    "png": ["--dpi", "36"],  # 4 fronts and one back: 5 files
    "tts": ["--dpi", "36"],  # a sheet, its back, the calibration card and tile, the saved object and its thumbnail: 6 files
    "shop": ["--profile", "mpc"],  # 4 fronts, one back, manifest.csv and preflight.txt: 7 files
}
FILES = {"png": 5, "tts": 6, "shop": 7}


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, tuple[Path, Path, dict[str, bytes]]]:
    """Per export: a game, its output folder with a first export in it, and that export's
    files; then the game changed (a card renamed, a title changed), so that a second
    export would write other files."""
    made = {}
    for kind, options in EXPORTS.items():
        folder = tmp_path_factory.mktemp(kind)
        assert run("new", "g", "--out", folder).exit_code == 0
        game, out = folder / "g", folder / "out"
        result = run("export", kind, game, "--out", out, *options)
        assert result.exit_code == 0, result.output
        before = tree(out)
        assert len(before) == FILES[kind], sorted(before)
        edit(game / "cards.yaml", "id: dawn", "id: sunrise")
        edit(game / "cards.yaml", "title: Noon", "title: High Noon")
        made[kind] = game, out, before
    return made


def copied(exported, kind: str, tmp_path: Path) -> tuple[Path, Path, dict[str, bytes]]:
    import shutil

    game, out, before = exported[kind]
    return shutil.copytree(game, tmp_path / "g"), shutil.copytree(out, tmp_path / "out"), before


@pytest.mark.parametrize("kind", list(EXPORTS))
@pytest.mark.parametrize(
    ("point", "count", "signum"),
    [("file", 1, signal.SIGTERM), ("file", "last", signal.SIGINT), ("commit", 1, signal.SIGTERM)],
)
def test_an_export_stopped_by_a_signal_leaves_the_previous_one(exported, tmp_path, kind, point, count, signum):
    """A signal as the first or the last file is being written, or just before
    the files are moved into place: the previous export stays whole, nothing is left."""
    game, out, before = copied(exported, kind, tmp_path)
    count = FILES[kind] if count == "last" else count
    done = signalled(point, count, signum, "-q", "export", kind, game, "--out", out, *EXPORTS[kind])
    assert done.returncode == 128 + signum, done.stderr
    assert done.stderr == f"interrupted by {signal.Signals(signum).name}; nothing was written; the previous export is intact\n"
    assert tree(out) == before


@pytest.mark.parametrize("kind", list(EXPORTS))
@pytest.mark.parametrize("at", [1, 3, "last"])
def test_an_export_onto_a_full_disk_leaves_the_previous_one(exported, tmp_path, monkeypatch, kind, at):
    """The disk fills up as the first, a middle or the last file is made: the file is
    named, the previous export stays whole, nothing is left."""
    game, out, before = copied(exported, kind, tmp_path)
    full_disk(monkeypatch, FILES[kind] if at == "last" else at)
    result = run("export", kind, game, "--out", out, *EXPORTS[kind])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith(": cannot write: the disk is full; expected free space (free some, or choose another folder with --out) [output-full]")
    assert Path(lines[0].split(": ")[0]).parent.is_relative_to(out / "g")  # the file being written, not its temporary name
    assert not Path(lines[0].split(": ")[0]).name.startswith(".")
    assert lines[-1] == "1 error; nothing was written; the previous export is intact."
    assert tree(out) == before


@pytest.mark.parametrize("kind", list(EXPORTS))
def test_an_image_cut_short_by_a_full_disk_leaves_the_previous_export(exported, tmp_path, monkeypatch, kind):
    """The disk fills up half-way through an image (after two whole ones)."""
    game, out, before = copied(exported, kind, tmp_path)
    real, saved = Image.Image.save, []

    def filling(self, handle, *args, **kwargs):
        saved.append(1)
        if len(saved) == 3:
            handle.write(b"\x89PNG half an image")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(self, handle, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "save", filling)
    result = run("export", kind, game, "--out", out, *EXPORTS[kind])
    assert result.exit_code == 1, result.output
    assert ": cannot write: the disk is full" in result.output and "Traceback" not in result.output
    assert result.output.splitlines()[-1] == "1 error; nothing was written; the previous export is intact."
    assert tree(out) == before


def test_a_finished_export_replaces_the_previous_one_whole(exported, tmp_path):
    """Without a failure the renamed card's old image goes, at the end, with the rest in place."""
    game, out, _ = copied(exported, "png", tmp_path)
    assert run("export", "png", game, "--out", out, "--dpi", "36").exit_code == 0
    assert sorted(tree(out)) == [
        f"g/png-en/cards/{name}" for name in ["back.png", "dusk-front.png", "midnight-front.png", "noon-front.png", "sunrise-front.png"]
    ]


def test_a_signal_as_the_files_are_moved_into_place_lets_the_export_finish(exported, tmp_path, monkeypatch):
    """A signal that comes while the files are being moved into place waits for all of
    them: the new export is whole, and pnp says so before it ends as the signal asks."""

    game, out, before = copied(exported, "png", tmp_path)
    signal_on_first_move(monkeypatch)
    result = run("-q", "export", "png", game, "--out", out, "--dpi", "36")
    assert result.exit_code == 143, result.output
    assert result.output.splitlines()[-1] == "interrupted by SIGTERM once every file was in place"
    after = tree(out)
    assert sorted(after) == [f"g/png-en/cards/{name}" for name in ["back.png", "dusk-front.png", "midnight-front.png", "noon-front.png", "sunrise-front.png"]]
    assert after["g/png-en/cards/noon-front.png"] != before["g/png-en/cards/noon-front.png"]  # High Noon
