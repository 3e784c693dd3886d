"""The few words a rulebook prints that nobody wrote: "Contents", "Index", the page
abbreviation of a cross-reference, the labels of examples and notes, the mark of an index
letter repeated at the top of a page or column ("C (cont.)"), the heading of the
edition's notes ("About this edition"). Built in for common
languages; a game overrides any of them with `strings:` in game.yaml (rulebook_contents,
rulebook_index, rulebook_page, rulebook_example, rulebook_note, rulebook_sidebar,
rulebook_continued, rulebook_edition), which are translated like every other string."""

from __future__ import annotations

from dataclasses import dataclass

_BUILT_IN = {
    "sk": ("Obsah", "Register", "s.", "Príklad", "Poznámka", "", "pokr.", "O tomto vydaní"),
    "cs": ("Obsah", "Rejstřík", "s.", "Příklad", "Poznámka", "", "pokr.", "O tomto vydání"),
    "en": ("Contents", "Index", "p.", "Example", "Note", "", "cont.", "About this edition"),
    "de": ("Inhalt", "Register", "S.", "Beispiel", "Hinweis", "", "Forts.", "Über diese Ausgabe"),
    "pl": ("Spis treści", "Indeks", "s.", "Przykład", "Uwaga", "", "cd.", "O tym wydaniu"),
    "hu": ("Tartalom", "Tárgymutató", "o.", "Példa", "Megjegyzés", "", "folyt.", "Erről a kiadásról"),
    "fr": ("Sommaire", "Index", "p.", "Exemple", "Remarque", "", "suite", "À propos de cette édition"),
    "es": ("Índice", "Índice alfabético", "p.", "Ejemplo", "Nota", "", "cont.", "Sobre esta edición"),
    "it": ("Indice", "Indice analitico", "p.", "Esempio", "Nota", "", "segue", "Su questa edizione"),
}
_KEYS = ("contents", "index", "page", "example", "note", "sidebar", "continued", "edition")


@dataclass(frozen=True)
class Labels:
    contents: str
    index: str
    page: str
    example: str
    note: str
    sidebar: str
    continued: str  # an index letter repeated at the top of a page or column: "C (cont.)"
    edition: str  # the heading of the edition's notes gathered at the end: "About this edition"

    def box(self, kind: str) -> str:
        return getattr(self, kind, "")


def labels(lang: str, strings: dict[str, str]) -> Labels:
    base = _BUILT_IN.get(lang.replace("-", "_").split("_")[0], _BUILT_IN["en"])
    return Labels(*(strings.get(f"rulebook_{key}", default) for key, default in zip(_KEYS, base)))
