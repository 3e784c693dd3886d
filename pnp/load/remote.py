"""A deck's data from the web: `data:` may be the URL of a published CSV or XLSX (Google
Sheets' "publish to web" link, or any https CSV or workbook), fetched with the standard
library at each load, with a timeout and a size limit. Which of the two it is, the bytes
say (a workbook is a zip: `PK`), so the kept copy needs no other record.

Each copy fetched is kept under the command's output folder (OUT/.pnp-cache/, never in
the game folder), so that a build without the network uses the last copy, with a warning
that says how old it is; a command that writes nothing (`pnp check`, `pnp list`) keeps
none, but reads the copy a build kept under its --out when the network is down or with
`--offline` (`offline`: nothing is fetched at all). A worker process of `pnp build
--jobs` reads the copy its parent fetched (`cached_only`), so every deck of one build
sees the same data. The watcher records what each load fetched (`recording`) to poll the
sheet for changes (live/poll.py). Every problem is located at the `data:` line with what
was expected; the values themselves are located at `URL:row:col` (`URL:Sheet!C12` in a
workbook).

Nothing else a game names is ever fetched: images, fonts, symbols and rulebook files are
paths inside the game folder (base/paths.py refuses a URL there)."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pnp.base.errors import Location, Problems
from pnp.base.output import atomic_path, current_output

TIMEOUT = 20.0  # seconds a fetch may wait for the server
CACHE = ".pnp-cache"  # under the output folder
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


@dataclass(repr=False, eq=False)
class _Mode:
    """How this process reads data on the web: set for a command (`offline`), a worker
    (`cached_only`) or the watcher (`recording`); shared by every thread (the preview
    loads in a thread of its own)."""

    only_cached: bool = False  # a build's worker process: read the parent's copy, never fetch
    offline: bool = False  # --offline: read the kept copy, never touch the network
    seen: dict[str, bytes] | None = None  # URL -> digest of the bytes each load used


_MODE = _Mode()


def is_url(name: str) -> bool:
    """Whether a `data:` value names a URL rather than a file of the game folder."""
    return bool(_URL.match(name))


def is_workbook(data: bytes) -> bool:
    """Whether bytes fetched are an XLSX workbook (a zip) rather than a CSV."""
    return data.startswith(b"PK\x03\x04")


def digest(data: bytes) -> bytes:
    """What the bytes of a sheet are compared by (the watcher's poll)."""
    return hashlib.sha256(data).digest()


@contextmanager
def cached_only() -> Iterator[None]:
    """Inside, a URL is read from the copy kept under the output folder, never fetched:
    a worker process draws from what its parent fetched."""
    _MODE.only_cached = True
    try:
        yield
    finally:
        _MODE.only_cached = False


@contextmanager
def offline(on: bool = True) -> Iterator[None]:
    """Inside (with `on`), nothing is fetched: a URL is read from the copy kept under the
    output folder, and a missing copy is an error (`--offline`)."""
    before = _MODE.offline
    _MODE.offline = on or before
    try:
        yield
    finally:
        _MODE.offline = before


@contextmanager
def recording(seen: dict[str, bytes]) -> Iterator[None]:
    """Inside, the digest of the bytes each URL gave (fetched or kept) goes into `seen`:
    the watcher polls those URLs and rebuilds when they give other bytes."""
    before = _MODE.seen
    _MODE.seen = seen
    try:
        yield
    finally:
        _MODE.seen = before


@dataclass(repr=False, eq=False)
class Fetched:
    """A CSV or workbook from the web: its bytes, and the file it is kept in (None: kept nowhere)."""

    data: bytes
    kept: Path | None

    @property
    def suffix(self) -> str:
        """The kind of file, as spreadsheets.read_sheet tells them apart."""
        return ".xlsx" if is_workbook(self.data) else ".csv"


def cache_file(url: str) -> tuple[Path | None, bool]:
    """Where the copy of `url` is kept under the running command's output folder (None:
    the command has none), and whether this command keeps a new copy there (a command
    that writes nothing reads a build's copy, and keeps none)."""
    output = current_output()
    if output is None:
        return None, False
    return output.root / CACHE / f"data-{hashlib.sha256(url.encode()).hexdigest()[:20]}", output.cache


def fetch(url: str, loc: Location, limit: int, problems: Problems) -> Fetched | None:
    """The CSV or workbook at `url`, fetched now (and kept), else the copy kept from an
    earlier fetch with a warning saying how old it is; None when there is neither
    (reported at `loc`)."""
    found = _fetch(url, loc, limit, problems)
    if found is not None and _MODE.seen is not None:
        _MODE.seen[url] = digest(found.data)
    return found


def _fetch(url: str, loc: Location, limit: int, problems: Problems) -> Fetched | None:
    kept, keeps = cache_file(url)
    have = kept is not None and kept.is_file()
    if not url.lower().startswith(("https://", "http://")):
        problems.error(loc, "data-url", f"'{url}' is not a web address pnp fetches; expected an https:// URL of a published CSV or XLSX")
        return None
    if (_MODE.only_cached or _MODE.offline) and have:
        return Fetched(kept.read_bytes(), kept)
    if _MODE.offline:
        where = "no copy was kept under --out by an earlier build" if kept is not None else "this command keeps no copy"
        problems.error(
            loc,
            "data-url-offline",
            f"--offline and {where} of {url}; expected a build with the network first (it keeps a copy in {CACHE}/ under --out), or no --offline",
        )
        return None
    try:
        data = download(url, limit)
    except Refused as refused:
        problems.error(loc, "data-url", f"{url}: {refused}")
        return None
    except (OSError, ValueError) as exc:  # no network, no such host, a timeout, a connection cut
        reason = getattr(exc, "reason", None) or exc
        if have:
            age = _age(time.time() - kept.stat().st_mtime)
            problems.warn(
                loc,
                "data-url-offline",
                f"cannot fetch {url} ({reason}); using the copy fetched {age} ago, kept in {CACHE}/; expected the network back for the current data",
            )
            return Fetched(kept.read_bytes(), kept)
        kept_none = "no copy was kept under --out from an earlier build" if kept is not None else "this command keeps no copy (a build keeps one under --out)"
        problems.error(
            loc,
            "data-url",
            f"cannot fetch {url} ({reason}) and {kept_none}; expected the address of a published CSV or XLSX and a working network connection",
        )
        return None
    if kept is not None and keeps:
        with atomic_path(kept) as tmp:
            tmp.write_bytes(data)
    return Fetched(data, kept if keeps else None)


class Refused(Exception):
    """The server answered, but not with a CSV or workbook pnp can use: the message says what was expected."""


def download(url: str, limit: int) -> bytes:
    """The bytes at `url` (at most `limit`, within TIMEOUT); Refused when the server's
    answer is no CSV or workbook, OSError or ValueError when there is no answer."""
    import urllib.error
    import urllib.request  # here for speed: only a game whose data is on the web fetches it

    request = urllib.request.Request(url, headers={"User-Agent": "pnp (print-and-play builder)", "Accept": f"text/csv, {XLSX_TYPE}, text/plain;q=0.5"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310 (the scheme is checked: https or http)
            kind = response.headers.get_content_type()
            length = response.headers.get("Content-Length")
            if length and length.isdigit() and int(length) > limit:
                raise Refused(f"the sheet is {int(length)} bytes; expected at most {limit} (split the deck into several sheets)")
            data = response.read(limit + 1)
    except urllib.error.HTTPError as exc:
        hint = "; in Google Sheets: File > Share > Publish to web, the sheet as Comma-separated values (.csv)" if exc.code in (401, 403, 404) else ""
        raise Refused(f"the server answered {exc.code} {exc.reason}; expected the address of a published CSV or XLSX{hint}") from None
    if len(data) > limit:
        raise Refused(f"the sheet is more than {limit} bytes; expected at most {limit} (split the deck into several sheets)")
    head = data[:512].lstrip().lower()
    if kind == "text/html" or head.startswith((b"<!doctype", b"<html")):
        raise Refused(
            "the server sent a web page, not a CSV or XLSX; expected the address of a published CSV or XLSX"
            " (in Google Sheets: File > Share > Publish to web, the sheet as Comma-separated values (.csv), and its link ending in output=csv)"
        )
    if kind == XLSX_TYPE and not is_workbook(data):
        raise Refused("the server said it sent an XLSX workbook, but the bytes are not one; expected the address of a published CSV or XLSX")
    return data


def _age(seconds: float) -> str:
    """How long ago, as a person says it: '40 seconds', '5 minutes', '3 hours', '2 days'."""
    seconds = max(0.0, seconds)
    for unit, size, until in (("second", 1, 90), ("minute", 60, 90 * 60), ("hour", 3600, 48 * 3600), ("day", 86400, None)):
        if until is None or seconds < until:
            count = int(seconds // size)
            return f"{count} {unit}{'' if count == 1 else 's'}"
    raise AssertionError
