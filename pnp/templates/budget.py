"""The budget of one expression or template: what it may spend and make. The sandbox
(sandbox.py) spends it as Jinja runs; expressions.py counts the same for what Python
evaluates without Jinja, and leaves to Jinja whatever might go over (Jinja then says so).
A module of its own, without Jinja: both read these numbers, and only one imports Jinja.

A game's templates must not hang a build (or the watcher) nor fill the memory: each
evaluation of an expression and each rendering of a template has a budget of steps (a
loop's turn, a call, a filter, a test, an operator, and per hundred items of a text or
list it goes through or makes), and nothing it makes or writes may be longer than
MAX_LENGTH."""

from __future__ import annotations

from typing import Any

MAX_STEPS = 1_000_000
MAX_LENGTH = 1_000_000  # characters of a text, items of a list
MAX_DIGITS = 1_000  # of a whole number
PER_STEP = 100  # items of a text or list gone through or made that cost one step
SIZED = (str, bytes, list, tuple, dict, set, frozenset)  # what a step per hundred items is spent of
CONTAINERS = (list, tuple, dict, set, frozenset)  # what is as long as text as its items are


def steps(values: tuple[Any, ...]) -> int:
    """What one call, filter, test or operator spends: a step, and one per hundred items of
    the texts and lists among `values`."""
    return 1 + sum(len(v) for v in values if isinstance(v, SIZED)) // PER_STEP


def text_steps(text: str) -> int:
    """`steps((text,))` for one text (what a template writes), without the general count."""
    return 1 + len(text) // PER_STEP


def text_size(value: Any, limit: int = MAX_LENGTH) -> int:
    """How long `value` is as text, counted up to a little over `limit` (a list holding one long
    text a million times is short as a list and endless as text)."""
    seen: set[int] = set()

    def size(v: Any, left: int) -> int:
        if isinstance(v, (str, bytes)):
            return len(v)
        if not isinstance(v, CONTAINERS) or id(v) in seen:
            return 8
        seen.add(id(v))
        total = 2
        for item in v.items() if isinstance(v, dict) else v:
            total += 2 + size(item, left - total)
            if total > left:
                break
        seen.discard(id(v))
        return total

    return size(value, limit)


def joined_size(sep: Any, items: Any) -> int | None:
    """How long a text joining `items` with `sep` may be, counted before it is made; None
    where the sandbox cannot tell beforehand (the items are not a list or the like)."""
    if isinstance(sep, (str, bytes)) and isinstance(items, CONTAINERS):
        return len(sep) * len(items) + text_size(items)
    return None
