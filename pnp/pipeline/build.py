"""The pipeline: load -> check -> lay out -> impose -> write, one deck at a time.

Every command goes through `prepare` (load the game and its layouts), then makes the game
in each language asked for once (edition.py); `check_all` and `build` set faces with the
edition's Renderer, so `pnp check` and `pnp build` report the same mistakes. Data flows
one way: no stage reaches back into an earlier one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.base.errors import Location, PnpError, Problem, Problems, fail
from pnp.base.forked import Aside, join_all
from pnp.base.output import Transaction, Written, shown, transaction
from pnp.base.signals import Interrupted
from pnp.check.run import check_game
from pnp.impose.paper import rulebook_formats
from pnp.layout.elements.base import Layout
from pnp.layout.faces import Face
from pnp.layout.renderer import Renderer
from pnp.layout.text import hyphenator
from pnp.load.model import Deck
from pnp.pdf.canvas import KeptCode
from pnp.pipeline.progress import BuildProgress, expected_cards
from pnp.pipeline.reuse import COLD, Reuse
from pnp.pipeline.sheets import draw_tuckbox, write_unit
from pnp.plan.game import Plan, plan_game
from pnp.plan.sheets import UnitPlan, plan_unit, print_units
from pnp.plan.tuckboxes import TuckboxPlan
from pnp.project.deals import deal_members
from pnp.project.edition import Edition, make_editions, resolve_languages
from pnp.project.options import BuildOptions
from pnp.project.project import prepare
from pnp.write.manifest import Changes, Drawn, Hashes, Manifest, compare, default_since, face_hash, make_manifest, manifest_path, read_manifest, write_manifest

if TYPE_CHECKING:
    from pnp.pipeline.rulebooks import Rulebooks
    from pnp.rulebook.settled import SettledPages


@dataclass(repr=False, eq=False)
class BuildResult:
    """What a build wrote, and the problems it found."""

    files: list[Written]  # path, cards, pages, and the edge to flip for the double-sided ones
    problems: Problems
    cut_files: list[Path] = field(default_factory=list)  # a cutting machine's (--cutter), beside the PDFs
    changes: list[Changes] = field(default_factory=list)  # with --changed-since: what the errata PDFs hold, per language


class _Given:
    """Stands in for a Transaction in a worker process: the parent chose the file."""

    def __init__(self, path: Path):
        self.path = path

    def path_for(self, target: Path) -> Path:
        return self.path


@dataclass(repr=False, eq=False)
class Sheets:
    """What drawing the sheet PDFs of one language of a build takes besides the deck."""

    edition: Edition
    renderer: Renderer  # the edition's (counting the faces it sets, for the progress bar)
    options: BuildOptions
    members: set[str] | None  # the components of --deal; None: every component
    problems: Problems  # where the problems found while laying out go
    txn: Transaction | _Given  # gives each PDF its temporary file
    cut_files: list[tuple[Path, bytes]] = field(default_factory=list)  # a cutting machine's files, written by the build
    drawn: Drawn = field(default_factory=Drawn)  # the hashes of the faces drawn: the manifest
    hashes: Hashes = field(default_factory=Hashes)  # what the faces' hashes share, found once a language (errata.face_hash)
    reuse: Reuse = COLD  # what earlier builds left that this one may reuse (the watcher's)

    def record(self, deck_id: str, index: int, card_id: str, side: str, face: Face) -> Face:
        """Note a face drawn (of card `index`, `card_id`), to be hashed for the manifest (write/manifest.py)."""
        if self.drawn.noted(deck_id, index, side):  # a copy drawn again
            return face
        make = partial(face_hash, face, self.edition.project.symbols, self.hashes)
        found = self.reuse.face_hash(self.edition.lang, deck_id, card_id, side, face, make)
        if isinstance(found, str):  # known already
            self.drawn.add(deck_id, index, side, found)
        else:
            self.drawn.note(deck_id, index, side, found)
        return face

    def face(self, deck: Deck, index: int, layout: Layout, side: str) -> Face:
        """Card `index` of `deck` set in `layout`, its hash recorded; a face kept from an
        earlier build is found without unpacking the card."""
        card_id = deck.card_id(index)
        found = self.reuse.face(self.renderer, deck.id, card_id, layout, side, self.problems)
        if found is None:
            found = self.renderer.face(deck.cards[index], layout, side, self.problems)
        return self.record(deck.id, index, card_id, side, found)

    def kept_code(self, target: Path) -> KeptCode | None:
        """What the faces of `target` wrote when it was last drawn, if that is kept."""
        return self.reuse.code(target)


def build(
    folder: Path,
    options: BuildOptions,
    progress: BuildProgress | None = None,
    changed_since: Path | None = None,
    since_last: bool = False,
    reuse: Reuse = COLD,
) -> BuildResult:
    """Check the rules, then set and draw every deck in every language in one pass, while
    the rulebooks are set aside (in a forked process). Every language, and its rulebooks'
    documents, are made once, before forking, so the rulebook process inherits them. Each
    face is laid out when its sheet is drawn and dropped after, so memory does not grow
    with the deck. Layout problems are found while drawing: the PDFs are moved into place
    only if there are none (or with --force); the problems of rules, decks and rulebooks are reported together.
    Every build records the faces it drew in a manifest per language (errata.py);
    `changed_since` (a manifest) or `since_last` (the last build's) also writes errata
    PDFs of the cards changed or new since. What an earlier build left is asked of
    `reuse` (the watcher's keeps what a save did not reach: live/session.py)."""
    with reuse.reading():
        project = prepare(folder, options.decks)
    reuse.start(project, options)
    wanted = bool(project.game.meta.rulebooks) and not options.decks and reuse.books_due()
    editions = make_editions(project, resolve_languages(project.game, options.langs), options.allow_untranslated, rulebooks=wanted)
    since = _since(editions, options, changed_since, since_last)
    progress = progress or BuildProgress(bar=False)
    problems, files, cuts = Problems(), [], []
    drawn = {edition.lang: Drawn() for edition in editions}
    changes: list[Changes] = []
    with transaction(options.out) as txn:
        rulebooks = start_rulebooks(editions, options, txn, reuse.settled_pages()) if wanted else []
        try:
            members = deal_members(project.game, options.deal) if options.deal else None
            plan = plan_game(project, options.sheet, members, options.deal)  # how every PDF goes on paper, for every language
            problems.extend(check_game(project, plan))
            if problems.errors and not options.force:
                raise PnpError(problems)
            progress.start(expected_cards([project.game.decks[d] for d in project.layouts], len(editions)))
            if options.jobs > 1 and len(editions) * len(project.layouts) > 1 and reuse.workers:
                files = _build_parallel(editions, options, plan, members, problems, txn, cuts, drawn)
                for written in files:
                    progress.deck_done(written, timed=False)
            else:
                for edition in editions:
                    sheets = Sheets(edition, _renderer(edition, progress, reuse), options, members, problems, txn, reuse=reuse)
                    files += _write_edition(sheets, plan, progress, cuts)
                    drawn[edition.lang] = sheets.drawn
            for edition in editions:
                files += write_tuckboxes(Sheets(edition, _renderer(edition, None, reuse), options, members, problems, txn, reuse=reuse), plan.tuckboxes)
            for edition in editions:
                _write_manifest(edition, options, drawn[edition.lang], txn, problems, reuse)
                if edition.lang in since:
                    path, old = since[edition.lang]
                    now = make_manifest(edition.game, edition.lang, options.sheet.paper, drawn[edition.lang])
                    now.entries = dict(sorted(now.entries.items()))  # the errata lists the cards in the manifest's order
                    change = compare(old, now, path, edition.game, set(project.layouts))
                    changes.append(change)
                    files += _write_errata(edition, options, members, change, problems, txn, cuts)
        except Interrupted:  # the rulebooks stop too, and hand over their files to be removed
            for aside in rulebooks:
                aside.stop()
            raise
        except OSError as exc:  # a deck could not be written: reported with what the rulebooks found
            if not txn.writes(exc):
                raise
            problems.extend(txn.problem(exc).problems)
            raise PnpError(problems) from None
        finally:  # the rulebooks' files join the transaction even when a deck fails, so they are removed with it
            files.extend(join_all(rulebooks, problems, txn))
        if problems.errors and not options.force:
            raise PnpError(problems)
    reuse.commit(files, wanted)
    return BuildResult(files, problems, cuts, changes)


def _renderer(edition: Edition, progress: BuildProgress | None, reuse: Reuse):
    """The edition's renderer, counting the fronts it sets for the progress bar, as
    `reuse` has it (the watcher's keeps its faces across builds)."""
    renderer = edition.renderer()
    counted = progress.wrap(renderer) if progress is not None else renderer
    return reuse.renderer(edition, counted, renderer.names.decks)


def _since(editions: list[Edition], options: BuildOptions, changed_since: Path | None, since_last: bool) -> dict[str, tuple[Path, Manifest]]:
    """The manifest each language is compared with: the one named (for its language), or
    the last build's of each language, read before anything is written."""
    if changed_since is not None:
        old = read_manifest(changed_since)
        if old.lang not in {edition.lang for edition in editions}:
            raise PnpError(
                Problem(
                    Location(shown(changed_since)),
                    "manifest-language",
                    f"is a manifest of language '{old.lang}', which this build does not print; expected --lang {old.lang}",
                )
            )
        return {old.lang: (changed_since, old)}
    if not since_last:
        return {}
    found = {}
    for edition in editions:
        path = default_since(options.out, edition.game, edition.lang, options.sheet.paper, options.deal)
        found[edition.lang] = (path, read_manifest(path))
    return found


def _write_manifest(edition: Edition, options: BuildOptions, drawn: Drawn, txn: Transaction, problems: Problems, reuse: Reuse) -> None:
    """Record the faces drawn in one language beside the PDFs, in the build's
    transaction, as `reuse` writes it; a build of some decks keeps the last build's record
    of the others."""
    game, paper = edition.game, options.sheet.paper
    path = manifest_path(options.out, game, edition.lang, paper, options.deal)
    last = None
    if options.decks and path.is_file():
        try:
            last = read_manifest(path)
        except PnpError as err:
            problems.warn(err.problems.items[0].location, "manifest-replaced", f"{err.problems.items[0].message}; it is replaced by one of the decks built now")
    reuse.manifest(path, txn, partial(write_manifest, game=game, lang=edition.lang, paper=paper, drawn=drawn, last=last, built=set(edition.project.layouts)))


def _write_errata(
    edition: Edition, options: BuildOptions, members: set[str] | None, change: Changes, problems: Problems, txn: Transaction, cuts: list[Path]
) -> list[Written]:
    """The errata PDFs of one language: in each deck (or group), only the cards changed or
    new, imposed as the deck is, with their backs."""
    reprint = change.reprint if members is None else change.reprint & members
    errata = replace(options, deal=f"{options.deal}-errata" if options.deal else "errata")  # names the files DECK-LANG-PAPER-errata.pdf
    files = []
    for unit in print_units(edition.project):
        if any(card.id in reprint for deck_id in unit[1] for card in edition.game.decks[deck_id].cards):
            sheets = Sheets(edition, edition.renderer(), errata, reprint, problems, txn)
            written = write_unit(sheets, plan_unit(edition.project, unit, errata.sheet, reprint, errata.deal))  # its problems are the build's, for fewer cards
            cuts += _write_cut_files(sheets.cut_files, txn)
            if written is not None:
                files.append(written)
    return files


def _write_edition(sheets: Sheets, plan: Plan, progress: BuildProgress, cuts: list[Path]) -> list[Written]:
    """Every PDF of the decks in one language, as planned (and their cut files, added to
    `cuts`); its translation's problems come first."""
    sheets.problems.extend(sheets.edition.problems)
    if sheets.problems.errors and not sheets.options.force:
        raise PnpError(sheets.problems)
    files = []
    for unit in plan.units:
        written = _draw_unit(sheets, unit)
        cuts += _write_cut_files(sheets.cut_files, sheets.txn)
        sheets.cut_files.clear()
        progress.deck_done(written)
        if written is not None:
            files.append(written)
    return files


def _draw_unit(sheets: Sheets, unit: UnitPlan) -> Written | None:
    """`write_unit`, as `sheets.reuse` has it: the watcher's leaves a PDF whose inputs did
    not change as it is (its faces' entries of the manifest and its problems are the last build's)."""
    return sheets.reuse.deck_file(sheets, unit.target(sheets.options.out, sheets.edition.lang), unit.decks, partial(write_unit, plan=unit))


def start_rulebooks(editions: list[Edition], options: BuildOptions, txn: Transaction, settled: SettledPages) -> list[Aside]:
    """The rulebooks of every language, filled in, parsed and checked here, then set aside
    in one forked process (set once for both formats), which inherits them, the fonts they are set in
    and the imports, while this one draws the decks; each is set from the pages it last
    settled on (`settled`, which keeps the new ones). Join the returned Asides for their
    files."""
    from pnp.pipeline.rulebooks import prepare_rulebooks  # Markdown and Jinja: only for a game with rulebooks
    from pnp.rulebook.flow import Styles

    books = [prepare_rulebooks(edition) for edition in editions]
    fonts = editions[0].project.fonts
    for name in Styles.for_size(rulebook_formats(options.sheet.paper).page.body).fonts():  # parsed once, here: the decks use most of them too
        fonts.get(name)
    for edition in editions:  # read once, here: the decks hyphenate the same languages
        hyphenator(edition.lang)
    where = next(iter(editions[0].game.meta.rulebooks.values()))._loc
    return [Aside(partial(_write_rulebooks, books, options, settled), txn, "setting the rulebooks", where, settled.keep)]


def _write_rulebooks(books: list[Rulebooks], options: BuildOptions, settled: SettledPages, problems: Problems, txn: Transaction) -> list[tuple]:
    """Every rulebook in every language asked for, set once and written on the paper and as
    the booklet, with the pages each settled on. The editions' translation problems are
    reported with the decks. Each rulebook is set on its own, so that one pnp cannot set
    is named, with its language, where it is defined, and the others are still tried."""
    from pnp.pipeline.rulebooks import write_rulebook  # with platypus and pypdf: only for a game that has rulebooks

    files, failed = [], False
    for book in books:
        problems.extend(book.problems)
        if book.problems.errors and not options.force:
            continue
        for source, doc in book.documents:
            try:
                files.append(write_rulebook(book, source, doc, options, problems, txn, settled))
            except Interrupted:
                raise
            except PnpError as err:
                problems.extend(err.problems)
                failed = True
            except OSError as exc:
                if txn.writes(exc):
                    raise txn.problem(exc) from None
                problems.extend(_unset(source.id, book.edition.lang, source.loc, exc).problems)
                failed = True
            except Exception as exc:  # noqa: BLE001 - a bug met on this rulebook: named, not a traceback from another process
                problems.extend(_unset(source.id, book.edition.lang, source.loc, exc).problems)
                failed = True
        problems.extend(book.problems)  # what laying out the cards they show found
    if failed:
        raise PnpError(problems)
    return files


def _unset(rulebook: str, lang: str, where: Location, exc: BaseException) -> PnpError:
    return fail(
        where,
        "rulebook-failed",
        f"rulebook '{rulebook}' in '{lang}' could not be set: {type(exc).__name__}: {exc}; "
        "expected it set (simplify what it fails on, and report this as a bug in pnp)",
    )


def _write_cut_files(files: list[tuple[Path, bytes]], txn: Transaction) -> list[Path]:
    for target, data in files:
        txn.path_for(target).write_bytes(data)
    return [target for target, _ in files]


def _build_parallel(
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
            cuts += _write_cut_files(cut_files, txn)
            if written is not None:
                files.append(written)
    finally:  # on a failure or a signal, what has not started never starts; what has is waited for, so its file is removed after
        pool.shutdown(wait=True, cancel_futures=True)
    return files


def _build_one(task: tuple) -> tuple[Written | None, list[Problem], list[tuple[Path, bytes]], Drawn]:
    folder, options, lang, strings, unit, members, target, tmp = task
    project = prepare(folder, unit.decks)
    problems = Problems()
    try:
        edition = Edition.translated(project, lang, strings)
        sheets = Sheets(edition, edition.renderer(), options, members, problems, _Given(tmp))
        written = write_unit(sheets, unit)
    except PnpError as err:
        return None, err.problems.items, [], Drawn()
    return (written and written._replace(path=target)), problems.items, sheets.cut_files, sheets.drawn


def write_tuckboxes(sheets: Sheets, boxes: list[TuckboxPlan]) -> list[Written]:
    """The tuck boxes of the decks built, in one language, one PDF each, as planned
    (plan/tuckboxes.py: the net on one sheet, else in pieces to glue; none for --sides
    backs)."""
    edition = sheets.edition
    files = []
    for box in boxes:
        target = box.target(sheets.options.out, edition.lang)
        written = sheets.reuse.tuckbox_file(sheets, target, box.deck, partial(draw_tuckbox, plan=box, target=target))
        if written is not None:
            files.append(written)
    return files
