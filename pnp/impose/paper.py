"""Paper: the one place that names the papers pnp prints on and says how big they are,
how much of a sheet pnp keeps clear, and how a rulebook page is laid out on each paper.

Sheets (decks, boards, calibration, `pnp impose`) go on any paper of PAPERS, which is
what `--paper` accepts. A rulebook is set once on pages half the size of A4 or Letter
(A5, half-letter; A3 and Legal print the A4 and Letter book: a rulebook is read at hand
size) and printed from that one setting on the paper, its pages enlarged, and as a
booklet, two pages to a side of a landscape sheet, so a US printer gets Letter sheets.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm


@dataclass(unsafe_hash=True)
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


@dataclass(repr=False, eq=False)
class RulebookPage:
    """A rulebook's page: the paper, the margins of the text and the body text size."""

    paper: Paper
    margins: tuple[float, float, float, float]  # left, right, top, bottom in points
    body: float  # body text size in points (headings and notes scale with it)


@dataclass(repr=False, eq=False)
class RulebookFormats:
    """How a rulebook is printed for sheets of one size. It is set once, on `page` (half the
    `paper`), and written twice from that setting: as the paper book, each page enlarged to
    fill a sheet of `paper` (the same lines, pages and numbers, larger), and as the
    booklet, two pages to a side of `paper` turned to landscape, folded once and stapled."""

    page: RulebookPage
    paper: Paper

    def enlarged(self) -> tuple[float, float, float]:
        """The paper book's page: (scale, x, y) that fit a set page to the paper, centred
        (A5 to A4 is exactly x1.414; half-letter to Letter x1.294, wider side margins)."""
        (w, h), (width, height) = self.page.paper.size(), self.paper.size()
        scale = min(width / w, height / h)
        return scale, (width - w * scale) / 2, (height - h * scale) / 2


_MARGINS = (15 * mm, 15 * mm, 17 * mm, 16 * mm)
_FORMATS: dict[str, RulebookFormats] = {  # by the paper of the paper book
    "a4": RulebookFormats(RulebookPage(Paper("a5", 148.0, 210.0), _MARGINS, 9.0), A4),
    "letter": RulebookFormats(RulebookPage(Paper("half-letter", 139.7, 215.9), _MARGINS, 9.0), LETTER),
}
_RULEBOOK_ON = {"a3": "a4", "legal": "letter"}  # a rulebook on larger paper is printed at the size it is read at


def rulebook_formats(paper: str) -> RulebookFormats:
    """The rulebook's formats for sheets on `paper` (a name of PAPERS): A5 pages, on A4 for
    A4 and A3; half-letter pages, on Letter for Letter and Legal."""
    return _FORMATS[_RULEBOOK_ON.get(paper, paper)]
