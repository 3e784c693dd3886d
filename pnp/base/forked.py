"""Work done aside: in a forked child process while the parent goes on (the rulebooks are
set while the decks are drawn, on another core).

The child writes temporary files of its own transaction and sends back what it wrote;
the parent adopts them into its transaction, so they are committed or removed with the
rest of the build. Whatever ends the child (a mistake in the game, a bug, a signal, the
system killing it) reaches the parent as a located problem naming the work, or as the
signal, never as a traceback. Where fork is not available (Windows) the work runs when
joined."""

from __future__ import annotations

import gc
import signal
from collections.abc import Callable
from typing import Any

from pnp.base.errors import Location, PnpError, Problem, Problems
from pnp.base.output import Transaction
from pnp.base.signals import Interrupted, raising_on_signals, stop_if_received

Work = Callable[[Problems, Transaction], list[Any]]


class Aside:
    """`work`, writing into a transaction of its own under `txn`'s output folder; `what`
    and `where` name it in a problem (the rulebooks, and their entry in game.yaml).
    `then`, run in this process on what the work returned, keeps here what the child
    learnt (the pages the rulebooks settled on) and gives the files it wrote."""

    def __init__(self, work: Work, txn: Transaction, what: str, where: Location, then: Callable[[list[Any]], list[Any]]):
        self.work = work
        self.then = then
        self.what = what
        self.where = where
        self.output, self.owner = txn.output, txn.owner
        self.process = None
        self.stopped = False  # asked to stop: the parent is being interrupted
        import multiprocessing  # here for speed: only a game with rulebooks works aside

        if "fork" not in multiprocessing.get_all_start_methods():
            return
        context = multiprocessing.get_context("fork")
        self.receiver, sender = context.Pipe(duplex=False)
        self.process = context.Process(target=self._run, args=(sender,), daemon=True)
        gc.freeze()  # the objects made so far are left alone by the collector: neither process copies their pages to mark them
        self.process.start()
        gc.unfreeze()
        sender.close()

    def _failed(self, detail: str) -> Problem:
        return Problem(self.where, "aside-failed", f"{self.what} failed: {detail}; expected them set (run with --debug and report this as a bug in pnp)")

    def _run(self, sender) -> None:
        """The child: its files and folders go to the parent whatever happens, and the
        parent's transaction commits or removes them (the child removing a folder could
        race the parent writing into it). A signal that arrives while it reports is held
        back, so the report always reaches the parent whole."""
        problems, txn = Problems(), Transaction(self.output, owner=self.owner)
        try:
            try:
                with raising_on_signals():
                    try:
                        files = self.work(problems, txn)
                        stop_if_received()  # one a library swallowed whole
                    except Exception as exc:  # a signal a library turned into another exception (or a problem) on its way is the signal
                        stop_if_received(exc)
                        raise
                outcome: tuple = ("done", files, problems.items)
            except PnpError as err:
                outcome = ("error", [], problems.items + err.problems.items)
            except Interrupted:
                raise
            except BaseException as exc:  # noqa: BLE001 - reported to the parent as a located problem
                outcome = ("error", [], problems.items + [self._failed(f"{type(exc).__name__}: {exc}")])
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
        except Interrupted as stop:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
            outcome = ("interrupted", stop.signum, [])
        sender.send((*outcome, (txn.pending, txn.made)))

    def stop(self) -> None:
        """Ask the child to stop: it removes nothing itself, but reports its files at once."""
        self.stopped = True
        if self.process is not None and self.process.is_alive():
            self.process.terminate()

    def _receive(self) -> tuple:
        """The child's report: (status, files or signal number, problems, its transaction)."""
        try:
            report = self.receiver.recv()
        except EOFError:
            self.process.join()
            code = self.process.exitcode or 0
            ended = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
            report = ("error", [], [self._failed(f"the process setting them ended ({ended}) before it reported")], ([], []))
        self.process.join()
        return report

    def join(self, problems: Problems, txn: Transaction) -> list[Any]:
        """What the work wrote (its files now pending in `txn`); its problems join `problems`."""
        if self.process is None:
            return self.then(self.work(problems, txn))
        try:
            status, result, items, pending = self._receive()
        except Interrupted:  # the parent was: the child stops too, and its files are removed with the parent's
            self.stop()
            txn.adopt(*self._receive()[3])
            raise
        problems.extend(items)
        txn.adopt(*pending)
        if status == "interrupted":
            if self.stopped:  # by the parent, whose own interruption is on its way out
                return []
            raise Interrupted(result)
        if status == "error":
            raise PnpError(problems)
        return self.then(result)


def join_all(asides: list[Aside], problems: Problems, txn: Transaction) -> list[Any]:
    """What every piece of work wrote, in order. All are joined, so that all their files
    are in `txn` to be committed or removed, before the first failure is raised; if the
    parent is interrupted meanwhile, the others are stopped and still joined."""
    files: list[Any] = []
    failure: BaseException | None = None
    for aside in asides:
        try:
            files.extend(aside.join(problems, txn))
        except Interrupted as err:
            if not isinstance(failure, Interrupted):
                for other in asides:
                    other.stop()
                failure = err
        except PnpError as err:
            failure = failure or err
    if failure is not None:
        raise failure
    return files
