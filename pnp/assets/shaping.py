"""Scripts whose letters change with their neighbours (Arabic joining, Devanagari
conjuncts, Thai marks) or that run right to left: which texts need that, their glyphs
shaped by HarfBuzz (uharfbuzz) and their directions resolved by the Unicode
bidirectional algorithm (python-bidi), both from the optional `scripts` extra; and the
scripts that write words without spaces between them (Thai, Lao, Khmer, Myanmar), whose
word ends ICU's dictionaries find (icu4py, in the extra on Python 3.11 and later).

Latin, Greek, Cyrillic and CJK text is never shaped: it is measured and drawn
character by character as before (so the bundled games' PDFs keep their bytes), and a
game in those scripts needs neither library. A text in a script that needs shaping,
set without the extra, is an error that says what installs it (`SCRIPTS_EXTRA`):
drawn unshaped, Arabic would print as isolated letters in the wrong order, and Thai
would run past its box's edge in one unbroken line.
"""

from __future__ import annotations

import bisect
import re
import sys
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from pnp.assets.fonts import BY_NAME, font_path

SCRIPTS_EXTRA = 'pip install "pnpkit[scripts]" (or pip install uharfbuzz python-bidi)'  # double quotes work in every shell
BREAKS_EXTRA = 'pip install "pnpkit[scripts]" (or pip install uharfbuzz python-bidi icu4py)'  # a text whose words a dictionary finds
ICU_PYTHON = (3, 11)  # icu4py has wheels for this Python and later ones only (pyproject.toml's marker)

# The blocks of the scripts that need shaping (or run right to left): (first, last, script).
_BLOCKS: tuple[tuple[int, int, str], ...] = (
    (0x0590, 0x05FF, "Hebrew"),
    (0x0600, 0x06FF, "Arabic"),
    (0x0700, 0x074F, "Syriac"),
    (0x0750, 0x077F, "Arabic"),
    (0x0780, 0x07BF, "Thaana"),
    (0x07C0, 0x07FF, "NKo"),
    (0x0800, 0x089F, "Samaritan"),
    (0x08A0, 0x08FF, "Arabic"),
    (0x0900, 0x097F, "Devanagari"),
    (0x0980, 0x09FF, "Bengali"),
    (0x0A00, 0x0A7F, "Gurmukhi"),
    (0x0A80, 0x0AFF, "Gujarati"),
    (0x0B00, 0x0B7F, "Oriya"),
    (0x0B80, 0x0BFF, "Tamil"),
    (0x0C00, 0x0C7F, "Telugu"),
    (0x0C80, 0x0CFF, "Kannada"),
    (0x0D00, 0x0D7F, "Malayalam"),
    (0x0D80, 0x0DFF, "Sinhala"),
    (0x0E00, 0x0E7F, "Thai"),
    (0x0E80, 0x0EFF, "Lao"),
    (0x0F00, 0x0FFF, "Tibetan"),
    (0x1000, 0x109F, "Myanmar"),
    (0x1780, 0x17FF, "Khmer"),
    (0x1800, 0x18AF, "Mongolian"),
    (0xA8E0, 0xA8FF, "Devanagari"),
    (0xFB1D, 0xFB4F, "Hebrew"),
    (0xFB50, 0xFDFF, "Arabic"),
    (0xFE70, 0xFEFF, "Arabic"),
    (0x10800, 0x10FFF, "right-to-left"),
    (0x1E800, 0x1EFFF, "right-to-left"),
)
_FIRSTS = [first for first, _, _ in _BLOCKS]
_COMPLEX = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b, _ in _BLOCKS) + "\u200f]")  # one search per text


# The blocks of the scripts that write a line's words without spaces between them and need a
# dictionary to find where a word ends (UAX #14's class SA; Tai Tham, Tai Viet and the
# other rarer ones are left out): Thai, Lao, Myanmar with its extensions, Khmer with its symbols.
_DICTIONARY_BLOCKS = ((0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x19E0, 0x19FF), (0xA9E0, 0xA9FF), (0xAA60, 0xAA7F))
DICTIONARY = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in _DICTIONARY_BLOCKS) + "]")


def needs_shaping(text: str) -> bool:
    """Whether `text` holds a letter of a script that needs shaping or runs right to left."""
    return _COMPLEX.search(text) is not None


def needs_dictionary(text: str) -> bool:
    """Whether `text` holds a letter of a script whose words a dictionary finds (Thai, ...)."""
    return DICTIONARY.search(text) is not None


def script_of(text: str, dictionary: bool = False) -> str:
    """The first script of `text` that needs shaping ('Arabic'), or with `dictionary` the
    first whose words a dictionary finds ('Thai'), for a message."""
    for ch in text:
        i = bisect.bisect_right(_FIRSTS, ord(ch)) - 1
        if i >= 0 and ord(ch) <= _BLOCKS[i][1] and unicodedata.category(ch)[0] in "LMN" and (not dictionary or DICTIONARY.match(ch)):
            return _BLOCKS[i][2]
    return "right-to-left" if "\u200f" in text else ""


@cache
def missing_extra(dictionary: bool = False) -> str:
    """The libraries of the `scripts` extra that are not installed ('' when all are): the
    shaping ones, and icu4py too for a text whose words a dictionary finds (`dictionary`)."""
    import importlib.util

    wanted = (("uharfbuzz", "uharfbuzz"), ("python-bidi", "bidi"), *((("icu4py", "icu4py"),) if dictionary else ()))
    return " and ".join(name for name, module in wanted if importlib.util.find_spec(module) is None)


def install_hint(dictionary: bool) -> str:
    """What installs the extra a text needs, for a message; icu4py's Python too, where it has none."""
    if not dictionary:
        return SCRIPTS_EXTRA
    if sys.version_info < ICU_PYTHON:
        return (
            f"Python {ICU_PYTHON[0]}.{ICU_PYTHON[1]} or later (icu4py has no wheel for Python {sys.version_info[0]}.{sys.version_info[1]}), then {BREAKS_EXTRA}"
        )
    return BREAKS_EXTRA


@lru_cache(maxsize=2048)  # the words of a deck repeat: each piece is broken once (the 2048 most recent, as many as the words measured)
def word_breaks(piece: str) -> frozenset[int]:
    """Where a line may break inside `piece` (a text between spaces) by ICU's line breaking
    rules (UAX #14) with its dictionaries of Thai, Lao, Khmer and Burmese words: the
    character offsets that start a segment, but the first. Only a piece that
    `needs_dictionary` asks (Latin text never imports ICU), and only with icu4py installed
    (`missing_extra(True)` says when it is not; the text is then reported). The root
    locale: the same breaks in every language of a game."""
    from icu4py.breakers import LineBreaker  # the scripts extra: only a text in these scripts asks

    out: set[int] = set()
    at = 0
    for segment in LineBreaker(piece, ""):  # its own offsets count UTF-16 units: the segments' lengths count characters
        at += len(segment)
        out.add(at)
    out.discard(len(piece))
    return frozenset(out)


@dataclass(frozen=True, repr=False, eq=False)
class Glyph:
    """One shaped glyph at size 1: its id and name in the font, its own advance (what the
    PDF's widths say), the advance HarfBuzz gives it (kerning, marks) and its offsets;
    `source`, for a glyph that is not a character's own (a conjunct, a ligature): the
    characters it stands for, so that text copied out of the PDF gives them back."""

    gid: int
    name: str
    natural: float
    advance: float
    x_offset: float
    y_offset: float
    source: str = ""


@dataclass(frozen=True, repr=False, eq=False)
class _HbFont:
    """A font as HarfBuzz shapes with it, and its units per em."""

    font: Any  # uharfbuzz.Font
    upem: int


@lru_cache(maxsize=32)
def _hb_font(registered: str) -> _HbFont:
    """The font file read by HarfBuzz, once per registered font."""
    import uharfbuzz  # the scripts extra: only a text that needs shaping asks

    face = uharfbuzz.Face(uharfbuzz.Blob.from_file_path(str(font_path(registered))))
    return _HbFont(uharfbuzz.Font(face), face.upem)


@lru_cache(maxsize=2048)
def shape(text: str, registered: str, rtl: bool) -> tuple[Glyph, ...]:
    """`text` (one direction, one font) shaped: its glyphs in visual order, left to right.
    Kerning and the font's required ligatures and forms are on; discretionary ligatures off."""
    import uharfbuzz  # the scripts extra: only a text that needs shaping asks

    hb = _hb_font(registered)
    buf = uharfbuzz.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    buf.direction = "rtl" if rtl else "ltr"
    uharfbuzz.shape(hb.font, buf, {"kern": True, "liga": True})
    scale = 1 / hb.upem
    infos = buf.glyph_infos
    sources = _sources(text, [info.cluster for info in infos], [info.codepoint for info in infos], hb.font)
    return tuple(
        Glyph(
            info.codepoint,
            hb.font.glyph_to_string(info.codepoint),
            hb.font.get_glyph_h_advance(info.codepoint) * scale,
            pos.x_advance * scale,
            pos.x_offset * scale,
            pos.y_offset * scale,
            source,
        )
        for info, pos, source in zip(infos, buf.glyph_positions, sources)
    )


def _sources(text: str, clusters: list[int], gids: list[int], font: Any) -> list[str]:
    """For each glyph, the characters of its cluster (HarfBuzz's: the characters that
    became these glyphs) that no glyph of the cluster draws as the character's own glyph,
    given to the first glyph that is no character's own; '' for every other glyph."""
    # HarfBuzz numbers clusters by their first character (in UTF-32 for Python strings)
    starts = sorted(set(clusters))
    ends = dict(zip(starts, [*starts[1:], len(text)]))
    out = [""] * len(gids)
    for start in starts:
        members = [i for i, c in enumerate(clusters) if c == start]
        chars = text[start : ends[start]]
        own = {font.get_nominal_glyph(ord(ch)) for ch in chars}
        left = "".join(ch for ch in chars if font.get_nominal_glyph(ord(ch)) not in {gids[i] for i in members})
        first = next((i for i in members if gids[i] not in own), None)
        if first is not None and left:
            out[first] = left
    return out


def shaped_width(text: str, registered: str, rtl: bool) -> float:
    """The width of `text` shaped, at size 1."""
    return sum(g.advance for g in shape(text, registered, rtl))


# UAX #9's default classes of code points not yet assigned (Python's Unicode data has no
# class for them, which python-bidi cannot take): R or AL in the blocks kept for
# right-to-left scripts, L elsewhere. Each is stood in for by a letter of that class.
_DEFAULT_R = (
    (0x0590, 0x05FF),
    (0x07C0, 0x085F),
    (0xFB1D, 0xFB4F),
    (0x10800, 0x10CFF),
    (0x10D40, 0x10EBF),
    (0x10F00, 0x10F2F),
    (0x10F70, 0x10FFF),
    (0x1E800, 0x1EC6F),
    (0x1ECC0, 0x1ECFF),
    (0x1ED50, 0x1EDFF),
    (0x1EF00, 0x1EFFF),
)
_DEFAULT_AL = (
    (0x0600, 0x07BF),
    (0x0860, 0x08FF),
    (0xFB50, 0xFDCF),
    (0xFDF0, 0xFDFF),
    (0xFE70, 0xFEFF),
    (0x10D00, 0x10D3F),
    (0x10EC0, 0x10EFF),
    (0x10F30, 0x10F6F),
    (0x1EC70, 0x1ECBF),
    (0x1ED00, 0x1ED4F),
    (0x1EE00, 0x1EEFF),
)
_UNASSIGNED_AS = {"L": "a", "R": "\u05d0", "AL": "\u0627"}


def _default_class(code: int) -> str:
    if any(low <= code <= high for low, high in _DEFAULT_AL):
        return "AL"
    if any(low <= code <= high for low, high in _DEFAULT_R):
        return "R"
    return "L"


def levels(text: str, rtl: bool | None) -> list[int]:
    """Each character's embedding level by the Unicode bidirectional algorithm (UAX #9,
    python-bidi): even left to right, odd right to left. `rtl`: the paragraph's direction,
    None to take it from its first strong letter."""
    from bidi import algorithm  # the scripts extra: only a paragraph with right-to-left letters asks

    text = "".join(ch if unicodedata.bidirectional(ch) else _UNASSIGNED_AS[_default_class(ord(ch))] for ch in text)
    storage = algorithm.get_empty_storage()
    base = algorithm.get_base_level(text) if rtl is None else int(rtl)
    storage["base_level"] = base
    storage["base_dir"] = "LR"[base]
    algorithm.get_embedding_levels(text, storage)
    algorithm.explicit_embed_and_overrides(storage, False)
    algorithm.resolve_weak_types(storage, False)
    algorithm.resolve_neutral_types(storage, False)
    algorithm.resolve_implicit_levels(storage, False)
    found = [ch["level"] for ch in storage["chars"]]
    if len(found) == len(text):
        return found
    kept = iter(found)  # the explicit embedding marks (LRE, RLE, PDF, ...) were removed (rule X9): they take their neighbour's level
    out: list[int] = []
    for ch in text:
        out.append(out[-1] if out else base) if unicodedata.bidirectional(ch) in algorithm.X9_REMOVED else out.append(next(kept, base))
    return out


def first_strong_rtl(text: str) -> bool:
    """Whether the first letter with a direction in `text` runs right to left (UAX #9's P2, P3)."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind == "L":
            return False
        if kind in ("R", "AL"):
            return True
    return False


BY_NAME.extend((shape, _hb_font))  # keyed by a font's registered name: cleared when its file changes
