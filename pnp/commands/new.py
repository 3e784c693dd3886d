"""`pnp new`: a game folder that builds at once, to start a design from.

The files are written into a temporary folder beside the target and moved into place only
when complete (catalogue included), so a failed `pnp new` leaves nothing half-made and an
existing folder is never touched.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

from pnp.base.errors import Location, PnpError, Problems, display_path, fail
from pnp.base.output import output_problem, shown
from pnp.base.signals import holding_signals
from pnp.load.model import LANGUAGE

GAME_YAML = """\
# {title}: what the game is, who made it, and the decks it is made of.
# The reference of every key: docs/game.md in the pnp repository.
title: {title}
author: Your Name
licence: CHOOSE-A-LICENCE      # e.g. CC BY 4.0, CC BY-NC-SA 4.0 or "All rights reserved"
attribution: {attribution}   # printed on every card back
language: {lang}                  # the language of every text in this folder
rules: rules.yaml

decks:
  cards:
    name: Cards
    type: card            # a type declared in rules.yaml
    data: cards.yaml      # or cards.csv / cards.xlsx: one row per card
    front: card           # layouts/card.yaml
    back: back            # layouts/back.yaml

# Texts the layouts print that are not card data (translated like everything else).
strings:
  back: Play card

# The rulebook: Markdown files in order, printed with numbered headings, contents, index
# and an A5 booklet; checked against the cards (docs/rulebook.md in the pnp repository).
rulebooks:
  rules:
    title: Rules
    files: [rules.md]
    facts:                  # a number written by hand before 'cards' must be the deck's size ("5 cards")
      - words: cards
        value: "{{{{ total(cards) }}}}"
"""

RULES_YAML = """\
# The rules model: enumerations, the types of component and their fields, and the
# constraints `pnp check` holds the cards to. The reference: docs/rules.md.
enums:
  suit:
    sun: {name: Sun, color: "#c77c0e"}
    moon: {name: Moon, color: "#3b5ba5"}

types:
  card:
    fields:
      title: {type: text}
      suit: {type: enum, enum: suit}
      value: {type: int, min: 1, max: 9}
      text: {type: text, required: false}

constraints:
  - id: unique-titles
    message: Two cards have the same title.
    type: card
    unique: title
"""

CARDS_YAML = """\
# One entry per distinct card; `copies: N` prints it N times. The reference: docs/cards.md.
- id: dawn
  title: Dawn
  suit: sun
  value: 1
  text: Draw a card.

- id: noon
  title: Noon
  suit: sun
  value: 5
  copies: 2
  text: Play **two** cards this turn.

- id: dusk
  title: Dusk
  suit: moon
  value: 3
  text: Every other player discards a card.

- id: midnight
  title: Midnight
  suit: moon
  value: 9
"""

CARD_LAYOUT = """\
# The front of a card. Boxes are [x, y, width, height] in mm from the top left of the
# trim; strings may use {{ field }} of the card. The reference: docs/layouts.md.
doc: "The front of a card: value, title, suit and text."
size: [63, 88]
styles:
  title: {font: serif-bold, size: 14, min_size: 8, align: left, valign: middle}
  value: {font: sans-bold, size: 16, align: center, valign: middle, color: "#ffffff"}
  label: {font: sans-italic, size: 8, align: center, valign: middle, color: "#555555"}
  body:  {font: sans, size: 10, min_size: 6, align: center, valign: middle}
elements:
  - rect: [-3, -3, 69, 94]        # the background runs into the bleed (build --bleed 3)
    fill: "#fbf7ee"
  - rect: [3, 3, 57, 82]
    stroke: "{{ suit.color }}"
    stroke_width: 1.2
    radius: 2.5
  - rect: [6, 6, 12, 12]
    fill: "{{ suit.color }}"
    radius: 6
  - text: "{{ value }}"
    box: [6, 6, 12, 12]
    style: value
  - text: "{{ title }}"
    box: [21, 6, 36, 12]
    style: title
  - text: "{{ suit.name }}"
    box: [6, 20, 51, 5]
    style: label
  - line: [10, 27, 53, 27]
    stroke: "{{ suit.color }}"
  - text: "{{ text }}"
    box: [6, 30, 51, 50]
    style: body
    when: text
"""

BACK_LAYOUT = """\
# The back of every card: the same size as the front.
doc: "The card back: the game title and the credits."
size: [63, 88]
elements:
  - rect: [-3, -3, 69, 94]
    fill: "#2f3b52"
  - rect: [3, 3, 57, 82]
    stroke: "#f0e6cf"
    stroke_width: 1
    radius: 2.5
  - text: "{{ game.title }}"
    box: [6, 28, 51, 20]
    font: serif-bold
    size: 20
    min_size: 10
    align: center
    valign: middle
    color: "#f0e6cf"
  - text: "{{ strings.back }}"
    box: [6, 48, 51, 6]
    font: sans
    size: 9
    align: center
    color: "#f0e6cf"
  - text: "{{ game.attribution }}"
    name: attribution
    box: [6, 74, 51, 8]
    font: sans
    size: 6
    min_size: 4
    align: center
    valign: bottom
    color: "#f0e6cf"
"""

RULES_MD = """\
*{title}: a card game for 2-4 players, about 15 minutes.*

# Components {{#components}}

- {{{{ total(cards) }}}} cards (see `cards.yaml`): suits Sun and Moon, values 1 to 9.

# Set-up {{#setup}}

Shuffle the deck and deal five cards to each player.

# Playing {{#playing}}

On your turn, play one [card]{{.index}} and do what it says; the game ends as [](#end) says.

::: example
Ann plays *Dawn* and draws a card.
:::

# End of the game {{#end}}

Write how the game ends and who wins.
"""


def title_from_name(name: str) -> str:
    """A readable default title from a folder name: 'my-game' -> 'My Game'."""
    words = re.split(r"[-_\s]+", name.strip())
    return " ".join(w[:1].upper() + w[1:] for w in words if w) or name


def files(title: str, lang: str) -> dict[str, str]:
    """The scaffold's files by relative path."""
    return {
        "game.yaml": GAME_YAML.format(title=_yaml_text(title), attribution=_yaml_text(f"{title} © Your Name.", plain=False), lang=lang),
        "rules.yaml": RULES_YAML,
        "cards.yaml": CARDS_YAML,
        "layouts/card.yaml": CARD_LAYOUT,
        "layouts/back.yaml": BACK_LAYOUT,
        "rules.md": RULES_MD.format(title=title),
    }


def _yaml_text(text: str, plain: bool = True) -> str:
    """`text` as a YAML plain scalar when that is safe, else double-quoted (JSON is YAML)."""
    if plain and re.fullmatch(r"[^\W_][\w '.!-]*", text) and not text.endswith(" "):
        return text
    return json.dumps(text, ensure_ascii=False)


def create(target: Path, title: str | None = None, lang: str = "en", translation: str | None = "de") -> Path:
    """Write a new game folder at `target`; raises PnpError if it exists (and is not
    empty) or the languages are not language codes."""
    named = display_path(target)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise fail(Location(named), "new-exists", f"'{named}' already exists; expected a new folder name (pnp new never overwrites)")
    for code in (lang, translation):
        if code is not None and not LANGUAGE.fullmatch(code):
            raise fail(Location(named), "new-language", f"'{code}' is not a language code; expected a code such as en, de, sk or pt_BR")
    if translation == lang:
        raise fail(Location(named), "new-language", f"the translation language '{translation}' is the source language; expected another one")
    made = _missing_folders(target.parent)
    staging: Path | None = None
    done = False
    try:
        for folder in made:
            folder.mkdir()
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".new", dir=target.parent))
        for rel, text in files(title or title_from_name(target.name), lang).items():
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        if translation:
            _catalogues(staging, target, translation)
        os.chmod(staging, 0o777 & ~_umask())  # mkdtemp makes it private; a game folder is ordinary
        with holding_signals():  # a signal now lets the folder come whole into place
            os.replace(staging, target)  # also replaces an empty folder
            done = True
    except OSError as exc:  # a full disk, a folder that cannot be made: said at the game folder, not its temporary name
        raise output_problem(exc, target) from None
    finally:  # a failure or a signal: no trace of the game, nor of the folders made for it
        if staging is not None and not done:
            shutil.rmtree(staging, ignore_errors=True)
        for folder in reversed(made) if not done else []:
            try:
                folder.rmdir()
            except OSError:
                pass
    return target


def _missing_folders(folder: Path) -> list[Path]:
    """The folders to make for `folder` to exist, outermost first."""
    missing = []
    while not folder.exists():
        missing.insert(0, folder)
        folder = folder.parent
    return missing


def _catalogues(folder: Path, target: Path, lang: str) -> None:
    """The template and an empty catalogue for `lang`, by the same code as `pnp i18n update`,
    in the temporary `folder`; what fails is said at the game folder `target` (the user
    never sees the temporary name)."""
    from pnp.i18n.catalogues import update
    from pnp.load.game import load_game
    from pnp.project.edition import read_originals

    game, _ = load_game(folder)
    try:
        update(game, read_originals(game, rulebooks=False).entries, add=[lang])
    except PnpError as err:
        staged, named = shown(folder), shown(target)  # as output problems name files
        moved = [replace(p, location=replace(p.location, file=named + p.location.file.removeprefix(staged))) for p in err.problems.items]
        raise PnpError(Problems(moved)) from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
