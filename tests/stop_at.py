"""Run pnp and hold it at a chosen point of a build until a test signals or kills it, so
that the test stops the build where it means to, however fast the machine is:

    python tests/stop_at.py POINT COUNT -- pnp's arguments

At the COUNT-th time the build reaches POINT, this prints "at POINT" on standard output
and waits there (60 s at most, only against hanging) for what the test sends. POINT is

- `page`: a page of a deck's PDF has just been written (pnp's code, between pages);
- `page-reference`: reportlab formats a reference while a page of a deck is written;
- `save-reference`: reportlab formats a reference in the final save of a deck's PDF;
- `file`: a temporary file of the command's transaction has just been made, before it is
  written (every command that writes: the earlier files are written, not yet in place);
- `commit`: the command's transaction is about to move its files into place.

`page-reference` and `save-reference` stop inside reportlab's `PDFObjectReference.format`,
whose bare `except:` turns whatever is raised there into a KeyError: a signal arriving
while reportlab formats. A point reached in another thread than the main one (`pnp
serve` draws a sheet PDF in the thread of its request) waits there until the signal has
reached the process, then goes on.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path

from reportlab.pdfbase.pdfdoc import PDFObjectReference

from pnp.base.output import Transaction
from pnp.base.signals import received
from pnp.cli import run
from pnp.pdf.canvas import StreamingCanvas, StreamingDocument

POINTS = ("page", "page-reference", "save-reference", "file", "commit")
WAIT = 60  # seconds: only against hanging; the test's signal ends the wait


CHECKOUT = Path(__file__).resolve().parents[1]


def command(point: str, count: int, *args: str | Path) -> list[str]:
    """pnp's command line `args`, held at the `count`-th `point` until the test signals it."""
    return [sys.executable, str(Path(__file__)), point, str(count), "--", *(str(a) for a in args)]


def signalled(point: str, count: int, signum: int, *args: str | Path) -> subprocess.CompletedProcess:
    """Run pnp with `args` in a process of its own, send it `signum` at the `count`-th
    `point`, and wait for it to end: its exit code and what it printed. Fails when the
    point is never reached (the command ended first)."""
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    process = subprocess.Popen(command(point, count, *args), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([process.stdout], [], [], WAIT)
        line = process.stdout.readline().strip() if ready else ""
        if line != f"at {point}":
            process.kill()
            _, stderr = process.communicate(timeout=WAIT)
            raise AssertionError(f"never reached {point} {count}: {line!r} {stderr}")
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def main(point: str, count: int, args: list[str]) -> None:
    if point not in POINTS:
        raise SystemExit(f"unknown point {point!r}; expected one of {', '.join(POINTS)}")
    reached = 0
    saving = False

    def reach() -> None:
        nonlocal reached
        reached += 1
        if reached == count:
            print(f"at {point}", flush=True)
            if threading.current_thread() is threading.main_thread():
                time.sleep(WAIT)  # the signal's handler raises out of the sleep
                return
            deadline = time.monotonic() + WAIT
            while received() is None and time.monotonic() < deadline:  # signals reach the main thread only
                time.sleep(0.01)

    if point == "file":
        path_for = Transaction.path_for

        def made(self, target):
            tmp = path_for(self, target)
            reach()
            return tmp

        Transaction.path_for = made
    elif point == "commit":
        commit = Transaction.commit

        def committing(self) -> None:
            reach()
            commit(self)

        Transaction.commit = committing
    elif point == "page":
        show_page = StreamingCanvas.showPage

        def page_written(self) -> None:
            show_page(self)
            reach()

        StreamingCanvas.showPage = page_written
    else:
        reference = PDFObjectReference.format.__code__

        class Numbers(dict):
            """The document's object numbers; a lookup from inside PDFObjectReference.format
            (in the page writes or in the final save) is a point reached."""

            def __getitem__(self, name):
                if sys._getframe(1).f_code is reference and saving == (point == "save-reference"):
                    reach()
                return super().__getitem__(name)

        start, document_format = StreamingDocument.start, StreamingDocument.format

        def started(self, out) -> None:
            start(self, out)
            self.idToObjectNumberAndVersion = Numbers(self.idToObjectNumberAndVersion)

        def formatted(self) -> None:
            nonlocal saving
            saving = True
            try:
                document_format(self)
            finally:
                saving = False

        StreamingDocument.start, StreamingDocument.format = started, formatted
    sys.argv = ["pnp", *args]
    run()


if __name__ == "__main__":
    point, count, separator, *rest = sys.argv[1:]
    assert separator == "--", "usage: stop_at.py POINT COUNT -- pnp's arguments"
    main(point, int(count), rest)
