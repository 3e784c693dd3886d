"""Text set in a box, and what setting it found, reported the same way for every element
of a layout and for the rulebook: a text that does not fit even at its smallest size, a
character the font lacks, a symbol that does not exist and markup that does not pair are
errors naming what was set, never blank space."""

from __future__ import annotations

import unicodedata
from collections.abc import Collection

from reportlab.lib.units import mm

from pnp.assets import shaping
from pnp.assets.fonts import FontSet, fallback_folder
from pnp.base.errors import Location, Problems, one_of
from pnp.layout.text import SYMBOLS, TextLayout, TextStyle, typeset
from pnp.layout.typography import Typography
from pnp.load.schema import suggest
from pnp.templates.expressions import NO_SYMBOLS


def report(
    result: TextLayout,
    content: str,
    font: str,
    fonts: FontSet,
    subject: str,
    loc: Location,
    problems: Problems,
    symbol_ids: Collection[str],
    symbols: bool = True,
) -> None:
    """The glyphs, symbols and markup of a set text that cannot be printed, as errors at
    `loc` naming `subject` (e.g. "text of card 'x'", "the rulebook"); `symbols=False`
    where unknown symbols were reported before, at their own columns (rulebooks). Text
    in a script that needs shaping (Arabic, Hebrew, Devanagari, ...), set without the
    `scripts` extra that shapes it (and, for Thai, Lao, Khmer and Myanmar, finds where
    their lines may break), is an error saying what installs it."""
    if result.missing:
        problems.error(
            loc,
            "font-glyph",
            f"{subject} uses {_chars(result.missing)}, missing from font '{font}'{_and_fallback(result.missing)}; expected {_fonts_for(result.missing, fonts)}",
        )
    if result.unshaped:
        dictionary = shaping.needs_dictionary(content)
        problems.error(
            loc,
            "text-shaping",
            f"{subject} is in the {result.unshaped} script, which pnp sets only with its 'scripts' extra ({shaping.missing_extra(dictionary)} is not installed);"
            f" expected the extra installed: {shaping.install_hint(dictionary)}",
        )
    for sid in result.unknown_symbols if symbols else ():
        problems.error(
            loc,
            "symbol-unknown",
            f"{subject} uses symbol ':{sid}:', which does not exist{suggest(sid, symbol_ids)}; expected {one_of(sorted(symbol_ids), NO_SYMBOLS)}",
        )
    for issue in result.markup:
        if issue.literal:  # asterisks inside a word print as written: said, not refused
            problems.warn(loc, "text-markup", f"{subject} has asterisks that are not markup: {issue.describe(content)}")
        else:
            problems.error(loc, "text-markup", f"{subject} has markup the text engine cannot read: {issue.describe(content)}")


_SHOWN = 8  # characters a message lists


def _and_fallback(chars: str) -> str:
    """For symbols (letters never come from the fallback): that the fallback lacks them too."""
    if not any(unicodedata.category(c) in SYMBOLS for c in chars):
        return ""
    return (
        " and from the fallback symbol font (DejaVu Sans)"
        if fallback_folder() is not None
        else " (the fallback symbol font, DejaVu Sans, is missing from pnp's fonts folder)"
    )


def _chars(chars: str) -> str:
    """'ا' (U+0627), ...: the first few, and how many in all."""
    shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in chars[:_SHOWN])
    return shown + (f" and {len(chars) - _SHOWN} more" if len(chars) > _SHOWN else "")


def _fonts_for(chars: str, fonts: FontSet) -> str:
    covering = fonts.covering(chars)
    if covering:
        return f"a font that has them: {', '.join(repr(name) for name in covering)} (the style's 'font:')"
    return "a font that has them: no bundled or game font does (add a .ttf that has them to the game's fonts/ folder, named in fonts/fonts.yaml)"


def set_in_box(
    content: str,
    style: TextStyle,
    box: tuple[float, float],
    fonts: FontSet,
    typo: Typography,
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
    result = typeset(content, style, w * mm, h * mm, fonts, typo, symbol_ids)
    if result.overflow:
        why = f"it needs {result.height / mm:.1f} mm of height" if result.height > h * mm + 0.01 else "a word is wider than the box"
        problems.error(loc, "text-overflow", f"{subject} does not fit its {w:.1f} x {h:.1f} mm box even at {result.size:g} pt ({why}); expected {fix}")
    report(result, content, style.font, fonts, subject, loc, problems, symbol_ids)
    return result
