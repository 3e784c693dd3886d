"""pnp's own words: everything pnp itself prints on a sheet or a page (the ruler's
caption, "fold", the assembly page of a board in pieces, the calibration sheet, a
rulebook's "Contents" and "Index"), in the language of the build.

English is the source, written here (`SOURCE`: a stable id -> its English text, or for a
word that agrees with a number its singular and plural). The translations are gettext
catalogues shipped in the package, `pnp/i18n/own/LANG.po`: msgctxt the id, msgid the
English text, msgstr the translation (msgstr[N] for each plural form of the language). A
translation whose msgid is not the English text of today is stale and not used: the word
is printed in English until the catalogue is brought up to date (a test keeps them so).

A game replaces any of these words for its language with a string of its own in
game.yaml, `strings:` key `pnp.ID` (`pnp.fold: prehni`), translated in its catalogues like
every other string (`strings.pnp.fold`); a word with plural forms takes them separated by
`|`, one for each plural form of the language (`pnp.assembly.pieces: "{n} dielik|{n}
dieliky|{n} dielikov"`). `{name}` in a text is a value pnp fills in.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

from pnp.base.errors import Problems
from pnp.i18n.catalogues import check_po, po_entries
from pnp.templates.plurals import Plurals

OWN_DIR = Path(__file__).resolve().parent / "own"  # LANG.po, shipped in the wheel with the package
PREFIX = "pnp."  # a game's `strings:` key that replaces one of these words
SEPARATOR = "|"  # between the plural forms of a game's replacement

# id -> the English text; a tuple for a word that agrees with the number `n`: (singular, plural).
SOURCE: dict[str, str | tuple[str, str]] = {
    # the calibration ruler under the sheets (write/pdf.py)
    "ruler": "print at 100 % (actual size): this ruler is {length} mm",
    "ruler.alone": "{what}: the sheets' margins have no room for a ruler, so it is here",
    "sheet.front": "sheet {sheet}/{sheets} front",
    "sheet.back": "sheet {sheet}/{sheets} back",
    "fold": "fold",
    "tuckbox": "{deck} (tuck box)",
    # the assembly page and the pieces of a component larger than the paper (write/pieces.py)
    "assembly.title": "{title}: assembly",
    "assembly.size": "{size} in {pieces} ({grid}), overlapping {overlap} mm. Print every page at 100 % (actual size), one-sided.",
    "assembly.pieces": ("{n} piece", "{n} pieces"),
    "assembly.grid": ("{n} row of {cols}", "{n} rows of {cols}"),
    "assembly.cut.rect": "1. Cut each piece along its crop marks and dashed edges. Edges marked 'glue under' stay: that band goes under the next piece.",
    "assembly.cut.round": "1. Cut each piece along the grey round outline and dashed edges. Edges marked 'glue under' stay: that band goes under the next piece.",
    "assembly.cut.hex": "1. Cut each piece along the grey hex outline and dashed edges. Edges marked 'glue under' stay: that band goes under the next piece.",
    "assembly.order": "2. Each piece lies on the pieces to its left and above it. Start with A1 and add the others in label order (A2, A3, ... B1, B2, ...).",
    "assembly.targets": "3. Lay each piece so that the half targets on its edge complete the targets on the piece beneath; then glue.",
    "assembly.no-back": "The back ('{back}') is not printed: a component in pieces cannot be printed double-sided.",
    "assembly.no-backs": "The backs are not printed: a component in pieces cannot be printed double-sided.",
    "assembly.tuckbox": "A tuck box: glue the pieces together first, then cut the box's solid outline; its grey dashed lines are folds, not cuts.",
    "piece.head": "{title} · piece {number} of {count} · print at 100 %",
    "piece.cut.top": "cut the top edge, lay it over {label}",
    "piece.cut.left": "cut the left edge, lay it over {label}",
    "piece.glue": "glue under {label}",
    # the calibration sheet (commands/calibrate.py): one printed line per line of text
    "calibrate.print": "Print this page double-sided at 100 % (actual size), not 'fit to page'.",
    "calibrate.rulers": "1. Measure the rulers: 100 mm must measure exactly 100 mm, or the printer scaled the page.",
    "calibrate.light": "2. Hold the sheet against the light: the crosshairs on the back should sit exactly behind these.",
    "calibrate.offset": "   If the back ones are 1 mm to the right and 0.5 mm lower (seen from this side), build with\n"
    "   --back-offset -1,0.5 : the offset moves the backs right and up, as seen from the front.",
    "calibrate.back": "Back of the calibration sheet: each crosshair should lie exactly behind one on the front.",
    # a rulebook (rulebook/labels.py)
    "rulebook.contents": "Contents",
    "rulebook.index": "Index",
    "rulebook.page": "p.",
    "rulebook.example": "Example",
    "rulebook.note": "Note",
    "rulebook.continued": "cont.",
    "rulebook.edition": "About this edition",
    # a PDF's metadata (its subject: what it holds, how to print it), which a viewer's document properties show
    "meta.cards": ("{n} card", "{n} cards"),
    "meta.components": ("{n} component", "{n} components"),
    "meta.pieces": ("{what} in {n} piece each", "{what} in {n} pieces each"),
    "meta.tuckbox": ("a tuck box for {n} card", "a tuck box for {n} cards"),
    "meta.sides.duplex": "duplex",
    "meta.sides.fronts": "fronts",
    "meta.sides.backs": "backs",
    "meta.sides.folded": "folded",
    "meta.sides.one-sided": "one-sided",
    "meta.flip.long": "flip on the long edge",
    "meta.flip.short": "flip on the short edge",
    "meta.rulebook": "rulebook, {paper}",
    "meta.booklet": "{page} booklet on {paper}: print double-sided, flip on the short edge, fold, staple",
    "meta.calibration": "pnp calibration sheet",
    "meta.shop": "{what} for {shop}",
}
NOTES = {  # for the translators: what a word is, where the English alone does not say
    "ruler": "the caption under a millimetre ruler on every sheet; {length} is its length in mm",
    "ruler.alone": "the ruler's second line when it is on a page of its own; {what} is the game and deck",
    "sheet.front": "after the game and deck in the ruler's caption: which sheet and side this is",
    "fold": "beside the dashed line of a folded sheet (--sides fold)",
    "assembly.size": "{size} is '600 x 400 mm', {pieces} the number of pieces, {grid} the rows and columns",
    "assembly.grid": "{n} rows of {cols} pieces each",
    "piece.head": "at the top of each piece of a board printed in pieces",
    "piece.glue": "on the band of a piece that the next piece covers; {label} is a piece such as B2",
    "calibrate.offset": "two printed lines: keep the line break and '--back-offset -1,0.5' as it is",
    "rulebook.page": "the abbreviation of 'page' in a cross-reference: 'p. 4'",
    "rulebook.continued": "an index letter repeated at the top of a column: 'C (cont.)'",
    "meta.cards": "in a PDF's subject (its document properties), before the paper and how to print it: '54 cards, A4, duplex'",
    "meta.pieces": "{what} is '1 component' or '5 cards, 300 x 400 mm', {n} the pieces each is printed in",
    "meta.shop": "in a print shop's PDF's subject: {what} is '75 cards', {shop} the shop's name, 'DriveThruCards'",
    "meta.sides.duplex": "in a PDF's subject: how its sheets are printed (printed on both sides)",
    "meta.sides.fronts": "in a PDF's subject: only the fronts of the cards are printed",
    "meta.sides.backs": "in a PDF's subject: only the backs of the cards are printed",
    "meta.sides.folded": "in a PDF's subject: fronts and backs side by side, printed one-sided and folded",
    "meta.flip.long": "in a PDF's subject: the edge over which the paper is turned for printing double-sided",
    "meta.rulebook": "a rulebook PDF's subject; {paper} is 'A4' or 'LETTER'",
    "meta.booklet": "a rulebook booklet's subject; {page} is its page size ('A5'), {paper} the paper it is printed on ('A4')",
}
OPTIONAL = {"rulebook.sidebar": "the label of a rulebook's sidebars"}  # words pnp prints only when a game gives them (`strings: pnp.ID`)
RENAMED = {
    f"rulebook_{key}": f"{PREFIX}rulebook.{key}" for key in ("contents", "index", "page", "example", "note", "sidebar", "continued")
}  # a game's old keys
_VALUE = re.compile(r"\{(\w+)\}")


def base_language(lang: str) -> str:
    """'pt' of 'pt_BR' or 'pt-BR': a language's catalogue serves its regional variants."""
    return lang.replace("-", "_").split("_")[0].lower()


@cache
def catalogue(lang: str) -> dict[str, str | tuple[str, ...]]:
    """pnp's translations for `lang` (its own catalogue, else its base language's), by id:
    only the current ones (msgid the English of SOURCE) and complete ones; {} for English
    and for a language pnp has no catalogue for."""
    if base_language(lang) == "en":
        return {}  # the source
    for name in dict.fromkeys((lang.replace("-", "_"), base_language(lang))):
        path = OWN_DIR / f"{name}.po"
        if path.is_file():
            return _read(path)
    return {}


def _read(path: Path) -> dict[str, str | tuple[str, ...]]:
    text = path.read_text(encoding="utf-8")
    problems = Problems()
    check_po(text, path.name, problems)
    if problems.errors:  # a broken catalogue of pnp's: its tests fail; a build prints English
        return {}
    entries = po_entries(text)
    header = next((e.strings[0] for e in entries if not e.id), "")
    rule = re.search(r"plural=([^;\n]+)", header)
    index = gettext.c2py(rule.group(1)) if rule else (lambda n: int(n != 1))
    found: dict[str, str | tuple[str, ...]] = {}
    for entry in entries:
        source = SOURCE.get(entry.context or "")
        if source is None or entry.fuzzy or not all(entry.strings):
            continue
        if isinstance(source, tuple) and (entry.id, entry.plural) == source:
            found[entry.context] = _Forms(entry.strings, index)
        elif entry.id == source and entry.plural is None:
            found[entry.context] = entry.strings[0]
    return found


class _Forms(tuple):
    """A plural word's forms in a catalogue, with the catalogue's rule (its Plural-Forms) to choose one."""

    index: Callable[[int], int]

    def __new__(cls, forms: list[str], index: Callable[[int], int]) -> _Forms:
        obj = super().__new__(cls, forms)
        obj.index = index
        return obj


def has_words(lang: str) -> bool:
    """Whether pnp prints its own words in `lang` (all of them, English's or a catalogue's)."""
    return base_language(lang) == "en" or len(catalogue(lang)) == len(SOURCE)


class Words:
    """pnp's own words in one language: `words(id, n=None, **values)` is the text of `id`
    with its values filled in (`n`: the number a plural word agrees with)."""

    def __init__(self, lang: str, strings: Mapping[str, str] | None = None):
        self.lang = lang
        self._table = catalogue(lang)
        self._strings = {key[len(PREFIX) :]: text for key, text in (strings or {}).items() if key.startswith(PREFIX) and key[len(PREFIX) :] in SOURCE}

    def __call__(self, key: str, n: int | None = None, **values: object) -> str:
        text = self._text(key, n)
        if n is not None:
            values["n"] = n
        return fill(text, **values)

    def _text(self, key: str, n: int | None) -> str:
        source = SOURCE[key]
        own = self._strings.get(key)
        if not isinstance(source, tuple):
            return str(own) if own is not None else str(self._table.get(key, source))
        number = 1 if n is None else n
        if own is not None:  # the game's forms, by the language's rule
            forms = [form.strip() for form in own.split(SEPARATOR)]
            return forms[min(max(_plural_index(self.lang)(number), 0), len(forms) - 1)]
        found = self._table.get(key)
        if isinstance(found, _Forms):
            return found[min(max(found.index(number), 0), len(found) - 1)]
        return source[0] if number == 1 else source[1]  # English, by its own rule


@cache
def _plural_index(lang: str) -> Callable[[int], int]:
    return Plurals(lang).index


def own_words(lang: str, strings: Mapping[str, str] | None = None) -> Words:
    """pnp's words in `lang`, with a game's replacements (`strings`: its `strings:` in that
    language, whose `pnp.ID` keys replace word ID)."""
    return Words(lang, strings)


ENGLISH = own_words("en")  # the source: what `pnp impose` prints unless --lang says otherwise


def fill(text: str, **values: object) -> str:
    """`text` with the `{name}`s of `values` filled in (the others left as they are, to be
    filled where their values are known)."""
    return _VALUE.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), text)


def placeholders(text: str) -> set[str]:
    """The values a text names: {length}, {n}, ..."""
    return set(_VALUE.findall(text))
