"""`pnp list`: decks with their counts and sizes, deals and languages, as a user reads them."""

from __future__ import annotations

import json
import re

from conftest import edit, run

from pnp.base.paths import DEFAULT_GAME


def test_list_shows_mestas_decks_deals_and_languages():
    result = run("list")
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"cities\s+Mestá\s+city\s+mesta/city / mesta/city-back\s+54  44 x 68 mm", out)
    assert re.search(r"events\s+Udalosti\s+event\s+mesta/event / mesta/event-back\s+53 \(75 with copies\)  63 x 88 mm", out)
    assert re.search(r"quick\s+Rýchla hra\s+\d+ \(\d+ with copies\)", out)
    assert "sk  source" in out
    rulebooks = out.split("rulebooks:")[1].split("languages:")[0]
    assert "rules  Pravidlá  (one book; 10 files)" in rulebooks
    assert "rules/01-uvod.md, rules/02-obsah.md," in rulebooks and "rules/10-historia.md" in rulebooks
    assert "en  100 % translated" in out and "cs  100 % translated" in out


def test_list_json_is_for_scripts():
    data = json.loads(run("list", "--format", "json").output)
    decks = {d["id"]: d for d in data["decks"]}
    assert decks["events"]["copies"] == 75 and decks["events"]["size_mm"] == [63, 88]
    assert [lang["lang"] for lang in data["languages"]] == ["sk", "cs", "en"]
    assert {d["id"] for d in data["deals"]} >= {"full", "quick"}
    assert data["rulebooks"] == [
        {
            "id": "rules",
            "title": "Pravidlá",
            "modes": [],
            "files": [f"rules/{n}" for n in sorted(f.name for f in (DEFAULT_GAME / "rules").iterdir())],
            "missing": [],
        }
    ]


def test_list_shows_a_rulebooks_modes_and_missing_files(tmp_path):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    game = tmp_path / "g"
    edit(game / "game.yaml", "files: [rules.md]", "files: [rules.md, more.md]\n    modes: [basic, solo]")
    out = run("list", game).output
    rulebooks = out.split("rulebooks:")[1].split("languages:")[0]
    assert "one book per mode: basic, solo" in rulebooks and "more.md (missing)" in rulebooks, rulebooks


def test_list_a_new_game_shows_its_untranslated_catalogue(tmp_path):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    result = run("list", tmp_path / "g")
    assert result.exit_code == 0, result.output
    assert re.search(r"cards\s+Cards\s+card\s+card / back\s+4 \(5 with copies\)  63 x 88 mm", result.output)
    assert re.search(r"de  0 % translated \(0/\d+\)", result.output)
    assert "(none" in result.output  # no deals


def test_list_a_broken_game_reports_located_errors(tmp_path):
    result = run("list", tmp_path)
    assert result.exit_code == 2
    assert "no game.yaml in this folder" in result.output


def test_list_help_says_changed_since_writes_nothing():
    help_text = " ".join(run("list", "--help").output.split())
    assert "what build --changed-since would put in errata PDFs, and which to take out of the printed deck. Writes nothing." in help_text
    assert "Also write errata" not in help_text
    assert "Also write errata PDFs" in " ".join(run("build", "--help").output.split())
