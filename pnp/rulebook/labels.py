"""The few words a rulebook prints that nobody wrote: "Contents", "Index", the page
abbreviation of a cross-reference, the labels of examples and notes, the mark of an index
letter repeated at the top of a page or column ("C (cont.)"). Built in for common
languages; a game overrides any of them with `strings:` in game.yaml (rulebook_contents,
rulebook_index, rulebook_page, rulebook_example, rulebook_note, rulebook_sidebar,
rulebook_continued), which are translated like every other string."""

from __future__ import annotations

from dataclasses import dataclass

_BUILT_IN = {
    "sk": ("Obsah", "Register", "s.", "Príklad", "Poznámka", "", "pokr."),
    "cs": ("Obsah", "Rejstřík", "s.", "Příklad", "Poznámka", "", "pokr."),
    "en": ("Contents", "Index", "p.", "Example", "Note", "", "cont."),
    "de": ("Inhalt", "Register", "S.", "Beispiel", "Hinweis", "", "Forts."),
    "pl": ("Spis treści", "Indeks", "s.", "Przykład", "Uwaga", "", "cd."),
    "hu": ("Tartalom", "Tárgymutató", "o.", "Példa", "Megjegyzés", "", "folyt."),
    "fr": ("Sommaire", "Index", "p.", "Exemple", "Remarque", "", "suite"),
    "es": ("Índice", "Índice alfabético", "p.", "Ejemplo", "Nota", "", "cont."),
    "it": ("Indice", "Indice analitico", "p.", "Esempio", "Nota", "", "segue"),
}
_KEYS = ("contents", "index", "page", "example", "note", "sidebar", "continued")


@dataclass(frozen=True)
class Labels:
    contents: str
    index: str
    page: str
    example: str
    note: str
    sidebar: str
    continued: str  # an index letter repeated at the top of a page or column: "C (cont.)"

    def box(self, kind: str) -> str:
        return getattr(self, kind, "")


def labels(lang: str, strings: dict[str, str]) -> Labels:
    base = _BUILT_IN.get(lang.replace("-", "_").split("_")[0], _BUILT_IN["en"])
    return Labels(*(strings.get(f"rulebook_{key}", default) for key, default in zip(_KEYS, base)))
