"""partition: the values found (of a field, or found by a pattern) cover a target exactly
once: each of its names once, and nothing else. The targets are those of `reference`.

    partition: {field: suit, covers: enum suit}
    partition: {field: disciplines, covers: enum discipline, per_card: true}"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pnp.check.constraints.base import Checker, Constraint, ConstraintKind, Source, describe_target
from pnp.load.model import Card


@dataclass(repr=False, eq=False)
class PartitionSpec(Source):
    """Where the values come from, and what they must cover once each."""

    covers: str = ""  # the same target forms as ReferenceSpec.to
    per_card: bool = False  # each card on its own covers the target (else all cards together)


@dataclass(repr=False, eq=False)
class Partition(ConstraintKind):
    """The selected components' values cover a target: each of its names once, and nothing else."""

    partition: PartitionSpec

    def check(self, checker: Checker, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        spec = self.partition
        if not checker.readable(c, spec.field, "field"):
            return False
        target = checker.target(spec.covers, c)
        if target is None:
            return False
        batches = [[card] for card in cards] if spec.per_card else [cards]
        for batch in batches:
            seen = Counter(str(v) for card in batch for v in checker.source(spec, card))
            twice = sorted(v for v, n in seen.items() if n > 1)
            missing = sorted(target - set(seen))
            extra_names = sorted(set(seen) - target)
            if twice or missing or extra_names:
                parts = [
                    f"named twice: {', '.join(twice)}" if twice else "",
                    f"missing: {', '.join(missing)}" if missing else "",
                    f"not {describe_target(spec.covers)}: {', '.join(extra_names)}" if extra_names else "",
                ]
                loc = batch[0].loc_of(spec.field) if batch and (spec.per_card or len(batch) == 1) else c._loc
                who = f"card '{batch[0].id}': " if spec.per_card and batch else ""
                checker.say(c, loc, who + "; ".join(p for p in parts if p), checker.game_ctx(extra))
        return None
