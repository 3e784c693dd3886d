"""`circle`: a circle given by its centre and radius in mm."""

from __future__ import annotations

from dataclasses import dataclass, field

from reportlab.lib.units import mm

from pnp.base.errors import Location
from pnp.layout.elements.base import ElementKind, Frame, GradientDef, check_paints
from pnp.layout.faces import EllipseOp, Op


@dataclass(repr=False, eq=False)
class Circle(ElementKind):
    """A circle by its centre and radius."""

    by_templates = True

    circle: tuple[float, float, float]  # centre x, y and radius in mm
    fill: str | GradientDef | None = None  # a colour or a gradient
    stroke: str | GradientDef | None = None  # a colour or a gradient
    stroke_width: float = 0.5
    dash: list[float] = field(default_factory=list)
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw, styles, problems) -> bool:
        return check_paints(self, raw, "circle element", problems)

    def draw(self, f: Frame) -> list[Op]:
        fill = f.paint(self.fill, self._loc)
        stroke = f.paint(self.stroke, self._loc)
        cx, cy, radius = self.circle
        return [EllipseOp(cx * mm, f.y(cy), radius * mm, radius * mm, fill, stroke, self.stroke_width, tuple(self.dash))]
