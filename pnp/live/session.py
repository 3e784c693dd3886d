"""What `pnp build --watch` keeps between builds, so a save redoes only what it reaches.

Every build still loads and checks the whole game (a mistake anywhere is reported, and
what the check needs is cheap), though a deck's data file is read again only where a save
changed it (live/kept_data.py, `Session.data`); what is kept is the expensive part, the faces and the
PDFs, and what the faces and pages of each PDF wrote (live/kept_code.py: a PDF written
again draws only the pages a save reached). Each is kept with a digest of what
determined it, compared by content, never by objects a build makes anew (a kept face
is found by its deck and card id and the card's digest, without unpacking the card):

- the game folder's files, split by what reads them: layout files (a layout's digest is
  its file's and its parents'), each language's catalogue (LANG.po, only that language
  reads it), the decks' data files (their cards are compared one by one instead) and the
  rulebooks' Markdown (no face reads it); every other file (game.yaml, rules, symbols,
  fonts, images, ...) is the `common` digest that everything depends on;
- a face: the common digest, its language's catalogue, its layout, its card as loaded
  (values and places), and the digests of the decks its templates read, recorded while
  it was set (expressions.Decks.read): a card that counts the cards of another deck is set
  again when that deck changes;
- a PDF (one deck or group in one language): the same for all its faces, the options and
  the decks read; when they are equal and the file is still there it is not written, so
  its time and bytes stay;
- the rulebooks: set again when any file of the game folder changed in content since they
  were last set with the same options (they read the data, the catalogues, their Markdown
  and, for the cards they show, the layouts); skipped when nothing did, as when an editor
  saves a file unchanged. A rulebook set again to the bytes it had is not written (its
  time stays) and counts as unchanged.

Nothing is recorded from a build that fails, so the next one compares with the last that
was written.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import IO, Any

from pnp.base.errors import Problem, Problems
from pnp.base.output import Transaction, Written
from pnp.base.versions import per_version
from pnp.i18n.catalogues import locale_dir
from pnp.layout.elements.base import Layout
from pnp.layout.faces import Face
from pnp.live.kept_code import KeptCode
from pnp.live.kept_data import keeping
from pnp.live.poll import INTERVAL, DataPoll
from pnp.live.watch import MAX_FILES, Changes, Skipped, snapshot, watch
from pnp.load.model import Card, Game
from pnp.load.packed import PackedCards
from pnp.load.remote import recording
from pnp.pipeline.reuse import Reuse
from pnp.pipeline.sheets import Sheets
from pnp.project.edition import Edition
from pnp.project.options import BuildOptions
from pnp.project.project import Project
from pnp.rulebook.settled import SettledPages
from pnp.templates.expressions import Decks
from pnp.write.manifest import Drawn


def _digest(*parts: bytes | str) -> bytes:
    return _hasher(*parts).digest()


def _hasher(*parts: bytes | str) -> Any:
    """A hash of the parts, each preceded by its length (so no two lists of parts give the same bytes), that more can be added to."""
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h


@per_version(maxsize=MAX_FILES)  # as many as a snapshot holds: a folder's files are all kept
def _file_digest(path: Path) -> bytes:
    """The digest of a file's bytes, read once per version of the file: a save reads
    again only the files it changed."""
    return _digest(path.read_bytes())


def _card_digest(card: Card) -> bytes:
    return _digest(pickle.dumps((card.id, card.type, card.deck, card.fields, card.copies, card.loc, card.field_locs), protocol=5))


def _cards(cards: Any) -> Iterable[tuple[str, bytes]]:
    """Each card's id and digest; a packed deck's without unpacking the cards' values."""
    if isinstance(cards, PackedCards):
        for index in range(len(cards)):
            yield cards.card_id(index), _digest(cards.file or "", cards.raw(index))
    else:
        for card in cards:
            yield card.id, _card_digest(card)


@dataclass(repr=False, eq=False)
class _Face:
    """A face set in an earlier build, with what it was set from."""

    key: tuple[bytes, bytes]  # _KeptFaces._key
    reads: dict[str, bytes]  # deck id -> its digest, for the decks the face's templates read
    face: Face
    problems: list[Problem]
    hash: str | None = None  # manifest.face_hash, for the manifest
    parts: list | None = None  # (element, its operations) as drawn, when asked for (the preview's marks)
    found_at: tuple[int, ...] = ()  # with `parts`: for each problem, how many elements were drawn before it was found

    def hashed(self, make: Any) -> str:
        """The face's hash for the manifest, made by `make` the first time."""
        if self.hash is None:
            self.hash = make()
        return self.hash


@dataclass(repr=False, eq=False)
class _File:
    """A PDF written by an earlier build and what the build learnt drawing it."""

    lang: str
    key: bytes
    reads: dict[str, bytes]
    drawn: Drawn  # the manifest's entries of its faces
    problems: list[Problem]
    faces: frozenset[tuple[str, str, str]]  # its faces, as (deck, card id, side): those are kept (Session._faces)


@dataclass(repr=False, eq=False)
class Language:
    """What one build compares in one language."""

    lang: str
    base: bytes  # the common digest with the language's catalogue and the options
    decks: dict[str, bytes]  # deck id -> digest of its cards, in this language
    cards: dict[tuple[str, str], bytes]  # (deck id, card id) -> the card's digest

    def current(self, reads: dict[str, bytes]) -> bool:
        return all(self.decks.get(deck) == digest for deck, digest in reads.items())


@dataclass(repr=False, eq=False)
class _Drawing:
    """What the PDF being drawn has set so far."""

    decks: Decks
    fresh: set[tuple[str, str]] = field(default_factory=set)  # (deck, card) set again, not kept


class Session(Reuse):
    """Kept by the watcher across the builds of one game folder (`ignore`: --out): what
    a build may reuse (pipeline.reuse), answered from what the builds before it kept."""

    workers = False  # what is kept lives in this process: decks are drawn here

    def __init__(self, folder: Path, ignore: list[Path] | None = None):
        self.folder = folder
        self.ignore = ignore or []
        self._digests: dict[str, bytes] = {}  # the game folder's files in this build: path -> digest of its bytes
        self._faces: dict[tuple[str, str, str, str], _Face] = {}  # (lang, deck, card, side)
        self._seen: set[tuple[str, str, str, str]] = set()  # the faces set or found kept since the last pass (`faces_pass`)
        self._files: dict[Path, _File] = {}
        self._books: tuple[dict[str, bytes], str] | None = None  # the files and options the rulebooks were last set from
        self._book_files: list[Path] = []
        self._books_same: list[Path] = []  # the rulebooks this build set again to the bytes they had: left as they are
        self._common = b""
        self._options = ""
        self._languages: dict[str, Language] = {}
        self._layouts: dict[str, bytes] = {}  # layout name -> digest of its files, in this build
        self._every_layout = b""
        self._pending: dict[Path, _File] = {}
        self._written: dict[Path, KeptCode] = {}  # what the faces of each PDF wrote when it was last drawn
        self._drawing: _Drawing | None = None
        self.fetched: dict[str, bytes] = {}  # each sheet on the web the last load used: URL -> digest of its bytes (live/poll.py)
        self.data: dict = {}  # the decks' data files as last read (live.kept_data.keeping): a save rereads only the items it changed
        self.rebuilt: list[tuple[Path, int | None]] = []  # the last build's files written, with the cards set again
        self.kept: list[Path] = []  # the last build's files left as they were
        self.builds = 0  # builds that succeeded
        self.rulebook_pages = SettledPages()  # where each rulebook's pages last settled: a rebuild starts from them

    # --- a build ---

    @contextmanager
    def reading(self) -> Iterator[None]:
        """The decks' data files are read again only where a save changed them; what each
        sheet on the web gave is recorded, for the poll (live/poll.py)."""
        self.fetched.clear()
        with keeping(self.data), recording(self.fetched):
            yield

    def settled_pages(self) -> SettledPages:
        return self.rulebook_pages

    def start(self, project: Project, options: BuildOptions) -> None:
        """Look at the folder's files and forget what the last build (if it failed) began."""
        digests: dict[str, bytes] = {}
        root = self.folder.absolute()  # the store of digests is the process's: a file is known by its whole path
        for name, found in snapshot(self.folder, Skipped.of(self.folder, self.ignore))[0].items():
            try:
                digests[name] = _file_digest.at(root / name, found)
            except OSError:  # gone meanwhile: the build reports it if it needed it
                continue
        self._digests = digests
        game = project.game
        own = self._owned(game)
        self._common = _digest(*(f"{name}\0".encode() + digest for name, digest in sorted(digests.items()) if name not in own))
        self._options = repr(replace(options, jobs=1))
        self._languages = {}
        self._pending = {}
        self._layouts = {name: self._layout_digest(files) for name, files in project.layout_files.items()}
        self._every_layout = _digest(*(f"{name}\0".encode() + digest for name, digest in sorted(digests.items()) if Path(name).parts[:1] == ("layouts",)))
        self.rebuilt, self.kept = [], []
        self._books_same = []

    def _owned(self, game: Game) -> set[str]:
        """The files whose changes are compared by what they hold, not in the common digest."""
        meta, root = game.meta, self.folder
        shared = {os.path.normpath(name) for name in ("game.yaml", meta.rules, meta.glossary, meta.deals.data if meta.deals else "")}
        own = {os.path.normpath(deck.data) for deck in meta.decks.values()} - shared
        own |= {os.path.normpath(name) for book in meta.rulebooks.values() for name in book.files} - shared
        locales = os.path.relpath(locale_dir(game), game.root)
        own |= {name for name in self._digests if os.path.dirname(name) == locales and name.endswith(".po")}
        own |= {name for name in self._digests if Path(name).parts[:1] == ("layouts",)}
        return {name for name in own if (root / name).is_file()}

    def books_due(self) -> bool:
        """Whether the rulebooks must be set again (see the module docstring)."""
        return self._books != (self._digests, self._options)

    def language(self, edition: Edition) -> Language:
        """What faces and PDFs of `edition` are compared by."""
        found = self._languages.get(edition.lang)
        if found is not None:
            return found
        game = edition.game
        catalogue = os.path.relpath(locale_dir(game) / f"{edition.lang}.po", game.root)
        po = self._digests.get(catalogue, b"") if edition.strings is not None else b"source"
        decks, cards = {}, {}
        for deck_id, deck in game.decks.items():
            digests = list(_cards(deck.cards))
            decks[deck_id] = _digest(deck_id, *(digest for _, digest in digests))
            if len({card_id for card_id, _ in digests}) == len(digests):  # ids repeated (a mistake, under --force): each face pickles its card
                cards.update(((deck_id, card_id), digest) for card_id, digest in digests)
        found = self._languages[edition.lang] = Language(edition.lang, _digest(self._common, edition.lang, po, self._options), decks, cards)
        return found

    def _layout_digest(self, files: tuple[Path, ...]) -> bytes:
        parts: list[bytes | str] = []
        for path in files:
            try:
                name = str(path.relative_to(self.folder))
            except ValueError:  # a bundled layout: part of pnp, it does not change while pnp runs
                parts.append(str(path))
                continue
            parts += [name, self._digests.get(name, b"?")]
        return _digest(*parts)

    # --- faces ---

    def renderer(self, edition: Edition, renderer: Any) -> _KeptFaces:
        """`renderer` (an edition's, perhaps counting) with its faces kept across builds;
        the decks its templates read are recorded."""
        return _KeptFaces(self, self.language(edition), renderer, renderer.names.decks)

    def face(self, renderer: Any, deck: str, card: str, layout: Layout, side: str, problems: Problems) -> Face | None:
        return renderer.kept(deck, card, layout, side, problems)

    def face_hash(self, lang: str, deck: str, card: str, side: str, face: Face, make: Callable[[], str]) -> str | Callable[[], str]:
        """A kept face's hash is made once: known at once for most faces of a save."""
        kept = self.kept_face(lang, deck, card, side, face)
        if kept is None:
            return make
        return kept.hash if kept.hash is not None else partial(kept.hashed, make)

    def kept_face(self, lang: str, deck: str, card: str, side: str, face: Face) -> _Face | None:
        """The record of `face` when it is the one kept for that card's side: its hash for
        the manifest is made once (`_Face.hashed`)."""
        kept = self._faces.get((lang, deck, card, side))
        return kept if kept is not None and kept.face is face else None

    # --- files ---

    def file_key(self, edition: Edition, target: Path, parts: Iterable[str | bytes]) -> bytes:
        return _digest(self.language(edition).base, str(target), *parts)

    def unit_key(self, edition: Edition, target: Path, deck_ids: list[str], members: set[str] | None) -> bytes:
        """What a deck's (or group's) PDF in one language is drawn from, its decks' reads apart."""
        lang = self.language(edition)
        project = edition.project
        parts: list[str | bytes] = [repr(sorted(members)) if members is not None else "all"]
        for deck_id in deck_ids:
            parts += [deck_id, lang.decks[deck_id]]
            for front, back in project.pairs(deck_id):
                parts += [self._layouts.get(front.name, b"?"), self._layouts.get(back.name, b"?") if back else b"-"]
        return self.file_key(edition, target, parts)

    def tuckbox_key(self, edition: Edition, target: Path, deck_id: str) -> bytes:
        """What a tuck box's PDF is drawn from: its deck (its count), every layout (its own is named in game.yaml), its decks' reads apart."""
        lang = self.language(edition)
        return self.file_key(edition, target, ["tuckbox", deck_id, lang.decks[deck_id], self._every_layout])

    def kept_file(self, edition: Edition, target: Path, key: bytes) -> _File | None:
        """The record of `target` when it need not be drawn again: same key, the decks it
        read unchanged, the file still there."""
        kept = self._files.get(target)
        if kept is None or kept.key != key or not self.language(edition).current(kept.reads) or not target.is_file():
            return None
        self._pending[target] = kept
        self.kept.append(target)
        return kept

    def writing(self, target: Path) -> KeptCode:
        """What the faces and pages of `target` wrote when it was last drawn, written again where still exact."""
        found = self._written.get(target)
        if found is None:
            found = self._written[target] = KeptCode()
        return found

    def deck_file(self, sheets: Sheets, target: Path, deck_ids: list[str], draw: Callable[[Sheets], Written | None]) -> Written | None:
        """Nothing when the PDF is left as it is: its faces' entries of the manifest and
        its problems are the last build's."""
        edition = sheets.edition
        key = self.unit_key(edition, target, deck_ids, sheets.members)
        kept = self.kept_file(edition, target, key)
        if kept is not None:
            sheets.drawn.update(kept.drawn)
            sheets.problems.extend(kept.problems)
            return None
        found = len(sheets.problems.items)
        self.begin(sheets.renderer.names.decks)
        drawing = replace(sheets, drawn=Drawn())  # the faces of this PDF, recorded with it
        written = draw(drawing)
        sheets.drawn.update(drawing.drawn)
        self.end(edition, target, key, written, drawing.drawn, sheets.problems.items[found:])
        return written

    def tuckbox_file(self, sheets: Sheets, target: Path, deck_id: str, draw: Callable[[Sheets], Written | None]) -> Written | None:
        edition = sheets.edition
        key = self.tuckbox_key(edition, target, deck_id)
        kept = self.kept_file(edition, target, key)
        if kept is not None:
            sheets.problems.extend(kept.problems)
            return None
        found = len(sheets.problems.items)
        self.begin(sheets.renderer.names.decks)
        written = draw(sheets)
        self.end(edition, target, key, written, {}, sheets.problems.items[found:])
        return written

    def book_files(self, files: list[Written], txn: Transaction) -> list[Written]:
        """A rulebook set again to the bytes it has (a save that changed nothing it
        prints) is left as it is, and counted as unchanged."""
        same = [written.path for written in files if txn.keep_if_same(written.path)]
        self._books_same += same
        return [written for written in files if written.path not in same]

    def manifest(self, path: Path, txn: Transaction, write: Callable[[IO[bytes]], None]) -> None:
        """A manifest that would not change is left as it is."""
        data = io.BytesIO()
        write(data)
        if not path.is_file() or path.read_bytes() != data.getvalue():
            txn.path_for(path).write_bytes(data.getvalue())

    def begin(self, decks: Decks) -> None:
        """A PDF is about to be drawn with the renderer whose templates' decks are `decks`."""
        decks.read = set()
        self._drawing = _Drawing(decks)

    def end(self, edition: Edition, target: Path, key: bytes, written: Written | None, drawn: Drawn, problems: list[Problem]) -> None:
        """The PDF (or nothing, when there was nothing to print) is drawn: record it, to be kept once the build succeeds."""
        drawing = self._drawing
        assert drawing is not None
        lang = self.language(edition)
        reads = {deck: lang.decks[deck] for deck in drawing.decks.read if deck in lang.decks}
        decks = edition.game.decks
        faces = frozenset((deck, decks[deck].card_id(index), side) for deck, index, side in drawn)
        self._pending[target] = _File(edition.lang, key, reads, drawn, problems, faces)
        if written is not None:
            self.rebuilt.append((written.path, len(drawing.fresh)))
        self._drawing = None

    def commit(self, files: list[Written], books: bool) -> None:
        """The build succeeded: what it drew and kept is what the next one compares with."""
        self._files = self._pending
        self._pending = {}
        drawn = {path for path, _ in self.rebuilt}
        if books:
            self._books = (dict(self._digests), self._options)
            written = [written.path for written in files if written.path not in drawn and written.path not in self._files]
            self._book_files = written + self._books_same
            self.rebuilt += [(path, None) for path in written]
            self.kept += self._books_same
        else:
            self.kept += self._book_files
        live = {(kept.lang, *face) for kept in self._files.values() for face in kept.faces}  # faces of cards gone or not printed are let go
        self._faces = {slot: face for slot, face in self._faces.items() if slot in live}
        self._written = {path: code for path, code in self._written.items() if path in self._files}
        self._seen = set()
        self.builds += 1

    def faces_pass(self) -> None:
        """A pass that sets every face it shows (the preview's) is over: the faces it did
        not set or find are let go."""
        self._faces = {slot: face for slot, face in self._faces.items() if slot in self._seen}
        self._seen = set()

    def summary(self) -> str | None:
        """One line: what the last build wrote and what it left as it was (after the first build)."""
        return self.rebuild_summary() if self.builds > 1 else None

    def rebuild_summary(self) -> str:
        """One line: what the last build wrote and what it left as it was."""
        parts = [path.name + (f" ({cards} card{'s' if cards != 1 else ''} changed)" if cards else "") for path, cards in self.rebuilt]
        written = "rebuilt " + ", ".join(parts) if parts else "nothing to rebuild"
        return f"{written}; {len(self.kept)} file{'s' if len(self.kept) != 1 else ''} unchanged"


class _KeptFaces:
    """Stands in for a Renderer: a face whose inputs did not change is the one set before."""

    def __init__(self, session: Session, lang: Language, renderer: Any, decks: Decks):
        self._session = session
        self._lang = lang
        self._renderer = renderer
        self._decks = decks
        self._keys: dict[tuple[str, str, str], bytes] = {}  # (deck, layout, side) -> the hash of what a face shares with its deck's others

    def _key(self, deck: str, digest: bytes, layout: Layout, side: str) -> tuple[bytes, bytes]:
        """What a face is set from: the hash of the language, the deck, the layout and the
        side, taken once for the deck's faces, and the card's digest (a pair compared as it
        is: hashed together, it would be a hash per face at every build)."""
        shared = self._keys.get((deck, layout.name, side))
        if shared is None:
            lang = self._lang
            shared = self._keys[deck, layout.name, side] = _digest(lang.base, deck, layout.name, self._session._layouts.get(layout.name, b"?"), side)
        return shared, digest

    def kept(self, deck: str, card_id: str, layout: Layout, side: str, problems: Problems) -> Face | None:
        """The face of card `card_id` set before, if it is still what setting it would give
        (found without the card: its digest was taken with its deck's)."""
        digest = self._lang.cards.get((deck, card_id))
        return None if digest is None else self._kept((self._lang.lang, deck, card_id, side), self._key(deck, digest, layout, side), problems)

    def _kept(self, slot: tuple[str, str, str, str], key: tuple[bytes, bytes], problems: Problems, parts: list | None = None) -> Face | None:
        kept = self._session._faces.get(slot)
        if kept is None or kept.key != key or not self._lang.current(kept.reads) or (parts is not None and kept.parts is None):
            return None
        _found_again(kept, problems, parts)
        self._decks.read |= kept.reads.keys()
        self._session._seen.add(slot)
        return kept.face

    def face(self, card: Card, layout: Layout, side: str, problems: Problems, parts: list | None = None) -> Face:
        """The face of `card` in `layout`, set again only when what it is set from changed;
        `parts`, when given, receives (element, its operations) for each element drawn, and
        each problem is added to `problems` once as many elements are in it as were drawn
        before it was found (as Renderer.face does: the preview marks the element)."""
        lang, session = self._lang, self._session
        slot = (lang.lang, card.deck, card.id, side)
        key = self._key(card.deck, self._card_digest(card), layout, side)
        found = self._kept(slot, key, problems, parts)
        if found is not None:
            return found
        outer, self._decks.read = self._decks.read, set()
        drawn: list | None = [] if parts is not None else None
        setting = FoundProblems(drawn)
        try:
            face = self._renderer.face(card, layout, side, setting, drawn)
        finally:
            read, self._decks.read = self._decks.read, outer | self._decks.read
        record = _Face(
            key, {deck: lang.decks[deck] for deck in read if deck in lang.decks}, face, list(setting.items), parts=drawn, found_at=tuple(setting.found_at)
        )
        session._faces[slot] = record
        session._seen.add(slot)
        _found_again(record, problems, parts)
        if session._drawing is not None:
            session._drawing.fresh.add((card.deck, card.id))
        return face

    def _card_digest(self, card: Card) -> bytes:
        """The card's digest, as the deck's was taken (Session.language)."""
        found = self._lang.cards.get((card.deck, card.id))
        return found if found is not None else _card_digest(card)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._renderer, name)


class FoundProblems(Problems):
    """The problems setting a face finds, with the number of its elements drawn before each
    (`found_at`, beside `items`): Renderer.face adds an element to `parts` once it is
    drawn, so that number is the element that found it (the preview's marks)."""

    def __init__(self, parts: list | None) -> None:
        super().__init__()
        self.parts = parts
        self.found_at: list[int] = []

    def add(self, problem: Problem, at: int | None = None) -> None:
        """`problem`, found after `at` elements were drawn (default: as many as are drawn now)."""
        if problem not in self._seen:
            self.found_at.append(at if at is not None else len(self.parts) if self.parts is not None else 0)
        super().add(problem)


def _found_again(face: _Face, problems: Problems, parts: list | None) -> None:
    """What setting `face` found, added to `problems`; with `parts` (then `problems` is a
    FoundProblems), its elements too, and where each problem was found among them."""
    if parts is None:
        problems.extend(face.problems)
        return
    start = len(parts)
    parts.extend(face.parts or [])
    for problem, at in zip(face.problems, face.found_at):
        problems.add(problem, start + at)


def watch_builds(folder: Path, out: Path, build: Callable[[Reuse], None], say: Callable[[str], None], poll: float = INTERVAL) -> None:
    """`pnp build --watch`: `build(reuse)` now and after every save in `folder` (not in
    `out`), and whenever a sheet on the web changed (looked at every `poll` seconds; 0:
    never), until Ctrl-C, with one Session kept across the builds."""
    kept = Session(folder, [out])
    watch(folder, partial(build, kept), say, Changes(folder, [out]), DataPoll(kept.fetched, poll))
