"""Paper: the one place that names the papers pnp prints on and says how big they are,
how much of a sheet pnp keeps clear, and how a rulebook page is laid out on each paper.

Sheets (decks, boards, calibration, `pnp impose`) go on any paper of PAPERS, which is
what `--paper` accepts. A rulebook is set on A4 or Letter (A3 and Legal print the A4 and
Letter book: a rulebook is read at hand size), and its booklet on pages half that size
(A5, half-letter), imposed two to a side of a landscape sheet of the same paper, so a
US printer gets Letter sheets.
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

    @property
    def title(self) -> str:
        """The name as people write it: 'A4', 'Letter', 'Half-letter'."""
        return self.name.upper() if self.name[0] == "a" and self.name[1:].isdigit() else self.name.capitalize()

    def size(self, landscape: bool = False) -> tuple[float, float]:
        """Width and height in points, portrait or turned."""
        width, height = self.width_mm * mm, self.height_mm * mm
        return (height, width) if landscape else (width, height)


A4 = Paper("a4", 210.0, 297.0)
LETTER = Paper("letter", 215.9, 279.4)
PAPERS: dict[str, Paper] = {p.name: p for p in (A4, LETTER, Paper("a3", 297.0, 420.0), Paper("legal", 215.9, 355.6))}
SHEET_MARGIN = 5.0  # mm around a sheet that pnp leaves blank: what a home printer cannot print


@dataclass(frozen=True)
class RulebookPage:
    """A rulebook's page: the paper, the margins of the text and the body text size."""

    paper: Paper
    margins: tuple[float, float, float, float]  # left, right, top, bottom in points
    body: float  # body text size in points (headings and notes scale with it)


@dataclass(frozen=True)
class Booklet:
    """A booklet: its pages, set as a book of their own, go two to a side of `sheet`
    turned to landscape, folded once and stapled."""

    page: RulebookPage
    sheet: Paper


_FULL_MARGINS = (24 * mm, 24 * mm, 22 * mm, 20 * mm)
_BOOKLET_MARGINS = (15 * mm, 15 * mm, 17 * mm, 16 * mm)
RULEBOOK_PAGES: dict[str, RulebookPage] = {
    "a4": RulebookPage(A4, _FULL_MARGINS, 10.0),
    "letter": RulebookPage(LETTER, _FULL_MARGINS, 10.0),
}
BOOKLETS: dict[str, Booklet] = {  # by the paper of the full-size book
    "a4": Booklet(RulebookPage(Paper("a5", 148.0, 210.0), _BOOKLET_MARGINS, 9.0), A4),
    "letter": Booklet(RulebookPage(Paper("half-letter", 139.7, 215.9), _BOOKLET_MARGINS, 9.0), LETTER),
}
_RULEBOOK_ON = {"a3": "a4", "legal": "letter"}  # a rulebook on larger paper is set at the size it is read at


def rulebook_page(paper: str) -> RulebookPage:
    """The rulebook page for sheets on `paper` (a name of PAPERS)."""
    return RULEBOOK_PAGES[_RULEBOOK_ON.get(paper, paper)]


def booklet_for(paper: str) -> Booklet:
    """The booklet for sheets on `paper`: A5 on A4 (for A4 and A3), half-letter on Letter
    (for Letter and Legal)."""
    return BOOKLETS[rulebook_page(paper).paper.name]
