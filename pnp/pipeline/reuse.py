"""What a build may reuse from the builds before it: the one interface between the build
and the designer's loop (pnp/live).

A build asks its `Reuse` at each point where an earlier build's work could serve: a data
file's items, a card's face, a PDF whose inputs did not change, what a face wrote into a
PDF, where a rulebook's pages settled. This class is the cold build's: it reuses nothing
and every answer draws afresh, so the build's code has one path and never asks which
kind it was given. The watcher's (pnp/live) overrides it to keep what a save did not
reach; nothing outside pnp/live keeps state between builds."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnp.base.errors import Problems
    from pnp.base.output import Transaction, Written
    from pnp.layout.elements.base import Layout
    from pnp.layout.faces import Face
    from pnp.project.edition import Edition
    from pnp.project.options import BuildOptions
    from pnp.project.project import Project
    from pnp.rulebook.settled import SettledPages
    from pnp.write.pdf import Writing


class Reuse:
    """A cold build's answers: nothing kept, everything drawn."""

    workers = True  # whether decks may be drawn in worker processes (--jobs): what is kept lives in one process

    @contextmanager
    def reading(self) -> Iterator[None]:
        """The game is loaded inside: data files are read whole."""
        yield

    def start(self, project: Project, options: BuildOptions) -> None:
        """A build of `project` begins."""

    def books_due(self) -> bool:
        """Whether the rulebooks are set in this build."""
        return True

    def settled_pages(self) -> SettledPages:
        """Where each rulebook's pages settled last, to set them again from (and keep the new ones)."""
        from pnp.rulebook.settled import SettledPages  # here for speed: only a game with rulebooks sets them

        return SettledPages()

    def renderer(self, edition: Edition, renderer: Any) -> Any:
        """What sets the faces of `edition`: its renderer (perhaps counting the fronts it sets)."""
        return renderer

    def face(self, renderer: Any, deck: str, card: str, layout: Layout, side: str, problems: Problems) -> Face | None:
        """A face kept from an earlier build, found without unpacking its card; None: set it."""
        return None

    def face_hash(self, lang: str, deck: str, card: str, side: str, face: Face, make: Callable[[], str]) -> str | Callable[[], str]:
        """The manifest's hash of `face`, or what makes it when it is needed (`make`)."""
        return make

    def writing(self, target: Path) -> Writing:
        """How the faces and pages of the PDF `target` get into it: drawn, every one."""
        from pnp.write.pdf import DRAWN  # here for speed: the command line makes a Reuse before it knows it builds

        return DRAWN

    def deck_file(self, sheets: Any, target: Path, deck_ids: list[str], draw: Callable[[Any], Written | None]) -> Written | None:
        """The PDF `target` of the decks `deck_ids`, drawn by `draw(sheets)`; None when
        there was nothing to print (or, when reused, nothing to write)."""
        return draw(sheets)

    def tuckbox_file(self, sheets: Any, target: Path, deck_id: str, draw: Callable[[Any], Written | None]) -> Written | None:
        """The tuck box PDF `target` of deck `deck_id`, drawn by `draw(sheets)`."""
        return draw(sheets)

    def book_files(self, files: list[Written], txn: Transaction) -> list[Written]:
        """The rulebooks' files set in this build (pending in `txn`): the ones to write."""
        return files

    def manifest(self, path: Path, txn: Transaction, write: Callable[[IO[bytes]], None]) -> None:
        """The manifest at `path`, streamed to its file: a large one is never held whole."""
        with txn.path_for(path).open("wb") as file:
            write(file)

    def commit(self, files: list[Written], books: bool) -> None:
        """The build succeeded, having written `files` (the rulebooks set if `books`)."""

    def summary(self) -> str | None:
        """One line on what a rebuild wrote and left as it was; None for a first build."""
        return None


COLD = Reuse()
