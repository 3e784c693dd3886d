"""A published sheet served from 127.0.0.1: a local http.server in a thread, so the tests
of a deck's data on the web (tests/load/test_remote.py, tests/live/test_poll.py) need no
internet. `Sheet.pages` is what it serves (path -> (status, content type, body)), changed
by a test as it goes; `Sheet.requests` the paths it was asked for."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from conftest import edit, make_small_game

CSV = "id,title,text,color\na,Prvá z webu,Hráč získa mesto.,red\nb,Druhá z webu,Hráč stráca mesto.,\n"


class Sheet:
    """What the server serves and the requests it answered; `url` its address, `stop` ends it."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[int, str, bytes]] = {"/pub.csv": (200, "text/csv", CSV.encode())}
        self.requests: list[str] = []
        self.url = ""


def serving() -> Iterator[Sheet]:
    """A fixture's body: the server running while the test runs."""
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
    """The small game of conftest with its cards' data at `url`."""
    make_small_game(folder)
    edit(folder / "game.yaml", "data: cards.yaml", f"data: '{url}'")
    (folder / "cards.yaml").unlink()
    return folder
