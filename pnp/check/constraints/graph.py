"""graph: a map held together by a field that lists each component's neighbours by id.
The names must exist and not be the component itself; with `symmetric`, a neighbour
lists the component back; with `connected`, every selected component is reached from
the first; with `some`, at least one neighbour satisfies an expression, in its own
context.

    graph: {neighbours: neighbours, symmetric: true, connected: true}
    graph: {neighbours: neighbours, some: "kind == 'sea'"}"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.base.errors import Location
from pnp.check.constraints.base import Checker, Constraint, ConstraintKind
from pnp.load.model import Card
from pnp.load.schema import suggest
from pnp.load.yamlfile import LMap
from pnp.templates.expressions import FAILED


@dataclass(repr=False, eq=False)
class GraphSpec:
    """A map held together by a field that lists each component's neighbours by id."""

    neighbours: str  # the field listing neighbour ids
    symmetric: bool = False  # a neighbour lists this component back
    connected: bool = False  # every selected component is reachable from the first
    some: str | None = None  # an expression at least one neighbour satisfies (in its own context)


@dataclass(repr=False, eq=False)
class Graph(ConstraintKind):
    graph: GraphSpec

    def located(self, item: LMap) -> dict[str, Location]:
        graph = item.get("graph")
        return {"some": graph.loc_of("some")} if isinstance(graph, LMap) and "some" in graph else {}

    def check(self, checker: Checker, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        spec = self.graph
        game = checker.game
        field_name = spec.neighbours
        types = [game.types[c.type]] if c.type else list(game.types.values())
        if not any(field_name in t.fields for t in types):
            known = sorted({f for t in types for f in t.fields})
            checker.problems.error(
                c._loc,
                "constraint-graph",
                f"[{c.id}] graph neighbours names field '{field_name}', which {f'type {c.type!r} does not have' if c.type else 'no type has'}{suggest(field_name, known)}; expected the field that lists each component's neighbours",
            )
            return False
        universe = {card.id: card for card in checker.cards if c.type is None or card.type == c.type}
        chosen = {card.id: card for card in cards}

        def listed(card: Card) -> list[tuple[int, str]]:
            value = card.fields.get(field_name)
            items = value if isinstance(value, list) else [] if value is None else [value]
            return [(i, str(v)) for i, v in enumerate(items) if v is not None]

        links: dict[str, list[str]] = {}  # component id -> its known neighbours, in order
        for card in cards:
            links[card.id] = []
            for i, name in listed(card):
                loc = card.loc_of(f"{field_name}.{i}")
                if name == card.id:
                    checker.say(c, loc, f"'{card.id}' lists itself as a neighbour", checker.card_ctx(card, extra))
                elif name not in universe:
                    if ("unknown neighbour", loc) not in checker.once:  # once, even when several graph constraints read it
                        checker.once.add(("unknown neighbour", loc))
                        what = f"a {c.type}" if c.type else "a component"
                        checker.say(
                            c, loc, f"'{card.id}' lists '{name}' as a neighbour, which is not {what}{suggest(name, universe)}", checker.card_ctx(card, extra)
                        )
                else:
                    links[card.id].append(name)
        if spec.symmetric:
            for card in cards:
                for i, name in listed(card):
                    if name in chosen and name != card.id and card.id not in {n for _, n in listed(chosen[name])}:
                        checker.say(
                            c,
                            card.loc_of(f"{field_name}.{i}"),
                            f"'{card.id}' lists '{name}' as a neighbour but '{name}' does not list '{card.id}'",
                            checker.card_ctx(card, extra),
                        )
        if spec.connected and cards:
            start = cards[0].id
            seen, todo = {start}, [start]
            while todo:
                for name in links.get(todo.pop(), []):
                    if name in chosen and name not in seen:
                        seen.add(name)
                        todo.append(name)
            lost = [card for card in cards if card.id not in seen]
            if lost:
                checker.say(
                    c,
                    lost[0].loc_of(field_name),
                    f"not reachable from '{start}': {', '.join(repr(card.id) for card in lost)}",
                    checker.card_ctx(lost[0], extra),
                )
        if spec.some is not None:
            for card in cards:
                names = links[card.id]
                found = False
                for name in names:
                    ok = checker.evaluate(spec.some, checker.card_ctx(universe[name], extra), c, "some")
                    if ok is FAILED:
                        return False
                    if ok:
                        found = True
                        break
                if not found:
                    detail = f"none of the neighbours of '{card.id}' satisfies {spec.some}: {', '.join(names)}" if names else f"'{card.id}' has no neighbours"
                    checker.say(c, card.loc_of(field_name), detail, checker.card_ctx(card, extra))
        return None
