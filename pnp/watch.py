"""`pnp build --watch`: rebuild whenever a file of the game folder changes.

Polling the modification times every half second is all it takes for a folder of a few
hundred files, needs no dependency and works the same on every system and file system
(network drives and containers included, where change notifications often do not arrive).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

INTERVAL = 0.5  # seconds between two looks at the folder
MAX_FILES = 20_000  # a game folder is small; beyond this, stop looking deeper

Snapshot = dict[str, tuple[int, int]]  # relative path -> (mtime in ns, size)


def snapshot(folder: Path, ignore: list[Path]) -> Snapshot:
    """Modification time and size of every file under `folder`, hidden files and folders
    (.git, editors' swap files, pnp's temporary files) and `ignore` left out."""
    skipped = [p.resolve() for p in ignore]
    found: Snapshot = {}
    stack = [folder]
    while stack and len(found) < MAX_FILES:
        current = stack.pop()
        try:
            entries = sorted(current.iterdir())
        except OSError:  # removed while we looked, or unreadable: seen next time
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.name.endswith("~"):
                continue
            try:
                if entry.is_dir():
                    if entry.resolve() not in skipped:
                        stack.append(entry)
                    continue
                stat = entry.stat()
            except OSError:
                continue
            found[str(entry.relative_to(folder))] = (stat.st_mtime_ns, stat.st_size)
    return found


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    """The files added, removed or modified between two snapshots, sorted."""
    return sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))


def watch(
    folder: Path,
    rebuild: Callable[[], None],
    say: Callable[[str], None],
    ignore: list[Path] | None = None,
    interval: float = INTERVAL,
    sleep: Callable[[float], None] | None = None,
) -> None:
    """Build once, then again after every change, until Ctrl-C. `rebuild` reports its own
    errors and must not raise for mistakes in the game."""
    ignore = ignore or []
    pause = sleep or time.sleep  # looked up now, so tests can replace time.sleep
    try:
        seen = snapshot(folder, ignore)  # before building: a change made meanwhile is seen next time
        rebuild()
        say(f"watching {folder} for changes (Ctrl-C to stop)")
        while True:
            pause(interval)
            now = snapshot(folder, ignore)
            names = changed(seen, now)
            if not names:
                continue
            seen = now
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            say(f"changed: {shown}; rebuilding")
            rebuild()
    except KeyboardInterrupt:
        say("stopped watching")
