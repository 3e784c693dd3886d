"""Stage 2, check: everything `pnp check` reports, and what `pnp build` checks before it
draws. The checks themselves live with what they check (the rules model in
constraints/, the glossary, each element kind's `check_game`, the rulebooks'
check/rulebooks.py); this module runs them all, in one order, for the game and for each
language of it.

Laying out a face is part of checking it: whether a text fits its box, and whether its
glyphs and symbols exist, is known only once it is set, so `check_all` sets every face
(and throws it away) with the same Renderer a build draws with."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pnp.assets.fonts import missing_glyphs
from pnp.assets.shaping import needs_shaping
from pnp.base.errors import Location, Problems, display_path
from pnp.check.constraints.base import check_rules
from pnp.check.own_words import check_own_catalogue, check_own_words
from pnp.check.starter import check_starter_text
from pnp.i18n.catalogues import yaml_locations
from pnp.i18n.own import PREFIX
from pnp.layout.elements.text import Text
from pnp.layout.read import check_layout
from pnp.layout.text import block_syntax
from pnp.load.model import Deck, Game
from pnp.plan.game import Plan, plan_game
from pnp.project.edition import Edition, make_editions, unprintable
from pnp.project.project import Project
from pnp.templates.expressions import CODE, unreadable

if TYPE_CHECKING:
    from pnp.impose.sheets import SheetSpec


def check_layouts(project: Project) -> Problems:
    """Each printed deck's layouts: front and back of one size and shape, the PDF its
    `group` names, and what the elements name in the game (decks, fields, card sizes)."""
    problems = Problems()
    game = project.game
    for deck_id, front, back in ((d, f, b) for d in project.layouts for f, b in project.pairs(d)):
        deck = game.decks[deck_id]
        if back and (abs(front.width - back.width) > 0.01 or abs(front.height - back.height) > 0.01):
            problems.error(
                deck.locs.get("back", deck.loc),
                "layout-back-size",
                f"back layout '{back.name}' is {back.width:g} x {back.height:g} mm but the front '{front.name}' is {front.width:g} x {front.height:g} mm; expected the same size",
            )
        if back and back.shape not in ("rect", front.shape):
            problems.error(
                deck.locs.get("back", deck.loc),
                "layout-back-shape",
                f"back layout '{back.name}' is {back.shape} but the front '{front.name}' is {front.shape}; expected the same shape (the front's is cut)",
            )
        if deck.group is not None and deck.group in game.decks and game.decks[deck.group].group != deck.group:  # its spelling is checked where it is read
            problems.error(
                deck.locs.get("group", deck.loc),
                "deck-group",
                f"group '{deck.group}' of deck '{deck.id}' names the PDF of the group, which would be the PDF of deck '{deck.group}'; expected a name that is not the id of a deck outside the group",
            )
        for layout in {front.name: front, **({back.name: back} if back else {})}.values():
            check_layout(layout, game, deck, project.card_sizes, problems)
    return problems


def check_card_texts(project: Project) -> Problems:
    """Markdown block syntax (a heading, a table, a code fence) in the cards' texts, which
    card text would print as it is: each reported at its field, unless the field or the
    deck prints its texts as written (`markup: false`)."""
    problems = Problems()
    game = project.game
    for deck in game.decks.values():
        deck_def = game.meta.decks.get(deck.id)
        if deck_def is not None and not deck_def.markup:
            continue
        fields = [name for name, fdef in game.types[deck.type].fields.items() if fdef.type == "text" and fdef.markup]
        for card in deck.cards if fields else ():
            for name in fields:
                value = card.fields.get(name)
                found = block_syntax(value) if isinstance(value, str) else None
                if found is not None:
                    line, what, text = found
                    problems.error(
                        card.loc_of(name),
                        "text-markdown",
                        f"field '{name}' of card '{card.id}' has {what} on its line {line} ('{text.strip()[:60]}'), which card text does not print as such; "
                        "expected plain text with **bold**, *italic*, :symbol: and line breaks, or 'markup: false' on the field to print it as written",
                    )
    return problems


def check_strings(project: Project) -> Problems:
    """Each string of game.yaml's `strings:` that is a template Jinja cannot read, at its
    line, whether a layout prints it or not: the rule its translations keep (at their .po
    lines, i18n.catalogues.status)."""
    problems = Problems()
    game = project.game
    bad = {key: why for key, text in game.meta.strings.items() if (why := unreadable(text)) is not None}
    where = yaml_locations(game) if bad else {}
    for key, why in bad.items():
        problems.error(
            where.get(("strings", key), game.loc),
            CODE,
            f"string '{key}' is not a template pnp can read: {why}; expected Jinja such as {{{{ title }}}} (a string with {{{{ or {{% is filled in where it is printed)",
        )
    return problems


def check_tuckboxes(project: Project) -> Problems:
    """What each tuck box's layout names in the game, and text boxes that run off their
    face (whose size comes from the deck, so the layout alone cannot tell)."""
    problems = Problems()
    for box in project.tuckboxes.values():
        for face, elements in box.layout.faces.items():
            where = f"face '{face}' of tuck box '{box.id}' (layout '{box.layout.name}')"
            width, height = box.net.face_size(face)
            for el in elements:
                el.check_game(project.game, None, project.card_sizes, where, problems)
                if isinstance(el, Text):
                    x, y, w, h = el.box
                    if x < -1e-6 or y < -1e-6 or x + w > width + 1e-6 or y + h > height + 1e-6:
                        problems.warn(
                            el._loc,
                            "tuckbox-face-area",
                            f"text box {list(el.box)} runs off {where}, which is {width:.1f} x {height:.1f} mm for this deck; expected it inside the face",
                        )
    return problems


def check_file_names(project: Project) -> Problems:
    """Two card ids of one deck (or two deck ids) that differ only in case: the exports name
    files and folders by them (PNG images, TTS boards and tokens, a shop's files), and on a
    file system that ignores case (Windows', macOS's) the second would overwrite the first.
    Each is reported at the second one."""
    problems = Problems()
    decks: dict[str, Deck] = {}
    for deck in project.game.decks.values():
        first_deck = decks.setdefault(deck.id.casefold(), deck)
        if first_deck is not deck:
            problems.error(
                deck.loc,
                "deck-id-case",
                f"deck id '{deck.id}' differs from '{first_deck.id}' (at {first_deck.loc}) only in case, and exports name folders by deck ids; "
                "expected ids that differ in more than case (on Windows and macOS both would be one folder)",
            )
        seen: dict[str, int] = {}  # an id folded -> the first card with it, by index: ids are read without unpacking a packed deck's cards
        for index in range(len(deck.cards)):
            card_id = deck.card_id(index)
            first = seen.setdefault(card_id.casefold(), index)
            first_id = card_id if first == index else deck.card_id(first)
            if first_id != card_id:  # the same id twice is card-duplicate-id, reported when loading
                problems.error(
                    deck.cards[index].loc,
                    "card-id-case",
                    f"card id '{card_id}' differs from '{first_id}' (at {deck.cards[first].loc}) only in case, and exports name files by card ids; "
                    "expected ids that differ in more than case (on Windows and macOS both would be one file)",
                )
    return problems


def left_out(game: Game) -> str | None:
    """Why the game's cards are incomplete, for the notes of the checks that need every
    card: the cards load_game left out for errors in their data; None when none was."""
    cards = game.left_out
    if not cards:
        return None
    names = ", ".join(card.id for card in cards[:5]) + (f" and {len(cards) - 5} more" if len(cards) > 5 else "")
    return f"{'1 card is' if len(cards) == 1 else f'{len(cards)} cards are'} left out for the errors in {'its' if len(cards) == 1 else 'their'} data ({names})"


def unchecked_faces(project: Project) -> Problems:
    """Notes for the faces that cannot be set, so their templates and texts are not
    checked: a deck whose front layout could not be read, or none of whose cards could."""
    problems = Problems()
    game = project.game
    held = left_out(game)
    for deck in game.decks.values():
        if deck.front is None:
            continue
        where = deck.locs.get("front", deck.loc)
        if deck.id not in project.card_sizes:
            problems.note(
                where,
                "not-checked",
                f"the faces of deck '{deck.id}' were not checked (their templates, text that does not fit): its front layout could not be read; fix the errors above first",
            )
        elif deck.id in project.layouts and not deck.cards and held is not None:
            problems.note(
                where,
                "not-checked",
                f"the layouts of deck '{deck.id}' were not checked against its cards (their templates, text that does not fit): none of its cards could be read, {held}; fix those errors first",
            )
    return problems


def not_loaded(folder: Path, found: Problems) -> Problems:
    """The note that says what `pnp check` could not check when the errors found keep the
    game from loading at all (game.yaml, rules.yaml, a layout read by every deck): without
    it the short list of errors would read as all there is to fix."""
    problems = Problems()
    if found.errors:
        problems.note(
            Location(display_path(folder / "game.yaml")),
            "not-checked",
            "the cards, layouts, rules' constraints, translations, rulebooks and sheets were not checked: "
            "the errors above keep the game from loading; fix them and run pnp check again",
        )
    return problems


def check_game(project: Project, plan: Plan | None) -> Problems:
    """The language-independent checks: load warnings, layouts, the cards' texts, the
    strings that are templates, ids
    that name files alike on a file system that ignores case, the rules model, the glossary, and how each deck and tuck box goes on paper: the sheet-*
    problems of `plan` (a build's, or what a build with some sheet options would do;
    None: nothing is printed on sheets, as for PNG images). When loading found errors
    (`prepare`'s keep_going), each check runs on what could be read, and a note says which
    could not run at all and why."""
    problems = Problems()
    problems.extend(project.problems)
    problems.extend(check_layouts(project))
    problems.extend(check_card_texts(project))
    problems.extend(check_strings(project))
    problems.extend(check_file_names(project))
    problems.extend(check_starter_text(project.game))
    problems.extend(check_own_words(project.game, project.game.meta.strings, project.game.meta.language))
    problems.extend(check_tuckboxes(project))
    problems.extend(check_rules(project.game, project.game.constraints, left_out(project.game)))
    if project.game.glossary:
        from pnp.check.glossary import check_glossary  # here for speed: only a game with a glossary checks one

        problems.extend(check_glossary(project.game, project.game.glossary))
    if plan is not None:
        problems.extend(plan.problems)
    problems.extend(unchecked_faces(project))
    return problems


def check_all(project: Project, langs: list[str], allow_untranslated: bool = False, sheet: SheetSpec | None = None) -> Problems:
    """Everything `pnp check` reports, for every language asked for, and what a build on
    the sheets of `sheet` (default: A4, duplex) would find putting the decks on paper:
    every face is set (and thrown away), so text that does not fit is found without building."""
    from pnp.impose.sheets import SheetSpec  # here for speed: an export checks the game with no sheets of paper

    problems = check_game(project, plan_game(project, sheet or SheetSpec()))
    problems.extend(check_editions(make_editions(project, langs, allow_untranslated)))
    return problems


def check_editions(editions: list[Edition]) -> Problems:
    """What each language adds: its translation, every face set (and thrown away), the
    tuck boxes and the rulebooks (`rulebook_problems`)."""
    problems = Problems()
    for edition in editions:
        project = edition.project
        problems.extend(check_edition_words(edition))
        renderer = edition.renderer()
        for deck_id in project.layouts:
            for index, card in enumerate(edition.game.decks[deck_id].cards):
                front, back = project.card_layouts(deck_id, index)
                renderer.face(card, front, "front", problems)
                if back:
                    renderer.face(card, back, "back", problems)
        for box in project.tuckboxes.values():
            from pnp.layout.tuckbox_net import box_face  # here for speed: only a game with tuck boxes draws one

            box_face(renderer, box, problems)
        problems.extend(rulebook_problems(edition))
    return problems


def check_edition_words(edition: Edition) -> Problems:
    """What an edition's language adds before any face is set: its translation's problems,
    pnp's own words in that language and a translation's own pnp.ID strings (the source's
    are checked once, by check_game). `pnp check` and the live preview report the same."""
    problems = Problems()
    problems.extend(edition.problems)
    problems.extend(check_languages([edition]))
    if edition.strings is not None:
        problems.extend(check_own_words(edition.project.game, {k: v for k, v in edition.game.meta.strings.items() if k.startswith(PREFIX)}, edition.lang))
    return problems


def check_languages(editions: list[Edition]) -> Problems:
    """What a build in each edition's language needs of pnp itself: its own words in that
    language (a warning where it has none and the game does not give them)."""
    problems = Problems()
    for edition in editions:
        problems.extend(check_own_catalogue(edition.project.game, edition.game.meta.strings, edition.lang))
        problems.extend(check_plain_names(edition))
    return problems


def check_plain_names(edition: Edition) -> Problems:
    """A warning where the sheets' own captions (the ruler's, pieces' labels) cannot print
    the game's title or a deck's name even in the source language (Edition.plain): they
    are plain lines in pnp's sans, which has no letters of, or cannot shape, that script."""
    problems = Problems()
    game, font = edition.project.game, edition.project.fonts.get("sans")
    names = [(edition.plain(), game.locs.get("title", game.loc), "the game's title")]
    names += [(edition.plain(deck), game.decks[deck].locs.get("name", game.decks[deck].loc), f"deck '{deck}''s name") for deck in edition.project.layouts]
    for name, loc, what in names:
        if unprintable(name, font.registered):
            problems.warn(
                loc,
                "caption-script",
                f"{what} '{name}' cannot be printed in the captions pnp writes on the sheets (under the ruler, on pieces), plain lines in the "
                f"game's sans font, which {'cannot shape its script' if needs_shaping(name) else 'lacks ' + repr(missing_glyphs(font.registered, name))}: "
                "they will show it as boxes or in the wrong order; expected a title and deck names in the Latin, Greek or Cyrillic alphabet in the game's source language",
            )
    return problems


def rulebook_problems(edition: Edition) -> Problems:
    """The rulebooks' problems in one language; when cards were left out for errors in
    their data, a note instead: their text is filled in from every card, so a count
    would miss the cards left out."""
    game = edition.project.game
    held = left_out(game)
    if held is None:
        from pnp.check.rulebooks import check_rulebooks  # Markdown and Jinja: only when there are rulebooks to check

        return check_rulebooks(edition)
    problems = Problems()
    if game.meta.rulebooks:
        problems.note(
            game.locs.get("rulebooks", game.loc),
            "not-checked",
            f"the rulebooks were not checked: {held}, and their text is filled in from every card; fix those errors first",
        )
    return problems
