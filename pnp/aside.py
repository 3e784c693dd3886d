"""Work done aside: in a forked child process while the parent goes on (the rulebooks are
set while the decks are drawn, which halves a small game's build on two cores).

The child writes temporary files of its own transaction and sends back what it wrote;
the parent adopts them into its transaction, so they are committed or removed with the
rest of the build. Where fork is not available (Windows) the work runs when joined."""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable
from typing import Any

from .errors import PnpError, Problems
from .files import Transaction

Work = Callable[[Problems, Transaction], list[Any]]


class Aside:
    def __init__(self, work: Work):
        self.work = work
        self.process = None
        if "fork" not in multiprocessing.get_all_start_methods():
            return
        context = multiprocessing.get_context("fork")
        self.receiver, sender = context.Pipe(duplex=False)
        self.process = context.Process(target=self._run, args=(sender,), daemon=True)
        self.process.start()
        sender.close()

    def _run(self, sender) -> None:
        """The child: its files and folders go to the parent whatever happens, and the
        parent's transaction commits or removes them (the child removing a folder could
        race the parent writing into it)."""
        problems, txn = Problems(), Transaction()
        try:
            files = self.work(problems, txn)
            sender.send(("done", files, problems.items, (txn.pending, txn.made)))
        except PnpError as err:
            sender.send(("error", [], problems.items + err.problems.items, (txn.pending, txn.made)))
        except BaseException:  # noqa: BLE001 - sent to the parent, which raises it as its own
            sender.send(("crash", traceback.format_exc(), [], (txn.pending, txn.made)))

    def join(self, problems: Problems, txn: Transaction) -> list[Any]:
        """What the work wrote (its files now pending in `txn`); its problems join `problems`."""
        if self.process is None:
            return self.work(problems, txn)
        try:
            status, files, items, pending = self.receiver.recv()
        except EOFError:
            status, files, items, pending = "crash", f"the child process ended with exit code {self.process.exitcode}", [], ([], [])
        self.process.join()
        problems.extend(items)
        txn.adopt(*pending)
        if status == "crash":
            raise RuntimeError(f"work done aside failed:\n{files}")
        if status == "error":
            raise PnpError(problems)
        return files


def join_all(asides: list[Aside], problems: Problems, txn: Transaction) -> list[Any]:
    """What every piece of work wrote, in order. All are joined, so that all their files
    are in `txn` to be committed or removed, before the first failure is raised."""
    files: list[Any] = []
    failure: BaseException | None = None
    for aside in asides:
        try:
            files.extend(aside.join(problems, txn))
        except (PnpError, RuntimeError) as err:
            failure = failure or err
    if failure is not None:
        raise failure
    return files
