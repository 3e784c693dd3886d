"""A QR code's mask pattern, chosen by pnp/layout/qrmask.py instead of reportlab's
`getBestMaskPattern`: the same pattern and the same modules as reportlab's own `make()`
for texts of every mode, length and level, versions small and large; and each pattern's
penalty the same as reportlab's `getLostPoint`, for QR symbols and for any matrix."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from reportlab.graphics.barcode import qrencoder

from pnp.layout.elements.qr import _code_class, _modules
from pnp.layout.qrmask import FINDER_LIKE, best_mask, bits, penalty

ALPHABETS = {
    "numeric": "0123456789",
    "alphanumeric": "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:",
    "link": "abcdefghijklmnopqrstuvwxyz0123456789:/.?=&-_#",
    "accented": "aáäčďeéiíĺľňoóôŕšťuúýž ",
    "kanji": "日本語漢字東京大阪",  # Shift JIS: reportlab's kanji mode
    "mixed": "Aa1 €ü日-",
}
LEVELS = ("L", "M", "Q", "H")


def _reference(text: str, level: str) -> tuple[tuple[str, ...], int]:
    """reportlab's own code of `text`: its rows and the mask pattern it chose."""
    code = qrencoder.QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, level))
    code.addData(text)
    code.make()
    rows = tuple("".join("1" if dark else "0" for dark in row) for row in code.modules)
    return rows, code.getBestMaskPattern()


def _texts(seed: int, count: int, longest: int) -> list[tuple[str, str]]:
    rnd = random.Random(seed)
    found = []
    for _ in range(count):
        alphabet = ALPHABETS[rnd.choice(sorted(ALPHABETS))]
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, longest)))
        found.append((text, rnd.choice(LEVELS)))
    return found


@pytest.mark.parametrize(("text", "level"), [*_texts(1, 160, 80), *((text, level) for text in ("https://example.org/a", "x", "0") for level in LEVELS)])
def test_a_small_code_has_reportlab_s_mask_and_modules(text: str, level: str):
    rows, pattern = _reference(text, level)
    code = _code_class()(None, getattr(qrencoder.QRErrorCorrectLevel, level))
    code.addData(text)
    code.make()
    assert best_mask(code, qrencoder.QRUtil.getMask) == pattern
    assert _modules.__wrapped__(text, level) == rows


@pytest.mark.parametrize(("length", "level"), [(150, "M"), (400, "H"), (700, "Q"), (1000, "L"), (1500, "M"), (2300, "L"), (2790, "L")])
def test_a_large_code_has_reportlab_s_modules(length: int, level: str):
    text = "".join(random.Random(length).choice(ALPHABETS["link"]) for _ in range(length))
    rows, _ = _reference(text, level)
    assert len(rows) > 40
    assert _modules.__wrapped__(text, level) == rows


@pytest.mark.parametrize(("text", "level"), _texts(2, 12, 300))
def test_each_pattern_s_penalty_is_reportlab_s(text: str, level: str):
    code = qrencoder.QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, level))
    code.addData(text)
    code.make()
    for pattern in range(8):
        code.makeImpl(True, pattern)
        assert penalty(bits(code.modules), code.moduleCount) == qrencoder.QRUtil.getLostPoint(code)


def test_the_penalty_of_any_matrix_is_reportlab_s():
    """Matrices of long runs, blocks and finder-like runs in every place, the last column
    and the columns included (where reportlab's rule 3 does not look)."""
    rnd = random.Random(3)
    for _ in range(300):
        n = rnd.randint(11, 45)
        stay = rnd.choice((0.5, 0.8, 0.95))
        rows = []
        for _ in range(n):
            row, dark = [], rnd.random() < 0.5
            for _ in range(n):
                dark = dark if rnd.random() < stay else not dark
                row.append(dark)
            if rnd.random() < 0.3:
                at = rnd.randint(0, n - 11)
                row[at : at + 11] = [c == "1" for c in FINDER_LIKE]
            rows.append(row)
        if rnd.random() < 0.3:  # a row repeated: long runs down the columns
            rows[rnd.randrange(n)] = rows[0]
        assert penalty(bits(rows), n) == qrencoder.QRUtil.getLostPoint(SimpleNamespace(modules=rows))
