"""count: how many components (copies counted), in total or per group.

    count: {equals: 1}
    count: {min: 2, max: 4}
    count: {group_by: suit, groups: all, equals: 10}
    count: {group_by: title, each: {Alfa: 1, Beta: 2}}

A message sees `actual` (the number found) and, per group, `group`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pnp.base.errors import Location
from pnp.check.constraints.base import Checker, Constraint, ConstraintKind
from pnp.load.model import Card
from pnp.templates.expressions import read


@dataclass(repr=False, eq=False)
class CountSpec:
    """How many components a count expects: exactly, at least or at most."""

    equals: int | None = None
    min: int | None = None
    max: int | None = None
    group_by: str | None = None  # a field; each value forms a group
    groups: Literal["present", "all"] = "present"  # all: every enumeration value must have a group
    each: dict[str, int] = field(default_factory=dict)  # expected count per group value
    copies: bool = True  # count printed copies, not distinct cards


@dataclass(repr=False, eq=False)
class Count(ConstraintKind):
    """The selected components number as many as expected."""

    count: CountSpec

    def check(self, checker: Checker, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        spec = self.count
        weight = (lambda card: card.copies) if spec.copies else (lambda card: 1)
        if spec.group_by is None:
            n = sum(weight(card) for card in cards)
            _check_number(checker, c, n, spec.equals, spec.min, spec.max, c._loc, "", extra)
            return
        if not checker.readable(c, spec.group_by, "group_by"):
            return False
        groups: dict[str, list[Card]] = {}
        for card in cards:
            value = read(card, spec.group_by)
            for v in value if isinstance(value, list) else [value]:
                groups.setdefault(str(v) if v is not None else "(none)", []).append(card)
        if spec.groups == "all":
            game = checker.game
            types = [game.types[c.type]] if c.type else list(game.types.values())
            enums = [t.fields[spec.group_by].enum for t in types if spec.group_by in t.fields]
            if not enums or enums[0] not in game.enums:
                checker.problems.error(
                    c._loc, "constraint-groups", f"[{c.id}] groups: all needs '{spec.group_by}' to be an enumeration field; expected a field of type enum"
                )
                return
            for value in game.enums[enums[0]]:
                groups.setdefault(value, [])
        for value, members in groups.items():
            n = sum(weight(card) for card in members)
            expected = spec.each.get(value, spec.equals)
            if spec.each and value not in spec.each and spec.equals is None:
                checker.say(
                    c,
                    members[0].loc if members else c._loc,
                    f"{spec.group_by} '{value}' is not expected here; expected one of: {', '.join(spec.each)}",
                    checker.game_ctx({**extra, "group": value}),
                )
                continue
            loc = members[-1].loc if members and (expected is None or n > expected) else c._loc
            names = ", ".join(card.id for card in members[:8]) + (" ..." if len(members) > 8 else "")
            _check_number(checker, c, n, expected, spec.min, spec.max, loc, f"{spec.group_by} '{value}': {names or 'none'}", {**extra, "group": value})
        for value in spec.each:
            if value not in groups:
                checker.say(c, c._loc, f"{spec.group_by} '{value}' has 0, expected {spec.each[value]}", checker.game_ctx({**extra, "group": value}))


def _check_number(checker: Checker, c: Constraint, n: int, equals, least, most, loc: Location, what: str, extra: dict) -> None:
    wrong = (equals is not None and n != equals) or (least is not None and n < least) or (most is not None and n > most)
    if wrong:
        if equals is not None:
            want = f"{equals}"
        elif least is not None and most is not None:
            want = f"{least} to {most}"
        else:
            want = f"at least {least}" if least is not None else f"at most {most}"
        checker.say(c, loc, f"{what + ' has' if what else 'found'} {n}, expected {want}", checker.game_ctx({**extra, "actual": n}))
