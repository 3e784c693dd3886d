"""`symbol`: one of the game's symbols (an SVG) centred in a box."""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.base.errors import Location
from pnp.layout.elements.base import ElementKind, Frame
from pnp.layout.faces import Box, Op


@dataclass(repr=False, eq=False)
class SymbolEl(ElementKind):
    by_templates = True

    symbol: str
    box: Box
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def draw(self, f: Frame) -> list[Op]:
        op = f.symbol(self.symbol, self.box, self._loc)
        return [op] if op is not None else []
