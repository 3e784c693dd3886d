"""The watcher's look at a deck's data on the web (`data:` a URL, load/remote.py): a save
of the game folder is noticed by live/watch.py, but an edit in the spreadsheet changes no
file, so `pnp build --watch` and `pnp serve` fetch each sheet the last load used again
every `interval` seconds (`--poll-data`, 60 by default) and rebuild only when its bytes
differ from those that load used. The clock is a class attribute, so a test drives the
poll without waiting."""

from __future__ import annotations

import time
from collections.abc import Callable

from pnp.load.remote import Refused, digest, download
from pnp.load.spreadsheets import MAX_BYTES

INTERVAL = 60.0  # seconds between two looks at a sheet on the web: Google Sheets republishes every few minutes


class DataPoll:
    """When to look at the sheets on the web again, and which of them changed."""

    clock = staticmethod(time.monotonic)  # what the interval is reckoned by (a test gives its own)

    def __init__(self, seen: dict[str, bytes], interval: float = INTERVAL, fetch: Callable[[str, int], bytes] = download):
        self.seen = seen  # URL -> digest of the bytes the last load used (load.remote.recording, refilled by each load)
        self.interval = interval  # 0: never (--offline, or --poll-data 0)
        self._fetch = fetch
        self._next = self.clock() + interval

    def left(self) -> float | None:
        """Seconds until the next look; None when there is nothing to look at (no sheet on the web, or polling off)."""
        if not self.seen or self.interval <= 0:
            return None
        return max(0.0, self._next - self.clock())

    def changed(self) -> list[str]:
        """The URLs whose bytes now differ from those the last load used, when a look is
        due ([] before that). A sheet that cannot be fetched now counts as unchanged: the
        next rebuild says why, whatever starts it."""
        left = self.left()
        if left is None or left > 0:
            return []
        self._next = self.clock() + self.interval
        found = []
        for url, known in sorted(self.seen.items()):
            try:
                data = self._fetch(url, MAX_BYTES)
            except (Refused, OSError, ValueError):
                continue
            if digest(data) != known:
                found.append(url)
        return found
