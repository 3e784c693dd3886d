"""Small games that tests of several packages build: a game with a rulebook of two modes
(and its translation), a deck folded on one page, decks of tokens."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from babel.messages.pofile import read_po, write_po
from conftest import make_small_game, run
from pypdf import PdfReader

from pnp.base.paths import DEFAULT_GAME

RULEBOOK_GAME = """\
title: Hra
language: sk
decks:
  cards: {type: card, data: cards.yaml, front: basic/card, back: basic/back}
strings:
  back: Karta
rulebooks:
  rules:
    title: Pravidlá
    files: [rules/01-goal.md, rules/02-turn.md]
    modes: [basic, solo]
    facts:
      - words: "kariet|karty"
        value: "{{ cards | length }}"
"""


RULEBOOK_RULES = """\
types:
  card:
    fields:
      title: {type: text}
      text: {type: text, required: false}
"""


RULEBOOK_CARDS = "".join(f"- {{id: c{i}, title: Karta {i}, text: Hráč získa mesto.}}\n" for i in range(1, 6))


FILLER = (
    "Hráči sa striedajú v smere hodinových ručičiek a každý vo svojom ťahu vykoná práve jednu akciu, "
    "ktorú si vyberie z ponuky na stole; potom doplní ruku z balíčka a hra pokračuje ďalším hráčom. "
)


GOAL = f"""\
# Cieľ hry {{#goal}}

Hra má {{{{ cards | length }}}} kariet. Každá [karta]{{.index}} má symbol :div: v rohu.

{(FILLER * 3 + chr(10) + chr(10)) * 14}
::: example
Hráč zahrá kartu :div: a získa **dva body**.
:::

::: only solo
Sólová hra: hráš proti balíčku.
:::

::: except solo
Hra pre viacerých hráčov.
:::

## Príprava {{#setup}}

Zamiešaj všetkých {{{{ cards | length }}}} kariet.

| Karta | Text |
|---|---|
{{% for c in cards %}}
| {{{{ c.title }}}} | {{{{ c.text }}}} |
{{% endfor %}}
"""


TURN = f"""\
# Priebeh hry

{(FILLER * 3 + chr(10) + chr(10)) * 10}
## Ťah hráča {{#turn}}

Ťah opisuje táto kapitola; pozri aj [](#setup) a [prípravu](#setup).

1. Potiahni [kartu]{{.index term="karta"}}.
2. Zahraj ju.

![](card:cards/c1)

{(FILLER * 3 + chr(10) + chr(10)) * 8}
Na konci hry sa pozri na [bodovanie]{{.index}} a [](#turn).
"""


def make_game(folder: Path, goal: str = GOAL, turn: str = TURN, cards: str = RULEBOOK_CARDS) -> Path:
    (folder / "rules").mkdir(parents=True)
    (folder / "symbols").mkdir()
    shutil.copy(DEFAULT_GAME / "symbols" / "div.svg", folder / "symbols" / "div.svg")
    (folder / "game.yaml").write_text(RULEBOOK_GAME, encoding="utf-8")
    (folder / "rules.yaml").write_text(RULEBOOK_RULES, encoding="utf-8")
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    (folder / "rules" / "01-goal.md").write_text(goal, encoding="utf-8")
    (folder / "rules" / "02-turn.md").write_text(turn, encoding="utf-8")
    return folder


def build_book(game: Path, *args: str) -> Path:
    out = game.parent / "out"
    result = run("build", game, "--out", out, *args)
    assert result.exit_code == 0, result.output
    return out / game.name


def pages_text(path: Path) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(str(path)).pages]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00a0", " "))


TRANSLATED = {
    "Pravidlá": "Rules",
    "# Cieľ hry {#goal}": "# Goal of the game {#goal}",
    "Zamiešaj všetkých {{ cards | length }} kariet.": "Shuffle all {{ cards | length }} cards.",
    "## Príprava {#setup}": "## Set-up {#setup}",
}


def catalogue(path: Path):
    with path.open("rb") as handle:
        return read_po(handle)


def translate_all(po: Path) -> None:
    """A translator's work: the blocks above in English, everything else copied."""
    catalog = catalogue(po)
    for message in catalog:
        if message.id:
            message.string = TRANSLATED.get(message.id, message.id)
            message.flags.discard("fuzzy")
    with po.open("wb") as handle:
        write_po(handle, catalog, width=0)


FOLD_FRONT = """\
size: [{w}, {h}]
elements:
  - text: "{{{{ title }}}}"
    box: [3, 3, {inner}, 8]
"""


FOLD_BACK = """\
size: [{w}, {h}]
elements:
  - text: "Z{{{{ title }}}}"
    box: [3, 3, {inner}, 8]
  - text: "FOOT"
    box: [3, {foot}, {inner}, 8]
"""


def fold_game(tmp_path: Path, w: float, h: float, cards: int = 11) -> Path:
    folder = make_small_game(tmp_path / "hra", "".join(f"- {{id: c{i}, title: K{i}}}\n" for i in range(cards)))
    (folder / "layouts").mkdir()
    (folder / "layouts" / "front.yaml").write_text(FOLD_FRONT.format(w=w, h=h, inner=w - 6), encoding="utf-8")
    (folder / "layouts" / "back.yaml").write_text(FOLD_BACK.format(w=w, h=h, foot=h - 11, inner=w - 6), encoding="utf-8")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("front: basic/card, back: basic/back", "front: front, back: back"), encoding="utf-8")
    return folder


TOKEN_GAME = """\
title: Žetóny
language: sk
attribution: Test.
decks:
{decks}
"""


TOKEN_RULES = """\
types:
  token:
    fields:
      value: {type: int}
"""


TOKENS = """\
- {id: one, value: 1, copies: 7}
- {id: five, value: 5, copies: 3}
"""


def token_layout(size: tuple[float, float], shape: str | None, fill: str = "#e8c547") -> str:
    w, h = size
    head = f"size: [{w}, {h}]\n" + (f"shape: {shape}\n" if shape else "")
    return (
        head
        + "elements:\n"
        + f"  - rect: [-3, -3, {w + 6}, {h + 6}]\n    fill: '{fill}'\n"
        + f"  - text: '{{{{ value }}}}'\n    box: [{w / 4}, {h / 4}, {w / 2}, {h / 2}]\n    size: 12\n    align: center\n    valign: middle\n"
    )


def make_tokens(folder: Path, decks: dict[str, tuple[tuple[float, float], str | None, bool]]) -> Path:
    """A game with one token deck per entry: id -> (size, shape, with a back)."""
    (folder / "layouts").mkdir(parents=True)
    lines = []
    for deck, (size, shape, back) in decks.items():
        (folder / "layouts" / f"{deck}.yaml").write_text(token_layout(size, shape), encoding="utf-8")
        entry = f"  {deck}: {{type: token, data: {deck}.yaml, front: {deck}"
        if back:
            (folder / "layouts" / f"{deck}-back.yaml").write_text(token_layout(size, shape, "#7a5c00").replace("{{ value }}", "Ž"), encoding="utf-8")
            entry += f", back: {deck}-back"
        lines.append(entry + "}")
        (folder / f"{deck}.yaml").write_text(TOKENS.replace("id: one", f"id: {deck}-one").replace("id: five", f"id: {deck}-five"), encoding="utf-8")
    (folder / "game.yaml").write_text(TOKEN_GAME.format(decks="\n".join(lines)), encoding="utf-8")
    (folder / "rules.yaml").write_text(TOKEN_RULES, encoding="utf-8")
    return folder


def group(game: Path, decks: dict[str, str]) -> None:
    """Put decks into groups: deck id -> group name."""
    text = (game / "game.yaml").read_text(encoding="utf-8")
    for deck, name in decks.items():
        text = text.replace(f"front: {deck}", f"group: {name}, front: {deck}")
    (game / "game.yaml").write_text(text, encoding="utf-8")


def signal_on_first_move(monkeypatch) -> list:
    """SIGTERM to this process as an output's first file is moved into place (os.replace in
    pnp.base.output), the move then done as usual; returns the list of the files moved."""
    import os
    import signal

    import pnp.base.output

    real, moved = pnp.base.output.os.replace, []

    def replace(src, dst):
        if not moved:
            os.kill(os.getpid(), signal.SIGTERM)
        moved.append(dst)
        real(src, dst)

    monkeypatch.setattr(pnp.base.output.os, "replace", replace)
    return moved


def loads_jinja(script: str) -> bool:
    """Whether Python importing pnp from this checkout and running `script` (its asserts
    pass) ends with Jinja imported: a fresh process, as a build starts."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    probe = script + "\nimport sys\nprint('jinja2' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=root, env={"PYTHONPATH": str(root)}, check=True)
    return done.stdout.strip() == "True"


def instances_of(monkeypatch, module: object, name: str) -> list:
    """Every instance of the class `module.name` made from now on, in the order they are
    made (the class is replaced by a subclass that keeps them): a budget of steps, say."""
    made: list = []
    base = getattr(module, name)

    class Kept(base):  # type: ignore[misc, valid-type]
        __slots__ = ()

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(module, name, Kept)
    return made
