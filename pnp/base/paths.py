"""Where things live: the bundled games, layouts and fonts, and the rule that every
file a game names stays inside the game folder or those bundled folders."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from pnp.base.errors import Location, PnpError, fail

_PACKAGE = Path(__file__).resolve().parent.parent


def _bundled(name: str) -> Path:
    """A bundled folder: inside the installed package (wheel) or beside it (checkout)."""
    inside = _PACKAGE / "_bundled" / name
    return inside if inside.is_dir() else _PACKAGE.parent / name


CARDS_DIR = _bundled("cards")
LAYOUTS_DIR = _bundled("layouts")
FONTS_DIR = _bundled("fonts")
DEFAULT_GAME = CARDS_DIR / "mesta"
_WEB = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://|data:", re.IGNORECASE)  # a URL (https://, file:///, a data: URI): never fetched


def inside(path: Path, roots: list[Path]) -> bool:
    """True when `path`, with every symlink resolved, lies inside one of `roots`."""
    return _real_inside(path, roots) is not None


def is_junk(name: str) -> bool:
    """A file an operating system or an editor leaves beside a user's own, never one of the
    game's: macOS's `._NAME` and `.DS_Store` (any hidden file), Windows' `Thumbs.db` and
    `desktop.ini`, Office's `~$NAME` lock files, editors' backups and swap files (`NAME~`,
    `.NAME.swp`, `#NAME#`, `NAME.bak`)."""
    lower = name.lower()
    return name.startswith((".", "~$", "#")) or name.endswith("~") or lower in ("thumbs.db", "desktop.ini") or lower.endswith((".swp", ".swo", ".bak", ".tmp"))


def leads_out(folder: Path) -> bool:
    """True when `folder` (a game's layouts/, fonts/, locale/, ...) exists but is a link to
    somewhere outside the folder it sits in: the one rule for linked folders, which pnp
    neither lists nor reads (a link inside the game folder, to another of its folders, is
    fine)."""
    return os.path.lexists(folder) and not inside(folder, [folder.parent])


def _real_inside(path: Path, roots: list[Path]) -> str | None:
    """`path` with every symlink resolved when it lies inside one of `roots`, else None."""
    real = os.path.realpath(path)
    for root in roots:
        top = _real_root(root)
        if real == top or real.startswith(top if top.endswith(os.sep) else top + os.sep):
            return real
    return None


@lru_cache(maxsize=64)
def _real_root(root: Path) -> str:
    """A root with every symlink resolved, once: the folders a game lives in stay put while
    pnp runs, and a build checks every file it reads (an image on each card) against them."""
    return os.path.realpath(root)


def resolve_inside(name: str, base: Path, roots: list[Path], loc: Location, what: str, real: bool = False) -> Path:
    """Resolve a relative file name from a game file, refusing anything that leaves `roots`;
    `real`: the path with every symlink resolved (what a file is remembered by)."""
    if not name or "\x00" in name:
        raise fail(loc, "path-invalid", f"{what} has an empty or invalid file name; expected a file name relative to {base}")
    if _WEB.match(name):
        raise fail(loc, "path-url", f"{what} '{name}' is a web address; pnp fetches nothing but a deck's data (data:); expected a file inside the game folder")
    candidate = Path(name)
    if candidate.is_absolute():
        raise fail(loc, "path-outside", f"{what} '{name}' is an absolute path; expected a path relative to the game folder")
    full = base / candidate
    found = _real_inside(full, roots)
    if found is None:
        raise fail(loc, "path-outside", f"{what} '{name}' points outside the game folder; expected a file inside it")
    return Path(found) if real else full


def check_inside(name: str, base: Path, roots: list[Path], loc: Location, what: str) -> Path | PnpError:
    """Like resolve_inside, but returns the error instead of raising (to collect many)."""
    try:
        return resolve_inside(name, base, roots, loc, what)
    except PnpError as err:
        return err
