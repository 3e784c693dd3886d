"""Feedback while a build runs: a progress bar when there is enough work to wait for, and
the time each deck took (for `pnp -v build`); at the end, how to print what was written.

The bar goes to standard error and only when it is a terminal, so output piped to a file or
read by CI stays clean. The build counts card fronts as they are set (with the streaming
writer a card is set when its sheet is drawn, so the bar moves with the PDF) and each
deck's cards when it is done.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from pnp.base.output import Written

BAR_THRESHOLD = 500  # cards (copies and languages counted): fewer are built too soon for a bar to be worth showing


class BuildProgress:
    """Handed to `build.build`; it calls start, wrap (for each renderer) and deck_done."""

    def __init__(self, bar: bool = True, stream: Any = None):
        self.want_bar = bar
        self.stream = stream if stream is not None else sys.stderr
        self.bar: Any = None
        self.timings: dict[Path, float | None] = {}
        self.started = time.perf_counter()
        self._last = self.started
        self._ticks = 0  # fronts set since the last deck was done

    def start(self, total_cards: int) -> None:
        """Show a bar when `total_cards` is worth waiting for and stderr is a terminal."""
        self._last = time.perf_counter()  # decks are timed from here, after loading and checking
        isatty = getattr(self.stream, "isatty", None)
        if self.want_bar and total_cards > BAR_THRESHOLD and isatty is not None and isatty():
            self.bar = click.progressbar(length=total_cards, label="building", file=self.stream, show_eta=True)
            self.bar.__enter__()

    def wrap(self, renderer: Any) -> Any:
        """The renderer, counting the fronts it sets (one per printed card)."""
        return _Counting(renderer, self) if self.bar is not None else renderer

    def tick(self) -> None:
        if self.bar is not None:
            self._ticks += 1
            self.bar.update(1)

    def deck_done(self, written: Written | None, timed: bool = True) -> None:
        """A deck's PDF is drawn: note how long it took since the previous one, and move
        the bar past its cards (copies are set once, and a deck built in another process
        was not counted here)."""
        now = time.perf_counter()
        if written is not None:
            self.timings[written[0]] = now - self._last if timed else None
            if self.bar is not None:
                self.bar.update(max(0, written[1] - self._ticks))
        self._ticks = 0
        self._last = now

    def finish(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None

    @property
    def total(self) -> float:
        return time.perf_counter() - self.started


class _Counting:
    """A stand-in for a Renderer that reports each front it sets."""

    def __init__(self, renderer: Any, progress: BuildProgress):
        self._renderer = renderer
        self._progress = progress

    def face(self, card, layout, side, problems, parts=None):
        if side == "front":
            self._progress.tick()
        return self._renderer.face(card, layout, side, problems, parts)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._renderer, name)


def expected_cards(decks: list[Any], langs: int) -> int:
    """Cards a build will print: copies of every deck, in every language."""
    return sum(deck.count for deck in decks) * langs


def print_advice(files: list[Written]) -> str:
    """What to tell the user after a build: double-sided only for what has backs, with the
    edge each of those turns over, one-sided for what must be, one-sided then folded and
    glued for folded sheets; always 100 % and the ruler."""
    scale = "at 100 % (actual size); check the ruler on the sheet."
    fold = "one-sided, then fold each sheet along its dashed line (blank sides together), glue the halves and cut"
    groups: dict[str | None, list[str]] = {}
    for written in files:
        groups.setdefault(written.duplex, []).append(written.path.name)
    edges = [edge for edge in ("long", "short") if edge in groups]
    if list(groups) == ["fold"]:
        return f"Print one-sided {scale[: -len('; check the ruler on the sheet.')]}, then fold each sheet along its dashed line (blank sides together), glue the halves and cut; check the ruler on the sheet."
    if not edges and "fold" not in groups:
        return f"Print {scale}"
    if edges == [next(iter(groups))] and len(groups) == 1:
        return f"Print double-sided, flip on the {edges[0]} edge, {scale}"
    lines = [f"Print {scale}"]
    lines += [f"  double-sided, flipping on the {edge} edge: {', '.join(groups[edge])}" for edge in edges]
    if "fold" in groups:
        lines.append(f"  {fold}: {', '.join(groups['fold'])}")
    if None in groups:
        lines.append(f"  one-sided: {', '.join(groups[None])}")
    if "either" in groups:
        lines.append(f"  one- or double-sided, as you like: {', '.join(groups['either'])}")
    return "\n".join(lines)


def cut_files_line(paths: list[Path]) -> str:
    """The cut files of a build for a cutting machine, in one line (they can be many)."""
    svgs = [p for p in paths if p.suffix == ".svg"]
    folders = sorted({str(p.parent) for p in paths})
    names = svgs[0].name if len(svgs) == 1 else f"{svgs[0].name} ... {svgs[-1].name}"
    kinds = "SVG, and DXF beside each" if any(p.suffix == ".dxf" for p in paths) else "SVG"
    count = f"{len(svgs)} cut file{'s' if len(svgs) != 1 else ''}"
    return f"wrote {count} for the cutting machine, one per sheet of fronts ({kinds}) in {', '.join(folders)}: {names}"


def no_dxf_line(paths: list[Path]) -> str | None:
    """The warning, in one line, when a build for a cutting machine wrote no DXF cut files
    because ezdxf (the `cutter` extra) is not installed; None when it wrote them."""
    if not paths or any(p.suffix == ".dxf" for p in paths):
        return None
    from pnp.write.cutfiles import DXF_EXTRA  # here for speed: the cut files' module loads the imposition (reportlab), and the command line imports this one

    return f"warning: no DXF cut files were written, only SVG: ezdxf is not installed; {DXF_EXTRA} installs it [cutter-dxf]"
