"""expression: an expression over the whole game that must be true (the escape hatch).
It selects no components: decks, `components` and the helpers are its names.

    expression: cards | selectattr('rare') | list | length <= 3"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.base.errors import Location
from pnp.check.constraints.base import Checker, Constraint, ConstraintKind
from pnp.load.model import Card
from pnp.load.yamlfile import LMap
from pnp.templates.expressions import FAILED


@dataclass(repr=False, eq=False)
class Expression(ConstraintKind):
    """An expression true of the whole game."""

    expression: str

    selects = False

    def located(self, item: LMap) -> dict[str, Location]:
        return {"expression": item.loc_of("expression")}

    def check(self, checker: Checker, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        ok = checker.evaluate(self.expression, checker.game_ctx(extra), c, "expression")
        if ok is FAILED:
            return False
        if not ok:
            checker.say(c, c._loc, f"for {extra['value']}" if extra else "", checker.game_ctx(extra))
        return None
