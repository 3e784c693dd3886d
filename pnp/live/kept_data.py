"""What the watcher and the live preview keep of the decks' data files between builds: a
file saved again is read only in the stretch of text that changed, its other items being
the ones read before (exactly: see _Stretches). A build outside them reads every data file
as a stream (load/yamlfile.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from pnp.base.errors import display_path
from pnp.load.yamlfile import MAX_NODES, BlockList, LItems, items_read_by, read_block_list

_OTHER_BREAKS = re.compile(r"\r(?!\n)|[\x85\u2028\u2029]")  # line breaks to YAML besides \n (and \r\n): a file with one is read whole
# A larger file is read as a stream, not kept: its items, once read, take many times the
# file's size, which the watcher would hold from one build to the next.
_KEPT_BYTES = 512 * 1024


@contextmanager
def keeping(kept: dict[str, _Stretches] | None) -> Iterator[None]:
    """Data files read inside are kept in `kept` (the watcher's, from one build to the
    next): a save that changes a few items of a long list reads only the stretch of text
    that changed, and the other items are the ones read before."""
    if kept is None:
        yield
        return
    with items_read_by(partial(_read_keeping, kept=kept)):
        yield


@dataclass(repr=False, eq=False)
class _Stretches(BlockList):
    """A data file's top-level list as last read (yamlfile.BlockList: where each item's
    stretch of text begins, where the list ends, each item read), with its text.

    Why it is exact: an item whose stretch of text is unchanged, at an unchanged line and
    column, reads as it did, as long as no item refers to another (no anchors, no aliases)
    and reading it reported nothing. Kept only for a block list whose items each begin
    with '-' at the start of a line."""

    text: str = ""

    def reread(self, text: str, shown: str) -> _Stretches | None:
        """The list of `text` (this file saved again), its changed stretch read and the
        other items kept; None when that cannot be known exactly (then the file is read
        whole)."""
        old = self.text
        lo = _common(old, text)
        same_end = _common(old[::-1], text[::-1], min(len(old), len(text)) - lo)  # not into the common beginning
        hi, delta = len(old) - same_end, len(text) - len(old)
        if lo < self.starts[0] or hi > self.end or old.count("\n", lo, hi) != text.count("\n", lo, hi + delta):
            return None  # the text before or after the list changed, or lines moved
        ends = [*self.starts[1:], self.end]
        changed = [i for i, (start, end) in enumerate(zip(self.starts, ends)) if start <= hi and end >= lo]
        first, last = changed[0], changed[-1]
        begin, stop = self.starts[first], ends[last] + delta
        lines = text.count("\n", 0, begin)
        part = read_block_list("\n" * lines + text[begin:stop], shown, lines)
        if part is None or part.end != stop - begin:
            return None
        nodes = [*self.nodes[:first], *part.nodes, *self.nodes[last + 1 :]]
        if 1 + sum(nodes) > MAX_NODES:
            return None
        return _Stretches(
            self.loc,
            [*self.starts[:first], *(begin + start for start in part.starts), *(start + delta for start in self.starts[last + 1 :])],
            self.end + delta,
            [*self.items[:first], *part.items, *self.items[last + 1 :]],
            nodes,
            text,
        )


def _common(a: str, b: str, most: int | None = None) -> int:
    """How many characters `a` and `b` begin with in common (at most `most`), compared a
    block at a time."""
    limit = min(len(a), len(b)) if most is None else most
    n, step = 0, 4096
    while n < limit:
        size = min(step, limit - n)
        if a[n : n + size] == b[n : n + size]:
            n += size
        elif size > 16:
            step = size // 16
        else:
            while n < limit and a[n] == b[n]:
                n += 1
            break
    return n


def _read_keeping(path: Path, kept: dict[str, _Stretches]) -> LItems | None:
    """A data file read inside `keeping`: its list's items, read only where changed; None
    when the file is to be read as a build reads it, which reports what is wrong with it
    (it cannot be read, is larger than _KEPT_BYTES or not UTF-8, cannot be kept: see
    _read_stretches, or has a line break other than \n)."""
    key = str(path)
    last = kept.pop(key, None)
    try:
        if path.stat().st_size > _KEPT_BYTES:
            return None
        text = path.read_bytes().decode("utf-8")  # as the parser reads the file: line ends as they are
    except (OSError, UnicodeDecodeError):
        return None
    if _OTHER_BREAKS.search(text):
        return None
    shown = display_path(path)
    now = last.reread(text, shown) if last is not None and last.text != text else last
    if now is None:
        now = _read_list(text, shown)
        if now is None:
            return None
    kept[key] = now
    return LItems(now.loc, now.items)


def _read_list(text: str, shown: str) -> _Stretches | None:
    """The top-level list of `text` read whole, with where its items begin (see
    yamlfile.read_block_list); None when it cannot be kept."""
    found = read_block_list(text, shown)
    return None if found is None else _Stretches(found.loc, found.starts, found.end, found.items, found.nodes, text)
