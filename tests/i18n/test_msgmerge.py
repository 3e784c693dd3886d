"""`pnp i18n update` merges as msgmerge does: which entries are fuzzy, the previous source
text each shows (`#|`, the text its translation was made for), and what `pnp i18n status`
counts as done."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import edit, make_small_game, run

A = "Hráč stráca mesto."
B = "Hráč stráca dve mestá."
C = "Hráč stráca tri mestá."


def translate_all(po: Path) -> None:
    """Every msgstr filled as a translator would ("EN " + the source)."""
    lines = po.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line == 'msgstr ""' and lines[i - 1].startswith('msgid "') and lines[i - 1] != 'msgid ""':
            lines[i] = f'msgstr "EN {lines[i - 1][7:-1]}"'
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")


def entries(po: Path) -> dict[str, tuple[bool, str | None, str]]:
    """Per msgctxt of an active entry: fuzzy or not, the previous msgid (#|), the msgstr
    (one line each: the texts here are short, and msgmerge runs with --no-wrap)."""
    found = {}
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        context = re.search(r'^msgctxt "(.*)"$', block, re.M)
        if context is None:
            continue
        previous = re.search(r'^#\| msgid "(.*)"$', block, re.M)
        string = re.search(r'^msgstr "(.*)"$', block, re.M)
        fuzzy = re.search(r"^#,.*\bfuzzy\b", block, re.M) is not None
        found[context.group(1)] = (fuzzy, previous.group(1) if previous else None, string.group(1) if string else "")
    return found


@pytest.fixture
def both(tmp_path: Path):
    """A translated small game, and a copy of its catalogue that msgmerge keeps: `step`
    edits the cards, merges with both and returns both catalogues' entries."""
    if not shutil.which("msgmerge"):
        pytest.skip("msgmerge (gettext) is not installed")
    game = make_small_game(tmp_path / "hra")
    run("i18n", "update", game, "--add", "en")
    po = game / "locale" / "en.po"
    translate_all(po)
    theirs = tmp_path / "msgmerge.po"
    shutil.copy(po, theirs)

    def step(old: str | None = None, new: str | None = None) -> tuple[dict, dict]:
        if old is not None:
            edit(game / "cards.yaml", old, new)
        result = run("i18n", "update", game)
        assert result.exit_code == 0, result.output
        pot = game / "locale" / "messages.pot"
        subprocess.run(["msgmerge", "--quiet", "--previous", "--no-wrap", "-o", str(theirs), str(theirs), str(pot)], check=True)
        return entries(po), entries(theirs)

    return game, po, theirs, step


def test_a_text_changed_twice_shows_the_text_its_translation_was_made_for(both):
    game, po, theirs, step = both
    ours, msgmerge = step(A, B)
    assert ours["b.text"] == msgmerge["b.text"] == (True, A, f"EN {A}")
    ours, msgmerge = step(B, C)
    assert ours["b.text"] == msgmerge["b.text"] == (True, A, f"EN {A}")
    ours, msgmerge = step()  # nothing changed: nothing changes
    assert ours == msgmerge


def test_a_text_changed_and_changed_back_stays_fuzzy_as_msgmerge_leaves_it(both):
    game, po, theirs, step = both
    step(A, B)
    ours, msgmerge = step(B, A)
    assert ours["b.text"] == msgmerge["b.text"] == (True, A, f"EN {A}")  # a translator clears the flag: the #| says nothing changed
    assert ours == msgmerge
    assert "# |" not in po.read_text(encoding="utf-8")  # the previous text is not copied into a comment
    status = run("i18n", "status", game)
    assert "en: 8/9 translated (88 %), 1 fuzzy, 0 missing" in status.output


def test_a_translator_marked_fuzzy_entry_keeps_no_previous_text_it_did_not_have(both):
    game, po, theirs, step = both
    for path in (po, theirs):
        edit(path, 'msgctxt "b.text"', '#, fuzzy\nmsgctxt "b.text"')
    ours, msgmerge = step(A, B)
    assert ours["b.text"] == msgmerge["b.text"]
    assert ours == msgmerge


def test_an_untranslated_text_that_changed_shows_no_previous_text(both):
    game, po, theirs, step = both
    for path in (po, theirs):  # nothing translated: msgmerge has nothing to guess a translation from
        path.write_text(re.sub(r'^msgstr "EN .*"$', 'msgstr ""', path.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    ours, msgmerge = step(A, B)
    assert ours["b.text"] == msgmerge["b.text"] == (False, None, "")
    assert ours == msgmerge


def test_a_catalogue_msgmerge_wrote_with_obsolete_fuzzy_entries_is_read_and_kept(both):
    game, po, theirs, step = both
    step(A, B)
    edit(game / "cards.yaml", f"- {{id: b, title: Druhá, text: {B}}}\n", "")
    step()
    assert f'#~| msgid "{A}"' in theirs.read_text(encoding="utf-8")  # msgmerge keeps an obsolete entry's previous text
    shutil.copy(theirs, po)
    status = run("i18n", "status", game)
    assert status.exit_code == 0, status.output
    assert "en: 7/7 translated (100 %), 0 fuzzy, 0 missing" in status.output
    assert run("i18n", "update", game).exit_code == 0
    assert po.read_text(encoding="utf-8").count(f'#~| msgid "{A}"') == 1  # history, left as it was
