"""Reprint only what changed: a build's manifest (for each card face, a hash of what was
drawn) and the comparison of two manifests (what is new, changed or removed).

A face's hash is taken from its drawing operations (faces.py), so it covers the card's
data after templating and translation, its layout and its styles; the files a face names
(images, symbols, fonts) enter by a hash of their bytes, never by their paths, so moving
the output or the game folder changes nothing. Numbers are rounded to 0.001 pt: a hash
does not change with the last bits of a float."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from functools import lru_cache
from itertools import chain, compress
from operator import attrgetter, not_
from pathlib import Path
from typing import Any, BinaryIO

from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfmetrics

from pnp.base.errors import Location, PnpError, Problems, display_path, fail
from pnp.base.output import shown
from pnp.base.texts import utf8_text
from pnp.base.versions import per_version, version
from pnp.impose.paper import paper as paper_named
from pnp.layout.faces import Face, FaceOp, Gradient, GroupOp, ImageOp, Op, SymbolOp, TextOp, once_per_object
from pnp.layout.text import TextLayout
from pnp.load.model import Game, title_of

FORMAT = 2  # the manifest's format, raised when its meaning changes
Key = tuple[str, str]  # deck id, card id
Sides = dict[str, str]  # side ("front", "back") -> hash of the face drawn
SIDES = ("front", "back")
DIGEST = 10  # bytes of a face's hash (20 hex digits in the manifest)
_NONE = bytes(DIGEST)  # a side not drawn (a hash of zeros is as likely as two faces with one hash)
_JSON: dict[str, Any] = {"sort_keys": True, "indent": 1, "ensure_ascii": False}


@dataclass(slots=True, repr=False, eq=False)
class Entry:
    """One card of a manifest: how many copies are printed, its title (for the user to
    find it in the printed deck) and the hash of each side drawn."""

    deck: str
    id: str
    copies: int
    title: str | None
    sides: Sides

    def named(self) -> str:
        title = f' "{self.title}"' if self.title else ""
        return f"{self.deck}/{self.id}{title} ({self.copies} cop{'y' if self.copies == 1 else 'ies'})"


@dataclass(repr=False, eq=False)
class Manifest:
    """The faces one build drew, per card, for the next build to compare with (--changed-since)."""

    game: str
    lang: str
    paper: str
    entries: dict[Key, Entry] = field(default_factory=dict)


@dataclass(repr=False, eq=False)
class Drawn:
    """The faces a build drew, for its manifest: per deck, the hashes of its cards' sides
    by the card's index in the deck, in one bytearray (a card's front's, then its back's;
    zeros for a side not drawn): a large build holds it whole until the manifest is
    written, and a dict by card id would hold the ids again, and an object per card. The
    manifest reads the ids from the deck (the watcher's record of a PDF is kept only while
    its deck is unchanged, so the indices stay the same).

    A face noted while drawing is hashed later, _BATCH faces at a time (or when the hashes
    are read): hashed one by one between drawing others, hashing and drawing each slow
    the other down."""

    _decks: dict[str, bytearray] = field(default_factory=dict)
    _waiting: dict[tuple[str, int, str], Callable[[], str]] = field(default_factory=dict)  # face -> what makes its hash

    @property
    def decks(self) -> dict[str, bytearray]:
        if self._waiting:
            self.settle()
        return self._decks

    def __getstate__(self) -> dict[str, Any]:
        """What a worker process sends: hashes, not faces waiting to be hashed."""
        return {"_decks": self.decks, "_waiting": {}}

    def __iter__(self) -> Iterator[tuple[str, int, str]]:
        """Every face drawn, as (deck, card index, side)."""
        for deck, data in self.decks.items():
            for at in range(0, len(data), DIGEST):
                if _stored(data, at) is not None:
                    yield deck, at // (DIGEST * len(SIDES)), SIDES[at // DIGEST % len(SIDES)]

    def add(self, deck: str, index: int, side: str, digest: str) -> None:
        """Note the hash of a face (face_hash) of card `index` of `deck`."""
        self._put(deck, _at(index, side), bytes.fromhex(digest))

    def noted(self, deck: str, index: int, side: str) -> bool:
        """Whether a face is noted already (a card's copies are one face)."""
        if (deck, index, side) in self._waiting:
            return True
        data = self._decks.get(deck)
        return data is not None and _stored(data, _at(index, side)) is not None

    def note(self, deck: str, index: int, side: str, make: Callable[[], str]) -> None:
        """Note a face drawn and not `noted` yet, by what makes its hash."""
        self._waiting[deck, index, side] = make
        if len(self._waiting) >= _BATCH:
            self.settle()

    def settle(self) -> None:
        """Hash the faces waiting."""
        for (deck, index, side), make in self._waiting.items():
            self._put(deck, _at(index, side), bytes.fromhex(make()))
        self._waiting.clear()

    def update(self, other: Drawn) -> None:
        for deck, data in other.decks.items():
            if deck not in self.decks:  # the usual: a deck is in one PDF (copied: `other` is kept)
                self._decks[deck] = bytearray(data)
                continue
            for at in range(0, len(data), DIGEST):
                if (digest := _stored(data, at)) is not None:
                    self._put(deck, at, digest)

    def _put(self, deck: str, at: int, digest: bytes) -> None:
        data = self._decks.setdefault(deck, bytearray())
        if len(data) < at + DIGEST:
            data.extend(bytes(at + DIGEST - len(data)))
        data[at : at + DIGEST] = digest

    def sides(self, deck: str, index: int) -> Sides | None:
        """The manifest's hashes of the sides drawn of card `index`; None for a card not drawn."""
        data = self.decks.get(deck)
        if data is None:
            return None
        found = {side: digest.hex() for side in SIDES if (digest := _stored(data, _at(index, side))) is not None}
        return found or None


_BATCH = 64


def _at(index: int, side: str) -> int:
    """Where the hash of a side of card `index` begins in its deck's bytearray."""
    return (index * len(SIDES) + SIDES.index(side)) * DIGEST


def _stored(data: bytearray, at: int) -> bytes | None:
    """The hash stored at `at`; None for a side not drawn (zeros, or past the end)."""
    digest = bytes(data[at : at + DIGEST])
    return digest if digest not in (_NONE, b"") else None


def write_manifest(file: BinaryIO, game: Game, lang: str, paper: str, drawn: Drawn, last: Manifest | None, built: set[str]) -> None:
    """The manifest of the faces a build drew, written to `file`; a build of some decks
    (`built`, with --deck) keeps what `last` recorded of the others the game still prints.

    Sorted keys and nothing that changes between builds: same input, same bytes. The JSON
    of json.dumps(sort_keys=True, indent=1), written deck by deck with no object per card:
    the cards are read one at a time, in the order of their ids (a packed deck,
    load/packed.py, is never unpacked whole), and each row is written as it is made."""
    kept: dict[str, dict[str, str]] = {}
    for (deck, card), entry in last.entries.items() if last is not None else ():
        if deck not in built and deck in game.decks:
            kept.setdefault(deck, {})[card] = _row(entry.copies, entry.title, entry.sides)
    head = json.dumps({"cards": 0, "format": FORMAT, "game": game.name, "lang": lang, "paper": paper}, **_JSON)
    before, after = head.split('"cards": 0', 1)  # "cards" sorts first
    file.write((before + '"cards": {').encode("utf-8"))
    written = False
    for deck in sorted(drawn.decks.keys() | kept.keys()):
        # a deck drawn now (built, so none of `kept`): its rows one at a time
        rows = (
            sorted(kept[deck].items())
            if deck in kept
            else ((card, _row(copies, title, sides)) for card, copies, title, sides in _drawn_cards(game, drawn, deck))
        )
        for i, (card, row) in enumerate(rows):
            opening = ("\n  },\n  " if written else "\n  ") + f"{_string(deck)}: {{\n" if i == 0 else ",\n"
            file.write(f"{opening}   {_string(card)}: {row}".encode())
            written = True
    file.write((("\n  }\n }" if written else "}") + after + "\n").encode())


def _row(copies: int, title: str | None, sides: Sides) -> str:
    """A card's row of the manifest, indented as the third level: what json.dumps with
    _JSON writes (its keys sort as back, copies, front, title), each value encoded by
    json's C encoder (an indented dump is encoded in Python, slowly)."""
    back, front = sides.get("back"), sides.get("front")
    return "".join(
        (
            "{\n",
            "" if back is None else f'    "back": {_string(back)},\n',
            f'    "copies": {copies},\n',
            "" if front is None else f'    "front": {_string(front)},\n',
            f'    "title": {_string(title)}\n   }}',
        )
    )


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode  # a string: one call of json's C encoder


def _string(value: str | None) -> str:
    return "null" if value is None else _ENCODE(value)


NAMES = re.compile(r"manifest-.+\.json")  # every name manifest_path gives (the watcher leaves them out)


def manifest_path(out: Path, game: Game, lang: str, paper: str, deal: str | None = None) -> Path:
    """Where a build records its faces: beside its PDFs, one per language, paper and deal."""
    return out / game.name / f"manifest-{lang}-{paper}{f'-{deal}' if deal else ''}.json"


def read_manifest(path: Path, game: str | None = None) -> Manifest:
    """A manifest a build wrote (of the game folder named `game`, when given); a missing,
    damaged or foreign one is a located error."""
    where = Location(shown(path))
    try:
        data = json.loads(utf8_text(path.read_bytes()), parse_constant=_no_constant)
    except FileNotFoundError:
        raise fail(where, "manifest-missing", "does not exist; expected the manifest of an earlier build (pnp build writes one beside its PDFs)") from None
    except OSError as exc:
        raise fail(where, "manifest-unreadable", f"cannot be read: {exc.strerror or exc}; expected a manifest pnp build wrote") from None
    except RecursionError:
        raise fail(where, "manifest-unreadable", "nests deeper than Python reads; expected a manifest pnp build wrote (three levels)") from None
    except ValueError as exc:
        line, col = getattr(exc, "lineno", 0), getattr(exc, "colno", 0)
        raise fail(Location(shown(path), line, col), "manifest-unreadable", f"is not JSON ({exc}); expected a manifest pnp build wrote") from None
    try:
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}")
        manifest = Manifest(_a_string(data["game"], "game"), _a_string(data["lang"], "lang"), _a_string(data["paper"], "paper"))
        for deck, cards in data["cards"].items():
            for card, row in cards.items():
                sides = {side: _a_string(row[side], side) for side in ("front", "back") if side in row}
                title = row.get("title")
                copies = row["copies"]
                if type(copies) is not int or copies < 0:
                    raise ValueError(f"copies {copies!r} of card '{card}': not a whole number of copies")
                manifest.entries[deck, card] = Entry(deck, card, copies, None if title is None else _a_string(title, "title"), sides)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise fail(
            where,
            "manifest-unreadable",
            f"is not a manifest of this version of pnp ({exc}); expected one pnp build wrote (build again without --changed-since)",
        ) from None
    if game is not None and manifest.game != game:
        raise fail(
            where,
            "manifest-game",
            f"is the manifest of game '{manifest.game}', not '{game}'; expected a manifest written by a build of this game (its folder's name)",
        )
    return manifest


def _no_constant(name: str) -> Any:
    """NaN and Infinity, which Python's JSON reads and no manifest holds."""
    raise ValueError(f"{name} is not a number JSON allows")


def _a_string(value: Any, key: str) -> str:
    """A string of a manifest, as pnp build writes it (never a number, list or mapping)."""
    if not isinstance(value, str):
        raise ValueError(f"{key} {json.dumps(value)[:40]}: not a string")
    return value


def make_manifest(game: Game, lang: str, paper: str, drawn: Drawn) -> Manifest:
    """The manifest of the faces a build drew, as entries to compare with another. The
    cards are read one at a time, in the decks drawn: a packed deck (load/packed.py) is
    never unpacked whole."""
    manifest = Manifest(game.name, lang, paper)
    for deck_id in drawn.decks:
        for card_id, copies, title, sides in _drawn_cards(game, drawn, deck_id):
            manifest.entries[deck_id, card_id] = Entry(deck_id, card_id, copies, title, sides)
    return manifest


def _drawn_cards(game: Game, drawn: Drawn, deck_id: str) -> Iterator[tuple[str, int, str | None, Sides]]:
    """The cards of a deck the build drew, one at a time in the order of their ids (each
    id is one card: loading refuses one given twice): id, copies, title and the hashes of
    their sides."""
    deck = game.decks[deck_id]
    copies = deck.copies()
    for index in sorted(range(len(copies)), key=deck.card_id):  # not (id, index) pairs: a large deck's would weigh on the build's peak memory
        sides = drawn.sides(deck_id, index)
        if sides is not None:
            yield deck.card_id(index), copies[index], title_of(deck.cards[index].fields), sides


@dataclass(repr=False, eq=False)
class Changes:
    """What changed between a manifest (`since`) and now, in the decks compared."""

    since: Path
    lang: str
    new: list[Entry] = field(default_factory=list)
    changed: list[tuple[Entry, Entry]] = field(default_factory=list)  # (old, now)
    removed: list[Entry] = field(default_factory=list)

    @property
    def reprint(self) -> set[str]:
        """The ids of the cards to print in the errata."""
        return {e.id for e in self.new} | {now.id for _, now in self.changed}

    def as_dict(self) -> dict:
        def row(entry: Entry) -> dict:
            return {"deck": entry.deck, "id": entry.id, "title": entry.title, "copies": entry.copies}

        return {
            "since": shown(self.since),
            "lang": self.lang,
            "changed": [{**row(now), "old": row(old)} for old, now in self.changed],
            "new": [row(e) for e in self.new],
            "removed": [row(e) for e in self.removed],
        }

    def text(self) -> str:
        """What to print and what to take out of the printed deck, for a terminal."""
        head = f"changes since {shown(self.since)} ({self.lang})"
        if not (self.new or self.changed or self.removed):
            return f"{head}: none"
        lines = [f"{head}: {len(self.changed)} changed, {len(self.new)} new, {len(self.removed)} removed"]
        if self.changed or self.removed:
            lines.append("  take out of the printed deck:")
            lines += [f"    {old.named()}: old version" for old, _ in self.changed]
            lines += [f"    {old.named()}: removed" for old in self.removed]
        if self.changed or self.new:
            lines.append("  put in, from the errata:")
            lines += [f"    {now.named()}: changed" for _, now in self.changed]
            lines += [f"    {now.named()}: new" for now in self.new]
        return "\n".join(lines)


def compare(old: Manifest, now: Manifest, since: Path, game: Game, decks: set[str]) -> Changes:
    """The cards of `decks` (those built now) that are new, changed (a side drawn
    differently, or another number of copies) or removed since `old`; a card whose id
    changed is removed and new. Cards of decks the game no longer has are removed too."""
    changes = Changes(since, now.lang)
    for key, entry in now.entries.items():
        before = old.entries.get(key)
        if before is None:
            changes.new.append(entry)
        elif before.copies != entry.copies or any(before.sides[s] != entry.sides[s] for s in before.sides.keys() & entry.sides.keys()):
            changes.changed.append((before, entry))
    for key, entry in old.entries.items():
        if key not in now.entries and (key[0] in decks or key[0] not in game.decks):
            changes.removed.append(entry)
    return changes


# --- the hash of a face ---


def face_hash(face: Face, symbols: Any, hashes: Hashes) -> str:
    """A hash of what `face` draws (not of its name: a card is known by its id); `hashes`,
    what the faces of a build share, kept by the build so that it reads each file's state
    once, not once per face.

    Why not JSON: a build hashes every face it draws, so a face is serialised into one
    string directly, with a format per kind of operation and per column of a text's
    pieces, none per number. Each number is "\x1e" and the number to 0.001 pt, each string
    its repr or a run of strings after its length (_text): no two faces give the same
    string. The fonts and symbol files a face names enter once, at its end, by the hashes
    of their bytes."""
    return once_per_object(hashes.faces, face.ops, lambda _: _digest(face, symbols, hashes), (face.width, face.height))  # a deck's back: once


def _digest(face: Face, symbols: Any, hashes: Hashes) -> str:
    named: set[str] = set()
    data = _face(face, named, hashes).replace("\x1e-0.000", "\x1e0.000")  # no -0.000: a hash does not change with a float's last bits
    data += hashes.named(symbols.files, frozenset(named))
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[: 2 * DIGEST]


@dataclass(slots=True, repr=False, eq=False)
class Hashes:
    """What the face hashes of a build share, found once a build: the hashes of files by
    path, and of the fonts and symbol files faces name."""

    files: dict[str, str] = field(default_factory=dict)  # file_hash by path
    ends: dict[frozenset[str], str] = field(default_factory=dict)  # the end of a face's hash by the fonts and symbols it names
    faces: dict[int, tuple[tuple, tuple[float, float], str]] = field(default_factory=dict)  # a face's hash by its operations and size (once_per_object)

    def file(self, path: str) -> str:
        found = self.files.get(path)
        if found is None:
            found = self.files[path] = file_hash(path)
        return found

    def named(self, symbol_files: dict[str, Path], named: frozenset[str]) -> str:
        """The hashes of the font and symbol files a face named (fonts by their registered
        names, symbols by SYMBOL and their ids)."""
        found = self.ends.get(named)
        if found is None:
            files = [
                (name, self.file(str(symbol_files[name[1:]])) if name[1:] in symbol_files else "") if name[:1] == _SYMBOL else (name, _font(name))
                for name in sorted(named)
            ]
            found = self.ends[named] = repr(files)
        return found


_SYMBOL = "\0"  # before a symbol's id in the names a face's hash ends with (no font's name begins with it)


def _face(face: Face, named: set[str], hashes: Hashes) -> str:
    out = [_nums(face.width, face.height)]
    _ops(face.ops, out, named, hashes)
    out.append(")")
    return "\n".join(out)


def _ops(ops: tuple[Op, ...], out: list[str], named: set[str], hashes: Hashes) -> None:
    for op in ops:
        kind = type(op)
        if kind is TextOp:
            out.append(f"T{_nums(op.x, op.baseline)}{once_per_object(_COLORS, op.color, _value)}|{_text(op.text, named)}")
        elif kind is SymbolOp:
            named.add(_SYMBOL + op.symbol)
            out.append(f"S{op.symbol!r}{_nums(op.x, op.y, op.size)}" + ("" if op.tint is None else f" {_value(op.tint)}"))
        elif kind is FaceOp:
            out.append(f"F{_nums(op.x, op.y, op.angle, op.bleed, *op.clip)}(\n{_face(op.face, named, hashes)}")
        elif kind is ImageOp:  # its file as it is now, not its path
            out.append(f"I{hashes.file(op.path)!r}{_values(op.x, op.y, op.w, op.h, op.fit)}")
        elif kind is GroupOp:  # turned, translucent: what it holds, then how
            out.append(f"G{_nums(op.angle, op.cx, op.cy, op.opacity)}(")
            _ops(op.ops, out, named, hashes)
            out.append(")")
        else:  # most often one object every card's face shares (renderer.py): formatted once
            out.append(once_per_object(_OPS, op, _other))


_COLORS: dict[int, tuple[Color, None, str]] = {}  # a text's colour, formatted (once_per_object)
_OPS: dict[int, tuple[Any, None, str]] = {}  # an operation other than a text, symbol, inner face or image, formatted
_SET: dict[int, tuple[TextLayout, None, tuple[str, frozenset[str]]]] = {}  # a set text, serialised, and the fonts and symbols it names


def _other(op: Any) -> str:
    kind = type(op)
    return f"{kind.__name__} {_values(*_fields(kind)(op))}"


@lru_cache(maxsize=64)
def _fields(kind: type) -> Callable[[Any], tuple]:
    return attrgetter(*(f.name for f in fields(kind)))


@lru_cache(maxsize=1024, typed=True)  # typed: True and 1, 1 and 1.0 are told apart, as _value formats them
def _values(*values: Any) -> str:
    """An operation's fields, formatted once per distinct value: a layout's frame and art
    are the same on every card (a build hashes every face it draws)."""
    return " ".join(_value(v) for v in values)


def _value(value: Any) -> str:
    if isinstance(value, Gradient):
        return f"{'radial' if value.radial else 'linear'}{_nums(*value.coords)}({' '.join(map(_value, value.colors))})"
    if isinstance(value, Color):
        alpha = getattr(value, "alpha", 1)
        return value.hexval() + ("" if alpha == 1 else f"/{_nums(alpha)}")
    if isinstance(value, float | int) and not isinstance(value, bool):
        return _nums(value)
    if isinstance(value, tuple | list):
        return f"({' '.join(_value(v) for v in value)})"
    return repr(value)


def _nums(*values: float) -> str:
    """Numbers rounded to 0.001, each after a "\x1e" (face_hash turns -0.000 into 0.000)."""
    return _NUM * len(values) % values


_NUM = "\x1e%.3f"


def _text(layout: TextLayout, named: set[str]) -> str:
    """A set text, as pdf.py draws it: how many pieces each line has; its size and leading
    and each piece's x and word space; what the pieces print (a text, or a symbol's id) and
    in which fonts (and how each is shaped, when one is), joined by "\x1f" when none holds a "\x1f" or "\x1e" (else by repr,
    which holds no bare "\x1f"), after their length. A piece's width and the text's ascent
    and height are not drawn (a piece's width follows from what it prints and its font).
    A format per column, none per piece."""
    text, names = once_per_object(_SET, layout, _serialised)
    named |= names
    return text


def _serialised(layout: TextLayout) -> tuple[str, frozenset[str]]:
    lines = layout.lines
    xs, texts, fonts, _, spaces, shapes = tuple(zip(*chain.from_iterable(lines))) or ((),) * 6  # text.Piece: x, text, font, width, word space, shape
    strings = texts + fonts
    if any(shapes):  # shaped pieces (right to left, or a script that needs shaping) say so; others as before
        strings += shapes
    joined = "\x1f".join(strings)
    if joined.count("\x1f") != len(strings) - 1 or "\x1e" in joined:
        joined = repr(strings)
    text = f"{'%d,' * len(lines) % tuple(map(len, lines))}{_nums(layout.size, layout.leading, *xs, *spaces)}|{len(joined)}|{joined}"
    names = set(fonts)
    if "" in names:  # a symbol
        names.discard("")
        names.update(map(_SYMBOL.__add__, compress(texts, map(not_, fonts))))  # the symbols' ids (a symbol's font is ''), in C
    return text, frozenset(names)


def _font(registered: str) -> str:
    try:
        return _font_file(pdfmetrics.getFont(registered))
    except KeyError:
        return registered


@lru_cache(maxsize=64)
def _font_file(font: Any) -> str:
    """The hash of a registered font's file, by the font object: a font file edited while
    the watcher runs is registered anew as another object, so its faces hash anew."""
    filename = getattr(getattr(font, "face", None), "filename", None)
    return file_hash(filename) if filename else font.fontName


def file_hash(path: str) -> str:
    """A hash of a file's bytes (remembered while the file is unchanged)."""
    try:
        found = version(path)
    except OSError:
        return "missing"
    return _file_hash.at(path, found)  # an error reading it, unlike one finding it, is raised


@per_version(maxsize=1024)
def _file_hash(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:20]


# --- the faces now, without building (pnp list --changed-since) ---


def faces_now(edition: Any, decks: list[str] | None = None) -> Drawn:
    """Lay out every face of the printed decks of an edition and hash it, as a build does."""
    project, problems = edition.project, Problems()
    renderer = edition.renderer()
    drawn, hashes = Drawn(), Hashes()
    for deck_id in project.layouts:
        if decks is not None and deck_id not in decks:
            continue
        for index, card in enumerate(edition.game.decks[deck_id].cards):
            front, back = project.card_layouts(deck_id, index)
            for side, layout in (("front", front), ("back", back)):
                if layout is not None:
                    drawn.add(deck_id, index, side, face_hash(renderer.face(card, layout, side, problems), project.symbols, hashes))
    problems.extend(edition.problems)
    if problems.errors:
        raise PnpError(problems)
    return drawn


def default_since(out: Path, game: Game, lang: str, paper: str, deal: str | None) -> Path:
    """The manifest of the last build in the output folder for this language and paper."""
    path = manifest_path(out, game, lang, paper, deal)
    if not path.is_file():
        raise fail(
            Location(display_path(path)),
            "manifest-missing",
            f"no earlier build in '{lang}' on {paper_named(paper).shown} to compare with; expected a build without --changed-since first, or --changed-since MANIFEST",
        )
    return path
