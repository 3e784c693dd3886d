"""Write a synthetic game of N cards for benchmarks: `python bench/make_deck.py N DIR`.

Each card has a title, a hyphenated Central European paragraph with inline symbols, and
one art image shared by all cards; the deck has a back. `pnp build DIR` builds it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw

WORDS = (
    "hráč získa všetky ostatné vyložené mestá z rovnakého impéria od iných hráčov každý stráca jedno hlavné "
    "mesto a dve bežné mestá podľa vlastného výberu příliš žluťoučký kůň úpěl ďábelské ódy łódź źdźbło "
    "ľudia ôsmy ťava ďateľ ňufák"
).split()
SYMBOL = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100"><circle cx="50" cy="50" r="46" fill="{color}"/></svg>\n'

GAME = """\
title: Benchmark
language: sk
decks:
  cards: {type: card, data: cards.yaml, front: card, back: back}
"""
RULES = """\
types:
  card:
    fields:
      title: {type: text}
      text: {type: text}
"""
LAYOUT = """\
size: [63, 88]
styles:
  title: {font: serif-bold, size: 13, min_size: 8, align: center, valign: middle}
  body: {font: sans, size: 9, min_size: 6, align: justify, valign: top}
elements:
  - rect: [2, 2, 59, 84]
    stroke: "#333333"
    radius: 2
  - image: art.png
    box: [4, 16, 55, 30]
  - text: "{{ title }}"
    box: [4, 4, 55, 11]
    style: title
  - text: "{{ text }}"
    box: [5, 48, 53, 36]
    style: body
"""
BACK = """\
size: [63, 88]
elements:
  - rect: [0, 0, 63, 88]
    fill: "#2f4f6f"
  - text: "{{ game.title }}"
    box: [5, 35, 53, 18]
    font: serif-bold
    size: 18
    color: "#ffffff"
    align: center
    valign: middle
"""


def paragraph(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(25, 40))]
    for _ in range(2):
        words.insert(rng.randrange(len(words)), rng.choice([":sun:", ":moon:"]))
    return " ".join(words).capitalize() + "."


def make(n: int, folder: Path) -> None:
    rng = random.Random(n)  # same N, same deck
    (folder / "layouts").mkdir(parents=True, exist_ok=True)
    (folder / "symbols").mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "rules.yaml").write_text(RULES, encoding="utf-8")
    (folder / "layouts" / "card.yaml").write_text(LAYOUT, encoding="utf-8")
    (folder / "layouts" / "back.yaml").write_text(BACK, encoding="utf-8")
    (folder / "symbols" / "sun.svg").write_text(SYMBOL.format(color="#e0a020"), encoding="utf-8")
    (folder / "symbols" / "moon.svg").write_text(SYMBOL.format(color="#4060a0"), encoding="utf-8")
    art = Image.new("RGB", (640, 350), "#d8c7a3")
    draw = ImageDraw.Draw(art)
    for i in range(0, 640, 40):
        draw.line([(i, 0), (640 - i, 350)], fill="#7a5c2e", width=3)
    art.save(folder / "art.png")
    with (folder / "cards.yaml").open("w", encoding="utf-8") as out:
        for i in range(n):
            title = f"{rng.choice(WORDS).capitalize()} {i}"
            out.write(f'- id: c{i}\n  title: {title}\n  text: "{paragraph(rng)}"\n')


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python bench/make_deck.py N DIR")
    make(int(sys.argv[1]), Path(sys.argv[2]))
