"""The glossary's check: a word that begins with a term's stem but is none of its forms is
most likely a typo or drift from the canonical term, reported as a warning at its card."""

from __future__ import annotations

from pnp.base.errors import Problems
from pnp.i18n.catalogues import texts
from pnp.load.glossary import _SYMBOL, _WORD, Term
from pnp.load.model import Game


def check_glossary(game: Game, terms: list[Term]) -> Problems:
    """Warn about every word that looks like an unlisted form of a glossary term."""
    problems = Problems()
    checked = [(term, term.stem.lower(), term.accepted()) for term in terms if term.stem]
    if not checked:
        return problems
    stems = tuple(stem for _, stem, _ in checked)  # most words begin with none: one test of all the stems at once
    for card in (card for deck in game.decks.values() for card in deck.cards):  # one at a time
        for path, text, note in texts(card.fields, game.types[card.type].fields, "glossary"):
            if not text:
                continue
            for word in _WORD.findall(_SYMBOL.sub(" ", str(text))):
                low = word.lower()
                if not low.startswith(stems):
                    continue
                for term, stem, accepted in checked:
                    if low.startswith(stem) and low not in accepted:
                        problems.warn(
                            card.loc_of(path),
                            "glossary-form",
                            f"'{word}' in {note} of card '{card.id}' looks like a form of '{term.term}' that the glossary does not list; correct the text or add the form to the glossary",
                        )
    return problems
