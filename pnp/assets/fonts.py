"""Fonts: embedded TrueType only, registered once, with a check for missing glyphs.

reportlab draws a glyph the font lacks as nothing at all; `missing_glyphs` is how every
text is checked before it is drawn, so a missing character is an error, not a blank.
Before that, a character the style's font lacks is taken from the fallback symbol font,
DejaVu Sans, which has stars, arrows, mathematical and card symbols, dingbats and most
alphabets (`FontSet.fallback`). It is bundled in pnp's fonts folder (the same files
matplotlib ships, so that the PDFs did not change when pnp stopped depending on
matplotlib for them; licence: fonts/LICENSE-DejaVuSans.txt).
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from pnp.base.errors import Location, PnpError, Problems, display_path, fail
from pnp.base.paths import FONTS_DIR, inside, leads_out, resolve_inside
from pnp.base.signals import stop_if_received
from pnp.base.versions import per_version, version
from pnp.load.languages import known_language
from pnp.load.yamlfile import LMap, load_yaml
from pnp.pdf.canvas import register_font  # also what makes reportlab read a font's tables whole (canvas._extract_info)

PREFIX = "pnp-"  # our registered names never clash with reportlab's standard fonts


@dataclass(repr=False, eq=False)
class Font:
    """A style's font once registered with reportlab, with its metrics per unit of size."""

    name: str  # the name styles use, e.g. "sans-bold"
    registered: str  # the name reportlab knows
    path: Path
    ascent: float  # per unit of size
    descent: float  # negative, per unit of size


class FontSet:
    """The fonts a game can use: the bundled ones plus any in the game's fonts/ folder.

    Two sets of the same files (paths and versions: base.versions) are equal, so what is
    cached for one (set texts) serves the next build of the watcher, which makes a new set.

    A language code in the game's fonts.yaml maps font names to the files that replace
    them in that language (`ar: {sans: KacstOne.ttf}`): `in_language` gives that set."""

    def __init__(self, folders: list[Path]):
        self.fonts: dict[str, Font] = {}
        self._files: dict[str, tuple[Path, Location]] = {}
        self._fallbacks: dict[str, str | None] = {}
        self._languages: dict[str, dict[str, tuple[Path, Location]]] = {}  # language -> font name -> its file in that language
        self._registered_as: dict[str, str] = {}  # font name -> the name it is registered under, for a language's own file
        self._in: dict[str, FontSet] = {}  # in_language's sets, by language
        for folder in folders:
            if leads_out(folder):
                raise fail(Location(display_path(folder)), "path-outside", f"{folder.name}/ is a link to outside the game folder; expected a folder inside it")
            index = folder / "fonts.yaml"
            if index.is_file() and not inside(index, [folder]):
                raise fail(Location(display_path(index)), "path-outside", "fonts.yaml is a link to outside the game folder; expected a file inside it")
            if index.is_file():
                listing = load_yaml(index)
                if not isinstance(listing, dict):
                    raise fail(
                        Location(display_path(index), 1, 1),
                        "fonts-shape",
                        "fonts.yaml must map font names to .ttf files; expected lines such as 'sans: MyFont.ttf'",
                    )
                for name, file in listing.items():
                    if isinstance(file, LMap):
                        self._languages[str(name)] = _language_fonts(str(name), file, folder, listing.key_locs.get(name, listing.loc_of(name)))
                    else:
                        self._files[str(name)] = _font_file(str(name), file, folder, listing.loc_of(name))
        own = [(f"{lang}:{name}", path) for lang, files in sorted(self._languages.items()) for name, (path, _) in sorted(files.items())]
        files = [(name, path) for name, (path, _) in sorted(self._files.items())] + own
        self.key = tuple((name, str(path), version(path)) for name, path in files)
        self._hash = hash(self.key)

    def in_language(self, lang: str) -> FontSet:
        """The set in language `lang`: its fonts replaced by those the game's fonts.yaml
        gives for the language (`ar` serves `ar_EG`; `ar_EG` may replace more), each
        registered under a name of its own; the set itself when it gives none."""
        base = lang.replace("-", "_").split("_")[0]
        own = {**self._languages.get(base, {}), **self._languages.get(lang, {})}
        if not own:
            return self
        found = self._in.get(lang)
        if found is None:
            found = self._in[lang] = object.__new__(FontSet)
            found.fonts, found._fallbacks, found._languages, found._in = {}, {}, {}, {}
            found._files = {**self._files, **own}
            found._registered_as = {name: f"{name}.{lang}" for name in own}
            found.key = (*self.key, ("language", lang, ""))
            found._hash = hash(found.key)
        return found

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FontSet) and self.key == other.key

    def __hash__(self) -> int:
        return self._hash

    def names(self) -> list[str]:
        return sorted(self._files)

    def __contains__(self, name: str) -> bool:
        return name in self._files

    def get(self, name: str) -> Font:
        """The font `name`, registered with reportlab on first use."""
        font = self.fonts.get(name)
        if font is None:
            path, loc = self._files[name]
            font = _register(path, self._registered_as.get(name, name), loc)
            self.fonts[name] = font
        return font

    def covering(self, chars: str) -> list[str]:
        """The fonts of the set that have every one of `chars`: what a message about missing
        glyphs can suggest (each font is read the first time it is asked)."""
        return [name for name in self.names() if not missing_glyphs(self.get(name).registered, chars)]

    def fallback(self, registered: str) -> str | None:
        """The registered name of the fallback symbol font in the weight and slant of
        `registered` (one of this set's fonts), or None when it is not installed."""
        if registered in self._fallbacks:
            return self._fallbacks[registered]
        font = next((f for f in self.fonts.values() if f.registered == registered), None)
        name = font.name if font is not None else registered
        bold, italic = "bold" in name, "italic" in name or "oblique" in name
        style = "-BoldOblique" if bold and italic else "-Bold" if bold else "-Oblique" if italic else ""
        path = fallback_folder()
        found = None
        if path is not None and (path / f"DejaVuSans{style}.ttf").is_file():
            file = path / f"DejaVuSans{style}.ttf"
            found = _register(file, f"fallback{style.lower()}", Location(str(path))).registered
        self._fallbacks[registered] = found
        return found

    def variant(self, family: str, variant: str) -> str:
        """'sans' + 'bold' -> 'sans-bold' when it exists, else the family itself."""
        if not variant:
            return family
        base = family.removesuffix("-bold").removesuffix("-italic")
        candidate = f"{base}-{variant}"
        return candidate if candidate in self._files else family


def _font_file(name: str, file: object, folder: Path, loc: Location) -> tuple[Path, Location]:
    """A font's file named in fonts.yaml, inside the folder and existing; a bare name that
    is not there is one of pnp's bundled files (`he: {sans: DejaVuSans.ttf}`), so a game can
    draw a language in a bundled font without a copy of it."""
    path = resolve_inside(str(file), folder, [folder], loc, f"font '{name}'")
    if not path.is_file() and Path(str(file)).name == str(file) and (FONTS_DIR / str(file)).is_file():
        return FONTS_DIR / str(file), loc
    if not path.is_file():
        raise fail(
            loc, "font-missing", f"font file '{file}' does not exist; expected a .ttf file beside fonts.yaml, or one that pnp bundles (DejaVuSans.ttf, ...)"
        )
    return path, loc


def _language_fonts(lang: str, listing: LMap, folder: Path, loc: Location) -> dict[str, tuple[Path, Location]]:
    """The fonts fonts.yaml gives for one language: font name -> its file."""
    if not known_language(lang):
        raise fail(
            loc,
            "fonts-language",
            f"fonts.yaml maps '{lang}' to fonts, but '{lang}' is not a language code that pnp knows; "
            "expected a font name with its .ttf file ('sans: MyFont.ttf'), or a language code with the fonts it uses ('ar: {sans: KacstOne.ttf}')",
        )
    files = {}
    for name, file in listing.items():
        if isinstance(file, LMap):
            raise fail(listing.loc_of(name), "fonts-shape", f"fonts.yaml gives '{name}' for '{lang}' a mapping; expected its .ttf file ('{name}: MyFont.ttf')")
        files[str(name)] = _font_file(str(name), file, folder, listing.loc_of(name))
    return files


@cache
def fallback_folder() -> Path | None:
    """The folder of the fallback symbol font: the bundled fonts folder, or None when its
    DejaVu Sans is missing (a packager who left it out)."""
    return FONTS_DIR if (FONTS_DIR / "DejaVuSans.ttf").is_file() else None


@per_version(maxsize=None)
def _register(path: Path, name: str, loc: Location) -> Font:
    """The font read and registered, once per version of its file: as 'pnp-NAME', unless
    another file holds that name in this process (a second game's own 'sans': the tests,
    one process for several games), when it is 'pnp-NAME~DIGEST' (of the file's path), so
    the first game's texts are still measured and drawn in its own file."""
    registered = PREFIX + name
    if _PATHS.get(registered, path) != path:
        registered += "~" + hashlib.sha1(str(path).encode()).hexdigest()[:8]
    try:
        ttf = TTFont(registered, str(path))
    except Exception as exc:  # reportlab's reader meets a damaged file with whatever error the bytes lead to
        stop_if_received(exc)
        problems = Problems()
        problems.error(loc, "font-unreadable", f"font '{name}' ({display_path(path)}) cannot be used: {_why(exc, path)}; expected a TrueType (.ttf) file")
        raise PnpError(problems) from None
    if registered in pdfmetrics.getRegisteredFontNames():  # its file changed while pnp runs (the watcher)
        register_font(ttf)  # reportlab's registerFont would keep the old version
        for known in BY_NAME:  # they know fonts by their registered name
            known.cache_clear()
    else:
        pdfmetrics.registerFont(ttf)
    face = ttf.face
    _PATHS[registered] = path
    return Font(name, registered, path, face.ascent / 1000, face.descent / 1000)


def _why(exc: Exception, path: Path) -> str:
    """What is wrong with a font file, in words (reportlab names the file by its full path:
    the message names it once, as the user does)."""
    if isinstance(exc, KeyError):
        return f"it has no '{exc.args[0]}' table"
    if isinstance(exc, struct.error | IndexError | EOFError):
        return "it ends before its tables do (a file cut short?)"
    if isinstance(exc, TTFError | OSError):
        text = str(exc)
        for named in (f'TTF file "{path}": ', f' "{path}"', f'"{path}" ', str(path)):
            text = text.replace(named, "")
        return text.strip() or type(exc).__name__
    return f"its tables are damaged ({type(exc).__name__}: {exc})"


_PATHS: dict[str, Path] = {}  # registered name -> its file (the font shaping reads, shaping.py)


def font_path(registered: str) -> Path:
    """The file of a registered font."""
    return _PATHS[registered]


@lru_cache(maxsize=2048)
def missing_glyphs(registered: str, text: str) -> str:
    """The characters of `text` that the font cannot draw (spaces and breaks excluded).
    Called per word: the 2048 most recent are remembered, as many as text._measure keeps
    (a cache of every word would grow with the deck)."""
    covered = pdfmetrics.getFont(registered).face.charToGlyph
    return "".join(sorted({ch for ch in text if ord(ch) not in covered and ch not in "\n\r\t"}))


def bundled_fonts() -> FontSet:
    return FontSet([FONTS_DIR])


BY_NAME: list = [missing_glyphs]  # caches keyed by a font's registered name: cleared when its file changes (text.py adds its own)
