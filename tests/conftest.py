"""Shared fixtures: a private copy of the Mestá folder to break, and PDF helpers."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.base.errors import Problem
from pnp.base.paths import DEFAULT_GAME
from pnp.cli import main


@pytest.fixture(autouse=True, scope="session")
def no_user_config(tmp_path_factory):
    """No test reads the developer's own config file or their PNP_* variables: the config
    file is one that does not exist (tests of the config point PNP_CONFIG elsewhere)."""
    with pytest.MonkeyPatch.context() as patch:
        for name in [n for n in os.environ if n.startswith("PNP_")]:
            patch.delenv(name)
        patch.setenv("PNP_CONFIG", str(tmp_path_factory.mktemp("no-config") / "config.yaml"))
        yield


@pytest.fixture(autouse=True, scope="session")
def compiled_once(tmp_path_factory):
    """The Pythons the tests start (pnp in a process of its own: dozens of them) compile
    pnp's modules once, into a folder of this session's, where PYTHONDONTWRITEBYTECODE
    made each of them compile every module again (a fifth of a second of CPU each);
    nothing is written beside the sources either way."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PYTHONDONTWRITEBYTECODE")
        patch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path_factory.mktemp("pycache")))
        yield


@pytest.fixture
def mesta(tmp_path: Path) -> Path:
    """A copy of the bundled Mestá folder that a test may edit."""
    target = tmp_path / "mesta"
    shutil.copytree(DEFAULT_GAME, target)
    return target


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """The bundled Mestá deck built once, A4 duplex, for tests that only read PDFs."""
    out = tmp_path_factory.mktemp("out")
    result = CliRunner().invoke(main, ["build", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out / "mesta"


@pytest.fixture(scope="session")
def built_in_every_language(tmp_path_factory) -> Path:
    """The bundled Mestá deck built once in each of its languages (--lang all), A4 duplex,
    for tests that only read PDFs."""
    out = tmp_path_factory.mktemp("every-language")
    result = CliRunner().invoke(main, ["build", "--lang", "all", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out / "mesta"


def run(*args: str):
    """Run the CLI in-process; returns click's Result (exit_code, output)."""
    return CliRunner().invoke(main, [str(a) for a in args])


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def assert_located(problems: Iterable[Problem]) -> None:
    """Every problem names a file that exists, and a line in it when the file has any:
    what a user needs to find the mistake."""
    for problem in problems:
        assert problem.message and problem.code, problem
        path = Path.cwd() / problem.location.file
        assert problem.location.file and path.exists(), f"not a file: {problem}"
        if path.is_file() and path.read_bytes().strip():
            assert problem.location.line > 0, f"no line: {problem}"


def line_of(path: Path, needle: str) -> int:
    """1-based number of the first line containing `needle`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


SMALL_GAME = """\
title: Hra
language: sk
attribution: Autor hry.
decks:
  cards: {type: card, data: cards.yaml, front: basic/card, back: basic/back}
strings:
  back: Karta
"""
SMALL_RULES = """\
enums:
  color:
    red: {name: Červená}
types:
  card:
    fields:
      title: {type: text}
      text: {type: text, required: false}
      color: {type: enum, enum: color, required: false}
"""
SMALL_CARDS = """\
- {id: a, title: Prvá, text: Hráč získa mesto., color: red}
- {id: b, title: Druhá, text: Hráč stráca mesto.}
"""


def make_small_game(folder: Path, cards: str = SMALL_CARDS) -> Path:
    """A two-card game on the bundled basic layouts: quick to build, easy to break."""
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(SMALL_GAME, encoding="utf-8")
    (folder / "rules.yaml").write_text(SMALL_RULES, encoding="utf-8")
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    return folder


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (hidden ones too: temporary files), by its path inside it,
    with its bytes: what a failed or interrupted command must leave as it was."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()} if folder.exists() else {}


def full_disk(monkeypatch, at: int) -> None:
    """The disk fills up as the `at`-th temporary file of a command is made: the system
    refuses to create it (ENOSPC), as it does when no room is left."""
    import errno
    import tempfile
    from types import SimpleNamespace

    import pnp.base.output

    real = tempfile.mkstemp
    made = []

    def mkstemp(*args, **kwargs):
        made.append(1)
        if len(made) == at:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(Path(kwargs.get("dir", ".")) / f"{kwargs.get('prefix', '')}xxxxxxxx.tmp"))
        return real(*args, **kwargs)

    monkeypatch.setattr(pnp.base.output, "tempfile", SimpleNamespace(mkstemp=mkstemp))
