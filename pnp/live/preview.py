"""What `pnp serve` shows: the game loaded, checked and drawn in each language looked at,
as pictures of its faces and of its sheets, made again after every change of a file.

The faces are set by the edition's Renderer and drawn by the code that draws the PDFs
(png.rasterise: pdf.draw_face on a page that pdfium rasterises), so a picture shows
what prints. A picture is kept by the hash of what its face draws (manifest.face_hash): after
a save only the faces that changed are drawn again. The problems are those `pnp check`
reports for the language, each marked on the face it was found on (on the box of the
element being drawn, when there is one: a text that overflows); a card left out for
errors in its data (load_game's keep_going) is shown blank, in its place, with them. A
load that fails keeps the last good state and shows the error beside it. Nothing is written, except the sheets'
PDFs, drawn into temporary files under --out and removed at once, and the copies of the
decks' data on the web kept in --out's .pnp-cache/ as a build keeps them.

The sheets are those `pnp build` makes with the same sheet options: the command gives
them resolved as a build resolves them (the command line, PNP_* variables, the user's
config file, game.yaml's `sheet:`, the built-in defaults), when it starts.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm

from pnp.base.errors import Location, PnpError, Problem, Problems
from pnp.base.output import Output, Transaction, current_output, writing_under
from pnp.check.run import check_edition_words, check_game, rulebook_problems
from pnp.exports.raster import rasterise
from pnp.impose.sheets import SheetSpec
from pnp.layout.elements.base import turned_box
from pnp.layout.faces import Face
from pnp.layout.tuckbox_net import box_face
from pnp.live.poll import INTERVAL, DataPoll
from pnp.live.session import FoundProblems, Session
from pnp.live.watch import Changes
from pnp.load.model import Card, title_of
from pnp.pipeline.sheets import Sheets, write_unit
from pnp.plan.game import Plan, plan_game
from pnp.plan.sheets import UnitPlan
from pnp.project.edition import Edition, make_editions, resolve_languages
from pnp.project.options import BuildOptions
from pnp.project.project import Project, prepare
from pnp.write.manifest import Hashes, face_hash

DPI = 150  # the faces' pictures: sharp on a high-density screen at the card's size
SHEET_DPI = 60  # a sheet's picture: a page seen whole
KEPT_PICTURES = 3000  # faces' pictures remembered, the least recently used dropped first
POLL = 0.2  # seconds between two looks whether the preview is being closed
BOXES = ":boxes"  # the section of the tuck boxes (a deck id has no colon)

Box = tuple[float, float, float, float]  # x, y, width, height as fractions of a face, from its top left


@dataclass(frozen=True, repr=False, eq=False)
class Mark:
    """A problem shown on a face: on the box of the element that found it, else on the whole face."""

    problem: int  # its index in State.problems
    box: Box | None


@dataclass(frozen=True, repr=False, eq=False)
class Side:
    face: Face
    digest: str  # manifest.face_hash: what the picture is kept by
    marks: tuple[Mark, ...]


@dataclass(repr=False, eq=False)
class Item:
    """A card of a deck, or a tuck box, with its faces."""

    id: str
    title: str | None
    copies: int
    loc: Location
    card: Card | None  # None for a tuck box
    sides: dict[str, Side]
    problems: list[int] = field(default_factory=list)  # every problem that concerns it, by index
    left_out: bool = False  # a card with errors in its data: not drawn, shown with its problems


@dataclass(repr=False, eq=False)
class Section:
    id: str
    name: str
    items: dict[str, Item]


@dataclass(repr=False, eq=False)
class State:
    """The game in one language, checked and set."""

    edition: Edition
    sections: dict[str, Section]
    problems: list[Problem]
    units: list[tuple[str, UnitPlan]]  # each sheet PDF a build writes: its deck's name (or group's) and its plan (the preview's sheet options)
    sheets: dict[int, list[bytes]] = field(default_factory=dict)  # unit index -> its pages' pictures, drawn when asked

    def item(self, section: str, item: str) -> Item | None:
        found = self.sections.get(section)
        return found.items.get(item) if found else None


class _FaceSetter:
    """Sets the faces of one edition, collecting the problems in the order `pnp check` does;
    a face whose inputs did not change since the last pass is the one set then (the
    watcher's way of keeping faces: live/session.py)."""

    def __init__(self, edition: Edition, common: Problems, kept: Session):
        self.edition = edition
        self.renderer = kept.renderer(edition, edition.renderer())
        self.kept = kept
        self.problems: list[Problem] = []
        self.index: dict[Problem, int] = {}
        self.symbols = edition.project.symbols
        self.hashes = Hashes()  # what the faces' hashes share in this pass (manifest.face_hash)
        self.add(common.items)
        self.add(check_edition_words(edition).items)  # the translation and pnp's own words in its language, as pnp check

    def add(self, problems: list[Problem]) -> list[int]:
        numbers = []
        for problem in problems:
            if problem not in self.index:
                self.index[problem] = len(self.problems)
                self.problems.append(problem)
            numbers.append(self.index[problem])
        return numbers

    def card_side(self, card: Card, layout, side: str) -> Side:
        parts: list = []
        found = FoundProblems(parts)
        face = self.renderer.face(card, layout, side, found, parts)
        marks = []
        for drawn, number in zip(found.found_at, self.add(found.items)):
            element = parts[drawn][0] if drawn < len(parts) else None
            box = getattr(element, "box", None)
            shape = (layout.width, layout.height)
            marks.append(Mark(number, _fraction(turned_box(element, box, shape), shape) if box is not None and len(box) == 4 else None))
        digest = self.kept.face_hash(self.edition.lang, card.deck, card.id, side, face, partial(face_hash, face, self.symbols, self.hashes))
        return Side(face, digest if isinstance(digest, str) else digest(), tuple(marks))

    def box_side(self, box) -> Side:
        found = Problems()
        face = box_face(self.renderer, box, found)
        return Side(face, face_hash(face, self.symbols, self.hashes), tuple(Mark(n, None) for n in self.add(found.items)))


def _fraction(box: tuple, size: tuple[float, float]) -> Box:
    x, y, w, h = box
    return (x / size[0], y / size[1], w / size[0], h / size[1])


def set_edition(edition: Edition, common: Problems, plan: Plan, kept: Session) -> State:
    """Every face of the edition set, and every problem `pnp check` reports for its
    language (check.check_all), each tied to the card or box it concerns; its sheet PDFs
    as `plan` puts them on paper."""
    project, setter = edition.project, _FaceSetter(edition, common, kept)
    sections: dict[str, Section] = {}
    for deck_id in project.layouts:
        deck = edition.game.decks[deck_id]
        items = {}
        for index, card in enumerate(deck.cards):
            front, back = project.card_layouts(deck_id, index)
            sides = {"front": setter.card_side(card, front, "front")}
            if back is not None:
                sides["back"] = setter.card_side(card, back, "back")
            items[card.id] = Item(card.id, title_of(card.fields), card.copies, card.loc, card, sides)
        held = [card for card in project.game.left_out if card.deck == deck_id]
        for card in held:  # in the deck where its data is, outlined with the errors that left it out
            items.setdefault(card.id, Item(card.id, title_of(card.fields), card.copies, card.loc, card, {}, left_out=True))
        if held:
            items = dict(sorted(items.items(), key=lambda kv: (kv[1].loc.file, kv[1].loc.line)))  # in the order of the data file
        sections[deck_id] = Section(deck_id, deck.name, items)
    boxes = {
        box.id: Item(box.id, f"{edition.game.decks[box.deck].name} (tuck box)", 1, box.loc, None, {"net": setter.box_side(box)})
        for box in project.tuckboxes.values()
    }
    if boxes:
        sections[BOXES] = Section(BOXES, "Tuck boxes", boxes)
    setter.add(rulebook_problems(edition).items)
    _tie(sections, setter.problems)
    units = [(unit.unit[0] or edition.game.decks[unit.decks[0]].name, unit) for unit in plan.units]
    return State(edition, sections, setter.problems, units)


def _tie(sections: dict[str, Section], problems: list[Problem]) -> None:
    """Each problem to the items it concerns: found on one of their faces, or located in
    their data (a card's line or one of its fields' lines)."""
    at = _lines(sections)
    for section in sections.values():
        for item in section.items.values():
            item.problems = sorted({mark.problem for side in item.sides.values() for mark in side.marks})
    for number, problem in enumerate(problems):
        item = at.get((problem.location.file, problem.location.line)) if problem.location.line else None
        if item is not None and number not in item.problems:
            item.problems = sorted([*item.problems, number])


def _lines(sections: dict[str, Section]) -> dict[tuple[str, int], Item]:
    """The item whose data is at each file and line: a card's line, its fields' lines."""
    at: dict[tuple[str, int], Item] = {}
    for section in sections.values():
        for item in section.items.values():
            for loc in [item.loc, *(item.card.field_locs.values() if item.card else ())]:
                at.setdefault((loc.file, loc.line), item)
    return at


def owner(state: State, problem: Problem) -> str | None:
    """`section/item` of the item whose data `problem` is located in (a failed load's
    error, on the last good pictures), or None."""
    if not problem.location.line:
        return None
    for section in state.sections.values():
        found = _lines({section.id: section}).get((problem.location.file, problem.location.line))
        if found is not None:
            return f"{section.id}/{found.id}"
    return None


class Preview:
    """The state of one game folder, kept up to date, in the languages asked for so far.

    Readers take `states` as it is (a new dict replaces it after a rebuild); setting faces
    and drawing pictures take turns, because pdfium and reportlab's font registry are
    shared by every thread."""

    def __init__(self, folder: Path, out: Path, lang: str | None = None, sheet: SheetSpec | None = None, poll: float = INTERVAL):
        self.folder = folder
        self.out = out
        self.first_lang = lang
        self.options = BuildOptions(out=out) if sheet is None else BuildOptions(sheet=sheet, out=out)  # the build whose sheets are shown
        self.poll = poll  # seconds between two looks at the decks' data on the web (0: never)
        self.project: Project | None = None
        self.common = Problems()  # the language-independent problems of the last good load
        self.plan: Plan | None = None  # how the last good load's sheet PDFs go on paper (with `options.sheet`)
        self.languages: list[str] = []
        self.states: dict[str, State] = {}
        self.error: list[Problem] = []  # why the last load failed; the states are the last good ones
        self.generation = 0  # raised after every rebuild
        self.stop = threading.Event()
        self._changed = threading.Condition()
        self._work = threading.RLock()
        self._drawing = 0  # sheet PDFs being drawn into temporary files under --out
        self._drawn = threading.Condition()  # notified when one is done and its file removed
        self._pictures: OrderedDict[str, bytes] = OrderedDict()
        self._kept = Session(folder, [out])  # the faces set and the data files read, as the watcher keeps them: a save sets again only what it reaches

    @property
    def default_lang(self) -> str:
        return self.first_lang if self.first_lang in self.languages else self.languages[0] if self.languages else ""

    def refresh(self, internal: Callable[[Exception], list[Problem]] | None = None) -> None:
        """Load, check and set the game again in every language looked at so far; when it
        cannot be loaded, keep what was there and say why. `internal` turns a bug in pnp
        into problems to show (the server must keep going)."""
        with self._work:
            try:
                with self._kept.reading():
                    project = prepare(self.folder, keep_going=True)  # a card with errors or a layout's mistake is a problem to show, not a failed load
                self._kept.start(project, self.options)
                plan = plan_game(project, self.options.sheet)
                common = check_game(project, plan)
                languages = resolve_languages(project.game, ["all"])
                wanted = [lang for lang in languages if lang in self.states or lang == self.first_lang] or [languages[0]]
                states = {edition.lang: set_edition(edition, common, plan, self._kept) for edition in make_editions(project, wanted)}
                self._kept.faces_pass()
            except PnpError as err:
                self.error = list(err.problems.items)
            except Exception as exc:  # noqa: BLE001 - shown on the page, the last good pictures kept
                if internal is None:
                    raise
                self.error = internal(exc)
            else:
                self.project, self.common, self.plan, self.languages, self.states, self.error = project, common, plan, languages, states, []
        with self._changed:
            self.generation += 1
            self._changed.notify_all()

    def state(self, lang: str) -> State | None:
        """The game in `lang` (set now if it was not looked at before); None for a language the game does not have."""
        found = self.states.get(lang)
        if found is not None or lang not in self.languages:
            return found
        with self._work:
            if lang not in self.states and self.project is not None and self.plan is not None:
                (edition,) = make_editions(self.project, [lang])
                self.states = {**self.states, lang: set_edition(edition, self.common, self.plan, self._kept)}
            return self.states.get(lang)

    def wait(self, seen: int, timeout: float) -> int:
        """The generation, once it is past `seen`, the timeout has passed or the preview stops."""
        with self._changed:
            self._changed.wait_for(lambda: self.generation != seen or self.stop.is_set(), timeout)
            return self.generation

    def close(self) -> None:
        """Stop, once no sheet PDF is being drawn: a drawing stopped by a signal ends at its
        next page and removes its temporary file, so nothing is left under --out."""
        with self._drawn:
            self.stop.set()
            self._drawn.wait_for(lambda: self._drawing == 0)
        with self._changed:
            self._changed.notify_all()

    def follow(self, internal: Callable[[Exception], list[Problem]]) -> threading.Thread:
        """Rebuild after every change of a file of the game (the output folder left out), and
        whenever a deck's data on the web changed (live/poll.py), in a thread of its own,
        until the preview stops. The folder is looked at now, so a change made from here
        on is seen. The thread writes under the command's output folder (the copies of data
        on the web), as the first load did."""
        watcher = Changes(self.folder, [self.out])
        data = DataPoll(self._kept.fetched, self.poll)
        output = current_output()

        def run() -> None:
            try:
                with writing_under(output):
                    while not self.stop.is_set():
                        left = data.left()
                        if watcher.wait(POLL if left is None else min(POLL, left)) or data.changed():
                            self.refresh(internal)
            finally:
                watcher.close()

        thread = threading.Thread(target=run, name="pnp-serve-watch", daemon=True)
        thread.start()
        return thread

    def picture(self, state: State, side: Side) -> bytes:
        """A face as a PNG at DPI, drawn once per content."""
        with self._work:
            found = self._pictures.get(side.digest)
            if found is None:
                font = state.edition.project.fonts.get("sans").registered
                found = self._pictures[side.digest] = _png(rasterise(side.face, state.edition.project.symbols, DPI, 0.0, font))
                while len(self._pictures) > KEPT_PICTURES:
                    self._pictures.popitem(last=False)
            else:
                self._pictures.move_to_end(side.digest)
            return found

    def sheets(self, state: State, unit: int) -> list[bytes]:
        """The pages of one sheet PDF as a build imposes them (`options.sheet`), as PNGs; drawn
        when first asked, into a temporary file under --out that is removed at once."""
        found = state.sheets.get(unit)
        if found is not None:
            return found
        with self._work:
            with self._drawn:
                if self.stop.is_set():  # stopping: no new temporary file
                    return []
                self._drawing += 1
            txn = Transaction(Output(self.out))
            try:
                sheets = Sheets(state.edition, state.edition.renderer(), self.options, None, Problems(), txn)
                write_unit(sheets, state.units[unit][1])
                pdfs = [tmp.read_bytes() for tmp, target in txn.pending if target.suffix == ".pdf"]
            finally:
                txn.abort()
                with self._drawn:
                    self._drawing -= 1
                    self._drawn.notify_all()
            pages = _pages(pdfs[0], SHEET_DPI) if pdfs else []
        state.sheets[unit] = pages
        return pages


def _png(image: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=1)  # drawn for a screen now: speed over size
    return buffer.getvalue()


def _pages(pdf: bytes, dpi: int) -> list[bytes]:
    import pypdfium2 as pdfium  # only when sheets are looked at

    document = pdfium.PdfDocument(pdf)
    try:
        return [_png(page.render(scale=dpi / 72).to_pil().convert("RGB")) for page in document]
    finally:
        document.close()


def face_size_mm(face: Face) -> tuple[float, float]:
    return face.width / mm, face.height / mm
