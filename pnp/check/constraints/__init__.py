"""Constraint kinds of rules.yaml, one module each (its keys, how they are read, and its
check), and the one registry of them: the key that names a kind in a constraint -> its
class. What every kind shares (id, message, severity, the selection by `type`, `where`
and `for_each`, reading a constraint, reporting a violation, the loop over them all) is
in base.py.

A new kind is a module here, named like its key, with a dataclass of its keys whose first
field is named like the key (see base.ConstraintKind for what it has), added to KINDS
below and documented in docs/rules.md. A kind's module is imported when a rules.yaml
first names it: a game without maps does not load the code of `graph`. The order of
KINDS is the order in which messages list the kinds and their keys."""

from __future__ import annotations

from importlib import import_module

KINDS: dict[str, str] = {  # the key, which is also its module's name here -> the class in it
    "count": "Count",
    "unique": "Unique",
    "reference": "Reference",
    "expect": "Expect",
    "partition": "Partition",
    "values": "Values",
    "graph": "Graph",
    "expression": "Expression",
}


def kind_class(key: str) -> type:
    """The class (a base.ConstraintKind) of the constraint kind a rules.yaml names by `key`
    (one of KINDS), its module imported now."""
    return getattr(import_module(f"{__name__}.{key}"), KINDS[key])
