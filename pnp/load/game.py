"""Stage 1, load: read a game folder into the typed model, reporting every mistake.

The game's own rules.yaml declares the component types; card data is validated against
those declarations here, so the later stages only ever see well-typed values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.base.errors import ERROR, Location, PnpError, Problem, Problems, display_path, one_of
from pnp.base.paths import check_inside, inside, is_junk
from pnp.load.languages import known_language
from pnp.load.model import PROVIDED_NAMES, Card, Deck, DeckDef, EnumValue, FieldDef, Game, GameFile, RulesFile, TypeDef, another_name
from pnp.load.packed import PackedCards
from pnp.load.remote import fetch, is_url
from pnp.load.schema import MISSING, build, suggest
from pnp.load.yamlfile import LItems, LList, LMap, load_yaml, load_yaml_items

if TYPE_CHECKING:
    from pnp.load.spreadsheets import Columns

MAX_COPIES = 10_000  # of one card; more is almost certainly a typo
MAX_CARDS = 200_000  # in one deck, copies counted: about 22,000 A4 sheets
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # with fullmatch: no separator, no leading dot, nothing that leaves a folder
ID_EXPECTED = "expected letters, digits, '-', '_' or '.', starting with a letter or digit (it becomes part of file names)"
MAX_ID = 100  # characters: a file name holds two ids and a tail (`DECK-CARD-front.png`) within the 255 bytes file systems allow
RESERVED = {"id", "copies"}


def game_yaml(folder: Path) -> Path:
    """The game.yaml of a game folder; a located error (the game unreadable) if there is none."""
    game_file = folder / "game.yaml"
    if not game_file.is_file():
        problems = Problems()
        problems.error(Location(display_path(folder)), "game-missing", "no game.yaml in this folder; expected a game folder such as cards/mesta")
        problems.unreadable = True
        raise PnpError(problems)
    return game_file


@dataclass(repr=False, eq=False)
class _Read:
    """What reading the decks' data keeps across files: every id seen so far (where it
    was first seen), and the cards left out for errors in their own data, with those errors."""

    ids: dict[str, Location] = field(default_factory=dict)
    left_out: list[Card] = field(default_factory=list)
    card_errors: set[Problem] = field(default_factory=set)


def load_game(folder: Path, keep_going: bool = False) -> tuple[Game, Problems]:
    """Load a game folder. Raises PnpError when errors make the game unusable; returns
    the game and the warnings otherwise. With `keep_going`, errors in a card's own data
    (a value of the wrong kind, a missing or unknown field) do not: the card is left out
    of its deck (`Game.left_out`), the errors are returned with the game, and the later
    stages check what could be read, so one run of `pnp check` reports every mistake."""
    problems = Problems()
    game_file = game_yaml(Path(folder))
    raw = load_yaml(game_file, problems)
    meta = _build(GameFile, raw, problems, "game.yaml", Location(display_path(game_file)))
    if meta is MISSING:
        problems.unreadable = True
        raise PnpError(problems)
    if not known_language(meta.language):
        problems.error(
            raw.loc_of("language"),
            "language-code",
            f"language '{meta.language}' is not a language code that pnp knows (its plural rule comes from the CLDR); expected one like 'sk', 'en' or 'pt_BR'",
        )

    rules_path = check_inside(meta.rules, folder, [folder], raw.loc_of("rules"), "rules")
    if isinstance(rules_path, PnpError):
        problems.extend(rules_path.problems)
        raise PnpError(problems)
    if not rules_path.is_file():
        problems.error(raw.loc_of("rules"), "rules-missing", f"rules file '{meta.rules}' does not exist; expected the game's types in it")
        raise PnpError(problems)
    rules_raw = load_yaml(rules_path, problems)
    if rules_raw is None:  # an empty file
        rules_raw = LMap(loc=Location(display_path(rules_path), 1, 1))
    before = len(problems.errors)
    rules = _build(RulesFile, rules_raw, problems, meta.rules, Location(display_path(rules_path)))
    if rules is MISSING or len(problems.errors) > before:  # a malformed rules file: stop before errors cascade
        problems.unreadable = True
        raise PnpError(problems)

    enums = _load_enums(rules, rules_raw, problems)
    deck_locs = {deck_id: raw["decks"].loc_of(deck_id) for deck_id in meta.decks}  # meta.decks is read from raw["decks"]
    _check_types(rules, rules_raw, enums, deck_locs, problems)
    symbols = _load_symbols(folder, meta, raw, problems)
    for sid in meta.symbol_names:
        if sid not in symbols:
            problems.error(
                raw["symbol_names"].key_locs.get(sid, raw.loc_of("symbol_names")),
                "symbol-name-unknown",
                f"symbol_names names '{sid}', which is not a symbol{suggest(sid, symbols)}; expected {one_of(symbols, 'nothing: the game has no symbols (SVG files in symbols/)')}",
            )

    _check_names(meta, raw, problems)
    _check_hyphenation(meta, raw, problems)
    _check_direction(meta, raw, problems)
    decks: dict[str, Deck] = {}
    read = _Read()
    for deck_id, deck_def in meta.decks.items():
        deck_loc = raw["decks"].loc_of(deck_id)
        if deck_def.type not in rules.types:
            problems.error(
                raw["decks"][deck_id].loc_of("type"),
                "deck-type",
                f"deck '{deck_id}' has type '{deck_def.type}', which rules.yaml does not declare{suggest(deck_def.type, rules.types)}; expected {one_of(rules.types, 'a type declared under types: in rules.yaml, which declares none')}",
            )
            continue
        deck_raw = raw["decks"][deck_id]
        if deck_def.front is None and deck_def.back is not None:
            problems.error(
                deck_raw.loc_of("back"),
                "deck-front",
                f"deck '{deck_id}' has a back but no front; expected a front layout too (or neither, for a deck that is data only)",
            )
        cards = _load_data(
            folder,
            deck_def.data,
            deck_raw.loc_of("data"),
            deck_id,
            deck_def.type,
            rules.types,
            enums,
            symbols,
            read,
            problems,
            deck_def.sheet,
            deck_raw.loc_of("sheet"),
            _columns(deck_def, deck_raw),
        )
        if cards is None:
            continue
        total = cards.copies
        if total > MAX_CARDS:
            problems.error(deck_raw.loc_of("data"), "deck-too-large", f"deck '{deck_id}' has {total} cards with copies; expected at most {MAX_CARDS}")
        locs = {key: deck_raw.loc_of(key) for key in deck_raw}
        decks[deck_id] = Deck(deck_id, deck_def.name or deck_id, deck_def.type, deck_def.front, deck_def.back, cards, deck_loc, locs, deck_def.group)

    deals = _load_deals(folder, meta, raw, rules.types, enums, symbols, read, problems)
    _check_tuckboxes(meta, raw, problems)
    constraints = rules_raw.get("constraints") if isinstance(rules_raw, LMap) else None
    glossary = []
    glossary_path = check_inside(meta.glossary, folder, [folder], raw.loc_of("glossary"), "glossary")
    if isinstance(glossary_path, PnpError):
        problems.extend(glossary_path.problems)
    elif glossary_path.is_file():
        from pnp.load.glossary import load_glossary  # here for speed: only a game with a glossary reads one

        glossary = load_glossary(glossary_path, enums, problems)
    elif "glossary" in raw:
        problems.error(raw.loc_of("glossary"), "glossary-missing", f"glossary '{meta.glossary}' does not exist; expected a YAML file with 'terms:'")
    locs = {str(key): raw.loc_of(key) for key in raw}
    game = Game(folder, meta, enums, rules.types, decks, symbols, raw.loc, constraints, deals, glossary, rules.translate, locs, left_out=read.left_out)
    if not keep_going or any(p not in read.card_errors for p in problems.errors):  # an error outside the cards' own data: later stages would stumble on it
        problems.raise_if_errors()
    return game, problems


def id_mistake(what: str, value: str, of: str = "") -> str | None:
    """What is wrong with a name that becomes part of a file name (deck, card, group,
    rulebook, mode, tuck box), or None: `what` names it ("deck id"), `of` says whose it is."""
    if ID_PATTERN.fullmatch(value) is None:
        return f"{what} '{value}'{of} is not a plain name; {ID_EXPECTED}"
    if len(value) > MAX_ID:
        return f"{what} '{value[:20]}…'{of} is {len(value)} characters long; expected at most {MAX_ID} (it becomes part of file names, which the file system limits)"
    return None


def _check_names(meta: GameFile, raw: LMap, problems: Problems) -> None:
    """The names game.yaml gives that become parts of file names (`cards-DECK-...pdf`,
    `rules-ID-MODE-...pdf`): refused here, where they are read, before any path is made."""
    decks = raw["decks"]
    for deck_id, deck_def in meta.decks.items():
        if mistake := id_mistake("deck id", deck_id):
            problems.error(decks.key_locs.get(deck_id, decks.loc), "id-invalid", mistake)
        if deck_def.group is not None and (mistake := id_mistake("group", deck_def.group, f" of deck '{deck_id[:MAX_ID]}'")):
            problems.error(decks[deck_id].loc_of("group"), "id-invalid", mistake)
    books = raw.get("rulebooks")
    for rid, book in meta.rulebooks.items():
        if mistake := id_mistake("rulebook id", rid):
            problems.error(books.key_locs.get(rid, books.loc), "id-invalid", mistake)
        modes = books[rid].get("modes") if isinstance(books[rid], LMap) else None
        covers = books[rid].get("cover") if isinstance(books[rid], LMap) else None
        book._cover_locs = [covers.loc_of(i) for i in range(len(book.cover))] if isinstance(covers, LList) else []
        for i, mode in enumerate(book.modes):
            if mistake := id_mistake("mode", mode, f" of rulebook '{rid[:MAX_ID]}'"):
                where = modes.loc_of(i) if isinstance(modes, LList) else books.loc_of(rid)
                problems.error(where, "id-invalid", mistake)


HYPHENATION_EXPECTED = "the word's letters with a hyphen at each place it may break ('Drachen-blut-eli-xier'), or the word without hyphens to never break it"


def _check_direction(meta: GameFile, raw: LMap, problems: Problems) -> None:
    """game.yaml's `direction:` names languages pnp knows (the schema checks the values)."""
    listed = raw.get("direction")
    for lang in meta.direction:
        if not known_language(lang):
            problems.error(
                listed.key_locs.get(lang, listed.loc),
                "direction-language",
                f"direction is given for '{lang}', which is not a language code that pnp knows; expected one like 'ar', 'he' or 'fa'",
            )


def _check_hyphenation(meta: GameFile, raw: LMap, problems: Problems) -> None:
    """game.yaml's `hyphenation:`: for each language code pnp knows, words of letters with
    a hyphen at each place they may break (layout/typography.py hyphenates them only
    there), each listed once."""
    listed = raw.get("hyphenation")
    for lang, words in meta.hyphenation.items():
        if not known_language(lang):
            problems.error(
                listed.key_locs.get(lang, listed.loc),
                "hyphenation-language",
                f"hyphenation lists words for '{lang}', which is not a language code that pnp knows; expected one like 'de', 'en' or 'pt_BR'",
            )
            continue
        items = listed[lang]
        seen: dict[str, str] = {}
        for i, word in enumerate(words):
            where = items.loc_of(i) if isinstance(items, LList) else listed.loc_of(lang)
            wrong = sorted({ch for ch in word if not ch.isalpha() and ch != "-"})
            if wrong:
                shown_chars = ", ".join(repr(ch) for ch in wrong)
                problems.error(
                    where,
                    "hyphenation-word",
                    f"hyphenation word '{word}' for '{lang}' has {shown_chars}, which {'is' if len(wrong) == 1 else 'are'} not a letter or a hyphen; expected {HYPHENATION_EXPECTED}",
                )
            elif not word or word.startswith("-") or word.endswith("-") or "--" in word:
                problems.error(
                    where,
                    "hyphenation-word",
                    f"hyphenation word '{word}' for '{lang}' has a hyphen at its start or end, or two together; expected {HYPHENATION_EXPECTED}",
                )
            else:
                key = word.replace("-", "").lower()
                if key in seen and seen[key] != word:
                    problems.error(
                        where,
                        "hyphenation-word",
                        f"hyphenation word '{word}' for '{lang}' is listed before as '{seen[key]}'; expected each word once, with all the places it may break",
                    )
                seen.setdefault(key, word)


MAX_THICKNESS = 5.0  # mm per card: thicker is a tile, not a card
MAX_CLEARANCE = 20.0  # mm


def _check_tuckboxes(meta: GameFile, raw: LMap, problems: Problems) -> None:
    """game.yaml's `tuckboxes:`: each a plain name that no other PDF of the build has, for
    a printed deck, with a card thickness and a clearance that make sense. Its layout and
    size are checked when the layout is loaded (project.py)."""
    boxes = raw.get("tuckboxes")
    taken = {**{d: "deck" for d in meta.decks}, **{d.group: "group" for d in meta.decks.values() if d.group}, **{r: "rulebook" for r in meta.rulebooks}}
    for box_id, box in meta.tuckboxes.items():
        where = boxes[box_id]
        box._locs = {str(key): where.loc_of(key) for key in where}
        if mistake := id_mistake("tuck box id", box_id):
            problems.error(boxes.key_locs.get(box_id, boxes.loc), "id-invalid", mistake)
        elif box_id in taken:
            problems.error(
                boxes.key_locs.get(box_id, boxes.loc),
                "tuckbox-name",
                f"tuck box '{box_id}' has the name of a {taken[box_id]}, whose PDF would have the same file name; expected another name, e.g. '{box_id}-box'",
            )
        deck = meta.decks.get(box.deck)
        if deck is None:
            problems.error(
                where.loc_of("deck"),
                "tuckbox-deck",
                f"tuck box '{box_id}' is for deck '{box.deck}', which does not exist{suggest(box.deck, meta.decks)}; expected {one_of(meta.decks, 'a deck: game.yaml declares none')}",
            )
        elif deck.front is None:
            problems.error(
                where.loc_of("deck"),
                "tuckbox-deck",
                f"tuck box '{box_id}' is for deck '{box.deck}', which is data only (no front layout), so its cards have no size; expected a printed deck",
            )
        if not 0 < box.thickness <= MAX_THICKNESS:  # NaN too
            problems.error(
                where.loc_of("thickness"),
                "tuckbox-thickness",
                f"thickness {box.thickness:g} of tuck box '{box_id}' is out of range; expected a card's thickness in mm above 0 and at most {MAX_THICKNESS:g} (0.3 is usual, about 0.6 sleeved)",
            )
        if not 0 <= box.clearance <= MAX_CLEARANCE:
            problems.error(
                where.loc_of("clearance"),
                "tuckbox-clearance",
                f"clearance {box.clearance:g} of tuck box '{box_id}' is out of range; expected 0 to {MAX_CLEARANCE:g} mm added to the inside (1 is usual)",
            )


def _load_deals(folder: Path, meta: GameFile, raw: LMap, types: dict, enums: dict, symbols: dict, read: _Read, problems: Problems) -> list[Card]:
    if meta.deals is None:
        return []
    where = raw["deals"]
    if meta.deals.type not in types:
        problems.error(
            where.loc_of("type"), "deal-type", f"deals have type '{meta.deals.type}', which rules.yaml does not declare{suggest(meta.deals.type, types)}"
        )
        return []
    return list(_load_data(folder, meta.deals.data, where.loc_of("data"), "deals", meta.deals.type, types, enums, symbols, read, problems) or [])


def _columns(deck_def: DeckDef, deck_raw: LMap) -> Columns | None:
    """A deck's `columns:` and `ids:`, for its spreadsheet; None when it names neither."""
    if not (deck_def.columns or deck_def.ids):
        return None
    from pnp.load.spreadsheets import Columns  # here for speed: only a spreadsheet's deck names its columns

    return Columns(deck_def.columns, deck_def.ids, deck_raw.get("columns"), deck_raw.loc_of("ids"))


def _load_data(
    folder: Path,
    name: str,
    loc: Location,
    deck: str,
    type_name: str,
    types: dict,
    enums: dict,
    symbols: dict,
    read: _Read,
    problems: Problems,
    sheet=None,
    sheet_loc=None,
    columns: Columns | None = None,
) -> PackedCards | None:
    """The components of one data file (YAML, CSV or XLSX), or of a CSV or XLSX on the web
    (a URL: load/remote.py, or its copy kept from the last fetch); None when it cannot be used."""
    if is_url(name):
        from pnp.load.spreadsheets import MAX_BYTES, read_sheet  # here for speed: only a deck whose data is a spreadsheet reads one

        fetched = fetch(name, loc, MAX_BYTES, problems)
        if fetched is None:
            return None
        shown = name

        def rows() -> Any:
            return read_sheet(Path("data" + fetched.suffix), types[type_name], problems, sheet, sheet_loc, columns, url=name, data=fetched.data)

    else:
        path = check_inside(name, folder, [folder], loc, "data")
        if isinstance(path, PnpError):
            problems.extend(path.problems)
            return None
        if not path.is_file():
            problems.error(loc, "data-missing", f"data file '{name}' does not exist; expected a YAML, CSV or XLSX list of {type_name} entries")
            return None
        shown = display_path(path)

        def rows() -> Any:
            return _read_data(path, types[type_name], problems, sheet, sheet_loc, columns)

    try:
        return _load_cards(rows(), deck, type_name, types[type_name], enums, symbols, read, problems, shown)
    except PnpError as err:  # unreadable, possibly found while reading the cards
        problems.extend(err.problems)
        return None


def _read_data(
    path: Path, tdef: TypeDef, problems: Problems, sheet: str | None = None, sheet_loc: Location | None = None, columns: Columns | None = None
) -> Any:
    """Card rows from YAML, or from a CSV/XLSX file (one row per card), by the suffix."""
    if path.suffix.lower() not in (".yaml", ".yml"):
        from pnp.load.spreadsheets import is_sheet, read_sheet  # here for speed: a YAML file is never a spreadsheet

        if is_sheet(path):
            return read_sheet(path, tdef, problems, sheet, sheet_loc, columns)
    if columns is not None:
        where = columns.raw.loc if columns.raw is not None else columns.ids_loc or Location(display_path(path))
        problems.error(
            where, "sheet-columns", "'columns' and 'ids' are only for spreadsheets (CSV, XLSX); expected the field names themselves as keys in a YAML file"
        )
    if sheet is not None:
        problems.error(
            sheet_loc or Location(display_path(path)), "sheet-name", f"'sheet: {sheet}' is only for XLSX workbooks; expected no 'sheet' for a YAML file"
        )
    return load_yaml_items(path, problems)


def _build(cls: type, raw: Any, problems: Problems, what: str, loc: Location) -> Any:
    if not isinstance(raw, dict):
        found = "a list" if isinstance(raw, list) else "an empty file" if raw is None else f"'{raw}'"
        problems.error(getattr(raw, "loc", None) or Location(loc.file, 1, 1), "schema-type", f"{what} must be a mapping of keys to values; found {found}")
        return MISSING
    return build(cls, raw, problems, what)


def _load_enums(rules: RulesFile, raw: LMap, problems: Problems) -> dict[str, dict[str, EnumValue]]:
    enums: dict[str, dict[str, EnumValue]] = {}
    for name, entries in rules.enums.items():
        values: dict[str, EnumValue] = {}
        for key, attrs in entries.items():
            attrs = dict(attrs or {})
            attrs.setdefault("name", key)
            attrs["id"] = key
            values[key] = EnumValue(key, attrs)
        enums[name] = values
    return enums


def _check_types(rules: RulesFile, raw: LMap, enums: dict, decks: dict[str, Location], problems: Problems) -> None:
    for type_name, type_def in rules.types.items():
        fields_raw = raw["types"][type_name]["fields"]
        for field_name in type_def.fields:
            _check_field_name(field_name, type_name, fields_raw.loc_of(field_name), decks, problems)
        _check_fields(type_def.fields, fields_raw, enums, problems)


def _check_field_name(name: str, type_name: str, loc: Location, decks: dict[str, Location], problems: Problems) -> None:
    """A field of a type named like a name pnp provides or a deck is refused where it is
    declared: templates and rules would read pnp's value (or the deck) instead, on every card."""
    instead = f"another name, such as '{another_name(name)}'"
    if name in RESERVED:
        problems.error(loc, "type-reserved", f"field '{name}' is built in (every card has an id and copies); remove it from the type")
    elif name in PROVIDED_NAMES:
        problems.error(
            loc,
            "field-name-reserved",
            f"field '{name}' of type '{type_name}' is a name pnp provides ({PROVIDED_NAMES[name]}), which templates and rules would read instead of the field; expected {instead}",
        )
    elif name in decks:
        problems.error(
            loc,
            "field-name-reserved",
            f"field '{name}' of type '{type_name}' is the id of deck '{name}' ({decks[name]}), which templates and rules would read instead of the field; expected {instead} (or another id for the deck)",
        )


def _check_fields(fields: dict[str, FieldDef], fields_raw: Any, enums: dict, problems: Problems) -> None:
    """The field definitions of a type, or of a table's rows (which may use id and copies)."""
    for field_name, fdef in fields.items():
        loc = fields_raw.loc_of(field_name)
        if (fdef.type == "enum" or fdef.item == "enum") and fdef.enum not in enums:
            problems.error(
                loc,
                "type-enum",
                f"field '{field_name}' names enumeration '{fdef.enum}', which is not declared{suggest(str(fdef.enum), enums)}; expected {one_of(enums, 'an enumeration declared under enums: in rules.yaml, which declares none')}",
            )
        if fdef.type == "list" and fdef.item is None:
            problems.error(loc, "type-list", f"list field '{field_name}' has no 'item'; expected the type of its items")
        if fdef.type == "list" and fdef.item in ("list", "table", "points"):
            problems.error(
                loc,
                "type-list",
                f"list field '{field_name}' has items of type '{fdef.item}'; expected text, int, number, bool, enum, symbol or image (for rows of several values: type table)",
            )
        if fdef.type == "table":
            if not fdef.fields:
                problems.error(
                    loc,
                    "type-table",
                    f"table field '{field_name}' has no 'fields'; expected the fields of each row, e.g. fields: {{terrain: {{type: enum, enum: terrain}}}}",
                )
            else:
                _check_fields(fdef.fields, fields_raw[field_name]["fields"], enums, problems)
        elif fdef.fields is not None:
            problems.error(
                fields_raw[field_name].loc_of("fields"),
                "type-table",
                f"field '{field_name}' of type '{fdef.type}' has 'fields'; expected 'fields' only on a field of type table",
            )


def _load_symbols(folder: Path, meta: GameFile, raw: LMap, problems: Problems) -> dict[str, Path]:
    found = check_inside(meta.symbols, folder, [folder], raw.loc_of("symbols"), "symbols")
    if isinstance(found, PnpError):
        problems.extend(found.problems)
        return {}
    if not found.is_dir():
        if "symbols" in raw:
            problems.error(raw.loc_of("symbols"), "symbols-missing", f"symbol folder '{meta.symbols}' does not exist; expected a folder of .svg files")
        return {}
    symbols = {}
    for path in sorted(found.glob("*.svg")):
        if is_junk(path.name):  # ._NAME.svg and the like: not the game's symbols
            continue
        if not path.is_symlink() or inside(path, [folder]):  # a file that is no link is where its folder is, found inside: only a link's target is looked for
            symbols[path.stem] = path
        else:
            problems.error(outside(path), "path-outside", f"symbol '{path.stem}' is a link to outside the game folder; expected a file inside it")
    return symbols


def outside(path: Path) -> Location:
    """Where a file found in a game folder (not named by it) is reported: the file itself."""
    return Location(display_path(path))


def _load_cards(rows: Any, deck: str, type_name: str, tdef: TypeDef, enums: dict, symbols: dict, read: _Read, problems: Problems, shown: str) -> PackedCards:
    """The cards of one file, each id checked against every id seen so far; a card with
    an error in its own data is left out (kept in `read.left_out`)."""
    if not isinstance(rows, (LList, LItems)):
        found = "a mapping" if isinstance(rows, LMap) else "an empty file" if rows is None else f"'{rows}'"
        loc = rows.loc if isinstance(rows, LMap) else Location(shown, 1, 1)  # a lone value has no location of its own: the document's start
        problems.error(loc, "data-shape", f"card data must be a list of cards (each starting with '- id: ...'); found {found}")
        return PackedCards(enums)
    cards = PackedCards(enums)  # packed as they are read: memory does not grow with the deck
    before = len(problems.items)
    absent = getattr(rows, "absent", frozenset())  # a spreadsheet's (SheetRows): reported once, at the header
    for index, row in enumerate(rows):
        if not isinstance(row, LMap):
            problems.error(rows.loc_of(index), "data-shape", f"item {index + 1} is not a card; expected a mapping such as '- id: ...'")
            continue
        mark = len(problems.items)  # what this card adds is looked at, not every problem so far (a deck of 20,000 wrong rows)
        card = validate_card(row, deck, type_name, tdef, enums, symbols, problems, absent)
        if card is None:
            read.card_errors.update(_errors_since(problems, mark))
            continue
        if card.id in read.ids:
            problems.error(card.loc, "card-duplicate-id", f"id '{card.id}' is used twice (first at {read.ids[card.id]}); expected every id once")
        else:
            read.ids[card.id] = card.loc
        if added := _errors_since(problems, mark):  # left out, its errors reported: what later stages see of its deck is the cards that could be read
            read.card_errors.update(added)
            read.left_out.append(card)
            continue
        cards.append(card)
    refused = getattr(rows, "refused", False)  # a spreadsheet whose header was refused (SheetRows): reported there
    if not cards and not _errors_since(problems, before) and not refused:  # every row refused is reported row by row already
        what = "the deals file has no deals" if deck == "deals" else f"deck '{deck}' has no cards"
        problems.error(rows.loc, "deck-empty", f"{what}; expected at least one {type_name} (a row under the header, or an item '- id: ...')")
    return cards


def _errors_since(problems: Problems, mark: int) -> list[Problem]:
    """The errors added after the first `mark` problems."""
    return [p for p in problems.items[mark:] if p.severity == ERROR]


def validate_card(
    row: LMap, deck: str, type_name: str, tdef: TypeDef, enums: dict, symbols: dict, problems: Problems, absent: frozenset[str] = frozenset()
) -> Card | None:
    """Check one card against its type: known fields, right types, required ones present
    (but those in `absent`, whose missing column was reported once)."""
    card_id = row.get("id")
    if card_id is None:
        problems.error(row.loc_of("id"), "card-id", "card has no 'id'; expected a short unique name such as 'rim'")
        return None
    card_id = str(card_id)
    if mistake := id_mistake("card id", card_id):
        problems.error(row.loc_of("id"), "card-id", mistake)
    copies = row.get("copies", 1)
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
        problems.error(row.loc_of("copies"), "card-copies", f"copies of card '{card_id}' is {copies!r}; expected a whole number from 1 to {MAX_COPIES}")
        copies = 1
    values = _record(row, tdef.fields, f"card '{card_id}'", f"type '{type_name}'", enums, symbols, problems, absent=absent)
    locs: dict[str, Location] = {}
    _locate(row, "", locs)
    return Card(card_id, type_name, deck, values, copies, row.loc, locs)


def _record(
    row: LMap,
    fields: dict[str, FieldDef],
    owner: str,
    has: str,
    enums: dict,
    symbols: dict,
    problems: Problems,
    skip=RESERVED,
    absent: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The values of a card, or of one row of a table: known fields, right types, required
    ones present, defaults filled in. `owner` and `has` name it in messages."""
    values: dict[str, Any] = {}
    for key in row:
        if key in skip:
            continue
        if key not in fields:
            if skip and key in PROVIDED_NAMES:  # a card's key, not a table row's
                problems.error(
                    row.key_locs[key],
                    "field-name-reserved",
                    f"'{key}' on {owner} is a name pnp provides ({PROVIDED_NAMES[key]}), which no field may have; "
                    f"expected a field of {has} ({', '.join(fields)}), or a field of another name declared in rules.yaml, such as '{another_name(key)}'",
                )
                continue
            problems.error(
                row.key_locs[key],
                "card-unknown-field",
                f"unknown field '{key}' on {owner}{suggest(key, fields)}; {has} has: {', '.join(fields)}",
            )
            continue
        got = coerce(row[key], fields[key], f"field '{key}' of {owner}", row.loc_of(key), enums, symbols, problems)
        if got is not MISSING:
            values[key] = got
    for name, fdef in fields.items():
        if name in values or name in row:
            continue
        required = fdef.needed
        if required:
            if name not in absent:  # an empty cell is reported at itself, a YAML card at its start
                problems.error(row.loc_of(name), "card-missing-field", f"{owner} has no '{name}'; expected {_expect(fdef, enums)}")
        elif fdef.default is not None:
            values[name] = coerce(fdef.default, fdef, f"default of '{name}'", row.loc, enums, symbols, problems)
        elif fdef.type == "bool":
            values[name] = False
        else:
            values[name] = [] if fdef.type in ("list", "table", "points") else None
    return values


def _locate(value: Any, path: str, out: dict[str, Location]) -> None:
    """The location of every value inside a card, by path: `text`, `neighbours.2`,
    `hexes.3.terrain`, so a message can point at one entry of a list or table."""
    if isinstance(value, LMap):
        for key in value:
            sub = f"{path}.{key}" if path else str(key)
            out[sub] = value.loc_of(key)
            _locate(value[key], sub, out)
    elif isinstance(value, LList) and path:
        for i, item in enumerate(value):
            out[f"{path}.{i}"] = value.loc_of(i)
            _locate(item, f"{path}.{i}", out)


def _expect(fdef: FieldDef, enums: dict) -> str:
    if fdef.type == "table":
        return f"a list of rows, each a mapping of: {', '.join(fdef.fields or {})}"
    if fdef.type == "points":
        return "a list of points, each [x, y] in mm"
    kind = fdef.item if fdef.type == "list" else fdef.type
    if kind == "enum":
        choices = ", ".join(enums.get(fdef.enum or "", {}))
        what = f"one of: {choices}"
    else:
        what = {
            "text": "text",
            "int": "a whole number",
            "number": "a number",
            "bool": "true or false",
            "symbol": "a symbol name",
            "image": "an image file",
        }.get(kind or "", str(kind))
    return f"a list of {what}" if fdef.type == "list" else what


_TRUE = {"true", "yes", "y", "1", "x"}
_FALSE = {"false", "no", "n", "0", ""}


def coerce(value: Any, fdef: FieldDef, what: str, loc: Location, enums: dict, symbols: dict, problems: Problems) -> Any:
    """Convert a value to the declared field type, or report why it cannot be."""
    if fdef.type == "list":
        items = value if isinstance(value, list) else None
        if items is None:
            problems.error(loc, "card-type", f"{what} is {value!r}; expected {_expect(fdef, enums)}")
            return MISSING
        item_def = FieldDef(type=fdef.item or "text", enum=fdef.enum, min=fdef.min, max=fdef.max)
        out = []
        for i, item in enumerate(items):
            item_loc = items.loc_of(i) if isinstance(items, LList) else loc
            got = coerce(item, item_def, f"item {i + 1} of {what}", item_loc, enums, symbols, problems)
            if got is not MISSING:
                out.append(got)
        return out
    if fdef.type == "table":
        return _table(value, fdef, what, loc, enums, symbols, problems)
    if fdef.type == "points":
        return _points(value, fdef, what, loc, enums, problems)
    if value is None:
        problems.error(loc, "card-type", f"{what} is empty; expected {_expect(fdef, enums)}")
        return MISSING
    kind = fdef.type
    if kind == "text" or kind == "image":
        if isinstance(value, (dict, list)):
            problems.error(loc, "card-type", f"{what} is a {'list' if isinstance(value, list) else 'mapping'}; expected {_expect(fdef, enums)}")
            return MISSING
        return str(value)
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
    elif kind in ("int", "number"):
        number = _number(value, kind == "int")
        if number is not None:
            if (fdef.min is not None and number < fdef.min) or (fdef.max is not None and number > fdef.max):
                problems.error(loc, "card-range", f"{what} is {number}; expected a value from {_num(fdef.min)} to {_num(fdef.max)}")
                return MISSING
            return number
    elif kind == "enum":
        values = enums.get(fdef.enum or "", {})
        key = str(value)
        if key in values:
            return values[key]
        problems.error(
            loc,
            "card-enum",
            f"{what} is '{key}', which is not in '{fdef.enum}'{suggest(key, values)}; expected {one_of(values, f'a value of {fdef.enum}, which has none')}",
        )
        return MISSING
    elif kind == "symbol":
        key = str(value)
        if key in symbols:
            return key
        problems.error(
            loc,
            "card-symbol",
            f"{what} names symbol '{key}', which does not exist{suggest(key, symbols)}; expected {one_of(symbols, 'nothing: the game has no symbols (SVG files in symbols/)')}",
        )
        return MISSING
    problems.error(loc, "card-type", f"{what} is {value!r}; expected {_expect(fdef, enums)}")
    return MISSING


def _table(value: Any, fdef: FieldDef, what: str, loc: Location, enums: dict, symbols: dict, problems: Problems) -> Any:
    """A list of rows, each checked like a card against the table's own fields."""
    if not isinstance(value, list):
        problems.error(loc, "card-type", f"{what} is {_shown(value)}; expected {_expect(fdef, enums)}")
        return MISSING
    fields = fdef.fields or {}
    rows = []
    for i, row in enumerate(value):
        row_loc = value.loc_of(i) if isinstance(value, LList) else loc
        owner = f"row {i + 1} of {what}"
        if not isinstance(row, LMap):
            problems.error(row_loc, "card-type", f"{owner} is {_shown(row)}; expected a mapping of: {', '.join(fields)}")
            continue
        rows.append(_record(row, fields, owner, "a row", enums, symbols, problems, skip=()))
    return rows


def _points(value: Any, fdef: FieldDef, what: str, loc: Location, enums: dict, problems: Problems) -> Any:
    """A list of [x, y] pairs of numbers (mm): a polygon's corners."""
    if not isinstance(value, list):
        problems.error(loc, "card-type", f"{what} is {_shown(value)}; expected {_expect(fdef, enums)}")
        return MISSING
    points = []
    for i, item in enumerate(value):
        item_loc = value.loc_of(i) if isinstance(value, LList) else loc
        pair = [_number(v, False) for v in item] if isinstance(item, list) and len(item) == 2 else None
        if pair is None or None in pair:
            problems.error(item_loc, "card-type", f"point {i + 1} of {what} is {_shown(item)}; expected [x, y], two numbers in mm")
            continue
        points.append((float(pair[0]), float(pair[1])))
    return points


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if value is None:
        return "empty"
    return repr(list(value)) if isinstance(value, list) else repr(value)


def _num(x: float | None) -> str:
    return "any" if x is None else f"{x:g}"


def _number(value: Any, whole: bool) -> int | float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip().replace(",", "."))
        except ValueError:
            return None
    if isinstance(value, float) and whole:
        return int(value) if value.is_integer() else None
    if isinstance(value, (int, float)):
        return value
    return None
