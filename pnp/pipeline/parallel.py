"""`pnp build --jobs N`: every (language, deck) drawn in a worker process of its own. The
parent owns the transaction and hands each worker the translations it read and the file
to write; the worker loads the game again and draws its one unit as planned."""

from __future__ import annotations

from pathlib import Path

from pnp.base.errors import PnpError, Problem, Problems
from pnp.base.output import Output, Transaction, Written, writing_under
from pnp.load.remote import cached_only
from pnp.pipeline.sheets import Sheets, write_cut_files, write_unit
from pnp.plan.game import Plan
from pnp.project.edition import Edition
from pnp.project.options import BuildOptions
from pnp.project.project import prepare
from pnp.write.manifest import Drawn


class _Given:
    """Stands in for a Transaction in a worker process: the parent chose the file."""

    def __init__(self, path: Path):
        self.path = path

    def path_for(self, target: Path) -> Path:
        return self.path


def build_parallel(
    editions: list[Edition],
    options: BuildOptions,
    plan: Plan,
    members: set[str] | None,
    problems: Problems,
    txn: Transaction,
    cuts: list[Path],
    drawn: dict[str, Drawn],
) -> list:
    """Build every (language, deck) in its own process, as planned; the parent owns the
    transaction and sends each the translations it read and the unit's plan."""
    from concurrent.futures import ProcessPoolExecutor

    tasks = []
    for edition in editions:
        problems.extend(edition.problems)
        for unit in plan.units:
            target = unit.target(options.out, edition.lang)
            tasks.append((edition.source.root, options, edition.lang, edition.strings, unit, members, target, txn.path_for(target)))
    files = []
    pool = ProcessPoolExecutor(max_workers=options.jobs)
    try:
        for (_, _, lang, *_), (written, found, cut_files, faces) in zip(tasks, pool.map(_build_one, tasks)):
            problems.extend(found)
            drawn[lang].update(faces)
            cuts += write_cut_files(cut_files, txn)
            if written is not None:
                files.append(written)
    finally:  # on a failure or a signal, what has not started never starts; what has is waited for, so its file is removed after
        pool.shutdown(wait=True, cancel_futures=True)
    return files


def _build_one(task: tuple) -> tuple[Written | None, list[Problem], list[tuple[Path, bytes]], Drawn]:
    folder, options, lang, strings, unit, members, target, tmp = task
    with writing_under(Output(options.out)), cached_only():  # a deck's data on the web: the copy the parent fetched
        project = prepare(folder, unit.decks)
    problems = Problems()
    try:
        edition = Edition.translated(project, lang, strings)
        sheets = Sheets(edition, edition.renderer(), options, members, problems, _Given(tmp))
        written = write_unit(sheets, unit)
    except PnpError as err:
        return None, err.problems.items, [], Drawn()
    return (written and written._replace(path=target)), problems.items, sheets.cut_files, sheets.drawn
