"""`text`: a template filled in for the component and set in a box with a named style (or
its own overrides), shrunk down to `min_size` if need be."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pnp.base.errors import Location
from pnp.i18n.catalogues import PSEUDO
from pnp.layout.elements.base import FIELD_ALONE, ElementKind, Frame, GradientDef, check_paints, check_sizes, check_style
from pnp.layout.faces import Box, Op
from pnp.layout.text import Align, TextStyle, VAlign, escape

DEFAULT_STYLE = TextStyle()


@dataclass(repr=False, eq=False)
class Text(ElementKind):
    """A text in a box: the card's data filled in, set in a style, shrunk to fit down to its minimum size."""

    by_templates = True

    text: str
    box: Box
    style: str | None = None
    font: str | None = None
    size: float | None = None
    min_size: float | None = None
    color: str | GradientDef | None = None  # a colour or a gradient
    align: Align | None = None
    valign: VAlign | None = None
    name: str | None = None  # how messages call this box; default: the field it shows
    when: str | None = None
    _loc: Location = field(default=Location("?"), repr=False)

    def check(self, raw, styles, problems) -> bool:
        if not check_style(self.style, raw, styles, "text", problems) or not check_paints(self, raw, "text element", problems):
            return False
        return self.size is None and self.min_size is None or check_sizes(self._style(styles), raw, "text element", problems)

    def _style(self, styles: dict[str, TextStyle]) -> TextStyle:
        """The layout's named style with this element's overrides."""
        base = styles.get(self.style, DEFAULT_STYLE) if self.style else DEFAULT_STYLE
        own = {k: getattr(self, k) for k in ("font", "size", "min_size", "color", "align", "valign") if getattr(self, k) is not None}
        return replace(base, **own) if own else base

    def _spec(self, f: Frame) -> tuple[TextStyle, str, str | None, dict[bool, str]]:
        """Per element and layout, not per card: its style in this language, what messages
        call it, the card field it shows alone (whose line a message points at), and what
        would fit, said of a text and of a translation."""
        key = ("text", id(f.layout), id(self))
        spec = f.services.memo.get(key)
        if spec is None:
            match = FIELD_ALONE.match(self.text)
            field_name = match.group(1) if match else None
            style = f.layout.scaled(self._style(f.layout.styles), f.services.lang)
            shrink = "" if style.min_size is not None else "; its style has no min_size, so it does not shrink"
            fixes = {
                translated: f"a shorter {what}, or a larger box or smaller min_size in layout '{f.layout.name}' ({self._loc}){shrink}"
                for translated, what in ((False, "text"), (True, "translation"))
            }
            spec = f.services.memo[key] = (style, self.name or field_name or "text", field_name, fixes)
        return spec

    def draw(self, f: Frame) -> list[Op]:
        content = f.fill_in(self.text, self._loc, _as_written(f))
        if not content:
            return []
        style, label, field_name, fixes = self._spec(f)
        card = f.card
        loc = card.loc_of(field_name) if field_name else card.loc
        translated = loc.file.endswith(".po")  # reported at the translation, naming where the card is as well
        fix = fixes[translated]
        if translated:
            fix += f"; the card is at {card.loc}"
        op = f.text(content, style, self.box, loc, f"{label} of card '{card.id}'", fix, color_loc=self._loc)
        if op is None:
            return []
        if f.services.lang == PSEUDO and op.text.size < style.size - 1e-6:
            f.problems.warn(
                loc,
                "text-shrunk",
                f"{label} of card '{card.id}' shrinks from {style.size:g} to {op.text.size:g} pt in the pseudo-language: a longer translation may not fit its box in layout '{f.layout.name}'",
            )
        return [op]


def _as_written(f: Frame) -> dict[str, str] | None:
    """The card's texts that print as written, escaped for the text engine: those of
    fields with `markup: false` (rules.yaml), or all of a deck's with `markup: false`
    (game.yaml); None when there are none (the usual case, which costs a lookup)."""
    card = f.card
    key = ("as-written", card.deck, card.type)
    names = f.services.memo.get(key)
    if names is None:
        deck = f.game.meta.decks.get(card.deck)
        fields = f.game.types[card.type].fields if card.type in f.game.types else {}
        every = deck is not None and not deck.markup
        names = f.services.memo[key] = tuple(name for name, fdef in fields.items() if fdef.type == "text" and (every or not fdef.markup))
    if not names:
        return None
    return {name: escape(value) for name in names if isinstance(value := card.fields.get(name), str)}
