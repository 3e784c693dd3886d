"""`pnp impose`, `pnp calibrate` and `pnp new` write as a build does: all or nothing.
Stopped by a signal or by a full disk at any point of their writing, they leave what was
there before byte for byte (the previous PDF and its cut files; no game folder at all, nor
the folders made for it), no temporary file, and say so."""

from __future__ import annotations

import errno
import os
import shutil
import signal
from pathlib import Path

import pytest
from conftest import full_disk, run, tree
from PIL import Image
from stop_at import signalled

from pnp.pdf import canvas as pdfstream


def art(folder: Path, colours: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    for i, colour in enumerate(colours):
        Image.new("RGB", (372, 520), colour).save(folder / f"card{i}.png")
    return folder


@pytest.fixture(scope="module")
def imposed(tmp_path_factory) -> tuple[Path, Path, dict[str, bytes]]:
    """Three cards imposed for a cutter (the PDF, an SVG and a DXF cut file), then the
    images changed: a second impose would write other files."""
    folder = tmp_path_factory.mktemp("impose")
    images, out = art(folder / "art", ["red", "green", "blue"]), folder / "out"
    result = run("impose", images, "--out", out, "--cutter", "silhouette")
    assert result.exit_code == 0, result.output
    before = tree(out)
    assert sorted(before) == ["art-a4-silhouette-cut-1.dxf", "art-a4-silhouette-cut-1.svg", "art-a4-silhouette.pdf"]
    art(images, ["black", "white", "yellow", "purple"])
    return images, out, before


def impose_args(images: Path, out: Path) -> list[str | Path]:
    return ["impose", images, "--out", out, "--cutter", "silhouette"]


@pytest.mark.parametrize(
    ("point", "count", "signum"),
    [("page", 1, signal.SIGINT), ("file", 3, signal.SIGTERM), ("commit", 1, signal.SIGINT)],
)
def test_impose_stopped_by_a_signal_leaves_the_previous_pdf(imposed, tmp_path, point, count, signum):
    images, out, before = shutil.copytree(imposed[0], tmp_path / "art"), shutil.copytree(imposed[1], tmp_path / "out"), imposed[2]
    done = signalled(point, count, signum, "-q", *impose_args(images, out))
    assert done.returncode == 128 + signum, done.stderr
    assert done.stderr == f"interrupted by {signal.Signals(signum).name}; nothing was written; the previous PDF is intact\n"
    assert tree(out) == before


@pytest.mark.parametrize("at", [1, 2, 3])
def test_impose_onto_a_full_disk_leaves_the_previous_pdf(imposed, tmp_path, monkeypatch, at):
    """The disk fills up as the PDF, the SVG or the DXF cut file is made."""
    images, out, before = shutil.copytree(imposed[0], tmp_path / "art"), shutil.copytree(imposed[1], tmp_path / "out"), imposed[2]
    full_disk(monkeypatch, at)
    result = run(*impose_args(images, out))
    assert result.exit_code == 1, result.output
    assert ": cannot write: the disk is full; expected free space" in result.output.splitlines()[0]
    assert result.output.splitlines()[-1] == "1 error; nothing was written; the previous PDF is intact."
    assert tree(out) == before


def filling_pdf(monkeypatch, after: int) -> None:
    """The disk fills up `after` bytes into a PDF."""
    real, written = pdfstream.StreamingDocument._write, []

    def filling(self, data):
        written.append(len(data))
        if sum(written) > after:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(self, data)

    monkeypatch.setattr(pdfstream.StreamingDocument, "_write", filling)


def test_impose_cut_short_by_a_full_disk_mid_pdf(imposed, tmp_path, monkeypatch):
    images, out, before = shutil.copytree(imposed[0], tmp_path / "art"), shutil.copytree(imposed[1], tmp_path / "out"), imposed[2]
    filling_pdf(monkeypatch, 2000)
    result = run(*impose_args(images, out))
    assert result.exit_code == 1, result.output
    assert result.output.splitlines()[0].startswith(f"{out / 'art-a4-silhouette.pdf'}: cannot write: the disk is full")
    assert tree(out) == before


PREVIOUS = {"calibration-a4-long.pdf": b"%PDF- the sheet an earlier version of pnp wrote"}


def calibrated(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path / "out"
    out.mkdir()
    for name, data in PREVIOUS.items():
        (out / name).write_bytes(data)
    return out, tree(out)


@pytest.mark.parametrize(("point", "count", "signum"), [("page", 1, signal.SIGINT), ("commit", 1, signal.SIGTERM)])
def test_calibrate_stopped_by_a_signal_leaves_the_previous_sheet(tmp_path, point, count, signum):
    out, before = calibrated(tmp_path)
    done = signalled(point, count, signum, "-q", "calibrate", "--out", out)
    assert done.returncode == 128 + signum, done.stderr
    assert done.stderr == f"interrupted by {signal.Signals(signum).name}; nothing was written; the previous calibration sheet is intact\n"
    assert tree(out) == before


@pytest.mark.parametrize("fill", ["file", "pdf"])
def test_calibrate_onto_a_full_disk_leaves_the_previous_sheet(tmp_path, monkeypatch, fill):
    out, before = calibrated(tmp_path)
    full_disk(monkeypatch, 1) if fill == "file" else filling_pdf(monkeypatch, 2000)
    result = run("calibrate", "--out", out)
    assert result.exit_code == 1, result.output
    assert result.output.splitlines()[0].startswith(f"{out / 'calibration-a4-long.pdf'}: cannot write: the disk is full; expected free space")
    assert result.output.splitlines()[-1] == "1 error; nothing was written; the previous calibration sheet is intact."
    assert tree(out) == before


@pytest.mark.parametrize(("point", "count", "signum"), [("file", 2, signal.SIGINT), ("commit", 1, signal.SIGTERM)])
def test_new_stopped_by_a_signal_leaves_no_trace(tmp_path, point, count, signum):
    """Stopped while its catalogues are written (into its temporary folder): neither the
    game folder, nor its temporary folder, nor the folders made for it are left."""
    (tmp_path / "games").mkdir()
    done = signalled(point, count, signum, "-q", "new", "g", "--out", tmp_path / "games" / "mine" / "new")
    assert done.returncode == 128 + signum, done.stderr
    assert done.stderr == f"interrupted by {signal.Signals(signum).name}; nothing was written; no game folder was made\n"
    assert list((tmp_path / "games").iterdir()) == []


@pytest.mark.parametrize("at", ["template", "catalogue", "layout"])
def test_new_onto_a_full_disk_leaves_no_trace(tmp_path, monkeypatch, at):
    (tmp_path / "games").mkdir()
    if at == "layout":
        real, written = Path.write_text, []

        def filling(self, *args, **kwargs):
            written.append(self)
            if len(written) == 3:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return real(self, *args, **kwargs)

        monkeypatch.setattr(Path, "write_text", filling)
    else:
        full_disk(monkeypatch, 1 if at == "template" else 2)
    target = tmp_path / "games" / "mine" / "g"
    result = run("new", "g", "--out", target.parent)
    assert result.exit_code == 1, result.output
    where = {"template": target / "locale" / "messages.pot", "catalogue": target / "locale" / "de.po", "layout": target}[at]
    assert (
        result.output.splitlines()[0]
        == f"{where}: cannot write: the disk is full; expected free space (free some, or choose another folder with --out) [output-full]"
    )
    assert result.output.splitlines()[-1] == "1 error; nothing was written; no game folder was made."
    assert list((tmp_path / "games").iterdir()) == []
