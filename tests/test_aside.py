"""Rulebooks are set in a forked process while the decks are drawn: their files still
belong to the build's one transaction."""

from __future__ import annotations

from conftest import edit, run


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
