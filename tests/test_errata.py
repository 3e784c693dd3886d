"""Reprint only what changed: the manifest a build records, and the errata PDF and the
list of cards to take out that `--changed-since` gives, read from the PDFs and the output."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import edit, run
from pdfread import card_boxes, sheet_pages

TWO_EDITS = [
    ("text: Všetci hráči strácajú všetky rímske mestá.", "text: Všetci hráči strácajú dve rímske mestá."),
    ("subtitle: Grécky veliteľ", "subtitle: Grécky kráľ"),
]


def _build(game: Path, out: Path, *more: str):
    result = run("build", game, "--out", out, *more)
    assert result.exit_code == 0, result.output
    return result


def test_two_edited_events_give_an_errata_pdf_of_exactly_those_two_cards_and_their_backs(mesta: Path, tmp_path: Path):
    out = tmp_path / "out"
    _build(mesta, out)
    for old, new in TWO_EDITS:
        edit(mesta / "events.yaml", old, new)
    result = _build(mesta, out, "--changed-since")
    errata = out / "mesta" / "events-sk-a4-errata.pdf"
    fronts, backs = sheet_pages(errata)  # one sheet: its fronts, then its backs
    assert len(card_boxes(fronts)) == 2 and len(card_boxes(backs)) == 2
    text = fronts.extract_text()
    assert "Julius Caesar" in text and "dve rímske" in text and "Leonidas" in text and "Grécky kráľ" in text
    assert "Hannibal" not in text and "Ramzes" not in text
    assert backs.extract_text().count("Udalosť") == 2  # the events' back, behind each
    assert f"wrote {errata}" in result.output
    out_text = result.output.split("changes since")[1]
    assert ": 2 changed, 0 new, 0 removed" in out_text
    take_out = out_text.split("take out of the printed deck:")[1].split("put in")[0]
    assert 'events/julius-caesar "Julius Caesar" (1 copy): old version' in take_out
    assert 'events/leonidas "Leonidas" (1 copy): old version' in take_out
    # the errata build recorded the new state: nothing has changed since it
    assert "(sk): none" in _build(mesta, out, "--changed-since").output


def test_a_renamed_card_is_removed_and_new(mesta: Path, tmp_path: Path):
    out = tmp_path / "out"
    _build(mesta, out)
    edit(mesta / "events.yaml", "id: ramzes\n", "id: ramses\n")
    result = run("list", mesta, "--out", out, "--changed-since")
    assert result.exit_code == 0, result.output
    assert "(sk): 0 changed, 1 new, 1 removed" in result.output
    take_out, put_in = result.output.split("take out of the printed deck:")[1].split("put in, from the errata:")
    assert 'events/ramzes "Ramzes" (1 copy): removed' in take_out and "ramses" not in take_out
    assert 'events/ramses "Ramzes" (1 copy): new' in put_in
    data = json.loads(run("list", mesta, "--out", out, "--format", "json", "--changed-since").output)
    assert [e["id"] for e in data["new"]] == ["ramses"] and [e["id"] for e in data["removed"]] == ["ramzes"] and data["changed"] == []
    # pnp list wrote nothing; the build says the same and prints the new card only
    assert not (out / "mesta" / "events-sk-a4-errata.pdf").exists()
    _build(mesta, out, "--changed-since")
    (fronts, backs) = sheet_pages(out / "mesta" / "events-sk-a4-errata.pdf")
    assert len(card_boxes(fronts)) == 1 and "Ramzes" in fronts.extract_text()


def test_list_compares_with_a_named_manifest(mesta: Path, tmp_path: Path):
    out = tmp_path / "out"
    _build(mesta, out)
    kept = tmp_path / "printed.json"
    shutil.copy(out / "mesta" / "manifest-sk-a4.json", kept)
    assert "(sk): none" in run("list", mesta, "--changed-since", kept).output
    edit(mesta / "events.yaml", *TWO_EDITS[1])
    result = run("list", mesta, "--changed-since", kept)
    assert "(sk): 1 changed, 0 new, 0 removed" in result.output and "events/leonidas" in result.output


def test_the_manifest_is_deterministic_and_not_written_by_a_failed_build(mesta: Path, tmp_path: Path):
    first, second = tmp_path / "a", tmp_path / "b"
    _build(mesta, first)
    _build(mesta, second)
    manifest = (first / "mesta" / "manifest-sk-a4.json").read_bytes()
    assert manifest == (second / "mesta" / "manifest-sk-a4.json").read_bytes()
    data = json.loads(manifest)
    assert data["lang"] == "sk" and data["paper"] == "a4"
    assert len(data["cards"]["events"]) == 53 and sum(c["copies"] for c in data["cards"]["events"].values()) == 75
    assert set(data["cards"]["events"]["leonidas"]) == {"copies", "title", "front", "back"}
    assert manifest == (json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode("utf-8")  # written card by card, read by any JSON tool
    edit(mesta / "events.yaml", *TWO_EDITS[1])
    edit(mesta / "events.yaml", "title: Hannibal", "title: Hanibal")  # the rules count events by title: an error
    result = run("build", mesta, "--out", first)
    assert result.exit_code != 0 and "nothing was written" in result.output
    assert (first / "mesta" / "manifest-sk-a4.json").read_bytes() == manifest


def test_changed_since_without_an_earlier_build_is_an_error(mesta: Path, tmp_path: Path):
    result = run("build", mesta, "--deck", "events", "--out", tmp_path / "out", "--changed-since")
    assert result.exit_code != 0
    assert "manifest-sk-a4.json: no earlier build in 'sk' on A4 to compare with" in result.output and "[manifest-missing]" in result.output
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json", encoding="utf-8")
    result = run("list", mesta, "--changed-since", broken)
    assert result.exit_code != 0 and "broken.json:1:3: is not JSON" in result.output and "[manifest-unreadable]" in result.output


def test_a_build_of_some_decks_compares_those_and_keeps_the_record_of_the_others(mesta: Path, tmp_path: Path):
    out = tmp_path / "out"
    _build(mesta, out)
    before = json.loads((out / "mesta" / "manifest-sk-a4.json").read_bytes())
    edit(mesta / "events.yaml", *TWO_EDITS[1])
    result = run("build", mesta, "--deck", "cities", "--out", out, "--changed-since")
    assert result.exit_code == 0, result.output
    assert "(sk): none" in result.output and not (out / "mesta" / "events-sk-a4-errata.pdf").exists()
    assert json.loads((out / "mesta" / "manifest-sk-a4.json").read_bytes()) == before  # events: still as printed
    assert "events/leonidas" in run("list", mesta, "--out", out, "--changed-since").output
