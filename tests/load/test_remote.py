"""A deck's data from the web (pnp/load/remote.py): a published CSV fetched at each build,
its values located at URL:row:col, a copy kept under --out for a build without the
network, and every way the fetch can fail located at the `data:` line. The server is a
local http.server on 127.0.0.1 in a thread: the tests need no internet."""

from __future__ import annotations

import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import edit, line_of, make_small_game, run
from pdfread import text

import pnp.load.game

CSV = "id,title,text,color\na,Prvá z webu,Hráč získa mesto.,red\nb,Druhá z webu,Hráč stráca mesto.,\n"


class Sheet:
    """What the server serves (path -> (status, content type, body)) and the requests it answered."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[int, str, bytes]] = {"/pub.csv": (200, "text/csv", CSV.encode())}
        self.requests: list[str] = []


@pytest.fixture
def server():
    sheet = Sheet()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            sheet.requests.append(self.path)
            status, kind, body = sheet.pages.get(self.path, (404, "text/plain", b"no such sheet"))
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    sheet.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    sheet.stop = lambda: (httpd.shutdown(), httpd.server_close())
    yield sheet
    if thread.is_alive():
        sheet.stop()


def web_game(folder: Path, url: str) -> Path:
    make_small_game(folder)
    edit(folder / "game.yaml", "data: cards.yaml", f"data: '{url}'")
    (folder / "cards.yaml").unlink()
    return folder


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
        "and no copy was kept under --out from an earlier build; expected the address of a published CSV and a working network connection [data-url]"
        in result.output
    )


@pytest.mark.parametrize(
    "page, expected",
    [
        ("/missing.csv", "the server answered 404 Not Found; expected the address of a published CSV; in Google Sheets: File > Share > Publish to web"),
        ("/page", "the server sent a web page, not a CSV; expected the address of a published CSV (in Google Sheets: File > Share > Publish to web"),
        ("/big.csv", "the CSV is 2000 bytes; expected at most 1000 (split the deck into several sheets)"),
    ],
)
def test_what_is_not_a_csv_is_an_error_at_the_data_line(server, tmp_path, monkeypatch, page, expected):
    server.pages["/page"] = (200, "text/html; charset=utf-8", b"<!DOCTYPE html><html><body>Sign in</body></html>")
    server.pages["/big.csv"] = (200, "text/csv", b"x" * 2000)
    monkeypatch.setattr(pnp.load.game, "MAX_BYTES", 1000)
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
    assert "'ftp://example.org/cards.csv' is not a web address pnp fetches; expected an https:// URL of a published CSV [data-url]" in result.output
