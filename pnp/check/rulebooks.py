"""What `pnp check` finds in a rulebook: references to headings that do not exist,
unknown symbols and cards, headings named twice, and hand-written numbers (`facts:`) that
the game's data contradicts. Template errors are found while the document is rendered."""

from __future__ import annotations

import re

from pnp.assets.images import find_image
from pnp.base.errors import PnpError, Problems
from pnp.layout.typography import typography
from pnp.load.model import Game, game_info
from pnp.load.schema import suggest
from pnp.project.edition import Edition
from pnp.rulebook.document import CardRef, Component, Document, Heading, Picture, Ref, Sym, inlines, spans_of, walk
from pnp.rulebook.labels import labels
from pnp.rulebook.source import Source, fill_in, render, template_context


def check_document(doc: Document, game: Game, symbols: frozenset[str], problems: Problems) -> None:
    """Every reference, symbol and card of one rendered rulebook."""
    ids: dict[str, Heading] = {}
    for heading in doc.headings():
        if heading.id is None:
            continue
        if heading.id in ids:
            problems.error(
                heading.loc, "rulebook-id-duplicate", f"heading id '{heading.id}' is used twice (first at {ids[heading.id].loc}); expected every id once"
            )
        else:
            ids[heading.id] = heading
    level = 0
    for heading in doc.headings():
        if heading.level > level + 1 and heading.level <= 3:
            problems.warn(
                heading.loc,
                "rulebook-heading-level",
                f"a level {heading.level} heading follows a level {level} heading, so it is numbered {heading.number}; expected {'#' * (level + 1)}",
            )
        level = heading.level
    card_ids: dict[str, list[str]] = {}  # of each deck a card is shown from: its cards unpacked once, not once per card shown
    for ref in doc.cover:
        _check_card(ref, game, card_ids, problems)
    for block in walk(doc.blocks):
        for spans in spans_of(block):
            for span in inlines(spans):
                if isinstance(span, Ref) and span.target not in ids:
                    known = ", ".join(ids) or "none: name a heading with {#id} after its text"
                    problems.error(
                        span.loc, "rulebook-ref", f"reference to '#{span.target}', which no heading names{suggest(span.target, ids)}; expected one of: {known}"
                    )
                elif isinstance(span, Sym) and span.id not in symbols:
                    problems.error(
                        span.loc,
                        "rulebook-symbol",
                        f"symbol ':{span.id}:' does not exist{suggest(span.id, symbols)}; expected one of: {', '.join(sorted(symbols)) or 'none (the game has no symbols/)'}",
                    )
                elif isinstance(span, CardRef):
                    _check_card(span, game, card_ids, problems)
                elif isinstance(span, Picture):
                    try:
                        find_image(span.path, game.root, span.loc, "image")
                    except PnpError as err:
                        problems.extend(err.problems)


def _check_card(ref: CardRef, game: Game, card_ids: dict[str, list[str]], problems: Problems) -> None:
    deck = game.decks.get(ref.deck)
    if deck is None:
        problems.error(ref.loc, "rulebook-card", f"there is no deck '{ref.deck}'{suggest(ref.deck, game.decks)}; expected one of: {', '.join(game.decks)}")
        return
    ids = card_ids.get(ref.deck)
    if ids is None:
        ids = card_ids[ref.deck] = [card.id for card in deck.cards]
    if ref.id not in ids:
        problems.error(
            ref.loc, "rulebook-card", f"deck '{ref.deck}' has no card '{ref.id}'{suggest(ref.id, ids)}; expected the id of a card of deck '{ref.deck}'"
        )
    elif not deck.front:
        problems.error(ref.loc, "rulebook-card", f"deck '{ref.deck}' is data only (no front layout), so its cards cannot be drawn")
    elif ref.side == "back" and not deck.back:
        problems.error(ref.loc, "rulebook-card", f"deck '{ref.deck}' has no back layout; expected card:{ref.deck}/{ref.id} (the front)")


def check_facts(source: Source, game: Game, problems: Problems) -> None:
    """A number written by hand directly before one of a fact's words must equal the
    fact's value, computed from the data: '54 miest' when the deck has 53 is an error."""
    ctx = template_context(game, game.meta.language, None)
    for fact, loc in zip(source.defn.facts, source.fact_locs):
        template = fact.value if "{{" in fact.value else f"{{{{ {fact.value} }}}}"
        filled = fill_in(template, ctx, loc, problems, exact=False)
        if filled is None:
            continue
        value = filled.strip()
        if not value.isdigit():
            problems.error(
                loc,
                "rulebook-fact",
                f"the value of the fact about '{fact.words}' is '{value}', not a whole number; expected an expression such as {{{{ cities | length }}}}",
            )
            continue
        try:
            pattern = re.compile(rf"(?<![\w.,])(\d+)((?:[ \t\u00a0~])+)({fact.words})\b", re.IGNORECASE)
        except re.error as exc:
            problems.error(loc, "rulebook-fact", f"words '{fact.words}' are not a valid pattern ({exc}); expected words separated by |, e.g. 'miest|mestá'")
            continue
        for block in source.blocks():
            if block.source.lstrip().startswith(("```", "~~~")):
                continue
            for m in pattern.finditer(block.source):
                if m.group(1) == value:
                    continue
                before = block.source[: m.start()]
                line = block.loc.line + before.count("\n")
                col = m.start() - (before.rfind("\n") + 1) + 1
                where = type(block.loc)(block.loc.file, line, col)
                problems.error(
                    where,
                    "rulebook-fact",
                    f"the text says '{m.group(1)} {m.group(3)}' but the data says {value} ({template}); "
                    f"expected {value}, or write '{template} {m.group(3)}' so that the number follows the data",
                )


def documents(edition: Edition, problems: Problems) -> list[tuple[Source, Document]]:
    """Every rulebook of the game in the edition's language, once per mode: its sources,
    read once for every language, with the edition's translations of their blocks."""
    return [
        (source, render(source, edition.game, edition.lang, mode, edition.strings, problems))
        for source in edition.originals.sources
        for mode in source.defn.modes or [None]
    ]


def check_rulebooks(edition: Edition) -> Problems:
    """What `pnp check` reports about the rulebooks in one language (each once, though a
    block is rendered once per mode), including characters the fonts lack: every text
    is set once, without pages."""
    problems = Problems()
    checked_documents(edition, problems, set_text=True)
    return problems


def checked_documents(edition: Edition, problems: Problems, set_text: bool) -> list[tuple[Source, Document]]:
    """Fill in and parse every rulebook once, and check them (with what reading their
    files found); `set_text` also sets every text to find characters the fonts lack (a
    build does that when it typesets)."""
    from pnp.rulebook.writer import check_text

    problems.extend(edition.originals.problems)
    if edition.lang == edition.source.meta.language:  # facts are about the game as written: checked once
        for source in edition.originals.sources:
            check_facts(source, edition.source, problems)
    pairs = documents(edition, problems)
    for source, doc in pairs:
        check_document(doc, edition.game, edition.project.symbols.ids, problems)
        if set_text:
            check_text(doc, book_inputs(edition, problems), source.title_locs)
    return pairs


def book_inputs(edition: Edition, problems: Problems, face=None):
    from pnp.rulebook.writer import Inputs

    project, game = edition.project, edition.game
    return Inputs(
        edition.fonts,
        project.symbols,
        game.meta.title,
        game.meta.author,
        labels(edition.lang, game.meta.strings),
        face or (lambda ref: None),
        problems,
        game.root,
        typography(edition.lang, game.meta.hyphenation),
        game_info(game.meta),
        components(game),
    )


def components(game: Game) -> list[Component]:
    """Every printed deck (not a data-only one, and with cards) with its count and its first
    card: what the components page and the back cover show."""
    return [
        Component(deck.name or deck.id, deck.count, CardRef(deck.id, deck.card_id(0), "front", None, deck.loc))
        for deck in game.decks.values()
        if deck.front and len(deck.cards)
    ]
