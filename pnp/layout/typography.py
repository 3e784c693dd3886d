"""The typographic conventions of the languages pnp sets text in, one table: which
one-letter words stay with the word after them, which punctuation a typed space before
(or after) it never breaks from (and how wide that space is drawn), and a game's own
hyphenation of words the patterns split wrongly (game.yaml's `hyphenation:`).

The text engine (text.py) asks a `Typography` and never a language code. Each rule is
written down somewhere a typesetter of the language would look (docs/typography.md cites
them); a language without an entry has none of these rules (English, German and every
other one): pnp does not invent conventions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pyphen

NARROW = "\u202f"  # NARROW NO-BREAK SPACE: the French espace fine insécable
NO_BREAK = "\u00a0"  # NO-BREAK SPACE: the espace (mot) insécable
HYPHEN = "-"  # where a listed word may break


@dataclass(frozen=True, repr=False, eq=False)
class Convention:
    """One language's rules: one-letter words that must not end a line (they are kept with
    the next word), and the punctuation that a typed space before or after it never
    separates from its word (the space drawn no-break, narrow where `narrow`)."""

    clinging: frozenset[str] = frozenset()
    narrow_before: str = ""  # a typed space before it becomes a narrow no-break space (U+202F)
    space_before: str = ""  # a typed space before it becomes a no-break space (U+00A0)
    space_after: str = ""  # a typed space after it becomes a no-break space (U+00A0)
    source: str = ""  # where the rule is written down


_CS_SK = frozenset("vVkKsSzZoOuUaAiI")  # the prepositions k, s, v, z, o, u and the conjunctions a, i

CONVENTIONS: dict[str, Convention] = {
    "cs": Convention(_CS_SK, source="ČSN 01 6910 (Úprava písemností zpracovaných textovými editory)"),
    "sk": Convention(_CS_SK, source="STN 01 6910 (Pravidlá písania a úpravy písomností)"),
    "pl": Convention(frozenset("wWzZiIoOaAuU"), source="PN-83/P-55366 (Zasady składania tekstów w języku polskim)"),
    "fr": Convention(narrow_before=";!?", space_before=":»", space_after="«", source="Lexique des règles typographiques en usage à l'Imprimerie nationale"),
}
NONE = Convention()

# The languages written right to left (CLDR's character order): their paragraphs run right
# to left whatever letter they start with, and a text's `align: start` is on the right.
RIGHT_TO_LEFT = frozenset({"ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ku_Arab", "lrc", "mzn", "nqo", "pa_Arab", "ps", "sd", "syr", "ug", "ur", "yi"})


@lru_cache(maxsize=16)
def hyphenator(lang: str) -> Patterns | None:
    """The hyphenation patterns of a language (None: pyphen has none), read once a process."""
    found = pyphen.language_fallback(lang.replace("-", "_")) if lang else None
    return Patterns(Path(pyphen.LANGUAGES[found])) if found else None


_IGNORED = ("%", "#", "LEFTHYPHENMIN", "RIGHTHYPHENMIN", "COMPOUNDLEFTHYPHENMIN", "COMPOUNDRIGHTHYPHENMIN")  # lines of a dictionary that are no pattern
_HEX = re.compile(r"\^{2}([0-9a-f]{2})")  # '^^e9': a character by its code
_DIGIT = re.compile(r"\d")
_NOT_DIGIT = re.compile(r"[^\d\n]")
_SLOT = re.compile(r"(?<!\d)(?!\d)")  # a place between two letters (or at an end) without a digit: its value is 0


KEPT_WORDS = 16_384  # words whose breaks a language's patterns keep, the most recently asked (a language's common vocabulary; each a few hundred bytes)


class Patterns:
    """A language's hyphenation patterns (Liang's, as in TeX), from pyphen's dictionary of
    the language, and where they let a word break: what pyphen's `Pyphen(lang=...)`
    gives (two letters at least on each side), read and asked faster. Why not pyphen's
    own: it parses each of a dictionary's thousands of patterns with a few Python calls
    per digit, which took longer than setting a deck's card texts' lines, and it looks
    every word up through two calls. Here a dictionary's lines are parsed together, by a
    few regular expressions over the whole text, and a word's breaks are kept by the word."""

    def __init__(self, path: Path):
        with path.open("rb") as file:
            encoding = file.readline().decode()  # the first line names the encoding (as pyphen reads it)
        if encoding.lower() == "microsoft-cp1251":
            encoding = "cp1251"
        lines = []
        for line in path.read_text(encoding).split("\n")[1:]:
            line = line.strip()
            if not line or line.startswith(_IGNORED):
                continue
            if "^^" in line:
                line = _HEX.sub(lambda m: chr(int(m.group(1), 16)), line)
            if "/" in line and "=" in line:  # a nonstandard break ('ff=f'): only where it falls counts here
                line = line.split("/", 1)[0]
            lines.append(line)
        text = "\n".join(lines)
        keys = _DIGIT.sub("", text).split("\n")  # each pattern's letters
        values = _NOT_DIGIT.sub("", _SLOT.sub("0", text)).split("\n")  # each pattern's digit before each letter and after the last
        self.patterns: dict[str, tuple[int, tuple[int, ...]]] = {}  # letters -> where their first nonzero value is, and the values from there
        for key, digits in zip(keys, values):
            kept = digits.strip("0")
            if kept:  # a pattern of zeros breaks nothing
                self.patterns[key] = (len(digits) - len(digits.lstrip("0")), tuple(map(int, kept)))
        self.longest = max(map(len, self.patterns), default=0)
        self.positions = lru_cache(maxsize=KEPT_WORDS)(self._positions)  # a word's breaks, by the word: the KEPT_WORDS most recent

    def _positions(self, word: str) -> tuple[int, ...]:
        """Where `word` may break: after so many characters, two at least on each side."""
        pointed = f".{word.lower()}."
        values = [0] * (len(pointed) + 1)
        patterns, longest = self.patterns, self.longest
        for i in range(len(pointed) - 1):
            for j in range(i + 1, min(i + longest, len(pointed)) + 1):
                pattern = patterns.get(pointed[i:j])
                if pattern:
                    offset, found_values = pattern
                    at = slice(i + offset, i + offset + len(found_values))
                    values[at] = map(max, found_values, values[at])
        right = len(word) - 2
        return tuple(i - 1 for i, value in enumerate(values) if value % 2 and 2 <= i - 1 <= right)


def base_language(lang: str) -> str:
    """'pt' of 'pt_BR': the language whose conventions a regional variant follows."""
    return lang.replace("-", "_").split("_")[0]


def breaks(listed: str) -> tuple[str, tuple[int, ...]]:
    """A listed word ('Drachen-blut-eli-xier') as its key (lower case, no hyphens) and the
    positions it may break at (7, 11, 14)."""
    parts = listed.split(HYPHEN)
    at, positions = 0, []
    for part in parts[:-1]:
        at += len(part)
        positions.append(at)
    return "".join(parts).lower(), tuple(positions)


@dataclass(frozen=True, repr=False, eq=False)
class Hyphenation:
    """Where words may break: at the listed breaks of a listed word (a listed word without
    hyphens never breaks), elsewhere where the language's patterns say."""

    patterns: Patterns | None
    listed: Mapping[str, tuple[int, ...]]

    def positions(self, text: str) -> Sequence[int]:
        """The break positions in `text`, whose last word is the one that may break (the
        words glued before it, 'w Drachenblut', do not)."""
        start = max(text.rfind(" "), text.rfind(NO_BREAK), text.rfind(NARROW)) + 1
        found = self.listed.get(text[start:].lower()) if self.listed else None
        if found is not None:
            return [start + p for p in found]
        return self.patterns.positions(text) if self.patterns is not None else ()


@dataclass(frozen=True, repr=False, eq=False)
class Typography:
    """How text is set in one language for one game: the language's `Convention` and its
    hyphenation (patterns and the game's listed words). Made once per language and game
    content by `typography`, so that its identity keys the text engine's caches."""

    lang: str
    convention: Convention
    hyphenation: Hyphenation | None  # None: no patterns and no listed words (no word breaks)
    rtl: bool = False  # the language is written right to left (RIGHT_TO_LEFT)


def typography(lang: str, listed: Mapping[str, Sequence[str]] | None = None) -> Typography:
    """The typography of `lang`, with the words game.yaml's `hyphenation:` lists for it
    (under its own code and its base language's: 'de' serves 'de_AT' too)."""
    base = base_language(lang)
    words: tuple[str, ...] = ()
    if listed:
        words = tuple(listed.get(base, ())) + (tuple(listed.get(lang, ())) if lang != base else ())
    return _typography(lang, words)


@lru_cache(maxsize=64)
def _typography(lang: str, words: tuple[str, ...]) -> Typography:
    patterns = hyphenator(lang)
    exceptions = dict(breaks(word) for word in words)
    hyphenation = Hyphenation(patterns, exceptions) if patterns is not None or exceptions else None
    rtl = lang.replace("-", "_") in RIGHT_TO_LEFT or base_language(lang) in RIGHT_TO_LEFT
    return Typography(lang, CONVENTIONS.get(base_language(lang), NONE), hyphenation, rtl)
