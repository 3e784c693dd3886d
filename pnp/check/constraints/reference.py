"""reference: every value of a field (or every name a pattern finds in it) names
something that exists: `TYPE.FIELD`, `enum NAME`, `enum NAME.ATTRIBUTE` or `symbol`.

    reference: {field: text, pattern: 'see (\\w+)', to: card.title}

A message sees `name`, the name that was not found."""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.check.constraints.base import Checker, Constraint, ConstraintKind, Source, describe_target
from pnp.load.model import Card
from pnp.load.schema import suggest


@dataclass(repr=False, eq=False)
class ReferenceSpec(Source):
    """Where the values come from, and what each must name."""

    to: str = ""  # "event.kind" (a field of components of a type), "enum discipline", "enum event_kind.name", "symbol"
    allow: list[str] = field(default_factory=list)  # values accepted without a target


@dataclass(repr=False, eq=False)
class Reference(ConstraintKind):
    """Every value of the selected components names something that exists."""

    reference: ReferenceSpec

    def check(self, checker: Checker, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        spec = self.reference
        if not checker.readable(c, spec.field, "field"):
            return False
        target = checker.target(spec.to, c)
        if target is None:
            return False
        for card in cards:
            for name in checker.source(spec, card):
                if str(name) not in target and str(name) not in spec.allow:
                    close = suggest(str(name), target)
                    checker.say(
                        c,
                        card.loc_of(spec.field),
                        f"card '{card.id}' names '{name}', which is not {describe_target(spec.to)}{close}",
                        checker.card_ctx(card, {**extra, "name": name}),
                    )
        return None
