"""Rulebook translation: one catalogue entry per block (msgctxt rulebook.FILE, msgid the
block as written), a changed paragraph fuzzy and nothing else, untranslated blocks handled
like card strings."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import edit, run
from makers import catalogue, make_game, translate_all
from pypdf import PdfReader


def text_of(path: Path) -> str:
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(str(path)).pages).replace("\u00a0", " "))


def test_each_block_is_one_entry_and_a_translation_is_printed(tmp_path: Path) -> None:
    game = make_game(tmp_path / "hra")
    assert run("i18n", "update", game, "--add", "en").exit_code == 0
    pot = catalogue(game / "locale" / "messages.pot")
    blocks = [m for m in pot if m.context == "rulebook.rules/01-goal.md"]
    assert "Zamiešaj všetkých {{ cards | length }} kariet." in [m.id for m in blocks]
    assert "::: example" not in "".join(m.id for m in blocks)  # the fences are not text
    assert any(m.id.startswith("| Karta | Text |\n|---|---|\n{% for c in cards %}") for m in blocks)  # the loop is one block with its table
    assert [m for m in pot if m.context == "rulebook.rules.title"][0].id == "Pravidlá"

    translate_all(game / "locale" / "en.po")
    out = tmp_path / "out"
    result = run("build", game, "--out", out, "--lang", "en")
    assert result.exit_code == 0, result.output
    text = text_of(out / "hra" / "rules-basic-en-a4.pdf")
    assert "Shuffle all 5 cards." in text and "Rules" in text and "Contents" in text
    assert "1 Goal of the game" in text and "1.1 Set-up" in text
    assert re.search(r"1\.1, p\. \d+ a prípravu \(1\.1\)", text)  # untouched blocks stay as the translator copied them


def test_changed_paragraph_becomes_fuzzy_and_nothing_else(tmp_path: Path) -> None:
    game = make_game(tmp_path / "hra")
    run("i18n", "update", game, "--add", "en")
    po = game / "locale" / "en.po"
    translate_all(po)
    before = {(m.context, m.id): (m.string, m.fuzzy) for m in catalogue(po) if m.id}

    edit(game / "rules" / "01-goal.md", "Zamiešaj všetkých", "Dôkladne zamiešaj všetkých")
    result = run("i18n", "update", game)
    assert result.exit_code == 0 and "en: 0 new, 1 fuzzy, 0 obsolete" in result.output

    after = {(m.context, m.id): m for m in catalogue(po) if m.id}
    changed = after[("rulebook.rules/01-goal.md", "Dôkladne zamiešaj všetkých {{ cards | length }} kariet.")]
    assert changed.fuzzy and changed.string == "Shuffle all {{ cards | length }} cards."
    assert '#| msgid "Zamiešaj všetkých {{ cards | length }} kariet."\nmsgctxt "rulebook.rules/01-goal.md"' in po.read_text(encoding="utf-8")
    rest = {key: (m.string, m.fuzzy) for key, m in after.items() if m is not changed}
    assert rest == {key: value for key, value in before.items() if key[1] != "Zamiešaj všetkých {{ cards | length }} kariet."}

    out = tmp_path / "out"
    result = run("build", game, "--out", out, "--lang", "en")
    assert result.exit_code == 1 and "rulebook.rules/01-goal.md:" in result.output and "fuzzy" in result.output
    result = run("build", game, "--out", out, "--lang", "en", "--allow-untranslated")
    assert result.exit_code == 0, result.output
    text = text_of(out / "hra" / "rules-basic-en-a4.pdf")
    assert "Dôkladne zamiešaj všetkých 5 kariet." in text and "1 Goal of the game" in text


def test_new_paragraph_is_untranslated(tmp_path: Path) -> None:
    game = make_game(tmp_path / "hra")
    run("i18n", "update", game, "--add", "en")
    translate_all(game / "locale" / "en.po")
    edit(game / "rules" / "02-turn.md", "2. Zahraj ju.\n", "2. Zahraj ju.\n\nNový odsek.\n")
    result = run("check", game, "--lang", "en")
    assert result.exit_code == 1
    line = (game / "rules" / "02-turn.md").read_text(encoding="utf-8").splitlines().index("Nový odsek.") + 1
    assert f"'rulebook.rules/02-turn.md:{line}' has no en translation" in result.output
    assert run("check", game, "--lang", "en", "--allow-untranslated").exit_code == 0


def test_pseudo_language_keeps_the_markdown(tmp_path: Path) -> None:
    game = make_game(tmp_path / "hra")
    result = run("check", game, "--lang", "qps")
    assert result.exit_code == 0, result.output


def test_files_saved_with_a_byte_order_mark_read_as_without(tmp_path: Path) -> None:
    """Notepad and some Markdown editors start a UTF-8 file with a byte order mark: it is
    not text, and the rulebook's first heading is still a heading."""
    game = make_game(tmp_path / "hra")
    assert run("i18n", "update", game, "--add", "en").exit_code == 0
    translate_all(game / "locale" / "en.po")
    for name in ("rules/01-goal.md", "locale/en.po", "cards.yaml", "game.yaml"):
        path = game / name
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    update = run("i18n", "update", game)
    assert update.exit_code == 0 and "en: 0 new, 0 fuzzy, 0 obsolete" in update.output, update.output
    out = tmp_path / "out"
    for lang in ("sk", "en"):
        result = run("build", game, "--out", out, "--lang", lang)
        assert result.exit_code == 0 and "font-glyph" not in result.output, result.output
    source, translated = text_of(out / "hra" / "rules-basic-sk-a4.pdf"), text_of(out / "hra" / "rules-basic-en-a4.pdf")
    assert "1 Cieľ hry" in source and "# Cieľ" not in source and "\ufeff" not in source
    assert "1 Goal of the game" in translated and "1.1 Set-up" in translated
