"""expect: an expression that must hold for every selected component, in its context.

expect: value <= 5 or rare"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.base.errors import Location
from pnp.check.constraints.base import Checker, Constraint, ConstraintKind
from pnp.load.model import Card
from pnp.load.yamlfile import LMap
from pnp.templates.expressions import FAILED


@dataclass(repr=False, eq=False)
class Expect(ConstraintKind):
    """An expression true of every selected component."""

    expect: str

    def located(self, item: LMap) -> dict[str, Location]:
        return {"expect": item.loc_of("expect")}

    def check(self, checker: Checker, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        for card in cards:
            ctx = checker.card_ctx(card, extra)
            ok = checker.evaluate(self.expect, ctx, c, "expect")
            if ok is FAILED:
                return False
            if not ok:
                checker.say(c, card.loc, f"card '{card.id}' fails: {self.expect}", ctx)
        return None
