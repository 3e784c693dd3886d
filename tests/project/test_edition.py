"""The game in one language is made once per command: every string is extracted once,
each catalogue parsed once and the rulebooks' Markdown read once, however many stages
(faces, rulebooks of two kinds in forked processes, parallel deck workers) use it."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import run
from pdfread import text

import pnp.commands.listing  # noqa: F401
import pnp.pipeline.build  # noqa: F401 - loaded, so that their references to the counted functions are wrapped too
import pnp.pipeline.rulebooks  # noqa: F401
import pnp.project.edition  # noqa: F401
from pnp.base.paths import DEFAULT_GAME
from pnp.i18n.catalogues import extract, read_catalog
from pnp.layout.elements.base import Layout
from pnp.layout.text import TextStyle
from pnp.rulebook.source import read_sources

COUNTED = (extract, read_catalog, read_sources)


@pytest.fixture
def calls(tmp_path: Path, monkeypatch) -> Counter:
    """Wrap extract, the catalogue reader and the rulebook reader wherever pnp holds them; each
    call is a line in a file, so calls in forked processes count as well. Read the counts
    with `calls()` after the command."""
    log = tmp_path / "calls.log"
    log.touch()

    def counted(function):
        def wrapper(*args, **kwargs):
            with log.open("a") as handle:
                handle.write(function.__name__ + "\n")
            return function(*args, **kwargs)

        return wrapper

    for function in COUNTED:
        wrapper = counted(function)
        for module in list(sys.modules.values()):
            if getattr(module, "__name__", "").startswith("pnp") and getattr(module, function.__name__, None) is function:
                monkeypatch.setattr(module, function.__name__, wrapper)
    return lambda: Counter(log.read_text().split())


ONCE = {"extract": 1, "read_catalog": 2, "read_sources": 1}  # Mestá is in Slovak, with catalogues cs and en


def test_check_in_every_language_reads_everything_once(calls):
    result = run("check", DEFAULT_GAME, "--lang", "all")
    assert result.exit_code == 0, result.output
    assert calls() == ONCE


@pytest.mark.parametrize("jobs", ["1", "3"])
def test_a_build_in_every_language_reads_everything_once(calls, tmp_path, jobs):
    result = run("build", DEFAULT_GAME, "--lang", "all", "--jobs", jobs, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert calls() == ONCE
    out = tmp_path / "out" / "mesta"
    assert "Rules" in text(out / "rules-en-a4.pdf")  # the rulebook set in its forked process is translated
    assert "Pravidla" in text(out / "rules-cs-a5-booklet.pdf")
    assert "Cities" in text(out / "cities-en-a4.pdf")


def entries_of(template: Path) -> int:
    """The entries of a catalogue template, as gettext counts them (the header aside)."""
    return sum(1 for line in template.read_text(encoding="utf-8").splitlines() if line.startswith("msgid ")) - 1


def test_status_and_list_read_each_catalogue_once(calls):
    result = run("i18n", "status", DEFAULT_GAME)
    assert result.exit_code == 0, result.output
    total = entries_of(DEFAULT_GAME / "locale" / "messages.pot")
    assert f"cs: {total}/{total} translated" in result.output
    assert calls() == ONCE
    result = run("list", DEFAULT_GAME)
    assert result.exit_code == 0, result.output
    assert f"en  100 % translated ({total}/{total})" in result.output
    assert calls() == {name: 2 * count for name, count in ONCE.items()}


def test_the_source_language_extracts_nothing_and_reads_the_rulebooks_once(calls, tmp_path):
    result = run("build", DEFAULT_GAME, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert calls() == {"read_sources": 1}  # before the rulebook process forks


def test_the_paper_book_and_the_booklet_are_set_from_one_filling_in_per_language(tmp_path, monkeypatch):
    """Each rulebook is filled in and parsed once per language, in the build's process,
    and both formats are set from it (a count kept in a file, which a forked process
    would add to as well)."""
    import pnp.check.rulebooks as books

    log = tmp_path / "render.log"
    real = books.render

    def render(source, game, lang, *args):
        with log.open("a") as handle:
            handle.write(lang + "\n")
        return real(source, game, lang, *args)

    monkeypatch.setattr(books, "render", render)
    result = run("build", DEFAULT_GAME, "--lang", "all", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert sorted(log.read_text().split()) == ["cs", "en", "sk"]  # Mestá: one rulebook, without modes
    expected = {f"rules-{lang}-{paper}.pdf" for lang in ("sk", "cs", "en") for paper in ("a4", "a5-booklet")}
    assert {path.name for path in (tmp_path / "out" / "mesta").glob("rules-*")} == expected


def test_a_layout_scales_text_for_the_languages_it_names():
    layout = Layout("card", (63, 88), 3.0, {}, [], None, lang_scale={"de": 0.5})
    style = TextStyle(size=10, min_size=6)
    assert layout.scaled(style, "de") == TextStyle(size=5, min_size=3)
    assert layout.scaled(TextStyle(size=10), "de") == TextStyle(size=5)  # no minimum: none made up
    assert layout.scaled(style, "en") is style
