"""A deck's data from the web (pnp/load/remote.py): a published CSV or XLSX fetched at
each build, its values located at URL:row:col (URL:Sheet!C12), a copy kept under --out
for a build without the network, --offline that fetches nothing, and every way the fetch
can fail located at the `data:` line. The server is a local http.server on 127.0.0.1 in
a thread (tests/websheet.py): the tests need no internet."""

from __future__ import annotations

import os
import time

import pytest
from conftest import edit, line_of, run
from pdfread import text
from websheet import CSV, serving, web_game

import pnp.load.spreadsheets


@pytest.fixture
def server():
    yield from serving()


def test_the_cards_come_from_the_published_csv_and_a_copy_is_kept_under_out(server, tmp_path):
    game = web_game(tmp_path / "hra", f"{server.url}/pub.csv")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "Prvá z webu" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")
    kept = list((tmp_path / "out" / ".pnp-cache").iterdir())
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == CSV
    assert sorted(p.name for p in game.iterdir()) == ["game.yaml", "rules.yaml"]  # nothing written in the game folder


def test_a_mistake_in_the_sheet_is_located_at_url_row_col(server, tmp_path):
    server.pages["/pub.csv"] = (200, "text/csv", CSV.replace(",red", ",rde").encode())
    game = web_game(tmp_path / "hra", f"{server.url}/pub.csv")
    result = run("check", game)
    assert f"{server.url}/pub.csv:2:4: field 'color' of card 'a' is 'rde', which is not in 'color' (did you mean 'red'?)" in result.output


def test_each_build_fetches_again_and_workers_read_the_parents_copy(server, tmp_path):
    game = web_game(tmp_path / "hra", f"{server.url}/pub.csv")
    edit(
        game / "game.yaml",
        "  cards: {",
        "  more: {type: card, data: 'URL', front: basic/card, back: basic/back}\n  cards: {".replace("URL", f"{server.url}/pub.csv?2"),
    )
    server.pages["/pub.csv?2"] = (200, "text/csv", CSV.replace("a,", "c,").replace("b,", "d,").replace("webu", "druhého").encode())
    result = run("build", game, "--out", tmp_path / "out", "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert sorted(server.requests) == ["/pub.csv", "/pub.csv?2"]  # once each: the two workers fetched nothing
    assert "Prvá z druhého" in text(tmp_path / "out" / "hra" / "more-sk-a4.pdf")
    server.pages["/pub.csv"] = (200, "text/csv", CSV.replace("Prvá z webu", "Opravená").encode())
    assert run("build", game, "--out", tmp_path / "out").exit_code == 0
    assert "Opravená" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")


def test_offline_a_build_uses_the_kept_copy_and_says_how_old_it_is(server, tmp_path):
    game = web_game(tmp_path / "hra", f"{server.url}/pub.csv")
    assert run("build", game, "--out", tmp_path / "out").exit_code == 0
    (kept,) = (tmp_path / "out" / ".pnp-cache").iterdir()
    then = time.time() - 3 * 86400 - 600
    os.utime(kept, (then, then))
    server.stop()
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    line = line_of(game / "game.yaml", "data:")
    warning = next(w for w in result.output.splitlines() if "[data-url-offline]" in w)
    assert warning.startswith(f"{game / 'game.yaml'}:{line}:")
    assert f"cannot fetch {server.url}/pub.csv (" in warning
    assert "; using the copy fetched 3 days ago, kept in .pnp-cache/; expected the network back for the current data" in warning
    assert "Prvá z webu" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")

    result = run("build", game, "--out", tmp_path / "elsewhere")  # no copy there
    assert result.exit_code == 1
    assert f"cannot fetch {server.url}/pub.csv (" in result.output
    assert (
        "and no copy was kept under --out from an earlier build; expected the address of a published CSV or XLSX and a working network connection [data-url]"
        in result.output
    )


@pytest.mark.parametrize(
    "page, expected",
    [
        ("/missing.csv", "the server answered 404 Not Found; expected the address of a published CSV or XLSX; in Google Sheets: File > Share > Publish to web"),
        (
            "/page",
            "the server sent a web page, not a CSV or XLSX; expected the address of a published CSV or XLSX (in Google Sheets: File > Share > Publish to web",
        ),
        ("/big.csv", "the sheet is 2000 bytes; expected at most 1000 (split the deck into several sheets)"),
    ],
)
def test_what_is_not_a_csv_is_an_error_at_the_data_line(server, tmp_path, monkeypatch, page, expected):
    server.pages["/page"] = (200, "text/html; charset=utf-8", b"<!DOCTYPE html><html><body>Sign in</body></html>")
    server.pages["/big.csv"] = (200, "text/csv", b"x" * 2000)
    monkeypatch.setattr(pnp.load.spreadsheets, "MAX_BYTES", 1000)
    game = web_game(tmp_path / "hra", f"{server.url}{page}")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 1
    line = line_of(game / "game.yaml", "data:")
    column = (game / "game.yaml").read_text(encoding="utf-8").splitlines()[line - 1].index("'http") + 1
    assert f"{game / 'game.yaml'}:{line}:{column}: {server.url}{page}: {expected}" in result.output
    assert not (tmp_path / "out" / "hra").exists()


def test_a_url_of_another_scheme_is_refused(tmp_path):
    game = web_game(tmp_path / "hra", "ftp://example.org/cards.csv")
    result = run("check", game)
    assert "'ftp://example.org/cards.csv' is not a web address pnp fetches; expected an https:// URL of a published CSV or XLSX [data-url]" in result.output


def _workbook(rows: list[list[str]]) -> bytes:
    """An XLSX with a first sheet of notes and the cards on the sheet 'Cards', as bytes."""
    import io

    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Notes"
    book.active.append(["not the cards"])
    cards = book.create_sheet("Cards")
    for row in rows:
        cards.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
ROWS = [["id", "title", "text", "color"], ["a", "Prvá zo zošita", "Hráč získa mesto.", "red"], ["b", "Druhá zo zošita", "Hráč stráca mesto.", ""]]


@pytest.mark.parametrize("kind", [XLSX, "application/octet-stream"])
def test_a_published_xlsx_is_read_like_a_workbook_of_the_game_folder(server, tmp_path, kind):
    server.pages["/pub.xlsx"] = (200, kind, _workbook(ROWS))
    game = web_game(tmp_path / "hra", f"{server.url}/pub.xlsx")
    edit(game / "game.yaml", "front: basic/card", "sheet: Cards, front: basic/card")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "Prvá zo zošita" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")

    server.stop()  # the kept copy is a workbook too
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "[data-url-offline]" in result.output and "Prvá zo zošita" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")


def test_a_mistake_in_a_published_xlsx_is_located_at_its_cell(server, tmp_path):
    server.pages["/pub.xlsx"] = (200, XLSX, _workbook([ROWS[0], ROWS[1][:3] + ["rde"]]))
    game = web_game(tmp_path / "hra", f"{server.url}/pub.xlsx")
    edit(game / "game.yaml", "front: basic/card", "sheet: Cards, front: basic/card")
    result = run("check", game)
    assert f"{server.url}/pub.xlsx:Cards!D2: field 'color' of card 'a' is 'rde', which is not in 'color' (did you mean 'red'?)" in result.output


def test_a_workbook_too_large_or_not_a_workbook_is_refused_at_the_data_line(server, tmp_path, monkeypatch):
    server.pages["/fake.xlsx"] = (200, XLSX, CSV.encode())
    game = web_game(tmp_path / "hra", f"{server.url}/fake.xlsx")
    result = run("check", game)
    line = line_of(game / "game.yaml", "data:")
    assert (
        f"game.yaml:{line}:" in result.output
        and f"{server.url}/fake.xlsx: the server said it sent an XLSX workbook, but the bytes are not one; expected the address of a published CSV or XLSX [data-url]"
        in result.output
    )
    server.pages["/big.xlsx"] = (200, XLSX, _workbook(ROWS))
    monkeypatch.setattr(pnp.load.spreadsheets, "MAX_BYTES", 1000)
    edit(game / "game.yaml", "fake.xlsx", "big.xlsx")
    result = run("check", game)
    assert "/big.xlsx: the sheet is " in result.output and "bytes; expected at most 1000 (split the deck into several sheets) [data-url]" in result.output


def test_offline_fetches_nothing_and_reads_the_copy_a_build_kept(server, tmp_path):
    game = web_game(tmp_path / "hra", f"{server.url}/pub.csv")
    out = tmp_path / "out"
    line = line_of(game / "game.yaml", "data:")

    result = run("build", game, "--out", out, "--offline")  # nothing kept yet
    assert result.exit_code == 1
    assert (
        f"game.yaml:{line}:" in result.output
        and f"--offline and no copy was kept under --out by an earlier build of {server.url}/pub.csv; expected a build with the network first"
        " (it keeps a copy in .pnp-cache/ under --out), or no --offline [data-url-offline]"
        in result.output
    )
    assert server.requests == []

    assert run("build", game, "--out", out).exit_code == 0
    server.pages["/pub.csv"] = (200, "text/csv", CSV.replace("Prvá z webu", "Zmenená").encode())
    kept = {p.name: p.read_bytes() for p in (out / ".pnp-cache").iterdir()}
    for args in (["--offline", "build", game, "--out", out], ["build", game, "--out", out, "--offline"]):
        result = run(*args)
        assert result.exit_code == 0, result.output
        assert "warning" not in result.output
        assert "Prvá z webu" in text(out / "hra" / "cards-sk-a4.pdf")  # the copy, not the sheet as it is now
    assert server.requests == ["/pub.csv"]  # the first build's fetch alone

    server.pages["/pub.csv"] = (200, "text/csv", CSV.replace(",red", ",rde").encode())
    assert run("check", game, "--offline", "--out", out).output.strip() == "no problems found"  # the build's copy, in its --out
    result = run("check", game, "--offline", "--out", tmp_path / "elsewhere")
    assert "--offline and no copy was kept under --out by an earlier build" in result.output and result.exit_code == 1
    assert run("list", game, "--offline", "--out", out).exit_code == 0
    assert server.requests == ["/pub.csv"]
    assert {p.name: p.read_bytes() for p in (out / ".pnp-cache").iterdir()} == kept  # nothing fetched, nothing kept anew
    assert not (tmp_path / "elsewhere").exists()


def test_check_keeps_no_copy_but_reads_the_builds_when_the_network_is_down(server, tmp_path):
    game = web_game(tmp_path / "hra", f"{server.url}/pub.csv")
    assert run("check", game, "--out", tmp_path / "out").exit_code == 0
    assert not (tmp_path / "out").exists()
    assert run("build", game, "--out", tmp_path / "out").exit_code == 0
    server.stop()
    result = run("check", game, "--out", tmp_path / "out")
    assert result.exit_code == 0 and "[data-url-offline]" in result.output and "using the copy fetched" in result.output


@pytest.mark.parametrize("kind", ["image", "font", "symbols", "rulebook file", "rulebook picture"])
def test_nothing_but_a_decks_data_is_ever_fetched(server, tmp_path, kind):
    """A web address anywhere else a game names a file (an image, a font, the symbols, a
    rulebook file and a picture in it) is refused at its line, and never asked for."""
    game = web_game(tmp_path / "hra", f"{server.url}/pub.csv")
    url = f"{server.url}/{kind.replace(' ', '-')}"
    server.pages[url.removeprefix(server.url)] = (200, "application/octet-stream", b"\x89PNG fetched")
    if kind == "image":
        (game / "layouts").mkdir()
        (game / "layouts" / "card.yaml").write_text(
            f"size: [63, 88]\nelements:\n  - text: '{{{{ title }}}}'\n    box: [5, 5, 53, 10]\n  - image: '{url}'\n    box: [5, 20, 53, 40]\n", encoding="utf-8"
        )
        edit(game / "game.yaml", "front: basic/card", "front: card")
    elif kind == "font":
        (game / "fonts").mkdir()
        (game / "fonts" / "fonts.yaml").write_text(f"web: '{url}'\n", encoding="utf-8")
    else:
        (game / "book.md").write_text(f"# Pravidlá\n\n![]({url})\n" if kind == "rulebook picture" else "# Pravidlá\n", encoding="utf-8")
        with (game / "game.yaml").open("a", encoding="utf-8") as f:
            f.write(
                f"symbols: '{url}'\n"
                if kind == "symbols"
                else f"rulebooks:\n  rules:\n    files: [book.md{', ' + repr(url) if kind == 'rulebook file' else ''}]\n"
            )
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code != 0
    named = {"image": "image", "font": "font 'web'", "symbols": "symbols", "rulebook file": "rulebook file", "rulebook picture": "image"}[kind]
    expected = "an image file" if named == "image" else "a file"
    assert (
        f"{named} '{url}' is a web address; pnp fetches nothing but a deck's data (data:); expected {expected} inside the game folder [path-url]"
        in result.output
    )
    assert server.requests == ["/pub.csv"]
