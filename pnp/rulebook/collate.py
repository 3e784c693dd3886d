"""Alphabetical order by language, for the index: where a Slovak or Czech reader looks
for a word. Sorting by code point puts 'Žaba' after 'zima' only by luck and 'chata'
under c; ignoring accents files Š under S. Each language's alphabet says which letters
are letters of their own (Slovak 'č' comes after all of c, 'ch' after all of h); every
other accent only breaks ties (a, á, ä are one letter, 'a' first).

Why not a library: pyuca implements the Unicode Collation Algorithm but only with the
default table (no Slovak or Czech tailoring), and ICU needs a C build. The tables below
follow the national rules: Slovak STN 01 0181 (č, ď, ch, ľ, ň, š, ť, ž are letters of
their own, as in the Slovak spelling alphabet), Czech ČSN 97 6030 (č, ch, ř, š, ž; ď, ň,
ť only break ties), Polish (every letter with a diacritic), Spanish (ñ). Other languages
sort by the base letters, accents breaking ties.
"""

from __future__ import annotations

import unicodedata

# language -> (letter, the letter it comes after); a letter may be two characters ("ch")
_ALPHABETS: dict[str, tuple[tuple[str, str], ...]] = {
    "sk": (("č", "c"), ("ď", "d"), ("ch", "h"), ("ľ", "l"), ("ň", "n"), ("š", "s"), ("ť", "t"), ("ž", "z")),
    "cs": (("č", "c"), ("ch", "h"), ("ř", "r"), ("š", "s"), ("ž", "z")),
    "pl": (("ą", "a"), ("ć", "c"), ("ę", "e"), ("ł", "l"), ("ń", "n"), ("ó", "o"), ("ś", "s"), ("ź", "z"), ("ż", "ź")),
    "es": (("ñ", "n"),),
}
_MARKS = "\u0301\u0300\u0302\u0308\u030a\u0303\u030c\u0327\u0328\u0307\u030b"  # ties: a < á < à < â < ä ...


def _language(lang: str) -> str:
    return lang.replace("-", "_").split("_")[0].lower()


class Alphabet:
    """The letters of one language and their order."""

    def __init__(self, lang: str):
        self.lang = _language(lang)
        rules = _ALPHABETS.get(self.lang, ())
        self.own: dict[str, tuple[str, int]] = {}  # letter -> (base letter, rank after it)
        for letter, after in rules:
            base, rank = self.own.get(after, (after, 0))
            self.own[letter] = (base, rank + 1)
        self.longest = max((len(letter) for letter in self.own), default=1)

    def letters(self, text: str) -> list[str]:
        """`text` (folded to lower case, composed) cut into this language's letters."""
        text = unicodedata.normalize("NFC", text.casefold())
        out, i = [], 0
        while i < len(text):
            for size in range(self.longest, 0, -1):
                piece = text[i : i + size]
                if len(piece) == size and (size == 1 or piece in self.own):
                    out.append(piece)
                    i += size
                    break
        return out

    def key(self, text: str) -> tuple:
        """A sort key: letters first (the language's own ones in their place), then
        accents, then case, then the text itself so that the order is total."""
        primary, secondary = [], []
        for letter in self.letters(text):
            if letter in self.own:
                base, rank = self.own[letter]
                primary.append((_base(base), rank))
                secondary.append(0)
                continue
            for ch in unicodedata.normalize("NFD", letter):
                if unicodedata.combining(ch):
                    if secondary:
                        secondary[-1] = secondary[-1] * 16 + _MARKS.find(ch) + 2
                    continue
                primary.append((_base(ch), 0))
                secondary.append(0)
        tertiary = tuple(ch.isupper() for ch in text)
        return tuple(primary), tuple(secondary), tertiary, text

    def initial(self, text: str) -> str:
        """The letter `text` is filed under in the index: 'Ch' for 'chata' in Slovak,
        'Č' for 'čaj', 'A' for 'Ábel'; '' when it begins with no letter."""
        for letter in self.letters(text):
            if letter in self.own:
                return letter[:1].upper() + letter[1:]
            base = "".join(ch for ch in unicodedata.normalize("NFD", letter) if not unicodedata.combining(ch))
            if base.isalpha():
                return base.upper()
            if base.strip() and not base.isalnum():
                continue  # leading punctuation: '"Hry"' is filed under H
            return ""
        return ""


def _base(ch: str) -> int:
    """Spaces before digits before letters; letters in their Latin order."""
    if ch.isspace():
        return 0
    if not ch.isalnum():
        return 1
    return ord(ch) + 2


def sort_key(text: str, lang: str) -> tuple:
    return Alphabet(lang).key(text)


def sort_terms(terms, lang: str) -> list[str]:
    """`terms` in the alphabetical order of `lang`."""
    alphabet = Alphabet(lang)
    return sorted(terms, key=alphabet.key)
