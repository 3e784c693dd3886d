"""Files by version: what a file's version is, and what was computed from one version of a file.

The watcher (`pnp build --watch`) and the live preview (`pnp serve`) build again and again in
one process, and one build reads the same file for many cards. So what is computed from a
file (an image checked, a symbol or font read, a file's hash or digest) is remembered by
the file's version: its modification time and size, which a `stat` gives without reading
it. A file replaced while the watcher runs has another version and is read again; a file
read by a thousand cards is read once. `version` is the one place that says what a
version is, and `per_version` the one way to remember by it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache, update_wrapper
from typing import Any, Generic, NamedTuple, TypeVar

R = TypeVar("R")
StrPath = str | os.PathLike[str]  # a path as os.stat takes it: str for some callers, pathlib.Path for others


class Version(NamedTuple):
    """One version of a file: equal for the same file unchanged, different once it is saved
    again (a later modification time) or replaced by one of another size."""

    mtime_ns: int
    size: int

    @classmethod
    def of(cls, stat: os.stat_result) -> Version:
        """The version a `stat` (already made, e.g. to know the file's kind) gives."""
        return cls(stat.st_mtime_ns, stat.st_size)


def version(path: StrPath) -> Version:
    """The version of the file at `path` now (links followed); OSError, as `os.stat` raises
    it, when there is none."""
    return Version.of(os.stat(path))


class PerVersion(Generic[R]):
    """`fn(path, *args)` computed once per (path, version of the file, args): the
    `maxsize` most recently used are kept (all of them when None). Called as `fn` is; what
    `fn` raises is raised again, never remembered."""

    def __init__(self, fn: Callable[..., R], maxsize: int | None):
        def compute(path: StrPath, _version: Version, *args: Any) -> R:
            return fn(path, *args)

        self._kept = lru_cache(maxsize=maxsize)(compute)
        update_wrapper(self, fn)

    def __call__(self, path: StrPath, *args: Any) -> R:
        """What `fn` gives for the file at `path` as it is now; OSError (from `version`) when there is none."""
        return self._kept(path, version(path), *args)

    def at(self, path: StrPath, found: Version, *args: Any) -> R:
        """The same for a version the caller has already read (`found`), with one `stat`
        for both (a caller that must tell a missing file apart, or a folder from a file)."""
        return self._kept(path, found, *args)

    def cache_clear(self) -> None:
        self._kept.cache_clear()

    def cache_info(self) -> Any:
        return self._kept.cache_info()


def per_version(maxsize: int | None) -> Callable[[Callable[..., R]], PerVersion[R]]:
    """A decorator: `fn(path, *args)` remembered once per version of the file at `path`
    (see `PerVersion`); `maxsize` bounds how many are kept (None: no bound)."""

    def decorate(fn: Callable[..., R]) -> PerVersion[R]:
        return PerVersion(fn, maxsize)

    return decorate
