"""`pnp build --watch`: rebuild whenever a file of the game folder changes.

Changes are noticed by the operating system's file notifications (watchdog: inotify,
FSEvents, ReadDirectoryChangesW) where it has them, so a save is seen at once; where it
has none, or they cannot be had (network drives, containers, a system out of inotify
watches), by polling the modification times every half second. Either way one save (an
editor writes a backup, the file, then renames: several events) is one change: events
are gathered until none has come for `SETTLE` seconds (`CLOSED` after a file written is
closed: that write is over, and what else a save does follows at once), and a file counts as changed only
if its version (base.versions: modification time and size) differs from the last look (reading a file does not
change it; a notification for its access time alone is dropped). `Changes` knows nothing
of builds: `pnp build --watch` and the preview server both use it. `watch` also looks
at the decks' data on the web at an interval (live/poll.py): an edit in a spreadsheet
changes no file.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.base.paths import is_junk
from pnp.base.versions import Version, version
from pnp.live.poll import DataPoll
from pnp.write import cutfiles, manifest

INTERVAL = 0.5  # seconds between two looks at the folder, when polling
SETTLE = 0.03  # seconds without an event after which a burst of them is over (an editor saves in a few ms)
CLOSED = 0.005  # the same, after the event of a written file closed: a save's rename into place comes within a millisecond
MAX_FILES = 20_000  # a game folder is small; beyond this, stop looking deeper
_WRITES = {"created", "modified", "deleted", "moved", "closed"}  # not "opened" or "closed_no_write": pnp's own reading

Snapshot = dict[str, Version]  # relative path -> the file's version


def ignored(name: str) -> bool:
    """Hidden files and folders (.git, pnp's temporary files), the leftovers of operating
    systems and editors (base.paths.is_junk), and Vim's test file `4913` and `.swx`."""
    return is_junk(name) or name.endswith(".swx") or name == "4913"


# What a build writes into its output folder, each pattern from the module that names the files.
_OUTPUT = re.compile("|".join([r".+\.pdf", manifest.NAMES.pattern, cutfiles.NAMES.pattern]))


@dataclass(frozen=True)
class Skipped:
    """What the watcher leaves out besides hidden files and backups: the output folders
    (`whole`), and where the output folder is the game folder or holds it (`--out` equal
    to the game folder's parent, or the game folder inside `--out`), the files a build
    writes there (`outputs`), so that the game's own files are still watched."""

    whole: tuple[Path, ...]
    outputs: tuple[Path, ...]

    @classmethod
    def of(cls, folder: Path, outs: list[Path]) -> Skipped:
        root = folder.resolve()
        whole, outputs = [], []
        for out in outs:
            written = (out / root.name).resolve()  # where a build of this game writes
            if root.is_relative_to(written):
                outputs.append(written)
            elif root.is_relative_to(out.resolve()):  # the game inside --out: only its output folder
                whole.append(written)
            else:
                whole.append(out.resolve())
        return cls(tuple(whole), tuple(outputs))

    def __call__(self, path: Path) -> bool:
        """Whether `path` (resolved) is left out."""
        if any(path == skip or path.is_relative_to(skip) for skip in self.whole):
            return True
        return path.parent in self.outputs and _OUTPUT.fullmatch(path.name) is not None


def snapshot(folder: Path, skipped: Skipped) -> tuple[Snapshot, bool]:
    """The version of every file under `folder`, the `ignored` and `skipped` ones left
    out, and whether there were more than MAX_FILES to look at (the rest left out too).
    Links to folders are not followed (a link to the parent would make the whole disk the
    game's), nor links to files outside the game folder (they are not the game's: the
    build refuses them)."""
    root = folder.resolve()
    found: Snapshot = {}
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            entries = sorted(current.iterdir())
        except OSError:  # removed while we looked, or unreadable: seen next time
            continue
        for entry in entries:
            if ignored(entry.name):
                continue
            try:
                real = entry.resolve()
                if skipped(real) or not real.is_relative_to(root):
                    continue
                if entry.is_dir():
                    if not entry.is_symlink():
                        stack.append(entry)
                    continue
                if len(found) >= MAX_FILES:
                    return found, True
                found[str(entry.relative_to(folder))] = version(entry)
            except OSError:
                continue
    return found, False


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    """The files added, removed or modified between two snapshots, sorted."""
    return sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))


class Changes:
    """The files of `folder` that change, as paths relative to it: `wait` returns the next
    save's. Notifications when the system gives them (`poll` forces polling), else polling."""

    clock = staticmethod(time.monotonic)  # what the quiet after a burst is reckoned by (a test gives its own)

    def __init__(self, folder: Path, ignore: list[Path] | None = None, poll: bool = False, settle: float = SETTLE, interval: float = INTERVAL):
        self.folder = folder
        self.skipped = Skipped.of(folder, ignore or [])
        self.settle = settle
        self.interval = interval
        self._root = folder.resolve()
        self.seen, self.truncated = snapshot(folder, self.skipped)  # before the first build: a change made meanwhile is seen next time
        self._beyond: dict[str, Version | None] = {}  # files notified beyond MAX_FILES: their versions, looked at one by one
        self._notified: set[str] = set()
        self._event = threading.Event()
        self._quiet_at = 0.0  # when the burst of events is over, as the last one concerning the folder says (self.clock)
        self._observer: Any = None if poll else self._observe()

    @property
    def notified(self) -> bool:
        """Whether the system's notifications are used (else polling)."""
        return self._observer is not None

    def _observe(self) -> Any:
        """A started watchdog observer of the folder, or None where there is none to be had."""
        from watchdog.events import FileSystemEventHandler  # slow to import: only for a command that watches
        from watchdog.observers import Observer

        on_event = self._on_event

        class Handler(FileSystemEventHandler):  # watchdog's way: its hook overridden, not replaced on its object
            def on_any_event(self, event: Any) -> None:
                on_event(event)

        observer = Observer()
        try:
            observer.schedule(Handler(), str(self._root), recursive=True)
            observer.start()
        except (OSError, RuntimeError):  # no notifications here, or too many watches: poll instead
            return None
        return observer

    def _on_event(self, event: Any) -> None:
        if event.event_type not in _WRITES or (event.is_directory and event.event_type == "modified"):  # a folder's own time: its files say what changed
            return
        for path in (event.src_path, getattr(event, "dest_path", "")):
            if path and self._concerns(os.fsdecode(path)):
                if self.truncated:
                    self._notified.add(os.fsdecode(path))
                self._quiet_at = self.clock() + (min(CLOSED, self.settle) if event.event_type == "closed" else self.settle)
                self._event.set()

    def _concerns(self, path: str) -> bool:
        """Whether a notified path is one of the files watched (not in --out, not hidden, not a backup)."""
        try:
            relative = Path(path).relative_to(self._root)
        except ValueError:
            return False
        if any(ignored(part) for part in relative.parts):
            return False
        return not self.skipped(Path(path))

    def wait(self, timeout: float | None = None) -> list[str]:
        """The files changed since the last call (or since this was made), once the burst
        of events of a save is over; [] when nothing changed within `timeout` seconds."""
        end = None if timeout is None else self.clock() + timeout
        while True:
            left = None if end is None else max(0.0, end - self.clock())
            if self._observer is not None:
                if not self._event.wait(left if left is not None else self.interval):
                    if end is not None and self.clock() >= end:
                        return []
                    continue
                self._event.clear()
                while (quiet := self._quiet_at - self.clock()) > 0:  # until the burst is over
                    self._event.wait(quiet)  # woken by the next event: a file closed ends the burst sooner
                    self._event.clear()
            else:
                time.sleep(self.interval if left is None else min(self.interval, left))
            now, _ = snapshot(self.folder, self.skipped)
            names = changed(self.seen, now)
            if names and self._observer is None:  # polling: let a save in progress finish
                time.sleep(self.settle)
                now, _ = snapshot(self.folder, self.skipped)
                names = changed(self.seen, now)
            self.seen = now
            names = sorted(set(names) | set(self._beyond_changed(now)))
            if names:
                return names
            if end is not None and self.clock() >= end:
                return []

    def _beyond_changed(self, now: Snapshot) -> list[str]:
        """In a folder of more than MAX_FILES files, the notified ones the snapshot left
        out whose version changed: a save there is noticed too."""
        names = []
        for path in sorted(self._notified):
            name = str(Path(path).relative_to(self._root))
            if name in now:
                continue
            try:
                current = version(Path(path))
            except OSError:
                current = None
            if self._beyond.get(name, "unseen") != current:
                self._beyond[name] = current
                names.append(name)
        self._notified.clear()
        return names

    def close(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join()
            self._observer = None


def watch(folder: Path, rebuild: Callable[[], None], say: Callable[[str], None], changes: Changes, poll: DataPoll | None = None) -> None:
    """Build once, then again after every change, until Ctrl-C: a save of a file of the
    folder, or a sheet on the web that `poll` finds changed. `rebuild` reports its own
    errors and must not raise for mistakes in the game."""
    try:
        rebuild()
        say(f"watching {folder} for changes (Ctrl-C to stop)")
        if changes.truncated:
            said = "saves to the others are noticed as the system reports them" if changes.notified else "saves to the others are not noticed"
            say(
                f"warning: {folder} holds more than {MAX_FILES:,} files; the first {MAX_FILES:,} are compared, {said} (expected a game folder of the game's own files)"
            )
        while True:
            names = changes.wait(poll.left() if poll is not None else None)
            if not names and poll is not None:
                names = poll.changed()
                if not names:
                    continue
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            say(f"changed: {shown}; rebuilding")
            rebuild()
    except KeyboardInterrupt:
        say("stopped watching")
    finally:
        changes.close()
