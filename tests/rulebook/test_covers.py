"""What a reader of a rulebook notices first: a cover with the titles, the author and the
game's own cards; a back cover that is not blank (the booklet's too); each mode's book
naming its mode; the edition's notes gathered after the author's text; a picture's caption
on the picture's page; headings numbered only if the game asks."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import edit, run
from makers import FILLER, build_book, make_game, pages_text, squash

from pnp.rulebook.booklet import saddle_order


def test_the_mesta_cover_names_the_author_publisher_and_edition(built_in_every_language: Path) -> None:
    for lang, title in (("sk", "Mestá Pravidlá"), ("cs", "Města Pravidla"), ("en", "Cities Rules")):
        pages = pages_text(built_in_every_language / f"rules-{lang}-a4.pdf")
        cover = squash(pages[0])
        assert cover.startswith(f"{title} Stanislav Hoferek"), cover
        assert "Greenie knižnica" in cover and "(2018)" in cover, cover
        assert "Hannibal" in cover and ("Kartágo" in cover or "Carthage" in cover)  # the cards fanned out, drawn by their layouts
        assert "Stanislav Hoferek" not in squash(pages[1])  # the contents, on a page of their own


def test_the_back_cover_carries_the_credits_and_the_components(built: Path) -> None:
    import pypdfium2 as pdfium

    back = squash(pages_text(built / "rules-sk-a4.pdf")[-1])
    assert "CC BY-NC-ND 4.0" in back and "Stanislav Hoferek" in back and "http://greenie.elist.sk/knihy/cities" in back
    assert all(re.search(rf"{deck} \d+ ×", back) for deck in ("Mestá", "Udalosti", "Prehľad")), back  # each deck under its card
    booklet = pdfium.PdfDocument(str(built / "rules-sk-a5-booklet.pdf"))
    width, height = booklet[0].get_size()
    assert saddle_order(len(booklet) * 2)[0][0] == len(booklet) * 2  # the first sheet's left half: the booklet's last page
    outside = squash(booklet[0].get_textpage().get_text_bounded(left=0, bottom=0, right=width / 2, top=height))
    assert "CC BY-NC-ND 4.0" in outside  # the back of the folded booklet, not a blank page


def test_the_author_s_chapters_hold_no_notes_of_the_edition(built_in_every_language: Path) -> None:
    for lang, heading, note, first in (
        ("sk", "O tomto vydaní", "Poznámka", "Pravidlá hry Mestá"),
        ("cs", "O tomto vydání", "Poznámka", "Pravidla hry Města"),
        ("en", "About this edition", "Note", "The rules of Cities"),
    ):
        pages = [squash(page) for page in pages_text(built_in_every_language / f"rules-{lang}-a4.pdf")]
        start = next(i for i, page in enumerate(pages) if i > 1 and f" {heading} " in f" {page} ")
        chapters = " ".join(pages[2:start]) + pages[start].split(heading)[0]
        assert note not in chapters and "pnp:" not in chapters, lang
        notes = " ".join(pages[start:]).split(heading, 1)[1]
        assert notes.startswith(f" 1 {first}") and " 12 " in notes  # the twelve notes, gathered and numbered
        assert heading in pages[1]  # listed in the contents


def test_mesta_headings_are_not_numbered(built: Path) -> None:
    contents = squash(pages_text(built / "rules-sk-a4.pdf")[1])
    assert re.search(r"Obsah O hre \d", contents) and not re.search(r"\b1 O hre", contents), contents


def test_each_mode_s_book_names_its_mode_on_its_cover_and_in_its_running_head(tmp_path: Path) -> None:
    game = make_game(tmp_path / "hra")
    edit(game / "game.yaml", "strings:\n", "strings:\n  mode_solo: Hra jedného hráča\n")
    out = build_book(game)
    for mode, name in (("basic", "Basic"), ("solo", "Hra jedného hráča")):
        pages = pages_text(out / f"rules-{mode}-sk-a4.pdf")
        assert squash(pages[0]).startswith(f"Hra Pravidlá {name} "), pages[0]
        assert f"Hra: Pravidlá — {name}" in pages[2]  # the running head


def test_each_mode_s_book_fans_out_the_cards_its_cover_template_names(tmp_path: Path) -> None:
    game = make_game(tmp_path / "hra")
    cover = "    cover: [\"cards/{{ {'basic': 'c2', 'solo': 'c4'}[mode] }}\"]\n"
    edit(game / "game.yaml", "    modes: [basic, solo]\n", "    modes: [basic, solo]\n" + cover)
    out = build_book(game)
    for mode, shown, other in (("basic", "Karta 2", "Karta 4"), ("solo", "Karta 4", "Karta 2")):
        front = squash(pages_text(out / f"rules-{mode}-sk-a4.pdf")[0])
        assert shown in front and other not in front, front


def test_a_cover_template_that_fails_is_reported_at_its_line(tmp_path: Path) -> None:
    game = make_game(tmp_path / "hra")
    edit(game / "game.yaml", "    modes: [basic, solo]\n", "    modes: [basic, solo]\n    cover: [\"cards/{{ {'basic': 'c2'}[mode] }}\"]\n")
    result = run("check", game)
    assert result.exit_code == 1, result.output
    assert "hra/game.yaml:12:13: cannot fill in the template: there is no key 'solo'; expected one of: basic [template]" in result.output.replace(
        str(tmp_path) + "/", ""
    ), result.output


def test_a_caption_and_its_picture_are_on_one_page(tmp_path: Path) -> None:
    """Figures at every height of a page: each caption is on the page of its card, and a
    caption or text left behind never leaves its page nearly empty."""
    figures = "".join(f"{FILLER * (1 + n % 4)}\n\nObrázok {n:02d}: karta.\n\n![](card:cards/c{1 + n % 5})\n\n" for n in range(14))
    pages = [squash(p) for p in pages_text(build_book(make_game(tmp_path / "hra", turn=f"# Priebeh hry\n\n{figures}")) / "rules-basic-sk-a4.pdf")]
    start = next(i for i, text in enumerate(pages) if i > 1 and "Priebeh hry Hráči" in text)
    pages[start] = pages[start].split("Priebeh hry Hráči", 1)[1]  # the first chapter's table prints the cards' text too
    seen = 0
    for number, text in enumerate(pages[start:-1], start + 1):
        captions = len(re.findall(r"Obrázok \d\d", text))
        assert captions == text.count("Hráč získa mesto."), (number, text)
        seen += captions
    assert seen == 14


def test_numbering_off_prints_headings_and_references_without_numbers(tmp_path: Path) -> None:
    game = make_game(tmp_path / "hra")
    edit(game / "game.yaml", "    modes: [basic, solo]\n", "    modes: [basic, solo]\n    numbering: false\n")
    pages = [re.sub(r"[ \u00a0]+", " ", page) for page in pages_text(build_book(game) / "rules-basic-sk-a4.pdf")]
    text = squash(" ".join(pages))
    assert re.search(r"^Cieľ hry$", pages[2], re.M) and "1 Cieľ hry" not in text
    assert re.search(r"pozri aj Príprava, s\. \d+ a prípravu \(s\. \d+\)", text), text


def test_components_show_each_deck_with_its_count(tmp_path: Path) -> None:
    game = make_game(tmp_path / "hra")
    edit(game / "rules" / "02-turn.md", "# Priebeh hry\n", "# Priebeh hry\n\n::: components\nV krabici:\n:::\n")
    pages = pages_text(build_book(game) / "rules-basic-sk-a4.pdf")
    page = next(squash(p) for p in pages[2:-1] if "V krabici:" in p)
    assert re.search(r"V krabici: Karta 1 Hráč získa mesto\. cards 5 ×", page), page


def test_a_round_token_on_the_cover_is_drawn_round(tmp_path: Path) -> None:
    """A round token's art is laid out in its square: shown on the cover, it is clipped
    to its circle as it will be cut, not printed as the square with its corners."""
    import pypdfium2 as pdfium
    from makers import make_tokens

    game = make_tokens(tmp_path / "t", {"round": ((30, 30), "round", False)})
    (game / "rules.md").write_text("# Pravidlá\n\nHra so žetónmi.\n", encoding="utf-8")
    with (game / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("rulebooks:\n  rules:\n    title: Pravidlá\n    cover: [round/round-one]\n    files: [rules.md]\n")
    out = build_book(game)
    image = pdfium.PdfDocument(str(out / "rules-sk-a4.pdf"))[0].render(scale=2).to_pil().convert("RGB")
    yellow = [(x, y) for x in range(0, image.width, 2) for y in range(0, image.height, 2) if _near(image.getpixel((x, y)), (0xE8, 0xC5, 0x47))]
    xs, ys = [x for x, _ in yellow], [y for _, y in yellow]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    assert right - left > 100 and abs((right - left) - (bottom - top)) < 6  # the token, drawn large and square to its box
    inset = (right - left) // 10
    corners = [(left + inset, top + inset), (right - inset, top + inset), (left + inset, bottom - inset), (right - inset, bottom - inset)]
    assert not any(_near(image.getpixel(c), (0xE8, 0xC5, 0x47)) for c in corners)  # outside the circle: not the token's art
    assert _near(image.getpixel(((left + right) // 2, top + inset * 2)), (0xE8, 0xC5, 0x47))  # inside it


def _near(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    return all(abs(a - b) < 12 for a, b in zip(pixel, colour))


def test_a_character_no_font_has_in_pnps_own_words_or_the_author_is_reported(tmp_path: Path) -> None:
    """Words no file of the game holds line by line (pnp's own, as a game's pnp.ID
    string overrides them, and the author on the cover) are checked for missing glyphs
    too, not printed as blanks while pnp check finds no problems."""
    assert run("new", tmp_path / "g").exit_code == 0
    game = tmp_path / "g"
    edit(game / "game.yaml", "\nstrings:\n", '\nstrings:\n  pnp.rulebook.contents: "Obsah \U0001f9ff"\n')
    edit(game / "game.yaml", "author: Your Name", 'author: "Ann \U0001f9ff Lee"')
    result = run("check", game)
    assert result.exit_code == 1
    found = [line for line in result.output.splitlines() if "[font-glyph]" in line]
    assert any("the rulebook's text 'Obsah \U0001f9ff'" in line and "'\U0001f9ff' (U+1F9FF), missing from font 'sans-bold'" in line for line in found), (
        result.output
    )
    assert any("the rulebook's text 'Ann \U0001f9ff Lee'" in line for line in found), result.output
    assert all(line.split(" ")[0].split("/")[-1].startswith("game.yaml:") for line in found), found  # at the rulebook's entry
