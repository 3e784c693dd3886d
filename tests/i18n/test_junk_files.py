"""Leftovers of operating systems and editors in a game folder are not the game's: a
copy of a catalogue, macOS's `._` files, Thumbs.db, backups are neither built nor read."""

from __future__ import annotations

import shutil

from conftest import run

from pnp.base.paths import CARDS_DIR, is_junk


def test_junk_beside_catalogues_and_symbols_is_ignored(tmp_path):
    game = tmp_path / "mesta"
    shutil.copytree(CARDS_DIR / "mesta", game)
    shutil.copy(game / "locale" / "cs.po", game / "locale" / "cs (copy).po")
    (game / "locale" / "._en.po").write_bytes(b"\x00\x05\x16\x07Mac OS X        \x00\x02")
    (game / "locale" / "en.po~").write_text("backup", encoding="utf-8")
    (game / "symbols" / "._army.svg").write_bytes(b"\x00\x05\x16\x07Mac OS X")
    for folder in (game, game / "symbols", game / "locale"):
        (folder / "Thumbs.db").write_bytes(b"\xd0\xcf\x11\xe0")
        (folder / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    result = run("build", game, "--lang", "all", "--deck", "aids", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    built = sorted(p.name for p in (tmp_path / "out" / "mesta").glob("aids-*.pdf"))
    assert built == ["aids-cs-a4.pdf", "aids-en-a4.pdf", "aids-sk-a4.pdf"]
    assert "copy" not in result.output and "._" not in result.output
    status = run("i18n", "status", game)
    assert status.exit_code == 0 and "copy" not in status.output, status.output


def test_what_counts_as_junk():
    assert all(is_junk(n) for n in ("._de.po", ".DS_Store", "Thumbs.db", "desktop.ini", "~$cards.xlsx", "cards.yaml~", "#rules.md#", "x.bak"))
    assert not any(is_junk(n) for n in ("de.po", "cards.xlsx", "rules.md", "army.svg", "pt_BR.po"))
