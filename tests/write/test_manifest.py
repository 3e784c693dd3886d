"""Reprint only what changed: the manifest a build records, and the errata PDF and the
list of cards to take out that `--changed-since` gives, read from the PDFs and the output."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import edit, make_small_game, run
from pdfread import card_boxes, sheet_pages
from reportlab.lib.colors import Color, black, white
from reportlab.pdfbase.ttfonts import TTFont

from pnp.assets.symbols import SymbolSet
from pnp.base.paths import FONTS_DIR
from pnp.layout.faces import Face, FaceOp, ImageOp, RectOp, SymbolOp, TextOp
from pnp.layout.text import Piece, TextLayout
from pnp.pdf.canvas import register_font
from pnp.write.manifest import FORMAT, Hashes, face_hash

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
    text = " ".join(fronts.extract_text().split())  # the lines a card text wraps into, joined
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


def test_an_old_manifest_is_refused_with_a_clear_error(mesta: Path, tmp_path: Path):
    """A manifest of an earlier format holds hashes made another way: comparing them would call every card changed."""
    out = tmp_path / "out"
    _build(mesta, out, "--deck", "events")
    data = json.loads((out / "mesta" / "manifest-sk-a4.json").read_bytes())
    data["format"] -= 1
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    result = run("list", mesta, "--changed-since", old)
    assert result.exit_code != 0 and f"is not a manifest of this version of pnp (format {data['format']})" in result.output, result.output
    assert "[manifest-unreadable]" in result.output


def test_builds_in_worker_processes_and_with_another_hash_seed_write_the_same_manifest(tmp_path: Path):
    """Faces hashed in worker processes (--jobs), and in a process whose str hashes are
    salted otherwise, give the manifest of a build in one process; `pnp list` hashes the
    faces as the build does (nothing changed)."""
    game = make_small_game(tmp_path / "hra", "".join(f"- {{id: c{i}, title: Karta {i}, text: 'Hráč {i} získa :star: mesto.'}}\n" for i in range(30)))
    (game / "symbols").mkdir()
    (game / "symbols" / "star.svg").write_text(STAR, encoding="utf-8")
    (game / "more.yaml").write_text((game / "cards.yaml").read_text(encoding="utf-8").replace("id: c", "id: m"), encoding="utf-8")
    edit(game / "game.yaml", "decks:\n", "decks:\n  more: {type: card, data: more.yaml, front: basic/card, back: basic/back}\n")  # two PDFs: two workers
    manifests = []
    for seed, jobs in (("1", "1"), ("2", "2")):
        out = tmp_path / f"out{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-m", "pnp", "build", str(game), "--out", str(out), "--jobs", jobs], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        manifests.append((out / "hra" / "manifest-sk-a4.json").read_bytes())
        assert "(sk): none" in run("list", game, "--out", out, "--changed-since").output
    assert manifests[0] == manifests[1]
    assert [len(cards) for cards in json.loads(manifests[0])["cards"].values()] == [30, 30]


STAR = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M5 0 L10 10 L0 10 Z" fill="#c00"/></svg>\n'


def _layout(*lines: tuple[Piece, ...]) -> TextLayout:
    return TextLayout(9.0, 11.0, 7.0, tuple(lines), 11.0 * len(lines), False)


def _hash_of(folder: Path, text: TextLayout | None = None, **changed) -> str:
    """The hash of a face with every kind of operation, its files in `folder`; `changed`
    replaces operations by name."""
    inner = Face("inner", 20.0, 10.0, (RectOp(0.0, 0.0, 20.0, 10.0, None, black, 0.5, 0.0),))
    ops = {
        "rect": RectOp(1.0, 2.0, 61.0, 84.0, white, Color(0.2, 0.2, 0.2), 0.5, 3.0),
        "text": TextOp(
            5.0,
            70.0,
            text or _layout((Piece(0.0, "Hráč získa", "hash-font", 40.0), Piece(41.0, "star", "", 9.0)), (Piece(0.0, "mesto.", "hash-font", 25.0),)),
            black,
        ),
        "symbol": SymbolOp("star", 10.0, 10.0, 8.0),
        "image": ImageOp(str(folder / "art.png"), 0.0, 40.0, 63.0, 30.0),
        "inner": FaceOp(inner, 30.0, 5.0, 0, 0.0, (0.0, 0.0, 20.0, 10.0)),
    }
    ops.update(changed)
    return face_hash(Face("card", 63.0, 88.0, tuple(ops.values())), SymbolSet({"star": folder / "star.svg"}), Hashes())


def test_a_face_hash_follows_what_is_drawn_and_nothing_else(tmp_path: Path):
    """What a user could see change on a face changes its hash: any text, font file,
    colour, position beyond 0.001 pt, image or symbol file, inner face, clip or angle;
    the last bits of a float, the game folder's place and the face's name do not."""
    folders = []
    for name in ("a", "b"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "art.png").write_bytes(b"picture")
        (folder / "star.svg").write_text(STAR, encoding="utf-8")
        folders.append(folder)
    one, two = folders
    fonts = sorted(FONTS_DIR.glob("*.ttf"))
    register_font(TTFont("hash-font", str(fonts[0])))
    base = _hash_of(one)
    assert base == _hash_of(two)  # the game folder moved
    assert base == _hash_of(one, rect=RectOp(1.0 + 1e-12, 2.0 - 1e-12, 61.0, 84.0, white, Color(0.2, 0.2, 0.2), 0.5, 3.0))
    pieces = (Piece(-1e-9, "Hráč získa", "hash-font", 40.0), Piece(41.0, "star", "", 9.0)), (Piece(0.0, "mesto.", "hash-font", 25.0),)
    assert base == _hash_of(one, _layout(*pieces))  # -0.000 is 0.000
    changed = {
        "a text": _hash_of(
            one, _layout((Piece(0.0, "Hráč získal", "hash-font", 40.0), Piece(41.0, "star", "", 9.0)), (Piece(0.0, "mesto.", "hash-font", 25.0),))
        ),
        "a line broken elsewhere": _hash_of(
            one, _layout((Piece(0.0, "Hráč získa", "hash-font", 40.0),), (Piece(41.0, "star", "", 9.0), Piece(0.0, "mesto.", "hash-font", 25.0)))
        ),
        "a piece moved": _hash_of(
            one, _layout((Piece(0.0, "Hráč získa", "hash-font", 40.0), Piece(41.002, "star", "", 9.0)), (Piece(0.0, "mesto.", "hash-font", 25.0),))
        ),
        "a colour": _hash_of(one, rect=RectOp(1.0, 2.0, 61.0, 84.0, white, Color(0.2, 0.2, 0.3), 0.5, 3.0)),
        "a box moved": _hash_of(one, rect=RectOp(1.002, 2.0, 61.0, 84.0, white, Color(0.2, 0.2, 0.2), 0.5, 3.0)),
        "a symbol": _hash_of(one, symbol=SymbolOp("star", 10.0, 10.0, 8.5)),
        "an inner face's clip": _hash_of(one, inner=FaceOp(Face("inner", 20.0, 10.0, ()), 30.0, 5.0, 0, 0.0, (0.0, 0.0, 20.0, 10.0))),
        "an inner face turned": _hash_of(one, inner=FaceOp(Face("inner", 20.0, 10.0, ()), 30.0, 5.0, 90, 0.0, (0.0, 0.0, 20.0, 10.0))),
    }
    (two / "art.png").write_bytes(b"another picture")
    changed["an image file"] = _hash_of(two)
    (two / "art.png").write_bytes(b"picture")
    (two / "star.svg").write_text(STAR.replace("#c00", "#00c"), encoding="utf-8")
    changed["a symbol file"] = _hash_of(two)
    register_font(TTFont("hash-font", str(fonts[1])))  # the same name, another font file (as the watcher registers an edited one)
    changed["a font file"] = _hash_of(one)
    assert len({base, *changed.values()}) == len(changed) + 1, [what for what, digest in changed.items() if digest == base]


def _manifest(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "printed.json"
    path.write_text(text, encoding="utf-8")
    return path


HEAD = f'{{"format": {FORMAT}, "game": "mesta", "lang": "sk", "paper": "a4", "cards": '


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (HEAD + '{"events": {"leonidas": {"copies": Infinity}}}}', "printed.json: is not JSON (Infinity is not a number JSON allows)"),
        (HEAD + '{"events": {"leonidas": {"copies": NaN}}}}', "printed.json: is not JSON (NaN is not a number JSON allows)"),
        (
            HEAD + '{"events": {"leonidas": {"copies": 1e400}}}}',
            "printed.json: is not a manifest of this version of pnp (copies inf of card 'leonidas': not a whole number",
        ),
        (
            HEAD + '{"events": {"leonidas": {"copies": 1, "title": {"a": [1]}}}}}',
            'printed.json: is not a manifest of this version of pnp (title {"a": [1]}: not a string)',
        ),
        (HEAD + '{"events": {"leonidas": {"copies": 1, "front": ' + "[" * 100_000 + "]" * 100_000 + "}}}}", "printed.json: nests deeper than Python reads"),
        ("", "printed.json:1:1: is not JSON"),
    ],
    ids=["Infinity", "NaN", "1e400", "a title that is a mapping", "deep nesting", "empty"],
)
def test_a_hostile_manifest_is_a_located_error(mesta: Path, tmp_path: Path, text: str, said: str):
    result = run("list", mesta, "--changed-since", _manifest(tmp_path, text))
    assert result.exit_code == 1 and said in result.output and "[manifest-unreadable]" in result.output, result.output
    assert "internal error" not in result.output


def test_a_manifest_of_another_game_is_refused(mesta: Path, tmp_path: Path):
    other = HEAD.replace('"mesta"', '"kingdoms"') + '{"events": {"leonidas": {"copies": 1}}}}'
    for command in (["list", mesta, "--changed-since"], ["build", mesta, "--out", tmp_path / "out", "--changed-since"]):
        result = run(*command, _manifest(tmp_path, other))
        assert result.exit_code == 1, result.output
        assert (
            "printed.json: is the manifest of game 'kingdoms', not 'mesta'; expected a manifest written by a build of this game (its folder's name) [manifest-game]"
            in result.output
        )
    assert not (tmp_path / "out").exists()
