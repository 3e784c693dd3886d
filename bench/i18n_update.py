"""`pnp i18n update` after a rulebook was reworded: `python bench/i18n_update.py [--paragraphs 250,500,1000]`.

For each size: a game (bench/make_deck.py's deck, with one rulebook of that many
paragraphs), `pnp i18n update --add en` run once and every entry translated (untimed),
then one word changed in every paragraph and `pnp i18n update` run in this process, timed
(CPU seconds). Each reworded paragraph becomes a fuzzy entry, matched against the old
entries: the time should grow about linearly with the paragraphs (the ratio column: time
per paragraph against the smallest size's), not with their square."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from make_deck import make  # noqa: E402

WORDS = "hráč potiahne kartu z balíčka a zahrá ju na stôl pred seba".split()


def paragraph(i: int, word: str) -> str:
    """A paragraph unlike its neighbours (its number and a rotation of the words), with `word` in it."""
    turned = WORDS[i % len(WORDS) :] + WORDS[: i % len(WORDS)]
    return f"Odsek {i}: {word} " + " ".join(turned) + f", potom ďalší ťah číslo {i * 7 % 101}."


def game(folder: Path, paragraphs: int, word: str) -> Path:
    make(4, folder)
    (folder / "rules").mkdir(exist_ok=True)
    (folder / "rules" / "rules.md").write_text("# Pravidlá\n\n" + "\n\n".join(paragraph(i, word) for i in range(paragraphs)) + "\n", encoding="utf-8")
    with (folder / "game.yaml").open("a", encoding="utf-8") as handle:
        handle.write("rulebooks:\n  rules:\n    title: Pravidlá\n    files: [rules/rules.md]\n")
    return folder


def update(folder: Path, *more: str) -> tuple[float, str]:
    from click.testing import CliRunner

    from pnp.cli import main

    start = time.process_time()
    result = CliRunner().invoke(main, ["i18n", "update", str(folder), *more])
    spent = time.process_time() - start
    if result.exit_code != 0:
        raise SystemExit(result.output)
    return spent, result.output.strip().splitlines()[-1]


def translate(po: Path) -> None:
    from babel.messages.pofile import read_po, write_po

    with po.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if message.id:
            message.string = message.id
            message.flags.discard("fuzzy")
    with po.open("wb") as handle:
        write_po(handle, catalog, width=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paragraphs", default="250,500,1000")
    args = parser.parse_args()
    sizes = [int(n) for n in args.paragraphs.split(",")]
    print(f"{'paragraphs':>10} {'update s':>9} {'per 1,000':>10} {'ratio':>6}  pnp says")
    first = None
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = game(Path(tmp) / "deck", size, "rýchlo")
            update(folder, "--add", "en")
            translate(folder / "locale" / "en.po")
            game_text = (folder / "rules" / "rules.md").read_text(encoding="utf-8")
            (folder / "rules" / "rules.md").write_text(game_text.replace(": rýchlo ", ": pomaly "), encoding="utf-8")
            spent, said = update(folder)
        per = spent / size * 1000
        first = first or per
        print(f"{size:>10,} {spent:>9.2f} {per:>10.2f} {per / first:>6.2f}  {said}")


if __name__ == "__main__":
    main()
