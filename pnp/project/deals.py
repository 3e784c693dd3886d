"""Deals: which components a build prints for a deal. game.yaml's `deals.include` is an
expression evaluated for every component with `deal` bound; a deal uses the components
for which it is true. `pnp check` reports a failing include (check/constraints), and a
build, an export and `pnp list` print or count only a deal's components."""

from __future__ import annotations

from pnp.base.errors import Location, PnpError, Problem, Problems
from pnp.load.model import Card, Game
from pnp.load.schema import suggest
from pnp.load.yamlfile import LMap, load_yaml
from pnp.templates.expressions import FAILED, Names, View, evaluate_at


def members_of_deals(game: Game, deals: list[Card], problems: Problems, names: Names | None = None, kept: dict[int, View] | None = None) -> dict[str, set[str]]:
    """Ids of the components each deal uses: game.yaml's `deals.include`, evaluated for
    every component with `deal` bound. A failing include is reported once, at its line.
    `names` and `kept` (Names.view_of): those of a caller that evaluated expressions about
    the same cards before (the rules check), so each card's view is made once."""
    if game.meta.deals is None or not deals:
        return {}
    source = game.meta.deals.include
    names = Names(game) if names is None else names
    cards = game.cards()  # unpacked from the card store once, not once per deal
    members: dict[str, set[str]] = {}
    kept = {} if kept is None else kept  # each component's view, made once for every deal (Names.view_of)
    failed = Problems()  # the include's error, reported at its line, found only then (_include_loc)
    for deal in deals:
        chosen = members[deal.id] = set()
        shown = names.view(deal)
        for card in cards:
            ok = evaluate_at(source, names.around(names.view_of(card, kept), deal=shown), game.loc, "deals: include", failed)
            if ok is FAILED:
                loc = _include_loc(game)
                for problem in failed.items:
                    problems.error(loc, problem.code, problem.message)
                return members
            if ok:
                chosen.add(card.id)
    return members


def _include_loc(game: Game) -> Location:
    """Where game.yaml writes `deals.include`: read again only to report a failing one
    (the loaded game does not keep it)."""
    raw = load_yaml(game.root / "game.yaml").get("deals")
    return raw.loc_of("include") if isinstance(raw, LMap) and "include" in raw else game.loc


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
