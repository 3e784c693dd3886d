"""The watcher's builds (session.py): a save redraws only what it reaches, and what it
writes is exactly what a fresh build of the same folder writes."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import edit, run
from pdfread import text
from pypdf import PdfReader

import pnp.layout.renderer
from pnp.base.errors import PnpError
from pnp.base.output import Output, writing_under
from pnp.impose.sheets import SheetSpec
from pnp.live.kept_code import KeptCode
from pnp.live.session import Session
from pnp.live.watch import CLOSED, Changes
from pnp.pipeline.build import build
from pnp.project.options import BuildOptions

TALLY_LAYOUT = """\
size: [63, 88]
elements:
  - text: "{{ title }}: {{ decks.cards | length }} cards, the first {{ component('cards', 'dawn').title }}"
    box: [5, 5, 53, 40]
"""
NOTE_LAYOUT = """\
size: [63, 88]
elements:
  - text: "{{ title }}"
    box: [5, 5, 53, 40]
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """`pnp new`'s game without its rulebook, translated to German, with two more decks:
    `tally`, whose layout reads the deck `cards`, and `notes`, which reads nothing else."""
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    folder = tmp_path / "g"
    meta = (folder / "game.yaml").read_text(encoding="utf-8")
    meta = meta[: meta.index("rulebooks:")].replace(
        "decks:\n",
        "decks:\n  tally: {name: Tally, type: note, data: tally.yaml, front: tally}\n  notes: {name: Notes, type: note, data: notes.yaml, front: note}\n",
    )
    (folder / "game.yaml").write_text(meta, encoding="utf-8")
    (folder / "rules.md").unlink()
    edit(folder / "rules.yaml", "types:\n", "types:\n  note:\n    fields:\n      title: {type: text, translate: false}\n")
    (folder / "tally.yaml").write_text("- {id: total, title: Total}\n", encoding="utf-8")
    (folder / "notes.yaml").write_text("- {id: hello, title: Hello}\n", encoding="utf-8")
    (folder / "layouts" / "tally.yaml").write_text(TALLY_LAYOUT, encoding="utf-8")
    (folder / "layouts" / "note.yaml").write_text(NOTE_LAYOUT, encoding="utf-8")
    po = folder / "locale" / "de.po"
    catalogue = po.read_text(encoding="utf-8")
    catalogue = catalogue[: catalogue.index("#. the title of a rulebook") if "#. the title of a rulebook" in catalogue else len(catalogue)]
    catalogue += "".join(f'\nmsgctxt "deck.{deck}.name"\nmsgid "{name}"\nmsgstr ""\n' for deck, name in (("tally", "Tally"), ("notes", "Notes")))
    po.write_text(re.sub(r'msgid "(.+)"\nmsgstr ""', r'msgid "\1"\nmsgstr "\1 (de)"', catalogue), encoding="utf-8")
    return folder


class Watcher:
    """Builds a game as `build --watch` does, with one session, and notes which faces it sets."""

    def __init__(self, folder: Path, out: Path, monkeypatch):
        self.folder, self.out = folder, out
        self.session = Session(folder, [out])
        self.set: list[tuple[str, str, str]] = []
        face = pnp.layout.renderer.Renderer.face

        def counted(renderer, card, layout, side, problems, parts=None):
            self.set.append((renderer.lang, card.id, side))
            return face(renderer, card, layout, side, problems, parts)

        monkeypatch.setattr(pnp.layout.renderer.Renderer, "face", counted)

    def build(self) -> dict[str, int]:
        """Build; the files of the output folder with their modification times."""
        self.set = []
        with writing_under(Output(self.out)):
            build(self.folder, BuildOptions(out=self.out, langs=["all"], allow_untranslated=True), reuse=self.session)
        return times(self.out)


def words(path: Path) -> str:
    """The text of a PDF with its line breaks as spaces."""
    return " ".join(text(path).split())


def times(out: Path) -> dict[str, int]:
    return {path.name: path.stat().st_mtime_ns for path in sorted((out / "g").iterdir())}


def changed(before: dict[str, int], after: dict[str, int]) -> set[str]:
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}


def assert_as_fresh_build(folder: Path, out: Path, tmp_path: Path) -> None:
    """Every file the watcher left is byte for byte what a new `pnp build` writes."""
    fresh = tmp_path / "fresh"
    result = run("build", folder, "--lang", "all", "--allow-untranslated", "--out", fresh)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (fresh / "g").iterdir())
    assert names == sorted(p.name for p in (out / "g").iterdir())
    for name in names:
        assert (fresh / "g" / name).read_bytes() == (out / "g" / name).read_bytes(), name


def test_a_card_edit_redraws_its_deck_and_the_decks_that_read_it_and_sets_only_that_card(game, tmp_path, monkeypatch):
    watcher = Watcher(game, tmp_path / "out", monkeypatch)
    first = watcher.build()
    assert {"cards-en-a4.pdf", "tally-de-a4.pdf", "notes-en-a4.pdf", "manifest-de-a4.json"} <= set(first)
    assert ("en", "dusk", "front") in watcher.set

    assert changed(first, watcher.build()) == set()  # nothing changed: nothing is written
    assert watcher.set == []
    assert watcher.session.rebuild_summary() == f"nothing to rebuild; {len(first) - 2} files unchanged"  # the PDFs, not the manifests

    edit(game / "cards.yaml", "Every other player discards a card.", "Every other player discards two cards.")
    after = watcher.build()
    # the deck and the deck whose layout reads it, in English and in German (its translation is now stale: printed in English)
    assert changed(first, after) == {
        f"{name}-{lang}-a4.{ext}" for name, ext in (("cards", "pdf"), ("tally", "pdf"), ("manifest", "json")) for lang in ("en", "de")
    }
    assert "discards two cards" in words(tmp_path / "out" / "g" / "cards-de-a4.pdf")
    assert sorted(watcher.set) == [(lang, card, side) for lang in ("de", "en") for card, side in (("dusk", "back"), ("dusk", "front"), ("total", "front"))]
    assert watcher.session.rebuild_summary() == (
        "rebuilt tally-en-a4.pdf (1 card changed), cards-en-a4.pdf (1 card changed), tally-de-a4.pdf (1 card changed), cards-de-a4.pdf (1 card changed); 2 files unchanged"
    )
    assert_as_fresh_build(game, tmp_path / "out", tmp_path)


def test_a_layout_edit_redraws_the_decks_it_draws_in_every_language(game, tmp_path, monkeypatch):
    watcher = Watcher(game, tmp_path / "out", monkeypatch)
    first = watcher.build()
    edit(game / "layouts" / "note.yaml", 'text: "{{ title }}"', 'text: "Note: {{ title }}"')
    after = watcher.build()
    assert changed(first, after) == {"notes-en-a4.pdf", "notes-de-a4.pdf", "manifest-en-a4.json", "manifest-de-a4.json"}
    assert "Note: Hello" in words(tmp_path / "out" / "g" / "notes-de-a4.pdf")
    assert sorted(watcher.set) == [("de", "hello", "front"), ("en", "hello", "front")]
    assert_as_fresh_build(game, tmp_path / "out", tmp_path)


def test_a_translation_edit_redraws_only_that_language(game, tmp_path, monkeypatch):
    watcher = Watcher(game, tmp_path / "out", monkeypatch)
    first = watcher.build()
    edit(game / "locale" / "de.po", 'msgstr "Dusk (de)"', 'msgstr "Abend"')
    after = watcher.build()
    assert changed(first, after) == {name for name in first if "-de-" in name}  # the catalogue is one input of every German face
    assert "Abend" in words(tmp_path / "out" / "g" / "cards-de-a4.pdf")
    assert {lang for lang, _, _ in watcher.set} == {"de"}
    assert_as_fresh_build(game, tmp_path / "out", tmp_path)


def test_a_broken_save_leaves_the_output_and_the_save_that_fixes_it_rebuilds(game, tmp_path, monkeypatch):
    watcher = Watcher(game, tmp_path / "out", monkeypatch)
    first = watcher.build()
    edit(game / "cards.yaml", "suit: moon\n  value: 3", "suit: mon\n  value: 3")
    with pytest.raises(PnpError, match="'mon'"):
        watcher.build()
    assert times(tmp_path / "out") == first
    assert not [p for p in (tmp_path / "out" / "g").iterdir() if p.name.startswith(".")]  # no temporary files left
    edit(game / "cards.yaml", "suit: mon", "suit: sun")  # fixed, and the card changed
    after = watcher.build()
    assert "cards-en-a4.pdf" in changed(first, after) and "notes-en-a4.pdf" not in changed(first, after)
    assert_as_fresh_build(game, tmp_path / "out", tmp_path)


def test_a_deleted_output_file_is_written_again(game, tmp_path, monkeypatch):
    watcher = Watcher(game, tmp_path / "out", monkeypatch)
    watcher.build()
    (tmp_path / "out" / "g" / "notes-en-a4.pdf").unlink()
    assert "notes-en-a4.pdf" in watcher.build()
    assert_as_fresh_build(game, tmp_path / "out", tmp_path)


WAIT = 60  # seconds: only against hanging


@pytest.mark.parametrize("poll", [False, True])
def test_changes_sees_a_save_and_not_hidden_files_backups_or_the_output(tmp_path, poll):
    (tmp_path / "out").mkdir()
    (tmp_path / "cards.yaml").write_text("a", encoding="utf-8")
    changes = Changes(tmp_path, [tmp_path / "out"], poll=poll, interval=0.05)
    try:
        assert changes.notified is not poll
        (tmp_path / ".cards.yaml.swp").write_text("x", encoding="utf-8")
        (tmp_path / "cards.yaml~").write_text("x", encoding="utf-8")
        (tmp_path / "out" / "cards.pdf").write_text("x", encoding="utf-8")
        (tmp_path / "cards.yaml").write_text("ab", encoding="utf-8")
        assert changes.wait(timeout=WAIT) == ["cards.yaml"]  # not the swap file, the backup or the output written before it
        (tmp_path / "cards.yaml").read_text(encoding="utf-8")  # reading is not a change
        (tmp_path / "rules.yaml").write_text("x", encoding="utf-8")
        assert changes.wait(timeout=WAIT) == ["rules.yaml"]
    finally:
        changes.close()


def on_event(changes: Changes, kind: str, path: Path, folder: bool = False) -> None:
    """What watchdog calls with a notification."""
    changes._on_event(SimpleNamespace(event_type=kind, src_path=str(path), is_directory=folder))


def waiting(changes: Changes) -> threading.Thread:
    """`changes.wait()` in a thread of its own (`.result` once it returns): a test waits for
    it with a limit that is only against hanging, not a wait of the watcher's own."""
    thread = threading.Thread(target=lambda: setattr(thread, "result", changes.wait()), daemon=True)
    thread.start()
    return thread


def test_a_save_is_over_soon_after_its_file_is_closed_and_a_safe_save_is_one_change(tmp_path):
    """An editor's save ends when the file written is closed (watchdog's "closed"): the
    burst is then over within CLOSED, not SETTLE; a save through a temporary file renamed
    into place is still one change of the file saved."""
    (tmp_path / "cards.yaml").write_text("a", encoding="utf-8")
    given = Changes(tmp_path, poll=True, settle=1.0)  # notifications given by hand, on a clock of the test's
    now = 100.0
    given.clock = lambda: now
    on_event(given, "modified", tmp_path / "cards.yaml")
    assert given._quiet_at == now + 1.0  # still writing, perhaps
    now += 0.1
    on_event(given, "closed", tmp_path / "cards.yaml")
    assert given._quiet_at == now + CLOSED
    over = given._quiet_at
    now += 0.001
    given._event.clear()
    on_event(given, "modified", tmp_path, folder=True)  # the folder's time, after its file
    on_event(given, "closed", tmp_path / ".hidden")
    on_event(given, "modified", tmp_path / "cards.yaml~")
    assert given._quiet_at == over and not given._event.is_set()  # not the game's: no later, and no wake

    changes = Changes(tmp_path, settle=600.0)  # a quiet wait longer than the test's patience: only the file closed ends it
    try:
        assert changes.notified
        thread = waiting(changes)
        (tmp_path / "cards.yaml").write_text("ab", encoding="utf-8")
        thread.join(WAIT)
        assert not thread.is_alive(), "the save was not over when its file was closed"
        assert thread.result == ["cards.yaml"]
    finally:
        changes.close()

    changes = Changes(tmp_path)
    try:
        temporary = tmp_path / "cards.yaml.part"
        temporary.write_text("abc", encoding="utf-8")
        os.replace(temporary, tmp_path / "cards.yaml")
        assert changes.wait(timeout=WAIT) == ["cards.yaml"]
        (tmp_path / "rules.yaml").write_text("x", encoding="utf-8")
        assert changes.wait(timeout=WAIT) == ["rules.yaml"]  # and nothing more of the save
    finally:
        changes.close()


class _Waits(threading.Event):
    """A watcher's event that says when the watcher is in a quiet wait longer than `over`
    seconds (the burst of events is not over yet)."""

    def __init__(self, over: float):
        super().__init__()
        self.over = over
        self.quiet = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        if timeout is not None and timeout > self.over:
            self.quiet.set()
        return super().wait(timeout)


def test_a_save_during_the_quiet_wait_of_other_events_is_not_held_back_by_it(tmp_path):
    """A write whose file stays open (a program still writing) starts a wait of SETTLE; a
    save that comes meanwhile ends the wait when its file is closed, not when the earlier
    wait would have ended."""
    for name in ("cards.yaml", "other.yaml"):
        (tmp_path / name).write_text("a", encoding="utf-8")
    changes = Changes(tmp_path, settle=600.0)  # longer than the test's patience
    changes._event = _Waits(over=WAIT)
    try:
        with (tmp_path / "other.yaml").open("ab") as other:
            thread = waiting(changes)
            other.write(b"b")
            other.flush()  # written, not closed: the burst may go on
            assert changes._event.quiet.wait(WAIT), "the open file's write started no quiet wait"
            (tmp_path / "cards.yaml").write_text("ab", encoding="utf-8")
            thread.join(WAIT)
            assert not thread.is_alive(), "the save was held back by the open file's wait"
            assert thread.result == ["cards.yaml", "other.yaml"]
    finally:
        changes.close()


def test_kept_operators_are_written_again_only_while_the_letters_keep_their_codes(game, tmp_path, monkeypatch):
    """A face (and a page) the save did not change is written as the operators it wrote
    last time (live.kept_code.KeptCode), unless the save gave its letters other codes: a letter
    new in the first card moves the code of every letter first drawn after it, so every
    face after it is drawn again; either way the file is exactly a fresh build's."""
    with (game / "cards.yaml").open("a", encoding="utf-8") as cards:  # ASCII letters have codes of their own; the others are coded as first drawn
        cards.write("\n- id: early\n  title: Eve\n  suit: sun\n  value: 1\n  text: Ďalšia karta, že.\n")
        cards.write("\n- id: late\n  title: Dan\n  suit: moon\n  value: 3\n  text: Ďalšia karta.\n")  # only letters drawn before it
    watcher = Watcher(game, tmp_path / "out", monkeypatch)
    watcher.build()
    drawn: list[str] = []
    keep = KeptCode._keep

    def counted(kept, canvas, key, owners, mark, texts, *state):
        if key[0] == "face":
            drawn.append(owners[0].name)
        keep(kept, canvas, key, owners, mark, texts, *state)

    monkeypatch.setattr(KeptCode, "_keep", counted)
    edit(game / "cards.yaml", "Every other player discards a card.", "Every other player discards a noon card.")
    watcher.build()
    assert "dusk (front)" in drawn and "late (front)" not in drawn  # the card edited is drawn, the last card written as kept
    assert_as_fresh_build(game, tmp_path / "out", tmp_path)
    drawn.clear()
    edit(game / "cards.yaml", "text: Draw a card.", "text: Řdraw a card.")  # in the first card: Ď and š are coded one later
    watcher.build()
    assert drawn.count("late (front)") == 2  # in English and in German
    assert_as_fresh_build(game, tmp_path / "out", tmp_path)


def test_pages_far_from_the_edit_are_written_as_they_were(game, tmp_path, monkeypatch):
    """In a long deck, a page the save did not reach, drawn from the same state (the
    forms of the faces before it, the letters' codes), is written as it was, whole."""
    with (game / "cards.yaml").open("a", encoding="utf-8") as cards:
        cards.writelines(f"\n- id: c{i}\n  title: Card {i}\n  suit: sun\n  value: {i % 9 + 1}\n  text: Ďalšia karta číslo {i}.\n" for i in range(120))
    watcher = Watcher(game, tmp_path / "out", monkeypatch)
    watcher.build()
    written: list[int] = []
    replay = KeptCode._replay

    def counted(kept, canvas, key, owners, *state):
        found = replay(kept, canvas, key, owners, *state)
        if found is not None and key[0] == "page":
            written.append(key[1])
        return found

    monkeypatch.setattr(KeptCode, "_replay", counted)
    edit(game / "cards.yaml", "text: Ďalšia karta číslo 3.", "text: Ďalšia karta číslo tri.")
    watcher.build()
    pages = len(PdfReader(tmp_path / "out" / "g" / "cards-en-a4.pdf").pages)
    assert written and 0 not in written and pages - 1 in written  # the first page holds the card edited; the last is far from it
    assert_as_fresh_build(game, tmp_path / "out", tmp_path)


@pytest.mark.parametrize(
    ("spec", "flags"),
    [
        (SheetSpec(flip="short", bleed=3.0), ["--flip", "short", "--bleed", 3]),
        (SheetSpec(sides="fold"), ["--sides", "fold"]),
        (SheetSpec(cutter="silhouette"), ["--cutter", "silhouette"]),
        (SheetSpec(sides="fronts", paper="letter"), ["--sides", "fronts", "--paper", "letter"]),
    ],
)
def test_what_pages_wrote_is_written_again_exactly_on_every_route_to_paper(game, tmp_path, monkeypatch, spec, flags):
    """Backs turned over the short edge, bleed, folded sheets, a cutting machine's
    registration marks, fronts on Letter: after an edit, the watcher's PDFs are a fresh
    build's, byte for byte."""
    with (game / "cards.yaml").open("a", encoding="utf-8") as cards:
        cards.writelines(f"\n- id: c{i}\n  title: Card {i}\n  suit: moon\n  value: {i % 9 + 1}\n  text: Ďalšia karta číslo {i}.\n" for i in range(100))
    out = tmp_path / "out"
    session = Session(game, [out])
    options = BuildOptions(sheet=spec, out=out)
    with writing_under(Output(out)):
        build(game, options, reuse=session)
    edit(game / "cards.yaml", "text: Ďalšia karta číslo 7.", "text: Ďalšia karta číslo sedem.")
    with writing_under(Output(out)):
        build(game, options, reuse=session)
    fresh = tmp_path / "fresh"
    assert run("build", game, "--out", fresh, *flags).exit_code == 0
    names = sorted(p.name for p in (fresh / "g").iterdir())
    assert names == sorted(p.name for p in (out / "g").iterdir())
    for name in names:
        assert (fresh / "g" / name).read_bytes() == (out / "g" / name).read_bytes(), name


# --- the decks' data files: a save rereads only the items it changed (live.kept_data.keeping) ---

DECK = "# the deck\n" + "".join(f'- id: c{i}\n  title: Karta {i}\n  text: "Hráč získa {i} miest."\n' for i in range(12)) + "- {id: flow, title: Tok}\n"


def _located(value):
    """A value read from YAML with every location in it, to compare two reads exactly."""
    from pnp.load.yamlfile import LList, LMap

    if isinstance(value, LMap):
        return ("map", value.loc, [(key, _located(item), value.locs.get(key), value.key_locs.get(key)) for key, item in value.items()])
    if isinstance(value, LList):
        return ("list", value.loc, [(_located(item), loc) for item, loc in zip(value, value.locs)])
    return value


def _read(path: Path, kept: dict | None):
    """What reading a data file gives, as the loader sees it: every item with its locations
    and the problems reported, or the error that stops the read."""
    from pnp.base.errors import Problems
    from pnp.live.kept_data import keeping
    from pnp.load.yamlfile import load_yaml_items

    problems = Problems()
    try:
        with keeping(kept):
            rows = load_yaml_items(path, problems)
            items = [_located(row) for row in rows]
    except PnpError as err:
        return [str(problem) for problem in err.problems.items]
    return items, rows.loc, [str(problem) for problem in problems.items]


@pytest.mark.parametrize(
    "old, new",
    [
        ("Karta 5", "Kartička 5"),  # one item
        ("Karta 5\n", "Karta 5\n  extra: 1\n"),  # a line more: every item after it moves
        ("- {id: flow, title: Tok}\n", "- {id: flow, title: Tok}\n- id: new\n  title: Nová\n"),  # one more at the end
        ('- id: c3\n  title: Karta 3\n  text: "Hráč získa 3 miest."\n', ""),  # one less
        ('"Hráč získa 7 miest."', '"Hráč získa 7 miest.'),  # an unclosed quote: the error where a fresh read puts it
        ("title: Karta 8\n", "title: Karta 8\n  title: Znova\n"),  # a key twice: reported as a fresh read reports it
        ("Karta 4\n", "Karta 4 \n"),  # in place, the same number of lines
        ("# the deck", "# deck"),  # before the list
        ("- id: c9", "-   id: c9"),
        ("Karta 2\n  text", "&x Karta 2\n  text"),  # an anchor: read whole from now on
        ("Karta 6\n", "Karta 6\r\n"),  # line ends as they are
        ("title: Karta 10", "title: Karta: 10"),  # not a plain value any more
        ("Karta 11", "Karta 11 # komentár"),
        ("{id: flow, title: Tok}", "{id: flow, title: Tok2}"),
        ('"Hráč získa 4 miest."', '"Hráč\u2028získa 4 miest."'),  # line breaks to YAML besides \n: read whole
        ("Karta 3\n", "Karta 3\r"),
        ("# the deck", "# the\x85deck"),
    ],
)
def test_a_data_file_saved_again_reads_as_a_fresh_read_of_it(tmp_path: Path, old: str, new: str):
    path = tmp_path / "cards.yaml"
    path.write_text(DECK, encoding="utf-8")
    kept: dict = {}
    first = _read(path, kept)
    assert first == _read(path, None)
    path.write_bytes(DECK.replace(old, new).encode("utf-8"))
    assert _read(path, kept) == _read(path, None)
    path.write_bytes(DECK.encode("utf-8"))  # and back, after a mistake too
    assert _read(path, kept) == first


def test_a_save_of_one_card_rereads_that_card_and_keeps_the_others(tmp_path: Path):
    from pnp.base.errors import Problems
    from pnp.live.kept_data import keeping
    from pnp.load.yamlfile import load_yaml_items

    path = tmp_path / "cards.yaml"
    path.write_text(DECK, encoding="utf-8")
    kept: dict = {}
    with keeping(kept):
        before = list(load_yaml_items(path, Problems()))
        edit(path, "Karta 5", "Kartička 5")
        after = list(load_yaml_items(path, Problems()))
    assert after[5]["title"] == "Kartička 5" and after[5] is not before[5]
    assert [a is b for a, b in zip(before, after)] == [i != 5 for i in range(len(before))]  # the others as read before
    with keeping(None):  # outside the watcher: read as a stream, nothing kept
        assert list(load_yaml_items(path, Problems()))[5] is not after[5]


def test_the_watcher_rereads_a_changed_card_and_writes_what_a_fresh_build_writes(game, tmp_path, monkeypatch):
    watcher = Watcher(game, tmp_path / "out", monkeypatch)
    watcher.build()
    assert set(watcher.session.data) == {str(game / name) for name in ("cards.yaml", "tally.yaml", "notes.yaml")}
    edit(game / "cards.yaml", "Every other player discards a card.", "Every other player discards a card and draws one.")
    watcher.build()
    assert "discards a card and draws one" in words(tmp_path / "out" / "g" / "cards-en-a4.pdf")
    assert_as_fresh_build(game, tmp_path / "out", tmp_path)
    edit(game / "cards.yaml", "discards a card and draws one.", "discards a card\n    and draws one.")  # a line more
    watcher.build()
    assert_as_fresh_build(game, tmp_path / "out", tmp_path)


def test_a_broken_save_reports_what_a_fresh_build_reports_in_its_order(tmp_path: Path):
    """A file that cannot be kept (here: a key twice) is read as a build reads it, card by
    card: the problems of the cards before a mistake in the YAML come first, as they do in
    a fresh read, and none is lost."""
    from pnp.live.kept_data import keeping
    from pnp.project.project import prepare

    game = tmp_path / "g"
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    cards = game / "cards.yaml"
    saved = cards.read_text(encoding="utf-8")

    def problems(kept: dict | None) -> list[str]:
        try:
            with keeping(kept):
                return [str(problem) for problem in prepare(game).problems.items]
        except PnpError as err:
            return [str(problem) for problem in err.problems.items]

    kept: dict = {}
    assert problems(kept) == problems(None)
    assert kept  # the data files read are kept
    first, second = [line for line in saved.splitlines() if line.startswith("  text: ")][:2]
    for broken in (
        saved.replace(first, first + "\n  bogus: 1").replace(second, "  text: x\n  text: y"),  # an unknown field, then a key twice
        saved.replace(first, first + "\n  bogus: 1").replace(second, '  text: "unclosed'),  # an unknown field, then a syntax error
    ):
        cards.write_text(broken, encoding="utf-8")
        fresh = problems(None)
        assert len(fresh) == 2 and "bogus" in fresh[0]
        assert problems(kept) == fresh
        cards.write_text(saved, encoding="utf-8")
        assert problems(kept) == problems(None)


def test_a_large_data_file_is_read_as_a_stream_and_not_kept(tmp_path: Path):
    """Kept, a file's items cost memory as they are read (a 10,000-card deck made the
    watcher 37 MB larger): past half a megabyte it is read as a build reads it."""
    from pnp.base.errors import Problems
    from pnp.live.kept_data import keeping
    from pnp.load.yamlfile import LItems, load_yaml_items

    path = tmp_path / "cards.yaml"
    path.write_text("".join(f"- {{id: c{i}, title: Karta {i}, text: {'slovo ' * 20}}}\n" for i in range(4000)), encoding="utf-8")
    assert path.stat().st_size > 512 * 1024
    kept: dict = {}
    with keeping(kept):
        rows = load_yaml_items(path, Problems())
        assert type(rows) is LItems and sum(1 for _ in rows) == 4000
    assert kept == {}


def test_rulebooks_set_again_to_the_same_bytes_are_left_untouched_and_counted_unchanged(tmp_path, monkeypatch):
    """A card's text is in no rulebook of `pnp new`'s game: they are set again on its save
    (they read the data) but come out the same, so their files stay the files they were."""
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    folder, out = tmp_path / "g", tmp_path / "out"
    watcher = Watcher(folder, out, monkeypatch)
    watcher.build()
    books = [f"rules-{lang}-{paper}.pdf" for lang in ("en", "de") for paper in ("a4", "a5-booklet")]
    files = {name: (out / "g" / name).stat().st_ino for name in books}  # a file written again is a new file
    edit(folder / "cards.yaml", "Every other player discards a card.", "Every other player discards two cards.")
    watcher.build()
    assert {name: (out / "g" / name).stat().st_ino for name in books} == files
    assert watcher.session.rebuild_summary() == "rebuilt cards-en-a4.pdf (1 card changed), cards-de-a4.pdf (1 card changed); 4 files unchanged"
    edit(folder / "cards.yaml", "value: 9\n", "value: 9\n\n- {id: eclipse, title: Eclipse, suit: moon, value: 7}\n")  # 6 cards: the rulebook counts them
    watcher.build()
    assert all((out / "g" / name).stat().st_ino != files[name] for name in books)
    assert "6 cards" in " ".join(text(out / "g" / "rules-en-a4.pdf").split())
    assert watcher.session.rebuild_summary().endswith("; 0 files unchanged")
    assert_as_fresh_build(folder, out, tmp_path)
