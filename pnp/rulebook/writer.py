"""A rulebook as a PDF: a title and the contents on the first page, numbered chapters with
a running header and page numbers, the index at the end.

Page numbers are known only once the pages exist, but the contents, the cross-references
("2.1, s. 4") and the index print them, and printing them can move text. So the book is
set again with the pages the previous pass found until nothing moves (two or three
passes); the last pass is the paper book, and its pages, copied as they were drawn, are
the booklet's. Both come from one setting, on the booklet's page: the paper book enlarges
its pages to the sheet. Same input, same bytes: reportlab's invariant mode.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, NextPageTemplate, PageBreak, PageTemplate, Spacer
from reportlab.platypus.tables import Table as PdfTable
from reportlab.platypus.tables import TableStyle

from pnp.assets.fonts import FontSet, missing_glyphs
from pnp.assets.images import find_image, image_size
from pnp.assets.shaping import needs_shaping
from pnp.assets.symbols import SymbolSet
from pnp.base.errors import Location, PnpError, Problems
from pnp.i18n.own import fill
from pnp.impose.paper import RulebookFormats, rulebook_formats
from pnp.layout.faces import Face, ImageOp
from pnp.layout.text import TextStyle, escape
from pnp.layout.typography import Typography
from pnp.pdf.canvas import FormPagesCanvas, KeptPagesCanvas, at_top_of_frame, canvas_like, copy_pages, row_heights, set_saving
from pnp.rulebook.booklet import impose
from pnp.rulebook.collation import initial as initial_of
from pnp.rulebook.collation import sort_key
from pnp.rulebook.document import (
    Box,
    Break,
    CardRef,
    Code,
    Component,
    Document,
    Heading,
    IndexMark,
    Inline,
    ListBlock,
    Para,
    Picture,
    Quote,
    Ref,
    Rule,
    Sym,
    Table,
    Text,
    plain,
    spans_of,
    walk,
)
from pnp.rulebook.flow import (
    BIG,
    BackCover,
    Book,
    CardRow,
    Columns,
    Cover,
    Deferred,
    HeadingBlock,
    IndexLetter,
    KeepWithNext,
    Leader,
    LinkMark,
    Marked,
    Memo,
    NoteEntry,
    RuleLine,
    Setting,
    Stack,
    Styles,
    TextBlock,
    Tiles,
    draw_layout,
    floating,
    letters,
    line_width,
    report_unlocated,
)
from pnp.rulebook.labels import Labels

MAX_PASSES = 6
TOC_DEPTH = 2  # headings 1 and 1.1 are listed in the contents
INDEX_KEY = "index:"  # the heading key of the generated index
EDITION_KEY = "edition:"  # the heading key of the edition's notes, gathered
NOTE_KEY = "note:"  # + its number: where an edition's note is, that its mark leads to
COVER_CARDS = 4  # a card of each of the first decks on the cover, when the rulebook names none


@dataclass
class Inputs:
    """What a rulebook is set from besides its document."""

    fonts: FontSet
    symbols: SymbolSet
    game_title: str
    author: str
    labels: Labels
    face: Callable[[CardRef], Face | None]  # the card's face, laid out by its layout
    problems: Problems
    root: Path  # the game folder, where pictures are
    typography: Typography  # how the rulebook's language is set (its conventions, the game's hyphenation)
    meta: dict[str, str] = field(default_factory=dict)  # the game's title, author, publisher, edition, licence, attribution, url
    components: list[Component] = field(default_factory=list)  # the printed decks, for the components page and the back cover


def write_pdfs(doc: Document, formats: RulebookFormats, inputs: Inputs, known: Book | None = None) -> tuple[bytes, bytes, int, Book]:
    """The rulebook set once, on the formats' page, until its page numbers settle, and
    written from that setting twice: the paper book's PDF and the booklet's, the number of
    pages and the pages it settled on. A pass starts from the pages the one before found;
    the first from the `known` pages (those a watcher kept from the last build: when they
    are still right, the paper book's pass is the only one), or, without them, it only
    finds the pages and draws nothing. The booklet is the last pass's pages, copied as they
    were drawn (canvas.copy_pages), not set again."""
    memo = Memo()  # what a pass works out the same as the one before
    previous = known
    for n in range(MAX_PASSES):
        book = Book()
        paper, booklet, pages, settled = _one_pass(doc, formats, inputs, book, previous, memo, last=n == MAX_PASSES - 1)
        if settled:
            break
        previous = book
    else:
        inputs.problems.warn(
            Location(doc.id), "rulebook-pages", f"the page numbers of rulebook '{doc.id}' did not settle after {MAX_PASSES} passes; check its contents"
        )
    return paper, booklet, pages, book


def _one_pass(
    doc: Document, formats: RulebookFormats, inputs: Inputs, book: Book, previous: Book | None, memo: Memo, last: bool = False
) -> tuple[bytes, bytes, int, bool]:
    """One pass over the book, on the formats' page, starting from the `previous` pages:
    the paper book's bytes, the booklet's (its pages copied from the paper book's, when
    the pass is kept: its pages settled, or it is the `last`), the page count and whether
    the pages settled (are the previous ones). A pass without `previous` pages only finds
    them (and writes nothing)."""
    drawing = previous is not None
    setting = Setting(inputs.fonts, inputs.symbols, inputs.typography, Styles.for_size(formats.page.body), inputs.problems, book, drawing, memo)
    paper, booklet = io.BytesIO(), io.BytesIO()
    header = f"{inputs.game_title}: {doc.title}" if doc.title != inputs.game_title else doc.title
    if doc.mode_title:
        header = f"{header} — {doc.mode_title}"  # each mode's book says which it is
    labels = inputs.labels
    template = _Template(paper, formats, inputs, setting, header, fill(labels.subject, paper=formats.paper.name.upper()))
    subject = fill(labels.booklet, page=formats.page.paper.title, paper=formats.paper.title)

    settled: list[bool] = []

    def fold(kept: KeptPagesCanvas) -> None:  # the pages drawn (and saved: a drawing pass), before the paper book is saved
        settled.append(book.state() == previous.state())
        if not (settled[0] or last):
            return  # the pages moved: another pass follows
        folded = canvas_like(template, booklet, partial(FormPagesCanvas, place=partial(impose, formats)))
        folded.setSubject(subject)
        copy_pages(kept, folded)
        folded.save()

    story = Story(doc, setting, inputs, previous or Book()).flowables()
    template.build(story, canvasmaker=partial(KeptPagesCanvas, then=fold))
    return paper.getvalue(), booklet.getvalue(), template.page, settled == [True]


def check_text(doc: Document, inputs: Inputs, title_locs: tuple[Location, Location]) -> None:
    """Set every text of the book once, as wide as it likes and without pages, so that
    `pnp check` reports characters the fonts lack at their block, as the build would."""
    styles = Styles.for_size(rulebook_formats("a4").page.body)
    setting = Setting(inputs.fonts, inputs.symbols, inputs.typography, styles, inputs.problems, Book(), unlocated=title_locs[1] or title_locs[0])
    for flowable in Story(doc, setting, inputs, Book(), title_locs).flowables():
        for part in flowable.contents() if isinstance(flowable, Deferred) else [flowable]:
            part.wrap(BIG, BIG)
    report_unlocated(setting)


class _Template(BaseDocTemplate):
    def __init__(self, buffer, formats: RulebookFormats, inputs: Inputs, setting: Setting, header: str, subject: str):
        """Pages set at the size of the formats' page, each drawn enlarged to fill a sheet
        of its paper (the paper book; the booklet copies them as set)."""
        page = formats.page
        left, right, top, bottom = page.margins
        width, height = page.paper.size()
        super().__init__(
            buffer,
            pagesize=(width, height),
            leftMargin=left,
            rightMargin=right,
            topMargin=top,
            bottomMargin=bottom,
            invariant=1,
            pageCompression=1,
            initialFontName=inputs.fonts.get("sans").registered,
            title=header,
            author=inputs.author,
            subject=subject,
            creator="pnp",
            producer="pnp (reportlab)",
        )
        set_saving(self, setting.drawing)  # a pass that draws nothing writes no file
        self.keepTogetherClass = KeepWithNext  # a heading and the first lines after it, not the whole block
        self.setting, self.header, self.book_page = setting, header, page
        self.running = ""  # the chapter in effect at the top of the next page
        frame = Frame(left, bottom, width - left - right, height - top - bottom, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, id="body")
        scale, x, y = formats.enlarged()
        sheet = {"pagesize": formats.paper.size(), "onPage": lambda canv, doc: canv.begin_page((scale, 0, 0, scale, x, y))}
        self.addPageTemplates(
            [
                PageTemplate("first", [frame], onPageEnd=self._first, **sheet),
                PageTemplate("body", [frame], onPageEnd=self._decorate, **sheet),
                PageTemplate("back", [frame], **sheet),  # the back cover: no header, no number
            ]
        )

    def _first(self, canv, doc) -> None:
        self.running = self.setting.book.chapter

    def _decorate(self, canv, doc) -> None:
        """Running header (book title left, chapter right) and the page number."""
        book, styles = self.setting.book, self.setting.styles
        page = canv.getPageNumber()
        chapter = book.chapter_starts.get(page) or self.running
        self.running = book.chapter
        if not self.setting.drawing:
            return
        left, right, top, bottom = self.book_page.margins
        width, height = self.book_page.paper.size()
        style = styles.header
        font = self.setting.fonts.get(style.font).registered
        size = style.size
        canv.saveState()
        canv.setFillColor(styles.colors["muted"])
        canv.setFont(font, size)
        y = height - top + 5 * mm
        room = (width - left - right) / 2 - 3 * mm
        if self.setting.rtl or needs_shaping(self.header + chapter):
            self._shaped_head(canv, chapter, left, width - right, y, room)
        else:
            canv.drawString(left, y, _fit(canv, self.header, font, size, room))
            canv.drawRightString(width - right, y, _fit(canv, chapter, font, size, room))
        canv.setStrokeColor(styles.colors["rule"])
        canv.setLineWidth(0.4)
        canv.line(left, y - 2 * mm, width - right, y - 2 * mm)
        canv.setFont(font, size * 1.15)
        canv.drawCentredString(width / 2, bottom - 9 * mm, str(page))
        canv.restoreState()

    def _shaped_head(self, canv, chapter: str, left: float, right: float, y: float, room: float) -> None:
        """The running head set by the text engine (shaped, in the order of its words'
        directions): in a right-to-left rulebook the book's title on the right and the
        chapter on the left, each cut to its first line when it is longer than its half."""
        setting = self.setting
        style = replace(setting.styles.header, color="#000000")
        outer, inner = (right - room, left) if setting.rtl else (left, right - room)
        for text, x, align in ((self.header, outer, "right" if setting.rtl else "left"), (chapter, inner, "left" if setting.rtl else "right")):
            if not text:
                continue
            layout = setting.typeset(escape(text), replace(style, align=align), room, None)
            layout = replace(layout, lines=layout.lines[:1])
            draw_layout(canv, setting, layout, x, y + layout.ascent, room, setting.styles.colors["muted"])


def _fit(canv, text: str, font: str, size: float, room: float) -> str:
    if canv.stringWidth(text, font, size) <= room:
        return text
    while text and canv.stringWidth(text + "…", font, size) > room:
        text = text[:-1]
    return text.rstrip() + "…"


class Story:
    """The flowables of one pass; page numbers come from the previous pass (`known`)."""

    def __init__(self, doc: Document, setting: Setting, inputs: Inputs, known: Book, title_locs: tuple[Location | None, Location | None] = (None, None)):
        self.doc, self.setting, self.inputs, self.known = doc, setting, inputs, known
        self.title_locs = title_locs  # where the game's and the book's titles are written, to report what they print
        self.styles = setting.styles
        self.labels = inputs.labels
        self.headings = doc.headings()
        self.keys = {id(h): h.id or f"h:{i}" for i, h in enumerate(self.headings)}
        self.by_id = {h.id: h for h in self.headings if h.id}
        self.term_locs: dict[str, Location] = {}  # where each index term is first marked
        for spans in _all_spans(doc):
            for span in spans:
                if isinstance(span, IndexMark) and span.term:
                    self.term_locs.setdefault(span.term, span.loc)
        self.terms = sorted(self.term_locs, key=lambda term: sort_key(term, doc.lang))
        self.notes: list[list[Flowable]] = []  # the edition's notes, in reading order, gathered at the end

    def page(self, key: str) -> str:
        return str(self.known.heading_pages.get(key, 0))

    def flowables(self) -> list[Flowable]:
        s, labels = self.styles, self.labels
        chapters = self.blocks(self.doc.blocks)  # first: they number the edition's notes
        out: list[Flowable] = [NextPageTemplate("body"), self.cover(), PageBreak()]
        out.append(TextBlock(self.setting, escape(labels.contents), s.h[2], None))
        listed = [h for h in self.headings if h.level <= TOC_DEPTH]
        widths: dict[int, float] = {}
        for h in listed:
            style = replace(s.toc, font="sans-bold") if h.level == 1 else s.toc
            widths[h.level] = max(widths.get(h.level, 0.0), line_width(self.setting.typeset(h.number, style, BIG, None)))
        for h in listed:
            text, _ = self.markup(h.spans)
            indent = math.fsum(widths.get(level, 0.0) + s.toc.size * 0.6 for level in range(1, h.level))
            key = self.keys[id(h)]
            out.append(Leader(self.setting, text, self.page(key), indent, h.number, bold=h.level == 1, number_width=widths[h.level], link=key))
        if self.notes:
            out.append(Leader(self.setting, escape(labels.edition), self.page(EDITION_KEY), 0, "", bold=True, link=EDITION_KEY))
        if self.terms:
            out.append(Leader(self.setting, escape(labels.index), self.page(INDEX_KEY), 0, "", bold=True, link=INDEX_KEY))
        out.append(PageBreak())
        out.extend(floating(chapters, self.setting))
        if self.notes:
            out.append(HeadingBlock(self.setting, escape(labels.edition), 1, EDITION_KEY, labels.edition, None, chapter=labels.edition))
            for number, children in enumerate(self.notes, 1):
                out.append(NoteEntry(self.setting, children, number, f"{NOTE_KEY}{number}"))
        if self.terms:
            out.append(HeadingBlock(self.setting, escape(labels.index), 1, INDEX_KEY, labels.index, None, chapter=labels.index))
            entries: list[Flowable] = []
            letter = ""
            for term in self.terms:
                initial = initial_of(term, self.doc.lang)
                if initial and initial != letter and len(self.terms) > 8:
                    entries.append(IndexLetter(self.setting, escape(initial)))
                letter = initial
                pages = sorted(self.known.index_pages.get(term, set())) or [0]
                entries.append(Leader(self.setting, escape(term), ", ".join(str(p) for p in pages), loc=self.term_locs[term]))
            out.append(Columns(self.setting, entries, s.body.size * 1.5, columns=2 if len(self.terms) > 8 else 1, continued=escape(labels.continued)))
        out += [NextPageTemplate("back"), PageBreak(), self.back_cover()]
        return out

    # --- the covers --------------------------------------------------------------------------

    def cover(self) -> Flowable:
        """The first page: the titles, the mode, the author, the game's cards fanned, the
        publisher and the edition."""
        s, doc, meta = self.styles, self.doc, self.inputs.meta
        lines = [(escape(self.inputs.game_title), s.title, self.title_locs[0])]
        if doc.title and doc.title != self.inputs.game_title:
            lines.append((escape(doc.title), s.subtitle, self.title_locs[1]))
        if doc.mode_title:
            lines.append((escape(doc.mode_title), replace(s.subtitle, font="sans-bold", size=s.subtitle.size * 0.9, color="#c98f16"), None))
        if self.inputs.author:
            lines.append((escape(self.inputs.author), replace(s.subtitle, font="serif", size=s.body.size * 1.3, color="#1a1a1a"), None))
        refs = doc.cover or [c.sample for c in self.inputs.components][:COVER_CARDS]
        faces = [face for face in map(self.inputs.face, refs) if face is not None]
        foot = [(escape(text), None) for text in (meta.get("publisher", ""), meta.get("edition", "")) if text]
        return Cover(self.setting, lines, faces, foot)

    def back_cover(self) -> Flowable:
        """The last page (the booklet's back cover): each deck with its count and a card,
        and the credits: author, publisher, edition, licence, attribution, address."""
        meta = self.inputs.meta
        tiles = [(face, self.component_caption(c)) for c in self.inputs.components if (face := self.inputs.face(c.sample)) is not None]
        credits = [meta.get(key, "") for key in ("author", "publisher", "edition", "licence")]
        lines = [(escape(self.separator(self.styles.small.font).join(text for text in credits if text)), None)]
        lines += [(escape(meta[key]), None) for key in ("attribution", "url") if meta.get(key)]
        return BackCover(self.setting, escape(self.inputs.game_title), Tiles(self.setting, tiles, 60 * mm) if tiles else None, lines)

    def separator(self, font: str) -> str:
        """What runs of credits are joined with: a middle dot, or the first of a dash, a bar
        and a comma that the font has (a Hebrew or Japanese font may lack the dot)."""
        registered = self.setting.fonts.get(font).registered
        return next((s for s in (" · ", " – ", " | ") if not missing_glyphs(registered, s)), ", ")

    def component_caption(self, component: Component) -> str:
        """A deck under its card: its name, and how many are printed ('53 ×')."""
        return f"**{escape(component.name)}**\n{component.count}\u00a0×"

    # --- blocks ------------------------------------------------------------------------------

    def blocks(self, blocks) -> list[Flowable]:
        """Blocks in order; a paragraph that leads in to a table or list (it ends with ':')
        is kept with the start of it, as a heading is with what follows."""
        out: list[Flowable] = []
        for block, after in zip(blocks, [*blocks[1:], None]):
            if isinstance(block, Box) and block.kind == "edition":
                self.edition_note(block, out)
                continue
            flowables = self.block(block)
            if isinstance(block, Para) and isinstance(after, (Table, ListBlock)) and flowables and isinstance(flowables[-1], TextBlock):
                if plain(block.spans).rstrip().endswith(":"):
                    flowables[-1].keepWithNext = True
            if isinstance(block, Para) and _figure(after) and flowables and isinstance(flowables[-1], TextBlock):
                flowables[-1].keepWithNext = True  # a caption, or the text a picture follows: on the picture's page
            out.extend(flowables)
        return out

    def edition_note(self, box: Box, out: list[Flowable]) -> None:
        """`::: edition`: gathered in "About this edition", numbered; its mark beside the
        block before it (the one it is about)."""
        children = self.blocks(box.children)
        if not children:
            return
        self.notes.append(children)
        number = len(self.notes)
        if out and isinstance(out[-1], Marked):  # another note on the same block
            out[-1].numbers.append(number)
            out[-1].keys.append(f"{NOTE_KEY}{number}")
        elif out:
            out[-1] = Marked(self.setting, out[-1], [number], [f"{NOTE_KEY}{number}"])

    def block(self, block) -> list[Flowable]:
        s = self.styles
        if isinstance(block, Heading):
            text, marks = self.markup(block.spans)
            title = plain(block.spans).strip()
            numbered = f"{block.number}\u00a0\u00a0{text}" if block.number else text
            chapter = f"{block.number} {title}".strip() if block.level == 1 else ""
            heading = HeadingBlock(self.setting, numbered, block.level, self.keys[id(block)], f"{block.number} {title}".strip(), block.loc, chapter)
            shift = letters(block.number)  # the number is set before the text
            heading.marks = [LinkMark(m.key, m.start + shift, m.end + shift) if isinstance(m, LinkMark) else (m[0], m[1] + shift) for m in marks]
            return [heading]
        if isinstance(block, Para):
            out: list[Flowable] = []
            spans = [span for span in block.spans if not isinstance(span, (CardRef, Picture))]
            text, marks = self.markup(spans)
            if text.strip():
                out.append(TextBlock(self.setting, text, s.body, block.loc, marks))
            faces = []
            for span in block.spans:
                face = self.inputs.face(span) if isinstance(span, CardRef) else _picture(span, self.inputs.root) if isinstance(span, Picture) else None
                if face is not None:
                    faces.append((face, span.width, span.pile if isinstance(span, CardRef) else 1))
            if faces:
                if out:
                    out[-1].keepWithNext = True  # the text a picture follows: on its page
                out.append(CardRow(self.setting, faces))
            return out
        if isinstance(block, ListBlock):
            out = []
            for i, item in enumerate(block.items):
                marker = f"{block.start + i}." if block.ordered else "•"
                children = self.blocks(item)
                if not children:
                    continue
                stack = Stack(self.setting, children, indent=s.body.size * (2.0 if block.ordered else 1.4), marker=marker)
                stack.spaceAfter = s.gap * (1.0 if i == len(block.items) - 1 else 0.35)
                out.append(stack)
            return out
        if isinstance(block, Table):
            return [FitTable(self, block)]
        if isinstance(block, Code):
            text = re.sub(r"(?<=[ \t])[ \t]", "\u00a0", block.text)  # runs of spaces keep their width
            code = TextBlock(self.setting, escape(text), replace(s.small, hyphenate=False), block.loc)
            return [Stack(self.setting, [code], pad=s.body.size * 0.6, fill=s.colors["code"])]
        if isinstance(block, Quote):
            children = self.blocks(block.children)
            return [Stack(self.setting, children, pad=s.body.size * 0.5, bar=s.colors["quote-bar"])] if children else []
        if isinstance(block, Rule):
            return [RuleLine(self.setting)]
        if isinstance(block, Box) and block.kind == "components":
            tiles = [(face, self.component_caption(c)) for c in self.inputs.components if (face := self.inputs.face(c.sample)) is not None]
            return [*self.blocks(block.children), Tiles(self.setting, tiles, 42 * mm)] if tiles else self.blocks(block.children)
        if isinstance(block, Box):
            children = self.blocks(block.children)
            if not children:
                return []
            label = self.labels.box(block.kind)
            return [Stack(self.setting, children, pad=s.body.size * 0.8, fill=s.colors[block.kind], bar=s.colors[f"{block.kind}-bar"], label=escape(label))]
        return []

    # --- inline content ------------------------------------------------------------------------

    def markup(self, spans: list[Inline] | tuple[Inline, ...]) -> tuple[str, list]:
        """pnp.layout.text markup of inline content, and where its index terms and references are
        (counted in letters and digits, which setting the text does not change)."""
        if any(isinstance(span, Ref) for span in spans):  # prints page numbers: made anew in each pass
            return self._markup(spans)
        key = tuple(spans)
        made = self.setting.memo.markups.get(key)
        if made is None:
            text, marks = self._markup(spans)
            made = self.setting.memo.markups[key] = (text, tuple(marks))
        return made[0], list(made[1])

    def _markup(self, spans: list[Inline] | tuple[Inline, ...]) -> tuple[str, list]:
        out = _Emphasis()
        marks: list = []
        count = 0
        for span in spans:
            if isinstance(span, Text):
                out.text(span.text.replace("\n", " "), span.bold, span.italic)
                count += letters(span.text)
            elif isinstance(span, Sym):
                out.markup += f":{span.id}:"  # a symbol may sit inside bold: it keeps the marks open
            elif isinstance(span, Break):
                out.close()  # markup does not run across a line break
                out.markup += "\n"
            elif isinstance(span, IndexMark):
                marks.append((span.term, count))
            elif isinstance(span, Ref):
                text = self.reference(span)
                out.close()
                out.markup += text
                start = count
                count += letters(text)
                target = self.by_id.get(span.target)
                if target is not None and count > start:
                    marks.append(LinkMark(self.keys[id(target)], start, count))
        out.close()
        return out.markup, marks

    def reference(self, ref: Ref) -> str:
        """'2.1, s. 4' for [](#id) ('*Title*, s. 4' for an unnumbered heading); 'text (2.1)'
        for [text](#id)."""
        target = self.by_id.get(ref.target)
        if target is None:
            return "??"  # reported by the check
        page = f"{self.labels.page}\u00a0{self.page(self.keys[id(target)])}"
        if ref.label:
            text, _ = self.markup(ref.label)
            return f"{text} ({target.number or page})"
        if target.number:
            return f"{target.number}, {page}"
        return f"*{escape(plain(target.spans).strip())}*, {page}"  # an unnumbered heading: by its title


def _figure(block) -> bool:
    """A paragraph of cards or pictures alone: a figure, kept with the text before it."""
    return (
        isinstance(block, Para)
        and bool(block.spans)
        and all(isinstance(span, (CardRef, Picture)) or (isinstance(span, Text) and not span.text.strip()) for span in block.spans)
    )


def _picture(picture: Picture, root) -> Face | None:
    """An image as a face of its natural size at 150 dpi (CardRow narrows it to the column)."""
    try:
        path = find_image(picture.path, root, picture.loc, "image")
    except PnpError:
        return None  # reported by the check
    width, height = image_size(str(path))
    w, h = width / 150 * 72, height / 150 * 72
    return Face(picture.path, w, h, (ImageOp(str(path), 0, 0, w, h),))


def _all_spans(doc: Document):

    for block in walk(doc.blocks):
        yield from spans_of(block)


@dataclass
class _Emphasis:
    """pnp.layout.text markup built from spans that each know whether they are bold and italic:
    the marks open and close as the emphasis changes, nested (`**bold *both* bold**`), and
    always next to a letter, never a space, so that pnp.layout.text reads them back."""

    markup: str = ""
    open: list[str] = field(default_factory=list)  # '**' and '*', innermost last

    def text(self, text: str, bold: bool, italic: bool) -> None:
        core = text.strip()
        if not core:  # a space keeps whatever emphasis is open
            self.markup += text
            return
        wanted = {"**": bold, "*": italic}
        keep = next((k for k, mark in enumerate(self.open) if not wanted[mark]), len(self.open))
        self.close(keep)
        lead = text[: len(text) - len(text.lstrip())]
        opening = "".join(mark for mark in ("**", "*") if wanted[mark] and mark not in self.open)
        self.open.extend(mark for mark in ("**", "*") if wanted[mark] and mark not in self.open)
        self.markup += lead + opening + escape(core) + text[len(text.rstrip()) :]

    def close(self, keep: int = 0) -> None:
        """Close all but the outermost `keep` marks, before any trailing space."""
        if len(self.open) <= keep:
            return
        body = self.markup.rstrip(" \t")
        tail = self.markup[len(body) :]
        while len(self.open) > keep:
            body += self.open.pop()
        self.markup = body + tail


class FitTable(Flowable):
    """A Markdown table: columns as wide as their text needs, narrowed to fit the column;
    header row tinted and repeated on the next page. It breaks between rows leaving two
    body rows at least on each side (a header row alone at a page foot, or one row alone
    on the next page, reads as a mistake); only at the top of a page, where moving it on
    would not help, does it take what platypus can fit."""

    MIN_ROWS = 2

    def __init__(self, story: Story, table: Table, built: PdfTable | None = None):
        super().__init__()
        self.story, self.table = story, table
        self.spaceBefore = story.styles.gap * 0.3
        self.spaceAfter = story.styles.gap * 1.2
        self._built = built  # a part of a split table: its rows, already set for its width
        self._width: float | None = None  # the width self._built was set for (None: a part's own)

    def _build(self, aw: float) -> PdfTable:
        if self._built is not None and self._width in (None, aw):
            return self._built
        story, table = self.story, self.table
        setting, s = story.setting, story.styles
        texts = self._texts()
        key = (tuple(tuple((text, style) for text, style, _ in line) for line in texts), aw)
        if key not in setting.memo.widths:
            setting.memo.widths[key] = self._widths(texts, aw)
        widths, pad, wide = setting.memo.widths[key]
        loc: Location | None = table.loc
        if wide:  # its longest words do not fit side by side: reported, and set narrower so that setting ends
            setting.problems.error(
                table.loc,
                "rulebook-table-wide",
                f"table of {len(widths)} columns is wider than the page: its longest words do not fit side by side; expected fewer columns or shorter cells",
            )
            loc = None  # each cell's words would overflow too: said once, above
        cells: list[list[Flowable]] = []
        for line in texts:
            cells.append([TextBlock(setting, text, style, loc, marks) for text, style, marks in line])
            for cell in cells[-1]:
                cell.spaceAfter = 0
        commands = [
            ("FONT", (0, 0), (-1, -1), setting.fonts.get(s.small.font).registered, s.small.size),  # never Helvetica
            ("GRID", (0, 0), (-1, -1), 0.4, s.colors["grid"]),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), pad),
            ("RIGHTPADDING", (0, 0), (-1, -1), pad),
            ("TOPPADDING", (0, 0), (-1, -1), 2.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3.5),
        ]
        if table.header:
            commands.append(("BACKGROUND", (0, 0), (-1, 0), s.colors["head"]))
        self._built = PdfTable(cells, colWidths=list(widths), repeatRows=1 if table.header else 0, style=TableStyle(commands), hAlign="LEFT")
        self._width = aw
        return self._built

    def _texts(self) -> list[list[tuple[str, TextStyle, list]]]:
        """The markup, style and marks of each cell, row by row."""
        story, table, s = self.story, self.table, self.story.styles
        rows = [table.header] + table.rows if table.header else table.rows
        columns = max((len(r) for r in rows), default=0)
        styles: dict[tuple[str, bool], TextStyle] = {}
        texts = []
        for r, row in enumerate(rows):
            line = []
            for c in range(columns):
                text, marks = story.markup(row[c] if c < len(row) else [])
                align = table.aligns[c] if c < len(table.aligns) else "left"
                bold = r == 0 and bool(table.header)
                if (align, bold) not in styles:
                    styles[align, bold] = replace(s.small, align=align, font="sans-bold" if bold else s.small.font)
                line.append((text, styles[align, bold], marks))
            texts.append(line)
        return texts

    def _widths(self, texts: list[list[tuple[str, TextStyle, list]]], aw: float) -> tuple[list[float], float, bool]:
        """The columns' widths as wide as their text needs, narrowed to `aw`; the cells'
        padding; and whether the longest words do not fit side by side (then narrower still)."""
        setting = self.story.setting
        pad = 4.0
        columns = len(texts[0]) if texts else 0
        natural = [0.0] * columns
        flush: dict[TextStyle, TextStyle] = {}  # a style set flush left: a line's width is where it ends
        measured: list[tuple[float, int, str, TextStyle]] = []  # (its width on one line, column, text, style set flush left)
        for line in texts:
            for c, (text, style, _) in enumerate(line):
                if style not in flush:
                    flush[style] = replace(style, hyphenate=False, align="left")
                measure = flush[style]
                width = line_width(setting.typeset(text, measure, BIG, None))
                natural[c] = max(natural[c], width + 2 * pad + 1)
                measured.append((width, c, text, measure))
        if math.fsum(natural) <= aw:
            return natural, pad, False
        least = self._least(measured, columns, pad)
        if math.fsum(least) <= aw:  # its longest words fit side by side
            wish = math.fsum(n - m for n, m in zip(natural, least)) or 1.0
            return [m + (aw - math.fsum(least)) * (n - m) / wish for n, m in zip(natural, least)], pad, False
        widths = [m * aw / math.fsum(least) for m in least]
        return widths, min(pad, min(widths) / 4), True

    def _least(self, measured: list[tuple[float, int, str, TextStyle]], columns: int, pad: float) -> list[float]:
        """How wide each column must be for its longest word. A cell's longest word is no
        wider than the cell on one line, so the cells are set a word a line from the widest
        on one line down, and only until one on one line is no wider than a word found."""
        widest = [0.0] * columns
        for width, c, text, measure in sorted(measured, key=lambda cell: -cell[0]):
            if width > widest[c]:
                widest[c] = max(widest[c], line_width(self.story.setting.typeset(text, measure, 1, None)))
        return [w + 2 * pad + 1 for w in widest]

    def wrap(self, aw, ah):
        self.width, self.height = self._build(aw).wrap(aw, ah)
        return self.width, self.height

    def split(self, aw, ah):
        built = self._build(aw)
        built.wrap(aw, ah)
        heights = row_heights(built)
        head = 1 if self.table.header else 0
        fit, used = 0, 0.0
        for h in heights:
            if used + h > ah:
                break
            fit, used = fit + 1, used + h
        if fit >= len(heights):
            return [self]
        at_top = at_top_of_frame(self)
        rows = min(fit, len(heights) - self.MIN_ROWS)  # two rows at least go over
        if rows - head >= self.MIN_ROWS:
            parts = built.split(aw, math.fsum(heights[:rows]) + 0.01)
        elif at_top:
            parts = built.split(aw, ah)  # it cannot do better on any page
            if not parts:  # its first row is taller than a page: platypus would give up
                return [self._too_tall(heights, ah)]
        else:
            return []  # it goes to the next page, or starts lower on this one
        if not parts:
            return []
        out = [FitTable(self.story, self.table, part) for part in parts]  # each part splits by the same rule
        for part in out:
            part.spaceBefore = part.spaceAfter = 0
        out[0].spaceBefore, out[-1].spaceAfter = self.spaceBefore, self.spaceAfter  # the space around stays around the whole
        return out

    def _too_tall(self, heights: list[float], ah: float) -> Flowable:
        """The error for a row taller than a page, at its line; nothing is set in its place."""
        table, loc = self.table, self.table.loc
        row = next(i for i, h in enumerate(heights) if h > ah)
        line = loc.line
        if line and self._width is not None:  # the whole table, not a part of one: its rows are the file's lines
            line += row + (1 if table.header and row > 0 else 0)  # past the |---| line
        self.story.setting.problems.error(
            Location(loc.file, line, 1 if line else 0),
            "rulebook-table-tall",
            "a row of the table is taller than a page; expected shorter cells",
        )
        return Spacer(1, 0)

    def draw(self):
        self._built.drawOn(self.canv, 0, 0)
