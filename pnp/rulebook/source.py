"""Rulebook sources: the Markdown files of each `rulebooks:` entry, read in order and cut
into blocks, then turned into a typed Document for one language and one mode.

A block is the unit that is translated and templated: a paragraph, a heading, a list, a
table, a code block (blocks joined by a Jinja loop that spans them count as one). Its
source text, as written and before Jinja, is the catalogue's msgid, so a changed paragraph
changes exactly one entry. `::: name` containers are kept as a tree of blocks: the styled
ones (example, note, sidebar) and the mode filters (only, except).

    read_sources(game)            -> [Source]: raw blocks with file:line, per rulebook
    render(source, game, lang, mode, strings) -> Document: translated, filled in, parsed
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.tree import SyntaxTreeNode
from mdit_py_plugins.attrs import attrs_plugin
from mdit_py_plugins.container import container_plugin

from pnp.base.errors import Location, PnpError, Problems, display_path
from pnp.base.paths import check_inside
from pnp.base.texts import utf8_text
from pnp.i18n.catalogues import Entry, Translated, text_key
from pnp.load.model import Game, RulebookDef
from pnp.load.schema import suggest
from pnp.load.yamlfile import LList, LMap, load_yaml
from pnp.rulebook.document import (
    BOX_KINDS,
    MODE_KINDS,
    Block,
    Box,
    Break,
    CardRef,
    Code,
    Document,
    Heading,
    IndexMark,
    Inline,
    ListBlock,
    Para,
    Picture,
    Quote,
    Ref,
    Rule,
    Sym,
    Table,
    Text,
    number_headings,
    plain,
)
from pnp.templates.expressions import CODE, Names, explain
from pnp.templates.sandbox import TemplateSyntaxError, UndefinedName, markdown_template, rendered

MAX_FILE_BYTES = 2 * 1024 * 1024
CONTEXT = "rulebook."  # msgctxt of a block: rulebook.FILE; of a title: rulebook.ID.title

_SYMBOL = re.compile(r":([a-z0-9][a-z0-9_-]*):")
_HEADING_ID = re.compile(r"\s*\{#([A-Za-z][\w.:-]*)\}\s*$")
_OPENS = re.compile(r"\{%-?\s*(for|if|with|filter|macro|call|raw|block)\b")
_CLOSES = re.compile(r"\{%-?\s*end(for|if|with|filter|macro|call|raw|block)\b")


MAX_NESTING = 20  # lists, quotes and ::: blocks inside one another; emphasis and spans inside one another
_PARSER_NESTING = 4 * MAX_NESTING  # markdown-it's own limit, in its levels (a list is two): past it, it drops text silently


def _raw_parser() -> MarkdownIt:
    """Finds the blocks: every `:::` fence is a container, whatever its name (checked later).
    Their inline markup is not parsed here: it is when each block is filled in and parsed
    (`render`), which is also where inline markup nested too deep is reported."""
    md = MarkdownIt("commonmark", {"html": False, "maxNesting": _PARSER_NESTING}).enable("table").disable("inline")
    md.use(container_plugin, name="block", validate=lambda params, markup: True)
    return md


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "maxNesting": _PARSER_NESTING}).enable("table")
    md.use(attrs_plugin, spans=True)
    return md


_CONTAINERS = ("blockquote_open", "bullet_list_open", "ordered_list_open")


def too_deep(tokens: list[Token]) -> tuple[int, str] | None:
    """The 0-based line where blocks or inline markup first nest deeper than MAX_NESTING,
    and what nests, or None. Checked before a syntax tree is built: the tree is recursive,
    and markdown-it would silently drop what lies deeper than its own limit."""
    depth = 0
    for token in tokens:
        if token.type in _CONTAINERS or token.type.startswith("container_"):
            depth += token.nesting
            if depth > MAX_NESTING:
                return (token.map[0] if token.map else 0), "lists, quotes and ::: blocks"
        elif token.type == "inline":
            inner = 0
            for child in token.children or []:
                inner += child.nesting
                if inner > MAX_NESTING:
                    return (token.map[0] if token.map else 0), "emphasis, links and spans"
    return None


def _nesting_message(what: str) -> str:
    return f"{what} nest more than {MAX_NESTING} levels deep here; expected at most {MAX_NESTING} levels, one inside another"


_RAW = _raw_parser()
_MD = _parser()


# --- reading ----------------------------------------------------------------------------------


@dataclass
class RawBlock:
    source: str  # the Markdown as written: the msgid
    file: str  # the file as listed in game.yaml: the msgctxt is rulebook.FILE
    loc: Location  # of its first line
    start: int  # 0-based lines in the file, end exclusive
    end: int


@dataclass
class RawContainer:
    name: str  # example, note, sidebar, only, except
    params: list[str]  # the modes of only / except
    children: list[RawBlock | RawContainer]
    loc: Location


@dataclass
class Source:
    id: str
    defn: RulebookDef
    items: list[RawBlock | RawContainer] = field(default_factory=list)
    loc: Location = Location("?")  # the rulebook's entry in game.yaml
    fact_locs: list[Location] = field(default_factory=list)
    title_locs: tuple[Location, Location] = (Location("?"), Location("?"))  # the game's title, the book's title

    def blocks(self) -> list[RawBlock]:
        return list(_raw_blocks(self.items))


def _raw_blocks(items: list[RawBlock | RawContainer]):
    for item in items:
        if isinstance(item, RawContainer):
            yield from _raw_blocks(item.children)
        else:
            yield item


def read_sources(game: Game, problems: Problems) -> list[Source]:
    """Every rulebook's files, read and cut into blocks; unreadable files are errors."""
    if not game.meta.rulebooks:
        return []
    raw = load_yaml(game.root / "game.yaml")
    books = raw.get("rulebooks") if isinstance(raw, LMap) else None
    sources = []
    for rid, defn in game.meta.rulebooks.items():
        entry = books.get(rid) if isinstance(books, LMap) else None
        entry = entry if isinstance(entry, LMap) else LMap(loc=game.loc)
        files = entry.get("files")
        facts = entry.get("facts")
        source = Source(rid, defn, loc=books.loc_of(rid) if isinstance(books, LMap) else game.loc)
        source.fact_locs = [facts.loc_of(i) if isinstance(facts, LList) else entry.loc for i in range(len(defn.facts))]
        game_title = raw.loc_of("title") if isinstance(raw, LMap) and "title" in raw else game.loc
        source.title_locs = (game_title, entry.loc_of("title") if "title" in entry else source.loc)
        if not defn.files:
            problems.error(entry.loc_of("files"), "rulebook-files", f"rulebook '{rid}' lists no files; expected files: [rules/01-goal.md, ...]")
        for i, name in enumerate(defn.files):
            loc = files.loc_of(i) if isinstance(files, LList) else entry.loc
            text = _read(game.root, name, loc, problems)
            if text is not None:
                source.items.extend(split(text, name, _shown(game.root, name), problems))
        _check_containers(source, problems)
        sources.append(source)
    return sources


def _shown(root: Path, name: str) -> str:
    return display_path(root / name)


def _read(root: Path, name: str, loc: Location, problems: Problems) -> str | None:
    path = check_inside(name, root, [root], loc, "rulebook file")
    if isinstance(path, PnpError):
        problems.extend(path.problems)
        return None
    if not path.is_file():
        problems.error(loc, "rulebook-file-missing", f"rulebook file '{name}' does not exist; expected a Markdown file inside the game folder")
        return None
    if path.stat().st_size > MAX_FILE_BYTES:
        problems.error(loc, "rulebook-file-large", f"rulebook file '{name}' is larger than {MAX_FILE_BYTES} bytes; expected a Markdown text")
        return None
    try:
        return utf8_text(path.read_bytes()).replace("\r\n", "\n")
    except UnicodeDecodeError as exc:
        problems.error(loc, "rulebook-file-encoding", f"rulebook file '{name}' is not UTF-8 ({exc.reason} at byte {exc.start}); expected UTF-8 text")
        return None


def split(text: str, name: str, shown: str, problems: Problems) -> list[RawBlock | RawContainer]:
    """Cut one file into blocks and `:::` containers, each with its line."""
    lines = text.split("\n")
    tokens = _RAW.parse(text)
    deep = too_deep(tokens)
    if deep is not None:
        problems.error(Location(shown, deep[0] + 1, 1), "rulebook-nesting", _nesting_message(deep[1]))
        return []
    return _items(SyntaxTreeNode(tokens).children, lines, name, shown, problems)


def _items(nodes: list[SyntaxTreeNode], lines: list[str], name: str, shown: str, problems: Problems) -> list[RawBlock | RawContainer]:
    items: list[RawBlock | RawContainer] = []
    for node in nodes:
        if node.map is None:
            continue
        start, end = node.map
        loc = Location(shown, start + 1, 1)
        if node.type == "container_block":
            words = node.info.split()
            if not words:  # a ':::' that closes nothing: most often a block nested in another of the same fence
                problems.error(
                    loc,
                    "rulebook-block-open",
                    "this ':::' closes no block; to put a block inside another, give the outer one more colons (':::: only solo' ... '::::')",
                )
                items.extend(_items(node.children, lines, name, shown, problems))
                continue
            closing = lines[end].strip() if end < len(lines) else ""
            if not closing or closing.strip(":"):
                problems.error(loc, "rulebook-block-open", f"'{lines[start].strip()}' is never closed; expected a line ':::' after its content")
            items.append(RawContainer(words[0] if words else "", words[1:], _items(node.children, lines, name, shown, problems), loc))
            continue
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1
        items.append(RawBlock("\n".join(lines[start:end]), name, loc, start, end))
    return _join_loops(items, lines)


def _join_loops(items: list[RawBlock | RawContainer], lines: list[str]) -> list[RawBlock | RawContainer]:
    """A Jinja loop or condition that spans blocks (its tags on lines of their own, or blank
    lines inside it) makes them one block: it is filled in, and translated, as a whole."""
    out: list[RawBlock | RawContainer] = []
    for item in items:
        last = out[-1] if out else None
        if isinstance(item, RawBlock) and isinstance(last, RawBlock):
            open_loop = _balance(last.source) > 0
            touching = item.start == last.end and ("{%" in item.source or "{%" in last.source)
            if open_loop or touching:
                out[-1] = RawBlock("\n".join(lines[last.start : item.end]), last.file, last.loc, last.start, item.end)
                continue
        out.append(item)
    return out


def _balance(text: str) -> int:
    return len(_OPENS.findall(text)) - len(_CLOSES.findall(text))


def _check_containers(source: Source, problems: Problems) -> None:
    modes = source.defn.modes

    def visit(items: list) -> None:
        for item in items:
            if not isinstance(item, RawContainer):
                continue
            kinds = BOX_KINDS + MODE_KINDS
            if not item.name:
                pass
            elif item.name not in kinds:
                problems.error(
                    item.loc, "rulebook-block", f"'::: {item.name}' is not a kind of block{suggest(item.name, kinds)}; expected one of: {', '.join(kinds)}"
                )
            elif item.name in BOX_KINDS and item.params:
                problems.error(item.loc, "rulebook-block", f"'::: {item.name}' takes nothing after its name; expected '::: {item.name}' alone on its line")
            elif item.name in MODE_KINDS:
                if not modes:
                    problems.error(
                        item.loc,
                        "rulebook-mode",
                        f"'::: {item.name}' needs modes, but rulebook '{source.id}' has none; expected 'modes: [...]' in its game.yaml entry",
                    )
                elif not item.params:
                    problems.error(
                        item.loc, "rulebook-mode", f"'::: {item.name}' names no mode; expected '::: {item.name} MODE ...' with modes from: {', '.join(modes)}"
                    )
                for mode in item.params if modes else []:
                    if mode not in modes:
                        problems.error(
                            item.loc,
                            "rulebook-mode",
                            f"mode '{mode}' is not a mode of rulebook '{source.id}'{suggest(mode, modes)}; expected one of: {', '.join(modes)}",
                        )
            visit(item.children)

    visit(source.items)


def rulebook_entries(sources: list[Source]) -> list[Entry]:
    """The catalogue entries of the rulebooks: each title, and each block as written
    (msgctxt rulebook.FILE, msgid the block's Markdown before Jinja)."""
    entries = []
    for source in sources:
        if source.defn.title.strip():
            entries.append(Entry(f"{CONTEXT}{source.id}.title", source.defn.title, source.loc, f"the title of rulebook '{source.id}'", template=True))
        for block in source.blocks():
            note = f"a block of rulebook '{source.id}' in Markdown: keep {{#ids}}, (#references), :symbols:, {{{{ templates }}}} and ::: lines as they are"
            entries.append(Entry(context_of(block), block.source, block.loc, note, by_text=True, template=True))
    return entries


# --- filling in and parsing -------------------------------------------------------------------


def context_of(block: RawBlock) -> str:
    return CONTEXT + block.file


def template_context(game: Game, lang: str, mode: str | None) -> dict[str, Any]:
    """What the Jinja in a rulebook sees: the names layouts and rules see (pnp/templates/expressions.py),
    with no component, and the mode and the language."""
    return Names(game, mode=mode, lang=lang).of_game()


def _template(text: str):
    return markdown_template(_keep_newlines_in_text(text))


_TAG_AT_END = re.compile(r"(?<![+-])%\}[ \t]*$")
_TAGS = re.compile(r"\{%.*?%\}")


def _keep_newlines_in_text(text: str) -> str:
    """A block tag alone on its line takes its newline with it (trim_blocks: no blank
    lines between the rows a loop writes), but one ending a line of text keeps it ('+%}'),
    or 'text {% endif %}' and the next line would run together into one word. A '%}' that
    closes no tag ('50 %}' in a sentence) is text, and left as it is."""
    lines = text.split("\n")
    start = 0  # where the line begins in `text`
    for n, line in enumerate(lines):
        end = _TAG_AT_END.search(line) if "%}" in line else None
        if end is not None and _TAGS.sub("", line).strip():
            at = start + end.start()
            opened = text.rfind("{%", 0, at)
            if opened >= 0 and text.find("%}", opened + 2, at) < 0:  # the '%}' closes a tag
                lines[n] = line[: end.start()] + "+%}"
        start += len(line) + 1
    return "\n".join(lines)


_JINJA = re.compile(r"\{[{%]|\{##|\r")  # a tag, an expression or a comment ({## ##}: {#id} names a heading); or a line end Jinja would change


def fill_in(text: str, ctx: dict, loc: Location, problems: Problems, exact: bool = True) -> str | None:
    """The block's Jinja filled in; an error is reported at the line (and column) of the
    failing expression when `exact` (the text is the source, not a translation). Text
    without Jinja is itself: no template is made for it."""
    if not _JINJA.search(text):
        return text
    try:
        return rendered(_template(text), ctx)
    except TemplateSyntaxError as exc:
        where = _at(text, loc, exc.lineno or 1, None, exact)
        problems.error(where, CODE, f"cannot read the template: {exc.message}; expected Jinja such as {{{{ cities | length }}}}")
    except Exception as exc:  # undefined names, sandbox refusals, errors inside filters
        where = _at(text, loc, _template_line(exc), exc.name if isinstance(exc, UndefinedName) else None, exact)
        problems.error(where, CODE, f"cannot fill in the template: {explain(exc, ctx)}")
    return None


def _template_line(exc: BaseException) -> int:
    tb, line = exc.__traceback__, 1
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _at(text: str, loc: Location, line: int, name: Any, exact: bool) -> Location:
    """Where in the file line `line` of a block is, at `name` (an undefined name) if it is there."""
    if not exact:
        return Location(loc.file, loc.line)
    lines = text.split("\n")
    row = lines[line - 1] if 0 < line <= len(lines) else ""
    col = 0
    if isinstance(name, str) and re.search(rf"\b{re.escape(name)}\b", row):
        col = re.search(rf"\b{re.escape(name)}\b", row).start() + 1
    elif "{" in row:
        col = row.index("{") + 1
    return Location(loc.file, loc.line + line - 1, col or 1)


class _Locator:
    """Finds where a piece of inline syntax is in a block's source, for messages."""

    def __init__(self, text: str, loc: Location, exact: bool):
        self.text, self.loc, self.exact = text, loc, exact
        self.seen: dict[str, int] = {}

    def __call__(self, needle: str) -> Location:
        if not self.exact:
            return Location(self.loc.file, self.loc.line)
        n = self.seen.get(needle, 0)
        self.seen[needle] = n + 1
        pos = -1
        for _ in range(n + 1):
            found = self.text.find(needle, pos + 1)
            if found < 0:
                break
            pos = found
        if pos < 0:
            return self.loc
        before = self.text[:pos]
        line = before.count("\n")
        col = pos - (before.rfind("\n") + 1) + 1
        return Location(self.loc.file, self.loc.line + line, col)


def render(source: Source, game: Game, lang: str, mode: str | None, strings: dict[str, str] | None, problems: Problems) -> Document:
    """The rulebook in one language (`strings`: its translations, None for the source)
    and one mode, as typed blocks with numbered headings."""
    title = source.defn.title or source.id
    if strings is not None:
        title = strings.get(f"{CONTEXT}{source.id}.title", title)
    ctx = template_context(game, lang, mode)
    title = fill_in(title, ctx, title.loc if isinstance(title, Translated) else source.loc, problems, exact=False) or title
    locs = source.defn._cover_locs
    cover = [card for i, name in enumerate(source.defn.cover) if (card := _cover_card(name, ctx, locs[i] if i < len(locs) else source.defn._loc, problems))]
    doc = Document(source.id, title.strip(), lang, mode, mode_title=mode_title(game, mode), cover=cover)
    doc.blocks = _render_items(source.items, ctx, mode, strings, problems)
    if source.defn.numbering:
        number_headings(doc.blocks)
    return doc


def _cover_card(name: str, ctx: dict, loc: Location, problems: Problems) -> CardRef | None:
    """`DECK/ID` (or `DECK/ID/back`) of `cover:`, as the card an image names; a template,
    filled in for the book (with `mode`, each mode's book can show its own cards). None
    when the template fails, reported where it is written."""
    failed = Problems()
    filled = fill_in(str(name), ctx, loc, failed, exact=False)
    for problem in failed.items:  # at the entry itself, not at the start of its line
        problems.add(replace(problem, location=loc))
    if filled is None:
        return None
    deck, _, rest = filled.strip().partition("/")
    card, _, side = rest.partition("/")
    return CardRef(deck, card, "back" if side == "back" else "front", None, loc)


def mode_title(game: Game, mode: str | None) -> str:
    """A mode as a book prints it: the game's string `mode_MODE` (translated like every
    string), else the mode's name with a capital."""
    if mode is None:
        return ""
    return game.meta.strings.get(f"mode_{mode}") or mode[:1].upper() + mode[1:]


def _render_items(items: list, ctx: dict, mode: str | None, strings: dict[str, str] | None, problems: Problems) -> list[Block]:
    out: list[Block] = []
    for item in items:
        if isinstance(item, RawContainer):
            if item.name in MODE_KINDS:
                inside = mode is not None and mode in item.params
                if inside == (item.name == "only"):
                    out.extend(_render_items(item.children, ctx, mode, strings, problems))
            elif item.name in BOX_KINDS:
                out.append(Box(item.name, _render_items(item.children, ctx, mode, strings, problems), item.loc))
            continue
        text, exact, loc = item.source, True, item.loc
        if strings is not None:
            translated = strings.get(text_key(context_of(item), item.source))
            if translated is not None:  # its problems are the translation's: at its .po entry
                text, exact, loc = translated, False, translated.loc if isinstance(translated, Translated) else item.loc
        filled = fill_in(text, ctx, loc, problems, exact)
        if filled is None:
            continue
        locate = _Locator(text, loc, exact)
        tokens = _MD.parse(filled)
        deep = too_deep(tokens)
        if deep is not None:  # a translation, or what a template wrote
            problems.error(Location(loc.file, loc.line + (deep[0] if exact else 0), 1 if exact else 0), "rulebook-nesting", _nesting_message(deep[1]))
            continue
        out.extend(_blocks(SyntaxTreeNode(tokens).children, loc, locate, problems))
    return out


def _blocks(nodes: list[SyntaxTreeNode], loc: Location, locate: _Locator, problems: Problems) -> list[Block]:
    out: list[Block] = []
    for node in nodes:
        here = Location(loc.file, loc.line + (node.map[0] if node.map else 0), 1) if locate.exact else loc
        kind = node.type
        if kind == "heading":
            spans = _inlines(_flat(node), locate, problems)
            hid = None
            if spans and isinstance(spans[-1], Text):
                m = _HEADING_ID.search(spans[-1].text)
                if m:
                    hid = m.group(1)
                    rest = spans[-1].text[: m.start()].rstrip()
                    spans = spans[:-1] + ([Text(rest, spans[-1].bold, spans[-1].italic)] if rest else [])
            out.append(Heading(int(node.tag[1]), spans, hid, here))
        elif kind == "paragraph":
            out.append(Para(_inlines(_flat(node), locate, problems), here))
        elif kind in ("bullet_list", "ordered_list"):
            items = [_blocks(item.children, loc, locate, problems) for item in node.children]
            start = int(node.attrs.get("start", 1)) if kind == "ordered_list" else 1
            out.append(ListBlock(kind == "ordered_list", start, items, here))
        elif kind == "table":
            out.append(_table(node, here, locate, problems))
        elif kind in ("fence", "code_block"):
            out.append(Code(node.content.rstrip("\n"), here))
        elif kind == "blockquote":
            out.append(Quote(_blocks(node.children, loc, locate, problems), here))
        elif kind == "hr":
            out.append(Rule(here))
    return out


def _flat(node: SyntaxTreeNode) -> list:
    """The inline tokens of a heading, paragraph or cell, flat (opening and closing tokens)."""
    inline = node.children[0] if node.children else None
    return list(inline.token.children or []) if inline is not None and inline.token is not None else []


def _table(node: SyntaxTreeNode, loc: Location, locate: _Locator, problems: Problems) -> Table:
    header: list[list[Inline]] = []
    rows: list[list[list[Inline]]] = []
    aligns: list[str] = []
    for section in node.children:
        for tr in section.children:
            cells = []
            for cell in tr.children:
                spans = _inlines(_flat(cell), locate, problems)
                cells.append(spans)
                if section.type == "thead":
                    style = str(cell.attrs.get("style", ""))
                    aligns.append(style.split(":")[-1] if "text-align" in style else "left")
            if section.type == "thead":
                header = cells
            else:
                rows.append(cells)
    return Table(aligns, header, rows, loc)


def _inlines(tokens: list, locate: _Locator, problems: Problems, bold: bool = False, italic: bool = False) -> list[Inline]:
    """markdown-it's inline tokens as spans: text with its emphasis, symbols, references,
    index marks and card pictures."""
    out: list[Inline] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        kind = t.type
        if kind == "text":
            _text(out, t.content, bold, italic, locate)
        elif kind == "code_inline":
            out.append(Text(t.content, bold, italic))
        elif kind == "softbreak":
            out.append(Text(" ", bold, italic))
        elif kind == "hardbreak":
            out.append(Break())
        elif kind == "strong_open":
            bold = True
        elif kind == "strong_close":
            bold = False
        elif kind == "em_open":
            italic = True
        elif kind == "em_close":
            italic = False
        elif kind in ("link_open", "span_open"):
            close = kind.replace("_open", "_close")
            depth, j = 0, i
            while j < len(tokens):
                depth += tokens[j].type == kind
                depth -= tokens[j].type == close
                if depth == 0:
                    break
                j += 1
            inner = _inlines(tokens[i + 1 : j], locate, problems, bold, italic)
            if kind == "link_open":
                href = str(t.attrs.get("href", ""))
                if href.startswith("#"):
                    target = href[1:]
                    out.append(Ref(target, tuple(inner) or None, locate(f"(#{target})")))
                else:
                    out.extend(inner)  # an outside link prints its text
            else:
                classes = str(t.attrs.get("class", "")).split()
                if "index" in classes:
                    term = str(t.attrs.get("term") or plain(inner)).strip()  # {.index term="karta"}: listed under another form
                    out.append(IndexMark(term, locate(f"[{plain(inner)}]")))
                out.extend(inner)
            i = j
        elif kind == "image":
            out.extend(_image(t, locate, problems))
        i += 1
    return _merge(out)


def _text(out: list[Inline], text: str, bold: bool, italic: bool, locate: _Locator) -> None:
    pos = 0
    for m in _SYMBOL.finditer(text):
        if m.start() > pos:
            out.append(Text(text[pos : m.start()], bold, italic))
        out.append(Sym(m.group(1), locate(m.group(0))))
        pos = m.end()
    if pos < len(text):
        out.append(Text(text[pos:], bold, italic))


def _image(t, locate: _Locator, problems: Problems) -> list[Inline]:
    src = str(t.attrs.get("src", ""))
    loc = locate(src)
    width = _width(t, src, loc, problems)
    if not src.startswith("card:"):
        return [Picture(src, width, loc)]
    parts = src[len("card:") :].split("/")
    side = "front"
    if len(parts) == 3 and parts[2] in ("front", "back"):
        side = parts.pop()
    if len(parts) != 2 or not all(parts):
        problems.error(loc, "rulebook-card", f"'{src}' does not name a card; expected card:DECK/ID or card:DECK/ID/back")
        return []
    return [CardRef(parts[0], parts[1], side, width, loc, _pile(t, src, loc, problems))]


def _width(t, src: str, loc: Location, problems: Problems) -> float | None:
    raw = str(t.attrs.get("width", "")).removesuffix("mm").strip()
    if not raw:
        return None
    try:
        width = float(raw)
    except ValueError:
        width = 0.0
    if not 0 < width <= 1000:
        problems.error(loc, "rulebook-image", f"width '{raw}' of '{src}' is not a size; expected millimetres, e.g. {{width=30}}")
        return None
    return width


def _pile(t, src: str, loc: Location, problems: Problems) -> int:
    """`{pile=4}`: the card drawn as a pile of 4 (a draw pile in a set-up picture)."""
    raw = str(t.attrs.get("pile", "")).strip()
    if not raw:
        return 1
    if not raw.isdigit() or not 1 <= int(raw) <= 10:
        problems.error(loc, "rulebook-image", f"pile '{raw}' of '{src}' is not a number of cards; expected 1 to 10, e.g. {{pile=4}}")
        return 1
    return int(raw)


def _merge(spans: list[Inline]) -> list[Inline]:
    out: list[Inline] = []
    for span in spans:
        prev = out[-1] if out else None
        if isinstance(span, Text) and isinstance(prev, Text) and (prev.bold, prev.italic) == (span.bold, span.italic):
            out[-1] = Text(prev.text + span.text, span.bold, span.italic)
        else:
            out.append(span)
    return out
