"""Rulebooks are set in a forked process while the decks are drawn: their files still
belong to the build's one transaction."""

from __future__ import annotations

import os
import select
import signal
import time

from conftest import edit, line_of, run


def test_a_failing_deck_leaves_no_rulebook_and_keeps_the_last_build(mesta, tmp_path):
    out = tmp_path / "out"
    assert run("build", mesta, "--out", out).exit_code == 0
    before = {p.name: p.read_bytes() for p in (out / "mesta").iterdir()}
    assert "rules-sk-a4.pdf" in before and "rules-sk-a5-booklet.pdf" in before
    edit(mesta / "rules" / "01-uvod.md", "\n\n", "\n\nZmena pravidiel.\n\n")  # a new rulebook...
    edit(mesta / "cities.yaml", "  name: Ostia\n", "  name: " + "Ostia " * 40 + "\n")  # ...and a name no card can hold
    result = run("build", mesta, "--out", out)
    assert result.exit_code == 1
    assert "does not fit its" in result.output  # found while drawing, when the rulebooks are already being set
    after = {p.name: p.read_bytes() for p in (out / "mesta").iterdir()}
    assert after == before  # no new rulebook, no temporary file left beside the old ones


def test_a_failing_rulebook_leaves_no_deck(mesta, tmp_path):
    out = tmp_path / "out"
    edit(mesta / "rules" / "01-uvod.md", "\n\n", "\n\nPozri [](#nikde).\n\n")
    result = run("build", mesta, "--out", out)
    assert result.exit_code == 1
    assert "nikde" in result.output and "Traceback" not in result.output
    assert not out.exists()  # nor the folders made for it


def test_a_broken_rule_and_a_broken_rulebook_are_reported_together(mesta, tmp_path):
    """The rulebooks are set while the rules are checked: one run reports both."""
    edit(mesta / "cities.yaml", "name: Rodos\n  empire: grecko", "name: Rodos\n  empire: rim")
    edit(mesta / "rules" / "01-uvod.md", "\n\n", "\n\nPozri [](#nikde).\n\n")
    result = run("build", mesta, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "[wonders-greek-egyptian-persian]" in result.output
    assert "01-uvod.md:" in result.output and "nikde" in result.output
    assert not (tmp_path / "out").exists()


def test_a_rulebook_that_fails_in_its_process_is_named(mesta, tmp_path, monkeypatch):
    """A bug met while setting a rulebook: a located error naming it, not a traceback."""
    from pnp.rulebook import writer

    def broken(*args, **kwargs):
        raise ValueError("the table is wider than the page")

    monkeypatch.setattr(writer, "write_pdfs", broken)
    result = run("build", mesta, "--out", tmp_path / "out")
    assert result.exit_code == 1
    line = line_of(mesta / "game.yaml", "title: Pravidlá")  # the rulebook's entry
    assert (
        f"game.yaml:{line}:5: rulebook 'rules' in 'sk' could not be set: ValueError: the table is wider than the page; "
        "expected it set (simplify what it fails on, and report this as a bug in pnp) [rulebook-failed]"
    ) in result.output
    assert result.output.count("[rulebook-failed]") == 1  # set once for both formats: named once
    assert "Traceback" not in result.output and "aside" not in result.output
    assert not (tmp_path / "out").exists()


def test_a_rulebook_process_that_dies_is_reported(mesta, tmp_path, monkeypatch):
    from pnp.rulebook import writer

    def dies(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)

    monkeypatch.setattr(writer, "write_pdfs", dies)
    result = run("build", mesta, "--out", tmp_path / "out")
    assert result.exit_code == 1
    line = line_of(mesta / "game.yaml", "title: Pravidlá")  # the rulebook's entry
    assert (
        f"game.yaml:{line}:5: setting the rulebooks failed: the process setting them ended (killed by SIGKILL) before it reported; "
        "expected them set (run with --debug and report this as a bug in pnp) [aside-failed]"
    ) in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_a_signal_stops_the_rulebooks_being_set_and_removes_their_files(mesta, tmp_path, monkeypatch):
    """SIGTERM while a rulebook's file is open in its process: the process is stopped at
    once, not waited for, and its file removed with the decks'."""
    import pathlib

    from pnp.pipeline import sheets

    out = tmp_path / "out"
    waited = tmp_path / "waited"  # the rulebooks' process was let finish its wait: it was waited for, not stopped
    real_write, real_sheets = pathlib.Path.write_bytes, sheets.write_sheets
    opened, says_opened = os.pipe()

    def held(self, data):
        if self.name.startswith(".rules-"):  # in the rulebooks' process, its temporary file made
            os.write(says_opened, b"!")
            time.sleep(60)  # until stopped: the signal's handler raises out of the sleep
            waited.touch()
        return real_write(self, data)

    def then_stopped(*args, **kwargs):
        count = real_sheets(*args, **kwargs)
        ready, _, _ = select.select([opened], [], [], 60)  # the limit is only against hanging
        assert ready, "the rulebooks' file was never opened"
        os.kill(os.getpid(), signal.SIGTERM)
        return count

    monkeypatch.setattr(pathlib.Path, "write_bytes", held)
    monkeypatch.setattr(sheets, "write_sheets", then_stopped)
    try:
        result = run("build", mesta, "--out", out)
    finally:
        os.close(opened)
        os.close(says_opened)
    assert result.exit_code == 143
    assert result.output == "interrupted by SIGTERM; the files being written were removed\n"
    assert not out.exists()
    assert not waited.exists()
