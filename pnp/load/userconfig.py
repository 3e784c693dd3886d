"""The user's own settings: the sheet options of their printer (paper, flip, back offset,
...) in `config.yaml` in the platform's config folder, so they are not typed on every
call. The file is read like a game's files, every value located; what a value may be is
the command line's business (pnp/cli.py hands a check per key), so the file and the
options can never disagree."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import platformdirs

from pnp.base.errors import Location, PnpError, Problems, display_path
from pnp.load.schema import suggest
from pnp.load.yamlfile import LMap, load_yaml

CONFIG_ENV = "PNP_CONFIG"  # names another config file (tests, or a second printer)


def config_path() -> Path:
    """The user's config file: $PNP_CONFIG if set, else config.yaml in the platform's
    config folder (~/.config/pnp on Linux, ~/Library/Application Support/pnp on macOS,
    %LOCALAPPDATA%\\pnp on Windows)."""
    named = os.environ.get(CONFIG_ENV)
    return Path(named) if named else Path(platformdirs.user_config_dir("pnp", appauthor=False)) / "config.yaml"


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
    settings: dict[str, Any] = {}
    for key, value in data.items():
        name = str(key).replace("-", "_")
        if name not in checks:
            where = data.key_locs.get(key, data.loc)
            problems.error(where, "config-unknown-key", f"unknown key '{key}' in the config file{suggest(name, checks)}; expected one of: {', '.join(checks)}")
            continue
        try:
            settings[name] = checks[name](value)
        except ValueError as exc:
            problems.error(data.loc_of(key), "config-value", f"'{key}' is {_show(value)}; {exc}")
    problems.raise_if_errors()
    return settings


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "empty"
    return repr(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
