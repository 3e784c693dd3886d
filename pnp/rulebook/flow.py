"""Flowables (reportlab platypus) that set rulebook text with pnp.layout.text, the same engine
as the cards: hyphenated, justified lines with the game's vector symbols inline, in the
bundled fonts only. Platypus does the page flow (frames, splitting, tables); these
classes set and draw the text, split paragraphs between lines, and tell the Book on which
page each heading and index term landed."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether
from reportlab.platypus.doctemplate import ActionFlowable

from pnp.assets.fonts import FontSet
from pnp.assets.symbols import SymbolSet
from pnp.base.errors import Location, Problems
from pnp.impose.sheets import Cut
from pnp.layout.faces import Face, TextOp
from pnp.layout.text import TextLayout, TextStyle, typeset
from pnp.layout.textbox import report
from pnp.layout.typography import Typography
from pnp.pdf.canvas import at_top_of_frame, kept_flowables, room_in_frame_of, split_in_frame_of
from pnp.write.drawing import draw_face
from pnp.write.pdf import outline_path

BIG = 1e6  # points: "as tall as needed" when a paragraph is set before splitting
CAPTION_LINES = 3  # a paragraph before a figure of at most this many lines is its caption: it floats with it


@dataclass
class Styles:
    """Text styles and colours of a rulebook, scaled to its page size."""

    body: TextStyle
    h: dict[int, TextStyle]  # by heading level
    small: TextStyle  # table cells, code
    label: TextStyle  # the label of an example or a note
    marker: TextStyle  # the number or bullet of a list item
    toc: TextStyle
    header: TextStyle
    title: TextStyle
    subtitle: TextStyle
    gap: float  # points between paragraphs
    colors: dict[str, Color] = field(default_factory=dict)

    @classmethod
    def for_size(cls, size: float) -> Styles:
        """`size`: the body text size in points (A4 and Letter 10, A5 9)."""
        body = TextStyle(font="serif", size=size, leading=1.32, color="#1a1a1a", align="justify", hyphenate=True)
        head = TextStyle(font="sans-bold", size=size, leading=1.15, color="#1f3c66", align="left", hyphenate=False)
        return cls(
            body=body,
            h={1: replace(head, size=size * 1.6), 2: replace(head, size=size * 1.3), 3: replace(head, size=size * 1.1), 4: head, 5: head, 6: head},
            small=TextStyle(font="sans", size=size * 0.9, leading=1.25, color="#1a1a1a", align="left", hyphenate=True),
            label=TextStyle(font="sans-bold", size=size * 0.85, leading=1.2, align="left", hyphenate=False),
            marker=replace(body, align="right"),
            toc=TextStyle(font="sans", size=size, leading=1.3, color="#1a1a1a", align="left", hyphenate=False),
            header=TextStyle(font="sans", size=size * 0.8, leading=1.2, color="#555555", align="left", hyphenate=False),
            title=TextStyle(font="serif-bold", size=size * 2.8, leading=1.1, color="#1f3c66", align="center", hyphenate=False),
            subtitle=TextStyle(font="sans", size=size * 1.5, leading=1.2, color="#1f3c66", align="center", hyphenate=False),
            gap=size * 0.55,
            colors={
                "example": HexColor("#edf4e8"),
                "example-bar": HexColor("#5b8c4a"),
                "note": HexColor("#fcf2d9"),
                "note-bar": HexColor("#c98f16"),
                "sidebar": HexColor("#e9edf3"),
                "sidebar-bar": HexColor("#55667f"),
                "code": HexColor("#f1f1f1"),
                "quote-bar": HexColor("#999999"),
                "rule": HexColor("#999999"),
                "grid": HexColor("#8a8a8a"),
                "head": HexColor("#e4e8ee"),
                "text": HexColor("#1a1a1a"),
                "heading": HexColor("#1f3c66"),
                "muted": HexColor("#555555"),
            },
        )

    def fonts(self) -> list[str]:
        """The fonts the styles name (their italics are used where the text asks)."""
        styles = [self.body, *self.h.values(), self.small, self.label, self.toc, self.header, self.title, self.subtitle]
        return sorted({style.font for style in styles})


@dataclass
class Book:
    """What one typesetting pass learns: where each heading and index term landed, and
    the chapter each page belongs to (for the running header)."""

    heading_pages: dict[str, int] = field(default_factory=dict)  # heading key -> page
    index_pages: dict[str, set[int]] = field(default_factory=dict)
    chapter_starts: dict[int, str] = field(default_factory=dict)  # page -> first chapter begun on it
    chapter: str = ""  # the chapter in effect at the current point of the flow
    outline_level: int = -1

    def state(self) -> tuple:
        return (sorted(self.heading_pages.items()), sorted((k, sorted(v)) for k, v in self.index_pages.items()))


@dataclass
class Memo:
    """What one pass works out that the next would work out the same, by what determines
    it: set texts (each reported once), the markup of inline content that prints no page
    number, and the column widths of tables."""

    layouts: dict[tuple, TextLayout] = field(default_factory=dict)  # (markup, style, width, loc)
    markups: dict[tuple, tuple[str, tuple]] = field(default_factory=dict)  # spans -> markup, marks
    widths: dict[tuple, tuple[list[float], float, bool]] = field(default_factory=dict)  # cells, width -> columns, padding, whether too wide


@dataclass
class Setting:
    """Everything a flowable needs to set and draw text in one pass."""

    fonts: FontSet
    symbols: SymbolSet
    typography: Typography  # of the rulebook's language
    styles: Styles
    problems: Problems
    book: Book
    drawing: bool = True  # False: a pass that only finds the pages (nothing it draws is kept)
    memo: Memo = field(default_factory=Memo)  # shared by the passes of a book
    unlocated: Location | None = None  # where text written nowhere in the game is reported (pnp's own words, the author): the check's pass sets it
    located_missing: set[str] = field(default_factory=set)  # characters reported missing at their own place, in this pass
    unlocated_missing: list[tuple[str, str, TextLayout]] = field(default_factory=list)  # (markup, font, layout) set without a place, missing characters

    @property
    def rtl(self) -> bool:
        """The rulebook's language is written right to left: its pages are set mirrored
        (text aligned left is aligned right, indents and list markers on the right, the
        contents' page numbers on the left)."""
        return self.typography.rtl

    def aligned(self, style: TextStyle) -> TextStyle:
        """A style of a block of the page, mirrored in a right-to-left rulebook: `left`
        becomes `right` and the other way round (start, end and justify follow the text)."""
        if self.rtl and style.align in ("left", "right"):
            return replace(style, align="right" if style.align == "left" else "left")
        return style

    def typeset(self, markup: str, style: TextStyle, width: float, loc: Location | None) -> TextLayout:
        key = (markup, style, width, loc)
        layout = self.memo.layouts.get(key)
        if layout is None:
            layout = self.memo.layouts[key] = self._typeset(markup, style, width, loc)
        return layout

    def _typeset(self, markup: str, style: TextStyle, width: float, loc: Location | None) -> TextLayout:
        layout = typeset(markup, style, width, BIG, self.fonts, self.typography, self.symbols.ids)
        if layout.missing and loc is not None:
            self.located_missing.update(layout.missing)
        elif layout.missing and self.unlocated is not None:  # words of no file (pnp's own, the author): said once the pass is over
            self.unlocated_missing.append((markup, style.font, layout))
        if loc is not None:
            report(
                layout, markup, style.font, self.fonts, "the rulebook", loc, self.problems, self.symbols.ids, symbols=False
            )  # check/rulebooks.py has their columns
        if loc is not None and layout.overflow:
            self.problems.warn(
                loc, "rulebook-too-wide", f"a word is wider than the column ({width / mm:.0f} mm) and runs into the margin; shorten it or let it break"
            )
        return layout


def report_unlocated(setting: Setting) -> None:
    """The characters no font has in words set without a place (pnp's own words, the
    cover's title and author), at the book's entry in game.yaml: only those not reported
    at a place of their own already (a table's header is also set without one)."""
    for markup, font, layout in setting.unlocated_missing:
        if setting.unlocated is None or set(layout.missing) <= setting.located_missing:
            continue
        shown = markup if len(markup) <= 40 else markup[:39] + "…"
        subject = f"the rulebook's text '{shown}' (pnp's own words, or the game's title or author)"
        report(layout, markup, font, setting.fonts, subject, setting.unlocated, setting.problems, setting.symbols.ids, symbols=False)


def draw_layout(canv, setting: Setting, layout: TextLayout, x: float, top: float, width: float, color: Color) -> None:
    """Draw set lines whose first line's top is at `top`, through pdf.draw_face."""
    if not setting.drawing:
        return
    height = len(layout.lines) * layout.leading
    face = Face("rulebook text", width, height, (TextOp(0, height - layout.ascent, layout, color),))
    draw_face(canv, face, x, top - height, layout.size * 2, setting.symbols)


def line_width(layout: TextLayout) -> float:
    """The width of the widest set line."""
    return max((line[-1].x + line[-1].width for line in layout.lines if line), default=0.0)


def line_letters(layout: TextLayout) -> list[int]:
    """Letters and digits on each line: where an index term falls is counted in these."""
    return [sum(letters(piece.text) for piece in line if piece.font) for line in layout.lines]


def letters(text: str) -> int:
    """How many letters and digits `text` has (what marks in set text are counted in)."""
    return sum(map(str.isalnum, text))


@dataclass(frozen=True)
class LinkMark:
    """A cross-reference in a paragraph: its letters [start, end) link to a heading."""

    key: str  # the heading's destination
    start: int  # letters and digits before the reference
    end: int  # ... before its end


def letter_boxes(layout: TextLayout, start: int, end: int) -> list[tuple[int, float, float]]:
    """Where letters [start, end) of set text are: (line, x from, x to) for each line they are on."""
    boxes: dict[int, tuple[float, float]] = {}
    seen = 0
    for number, line in enumerate(layout.lines):
        for piece in line:
            if not piece.font:
                continue
            for i, ch in enumerate(piece.text):
                if not ch.isalnum():
                    continue
                if start <= seen < end:
                    before = piece.text[:i]
                    x0 = piece.x + stringWidth(before, piece.font, layout.size) + piece.word_space * before.count(" ")
                    x1 = x0 + stringWidth(ch, piece.font, layout.size)
                    low, high = boxes.get(number, (x0, x1))
                    boxes[number] = (min(low, x0), max(high, x1))
                seen += 1
    return [(number, low, high) for number, (low, high) in sorted(boxes.items())]


class TextBlock(Flowable):
    """A paragraph in pnp.layout.text markup; splits between lines (at least two on each side)."""

    def __init__(self, setting: Setting, markup: str, style: TextStyle, loc: Location | None, marks=(), first: int = 0, lines=None):
        super().__init__()
        self.setting, self.markup, self.style, self.loc = setting, markup, setting.aligned(style), loc
        self.marks = list(marks)  # (term, letters before it) of index terms; LinkMark of references
        self.first = first  # index of this part's first line in the whole paragraph
        self.fixed = lines  # a part of a split paragraph: its (full layout, start, end)
        self.layout: TextLayout | None = None
        self.spaceAfter = setting.styles.gap

    def _set(self, width: float) -> TextLayout:
        if self.fixed is not None:
            full, start, end = self.fixed
            return replace(full, lines=full.lines[start:end])
        return self.setting.typeset(self.markup, self.style, width, self.loc)

    def wrap(self, aw, ah):
        if self.layout is None or aw != self.width:  # platypus asks again and again at the same width
            self.layout = self._set(aw)
            self.width = aw
            self.height = len(self.layout.lines) * self.layout.leading
        return aw, self.height

    def ascent(self) -> float:
        return self.layout.ascent if self.layout else self.style.size

    def split(self, aw, ah):
        whole = self.fixed[0] if self.fixed is not None else self.setting.typeset(self.markup, self.style, aw, self.loc)
        start, end = (self.fixed[1], self.fixed[2]) if self.fixed is not None else (0, len(whole.lines))
        count = end - start
        fit = int((ah + 0.01) // whole.leading)
        if fit >= count:
            return [self]
        fit = min(fit, count - 2)  # no widow: two lines at least go over
        if fit < 2:  # no orphan: two lines at least stay
            return []
        head = TextBlock(self.setting, self.markup, self.style, self.loc, self.marks, self.first, (whole, start, start + fit))
        tail = TextBlock(self.setting, self.markup, self.style, self.loc, self.marks, self.first, (whole, start + fit, end))
        head.spaceAfter = 0
        tail.keepWithNext = self.getKeepWithNext()  # the end of a caption or lead-in stays with what it leads in to
        return [head, tail]

    def draw(self):
        layout = self.layout
        draw_layout(self.canv, self.setting, layout, 0, self.height, self.width, HexColor(self.style.color))
        if self.marks:
            self._note_marks()

    def _note_marks(self) -> None:
        whole = self.fixed[0] if self.fixed is not None else self.layout
        start, end = (self.fixed[1], self.fixed[2]) if self.fixed is not None else (0, len(whole.lines))
        letters = line_letters(whole)
        page = self.canv.getPageNumber()
        for mark in self.marks:
            if isinstance(mark, LinkMark):
                self._link(whole, start, end, mark)
                continue
            term, before = mark
            seen, line = 0, len(letters) - 1
            for i, n in enumerate(letters):
                if seen + n > before:
                    line = i
                    break
                seen += n
            if start <= line < end:
                self.setting.book.index_pages.setdefault(term, set()).add(page)

    def _link(self, whole: TextLayout, start: int, end: int, mark: LinkMark) -> None:
        """A reference is a link to its heading, on the lines of this part that print it."""
        if not self.setting.drawing:
            return
        for line, x0, x1 in letter_boxes(whole, mark.start, mark.end):
            if start <= line < end:
                top = self.height - (line - start) * whole.leading
                self.canv.linkRect("", mark.key, (x0 - 1, top - whole.leading, x1 + 1, top), relative=1, thickness=0)


class HeadingBlock(TextBlock):
    """A numbered heading: kept with what follows; tells the Book its page."""

    def __init__(self, setting: Setting, markup: str, level: int, key: str, title: str, loc: Location | None, chapter: str = ""):
        super().__init__(setting, markup, setting.styles.h[min(level, 6)], loc)
        self.level, self.key, self.title, self.chapter = level, key, title, chapter
        size = self.style.size
        self.spaceBefore = size * (1.2 if level == 1 else 0.9)
        self.spaceAfter = size * 0.45
        self.keepWithNext = True

    def split(self, aw, ah):
        return []  # a heading never breaks

    def draw(self):
        super().draw()
        book = self.setting.book
        page = self.canv.getPageNumber()
        book.heading_pages.setdefault(self.key, page)
        if self.chapter:
            book.chapter = self.chapter
            book.chapter_starts.setdefault(page, self.chapter)
        self.canv.bookmarkHorizontal(self.key, 0, self.height + self.style.size * 0.5)  # where references and the contents lead
        if self.level <= 3:
            level = min(self.level - 1, book.outline_level + 1)
            self.canv.addOutlineEntry(self.title, self.key, level=level, closed=level > 0)
            book.outline_level = level


class KeepWithNext(KeepTogether):
    """A heading (or headings) and what follows, as platypus groups them by keepWithNext.
    Platypus's KeepTogether moves the whole group to the next page when it does not fit,
    so a heading over a long table would leave a page nearly empty; this keeps the heading with
    only the first lines (or rows) of what follows and lets the rest run on."""

    canv = None  # measured before platypus places it too (a float asks whether it fits: Deferred)

    def split(self, aw, ah):
        content = kept_flowables(self)
        heads, after = content[:-1], content[-1]
        at_top = at_top_of_frame(self)
        if not heads:  # a heading with nothing after it that could go with it
            return list(content) if at_top or after.wrap(aw, ah)[1] <= ah else []
        used = 0.0
        for i, head in enumerate(heads):
            used += head.wrap(aw, ah)[1] + head.getSpaceAfter() + (head.getSpaceBefore() if i else 0.0)
        room = ah - used - after.getSpaceBefore()
        if room > 0 and after.wrap(aw, room)[1] <= room:
            return list(content)
        parts = after.split(aw, room) if room > 0 else []
        if parts and not isinstance(parts[0], ActionFlowable) and parts[0].wrap(aw, room)[1] <= room + 0.01:
            return list(heads) + parts
        last = heads[-1]
        if isinstance(last, TextBlock) and not isinstance(last, HeadingBlock):  # a lead-in: its last lines go over with what it leads in to
            above = used - last.height - last.getSpaceAfter() - (last.getSpaceBefore() if len(heads) > 1 else 0.0)
            room = ah - above - (last.getSpaceBefore() if len(heads) > 1 else 0.0)
            room = min(room, last.height - 2 * last.layout.leading + 0.01)  # two lines at least go over, even if all would fit
            pieces = last.split(aw, room) if room > 0 else []
            if len(pieces) == 2:
                return list(heads[:-1]) + [pieces[0], KeepWithNext(pieces[1:] + [after])]
        if at_top:
            return list(content)  # not even on an empty page: each goes on its own
        return []  # the heading goes to the next page with what follows


class Stack(Flowable):
    """Blocks drawn inside another: an example, note or sidebar (tinted, with a bar and a
    label), a list item (with its bullet or number), a quote or a code block. It splits
    between (and inside) its children, so a long example runs onto the next page."""

    def __init__(self, setting: Setting, children: list[Flowable], indent: float = 0, pad: float = 0, fill=None, bar=None, label: str = "", marker: str = ""):
        super().__init__()
        self.setting, self.children = setting, children
        self.indent, self.pad, self.fill, self.bar, self.label, self.marker = indent, pad, fill, bar, label, marker
        self.spaceAfter = setting.styles.gap
        self._label_layout: TextLayout | None = None
        self._sizes: list[tuple[float, float]] = []

    def _inner(self, aw: float) -> float:
        return aw - self.indent - 2 * self.pad - (2.5 if self.bar is not None else 0)

    def _label_height(self, aw: float) -> float:
        if not self.label:
            return 0.0
        style = self.setting.aligned(self.setting.styles.label)
        self._label_layout = self.setting.typeset(self.label, style, self._inner(aw), None)
        return len(self._label_layout.lines) * self._label_layout.leading + style.size * 0.2

    def wrap(self, aw, ah):
        inner = self._inner(aw)
        self._sizes = [child.wrap(inner, BIG) for child in self.children]
        gap = self.setting.styles.gap
        self.width = aw
        self.height = math.fsum(h for _, h in self._sizes) + gap * max(0, len(self.children) - 1) + 2 * self.pad + self._label_height(aw)
        return aw, self.height

    def split(self, aw, ah):
        inner = self._inner(aw)
        gap = self.setting.styles.gap
        room = ah - 2 * self.pad - self._label_height(aw)
        used = 0.0
        for k, child in enumerate(self.children):
            _, h = child.wrap(inner, BIG)
            if used + h <= room:
                used += h + gap
                continue
            parts = self._split_child(child, k, inner, room - used) if room - used > 0 else []
            if not parts and isinstance(child, (CardRow, Tiles)) and (floated := self._float(k, inner, room)) is not None:
                return floated
            head = self.children[:k] + parts[:1]
            tail = parts[1:] + self.children[k + 1 :] if parts else self.children[k:]
            if not parts and k and self.children[k - 1].getKeepWithNext() and not (k == 1 and at_top_of_frame(self)):
                head, tail = self.children[: k - 1], self.children[k - 1 :]  # a heading, lead-in or caption goes over with what follows it
                before = self.children[k - 1]
                if type(before) is TextBlock and before.layout is not None and len(before.layout.lines) > 4:  # a long one: its last two lines
                    pieces = before.split(inner, before.height - 2 * before.layout.leading + 0.01)
                    if len(pieces) == 2:
                        head, tail = [*self.children[: k - 1], pieces[0]], [pieces[1], *self.children[k:]]
            if head and not tail and parts:  # its last child fits as it splits (a picture drawn smaller): the whole, here
                whole = Stack(self.setting, head, self.indent, self.pad, self.fill, self.bar, self.label, self.marker)
                whole.spaceAfter = self.spaceAfter
                return [whole]
            if not head or not tail:
                return []
            first = Stack(self.setting, head, self.indent, self.pad, self.fill, self.bar, self.label, self.marker)
            rest = Stack(self.setting, tail, self.indent, self.pad, self.fill, self.bar, "", "")
            first.spaceAfter = 0
            return [first, rest]
        return [self]

    def _float(self, k: int, inner: float, room: float) -> list[Flowable] | None:
        """Figure k does not fit in the `room` of this page even drawn smaller: the blocks
        after it (up to the next figure, caption or lead-in) fill the page, and the figure,
        with its caption, begins the part on the next page (see Deferred). None: no block
        after it goes on this page."""
        children, gap = self.children, self.setting.styles.gap
        c = k - 1 if k and _caption(children[k - 1], inner) else k
        used = math.fsum(child.wrap(inner, BIG)[1] + gap for child in children[:c])
        taken: list[Flowable] = []
        rest: list[Flowable] = []
        j = k + 1
        while j < len(children) and not isinstance(children[j], (CardRow, Tiles)) and not children[j].getKeepWithNext():
            _, h = children[j].wrap(inner, BIG)
            if used + h <= room:
                taken.append(children[j])
                used += h + gap
                j += 1
                continue
            pieces = children[j].split(inner, room - used) if room - used > 0 else []
            if len(pieces) > 1 and pieces[0].wrap(inner, BIG)[1] <= room - used + 0.01:
                taken.append(pieces[0])
                rest = pieces[1:]
                j += 1
            break
        if not taken:
            return None
        first = Stack(self.setting, children[:c] + taken, self.indent, self.pad, self.fill, self.bar, self.label, self.marker)
        after = Stack(self.setting, children[c : k + 1] + rest + children[j:], self.indent, self.pad, self.fill, self.bar, "", "")
        first.spaceAfter, after.spaceAfter = 0, self.spaceAfter
        return [first, after]

    def _split_child(self, child: Flowable, k: int, aw: float, ah: float) -> list[Flowable]:
        """Split a child; the first child of a stack at the top of a page is at the top too
        (a table there takes what fits rather than waiting for a page it would not get)."""
        if k == 0 and at_top_of_frame(self):
            return split_in_frame_of(self, child, aw, ah)
        return child.split(aw, ah)

    def draw(self):
        canv = self.canv
        rtl = self.setting.rtl  # mirrored: the indent, the bar and the marker on the right
        x = 0.0 if rtl else self.indent
        if self.fill is not None:
            canv.setFillColor(self.fill)
            canv.rect(x, 0, self.width - self.indent, self.height, stroke=0, fill=1)
        if self.bar is not None:
            canv.setFillColor(self.bar)
            canv.rect(self.width - self.indent - 2.5 if rtl else x, 0, 2.5, self.height, stroke=0, fill=1)
            x += 0.0 if rtl else 2.5
        x += self.pad
        top = self.height - self.pad
        inner = self._inner(self.width)
        if self._label_layout is not None:
            draw_layout(canv, self.setting, self._label_layout, x, top, inner, self.bar or self.setting.styles.colors["heading"])
            top -= len(self._label_layout.lines) * self._label_layout.leading + self._label_layout.size * 0.2
        gap = self.setting.styles.gap
        for i, (child, (_, h)) in enumerate(zip(self.children, self._sizes)):
            if i == 0 and self.marker:
                self._draw_marker(child, x, top)
            child.drawOn(canv, x, top - h)
            top -= h + gap

    def _draw_marker(self, child: Flowable, x: float, top: float) -> None:
        style = self.setting.styles.marker
        layout = self.setting.typeset(self.marker, style, self.indent * 0.8, None)
        ascent = child.ascent() if isinstance(child, TextBlock) else layout.ascent
        left = x + self._inner(self.width) + self.indent * 0.2 if self.setting.rtl else x - self.indent
        draw_layout(self.canv, self.setting, layout, left, top - (ascent - layout.ascent), self.indent * 0.8, HexColor(style.color))


PILE_STEP = 0.9 * mm  # how far each card of a pile sits from the one under it


class CardRow(Flowable):
    """Cards drawn by their own layouts, side by side, scaled down to fit the column; a
    pile (`{pile=4}`) as cards stacked a little askew."""

    SHRINK = 0.45

    def __init__(self, setting: Setting, faces: list[tuple[Face, float | None, int]], limit: float | None = None):
        super().__init__()
        self.setting, self.faces, self.limit = setting, faces, limit
        self.spaceBefore = setting.styles.gap * 0.5
        self.spaceAfter = setting.styles.gap * 1.5
        self._scales: list[float] = []

    def wrap(self, aw, ah):
        gap = 4 * mm
        scales = [(w * mm / face.width) if w else 1.0 for face, w, _ in self.faces]
        extra = [PILE_STEP * (pile - 1) for _, _, pile in self.faces]  # a pile is wider and taller by its step, unscaled
        total = math.fsum(face.width * s for (face, _, _), s in zip(self.faces, scales)) + gap * (len(self.faces) - 1)
        shrink = min(1.0, (aw - math.fsum(extra)) / total) if total else 1.0
        tallest = max((face.height * s for (face, _, _), s in zip(self.faces, scales)), default=0) * shrink
        if self.limit is not None and tallest > self.limit:  # shrunk to stay on the page of its caption
            shrink *= self.limit / tallest
        self._scales = [s * shrink for s in scales]
        self._gap = gap * shrink
        self._total = total * shrink + math.fsum(extra)
        self.width = aw
        self.height = max((face.height * s + e for (face, _, _), s, e in zip(self.faces, self._scales, extra)), default=0)
        return aw, self.height

    def split(self, aw, ah):
        """Cards never split; a row a little too tall for the room left is drawn smaller
        (down to SHRINK of its size), rather than leave its caption, or a page, behind."""
        _, height = self.wrap(aw, BIG)
        if height <= ah:
            return [self]
        if ah >= height * self.SHRINK:
            row = CardRow(self.setting, self.faces, limit=ah - 0.01)
            row.spaceBefore, row.spaceAfter = self.spaceBefore, self.spaceAfter
            return [row]
        return []

    def draw(self):
        if not self.setting.drawing:
            return
        canv = self.canv
        x = (self.width - self._total) / 2
        for (face, _, pile), s in zip(self.faces, self._scales):
            for k in range(pile):  # the bottom card first; the top one at the row's top
                canv.saveState()
                canv.translate(x + (pile - 1 - k) * PILE_STEP * 0.6 + k * PILE_STEP * 0.4, self.height - face.height * s - (pile - 1 - k) * PILE_STEP)
                canv.scale(s, s)
                draw_face(canv, face, 0, 0, 0, self.setting.symbols)
                if face.name.endswith(")"):  # a card ("rim (front)"): its outline, as if cut
                    canv.setStrokeColor(self.setting.styles.colors["grid"])
                    canv.setLineWidth(0.3 / s)
                    canv.rect(0, 0, face.width, face.height, stroke=1, fill=0)
                canv.restoreState()
            x += face.width * s + PILE_STEP * (pile - 1) + self._gap


def _caption(flowable: Flowable, width: float) -> bool:
    """Whether `flowable`, just before a figure, is its caption: a short paragraph kept
    with it (a longer one is text that leads to it, and stays where it is written)."""
    if type(flowable) is not TextBlock or not flowable.getKeepWithNext():
        return False
    flowable.wrap(width, BIG)
    return len(flowable.layout.lines) <= CAPTION_LINES


def _heading_level(flowable: Flowable) -> int | None:
    inner = flowable.inner if isinstance(flowable, Marked) else flowable
    return inner.level if isinstance(inner, HeadingBlock) else None


class Deferred(Flowable):
    """A figure (a row of cards or pictures, or the components), its caption if any, and
    the blocks after it in its section. Where the figure fits (drawn smaller if need be:
    CardRow.split) or at the top of a page, it is placed as written. Where it does not, it
    floats, as in a published book: the blocks after it fill the page, one at a time, and
    the figure with its caption begins the next page, so that a figure leaves no page part
    empty unless its section ends there. Never placed whole: it always splits."""

    def __init__(self, setting: Setting, lead: TextBlock | None, figure: Flowable, after: list[Flowable]):
        super().__init__()
        self.setting, self.lead, self.figure, self.after = setting, lead, figure, after

    def contents(self) -> list[Flowable]:
        """What it holds, in the order written."""
        return ([self.lead] if self.lead is not None else []) + [self.figure, *self.after]

    def wrap(self, aw, ah):
        self.width, self.height = aw, BIG  # never fits whole: platypus asks it to split
        return aw, BIG

    def getSpaceBefore(self):  # noqa: N802 - reportlab's name
        return 0.0  # what it holds has its own

    def split(self, aw, ah):
        if at_top_of_frame(self):
            return self.contents()
        group = KeepWithNext([self.lead, self.figure]) if self.lead is not None else self.figure
        room = self._room(group, ah)
        if group.wrap(aw, room)[1] <= room:
            return self.contents()
        parts = group.split(aw, room) if room > 0 else []
        if parts and isinstance(parts[-1], (CardRow, Tiles)):  # here, drawn smaller
            return [*parts, *self.after]
        if self.lead is not None and not _caption(self.lead, aw):  # text that leads to the figure: it stays
            self.lead.keepWithNext = False
            return [self.lead, Deferred(self.setting, None, self.figure, self.after)]
        units = self._units()
        if not units:
            return []  # its section ends: the figure begins the next page
        first, rest = units[0], [f for unit in units[1:] for f in unit]
        block = KeepWithNext(first) if len(first) > 1 else first[0]
        room = self._room(block, ah)
        if room <= 0:
            return []
        if block.wrap(aw, room)[1] <= room:
            return [*first, Deferred(self.setting, self.lead, self.figure, rest)]
        pieces = block.split(aw, room)
        if len(pieces) > 1 and not isinstance(pieces[0], ActionFlowable) and pieces[0].wrap(aw, room)[1] <= room + 0.01:
            return [pieces[0], Deferred(self.setting, self.lead, self.figure, [*pieces[1:], *rest])]
        return []

    def _room(self, following: Flowable, ah: float) -> float:
        room = room_in_frame_of(self, following)
        return ah - following.getSpaceBefore() if room is None else room

    def _units(self) -> list[list[Flowable]]:
        """The blocks after the figure as they go on a page: a heading or lead-in with what follows it."""
        units: list[list[Flowable]] = []
        chain: list[Flowable] = []
        for f in self.after:
            chain.append(f)
            if not f.getKeepWithNext():
                units.append(chain)
                chain = []
        if chain:
            units.append(chain)
        return units

    def draw(self):
        pass  # never drawn: split into what it holds


def floating(flowables: list[Flowable], setting: Setting) -> list[Flowable]:
    """The book's blocks with each figure as a Deferred holding its caption and the blocks
    after it up to the next heading of its section's level or above, or the next figure."""
    out: list[Flowable] = []
    level = 6  # the level of the heading the section began with
    i = 0
    while i < len(flowables):
        f = flowables[i]
        head = _heading_level(f)
        if head is not None:
            level = head
        if not isinstance(f, (CardRow, Tiles)):
            out.append(f)
            i += 1
            continue
        lead = out.pop() if out and type(out[-1]) is TextBlock and out[-1].getKeepWithNext() else None
        j = i + 1
        while j < len(flowables) and not isinstance(flowables[j], (CardRow, Tiles, ActionFlowable)):
            head = _heading_level(flowables[j])
            if head is not None and head <= level:
                break
            j += 1
        while j > i + 1 and flowables[j - 1].getKeepWithNext():  # a heading, caption or lead-in goes with what it leads to
            j -= 1
        out.append(Deferred(setting, lead, f, flowables[i + 1 : j]))
        i = j
    return out


class RuleLine(Flowable):
    def __init__(self, setting: Setting):
        super().__init__()
        self.setting = setting
        self.spaceBefore = self.spaceAfter = setting.styles.gap

    def wrap(self, aw, ah):
        self.width, self.height = aw, 1
        return aw, 1

    def draw(self):
        self.canv.setStrokeColor(self.setting.styles.colors["rule"])
        self.canv.setLineWidth(0.5)
        self.canv.line(self.width * 0.3, 0.5, self.width * 0.7, 0.5)


class Leader(Flowable):
    """A line of the contents or the index: text, dots, and page numbers at the right."""

    def __init__(
        self,
        setting: Setting,
        markup: str,
        pages: str,
        indent: float = 0,
        number: str = "",
        bold: bool = False,
        number_width: float = 0.0,
        loc: Location | None = None,
        link: str = "",
    ):
        super().__init__()
        self.setting, self.markup, self.pages, self.indent, self.number = setting, markup, pages, indent, number
        self.loc = loc  # an index term: where it is marked (its characters are reported there)
        self.number_width = number_width  # the column of the numbers: as wide as the widest of its level
        self.link = link  # a line of the contents: the heading it leads to
        style = setting.styles.toc
        self.style = setting.aligned(replace(style, font="sans-bold") if bold else style)
        self.spaceBefore = style.size * (0.5 if bold else 0.1)
        self._text: TextLayout | None = None

    def wrap(self, aw, ah):
        if self._text is not None and aw == self.width:  # platypus asks again and again at the same width
            return aw, self.height
        style = self.style
        self.width = aw
        self._num_w = self.number_width + style.size * 0.6 if self.number else 0.0
        self._pages = self.setting.typeset(self.pages, replace(style, align="left") if self.setting.rtl else style, BIG, None)  # measured: from its left end
        self._pages_w = line_width(self._pages)
        room = aw - self.indent - self._num_w - self._pages_w - style.size * 1.5
        self._text = self.setting.typeset(self.markup, style, max(room, aw * 0.3), self.loc)
        self.height = len(self._text.lines) * self._text.leading
        return aw, self.height

    def draw(self):
        setting, style = self.setting, self.style
        color = HexColor(style.color)
        rtl = setting.rtl  # mirrored: the number and the text from the right, the page numbers on the left

        def at(x: float, w: float) -> float:
            return self.width - x - w if rtl else x

        x = self.indent
        if self.number:
            number = setting.typeset(self.number, style, self._num_w, None)
            draw_layout(self.canv, setting, number, at(x, self._num_w), self.height, self._num_w, color)
        x += self._num_w
        text_w = self.width - x - self._pages_w - style.size * 1.5
        draw_layout(self.canv, setting, self._text, at(x, text_w), self.height, text_w, color)
        last = self._text.lines[-1] if self._text.lines else ()
        end = x + max((p.x + p.width for p in last), default=0) + style.size * 0.4
        baseline = self.height - self._text.ascent - (len(self._text.lines) - 1) * self._text.leading
        pages_x = 0.0 if rtl else self.width - self._pages_w
        draw_layout(self.canv, setting, self._pages, pages_x, baseline + self._pages.ascent, self._pages_w + 1, color)
        stop = self.width - self._pages_w - style.size * 0.4
        if rtl:  # the dots from the page numbers to the text's last line, which ends on the left
            end, stop = self._pages_w + style.size * 0.4, at(x, text_w) + min((p.x for p in last), default=text_w) - style.size * 0.4
        font = setting.fonts.get(style.font).registered
        dot = self.canv.stringWidth(". ", font, style.size)
        if stop - end > dot:
            self.canv.setFillColor(setting.styles.colors["muted"])
            self.canv.setFont(font, style.size)
            count = int((stop - end) // dot)
            self.canv.drawString(stop - count * dot, baseline, ". " * count)
        if self.link:
            self.canv.linkRect("", self.link, (self.indent, 0, self.width, self.height), relative=1, thickness=0)


class IndexLetter(TextBlock):
    """The letter a group of index entries is filed under ('Č', 'Ch'); never ends a column.
    `letter`: the letter itself, when the markup is more ('C (cont.)', the letter repeated)."""

    def __init__(self, setting: Setting, markup: str, letter: str = ""):
        style = setting.styles.label
        super().__init__(setting, markup, replace(style, size=setting.styles.toc.size * 1.1, color="#1f3c66"), None)
        self.letter = letter or markup
        self.spaceBefore = setting.styles.toc.size * 0.7
        self.keepWithNext = True

    def split(self, aw, ah):
        return []


class Columns(Flowable):
    """Entries of the index in two balanced columns, split between entries; or, for a short
    index, in one column kept together (and kept with the heading above it). A column or
    page that begins inside a letter's entries repeats the letter, marked as continued
    ("C (cont.)"), so that no entry is read without its letter."""

    def __init__(self, setting: Setting, entries: list[Flowable], gap: float, columns: int = 2, continued: str = ""):
        super().__init__()
        self.setting, self.entries, self.gap, self.columns = setting, entries, gap, columns
        self.continued = continued  # markup of the continuation mark ("cont.")
        self.spaceBefore = setting.styles.gap
        self._heights: list[float] = []
        self._break = 0
        self._repeat_heights: dict[str, float] = {}

    def _width(self, aw: float) -> float:
        return (aw - self.gap) / 2 if self.columns == 2 else aw

    def _measure(self, aw: float) -> list[float]:
        return [e.wrap(self._width(aw), BIG)[1] + e.getSpaceBefore() for e in self.entries]

    def _repeat(self, k: int) -> IndexLetter | None:
        """The letter repeated above entry k at the top of a column or page, if k is inside
        a letter's entries (not the letter itself)."""
        if self.columns == 1 or not 0 < k < len(self.entries) or isinstance(self.entries[k], IndexLetter):
            return None
        letter = next((e.letter for e in reversed(self.entries[:k]) if isinstance(e, IndexLetter)), None)
        if letter is None:
            return None
        return IndexLetter(self.setting, f"{letter} ({self.continued})" if self.continued else letter, letter)

    def _repeat_height(self, k: int, aw: float) -> float:
        repeat = self._repeat(k)
        if repeat is None:
            return 0.0
        if repeat.markup not in self._repeat_heights:
            self._repeat_heights[repeat.markup] = repeat.wrap(self._width(aw), BIG)[1] + repeat.getSpaceBefore()
        return self._repeat_heights[repeat.markup]

    def wrap(self, aw, ah):
        self.width = aw
        self._heights = heights = self._measure(aw)
        total, best = math.fsum(heights), (BIG, 0)
        if self.columns == 1:
            best = (total, len(heights))
        left = 0.0
        for k in range(len(heights) + 1 if self.columns == 2 else 0):  # the first column: entries [0, k)
            if not self._kept(k):
                best = min(best, (max(left, total - left + self._repeat_height(k, aw)), k))
            if k < len(heights):
                left += heights[k]
        self.height, self._break = best
        return aw, self.height

    def _kept(self, k: int) -> bool:
        """Whether a column may not end after entry k - 1 (a letter of the index)."""
        return 0 < k < len(self.entries) and self.entries[k - 1].getKeepWithNext()

    def split(self, aw, ah):
        if self.columns == 1:
            return []
        heights = self._measure(aw)
        taken, column, used = 0, 0, 0.0
        while taken < len(heights) and column < 2:
            if used + heights[taken] <= ah:
                used += heights[taken]
                taken += 1
            else:
                while self._kept(taken) and used > 0:  # a letter goes over with its first entry
                    taken -= 1
                    used -= heights[taken]
                column += 1
                used = self._repeat_height(taken, aw)  # the second column repeats the letter it begins in
        while self._kept(taken):
            taken -= 1
        if taken == 0 or taken == len(heights):
            return [] if taken == 0 else [self]
        repeat = self._repeat(taken)
        rest = ([repeat] if repeat is not None else []) + self.entries[taken:]
        return [
            Columns(self.setting, self.entries[:taken], self.gap, continued=self.continued),
            Columns(self.setting, rest, self.gap, continued=self.continued),
        ]

    def draw(self):
        width = self._width(self.width)
        for column, part in enumerate((self.entries[: self._break], self.entries[self._break :])):
            heights = self._heights[: self._break] if column == 0 else self._heights[self._break :]
            repeat = self._repeat(self._break) if column == 1 else None
            if repeat is not None:
                part, heights = [repeat, *part], [self._repeat_height(self._break, self.width), *heights]
            top = self.height
            for entry, h in zip(part, heights):
                top -= h
                entry.wrap(width, BIG)
                entry.drawOn(self.canv, column * (width + self.gap), top)


# --- the covers, the components and the edition's notes -------------------------------------


def _draw_card(canv, setting: Setting, face: Face, scale: float) -> None:
    """A card drawn by its layout at `scale`, as if cut: clipped to its shape (a round or
    hex token is shown round or hex, not as the square its art is laid out in) and
    outlined, at the origin."""
    canv.saveState()
    canv.scale(scale, scale)
    cut = Cut(face.shape, 0, 0, face.width, face.height)  # type: ignore[arg-type]
    if face.shape != "rect":
        canv.clipPath(outline_path(canv, cut), stroke=0, fill=0)
    draw_face(canv, face, 0, 0, 0, setting.symbols)
    canv.setStrokeColor(setting.styles.colors["grid"])
    canv.setLineWidth(0.3 / scale)
    if face.shape == "rect":
        canv.rect(0, 0, face.width, face.height, stroke=1, fill=0)
    else:
        canv.drawPath(outline_path(canv, cut), stroke=1, fill=0)
    canv.restoreState()


def _fan(faces: list[Face], spread: float = 9.0) -> tuple[list[tuple[float, float, float]], tuple[float, float, float, float]]:
    """Cards fanned from a point below them, as a hand holds them: each card's (angle in
    degrees, x, y of its bottom-left corner before turning, at scale 1) about the pivot at
    (0, 0), and the box (x0, y0, x1, y1) the fan covers."""
    n = len(faces)
    reach = max(face.height for face in faces) * 1.1  # from the pivot to the cards' feet
    placed, xs, ys = [], [], []
    for i, face in enumerate(faces):
        angle = (i - (n - 1) / 2) * -spread
        placed.append((angle, -face.width / 2, reach))
        turn = math.radians(angle)
        for cx, cy in ((-face.width / 2, reach), (face.width / 2, reach), (-face.width / 2, reach + face.height), (face.width / 2, reach + face.height)):
            xs.append(cx * math.cos(turn) - cy * math.sin(turn))
            ys.append(cx * math.sin(turn) + cy * math.cos(turn))
    return placed, (min(xs), min(ys), max(xs), max(ys))


SMALLEST_ON_COVER = 0.45  # of the tallest card's height: the least a token is drawn on the cover


class Cover(Flowable):
    """The first page: the game's title, the book's and its mode, the author, the game's
    own cards fanned out (drawn by their layouts), and the publisher and the edition at
    the foot. It fills the page."""

    def __init__(self, setting: Setting, lines: list[tuple[str, TextStyle, Location | None]], faces: list[Face], foot: list[tuple[str, Location | None]]):
        super().__init__()
        self.setting, self.lines, self.faces, self.foot = setting, lines, faces, foot
        self._set: list[TextLayout] = []
        self._foot: list[TextLayout] = []

    def wrap(self, aw, ah):
        self.width, self.height = aw, min(ah, BIG) - 1
        self._set = [self.setting.typeset(markup, style, aw, loc) for markup, style, loc in self.lines]
        small = replace(self.setting.styles.small, align="center", color="#555555")
        self._foot = [self.setting.typeset(markup, small, aw, loc) for markup, loc in self.foot]
        return aw, self.height

    def draw(self):
        canv, setting = self.canv, self.setting
        top = self.height - setting.styles.body.size * 2
        for layout, (_, style, _) in zip(self._set, self.lines):
            top -= layout.leading * 0.25
            draw_layout(canv, setting, layout, 0, top, self.width, HexColor(style.color))
            top -= len(layout.lines) * layout.leading + layout.size * 0.35
        bottom = math.fsum(len(layout.lines) * layout.leading for layout in self._foot) + setting.styles.body.size * 0.5
        y = bottom  # the foot's lines, down to the frame's foot
        for layout in self._foot:
            draw_layout(canv, setting, layout, 0, y, self.width, HexColor("#555555"))
            y -= len(layout.lines) * layout.leading
        if self.faces and setting.drawing:
            self._draw_fan(bottom + setting.styles.body.size * 2, top - setting.styles.body.size * 2)

    def _draw_fan(self, low: float, high: float) -> None:
        tallest = max(face.height for face in self.faces)
        sizes = [max(1.0, SMALLEST_ON_COVER * tallest / face.height) for face in self.faces]  # true to size, but a token still reads
        placed, (x0, y0, x1, y1) = _fan([Face(face.name, face.width * k, face.height * k, ()) for face, k in zip(self.faces, sizes)])
        scale = min((high - low) / (y1 - y0), self.width * 0.95 / (x1 - x0), 1.0)
        canv = self.canv
        canv.saveState()
        canv.translate(self.width / 2 - (x0 + x1) / 2 * scale, low + ((high - low) - (y1 - y0) * scale) / 2 - y0 * scale)
        for face, k, (angle, x, y) in zip(self.faces, sizes, placed):
            canv.saveState()
            canv.rotate(angle)
            canv.translate(x * scale, y * scale)
            canv.setFillColor(HexColor("#000000"), alpha=0.18)  # a soft shadow under the card, of its shape
            canv.drawPath(outline_path(canv, Cut(face.shape, 1.2, -1.2, face.width * k * scale, face.height * k * scale)), stroke=0, fill=1)  # type: ignore[arg-type]
            _draw_card(canv, self.setting, face, k * scale)
            canv.restoreState()
        canv.restoreState()


class Tiles(Flowable):
    """Cards side by side, each with its caption below (a deck's name and count): the
    components page and the back cover. All at one scale, so their sizes compare; in
    rows when they do not fit side by side."""

    CAPTION = 24 * mm  # the least room a caption has, under a small card or a token

    def __init__(self, setting: Setting, tiles: list[tuple[Face, str]], height: float):
        super().__init__()
        self.setting, self.tiles, self.tall = setting, tiles, height
        self.spaceBefore = setting.styles.gap
        self.spaceAfter = setting.styles.gap * 1.5
        self._rows: list[list[int]] = []

    def wrap(self, aw, ah):
        gap = 5 * mm
        tallest = max((face.height for face, _ in self.tiles), default=1.0)
        self._scale = min(self.tall / tallest, 1.0)
        for _ in range(len(self.tiles)):  # narrower until each card fits the column
            widest = max((face.width * self._scale for face, _ in self.tiles), default=0.0)
            if widest <= aw:
                break
            self._scale *= aw / widest
        style = replace(self.setting.styles.small, align="center", hyphenate=False)
        self._widths = [max(face.width * self._scale, min(self.CAPTION, aw)) for face, _ in self.tiles]  # a tile: its card, or its caption's room
        self._captions = [self.setting.typeset(caption, style, w, None) for (_, caption), w in zip(self.tiles, self._widths)]
        self._rows, row, used = [], [], 0.0
        for i, w in enumerate(self._widths):
            if row and used + gap + w > aw:
                self._rows.append(row)
                row, used = [], 0.0
            used += (gap if row else 0.0) + w
            row.append(i)
        if row:
            self._rows.append(row)
        self._gap = gap
        self._heights = [
            max(self.tiles[i][0].height * self._scale for i in r) + max(len(self._captions[i].lines) * self._captions[i].leading for i in r) + 2 * mm
            for r in self._rows
        ]
        self.width, self.height = aw, math.fsum(self._heights) + gap * max(0, len(self._rows) - 1)
        return aw, self.height

    def split(self, aw, ah):
        """Never split; drawn smaller (down to CardRow.SHRINK) to stay under its heading
        rather than leave the page before it nearly empty."""
        _, height = self.wrap(aw, BIG)
        if height <= ah:
            return [self]
        tall = self.tall
        while tall > self.tall * CardRow.SHRINK:
            tall *= 0.95
            smaller = Tiles(self.setting, self.tiles, tall)
            if smaller.wrap(aw, BIG)[1] <= ah:
                smaller.spaceBefore, smaller.spaceAfter = self.spaceBefore, self.spaceAfter
                return [smaller]
        return []

    def draw(self):
        if not self.setting.drawing:
            return
        canv, top = self.canv, self.height
        for row, height in zip(self._rows, self._heights):
            total = math.fsum(self._widths[i] for i in row) + self._gap * (len(row) - 1)
            x = (self.width - total) / 2
            card_h = max(self.tiles[i][0].height * self._scale for i in row)
            for i in row:
                face, _ = self.tiles[i]
                w, h, room = face.width * self._scale, face.height * self._scale, self._widths[i]
                canv.saveState()
                canv.translate(x + (room - w) / 2, top - card_h + (card_h - h) / 2)  # cards centred on the row's middle
                _draw_card(canv, self.setting, face, self._scale)
                canv.restoreState()
                draw_layout(canv, self.setting, self._captions[i], x, top - card_h - 2 * mm, room, HexColor(self.setting.styles.small.color))
                x += room + self._gap
            top -= height + self._gap


def _badge(canv, setting: Setting, number: int, cx: float, cy: float) -> None:
    """The mark of an edition's note: its number in a small disc."""
    size = setting.styles.body.size
    canv.saveState()
    canv.setFillColor(setting.styles.colors["note-bar"])
    canv.circle(cx, cy, size * 0.48, stroke=0, fill=1)
    canv.setFillColor(HexColor("#ffffff"))
    canv.setFont(setting.fonts.get("sans-bold").registered, size * 0.62)
    canv.drawCentredString(cx, cy - size * 0.22, str(number))
    canv.restoreState()


class Marked(Flowable):
    """A block the edition's notes `numbers` are about: each note's mark in the outer
    margin beside its last line, a link to the note (gathered in "About this edition")."""

    def __init__(self, setting: Setting, inner: Flowable, numbers: list[int], keys: list[str]):
        super().__init__()
        self.setting, self.inner, self.numbers, self.keys = setting, inner, numbers, keys

    def wrap(self, aw, ah):
        self.width, self.height = self.inner.wrap(aw, ah)
        return self.width, self.height

    def split(self, aw, ah):
        parts = self.inner.split(aw, ah)
        if not parts:
            return []
        return [*parts[:-1], Marked(self.setting, parts[-1], self.numbers, self.keys)]

    def getSpaceBefore(self):
        return self.inner.getSpaceBefore()

    def getSpaceAfter(self):
        return self.inner.getSpaceAfter()

    def getKeepWithNext(self):
        return self.inner.getKeepWithNext()

    def draw(self):
        self.inner.drawOn(self.canv, 0, 0)
        if not self.setting.drawing:
            return
        size = self.setting.styles.body.size
        right = self.canv.getPageNumber() % 2 == 1  # a right-hand page: its outer margin is on the right
        step = size * 1.1  # several notes on one block: side by side, in their order
        cx = self.width + 3 * mm + size * 0.48 if right else -3 * mm - size * 0.48 - step * (len(self.numbers) - 1)
        cy = self.height / 2 if isinstance(self.inner, HeadingBlock) else min(self.height / 2, size * 0.75)
        for number, key in zip(self.numbers, self.keys):
            _badge(self.canv, self.setting, number, cx, cy)
            r = size * 0.55
            self.canv.linkRect("", key, (cx - r, cy - r, cx + r, cy + r), relative=1, thickness=0)
            cx += step


class NoteEntry(Stack):
    """One of the edition's notes in "About this edition": its number's disc hanging in
    the margin of its text, and the place a mark in the text leads to."""

    def __init__(self, setting: Setting, children: list[Flowable], number: int, key: str):
        super().__init__(setting, children, indent=setting.styles.body.size * 1.8, marker=str(number))
        self.number, self.key = number, key

    def split(self, aw, ah):
        parts = super().split(aw, ah)
        if parts and parts[0] is not self:  # the first part keeps the number and the place a mark leads to
            first = NoteEntry(self.setting, parts[0].children, self.number, self.key)
            first.spaceAfter = parts[0].spaceAfter
            parts[0] = first
        return parts

    def draw(self):
        if self.setting.drawing:
            self.canv.bookmarkHorizontal(self.key, 0, self.height + self.setting.styles.body.size)
        super().draw()

    def _draw_marker(self, child: Flowable, x: float, top: float) -> None:
        size = self.setting.styles.body.size
        ascent = child.ascent() if isinstance(child, TextBlock) else size
        centre = x + self._inner(self.width) + self.indent - size * 0.5 if self.setting.rtl else x - self.indent + size * 0.5
        _badge(self.canv, self.setting, self.number, centre, top - ascent + size * 0.32)


class BackCover(Flowable):
    """The last page, the booklet's back cover: the game's title, its components (each deck
    with a card and its count) and the credits at the foot. It fills the page."""

    def __init__(self, setting: Setting, title: str, components: Tiles | None, credits: list[tuple[str, Location | None]]):
        super().__init__()
        self.setting, self.title, self.components, self.credits = setting, title, components, credits

    def wrap(self, aw, ah):
        s = self.setting.styles
        self.width, self.height = aw, min(ah, BIG) - 1
        self._title = self.setting.typeset(self.title, replace(s.subtitle, font="serif-bold"), aw, None)
        small = replace(s.small, align="center", color="#555555")
        self._credits = [self.setting.typeset(markup, small, aw, loc) for markup, loc in self.credits]
        self._under = self.height - s.body.size * 5.5 - len(self._title.lines) * self._title.leading  # under the title
        self._foot = math.fsum(len(layout.lines) * layout.leading + s.body.size * 0.4 for layout in self._credits) + s.body.size * 0.5
        self._shown = self.components
        if self.components is not None:  # as large as asked, but smaller than the room between the title and the credits, with air around
            room = (self._under - self._foot - s.body.size * 2) * 0.7
            if self.components.wrap(aw, BIG)[1] > room:
                self._shown = next(iter(self.components.split(aw, room)), self.components)
        return aw, self.height

    def draw(self):
        canv, setting, s = self.canv, self.setting, self.setting.styles
        draw_layout(canv, setting, self._title, 0, self.height - s.body.size * 4, self.width, HexColor(s.subtitle.color))
        y = self._foot
        if self._shown is not None:  # in the middle of the room between the title and the credits
            room = self._under - (y + s.body.size * 2)
            self._shown.drawOn(canv, 0, self._under - self._shown.height - max(0.0, (room - self._shown.height) / 2))
        canv.setStrokeColor(s.colors["rule"])
        canv.setLineWidth(0.4)
        canv.line(self.width * 0.3, y + s.body.size * 0.6, self.width * 0.7, y + s.body.size * 0.6)
        for layout in self._credits:
            draw_layout(canv, setting, layout, 0, y, self.width, HexColor("#555555"))
            y -= len(layout.lines) * layout.leading + s.body.size * 0.4
