"""`qr`: a QR code of a template (a link to the rules, a card's id for an app), drawn as
vector squares, so it prints sharp at any size."""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Literal

from reportlab.lib.units import mm

from pnp.base.errors import Location
from pnp.layout.elements.base import FIELD_ALONE, ElementKind, Frame, GradientDef, check_paints
from pnp.layout.faces import BLACK, Box, Op, QrOp
from pnp.layout.qrmask import best_mask, row_text

QUIET = 4  # modules of margin the QR standard asks for around the code, inside the box


@dataclass(repr=False, eq=False)
class Qr(ElementKind):
    """A QR code of a template's text, the largest square in its box (the standard's quiet
    margin of four modules included), centred."""

    by_templates = True

    qr: str
    box: Box
    color: str | GradientDef = "#000000"  # of the dark modules: a colour or a gradient
    level: Literal["L", "M", "Q", "H"] = "M"  # error correction: about 7, 15, 25 or 30 % of the code may be lost
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw, styles, problems) -> bool:
        if self.qr.strip():
            return check_paints(self, raw, "qr element", problems)
        problems.error(raw.loc_of("qr"), "qr-empty", "qr element: 'qr' is empty; expected the text or link to encode (a template, e.g. \"{{ url }}\")")
        return False

    def draw(self, f: Frame) -> list[Op]:
        content = f.fill_in(self.qr, self._loc)
        if content is None:
            return []
        alone = FIELD_ALONE.match(self.qr)
        loc = f.card.loc_of(alone.group(1)) if alone else self._loc  # a card's own text: at its value
        if not content:
            f.problems.error(
                loc,
                "qr-empty",
                f"{f.where}: the QR code of '{self.qr}' is empty; expected a text or link to encode",
            )
            return []
        rows = _modules(content, self.level)
        if rows is None:
            f.problems.error(
                loc,
                "qr-too-long",
                f"{f.where}: the QR code's text is {len(content.encode('utf-8'))} bytes, more than a QR code of level {self.level} holds; "
                f"expected a shorter text (a link, say){' or level L' if self.level != 'L' and _modules(content, 'L') is not None else ''}",
            )
            return []
        x, y, w, h = self.box
        side = min(w, h) * mm
        size = side * len(rows) / (len(rows) + 2 * QUIET)
        color = f.paint(self.color, self._loc) or BLACK
        return [QrOp(x * mm + (w * mm - size) / 2, f.y(y, h) + (h * mm - size) / 2, size, rows, color)]


@functools.lru_cache(maxsize=64)
def _modules(content: str, level: str) -> tuple[str, ...] | None:
    """The code's modules, row by row from the top, "1" dark: reportlab's QR encoder (the
    one of its QrCodeWidget), its mask chosen by pnp/layout/qrmask.py (the same, faster).
    None for a text too long for any QR code. Kept per text, as the check pass and the
    drawing ask for the same codes."""
    qrencoder = _encoder()
    code = _code_class()(None, getattr(qrencoder.QRErrorCorrectLevel, level))
    code.addData(content)
    try:
        code.make()
    except Exception as exc:  # the encoder raises a bare Exception ("code length overflow")
        if "overflow" in str(exc):
            return None
        raise
    return tuple(row_text(row) for row in code.modules)


@functools.cache
def _code_class() -> type:
    """reportlab's QRCode with its mask pattern chosen by `best_mask`: the same pattern as
    its own `getBestMaskPattern`, for a fraction of the cost; the rest of `make` is its own."""
    qrencoder = _encoder()

    class QuickMaskCode(qrencoder.QRCode):  # type: ignore[name-defined,misc]
        def getBestMaskPattern(self) -> int:
            return best_mask(self, qrencoder.QRUtil.getMask)

    return QuickMaskCode


@functools.cache
def _encoder() -> ModuleType:
    """reportlab's `graphics/barcode/qrencoder.py`, loaded as a module of its own (it needs
    only `re` and `itertools`). Why: importing it through its package runs the package's
    `__init__`, which imports and registers every barcode widget reportlab has, with
    reportlab.graphics: most of a small game's QR cost (bench/FIGURES.md)."""
    import reportlab

    path = Path(reportlab.__file__).parent / "graphics" / "barcode" / "qrencoder.py"
    spec = importlib.util.spec_from_file_location("pnp_qrencoder", path)
    if spec is None or spec.loader is None:  # pragma: no cover - a reportlab without its encoder
        raise ImportError(f"reportlab's QR encoder is not at {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
