"""Stage 2, check: hold the loaded game to its own rules model.

rules.yaml declares constraints, each with an id, a severity and a message, and exactly
one kind of check:

  count      how many components (copies counted), in total or per group
  unique     no two components share a value
  reference  values (of a field, or names found in text by a pattern) must exist
  expect     an expression that must hold for every selected component
  partition  the values found cover an enumeration exactly once
  values     the set of values is exactly the one given
  graph      components name their neighbours: the names exist, are mutual, connect the
             map, and some neighbour satisfies an expression
  expression an expression over the whole game (the escape hatch)

Selections (`type`, `where`) and `for_each` are shared by all kinds. Expressions and
messages are those of pnp/templates/expressions.py: sandboxed, strict (a misspelt name is an
error at its line, once per constraint), with the same names as layouts and rulebooks.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from pnp.base.errors import Location, PnpError, Problem, Problems
from pnp.load.model import Card, Game
from pnp.load.schema import MISSING, build, suggest
from pnp.load.yamlfile import LList, LMap, load_yaml
from pnp.templates.expressions import CODE, FAILED, Names, evaluate_at, explain, filled


@dataclass(repr=False, eq=False)
class CountSpec:
    equals: int | None = None
    min: int | None = None
    max: int | None = None
    group_by: str | None = None  # a field; each value forms a group
    groups: Literal["present", "all"] = "present"  # all: every enumeration value must have a group
    each: dict[str, int] = field(default_factory=dict)  # expected count per group value
    copies: bool = True  # count printed copies, not distinct cards


@dataclass(repr=False, eq=False)
class Source:
    """Where values come from: a field, optionally searched with a regular expression."""

    field: str
    pattern: str | None = None  # every group of every match is a value
    split: str | None = None  # a regular expression that splits each match into names


@dataclass(repr=False, eq=False)
class ReferenceSpec(Source):
    to: str = ""  # "event.kind" (a field of components of a type), "enum discipline", "enum event_kind.name", "symbol"
    allow: list[str] = field(default_factory=list)  # values accepted without a target


@dataclass(repr=False, eq=False)
class PartitionSpec(Source):
    covers: str = ""  # the same target forms as ReferenceSpec.to
    per_card: bool = False  # each card on its own covers the target (else all cards together)


@dataclass(repr=False, eq=False)
class ValuesSpec(Source):
    equals: list[str] = field(default_factory=list)


@dataclass(repr=False, eq=False)
class GraphSpec:
    """A map held together by a field that lists each component's neighbours by id."""

    neighbours: str  # the field listing neighbour ids
    symmetric: bool = False  # a neighbour lists this component back
    connected: bool = False  # every selected component is reachable from the first
    some: str | None = None  # an expression at least one neighbour satisfies (in its own context)


@dataclass(repr=False, eq=False)
class Constraint:
    id: str
    message: str
    severity: Literal["error", "warning"] = "error"
    type: str | None = None  # select components of this type (default: all)
    where: str | None = None  # and only those for which this expression is true
    for_each: str | None = None  # repeat for every value of this enumeration, bound to `value`
    count: CountSpec | None = None
    unique: str | list[str] | None = None
    within: str | None = None  # unique: among the rows of this table field of each component
    reference: ReferenceSpec | None = None
    expect: str | None = None
    partition: PartitionSpec | None = None
    values: ValuesSpec | None = None
    graph: GraphSpec | None = None
    expression: str | None = None
    doc: str = ""
    _loc: Location = field(default=Location("?"), repr=False)
    _locs: dict[str, Location] = field(default_factory=dict, repr=False)  # of where, expect, expression, some and message

    def loc_of(self, key: str) -> Location:
        return self._locs.get(key, self._loc)


KINDS = ("count", "unique", "reference", "expect", "partition", "values", "graph", "expression")


def load_constraints(raw: Any, problems: Problems) -> list[Constraint]:
    """Read the `constraints:` list of rules.yaml."""
    out: list[Constraint] = []
    if raw is None:
        return out
    if not isinstance(raw, LList):
        problems.error(getattr(raw, "loc", Location("?")), "constraint-shape", "constraints must be a list; expected '- id: ...' entries")
        return out
    seen: set[str] = set()
    for i, item in enumerate(raw):
        if not isinstance(item, LMap):
            problems.error(raw.loc_of(i), "constraint-shape", f"constraint {i + 1} is not a mapping; expected id, message and one of: {', '.join(KINDS)}")
            continue
        c = build(Constraint, item, problems, "constraint")
        if c is MISSING:
            continue
        kinds = [k for k in KINDS if getattr(c, k) is not None]
        if len(kinds) != 1:
            problems.error(item.loc, "constraint-kind", f"constraint '{c.id}' has {len(kinds) or 'none'} of {', '.join(KINDS)}; expected exactly one")
            continue
        if c.within is not None and kinds != ["unique"]:
            problems.error(
                item.loc_of("within"),
                "constraint-within",
                f"constraint '{c.id}' has 'within' but is not a unique check; expected 'within' only beside 'unique'",
            )
            continue
        if c.id in seen:
            problems.error(item.loc_of("id"), "constraint-id", f"constraint id '{c.id}' is used twice; expected unique ids")
        seen.add(c.id)
        c._locs = {key: item.loc_of(key) for key in ("where", "expect", "expression", "message") if key in item}
        graph = item.get("graph")
        if isinstance(graph, LMap) and "some" in graph:
            c._locs["some"] = graph.loc_of("some")
        out.append(c)
    return out


class Checker:
    def __init__(self, game: Game, constraints: list[Constraint], problems: Problems):
        self.game = game
        self.constraints = constraints
        self.problems = problems
        self.cards = game.cards() + game.deals
        self.names = Names(game)
        self._message_failed: set[str] = set()  # constraints whose message could not be filled in: reported once
        self._unknown_reported: set[Location] = set()  # an unknown neighbour, once for all graph constraints

    # --- helpers ----------------------------------------------------------------------

    def _eval(self, source: str, ctx: dict, c: Constraint, what: str) -> Any:
        """The value of one of the constraint's expressions; FAILED (reported) stops the
        constraint, so a mistake is reported once and not once per component."""
        return evaluate_at(source, ctx, c.loc_of(what), f"constraint '{c.id}': {what}", self.problems)

    def _card_ctx(self, card: Card, extra: dict) -> dict:
        """What an expression or message about one card sees (pnp/templates/expressions.py)."""
        return self.names.of(card, **extra)

    def _game_ctx(self, extra: dict) -> dict:
        return self.names.of_game(**extra)

    def _say(self, c: Constraint, loc: Location, detail: str, ctx: dict) -> None:
        message = c.message
        if "{" in message:
            try:
                message = filled(message, ctx)
            except Exception as exc:  # reported once; a broken message must not hide the violation
                if c.id not in self._message_failed:
                    self._message_failed.add(c.id)
                    self.problems.error(c.loc_of("message"), CODE, f"constraint '{c.id}': message: {explain(exc, ctx)}")
        text = f"{message} ({detail})" if detail else message
        (self.problems.warn if c.severity == "warning" else self.problems.error)(loc, c.id, text)

    def _select(self, c: Constraint, extra: dict) -> list[Card] | None:
        chosen = []
        for card in self.cards:
            if c.type is not None and card.type != c.type:
                continue
            if c.where is not None:
                ok = self._eval(c.where, self._card_ctx(card, extra), c, "where")
                if ok is FAILED:
                    return None
                if not ok:
                    continue
            chosen.append(card)
        return chosen

    def _source(self, spec: Source, card: Card) -> list[Any]:
        value = card.fields.get(spec.field, card.id if spec.field == "id" else None)
        items = value if isinstance(value, list) else [] if value is None else [value]
        if spec.pattern is None:
            return list(items)
        names: list[str] = []
        for text in items:
            for match in re.finditer(spec.pattern, str(text)):
                for group in match.groups() or (match.group(0),):
                    if group:
                        parts = re.split(spec.split, group) if spec.split else [group]
                        names.extend(p.strip() for p in parts if p.strip())
        return names

    def _target(self, spec: str, c: Constraint) -> set[str] | None:
        """The set of names a reference or partition must resolve to."""
        words = spec.split()
        if words == ["symbol"]:
            return set(self.game.symbols)
        if len(words) == 2 and words[0] == "enum":
            enum, _, attr = words[1].partition(".")
            if enum not in self.game.enums:
                self.problems.error(c._loc, "constraint-target", f"[{c.id}] enumeration '{enum}' does not exist; expected one of: {', '.join(self.game.enums)}")
                return None
            values = self.game.enums[enum].values()
            return {str(v.attrs.get(attr)) if attr else str(v) for v in values}
        if len(words) == 1 and "." in words[0]:
            type_name, _, field_name = words[0].partition(".")
            if type_name not in self.game.types:
                self.problems.error(c._loc, "constraint-target", f"[{c.id}] type '{type_name}' does not exist; expected one of: {', '.join(self.game.types)}")
                return None
            found = set()
            for card in self.cards:
                if card.type == type_name:
                    value = card.id if field_name == "id" else card.fields.get(field_name)
                    found.update(str(v) for v in (value if isinstance(value, list) else [value]) if v is not None)
            return found
        self.problems.error(
            c._loc, "constraint-target", f"[{c.id}] target '{spec}' is not understood; expected 'TYPE.FIELD', 'enum NAME', 'enum NAME.ATTRIBUTE' or 'symbol'"
        )
        return None

    # --- the kinds --------------------------------------------------------------------

    def run(self) -> None:
        for c in self.constraints:
            if c.type is not None and c.type not in self.game.types:
                self.problems.error(c._loc, "constraint-type", f"[{c.id}] type '{c.type}' does not exist; expected one of: {', '.join(self.game.types)}")
                continue
            if c.for_each is not None:
                if c.for_each not in self.game.enums:
                    self.problems.error(
                        c._loc,
                        "constraint-for-each",
                        f"[{c.id}] for_each names '{c.for_each}', which is not an enumeration; expected one of: {', '.join(self.game.enums)}",
                    )
                    continue
                bindings = [{"value": v} for v in self.game.enums[c.for_each].values()]
            else:
                bindings = [{}]
            for extra in bindings:
                if not self._one(c, extra):
                    break  # an expression error: reported once, not per value

    def _one(self, c: Constraint, extra: dict) -> bool:
        if c.expression is not None:
            ok = self._eval(c.expression, self._game_ctx(extra), c, "expression")
            if ok is FAILED:
                return False
            if not ok:
                self._say(c, c._loc, f"for {extra['value']}" if extra else "", self._game_ctx(extra))
            return True
        cards = self._select(c, extra)
        if cards is None:
            return False
        kind = next(k for k in KINDS if getattr(c, k) is not None)
        return getattr(self, f"_{kind}")(c, cards, extra) is not False

    def _count(self, c: Constraint, cards: list[Card], extra: dict) -> None:
        spec = c.count
        assert spec is not None
        weight = (lambda card: card.copies) if spec.copies else (lambda card: 1)
        if spec.group_by is None:
            n = sum(weight(card) for card in cards)
            self._check_number(c, n, spec.equals, spec.min, spec.max, c._loc, "", extra)
            return
        groups: dict[str, list[Card]] = {}
        for card in cards:
            value = card.fields.get(spec.group_by)
            for v in value if isinstance(value, list) else [value]:
                groups.setdefault(str(v) if v is not None else "(none)", []).append(card)
        if spec.groups == "all":
            types = [self.game.types[c.type]] if c.type else list(self.game.types.values())
            enums = [t.fields[spec.group_by].enum for t in types if spec.group_by in t.fields]
            if not enums or enums[0] not in self.game.enums:
                self.problems.error(
                    c._loc, "constraint-groups", f"[{c.id}] groups: all needs '{spec.group_by}' to be an enumeration field; expected a field of type enum"
                )
                return
            for value in self.game.enums[enums[0]]:
                groups.setdefault(value, [])
        for value, members in groups.items():
            n = sum(weight(card) for card in members)
            expected = spec.each.get(value, spec.equals)
            if spec.each and value not in spec.each and spec.equals is None:
                self._say(
                    c,
                    members[0].loc if members else c._loc,
                    f"{spec.group_by} '{value}' is not expected here; expected one of: {', '.join(spec.each)}",
                    self._game_ctx({**extra, "group": value}),
                )
                continue
            loc = members[-1].loc if members and (expected is None or n > expected) else c._loc
            names = ", ".join(card.id for card in members[:8]) + (" ..." if len(members) > 8 else "")
            self._check_number(c, n, expected, spec.min, spec.max, loc, f"{spec.group_by} '{value}': {names or 'none'}", {**extra, "group": value})
        for value in spec.each:
            if value not in groups:
                self._say(c, c._loc, f"{spec.group_by} '{value}' has 0, expected {spec.each[value]}", self._game_ctx({**extra, "group": value}))

    def _check_number(self, c: Constraint, n: int, equals, least, most, loc: Location, what: str, extra: dict) -> None:
        wrong = (equals is not None and n != equals) or (least is not None and n < least) or (most is not None and n > most)
        if wrong:
            if equals is not None:
                want = f"{equals}"
            elif least is not None and most is not None:
                want = f"{least} to {most}"
            else:
                want = f"at least {least}" if least is not None else f"at most {most}"
            self._say(c, loc, f"{what + ' has' if what else 'found'} {n}, expected {want}", self._game_ctx({**extra, "actual": n}))

    def _unique(self, c: Constraint, cards: list[Card], extra: dict) -> None:
        names = [c.unique] if isinstance(c.unique, str) else list(c.unique or [])
        if c.within is not None:
            for card in cards:
                self._unique_rows(c, card, names, extra)
            return
        seen: dict[tuple, Card] = {}
        for card in cards:
            key = tuple(str(card.fields.get(n, card.id if n == "id" else None)) for n in names)
            if key in seen:
                self._say(
                    c,
                    card.loc_of(names[0]),
                    f"'{card.id}' has the same {', '.join(names)} as '{seen[key].id}' ({seen[key].loc})",
                    self._card_ctx(card, extra),
                )
            else:
                seen[key] = card

    def _unique_rows(self, c: Constraint, card: Card, names: list[str], extra: dict) -> None:
        """No two rows of the table `c.within` of one component share the values (the
        coordinates of a map's hexes, the spaces of a track)."""
        rows = card.fields.get(c.within)
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            self._say(
                c,
                c._loc,
                f"'{card.id}' has no table '{c.within}'; expected 'within' to name a table field of the components checked",
                self._card_ctx(card, extra),
            )
            return
        seen: dict[tuple, int] = {}
        for i, row in enumerate(rows):
            key = tuple(str(row.get(n)) for n in names)
            if key in seen:
                same = ", ".join(f"{n}={row.get(n)}" for n in names)
                self._say(
                    c,
                    card.loc_of(f"{c.within}.{i}.{names[0]}"),
                    f"rows {seen[key] + 1} and {i + 1} of '{c.within}' in '{card.id}' have the same {same} ({card.loc_of(f'{c.within}.{seen[key]}')})",
                    self._card_ctx(card, extra),
                )
            else:
                seen[key] = i

    def _reference(self, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        spec = c.reference
        assert spec is not None
        target = self._target(spec.to, c)
        if target is None:
            return False
        for card in cards:
            for name in self._source(spec, card):
                if str(name) not in target and str(name) not in spec.allow:
                    close = suggest(str(name), target)
                    self._say(
                        c,
                        card.loc_of(spec.field),
                        f"card '{card.id}' names '{name}', which is not {_describe(spec.to)}{close}",
                        self._card_ctx(card, {**extra, "name": name}),
                    )
        return None

    def _expect(self, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        assert c.expect is not None
        for card in cards:
            ctx = self._card_ctx(card, extra)
            ok = self._eval(c.expect, ctx, c, "expect")
            if ok is FAILED:
                return False
            if not ok:
                self._say(c, card.loc, f"card '{card.id}' fails: {c.expect}", ctx)
        return None

    def _partition(self, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        spec = c.partition
        assert spec is not None
        target = self._target(spec.covers, c)
        if target is None:
            return False
        batches = [[card] for card in cards] if spec.per_card else [cards]
        for batch in batches:
            seen = Counter(str(v) for card in batch for v in self._source(spec, card))
            twice = sorted(v for v, n in seen.items() if n > 1)
            missing = sorted(target - set(seen))
            extra_names = sorted(set(seen) - target)
            if twice or missing or extra_names:
                parts = [
                    f"named twice: {', '.join(twice)}" if twice else "",
                    f"missing: {', '.join(missing)}" if missing else "",
                    f"not {_describe(spec.covers)}: {', '.join(extra_names)}" if extra_names else "",
                ]
                loc = batch[0].loc_of(spec.field) if batch and (spec.per_card or len(batch) == 1) else c._loc
                who = f"card '{batch[0].id}': " if spec.per_card and batch else ""
                self._say(c, loc, who + "; ".join(p for p in parts if p), self._game_ctx(extra))
        return None

    def _values(self, c: Constraint, cards: list[Card], extra: dict) -> None:
        spec = c.values
        assert spec is not None
        found = {str(v) for card in cards for v in self._source(spec, card)}
        want = {str(v) for v in spec.equals}
        if found != want:
            parts = []
            if want - found:
                parts.append(f"missing: {', '.join(sorted(want - found))}")
            if found - want:
                who = [card.id for card in cards if {str(v) for v in self._source(spec, card)} & (found - want)]
                parts.append(f"not expected: {', '.join(sorted(found - want))} (on {', '.join(who)})")
            loc = next((card.loc for card in cards if {str(v) for v in self._source(spec, card)} & (found - want)), c._loc)
            self._say(c, loc, "; ".join(parts), self._game_ctx(extra))

    def _graph(self, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        spec = c.graph
        assert spec is not None
        field_name = spec.neighbours
        types = [self.game.types[c.type]] if c.type else list(self.game.types.values())
        if not any(field_name in t.fields for t in types):
            known = sorted({f for t in types for f in t.fields})
            self.problems.error(
                c._loc,
                "constraint-graph",
                f"[{c.id}] graph neighbours names field '{field_name}', which {f'type {c.type!r} does not have' if c.type else 'no type has'}{suggest(field_name, known)}; expected the field that lists each component's neighbours",
            )
            return False
        universe = {card.id: card for card in self.cards if c.type is None or card.type == c.type}
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
                    self._say(c, loc, f"'{card.id}' lists itself as a neighbour", self._card_ctx(card, extra))
                elif name not in universe:
                    if loc not in self._unknown_reported:
                        self._unknown_reported.add(loc)
                        what = f"a {c.type}" if c.type else "a component"
                        self._say(
                            c, loc, f"'{card.id}' lists '{name}' as a neighbour, which is not {what}{suggest(name, universe)}", self._card_ctx(card, extra)
                        )
                else:
                    links[card.id].append(name)
        if spec.symmetric:
            for card in cards:
                for i, name in listed(card):
                    if name in chosen and name != card.id and card.id not in {n for _, n in listed(chosen[name])}:
                        self._say(
                            c,
                            card.loc_of(f"{field_name}.{i}"),
                            f"'{card.id}' lists '{name}' as a neighbour but '{name}' does not list '{card.id}'",
                            self._card_ctx(card, extra),
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
                self._say(
                    c, lost[0].loc_of(field_name), f"not reachable from '{start}': {', '.join(repr(card.id) for card in lost)}", self._card_ctx(lost[0], extra)
                )
        if spec.some is not None:
            for card in cards:
                names = links[card.id]
                found = False
                for name in names:
                    ok = self._eval(spec.some, self._card_ctx(universe[name], extra), c, "some")
                    if ok is FAILED:
                        return False
                    if ok:
                        found = True
                        break
                if not found:
                    detail = f"none of the neighbours of '{card.id}' satisfies {spec.some}: {', '.join(names)}" if names else f"'{card.id}' has no neighbours"
                    self._say(c, card.loc_of(field_name), detail, self._card_ctx(card, extra))
        return None


def _describe(target: str) -> str:
    """A reference target in words: 'enum empire.name' -> 'a name of an empire value'."""
    words = target.split()
    if words == ["symbol"]:
        return "a symbol of the game"
    if len(words) == 2 and words[0] == "enum":
        enum, _, attr = words[1].partition(".")
        return f"the {attr} of any '{enum}' value" if attr else f"a value of '{enum}'"
    type_name, _, field_name = target.partition(".")
    return f"the {field_name} of any '{type_name}' component"


def check_rules(game: Game, raw_constraints: Any) -> Problems:
    """Run every constraint of the game, and every deal's `include`; returns the
    violations (errors and warnings)."""
    problems = Problems()
    constraints = load_constraints(raw_constraints, problems)
    if constraints:  # the checker reads every card: only when there is something to check
        Checker(game, constraints, problems).run()
    members_of_deals(game, game.deals, problems)
    return problems


def members_of_deals(game: Game, deals: list[Card], problems: Problems) -> dict[str, set[str]]:
    """Ids of the components each deal uses: game.yaml's `deals.include`, evaluated for
    every component with `deal` bound. A failing include is reported once, at its line."""
    if game.meta.deals is None or not deals:
        return {}
    source = game.meta.deals.include
    raw = load_yaml(game.root / "game.yaml").get("deals")
    loc = raw.loc_of("include") if isinstance(raw, LMap) and "include" in raw else game.loc
    names = Names(game)
    cards = game.cards()  # unpacked from the card store once, not once per deal
    members: dict[str, set[str]] = {}
    for deal in deals:
        chosen = members[deal.id] = set()
        for card in cards:
            ok = evaluate_at(source, names.of(card, deal=names.view(deal)), loc, "deals: include", problems)
            if ok is FAILED:
                return members
            if ok:
                chosen.add(card.id)
    return members


def deal_members(game: Game, deal_id: str) -> set[str]:
    """Ids of the components a deal uses, by the game's `deals.include` expression."""
    deals = {deal.id: deal for deal in game.deals}
    if deal_id not in deals:
        choices = ", ".join(deals) or "none: the game defines no deals"
        raise PnpError(Problem(game.loc, "deal-unknown", f"there is no deal '{deal_id}'{suggest(deal_id, deals)}; expected one of: {choices}"))
    problems = Problems()
    members = members_of_deals(game, [deals[deal_id]], problems)
    problems.raise_if_errors()
    return members[deal_id]
