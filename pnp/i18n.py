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
import io
import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from .cardstore import PackedCards
from .errors import Location, Problems, display_path
from .files import atomic_path
from .model import Card, Deck, EnumValue, Game

PSEUDO = "qps"  # the pseudo-language: accented and about 40 % longer
LOCALE_DIR = "locale"
TEMPLATE = "messages.pot"


@dataclass(frozen=True)
class Entry:
    id: str  # stable: derived from the data, never from a position
    text: str  # in the game's source language
    loc: Location  # where the source text is
    note: str  # for the translator: what the string is


def extract(game: Game) -> list[Entry]:
    """Every translatable string of the game, in a stable order."""
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
    for deck in game.decks.values():
        add(f"deck.{deck.id}.name", deck.name, deck.loc, "the name of a deck")
    for enum_name, values in game.enums.items():
        for value in values.values():
            for attr in game.translate_attributes:
                add(f"enum.{enum_name}.{value}.{attr}", value.attrs.get(attr), game_loc, f"{attr} of '{value}' ({enum_name})")
    for card in game.cards() + game.deals:
        fields = game.types[card.type].fields
        for name, fdef in fields.items():
            if not fdef.translate:
                continue
            value = card.fields.get(name)
            if fdef.type == "text":
                add(f"{card.id}.{name}", value, card.loc_of(name), f"{name} of {card.type} '{card.id}'")
            elif fdef.type == "list" and fdef.item == "text":
                for i, item in enumerate(value or []):
                    add(f"{card.id}.{name}.{i}", item, card.loc_of(name), f"{name} {i + 1} of {card.type} '{card.id}'")
    return entries


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


def template(game: Game) -> Catalog:
    catalog = _new_catalog(game, None)
    root = game.root.resolve()
    for entry in extract(game):
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


def update(game: Game, add: list[str] | None = None) -> tuple[Path, list[UpdateReport]]:
    """Write the template and merge it into every catalogue (and new ones for `add`)."""
    folder = locale_dir(game)
    pot = template(game)
    _write(folder / TEMPLATE, pot)
    reports = []
    for lang in sorted(set(languages(game)) | set(add or [])):
        path = folder / f"{lang}.po"
        problems = Problems()
        old = read_catalog(path, problems) if path.is_file() else _new_catalog(game, lang)
        if old is None:
            from .errors import PnpError

            raise PnpError(problems)
        merged, report = _merge(game, lang, pot, old)
        _write(path, merged)
        reports.append(report)
    return folder / TEMPLATE, reports


def _merge(game: Game, lang: str, pot: Catalog, old: Catalog) -> tuple[Catalog, UpdateReport]:
    by_id: dict[str, Message] = {m.context: m for m in old if m.id and m.context}
    revived = {m.context: m for m in old.obsolete.values() if m.context and m.context not in by_id and m.string}
    merged = _new_catalog(game, lang)
    merged.last_translator = old.last_translator
    merged.language_team = old.language_team
    new = fuzzy = 0
    used = set()
    for message in pot:
        if not message.id:
            continue
        previous = by_id.get(message.context) or revived.get(message.context)  # a string that comes back keeps its translation
        flags: set[str] = set()
        string, previous_id = "", None
        if previous is not None:
            used.add(message.context)
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
    for context, message in by_id.items():
        if context not in used and message.string:
            merged.obsolete[(message.id, context)] = message
            obsolete += 1
    for key, message in old.obsolete.items():
        if message.context not in used and key not in merged.obsolete and message.string:  # still obsolete: keep it
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


def status(game: Game, lang: str, problems: Problems) -> tuple[Status, dict[str, str]]:
    """How complete a language is, and its usable translations (id -> text)."""
    entries = extract(game)
    path = locale_dir(game) / f"{lang}.po"
    catalog = read_catalog(path, problems) if path.is_file() else None
    by_id = {m.context: m for m in catalog if m.id and m.context} if catalog is not None else {}
    done: dict[str, str] = {}
    fuzzy, missing = [], []
    for entry in entries:
        message = by_id.get(entry.id)
        line = getattr(message, "lineno", 0) or 0
        if message is None or not message.string:
            missing.append((entry.id, line))
        elif message.fuzzy or message.id != entry.text:
            fuzzy.append((entry.id, line))
        else:
            done[entry.id] = message.string
    return Status(lang, len(entries), len(done), fuzzy, missing), done


def translations(game: Game, lang: str, allow_untranslated: bool, problems: Problems) -> tuple[dict[str, str], int]:
    """Translated strings for `lang`; a missing or stale one is an error with its .po line,
    or, with allow_untranslated, falls back to the source (the count is returned)."""
    entries = extract(game)
    if lang == PSEUDO:
        return {e.id: pseudo(e.text) for e in entries}, 0
    path = locale_dir(game) / f"{lang}.po"
    shown = display_path(path)
    if not path.is_file():
        problems.error(
            Location(display_path(locale_dir(game))),
            "lang-missing",
            f"there is no catalogue for '{lang}'; expected {shown} (create it with: pnp i18n update --add {lang})",
        )
        return {}, 0
    state, done = status(game, lang, problems)
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
    new_meta = dataclasses.replace(
        meta, title=strings.get("game.title", meta.title), attribution=strings.get("game.attribution", meta.attribution), strings=new_strings
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

    def card_copy(card: Card) -> Card:
        fields = {}
        for name, value in card.fields.items():
            if isinstance(value, EnumValue):
                value = enums[_enum_of(game, card, name)][str(value)]
            elif isinstance(value, list):
                value = [
                    enums[_enum_of(game, card, name)][str(v)] if isinstance(v, EnumValue) else strings.get(f"{card.id}.{name}.{i}", v)
                    for i, v in enumerate(value)
                ]
            elif isinstance(value, str):
                value = strings.get(f"{card.id}.{name}", value)
            fields[name] = value
        return dataclasses.replace(card, fields=fields)

    decks = {
        did: Deck(d.id, strings.get(f"deck.{d.id}.name", d.name), d.type, d.front, d.back, PackedCards(enums, map(card_copy, d.cards)), d.loc, d.locs)
        for did, d in game.decks.items()
    }
    return dataclasses.replace(game, meta=new_meta, enums=enums, decks=decks, deals=[card_copy(c) for c in game.deals])


def _enum_of(game: Game, card: Card, field: str) -> str:
    fdef = game.types[card.type].fields[field]
    return fdef.enum or ""


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
