"""values: the set of values found (of a field, or found by a pattern) on the selected
components is exactly the one given.

    values: {field: title, equals: [Dawn, Noon]}"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.check.constraints.base import Checker, Constraint, ConstraintKind, Source
from pnp.load.model import Card


@dataclass(repr=False, eq=False)
class ValuesSpec(Source):
    """Where the values come from, and the values they must be."""

    equals: list[str] = field(default_factory=list)


@dataclass(repr=False, eq=False)
class Values(ConstraintKind):
    """The selected components' values are exactly the ones expected."""

    values: ValuesSpec

    def check(self, checker: Checker, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        spec = self.values
        if not checker.readable(c, spec.field, "field"):
            return False
        found = {str(v) for card in cards for v in checker.source(spec, card)}
        want = {str(v) for v in spec.equals}
        if found != want:
            parts = []
            if want - found:
                parts.append(f"missing: {', '.join(sorted(want - found))}")
            if found - want:
                who = [card.id for card in cards if {str(v) for v in checker.source(spec, card)} & (found - want)]
                parts.append(f"not expected: {', '.join(sorted(found - want))} (on {', '.join(who)})")
            loc = next((card.loc for card in cards if {str(v) for v in checker.source(spec, card)} & (found - want)), c._loc)
            checker.say(c, loc, "; ".join(parts), checker.game_ctx(extra))
