"""A deck's cards kept packed, so memory does not grow with the deck.

Why: a loaded card is a dozen Python objects (the card, its fields and their locations,
the strings: two bytes a letter as soon as one letter is outside Latin-1), about 1.5 kB
for a short card; a 10,000-card deck held that way was most of a build's memory. Every
stage reads the cards one at a time, so `PackedCards` keeps each as one pickled and
compressed bytes object and unpacks a card when it is read. Cards of a deck share their
field names and much of their words, so each is compressed with the deck's first card
as the dictionary: a short card packs into a fifth of its unpacked size. Enumeration
values are packed by reference, so an unpacked card shares them with the game exactly
as a loaded one does; locations in the deck's data file are packed as line and column.
"""

from __future__ import annotations

import io
import pickle
import zlib
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import fields
from functools import lru_cache
from typing import Any, overload

from .errors import Location
from .model import Card, EnumValue

_FIELDS = tuple(f.name for f in fields(Card))
_LOC, _FIELD_LOCS = _FIELDS.index("loc"), _FIELDS.index("field_locs")
_RECENT = 24  # cards kept unpacked: a sheet of poker or mini cards (its fronts are read again for its backs)
_WBITS = -11  # raw deflate, a 2 kB window: a card and the dictionary; small to set up per card
_PLAIN, _REFS = b"P", b"E"  # the first byte of a packed card: does it refer to enumeration values?


class _Pickler(pickle.Pickler):
    """Packs enumeration values as (enum, key), and notes that it did."""

    def __init__(self, file: io.BytesIO, refs: dict[int, tuple[str, str]]):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.refs = refs
        self.used = False

    def persistent_id(self, obj: Any) -> Any:
        if type(obj) is EnumValue and id(obj) in self.refs:
            self.used = True
            return self.refs[id(obj)]
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, enums: dict[str, dict[str, EnumValue]]):
        super().__init__(file)
        self.enums = enums

    def persistent_load(self, pid: Any) -> Any:
        name, key = pid
        return self.enums[name][key]


@lru_cache(maxsize=1024)  # the watcher loads a deck again at every save: its unchanged cards are not compressed again
def _compressed(dictionary: bytes, raw: bytes) -> bytes:
    packer = zlib.compressobj(6, zlib.DEFLATED, _WBITS, 4, zdict=dictionary)
    return packer.compress(raw) + packer.flush()


class PackedCards(Sequence[Card]):
    """A list of cards that unpacks a card when it is read (the last few read by index are
    kept): compare cards by id, never by identity, and do not change them in place."""

    def __init__(self, enums: dict[str, dict[str, EnumValue]], cards: Iterable[Card] = ()):
        self.enums = enums
        self.file: str | None = None  # the data file: its name is stored once
        self.dictionary = b""  # the first card, pickled: what the others are compressed against
        self.packed: list[bytes] = []
        self.counts: list[int] = []  # printed copies of each card
        self._ids = bytearray()  # each card's id, in UTF-8, one after the other (a list of strings is ten times the size)
        self._id_ends = array("L")
        self._recent: dict[int, Card] = {}  # the cards last read by index: a sheet's fronts are read again for its backs
        self._buffer = io.BytesIO()
        self._pickler = _Pickler(self._buffer, {id(value): (name, key) for name, values in enums.items() for key, value in values.items()})
        for card in cards:
            self.append(card)

    def append(self, card: Card) -> None:
        self.counts.append(card.copies)
        self._ids += card.id.encode("utf-8")
        self._id_ends.append(len(self._ids))
        values = [getattr(card, name) for name in _FIELDS]
        if self.file is None:
            self.file = card.loc.file
        locs = [card.loc, *card.field_locs.values()]
        if all(loc.file == self.file for loc in locs):  # as line and column: smaller, and faster to unpack
            values[_LOC] = (card.loc.line, card.loc.col)
            values[_FIELD_LOCS] = tuple((key, loc.line, loc.col) for key, loc in card.field_locs.items())
        buffer, pickler = self._buffer, self._pickler
        buffer.seek(0)
        buffer.truncate()
        pickler.clear_memo()
        pickler.used = False
        pickler.dump(tuple(values))
        raw = buffer.getvalue()
        if not self.dictionary:
            self.dictionary = raw
        self.packed.append((_REFS if pickler.used else _PLAIN) + _compressed(self.dictionary, raw))

    def __len__(self) -> int:
        return len(self.packed)

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> list[Card]: ...
    def __getitem__(self, index: int | slice) -> Card | list[Card]:
        if isinstance(index, slice):
            return [self._unpack(data) for data in self.packed[index]]
        if index < 0:
            index += len(self.packed)
        card = self._recent.get(index)
        if card is None:
            card = self._unpack(self.packed[index])
            if len(self._recent) >= _RECENT:
                del self._recent[next(iter(self._recent))]
            self._recent[index] = card
        return card

    def __iter__(self) -> Iterator[Card]:
        return (self._unpack(data) for data in self.packed)

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
        start = self._id_ends[index - 1] if index else 0
        return self._ids[start : self._id_ends[index]].decode("utf-8")

    def raw(self, index: int) -> bytes:
        """Card `index` as pickled, not unpacked: equal for equal cards of the same data file,
        whatever the deck's first card is (the watcher tells changed cards by it)."""
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
            file = self.file
            values[_LOC] = Location(file, *loc)
            values[_FIELD_LOCS] = {key: Location(file, line, col) for key, line, col in values[_FIELD_LOCS]}
        return Card(*values)
