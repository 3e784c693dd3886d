"""`pnp i18n status` and `pnp list` say how much is translated honestly: an entry that is
fuzzy, empty, a plural with a form left empty, or obsolete is not done, and what is left
is never rounded away into 100 %."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import edit, make_small_game, run

PLURAL = "{% plural 3 %}{{ n }} mesto{% pluralform %}{{ n }} mestá{% pluralform %}{{ n }} miest{% endplural %}"
CARDS = "".join(f"- {{id: c{i}, title: Karta {i}}}\n" for i in range(400))


@pytest.fixture
def translated(tmp_path: Path) -> Path:
    """A game of 407 strings (400 card titles, a plural), translated to Czech in full."""
    game = make_small_game(tmp_path / "hra", CARDS)
    edit(game / "game.yaml", "  back: Karta\n", f'  back: Karta\n  cities: "{PLURAL}"\n')
    run("i18n", "update", game, "--add", "cs")
    po = game / "locale" / "cs.po"
    text = re.sub(r'^(msgid "(.+)"\nmsgstr )""$', r'\1"CS \2"', po.read_text(encoding="utf-8"), flags=re.M)
    text = re.sub(r'^msgstr\[(\d)\] ""$', r'msgstr[\1] "{{ n }} mest \1"', text, flags=re.M)
    po.write_text(text, encoding="utf-8")
    assert "cs: 407/407 translated (100 %), 0 fuzzy, 0 missing" in run("i18n", "status", game).output
    return game


@pytest.mark.parametrize(
    ("old", "new", "left"),
    [
        ('msgctxt "c7.title"', '#, fuzzy\nmsgctxt "c7.title"', "1 fuzzy, 0 missing\n  fuzzy: c7.title"),
        ('msgstr "CS Karta 7"', 'msgstr ""', "0 fuzzy, 1 missing\n  missing: c7.title"),
        ('msgstr[2] "{{ n }} mest 2"', 'msgstr[2] ""', "0 fuzzy, 1 missing\n  missing: plural"),
        (
            'msgctxt "c7.title"\nmsgid "Karta 7"\nmsgstr "CS Karta 7"',
            '#~ msgctxt "c7.title"\n#~ msgid "Karta 7"\n#~ msgstr "CS Karta 7"',
            "0 fuzzy, 1 missing\n  missing: c7.title",
        ),
    ],
    ids=["fuzzy", "empty", "a plural form empty", "obsolete"],
)
def test_an_entry_left_to_do_is_not_done_and_not_rounded_into_100_percent(translated, old, new, left):
    edit(translated / "locale" / "cs.po", old, new)
    status = run("i18n", "status", translated)
    assert status.exit_code == 0, status.output
    assert f"cs: 406/407 translated (99 %), {left}" in status.output
    listing = run("list", translated)
    assert "cs  99 % translated (406/407)" in listing.output
    data = json.loads(run("list", translated, "--format", "json").output)
    assert [row["percent"] for row in data["languages"] if row["lang"] == "cs"] == [99.7]  # 99.75, rounded down


def test_a_little_done_is_not_nothing(tmp_path: Path):
    game = make_small_game(tmp_path / "hra", CARDS)
    run("i18n", "update", game, "--add", "cs")
    edit(game / "locale" / "cs.po", 'msgid "Karta 7"\nmsgstr ""', 'msgid "Karta 7"\nmsgstr "CS Karta 7"')
    assert "cs: 1/405 translated (0.2 %), 0 fuzzy, 404 missing" in run("i18n", "status", game).output
