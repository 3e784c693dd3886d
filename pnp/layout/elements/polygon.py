"""`polygon`: a closed polygon or an open polyline through points in mm."""

from __future__ import annotations

from dataclasses import dataclass, field

from reportlab.lib.units import mm

from pnp.base.errors import Location
from pnp.layout.elements.base import ElementKind, Frame, GradientDef, check_paints
from pnp.layout.faces import Op, ShapeOp


@dataclass(repr=False, eq=False)
class Polygon(ElementKind):
    """A closed shape through its points."""

    by_templates = True

    polygon: list[tuple[float, float]]  # points [x, y] in mm
    closed: bool = True  # false: an open polyline
    fill: str | GradientDef | None = None  # a colour or a gradient
    stroke: str | GradientDef | None = None  # a colour or a gradient
    stroke_width: float = 0.5
    dash: list[float] = field(default_factory=list)
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw, styles, problems) -> bool:
        return check_paints(self, raw, "polygon element", problems)

    def draw(self, f: Frame) -> list[Op]:
        fill = f.paint(self.fill, self._loc)
        stroke = f.paint(self.stroke, self._loc)
        points = tuple((x * mm, f.y(y)) for x, y in self.polygon)
        return [ShapeOp(points, self.closed, fill, stroke, self.stroke_width, tuple(self.dash))]
