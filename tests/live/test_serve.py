"""`pnp serve`, driven over HTTP: a server on a copy of Mestá in a thread, its page, its
pictures (decoded), problems on their cards, languages, updates after a save, a broken
file, and what it refuses."""

from __future__ import annotations

import http.client
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import edit, line_of, make_small_game, run
from PIL import Image
from stop_at import CHECKOUT, command

import pnp.live.serve
from pnp.base.paths import DEFAULT_GAME
from pnp.base.signals import Interrupted
from pnp.check.run import check_all
from pnp.impose.sheets import SheetSpec
from pnp.live.serve import PreviewServer, start
from pnp.project.project import prepare

DPI = 150  # pnp.live.preview.DPI: what the pictures are drawn at
LONG = "Všetci hráči strácajú všetky rímske mestá. " * 40  # far more than an event card's text box holds


@dataclass
class Live:
    server: PreviewServer
    folder: Path
    out: Path

    def get(self, path: str, host: str | None = None) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.server_port, timeout=30)
        try:
            connection.putrequest("GET", path, skip_host=True)
            connection.putheader("Host", host or f"127.0.0.1:{self.server.server_port}")
            connection.endheaders()
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def json(self, path: str):
        status, _, body = self.get(path)
        assert status == 200, body
        return json.loads(body)

    def picture(self, path: str) -> Image.Image:
        status, headers, body = self.get(path)
        assert status == 200 and headers["Content-Type"] == "image/png", body[:200]
        return Image.open(io.BytesIO(body)).convert("RGB")

    def item(self, key: str, lang: str = "sk") -> dict:
        section, item = key.split("/")
        state = self.json(f"/api/state?lang={lang}")
        return next(i for s in state["sections"] if s["id"] == section for i in s["items"] if i["id"] == item)


def serving(folder: Path, out: Path) -> Iterator[Live]:
    server, _ = start(folder, out)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield Live(server, folder, out)
    finally:
        server.preview.close()
        server.shutdown()
        server.server_close()


@pytest.fixture
def live(mesta: Path, tmp_path: Path) -> Iterator[Live]:
    """A server of a copy of Mestá that the test may edit."""
    yield from serving(mesta, tmp_path / "out")


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Live]:
    """One server of a copy of Mestá for the tests that only ask it: none edits the game."""
    folder = tmp_path_factory.mktemp("served")
    shutil.copytree(DEFAULT_GAME, folder / "mesta")
    yield from serving(folder / "mesta", folder / "out")


def until(check: Callable[[], object], what: str, limit: float = 30.0):
    """Wait for `check` to give something true (a save is seen within a poll; the limit is only against hanging)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


def not_blank(image: Image.Image) -> bool:
    return len(image.getcolors(maxcolors=1 << 20) or range(1 << 20)) > 50


def test_the_page_and_its_files(served: Live):
    status, headers, body = served.get("/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"/static/app.js" in body and b"/static/style.css" in body
    for name in ("app.js", "style.css"):
        assert served.get(f"/static/{name}")[0] == 200


def test_every_deck_and_card_is_a_picture_at_screen_resolution(served: Live):
    state = served.json("/api/state")
    assert state["title"] == "Mestá" and state["lang"] == "sk" and state["languages"] == ["sk", "cs", "en"]
    sections = {s["id"]: s for s in state["sections"]}
    assert {"cities", "events", "aids", ":boxes"} <= set(sections)
    assert len(sections["cities"]["items"]) == 54 and len(sections["events"]["items"]) == 53
    rim = sections["cities"]["items"][0]
    assert rim["id"] == "rim" and [s["side"] for s in rim["sides"]] == ["front", "back"]
    front = served.picture(f"/face/sk/cities/rim/front.png?v={rim['sides'][0]['digest']}")
    assert front.size == (round(44 / 25.4 * DPI), round(68 / 25.4 * DPI))  # the card's trim, 44 x 68 mm
    assert not_blank(front)
    box = served.picture("/face/sk/:boxes/cities-box/net.png")
    assert box.size[0] > front.size[0] and not_blank(box)


def test_a_cards_data_with_where_each_value_is(served: Live):
    card = served.json("/api/card/sk/events/julius-caesar")
    fields = {f["name"]: f for f in card["fields"]}
    assert fields["text"]["value"] == "Všetci hráči strácajú všetky rímske mestá."
    line = line_of(served.folder / "events.yaml", "text: Všetci hráči strácajú všetky rímske")
    assert fields["text"]["where"].endswith(f"events.yaml:{line}:9")
    assert card["deck"] == "events" and card["problems"] == []


def test_problems_are_listed_and_marked_on_their_card(mesta: Path, tmp_path: Path):
    edit(mesta / "events.yaml", "text: Všetci hráči strácajú všetky rímske mestá.", f"text: {LONG}")
    for live in serving(mesta, tmp_path / "out"):
        state = live.json("/api/state")
        overflow = [p for p in state["problems"] if p["code"] == "text-overflow"]
        assert len(overflow) == 1, state["problems"]
        line = line_of(mesta / "events.yaml", "text: Všetci hráči strácajú všetky rímske")
        assert overflow[0]["where"].endswith(f"events.yaml:{line}:9") and overflow[0]["line"] == line
        assert overflow[0]["item"] == "events/julius-caesar"
        card = live.item("events/julius-caesar")
        number = state["problems"].index(overflow[0])
        assert card["problems"] == [number]
        (mark,) = card["sides"][0]["marks"]
        x, y, w, h = mark["box"]  # the text box, as fractions of the face: not the whole card
        assert mark["problem"] == number and 0 <= x < x + w <= 1 and 0 <= y < y + h <= 1 and w * h < 0.9
        assert live.json("/api/card/sk/events/julius-caesar")["problems"][0]["code"] == "text-overflow"
        checked = check_all(prepare(mesta), ["sk"])
        assert [(p["where"], p["code"], p["message"]) for p in state["problems"]] == [(str(p.location), p.code, p.message) for p in checked.items]


def test_the_language_switch(served: Live):
    sk, en = served.item("cities/rim", "sk"), served.item("cities/rim", "en")
    assert sk["sides"][0]["digest"] != en["sides"][0]["digest"]  # Rím and Rome
    assert sk["sides"][1]["digest"] != en["sides"][1]["digest"]
    pictures = [served.picture(f"/face/{lang}/cities/rim/front.png").tobytes() for lang in ("sk", "en")]
    assert pictures[0] != pictures[1]
    assert served.json("/api/card/en/cities/rim")["title"] != served.json("/api/card/sk/cities/rim")["title"]
    assert served.get("/api/state?lang=de")[0] == 404
    assert served.get("/face/de/cities/rim/front.png")[0] == 404


def events(live: Live) -> tuple[http.client.HTTPConnection, Iterator[str]]:
    """The event stream, as the event names it sends (after its first, hello)."""
    connection = http.client.HTTPConnection("127.0.0.1", live.server.server_port, timeout=30)
    connection.request("GET", "/events")
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"

    def names() -> Iterator[str]:
        while line := response.fp.readline():
            if line.startswith(b"event: "):
                yield line[7:].strip().decode()

    stream = names()
    assert next(stream) == "hello"
    return connection, stream


def test_a_save_is_announced_and_drawn_again(live: Live):
    before = live.item("events/julius-caesar")["sides"][0]["digest"]
    old = live.picture("/face/sk/events/julius-caesar/front.png")
    untouched = live.item("events/leonidas")["sides"][0]["digest"]
    connection, stream = events(live)
    try:
        edit(live.folder / "events.yaml", "text: Všetci hráči strácajú všetky rímske mestá.", "text: Nikto nestráca nič.")
        assert next(stream) == "change"
    finally:
        connection.close()
    after = live.item("events/julius-caesar")["sides"][0]
    assert after["digest"] != before
    assert live.picture(f"/face/sk/events/julius-caesar/front.png?v={after['digest']}").tobytes() != old.tobytes()
    assert live.item("events/leonidas")["sides"][0]["digest"] == untouched
    fields = {f["name"]: f["value"] for f in live.json("/api/card/sk/events/julius-caesar")["fields"]}
    assert fields["text"] == "Nikto nestráca nič."


def test_a_broken_file_is_shown_and_the_last_good_pictures_stay(live: Live):
    cities = live.folder / "cities.yaml"
    good = cities.read_text(encoding="utf-8")
    generation = live.json("/api/state")["generation"]
    cities.write_text(good + "\n- id: [broken\n", encoding="utf-8")
    state = until(lambda: (s := live.json("/api/state"))["generation"] > generation and s["error"] and s, "the error shown")
    assert any("cities.yaml:" in p["where"] and p["line"] > 0 for p in state["error"]), state["error"]
    assert len(state["sections"]) >= 3  # the last good state
    assert not_blank(live.picture("/face/sk/cities/rim/front.png"))
    cities.write_text(good, encoding="utf-8")
    until(lambda: not live.json("/api/state")["error"], "the error gone once fixed")


def test_sheets_as_imposed_on_paper_and_nothing_written(served: Live):
    state = served.json("/api/state")
    assert [s["name"] for s in state["sheets"]] == [s["name"] for s in state["sections"] if s["id"] != ":boxes"]  # a PDF per deck
    pages = served.json("/api/sheets/sk/1")["pages"]
    assert pages >= 2
    page = served.picture("/sheet/sk/1/1.png")
    assert abs(page.size[0] - 210 / 25.4 * 60) <= 1 and abs(page.size[1] - 297 / 25.4 * 60) <= 1 and not_blank(page)  # A4 at 60 dpi
    assert served.get(f"/sheet/sk/1/{pages + 1}.png")[0] == 404
    assert served.get("/api/sheets/sk/9")[0] == 404
    assert not served.out.exists() or not any(served.out.rglob("*"))


@pytest.mark.parametrize(
    "path",
    [
        "/static/../preview.py",
        "/static/..%2Fpreview.py",
        "/static/%2e%2e/serve.py",
        "/../cards/mesta/game.yaml",
        "/face/sk/..%2F..%2Fgame.yaml/rim/front.png",
        "/face/sk/cities/rim/..%2F..%2F..%2Fetc%2Fpasswd",
        "/api/card/sk/events/..%2F..%2Fgame.yaml",
        "/game.yaml",
        "/cities.yaml",
        "/static/",
        "/sheet/sk/-1/1.png",
        "/sheet/sk/%C2%B2/1.png",  # '²': a digit to str.isdigit, not to int()
        "/sheet/sk/1/%C2%B2.png",
        "/sheet/sk/%D9%A1/1.png",  # '١', an Arabic-Indic one: not the page's way of writing 1
        "/sheet/sk/1/%D9%A1.png",
        "/api/sheets/sk/%DB%B1",
        pytest.param("/sheet/sk/1/" + "9" * 5000 + ".png", id="/sheet/sk/1/5000 digits.png"),  # more than int() reads
    ],
)
def test_no_route_takes_a_path(served: Live, path: str):
    status, _, body = served.get(path)
    assert status == 404, (path, body[:200])
    assert b"id:" not in body and b"root:" not in body


def test_another_host_and_other_methods_are_refused(served: Live):
    for host in ("evil.example:80", f"evil.example:{served.server.server_port}", "127.0.0.1", "localhost:1"):
        assert served.get("/api/state", host=host)[0] == 403
    assert served.get("/", host=f"localhost:{served.server.server_port}")[0] == 200
    connection = http.client.HTTPConnection("127.0.0.1", served.server.server_port, timeout=30)
    try:
        connection.request("POST", "/api/state", body=b"{}")
        assert connection.getresponse().status == 501
    finally:
        connection.close()


def test_the_command_prints_its_address_and_stops_on_ctrl_c(mesta: Path, tmp_path: Path):
    process = subprocess.Popen(
        [sys.executable, "-m", "pnp", "serve", str(mesta), "--no-browser", "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        line = process.stdout.readline()
        assert line.startswith(f"serving {mesta} at http://127.0.0.1:") and line.rstrip().endswith("/ (Ctrl-C to stop)"), line
        port = int(line.split("127.0.0.1:")[1].split("/")[0])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/api/state")
        assert json.loads(connection.getresponse().read())["title"] == "Mestá"
        connection.close()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0 and out.strip() == "stopped serving" and "Traceback" not in err, (out, err)


def test_a_folder_without_a_game_is_refused_before_serving(tmp_path):
    result = run("serve", tmp_path, "--no-browser", "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert f"{tmp_path}: no game.yaml in this folder; expected a game folder such as cards/mesta [game-missing]" in result.output
    assert "internal error" not in result.output and "serving" not in result.output


def test_a_port_in_use_is_said_before_loading(mesta: Path, tmp_path: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", mesta, "--no-browser", "--port", port, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert f"--port {port}: is in use by another program; expected a free port (or --port 0: any free one) [serve-port]" in result.output
    assert "internal error" not in result.output and "serving" not in result.output


def test_an_out_folder_under_a_file_is_said_before_serving_and_while_serving(mesta: Path, tmp_path: Path):
    (tmp_path / "file").write_text("not a folder")
    result = run("serve", mesta, "--no-browser", "--out", tmp_path / "file" / "out")
    assert result.exit_code == 1, result.output
    assert (
        "file: is a file where a folder must be; expected a folder (move the file away, or choose another folder with --out) [output-not-folder]"
        in result.output
    )
    assert "internal error" not in result.output and "serving" not in result.output
    for live in serving(mesta, tmp_path / "out"):
        (tmp_path / "out").write_text("now a file")  # put there while serving: said when the sheets are drawn
        status, _, body = live.get("/api/sheets/sk/1")
        assert status == 409 and body.decode().rstrip().endswith(
            "out: is a file where a folder must be; expected a folder (move the file away, or choose another folder with --out) [output-not-folder]"
        ), body
        assert live.get("/api/state")[0] == 200


def test_ctrl_c_while_the_game_is_first_loaded_stops_serving(mesta: Path, tmp_path: Path, monkeypatch):
    """The first load of a large game takes a while: Ctrl-C then stops the server as it
    would later, not as a build interrupted while writing files."""

    def interrupted(self, internal=None):
        raise Interrupted("SIGINT")

    monkeypatch.setattr(pnp.live.serve.Preview, "refresh", interrupted)
    result = run("serve", mesta, "--no-browser", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "stopped serving"


def test_a_save_sets_again_only_the_faces_it_reaches_and_a_kept_face_keeps_its_marks(mesta: Path, tmp_path: Path, monkeypatch):
    """The preview keeps faces as the watcher does (live/session.py): after a save, only the
    card edited is set again; a face kept with a problem keeps its problem and its mark, and
    what the page shows is what a fresh preview of the same folder shows."""
    from pnp.layout.renderer import Renderer
    from pnp.live.preview import Preview

    edit(mesta / "events.yaml", "text: Všetci hráči strácajú všetky rímske mestá.", f"text: {LONG}")  # julius-caesar overflows
    set_again: list[tuple[str, str]] = []
    real = Renderer.face

    def counted(self, card, layout, side, problems, parts=None):
        set_again.append((card.id, side))
        return real(self, card, layout, side, problems, parts)

    monkeypatch.setattr(Renderer, "face", counted)
    preview = Preview(mesta, tmp_path / "out")
    preview.refresh()
    assert ("julius-caesar", "front") in set_again and len(set_again) > 100  # every face, the first time

    def shown(preview: Preview) -> tuple:
        state = preview.state("sk")
        assert state is not None
        sides = {
            (s, i, n): (side.digest, side.marks) for s, section in state.sections.items() for i, item in section.items.items() for n, side in item.sides.items()
        }
        problems = [(str(p.location), p.code, p.message) for p in state.problems]
        marks = {key: [(problems[m.problem], m.box) for m in value[1]] for key, value in sides.items()}
        return {key: value[0] for key, value in sides.items()}, problems, marks

    before = shown(preview)
    set_again.clear()
    edit(mesta / "events.yaml", "text: Všetci hráči strácajú všetky grécke mestá.", "text: Všetci hráči stratia všetky grécke mestá.")
    preview.refresh()
    assert sorted(set_again) == [("leonidas", "back"), ("leonidas", "front")]  # its faces: the card they are set from changed
    after = shown(preview)
    assert after[2][("events", "julius-caesar", "front")] == before[2][("events", "julius-caesar", "front")] != []  # kept, still marked
    assert after[0][("events", "leonidas", "front")] != before[0][("events", "leonidas", "front")]
    fresh = Preview(mesta, tmp_path / "fresh")
    fresh.refresh()
    assert after == shown(fresh)


def test_a_problem_of_a_turned_text_is_marked_where_its_box_turned_to(tmp_path: Path):
    assert run("new", "g", "--out", tmp_path).exit_code == 0
    game = tmp_path / "g"
    edit(game / "layouts" / "card.yaml", "box: [6, 30, 51, 50]", "box: [6, 52, 51, 6]\n    rotate: 90")  # the body, turned about [31.5, 55]
    edit(game / "cards.yaml", "text: ", "text: " + "much longer text " * 20 + " ", 1)
    for live in serving(game, tmp_path / "out"):
        state = live.json("/api/state?lang=en")
        card = next(i for s in state["sections"] for i in s["items"] if i["problems"])
        (mark,) = card["sides"][0]["marks"]
        x, y, w, h = mark["box"]
        assert (round(x * 63, 1), round(y * 88, 1), round(w * 63, 1), round(h * 88, 1)) == (28.5, 29.5, 6.0, 51.0)


def test_stopped_while_it_draws_a_sheet_it_leaves_nothing_in_out(tmp_path: Path):
    """Ctrl-C while the sheet view draws a PDF into its temporary file (held
    after its first page, in the thread of the request): the server stops once that file
    is removed, and --out holds nothing."""
    game, out = make_small_game(tmp_path / "hra"), tmp_path / "out"
    process = subprocess.Popen(
        command("page", 1, "serve", game, "--no-browser", "--out", out),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(CHECKOUT)},
    )
    answers: list[object] = []
    try:
        line = process.stdout.readline()
        assert line.startswith(f"serving {game} at http://127.0.0.1:"), line + process.stderr.read()
        port = int(line.split("127.0.0.1:")[1].split("/")[0])

        def ask() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            try:
                connection.request("GET", "/api/sheets/sk/0")
                answers.append(connection.getresponse().status)
            except (ConnectionError, http.client.HTTPException) as exc:
                answers.append(exc)
            finally:
                connection.close()

        asking = threading.Thread(target=ask, daemon=True)
        asking.start()
        assert process.stdout.readline().strip() == "at page"
        assert list(out.rglob(".*.tmp")), "the sheet PDF's temporary file"
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
        asking.join(60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0 and stdout.strip() == "stopped serving", (stdout, stderr)
    assert "Traceback" not in stderr and "Exception" not in stderr, stderr
    assert len(answers) == 1 and not isinstance(answers[0], int)  # no answer: the drawing was stopped
    assert not out.exists() or not any(out.rglob("*"))


def test_the_sheet_view_takes_the_sheet_options_as_a_build_resolves_them(tmp_path, monkeypatch):
    """game.yaml's `sheet:`, the config file, PNP_* and the command line, in a build's order."""
    game = make_small_game(tmp_path / "hra")
    with (game / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("sheet: {paper: letter, bleed: 3}\n")
    asked = []
    monkeypatch.setattr(pnp.live.serve, "serve", lambda *args: asked.append(args[6]))

    def sheet(*args):
        assert run("serve", game, "--no-browser", *args).exit_code == 0
        return asked[-1]

    assert (sheet().paper, sheet().bleed, sheet().sides) == ("letter", 3.0, "duplex")
    config = tmp_path / "config.yaml"
    config.write_text("paper: a3\nsides: fold\n", encoding="utf-8")
    monkeypatch.setenv("PNP_CONFIG", str(config))
    assert (sheet().paper, sheet().bleed, sheet().sides) == ("a3", 3.0, "fold")
    monkeypatch.setenv("PNP_PAPER", "tabloid")
    assert sheet().paper == "tabloid"
    assert (sheet("--paper", "a5", "--bleed", "1").paper, asked[-1].bleed) == ("a5", 1.0)


def test_the_sheet_view_draws_on_the_paper_it_is_given(tmp_path):
    game = make_small_game(tmp_path / "hra")
    server, _ = start(game, tmp_path / "out", sheet=SheetSpec(paper="letter", sides="fronts"))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        live = Live(server, game, tmp_path / "out")
        assert live.json("/api/sheets/sk/0")["pages"] == 1  # fronts only: no page of backs
        page = live.picture("/sheet/sk/0/1.png")
        assert abs(page.size[0] - 8.5 * 60) <= 1 and abs(page.size[1] - 11 * 60) <= 1  # US Letter at 60 dpi
    finally:
        server.preview.close()
        server.shutdown()
        server.server_close()


def test_a_right_to_left_edition_is_shown_mirrored(tmp_path: Path):
    """The example of docs/layouts.md in Hebrew (direction: rtl): the preview lists its
    cards by their Hebrew titles and draws the card 'mirror' with its value's red disc in
    the top right corner (7 mm from the right edge), where English has it in the top left."""
    pytest.importorskip("uharfbuzz")
    pytest.importorskip("bidi")
    example = Path(__file__).parents[2] / "docs" / "examples" / "elements"
    live = serving(example, tmp_path / "out")
    served = next(live)
    try:
        assert served.item("elements/mirror", "he")["title"] == "משוקף"
        red, white = (176, 58, 46), (255, 255, 255)
        x, y = round(7 / 25.4 * DPI), round(10.5 / 25.4 * DPI)  # in the disc (its centre 7 mm in from the edge and the top), under its number
        for lang, left, right in (("en", red, white), ("he", white, red)):
            face = served.picture(f"/face/{lang}/elements/mirror/front.png")
            seen = (face.getpixel((x, y)), face.getpixel((face.size[0] - 1 - x, y)))
            assert seen == (left, right), (lang, seen)
        state = served.json("/api/state?lang=he")  # what pnp check --lang he says, no less: pnp's own words missing in Hebrew
        checked = check_all(prepare(example), ["he"])
        assert "own-words-missing" in {p.code for p in checked.items}
        assert [(p["where"], p["code"], p["message"]) for p in state["problems"]] == [(str(p.location), p.code, p.message) for p in checked.items]
    finally:
        live.close()
