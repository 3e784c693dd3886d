"""Mestá in English and Czech: complete, current, and no Slovak left on the cards."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from conftest import edit, line_of, run
from pdfread import text


def test_english_and_czech_are_complete():
    result = run("i18n", "status")
    assert result.exit_code == 0
    assert re.search(r"^cs: (\d+)/\1 translated \(100 %\), 0 fuzzy, 0 missing$", result.output, re.M), result.output
    assert re.search(r"^en: (\d+)/\1 translated \(100 %\), 0 fuzzy, 0 missing$", result.output, re.M), result.output


@pytest.fixture
def translated(built_in_every_language):
    return built_in_every_language


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["Julius Caesar", "Roman Commander", "Condition:", "Economic Crisis", "pnp project"]),
        ("cs", ["Julius Caesar", "Římský velitel", "Podmínka:", "Hospodářská krize", "projektu pnp"]),
    ],
)
def test_translated_decks_carry_the_translation_and_no_slovak(translated, lang, expected):
    printed = "".join(text(translated / f"{deck}-{lang}-a4.pdf") for deck in ("events", "cities", "aids"))
    for phrase in expected:
        assert phrase in re.sub(r"\s+", " ", printed), phrase
    for slovak in ("Všetci hráči", "Podmienka", "kôpky", "Hlavné mesto", "Udalosť", "strácajú"):
        assert slovak not in printed, slovak


def test_changing_a_slovak_text_makes_exactly_it_fuzzy_and_check_names_it(mesta):
    edit(mesta / "events.yaml", "text: Všetci hráči strácajú všetky rímske mestá.", "text: Všetci hráči okamžite strácajú všetky rímske mestá.")
    result = run("i18n", "update", mesta)
    assert "cs: 0 new, 1 fuzzy, 0 obsolete" in result.output and "en: 0 new, 1 fuzzy, 0 obsolete" in result.output
    for lang in ("cs", "en"):
        with (mesta / "locale" / f"{lang}.po").open("rb") as handle:
            fuzzy = [m.context for m in read_po(handle) if m.id and m.fuzzy]
        assert fuzzy == ["julius-caesar.text"]
    check = run("check", mesta, "--lang", "all")
    assert check.exit_code == 1
    assert re.search(r"locale/cs\.po:\d+: 'julius-caesar\.text' is fuzzy", check.output)
    assert re.search(r"locale/en\.po:\d+: 'julius-caesar\.text' is fuzzy", check.output)


def _po_line(path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.startswith(needle))


def test_a_czech_text_that_does_not_fit_is_reported_at_its_po_entry_naming_the_card(mesta):
    po = mesta / "locale" / "cs.po"
    edit(po, 'msgstr "Všichni hráči ztrácejí všechna římská města."', 'msgstr "' + "Všichni hráči ztrácejí všechna římská města. " * 20 + '"')
    line = _po_line(po, 'msgid "Všetci hráči strácajú všetky rímske mestá."')
    result = run("check", mesta, "--lang", "cs")
    assert result.exit_code == 1
    assert f"locale/cs.po:{line}: text of card 'julius-caesar' does not fit its 46.0 x 29.5 mm box" in result.output
    card = line_of(mesta / "events.yaml", "id: julius-caesar")
    assert "expected a shorter translation, or a larger box or smaller min_size in layout 'mesta/event'" in result.output
    assert "; the card is at " in result.output and f"events.yaml:{card}:" in result.output  # the Slovak source is fine, but this is the card


def test_a_czech_rulebook_block_with_an_unknown_symbol_is_reported_at_its_po_entry(mesta):
    po = mesta / "locale" / "cs.po"
    edit(po, 'msgstr "Existuje také anglická verze: {{ game.url }}"', 'msgstr "Existuje také anglická verze: {{ game.url }} **tučně"')
    result = run("check", mesta, "--lang", "cs")
    assert result.exit_code == 1
    line = _po_line(po, 'msgid "Existuje tiež anglická verzia: {{ game.url }}"')
    assert f"locale/cs.po:{line}: the cs translation of 'rulebook.rules/01-uvod.md:" in result.output and "has '**', which the source does not" in result.output


@pytest.mark.parametrize(
    ("old", "new", "what"),
    [
        ("verze: {{ game.url }}", "verze: {{ game.uri }}", "drops '{{ game.url }}'"),
        ("verze: {{ game.url }}", "verze.", "drops '{{ game.url }}'"),
        ("verze: {{ game.url }}", "verze: {{ game.url }} {{ game.title }}", "has '{{ game.title }}', which the source does not"),
    ],
)
def test_a_translation_that_drops_or_invents_a_placeholder_is_an_error_at_its_po_line(mesta, old, new, what):
    po = mesta / "locale" / "cs.po"
    edit(po, f'msgstr "Existuje také anglická {old}"', f'msgstr "Existuje také anglická {new}"')
    line = _po_line(po, 'msgid "Existuje tiež anglická verzia: {{ game.url }}"')
    result = run("build", mesta, "--lang", "cs", "--out", mesta / "out")
    assert result.exit_code == 1
    assert f"locale/cs.po:{line}: the cs translation of 'rulebook.rules/01-uvod.md:11' {what}; expected every {{{{ template }}}}" in result.output
    assert not (mesta / "out").exists()


def test_a_translated_quoted_word_inside_a_template_is_not_a_changed_placeholder(mesta):
    result = run("check", mesta, "--lang", "all")  # cs.po and en.po translate 'áno'/'nie' inside {{ ... }}: the names used are the same
    assert result.exit_code == 0, result.output


def test_a_dropped_symbol_in_a_card_text_is_an_error(mesta):
    po = mesta / "locale" / "cs.po"
    text = po.read_text(encoding="utf-8")
    match = re.search(r'msgid "([^"]*:[a-z0-9_-]+:[^"]*)"\nmsgstr "([^"]*)"', text)
    symbol = re.search(r":[a-z0-9_-]+:", match.group(2)).group()
    po.write_text(
        text.replace(match.group(0), match.group(0).replace(f'msgstr "{match.group(2)}"', f'msgstr "{match.group(2).replace(symbol, "", 1)}"')),
        encoding="utf-8",
    )
    result = run("check", mesta, "--lang", "cs")
    assert result.exit_code == 1
    assert f"drops '{symbol}'" in result.output and "[translation-placeholder]" in result.output


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('msgstr "Města"', 'msgstr "Města', '{line}:8: this string is not quoted and closed; expected "text" with only'),
        ('msgstr "Města"', 'msgstr Města"', "{line}:8: this string is not quoted and closed"),
        ('msgstr "Města"', 'msgstr "Města"\nmsgstr "Mesta"', "{next}:1: msgstr is out of place; expected msgctxt or msgid"),
        ('msgstr "Města"', 'msgstr "Města"\nMěsta', "{next}:1: cannot read this line: 'Města'; expected a keyword"),
        ('msgstr "Města"\n', "", '{ctxt}: this entry has no msgstr; expected msgstr "..." after its msgid'),
    ],
)
def test_a_po_syntax_error_is_reported_at_its_line_and_nothing_of_the_catalogue_is_used(mesta, old, new, message):
    po = mesta / "locale" / "cs.po"
    line = _po_line(po, 'msgstr "Města"')
    edit(po, old, new)
    broken = po.read_bytes()
    result = run("check", mesta, "--lang", "cs")
    assert result.exit_code == 2
    assert f"locale/cs.po:{message.format(line=line, next=line + 1, ctxt=line - 2)}" in result.output
    assert "has no cs translation" not in result.output  # not one error per entry of a catalogue that cannot be read
    assert run("i18n", "update", mesta).exit_code == 2  # and update does not rewrite it
    assert po.read_bytes() == broken


def test_a_duplicate_po_entry_is_an_error_at_the_second(mesta):
    po = mesta / "locale" / "cs.po"
    first = _po_line(po, 'msgctxt "julius-caesar.text"')
    with po.open("a", encoding="utf-8") as handle:
        handle.write('\nmsgctxt "julius-caesar.text"\nmsgid "Všetci hráči strácajú všetky rímske mestá."\nmsgstr "Jiný text."\n')
    last = len(po.read_text(encoding="utf-8").splitlines()) - 2
    for command in (["check", mesta, "--lang", "cs"], ["i18n", "status", mesta], ["i18n", "update", mesta]):
        result = run(*command)
        assert result.exit_code == 2, result.output
        assert (
            f"locale/cs.po:{last}: 'julius-caesar.text' appears twice (first at line {first}); expected each msgctxt and msgid once (merge the two entries) [po-duplicate]"
            in result.output
        )


@pytest.mark.parametrize("bad", ["../cs2", "cs/x", "zz", "", ".hidden", "C:\\x"])
def test_i18n_update_add_refuses_what_is_not_a_language_code(mesta, bad):
    before = sorted(p.name for p in (mesta / "locale").iterdir())
    result = run("i18n", "update", mesta, "--add", bad)
    assert result.exit_code == 1
    assert f"locale: '{bad}' is not a language code; expected a locale such as 'cs', 'en' or 'pt_BR' (it names the file LANG.po) [lang-code]" in result.output
    assert sorted(p.name for p in (mesta / "locale").iterdir()) == before
    assert not (mesta / "cs2.po").exists()


def test_i18n_update_add_accepts_a_locale_with_a_territory(mesta):
    result = run("i18n", "update", mesta, "--add", "pt_BR")
    assert result.exit_code == 0, result.output
    assert (mesta / "locale" / "pt_BR.po").is_file()


def test_a_catalogue_or_locale_folder_that_links_out_of_the_game_folder_is_not_read(mesta, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (mesta / "locale" / "cs.po").rename(outside / "cs.po")
    (mesta / "locale" / "cs.po").symlink_to(outside / "cs.po")
    result = run("check", mesta, "--lang", "cs")
    assert result.exit_code == 1
    assert "locale/cs.po: cs.po is a link to outside the game folder; expected the catalogues inside it [path-outside]" in result.output
    assert str(outside) not in result.output, "no path outside the game folder in a message"
    (mesta / "locale").rename(outside / "locale")
    (mesta / "locale").symlink_to(outside / "locale")
    before = (outside / "locale" / "messages.pot").read_bytes()
    result = run("i18n", "update", mesta)
    assert result.exit_code == 1
    assert "locale: locale/ is a link to outside the game folder; expected the catalogues inside it [path-outside]" in result.output
    assert (outside / "locale" / "messages.pot").read_bytes() == before


def test_a_translation_nested_too_deep_is_an_error_at_its_po_entry(mesta):
    po = mesta / "locale" / "cs.po"
    edit(po, 'msgstr "Existuje také anglická verze: {{ game.url }}"', 'msgstr "' + "> " * 40 + 'Existuje také anglická verze: {{ game.url }}"')
    line = _po_line(po, 'msgid "Existuje tiež anglická verzia: {{ game.url }}"')
    result = run("check", mesta, "--lang", "cs")
    assert result.exit_code == 1
    assert f"locale/cs.po:{line}: lists, quotes and ::: blocks nest more than 20 levels deep here" in result.output


# What pofilter checks here: the checks of placeholders and markup that Weblate also runs
# on every string (variables, xmltags, escapes, newlines, tabs, printf on '%' signs) and
# the number of plural forms. Left out: pythonbraceformat (pofilter reads any '{...}' as a
# Python format field, and Jinja's dict literals {4: 'štvoricu'} hold translated words;
# pnp never formats with str.format, and Weblate runs its brace check only on entries
# flagged python-brace-format, which pnp writes on none) and the stylistic checks
# (brackets, end punctuation, sentence count), which report true differences of languages.
POFILTER_CHECKS = ("printf", "variables", "xmltags", "nplurals", "escapes", "newlines", "tabs")


@pytest.mark.parametrize("lang", ["cs", "en"])
def test_the_catalogues_pass_pofilter_and_carry_no_false_format_flags(mesta, lang, tmp_path):
    import shutil
    import subprocess

    po = mesta / "locale" / f"{lang}.po"
    text = po.read_text(encoding="utf-8") + (mesta / "locale" / "messages.pot").read_text(encoding="utf-8")
    assert "python-format" not in text and "python-brace-format" not in text  # pnp formats nothing the Python way
    if not shutil.which("pofilter"):
        pytest.skip("pofilter (translate-toolkit, in the test extras) is not installed")
    out = tmp_path / "failures.po"
    args = [arg for check in POFILTER_CHECKS for arg in ("-t", check)]
    subprocess.run(["pofilter", "--progress=none", *args, str(po), str(out)], check=True, capture_output=True)
    failures = [line for line in out.read_text(encoding="utf-8").splitlines() if line.startswith("# (pofilter)")] if out.exists() else []
    assert failures == []
    if shutil.which("msgfmt"):
        subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], check=True)


def test_the_rulebook_counts_with_plurals_in_every_language(mesta):
    """Every count printed with a noun agrees with it: Slovak and Czech have three forms, English two."""
    pot = read_po((mesta / "locale" / "messages.pot").open("rb"))
    plurals = [m for m in pot if m.context == "plural"]
    assert len(plurals) >= 9 and ("{{ n }} karta mesta", "{{ n }} kariet miest") in [m.id for m in plurals]
    for lang, count in (("cs", 3), ("en", 2)):
        catalog = read_po((mesta / "locale" / f"{lang}.po").open("rb"))
        forms = [m.string for m in catalog if m.context == "plural"]
        assert len(forms) == len(plurals) and all(len(f) == count and all(f) for f in forms), lang
    status = run("i18n", "status", mesta)
    assert "cs: " in status.output and "(100 %)" in status.output


@pytest.mark.parametrize("lang", ["cs", "en"])
def test_the_catalogues_carry_no_garbled_previous_texts(mesta, lang):
    """A previous text (`#| msgid "..."`, msgmerge's note of what a fuzzy entry was made
    for) is a comment of its own kind; one broken into translator comments (`# | msgid`,
    lines of a template after `# `) is noise a translator's tool shows beside the entry."""
    lines = (mesta / "locale" / f"{lang}.po").read_text(encoding="utf-8").splitlines()
    header = next(n for n, line in enumerate(lines) if line.startswith("msgid"))
    garbled = [n + 1 for n, line in enumerate(lines) if n > header and (line.startswith("# |") or line.startswith("# ") and "{{" in line)]
    assert garbled == []
    previous = [line for line in lines if line.startswith("#|")]
    assert all(re.match(r'#\| (msgctxt |msgid |msgid_plural )?"', line) for line in previous), previous
