"""The pages each rulebook settled on, kept between the watcher's builds.

A rulebook is set again until its page numbers settle (writer.py): a cold build needs two
passes at least. The watcher keeps, per language, rulebook and mode, where the
headings and index terms of the last book set landed; the next build starts from them,
so an edit that moves no page needs one pass, and one that does goes on until they settle
again. A pass depends only on the page numbers it starts from, so the file is the one a
cold build writes. The books are set in another process: it hands its pages back with its
files (`keep`, run in this one when it is joined).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pnp.base.output import Written

if TYPE_CHECKING:  # platypus: only where rulebooks are set
    from pnp.rulebook.flow import Book

Slot = tuple[str, str, str | None]  # language, rulebook, mode


@dataclass
class SettledPages:
    """The last settled pages of each rulebook (see the module docstring)."""

    books: dict[Slot, Book] = field(default_factory=dict)

    def keep(self, set_: list[tuple[list[Written], Slot, Book]]) -> list[Written]:
        """Keep the pages of the books just set; their files."""
        for _, slot, book in set_:
            self.books[slot] = book
        return [written for files, _, _ in set_ for written in files]
