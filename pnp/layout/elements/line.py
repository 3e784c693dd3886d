"""`line`: a straight line, optionally dashed."""

from __future__ import annotations

from dataclasses import dataclass, field

from reportlab.lib.units import mm

from pnp.base.errors import Location
from pnp.layout.elements.base import ElementKind, Frame, GradientDef, check_paints
from pnp.layout.faces import BLACK, LineOp, Op


@dataclass(repr=False, eq=False)
class Line(ElementKind):
    """A straight line between two points."""

    by_templates = True

    line: tuple[float, float, float, float]  # x1, y1, x2, y2 in mm
    stroke: str | GradientDef = "#000000"  # a colour or a gradient
    stroke_width: float = 0.5
    dash: list[float] = field(default_factory=list)  # points on, off
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw, styles, problems) -> bool:
        return check_paints(self, raw, "line element", problems)

    def draw(self, f: Frame) -> list[Op]:
        x1, y1, x2, y2 = self.line
        stroke = f.paint(self.stroke, self._loc) or BLACK
        return [LineOp(x1 * mm, f.y(y1), x2 * mm, f.y(y2), stroke, self.stroke_width, tuple(self.dash))]
