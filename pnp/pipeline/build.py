"""`pnp build`: load -> plan -> check -> lay out -> impose -> write, one deck at a time.

The game is loaded (`project.prepare`), planned on paper (`plan.game.plan_game`), made in
each language asked for once (`project.edition`) and checked (`check.run.check_game`, with
the plan's problems) before anything is drawn; each deck is then laid out as its sheets
are drawn (`pipeline.sheets`), with the same Renderer `pnp check` uses, so both report the
same mistakes. The rulebooks are set meanwhile in a forked process (`pipeline.rulebooks`).
What an earlier build left is asked of a `Reuse` (`pipeline.reuse`). Data flows one way:
no stage reaches back into an earlier one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.base.errors import Location, PnpError, Problem, Problems
from pnp.base.forked import join_all
from pnp.base.output import Transaction, Written, shown, transaction
from pnp.base.signals import Interrupted
from pnp.check.run import check_all, check_game, check_languages
from pnp.pipeline.parallel import build_parallel
from pnp.pipeline.progress import BuildProgress, expected_cards
from pnp.pipeline.reuse import COLD, Reuse
from pnp.pipeline.sheets import Sheets, draw_tuckbox, write_cut_files, write_unit
from pnp.plan.game import Plan, plan_game
from pnp.plan.sheets import UnitPlan, plan_unit, print_units
from pnp.project.deals import deal_members
from pnp.project.edition import Edition, make_editions, resolve_languages
from pnp.project.options import BuildOptions
from pnp.project.project import prepare
from pnp.write.manifest import Changes, Drawn, Manifest, compare, default_since, make_manifest, manifest_path, read_manifest, write_manifest

if TYPE_CHECKING:
    from pnp.plan.tuckboxes import TuckboxPlan


@dataclass(repr=False, eq=False)
class BuildResult:
    """What a build wrote, and the problems it found."""

    files: list[Written]  # path, cards, pages, and the edge to flip for the double-sided ones
    problems: Problems
    cut_files: list[Path] = field(default_factory=list)  # a cutting machine's (--cutter), beside the PDFs
    changes: list[Changes] = field(default_factory=list)  # with --changed-since: what the errata PDFs hold, per language


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
    Errors found while reading the game (a card's data, a layout) stop it before anything
    is drawn, even with --force, reported with everything else `pnp check` finds.
    Every build records the faces it drew in a manifest per language (write/manifest.py);
    `changed_since` (a manifest) or `since_last` (the last build's) also writes errata
    PDFs of the cards changed or new since. What an earlier build left is asked of
    `reuse` (the watcher's keeps what a save did not reach: pnp/live)."""
    with reuse.reading():
        project = prepare(folder, options.decks, keep_going=True)
    if project.problems.errors:  # what could not be read stops a build, --force or not: with every other mistake pnp check finds
        raise PnpError(check_all(project, resolve_languages(project.game, options.langs), options.allow_untranslated, options.sheet))
    reuse.start(project, options)
    wanted = bool(project.game.meta.rulebooks) and not options.decks and reuse.books_due()
    editions = make_editions(project, resolve_languages(project.game, options.langs), options.allow_untranslated, rulebooks=wanted)
    since = _since(editions, options, changed_since, since_last)
    progress = progress or BuildProgress(bar=False)
    problems, files, cuts = Problems(), [], []
    drawn = {edition.lang: Drawn() for edition in editions}
    changes: list[Changes] = []
    with transaction(options.out) as txn:
        if wanted:
            from pnp.pipeline.rulebooks import start_rulebooks  # Markdown and Jinja: only for a game with rulebooks

            rulebooks = start_rulebooks(editions, options, txn, reuse.settled_pages())
        else:
            rulebooks = []
        try:
            members = deal_members(project.game, options.deal) if options.deal else None
            plan = plan_game(project, options.sheet, members, options.deal)  # how every PDF goes on paper, for every language
            problems.extend(check_game(project, plan))
            problems.extend(check_languages(editions))
            if problems.errors and not options.force:
                raise PnpError(problems)
            progress.start(expected_cards([project.game.decks[d] for d in project.layouts], len(editions)))
            if options.jobs > 1 and len(editions) * len(project.layouts) > 1 and reuse.workers:
                files = build_parallel(editions, options, plan, members, problems, txn, cuts, drawn)
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
            files.extend(reuse.book_files(join_all(rulebooks, problems, txn), txn))
        if problems.errors and not options.force:
            raise PnpError(problems)
    reuse.commit(files, wanted)
    return BuildResult(files, problems, cuts, changes)


def _renderer(edition: Edition, progress: BuildProgress | None, reuse: Reuse):
    """The edition's renderer, counting the fronts it sets for the progress bar, as
    `reuse` has it (the watcher's keeps its faces across builds)."""
    renderer = edition.renderer()
    counted = progress.wrap(renderer) if progress is not None else renderer
    return reuse.renderer(edition, counted)


def _since(editions: list[Edition], options: BuildOptions, changed_since: Path | None, since_last: bool) -> dict[str, tuple[Path, Manifest]]:
    """The manifest each language is compared with: the one named (for its language), or
    the last build's of each language, read before anything is written."""
    if changed_since is not None:
        old = read_manifest(changed_since, editions[0].game.name if editions else None)
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
        found[edition.lang] = (path, read_manifest(path, edition.game.name))
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
            cuts += write_cut_files(sheets.cut_files, txn)
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
        cuts += write_cut_files(sheets.cut_files, sheets.txn)
        sheets.cut_files.clear()
        progress.deck_done(written)
        if written is not None:
            files.append(written)
    return files


def _draw_unit(sheets: Sheets, unit: UnitPlan) -> Written | None:
    """`write_unit`, as `sheets.reuse` has it: the watcher's leaves a PDF whose inputs did
    not change as it is (its faces' entries of the manifest and its problems are the last build's)."""
    return sheets.reuse.deck_file(sheets, unit.target(sheets.options.out, sheets.edition.lang), unit.decks, partial(write_unit, plan=unit))


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
