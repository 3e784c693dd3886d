"""`image`: a picture file of the game (or the bundled layouts) in a box."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from reportlab.lib.units import mm

from pnp.assets.images import find_image
from pnp.base.errors import Location, PnpError
from pnp.layout.elements.base import ElementKind, Frame
from pnp.layout.faces import Box, ImageOp, Op


@dataclass(repr=False, eq=False)
class Image(ElementKind):
    """An image file from the game folder, fitted into a box."""

    by_templates = True

    image: str
    box: Box
    fit: Literal["contain", "cover", "stretch"] = "contain"
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def draw(self, f: Frame) -> list[Op]:
        name = f.fill_in(self.image, self._loc)
        if not name:
            return []
        try:
            what = f"{f.where}: image" if "{" in self.image else "image"  # the same file for every card: one error
            path = find_image(name, f.game.root, self._loc, what, f.services.memo.setdefault("images", {}))
        except PnpError as err:
            f.problems.extend(err.problems)
            return []
        x, y, w, h = self.box
        return [ImageOp(str(path), x * mm, f.y(y, h), w * mm, h * mm, self.fit)]
