"""Translations: every translatable string of a game, with a stable id derived from the
data (card id + field), in gettext catalogues that translators' tools read.

  locale/messages.pot   the template, extracted from the game's source language
  locale/<lang>.po      one catalogue per language

`update` merges the template into every catalogue by id: a string whose source text
changed keeps its translation but becomes fuzzy (with the previous source shown), new
strings are empty, removed ones become obsolete (kept, commented out). Nothing a
translator wrote is ever dropped.
"""

from __future__ import annotations

import dataclasses
import difflib
import io
import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from .cardstore import PackedCards
from .errors import Location, PnpError, Problems, display_path
from .files import atomic_path
from .model import Card, Deck, EnumValue, FieldDef, Game

PSEUDO = "qps"  # the pseudo-language: accented and about 40 % longer
LOCALE_DIR = "locale"
TEMPLATE = "messages.pot"


@dataclass(frozen=True)
class Entry:
    id: str  # stable: derived from the data, never from a position (the msgctxt)
    text: str  # in the game's source language
    loc: Location  # where the source text is
    note: str  # for the translator: what the string is
    by_text: bool = False  # many entries share the id (a rulebook's paragraphs): the text tells them apart

    @property
    def key(self) -> str:
        """How its translation is looked up: the id, or the id and the text."""
        return text_key(self.id, self.text) if self.by_text else self.id

    @property
    def label(self) -> str:
        """How messages name it: the id, and for a rulebook paragraph its line too."""
        return f"{self.id}:{self.loc.line}" if self.by_text else self.id


def text_key(context: str, text: str) -> str:
    """gettext's own key of a message with a context: context, EOT, msgid."""
    return f"{context}\x04{text}"


def extract(game: Game, rulebook: list[Entry]) -> list[Entry]:
    """Every translatable string of the game, then those of its rulebooks (`rulebook`, from
    rulebook.source.rulebook_entries), in a stable order; a rulebook string the game
    already has is listed once."""
    meta = game.meta
    entries: list[Entry] = []
    game_loc = game.loc

    def add(sid: str, text: object, loc: Location, note: str) -> None:
        if isinstance(text, str) and text.strip():
            entries.append(Entry(sid, text, loc, note))

    add("game.title", meta.title, game_loc, "the game's title")
    add("game.attribution", meta.attribution, game_loc, "credits printed on the card backs; say that this is the pnp project's translation")
    for key, text in meta.strings.items():
        add(f"strings.{key}", text, game_loc, "a text the layouts print")
    for key, text in meta.symbol_names.items():
        add(f"symbol.{key}", text, game_loc, f"the name of symbol '{key}' (symbol legends)")
    for deck in game.decks.values():
        if deck.front is not None:  # a data-only deck's name is never printed
            add(f"deck.{deck.id}.name", deck.name, deck.loc, "the name of a deck")
    for enum_name, values in game.enums.items():
        for value in values.values():
            for attr in game.translate_attributes:
                add(f"enum.{enum_name}.{value}.{attr}", value.attrs.get(attr), game_loc, f"{attr} of '{value}' ({enum_name})")
    for card in game.cards() + game.deals:
        for path, text, note in texts(card.fields, game.types[card.type].fields, "translate"):
            add(f"{card.id}.{path}", text, card.loc_of(path), f"{note} of {card.type} '{card.id}'")
    if rulebook:
        seen = {entry.key for entry in entries}
        for entry in rulebook:
            if entry.key not in seen:
                seen.add(entry.key)
                entries.append(entry)
    return entries


def texts(values: dict, fields: dict[str, FieldDef], flag: str, prefix: str = "", row: str = ""):
    """(path, text, note) for every text of a card whose field has `flag` (translate or
    glossary) set. Paths are the stable ids: `text`, a list's `tags.2`, a table's
    `hexes.3.label` (row 4 of hexes); lists and tables nest."""
    for name, fdef in fields.items():
        if not getattr(fdef, flag):
            continue
        value = values.get(name)
        path = f"{prefix}{name}"
        if fdef.type == "text":
            yield path, value, f"{name}{row}"
        elif fdef.type == "list" and fdef.item == "text":
            for i, item in enumerate(value or []):
                yield f"{path}.{i}", item, f"{name} {i + 1}{row}"
        elif fdef.type == "table":
            for i, item in enumerate(value or []):
                yield from texts(item, fdef.fields or {}, flag, f"{path}.{i}.", f" in row {i + 1} of {name}{row}")


# --- catalogue files ---------------------------------------------------------------------


def locale_dir(game: Game) -> Path:
    return game.root / LOCALE_DIR


def languages(game: Game) -> list[str]:
    """The languages that have a catalogue, sorted."""
    folder = locale_dir(game)
    return sorted(p.stem for p in folder.glob("*.po")) if folder.is_dir() else []


def _fixed_date() -> datetime:
    """Catalogue dates from SOURCE_DATE_EPOCH (or a constant): same input, same bytes."""
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "946684800"))
    return datetime.fromtimestamp(epoch, tz=timezone.utc)


def _new_catalog(game: Game, lang: str | None) -> Catalog:
    date = _fixed_date()
    return Catalog(locale=lang, project=game.meta.title, version=game.meta.edition or None, creation_date=date, revision_date=date, fuzzy=False)


def template(game: Game, entries: list[Entry]) -> Catalog:
    catalog = _new_catalog(game, None)
    root = game.root.resolve()
    for entry in entries:
        where = Path(os.path.relpath(Path(entry.loc.file).resolve(), root)).as_posix()  # the same from any working directory
        catalog.add(entry.text, "", context=entry.id, auto_comments=[entry.note], locations=[(where, entry.loc.line)] if entry.loc.line else [])
    return catalog


def _write(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, include_previous=True, sort_output=False)
    data = buffer.getvalue()
    if path.is_file() and path.read_bytes() == data:
        return
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def read_catalog(path: Path, problems: Problems | None = None) -> Catalog | None:
    try:
        with path.open("rb") as handle:
            return read_po(handle, abort_invalid=True)
    except Exception as exc:  # babel raises several kinds for broken files
        if problems is not None:
            line = getattr(exc, "lineno", 0) or 0
            problems.error(Location(display_path(path), line), "po-unreadable", f"cannot read this catalogue: {exc}; expected a gettext .po file")
            problems.unreadable = True
        return None


@dataclass
class UpdateReport:
    lang: str
    new: int
    fuzzy: int
    obsolete: int


def update(game: Game, entries: list[Entry], add: list[str] | None = None) -> tuple[Path, list[UpdateReport]]:
    """Write the template of `entries` and merge it into every catalogue (and new ones for `add`)."""
    folder = locale_dir(game)
    pot = template(game, entries)
    _write(folder / TEMPLATE, pot)
    reports = []
    for lang in sorted(set(languages(game)) | set(add or [])):
        path = folder / f"{lang}.po"
        problems = Problems()
        old = read_catalog(path, problems) if path.is_file() else _new_catalog(game, lang)
        if old is None:
            raise PnpError(problems)
        merged, report = _merge(game, lang, pot, old)
        _write(path, merged)
        reports.append(report)
    return folder / TEMPLATE, reports


def _previous(pot: Catalog, old: Catalog) -> dict[tuple[str, str], Message]:
    """Which old message each new one continues: the same context and text; else, in the
    same context, the one left over (a card's field: its text changed), or among several
    left over (a rulebook's paragraphs share a context) the most similar text. Obsolete
    messages with a translation count too, so a string that comes back keeps it."""
    active = [m for m in old if m.id and m.context]
    candidates = active + [m for m in old.obsolete.values() if m.id and m.context and m.string]
    exact: dict[tuple[str, str], Message] = {}
    by_context: dict[str, list[Message]] = {}
    for m in candidates:
        exact.setdefault((m.context, m.id), m)
        by_context.setdefault(m.context, []).append(m)
    new = [m for m in pot if m.id]
    sharing: dict[str, int] = {}
    for m in new:
        sharing[m.context] = sharing.get(m.context, 0) + 1
    chosen: dict[tuple[str, str], Message] = {}
    taken: set[int] = set()
    for m in new:
        previous = exact.get((m.context, m.id))
        if previous is not None and id(previous) not in taken:
            chosen[(m.context, m.id)] = previous
            taken.add(id(previous))
    for m in new:
        if (m.context, m.id) in chosen:
            continue
        left = [c for c in by_context.get(m.context, []) if id(c) not in taken]
        if not left:
            continue
        if sharing[m.context] == 1 and len(left) == 1:
            previous = left[0]
        else:
            best = max(range(len(left)), key=lambda i: (difflib.SequenceMatcher(None, left[i].id, m.id).ratio(), -i))
            if difflib.SequenceMatcher(None, left[best].id, m.id).ratio() < 0.5:
                continue
            previous = left[best]
        chosen[(m.context, m.id)] = previous
        taken.add(id(previous))
    return chosen


def _merge(game: Game, lang: str, pot: Catalog, old: Catalog) -> tuple[Catalog, UpdateReport]:
    chosen = _previous(pot, old)
    used = {id(m) for m in chosen.values()}
    merged = _new_catalog(game, lang)
    merged.last_translator = old.last_translator
    merged.language_team = old.language_team
    new = fuzzy = 0
    for message in pot:
        if not message.id:
            continue
        previous = chosen.get((message.context, message.id))
        flags: set[str] = set()
        string, previous_id = "", None
        if previous is not None:
            string = previous.string
            if previous.id != message.id:
                flags.add("fuzzy")  # the source changed: the translation is stale
                previous_id = previous.previous_id or previous.id
            elif previous.fuzzy:
                flags.add("fuzzy")
                previous_id = previous.previous_id
        if not string:
            new += previous is None
            flags.discard("fuzzy")
        fuzzy += "fuzzy" in flags
        merged.add(
            message.id,
            string,
            context=message.context,
            auto_comments=message.auto_comments,
            user_comments=previous.user_comments if previous is not None else [],
            locations=message.locations,
            flags=flags,
            previous_id=previous_id,
        )
    obsolete = 0
    for message in old:
        if message.id and message.context and id(message) not in used and message.string:
            merged.obsolete[(message.id, message.context)] = message
            obsolete += 1
    for key, message in old.obsolete.items():
        if id(message) not in used and key not in merged.obsolete and message.string:  # still obsolete: keep it
            merged.obsolete[key] = message
    return merged, UpdateReport(lang, new, fuzzy, obsolete)


# --- status and lookup -------------------------------------------------------------------


@dataclass
class Status:
    lang: str
    total: int
    translated: int
    fuzzy: list[tuple[str, int]]  # (id, .po line)
    missing: list[tuple[str, int]]

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0


def status(game: Game, entries: list[Entry], lang: str, problems: Problems) -> tuple[Status, dict[str, str]]:
    """How complete a language is, and its usable translations (id -> text): its
    catalogue read once and matched against the game's `entries`."""
    path = locale_dir(game) / f"{lang}.po"
    catalog = read_catalog(path, problems) if path.is_file() else None
    by_key: dict[str, Message] = {}
    for m in catalog if catalog is not None else []:
        if m.id and m.context:
            by_key.setdefault(m.context, m)
            by_key[text_key(m.context, m.id)] = m
    done: dict[str, str] = {}
    fuzzy, missing = [], []
    for entry in entries:
        message = by_key.get(entry.key)
        line = getattr(message, "lineno", 0) or 0
        if message is None or not message.string:
            missing.append((entry.label, line))
        elif message.fuzzy or message.id != entry.text:
            fuzzy.append((entry.label, line))
        else:
            done[entry.key] = message.string
    return Status(lang, len(entries), len(done), fuzzy, missing), done


def translations(game: Game, entries: list[Entry], lang: str, allow_untranslated: bool, problems: Problems) -> tuple[dict[str, str], int]:
    """Translated `entries` for `lang`; a missing or stale one is an error with its .po
    line, or, with allow_untranslated, falls back to the source (the count is returned)."""
    if lang == PSEUDO:
        return {e.key: pseudo_markdown(e.text) if e.by_text else pseudo(e.text) for e in entries}, 0
    path = locale_dir(game) / f"{lang}.po"
    shown = display_path(path)
    if not path.is_file():
        problems.error(
            Location(display_path(locale_dir(game))),
            "lang-missing",
            f"there is no catalogue for '{lang}'; expected {shown} (create it with: pnp i18n update --add {lang})",
        )
        return {}, 0
    state, done = status(game, entries, lang, problems)
    fallback = len(state.fuzzy) + len(state.missing)
    if not allow_untranslated:
        for sid, line in state.missing:
            problems.error(Location(shown, line), "untranslated", f"'{sid}' has no {lang} translation; expected a msgstr (or build with --allow-untranslated)")
        for sid, line in state.fuzzy:
            problems.error(
                Location(shown, line),
                "translation-stale",
                f"'{sid}' is fuzzy: its source text changed since it was translated; expected a reviewed translation without the fuzzy flag",
            )
    return done, fallback


# --- applying a translation --------------------------------------------------------------


def translate(game: Game, strings: dict[str, str]) -> Game:
    """A copy of the game with every translated string replaced; ids, numbers and
    enumeration values stay as they are, so the rules model is unaffected."""
    meta = game.meta
    new_strings = {key: strings.get(f"strings.{key}", text) for key, text in meta.strings.items()}
    symbol_names = {key: strings.get(f"symbol.{key}", text) for key, text in meta.symbol_names.items()}
    new_meta = dataclasses.replace(
        meta,
        title=strings.get("game.title", meta.title),
        attribution=strings.get("game.attribution", meta.attribution),
        strings=new_strings,
        symbol_names=symbol_names,
    )
    enums = {}
    for name, values in game.enums.items():
        enums[name] = {}
        for key, value in values.items():
            attrs = dict(value.attrs)
            for attr in game.translate_attributes:
                sid = f"enum.{name}.{key}.{attr}"
                if sid in strings:
                    attrs[attr] = strings[sid]
            enums[name][key] = EnumValue(str(value), attrs)

    def copy_values(values: dict, fields: dict[str, FieldDef], prefix: str) -> dict:
        """The values of a card (or a table row) with translated texts and enumeration values."""
        out = {}
        for name, value in values.items():
            fdef = fields.get(name)
            sid = f"{prefix}{name}"
            if isinstance(value, EnumValue):
                value = enums[fdef.enum if fdef else ""][str(value)]
            elif isinstance(value, list) and fdef is not None and fdef.type == "table":
                value = [copy_values(row, fdef.fields or {}, f"{sid}.{i}.") for i, row in enumerate(value)]
            elif isinstance(value, list):
                value = [enums[fdef.enum if fdef else ""][str(v)] if isinstance(v, EnumValue) else strings.get(f"{sid}.{i}", v) for i, v in enumerate(value)]
            elif isinstance(value, str):
                value = strings.get(sid, value)
            out[name] = value
        return out

    def card_copy(card: Card) -> Card:
        return dataclasses.replace(card, fields=copy_values(card.fields, game.types[card.type].fields, f"{card.id}."))

    decks = {
        did: Deck(d.id, strings.get(f"deck.{d.id}.name", d.name), d.type, d.front, d.back, PackedCards(enums, map(card_copy, d.cards)), d.loc, d.locs)
        for did, d in game.decks.items()
    }
    return dataclasses.replace(game, meta=new_meta, enums=enums, decks=decks, deals=[card_copy(c) for c in game.deals])


_ACCENTS = str.maketrans("aeiouycsznrdtlAEIOUYCSZNRDTL", "äéíôůýčšžňřďťľÄÉÍÔŮÝČŠŽŇŘĎŤĽ")
_TOKEN = re.compile(r"(:[a-z0-9][a-z0-9_-]*:|\*\*|\*|\n)")


def pseudo(text: str) -> str:
    """Accent every letter and make the text about 40 % longer, keeping markup intact,
    so overflowing boxes show up before any translator starts."""
    parts = _TOKEN.split(text)
    out = "".join(part if _TOKEN.fullmatch(part) else part.translate(_ACCENTS) for part in parts)
    letters = sum(len(p) for p in parts if not _TOKEN.fullmatch(p))
    pad = max(2, round(letters * 0.4))
    filler = " ".join("žžžžžžž"[: min(7, pad - i)] for i in range(0, pad, 8))
    return f"[{out} {filler}]"


_MARKDOWN_KEEP = re.compile(r"(\{\{.*?\}\}|\{%.*?%\}|\{[#.][^}]*\}|\]\([^)]*\)|:[a-z0-9][a-z0-9_-]*:|^\s*(?:#+|[-*+]|\d+\.)\s|\*\*|\*|\|)", re.M)


def pseudo_markdown(text: str) -> str:
    """A rulebook block accented, leaving its Markdown, ids, references, symbols and
    templates intact (it is not lengthened: pages grow, boxes do not overflow)."""
    parts = _MARKDOWN_KEEP.split(text)
    return "".join(part if i % 2 else part.translate(_ACCENTS) for i, part in enumerate(parts))
