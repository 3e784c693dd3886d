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
_BREAKING = re.compile(r"[^\D0]")  # a digit other than 0: a pattern with one breaks somewhere


KEPT_WORDS = 16_384  # words whose breaks a language's patterns keep, the most recently asked (a language's common vocabulary; each a few hundred bytes)


class Patterns:
    """A language's hyphenation patterns (Liang's, as in TeX), from pyphen's dictionary of
    the language, and where they let a word break: what pyphen's `Pyphen(lang=...)`
    gives (two letters at least on each side), read and asked faster. Why not pyphen's
    own: it parses each of a dictionary's thousands of patterns with a few Python calls
    per digit, which took longer than setting a deck's card texts' lines, and it looks
    every word up through two calls. Here a dictionary's lines are read together, by a
    regular expression over the whole text, into each pattern's letters; a pattern's
    digits are parsed when a word first meets it (a game hyphenates a few words, which
    meet a few dozen of a dictionary's thousands of patterns), and a word's breaks are
    kept by the word."""

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
        keys = _DIGIT.sub("", "\n".join(lines)).split("\n")  # each pattern's letters
        self.written: dict[str, str] = dict(zip(keys, lines))  # letters -> the pattern as written; the last of the same letters counts...
        if len(self.written) < len(lines):  # ...unless it breaks nowhere (all zeros), which leaves an earlier one
            self.written = {key: line for key, line in zip(keys, lines) if _BREAKING.search(line)}
        self.longest = max(map(len, self.written), default=0)  # a pattern that breaks nowhere, were it the longest, finds nothing more
        self.parsed: dict[str, tuple[int, tuple[int, ...]] | None] = {}  # letters -> pattern(letters), once asked
        self.positions = lru_cache(maxsize=KEPT_WORDS)(self._positions)  # a word's breaks, by the word: the KEPT_WORDS most recent

    def pattern(self, letters: str) -> tuple[int, tuple[int, ...]] | None:
        """The pattern of these letters: where its first nonzero value is (the value before
        which letter) and the values from there to its last nonzero one; None: no pattern,
        or one that breaks nowhere."""
        written = self.written.get(letters)
        if written is None:
            return None
        if letters not in self.parsed:
            self.parsed[letters] = _parsed(written)
        return self.parsed[letters]

    def _positions(self, word: str) -> tuple[int, ...]:
        """Where `word` may break: after so many characters, two at least on each side."""
        pointed = f".{word.lower()}."
        values = [0] * (len(pointed) + 1)
        pattern_of, longest = self.pattern, self.longest
        for i in range(len(pointed) - 1):
            for j in range(i + 1, min(i + longest, len(pointed)) + 1):
                pattern = pattern_of(pointed[i:j])
                if pattern:
                    offset, found_values = pattern
                    at = slice(i + offset, i + offset + len(found_values))
                    values[at] = map(max, found_values, values[at])
        right = len(word) - 2
        return tuple(i - 1 for i, value in enumerate(values) if value % 2 and 2 <= i - 1 <= right)


def _parsed(written: str) -> tuple[int, tuple[int, ...]] | None:
    """A pattern as written ('2b1c2h') as Patterns.pattern gives it: (0, (2, 1, 2))."""
    digits = _NOT_DIGIT.sub("", _SLOT.sub("0", written))  # its digit before each letter and after the last
    kept = digits.strip("0")
    return (len(digits) - len(digits.lstrip("0")), tuple(map(int, kept))) if kept else None


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
