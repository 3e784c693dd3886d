"""`pnp serve`: a live preview of one game folder in the browser, on 127.0.0.1 only.

A small HTTP server (the standard library's; no framework) with GET routes only, which
take ids (language, deck, card, side, sheet PDF, page), never a path: each id is looked up
in the game loaded, anything else is a 404. The page's own files come from pnp/live/static by a
fixed list of names. The Host header must name this server (127.0.0.1 or localhost with
its port), so a web page elsewhere cannot reach it through a name of its own (DNS
rebinding). The page learns of a rebuild through server-sent events (/events) and fetches
what changed again.

Routes: / (the page), /static/NAME, /api/state?lang=L (the game: sections, items, faces
with their content hashes, problems, the load error), /api/card/L/DECK/CARD (a card's data
with where each value is), /api/sheets/L/UNIT (how many pages), /face/L/DECK/CARD/SIDE.png,
/sheet/L/UNIT/PAGE.png, /events.
"""

from __future__ import annotations

import errno
import json
import threading
import webbrowser
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from pnp.base.errors import Location, PnpError, Problem, fail
from pnp.base.output import Output, Transaction
from pnp.base.signals import Interrupted
from pnp.impose.sheets import SheetSpec
from pnp.live.poll import INTERVAL
from pnp.live.preview import Preview, State, face_size_mm, owner

STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8"}
KEEPALIVE = 15.0  # seconds between two comments on an idle event stream, so a proxy or the browser does not drop it


class PreviewServer(ThreadingHTTPServer):
    """Serves one Preview on 127.0.0.1 (port 0: a free one); bound before the game is
    loaded, so a port in use is said at once."""

    daemon_threads = True  # an open event stream does not hold the process at exit
    preview: Preview

    def __init__(self, port: int = 0):
        super().__init__(("127.0.0.1", port), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_port}/"

    def hosts(self) -> set[str]:
        return {f"127.0.0.1:{self.server_port}", f"localhost:{self.server_port}"}


class Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the standard library's name
        """Quiet: the terminal shows what pnp says, not every request."""

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        if self.headers.get("Host", "").lower() not in self.server.hosts():
            self._text(HTTPStatus.FORBIDDEN, "this server answers only at 127.0.0.1 or localhost with its port")
            return
        url = urlsplit(self.path)
        parts = [unquote(p) for p in url.path.split("/")[1:]]
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            self._route(parts, query)
        except _NotFound as missing:
            self._text(HTTPStatus.NOT_FOUND, f"no such {missing} in this game")
        except PnpError as err:  # the sheet view could not draw under --out (a file where a folder must be)
            self._text(HTTPStatus.CONFLICT, "\n".join(str(p) for p in err.problems.items))
        except (BrokenPipeError, ConnectionResetError):  # the browser went away
            pass
        except Interrupted:  # pnp was stopped while this was drawn (a sheet PDF): its files are removed, no answer
            self.close_connection = True

    def _route(self, parts: list[str], query: dict[str, str]) -> None:
        preview = self.server.preview
        match parts:
            case [""]:
                self._static("index.html")
            case ["static", name]:
                self._static(name)
            case ["events"]:
                self._events(preview)
            case ["api", "state"]:
                lang = query.get("lang", preview.default_lang)
                self._json(_state_json(preview, self._state(lang) if preview.languages else None, lang))
            case ["api", "card", lang, section, item]:
                state = self._state(lang)
                self._json(_card_json(state, _found(state.item(section, item), "card")))
            case ["api", "sheets", lang, unit]:
                state = self._state(lang)
                self._json({"pages": len(preview.sheets(state, _unit(state, unit)))})
            case ["face", lang, section, item, picture] if picture.endswith(".png"):
                state = self._state(lang)
                side = _found(state.item(section, item), "card").sides.get(picture.removesuffix(".png"))
                side = _found(side, "side")
                self._png(preview.picture(state, side), side.digest, query.get("v"))
            case ["sheet", lang, unit, picture] if picture.endswith(".png"):
                state = self._state(lang)
                pages = preview.sheets(state, _unit(state, unit))
                page = _number(picture.removesuffix(".png"))
                if page is None or not 1 <= page <= len(pages):
                    raise _NotFound("page")
                self._png(pages[page - 1], None, None)
            case _:
                raise _NotFound("page")

    def _state(self, lang: str) -> State:
        """The game in `lang`, one of its languages."""
        return _found(self.server.preview.state(lang), "language")

    def _events(self, preview: Preview) -> None:
        """Server-sent events: `change` with the generation after every rebuild, until the server stops."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        seen = preview.generation
        self.wfile.write(f"retry: 1000\nevent: hello\ndata: {seen}\n\n".encode())
        self.wfile.flush()
        while not preview.stop.is_set():
            now = preview.wait(seen, KEEPALIVE)
            if preview.stop.is_set():
                break
            self.wfile.write(f"event: change\ndata: {now}\n\n".encode() if now != seen else b": still here\n\n")
            self.wfile.flush()
            seen = now

    def _static(self, name: str) -> None:
        if name not in STATIC:
            raise _NotFound("file")
        body = resources.files("pnp.live").joinpath("static", name).read_bytes()
        self._send(HTTPStatus.OK, STATIC[name], body, {"Cache-Control": "no-cache"})

    def _png(self, body: bytes, digest: str | None, asked: str | None) -> None:
        """A picture; one asked for by its content hash never changes, so the browser keeps it."""
        fixed = digest is not None and asked == digest
        self._send(HTTPStatus.OK, "image/png", body, {"Cache-Control": "max-age=31536000, immutable" if fixed else "no-cache"})

    def _json(self, data: Any) -> None:
        body = json.dumps(data, ensure_ascii=False, default=str).encode("utf-8")
        self._send(HTTPStatus.OK, "application/json; charset=utf-8", body, {"Cache-Control": "no-cache"})

    def _text(self, status: HTTPStatus, message: str) -> None:
        self._send(status, "text/plain; charset=utf-8", (message + "\n").encode("utf-8"), {})

    def _send(self, status: HTTPStatus, kind: str, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)


class _NotFound(Exception):
    """An id that names nothing in the game loaded: answered 404, naming what kind of thing."""


def _found(value: Any, what: str) -> Any:
    if value is None:
        raise _NotFound(what)
    return value


def _number(text: str) -> int | None:
    """A number in a URL as the page writes it: ASCII digits only, a few of them (`str.isdigit`
    also takes '²' and '٣', which int() refuses or reads as another number)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def _unit(state: State, unit: str) -> int:
    """The index of a sheet PDF of the state."""
    index = _number(unit)
    return _found(index if index is not None and index < len(state.units) else None, "sheet PDF")


def _problem_json(problem: Problem) -> dict[str, Any]:
    return {"where": str(problem.location), **problem.as_json()}


def _state_json(preview: Preview, state: State | None, lang: str) -> dict[str, Any]:
    """The page's view of the game in one language; `state` None: nothing loaded yet."""
    game = state.edition.game if state else None
    owners = {}
    sections = []
    for section in state.sections.values() if state else ():
        items = []
        for item in section.items.values():
            for number in item.problems:
                owners.setdefault(number, f"{section.id}/{item.id}")
            sides = []
            for name, side in item.sides.items():
                width, height = face_size_mm(side.face)
                marks = [{"problem": m.problem, "box": m.box} for m in side.marks]
                sides.append({"side": name, "digest": side.digest, "width_mm": round(width, 2), "height_mm": round(height, 2), "marks": marks})
            shown = {"id": item.id, "title": item.title, "copies": item.copies, "where": str(item.loc), "problems": item.problems, "sides": sides}
            if item.left_out:  # not drawn: a blank of the deck's card size
                width, height = state.edition.project.card_sizes[section.id]  # a deck with a section has a front layout
                shown["left_out"] = {"width_mm": round(width, 2), "height_mm": round(height, 2)}
            items.append(shown)
        sections.append({"id": section.id, "name": section.name, "items": items})
    problems = [{**_problem_json(p), "item": owners.get(n)} for n, p in enumerate(state.problems)] if state else []
    return {
        "title": game.meta.title if game else preview.folder.name,
        "lang": lang,
        "languages": preview.languages,
        "generation": preview.generation,
        "error": [{**_problem_json(p), "item": owner(state, p) if state else None} for p in preview.error],
        "problems": problems,
        "sections": sections,
        "sheets": [{"index": i, "name": name} for i, (name, _) in enumerate(state.units)] if state else [],
    }


def _card_json(state: State, item) -> dict[str, Any]:
    """A card's data as loaded (in this language), with where each value is."""
    card = item.card
    fields = [{"name": name, "value": value, "where": str(card.loc_of(name))} for name, value in card.fields.items()] if card else []
    return {
        "id": item.id,
        "title": item.title,
        "copies": item.copies,
        "where": str(item.loc),
        "deck": card.deck if card else None,
        "type": card.type if card else None,
        "fields": fields,
        "problems": [{**_problem_json(state.problems[n]), "index": n} for n in item.problems],
    }


def _internal(exc: Exception) -> list[Problem]:
    """A bug in pnp met while rebuilding, as a problem the page shows; the server goes on."""
    message = f"internal error: {type(exc).__name__}: {exc}; expected the game to load (report this as a bug in pnp, with pnp check's output)"
    return [Problem(Location("pnp"), "internal", message)]


def _writable(out: Path) -> None:
    """--out can hold the sheet view's files (a file where a folder must be is said before
    serving, not when the sheets are first looked at); nothing is left there."""
    txn = Transaction(Output(out))
    try:
        txn.path_for(out / ".pnp-serve")
    finally:
        txn.abort()


def _bound(port: int) -> PreviewServer:
    """The server on `port`, or a located error when the system refuses it."""
    try:
        return PreviewServer(port)
    except OSError as exc:
        why = {errno.EADDRINUSE: "is in use by another program", errno.EACCES: "may not be used by this user (ports below 1024 need privileges)"}
        what = why.get(exc.errno or 0, f"cannot be served on: {exc.strerror or exc}")
        raise fail(Location(f"--port {port}"), "serve-port", f"{what}; expected a free port (or --port 0: any free one)", unreadable=True) from None


def start(
    folder: Path, out: Path, lang: str | None = None, port: int = 0, sheet: SheetSpec | None = None, poll: float = INTERVAL
) -> tuple[PreviewServer, threading.Thread]:
    """The game loaded, the server bound and the folder followed; the caller runs
    `serve_forever` (a test in a thread of its own). `sheet`: the sheet options the sheet
    view imposes with (None: the built-in defaults); `poll`: seconds between two looks at
    the decks' data on the web."""
    _writable(out)
    server = _bound(port)
    try:
        preview = Preview(folder, out, lang, sheet, poll)
        watcher = preview.follow(_internal)  # looks at the folder first: a save while loading is seen
        preview.refresh(_internal)
    except BaseException:
        server.server_close()
        raise
    server.preview = preview
    return server, watcher


def serve(
    folder: Path,
    out: Path,
    lang: str | None,
    port: int,
    browser: bool,
    say: Callable[[str], None],
    sheet: SheetSpec | None = None,
    poll: float = INTERVAL,
) -> None:
    """Serve until Ctrl-C (or SIGTERM), then stop cleanly: event streams closed, the port
    freed; Ctrl-C while the game is first loaded stops it too (nothing was written)."""
    server = None
    try:
        server, _ = start(folder, out, lang, port, sheet, poll)
        say(f"serving {folder} at {server.url} (Ctrl-C to stop)")
        if browser:
            webbrowser.open(server.url)
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        if server is not None:
            server.preview.close()
            server.server_close()
    say("stopped serving")
