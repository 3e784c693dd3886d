"""Stage 5, write: draw imposed pages into a PDF, atomically and reproducibly.

The file is written to a temporary name beside its target and moved into place only when
complete, so a failed or killed build never leaves a half-written PDF and never destroys
the last good one. `invariant=1` and a fixed date make the same input give the same bytes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from reportlab.lib.colors import Color, black, white
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.i18n.own import Words
from pnp.impose.sheets import MARK_WIDTH, Bleed, Box, Cut, FoldLine, Grid, Page, Registration, SharedSheets
from pnp.layout.faces import Face, once_per_object
from pnp.pdf.canvas import StreamingCanvas, draw_string, end_form
from pnp.write.drawing import contents, draw_face, enter_box, symbol_order, symbols_of

CUT_GREY = Color(0.3, 0.3, 0.3)  # cut lines of round and hex components: seen, not loud


@dataclass(repr=False, eq=False)
class DocInfo:
    """What a sheet PDF says about itself: title, author, subject, the font it starts with, and how to print it duplex."""

    title: str
    author: str
    subject: str
    initial_font: str  # a registered embedded font, so no Helvetica is referenced
    flip: str | None = None  # "long" or "short": the PDF asks viewers to print duplex, turned over that edge


DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}  # the PDF's names for the flips


def subject(words: Words, count: str, paper: str, sides: str, flip: str | None = None) -> str:
    """A sheet PDF's subject in `words`' language: what it holds (`count`, already in
    words; "" for a sheet that holds no components), the paper, how its sheets are printed
    (`sides`: 'duplex', 'fronts', 'backs', 'folded' or 'one-sided') and, for duplex, the
    edge to `flip` the paper over."""
    parts = [part for part in (count, paper, words(f"meta.sides.{sides}")) if part]
    return ", ".join(parts + [words(f"meta.flip.{flip}")] if flip else parts)


def ruler_caption(what: str, words: Words, sheets: int = 0) -> Callable[[Page, int], str]:
    """The caption under the calibration ruler, in `words`' language: how to print, and
    what the sheet is (with its number and side when the PDF has `sheets` sheets)."""

    def caption(page: Page, length: int) -> str:
        how = words("ruler", length=length)
        if page.sheet == 0:  # the ruler's page of its own: no sheet's margin had room for it
            return f"{how}\n{words('ruler.alone', what=what)}"
        where = f" · {words(f'sheet.{page.side}', sheet=page.sheet, sheets=sheets)}" if sheets else ""
        return f"{how}\n{what}{where}"

    return caption


class Writing:
    """How the faces and pages of one PDF get into it: drawn, every one (a cold build).

    The writer hands each face and page to its Writing with what drawing it would write
    from (the face objects, the page's inputs, the drawer's state) and how to draw it; the
    watcher's (pnp/live/kept_code.py) writes again what its last build of the PDF wrote
    where that is exactly what drawing it would write now, and draws the rest."""

    def begin(self, canvas: Canvas, forms: Forms) -> None:
        """A PDF starts on `canvas`, drawn with `forms`."""

    def face(self, canvas: Canvas, key: tuple, face: Face, draw: Callable[[], None], texts: Callable[[], dict[str, str]]) -> None:
        """Write `face` (its box entered): `draw()` draws it; `texts()` the characters it sets, by font."""
        draw()

    def page(
        self,
        canvas: Canvas,
        forms: Forms,
        key: tuple,
        faces: tuple[Face, ...],
        inputs: tuple,
        draw: Callable[[], None],
        again: Callable[[], None],
        texts: Callable[[], dict[str, str]],
    ) -> None:
        """Write a page of `faces` placed as `inputs` say: `draw()` draws it; `again()` sets
        what a page written again without drawing still needs (its boxes)."""
        draw()


DRAWN = Writing()  # every face and page drawn


def new_canvas(path: Path, page_size: tuple[float, float], info: DocInfo) -> Canvas:
    canvas = StreamingCanvas(path, pagesize=page_size, invariant=1, initialFontName=info.initial_font, pageCompression=1)
    canvas.setTitle(info.title)
    canvas.setAuthor(info.author)
    canvas.setSubject(info.subject)
    canvas.setCreator("pnp")
    canvas.setProducer("pnp (reportlab)")
    canvas.setViewerPreference("PrintScaling", "None")
    if info.flip:
        canvas.setViewerPreference("Duplex", DUPLEX[info.flip])
    return canvas


class _Key:
    """A key of Forms' table of faces, hashed once: a face's operations are deep, and the
    watcher copies the table at every page (Forms.state)."""

    __slots__ = ("hash", "parts")

    def __init__(self, *parts: object):
        self.parts = parts
        self.hash = hash(parts)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and self.hash == other.hash and (self.parts is other.parts or self.parts == other.parts)


class Forms:
    """What repeats in one PDF, drawn once as a PDF form and placed where it repeats: a
    face drawn more than once (a deck's back, the copies of a card), the crop marks of a
    page layout, the ruler's scale.

    A face is known by what it draws (its size, operations and bleed), never by its name.
    The first time a face is met it is drawn as it is; met again among the `recent` faces,
    it becomes a form, so a face drawn once costs nothing extra. A face drawn as it is
    starts with a form of the operations it begins with in common with the face drawn as
    it is before it (the frame and art every card of a deck shares), made when they first
    repeat. Both tables are bounded: memory stays flat however long the deck (a face
    pushed out is drawn anew, correctly)."""

    def __init__(self, canvas: Canvas, symbols, recent: int = 64, writing: Writing = DRAWN):
        self.canvas = canvas
        self.symbols = symbols
        self.writing = writing
        self.recent = recent
        self._faces: OrderedDict[_Key, str | None] = OrderedDict()  # face key -> its form, None: seen once
        self._other: dict[tuple, str] = {}  # marks and rulers: one per page layout, few
        self._count = 0
        self._last: tuple[Face, float] | None = None  # the last face drawn as it is, with its bleed
        self._keys: dict[int, tuple[tuple, tuple[float, float, float], _Key]] = {}  # a face's key by its operations, size and bleed (once_per_object)

    def state(self) -> tuple:
        """All that what these tables draw next depends on (a page drawn from the same
        state draws the same), as compact as it can be: a Writing that writes pages again
        keeps one for every page."""
        return tuple(self._faces), tuple(self._faces.values()), self._last, self._count, tuple(self._other.items())

    def restore(self, state: tuple) -> None:
        """The state a page left them in, when it is written again instead of drawn."""
        keys, names, self._last, self._count, other = state
        self._faces = OrderedDict(zip(keys, names))
        self._other = dict(other)

    def _name(self, kind: str) -> str:
        self._count += 1
        return f"pnp{kind}{self._count}"

    def face(self, face: Face, x: float, y: float, bleed: Bleed, turned: bool = False) -> None:
        """Draw `face` as draw_face does, from its form when it repeats (a form holds the
        face to its widest bleed; the clip on the page keeps each side's own)."""
        reach = max(bleed) if isinstance(bleed, tuple) else bleed
        key = self._key(face, reach)
        name = self._faces.get(key, "")
        if name == "":  # never seen (or forgotten): drawn as it is
            draw_face(self.canvas, face, x, y, bleed, self.symbols, turned, self._lead(face, reach), self.writing)
            self._remember(key, None)
            return
        if name is None:
            name = self._define_face(face, reach)
            self._remember(key, name)
        else:
            self._faces.move_to_end(key)
        enter_box(self.canvas, face, x, y, bleed, turned)  # the form's bounding box clips too; the clip marks the card's place on the page
        self.canvas.doForm(name)
        self.canvas.restoreState()

    def _key(self, face: Face, bleed: float) -> _Key:
        """The face's key, made once for faces that share their operations (renderer.py: a
        deck's back): the last few are kept by the id of their operations."""
        return once_per_object(self._keys, face.ops, lambda ops: _Key(face.width, face.height, bleed, ops), (face.width, face.height, bleed))

    def _lead(self, face: Face, bleed: float) -> tuple[str, int] | None:
        """The form of the operations `face` begins with in common with the last face drawn
        as it is (of the same size and bleed), and how many; None when they share none."""
        last, self._last = self._last, (face, bleed)
        if last is None or (last[0].width, last[0].height, last[1]) != (face.width, face.height, bleed):
            return None
        ops, before = face.ops, last[0].ops
        count = 0
        while count < min(len(ops), len(before)) - 1 and (ops[count] is before[count] or ops[count] == before[count]):
            count += 1  # never the whole face: that repeats as the face's own form
        if not count:
            return None
        key = _Key("lead", face.width, face.height, bleed, ops[:count])
        name = self._faces.get(key)
        if name is None:
            name = self._define_face(Face(face.name, face.width, face.height, ops[:count]), bleed)
            self._remember(key, name)
        else:
            self._faces.move_to_end(key)
        return name, count

    def _remember(self, key: _Key, name: str | None) -> None:
        self._faces[key] = name
        self._faces.move_to_end(key)
        if len(self._faces) > self.recent:
            self._faces.popitem(last=False)

    def _define_face(self, face: Face, bleed: float) -> str:
        for sid in sorted(symbols_of(face), key=symbol_order):  # a form cannot be defined inside another one
            if isinstance(sid, tuple) and len(sid) > 2:  # tinted with a gradient, where it is placed
                self.symbols.form(self.canvas, sid[0], sid[1], self.symbols.placement(sid[0], *sid[2:]))
            elif isinstance(sid, tuple):  # tinted
                self.symbols.form(self.canvas, *sid)
            else:
                self.symbols.form(self.canvas, sid)
        name = self._name("face")
        self.canvas.beginForm(name, lowerx=-bleed, lowery=-bleed, upperx=face.width + bleed, uppery=face.height + bleed)
        draw_face(self.canvas, face, 0, 0, bleed, self.symbols)
        end_form(self.canvas)
        return name

    def marks(self, marks: tuple[tuple[float, float, float, float], ...]) -> None:
        """Crop marks (draw_marks), one form per distinct set."""
        if not marks:
            return
        name = self._other.get(("marks", marks))
        if name is None:
            name = self._other[("marks", marks)] = self._name("marks")
            xs, ys = [v for m in marks for v in m[::2]], [v for m in marks for v in m[1::2]]
            self.canvas.beginForm(name, lowerx=min(xs) - 1, lowery=min(ys) - 1, upperx=max(xs) + 1, uppery=max(ys) + 1)
            draw_marks(self.canvas, marks)
            end_form(self.canvas)
        self.canvas.doForm(name)

    def scale(self, length: float, compact: bool) -> str:
        """The ruler's line and ticks (draw_ruler), one form per length."""
        key = ("scale", length, compact)
        name = self._other.get(key)
        if name is None:
            name = self._other[key] = self._name("scale")
            self.canvas.beginForm(name, lowerx=-1, lowery=-1, upperx=length + 1, uppery=4 * mm)
            _draw_scale(self.canvas, length, compact)
            end_form(self.canvas)
        return name


def draw_marks(canvas: Canvas, marks) -> None:
    """Crop marks: hairlines (x1, y1, x2, y2), leaving out those too short to see."""
    canvas.setStrokeColor(black)
    canvas.setLineWidth(MARK_WIDTH)
    canvas.setDash([])
    for x1, y1, x2, y2 in marks:
        if abs(x2 - x1) > 0.5 or abs(y2 - y1) > 0.5:
            canvas.line(x1, y1, x2, y2)


def draw_outlines(canvas: Canvas, cuts: Iterable[Cut]) -> None:
    """The outline of each round or hex component, to cut along with scissors or a punch:
    a grey hairline (on sheets, on the pieces of a split component and on its assembly
    page alike)."""
    cuts = tuple(cuts)
    if not cuts:
        return
    canvas.setStrokeColor(CUT_GREY)
    canvas.setLineWidth(MARK_WIDTH)
    canvas.setDash([])
    for cut in cuts:
        canvas.drawPath(outline_path(canvas, cut), stroke=1, fill=0)


def outline_path(canvas: Canvas, cut: Cut):
    """The path of a component's outline: an ellipse, a (rounded) rectangle or a hexagon;
    what the sheet's cut lines draw and what a picture of the component is clipped to."""
    path = canvas.beginPath()
    if cut.shape == "round":
        path.ellipse(cut.x, cut.y, cut.w, cut.h)
    elif cut.shape == "rect" and cut.radius:
        path.roundRect(cut.x, cut.y, cut.w, cut.h, cut.radius)
    elif cut.shape == "rect":  # on shared sheets, where crop marks would cross other sizes
        path.rect(cut.x, cut.y, cut.w, cut.h)
    else:
        (x0, y0), *rest = cut.points()
        path.moveTo(x0, y0)
        for x, y in rest:
            path.lineTo(x, y)
        path.close()
    return path


def draw_registration(canvas: Canvas, reg: Registration | None) -> None:
    """A cutting machine's registration marks: solid black, as its sensor expects."""
    if reg is None:
        return
    canvas.setFillColor(black)
    for left, bottom, right, top in reg.bars:
        canvas.rect(left, bottom, right - left, top - bottom, stroke=0, fill=1)


FOLD_DASH = (4, 3)


def draw_fold(canvas: Canvas, fold: FoldLine | None, font: str, word: str) -> None:
    """The fold line: solid within the printer margin (a mark, like the crop marks),
    dashed across the page between, and the `word` "fold" (in the build's language)
    beside the art at both ends."""
    if fold is None:
        return
    x1, y1, x2, y2 = fold.line
    m = fold.margin
    canvas.setStrokeColor(black)
    canvas.setLineWidth(MARK_WIDTH)
    canvas.setDash([])
    if x1 == x2:  # vertical
        canvas.line(x1, y1, x1, y1 + m)
        canvas.line(x1, y2 - m, x1, y2)
        canvas.setDash(list(FOLD_DASH))
        canvas.line(x1, y1 + m, x1, y2 - m)
    else:
        canvas.line(x1, y1, x1 + m, y1)
        canvas.line(x2 - m, y1, x2, y1)
        canvas.setDash(list(FOLD_DASH))
        canvas.line(x1 + m, y1, x2 - m, y1)
    canvas.setDash([])
    size = 6.0
    for x, y, angle in fold.labels:
        canvas.saveState()
        canvas.translate(x, y)
        canvas.rotate(angle)
        width = canvas.stringWidth(word, font, size) + 2
        canvas.setFillColor(white)
        canvas.rect(-width / 2, -size * 0.5, width, size, stroke=0, fill=1)  # the dashes stop for the word
        canvas.setFillColor(black)
        canvas.setFont(font, size)
        canvas.drawCentredString(0, -size * 0.35, word)
        canvas.restoreState()


def page_boxes(page: Page, sizes: list[tuple[float, float]], bleed: float) -> tuple[Box, Box] | None:
    """The TrimBox and BleedBox a page of components declares: the union of their trims,
    and of their art with its bleed (`bleed`, or a placement's own); None for a page
    without components."""
    if not page.placements:
        return None
    trims = [(p.x, p.y, p.x + w, p.y + h) for p, (w, h) in zip(page.placements, sizes)]
    trim = (min(t[0] for t in trims), min(t[1] for t in trims), max(t[2] for t in trims), max(t[3] for t in trims))
    if all(p.bleed is None for p in page.placements):
        return trim, (trim[0] - bleed, trim[1] - bleed, trim[2] + bleed, trim[3] + bleed)
    arts = [_art(t, bleed if p.bleed is None else p.bleed) for p, t in zip(page.placements, trims)]
    return trim, (min(a[0] for a in arts), min(a[1] for a in arts), max(a[2] for a in arts), max(a[3] for a in arts))


def _art(trim: Box, bleed: Bleed) -> Box:
    """A trim box grown by its bleed."""
    left, bottom, right, top = bleed if isinstance(bleed, tuple) else (bleed,) * 4
    return trim[0] - left, trim[1] - bottom, trim[2] + right, trim[3] + top


def set_boxes(canvas: Canvas, boxes: tuple[Box, Box] | None) -> None:
    """Declare the page's TrimBox and BleedBox (reportlab writes them at showPage and
    keeps them for later pages: a page without boxes clears them)."""
    canvas.setTrimBox(boxes[0] if boxes else None)
    canvas.setBleedBox(boxes[1] if boxes else None)


def draw_ruler(canvas: Canvas, page: Page, caption: Callable[[Page, int], str], font: str, forms: Forms | None = None) -> None:
    """A millimetre ruler with a caption: measure it to check the print is at 100 %. A
    compact one (narrow margins) has shorter ticks and only the caption's first line.
    With `forms`, its scale is a form drawn once per PDF."""
    if page.ruler is None:
        return
    x, y, length, vertical, compact = page.ruler
    canvas.saveState()
    canvas.translate(x, y)
    if vertical:
        canvas.rotate(90)
    if forms is None:
        _draw_scale(canvas, length, compact)
    else:
        canvas.doForm(forms.scale(length, compact))
    canvas.setFillColor(black)
    lines = caption(page, round(length / mm)).split("\n")[: 1 if compact else None]
    widest = max(canvas.stringWidth(line, font, 1) for line in lines)
    size = min(5.0 if compact else 6.0, length / widest)  # the caption never runs past the ruler into a crop mark
    canvas.setFont(font, size)
    for i, line in enumerate(lines):
        draw_string(canvas, 0, -(2.0 if compact else 2.4) * mm - i * size * 1.15, line)
    canvas.restoreState()


def _draw_scale(canvas: Canvas, length: float, compact: bool) -> None:
    """The ruler's line and millimetre ticks, from 0, 0 along x."""
    canvas.setStrokeColor(black)
    canvas.setLineWidth(0.5)
    canvas.line(0, 0, length, 0)
    steps = round(length / mm)
    ticks = (2.5 * mm, 1.5 * mm, 0.8 * mm) if compact else (3 * mm, 2 * mm, 1 * mm)
    for i in range(steps + 1):
        tick = ticks[0] if i % 10 == 0 else ticks[1] if i % 5 == 0 else ticks[2]
        canvas.line(i * mm, 0, i * mm, tick)


def _draw_page(canvas: Canvas, forms: Forms, page: Page, faces: tuple[Face, ...], boxes, bleed: float, caption, font: str, fold: str) -> None:
    for placement, face in zip(page.placements, faces):
        forms.face(face, placement.x, placement.y, bleed if placement.bleed is None else placement.bleed, placement.turned)
    set_boxes(canvas, boxes)
    forms.marks(page.marks)
    draw_outlines(canvas, page.cuts)
    draw_registration(canvas, page.registration)
    draw_fold(canvas, page.fold, font, fold)
    draw_ruler(canvas, page, caption, font, forms)


def _caption(page: Page, caption: Callable[[Page, int], str]) -> str:
    return caption(page, round(page.ruler[2] / mm)) if page.ruler is not None else ""


def _page_texts(page: Page, faces: tuple[Face, ...], caption: str, font: str, fold: str) -> dict[str, str]:
    """The characters a sheet's page sets in each font: its faces', its ruler's caption, its fold's word."""
    found: dict[str, set[str]] = {font: set(caption) | (set(fold) if page.fold is not None else set())}
    for face in faces:
        contents(face.ops, found, set())
    return {name: "".join(sorted(chars)) for name, chars in found.items() if chars}


def write_sheets(
    target: Path,
    pages: Iterable[Page],
    grid: Grid | SharedSheets,
    info: DocInfo,
    face_of: Callable[[str, int], Face],
    symbols,
    caption: Callable[[Page, int], str],
    bleed: float,
    words: Words,
    writing: Writing = DRAWN,
) -> int:
    """Draw every page into `target` (a temporary file of the build); returns the page count.
    `face_of(side, item)` gives the face of a component's front or back; `words`: pnp's
    own words in the build's language (the fold's); `writing`: how faces and pages get
    into the PDF (drawn, unless the watcher's writes them again)."""
    fold = words("fold")
    count = 0
    canvas = new_canvas(target, (grid.page_w, grid.page_h), info)
    forms = Forms(canvas, symbols, writing=writing)
    writing.begin(canvas, forms)
    try:
        for number, page in enumerate(pages):
            faces = tuple(face_of("back" if placement.back else page.side, placement.item) for placement in page.placements)
            boxes = page_boxes(page, [(face.width, face.height) for face in faces], bleed)
            text = _caption(page, caption)
            writing.page(
                canvas,
                forms,
                ("page", number),
                faces,
                (page, boxes, text, fold),
                partial(_draw_page, canvas, forms, page, faces, boxes, bleed, caption, info.initial_font, fold),
                partial(set_boxes, canvas, boxes),
                partial(_page_texts, page, faces, text, info.initial_font, fold),
            )
            canvas.showPage()  # the page is written to the file here
            count += 1
        canvas.save()
    finally:
        canvas.close()
    return count
