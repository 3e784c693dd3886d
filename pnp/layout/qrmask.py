"""Which of the eight mask patterns a QR code gets: the one reportlab's encoder chooses
(`QRCode.getBestMaskPattern`), found for a fraction of its cost.

Why: reportlab builds the whole symbol once per pattern and scores each with its penalty
rules module by module in pure Python, most of the cost of a QR code (bench/FIGURES.md).
Here reportlab builds the scored symbol once (its data masked with pattern 0, the format
bits blank, as it scores them), each other pattern's symbol is that one with the data
modules where the two patterns differ flipped, and the rules are counted on the symbol held
as one int, all its modules at once; then reportlab's `make` builds the chosen symbol. The rules are reportlab's, quirks included (see `penalty`), so the
choice and every module are the same: tests/layout/test_qrmask.py compares both on many
texts, levels and versions.

What of reportlab's QRCode this reads (all public names of its `qrencoder` module):
`makeImpl(True, p)` (the symbol as it is scored), `modules`, `moduleCount`, `version`,
`dataPosIterator()` (where the data modules are) and the pattern functions
`QRUtil.getMask(p)`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

PATTERNS = 8
FINDER_LIKE = "10111010000"  # the one run reportlab's rule 3 looks for: dark, light, dark x3, light, dark, light x4
_DIGITS = bytes.maketrans(b"\x00\x01", b"01")  # a row of bools as bytes -> its digits

Mask = Callable[[int, int], bool]  # (row, column) -> whether the pattern flips that module


def bits(modules: Sequence[Sequence[bool]]) -> int:
    """An n x n symbol as one int of n * n bits, row after row from the top, each row from
    its first column, the first module the highest bit (dark = 1)."""
    return int(b"".join(map(bytes, modules)).translate(_DIGITS), 2)


def row_text(row: Sequence[bool]) -> str:
    """A row of modules as digits, "1" dark."""
    return bytes(row).translate(_DIGITS).decode("ascii")


@dataclass(frozen=True)
class _Grid:
    """Which bits of an n x n symbol (`bits`) each rule may start at, per size n: the
    symbol is shifted by 1 to meet a module's neighbour in its row, by n in its column."""

    n: int
    pair: int  # a module with its right neighbour: all but each row's last column
    five: int  # five modules from there on in the row: all but each row's last four columns
    finder: int  # FINDER_LIKE from there on, not reaching the last column: the first n - 11 columns
    above: int  # a module with the one below: all but the last row
    five_down: int  # five modules down: all but the last four rows

    @classmethod
    @functools.cache
    def of(cls, n: int) -> _Grid:
        def each_row(row: int) -> int:
            return sum(row << (r * n) for r in range(n))

        full = (1 << n) - 1  # a row, its first column the highest bit
        return cls(n, each_row(full >> 1), each_row(full >> 4), each_row(full >> 11 << 11), (1 << n * (n - 1)) - 1, (1 << n * (n - 4)) - 1)


def penalty(symbol: int, n: int) -> int:
    """reportlab's `QRUtil.getLostPoint` of an n x n symbol given as `bits`. Its rules, as it
    counts them:
    1. each run of five or more modules of one colour, in a row or a column: its length - 2;
    2. each 2 x 2 square of one colour: 3;
    3. each FINDER_LIKE run (1:1:3:1:1 and four light modules), in rows only and left to
       right only, not reaching the last column: 40 (reportlab's pass over the columns
       compares a tuple with a list and never finds one). Two such runs cannot overlap, so
       all are counted, as reportlab's left-to-right search finds them;
    4. 10 for each 5 % the dark modules are away from half, rounded down.
    A run of length L >= 5 has L - 4 windows of five modules of one colour, one of them its
    last (the next window is not one colour): L - 2 is the windows, plus 2 for each last."""
    grid = _Grid.of(n)
    right = ~(symbol ^ (symbol >> 1))  # bit p: the module and its right neighbour are one colour
    below = ~(symbol ^ (symbol >> n)) & grid.above  # bit p: the module and the one below it are one colour
    across = right & (right >> 1) & (right >> 2) & (right >> 3) & grid.five
    down = below & (below >> n) & (below >> 2 * n) & (below >> 3 * n) & grid.five_down
    score = across.bit_count() + 2 * (across & ~(across >> 1)).bit_count()  # rule 1
    score += down.bit_count() + 2 * (down & ~(down >> n)).bit_count()
    score += 3 * (below & (below >> 1) & right & grid.pair).bit_count()  # rule 2
    finder = grid.finder
    for k, digit in enumerate(FINDER_LIKE):
        finder &= symbol << k if digit == "1" else ~(symbol << k)
    score += 40 * finder.bit_count()  # rule 3
    return score + 10 * (abs(100 * symbol.bit_count() // (n * n) - 50) // 5)  # rule 4


def best_mask(code: Any, mask: Callable[[int], Mask]) -> int:
    """The pattern reportlab's `getBestMaskPattern` chooses for `code` (a qrencoder.QRCode
    with its version and data set): the first of the lowest penalty. `mask` is reportlab's
    `QRUtil.getMask`. Leaves `code.modules` as the symbol of pattern 0 being scored, as
    reportlab leaves the last one: `make` builds the chosen symbol after it."""
    code.makeImpl(True, 0)
    n = code.moduleCount
    first = bits(code.modules)
    scores = [penalty(first ^ flip, n) for flip in _flips(code, mask)]
    return scores.index(min(scores))


_FLIPS: dict[tuple[int, Callable[[int], Mask]], list[int]] = {}  # per version (40 at most): a game's codes are often of one


def _flips(code: Any, mask: Callable[[int], Mask]) -> list[int]:
    """Per pattern, the bits (`bits`) where it and pattern 0 differ on the data modules:
    pattern p's symbol is pattern 0's XOR these. The patterns repeat every 12 rows and 6
    columns (they depend on row and column modulo 2 and 3, row // 2 % 2, column // 3 % 2
    and row * column % 6), so each is asked 72 times, not once per module."""
    key = (code.version, mask)
    if key in _FLIPS:
        return _FLIPS[key]
    n = code.moduleCount
    data = bytearray(n * n)
    for col, row in code.dataPosIterator():
        data[row * n + col] = 1
    on_data = int(data.translate(_DIGITS), 2)
    repeat = -(-n // 6)
    patterns = []
    for p in range(PATTERNS):
        flip = mask(p)
        tile = bytes([flip(r, c) for r in range(12) for c in range(6)]).translate(_DIGITS).decode("ascii")
        rows = [(tile[6 * r : 6 * r + 6] * repeat)[:n] for r in range(12)]
        patterns.append(int("".join(rows[r % 12] for r in range(n)), 2))
    found = [(pattern ^ patterns[0]) & on_data for pattern in patterns]
    _FLIPS[key] = found
    return found
