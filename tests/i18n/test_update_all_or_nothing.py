"""`pnp i18n update` changes every catalogue of the game or none: stopped by a signal or by
a full disk at any point of its writing, it leaves the game folder byte for byte as it was
(the template and every LANG.po), no temporary file, and says so."""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import pytest
from conftest import edit, full_disk, make_small_game, run, tree
from stop_at import signalled

CATALOGUES = ["locale/cs.po", "locale/de.po", "locale/messages.pot"]


@pytest.fixture(scope="module")
def translated(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    """A game with two catalogues, then a card changed: an update would write all three files."""
    game = make_small_game(tmp_path_factory.mktemp("i18n") / "hra")
    result = run("i18n", "update", game, "--add", "cs", "--add", "de")
    assert result.exit_code == 0, result.output
    edit(game / "cards.yaml", "title: Prvá", "title: Nová")
    before = tree(game)
    assert [name for name in before if name.startswith("locale/")] == CATALOGUES
    return game, before


@pytest.mark.parametrize(
    ("point", "count", "signum"),
    [("file", 1, signal.SIGINT), ("file", 3, signal.SIGTERM), ("commit", 1, signal.SIGINT)],
)
def test_an_update_stopped_by_a_signal_changes_no_catalogue(translated, tmp_path, point, count, signum):
    game, before = shutil.copytree(translated[0], tmp_path / "hra"), translated[1]
    done = signalled(point, count, signum, "-q", "i18n", "update", game)
    assert done.returncode == 128 + signum, done.stderr
    assert done.stderr == f"interrupted by {signal.Signals(signum).name}; nothing was written; the catalogues are as they were\n"
    assert tree(game) == before


@pytest.mark.parametrize(("at", "file"), [(1, "messages.pot"), (2, "cs.po"), (3, "de.po")])
def test_an_update_onto_a_full_disk_changes_no_catalogue(translated, tmp_path, monkeypatch, at, file):
    game, before = shutil.copytree(translated[0], tmp_path / "hra"), translated[1]
    full_disk(monkeypatch, at)
    result = run("i18n", "update", game)
    assert result.exit_code == 1, result.output
    assert result.output.splitlines() == [
        f"{game / 'locale' / file}: cannot write: the disk is full; expected free space (free some, or copy the game folder somewhere writable) [output-full]",
        "1 error; nothing was written; the catalogues are as they were.",
    ]
    assert tree(game) == before
