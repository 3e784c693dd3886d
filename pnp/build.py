"""The pipeline: load -> check -> lay out -> impose -> write, one deck at a time.

Every command goes through `prepare` (load the game and its layouts), then makes the game
in each language asked for once (edition.py); `check_all` and `build` set faces with the
edition's Renderer, so `pnp check` and `pnp build` report the same mistakes. Data flows
one way: no stage reaches back into an earlier one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache, partial
from pathlib import Path

from reportlab.lib.units import mm

from .aside import Aside, join_all
from .check import check_game
from .edition import Edition, make_editions, resolve_languages
from .errors import Location, PnpError, Problem, Problems, fail
from .faces import Face
from .files import Transaction, Written, transaction
from .impose import DoesNotFit, Member, SheetSpec, fit_grid, impose, plan_grid, plan_shared, plan_tiling
from .interrupt import Interrupted
from .model import Deck, Game
from .options import BuildOptions
from .pdf import DocInfo, ruler_caption, write_sheets
from .pieces import write_pieces
from .progress import BuildProgress, expected_cards
from .project import Project, prepare
from .render import Renderer
from .rules import deal_members
from .tuckbox import BLEED
from .tuckboxface import box_face

RULEBOOK_KINDS = ("paper", "booklet")  # each set in a process of its own while the decks are drawn


@dataclass
class BuildResult:
    files: list[Written]  # path, cards, pages, and the edge to flip for the double-sided ones
    problems: Problems


class _Given:
    """Stands in for a Transaction in a worker process: the parent chose the file."""

    def __init__(self, path: Path):
        self.path = path

    def path_for(self, target: Path) -> Path:
        return self.path


@dataclass(frozen=True)
class Sheets:
    """What drawing the sheet PDFs of one language of a build takes besides the deck."""

    edition: Edition
    renderer: Renderer  # the edition's (counting the faces it sets, for the progress bar)
    options: BuildOptions
    members: set[str] | None  # the components of --deal; None: every component
    problems: Problems  # where the problems found while laying out go
    txn: Transaction | _Given  # gives each PDF its temporary file


def output_name(game: Game, deck: Deck, lang: str, spec: SheetSpec, deal: str | None = None) -> str:
    suffix = ("" if spec.sides == "duplex" else f"-{spec.sides}") + (f"-{deal}" if deal else "")
    return f"{game.name}/{deck.id}-{lang}-{spec.paper}{suffix}.pdf"


def build(folder: Path, options: BuildOptions, progress: BuildProgress | None = None) -> BuildResult:
    """Check the rules, then set and draw every deck in every language in one pass, while
    the rulebooks are set aside (each kind in a forked process). Every language is made
    once, before forking, so the rulebook processes inherit it. Each face is laid out when
    its sheet is drawn and dropped after, so memory does not grow with the deck. Layout
    problems are found while drawing: the PDFs are moved into place only if there are none
    (or with --force); the problems of rules, decks and rulebooks are reported together."""
    project = prepare(folder, options.decks)
    wanted = bool(project.game.meta.rulebooks) and not options.decks
    editions = make_editions(project, resolve_languages(project.game, options.langs), options.allow_untranslated, rulebooks=wanted)
    progress = progress or BuildProgress(bar=False)
    problems, files = Problems(), []
    with transaction(options.out) as txn:
        where = next(iter(project.game.meta.rulebooks.values()))._loc if wanted else project.game.loc
        rulebooks = (
            [Aside(partial(_write_rulebooks, editions, options, kind), txn, f"setting the rulebooks ({kind})", where) for kind in RULEBOOK_KINDS]
            if wanted
            else []
        )
        try:
            problems.extend(check_game(project))
            if problems.errors and not options.force:
                raise PnpError(problems)
            members = deal_members(project.game, options.deal) if options.deal else None
            progress.start(expected_cards([project.game.decks[d] for d in project.layouts], len(editions)))
            if options.jobs > 1 and len(editions) * len(project.layouts) > 1:
                files = _build_parallel(editions, options, members, problems, txn)
                for written in files:
                    progress.deck_done(written, timed=False)
            else:
                for edition in editions:
                    files += _write_edition(Sheets(edition, progress.wrap(edition.renderer()), options, members, problems, txn), progress)
            for edition in editions:
                files += write_tuckboxes(Sheets(edition, edition.renderer(), options, members, problems, txn))
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
    return BuildResult(files, problems)


def _write_edition(sheets: Sheets, progress: BuildProgress) -> list[Written]:
    """Every PDF of the decks in one language; its translation's problems come first."""
    sheets.problems.extend(sheets.edition.problems)
    if sheets.problems.errors and not sheets.options.force:
        raise PnpError(sheets.problems)
    files = []
    for unit in print_units(sheets.edition.project):
        written = write_unit(sheets, unit)
        progress.deck_done(written)
        if written is not None:
            files.append(written)
    return files


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


def _write_rulebooks(editions: list[Edition], options: BuildOptions, kind: str, problems: Problems, txn: Transaction) -> list:
    """Every rulebook of one kind (on the paper, or the booklet) in every language asked
    for: set aside, while the decks are drawn and the other kind is set. The editions'
    translation problems are reported with the decks. Each rulebook is set on its own, so
    that one pnp cannot set is named, with its language, where it is defined."""
    from .rulebook.books import write_rulebooks  # with pypdf: only for a game that has rulebooks

    files = []
    for edition in editions:
        for source in edition.originals.sources:
            one = replace(edition, originals=replace(edition.originals, sources=[source]))
            try:
                files.extend(write_rulebooks(one, options, kind, problems, txn))
            except (PnpError, Interrupted):
                raise
            except OSError as exc:
                if txn.writes(exc):
                    raise txn.problem(exc) from None
                raise _unset(source.id, edition.lang, kind, source.loc, exc) from None
            except Exception as exc:  # noqa: BLE001 - a bug met on this rulebook: named, not a traceback from another process
                raise _unset(source.id, edition.lang, kind, source.loc, exc) from None
    return files


def _unset(rulebook: str, lang: str, kind: str, where: Location, exc: BaseException) -> PnpError:
    return fail(
        where,
        "rulebook-failed",
        f"rulebook '{rulebook}' in '{lang}' could not be set ({'A5 booklet' if kind == 'booklet' else 'on the paper'}): {type(exc).__name__}: {exc}; "
        "expected it set (simplify what it fails on, and report this as a bug in pnp)",
    )


def _build_parallel(editions: list[Edition], options: BuildOptions, members: set[str] | None, problems: Problems, txn: Transaction) -> list:
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
        for written, found in pool.map(_build_one, tasks):
            problems.extend(found)
            if written is not None:
                files.append(written)
    finally:  # on a failure or a signal, what has not started never starts; what has is waited for, so its file is removed after
        pool.shutdown(wait=True, cancel_futures=True)
    return files


def _build_one(task: tuple) -> tuple[Written | None, list[Problem]]:
    folder, options, lang, strings, unit, members, target, tmp = task
    project = prepare(folder, unit[1])
    problems = Problems()
    try:
        edition = Edition.translated(project, lang, strings)
        written = write_unit(Sheets(edition, edition.renderer(), options, members, problems, _Given(tmp)), unit)
    except PnpError as err:
        return None, err.problems.items
    return (written and written._replace(path=target)), problems.items


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
    game, layouts, problems = sheets.edition.game, sheets.edition.project.layouts, sheets.problems
    spec = sheets.options.sheet
    entries: list[tuple[str, int]] = []  # (deck, card index), copies repeated
    placed: list[Member] = []
    for deck_id in ids:
        deck = game.decks[deck_id]
        front, back = layouts[deck_id]
        try:
            plan_grid(spec, front.width * mm, front.height * mm)
        except DoesNotFit as exc:
            problems.error(
                deck.locs.get("group", deck.loc),
                "sheet-fit",
                f"deck '{deck_id}' of group '{group}': {exc}; expected it outside the group, where it is turned or split",
            )
            raise PnpError(problems) from None
        for index, card in enumerate(deck.cards):
            if sheets.members is None or card.id in sheets.members:
                entries += [(deck_id, index)] * card.copies
                placed += [Member(front.width * mm, front.height * mm, front.shape, back is not None, deck_id)] * card.copies
    if spec.sides == "backs" and not any(m.back for m in placed):
        return None
    shared = plan_shared(spec, placed)
    total_sheets = max((page.sheet for page in shared.pages), default=0)

    @lru_cache(maxsize=512)
    def face(item: int, side: str) -> Face:
        deck_id, index = entries[item]
        front, back = layouts[deck_id]
        return sheets.renderer.face(game.decks[deck_id].cards[index], front if side == "front" else back, side, problems)

    def face_of(page, item):
        return face(item, page.side)

    target = unit_target(sheets.edition, unit, sheets.options)
    names = ", ".join(game.decks[d].name for d in ids)
    duplex = spec.sides == "duplex" and any(m.back for m in placed)
    info = _doc_info(sheets, names, f"{len(entries)} components", spec.sides, duplex)
    caption = ruler_caption(f"{game.meta.title} · {group}", total_sheets)
    count = write_sheets(sheets.txn.path_for(target), shared.pages, shared, info, face_of, sheets.edition.project.symbols, caption, spec.bleed * mm)
    return Written(target, len(entries), count, spec.flip if duplex else None)


def write_deck(sheets: Sheets, deck: Deck) -> Written | None:
    """Impose one deck in one language and draw it into a temporary file of the build."""
    front, back = sheets.edition.project.layouts[deck.id]
    spec = sheets.options.sheet
    grid = fit_grid(spec, front.width * mm, front.height * mm)
    if spec.sides == "backs" and back is None:
        return None
    members = sheets.members
    items = [i for i, card in enumerate(deck.cards) if members is None or card.id in members for _ in range(card.copies)]
    if grid is None:
        return _write_split(sheets, deck, items)
    total_sheets = -(-len(items) // grid.per_sheet)

    @lru_cache(maxsize=2 * grid.per_sheet + 2)  # a sheet's fronts, then the same cards' backs
    def face(index: int, side: str) -> Face:
        layout = front if side == "front" else back
        return sheets.renderer.face(deck.cards[index], layout, side, sheets.problems)

    def face_of(page, item):
        return face(items[item], page.side)

    pages = impose(len(items), grid, spec if back is not None else replace(spec, sides="fronts"), front.shape)
    game = sheets.edition.game
    target = sheets.options.out / output_name(game, deck, sheets.edition.lang, spec, sheets.options.deal)

    sides = spec.sides if back is not None else "fronts"  # a deck without a back has nothing for the reverse
    duplex = sides == "duplex"
    info = _doc_info(sheets, deck.name, f"{len(items)} cards", sides, duplex)
    caption = ruler_caption(f"{game.meta.title} · {deck.name}", total_sheets)
    count = write_sheets(sheets.txn.path_for(target), pages, grid, info, face_of, sheets.edition.project.symbols, caption, spec.bleed * mm)
    return Written(target, len(items), count, spec.flip if duplex else None)


def _write_split(sheets: Sheets, deck: Deck, items: list[int]) -> Written | None:
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
    game, fonts = sheets.edition.game, sheets.edition.project.fonts
    target = sheets.options.out / output_name(game, deck, sheets.edition.lang, spec, sheets.options.deal)

    def faces():
        for index in items:
            card = deck.cards[index]
            yield f"{game.meta.title} · {deck.name} · {card.id}", sheets.renderer.face(card, front, "front", problems)

    info = _doc_info(sheets, deck.name, f"{len(items)} components in {len(tiling.pieces)} pieces each", "one-sided", False)
    bold = fonts.get("sans-bold").registered if "sans-bold" in fonts else info.initial_font
    caption = ruler_caption(f"{game.meta.title} · {deck.name}")
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
    symbols, files = edition.project.symbols, []
    for box in edition.project.tuckboxes.values():
        deck = edition.game.decks[box.deck]
        face = box_face(sheets.renderer, box, sheets.problems)
        target = sheets.options.out / f"{edition.game.name}/{box.id}-{edition.lang}-{spec.paper}.pdf"
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
            notes = ["A tuck box: glue the pieces together first, then cut the box's solid outline; its grey dashed lines are folds, not cuts."]
            count = write_pieces(
                sheets.txn.path_for(target), tiling, [(f"{edition.game.meta.title} · {what}", face)], info, symbols, (info.initial_font, bold), caption, notes
            )
        files.append(Written(target, 0, count))
    return files
