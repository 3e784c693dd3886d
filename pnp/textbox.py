"""Text set in a box, and what setting it found, reported the same way for every element
of a layout and for the rulebook: a text that does not fit even at its smallest size, a
character the font lacks, a symbol that does not exist and markup that does not pair are
errors naming what was set, never blank space."""

from __future__ import annotations

from collections.abc import Collection

from reportlab.lib.units import mm

from .errors import Location, Problems
from .fonts import FontSet
from .schema import suggest
from .text import TextLayout, TextStyle, typeset


def report(
    result: TextLayout, content: str, font: str, subject: str, loc: Location, problems: Problems, symbol_ids: Collection[str], symbols: bool = True
) -> None:
    """The glyphs, symbols and markup of a set text that cannot be printed, as errors at
    `loc` naming `subject` (e.g. "text of card 'x'", "the rulebook"); `symbols=False`
    where unknown symbols were reported before, at their own columns (rulebooks)."""
    if result.missing:
        chars = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in result.missing)
        problems.error(loc, "font-glyph", f"{subject} uses {chars}, missing from font '{font}'; expected a font that has them")
    for sid in result.unknown_symbols if symbols else ():
        problems.error(
            loc,
            "symbol-unknown",
            f"{subject} uses symbol ':{sid}:', which does not exist{suggest(sid, symbol_ids)}; expected one of: {', '.join(sorted(symbol_ids)) or 'none (the game defines no symbols)'}",
        )
    for issue in result.markup:
        problems.error(loc, "text-markup", f"{subject} has markup the text engine cannot read: {issue.describe(content)}")


def set_in_box(
    content: str,
    style: TextStyle,
    box: tuple[float, float],
    fonts: FontSet,
    lang: str,
    symbol_ids: Collection[str],
    loc: Location,
    subject: str,
    fix: str,
    problems: Problems,
) -> TextLayout:
    """`content` set in a box of `box` = (width, height) mm, shrunk down to the style's
    minimum size if need be; what cannot be printed is reported (see `report`), and a text
    that does not fit even then is an error saying what would (`fix`)."""
    w, h = box
    result = typeset(content, style, w * mm, h * mm, fonts, lang, symbol_ids)
    if result.overflow:
        why = f"it needs {result.height / mm:.1f} mm of height" if result.height > h * mm + 0.01 else "a word is wider than the box"
        problems.error(loc, "text-overflow", f"{subject} does not fit its {w:.1f} x {h:.1f} mm box even at {result.size:g} pt ({why}); expected {fix}")
    report(result, content, style.font, subject, loc, problems, symbol_ids)
    return result
