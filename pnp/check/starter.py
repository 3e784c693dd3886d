"""What `pnp new` writes for the designer to replace (the author, the licence, the end of
the rules), and the check that warns while any of it is still there."""

from __future__ import annotations

from pnp.base.errors import Location, Problems, display_path
from pnp.base.paths import inside
from pnp.load.model import Game

AUTHOR = "Your Name"  # what `pnp new` leaves for the designer to fill in: `pnp check` warns while it is there


LICENCE = "CHOOSE-A-LICENCE"


# The rulebook's sentence asking for the end of the game, in each language pnp new writes.
RULES_TO_WRITE = {
    "en": "Write how the game ends and who wins.",
    "sk": "Napíš, ako sa hra končí a kto vyhráva.",
    "cs": "Napiš, jak hra končí a kdo vyhrává.",
    "de": "Beschreibe hier, wie das Spiel endet und wer gewinnt.",
    "pl": "Opisz, jak kończy się gra i kto wygrywa.",
    "fr": "Décrivez comment la partie se termine et qui gagne.",
}


def check_starter_text(game: Game) -> Problems:
    """Warnings about what `pnp new` wrote for the designer to replace and is still there:
    the author, the licence and the attribution (they go into every PDF's metadata and onto
    the card backs) and the rulebook's sentence asking for the end of the game."""
    problems = Problems()
    meta = game.meta
    where = game.locs
    fill = "which pnp new wrote for you to replace"
    if AUTHOR in meta.author:
        problems.warn(
            where.get("author", game.loc), "new-placeholder", f"author is still '{meta.author}', {fill}; expected your name (it goes into the PDFs' metadata)"
        )
    if LICENCE in meta.licence:
        problems.warn(
            where.get("licence", game.loc),
            "new-placeholder",
            f"licence is still '{meta.licence}', {fill}; expected a licence, such as 'CC BY 4.0' or 'All rights reserved'",
        )
    if AUTHOR in meta.attribution:
        problems.warn(
            where.get("attribution", game.loc), "new-placeholder", f"attribution still says '{AUTHOR}', {fill}; expected the credits printed on the card backs"
        )
    for book in meta.rulebooks.values():
        for name in book.files:
            path = game.root / name
            if not inside(path, [game.root]):
                continue  # the rulebook check says it is outside the game folder; never read
            try:
                text = path.read_text(encoding="utf-8") if path.is_file() and path.stat().st_size < 10_000_000 else ""
            except (OSError, UnicodeDecodeError):
                continue  # the rulebook check says why it cannot be read
            for sentence in RULES_TO_WRITE.values():
                if sentence in text:
                    line = text[: text.index(sentence)].count("\n") + 1
                    problems.warn(
                        Location(display_path(path), line, 1),
                        "new-placeholder",
                        f"the rulebook still says '{sentence}', {fill}; expected the rules of your game",
                    )
    return problems
