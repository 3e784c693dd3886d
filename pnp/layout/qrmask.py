"""Which of the eight mask patterns a QR code gets: the one reportlab's encoder chooses
(`QRCode.getBestMaskPattern`), found for a fraction of its cost.

Why: reportlab builds the whole symbol once per pattern and scores each with its penalty
rules module by module in pure Python, most of the cost of a QR code (bench/FIGURES.md).
Here reportlab builds the symbol once (its data masked with pattern 0, the format bits
blank, as it scores them), each other pattern's symbol is that one with the data modules
where the two patterns differ flipped, and the rules are counted on rows held as ints, a
whole row at a time. The rules are reportlab's, quirks included (see `penalty`), so the
choice and every module are the same: tests/layout/test_qrmask.py compares both on many
texts, levels and versions.

What of reportlab's QRCode this reads (all public names of its `qrencoder` module):
`makeImpl(True, p)` (the symbol as it is scored), `modules`, `moduleCount`, `version`,
`dataPosIterator()` (where the data modules are) and the pattern functions
`QRUtil.getMask(p)`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

PATTERNS = 8
FINDER_LIKE = "10111010000"  # the one run reportlab's rule 3 looks for: dark, light, dark x3, light, dark, light x4
_DIGITS = bytes.maketrans(b"\x00\x01", b"01")  # a row of bools as bytes -> its digits

Mask = Callable[[int, int], bool]  # (row, column) -> whether the pattern flips that module


def row_bits(row: Sequence[bool]) -> int:
    """A row of modules as an int, its first column the highest bit (dark = 1)."""
    return int(bytes(row).translate(_DIGITS), 2)


def row_text(row: Sequence[bool]) -> str:
    """A row of modules as digits, "1" dark."""
    return bytes(row).translate(_DIGITS).decode("ascii")


def penalty(rows: Sequence[int], n: int) -> int:
    """reportlab's `QRUtil.getLostPoint` of an n x n symbol given as rows of bits (`row_bits`).
    Its rules, as it counts them:
    1. each run of five or more modules of one colour, in a row or a column: its length - 2;
    2. each 2 x 2 square of one colour: 3;
    3. each 1:1:3:1:1 finder-like run followed by four light modules (FINDER_LIKE), in rows
       only and left to right only, not reaching the last column: 40 (reportlab's pass over
       the columns compares a tuple with a list and never finds one);
    4. 10 for each 5 % the dark modules are away from half, rounded down."""
    full = (1 << n) - 1
    score = 0
    runs = []  # per row: bit c set where columns c..c+4 are one colour (c counted from the right)
    same_below = []  # per pair of rows: bit c set where the two are one colour in column c
    finders = []
    for a in rows:
        pairs = ~(a ^ (a >> 1))  # bit c: columns c and c+1 of one colour
        five = pairs & (pairs >> 1) & (pairs >> 2) & (pairs >> 3) & (full >> 4)
        runs.append(five)
        finders.append(f"{a >> 1:0{n - 1}b}")
    for a, b, pairs_a in zip(rows, rows[1:], [~(a ^ (a >> 1)) for a in rows]):
        same = ~(a ^ b) & full
        same_below.append(same)
        score += 3 * (same & (same >> 1) & pairs_a & (full >> 1)).bit_count()  # rule 2
    # Rule 1: a run of length L >= 5 has L - 4 windows of five, one of them its last.
    for five in runs:
        score += five.bit_count() + 2 * (five & ~(five >> 1)).bit_count()
    down = [s1 & s2 & s3 & s4 for s1, s2, s3, s4 in zip(same_below, same_below[1:], same_below[2:], same_below[3:])]
    for five, after in zip(down, [*down[1:], 0]):
        score += five.bit_count() + 2 * (five & ~after).bit_count()
    score += 40 * ",".join(finders).count(FINDER_LIKE)  # rule 3
    dark = sum(a.bit_count() for a in rows)
    return score + 10 * (abs(100 * dark // (n * n) - 50) // 5)  # rule 4


def best_mask(code: Any, mask: Callable[[int], Mask]) -> int:
    """The pattern reportlab's `getBestMaskPattern` chooses for `code` (a qrencoder.QRCode
    with its version and data set): the first of the lowest penalty. `mask` is reportlab's
    `QRUtil.getMask`. Leaves `code.modules` as the symbol of pattern 0 being scored, as
    reportlab leaves the last one: `make` builds the chosen symbol after it."""
    code.makeImpl(True, 0)
    n = code.moduleCount
    first = [row_bits(row) for row in code.modules]
    flips = _flips(code, mask)
    scores = [penalty([a ^ b for a, b in zip(first, flip)], n) for flip in flips]
    return scores.index(min(scores))


_FLIPS: dict[tuple[int, Callable[[int], Mask]], list[list[int]]] = {}  # kept per version: a game's codes are often of one


def _flips(code: Any, mask: Callable[[int], Mask]) -> list[list[int]]:
    """Per pattern, the rows of bits where it and pattern 0 differ on the data modules:
    pattern p's symbol is pattern 0's XOR these. The patterns repeat every 12 rows and 6
    columns (they depend on row % 2, row % 3, row // 2 % 2 and the same of columns, and on
    row * column % 6), so each is asked 72 times, not once per module."""
    key = (code.version, mask)
    if key in _FLIPS:
        return _FLIPS[key]
    n = code.moduleCount
    data = bytearray(n * n)
    for col, row in code.dataPosIterator():
        data[row * n + col] = 1
    data_rows = [int(data[r * n : (r + 1) * n].translate(_DIGITS), 2) for r in range(n)]
    repeat = -(-n // 6)
    patterns = []
    for p in range(PATTERNS):
        flip = mask(p)
        tiles = ["".join("1" if flip(r, c) else "0" for c in range(6)) * repeat for r in range(12)]
        patterns.append([int(tiles[r % 12][:n], 2) for r in range(n)])
    found = [[(pattern ^ zero) & data for pattern, zero, data in zip(patterns[p], patterns[0], data_rows)] for p in range(PATTERNS)]
    _FLIPS[key] = found
    return found
