"""One error model for every stage: a problem has a location, a code and a message.

Stages collect problems instead of raising on the first one, so the user sees every
mistake in one run. `PnpError` carries them to the CLI, which prints one per line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Exit codes of the CLI (documented in the README).
EXIT_OK = 0
EXIT_ERRORS = 1  # the input was read, but it breaks a rule or does not fit
EXIT_UNREADABLE = 2  # the input cannot be read at all (syntax, missing file, wrong shape)

ERROR = "error"
WARNING = "warning"
NOTE = "note"  # a check that could not run because of errors found before it: neither an error nor a warning


@dataclass(unsafe_hash=True, order=True, slots=True)
class Location:
    """Where a value comes from: file, 1-based line and column (0 = unknown); in a
    workbook, `sheet` names the sheet and line and column are the cell's row and column,
    shown as a spreadsheet names the cell (`cards.xlsx:Cards!C7`). Every loaded value has
    one, so it is slotted: a large deck keeps tens of thousands. A value, never changed
    once made, though not frozen (see pnp/layout/faces.py)."""

    file: str
    line: int = 0
    col: int = 0
    sheet: str = ""

    def __str__(self) -> str:
        if self.sheet and self.line:
            return f"{self.file}:{self.cell}"
        if self.line and self.col:
            return f"{self.file}:{self.line}:{self.col}"
        if self.line:
            return f"{self.file}:{self.line}"
        return self.file

    @property
    def cell(self) -> str:
        """The cell as a spreadsheet names it, `Cards!C7` (a whole row: `Cards!7:7`); ''
        outside a workbook."""
        if not (self.sheet and self.line):
            return ""
        name = self.sheet if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", self.sheet) else "'" + self.sheet.replace("'", "''") + "'"
        return f"{name}!{column_letters(self.col)}{self.line}" if self.col else f"{name}!{self.line}:{self.line}"


def column_letters(col: int) -> str:
    """A column's letters as a spreadsheet shows them: 1 -> A, 27 -> AA."""
    out = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        out = chr(65 + rest) + out
    return out


@dataclass(unsafe_hash=True, repr=False)
class Problem:
    """A single located mistake. `code` is stable, so tools can filter on it."""

    location: Location
    code: str
    message: str
    severity: str = ERROR

    def __str__(self) -> str:
        tag = "" if self.severity == ERROR else f"{self.severity}: "
        return f"{self.location}: {tag}{self.message} [{self.code}]"

    def as_json(self) -> dict[str, Any]:
        """The problem as `pnp check --format json` lists it (and the preview shows it)."""
        loc = self.location
        cell = {"cell": loc.cell} if loc.sheet else {}
        return {"file": loc.file, "line": loc.line, "col": loc.col, **cell, "code": self.code, "severity": self.severity, "message": self.message}


@dataclass(repr=False, eq=False)
class Problems:
    """An accumulator passed through a stage; `raise_if_errors` ends the stage. Each
    problem is kept once, in the order found: the same mistake found again (a face laid
    out in two passes, a map's hexes drawn in three layers, a rulebook's text set
    in two passes) is one line for the user."""

    items: list[Problem] = field(default_factory=list)
    unreadable: bool = False  # set when the input could not be parsed at all

    def __post_init__(self) -> None:
        self.items = list(dict.fromkeys(self.items))
        self._seen = set(self.items)

    def add(self, problem: Problem) -> None:
        if problem not in self._seen:
            self._seen.add(problem)
            self.items.append(problem)

    def error(self, location: Location, code: str, message: str) -> None:
        self.add(Problem(location, code, message))

    def warn(self, location: Location, code: str, message: str) -> None:
        self.add(Problem(location, code, message, severity=WARNING))

    def note(self, location: Location, code: str, message: str) -> None:
        """A check that could not run, and why: the user knows what is still unchecked."""
        self.add(Problem(location, code, message, severity=NOTE))

    def extend(self, other: Problems | list[Problem]) -> None:
        for problem in other.items if isinstance(other, Problems) else other:
            self.add(problem)
        self.unreadable = self.unreadable or (isinstance(other, Problems) and other.unreadable)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity == WARNING]

    @property
    def notes(self) -> list[Problem]:
        return [p for p in self.items if p.severity == NOTE]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise PnpError(self)


class PnpError(Exception):
    """The only exception that leaves the pipeline for a problem in the user's input."""

    def __init__(self, problems: Problems | Problem):
        if isinstance(problems, Problem):
            problems = Problems([problems])
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems.items))

    @property
    def exit_code(self) -> int:
        return EXIT_UNREADABLE if self.problems.unreadable else EXIT_ERRORS


def fail(location: Location, code: str, message: str, unreadable: bool = False) -> PnpError:
    """Build a one-problem error to raise."""
    problems = Problems([Problem(location, code, message)], unreadable=unreadable)
    return PnpError(problems)


def display_path(path: Path) -> str:
    """A path as the user should see it: relative to the working directory when inside it;
    a link by its own name, not its target's (its folder's links are resolved)."""
    try:
        return str((path.absolute().parent.resolve() / path.name).relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


# --- one cause, one error: the same problem on many cards, printed once ----------------

SHOWN_PLACES = 3  # places (or cards) printed after the first of a group
GROUP_FROM = 5  # fewer of a kind are printed one by one: no more lines than the group
_CARD = re.compile(r"\b(card|component|row) '([^']*)'")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_NAMED_PLACE = re.compile(r"[^\s()'\"]+\.[A-Za-z]{1,5}:[^\s()'\",;]+")  # a place a message names: `layouts/card.yaml:16:5`


def same_cause(problem: Problem) -> tuple[str, str, str]:
    """What makes two problems one mistake made many times: the same code and message
    but for the card named and the numbers measured (a text 41.3 mm high on one card,
    42.0 on the next, is the same box too small). A place the message names (the layout
    element a text box comes from) is part of the cause: two boxes are two causes."""
    message = _CARD.sub(r"\1 '…'", problem.message)
    return problem.severity, problem.code, _masked(message)


def _masked(message: str) -> str:
    """The message with its measured numbers as '#', the places it names kept whole."""
    out, end = [], 0
    for place in _NAMED_PLACE.finditer(message):
        out.append(_NUMBER.sub("#", message[end : place.start()]))
        out.append(place.group())
        end = place.end()
    out.append(_NUMBER.sub("#", message[end:]))
    return "".join(out)


def grouped(problems: list[Problem]) -> list[str]:
    """The lines to print for `problems`, in the order found: a problem that recurs on
    many cards (its message names a card, component or row) is printed once, and so is
    one that names none but recurs at as many places (each image of a folder). Where each
    card's problem is at its own place (its cell, its line), the first few other places
    follow, and how many more; where it is at one place for every card (the layout
    element whose file name no card has), one line per place, with the cards it concerns."""
    causes: dict[tuple[str, str, str], list[Problem]] = {}
    for problem in problems:
        causes.setdefault(same_cause(problem), []).append(problem)
    order = {id(p): n for n, p in enumerate(problems)}
    groups: list[tuple[bool, list[Problem]]] = []  # (at one shared place, members)
    for key, members in causes.items():
        if not _CARD.search(key[2]):  # names no card: one line when it recurs at as many places (image files), else each
            apart_places = len({p.location for p in members}) == len(members) >= GROUP_FROM
            groups.extend([(False, members)] if apart_places else [(False, [p]) for p in members])
            continue
        at: dict[Location, list[Problem]] = {}
        for p in members:
            at.setdefault(p.location, []).append(p)
        shared = {loc: ps for loc, ps in at.items() if len({_named(p) for p in ps}) > 1}  # one place, several cards
        apart = [p for p in members if p.location not in shared]
        if apart:
            groups.append((False, apart))
        groups.extend((True, ps) for ps in shared.values())
    groups.sort(key=lambda group: order[id(group[1][0])])
    lines = []
    for shared, members in groups:
        first = members[0]
        noun = _CARD.search(first.message)
        kind = noun.group(1) if noun else "place"
        if len(members) < GROUP_FROM:
            lines.extend(str(p) for p in members)
            continue
        if shared:  # one place: the other cards it concerns, each once
            others = list(dict.fromkeys(_named(p) for p in members if _named(p) != _named(first)))
            shown = ", ".join(f"'{name}'" for name in others[:SHOWN_PLACES])
            lines += [str(first), f"  the same for {_plural(kind, min(len(others), SHOWN_PLACES))} {shown}{_more(len(others), kind)}"]
            continue
        places = list(dict.fromkeys(p.location for p in members if p.location != first.location))  # each place once
        if not places:  # one card, one place: as many mistakes
            lines.extend(str(p) for p in members)
            continue
        shown = ", ".join(_place(loc, first.location.file) for loc in places[:SHOWN_PLACES])
        lines += [str(first), f"  the same at {shown}{_more(len(places), kind)}"]
    return lines


def _more(count: int, kind: str) -> str:
    """' ... and 6 more cards' after the first SHOWN_PLACES of `count`; '' when all are shown."""
    rest = count - SHOWN_PLACES
    return f" ... and {rest:,} more {_plural(kind, rest)}" if rest > 0 else ""


def _named(problem: Problem) -> str:
    """The card (component, row) a problem's message names."""
    found = _CARD.search(problem.message)
    return found.group(2) if found else ""


def _plural(noun: str, count: int) -> str:
    return noun if count == 1 else noun + "s"


def _place(loc: Location, file: str) -> str:
    """A place after the first of its group: without the file when it is the same one."""
    if loc.file != file or not loc.line:
        return str(loc)
    return str(loc)[len(file) + 1 :]


def one_of(names: Iterable[str], none: str) -> str:
    """What a message expects: 'one of: a, b, ... (40 in all)', or `none` (say what is really
    the case: "nothing: the game defines no symbols") when there is nothing to choose from."""
    names = [str(name) for name in names]
    if not names:
        return none
    return "one of: " + ", ".join(names[:12]) + (f", ... ({len(names)} in all)" if len(names) > 12 else "")
