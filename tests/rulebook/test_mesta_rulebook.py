"""The Mestá rulebook and reference card, as a player reads them: every section of the
author's rules is in the PDF, the counts it prints follow the cards, every event is listed,
and the reference card names every symbol."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from conftest import edit, line_of, run
from pdfread import MM, card_boxes, reader, text

from pnp.base.paths import DEFAULT_GAME

RULES = DEFAULT_GAME / "rules"
HEADING = re.compile(r"^#{1,3} (.+?)\s*\{#[\w.:-]+\}\s*$", re.M)
CITIES = re.compile(r"V hre je spolu (\d+) miest")


def squash(s: str) -> str:
    """Whitespace-insensitive text, with line-end hyphenation undone."""
    return re.sub(r"\s+", " ", re.sub(r"-\n", "", s)).strip()


def load(name: str):
    return yaml.safe_load((DEFAULT_GAME / name).read_text(encoding="utf-8"))


def rulebook_files() -> list[Path]:
    return [DEFAULT_GAME / name for name in load("game.yaml")["rulebooks"]["rules"]["files"]]


def headings() -> list[str]:
    return [title for path in rulebook_files() for title in HEADING.findall(path.read_text(encoding="utf-8"))]


def rulebook_text(folder: Path) -> str:
    pdf = folder / "rules-sk-a4.pdf"
    assert pdf.is_file(), sorted(p.name for p in folder.iterdir())
    return squash(text(pdf))


def test_every_file_of_the_rulebook_is_listed_in_order():
    listed = load("game.yaml")["rulebooks"]["rules"]["files"]
    assert listed == sorted(f"rules/{p.name}" for p in RULES.glob("*.md"))


def test_the_rulebook_has_every_section_of_the_authors_rules():
    # The author's headings (003_9d2172e7b2aab3be.txt), each a section of ours.
    authors = ["Cieľ hry", "Verzie hry", "Priebeh hry", "Divy sveta", "Mestá", "Príklad hry", "Rozdávanie a počet hráčov", "Udalosti", "Tipy pre hráčov"]
    authors.append("Historické okienko")
    assert set(authors) <= set(headings())


def test_the_rulebook_pdf_prints_every_section_heading(built):
    printed = rulebook_text(built)
    for title in headings():
        assert title in printed, title


def test_the_printed_city_count_is_the_number_of_city_cards(built):
    cities = load("cities.yaml")
    assert CITIES.findall(rulebook_text(built)) == [str(len(cities))]


def test_removing_a_city_changes_the_printed_count(mesta, tmp_path):
    cities = mesta / "cities.yaml"
    before = cities.read_text(encoding="utf-8")
    cities.write_text(re.sub(r"(?m)^- id: cirta\n(?:  .*\n?)*", "", before), encoding="utf-8")
    count = len(yaml.safe_load(cities.read_text(encoding="utf-8")))
    assert count == len(yaml.safe_load(before)) - 1
    result = run("build", mesta, "--out", tmp_path / "out", "--force")
    assert result.exit_code == 0, result.output
    assert CITIES.findall(rulebook_text(tmp_path / "out" / "mesta")) == [str(count)]


def test_every_event_is_listed_with_its_text(built):
    printed = rulebook_text(built)
    for card in load("events.yaml"):
        assert squash(card["title"]) in printed, card["id"]
        assert squash(re.split(r"[.\n]", card["text"])[0]) in printed, card["id"]


def test_the_event_total_follows_the_cards(built):
    total = sum(card.get("copies", 1) for card in load("events.yaml"))
    assert f"V hre je {total} kariet udalostí" in rulebook_text(built)


def test_a_hand_written_count_that_the_data_contradicts_is_an_error(mesta):
    counted = "{% plural cities | length %}V hre je spolu {{ n }} mesto{% pluralform %}V hre sú spolu {{ n }} mestá{% pluralform %}V hre je spolu {{ n }} miest{% endplural %}"
    edit(mesta / "rules" / "04-mesta.md", counted, "V hre je spolu 55 miest")
    result = run("check", mesta)
    assert result.exit_code == 1
    line = line_of(mesta / "rules" / "04-mesta.md", "55 miest")
    assert f"rules/04-mesta.md:{line}:16: the text says '55 miest' but the data says 54" in result.output


@pytest.mark.parametrize(
    "words",
    ["8 miest s divmi sveta", "5 neutrálnych miest", "7 miest z každej ríše", "9 impérií", "70 kariet udalostí"],
)
def test_every_fact_catches_its_number(mesta, words):
    (mesta / "rules" / "10-historia.md").open("a", encoding="utf-8").write(f"\nV hre je {words}.\n")
    result = run("check", mesta)
    assert result.exit_code == 1
    assert f"the text says '{words.split(' ', 1)[0]} " in result.output and "[rulebook-fact]" in result.output


def test_the_reference_card_names_every_symbol(built):
    game = load("game.yaml")
    enums = load("rules.yaml")["enums"]  # disciplines, empires (their emblems) and kinds of events (their icons)
    names = {value: attrs["name"] for values in enums.values() for value, attrs in values.items()}
    printed = squash(text(built / "aids-sk-a4.pdf"))
    for svg in sorted((DEFAULT_GAME / "symbols").glob("*.svg")):
        if svg.stem in ("mesto", "udalost"):  # the marks of the two decks' backs
            continue
        label = game.get("symbol_names", {}).get(svg.stem) or names[svg.stem]
        assert squash(label) in printed, svg.stem


def test_the_reference_card_shows_the_turn(built):
    printed = squash(text(built / "aids-sk-a4.pdf"))
    for step in load("aids.yaml")[0]["steps"].split("\n"):
        assert squash(step.replace("**", "")) in printed, step


def test_the_reference_card_is_four_to_a_sheet_and_one_per_player(built):
    pdf = reader(built / "aids-sk-a4.pdf")
    boxes = card_boxes(pdf.pages[0])
    assert len(boxes) == load("aids.yaml")[0]["copies"] == 4
    assert {(round(w / MM, 2), round(h / MM, 2)) for _, _, w, h in boxes} == {(95.0, 130.0)}


def test_number_columns_are_right_aligned(built):
    """The cities per empire, the copies of each event and the cities of each deal stand
    flush right under their headings (the tables say `---:`)."""
    pages = reader(built / "rules-sk-a4.pdf").pages
    for header, first_value in (("Miest", "6"), ("Počet", "1×")):
        page = next(p for p in pages if re.search(rf"\b{header}\b", p.extract_text()))
        found: dict[str, float] = {}

        def visit(text, cm, tm, font, size, found=found) -> None:
            found.setdefault(text.strip(), tm[4])

        page.extract_text(visitor_text=visit)
        assert found[first_value] > found[header] + 2 * MM, (header, found.get(first_value), found.get(header))


def test_the_watcher_sets_the_rulebooks_from_their_last_pages_and_writes_a_fresh_builds_files(mesta, tmp_path, monkeypatch):
    """A rebuild in the watcher starts each book from the pages it last settled on: an
    edit of an event's text that moves no page needs one pass for both books, one that moves
    them goes on until they settle; either way the rulebooks are byte for byte those of a
    fresh build of the same folder."""
    import multiprocessing

    from pnp.base.output import Output, writing_under
    from pnp.live.session import Session
    from pnp.pipeline.build import build
    from pnp.pipeline.reuse import Reuse
    from pnp.project.options import BuildOptions
    from pnp.rulebook import writer

    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])  # set in this process, to count the passes
    passes = []
    one_pass = writer._one_pass
    monkeypatch.setattr(writer, "_one_pass", lambda *args, **kwargs: passes.append(args[0].id) or one_pass(*args, **kwargs))
    out = tmp_path / "out"
    session = Session(mesta, [out])

    def rulebooks(folder: Path, out: Path, session: Session | None) -> dict[str, bytes]:
        passes.clear()
        with writing_under(Output(out)):
            build(folder, BuildOptions(out=out), reuse=session or Reuse())
        return {path.name: path.read_bytes() for path in sorted((out / "mesta").glob("rules-*.pdf"))}

    cold = rulebooks(mesta, out, session)
    assert len(cold) == 2 and len(passes) == 2  # finding the pages, then drawing them: the booklet copies the paper book's
    edit(mesta / "events.yaml", "text: Všetci hráči strácajú všetky rímske mestá.", "text: Všetci hráči stratia všetky rímske mestá.")
    warm = rulebooks(mesta, out, session)
    assert len(passes) == 1  # the pages kept were right: one pass draws both books
    assert warm != cold and warm == rulebooks(mesta, tmp_path / "fresh", None)
    edit(mesta / "rules" / "01-uvod.md", "Existuje tiež anglická verzia", "Nový odsek, ktorý posunie strany.\n\n" * 40 + "Existuje tiež anglická verzia")
    moved = rulebooks(mesta, out, session)
    assert len(passes) > 1
    assert moved == rulebooks(mesta, tmp_path / "fresh2", None)


def test_a_symbol_with_text_of_its_own_reaches_both_books(mesta, tmp_path):
    """An SVG symbol whose text asks for a generic font ('serif': svglib's Times-Roman, a
    standard font the cards never name) is drawn in the paper book and, copied with its
    font, in the booklet."""
    edit(mesta / "symbols" / "armada.svg", "</svg>", '<text x="50" y="95" font-family="serif" font-size="20">A</text>\n</svg>')
    result = run("build", mesta, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    for name in ("rules-sk-a4.pdf", "rules-sk-a5-booklet.pdf"):
        fonts = reader(tmp_path / "out" / "mesta" / name).pages[0]["/Resources"]["/Font"]  # a document's fonts: one dictionary for all its pages and forms
        assert "/Times-Roman" in {font.get_object()["/BaseFont"] for font in fonts.values()}, name
