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
import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.base.errors import Location, Problems, display_path, fail
from pnp.base.output import Transaction, transaction
from pnp.base.paths import inside, is_junk, leads_out
from pnp.base.texts import utf8_text
from pnp.i18n.msgid import comparable, singular, unescape
from pnp.load.languages import known_language
from pnp.load.model import LANGUAGE, Card, Deck, EnumValue, FieldDef, Game
from pnp.load.packed import PackedCards
from pnp.load.yamlfile import LMap, load_yaml
from pnp.templates.expressions import CODE, unreadable
from pnp.templates.plurals import PLURAL_CONTEXT, Plurals, plural_forms

if TYPE_CHECKING:  # babel's catalogues are read only for games with translations, and written only by `pnp translate`
    from babel.messages.catalog import Catalog, Message

FORMAT_FLAGS = frozenset({"python-format", "python-brace-format"})  # pnp formats nothing the Python way: never written
PSEUDO = "qps"  # the pseudo-language: accented and about 40 % longer
LOCALE_DIR = "locale"
TEMPLATE = "messages.pot"


class Translated(str):
    """A translation that remembers its entry in the catalogue, so that what is found when
    it is set (it does not fit, a glyph or symbol is missing, markup does not pair) is
    reported at the .po file's line, not at the source text's."""

    loc: Location

    def __new__(cls, text: str, loc: Location) -> Translated:
        obj = super().__new__(cls, text)
        obj.loc = loc
        return obj

    def __reduce__(self) -> tuple:
        return (Translated, (str(self), self.loc))


@dataclass(repr=False, eq=False)
class Entry:
    """A text to translate: its stable id, its source text and where that is."""

    id: str  # stable: derived from the data, never from a position (the msgctxt)
    text: str  # in the game's source language
    loc: Location  # where the source text is
    note: str  # for the translator: what the string is
    by_text: bool = False  # many entries share the id (a rulebook's paragraphs): the text tells them apart
    plural: tuple[str, ...] = ()  # a plural's forms in the source language ({% plural %}): msgid is the first, msgid_plural the last
    # a template, filled in where it is printed (a string of `strings:`, a rulebook's title
    # and blocks, a plural's forms), in the source as in each translation; every other
    # text (a card's, a title, a name) prints as written, {{ and {% included, in every language
    template: bool = False

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

    def add(sid: str, text: object, loc: Location, note: str, template: bool = False) -> None:
        if isinstance(text, str) and text.strip():
            entries.append(Entry(sid, text, loc, note, template=template))

    where = yaml_locations(game)

    def at(*path: str) -> Location:
        return where.get(path, game_loc)

    add("game.title", meta.title, at("title"), "the game's title")
    add("game.attribution", meta.attribution, at("attribution"), "credits printed on the card backs")
    for key, text in meta.strings.items():
        add(f"strings.{key}", text, at("strings", key), "a text the layouts print", template=True)  # expressions.Strings fills it in
    for key, text in meta.symbol_names.items():
        add(f"symbol.{key}", text, at("symbol_names", key), f"the name of symbol '{key}' (symbol legends)")
    for deck in game.decks.values():
        if deck.front is not None:  # a data-only deck's name is never printed
            add(f"deck.{deck.id}.name", deck.name, deck.loc, "the name of a deck")
    for enum_name, values in game.enums.items():
        for value in values.values():
            for attr in game.translate_attributes:
                add(f"enum.{enum_name}.{value}.{attr}", value.attrs.get(attr), at("enums", enum_name, str(value), attr), f"{attr} of '{value}' ({enum_name})")
    for card in game.cards() + game.deals:
        for path, text, note in texts(card.fields, game.types[card.type].fields, "translate"):
            add(f"{card.id}.{path}", text, card.loc_of(path), f"{note} of {card.type} '{card.id}'")
    if rulebook:
        seen = {entry.key for entry in entries}
        for entry in rulebook:
            if entry.key not in seen:
                seen.add(entry.key)
                entries.append(entry)
    return entries + plural_entries(entries)


def yaml_locations(game: Game) -> dict[tuple[str, ...], Location]:
    """Where each text of game.yaml and each enumeration value's attribute of the rules
    file is (by its path of keys), so that each catalogue entry names its own line."""
    found: dict[tuple[str, ...], Location] = {}

    def walk(value: object, path: tuple[str, ...], depth: int) -> None:
        if isinstance(value, LMap) and depth:
            for key, item in value.items():
                found[(*path, str(key))] = value.loc_of(key)
                walk(item, (*path, str(key)), depth - 1)

    for name in ("game.yaml", game.meta.rules or "rules.yaml"):
        path = game.root / name
        try:
            raw = load_yaml(path) if path.is_file() and inside(path, [game.root]) else None
        except Exception:  # already reported when the game was loaded
            raw = None
        if isinstance(raw, LMap):
            for key in ("title", "attribution", "strings", "symbol_names", "enums") if name == "game.yaml" else ("enums",):
                if key in raw:
                    found[(key,)] = raw.loc_of(key)
                    walk(raw[key], (key,), 3)
    return found


def plural_entries(entries: list[Entry]) -> list[Entry]:
    """An entry for each plural the templates hold ({% plural n %}1 mesto{% pluralform %}...),
    once per first form: msgid the first form, msgid_plural the last, and a msgstr for each
    form of the target language. A text that prints as written has none: its tags are text."""
    found: dict[str, Entry] = {}
    for entry in entries:
        for offset, forms in plural_forms(entry.text) if entry.template else ():
            if forms[0] not in found:
                loc = Location(entry.loc.file, entry.loc.line + entry.text[:offset].count("\n")) if entry.loc.line else entry.loc
                shown = "; ".join(f"'{form}'" for form in forms)
                note = f"a word that agrees with a number n (source forms {shown}): a form for each plural form of your language, n is the number"
                found[forms[0]] = Entry(PLURAL_CONTEXT, forms[0], loc, note, by_text=True, plural=forms, template=True)
    return list(found.values())


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
    """The languages that have a catalogue (LANG.po, LANG a language code), sorted. Other
    files are not catalogues: an operating system's leftovers (`._de.po`), a copy (`de
    (copy).po`), an editor's backup (`de.po~`). A locale/ folder that is a link to outside
    the game folder is a located error (PnpError), never listed."""
    folder = locale_dir(game)
    if leads_out(folder):
        raise fail(Location(display_path(folder)), "path-outside", "locale/ is a link to outside the game folder; expected the catalogues inside it")
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.po") if not is_junk(p.name) and LANGUAGE.fullmatch(p.stem) and inside(p, [folder]))


def catalogue_path(game: Game, name: str, problems: Problems) -> Path | None:
    """A file of the locale folder (LANG.po, messages.pot), or None when it, or the folder,
    is a link that leads out of the game folder: nothing is read or written there."""
    path = locale_dir(game) / name
    for candidate in (locale_dir(game), path):
        if candidate.exists() and not inside(candidate, [game.root]):
            problems.error(
                Location(display_path(candidate)),
                "path-outside",
                f"{candidate.name}{'/' if candidate.is_dir() else ''} is a link to outside the game folder; expected the catalogues inside it",
            )
            return None
    return path


def check_language(lang: str, where: Location, problems: Problems) -> bool:
    """A language code given on the command line: see `known_language`."""
    known = known_language(lang)
    if not known:
        problems.error(where, "lang-code", f"'{lang}' is not a language code; expected a locale such as 'cs', 'en' or 'pt_BR' (it names the file LANG.po)")
    return known


def _fixed_date() -> datetime:
    """Catalogue dates from SOURCE_DATE_EPOCH (or a constant): same input, same bytes."""
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "946684800"))
    return datetime.fromtimestamp(epoch, tz=timezone.utc)


def _new_catalog(game: Game, lang: str | None) -> Catalog:
    from babel.messages.catalog import Catalog  # here for speed: a build without translations needs no catalogue

    date = _fixed_date()
    from babel import Locale

    language = Locale.parse(lang).english_name if lang else None
    return Catalog(
        locale=lang,
        project=game.meta.title,
        version=game.meta.edition or None,
        creation_date=date,
        revision_date=date,
        fuzzy=False,
        header_comment=header_comment(game, language),
    )


def header_comment(game: Game, language: str | None) -> str:
    """The comment above a new catalogue's header, from game.yaml: its title, author and
    licence (babel's own names an ORGANIZATION, a FIRST AUTHOR and the year it runs in).
    No date: the same game gives the same bytes."""
    meta = game.meta
    title = meta.title + (f", {meta.edition}" if meta.edition else "")
    lines = [f"{language} translation of {title}." if language else f"The strings of {title} to translate."]
    if meta.author:
        lines.append(f"The game: {meta.author}" + (f", {meta.licence}." if meta.licence else "."))
    elif meta.licence:
        lines.append(f"The game: {meta.licence}.")
    return "\n".join("# " + _no_babel_words(line) for line in lines)


def _no_babel_words(text: str) -> str:
    """`text` without the words babel replaces in a header comment (PROJECT, VERSION, YEAR, ORGANIZATION)."""
    return re.sub("PROJECT|VERSION|YEAR|ORGANIZATION|Translations template", lambda m: m.group().lower(), text)


def template(game: Game, entries: list[Entry]) -> Catalog:
    catalog = _new_catalog(game, None)
    root = game.root.resolve()
    for entry in entries:
        where = Path(os.path.relpath(Path(entry.loc.file).resolve(), root)).as_posix()  # the same from any working directory
        msgid = (entry.plural[0], entry.plural[-1]) if entry.plural else entry.text
        message = catalog.add(
            msgid, ("", "") if entry.plural else "", context=entry.id, auto_comments=[entry.note], locations=[(where, entry.loc.line)] if entry.loc.line else []
        )
        message.flags -= FORMAT_FLAGS  # babel guesses python-format from a '%' or braces: pnp formats nothing the Python way
    return catalog


def _write(path: Path, catalog: Catalog, txn: Transaction) -> None:
    """The catalogue written over its old file, changing only the entries that changed
    (pofile): a file in Poedit's or msgmerge's wrapping keeps it, and its headers. It
    goes into `txn`, with every other catalogue of the update: all are changed or none."""
    old = utf8_text(path.read_bytes()) if path.is_file() else None
    from pnp.i18n import pofile  # here for speed: it brings in babel's catalogues, which a build does not write

    data = pofile.write(old, catalog).encode("utf-8")
    if old is not None and old.encode("utf-8") == data:
        return
    txn.path_for(path).write_bytes(data)


def read_catalog(path: Path, problems: Problems | None = None) -> Catalog | None:
    """The catalogue, or None when it is not a well-formed .po file: babel reads many
    mistakes silently (a missing quote, a second entry for the same string), so the file is
    checked line by line first and every mistake reported at its line."""
    own = Problems()
    try:
        data = path.read_bytes()
        declared = _charset(data, display_path(path), own)
        text = utf8_text(data)
        check_po(text, display_path(path), own)
        if not own.errors:
            from pnp.i18n import pofile  # here for speed: babel's catalogues, only for games with translations

            return pofile.read(text)
    except UnicodeDecodeError as exc:
        if declared is None:
            own.error(
                Location(display_path(path), data[: exc.start].count(b"\n") + 1),
                "po-unreadable",
                "the catalogue is not UTF-8 text; expected a .po file saved as UTF-8",
            )
    except Exception as exc:  # babel raises several kinds for broken files
        line = getattr(exc, "lineno", 0) or 0
        own.error(Location(display_path(path), line), "po-unreadable", f"cannot read this catalogue: {exc}; expected a gettext .po file")
    if problems is not None:
        problems.extend(own)
        problems.unreadable = True
    return None


# The patterns of this module are compiled on first use, from re's cache: most runs read no
# catalogue and extract nothing, and compiling them all at import cost more than reading one.
_CHARSET = rb"charset=([A-Za-z0-9_.:-]+)"


def _charset(data: bytes, shown: str, problems: Problems) -> str | None:
    """The charset the catalogue's header names when it is not UTF-8 and the text has
    other than ASCII, reported at the header: the file is in that charset, which pnp does
    not read, or it is UTF-8 and the header is wrong (other gettext tools would read it
    wrongly). None: the header says UTF-8, says nothing, or the text is plain ASCII."""
    head = data[: data.find(b"\n\n") if b"\n\n" in data else 4096]  # the header entry comes first
    found = re.search(_CHARSET, head)
    if found is None or found.group(1).decode("ascii").lower().replace("_", "-") in ("utf-8", "utf8") or data.isascii():
        return None
    name = found.group(1).decode("ascii")
    where = Location(shown, head[: found.start()].count(b"\n") + 1, len(head[: found.start()].rsplit(b"\n", 1)[-1]) + 1)
    try:
        utf8_text(data)
    except UnicodeDecodeError:
        message = f"the header says charset={name}, and the catalogue is saved so; expected UTF-8: convert it (msgconv --to-code=UTF-8, or save it as UTF-8 in your editor) and set charset=UTF-8"
    else:
        message = f"the header says charset={name}, but the catalogue is UTF-8 text; expected charset=UTF-8 (gettext tools would read this file as {name})"
    problems.error(where, "po-charset", message)
    return name


_PO_STRING = r'"((?:[^"\\]|\\[\\"ntr])*)"\s*$'
_PO_KEYWORD = r"(msgctxt|msgid|msgid_plural|msgstr|msgstr\[\d+\])\s+(.*)$"
_PO_NEXT = {  # which keyword may follow which ("msgstr[": msgstr[N] of plural forms)
    None: ("msgctxt", "msgid"),
    "msgctxt": ("msgid",),
    "msgid": ("msgid_plural", "msgstr"),
    "msgid_plural": ("msgstr[",),
    "msgstr": ("msgctxt", "msgid"),
    "msgstr[": ("msgstr[", "msgctxt", "msgid"),
}


def check_po(text: str, shown: str, problems: Problems) -> None:
    """The syntax of a .po file, strictly (keywords in gettext's order, every string quoted
    and closed, only the escapes gettext writes), and each msgctxt + msgid once. Obsolete
    entries (#~) are history: not checked."""
    last: str | None = None
    entry: dict[str, str] = {}
    start = last_line = 0
    seen: dict[tuple[str | None, str], int] = {}

    def finish() -> None:
        if "msgid" in entry:
            key = (entry.get("msgctxt"), entry["msgid"])
            if key in seen:
                label = f"'{key[0]}'" if key[0] is not None else f"msgid '{key[1][:40]}'"
                problems.error(
                    Location(shown, start),
                    "po-duplicate",
                    f"{label} appears twice (first at line {seen[key]}); expected each msgctxt and msgid once (merge the two entries)",
                )
            else:
                seen[key] = start

    word: str | None = None
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword = re.match(_PO_KEYWORD, line)
        if keyword is not None:
            word = "msgstr[" if keyword.group(1).startswith("msgstr[") else keyword.group(1)
            if word in ("msgctxt", "msgid") and last in ("msgid", "msgid_plural"):
                problems.error(Location(shown, start), "po-syntax", f'this entry has no msgstr; expected msgstr "..." after its {last}')
            elif word not in _PO_NEXT[last]:
                problems.error(Location(shown, number, 1), "po-syntax", f"{keyword.group(1)} is out of place; expected {' or '.join(_PO_NEXT[last])}")
            if word in ("msgctxt", "msgid") and last != "msgctxt":
                finish()
                entry, start = {}, number
            string, col = keyword.group(2), raw.index(line[0]) + keyword.start(2) + 1
            last, last_line = word, number
        elif line.startswith('"') and last is not None:
            string, col = line, raw.index('"') + 1
        else:
            problems.error(
                Location(shown, number, 1), "po-syntax", f"cannot read this line: {line[:40]!r}; expected a keyword (msgid, msgstr, ...) or a quoted string"
            )
            continue
        m = re.fullmatch(_PO_STRING, string)
        if m is None:
            problems.error(
                Location(shown, number, col), "po-syntax", 'this string is not quoted and closed; expected "text" with only \\n, \\t, \\r, \\" and \\\\ escaped'
            )
        elif word in ("msgctxt", "msgid"):
            entry[word] = entry.get(word, "") + unescape(m.group(1))
    if last is not None and not last.startswith("msgstr"):
        problems.error(Location(shown, last_line), "po-syntax", f"the file ends after this {last}; expected its msgstr")
    finish()


@dataclass(repr=False, eq=False)
class PoEntry:
    """One entry of a .po file as `po_entries` reads it."""

    context: str | None
    id: str
    plural: str | None  # msgid_plural
    strings: list[str]  # msgstr, or msgstr[0], msgstr[1], ...
    fuzzy: bool


def po_entries(text: str) -> list[PoEntry]:
    """The entries of a .po file that `check_po` found well-formed (the header is the one
    with an empty msgid; obsolete ones are left out), read without babel: pnp's own
    catalogues (own.py) are read by every build in their languages, which need babel for
    nothing else."""
    entries: list[PoEntry] = []
    parts: dict[str, str] = {}
    fuzzy = marked = False  # the entry being read is fuzzy; the comments read since it are (for the next one)
    word = ""

    def finish() -> None:
        if "msgid" in parts:
            forms = sorted((k for k in parts if k.startswith("msgstr[")), key=lambda k: int(k[7:-1]))
            strings = [parts[k] for k in forms] if forms else [parts.get("msgstr", "")]
            entries.append(PoEntry(parts.get("msgctxt"), parts["msgid"], parts.get("msgid_plural"), strings, fuzzy))

    for raw in text.split("\n"):
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in (flag.strip() for flag in line[2:].split(",")):
            marked = True
        if not line or line.startswith("#"):
            continue
        keyword = re.match(_PO_KEYWORD, line)
        if keyword is not None:
            word, string = keyword.group(1), keyword.group(2)
            if word == "msgctxt" or (word == "msgid" and "msgctxt" not in parts) or (word == "msgid" and "msgid" in parts):
                finish()
                parts, fuzzy, marked = {}, marked, False
        else:
            string = line
        m = re.fullmatch(_PO_STRING, string)
        if m is not None and word:
            parts[word] = parts.get(word, "") + unescape(m.group(1))
    finish()
    return entries


@dataclass(repr=False, eq=False)
class UpdateReport:
    """What `pnp translate update` did to one language's catalogue."""

    lang: str
    new: int
    fuzzy: int
    obsolete: int


def update(game: Game, entries: list[Entry], add: list[str] | None = None) -> tuple[Path, list[UpdateReport]]:
    """Write the template of `entries` and merge it into every catalogue (and new ones for `add`)."""
    problems = Problems()
    langs = sorted(set(languages(game)) | {lang for lang in add or [] if check_language(lang, Location(display_path(locale_dir(game))), problems)})
    pot_path = catalogue_path(game, TEMPLATE, problems)
    paths = {lang: catalogue_path(game, f"{lang}.po", problems) for lang in langs}
    olds = {lang: read_catalog(path, problems) if path.is_file() else _new_catalog(game, lang) for lang, path in paths.items() if path is not None}
    problems.raise_if_errors()  # every catalogue read before any is written: one broken, none changed
    pot = template(game, entries)
    reports = []
    with transaction() as txn:  # the template and every catalogue, or none (a full disk, a signal)
        _write(pot_path, pot, txn)
        for lang in langs:
            merged, report = _merge(game, lang, pot, olds[lang])
            _write(paths[lang], merged, txn)
            reports.append(report)
    return pot_path, reports


def _previous(pot: Catalog, old: Catalog) -> dict[tuple[str, str], Message]:
    """Which old message each new one continues: the same context and text; else, in the
    same context, the one left over (a card's field: its text changed), or among several
    left over (a rulebook's paragraphs share a context) the most similar text. Obsolete
    messages with a translation count too, so a string that comes back keeps it."""
    import difflib  # here for speed: only `pnp translate` merges catalogues

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
    pools: dict[str, _Pool] = {}
    for m in new:
        if (m.context, m.id) in chosen:
            continue
        pool = pools.get(m.context)
        if pool is None:
            pool = pools[m.context] = _Pool([c for c in by_context.get(m.context, []) if id(c) not in taken])
        left = pool.left(taken)
        if not left:
            continue
        if sharing[m.context] == 1 and len(left) == 1:
            previous = left[0]
        else:
            candidates = left if len(left) <= _SEARCH_ALL else pool.likely(m, taken)
            scored = [(difflib.SequenceMatcher(None, c.id, m.id).ratio(), -pool.order[id(c)], c) for c in candidates]
            if not scored:
                continue
            ratio, _, previous = max(scored, key=lambda each: each[:2])
            if ratio < 0.5:
                continue
        chosen[(m.context, m.id)] = previous
        taken.add(id(previous))
        pool.after = pool.order[id(previous)] + 1
    return chosen


_SEARCH_ALL = 24  # left-over messages of a context compared with each new one; more: only the likely ones (_Pool.likely)
_LIKELY = 6  # of those, the ones sharing the most uncommon words, and as many following the last one matched
_COMMON = 40  # a word in more left-over messages than this tells nothing about which one it is
_WORD = re.compile(r"\w+")


class _Pool:
    """The old messages of one context left over for the new ones: a rulebook's paragraphs
    share a context, and comparing each reworded paragraph with every left-over one would
    take time growing with the square of the rulebook. The likely ones are found by the
    words they share and by where the last match was (paragraphs keep their order)."""

    def __init__(self, messages: list[Message]):
        self.messages = messages
        self.order = {id(m): i for i, m in enumerate(messages)}
        self.after = 0  # the position after the last one matched
        self._start = 0  # no message before this one is left
        self._index: dict[str, list[int]] | None = None

    def left(self, taken: set[int]) -> list[Message]:
        """The messages not taken yet (the whole list only while it is short)."""
        while self._start < len(self.messages) and id(self.messages[self._start]) in taken:
            self._start += 1
        if len(self.messages) - self._start > _SEARCH_ALL:
            return self.messages[self._start :]  # not filtered: likely() skips the taken ones
        return [m for m in self.messages[self._start :] if id(m) not in taken]

    def likely(self, m: Message, taken: set[int]) -> list[Message]:
        """The left-over messages `m` most probably continues: those sharing most of its
        uncommon words, and the next ones after the last match."""
        if self._index is None:
            self._index = {}
            for i, each in enumerate(self.messages):
                for word in _words(each.id):
                    self._index.setdefault(word, []).append(i)
        shared: dict[int, int] = {}
        for word in _words(m.id):
            found = self._index.get(word, ())
            if len(found) <= _COMMON:
                for i in found:
                    shared[i] = shared.get(i, 0) + 1
        best = sorted((i for i in shared if id(self.messages[i]) not in taken), key=lambda i: (-shared[i], i))[:_LIKELY]
        following: list[int] = []
        for i in range(self.after, min(len(self.messages), self.after + 4 * _LIKELY)):
            if len(following) == _LIKELY:
                break
            if id(self.messages[i]) not in taken:
                following.append(i)
        return [self.messages[i] for i in sorted(set(best) | set(following))]


def _words(text: str | tuple) -> set[str]:
    return set(_WORD.findall((" ".join(text) if isinstance(text, tuple) else text).casefold()))


def filled(string: object) -> bool:
    """A msgstr with something in it (of a plural: any of its forms)."""
    return any(string) if isinstance(string, (tuple, list)) else bool(string)


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
            if isinstance(message.id, tuple) != isinstance(string, (tuple, list)):
                string = ""  # a plural that was a plain string, or the other way round: translated anew
            if previous.fuzzy or comparable(previous.id) != comparable(message.id):
                flags.add("fuzzy")  # the source changed (or a translator was unsure): the translation is stale
                # the text the translation was made for, as msgmerge --previous keeps it: an
                # entry that was already fuzzy keeps its own (none, if a translator marked it),
                # one that was done gets the source it was done for
                previous_id = previous.previous_id if previous.fuzzy else previous.id
        if not filled(string):
            new += previous is None
            flags.discard("fuzzy")
            previous_id = None  # nothing was translated from it
            string = tuple("" for _ in range(merged.num_plurals)) if isinstance(message.id, tuple) else ""
        fuzzy += "fuzzy" in flags
        added = merged.add(
            message.id,
            string,
            context=message.context,
            auto_comments=message.auto_comments,
            user_comments=previous.user_comments if previous is not None else [],
            locations=message.locations,
            flags=flags,
            previous_id=previous_id,
        )
        added.flags = flags  # as decided here, without babel's guessed format flags
    obsolete = 0
    for message in [*old, *old.obsolete.values()]:
        message.flags -= FORMAT_FLAGS  # babel guessed them when it read the file
    for message in old:
        if message.id and message.context and id(message) not in used and filled(message.string):
            merged.obsolete[(message.id, message.context)] = message
            obsolete += 1
    for key, message in old.obsolete.items():
        if id(message) not in used and key not in merged.obsolete and filled(message.string):  # still obsolete: keep it
            merged.obsolete[key] = message
    return merged, UpdateReport(lang, new, fuzzy, obsolete)


# --- status and lookup -------------------------------------------------------------------


@dataclass(repr=False, eq=False)
class Status:
    """How far one language's catalogue is translated."""

    lang: str
    total: int
    translated: int
    fuzzy: list[tuple[str, int]]  # (id, .po line)
    missing: list[tuple[str, int]]
    unreadable: bool = False  # the catalogue is broken (reported): nothing of it is used

    @property
    def percent(self) -> str:
        return percent(self.translated, self.total)


def percent(done: int, total: int, decimals: int = 0) -> str:
    """How much of `total` is done, in per cent as pnp says it: rounded down (556 of 557 is
    99, never 100 while something is left), with `decimals` or, when something is done
    but less than that shows, as many as it takes not to say 0 (1 of 2000: 0.05)."""
    scale = 10**decimals
    value = done * 100 * scale // total if total else 100 * scale  # integers: exact, never rounded up
    while done and not value:
        decimals, scale = decimals + 1, scale * 10
        value = done * 100 * scale // total
    return f"{value // scale}.{value % scale:0{decimals}d}" if decimals else str(value)


_TEMPLATE = r"(?s)\{\{.*?\}\}|\{%.*?%\}"
KEPT = "{{ template }}, {% tag %}, :symbol:, {#id}, (#reference) and **"  # what a translation keeps, as messages say it
KEPT_IN_TEXT = ":symbol:, {#id}, (#reference) and **"  # of a text that prints as written
_LITERAL = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""
_KEPT = r"\{#[^}]*\}|\]\(#[^)]*\)|:[a-z0-9][a-z0-9_-]*:|\*\*"


def placeholders(text: str, template: bool = True) -> dict[tuple[str, ...], str]:
    """What a translation must keep, each once per use, by what makes it the same: a
    template by the names it uses (its quoted words are translated: 'yes' if x else 'no'),
    a symbol, a heading id, a reference and a bold marker by their text. The values are
    how the first of each is written, for messages. In a text that is not a `template`,
    {{ and {% are text, which a translation translates like the rest."""
    found: dict[tuple[str, ...], str] = {}

    def add(key: tuple[str, ...], shown: str) -> None:
        n = sum(1 for k in found if k[:-1] == key)
        found.setdefault((*key, str(n)), shown)

    for m in re.finditer(_TEMPLATE, text) if template else ():
        inner = re.sub(_LITERAL, "''", m.group()[2:-2])
        add((m.group()[:2], *sorted(set(re.findall(r"[A-Za-z_]\w*", inner)))), " ".join(m.group().split()))
    for m in re.finditer(_KEPT, re.sub(_TEMPLATE, " ", text) if template else text):
        add((m.group(),), m.group())
    return found


def check_placeholders(source: str, translation: str, template: bool = True) -> str | None:
    """What the translation drops or invents, said for a message; None when it keeps all."""
    want, got = placeholders(source, template), placeholders(translation, template)
    dropped = [shown for key, shown in want.items() if key not in got]
    invented = [shown for key, shown in got.items() if key not in want]
    if dropped:
        return f"drops '{dropped[0]}'"
    if invented:
        return f"has '{invented[0]}', which the source does not"
    return None


def _unreadable(entry: Entry, text: str) -> str | None:
    """Why a translated string that is a template cannot be read (a rulebook block's Jinja
    is read when it is set, and reported at its .po line there), or None. A text that
    prints as written is read as text, as its source is."""
    return unreadable(text) if entry.template and not entry.by_text else None


def _plural_placeholders(source: tuple[str, ...], forms: tuple[str, ...]) -> str | None:
    """What a plural's translated forms invent (a form may leave out the number: 'one city')."""
    known = {key[:-1] for text in source for key in placeholders(text)}
    for i, form in enumerate(forms):
        for key, shown in placeholders(form).items():
            if key[:-1] not in known:
                return f"has '{shown}' in form {i}, which its source does not"
    return None


def status(game: Game, entries: list[Entry], lang: str, problems: Problems) -> tuple[Status, dict[str, str]]:
    """How complete a language is, and its usable translations (id -> text, each a
    `Translated` that knows its .po line): its catalogue read once and matched against the
    game's `entries`. A translation that drops or invents a placeholder is an error at its
    line, and not used."""
    path = catalogue_path(game, f"{lang}.po", problems)
    shown = display_path(path) if path is not None else ""
    catalog = read_catalog(path, problems) if path is not None and path.is_file() else None
    if path is None or (catalog is None and path.is_file()):
        return Status(lang, len(entries), 0, [], [], unreadable=True), {}
    by_key: dict[str, Message] = {}
    for m in catalog if catalog is not None else []:
        if m.id and m.context:
            by_key.setdefault(m.context, m)
            by_key[text_key(m.context, singular(m.id))] = m
    count = Plurals(lang).count
    done: dict[str, str | tuple[str, ...]] = {}
    fuzzy, missing = [], []
    for entry in entries:
        message = by_key.get(entry.key)
        line = getattr(message, "lineno", 0) or 0
        if entry.plural:
            if message is None or not isinstance(message.string, (tuple, list)) or len(message.string) < count or not all(message.string[:count]):
                missing.append((entry.label, line))  # translated only when every form of the language is
            elif message.fuzzy or comparable(message.id) != (entry.plural[0], entry.plural[-1]):
                fuzzy.append((entry.label, line))
            elif (wrong := _plural_placeholders(entry.plural, message.string[:count])) is not None:
                problems.error(
                    Location(shown, line),
                    "translation-placeholder",
                    f"the {lang} translation of plural '{entry.text}' {wrong}; expected only the {{{{ templates }}}} and :symbols: of its source forms",
                )
            else:
                done[entry.key] = tuple(Translated(form, Location(shown, line)) for form in message.string[:count])
        elif message is None or not filled(message.string):  # a plural's forms where a text is expected: not translated
            missing.append((entry.label, line))
        elif message.fuzzy or message.id != entry.text:
            fuzzy.append((entry.label, line))
        elif (unreadable := _unreadable(entry, message.string)) is not None:
            problems.error(
                Location(shown, line),
                CODE,
                f"the {lang} translation of '{entry.label}' is not a template pnp can read: {unreadable}; expected Jinja such as {{{{ title }}}}, written as in the source",
            )
        elif (wrong := check_placeholders(entry.text, message.string, entry.template)) is not None:
            problems.error(
                Location(shown, line),
                "translation-placeholder",
                f"the {lang} translation of '{entry.label}' {wrong}; expected every {KEPT if entry.template else KEPT_IN_TEXT} of the source kept",
            )
        else:
            done[entry.key] = Translated(message.string, Location(shown, line))
    return Status(lang, len(entries), len(done), fuzzy, missing), done


def translations(game: Game, entries: list[Entry], lang: str, allow_untranslated: bool, problems: Problems) -> tuple[dict[str, str], int]:
    """Translated `entries` for `lang`; a missing or stale one is an error with its .po
    line, or, with allow_untranslated, falls back to the source (the count is returned)."""
    if lang == PSEUDO:
        return {
            e.key: tuple(map(pseudo_markdown, e.plural)) if e.plural else pseudo_markdown(e.text) if e.by_text else pseudo(e.text, e.template) for e in entries
        }, 0
    path = catalogue_path(game, f"{lang}.po", problems)
    if path is None:
        return {}, 0
    shown = display_path(path)
    if not path.is_file():
        problems.error(
            Location(display_path(locale_dir(game))),
            "lang-missing",
            f"there is no catalogue for '{lang}'; expected {shown} (create it with: pnp i18n update --add {lang})",
        )
        return {}, 0
    state, done = status(game, entries, lang, problems)
    if state.unreadable:
        return {}, 0
    done.update((e.key, None) for e in entries if e.plural and e.key not in done)  # untranslated: the source's forms
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


def translate(game: Game, strings: dict[str, str], lang: str) -> Game:
    """A copy of the game in `lang` with every translated string replaced and its plurals'
    forms (None for an untranslated plural: printed in the source's forms); ids, numbers
    and enumeration values stay as they are, so the rules model is unaffected."""
    meta = game.meta
    prefix = text_key(PLURAL_CONTEXT, "")
    forms = {key[len(prefix) :]: value for key, value in strings.items() if key.startswith(prefix)}
    source = Plurals(meta.language)
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
        fields = copy_values(card.fields, game.types[card.type].fields, f"{card.id}.")
        locs = dict(card.field_locs)  # a translated text is where its translation is: the .po entry
        locs.update((path, text.loc) for path, text, _ in texts(fields, game.types[card.type].fields, "translate") if isinstance(text, Translated))
        return dataclasses.replace(card, fields=fields, field_locs=locs)

    decks = {
        did: Deck(d.id, strings.get(f"deck.{d.id}.name", d.name), d.type, d.front, d.back, PackedCards(enums, map(card_copy, d.cards)), d.loc, d.locs)
        for did, d in game.decks.items()
    }
    # no plural at all (none in the game, or the catalogue could not be read: reported): the source's rule and forms
    plurals = Plurals(lang if lang != PSEUDO else meta.language, forms, source) if forms else source
    return dataclasses.replace(
        game,
        meta=new_meta,
        enums=enums,
        decks=decks,
        deals=[card_copy(c) for c in game.deals],
        plurals=plurals,
    )


_ACCENTS = str.maketrans("aeiouycsznrdtlAEIOUYCSZNRDTL", "äéíôůýčšžňřďťľÄÉÍÔŮÝČŠŽŇŘĎŤĽ")
_TOKEN = r"(:[a-z0-9][a-z0-9_-]*:|\*\*|\*|\n)"
_TEMPLATE_TOKEN = r"(?s)(\{\{.*?\}\}|\{%.*?%\}|:[a-z0-9][a-z0-9_-]*:|\*\*|\*|\n)"


def pseudo(text: str, template: bool = False) -> str:
    """Accent every letter and make the text about 40 % longer, keeping markup intact (and
    the Jinja of a `template`), so overflowing boxes show up before any translator starts."""
    token = re.compile(_TEMPLATE_TOKEN if template else _TOKEN)
    parts = token.split(text)
    out = "".join(part if token.fullmatch(part) else part.translate(_ACCENTS) for part in parts)
    letters = sum(len(p) for p in parts if not token.fullmatch(p))
    pad = max(2, round(letters * 0.4))
    filler = " ".join("žžžžžžž"[: min(7, pad - i)] for i in range(0, pad, 8))
    return f"[{out} {filler}]"


_MARKDOWN_KEEP = r"(?m)((?s:\{%-?\s*plural\s.*?\{%-?\s*endplural\s*-?%\})|\{\{.*?\}\}|\{%.*?%\}|\{[#.][^}]*\}|\]\([^)]*\)|:[a-z0-9][a-z0-9_-]*:|^\s*(?:#+|[-*+]|\d+\.)\s|\*\*|\*|\|)"


def pseudo_markdown(text: str) -> str:
    """A rulebook block accented, leaving its Markdown, ids, references, symbols and
    templates intact, and a plural tag whole (its forms are its own entry's), not lengthened:
    pages grow, boxes do not overflow."""
    parts = re.split(_MARKDOWN_KEEP, text)
    return "".join(part if i % 2 else part.translate(_ACCENTS) for i, part in enumerate(parts))
