"""Paper: the one place that names the papers pnp prints on and says how big they are,
how much of a sheet pnp keeps clear, and how a rulebook page is laid out on each paper.

Sheets (decks, boards, calibration, `pnp impose`) go on any paper `paper()` accepts,
which is what `--paper` (and the config file's and game.yaml's `paper:`) accepts: a
name of PAPERS (or ALIASES), or any size WIDTHxHEIGHT in mm or in inches (`11x17in`). A rulebook is set once on
pages half the size of A4 or Letter (A5, half-letter) and printed from that one setting
on A4 (ISO papers and custom sizes) or Letter (US papers: a rulebook is read at hand
size), its pages enlarged, and as a booklet, two pages to a side of a landscape sheet,
so a US printer gets Letter sheets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.lib.units import mm

from pnp.load.schema import suggest


@dataclass(unsafe_hash=True)
class Paper:
    """A paper by its name (as `--paper` and file names spell it) and portrait size in mm."""

    name: str
    width_mm: float
    height_mm: float
    us: bool = False  # a US paper (inches): its rulebook is printed on Letter, else on A4
    inches: tuple[float, float] | None = None  # a custom size given in inches, as given: its title says it so

    @property
    def custom(self) -> bool:
        """A size given as WIDTHxHEIGHT rather than a name."""
        return self.name[0].isdigit()

    @property
    def title(self) -> str:
        """The name as people write it: 'A4', 'Letter', 'Half-letter', '300 x 450 mm'."""
        if self.custom:
            return f"{self.inches[0]:g} x {self.inches[1]:g} in" if self.inches else f"{self.width_mm:g} x {self.height_mm:g} mm"
        return self.name.upper() if len(self.name) == 2 else self.name.capitalize()

    @property
    def shown(self) -> str:
        """The paper in messages and a PDF's subject: 'A4', 'LETTER', '300 x 450 mm'."""
        return self.title if self.custom else self.name.upper()

    def size(self, landscape: bool = False) -> tuple[float, float]:
        """Width and height in points, portrait or turned."""
        width, height = self.width_mm * mm, self.height_mm * mm
        return (height, width) if landscape else (width, height)


def _inches(name: str, width: float, height: float) -> Paper:
    return Paper(name, round(width * 25.4, 1), round(height * 25.4, 1), us=True)


A4 = Paper("a4", 210.0, 297.0)
A5 = Paper("a5", 148.0, 210.0)
LETTER = _inches("letter", 8.5, 11)
HALF_LETTER = _inches("half-letter", 5.5, 8.5)
# The named papers, portrait, in mm: ISO 216's A and B series, ANSI's (US) and ANSI/ASME's
# architectural sizes. The order is the one `--help` and messages list them in.
PAPERS: dict[str, Paper] = {
    p.name: p
    for p in (
        A4,
        LETTER,
        Paper("a3", 297.0, 420.0),
        Paper("a3+", 329.0, 483.0),  # "Super A3", what photo and proofing printers take (13 x 19 in)
        _inches("legal", 8.5, 14),
        A5,
        Paper("b4", 250.0, 353.0),
        Paper("b5", 176.0, 250.0),
        HALF_LETTER,
        _inches("tabloid", 11, 17),
        _inches("ansi-c", 17, 22),
        _inches("arch-a", 9, 12),
        _inches("arch-b", 12, 18),
        _inches("arch-c", 18, 24),
    )
}
# The same sheet by another name (ledger is tabloid turned; A3+ is also sold as Super A3 and Super B).
ALIASES = {"ansi-a": "letter", "ansi-b": "tabloid", "ledger": "tabloid", "a3plus": "a3+", "super-a3": "a3+", "super-b": "a3+"}
CUSTOM_MIN, CUSTOM_MAX = 50.0, 2000.0  # mm: a custom paper's sides
INCH_MM = 25.4
PAPER_EXPECTED = (
    f"expected one of: {', '.join(PAPERS)}, or WIDTHxHEIGHT in mm or in, portrait, each from {CUSTOM_MIN:g} to {CUSTOM_MAX:g} mm (e.g. 300x450, 11x17in)"
)
_CUSTOM = re.compile(r"(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm|in|inch|inches|\")?", re.IGNORECASE)


def paper(name: str) -> Paper:
    """The paper `name` stands for: a named paper (or an alias of one; spaces and
    underscores read as hyphens: 'ansi b'), or a custom size 'WIDTHxHEIGHT' in mm
    ('300x450', named '300x450' in file names) or in inches ('11x17in', named so; a US
    paper). Raises ValueError saying what was expected for anything else (what `name`
    is, its callers say)."""
    text = str(name).strip().lower()
    named = re.sub(r"[\s_]+", "-", text)
    named = ALIASES.get(named, named)
    if named in PAPERS:
        return PAPERS[named]
    match = _CUSTOM.fullmatch(text)
    if not match:
        raise ValueError(PAPER_EXPECTED + suggest(named, [*PAPERS, *ALIASES]))
    width, height = float(match[1]), float(match[2])
    inches = (match[3] or "mm") != "mm"
    factor, unit = (INCH_MM, "in") if inches else (1.0, "")
    if not (CUSTOM_MIN <= width * factor <= CUSTOM_MAX and CUSTOM_MIN <= height * factor <= CUSTOM_MAX):
        raise ValueError(
            f"expected a custom paper from {CUSTOM_MIN:g} to {CUSTOM_MAX:g} mm"
            + (f" ({CUSTOM_MIN / INCH_MM:.2f} to {CUSTOM_MAX / INCH_MM:.1f} in)" if inches else "")
            + " on each side"
            + (
                f" (did you mean '{match[1]}x{match[2]}in'?)"
                if not inches and CUSTOM_MIN <= min(width, height) * INCH_MM and max(width, height) * INCH_MM <= CUSTOM_MAX
                else ""
            )
        )
    if width > height:
        raise ValueError(
            f"expected the portrait size, the width no larger than the height ({match[2]}x{match[1]}{unit}): pnp turns the sheet itself where a component fits only turned"
        )
    if inches:
        return Paper(f"{width:g}x{height:g}in", width * INCH_MM, height * INCH_MM, us=True, inches=(width, height))
    return Paper(f"{width:g}x{height:g}", width, height)


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
    "a4": RulebookFormats(RulebookPage(A5, _MARGINS, 9.0), A4),
    "letter": RulebookFormats(RulebookPage(HALF_LETTER, _MARGINS, 9.0), LETTER),
}


def rulebook_formats(name: str) -> RulebookFormats:
    """The rulebook's formats for sheets on paper `name`: half-letter pages on Letter for
    a US paper; A5 pages on A4 for the others (ISO papers, custom sizes). A rulebook is
    printed at the size it is read at, whatever the size of the sheets."""
    return _FORMATS["letter" if paper(name).us else "a4"]
