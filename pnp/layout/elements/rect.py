"""`rect`: a rectangle, optionally filled, stroked and with rounded corners."""

from __future__ import annotations

from dataclasses import dataclass, field

from reportlab.lib.units import mm

from pnp.base.errors import Location
from pnp.layout.elements.base import ElementKind, Frame, GradientDef, check_paints
from pnp.layout.faces import Box, Op, RectOp


@dataclass(repr=False, eq=False)
class Rect(ElementKind):
    """A rectangle, filled and/or stroked, optionally with rounded corners."""

    by_templates = True

    rect: Box
    fill: str | GradientDef | None = None  # a colour or a gradient
    stroke: str | GradientDef | None = None  # a colour or a gradient
    stroke_width: float = 0.5  # points
    radius: float = 0.0  # mm
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw, styles, problems) -> bool:
        return check_paints(self, raw, "rect element", problems)

    def draw(self, f: Frame) -> list[Op]:
        x, y, w, h = self.rect
        fill = f.paint(self.fill, self._loc)
        stroke = f.paint(self.stroke, self._loc)
        return [RectOp(x * mm, f.y(y, h), w * mm, h * mm, fill, stroke, self.stroke_width, self.radius * mm)]
