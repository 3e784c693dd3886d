"""A TrueType font read with its per-glyph tables unpacked whole (pnp.pdf.canvas's
`_extract_info`) is the font reportlab's own reading gives: every attribute, in the same
order, of the same type and value, so the PDFs and every measured width stay the same;
and a damaged font fails with reportlab's own error."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFontFile

from pnp.base.paths import FONTS_DIR
from pnp.pdf import canvas

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "fonts"
SYSTEM = Path("/usr/share/fonts/truetype")  # Debian's fonts, where the machine has them: many more cmaps and metrics
OURS = sorted(FONTS_DIR.glob("*.ttf")) + sorted(FIXTURES.glob("*.ttf"))
FONTS = OURS + sorted(SYSTEM.rglob("*.ttf"))[:80]


def _read(data: bytes | str, reportlabs: bool) -> tuple:
    """What reading the font gives: ('face', its attributes as one repr) or ('error', the
    exception's type and message)."""
    saved = TTFontFile.extractInfo
    TTFontFile.extractInfo = canvas._reportlab_extract_info if reportlabs else canvas._extract_info
    try:
        face = TTFontFile(data if isinstance(data, str) else _Bytes(data), validate=0)
    except Exception as exc:  # the reading's own error, whatever it is
        return ("error", type(exc).__name__, str(exc))
    finally:
        TTFontFile.extractInfo = saved
    state = {key: value for key, value in vars(face).items() if key not in ("_ttf_data", "_pdfScale", "filename")}
    return ("face", repr(state), face._pdfScale(7))  # the scale is a lambda of its own in each face: compared by what it does


class _Bytes:
    """A font file given as bytes, as reportlab takes a file object."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self) -> bytes:
        return self.data


def test_pnp_reads_fonts_with_its_own_code():
    """The rest holds only if pnp's reading is the one installed."""
    assert TTFontFile.extractInfo is canvas._extract_info
    assert canvas._reportlab_extract_info is not canvas._extract_info


@pytest.mark.parametrize("path", FONTS, ids=lambda path: path.name)
def test_a_font_reads_as_reportlab_reads_it(path):
    ours, theirs = _read(str(path), reportlabs=False), _read(str(path), reportlabs=True)
    assert ours[0] == "face"
    assert ours == theirs


def test_our_fonts_cover_both_cmap_formats_and_both_loca_formats():
    """The fonts above are not all alike: each kind of table pnp's code reads is read."""
    kinds = set()
    for path in OURS:
        data = path.read_bytes()
        face = TTFontFile(str(path), validate=0, charInfo=0)
        cmap = face.table["cmap"]["offset"]
        chosen = None
        for record in range(struct.unpack_from(">H", data, cmap + 2)[0]):
            platform, encoding, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * record)
            if platform in (0, 3):  # a Unicode subtable: reportlab reads the last one
                chosen = struct.unpack_from(">H", data, cmap + offset)[0]
        kinds.add((chosen, struct.unpack_from(">h", data, face.table["head"]["offset"] + 50)[0]))
    assert {(4, 0), (12, 0), (12, 1)} <= kinds


def _damaged(rng: random.Random) -> bytes:
    """One of our fonts cut short or with bytes changed in a table pnp reads itself."""
    path = rng.choice(OURS)
    data = bytearray(path.read_bytes())
    face = TTFontFile(str(path), validate=0, charInfo=0)
    name = rng.choice(["cmap", "hmtx", "loca", "hhea", "head", "maxp"])
    at, length = face.table[name]["offset"], face.table[name]["length"]
    how = rng.choice(["cut", "bytes", "word"])
    if how == "cut":
        return bytes(data[: rng.randrange(at, at + length + 1)])
    if how == "bytes":
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(at, at + length)] = rng.randrange(256)
    else:  # a count, format or offset near the table's start
        place = at + rng.randrange(0, min(length, 64) - 1)
        data[place : place + 2] = struct.pack(">H", rng.choice([0, 1, 2, 4, 6, 12, 0xFFFF, rng.randrange(0x10000)]))
    return bytes(data)


SEEDS, PER_SEED = range(6), 15


@pytest.mark.parametrize("seed", SEEDS)
def test_a_damaged_font_reads_or_fails_as_reportlab_says(seed):
    rng = random.Random(seed)
    outcomes = set()
    for _ in range(PER_SEED):
        data = _damaged(rng)
        ours = _read(data, reportlabs=False)
        if ours[:2] == ("error", "CmapTooLarge"):  # a range stretched past Unicode, which reportlab would read code by code
            outcomes.add("refused")
            continue
        assert ours == _read(data, reportlabs=True)
        outcomes.add(ours[0])
    assert outcomes  # every seed tried something


def test_the_damage_tried_gives_faces_errors_and_refusals():
    """The damaged fonts above are not all alike: some still read, some fail with
    reportlab's error, some are refused as claiming more characters than Unicode has."""
    seen = set()
    for seed in SEEDS:
        rng = random.Random(seed)
        for _ in range(PER_SEED):
            ours = _read(_damaged(rng), reportlabs=False)
            seen.add("refused" if ours[:2] == ("error", "CmapTooLarge") else ours[0])
    assert seen == {"face", "error", "refused"}
