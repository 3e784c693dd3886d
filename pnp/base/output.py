"""Atomic writes under one output folder: a file appears complete or not at all, the
previous one survives any failure (including a killed process), and nothing is written
outside the folder a command was given.

A build writes several files as one transaction: all are moved into place at the end, or
none is. A transaction is given the folder it may write under (`root`) and proves every
path inside it before it makes a folder or a file; what the system refuses (a read-only
folder, a full disk, a file where a folder must be) becomes one located problem saying
what to do, not a traceback."""

from __future__ import annotations

import errno
import filecmp
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from pnp.base.errors import Location, PnpError, fail
from pnp.base.signals import holding_signals, stop_if_received


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


@dataclass(repr=False, eq=False)
class Output:
    """The folder a command may write under, and what to tell the user who must write
    somewhere else (`instead`)."""

    root: Path
    instead: str = "or choose another folder with --out"
    name: str = "the output folder"
    kept: str = ""  # what a failed or interrupted run left as it was, to say so ("the previous export is intact")
    cache: bool = True  # whether data fetched from the web is kept under it (in .pnp-cache/: pnp/load/remote.py); else a build's copy there is only read


def current_output() -> Output | None:
    """The folder the running command may write under (None: it writes nothing)."""
    return _CURRENT.get()


_CURRENT: ContextVar[Output | None] = ContextVar("pnp_output", default=None)
# Temporary files are named .TARGET.OWNER.RANDOM.tmp: OWNER is the process that started
# the transaction, so a later run can tell a killed run's files from a running one's.
_TEMPORARY = re.compile(r"^\..+\.(\d+)\.[A-Za-z0-9_]{8}\.tmp$")
_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}  # no room for the file
_WRITE_ERRNOS = {*_FULL_ERRNOS, errno.EROFS}  # a write failed, whichever file it was


@contextmanager
def writing_under(output: Output | None) -> Iterator[None]:
    """Every transaction started inside writes under `output` (a command's --out), unless
    it is given its own; None: the command writes nothing."""
    token = _CURRENT.set(output)
    try:
        yield
    finally:
        _CURRENT.reset(token)


class Transaction:
    """Temporary files beside their targets, moved into place together by `commit`. A
    transaction that is aborted also removes the folders it made, so a failed build into a
    new --out folder leaves nothing behind. `owner` names the process whose run this is (a
    forked helper writes under its parent's)."""

    def __init__(self, output: Output | Path | None = None, owner: int | None = None) -> None:
        output = output if output is not None else _CURRENT.get()
        if output is None:
            raise RuntimeError("a transaction needs the folder it may write under")
        self.output = output if isinstance(output, Output) else Output(output)
        self.owner = owner if owner is not None else os.getpid()
        self.root = _resolved(self.output.root, self.output)
        self.pending: list[tuple[Path, Path]] = []
        self.stale: list[Path] = []  # files an earlier run wrote that this one replaces by nothing, removed on commit
        self.made: list[Path] = []  # folders this transaction made, deepest first
        self.swept: set[Path] = set()  # folders whose stale temporary files were removed

    def path_for(self, target: Path) -> Path:
        """A temporary file for `target`, once `target` is proven to lie inside the output
        folder and its folder can be made."""
        folder = _resolved(target.parent, self.output)
        if target.name in ("", ".", "..") or not (folder == self.root or folder.is_relative_to(self.root)):
            named = Path(os.path.normpath(os.path.abspath(target))).is_relative_to(os.path.normpath(os.path.abspath(self.output.root)))
            why = "a symbolic link on its path leads" if named and target.name not in ("", ".", "..") else "this file would be written"
            raise fail(
                Location(shown(target)),
                "output-outside",
                f"{why} outside {self.output.name} {shown(self.output.root)}; expected every file pnp writes inside it",
            )
        self._make_folder(target.parent)
        if target.is_dir() and not target.is_symlink():
            raise self.problem(OSError(errno.EISDIR, os.strerror(errno.EISDIR), str(target)))
        if folder not in self.swept:
            self.swept.add(folder)
            sweep(folder)
        with holding_signals():  # made and noted as one step: a signal between would leave it behind
            try:
                fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{self.owner}.", suffix=".tmp", dir=target.parent)
            except OSError as exc:  # a full disk is said at the file being written, a refusal at its folder
                raise output_problem(exc, target if exc.errno in _FULL_ERRNOS else target.parent, self.output.instead) from None
            os.close(fd)
            self.pending.append((Path(tmp), target))
        stop_if_received()  # a signal that came meanwhile, now that the file will be removed
        return Path(tmp)

    def _make_folder(self, folder: Path) -> None:
        """Make `folder` and its missing parents, remembering them to remove on abort; a
        file (or a broken link) where a folder must be is named."""
        missing = []
        while not os.path.lexists(folder):
            missing.append(folder)
            folder = folder.parent
        if folder.is_symlink() and not folder.exists():
            raise fail(
                Location(shown(folder)),
                "output-not-folder",
                f"is a link to '{os.readlink(folder)}', which does not exist, where a folder must be; expected a folder (fix the link, {self.output.instead})",
            )
        if not folder.is_dir():
            raise self.problem(OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder)))
        for made in reversed(missing):
            with holding_signals():  # made and noted as one step
                try:
                    made.mkdir()
                except FileExistsError as exc:
                    if made.is_dir():  # made meanwhile by the other process of the build (the rulebooks'): not this one's to remove
                        continue
                    raise self.problem(exc, made) from None
                except OSError as exc:
                    raise self.problem(exc, made) from None
                self.made.insert(0, made)
        stop_if_received()  # a signal that came meanwhile, now that the folders will be removed

    def drop(self, tmp: Path) -> None:
        """Remove the temporary file `tmp` now: it served its purpose (another program's
        input) and is moved nowhere."""
        self.pending = [(made, target) for made, target in self.pending if made != tmp]
        tmp.unlink(missing_ok=True)

    def remove(self, path: Path) -> None:
        """Remove `path` (a file an earlier run wrote and this one does not) when the
        transaction commits, after its files are in place; kept if it aborts."""
        self.stale.append(path)

    def commit(self) -> None:
        """Move every file into place, then remove the stale ones; a signal that comes
        meanwhile waits until all are in place (holding_signals)."""
        stop_if_received()  # a signal came, even one a library dropped on its way: nothing is moved into place
        umask = os.umask(0)
        os.umask(umask)
        with holding_signals():
            for tmp, target in self.pending:
                try:
                    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; the result is an ordinary file
                    replace(tmp, target)
                except OSError as exc:
                    raise self.problem(exc, target) from None
            self.pending.clear()
            self.made.clear()
            for path in self.stale:
                try:
                    path.unlink(missing_ok=True)
                except OSError as exc:
                    raise self.problem(exc, path) from None
            self.stale.clear()

    def keep_if_same(self, target: Path) -> bool:
        """When the file pending for `target` holds the bytes `target` holds already, let
        it go and return True: `target` stays as it is, its time too (the watcher's
        rebuilds leave such files untouched)."""
        for i, (tmp, pending) in enumerate(self.pending):
            if pending == target:
                try:
                    same = target.is_file() and filecmp.cmp(tmp, target, shallow=False)
                except OSError:  # unreadable: written, as any other
                    return False
                if same:
                    del self.pending[i]
                    tmp.unlink(missing_ok=True)
                return same
        return False

    def adopt(self, pending: list[tuple[Path, Path]], made: list[Path]) -> None:
        """Take over the files and folders of another process's transaction."""
        self.pending.extend(pending)
        self.made.extend(made)

    def abort(self) -> None:
        for tmp, _ in self.pending:
            tmp.unlink(missing_ok=True)
        self.pending.clear()
        self.stale.clear()
        for folder in sorted(set(self.made), key=lambda path: len(path.parts), reverse=True):
            try:
                folder.rmdir()
            except OSError:  # not empty (another file was put there), or already gone
                pass
        self.made.clear()

    def writes(self, exc: OSError) -> bool:
        """Whether `exc` is a failure to write this transaction's files (not to read the game)."""
        if exc.errno in _WRITE_ERRNOS:
            return True
        return exc.filename is not None and any(str(tmp) == str(exc.filename) for tmp, _ in self.pending)

    def problem(self, exc: OSError, where: Path | None = None) -> PnpError:
        """The error to report for a failed write: the path, what went wrong, what to do."""
        latest = self.pending[-1][1] if self.pending else self.output.root  # the file being written, when the system does not say
        path = Path(exc.filename) if exc.filename else where if where is not None else latest
        for tmp, target in self.pending:
            if path == tmp:
                path = target  # the user knows the file, not its temporary name
        return output_problem(exc, path, self.output.instead)


# A file open in another program cannot be replaced on Windows (a sharing violation): a
# viewer that reloads the PDF a build (or --watch) just wrote holds it for a moment, so
# replacing is tried again, REPLACE_TRIES times in all, SLEEP seconds apart.
REPLACE_TRIES = 10
REPLACE_PAUSE = 0.1
SLEEP = time.sleep  # what waits between tries; tests put one there that does not wait


def replace(tmp: Path, target: Path) -> None:
    """`os.replace(tmp, target)`, tried again while `target` is open in another program
    (Windows); when it stays open, a located problem saying to close it."""
    for attempt in range(REPLACE_TRIES):
        try:
            os.replace(tmp, target)
            return
        except PermissionError as exc:
            if not _sharing_violation(exc):
                raise
            if attempt + 1 < REPLACE_TRIES:
                SLEEP(REPLACE_PAUSE)
    where = shown(target)
    raise fail(
        Location(where),
        "output-in-use",
        f"cannot replace it: it is open in another program; close {where} in your PDF viewer and build again",
    )


def _sharing_violation(exc: PermissionError) -> bool:
    """Whether Windows refused because another program has the file open: its error 32
    (ERROR_SHARING_VIOLATION), which Python reports as EACCES; elsewhere EACCES means
    what it says (permission denied) and is not tried again."""
    return getattr(exc, "winerror", None) == 32 or (os.name == "nt" and exc.errno == errno.EACCES)


def output_problem(exc: OSError, path: Path, instead: str = Output.instead) -> PnpError:
    """One located line for an OSError met while writing `path`: what went wrong, and
    what to do (the particular fix, then `instead`: writing elsewhere)."""
    what, expected, fix, code = _ADVICE.get(exc.errno or 0, (f"cannot write: {exc.strerror or exc}", "expected a folder pnp can write to", "", "output-failed"))
    todo = f"{fix}, {instead}" if fix and instead else fix or instead.removeprefix("or ")
    return fail(Location(shown(path)), code, f"{what}; {expected} ({todo})")


_DENIED = ("cannot write here: permission denied", "expected a folder you may write to", "change its permissions", "output-denied")
_FULL = ("cannot write: the disk is full", "expected free space", "free some", "output-full")
_FILE = ("is a file where a folder must be", "expected a folder", "move the file away", "output-not-folder")
_ADVICE: dict[int, tuple[str, str, str, str]] = {
    errno.EROFS: ("cannot write here: the file system is read-only", "expected a writable folder", "", "output-read-only"),
    errno.EACCES: _DENIED,
    errno.EPERM: _DENIED,
    errno.ENOSPC: _FULL,
    errno.EDQUOT: ("cannot write: the disk quota is used up", "expected free space", "free some", "output-full"),
    errno.EFBIG: ("cannot write: the file is too large for this file system", "expected a file system that holds it", "", "output-full"),
    errno.ENOTDIR: _FILE,
    errno.EEXIST: _FILE,
    errno.EISDIR: ("is a folder where an output file must be written", "expected no folder there", "move the folder away", "output-is-folder"),
    errno.ELOOP: ("symbolic links loop in this path", "expected links that end in a folder", "fix the links", "output-link-loop"),
    errno.ENAMETOOLONG: ("the file name is too long", "expected a shorter path", "shorten the ids that name files", "output-name-too-long"),
}


def shown(path: Path) -> str:
    """A path as the user named it, relative to the working directory when inside it; links
    are not followed (they may loop, or be what is wrong)."""
    full = Path(os.path.abspath(path))
    try:
        return str(full.relative_to(Path.cwd()))
    except ValueError:
        return str(full)


def _resolved(path: Path, output: Output) -> Path:
    """`path` with every symbolic link followed (what does not exist yet is kept as named)."""
    try:
        return path.resolve()
    except RuntimeError:  # Python < 3.13 reports a loop so
        raise output_problem(OSError(errno.ELOOP, os.strerror(errno.ELOOP)), path, output.instead) from None
    except OSError as exc:
        raise output_problem(exc, path, output.instead) from None


def sweep(folder: Path) -> None:
    """Remove the temporary files (and folders staged whole) that runs of pnp killed
    before they could clean up left in `folder` (of any target); those of a running
    process are kept."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        match = _TEMPORARY.match(name)
        if match and not _running(int(match.group(1))):
            path = folder / name
            if path.is_dir() and not path.is_symlink():  # a folder staged whole (pnp new)
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if os.name != "posix":  # no harmless way to ask: keep it
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # alive, owned by someone else
        return True
    return True


@contextmanager
def transaction(output: Output | Path | None = None) -> Iterator[Transaction]:
    """Commit on success; on any exception (or a signal turned into one) remove every
    temporary file. A failed write becomes a located problem."""
    txn = Transaction(output)
    try:
        yield txn
        txn.commit()
    except OSError as exc:
        if not txn.writes(exc):
            raise
        raise txn.problem(exc) from None
    finally:
        txn.abort()


@contextmanager
def atomic_path(target: Path, output: Output | Path | None = None) -> Iterator[Path]:
    """Yield a temporary path beside `target`; move it into place only on success."""
    with transaction(output) as txn:
        yield txn.path_for(target)
