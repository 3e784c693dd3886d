"""Writing a catalogue back as its translator left it: only the entries whose content
changed are written anew, every other entry keeps its text byte for byte.

babel's writer rewraps every string and rewrites the header, so a catalogue that a
translator saved in Poedit (or that `msgmerge` wrapped at 79 columns) would show a diff
of the whole file after each `pnp i18n update`. Here the old file is cut into its entries
(each with the blank lines after it), each entry is read with babel to know what it says,
and an entry is written anew only when what it says differs from the merged catalogue:
its msgstr, flags, comments, source references or previous msgid. New entries go after
the entry that precedes them in the template; obsolete ones after the file's own obsolete
entries. Of the header, only the fields pnp owns are replaced, and only when they differ.
Catalogues are read here too (`read`): babel's reader takes a fuzzy entry's previous
source text (`#|`) for a translator's comment, and refuses an obsolete entry's (`#~|`).

This is the one module that uses babel's internals (a catalogue's number of plural forms,
its messages and their keys): tests/code/test_fences.py lists them, and pyproject.toml bounds babel.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from dataclasses import dataclass

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileParser, read_po, write_po

from pnp.i18n.msgid import comparable, unescape

# Header fields pnp writes; every other one (Last-Translator, PO-Revision-Date, X-Generator,
# X-Poedit-*, Language-Team, ...) belongs to the translator and their tools.
OWNED = ("Project-Id-Version", "Language", "MIME-Version", "Content-Type", "Content-Transfer-Encoding")
OWNED_IF_MISSING = ("Plural-Forms", "POT-Creation-Date")  # a translator may correct them
WIDTH = 0  # entries pnp writes are not wrapped (a line per source line)


@dataclass(repr=False, eq=False)
class Block:
    """One entry of a .po file as written: its lines, the blank lines after it, what it says."""

    text: str
    gap: str
    message: Message | None = None
    obsolete: bool = False
    flags: frozenset[str] = frozenset()  # as written on its '#,' lines (babel adds guessed ones when it reads)

    @property
    def key(self) -> tuple[str | None, str]:
        m = self.message
        assert m is not None
        return m.context, m.id[0] if isinstance(m.id, (list, tuple)) else m.id


_KEYWORD = re.compile(r"(?:#~\s*)?(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\b")


def split(text: str) -> list[Block]:
    """The file's entries (the header is the first), each with the blank lines after it;
    comment lines before an entry belong to it."""
    raw: list[tuple[list[str], list[str]]] = []
    lines: list[str] = []
    gap: list[str] = []
    seen_msgstr = False
    for line in text.splitlines(keepends=True):
        s = line.strip()
        if not s:
            if lines:
                gap.append(line)
            continue
        keyword = _KEYWORD.match(s)
        is_string = s.startswith('"') or (s.startswith("#~") and s[2:].strip().startswith('"'))
        starts = not is_string and (keyword is None or keyword.group(1) in ("msgctxt", "msgid"))
        if lines and (gap or (seen_msgstr and starts)):
            raw.append((lines, gap))
            lines, gap, seen_msgstr = [], [], False
        lines.append(line)
        if keyword is not None and keyword.group(1).startswith("msgstr"):
            seen_msgstr = True
    if lines:
        raw.append((lines, gap))
    blocks: list[Block] = []
    pending = ""  # a paragraph of comments alone: kept before the next entry
    plurals = 2
    for body, after in raw:
        text = pending + "".join(body)
        catalog = _read(text, plurals)
        messages = [m for m in catalog if m.id] or list(catalog.obsolete.values())
        header = not messages and any(_KEYWORD.match(line.strip()) for line in body)
        if not messages and not header:
            pending = text + "".join(after)
            continue
        pending = ""
        if header:
            plurals = catalog.num_plurals  # the header's Plural-Forms: how many msgstr[n] an entry has
            messages = [catalog.get("")] if catalog.get("") is not None else [Message("", "")]
            messages[0].string = _header_text(body)
        flags = frozenset(f.strip() for line in body if line.startswith("#,") for f in line[2:].split(",") if f.strip())
        blocks.append(Block(text, "".join(after), messages[0] if messages else None, bool(catalog.obsolete) and not [m for m in catalog if m.id], flags))
    if pending and blocks:
        blocks[-1].gap += pending
    return blocks


_PREVIOUS = re.compile(r'\|\s*(?:(msgctxt|msgid|msgid_plural)\s+)?"((?:[^"\\]|\\.)*)"\s*')
_OBSOLETE_PREVIOUS = re.compile(r"^[ \t]*#~[ \t]*\|[^\n]*", re.M)


def read(text: str) -> Catalog:
    """A whole .po file as a catalogue (its syntax checked before: catalogues.check_po),
    with each fuzzy entry's previous source text read."""
    catalog = read_po(io.StringIO(_readable(text)), abort_invalid=True)
    _read_previous([*catalog, *catalog.obsolete.values()])
    return catalog


def _readable(text: str) -> str:
    """A .po file's text with the previous source of its obsolete entries (`#~|` lines, as
    msgmerge --previous writes them) blanked: history, which babel's reader refuses. The
    lines stay where they were, so every message keeps its line number."""
    return _OBSOLETE_PREVIOUS.sub("", text)


def _read_previous(messages: Iterable[Message]) -> None:
    """Each message's previous source text (its `#| msgid` and `#| msgid_plural` lines) as
    its previous_id, taken out of its translator comments, where babel's reader leaves
    them: so a merge knows which text a fuzzy translation was made for, and does not copy
    the lines into a comment."""
    for message in messages:
        if not any(comment.startswith("|") for comment in message.user_comments):
            continue
        kept: list[str] = []
        fields: dict[str, str] = {}
        last = None
        for comment in message.user_comments:
            match = _PREVIOUS.fullmatch(comment)
            if match is None:
                kept.append(comment)
                continue
            if match.group(1):  # a field read twice keeps the first (an older pnp copied it into a '# |' comment)
                last = match.group(1) if match.group(1) not in fields else None
                fields.setdefault(match.group(1), "")
            if last is not None:
                fields[last] += unescape(match.group(2))
        message.user_comments = kept
        if "msgid" in fields:
            message.previous_id = [fields["msgid"], *([fields["msgid_plural"]] if "msgid_plural" in fields else [])]


def _read(text: str, plurals: int) -> Catalog:
    """One entry read by babel, in a catalogue of `plurals` forms (read alone, babel would
    assume two and warn about a third)."""
    catalog = Catalog(fuzzy=False)
    catalog._num_plurals = plurals
    PoFileParser(catalog, ignore_obsolete=False).parse(io.StringIO(_readable(text)))
    _read_previous([*catalog, *catalog.obsolete.values()])
    return catalog


def _header_text(lines: list[str]) -> str:
    """The header's msgstr as written (babel's parsed header drops fields it does not know)."""
    out, inside = [], False
    for line in lines:
        s = line.strip()
        if s.startswith("msgstr"):
            inside, s = True, s[len("msgstr") :].strip()
        if inside and s.startswith('"') and s.endswith('"'):
            out.append(re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s[1:-1]))
    return "".join(out)


def _words(comments: list[str]) -> list[str]:
    return " ".join(comments).split()


def same(block: Block, new: Message) -> bool:
    """Whether the entry as written says what `new` says."""
    old = block.message
    assert old is not None
    return (
        comparable(old.id) == comparable(new.id)
        and comparable(old.string) == comparable(new.string)
        and old.context == new.context
        and block.flags == frozenset(new.flags)
        and _words(old.auto_comments) == _words(new.auto_comments)
        and _words(old.user_comments) == _words(new.user_comments)
        and sorted(old.locations) == sorted(new.locations)
        and comparable(old.previous_id or None) == comparable(new.previous_id or None)
    )


def render(message: Message, obsolete: bool = False, num_plurals: int = 2) -> str:
    """One entry as pnp writes it (babel's writer, unwrapped), its flags exactly as given."""
    catalog = Catalog(fuzzy=False)
    catalog._num_plurals = num_plurals  # babel pads a plural msgstr to the catalogue's number of forms
    copy = Message(
        message.id, message.string, list(message.locations), set(), message.auto_comments, message.user_comments, message.previous_id, context=message.context
    )
    copy.flags = set(message.flags)
    if obsolete:
        catalog.obsolete[catalog._key_for(copy.id, copy.context)] = copy
    else:
        catalog._messages[catalog._key_for(copy.id, copy.context)] = copy
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=WIDTH, omit_header=True, include_previous=True, sort_output=False)
    return buffer.getvalue().decode("utf-8").rstrip("\n") + "\n"


def render_catalog(catalog: Catalog) -> str:
    """A whole catalogue as pnp writes a new one (babel, unwrapped), flags as set on each message."""
    out = [_header(catalog)]
    out += [render(m, num_plurals=catalog.num_plurals) for m in catalog if m.id]
    out += [render(m, obsolete=True, num_plurals=catalog.num_plurals) for m in catalog.obsolete.values()]
    return "\n".join(out)


def _header(catalog: Catalog) -> str:
    buffer = io.BytesIO()
    write_po(buffer, Catalog(**_catalog_args(catalog)), width=WIDTH)
    return buffer.getvalue().decode("utf-8").rstrip("\n") + "\n"


def _catalog_args(catalog: Catalog) -> dict:
    return dict(
        locale=catalog.locale,
        project=catalog.project,
        version=catalog.version,
        creation_date=catalog.creation_date,
        revision_date=catalog.revision_date,
        last_translator=catalog.last_translator,
        language_team=catalog.language_team,
        fuzzy=False,
        header_comment=catalog.header_comment,
    )


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n") + '"'


def header(block: Block, catalog: Catalog) -> str:
    """The old header with the fields pnp owns set to `catalog`'s, or as it was when they agree."""
    assert block.message is not None
    old = list(block.message.string.split("\n")) if isinstance(block.message.string, str) else []
    fields = [line.split(":", 1) for line in old if ":" in line]
    have = {key.strip(): value.strip() for key, value in fields}
    want = dict(catalog.mime_headers)
    changes = {key: want[key] for key in OWNED if key in want and (have.get(key) or "").lower() != want[key].lower()}
    changes.update({key: want[key] for key in OWNED_IF_MISSING if key in want and key not in have})
    if not changes:
        return block.text
    lines = [f"{key.strip()}: {changes.pop(key.strip(), value.strip())}" for key, value in fields]
    lines += [f"{key}: {value}" for key, value in changes.items()]
    comments = [line for line in block.text.splitlines(keepends=True) if line.startswith("#")]
    return "".join(comments) + 'msgid ""\nmsgstr ""\n' + "".join(_quote(line + "\n") + "\n" for line in lines)


def write(old_text: str | None, catalog: Catalog) -> str:
    """`catalog` as text: the old file with only what changed written anew (or, with no
    old file, the whole catalogue as pnp writes it)."""
    if not old_text or not old_text.strip():
        return render_catalog(catalog)
    blocks = split(old_text)
    if not blocks or blocks[0].message is None or blocks[0].message.id:
        return render_catalog(catalog)
    head, rest = blocks[0], blocks[1:]
    active = {b.key: b for b in rest if not b.obsolete and b.message is not None}
    dead = {b.key: b for b in rest if b.obsolete and b.message is not None}
    order = {key: i for i, key in enumerate(active)}
    new = [m for m in catalog if m.id]
    placed: list[tuple[tuple[int, int, int], str, Block | None]] = []
    anchor = -1
    for t, message in enumerate(new):
        key = (message.context, message.id[0] if isinstance(message.id, (list, tuple)) else message.id)
        old = active.get(key)
        if old is not None:
            anchor = order[key]
            text = old.text if same(old, message) else render(message, num_plurals=catalog.num_plurals)
            placed.append(((anchor, 0, t), text, old))
        else:
            placed.append(((anchor, 1, t), render(message, num_plurals=catalog.num_plurals), None))
    placed.sort(key=lambda item: item[0])
    out: list[tuple[str, Block | None]] = [(header(head, catalog), head)]
    out += [(text, block) for _, text, block in placed]
    keys = {(m.context, m.id[0] if isinstance(m.id, (list, tuple)) else m.id): m for m in catalog.obsolete.values()}
    for key, block in dead.items():
        message = keys.pop(key, None)
        if message is not None:
            out.append((block.text if same(block, message) else render(message, True, catalog.num_plurals), block))
    out += [(render(m, True, catalog.num_plurals), None) for m in keys.values()]
    last = blocks[-1]
    parts = []
    for i, (text, block) in enumerate(out):
        final = i == len(out) - 1
        text = text if text.endswith("\n") else text + "\n"
        if final:
            gap = block.gap if block is last else ""
        else:
            gap = block.gap if block is not None and block.gap and block is not last else "\n"
        parts.append(text + gap)
    return "".join(parts)
