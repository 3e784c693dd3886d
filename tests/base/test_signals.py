"""The process around a build: a build stopped by SIGTERM or Ctrl-C removes what it was
writing (in the processes it forked too) and says so in one line; a reader that goes
away (`pnp list | head -1`) ends a command quietly."""

from __future__ import annotations

import importlib.util
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import edit, make_small_game, run
from makers import signal_on_first_move

import pnp

CHECKOUT = Path(pnp.__file__).resolve().parents[1]


def env() -> dict[str, str]:
    """The environment of a pnp process of its own: the test's, as its fixtures set it."""
    return {**os.environ, "PYTHONPATH": str(CHECKOUT)}


def make_deck(cards: int, folder: Path) -> Path:
    """bench/make_deck.py's synthetic game, with a rulebook (set in a forked process)."""
    spec = importlib.util.spec_from_file_location("make_deck", CHECKOUT / "bench" / "make_deck.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.make(cards, folder)
    with (folder / "game.yaml").open("a", encoding="utf-8") as game:
        game.write("rulebooks:\n  rules:\n    title: Pravidlá\n    files: [rules.md]\n")
    (folder / "rules.md").write_text("# Cieľ hry\n\nKto má najviac miest, vyhráva.\n", encoding="utf-8")
    return folder


def pnp_command(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "pnp", *(str(a) for a in args)]


def stopped_at(point: str, count: int, *args: str | Path) -> list[str]:
    """pnp's command, held at the `count`-th `point` of the build until the test signals
    it (tests/stop_at.py)."""
    return [sys.executable, str(Path(__file__).parents[1] / "stop_at.py"), point, str(count), "--", *(str(a) for a in args)]


def reached(process: subprocess.Popen) -> str:
    """The line the held process prints when it reaches its point ("" if it ended first)."""
    ready, _, _ = select.select([process.stdout], [], [], WAIT)
    assert ready, "the build never reached its point"
    return process.stdout.readline().strip()


def until(check, what: str):
    """Wait for `check` to be true: the state another process reaches (the limit is only against hanging)."""
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.01)


WAIT = 60  # seconds: only against hanging


@pytest.fixture(scope="module")
def velka(tmp_path_factory) -> tuple[Path, Path, dict[str, bytes]]:
    """A game of a deck and a rulebook (set in a forked process), built once: the game,
    the output folder and the files written. A test copies them."""
    folder = tmp_path_factory.mktemp("signals")
    game = make_deck(60, folder / "velka")
    out = folder / "out"
    first = subprocess.run(pnp_command("-q", "build", game, "--out", out), env=env(), capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    before = {p.name: p.read_bytes() for p in (out / "velka").iterdir()}
    assert set(before) == {"cards-sk-a4.pdf", "rules-sk-a4.pdf", "rules-sk-a5-booklet.pdf", "manifest-sk-a4.json"}
    return game, out, before


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
@pytest.mark.parametrize(
    ("point", "count"),
    [
        ("page", 3),  # between two pages of the deck
        ("page-reference", 2),  # while reportlab formats a page of the deck (its bare except: once a KeyError)
        ("save-reference", 3),  # while reportlab formats the deck's PDF in its final save (the same)
    ],
)
def test_a_build_stopped_by_a_signal_removes_its_temporary_files(velka, tmp_path, signum, code, point, count):
    """A signal from outside while the deck's PDF is being written (between its pages, or
    while reportlab formats a page or the final save), the rulebooks' files written aside
    and not yet moved into place: the build says it was interrupted, exits 128 + the
    signal, and leaves the last build's files as they were and no temporary file."""
    game, out, before = shutil.copytree(velka[0], tmp_path / "velka"), shutil.copytree(velka[1], tmp_path / "out"), velka[2]
    edit(game / "cards.yaml", "  title: ", "  title: Nová ")
    process = subprocess.Popen(
        stopped_at(point, count, "-q", "build", game, "--out", out), env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert reached(process) == f"at {point}", process.stderr.read()
        names = ("cards-sk-a4.pdf", "rules-sk-a4.pdf", "rules-sk-a5-booklet.pdf")
        until(lambda: all(list((out / "velka").glob(f".{name}.*.tmp")) for name in names), "the deck's and the rulebooks' temporary files")
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == code, stderr
    assert stderr == f"interrupted by {signal.Signals(signum).name}; the files being written were removed\n"
    assert sorted(p.name for p in (out / "velka").iterdir()) == sorted(before)  # no temporary file, of the deck or of a rulebook
    assert {p.name: p.read_bytes() for p in (out / "velka").iterdir()} == before


def test_a_signal_a_library_drops_still_stops_the_build(tmp_path, monkeypatch):
    """A signal whose exception a library catches and drops (a bare `except: pass`) still
    stops the build: before the page it came in is written, nothing committed, reported as the signal."""
    from pnp.pdf.canvas import StreamingDocument

    game = make_small_game(tmp_path / "hra", cards="".join(f"- {{id: c{i}, title: Karta {i}}}\n" for i in range(40)))
    add_page, pages = StreamingDocument.addPage, []

    def dropping(self, page):
        pages.append(page)
        if len(pages) == 2:
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(WAIT)  # the handler raises out of it, at once
            except KeyboardInterrupt:
                pass
        return add_page(self, page)

    monkeypatch.setattr(StreamingDocument, "addPage", dropping)
    result = run("build", game, "--out", tmp_path / "out")
    assert result.exit_code == 130, result.output
    assert result.output == "interrupted by SIGINT; the files being written were removed\n"
    assert len(pages) == 2  # no page written after it
    assert not (tmp_path / "out").exists()


def closed_reader(*args: str | Path, stream: str = "stdout") -> subprocess.CompletedProcess:
    """Run pnp with `stream` going to a pipe whose reader is gone, as `| head -1` leaves it."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        other = subprocess.PIPE
        done = subprocess.run(
            pnp_command(*args), env=env(), stdout=writer if stream == "stdout" else other, stderr=writer if stream == "stderr" else other, timeout=120
        )
    finally:
        os.close(writer)
    return done


@pytest.mark.parametrize("command", [["list"], ["list", "--format", "json"], ["check"], ["i18n", "status"]])
def test_a_reader_that_goes_away_ends_the_command_quietly(mesta, command):
    done = closed_reader(*command, mesta)
    assert done.returncode == 141
    assert done.stderr == b""


def test_problems_to_a_reader_that_goes_away(mesta):
    """`pnp check 2>&1 | head -1`: the problems go to standard error."""
    edit(mesta / "cities.yaml", "name: Rodos\n  empire: grecko", "name: Rodos\n  empire: rim")
    done = closed_reader("check", mesta, stream="stderr")
    assert done.returncode == 141
    assert b"Traceback" not in done.stdout


def test_head_reads_the_first_line_of_a_long_status(tmp_path):
    game = make_deck(1500, tmp_path / "velka")
    assert subprocess.run(pnp_command("-q", "i18n", "update", game, "--add", "en"), env=env(), capture_output=True).returncode == 0
    script = f'{" ".join(pnp_command("i18n", "status", game))} | head -1; echo "${{PIPESTATUS[0]}}"'
    done = subprocess.run(["bash", "-c", script], env=env(), capture_output=True, text=True, timeout=120)
    first, status = done.stdout.splitlines()
    assert first.startswith("en: 0/") and status == "141"
    assert done.stderr == ""


def test_a_signal_while_files_are_moved_into_place_lets_them_all_come(tmp_path, monkeypatch):
    """A signal that comes as the first of three files is moved into place does not cut the
    commit short (some new files, some old): all three come, then the signal is raised."""
    from pnp.base.output import Transaction
    from pnp.base.signals import Interrupted, raising_on_signals, stop_if_received

    for name in "abc":
        (tmp_path / name).write_text("old", encoding="utf-8")
    signal_on_first_move(monkeypatch)
    stopped = False
    with raising_on_signals():
        txn = Transaction(tmp_path)
        for name in "abc":
            txn.path_for(tmp_path / name).write_text("new", encoding="utf-8")
        try:
            txn.commit()
            stop_if_received()  # where the command next asks
        except Interrupted:
            stopped = True
        finally:
            txn.abort()
    assert stopped
    assert [(tmp_path / name).read_text(encoding="utf-8") for name in "abc"] == ["new"] * 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b", "c"]
