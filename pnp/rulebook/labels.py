"""The few words a rulebook prints that nobody wrote: "Contents", "Index", the page
abbreviation of a cross-reference, the labels of examples and notes, the mark of an index
letter repeated at the top of a page or column ("C (cont.)"), the heading of the
edition's notes ("About this edition"). They are pnp's own words (pnp/i18n/own.py), in
the rulebook's language; a game replaces any of them with `strings:` in game.yaml
(pnp.rulebook.contents, pnp.rulebook.index, pnp.rulebook.page, pnp.rulebook.example,
pnp.rulebook.note, pnp.rulebook.continued, pnp.rulebook.edition), translated like every
other string. A sidebar has no label unless the game gives one (pnp.rulebook.sidebar). The
PDFs' subjects (what a viewer's document properties show) are pnp's words too."""

from __future__ import annotations

from dataclasses import dataclass

from pnp.i18n.own import PREFIX, own_words


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
    subject: str  # the paper book's PDF subject, its {paper} to be filled in: "rulebook, {paper}"
    booklet: str  # the booklet's, its {page} and {paper} to be filled in

    def box(self, kind: str) -> str:
        return getattr(self, kind, "")


def labels(lang: str, strings: dict[str, str]) -> Labels:
    words = own_words(lang, strings)
    return Labels(
        words("rulebook.contents"),
        words("rulebook.index"),
        words("rulebook.page"),
        words("rulebook.example"),
        words("rulebook.note"),
        strings.get(f"{PREFIX}rulebook.sidebar", ""),
        words("rulebook.continued"),
        words("rulebook.edition"),
        words("meta.rulebook"),
        words("meta.booklet"),
    )
