"""Atomic writes: a file appears complete or not at all, and the previous one survives
any failure, including a killed process. A build writes several files as one
transaction: all are moved into place at the end, or none is."""

from __future__ import annotations

import glob
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple


class Written(NamedTuple):
    """A PDF a build wrote, and how it is printed: `duplex` is the edge to turn the paper
    over ("long" or "short") when it has backs to print double-sided, "either" for pages
    with nothing behind them to line up (a rulebook), else None: one-sided (fronts without
    backs, pieces of a large component: printed double-sided they would land behind
    each other)."""

    path: Path
    cards: int
    pages: int
    duplex: str | None = None


class Transaction:
    """Temporary files beside their targets, moved into place together by `commit`. A
    transaction that is aborted also removes the folders it made, so a failed build into a
    new --out folder leaves nothing behind."""

    def __init__(self) -> None:
        self.pending: list[tuple[Path, Path]] = []
        self.made: list[Path] = []  # folders this transaction made, deepest first

    def path_for(self, target: Path) -> Path:
        missing = []
        folder = target.parent
        while not folder.exists():
            missing.append(folder)
            folder = folder.parent
        target.parent.mkdir(parents=True, exist_ok=True)
        self.made.extend(missing)
        for stale in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):  # left by a killed run
            stale.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        self.pending.append((Path(tmp), target))
        return Path(tmp)

    def commit(self) -> None:
        umask = os.umask(0)
        os.umask(umask)
        for tmp, target in self.pending:
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; the result is an ordinary file
            os.replace(tmp, target)
        self.pending.clear()
        self.made.clear()

    def adopt(self, pending: list[tuple[Path, Path]], made: list[Path]) -> None:
        """Take over the files and folders of another process's transaction."""
        self.pending.extend(pending)
        self.made.extend(made)

    def abort(self) -> None:
        for tmp, _ in self.pending:
            tmp.unlink(missing_ok=True)
        self.pending.clear()
        for folder in sorted(set(self.made), key=lambda path: len(path.parts), reverse=True):
            try:
                folder.rmdir()
            except OSError:  # not empty (another file was put there), or already gone
                pass
        self.made.clear()


@contextmanager
def transaction() -> Iterator[Transaction]:
    """Commit on success; on any exception remove every temporary file."""
    txn = Transaction()
    try:
        yield txn
        txn.commit()
    finally:
        txn.abort()


@contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """Yield a temporary path beside `target`; move it into place only on success."""
    with transaction() as txn:
        yield txn.path_for(target)
