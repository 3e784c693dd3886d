"""Round trips: a catalogue a translator's tool wrote (msgmerge's wrapping, Poedit's
headers) survives `pnp i18n update` byte for byte, and only changed entries change."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import edit, make_small_game, run

LONG = "Hráč, ktorý má najviac miest s divmi sveta, získava na konci hry jeden bod navyše a môže si vybrať ďalšiu kartu udalostí z kôpky."
CARDS = f"""\
- {{id: a, title: Prvá, text: "{LONG}", color: red}}
- {{id: b, title: Druhá, text: Hráč stráca mesto.}}
- {{id: c, title: Tretia, text: "Zisk 50 % a {{{{ x }}}} z kôpky."}}
"""

needs_gettext = pytest.mark.skipif(not shutil.which("msgmerge"), reason="msgmerge (GNU gettext) is not installed; .ci/run installs it")


def translated_game(tmp_path: Path) -> Path:
    game = make_small_game(tmp_path / "hra", CARDS)
    assert run("i18n", "update", game, "--add", "cs", "--add", "en").exit_code == 0
    for lang in ("cs", "en"):
        path = game / "locale" / f"{lang}.po"
        lines = path.read_text(encoding="utf-8").split("\n")
        for i, line in enumerate(lines):
            if line == 'msgstr ""' and lines[i - 1].startswith("msgid ") and lines[i - 1] != 'msgid ""':
                lines[i] = f'msgstr "{lang.upper()} {lines[i - 1][7:-1]} {LONG}"'  # long: msgmerge wraps it
        path.write_text("\n".join(lines), encoding="utf-8")
    return game


def poedit(path: Path) -> None:
    """What saving in Poedit does to a header: its generator, its own fields, a revision date."""
    text = path.read_text(encoding="utf-8")
    text = text.replace('"PO-Revision-Date: 2000-01-01 00:00+0000\\n"', '"PO-Revision-Date: 2024-05-06 12:13+0200\\n"')
    text = text.replace('"Generated-By:', '"X-Generator: Poedit 3.4.2\\n"\n"X-Poedit-SourceCharset: UTF-8\\n"\n"X-Poedit-Basepath: ..\\n"\n"Generated-By:', 1)
    path.write_text(text, encoding="utf-8")


def snapshot(game: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((game / "locale").iterdir())}


@needs_gettext
@pytest.mark.parametrize("wrap", [[], ["--no-wrap"]], ids=["width-79", "no-wrap"])
def test_a_catalogue_msgmerge_rewrapped_survives_update_byte_for_byte(tmp_path, wrap):
    game = translated_game(tmp_path)
    locale = game / "locale"
    for lang in ("cs", "en"):
        subprocess.run(
            ["msgmerge", "--quiet", "--previous", *wrap, "-o", str(locale / f"{lang}.po"), str(locale / f"{lang}.po"), str(locale / "messages.pot")], check=True
        )
        poedit(locale / f"{lang}.po")
    before = snapshot(game)
    if not wrap:
        assert any(line.startswith('"') and line.endswith(' "') for line in before["cs.po"].decode().splitlines())  # wrapped at 79 by msgmerge
    result = run("i18n", "update", game)
    assert result.exit_code == 0, result.output
    assert snapshot(game) == before
    po = (locale / "cs.po").read_text(encoding="utf-8")
    assert '"X-Generator: Poedit 3.4.2\\n"' in po and '"X-Poedit-Basepath: ..\\n"' in po and "2024-05-06 12:13+0200" in po


@needs_gettext
def test_a_changed_source_changes_only_its_entry_in_a_rewrapped_catalogue(tmp_path):
    game = translated_game(tmp_path)
    locale = game / "locale"
    subprocess.run(["msgmerge", "--quiet", "-o", str(locale / "cs.po"), str(locale / "cs.po"), str(locale / "messages.pot")], check=True)
    poedit(locale / "cs.po")
    before = (locale / "cs.po").read_text(encoding="utf-8").split("\n\n")
    edit(game / "cards.yaml", "Hráč stráca mesto.", "Hráč stráca dve mestá.")
    edit(game / "cards.yaml", "Druhá", "Druhá karta")
    result = run("i18n", "update", game)
    assert "cs: 0 new, 2 fuzzy, 0 obsolete" in result.output
    after = (locale / "cs.po").read_text(encoding="utf-8").split("\n\n")
    assert len(after) == len(before)
    changed = [(old, new) for old, new in zip(before, after) if old != new]
    assert [new.split("msgctxt ")[1].split("\n")[0] for _, new in changed] == [
        '"b.title"',
        '"b.text"',
    ]  # the header and every other entry as msgmerge wrapped them
    for old, new in changed:
        assert "#, fuzzy\n#| msgid" in new and "msgid" in old
    again = snapshot(game)
    assert run("i18n", "update", game).exit_code == 0
    assert snapshot(game) == again  # twice: nothing more


def test_update_twice_changes_nothing_and_adds_no_guessed_format_flags(tmp_path):
    game = translated_game(tmp_path)
    assert run("i18n", "update", game).exit_code == 0
    first = snapshot(game)
    assert run("i18n", "update", game).exit_code == 0
    assert snapshot(game) == first
    for name, data in first.items():
        assert b"python-format" not in data and b"python-brace-format" not in data, name  # '50 %' and '{{ x }}' are not Python formats


def test_a_new_string_is_added_after_its_neighbour_and_a_removed_one_becomes_obsolete_at_the_end(tmp_path):
    game = translated_game(tmp_path)
    locale = game / "locale"
    before = (locale / "en.po").read_text(encoding="utf-8")
    edit(game / "cards.yaml", "- {id: b,", "- {id: a2, title: Nová}\n- {id: b,")
    edit(game / "cards.yaml", '- {id: c, title: Tretia, text: "Zisk 50 % a {{ x }} z kôpky."}\n', "")
    result = run("i18n", "update", game)
    assert "en: 1 new, 0 fuzzy, 2 obsolete" in result.output, result.output
    after = (locale / "en.po").read_text(encoding="utf-8")
    assert after.index('msgctxt "a.text"') < after.index('msgctxt "a2.title"') < after.index('msgctxt "b.title"')
    assert after.index('#~ msgctxt "c.title"') > after.index('msgctxt "b.text"')
    kept = before.split('msgctxt "a.title"')[0]
    assert after.startswith(kept)  # the header and everything before the change, byte for byte
