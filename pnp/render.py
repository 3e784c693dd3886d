"""Stage 3, lay out: turn one component and its layout into a Face, a list of drawing
operations in points with every text already set. Nothing here touches a PDF, so
`pnp check` runs the same code to find text that does not fit, missing glyphs and
unknown symbols without building anything."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import SandboxedEnvironment
from reportlab.lib.colors import Color
from reportlab.lib.units import mm

from .check import card_view
from .elements.base import Frame, Layout
from .errors import Location, Problems
from .faces import Face, Op, parse_color
from .fonts import FontSet
from .model import Card, Game, game_info
from .schema import suggest

_ENV = SandboxedEnvironment(undefined=StrictUndefined, finalize=lambda v: "" if v is None else v, autoescape=False)
_FIELD = re.compile(r"^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$")


@lru_cache(maxsize=4096)
def _template(source: str):
    return _ENV.from_string(source)


@lru_cache(maxsize=1024)
def _expression(source: str):
    return _ENV.compile_expression(source)


class UnknownComponent(LookupError):
    """`component(deck, id)` names a deck or an id that does not exist; the template's
    error handler reports it at the element (or rulebook line) that asked."""


class Decks:
    """Every deck's components by deck id, for templates: `decks.fields` or `decks['fields']`,
    a list of card views (id and fields). Not a dict, so a deck called `items` or `keys`
    is that deck and not a dict method. Given each deck's cards (or their views), it makes
    a deck's views when a template first asks for them: a layout that never looks at
    another deck costs nothing per card."""

    def __init__(self, decks: dict[str, Any]):
        self._decks = decks  # deck id -> its cards, or their views
        self._views: dict[str, list[dict[str, Any]]] = {}
        self._by_id: dict[str, dict[str, dict[str, Any]]] = {}

    def _deck(self, name: str) -> list[dict[str, Any]]:
        views = self._views.get(name)
        if views is None:
            views = self._views[name] = [item if isinstance(item, dict) else card_view(item) for item in self._decks[name]]
        return views

    def component(self, deck: str, id: str) -> dict[str, Any]:
        """One component by deck and id, for templates: `component('starting', 'farm')`.
        A function, not `decks.starting.farm`: an id may be any word, a list method's too."""
        if deck not in self._decks:
            raise UnknownComponent(f"there is no deck '{deck}'{suggest(str(deck), self._decks)}; expected one of: {', '.join(self._decks)}")
        by_id = self._by_id.get(deck)
        if by_id is None:
            by_id = self._by_id[deck] = {view["id"]: view for view in self._deck(deck)}
        view = by_id.get(id)
        if view is None:
            ids = list(by_id)
            shown = ", ".join(ids[:12]) + (f", ... ({len(ids)} in all)" if len(ids) > 12 else "")
            raise UnknownComponent(f"deck '{deck}' has no component '{id}'{suggest(str(id), ids)}; expected one of: {shown}")
        return view

    def __getattr__(self, name: str) -> list[dict[str, Any]]:
        if name.startswith("_") or name not in self.__dict__.get("_decks", {}):
            raise AttributeError(name)
        return self._deck(name)

    def __getitem__(self, name: str) -> list[dict[str, Any]]:
        return self._deck(name)

    def __contains__(self, name: object) -> bool:
        return name in self._decks

    def __iter__(self):
        return iter(self._decks)

    def __len__(self) -> int:
        return len(self._decks)


class Renderer:
    """Lays out faces of one game in one language."""

    def __init__(self, game: Game, fonts: FontSet, symbols: Any, lang: str, card_sizes: dict[str, tuple[float, float]]):
        self.game = game
        self.fonts = fonts
        self.symbols = symbols
        self.symbol_ids = symbols.ids
        self.lang = lang
        self.card_sizes = card_sizes  # deck id -> trim size in mm, for slots sized from a deck
        self.memo: dict[Any, Any] = {}  # per-element values that do not change from card to card
        meta = game.meta
        self.base_context = {
            "game": game_info(meta),
            "strings": dict(meta.strings),
            "symbol_names": dict(meta.symbol_names),
            "enums": game.enums,
            "decks": Decks({deck_id: deck.cards for deck_id, deck in game.decks.items()}),
        }
        self.base_context["component"] = self.base_context["decks"].component

    def context(self, card: Card) -> dict[str, Any]:
        ctx = dict(self.base_context)
        ctx.update(card.fields)
        ctx["id"] = card.id
        ctx["copies"] = card.copies
        ctx["card"] = card.fields
        return ctx

    def face(self, card: Card, layout: Layout, side: str, problems: Problems) -> Face:
        ctx = self.context(card)
        frame = Frame(self, card, layout, ctx, layout.height * mm, f"card '{card.id}' ({side}, layout '{layout.name}')", problems)
        ops: list[Op] = []
        for el in layout.elements:
            if el.when is not None and not self._when(el.when, ctx, el._loc, frame.where, problems):
                continue
            ops.extend(el.draw(frame))
        return Face(f"{card.id} ({side})", layout.width * mm, frame.height, tuple(ops))

    # --- what elements ask of the renderer through their Frame (elements.base.Services) ---

    def fill(self, source: str, ctx: dict, loc: Location, where: str, problems: Problems) -> str | None:
        return self._render(source, ctx, loc, where, problems)

    def colour(self, value: str | None, ctx: dict, loc: Location, where: str, problems: Problems) -> Color | None:
        return self._color(value, ctx, loc, where, problems)

    def _render(self, source: str, ctx: dict, loc: Location, where: str, problems: Problems) -> str | None:
        if "{" not in source:
            return source
        try:
            return _template(source).render(ctx).strip()
        except TemplateError as exc:
            problems.error(loc, "template", f"{where}: cannot fill in '{source}': {exc.message or exc}; expected a field of the card or a game value")
        except Exception as exc:  # a sandbox refusal or a Python error inside the expression
            problems.error(loc, "template", f"{where}: cannot fill in '{source}': {exc}")
        return None

    def _when(self, source: str, ctx: dict, loc: Location, where: str, problems: Problems) -> bool:
        try:
            return bool(_expression(source)(**ctx))
        except TemplateError as exc:
            problems.error(loc, "template", f"{where}: cannot evaluate when: '{source}': {exc.message or exc}")
        except Exception as exc:
            problems.error(loc, "template", f"{where}: cannot evaluate when: '{source}': {exc}")
        return False

    def _color(self, value: str | None, ctx: dict, loc: Location, where: str, problems: Problems) -> Color | None:
        if value is None:
            return None
        text = self._render(value, ctx, loc, where, problems)
        if not text or text == "none":
            return None
        try:
            return parse_color(text)
        except (ValueError, AttributeError):
            problems.error(loc, "color", f"{where}: colour '{text}' is not a colour; expected '#rrggbb' or a colour name")
            return None
