"""The process around a build: a build stopped by SIGTERM or Ctrl-C removes what it was
writing (in the processes it forked too) and says so in one line; a reader that goes
away (`pnp list | head -1`) ends a command quietly."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import edit

import pnp

CHECKOUT = Path(pnp.__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(CHECKOUT)}


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


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_build_stopped_by_a_signal_removes_its_temporary_files(tmp_path, signum, code):
    game = make_deck(2500, tmp_path / "velka")
    out = tmp_path / "out"
    first = subprocess.run(pnp_command("-q", "build", game, "--out", out), env=ENV, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    before = {p.name: p.read_bytes() for p in (out / "velka").iterdir()}
    assert set(before) == {"cards-sk-a4.pdf", "rules-sk-a4.pdf", "rules-sk-a5-booklet.pdf", "manifest-sk-a4.json"}
    edit(game / "cards.yaml", "  title: ", "  title: Nová ")
    process = subprocess.Popen(pnp_command("-q", "build", game, "--out", out), env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None and not list((out / "velka").glob(".cards-sk-a4.pdf.*.tmp")):
        time.sleep(0.01)
    time.sleep(0.3)  # well into the deck, the rulebooks set aside meanwhile
    assert process.poll() is None, "the build finished before it could be stopped"
    process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == code, stderr
    assert stderr == f"interrupted by {signal.Signals(signum).name}; the files being written were removed\n"
    assert sorted(p.name for p in (out / "velka").iterdir()) == sorted(before)  # no temporary file, of the deck or of a rulebook
    assert {p.name: p.read_bytes() for p in (out / "velka").iterdir()} == before


def closed_reader(*args: str | Path, stream: str = "stdout") -> subprocess.CompletedProcess:
    """Run pnp with `stream` going to a pipe whose reader is gone, as `| head -1` leaves it."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        other = subprocess.PIPE
        done = subprocess.run(
            pnp_command(*args), env=ENV, stdout=writer if stream == "stdout" else other, stderr=writer if stream == "stderr" else other, timeout=120
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
    assert subprocess.run(pnp_command("-q", "i18n", "update", game, "--add", "en"), env=ENV, capture_output=True).returncode == 0
    script = f'{" ".join(pnp_command("i18n", "status", game))} | head -1; echo "${{PIPESTATUS[0]}}"'
    done = subprocess.run(["bash", "-c", script], env=ENV, capture_output=True, text=True, timeout=120)
    first, status = done.stdout.splitlines()
    assert first.startswith("en: 0/") and status == "141"
    assert done.stderr == ""
