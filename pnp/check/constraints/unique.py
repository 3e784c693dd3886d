"""unique: no two components share the value of a field, or of several (`[suit, value]`);
with `within: TABLE`, no two rows of one component's table do (every hex of a map listed
once)."""

from __future__ import annotations

from dataclasses import dataclass

from pnp.check.constraints.base import Checker, Constraint, ConstraintKind
from pnp.load.model import Card
from pnp.templates.expressions import read


@dataclass(repr=False, eq=False)
class Unique(ConstraintKind):
    """A field (or fields) whose values no two selected components share."""

    unique: str | list[str]
    within: str | None = None  # among the rows of this table field of each component

    def check(self, checker: Checker, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        names = [self.unique] if isinstance(self.unique, str) else list(self.unique)
        if self.within is not None:
            for card in cards:
                self._rows(checker, c, card, names, extra)
            return
        if not all([checker.readable(c, name, "unique") for name in names]):
            return False
        seen: dict[tuple, Card] = {}
        for card in cards:
            key = tuple(str(read(card, n)) for n in names)
            if key in seen:
                checker.say(
                    c,
                    card.loc_of(names[0]),
                    f"'{card.id}' has the same {', '.join(names)} as '{seen[key].id}' ({seen[key].loc})",
                    checker.card_ctx(card, extra),
                )
            else:
                seen[key] = card

    def _rows(self, checker: Checker, c: Constraint, card: Card, names: list[str], extra: dict) -> None:
        """No two rows of the table `within` of one component share the values (the
        coordinates of a map's hexes, the spaces of a track)."""
        rows = card.fields.get(self.within)
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            checker.say(
                c,
                c._loc,
                f"'{card.id}' has no table '{self.within}'; expected 'within' to name a table field of the components checked",
                checker.card_ctx(card, extra),
            )
            return
        seen: dict[tuple, int] = {}
        for i, row in enumerate(rows):
            key = tuple(str(row.get(n)) for n in names)
            if key in seen:
                same = ", ".join(f"{n}={row.get(n)}" for n in names)
                checker.say(
                    c,
                    card.loc_of(f"{self.within}.{i}.{names[0]}"),
                    f"rows {seen[key] + 1} and {i + 1} of '{self.within}' in '{card.id}' have the same {same} ({card.loc_of(f'{self.within}.{seen[key]}')})",
                    checker.card_ctx(card, extra),
                )
            else:
                seen[key] = i
