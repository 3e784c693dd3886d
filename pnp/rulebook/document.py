"""The typed rulebook document: what one rulebook says in one language and one mode,
after translation and Jinja, before any page exists. Every node knows the source line it
came from, so the checks and the typesetter can say `file:line:col`."""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.base.errors import Location

# --- inline content ------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    text: str
    bold: bool = False
    italic: bool = False


@dataclass(frozen=True)
class Sym:
    """`:coin:`: the game's vector symbol, drawn at text size."""

    id: str
    loc: Location


@dataclass(frozen=True)
class Ref:
    """`[](#id)` (label None: prints the target's number and page) or `[text](#id)`."""

    target: str
    label: tuple[Inline, ...] | None
    loc: Location


@dataclass(frozen=True)
class IndexMark:
    """`[term]{.index}`: the term's text follows as ordinary spans; this marks where."""

    term: str
    loc: Location


@dataclass(frozen=True)
class Break:
    """A hard line break (two spaces or a backslash at the end of a line)."""


@dataclass(frozen=True)
class CardRef:
    """`![](card:DECK/ID)` (or `card:DECK/ID/back`): the card's real face."""

    deck: str
    id: str
    side: str  # front | back
    width: float | None  # mm, from `{width=30}`; None: the card's own size
    loc: Location
    pile: int = 1  # `{pile=4}`: drawn as a pile of so many cards


@dataclass(frozen=True)
class Picture:
    """`![](images/setup.png)`: an image file of the game folder, `{width=80}` in mm."""

    path: str
    width: float | None
    loc: Location


Inline = Text | Sym | Ref | IndexMark | Break | CardRef | Picture


# --- blocks ----------------------------------------------------------------------------------


@dataclass
class Heading:
    level: int  # 1..3 numbered; 4..6 unnumbered run-in headings
    spans: list[Inline]
    id: str | None
    loc: Location
    number: str = ""  # "2.1", set by `number_headings`


@dataclass
class Para:
    spans: list[Inline]
    loc: Location


@dataclass
class ListBlock:
    ordered: bool
    start: int
    items: list[list[Block]]
    loc: Location


@dataclass
class Table:
    aligns: list[str]  # left | center | right per column
    header: list[list[Inline]]
    rows: list[list[list[Inline]]]
    loc: Location


@dataclass
class Code:
    text: str
    loc: Location


@dataclass
class Quote:
    children: list[Block]
    loc: Location


@dataclass
class Rule:
    loc: Location


@dataclass
class Box:
    """`::: example`, `::: note`, `::: sidebar`: a styled block of other blocks."""

    kind: str
    children: list[Block]
    loc: Location


@dataclass(frozen=True)
class Component:
    """A printed deck as the components page and the back cover show it: its name, how
    many are printed, and a card to show (its first)."""

    name: str
    count: int
    sample: CardRef


Block = Heading | Para | ListBlock | Table | Code | Quote | Rule | Box

BOX_KINDS = ("example", "note", "sidebar", "edition", "components")
# `::: edition`: a note of this edition (not the author's), gathered in "About this edition"
# at the end of the book with a numbered mark where it was written; `::: components`: each
# printed deck with its count and a sample card, drawn by its layout, after the block's text.
MODE_KINDS = ("only", "except")


@dataclass
class Document:
    id: str  # the rulebook's id in game.yaml
    title: str
    lang: str
    mode: str | None
    blocks: list[Block] = field(default_factory=list)
    mode_title: str = ""  # the mode as printed on the cover and in the running head
    cover: list[CardRef] = field(default_factory=list)  # the cards on the cover (none: a card of each deck)

    def headings(self) -> list[Heading]:
        return [b for b in walk(self.blocks) if isinstance(b, Heading)]


def walk(blocks: list[Block]):
    """Every block, depth first, in reading order."""
    for block in blocks:
        yield block
        if isinstance(block, (Box, Quote)):
            yield from walk(block.children)
        elif isinstance(block, ListBlock):
            for item in block.items:
                yield from walk(item)


def spans_of(block: Block) -> list[list[Inline]]:
    """The runs of inline content a block holds directly (not its children's)."""
    if isinstance(block, (Heading, Para)):
        return [block.spans]
    if isinstance(block, Table):
        return list(block.header) + [cell for row in block.rows for cell in row]
    return []


def inlines(spans: list[Inline] | tuple[Inline, ...]):
    """Every inline item, including those inside a reference's label."""
    for span in spans:
        yield span
        if isinstance(span, Ref) and span.label:
            yield from inlines(span.label)


def number_headings(blocks: list[Block]) -> None:
    """1, 1.1, 1.1.1 in reading order; levels 4 and deeper are not numbered."""
    counters = [0, 0, 0]
    for block in walk(blocks):
        if isinstance(block, Heading) and block.level <= 3:
            i = block.level - 1
            counters[i] += 1
            counters[i + 1 :] = [0] * (2 - i)
            block.number = ".".join(str(n) for n in counters[: i + 1])


def plain(spans: list[Inline] | tuple[Inline, ...]) -> str:
    """The words of inline content (for the index, bookmarks and messages)."""
    out = []
    for span in spans:
        if isinstance(span, Text):
            out.append(span.text)
        elif isinstance(span, Ref) and span.label:
            out.append(plain(span.label))
        elif isinstance(span, Break):
            out.append(" ")
    return "".join(out)
