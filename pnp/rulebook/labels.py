"""The few words a rulebook prints that nobody wrote: "Contents", "Index", the page
abbreviation of a cross-reference, the labels of examples and notes. Built in for common
languages; a game overrides any of them with `strings:` in game.yaml (rulebook_contents,
rulebook_index, rulebook_page, rulebook_example, rulebook_note, rulebook_sidebar), which
are translated like every other string."""

from __future__ import annotations

from dataclasses import dataclass

_BUILT_IN = {
    "sk": ("Obsah", "Register", "s.", "Príklad", "Poznámka", ""),
    "cs": ("Obsah", "Rejstřík", "s.", "Příklad", "Poznámka", ""),
    "en": ("Contents", "Index", "p.", "Example", "Note", ""),
    "de": ("Inhalt", "Register", "S.", "Beispiel", "Hinweis", ""),
    "pl": ("Spis treści", "Indeks", "s.", "Przykład", "Uwaga", ""),
    "hu": ("Tartalom", "Tárgymutató", "o.", "Példa", "Megjegyzés", ""),
    "fr": ("Sommaire", "Index", "p.", "Exemple", "Remarque", ""),
    "es": ("Índice", "Índice alfabético", "p.", "Ejemplo", "Nota", ""),
    "it": ("Indice", "Indice analitico", "p.", "Esempio", "Nota", ""),
}
_KEYS = ("contents", "index", "page", "example", "note", "sidebar")


@dataclass(frozen=True)
class Labels:
    contents: str
    index: str
    page: str
    example: str
    note: str
    sidebar: str

    def box(self, kind: str) -> str:
        return getattr(self, kind, "")


def labels(lang: str, strings: dict[str, str]) -> Labels:
    base = _BUILT_IN.get(lang.replace("-", "_").split("_")[0], _BUILT_IN["en"])
    return Labels(*(strings.get(f"rulebook_{key}", default) for key, default in zip(_KEYS, base)))
