"""Signals that end a run (SIGTERM from a process manager or `kill`, SIGINT from Ctrl-C)
become an exception, so every transaction aborts on the way out and removes its temporary
files, in pnp and in the processes it forks; the CLI then exits with 128 + the signal's
number, as a shell reports a process the signal ended."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Interrupted(KeyboardInterrupt):
    """A signal asked pnp to stop (a KeyboardInterrupt, so code that stops on Ctrl-C
    stops on it too). Libraries that annotate an exception on its way (reportlab) make a
    new one from a message: then the signal is the one this process received."""

    def __init__(self, signum: int | str = 0):
        super().__init__(signum)

    @property
    def signum(self) -> int:
        given = self.args[0] if self.args else 0
        return given if isinstance(given, int) and given else _received[-1] if _received else signal.SIGINT

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


_received: list[int] = []  # the signals this process was stopped by (in the last raising_on_signals)
_raising = False  # within raising_on_signals
_holding = False  # within holding_signals: a signal is recorded, not raised
_held: list[int] = []  # the signals that came within holding_signals (in the last raising_on_signals)


def received() -> int | None:
    """Within raising_on_signals, the signal that asked this process to stop, if one did:
    also when the Interrupted it raised was caught on its way out by a library's bare
    `except:` (reportlab's turns it into a KeyError while it formats a PDF) and became
    another exception, or was dropped."""
    return _received[-1] if _raising and _received else None


def stop_if_received(cause: BaseException | None = None) -> None:
    """Raise Interrupted if a signal asked this process to stop: called where a failure is
    about to be reported as something else (`cause`), and before what must not go on once
    a signal came (the next page, a commit), so that a signal a library swallowed still
    stops the run and is reported as the signal."""
    signum = received()
    if signum is not None:
        raise Interrupted(signum) from cause


def _raise(signum: int, frame: object) -> None:
    """Raise once: a second signal while the first one's clean-up runs must not cut it short.
    Within holding_signals, only recorded: what is being moved into place goes on to the end."""
    ignore_signals()
    _received.append(signum)
    if _holding:
        _held.append(signum)
        return
    raise Interrupted(signum)


def held() -> int | None:
    """Within raising_on_signals, the signal that came while files were being moved into
    place (and let them all come), if one did: the command ends as that signal asks once
    it has said what it wrote."""
    return _held[-1] if _raising and _held else None


@contextmanager
def holding_signals() -> Iterator[None]:
    """Within: a signal does not raise, it is only recorded (`stop_if_received` raises it
    later), so that moving a transaction's files into place is never cut short half-way:
    a signal before it leaves every previous file, one during it lets it finish (`held`),
    and the command then says what it wrote and ends as the signal asks."""
    global _holding
    was, _holding = _holding, True
    try:
        yield
    finally:
        _holding = was


def ignore_signals() -> None:
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


@contextmanager
def raising_on_signals() -> Iterator[None]:
    """Within: SIGTERM and SIGINT raise Interrupted (in the main thread, the only one
    signals reach); the handlers before are put back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    global _raising
    _received.clear()  # a signal of an earlier run in this process (the watcher's, a test's) is not this one's
    _held.clear()
    previous = {signum: signal.signal(signum, _raise) for signum in SIGNALS}
    was, _raising = _raising, True
    try:
        yield
    finally:
        _raising = was
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
