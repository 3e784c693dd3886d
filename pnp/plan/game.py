"""The plan of a whole game: how every print unit and every tuck box of a Project goes on
paper for one sheet spec (and a deal's members), and every problem of putting them there,
made once per build (every language prints the same plan) and reported by the check."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pnp.base.errors import Problems
from pnp.project.project import Project

if TYPE_CHECKING:
    from pnp.impose.sheets import SheetSpec
    from pnp.plan.sheets import UnitPlan
    from pnp.plan.tuckboxes import TuckboxPlan


@dataclass(repr=False, eq=False)
class Plan:
    """Every sheet PDF of a build, in the order the build writes them."""

    units: list[UnitPlan]
    tuckboxes: list[TuckboxPlan]  # none for --sides backs: a box has no back

    @property
    def problems(self) -> Problems:
        """The sheet-* problems of every unit and box, in that order."""
        found = Problems()
        for plan in [*self.units, *self.tuckboxes]:
            found.extend(plan.problems)
        return found


def plan_game(project: Project, spec: SheetSpec, members: set[str] | None = None, deal: str | None = None) -> Plan:
    """How every deck (or group) and tuck box of `project` is printed with `spec`: only the
    cards in `members` (a deal's; None: every card), into the files a build with `deal`
    writes."""
    from pnp.plan.sheets import plan_unit, print_units  # here for speed: a check without sheets (`pnp export`) plans none

    units = [plan_unit(project, unit, spec, members, deal) for unit in print_units(project)]
    boxes: list[TuckboxPlan] = []
    if project.tuckboxes and spec.sides != "backs":
        from pnp.plan.tuckboxes import plan_tuckbox  # here for speed: only a game with tuck boxes plans one

        boxes = [plan_tuckbox(project.game.name, box, spec) for box in project.tuckboxes.values()]
    return Plan(units, boxes)
