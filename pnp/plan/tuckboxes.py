"""How each tuck box goes on paper, decided before it is drawn: the net, its size from
the deck (impose/tuckbox.py, never from the laid-out face), centred alone on one sheet
(portrait, else landscape), else in pieces to glue. Printed one-sided and cut along the
outline, so there are no crop marks; the art runs tuckbox.BLEED past the cut edges
whatever --bleed says, and --gap and the flip do not apply."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from reportlab.lib.units import mm

from pnp.base.errors import Problems
from pnp.impose.sheets import DoesNotFit, Grid, Page, SheetSpec, Tiling, fit_grid, impose, plan_tiling
from pnp.impose.tuckbox import BLEED
from pnp.layout.tuckbox import Tuckbox
from pnp.plan.sheets import PdfName


@dataclass(repr=False, eq=False)
class TuckboxPlan:
    """One tuck box's PDF: the net alone on one sheet (`grid` and its `pages`), or in
    pieces (`tiling`); neither when it cannot be printed (an error in `problems`)."""

    box: str  # the tuck box's id
    deck: str  # the deck it holds
    pdf: PdfName
    spec: SheetSpec  # the sheet as the box is printed: one-sided, no crop marks, tuckbox.BLEED
    grid: Grid | None = None  # one cell, the net centred on the page
    pages: list[Page] = field(default_factory=list)
    tiling: Tiling | None = None
    problems: Problems = field(default_factory=Problems)

    def target(self, out: Path, lang: str) -> Path:
        return self.pdf.target(out, lang)


def plan_tuckbox(game_name: str, box: Tuckbox, spec: SheetSpec) -> TuckboxPlan:
    """Where the net of `box` goes on the paper of `spec`."""
    box_spec = replace(spec, bleed=BLEED, outer_bleed=0.0, back_bleed=None, gap=0.0, marks=False, sides="fronts")
    plan = TuckboxPlan(box.id, box.deck, PdfName(game_name, box.id, spec.paper), box_spec)
    width, height = (length * mm for length in box.net.size)  # the net's face is this size (layout/tuckbox_net.py)
    grid = fit_grid(box_spec, width, height)
    if grid is not None:
        plan.grid = replace(grid, cols=1, rows=1, x0=(grid.page_w - width) / 2, y0=(grid.page_h + height) / 2)  # one box, centred
        plan.pages = list(impose(1, plan.grid, box_spec))
        return plan
    try:
        plan.tiling = plan_tiling(box_spec, width, height)
    except DoesNotFit as exc:
        plan.problems.error(box.loc, "sheet-fit", f"tuck box '{box.id}': {exc}; expected a smaller --overlap or larger paper (--paper)")
    return plan
