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
from dataclasses import dataclass, replace
from pathlib import Path

from pnp.base.errors import Location, PnpError, Problems, display_path, fail
from pnp.base.output import output_problem, shown, sweep
from pnp.base.signals import holding_signals
from pnp.check.starter import RULES_TO_WRITE
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
    name: {deck}
    type: card            # a type declared in rules.yaml
    data: cards.yaml      # or cards.csv / cards.xlsx: one row per card
    front: card           # layouts/card.yaml
    back: back            # layouts/back.yaml

# Texts the layouts print that are not card data (translated like everything else).
strings:
  back: {back}

# The rulebook: Markdown files in order, printed with numbered headings, contents, index
# and an A5 booklet; checked against the cards (docs/rulebook.md in the pnp repository).
rulebooks:
  rules:
    title: {rulebook}
    files: [rules.md]
    facts:                  # a number written by hand before {facts_shown} must be the deck's size ("5 {facts_first}")
      - words: {facts}
        value: "{{{{ total(cards) }}}}"
"""

RULES_YAML = """\
# The rules model: enumerations, the types of component and their fields, and the
# constraints `pnp check` holds the cards to. The reference: docs/rules.md.
enums:
  suit:
    sun: {{name: {sun}, color: "#c77c0e"}}
    moon: {{name: {moon}, color: "#3b5ba5"}}

types:
  card:
    fields:
      title: {{type: text}}
      suit: {{type: enum, enum: suit}}
      value: {{type: int, min: 1, max: 9}}
      text: {{type: text, required: false}}

constraints:
  - id: unique-titles
    message: {duplicate}
    type: card
    unique: title
"""

CARDS_YAML = """\
# One entry per distinct card; `copies: N` prints it N times. The reference: docs/cards.md.
- id: dawn
  title: {dawn}
  suit: sun
  value: 1
  text: {dawn_text}

- id: noon
  title: {noon}
  suit: sun
  value: 5
  copies: 2
  text: {noon_text}

- id: dusk
  title: {dusk}
  suit: moon
  value: 3
  text: {dusk_text}

- id: midnight
  title: {midnight}
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
  - rect: [-4, -4, 71, 96]        # the background runs 4 mm into the bleed: a print shop asks 1/8 in (3.2 mm), build --bleed 3
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
  - rect: [-4, -4, 71, 96]        # into the bleed, as the front's
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


@dataclass(frozen=True)
class StarterText:
    """The starter game's texts in one language: the cards, the names, the rulebook."""

    sun: str
    moon: str
    cards: tuple[tuple[str, str], ...]  # (title, text) of dawn, noon, dusk, midnight ("" for no text)
    deck: str  # the deck's name
    back: str  # strings.back, printed on the card backs
    rulebook: str  # the rulebook's title
    duplicate: str  # the message of the constraint unique-titles
    facts: tuple[str, ...]  # the words a count of the cards comes before in the rulebook
    rules: str  # rules.md: {title}, {total} (the count), and RULES_TO_WRITE at its end


STARTERS: dict[str, StarterText] = {
    "en": StarterText(
        "Sun",
        "Moon",
        (("Dawn", "Draw a card."), ("Noon", "Play **two** cards this turn."), ("Dusk", "Every other player discards a card."), ("Midnight", "")),
        "Cards",
        "Play card",
        "Rules",
        "Two cards have the same title.",
        ("cards",),
        """\
*{title}: a card game for 2-4 players, about 15 minutes.*

# Components {{#components}}

- {total} cards (see `cards.yaml`): suits Sun and Moon, values 1 to 9.

# Set-up {{#setup}}

Shuffle the deck and deal five cards to each player.

# Playing {{#playing}}

On your turn, play one [card]{{.index}} and do what it says; the game ends as [](#end) says.

::: example
Ann plays *Dawn* and draws a card.
:::

# End of the game {{#end}}

{end}
""",
    ),
    "sk": StarterText(
        "Slnko",
        "Mesiac",
        (
            ("Úsvit", "Potiahni si kartu."),
            ("Poludnie", "V tomto ťahu zahraj **dve** karty."),
            ("Súmrak", "Všetci ostatní hráči odhodia po jednej karte."),
            ("Polnoc", ""),
        ),
        "Karty",
        "Hracia karta",
        "Pravidlá",
        "Dve karty majú rovnaký názov.",
        ("kariet", "karty", "karta"),
        """\
*{title}: kartová hra pre 2 až 4 hráčov, asi na 15 minút.*

# Komponenty {{#components}}

- {total} kariet (pozri `cards.yaml`): farby Slnko a Mesiac, hodnoty 1 až 9.

# Príprava {{#setup}}

Zamiešaj balíček a každému hráčovi rozdaj päť kariet.

# Priebeh hry {{#playing}}

Vo svojom ťahu zahraj jednu [kartu]{{.index term="karta"}} a urob, čo na nej stojí. Kedy sa hra skončí, opisuje kapitola [](#end).

::: example
Anna zahrá *Úsvit* a potiahne si kartu.
:::

# Koniec hry {{#end}}

{end}
""",
    ),
    "cs": StarterText(
        "Slunce",
        "Měsíc",
        (
            ("Úsvit", "Dober si kartu."),
            ("Poledne", "V tomto tahu zahraj **dvě** karty."),
            ("Soumrak", "Všichni ostatní hráči odhodí po jedné kartě."),
            ("Půlnoc", ""),
        ),
        "Karty",
        "Hrací karta",
        "Pravidla",
        "Dvě karty mají stejný název.",
        ("karet", "karty", "karta"),
        """\
*{title}: karetní hra pro 2 až 4 hráče, asi na 15 minut.*

# Komponenty {{#components}}

- {total} karet (viz `cards.yaml`): barvy Slunce a Měsíc, hodnoty 1 až 9.

# Příprava {{#setup}}

Zamíchej balíček a každému hráči rozdej pět karet.

# Průběh hry {{#playing}}

Ve svém tahu zahraj jednu [kartu]{{.index term="karta"}} a udělej, co na ní stojí. Kdy hra skončí, popisuje kapitola [](#end).

::: example
Anna zahraje *Úsvit* a dobere si kartu.
:::

# Konec hry {{#end}}

{end}
""",
    ),
    "de": StarterText(
        "Sonne",
        "Mond",
        (
            ("Morgenrot", "Ziehe eine Karte."),
            ("Mittag", "Spiele in diesem Zug **zwei** Karten."),
            ("Dämmerung", "Alle anderen Spieler werfen je eine Karte ab."),
            ("Mitternacht", ""),
        ),
        "Karten",
        "Spielkarte",
        "Spielregeln",
        "Zwei Karten haben denselben Titel.",
        ("Karten", "Karte"),
        """\
*{title}: ein Kartenspiel für 2 bis 4 Spieler, etwa 15 Minuten.*

# Spielmaterial {{#components}}

- {total} Karten (siehe `cards.yaml`): die Farben Sonne und Mond, Werte 1 bis 9.

# Vorbereitung {{#setup}}

Mische den Stapel und gib jedem Spieler fünf Karten.

# Spielablauf {{#playing}}

Spiele in deinem Zug eine [Karte]{{.index}} und führe aus, was darauf steht. Wann das Spiel endet, beschreibt Abschnitt [](#end).

::: example
Anna spielt *Morgenrot* und zieht eine Karte.
:::

# Spielende {{#end}}

{end}
""",
    ),
    "pl": StarterText(
        "Słońce",
        "Księżyc",
        (
            ("Świt", "Dobierz kartę."),
            ("Południe", "W tej turze zagraj **dwie** karty."),
            ("Zmierzch", "Każdy z pozostałych graczy odrzuca jedną kartę."),
            ("Północ", ""),
        ),
        "Karty",
        "Karta do gry",
        "Zasady gry",
        "Dwie karty mają ten sam tytuł.",
        ("kart", "karty", "karta"),
        """\
*{title}: gra karciana dla 2–4 graczy, około 15 minut.*

# Elementy gry {{#components}}

- {total} kart (zob. `cards.yaml`): kolory Słońce i Księżyc, wartości od 1 do 9.

# Przygotowanie {{#setup}}

Potasuj talię i rozdaj każdemu graczowi pięć kart.

# Przebieg gry {{#playing}}

W swojej turze zagraj jedną [kartę]{{.index term="karta"}} i wykonaj jej polecenie. Kiedy gra się kończy, opisuje rozdział [](#end).

::: example
Anna zagrywa *Świt* i dobiera kartę.
:::

# Koniec gry {{#end}}

{end}
""",
    ),
    "fr": StarterText(
        "Soleil",
        "Lune",
        (
            ("Aube", "Piochez une carte."),
            ("Midi", "Jouez **deux** cartes ce tour-ci."),
            ("Crépuscule", "Chaque autre joueur défausse une carte."),
            ("Minuit", ""),
        ),
        "Cartes",
        "Carte à jouer",
        "Règles du jeu",
        "Deux cartes ont le même titre.",
        ("cartes", "carte"),
        """\
*{title}\u00a0: un jeu de cartes pour 2 à 4 joueurs, environ 15 minutes.*

# Matériel {{#components}}

- {total} cartes (voir `cards.yaml`)\u00a0: couleurs Soleil et Lune, valeurs de 1 à 9.

# Mise en place {{#setup}}

Mélangez le paquet et distribuez cinq cartes à chaque joueur.

# Déroulement {{#playing}}

À votre tour, jouez une [carte]{{.index}} et appliquez son effet. La fin de la partie est décrite à la section [](#end).

::: example
Anne joue *Aube* et pioche une carte.
:::

# Fin de la partie {{#end}}

{end}
""",
    ),
}
SOURCE = "en"  # the language of the starter text for a language that has none


def title_from_name(name: str) -> str:
    """A readable default title from a folder name: 'my-game' -> 'My Game'."""
    words = re.split(r"[-_\s]+", name.strip())
    return " ".join(w[:1].upper() + w[1:] for w in words if w) or name


def starter_language(lang: str) -> str | None:
    """The language of the starter text pnp writes for a game in `lang` (sk_SK: sk), or None when it has none."""
    base = lang.replace("-", "_").split("_")[0]
    return base if base in STARTERS else None


def files(title: str, lang: str) -> dict[str, str]:
    """The scaffold's files by relative path, their texts in `lang` (which has starter text)."""
    text = STARTERS[starter_language(lang) or SOURCE]
    cards = dict(zip(("dawn", "noon", "dusk", "midnight"), text.cards))
    names = {key: _yaml_text(name) for key, (name, _) in cards.items()}
    names |= {f"{key}_text": _yaml_text(body) for key, (_, body) in cards.items() if body}
    words = "|".join(text.facts)
    return {
        "game.yaml": GAME_YAML.format(
            title=_yaml_text(title),
            attribution=_yaml_text(f"{title} © Your Name.", plain=False),
            lang=lang,
            deck=_yaml_text(text.deck),
            back=_yaml_text(text.back),
            rulebook=_yaml_text(text.rulebook),
            facts=_yaml_text(words),
            facts_shown=" or ".join(f"'{word}'" for word in text.facts),
            facts_first=text.facts[0],
        ),
        "rules.yaml": RULES_YAML.format(sun=_yaml_text(text.sun), moon=_yaml_text(text.moon), duplicate=_yaml_text(text.duplicate)),
        "cards.yaml": CARDS_YAML.format(**names),
        "layouts/card.yaml": CARD_LAYOUT,
        "layouts/back.yaml": BACK_LAYOUT,
        "rules.md": text.rules.format(title=title, total="{{ total(cards) }}", end=RULES_TO_WRITE[starter_language(lang) or SOURCE]),
    }


def _yaml_text(text: str, plain: bool = True) -> str:
    """`text` as a YAML plain scalar when that is safe (it starts with a letter, holds no
    ': ' or ' #', and is not a word YAML reads as true, false or null), else double-quoted
    (JSON is YAML)."""
    if (
        plain
        and re.fullmatch(r"[^\W\d_][\w '.,!?*()\u2013-]*", text)
        and not text.endswith(" ")
        and not re.fullmatch(r"(?i)y|n|yes|no|true|false|on|off|null", text)
    ):
        return text
    return json.dumps(text, ensure_ascii=False)


def create(target: Path, title: str | None = None, lang: str = "en", translation: str | None = "de") -> Path:
    """Write a new game folder at `target`; raises PnpError if it exists (and is not
    empty) or the languages are not language codes. A language pnp has no starter text
    in (`starter_language`) gets the English text, declared as English, and a catalogue
    to translate it into that language (`untranslated_note` says so)."""
    named = display_path(target)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise fail(Location(named), "new-exists", f"'{named}' already exists; expected a new folder name (pnp new never overwrites)")
    for code in (lang, translation):
        if code is not None and not LANGUAGE.fullmatch(code):
            raise fail(Location(named), "new-language", f"'{code}' is not a language code; expected a code such as en, de, sk or pt_BR")
    if translation == lang:
        raise fail(Location(named), "new-language", f"the translation language '{translation}' is the source language; expected another one")
    source = lang if starter_language(lang) else SOURCE
    catalogues = sorted({code for code in (lang, translation) if code and code != source})
    made = _missing_folders(target.parent)
    staging: Path | None = None
    done = False
    try:
        for folder in made:
            folder.mkdir()
        sweep(target.parent)  # what a killed `pnp new` left here
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent))  # named as sweep() knows
        for rel, text in files(title or title_from_name(target.name), source).items():
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        if catalogues:
            _catalogues(staging, target, catalogues)
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


def untranslated_note(lang: str) -> str | None:
    """What `pnp new --lang LANG` says when pnp has no starter text in LANG; None when it has."""
    if starter_language(lang):
        return None
    return (
        f"pnp has no starter text in '{lang}': the texts are English and game.yaml says 'language: {SOURCE}'; "
        f"translate them in locale/{lang}.po (pnp build --lang {lang}), or write them in '{lang}' yourself and set 'language: {lang}'"
    )


def _missing_folders(folder: Path) -> list[Path]:
    """The folders to make for `folder` to exist, outermost first."""
    missing = []
    while not folder.exists():
        missing.insert(0, folder)
        folder = folder.parent
    return missing


def _catalogues(folder: Path, target: Path, langs: list[str]) -> None:
    """The template and an empty catalogue for each of `langs`, by the same code as `pnp
    i18n update`, in the temporary `folder`; what fails is said at the game folder
    `target` (the user never sees the temporary name)."""
    from pnp.i18n.catalogues import update
    from pnp.load.game import load_game
    from pnp.project.edition import read_originals

    game, _ = load_game(folder)
    try:
        update(game, read_originals(game, rulebooks=False).entries, add=langs)
    except PnpError as err:
        staged, named = shown(folder), shown(target)  # as output problems name files
        moved = [replace(p, location=replace(p.location, file=named + p.location.file.removeprefix(staged))) for p in err.problems.items]
        raise PnpError(Problems(moved)) from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
