"""Where the sheet options' defaults come from, below the command line and the PNP_*
variables: the user's own settings (their printer's paper, flip, back offset, ... in
`config.yaml` in the platform's config folder, so they are not typed on every call), then
the game's (a `sheet:` mapping in game.yaml: the paper it is made for, its bleed). Both
are read like a game's files, every value located; what a value may be is the command
line's business (pnp/cli.py hands a check per key), so the files and the options can
never disagree."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pnp.base.errors import Location, PnpError, Problems, display_path
from pnp.load.schema import shown, suggest
from pnp.load.yamlfile import LMap, load_yaml

CONFIG_ENV = "PNP_CONFIG"  # names another config file (tests, or a second printer)


def config_path() -> Path:
    """The user's config file: $PNP_CONFIG if set, else config.yaml in the platform's
    config folder (~/.config/pnp on Linux, ~/Library/Application Support/pnp on macOS,
    %LOCALAPPDATA%\\pnp on Windows)."""
    named = os.environ.get(CONFIG_ENV)
    if named:
        return Path(named)
    import platformdirs  # here for speed: only the commands that read the config file ask where it is

    return Path(platformdirs.user_config_dir("pnp", appauthor=False)) / "config.yaml"


def read_config(path: Path, checks: Mapping[str, Callable[[Any], Any]]) -> dict[str, Any]:
    """The settings in `path` ({} when there is no such file), each value as its check
    returned it. A check raises ValueError with what was expected; a value it refuses,
    an unknown key or a file that is not a mapping is a located error that stops the
    command (PnpError, unreadable: exit 2). Keys may be written with - or _."""
    if not path.is_file():
        return {}
    problems = Problems(unreadable=True)
    data = load_yaml(path, problems)
    problems.raise_if_errors()
    if data is None:
        return {}
    if not isinstance(data, LMap):
        problems.error(Location(display_path(path), 1, 1), "config-type", f"the config file is not a mapping; expected keys such as {', '.join(checks)}")
        raise PnpError(problems)
    return _settings(data, checks, "the config file", problems)


# The sheet options that are the player's, never a game's: their printer and their machine.
PLAYERS_OWN = ("flip", "back_offset", "cutter", "mark_inset")


def read_game_sheet(game_file: Path, checks: Mapping[str, Callable[[Any], Any]]) -> dict[str, Any]:
    """A game's default sheet options: the `sheet:` mapping of its game.yaml ({} when it
    has none), checked like the config file's. They are the designer's (the paper the game
    is made for, its bleed, its gap); the printer's settings are refused with where they go.
    game.yaml's other keys are the load stage's business (pnp/load/game.py)."""
    problems = Problems(unreadable=True)
    data = load_yaml(game_file, problems)
    if problems.items:  # a game.yaml that cannot be read: the build reports it with the rest
        return {}
    block = data.get("sheet") if isinstance(data, LMap) else None
    if block is None:
        return {}
    if not isinstance(block, LMap):
        problems.error(data.loc_of("sheet"), "game-sheet-type", f"'sheet' is {shown(block)}; expected a mapping of sheet options such as paper: letter")
        raise PnpError(problems)
    own = {key.replace("-", "_") for key in block if isinstance(key, str)} & set(PLAYERS_OWN)
    for name in sorted(own):
        key = next(k for k in block if str(k).replace("-", "_") == name)
        problems.error(
            block.key_locs.get(key, block.loc),
            "game-sheet-players",
            f"'{key}' is the player's printer setting, not the game's; expected it in the player's config file ({config_path()}) or on the command line",
        )
    allowed = {k: v for k, v in checks.items() if k not in PLAYERS_OWN}
    return _settings(block, allowed, "game.yaml's sheet", problems, skip=own)


def _settings(data: LMap, checks: Mapping[str, Callable[[Any], Any]], where: str, problems: Problems, skip: set[str] = frozenset()) -> dict[str, Any]:
    """The checked values of a mapping of settings (keys with - or _; those in `skip`
    already reported), or a PnpError of every mistake in it."""
    settings: dict[str, Any] = {}
    for key, value in data.items():
        name = str(key).replace("-", "_")
        if name in skip:
            continue
        if name not in checks:
            loc = data.key_locs.get(key, data.loc)
            problems.error(loc, "config-unknown-key", f"unknown key '{key}' in {where}{suggest(name, checks)}; expected one of: {', '.join(checks)}")
            continue
        try:
            settings[name] = checks[name](value)
        except ValueError as exc:
            problems.error(data.loc_of(key), "config-value", f"'{key}' is {shown(value)}; {exc}")
    problems.raise_if_errors()
    return settings
