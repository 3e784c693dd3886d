"""The watcher's look at a deck's data on the web (pnp/live/poll.py): an edit in the
published sheet changes no file of the game, so `pnp build --watch` and `pnp serve` fetch
it again at an interval and rebuild only when its bytes differ. The sheet is served from
127.0.0.1 (tests/websheet.py) and the clock is the test's: nothing waits."""

from __future__ import annotations

import pytest
from conftest import run
from pdfread import text
from websheet import CSV, serving, web_game

import pnp.live.session
from pnp.live.poll import DataPoll
from pnp.live.session import Session
from pnp.project.project import prepare


class Polled:
    """Stands in for watch.Changes: each wait (for a save, until the poll is due) is one
    step of the story, and no save comes."""

    truncated = False
    notified = True

    def __init__(self, steps):
        self.steps = iter(steps)

    def wait(self, timeout=None):
        return next(self.steps)(timeout)

    def close(self):
        pass


@pytest.fixture
def server():
    yield from serving()


@pytest.fixture
def clock(monkeypatch):
    """The poll's clock, moved by the test: now[0] seconds."""
    now = [1000.0]
    monkeypatch.setattr(DataPoll, "clock", staticmethod(lambda: now[0]))
    return now


def test_the_poll_looks_at_the_interval_and_finds_only_a_sheet_that_changed(server, tmp_path, clock):
    game = web_game(tmp_path / "hra", f"{server.url}/pub.csv")
    kept = Session(game, [tmp_path / "out"])
    with kept.reading():
        prepare(game)
    assert server.requests == ["/pub.csv"]
    poll = DataPoll(kept.fetched, 60)
    assert poll.left() == 60
    assert poll.changed() == [] and server.requests == ["/pub.csv"]  # not due: nothing fetched

    clock[0] += 60
    assert poll.left() == 0
    assert poll.changed() == []  # fetched, the same bytes
    assert len(server.requests) == 2 and poll.left() == 60

    server.pages["/pub.csv"] = (200, "text/csv", CSV.replace("Prvá z webu", "Zmenená").encode())
    clock[0] += 59
    assert poll.changed() == [] and len(server.requests) == 2
    clock[0] += 1
    assert poll.changed() == [f"{server.url}/pub.csv"]

    server.stop()  # unreachable: unchanged as far as the poll knows (the rebuild a save starts says why)
    clock[0] += 60
    assert poll.changed() == []


def test_nothing_to_poll_without_data_on_the_web_or_with_polling_off(tmp_path, clock):
    assert DataPoll({}, 60).left() is None
    assert DataPoll({"https://example.org/pub.csv": b""}, 0).left() is None


def test_watch_rebuilds_when_the_published_sheet_changed(server, tmp_path, monkeypatch, clock):
    game = web_game(tmp_path / "hra", f"{server.url}/pub.csv")
    waited = []

    def edited_on_the_web(timeout=None):
        waited.append(timeout)
        server.pages["/pub.csv"] = (200, "text/csv", CSV.replace("Prvá z webu", "Zmenená").encode())
        clock[0] += 30
        return []

    def stop(timeout=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(pnp.live.session, "Changes", lambda folder, ignore: Polled([edited_on_the_web, edited_on_the_web, stop]))
    result = run("build", game, "--out", tmp_path / "out", "--watch", "--poll-data", "60")
    assert result.exit_code == 0, result.output
    assert waited == [60, 30]  # each wait for a save ends when the sheet is due
    assert result.output.count(f"changed: {server.url}/pub.csv; rebuilding") == 1
    assert "rebuilt cards-sk-a4.pdf (1 card changed)" in result.output
    assert "Zmenená" in text(tmp_path / "out" / "hra" / "cards-sk-a4.pdf")
    assert len(server.requests) == 3  # the build, the poll, the rebuild


def test_offline_the_watcher_never_polls(server, tmp_path, monkeypatch, clock):
    game = web_game(tmp_path / "hra", f"{server.url}/pub.csv")
    assert run("build", game, "--out", tmp_path / "out").exit_code == 0
    waited = []

    def stop(timeout=None):
        waited.append(timeout)
        raise KeyboardInterrupt

    monkeypatch.setattr(pnp.live.session, "Changes", lambda folder, ignore: Polled([stop]))
    result = run("build", game, "--out", tmp_path / "out", "--watch", "--offline")
    assert result.exit_code == 0, result.output
    assert waited == [None] and server.requests == ["/pub.csv"]
