"""Stage 2, check: hold the loaded game to its own rules model, what every kind of
constraint shares.

rules.yaml declares constraints, each with an id, a severity and a message, and exactly
one kind of check, named by its key (KINDS in __init__.py, one module each; see
docs/rules.md). Selections (`type`, `where`) and `for_each` are shared by all kinds, and
so is what is here: reading a constraint and its keys (`load_constraints`), the names its
expressions and message see, reporting a violation with the message filled in, the
components a selection chooses, the values a field (or a pattern in it) gives, and the
names a reference target stands for; and the loop that runs every constraint
(`check_rules`). Expressions and messages are those of pnp/templates/expressions.py:
sandboxed, strict (a misspelt name is an error at its line, once per constraint), with
the same names as layouts and rulebooks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, make_dataclass
from functools import cache
from typing import Any, ClassVar, Literal

from pnp.base.errors import Location, Problems, one_of
from pnp.check.constraints import KINDS, kind_class
from pnp.load.model import COMPONENT_NAMES, Card, Game
from pnp.load.schema import MISSING, build, hints, suggest
from pnp.load.yamlfile import LList, LMap
from pnp.project.deals import members_of_deals
from pnp.templates.expressions import CODE, FAILED, Names, View, evaluate_at, explain, filled, read


class ConstraintKind:
    """One kind of constraint: a dataclass of its keys in rules.yaml, the first named like
    the kind (`unique`, then `within`), read by schema.build like every other key of the
    constraint (so no two kinds may have a key of the same name); and its `check`."""

    selects: ClassVar[bool] = True  # checks the components the constraint selects; False: the game as a whole (expression)

    def located(self, item: LMap) -> dict[str, Location]:
        """Where the kind's expressions are written, by the name their messages give them
        ('expect', 'some'), so that a mistake in one is reported at its own line."""
        return {}

    def check(self, checker: Checker, c: Constraint, cards: list[Card], extra: dict) -> bool | None:
        """Report each violation among the selected `cards` with checker.say; `extra` binds
        for_each's `value`. False stops the constraint (an expression or a target that
        failed, reported once, not once per value of for_each)."""
        raise NotImplementedError


@dataclass(repr=False, eq=False)
class Constraint:
    """One rule of rules.yaml's `constraints:`: the keys every kind shares, its kind (one of KINDS) and where it was read."""

    id: str
    message: str
    severity: Literal["error", "warning"] = "error"
    type: str | None = None  # select components of this type (default: all)
    where: str | None = None  # and only those for which this expression is true
    for_each: str | None = None  # repeat for every value of this enumeration, bound to `value`
    kind: ConstraintKind = field(kw_only=True)  # in rules.yaml, the keys of one of KINDS stand here
    doc: str = ""
    _loc: Location = field(default=Location("?"), repr=False)
    _locs: dict[str, Location] = field(default_factory=dict, repr=False)  # of where, message and the kind's expressions

    def loc_of(self, key: str) -> Location:
        return self._locs.get(key, self._loc)


@dataclass(repr=False, eq=False)
class Source:
    """Where values come from: a field, optionally searched with a regular expression."""

    field: str
    pattern: str | None = None  # every group of every match is a value
    split: str | None = None  # a regular expression that splits each match into names


@cache
def _schema(kinds: tuple[str, ...]) -> type:
    """The dataclass a constraint is read with: the keys of Constraint, with the keys of
    `kinds` (each optional) in place of `kind`, in the order of KINDS."""
    constraint_hints = hints(Constraint)
    spec: list[tuple[str, Any, Any]] = []
    for f in fields(Constraint):
        if f.name != "kind":
            spec.append((f.name, constraint_hints[f.name], field(default=f.default, default_factory=f.default_factory)))
            continue
        for key in kinds:
            cls = kind_class(key)
            kind_hints = hints(cls)
            spec.extend((g.name, kind_hints[g.name] | None, field(default=None)) for g in fields(cls))
    doc = "The keys of a constraint of these kinds."  # a dataclass without one has its signature made for it (inspect), which is slow
    return make_dataclass("ConstraintKeys", spec, repr=False, eq=False, namespace={"__doc__": doc})


def _named(items: LList) -> tuple[str, ...]:
    """The kinds the constraints of a list name, in the order of KINDS."""
    keys = {str(key).replace("-", "_") for item in items if isinstance(item, LMap) for key in item}
    return tuple(k for k in KINDS if k in keys)


@cache
def _keys_of(schema: type) -> frozenset[str]:
    """The keys a schema reads (as schema.build: not those starting with '_')."""
    return frozenset(f.name for f in fields(schema) if f.init and not f.name.startswith("_"))


def _schema_of(item: LMap, named: tuple[str, ...]) -> type:
    """The schema for one constraint: the keys shared and those of the kinds `named` by
    any constraint of the list (their modules imported now), when it has only keys of
    those: one schema for every constraint, not one per combination of kinds (making a
    dataclass is slow), read alike since keys it does not have change nothing. Otherwise
    the keys of the kinds it names, or every kind's when it has another key, so that a
    misspelt key is answered with every key there is, and a key of a kind it does not
    name is known."""
    keys = {str(key).replace("-", "_") for key in item}
    if keys <= _keys_of(_schema(named)):
        return _schema(named)
    schema = _schema(tuple(k for k in KINDS if k in keys))
    if keys - {f.name for f in fields(schema)}:
        schema = _schema(tuple(KINDS))
    return schema


def load_constraints(raw: Any, problems: Problems) -> list[Constraint]:
    """Read the `constraints:` list of rules.yaml."""
    out: list[Constraint] = []
    if raw is None:
        return out
    if not isinstance(raw, LList):
        problems.error(getattr(raw, "loc", Location("?")), "constraint-shape", "constraints must be a list; expected '- id: ...' entries")
        return out
    seen: set[str] = set()
    named = _named(raw)
    for i, item in enumerate(raw):
        if not isinstance(item, LMap):
            problems.error(raw.loc_of(i), "constraint-shape", f"constraint {i + 1} is not a mapping; expected id, message and one of: {', '.join(KINDS)}")
            continue
        read = build(_schema_of(item, named), item, problems, "constraint")
        if read is MISSING:
            continue
        kinds = [k for k in KINDS if getattr(read, k, None) is not None]
        if len(kinds) != 1:
            problems.error(item.loc, "constraint-kind", f"constraint '{read.id}' has {len(kinds) or 'none'} of {', '.join(KINDS)}; expected exactly one")
            continue
        stray = _stray(read, kinds[0])
        if stray is not None:
            name, key = stray
            problems.error(
                item.loc_of(name),
                f"constraint-{name.replace('_', '-')}",
                f"constraint '{read.id}' has '{name}' but is not a {key} check; expected '{name}' only beside '{key}'",
            )
            continue
        if read.id in seen:
            problems.error(item.loc_of("id"), "constraint-id", f"constraint id '{read.id}' is used twice; expected unique ids")
        seen.add(read.id)
        cls = kind_class(kinds[0])
        kind = cls(**{name: getattr(read, name) for name in _keys(kinds[0]) if getattr(read, name) is not None})
        c = Constraint(**{f.name: getattr(read, f.name) for f in fields(Constraint) if f.init and f.name != "kind"}, kind=kind)
        c._locs = {key: item.loc_of(key) for key in ("where", "message") if key in item} | kind.located(item)
        out.append(c)
    return out


@cache
def _keys(kind: str) -> tuple[str, ...]:
    """The keys of a kind in rules.yaml, its own first (once: dataclasses.fields is slow)."""
    return tuple(f.name for f in fields(kind_class(kind)))


def _stray(read: Any, kind: str) -> tuple[str, str] | None:
    """A key (and its kind) given to a constraint of another kind: `within` beside `expect`."""
    for other in KINDS:
        if other != kind and hasattr(read, other):  # read with the keys of `other`
            for name in _keys(other)[1:]:
                if getattr(read, name) is not None:
                    return name, other
    return None


class Checker:
    """Runs the constraints over one game; what every kind's check uses to evaluate its
    expressions, choose components, read values and report what it found."""

    def __init__(self, game: Game, constraints: list[Constraint], problems: Problems, names: Names, views: dict[int, View]):
        """`names` and `views` (id of a card -> its view, Names.view_of) are shared with
        the deals' includes, which see the same cards."""
        self.game = game
        self.constraints = constraints
        self.problems = problems
        self.cards = game.cards() + game.deals
        self.names = names
        self._views = views  # each card is in the context of many constraints
        self._selected: dict[tuple, list[Card]] = {}  # (type, where, bindings) -> what `select` chose: constraints often share one
        self.once: set[Any] = set()  # what a kind reports once for all its constraints (graph: an unknown neighbour)
        self._message_failed: set[str] = set()  # constraints whose message could not be filled in: reported once

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
        if not c.kind.selects:
            return c.kind.check(self, c, [], extra) is not False
        cards = self.select(c, extra)
        if cards is None:
            return False
        return c.kind.check(self, c, cards, extra) is not False

    def evaluate(self, source: str, ctx: dict, c: Constraint, what: str) -> Any:
        """The value of one of the constraint's expressions; FAILED (reported) stops the
        constraint, so a mistake is reported once and not once per component."""
        return evaluate_at(source, ctx, c.loc_of(what), f"constraint '{c.id}': {what}", self.problems)

    def card_ctx(self, card: Card, extra: dict) -> dict:
        """What an expression or message about one card sees (pnp/templates/expressions.py)."""
        return self.names.around(self.names.view_of(card, self._views), **extra)

    def game_ctx(self, extra: dict) -> dict:
        return self.names.of_game(**extra)

    def say(self, c: Constraint, loc: Location, detail: str, ctx: dict) -> None:
        """Report a violation of `c` at `loc`: its message filled in with `ctx`, then `detail`."""
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

    def select(self, c: Constraint, extra: dict) -> list[Card] | None:
        """The components of the constraint's `type` for which its `where` holds; None when
        `where` failed (reported). Chosen once for the constraints that share a selection
        (its value depends on nothing else); a failure is not kept, so each constraint that
        shares a failing `where` reports it under its own id, as before."""
        key = (c.type, c.where, tuple((name, id(value)) for name, value in extra.items()))  # bound values live as long as the game
        chosen = self._selected.get(key)
        if chosen is None:
            chosen = self._choose(c, extra)
            if chosen is None:
                return None
            self._selected[key] = chosen
        return list(chosen)  # a copy: a kind may reorder what it is given

    def _choose(self, c: Constraint, extra: dict) -> list[Card] | None:
        """`select`, done: every component tried."""
        chosen = []
        for card in self.cards:
            if c.type is not None and card.type != c.type:
                continue
            if c.where is not None:
                ok = self.evaluate(c.where, self.card_ctx(card, extra), c, "where")
                if ok is FAILED:
                    return None
                if not ok:
                    continue
            chosen.append(card)
        return chosen

    def readable(self, c: Constraint, name: str, key: str, type_name: str | None = None) -> bool:
        """Whether a name a rule reads of each component (`unique: titel`, `key`) is one it
        has: id, type, copies, deck or a field of the type(s) selected (`type_name`, else the
        constraint's type, else any); reported once otherwise, not read as nothing."""
        type_name = type_name or c.type
        types = [self.game.types[type_name]] if type_name in self.game.types else list(self.game.types.values())
        if name in COMPONENT_NAMES or any(name in t.fields for t in types):
            return True
        if (c.id, key, name) not in self.once:
            self.once.add((c.id, key, name))
            known = [*COMPONENT_NAMES, *dict.fromkeys(f for t in types for f in t.fields)]
            which = f"type '{type_name}' does not have" if type_name in self.game.types else "no type has"
            self.problems.error(
                c._loc,
                "constraint-field",
                f"[{c.id}] {key} names '{name}', which {which} as a field{suggest(name, known)}; expected {one_of(known, 'a field')}",
            )
        return False

    def source(self, spec: Source, card: Card) -> list[Any]:
        """The values `spec` finds on one card: its field's value (each item of a list), or
        the names its pattern matches there."""
        value = read(card, spec.field)
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

    def target(self, spec: str, c: Constraint) -> set[str] | None:
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
            if not self.readable(c, field_name, "target", type_name):
                return None
            found = set()
            for card in self.cards:
                if card.type == type_name:
                    value = read(card, field_name)
                    found.update(str(v) for v in (value if isinstance(value, list) else [value]) if v is not None)
            return found
        self.problems.error(
            c._loc, "constraint-target", f"[{c.id}] target '{spec}' is not understood; expected 'TYPE.FIELD', 'enum NAME', 'enum NAME.ATTRIBUTE' or 'symbol'"
        )
        return None


def describe_target(target: str) -> str:
    """A reference target in words: 'enum empire.name' -> "the name of any 'empire' value"."""
    words = target.split()
    if words == ["symbol"]:
        return "a symbol of the game"
    if len(words) == 2 and words[0] == "enum":
        enum, _, attr = words[1].partition(".")
        return f"the {attr} of any '{enum}' value" if attr else f"a value of '{enum}'"
    type_name, _, field_name = target.partition(".")
    return f"the {field_name} of any '{type_name}' component"


def check_rules(game: Game, raw_constraints: Any, held: str | None = None) -> Problems:
    """Run every constraint of the game, and every deal's `include`; returns the
    violations (errors and warnings). `held` says why the cards are incomplete (some
    were left out for errors in their data): the constraints are read and checked
    themselves, but not run, since a count or a reference would miss the cards left
    out; a note says so."""
    problems = Problems()
    constraints = load_constraints(raw_constraints, problems)
    if held is not None:
        if constraints or game.deals:
            where = getattr(raw_constraints, "loc", None) or game.locs.get("deals", game.loc)
            problems.note(
                where, "not-checked", f"the game's rules (constraints, deals) were not checked: {held}, and they must see every card; fix those errors first"
            )
        return problems
    if not constraints and not game.deals:
        return problems  # the checker and the deals read every card: only when there is something to check
    names, views = Names(game), {}  # what expressions see of each card, made once for both
    if constraints:
        Checker(game, constraints, problems, names, views).run()
    members_of_deals(game, game.deals, problems, names, views)
    return problems
