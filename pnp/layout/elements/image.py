"""`image`: a picture file of the game (or the bundled layouts) in a box."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from reportlab.lib.units import mm

from pnp.assets.images import find_image
from pnp.base.errors import Location, PnpError
from pnp.layout.elements.base import FIELD_ALONE, ElementKind, Frame
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
            if "{" not in self.image:  # the same file for every card: one error, at the element
                path = find_image(name, f.game.root, self._loc, "image", f.services.memo.setdefault("images", {}))
            else:  # a field alone is reported at its value (the spreadsheet's cell), naming the field: one group per column
                alone = FIELD_ALONE.match(self.image)
                loc = f.card.loc_of(alone.group(1)) if alone else self._loc
                source = f" (field '{alone.group(1)}')" if alone else ""
                path = find_image(name, f.game.root, loc, f"{f.where}: image", f.services.memo.setdefault("images", {}), source)
        except PnpError as err:
            f.problems.extend(err.problems)
            return []
        x, y, w, h = self.box
        return [ImageOp(str(path), x * mm, f.y(y, h), w * mm, h * mm, self.fit)]
