"""Typesetting of short texts into boxes: line breaking, hyphenation, inline symbols,
and shrinking to fit down to a minimum size.

Why not reportlab's Paragraph: inline *vector* symbols are not possible there (its
<img> reads a raster file on every parse), and card texts are short and repeated, so a
small engine whose result is plain data can be cached, checked without a canvas, and
drawn with one text object per box. Markup: `**bold**`, `*italic*`, `***both***`, nested
(`**bold *both* bold**`), `:symbol:` anywhere (inside bold too), `\\*`, `\\:` and `\\\\` for a
literal `*`, `:` and `\\`, and a newline for a line break. An asterisk that is neither
opened nor closed, or that stands inside a word (`f**k`), is reported (`TextLayout.markup`),
never printed silently as markup. Markdown's block syntax (a heading, a table, a code
fence) is not card text: `block_syntax` finds it, for the check stage to report.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, Literal, NamedTuple

from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

from pnp.assets import shaping
from pnp.assets.fonts import BY_NAME, FontSet, missing_glyphs
from pnp.layout.typography import NARROW, NO_BREAK, NONE, Convention, Hyphenation, Typography

Align = Literal[
    "left", "center", "right", "justify", "start", "end"
]  # start, end: left, right in a left-to-right paragraph, right, left in a right-to-left one
VAlign = Literal["top", "middle", "bottom"]

SYMBOL_EM = 1.1  # an inline symbol is this many font sizes wide and high
SIZE_STEP = 0.25  # points between the sizes tried when shrinking
_SYMBOL = re.compile(r":([a-z0-9][a-z0-9_-]*):")  # ':sun:'
_TOKEN = re.compile(r"\\([*:\\])|(\*+)|" + _SYMBOL.pattern)  # an escape, a run of asterisks, a symbol
_NUMBER = re.compile(r"\d{1,3}")
_SPACES = re.compile(r"[ \t]+")  # between words (a line without tabs is split at its spaces by str.split, faster: the empty pieces are dropped alike)
_LETTERS = re.compile(r"^(\W*)(\w.*?\w)(\W*)$")


@dataclass(unsafe_hash=True, repr=False)
class TextStyle:
    """How a text is set: font, size, shrinking, leading, colour, alignment and hyphenation."""

    font: str = "sans"
    size: float = 9.0
    min_size: float | None = None  # None: never shrink
    leading: float = 1.2  # line distance as a multiple of the size
    color: Any = "#000000"  # '#rrggbb', a name or a template; in a layout also a gradient (elements.base.GradientDef)
    align: Align = "left"
    valign: VAlign = "top"
    hyphenate: bool = True


class Piece(NamedTuple):
    """A run of text in one font, or a symbol (font == ''), placed on a line (a tuple:
    a deck has a hundred thousand of them)."""

    x: float  # points from the box's left edge
    text: str  # the text, or the symbol id
    font: str  # the font's name registered with reportlab; '' for a symbol
    width: float
    word_space: float = 0.0  # extra points per space in the run (justified lines)
    shape: str = ""  # "ltr" or "rtl": the text is shaped in that direction when drawn (shaping.py); "": drawn as it is


@dataclass(unsafe_hash=True, repr=False)
class TextLayout:
    """A text as set: its lines of pieces at one size, and what did not fit or could not be read."""

    size: float
    leading: float  # points between baselines
    ascent: float  # points from a line's top to its baseline
    lines: tuple[tuple[Piece, ...], ...]
    height: float  # points the lines need
    overflow: bool  # does not fit even at the minimum size
    missing: str = ""  # characters the fonts lack
    unknown_symbols: tuple[str, ...] = ()
    markup: tuple[MarkupIssue, ...] = ()  # markup that cannot be read (printed literally)
    unshaped: str = ""  # the script of a text that needs shaping, set without the scripts extra (shaping.py)


def _variant(family: str, bold: bool, italic: bool) -> str:
    """The variant for marked text; a bold style's italic is bold italic, not plain italic."""
    if not (bold or italic):
        return ""
    bold = bold or family.endswith(("-bold", "-bold-italic"))
    italic = italic or family.endswith("-italic")
    return "bold-italic" if bold and italic else "bold" if bold else "italic"


@dataclass(unsafe_hash=True, repr=False)
class MarkupIssue:
    """Markup the engine cannot read, printed as the literal asterisks it is: where in the
    text it is, what is wrong and what would be right."""

    line: int  # 1-based line of the text (texts may hold newlines)
    col: int  # 1-based column in that line
    marks: str  # the asterisks in question
    what: str
    expected: str
    literal: bool = False  # printed as the asterisks it is on purpose ('f**k'): a warning, the text still prints

    def describe(self, text: str) -> str:
        """The message after the field's name: `'**' at column 1 of '**Gain 2' is never
        closed; expected ...`."""
        lines = text.replace("\r\n", "\n").split("\n")
        where = f"line {self.line}, column {self.col}" if len(lines) > 1 else f"column {self.col}"
        return f"'{self.marks}' at {where} of '{_excerpt(lines[self.line - 1], self.col)}' {self.what}; expected {self.expected}"


def _excerpt(line: str, col: int, room: int = 70) -> str:
    """The line, or as much of it around `col` as a message can hold."""
    if len(line) <= room:
        return line
    start = max(0, min(col - 1 - room // 2, len(line) - room))
    return ("…" if start else "") + line[start : start + room] + ("…" if start + room < len(line) else "")


@dataclass(repr=False, eq=False)
class _Run:
    """A run of asterisks: how many are still unmatched and whether it may open or close
    (an asterisk with a space on both sides is just a character)."""

    col: int
    size: int
    left: int
    can_open: bool
    can_close: bool
    opened: bool = False  # waited for a closing run (so a leftover is 'never closed')
    inside: bool = False  # between two letters or digits: printed as it is, and reported


def _compatible(opener: int, closer: int) -> bool:
    """'*' closes '*', '**' closes '**', '***' closes either (and what is left of it)."""
    return opener == closer or 3 in (opener, closer)


def _segments(raw: str, line: int) -> tuple[list[tuple[str, bool, bool] | tuple[str, None, None]], list[MarkupIssue]]:
    """One line's text as (text, bold, italic) segments and (symbol id, None, None), plus
    what could not be read. Runs of asterisks pair like brackets: a closing run closes
    the nearest open run it is compatible with; runs left open inside are reported."""
    tokens: list[str | tuple[str] | _Run] = []
    pos = 0
    for m in _TOKEN.finditer(raw):
        if m.start() > pos:
            tokens.append(raw[pos : m.start()])
        if m.group(1):
            tokens.append(m.group(1))
        elif m.group(3):
            tokens.append((m.group(3),))
        else:
            before = raw[m.start() - 1] if m.start() else " "
            after = raw[m.end()] if m.end() < len(raw) else " "
            size = len(m.group(2))
            if before.isalnum() and after.isalnum():  # 'f**k': inside a word it is not markup, and is said so
                tokens.append(_Run(m.start() + 1, size, size, False, False, inside=True))
            else:
                tokens.append(_Run(m.start() + 1, size, size, not after.isspace(), not before.isspace()))
        pos = m.end()
    if pos < len(raw):
        tokens.append(raw[pos:])
    bold = [0] * (len(tokens) + 1)
    italic = [0] * (len(tokens) + 1)
    issues: list[MarkupIssue] = []
    open_: list[int] = []  # token indices of runs waiting to be closed, innermost last
    for j, run in enumerate(tokens):
        if not isinstance(run, _Run) or run.size > 3:
            continue
        while run.can_close and run.left:
            found = next((k for k in range(len(open_) - 1, -1, -1) if _compatible(tokens[open_[k]].left, run.left)), None)
            if found is None:
                break
            del open_[found + 1 :]  # runs left open inside what this run closes stay open: reported
            i = open_[-1]
            opener = tokens[i]
            use = min(opener.left, run.left)
            opener.left -= use
            run.left -= use
            for depth, on in ((bold, use >= 2), (italic, use != 2)):
                if on:
                    depth[i + 1] += 1
                    depth[j] -= 1
            if not opener.left:
                open_.pop()
        if run.left and run.can_open:
            run.opened = True
            open_.append(j)
    segments: list = []
    b = it = 0
    for k, token in enumerate(tokens):
        b += bold[k]
        it += italic[k]
        if isinstance(token, tuple):
            segments.append((token[0], None, None))
            continue
        if isinstance(token, _Run):
            if token.left and (token.can_open or token.can_close or token.inside):
                issues.append(_issue(token, line))
            token = "*" * token.left
        if not token:
            continue
        if segments and segments[-1][1] is not None and segments[-1][1:] == (bool(b), bool(it)):
            segments[-1] = (segments[-1][0] + token, bool(b), bool(it))
        else:
            segments.append((token, bool(b), bool(it)))
    return segments, issues


def _issue(run: _Run, line: int) -> MarkupIssue:
    marks = "*" * run.left
    if run.inside and run.size <= 3:
        return MarkupIssue(
            line,
            run.col,
            marks,
            "is inside a word, where it is not markup (it is printed as it is)",
            "markup around whole words ('**bold**'), '\\*' for each literal asterisk, or 'markup: false' for the field in rules.yaml",
            literal=True,
        )
    if run.size > 3:
        return MarkupIssue(line, run.col, marks, "is not markup", "'**bold**', '*italic*' or '***both***', or '\\*' for each literal asterisk")
    if run.opened:
        return MarkupIssue(line, run.col, marks, "is never closed", f"a closing '{marks}' after the text it marks, or '\\*' for a literal asterisk")
    return MarkupIssue(line, run.col, marks, "closes nothing", f"an opening '{marks}' before the text it marks, or '\\*' for a literal asterisk")


Word = tuple[tuple[str, str], ...]  # a word's runs: (text, registered font name) or (symbol id, '')


def parse(text: str, family: str, fonts: FontSet, convention: Convention = NONE, issues: list[MarkupIssue] | None = None) -> list[list[Measured]]:
    """Split marked-up text into paragraphs (hard line breaks) of measured words, glued as
    the language's `convention` says; what cannot be read goes to `issues`. A line without
    asterisks and escapes skips the markup parser: its words are its pieces between
    spaces, in the family's own font, split at their symbols (a symbol's id holds no space)."""
    paragraphs = []
    plain: str | None = None  # the family's registered font, looked up for the first plain line
    for n, raw in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        if "*" not in raw and "\\" not in raw:
            if plain is None:
                plain = fonts.get(family).registered
            if not _has_units(raw):
                measured = _measurer(plain, fonts)
                paragraphs.append(
                    _glue(
                        [
                            measured(piece) if ":" not in piece else _plain_word(piece, plain, fonts)
                            for piece in (raw.split(" ") if "\t" not in raw else _SPACES.split(raw))
                            if piece
                        ],
                        convention,
                    )
                )
            else:
                paragraphs.append(
                    _glue(
                        [_unit(_plain_word(unit, plain, fonts), i == 0) for piece in _SPACES.split(raw) for i, unit in enumerate(u for u in units(piece) if u)],
                        convention,
                    )
                )
            continue
        segments, found = _segments(raw, n)
        if issues is not None:
            issues.extend(found)
        words: list[list[tuple[str, str]]] = [[]]
        close: set[int] = set()  # the words that follow the one before without a space (units of CJK text)
        for chunk, bold, italic in segments:
            if bold is None:
                words[-1].append((chunk, ""))
                continue
            font = fonts.get(fonts.variant(family, _variant(family, bold, italic))).registered
            for i, piece in enumerate(_SPACES.split(chunk)):
                if i > 0 and words[-1]:
                    words.append([])
                for j, unit in enumerate(units(piece) if _has_units(piece) else (piece,)):
                    if j > 0 and words[-1]:
                        close.add(len(words))
                        words.append([])
                    if unit:
                        words[-1].extend(_with_fallback(unit, font, fonts))
        paragraphs.append(_glue([_unit(_measure(tuple(w)), i not in close) for i, w in enumerate(words) if w], convention))
    return paragraphs


# Line breaking without spaces (UAX #14, a small part of it): CJK ideographs, kana and
# fullwidth forms (class ID and its neighbours) break between any two characters, except
# before closing punctuation, small kana and marks that may not start a line (CL, CP, EX,
# IS, NS, CJ), after opening punctuation (OP) and before a combining mark; a zero width
# space (U+200B) breaks anywhere. Thai, Lao, Khmer and Myanmar (class SA) need a
# dictionary to find where a word ends: next to their letters, ICU's line breaking decides
# (shaping.word_breaks, the scripts extra). CJK keeps pnp's rules, with or without ICU:
# they need no dictionary, and a game's PDFs must not change with what else is installed.
_WIDE_RANGES = "\u2e80-\u2fff\u3000-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003ffff"
_BEYOND = re.compile("[^\\x00-\u0dff]")  # a character from U+0E00 (Thai) on: only such a text may break without spaces


@lru_cache(maxsize=1)
def _close() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The characters between which a line may break without a space (with U+200B, and the
    letters of the scripts ICU breaks), and the wide ones among them: compiled when a text
    first holds a character from U+0E00 on, since Python compiles such large classes slowly
    and most games never need them."""
    return re.compile(f"[\u200b{_WIDE_RANGES}{shaping.DICTIONARY.pattern[1:-1]}]"), re.compile(f"[{_WIDE_RANGES}]")


def _has_units(text: str) -> bool:
    """Whether `text` holds a character a line may break at without a space (units)."""
    return _BEYOND.search(text) is not None and _close()[0].search(text) is not None


_NO_START = frozenset(
    "、。，．：；！？‼⁇⁈⁉・ー々〻ゝゞヽヾ〜～…‥゛゜ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ,.:;!?%)]}°′″℃％"
)
_NO_END = frozenset("([{￥＄£$")


def units(piece: str) -> list[str]:
    """A piece of text between spaces split where a line may break inside it (above); the
    zero width spaces are dropped. The one place that decides where a line may break
    inside a word: hyphenation aside, _break breaks only between the units it makes."""
    out: list[str] = []
    wide = _close()[1]
    for part in piece.split("\u200b"):
        start = 0
        dictionary = shaping.needs_dictionary(part) and not shaping.missing_extra(True)  # without ICU: reported (_typeset), not broken
        icu = shaping.word_breaks(part) if dictionary else frozenset()
        for i in range(1, len(part)):
            a, b = part[i - 1], part[i]
            if dictionary and (shaping.DICTIONARY.match(a) or shaping.DICTIONARY.match(b)):
                if i in icu:
                    out.append(part[start:i])
                    start = i
                continue
            if not (wide.match(a) or wide.match(b)):
                continue
            if b in _NO_START or a in _NO_END or unicodedata.category(b) in ("Pe", "Pf", "Mn", "Mc", "Me") or unicodedata.category(a) in ("Ps", "Pi"):
                continue
            out.append(part[start:i])
            start = i
        out.append(part[start:])
    return out


def _unit(m: Measured, spaced: bool) -> Measured:
    """A word, or a unit that follows the one before it without a space (a line may break
    between them, and no space is drawn)."""
    return m if spaced else m._replace(space=0.0)


def _plain_word(piece: str, font: str, fonts: FontSet) -> Measured:
    """A word without markup, measured: its text runs in `font` (and the fallback), its
    `:symbol:`s between them."""
    if ":" not in piece or len(split := _SYMBOL.split(piece)) == 1:
        return _measured(piece, font, fonts)
    return _measure(tuple(run for i, part in enumerate(split) if part for run in (_with_fallback(part, font, fonts) if i % 2 == 0 else ((part, ""),))))


SYMBOLS = {"Sm", "So", "Sc", "Sk", "No"}  # what the fallback font gives: symbols, not letters (a letter in another typeface would show)


@lru_cache(maxsize=256)  # keyed by content (a FontSet is equal to another of the same files); few: _measured and _measure keep what it gives
def _with_fallback(piece: str, font: str, fonts: FontSet) -> Word:
    """A word's runs: in `font`, and in the fallback symbol font for the symbols `font`
    lacks and the fallback has (a '★' in 'Gain ★2'). What neither has, and letters, stay
    in `font`, to be reported as missing (with the fonts that have them)."""
    lacking = missing_glyphs(font, piece)
    if not lacking:
        return ((piece, font),)
    symbols = "".join(ch for ch in lacking if unicodedata.category(ch) in SYMBOLS)
    fallback = fonts.fallback(font) if symbols else None
    found = set(symbols) - set(missing_glyphs(fallback, symbols)) if fallback else set()
    if not found:
        return ((piece, font),)
    runs: list[tuple[str, str]] = []
    for ch in piece:
        use = fallback if ch in found else font
        if runs and runs[-1][1] == use:
            runs[-1] = (runs[-1][0] + ch, use)
        else:
            runs.append((ch, use))
    return tuple(runs)


def escape(text: str) -> str:
    """Plain text as markup that prints exactly that text."""
    return re.sub(r"([*:\\])", r"\\\1", text)


def _glue(words: list[Measured], convention: Convention) -> list[Measured]:
    """Keep a short number with the word it counts ('2 cities'), and what the language's
    convention keeps together (typography.py): a one-letter preposition or conjunction
    with the next word (Czech, Slovak, Polish 'w domu'), French punctuation with the word
    before it ('Attention !') and guillemets with the words inside them."""
    out: list[Measured] = []
    carry: tuple[Measured, str] | None = None  # a word to join with the next, and the space between them
    before = convention.narrow_before + convention.space_before
    for m in words:
        space = ""
        if before:
            text, font = m.word[0]
            if font and text[0] in before:  # punctuation after a typed space (a symbol's id is not)
                space = NARROW if text[0] in convention.narrow_before else NO_BREAK
        if carry is not None:
            m = _join(carry[0], m, space or carry[1])
            carry = None
        elif space and out:
            m = _join(out.pop(), m, space)
        if m.short and (m.short in convention.clinging or _NUMBER.fullmatch(m.short)):  # at most three digits, or one letter
            carry = (m, " ")
            continue
        if convention.space_after and m.word[-1][1] and m.word[-1][0][-1] in convention.space_after:
            carry = (m, NO_BREAK)
            continue
        out.append(m)
    if carry is not None:
        out.append(carry[0])
    return out


def _join(held: Measured, m: Measured, space: str) -> Measured:
    """Two words as one that never breaks: the space between them in the font of the word
    before it (of the word after it after a symbol), drawn as `space` where that font has
    it, else as a no-break space, else as a space (a narrow space the font lacks is drawn
    as wide as a word space: a printed gap, never a missing glyph)."""
    (text, font), (first, first_font) = held.word[-1], m.word[0]
    if not font:  # a symbol ends the word before: the space opens the next word's run
        space = _drawable(space, first_font)
        return _measure((*held.word, (space + first, first_font), *m.word[1:]))
    space = _drawable(space, font)
    if font == first_font:
        return _measure((*held.word[:-1], (text + space + first, font), *m.word[1:]))
    return _measure((*held.word[:-1], (text + space, font), *m.word))  # the space stays, in the font of the word before it


@lru_cache(maxsize=64)
def _drawable(space: str, font: str) -> str:
    """`space`, or the nearest stand-in `font` has for it: a no-break space, else a space."""
    if space == " ":
        return space
    for candidate in (space, NO_BREAK):
        if not missing_glyphs(font, candidate):
            return candidate
    return " "


class Measured(NamedTuple):
    """A word measured at size 1, so that trying another size is a multiplication."""

    word: Word
    widths: tuple[float, ...]
    width: float
    space: float  # the width of a space before it
    missing: str  # the characters its fonts lack
    symbols: tuple[str, ...]  # the ids of its symbols
    short: str  # the word when it is one run of text of at most three characters (it may cling to the next)
    levels: tuple[int, ...] = ()  # each run's bidirectional level (odd: right to left), in a paragraph that is shaped (_shaped)


@lru_cache(maxsize=2048)  # the words of a deck repeat: each is measured once (the 2048 most recent)
def _measure(word: Word) -> Measured:
    widths = tuple(_width(text, font) if font else SYMBOL_EM for text, font in word)
    first_font = next((f for _, f in word if f), None)
    missing = "".join(missing_glyphs(f, t) for t, f in word if f)
    symbols = tuple(t for t, f in word if not f)
    short = word[0][0] if len(word) == 1 and word[0][1] and len(word[0][0]) <= 3 else ""
    return Measured(word, widths, math.fsum(widths), _width(" ", first_font) if first_font else 0.25, missing, symbols, short)


@lru_cache(maxsize=16)  # keyed by content (a FontSet is equal to another of the same files); a text uses a few fonts
def _measurer(font: str, fonts: FontSet) -> Callable[[str], Measured]:
    """What measures a word of plain text in `font`: one look-up for most words of a text,
    keyed by the word alone (a key of the word, the font and the set would be made and
    hashed for every word, the set's hash by a call into Python). Each font keeps the 2048
    words it measured most recently."""

    @lru_cache(maxsize=2048)
    def measured(piece: str) -> Measured:
        return _measure(_with_fallback(piece, font, fonts))

    return measured


def _measured(piece: str, font: str, fonts: FontSet) -> Measured:
    """A word of plain text in `font`, measured (_measurer)."""
    return _measurer(font, fonts)(piece)


@lru_cache(maxsize=64)
def _string_width(registered: str) -> Callable[[str, float], float]:
    """The registered font's own `stringWidth(text, size)`: what pdfmetrics.stringWidth
    calls, without looking the font up by its name for every word."""
    return getFont(registered).stringWidth


@lru_cache(maxsize=2048)
def _width(text: str, registered: str) -> float:
    """Width at size 1: words repeat across cards, so measure each once (the 2048 most
    recent, as many as _measure keeps: a cache of every word would grow with the deck,
    and a larger one than _measure's holds words measured again seldom)."""
    return stringWidth(text, registered, 1)


@lru_cache(maxsize=2048)
def _measure_shaped(word: Word, levels: tuple[int, ...]) -> Measured:
    """A word of a paragraph that is shaped: runs at an odd level, or in a script that needs
    shaping, measured by their shaped advances (kerning, joined forms, conjuncts)."""
    plain = _measure(word)
    widths = tuple(
        shaping.shaped_width(text, font, level % 2 == 1) if font and (level % 2 or shaping.needs_shaping(text)) else width
        for (text, font), width, level in zip(word, plain.widths, levels)
    )
    return plain._replace(widths=widths, width=math.fsum(widths), levels=levels)


def _shaped(para: list[Measured], rtl: bool | None) -> tuple[list[Measured], bool]:
    """A paragraph's words split into runs of one bidirectional level each (UAX #9, over the
    whole paragraph: a space or a comma between two Hebrew words is right to left) and
    measured shaped; and whether the paragraph runs right to left. `rtl`: the language's
    direction (True), or None for the paragraph's first strong letter's."""
    text = " ".join("".join(t if f else "\ufffc" for t, f in m.word) for m in para)
    base = shaping.first_strong_rtl(text) if rtl is None else rtl
    found = shaping.levels(text, base)
    out: list[Measured] = []
    pos = 0
    for m in para:
        runs: list[tuple[str, str]] = []
        levels: list[int] = []
        for t, f in m.word:
            n = len(t) if f else 1
            start = 0
            for i in range(1, n + 1):
                if i == n or found[pos + i] != found[pos + start]:
                    runs.append((t[start:i] if f else t, f))
                    levels.append(found[pos + start])
                    start = i
            pos += n
        pos += 1  # the space between words
        out.append(_measure_shaped(tuple(runs), tuple(levels))._replace(space=m.space))
    return out, base


_WIDTH, _SPACE, _MISSING, _SYMBOLS = (attrgetter(name) for name in ("width", "space", "missing", "symbols"))  # of a Measured, in C
_GAP = itemgetter(1)  # of a line's (parts, gap)

BY_NAME.extend((_measure, _measurer, _string_width, _width, _drawable, _measure_shaped))  # a font file edited while the watcher runs is measured anew


def typeset(text: str, style: TextStyle, width: float, height: float, fonts: FontSet, typo: Typography, symbols: frozenset[str] | None = None) -> TextLayout:
    """Lay out `text` in a box of width x height points, shrinking as far as allowed, with
    the typography of its language (typography.py)."""
    return _typeset(text, style, round(width, 3), round(height, 3), fonts, typo, symbols)


@lru_cache(maxsize=256)  # repeated texts (copies, backs, translations) are set once; more would grow memory with the deck
def _typeset(text: str, style: TextStyle, width: float, height: float, fonts: FontSet, typo: Typography, symbols: frozenset[str] | None) -> TextLayout:
    issues: list[MarkupIssue] = []
    paragraphs = parse(text, style.font, fonts, typo.convention, issues)
    directions: list[bool] = [typo.rtl] * len(paragraphs)
    unshaped = ""
    shaped = False  # whether a paragraph was shaped: only then may a line hold runs of bidirectional levels (_levelled)
    if typo.rtl or shaping.needs_shaping(text):
        dictionary = shaping.needs_dictionary(text)
        if shaping.missing_extra(dictionary):  # set unshaped (and unbroken) left to right, to be reported (textbox.report)
            unshaped = shaping.script_of(text, dictionary and not shaping.missing_extra())
            directions = [False] * len(paragraphs)
        else:
            shaped = True
            for i, para in enumerate(paragraphs):
                if para:
                    paragraphs[i], directions[i] = _shaped(para, True if typo.rtl else None)
    missing = "".join(sorted(set("".join(map(_MISSING, chain.from_iterable(paragraphs))))))
    unknown = tuple(sorted(set(chain.from_iterable(map(_SYMBOLS, chain.from_iterable(paragraphs)))).difference(symbols))) if symbols is not None else ()
    hyph = typo.hyphenation if style.hyphenate else None
    base = fonts.get(style.font)
    smallest = style.min_size if style.min_size is not None else style.size
    size = style.size
    attempts = (None,) if hyph is None else (hyph,) if style.align == "justify" else (None, hyph)  # justified lines need hyphens to avoid gaps
    sums: list[tuple[float, int, float]] | None = None  # gathered once the text does not fit at its own size: most do, and need no bound
    while True:  # hyphenate only where the text would not fit at this size without it
        if size < style.size and size - SIZE_STEP >= smallest - 1e-9:  # shrinking: a size the bound rules out is not tried
            if sums is None:
                sums = [(math.fsum(map(_WIDTH, para)), len(para), min(map(_SPACE, para), default=0.0)) for para in paragraphs]
            if _fewest_lines(sums, size, width) * size * style.leading > height + 0.01:
                size = round(size - SIZE_STEP, 4)  # cannot fit: the next size, without breaking lines
                continue
        for attempt in attempts:
            lines, too_wide = _break(paragraphs, size, width, attempt, directions)
            needed = len(lines) * size * style.leading
            fits = needed <= height + 0.01 and not too_wide
            if fits:
                break
        if fits or size - SIZE_STEP < smallest - 1e-9:
            break
        size = round(size - SIZE_STEP, 4)
    aligned = (_aligned(style.align, False), _aligned(style.align, True))  # by a paragraph's direction: once a text, not a line
    placed = tuple(
        _place(line, size, width, aligned[0], last) if not rtl and not (shaped and _levelled(line)) else _place_bidi(line, size, width, aligned[rtl], last, rtl)
        for line, last, rtl in lines
    )
    half = size * (style.leading - 1) / 2
    ascent = half + size * base.ascent / (base.ascent - base.descent)
    return TextLayout(size, size * style.leading, ascent, placed, needed, not fits, missing, unknown, tuple(issues), unshaped)


def _aligned(align: str, rtl: bool) -> str:
    """'start' and 'end' as the paragraph's direction makes them; a right-to-left paragraph's
    justified last line ends on the right (_place_bidi)."""
    if align == "start":
        return "right" if rtl else "left"
    if align == "end":
        return "left" if rtl else "right"
    return align


def _levelled(line: Line) -> bool:
    return any(len(parts[0]) == 4 for parts, _ in line if parts)


def _fewest_lines(sums: list[tuple[float, int, float]], size: float, width: float) -> int:
    """At least how many lines paragraphs need at `size`, from each one's words' widths, count
    and narrowest space at size 1: a line holds at most `width` of words and the spaces
    between them, a hyphen only adds, and every paragraph takes a line. Shrinking skips the
    sizes this rules out, so the size chosen is the one trying every size would choose."""
    lines = 0
    for words, count, space in sums:
        least = (words + count * space) * size / (width + 1e-6 + space * size)  # lines L hold the words and at least count - L spaces
        lines += max(1, math.ceil(least * (1 - 1e-9)))  # less a margin for the rounding of sums taken in another order
    return lines


Part = tuple[str, str, float]  # text (or symbol id), font name ('' for a symbol), width in points
Line = list[tuple[list[Part], float]]  # words (their parts) with the space before each


def _break(
    paragraphs: list[list[Measured]], size: float, width: float, hyph: Hyphenation | None, directions: list[bool]
) -> tuple[list[tuple[Line, bool, bool]], bool]:
    """Greedy line breaking. A line is a list of (word parts with widths, space before);
    a word's parts are made when it is placed (most words are one run: one part; a
    shaped word's parts carry their bidirectional level too). Each line comes with whether
    it is its paragraph's last and whether its paragraph runs right to left."""
    lines: list = []
    too_wide = False
    limit = width + 1e-6
    for para, rtl in zip(paragraphs, directions):
        line: list = []
        used = 0.0
        for m in para:
            word = m.word
            w = m.width * size
            if m.levels:
                parts = [(t, f, x * size, level) for (t, f), x, level in zip(word, m.widths, m.levels)]
            else:
                parts = [(*word[0], w)] if len(word) == 1 else [(t, f, x * size) for (t, f), x in zip(word, m.widths)]
            space = m.space * size
            gap = space if line else 0.0
            if used + gap + w <= limit:  # most words: on the line
                line.append((parts, gap))
                used += gap + w
                continue
            while True:
                gap = space if line else 0.0
                if used + gap + w <= limit:
                    line.append((parts, gap))
                    used += gap + w
                    break
                split = _hyphenate(parts, width - used - gap, size, hyph) if hyph and not m.levels else None
                if split is not None:
                    head, parts = split
                    line.append((head, gap))
                    lines.append((line, False, rtl))
                    w = math.fsum(p[2] for p in parts)
                    line, used = [], 0.0
                    continue
                if line:
                    lines.append((line, False, rtl))
                    line, used = [], 0.0
                    continue
                line.append((parts, 0.0))  # a single word wider than the box
                too_wide = True
                used = w
                break
        lines.append((line, True, rtl))
    return lines, too_wide


def _hyphenate(parts: list[tuple[str, str, float]], room: float, size: float, hyph: Hyphenation) -> tuple[list, list] | None:
    """Split a one-run word at the last hyphenation point that fits in `room`."""
    if len(parts) != 1 or not parts[0][1] or room <= 0:
        return None
    word, font, _ = parts[0]
    fits = room + 1e-6
    for head, tail in _splits(word, hyph):
        head_w = _sized_width(head, font, size)
        if head_w <= fits:
            return [(head, font, head_w)], [(tail, font, _sized_width(tail, font, size))]
    return None


@lru_cache(maxsize=2048)  # a word at a line's end is hyphenated again on many cards: found once
def _splits(word: str, hyph: Hyphenation) -> tuple[tuple[str, str], ...]:
    """Where `word` may break, the last point first: (the head with its hyphen, the tail)."""
    m = _LETTERS.match(word)
    if not m or len(m.group(2)) < 5:
        return ()
    lead, core, _trail = m.groups()
    glued = max(core.rfind(" "), core.rfind(NO_BREAK), core.rfind(NARROW))  # 'a hra', '2 mestá': only the last word breaks, two letters at least on each side
    out = []
    for pos in reversed(hyph.positions(core)):
        if pos < glued + 3 or len(core) - pos < 2 or core[pos] == "-":  # never before a word's own hyphen: after it
            continue
        head = lead + core[:pos] + ("" if core[pos - 1] == "-" else "-")  # 'Drachen-' of 'Drachen-Elixier' keeps its one hyphen
        out.append((head, word[len(lead) + pos :]))
    return tuple(out)


@lru_cache(maxsize=2048)
def _sized_width(text: str, registered: str, size: float) -> float:
    """Width at `size`, as the font computes it at that size (not _width's times the size,
    which may differ in the last bit): the heads and tails of hyphenated words repeat."""
    return _string_width(registered)(text, size)


BY_NAME.append(_sized_width)


def _place(line: list, size: float, width: float, align: str, last: bool) -> tuple[Piece, ...]:
    """Position a line's words. Neighbouring words in one font become one run; on a
    justified line the run carries the extra space per word gap (PDF word spacing), so a
    line is one drawing operation, not one per word. The run being extended is kept in
    locals and made a Piece when it ends."""
    stretched = align == "justify" and not last
    if stretched:
        gaps = len(line) - 1 - list(map(_GAP, line[1:])).count(0.0)  # the units of CJK text follow each other without a gap: none stretches
        stretched = gaps > 0
    if not stretched and align != "center" and align != "right":  # from the left edge: the line's width is not needed
        return _place_unstretched(line, 0.0)
    natural = math.fsum([gap + (parts[0][2] if len(parts) == 1 else math.fsum(p[2] for p in parts)) for parts, gap in line])
    extra = max(0.0, width - natural)
    stretch = extra / gaps if stretched else 0.0
    x = extra / 2 if align == "center" else extra if align == "right" else 0.0
    if not stretch:
        return _place_unstretched(line, x)
    pieces: list[Piece] = []
    texts: list[str] = []  # the run's texts, joined when it ends
    run_x = run_w = run_ws = 0.0
    run_font: str | None = None  # None: no run yet; '' a symbol (never extended)
    run_spaced = False  # the run's text holds a space
    for parts, gap in line:  # a word space (gap) comes before a word's first part only
        if gap:
            x += gap + stretch
        for text, font, w in parts:  # each part starts where the run ends: only the font and spaces decide
            spaced = " " in text or NO_BREAK in text
            # a glued word's own space must not stretch (nor a no-break space: reportlab draws it as a space, which word spacing stretches)
            if font and font == run_font and not (stretch and (spaced or (run_spaced and not run_ws))):
                if gap:
                    texts.append(" ")
                    run_ws = stretch
                    run_spaced = True
                texts.append(text)
                if spaced:
                    run_spaced = True
                run_w = x + w - run_x
            else:
                if run_font is not None:
                    pieces.append(Piece(run_x, "".join(texts), run_font, run_w, run_ws))
                texts = [text]
                run_x, run_w, run_ws, run_font, run_spaced = x, w, 0.0, font, spaced
            x += w
            gap = 0.0
    if run_font is not None:
        pieces.append(Piece(run_x, "".join(texts), run_font, run_w, run_ws))
    return tuple(pieces)


def _place_unstretched(line: list, x: float) -> tuple[Piece, ...]:
    """_place's loop for a line whose spaces do not stretch (not justified, or its
    paragraph's last): every part in the run's font extends it, and no run has word
    spacing, so whether a text holds a space need not be looked at. The same pieces."""
    pieces: list[Piece] = []
    texts: list[str] = []
    add = texts.append
    run_x = run_w = 0.0
    run_font: str | None = None
    for parts, gap in line:
        if gap:
            x += gap
        for text, font, w in parts:
            if font and font == run_font:
                if gap:
                    add(" ")
                add(text)
                run_w = x + w - run_x
            else:
                if run_font is not None:
                    pieces.append(Piece(run_x, "".join(texts), run_font, run_w, 0.0))
                texts = [text]
                add = texts.append
                run_x, run_w, run_font = x, w, font
            x += w
            gap = 0.0
    if run_font is not None:
        pieces.append(Piece(run_x, "".join(texts), run_font, run_w, 0.0))
    return tuple(pieces)


def _place_bidi(line: Line, size: float, width: float, align: str, last: bool, rtl: bool) -> tuple[Piece, ...]:
    """Position a line of a shaped paragraph: its runs in visual order (UAX #9's rule L2:
    from the highest level down to the lowest odd one, every sequence at that level or
    higher reversed), each run a piece of its own, shaped when it is right to left or in a
    script that needs shaping. A space takes the lower level of the runs on either side."""
    items: list[tuple[int, float, tuple | None]] = []  # (level, width, part or None for a space)
    base = 1 if rtl else 0
    for parts, gap in line:
        for k, part in enumerate(parts):
            level = part[3] if len(part) == 4 else base
            if k == 0 and gap:
                items.append((min(level, items[-1][0]) if items else base, gap, None))
            items.append((level, part[2], part))
    if items:
        for top in range(max(level for level, _, _ in items), min((level for level, _, _ in items if level % 2), default=99) - 1, -1):
            i = 0
            while i < len(items):
                if items[i][0] < top:
                    i += 1
                    continue
                j = i
                while j < len(items) and items[j][0] >= top:
                    j += 1
                items[i:j] = items[i:j][::-1]
                i = j
    natural = math.fsum(w for _, w, _ in items)
    extra = max(0.0, width - natural)
    gaps = sum(1 for _, _, part in items if part is None)
    stretch = extra / gaps if align == "justify" and not last and gaps > 0 else 0.0
    if align == "justify" and (last or not gaps):
        align = "right" if rtl else "left"
    x = {"center": extra / 2, "right": extra}.get(align, 0.0)
    pieces: list[Piece] = []
    gap = 0.0  # the space before this item, when the item before it was a word
    for level, w, part in items:
        if part is None:
            gap = w if pieces and not gap else -1.0
            x += w + stretch
            continue
        text, font = part[0], part[1]
        shape = ("rtl" if level % 2 else "ltr" if shaping.needs_shaping(text) else "") if font else ""
        before = pieces[-1] if pieces else None
        if before is not None and gap > 0 and not stretch and font and before.font == font and before.shape == shape and _is_space(gap, font, size, shape):
            # one run with its spaces: text copied out of the PDF keeps them (and the words' order)
            joined = f"{text} {before.text}" if shape == "rtl" else f"{before.text} {text}"
            pieces[-1] = Piece(before.x, joined, font, before.width + gap + w, 0.0, shape)
        else:
            pieces.append(Piece(x, text, font, w, 0.0, shape))
        gap = 0.0
        x += w
    return tuple(pieces)


def _is_space(gap: float, font: str, size: float, shape: str) -> bool:
    """Whether `gap` is as wide as a space of `font` (shaped as `shape`) at `size`: then the
    words on either side can be drawn as one run with their space, in the same places."""
    width = shaping.shaped_width(" ", font, shape == "rtl") if shape else stringWidth(" ", font, 1)
    return abs(gap - width * size) < 0.01


_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+\S")
_TABLE_RULE = re.compile(r"^ *\|? *:?-{3,}:? *(\| *:?-{3,}:? *)+\|? *$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def block_syntax(text: str) -> tuple[int, str, str] | None:
    """The first Markdown block in a card's text that the engine would print as it is: (line,
    what it is, the line), or None. Only headings, tables and code fences: a line starting
    with '-' or a digit is common in card text and prints as it reads."""
    if "#" not in text and "|" not in text and "```" not in text and "~~~" not in text:
        return None
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        if _HEADING.match(line):
            return number, "a Markdown heading", line
        if _TABLE_RULE.match(line) and "|" in line:
            return number, "a Markdown table", line
        if _FENCE.match(line):
            return number, "a Markdown code block", line
    return None
