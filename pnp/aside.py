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
        problems, txn = Problems(), Transaction()
        try:
            files = self.work(problems, txn)
            sender.send(("done", files, problems.items, txn.pending))
        except PnpError as err:
            txn.abort()
            sender.send(("error", [], problems.items + err.problems.items, []))
        except BaseException:  # noqa: BLE001 - sent to the parent, which raises it as its own
            txn.abort()
            sender.send(("crash", traceback.format_exc(), [], []))

    def join(self, problems: Problems, txn: Transaction) -> list[Any]:
        """What the work wrote (its files now pending in `txn`); its problems join `problems`."""
        if self.process is None:
            return self.work(problems, txn)
        try:
            status, files, items, pending = self.receiver.recv()
        except EOFError:
            status, files, items, pending = "crash", f"the child process ended with exit code {self.process.exitcode}", [], []
        self.process.join()
        problems.items.extend(items)
        txn.pending.extend(pending)
        if status == "crash":
            raise RuntimeError(f"work done aside failed:\n{files}")
        if status == "error":
            raise PnpError(problems)
        return files
