"""A deck's data from the web: `data:` may be the URL of a published CSV (Google Sheets'
"publish to web" link, or any https CSV), fetched with the standard library at each load,
with a timeout and a size limit.

Each copy fetched is kept under the command's output folder (OUT/.pnp-cache/, never in
the game folder), so that a build without the network uses the last copy, with a warning
that says how old it is; a command that writes nothing (`pnp check`, `pnp list`) keeps
none. A worker process of `pnp build --jobs` reads the copy its parent fetched
(`cached_only`), so every deck of one build sees the same data. Every problem is located
at the `data:` line with what was expected; the values themselves are located at
`URL:row:col`."""

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
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_ONLY_CACHED: list[bool] = [False]  # set in a build's worker process: read the parent's copy, never fetch


def is_url(name: str) -> bool:
    """Whether a `data:` value names a URL rather than a file of the game folder."""
    return bool(_URL.match(name))


@contextmanager
def cached_only() -> Iterator[None]:
    """Inside, a URL is read from the copy kept under the output folder, never fetched:
    a worker process draws from what its parent fetched."""
    _ONLY_CACHED[0] = True
    try:
        yield
    finally:
        _ONLY_CACHED[0] = False


@dataclass(repr=False, eq=False)
class Fetched:
    """A CSV from the web: its bytes, and the file it is kept in (None: kept nowhere)."""

    data: bytes
    kept: Path | None


def cache_file(url: str) -> Path | None:
    """Where the copy of `url` is kept: under the running command's output folder."""
    output = current_output()
    if output is None or not output.cache:
        return None
    return output.root / CACHE / f"data-{hashlib.sha256(url.encode()).hexdigest()[:20]}.csv"


def fetch(url: str, loc: Location, limit: int, problems: Problems) -> Fetched | None:
    """The CSV at `url`, fetched now (and kept), else the copy kept from an earlier fetch
    with a warning saying how old it is; None when there is neither (reported at `loc`)."""
    kept = cache_file(url)
    if not url.lower().startswith(("https://", "http://")):
        problems.error(loc, "data-url", f"'{url}' is not a web address pnp fetches; expected an https:// URL of a published CSV")
        return None
    if _ONLY_CACHED[0] and kept is not None and kept.is_file():
        return Fetched(kept.read_bytes(), kept)
    try:
        data = _download(url, limit)
    except _Refused as refused:
        problems.error(loc, "data-url", f"{url}: {refused}")
        return None
    except (OSError, ValueError) as exc:  # no network, no such host, a timeout, a connection cut
        reason = getattr(exc, "reason", None) or exc
        if kept is not None and kept.is_file():
            age = _age(time.time() - kept.stat().st_mtime)
            problems.warn(
                loc,
                "data-url-offline",
                f"cannot fetch {url} ({reason}); using the copy fetched {age} ago, kept in {CACHE}/; expected the network back for the current data",
            )
            return Fetched(kept.read_bytes(), kept)
        kept_none = "no copy was kept under --out from an earlier build" if kept is not None else "this command keeps no copy (a build keeps one under --out)"
        problems.error(
            loc, "data-url", f"cannot fetch {url} ({reason}) and {kept_none}; expected the address of a published CSV and a working network connection"
        )
        return None
    if kept is not None:
        with atomic_path(kept) as tmp:
            tmp.write_bytes(data)
    return Fetched(data, kept)


class _Refused(Exception):
    """The server answered, but not with a CSV pnp can use: the message says what was expected."""


def _download(url: str, limit: int) -> bytes:
    import urllib.error
    import urllib.request  # here for speed: only a game whose data is on the web fetches it

    request = urllib.request.Request(url, headers={"User-Agent": "pnp (print-and-play builder)", "Accept": "text/csv, text/plain;q=0.5"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310 (the scheme is checked: https or http)
            kind = response.headers.get_content_type()
            length = response.headers.get("Content-Length")
            if length and length.isdigit() and int(length) > limit:
                raise _Refused(f"the CSV is {int(length)} bytes; expected at most {limit} (split the deck into several sheets)")
            data = response.read(limit + 1)
    except urllib.error.HTTPError as exc:
        hint = "; in Google Sheets: File > Share > Publish to web, the sheet as Comma-separated values (.csv)" if exc.code in (401, 403, 404) else ""
        raise _Refused(f"the server answered {exc.code} {exc.reason}; expected the address of a published CSV{hint}") from None
    if len(data) > limit:
        raise _Refused(f"the CSV is more than {limit} bytes; expected at most {limit} (split the deck into several sheets)")
    head = data[:512].lstrip().lower()
    if kind == "text/html" or head.startswith((b"<!doctype", b"<html")):
        raise _Refused(
            "the server sent a web page, not a CSV; expected the address of a published CSV"
            " (in Google Sheets: File > Share > Publish to web, the sheet as Comma-separated values (.csv), and its link ending in output=csv)"
        )
    return data


def _age(seconds: float) -> str:
    """How long ago, as a person says it: '40 seconds', '5 minutes', '3 hours', '2 days'."""
    seconds = max(0.0, seconds)
    for unit, size, until in (("second", 1, 90), ("minute", 60, 90 * 60), ("hour", 3600, 48 * 3600), ("day", 86400, None)):
        if until is None or seconds < until:
            count = int(seconds // size)
            return f"{count} {unit}{'' if count == 1 else 's'}"
    raise AssertionError
