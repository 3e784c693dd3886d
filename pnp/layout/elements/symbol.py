"""`symbol`: one of the game's symbols (an SVG) centred in a box, in its own colours or
recoloured with `tint:` (a one-colour symbol in each card's colour, or in a gradient)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from pnp.base.errors import Location
from pnp.layout.elements.base import CODE, ElementKind, Frame, GradientDef, check_paint
from pnp.layout.faces import Box, Op, parse_color

FIELD_FIRST = re.compile(r"^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_]*)*\s*\}\}$")  # a field, or an attribute of it ({{ empire.colour }})


@dataclass(repr=False, eq=False)
class SymbolEl(ElementKind):
    """A symbol of the game's, in a box."""

    by_templates = True

    symbol: str
    box: Box
    tint: str | GradientDef | None = None  # a colour (a template) or a gradient: every fill and stroke of the symbol in it
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw, styles, problems) -> bool:
        if isinstance(self.tint, GradientDef):
            return check_paint(self.tint, raw, "tint", "symbol element", problems)
        if self.tint is None or "{" in self.tint or self.tint == "none":
            return True
        try:
            parse_color(self.tint)
        except (ValueError, AttributeError):
            problems.error(raw.loc_of("tint"), CODE, f"symbol element: 'tint' is '{self.tint}', which is not a colour; expected '#rrggbb' or a colour name")
            return False
        return True

    def draw(self, f: Frame) -> list[Op]:
        op = f.symbol(self.symbol, self.box, self._loc)
        if op is None:
            return []
        if self.tint is not None:
            tint = f.paint(self.tint, self._tint_loc(f))
            if tint is not None:
                op = replace(op, tint=tint)
        return [op]

    def _tint_loc(self, f: Frame) -> Location:
        """Where a tint that is no colour is reported: at the card's field that gave it
        (or the card), for a tint of the card's; at the element for one of its own."""
        if isinstance(self.tint, GradientDef) or "{" not in self.tint:
            return self._loc
        match = FIELD_FIRST.match(self.tint)
        return f.card.loc_of(match.group(1)) if match else f.card.loc
