"""Paper: the one place that names the papers pnp prints on and says how big they are,
how much of a sheet pnp keeps clear, and how a rulebook page is laid out on each paper.

Sheets (decks, boards, calibration, `pnp impose`) go on any paper of PAPERS, which is
what `--paper` accepts. A rulebook is set on A4 or Letter (A3 and Legal print the A4 and
Letter book: a rulebook is read at hand size), and its booklet on A5 pages, imposed two
to a side of a landscape A4 sheet.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm


@dataclass(frozen=True)
class Paper:
    """A paper by its name (as `--paper` and file names spell it) and portrait size in mm."""

    name: str
    width_mm: float
    height_mm: float

    def size(self, landscape: bool = False) -> tuple[float, float]:
        """Width and height in points, portrait or turned."""
        width, height = self.width_mm * mm, self.height_mm * mm
        return (height, width) if landscape else (width, height)


A4 = Paper("a4", 210.0, 297.0)
A5 = Paper("a5", 148.0, 210.0)
PAPERS: dict[str, Paper] = {p.name: p for p in (A4, Paper("letter", 215.9, 279.4), Paper("a3", 297.0, 420.0), Paper("legal", 215.9, 355.6))}
SHEET_MARGIN = 5.0  # mm around a sheet that pnp leaves blank: what a home printer cannot print


@dataclass(frozen=True)
class RulebookPage:
    """A rulebook's page: the paper, the margins of the text and the body text size."""

    paper: Paper
    margins: tuple[float, float, float, float]  # left, right, top, bottom in points
    body: float  # body text size in points (headings and notes scale with it)


_FULL_MARGINS = (24 * mm, 24 * mm, 22 * mm, 20 * mm)
RULEBOOK_PAGES: dict[str, RulebookPage] = {
    "a4": RulebookPage(A4, _FULL_MARGINS, 10.0),
    "letter": RulebookPage(PAPERS["letter"], _FULL_MARGINS, 10.0),
}
BOOKLET_PAGE = RulebookPage(A5, (15 * mm, 15 * mm, 17 * mm, 16 * mm), 9.0)  # a booklet's pages, set as a book of their own
BOOKLET_SHEET = A4  # the booklet's pages go two to a side of this paper, turned to landscape
_RULEBOOK_ON = {"a3": "a4", "legal": "letter"}  # a rulebook on larger paper is set at the size it is read at


def rulebook_page(paper: str) -> RulebookPage:
    """The rulebook page for sheets on `paper` (a name of PAPERS)."""
    return RULEBOOK_PAGES[_RULEBOOK_ON.get(paper, paper)]
