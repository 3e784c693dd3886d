"""The pipeline: load -> check -> lay out -> impose -> write, one deck at a time.

Every command goes through `prepare` (load the game and its layouts), then makes the game
in each language asked for once (edition.py); `check_all` and `build` set faces with the
edition's Renderer, so `pnp check` and `pnp build` report the same mistakes. Data flows
one way: no stage reaches back into an earlier one.
"""

from __future__ import annotations

import io
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.units import mm

from pnp.base.errors import Location, PnpError, Problem, Problems, fail
from pnp.base.forked import Aside, join_all
from pnp.base.output import Transaction, Written, shown, transaction
from pnp.base.signals import Interrupted, stop_if_received
from pnp.check.rules import deal_members
from pnp.check.run import check_game
from pnp.impose.paper import rulebook_formats
from pnp.impose.sheets import (
    DoesNotFit,
    Fold,
    Grid,
    Member,
    SharedSheets,
    SheetSpec,
    fit_grid,
    impose,
    impose_fold,
    plan_fold,
    plan_grid,
    plan_shared,
    plan_tiling,
)
from pnp.impose.tuckbox import BLEED
from pnp.layout.elements.base import Layout
from pnp.layout.faces import Face
from pnp.layout.renderer import Renderer
from pnp.layout.text import hyphenator
from pnp.layout.tuckbox import Tuckbox
from pnp.load.model import Deck, Game
from pnp.load.yamlfile import keeping
from pnp.pdf.canvas import KeptCode
from pnp.pipeline.progress import BuildProgress, expected_cards
from pnp.project.edition import Edition, make_editions, resolve_languages
from pnp.project.options import BuildOptions
from pnp.project.project import Project, prepare
from pnp.write.manifest import Changes, Drawn, Hashes, Manifest, compare, default_since, face_hash, make_manifest, manifest_path, read_manifest, write_manifest
from pnp.write.pdf import DocInfo, ruler_caption, write_sheets

if TYPE_CHECKING:
    from pnp.live.session import Session
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
    session: Session | None = None  # the watcher's: PDFs whose inputs did not change are left as they are

    def record(self, deck_id: str, index: int, card_id: str, side: str, face: Face) -> Face:
        """Note a face drawn (of card `index`, `card_id`), to be hashed for the manifest (errata.py)."""
        if self.drawn.noted(deck_id, index, side):  # a copy drawn again
            return face
        kept = self.session.kept_face(self.edition.lang, deck_id, card_id, side, face) if self.session is not None else None
        if kept is not None and kept.hash is not None:  # most faces of a save: noted at once
            self.drawn.add(deck_id, index, side, kept.hash)
            return face
        make = partial(face_hash, face, self.edition.project.symbols, self.hashes)
        self.drawn.note(deck_id, index, side, make if kept is None else partial(kept.hashed, make))
        return face

    def face(self, deck: Deck, index: int, layout: Layout, side: str) -> Face:
        """Card `index` of `deck` set in `layout`, its hash recorded; the watcher's face
        kept from its last build is found without unpacking the card."""
        card_id = deck.card_id(index)
        found = self.renderer.kept(deck.id, card_id, layout, side, self.problems) if self.session is not None else None
        if found is None:
            found = self.renderer.face(deck.cards[index], layout, side, self.problems)
        return self.record(deck.id, index, card_id, side, found)

    def kept_code(self, target: Path) -> KeptCode | None:
        """The watcher's record of what the faces of `target` wrote in its last build."""
        return None if self.session is None else self.session.kept_code(target)


def output_name(game: Game, deck: Deck, lang: str, spec: SheetSpec, deal: str | None = None) -> str:
    suffix = ("" if spec.sides == "duplex" else f"-{spec.sides}") + (f"-{spec.cutter}" if spec.cutter else "") + (f"-{deal}" if deal else "")
    return f"{game.name}/{deck.id}-{lang}-{spec.paper}{suffix}.pdf"


def build(
    folder: Path,
    options: BuildOptions,
    progress: BuildProgress | None = None,
    changed_since: Path | None = None,
    since_last: bool = False,
    session: Session | None = None,
) -> BuildResult:
    """Check the rules, then set and draw every deck in every language in one pass, while
    the rulebooks are set aside (in a forked process). Every language, and its rulebooks'
    documents, are made once, before forking, so the rulebook process inherits them. Each
    face is laid out when its sheet is drawn and dropped after, so memory does not grow
    with the deck. Layout problems are found while drawing: the PDFs are moved into place
    only if there are none (or with --force); the problems of rules, decks and rulebooks are reported together.
    Every build records the faces it drew in a manifest per language (errata.py);
    `changed_since` (a manifest) or `since_last` (the last build's) also writes errata
    PDFs of the cards changed or new since. With the watcher's `session`, what did not
    change since its last build is not drawn again (session.py)."""
    with keeping(session.data if session is not None else None):
        project = prepare(folder, options.decks)
    if session is not None:
        session.start(project, options)
    wanted = bool(project.game.meta.rulebooks) and not options.decks and (session is None or session.books_due())
    editions = make_editions(project, resolve_languages(project.game, options.langs), options.allow_untranslated, rulebooks=wanted)
    since = _since(editions, options, changed_since, since_last)
    progress = progress or BuildProgress(bar=False)
    problems, files, cuts = Problems(), [], []
    drawn = {edition.lang: Drawn() for edition in editions}
    changes: list[Changes] = []
    with transaction(options.out) as txn:
        if wanted:
            from pnp.rulebook.settled import SettledPages  # here for speed, as the rulebooks' modules: only a game with rulebooks sets them

            rulebooks = start_rulebooks(editions, options, txn, session.rulebook_pages if session is not None else SettledPages())
        else:
            rulebooks = []
        try:
            problems.extend(check_game(project))
            if problems.errors and not options.force:
                raise PnpError(problems)
            members = deal_members(project.game, options.deal) if options.deal else None
            progress.start(expected_cards([project.game.decks[d] for d in project.layouts], len(editions)))
            if options.jobs > 1 and len(editions) * len(project.layouts) > 1 and session is None:  # the watcher's session keeps faces in this process
                files = _build_parallel(editions, options, members, problems, txn, cuts, drawn)
                for written in files:
                    progress.deck_done(written, timed=False)
            else:
                for edition in editions:
                    sheets = Sheets(edition, _renderer(edition, progress, session), options, members, problems, txn, session=session)
                    files += _write_edition(sheets, progress, cuts)
                    drawn[edition.lang] = sheets.drawn
            for edition in editions:
                files += write_tuckboxes(Sheets(edition, _renderer(edition, None, session), options, members, problems, txn, session=session))
            for edition in editions:
                _write_manifest(edition, options, drawn[edition.lang], txn, problems, session)
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
    if session is not None:
        session.commit(files, wanted)
    return BuildResult(files, problems, cuts, changes)


def _renderer(edition: Edition, progress: BuildProgress | None, session: Session | None):
    """The edition's renderer, counting the fronts it sets for the progress bar; with the
    watcher's session, keeping its faces across builds."""
    renderer = edition.renderer()
    counted = progress.wrap(renderer) if progress is not None else renderer
    return counted if session is None else session.setter(edition, counted, renderer.names.decks)


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


def _write_manifest(edition: Edition, options: BuildOptions, drawn: Drawn, txn: Transaction, problems: Problems, session: Session | None = None) -> None:
    """Record the faces drawn in one language beside the PDFs, in the build's
    transaction; a build of some decks keeps the last build's record of the others. The
    watcher leaves a manifest that would not change as it is; a build streams it to the
    file (a 10,000-card manifest is never held whole)."""
    game, paper = edition.game, options.sheet.paper
    path = manifest_path(options.out, game, edition.lang, paper, options.deal)
    last = None
    if options.decks and path.is_file():
        try:
            last = read_manifest(path)
        except PnpError as err:
            problems.warn(err.problems.items[0].location, "manifest-replaced", f"{err.problems.items[0].message}; it is replaced by one of the decks built now")
    built = set(edition.project.layouts)
    if session is None:
        with txn.path_for(path).open("wb") as file:
            write_manifest(file, game, edition.lang, paper, drawn, last, built)
        return
    data = io.BytesIO()
    write_manifest(data, game, edition.lang, paper, drawn, last, built)
    if not path.is_file() or path.read_bytes() != data.getvalue():
        txn.path_for(path).write_bytes(data.getvalue())


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
            written = write_unit(sheets, unit)
            cuts += _write_cut_files(sheets.cut_files, txn)
            if written is not None:
                files.append(written)
    return files


def _write_edition(sheets: Sheets, progress: BuildProgress, cuts: list[Path]) -> list[Written]:
    """Every PDF of the decks in one language (and their cut files, added to `cuts`); its
    translation's problems come first."""
    sheets.problems.extend(sheets.edition.problems)
    if sheets.problems.errors and not sheets.options.force:
        raise PnpError(sheets.problems)
    files = []
    for unit in print_units(sheets.edition.project):
        written = _draw_unit(sheets, unit)
        cuts += _write_cut_files(sheets.cut_files, sheets.txn)
        sheets.cut_files.clear()
        progress.deck_done(written)
        if written is not None:
            files.append(written)
    return files


def _draw_unit(sheets: Sheets, unit: Unit) -> Written | None:
    """`write_unit`; with the watcher's session, nothing when the PDF is left as it is
    (its faces' entries of the manifest and its problems are the last build's)."""
    session = sheets.session
    if session is None:
        return write_unit(sheets, unit)
    edition = sheets.edition
    target = unit_target(edition, unit, sheets.options)
    key = session.unit_key(edition, target, unit[1], sheets.members)
    kept = session.kept_file(edition, target, key)
    if kept is not None:
        sheets.drawn.update(kept.drawn)
        sheets.problems.extend(kept.problems)
        return None
    found = len(sheets.problems.items)
    session.begin(sheets.renderer.names.decks)
    drawing = replace(sheets, drawn=Drawn())  # the faces of this PDF, recorded with it
    written = write_unit(drawing, unit)
    sheets.drawn.update(drawing.drawn)
    session.end(edition, target, key, written, drawing.drawn, sheets.problems.items[found:])
    return written


def _doc_info(sheets: Sheets, what: str, count: str, sides: str, duplex: bool) -> DocInfo:
    """A sheet PDF's title and subject (what it holds, on what paper, how to print it) and,
    for duplex, the edge viewers are asked to turn the paper over."""
    meta, spec = sheets.edition.game.meta, sheets.options.sheet
    return DocInfo(
        title=f"{meta.title}: {what}",
        author=meta.author,
        subject=f"{count}, {spec.paper.upper()}, {sides}" + (f", flip on the {spec.flip} edge" if duplex else ""),
        initial_font=sheets.edition.project.fonts.get("sans").registered,
        flip=spec.flip if duplex else None,
    )


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
                stop_if_received(exc)  # unless it was a signal, turned into another exception on its way
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
    editions: list[Edition], options: BuildOptions, members: set[str] | None, problems: Problems, txn: Transaction, cuts: list[Path], drawn: dict[str, Drawn]
) -> list:
    """Build every (language, deck) in its own process; the parent owns the transaction
    and sends each the translations it read."""
    from concurrent.futures import ProcessPoolExecutor

    tasks = []
    for edition in editions:
        problems.extend(edition.problems)
        for unit in print_units(edition.project):
            target = unit_target(edition, unit, options)
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
    project = prepare(folder, unit[1])
    problems = Problems()
    try:
        edition = Edition.translated(project, lang, strings)
        sheets = Sheets(edition, edition.renderer(), options, members, problems, _Given(tmp))
        written = write_unit(sheets, unit)
    except PnpError as err:
        return None, err.problems.items, [], Drawn()
    return (written and written._replace(path=target)), problems.items, sheets.cut_files, sheets.drawn


Unit = tuple[str | None, list[str]]  # what one PDF holds: a deck, or a group's decks


def print_units(project: Project) -> list[Unit]:
    """Each deck on its own, except decks with a `group`, which share one PDF (in the order
    their first deck comes in game.yaml)."""
    units: list[Unit] = []
    groups: dict[str, list[str]] = {}
    for deck_id in project.layouts:
        group = project.game.decks[deck_id].group
        if group is None:
            units.append((None, [deck_id]))
        elif group in groups:
            groups[group].append(deck_id)
        else:
            groups[group] = [deck_id]
            units.append((group, groups[group]))
    return units


def unit_target(edition: Edition, unit: Unit, options: BuildOptions) -> Path:
    group, ids = unit
    game = edition.game
    deck = game.decks[ids[0]] if group is None else replace(game.decks[ids[0]], id=group)
    return options.out / output_name(game, deck, edition.lang, options.sheet, options.deal)


def write_unit(sheets: Sheets, unit: Unit) -> Written | None:
    group, ids = unit
    if group is None:
        return write_deck(sheets, sheets.edition.game.decks[ids[0]])
    return write_group(sheets, unit)


def write_group(sheets: Sheets, unit: Unit) -> Written | None:
    """The decks of one group on shared sheets: each deck in rows of its own size."""
    group, ids = unit
    game, problems = sheets.edition.game, sheets.problems
    spec = sheets.options.sheet
    entries: list[tuple[str, int]] = []  # (deck, card index), copies repeated
    placed: list[Member] = []
    project = sheets.edition.project
    for deck_id in ids:
        deck = game.decks[deck_id]
        for front, _ in project.pairs(deck_id):
            try:
                plan_grid(spec, front.width * mm, front.height * mm)
            except DoesNotFit as exc:
                problems.error(
                    deck.locs.get("group", deck.loc),
                    "sheet-fit",
                    f"deck '{deck_id}' of group '{group}': {exc}; expected it outside the group, where it is turned or split",
                )
                raise PnpError(problems) from None
        chosen: dict[str, list[tuple[int, Member]]] = {}  # rows of one size: the cards of each front layout together
        for index, card in enumerate(deck.cards):
            if sheets.members is None or card.id in sheets.members:
                front, back = project.card_layouts(deck_id, index)
                member = Member(front.width * mm, front.height * mm, front.shape, back is not None, f"{deck_id}/{front.name}")  # a new row for each size
                chosen.setdefault(front.name, []).append((index, member))
        for rows in chosen.values():
            for index, member in rows:
                entries += [(deck_id, index)] * deck.cards[index].copies
                placed += [member] * deck.cards[index].copies
    if spec.sides == "backs" and not any(m.back for m in placed):
        return None
    if spec.sides == "fold" and any(m.back for m in placed):
        first = game.decks[ids[0]]
        problems.warn(
            first.locs.get("group", first.loc),
            "sheet-fold-group",
            f"the decks of group '{group}' share sheets, which are not folded; their backs are printed on the reverse pages, double-sided (flip on the {spec.flip} edge)",
        )
        spec = replace(spec, sides="duplex")
    shared = plan_shared(spec, placed)
    total_sheets = max((page.sheet for page in shared.pages), default=0)

    @lru_cache(maxsize=512)
    def face(item: int, side: str) -> Face:
        deck_id, index = entries[item]
        front, back = project.card_layouts(deck_id, index)
        return sheets.face(game.decks[deck_id], index, front if side == "front" else back, side)

    def face_of(side, item):
        return face(item, side)

    target = unit_target(sheets.edition, unit, sheets.options)
    names = ", ".join(game.decks[d].name for d in ids)
    duplex = spec.sides == "duplex" and any(m.back for m in placed)
    info = _doc_info(sheets, names, f"{len(entries)} components", spec.sides, duplex)
    caption = ruler_caption(f"{game.meta.title} · {group}", total_sheets)
    pages = _keep_cuts(shared.pages, sheets, target, shared)
    count = write_sheets(
        sheets.txn.path_for(target), pages, shared, info, face_of, sheets.edition.project.symbols, caption, spec.bleed * mm, sheets.kept_code(target)
    )
    return Written(target, len(entries), count, spec.flip if duplex else None)


def write_deck(sheets: Sheets, deck: Deck) -> Written | None:
    """Impose one deck in one language and draw it into a temporary file of the build."""
    if deck.id in sheets.edition.project.per_card:
        spec = sheets.options.sheet
        if spec.sides == "fold" or spec.cutter:
            route = "--sides fold" if spec.sides == "fold" else f"--cutter {spec.cutter}"
            sheets.problems.error(
                deck.locs.get("front", deck.loc),
                "sheet-route",
                f"deck '{deck.id}' chooses its layout per card, which {route} does not print yet; expected a duplex or one-sided build of it, or one layout for the deck",
            )
            raise PnpError(sheets.problems)
        return _write_sizes(sheets, deck)
    front, back = sheets.edition.project.layouts[deck.id]
    spec = sheets.options.sheet
    grid = fit_grid(spec, front.width * mm, front.height * mm)
    if spec.sides == "backs" and back is None:
        return None
    members = sheets.members
    # the card of each copy printed, as an array: a list of 10,000 numbers would hold an object each
    items = array("I", (i for i, copies in enumerate(deck.copies()) if members is None or deck.card_id(i) in members for _ in range(copies)))
    if grid is None:
        return _write_split(sheets, deck, items)
    total_sheets = -(-len(items) // grid.per_sheet)

    @lru_cache(maxsize=2 * grid.per_sheet + 2)  # a sheet's fronts, then the same cards' backs
    def face(index: int, side: str) -> Face:
        return sheets.face(deck, index, front if side == "front" else back, side)

    def face_of(side, item):
        return face(items[item], side)

    game = sheets.edition.game
    target = sheets.options.out / output_name(game, deck, sheets.edition.lang, spec, sheets.options.deal)
    sides = spec.sides if back is not None else "fronts"  # a deck without a back has nothing for the reverse
    fold = _fold(sheets, deck, front) if sides == "fold" else None
    if fold is not None:
        grid, total_sheets = fold.grid, -(-len(items) // fold.grid.per_sheet)
        pages = impose_fold(len(items), fold, spec, front.shape)
    else:
        sides = "duplex" if sides == "fold" else sides  # too large to fold: printed double-sided (warned)
        pages = impose(len(items), grid, replace(spec, sides=sides), front.shape)
    duplex = sides == "duplex"
    info = _doc_info(sheets, deck.name, f"{len(items)} cards", "folded" if fold else sides, duplex)
    caption = ruler_caption(f"{game.meta.title} · {deck.name}", total_sheets)
    pages = _keep_cuts(pages, sheets, target, grid)
    count = write_sheets(
        sheets.txn.path_for(target), pages, grid, info, face_of, sheets.edition.project.symbols, caption, spec.bleed * mm, sheets.kept_code(target)
    )
    return Written(target, len(items), count, spec.flip if duplex else "fold" if fold else None)


def _fold(sheets: Sheets, deck: Deck, front) -> Fold | None:
    """The folded sheet for a deck, or None (with a warning) when its cards do not fit half a sheet."""
    try:
        return plan_fold(sheets.options.sheet, front.width * mm, front.height * mm)
    except DoesNotFit as exc:
        flip = sheets.options.sheet.flip
        sheets.problems.warn(
            deck.locs.get("front", deck.loc),
            "sheet-fold-fit",
            f"deck '{deck.id}': {exc}; its backs are printed on the reverse pages instead, double-sided (flip on the {flip} edge), or use larger paper (--paper)",
        )
        return None


def _keep_cuts(pages, sheets: Sheets, target: Path, grid: Grid | SharedSheets):
    """The pages, passed on as they are drawn; with a cutting machine, each page's cut file
    (SVG and DXF, beside the PDF) is kept for the build to write."""
    spec = sheets.options.sheet
    if spec.cutter is None:
        yield from pages
        return
    kept = []
    for page in pages:
        if page.machine:
            kept.append(page)
        yield page
    if kept:
        from pnp.write.cutfiles import cut_files  # here for speed: only a build for a cutting machine writes cut files

        sheets.cut_files.extend(cut_files(target, kept, spec, grid.page_w, grid.page_h))


def _write_sizes(sheets: Sheets, deck: Deck) -> Written | None:
    """A deck that chooses its layout per card, in one PDF: the cards of each size (in the
    order of their first card) on sheets of their own, every sheet in one orientation of
    the paper."""
    project, spec = sheets.edition.project, sheets.options.sheet
    pairs = [project.card_layouts(deck.id, i) for i in range(len(deck.cards))]
    if spec.sides == "backs" and not any(back for _, back in pairs):
        return None
    sizes: dict[tuple[float, float, str], list[int]] = {}  # trim size and shape -> card indices, copies repeated
    for index, card in enumerate(deck.cards):
        if sheets.members is None or card.id in sheets.members:
            front = pairs[index][0]
            sizes.setdefault((front.width, front.height, front.shape), []).extend([index] * card.copies)
    grids = _common_grids(sheets, deck, list(sizes))
    items: list[int] = []
    pages = []
    total_sheets = 0
    for (_, _, shape), grid, indices in zip(sizes, grids, sizes.values()):
        backed = any(pairs[i][1] is not None for i in indices)
        for page in impose(len(indices), grid, spec if backed else replace(spec, sides="fronts"), shape):
            if page.sheet == 0 and total_sheets:
                continue  # the ruler's page of its own: once, before the first sheets
            placements = tuple(replace(p, item=p.item + len(items)) for p in page.placements)
            pages.append(replace(page, sheet=page.sheet + total_sheets if page.sheet else 0, placements=placements))
        total_sheets += -(-len(indices) // grid.per_sheet)
        items += indices

    @lru_cache(maxsize=2 * max(g.per_sheet for g in grids) + 2)
    def face(index: int, side: str) -> Face:
        front, back = pairs[index]
        return sheets.face(deck, index, front if side == "front" else back, side)

    def face_of(side, item):
        return face(items[item], side)

    game = sheets.edition.game
    target = sheets.options.out / output_name(game, deck, sheets.edition.lang, spec, sheets.options.deal)
    sides = spec.sides if any(back for _, back in pairs) else "fronts"
    duplex = sides == "duplex"
    info = _doc_info(sheets, deck.name, f"{len(items)} cards", sides, duplex)
    caption = ruler_caption(f"{game.meta.title} · {deck.name}", total_sheets)
    count = write_sheets(sheets.txn.path_for(target), pages, grids[0], info, face_of, project.symbols, caption, spec.bleed * mm, sheets.kept_code(target))
    return Written(target, len(items), count, spec.flip if duplex else None)


def _common_grids(sheets: Sheets, deck: Deck, sizes: list[tuple[float, float, str]]):
    """A grid for each size of card, all on the paper turned the same way (one PDF has
    one page size): upright if every size fits so, else landscape."""
    spec = sheets.options.sheet
    failed = None
    for landscape in (False, True):
        try:
            return [plan_grid(spec, w * mm, h * mm, landscape) for w, h, _ in sizes]
        except DoesNotFit as exc:
            failed = exc
    sheets.problems.error(
        deck.locs.get("front", deck.loc),
        "sheet-fit",
        f"deck '{deck.id}' chooses its layout per card, and its cards of {' and '.join(f'{w:g} x {h:g} mm' for w, h, _ in sizes)} do not all fit on {spec.paper.upper()} "
        f"turned the same way ({failed}); expected larger paper (--paper), or the largest cards in a deck of their own",
    )
    raise PnpError(sheets.problems)


def _write_split(sheets: Sheets, deck: Deck, items: Sequence[int]) -> Written | None:
    """A deck whose components do not fit the paper even turned: each component on an
    assembly page and overlapping pieces (pieces.py). Backs are not printed."""

    front, back = sheets.edition.project.layouts[deck.id]
    spec, problems = sheets.options.sheet, sheets.problems
    try:
        tiling = plan_tiling(spec, front.width * mm, front.height * mm, front.shape)
    except DoesNotFit as exc:
        problems.error(deck.locs.get("front", deck.loc), "sheet-fit", f"deck '{deck.id}': {exc}; expected a smaller --overlap or larger paper (--paper)")
        raise PnpError(problems) from None
    notes = []
    if back is not None and spec.sides != "fronts":
        message = f"deck '{deck.id}' ({front.width:g} x {front.height:g} mm) is larger than {spec.paper.upper()} and printed in pieces; its back ('{back.name}') is not printed, because pieces cannot be printed double-sided"
        problems.warn(deck.locs.get("back", deck.loc), "sheet-split-back", message + "; expected --paper a3 or larger if the back matters")
        notes.append(f"The back ('{back.name}') is not printed: a component in pieces cannot be printed double-sided.")
    if spec.sides == "backs":
        return None
    if spec.cutter:
        message = f"deck '{deck.id}' ({front.width:g} x {front.height:g} mm) does not fit {spec.cutter.title()}'s cutting area and is printed in pieces, cut by hand; it has no cut file"
        problems.warn(deck.locs.get("front", deck.loc), "sheet-cutter-pieces", message + "; expected it printed without --cutter")
    game, fonts = sheets.edition.game, sheets.edition.project.fonts
    target = sheets.options.out / output_name(game, deck, sheets.edition.lang, spec, sheets.options.deal)

    def faces():
        for index in items:
            yield f"{game.meta.title} · {deck.name} · {deck.card_id(index)}", sheets.face(deck, index, front, "front")

    info = _doc_info(sheets, deck.name, f"{len(items)} components in {len(tiling.pieces)} pieces each", "one-sided", False)
    bold = fonts.get("sans-bold").registered if "sans-bold" in fonts else info.initial_font
    caption = ruler_caption(f"{game.meta.title} · {deck.name}")
    from pnp.write.pieces import write_pieces  # here for speed: only a component larger than the paper is printed in pieces

    count = write_pieces(sheets.txn.path_for(target), tiling, faces(), info, sheets.edition.project.symbols, (info.initial_font, bold), caption, notes)
    return Written(target, len(items), count)  # pieces are printed one-sided


def write_tuckboxes(sheets: Sheets) -> list[Written]:
    """The tuck boxes of the decks built, in one language, one PDF each: the net on one
    sheet (portrait, else landscape), else in pieces to glue (pieces.py). Printed
    one-sided and cut along the outline, so there are no crop marks; the art runs
    tuckbox.BLEED past the cut edges whatever --bleed says, and --gap and the flip do not
    apply. Nothing for --sides backs: a box has no back."""
    spec, edition = sheets.options.sheet, sheets.edition
    if spec.sides == "backs":
        return []
    box_spec = replace(spec, bleed=BLEED, gap=0.0, marks=False, sides="fronts")
    files, session = [], sheets.session
    for box in edition.project.tuckboxes.values():
        target = sheets.options.out / f"{edition.game.name}/{box.id}-{edition.lang}-{spec.paper}.pdf"
        if session is None:
            files.append(_write_tuckbox(sheets, box, box_spec, target))
            continue
        key = session.tuckbox_key(edition, target, box.deck)
        kept = session.kept_file(edition, target, key)
        if kept is not None:
            sheets.problems.extend(kept.problems)
            continue
        found = len(sheets.problems.items)
        session.begin(sheets.renderer.names.decks)
        files.append(_write_tuckbox(sheets, box, box_spec, target))
        session.end(edition, target, key, files[-1], {}, sheets.problems.items[found:])
    return files


def _write_tuckbox(sheets: Sheets, box: Tuckbox, box_spec: SheetSpec, target: Path) -> Written:
    edition = sheets.edition
    symbols = edition.project.symbols
    deck = edition.game.decks[box.deck]
    from pnp.layout.tuckbox_net import box_face  # here for speed: only a game with tuck boxes draws one

    face = box_face(sheets.renderer, box, sheets.problems)
    what = f"{deck.name} (tuck box)"
    info = _doc_info(sheets, what, f"a tuck box for {deck.count} cards", "one-sided", False)
    caption = ruler_caption(f"{edition.game.meta.title} · {what}")
    grid = fit_grid(box_spec, face.width, face.height)
    if grid is not None:
        grid = replace(grid, cols=1, rows=1, x0=(grid.page_w - face.width) / 2, y0=(grid.page_h + face.height) / 2)  # one box, centred
        pages = impose(1, grid, box_spec)
        count = write_sheets(sheets.txn.path_for(target), pages, grid, info, lambda page, item, face=face: face, symbols, caption, BLEED * mm)
    else:
        try:
            tiling = plan_tiling(box_spec, face.width, face.height)
        except DoesNotFit as exc:
            sheets.problems.error(box.loc, "sheet-fit", f"tuck box '{box.id}': {exc}; expected a smaller --overlap or larger paper (--paper)")
            raise PnpError(sheets.problems) from None
        fonts = edition.project.fonts
        bold = fonts.get("sans-bold").registered if "sans-bold" in fonts else info.initial_font
        from pnp.write.pieces import write_pieces  # here for speed: only a component larger than the paper is printed in pieces

        notes = ["A tuck box: glue the pieces together first, then cut the box's solid outline; its grey dashed lines are folds, not cuts."]
        count = write_pieces(
            sheets.txn.path_for(target), tiling, [(f"{edition.game.meta.title} · {what}", face)], info, symbols, (info.initial_font, bold), caption, notes
        )
    return Written(target, 0, count)
