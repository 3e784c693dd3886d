"""Alphabetical order as a language has it, for indexes: in Czech and Slovak č, ch, ř, š
and ž are letters of their own (č after c, ch after h), while other accents only break
ties (a, á). Everywhere else accents only break ties. (ICU knows every language, but
needs a C build; these are the tailorings our games need.)"""

from __future__ import annotations

import unicodedata

# letters that sort after the letter named: ICU's tailorings for cs and sk
_AFTER = {
    "cs": {"č": "c", "ch": "h", "ř": "r", "š": "s", "ž": "z"},
    "sk": {"ä": "a", "č": "c", "ch": "h", "ô": "o", "ř": "r", "š": "s", "ž": "z"},
}


def _unaccented(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def sort_key(term: str, lang: str) -> tuple:
    """Primary: letters (a tailored letter right after its base); then accents; then case."""
    after = _AFTER.get(lang.split("_")[0].split("-")[0], {})
    folded = unicodedata.normalize("NFC", term.casefold())
    primary: list[tuple[str, int]] = []
    i = 0
    while i < len(folded):
        pair = folded[i : i + 2]
        if pair in after:
            primary.append((after[pair], 1))
            i += 2
            continue
        ch = folded[i]
        primary.append((after[ch], 1) if ch in after else (_unaccented(ch), 0))
        i += 1
    return (primary, folded, term.swapcase())  # lower case first, as ICU does


def initial(term: str, lang: str) -> str:
    """The letter an index files `term` under, as sort_key orders it: 'Ch' for 'chata' and
    'Č' for 'čaj' in Slovak and Czech, 'A' for 'ábel'; leading quotes and the like are
    skipped; '' when it begins with a digit or no letter."""
    after = _AFTER.get(lang.split("_")[0].split("-")[0], {})
    folded = unicodedata.normalize("NFC", term.casefold())
    for i, ch in enumerate(folded):
        if not ch.isalnum():
            continue
        if not ch.isalpha():
            return ""
        pair = folded[i : i + 2]
        if pair in after:
            return pair[0].upper() + pair[1:]
        return ch.upper() if ch in after else _unaccented(ch).upper()
    return ""
