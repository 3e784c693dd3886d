"""Print shops' specifications: the card sizes each makes, in exact pixels or points with
its bleed, its safe zone, the resolution it wants and the file it takes.

Data only (and the one question asked of it: which of a shop's sizes is this deck?). Where
each figure comes from, with dates, is in docs/sheets.md ("Where the figures come from"):

- The Game Crafter: PNG per card face at 300 dpi with 1/8 in bleed, e.g. a poker card
  825 x 1125 px with its safe zone 675 x 975 px (1/8 in inside the trim); mini 600 x 825,
  bridge 750 x 1125, tarot 900 x 1500 px (public card tools' templates "from The Game
  Crafter" and size tables, e.g. a card editor's "600x825 Mini Deck, 750x1125 Bridge,
  825x1125 Poker, 900x1500 Tarot"); its square deck is listed as 3.5 x 3.5 in by one of
  them, 2.5 x 2.5 here: the docs say to check.
- MakePlayingCards: images at 300 dpi with 36 px of bleed a side (0.12 in, not 1/8 in:
  a poker card is 822 x 1122 px, a tarot card 897 x 1497 px, a domino card 597 x 1122 px)
  and the safe zone a further 36 px in (the shop's upload FAQ, faq-photo.aspx, as quoted by
  public print scripts).
- DriveThruCards: one PDF per deck, one card per page with 1/8 in bleed built in (a poker
  page is 2.75 x 3.75 in; squib's DriveThruCards sprue, 2018), nothing important within
  1/8 in of the trim, PDF/X-1a, CMYK, fonts embedded, pages back, front, back, front; its
  "mini" is 1 5/8 x 2 1/2 in (no public copy of the shop's guide found).

The sizes a shop lists are what it prints; check its current template before a large
order: shops change them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MM_PER_INCH = 25.4
MANIFEST = "manifest.csv"  # what `pnp export shop` writes beside the files, and `pnp impose` reads back
TOLERANCE_MM = 1.0  # a deck of 63 x 88 mm is printed as a 2.5 x 3.5 in poker card (scaled by less than 1.1 %)


@dataclass(frozen=True, repr=False, eq=False)
class CardSize:
    """A card size a shop makes: its trim in inches."""

    name: str
    width_in: float
    height_in: float

    @property
    def trim_mm(self) -> tuple[float, float]:
        return self.width_in * MM_PER_INCH, self.height_in * MM_PER_INCH


@dataclass(frozen=True, repr=False, eq=False)
class Shop:
    key: str  # the --profile name
    name: str
    output: Literal["png", "pdf"]  # one image per card face, or one PDF of one card per page
    dpi: int  # the resolution its images are at, and the least it wants of pictures on a card
    bleed_px: float  # bleed a side, in pixels at dpi (a PDF shop: the same length, at 300 dpi)
    safe_px: float  # how far inside the trim text must stay, in pixels at dpi
    sizes: tuple[CardSize, ...]
    pdfx: str = ""  # the PDF/X version it asks for (GTS_PDFXVersion), "" for none
    upload: str = ""  # where the files go, said after an export

    @property
    def bleed_in(self) -> float:
        return self.bleed_px / self.dpi

    @property
    def safe_in(self) -> float:
        return self.safe_px / self.dpi

    def pixels(self, size: CardSize) -> tuple[int, int]:
        """The image of a card face of `size`, bleed included, in whole pixels."""
        return round((size.width_in + 2 * self.bleed_in) * self.dpi), round((size.height_in + 2 * self.bleed_in) * self.dpi)

    def safe_pixels(self, size: CardSize) -> tuple[int, int]:
        """The safe zone of a card face of `size`, in whole pixels."""
        inset = 2 * (self.bleed_px + self.safe_px)
        w, h = self.pixels(size)
        return round(w - inset), round(h - inset)

    def size_for(self, trim_mm: tuple[float, float]) -> tuple[CardSize, bool] | None:
        """The shop's size for a deck of this trim (in either orientation; True when the
        deck is landscape and the shop's size portrait), or None when it makes none."""
        w, h = trim_mm
        for size in self.sizes:
            sw, sh = size.trim_mm
            if abs(sw - w) <= TOLERANCE_MM and abs(sh - h) <= TOLERANCE_MM:
                return size, False
            if abs(sh - w) <= TOLERANCE_MM and abs(sw - h) <= TOLERANCE_MM:
                return size, True
        return None

    def sizes_text(self) -> str:
        return ", ".join(f"{s.name} {s.trim_mm[0]:.1f} x {s.trim_mm[1]:.1f} mm" for s in self.sizes)


SHOPS: dict[str, Shop] = {
    shop.key: shop
    for shop in (
        Shop(
            "tgc",
            "The Game Crafter",
            "png",
            300,
            37.5,
            37.5,
            (
                CardSize("poker", 2.5, 3.5),
                CardSize("bridge", 2.25, 3.5),
                CardSize("mini", 1.75, 2.5),
                CardSize("tarot", 2.75, 4.75),
                CardSize("square", 2.5, 2.5),
                CardSize("jumbo", 3.5, 5.5),
            ),
            upload="thegamecrafter.com > Make > your game > Add component (e.g. Poker Deck) > upload the faces, set each card's quantity as its file name says, and the back (Cardback)",
        ),
        Shop(
            "mpc",
            "MakePlayingCards",
            "png",
            300,
            36,
            36,
            (
                CardSize("poker", 2.5, 3.5),
                CardSize("bridge", 2.25, 3.5),
                CardSize("mini", 1.75, 2.5),
                CardSize("tarot", 2.75, 4.75),
                CardSize("domino", 1.75, 3.5),
            ),
            upload="makeplayingcards.com > the card size > Custom cards > the number of cards (the total in manifest.csv) > upload the fronts, fill each as often as its file name says, then the back (same image for all, or different)",
        ),
        Shop(
            "dtc",
            "DriveThruCards",
            "pdf",
            300,
            37.5,
            37.5,
            (
                CardSize("poker", 2.5, 3.5),
                CardSize("mini", 1.625, 2.5),
                CardSize("tarot", 2.75, 4.75),
            ),
            pdfx="PDF/X-1a:2001",
            upload="drivethrucards.com > Publisher tools > Add title > Card product of this size > upload the deck's PDF as the print file",
        ),
    )
}
