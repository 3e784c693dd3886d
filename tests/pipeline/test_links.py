"""One rule for links, held by every command: nothing outside the game folder is opened
or listed, whatever in it is a link to outside (a folder pnp reads, a file it names, a
file in a folder it lists) or names a path through `..`. Python's audit hooks report every
file opened and every folder listed; a test fails on any that resolves outside."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from conftest import edit, run

from pnp.base.paths import CARDS_DIR, LAYOUTS_DIR

_watched: list[tuple[str, list[str]]] = []  # (the outside folder, what was opened or listed in it), while a test looks


def _hook(event: str, args: tuple) -> None:
    if not _watched or event not in ("open", "os.listdir", "os.scandir"):
        return
    target = args[0] if args else None
    if not isinstance(target, (str, bytes, os.PathLike)) or isinstance(target, int):
        return
    real = os.path.realpath(os.fsdecode(target))
    for outside, seen in _watched:
        if real == outside or real.startswith(outside + os.sep):
            seen.append(f"{event} {os.fsdecode(target)}")


sys.addaudithook(_hook)  # a hook cannot be removed: it looks only while `_watched` holds a folder


KINDS = ["layouts", "fonts", "locale", "data", "symbol", "rulebook"]


def make_hostile(tmp_path: Path, kind: str) -> tuple[Path, Path]:
    """Mestá with one kind of link out: a layouts/ folder (overriding a bundled layout),
    a fonts/ folder or the locale/ folder that is a link to outside, a data file or a
    symbol that is one, or a rulebook file named `../outside/...`. What is outside is
    good: read, it would be used."""
    outside = tmp_path / "outside"
    game = tmp_path / "mesta"
    shutil.copytree(CARDS_DIR / "mesta", game)
    outside.mkdir()
    if kind == "layouts":
        (outside / "layouts" / "mesta").mkdir(parents=True)
        shutil.copy(LAYOUTS_DIR / "mesta" / "city.yaml", outside / "layouts" / "mesta" / "city.yaml")
        (game / "layouts").symlink_to(outside / "layouts")
    elif kind == "fonts":
        (outside / "fonts").mkdir()
        (outside / "fonts" / "fonts.yaml").write_text("sans: DejaVuSans.ttf\n", encoding="utf-8")
        (game / "fonts").symlink_to(outside / "fonts")
    elif kind == "locale":
        shutil.move(game / "locale", outside / "locale")
        (game / "locale").symlink_to(outside / "locale")
    elif kind == "data":
        shutil.move(game / "cities.yaml", outside / "cities.yaml")
        (game / "cities.yaml").symlink_to(outside / "cities.yaml")
    elif kind == "symbol":
        symbol = sorted((game / "symbols").glob("*.svg"))[0]
        shutil.move(symbol, outside / symbol.name)
        symbol.symlink_to(outside / symbol.name)
    else:
        (outside / "rules.md").write_text("# Outside\n\nSecret.\n", encoding="utf-8")
        edit(game / "game.yaml", "      - rules/01-uvod.md\n", "      - rules/01-uvod.md\n      - ../outside/rules.md\n")
    return game, outside


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", [["check"], ["build", "--lang", "all"], ["list"], ["i18n", "update"]], ids=lambda c: " ".join(c))
def test_no_command_opens_or_lists_anything_outside_the_game_folder(tmp_path, command, kind):
    game, outside = make_hostile(tmp_path, kind)
    seen: list[str] = []
    _watched.append((os.path.realpath(outside), seen))
    try:
        args = [*command, game] + (["--out", tmp_path / "out"] if command[0] in ("build", "export") else [])
        result = run(*args)
    finally:
        _watched.clear()
    assert seen == [], f"{' '.join(command)} read outside the game folder:\n" + "\n".join(seen[:10]) + "\n" + result.output
    assert result.exit_code != 3, result.output
    if command[0] == "build" or (command[0] == "check" and kind != "locale"):  # check reads no catalogue without --lang
        assert result.exit_code in (1, 2), result.output
        assert "outside the game folder" in result.output, result.output
