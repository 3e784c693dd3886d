"""Plurals: {% plural n %}...{% endplural %} writes the noun that agrees with the number,
in the forms of each language's plural rule, from catalogue entries with msgid_plural."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import run
from makers import make_game
from pypdf import PdfReader

from pnp.templates.plurals import Plurals
from pnp.templates.sandbox import MARKDOWN

NUMBERS = (0, 1, 2, 5, 21, 22, 25)
# Which form each language uses for 0, 1, 2, 5, 21, 22, 25 (the grammar, not babel's data)
EXPECTED = {
    "sk": ["miest", "mesto", "mestá", "miest", "miest", "miest", "miest"],
    "cs": ["měst", "město", "města", "měst", "měst", "měst", "měst"],
    "en": ["cities", "city", "cities", "cities", "cities", "cities", "cities"],
    "de": ["Städte", "Stadt", "Städte", "Städte", "Städte", "Städte", "Städte"],
    "pl": ["miast", "miasto", "miasta", "miast", "miast", "miasta", "miast"],
}
FORMS = {  # in each language's gettext order
    "sk": ("mesto", "mestá", "miest"),
    "cs": ("město", "města", "měst"),
    "en": ("city", "cities"),
    "de": ("Stadt", "Städte"),
    "pl": ("miasto", "miasta", "miast"),
}
SOURCE = "{% plural k %}{{ n }} mesto{% pluralform %}{{ n }} mestá{% pluralform %}{{ n }} miest{% endplural %}"
TURN = "# Priebeh hry\n\nHráči sa striedajú.\n"
GOAL = "# Cieľ hry\n\n{% for k in [0, 1, 2, 5, 21, 22, 25] %}\nPočet: " + SOURCE + ".\n{% endfor %}\n"


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_each_language_picks_its_form_for_0_1_2_5_21_22_25(lang):
    plurals = Plurals(lang)
    assert plurals.count == len(FORMS[lang])
    written = tuple("{{ n }} " + form for form in FORMS[lang])
    template = MARKDOWN.from_string("{% plural k %}" + "{% pluralform %}".join(written) + "{% endplural %}")
    assert [template.render(k=k, _pnp_plurals=plurals) for k in NUMBERS] == [f"{k} {form}" for k, form in zip(NUMBERS, EXPECTED[lang])]


def test_a_source_plural_with_the_wrong_number_of_forms_is_an_error_at_its_line(tmp_path):
    game = make_game(
        tmp_path / "hra", goal="# Cieľ hry\n\nMáš {% plural cards | length %}{{ n }} kartu{% pluralform %}{{ n }} karty{% endplural %}.\n", turn=TURN
    )
    result = run("check", game)
    assert result.exit_code == 1
    assert re.search(r"rules/01-goal\.md:3:\d+: .*this plural has 2 forms; expected 3 forms for sk, for 1; for 2, 3, 4; for 0, 5, 6, \.\.\.", result.output), (
        result.output
    )


def fill(po: Path, lang: str) -> None:
    """A translator's work: the plural's forms, every block copied as it is."""
    text = po.read_text(encoding="utf-8")
    forms = FORMS[lang]
    for i, form in enumerate(forms):
        text = text.replace(f'msgstr[{i}] ""', f'msgstr[{i}] "{{{{ n }}}} {form}"', 1)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line == 'msgstr ""' and lines[i - 1].startswith("msgid ") and lines[i - 1] != 'msgid ""':
            lines[i] = "msgstr " + lines[i - 1][len("msgid ") :]
        elif line == 'msgstr ""' and lines[i - 1].startswith('"'):  # a multi-line msgid: copied
            j = i - 1
            while not lines[j].startswith("msgid "):
                j -= 1
            lines[i] = "msgstr " + "\n".join(lines[j:i])[len("msgid ") :]
    po.write_text("\n".join(lines), encoding="utf-8")


def test_catalogues_have_msgid_plural_and_each_language_its_number_of_forms_and_build_picks_them(tmp_path):
    game = make_game(tmp_path / "hra", goal=GOAL, turn=TURN)
    langs = ["cs", "en", "pl", "de"]
    result = run("i18n", "update", game, *[arg for lang in langs for arg in ("--add", lang)])
    assert result.exit_code == 0, result.output
    pot = read_po((game / "locale" / "messages.pot").open("rb"))
    plural = [m for m in pot if m.context == "plural"]
    assert [m.id for m in plural] == [("{{ n }} mesto", "{{ n }} miest")]
    assert "rules/01-goal.md:3" in "".join(f"{f}:{n}" for f, n in plural[0].locations) or plural[0].locations[0][1] >= 3
    for lang in langs:
        po = game / "locale" / f"{lang}.po"
        text = po.read_text(encoding="utf-8")
        assert 'msgid_plural "{{ n }} miest"' in text
        assert len(re.findall(r"^msgstr\[\d\]", text, re.M)) == len(FORMS[lang])
        status = run("i18n", "status", game)
        assert re.search(rf"{lang}\b.*0 fuzzy", status.output) or lang in status.output
        fill(po, lang)
        if shutil.which("msgfmt"):
            subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], check=True)
    out = tmp_path / "out"
    result = run("build", game, "--out", out, "--lang", "all")
    assert result.exit_code == 0, result.output
    for lang in ["sk", *langs]:
        (pdf,) = (out / "hra").glob(f"rules-basic-{lang}-a4.pdf")
        text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(str(pdf)).pages).replace("-\n", ""))  # a word hyphenated at a line end, joined
        assert [f"Počet: {k} {form}." for k, form in zip(NUMBERS, EXPECTED[lang])] == re.findall(r"Počet: \d+ \w+\.", text), lang


def test_a_plural_counts_as_translated_only_when_all_its_forms_are(tmp_path):
    game = make_game(tmp_path / "hra", goal=GOAL, turn=TURN)
    run("i18n", "update", game, "--add", "pl")
    po = game / "locale" / "pl.po"
    fill(po, "pl")
    text = po.read_text(encoding="utf-8").replace('msgstr[2] "{{ n }} miast"', 'msgstr[2] ""')
    po.write_text(text, encoding="utf-8")
    result = run("i18n", "status", game)
    assert "plural:" in result.output and "missing" in result.output, result.output
    check = run("check", game, "--lang", "pl")
    line = next(i for i, row in enumerate(text.split("\n"), 1) if row == 'msgctxt "plural"')
    assert f"locale/pl.po:{line + 1}: 'plural:" in check.output or f"locale/pl.po:{line}: 'plural:" in check.output, check.output
