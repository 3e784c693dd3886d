"""A deck's cards, packed once the deck is large, so memory does not grow with the deck.

Why: a loaded card is a dozen Python objects (the card, its fields and their locations,
the strings: two bytes a letter as soon as one letter is outside Latin-1): a large deck
held that way would be most of a build's memory. Every
stage reads the cards one at a time, so past `_KEPT` cards `PackedCards` keeps each
pickled and compressed (all in one bytearray) and unpacks a card when it is read. Cards of a deck
share their field names and much of their words, so each is compressed with the deck's
first card as the dictionary: a short card packs into a small part of its unpacked size.
Enumeration values are packed by reference, so an unpacked card shares them with the game
exactly as a loaded one does; locations in the deck's data file are packed as line and
column.

A deck of up to `_KEPT` cards is kept as loaded: packing and unpacking take time (a card
is read three times: checked, drawn, titled in the manifest), while such a deck's cards
held as they are take little of a build's memory. Printed decks have tens or hundreds of
cards, so packing is for generated data; a large deck's first `_KEPT` cards are packed
when the next one comes (a large build's peak memory comes later, when its manifest is
written, so this does not raise it).
"""

from __future__ import annotations

import io
import pickle
import zlib
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import fields
from typing import Any, overload

from pnp.base.errors import Location
from pnp.load.model import Card, EnumValue

_FIELDS = tuple(f.name for f in fields(Card))
_LOC, _FIELD_LOCS = _FIELDS.index("loc"), _FIELDS.index("field_locs")
_KEPT = 2000  # cards of a deck kept as loaded: more than printed decks have (see the module docstring)
_RECENT = 24  # cards of a packed deck kept unpacked: a sheet of poker or mini cards (its fronts are read again for its backs)
_WBITS = -11  # raw deflate, a 2 kB window: a card and the dictionary; small to set up per card
_PLAIN, _REFS = b"P", b"E"  # the first byte of a packed card: does it refer to enumeration values?


def _enum_value(enum: str, key: str) -> EnumValue:
    """What a packed card names in place of an enumeration value: the deck's _Unpickler
    gives the game's own value instead of calling this."""
    raise RuntimeError(f"enumeration value {enum}.{key} unpacked without its deck")


class _Pickler(pickle.Pickler):
    """Packs enumeration values as (enum, key), and notes that it did. By reducer_override,
    which pickle asks only about objects that are not plain data (strings, numbers, lists,
    dicts, tuples): persistent_id would be asked about every object, a Python call each."""

    def __init__(self, file: io.BytesIO, refs: dict[int, tuple[str, str]]):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.refs = refs
        self.used = False

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is EnumValue and id(obj) in self.refs:
            self.used = True
            return _enum_value, self.refs[id(obj)]
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, enums: dict[str, dict[str, EnumValue]]):
        super().__init__(file)
        self.enums = enums

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "_enum_value":
            return self._value
        return super().find_class(module, name)

    def _value(self, enum: str, key: str) -> EnumValue:
        return self.enums[enum][key]


class _Run:
    """Byte strings kept one after another in one bytearray: in a list, each short bytes or
    str object is a whole Python object beside its contents."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.ends = array("L")

    def append(self, item: bytes) -> None:
        self.data += item
        self.ends.append(len(self.data))

    def __getitem__(self, index: int) -> bytes:
        """Item `index`, counted from 0 (not from the end)."""
        start = self.ends[index - 1] if index else 0
        return bytes(self.data[start : self.ends[index]])


class PackedCards(Sequence[Card]):
    """A list of cards that, once it holds more than `_KEPT`, packs them and unpacks a card
    when it is read (the last few read by index are kept): compare cards by id, never by
    identity, and do not change them in place."""

    def __init__(self, enums: dict[str, dict[str, EnumValue]], cards: Iterable[Card] = ()):
        self.enums = enums
        self.file: str | None = None  # the data file: its name is stored once
        self.sheet = ""  # and the workbook's sheet the cards come from
        self.dictionary = b""  # the first card, pickled: what the others are compressed against
        self.kept: list[Card] | None = []  # the cards as loaded, while there are at most _KEPT; then None
        self.packed = _Run()
        self.counts: list[int] = []  # printed copies of each card
        self._ids = _Run()  # each packed card's id, in UTF-8 (a list of strings would be many times the size)
        self._recent: dict[int, Card] = {}  # the cards last read by index: a sheet's fronts are read again for its backs
        self._buffer = io.BytesIO()
        self._pickler = _Pickler(self._buffer, {id(value): (name, key) for name, values in enums.items() for key, value in values.items()})
        for card in cards:
            self.append(card)

    def append(self, card: Card) -> None:
        self.counts.append(card.copies)
        if self.file is None:
            self.file, self.sheet = card.loc.file, card.loc.sheet
        kept = self.kept
        if kept is None:
            self._pack(card)
        elif len(kept) < _KEPT:
            kept.append(card)
        else:  # the deck is large: packed from here on
            self.kept = None
            for each in (*kept, card):
                self._pack(each)

    def _pickled(self, card: Card) -> tuple[bytes, bytes]:
        """The card pickled, and a byte that says whether it refers to enumeration values."""
        values = [getattr(card, name) for name in _FIELDS]
        locs = [card.loc, *card.field_locs.values()]
        if all(loc.file == self.file and loc.sheet == self.sheet for loc in locs):  # as line and column: smaller, and faster to unpack
            values[_LOC] = (card.loc.line, card.loc.col)
            values[_FIELD_LOCS] = tuple((key, loc.line, loc.col) for key, loc in card.field_locs.items())
        buffer, pickler = self._buffer, self._pickler
        buffer.seek(0)
        buffer.truncate()
        pickler.clear_memo()
        pickler.used = False
        pickler.dump(tuple(values))
        return (_REFS if pickler.used else _PLAIN), buffer.getvalue()

    def _pack(self, card: Card) -> None:
        self._ids.append(card.id.encode("utf-8"))
        flag, pickled = self._pickled(card)
        if not self.dictionary:
            self.dictionary = pickled
        packer = zlib.compressobj(6, zlib.DEFLATED, _WBITS, 4, zdict=self.dictionary)
        self.packed.append(flag + packer.compress(pickled) + packer.flush())

    def __len__(self) -> int:
        return len(self.counts)

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> list[Card]: ...
    def __getitem__(self, index: int | slice) -> Card | list[Card]:
        if self.kept is not None:
            return self.kept[index]
        if isinstance(index, slice):
            return [self._unpack(self.packed[i]) for i in range(len(self))[index]]
        if index < 0:
            index += len(self)
        card = self._recent.get(index)
        if card is None:
            card = self._unpack(self.packed[index])
            if len(self._recent) >= _RECENT:
                del self._recent[next(iter(self._recent))]
            self._recent[index] = card
        return card

    def __iter__(self) -> Iterator[Card]:
        if self.kept is not None:
            return iter(self.kept)
        return (self._unpack(self.packed[i]) for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"PackedCards({list(self)!r})"

    @property
    def copies(self) -> int:
        """Printed copies of all the cards."""
        return sum(self.counts)

    def card_id(self, index: int) -> str:
        """The id of card `index`, without unpacking the card."""
        if self.kept is not None:
            return self.kept[index].id
        return self._ids[index].decode("utf-8")

    def raw(self, index: int) -> bytes:
        """Card `index` as pickled, not unpacked: equal for equal cards of the same data file,
        whatever the deck's first card is and whether the deck is packed (the watcher tells
        changed cards by it)."""
        if self.kept is not None:
            return b"".join(self._pickled(self.kept[index]))
        data = self.packed[index]
        return data[:1] + zlib.decompressobj(_WBITS, zdict=self.dictionary).decompress(memoryview(data)[1:])

    def _unpack(self, data: bytes) -> Card:
        raw = zlib.decompressobj(_WBITS, zdict=self.dictionary).decompress(memoryview(data)[1:])
        if data[:1] == _REFS:
            values = list(_Unpickler(io.BytesIO(raw), self.enums).load())
        else:
            values = list(pickle.loads(raw))
        loc = values[_LOC]
        if type(loc) is tuple:
            file, sheet = self.file, self.sheet
            values[_LOC] = Location(file, *loc, sheet)
            values[_FIELD_LOCS] = {key: Location(file, line, col, sheet) for key, line, col in values[_FIELD_LOCS]}
        return Card(*values)
