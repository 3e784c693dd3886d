"""The pipeline: load -> check -> lay out -> impose -> write, one deck at a time.

Every command goes through `prepare` (load the game and its layouts); `check_all` and
`build` set faces with the same Renderer, so `pnp check` and `pnp build` report the same
mistakes. Data flows one way: no stage reaches back into an earlier one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from pathlib import Path

from reportlab.lib.units import mm

from .aside import Aside, join_all
from .check import check_rules, members_of_deals
from .errors import Location, PnpError, Problem, Problems, display_path
from .files import Written, transaction
from .fonts import FontSet
from .glossary import check_glossary
from .i18n import languages, translate, translations
from .impose import DoesNotFit, Member, SheetSpec, fit_grid, impose, plan_grid, plan_shared, plan_tiling
from .layouts import Layout, LayoutLoader, check_layout
from .load import ID_PATTERN, load_game
from .model import Deck, Game
from .paths import FONTS_DIR
from .pdf import DocInfo, ruler_caption, write_sheets
from .progress import BuildProgress, expected_cards
from .render import Face, Renderer
from .symbols import SymbolSet


@dataclass
class Project:
    """A loaded game with everything needed to draw it."""

    game: Game
    fonts: FontSet
    symbols: SymbolSet
    layouts: dict[str, tuple[Layout, Layout | None]]  # deck id -> front, back; data-only decks have none
    problems: Problems
    card_sizes: dict[str, tuple[float, float]]  # every printed deck's trim size in mm (slots take theirs)


def prepare(folder: Path, decks: list[str] | None = None) -> Project:
    """Load the game, its fonts, symbols and layouts; raise PnpError on any error."""
    game, problems = load_game(folder)
    fonts = FontSet([game.root / "fonts", FONTS_DIR])
    symbols = SymbolSet(game.symbols)
    symbols.load_all(problems)
    loader = LayoutLoader(game.root)
    layouts: dict[str, tuple[Layout, Layout | None]] = {}
    if decks:
        for name in decks:
            if name not in game.decks:
                problems.error(game.loc, "deck-unknown", f"there is no deck '{name}'; expected one of: {', '.join(game.decks)}")
    card_sizes: dict[str, tuple[float, float]] = {}
    for deck in game.decks.values():
        if deck.front is None:  # data only: read by layouts and rules, never printed
            if decks and deck.id in decks:
                problems.warn(deck.loc, "deck-data-only", f"deck '{deck.id}' has no front layout: it is data only and is not printed")
            continue
        selected = not decks or deck.id in decks
        front = loader.load(deck.front, deck.locs.get("front", deck.loc), problems if selected else Problems())
        if front is not None:
            card_sizes[deck.id] = front.size
        if not selected:
            continue
        back = loader.load(deck.back, deck.locs.get("back", deck.loc), problems) if deck.back else None
        if front and back and (abs(front.width - back.width) > 0.01 or abs(front.height - back.height) > 0.01):
            problems.error(
                deck.locs.get("back", deck.loc),
                "layout-back-size",
                f"back layout '{back.name}' is {back.width:g} x {back.height:g} mm but the front '{front.name}' is {front.width:g} x {front.height:g} mm; expected the same size",
            )
        if front and back and back.shape not in ("rect", front.shape):
            problems.error(
                deck.locs.get("back", deck.loc),
                "layout-back-shape",
                f"back layout '{back.name}' is {back.shape} but the front '{front.name}' is {front.shape}; expected the same shape (the front's is cut)",
            )
        if deck.group is not None and (not ID_PATTERN.match(deck.group) or (deck.group in game.decks and game.decks[deck.group].group != deck.group)):
            problems.error(
                deck.locs.get("group", deck.loc),
                "deck-group",
                f"group '{deck.group}' of deck '{deck.id}' names the PDF of the group; expected letters, digits, '-', '_' or '.', and not the id of a deck outside the group",
            )
        if front:
            layouts[deck.id] = (front, back)
    for deck_id, (front, back) in layouts.items():
        for layout in {front.name: front, **({back.name: back} if back else {})}.values():
            check_layout(layout, game, game.decks[deck_id], card_sizes, problems)
    problems.raise_if_errors()
    return Project(game, fonts, symbols, layouts, problems, card_sizes)


def check_game(project: Project) -> Problems:
    """The language-independent checks: load warnings, the rules model, the glossary."""
    problems = Problems()
    problems.extend(project.problems)
    problems.extend(check_rules(project.game, project.game.constraints))
    problems.extend(check_glossary(project.game, project.game.glossary))
    return problems


def resolve_languages(game: Game, langs: list[str] | None) -> list[str]:
    """None: the source language; 'all': the source and every catalogue."""
    if not langs:
        return [game.meta.language]
    if "all" in langs:
        return [game.meta.language] + [lang for lang in languages(game) if lang != game.meta.language]
    return list(dict.fromkeys(langs))


def language_game(project: Project, lang: str, allow_untranslated: bool, problems: Problems) -> Game:
    """The game in one language: the source, or a translated copy."""
    game = project.game
    if lang == game.meta.language:
        return game
    strings, fallback = translations(game, lang, allow_untranslated, problems)
    if fallback and allow_untranslated:
        problems.warn(
            Location(display_path(game.root / "locale" / f"{lang}.po")),
            "untranslated-fallback",
            f"{fallback} strings are missing or fuzzy in '{lang}' and are printed in the source language",
        )
    return translate(game, strings)


def check_all(project: Project, langs: list[str], allow_untranslated: bool = False) -> Problems:
    """Everything `pnp check` reports, for every language asked for: every face is set
    (and thrown away), so text that does not fit is found without building."""
    from .rulebook import check_rulebooks

    problems = check_game(project)
    for lang in langs:
        game = language_game(project, lang, allow_untranslated, problems)
        renderer = Renderer(game, project.fonts, project.symbols, lang, project.card_sizes)
        for deck_id, (front, back) in project.layouts.items():
            for card in game.decks[deck_id].cards:
                renderer.face(card, front, "front", problems)
                if back:
                    renderer.face(card, back, "back", problems)
        problems.extend(check_rulebooks(project, game, lang))
    return problems


RULEBOOK_KINDS = ("paper", "booklet")  # each set in a process of its own while the decks are drawn


@dataclass
class BuildOptions:
    sheet: SheetSpec = field(default_factory=SheetSpec)
    out: Path = Path("output")
    decks: list[str] | None = None
    deal: str | None = None  # print only the components this deal uses
    langs: list[str] | None = None  # None: the source language; ["all"]: every language
    allow_untranslated: bool = False
    jobs: int = 1  # processes; each builds one deck in one language
    force: bool = False  # write even when the check finds errors


@dataclass
class BuildResult:
    files: list[Written]  # path, cards, pages, and the edge to flip for the double-sided ones
    problems: Problems


def output_name(game: Game, deck: Deck, lang: str, spec: SheetSpec, deal: str | None = None) -> str:
    suffix = ("" if spec.sides == "duplex" else f"-{spec.sides}") + (f"-{deal}" if deal else "")
    return f"{game.name}/{deck.id}-{lang}-{spec.paper}{suffix}.pdf"


def deal_members(game: Game, deal_id: str) -> set[str]:
    """Ids of the components a deal uses, by the game's `deals.include` expression."""
    deals = {deal.id: deal for deal in game.deals}
    if deal_id not in deals:
        from .schema import suggest

        choices = ", ".join(deals) or "none: the game defines no deals"
        raise PnpError(Problem(game.loc, "deal-unknown", f"there is no deal '{deal_id}'{suggest(deal_id, deals)}; expected one of: {choices}"))
    problems = Problems()
    members = members_of_deals(game, [deals[deal_id]], problems)
    problems.raise_if_errors()
    return members[deal_id]


def build(folder: Path, options: BuildOptions, progress: BuildProgress | None = None) -> BuildResult:
    """Check the rules, then set and draw every deck in every language in one pass, while
    the rulebooks are set aside (each kind in a forked process). Each face is laid out when
    its sheet is drawn and dropped after, so memory does not grow with the deck. Layout
    problems are found while drawing: the PDFs are moved into place only if there are none
    (or with --force); the problems of rules, decks and rulebooks are reported together."""
    project = prepare(folder, options.decks)
    langs = resolve_languages(project.game, options.langs)
    progress = progress or BuildProgress(bar=False)
    problems, files = Problems(), []
    with transaction() as txn:
        wanted = project.game.meta.rulebooks and not options.decks
        rulebooks = [Aside(partial(_write_rulebooks, project, options, kind)) for kind in RULEBOOK_KINDS] if wanted else []
        try:
            problems.extend(check_game(project))
            if problems.errors and not options.force:
                raise PnpError(problems)
            members = deal_members(project.game, options.deal) if options.deal else None
            progress.start(expected_cards([project.game.decks[d] for d in project.layouts], len(langs)))
            files = _write_decks(folder, options, project, langs, members, progress, problems, txn)
        finally:  # the rulebooks' files join the transaction even when a deck fails, so they are removed with it
            files.extend(join_all(rulebooks, problems, txn))
        if problems.errors and not options.force:
            raise PnpError(problems)
    return BuildResult(files, problems)


def _write_decks(folder: Path, options: BuildOptions, project: Project, langs: list[str], members, progress, problems: Problems, txn) -> list:
    if options.jobs > 1 and len(langs) * len(project.layouts) > 1:
        files = _build_parallel(folder, options, project, langs, members, problems, txn)
        for written in files:
            progress.deck_done(written, timed=False)
        return files
    files = []
    for lang in langs:
        game = language_game(project, lang, options.allow_untranslated, problems)
        if problems.errors and not options.force:
            raise PnpError(problems)
        renderer = progress.wrap(Renderer(game, project.fonts, project.symbols, lang, project.card_sizes))
        for unit in print_units(project):
            written = write_unit(game, unit, renderer, lang, members, options, project, problems, txn)
            progress.deck_done(written)
            if written is not None:
                files.append(written)
    return files


def _doc_info(game: Game, project: Project, what: str, count: str, spec: SheetSpec, sides: str, duplex: bool) -> DocInfo:
    """A sheet PDF's title and subject (what it holds, on what paper, how to print it) and,
    for duplex, the edge viewers are asked to turn the paper over."""
    return DocInfo(
        title=f"{game.meta.title}: {what}",
        author=game.meta.author,
        subject=f"{count}, {spec.paper.upper()}, {sides}" + (f", flip on the {spec.flip} edge" if duplex else ""),
        initial_font=project.fonts.get("sans").registered,
        flip=spec.flip if duplex else None,
    )


def _write_rulebooks(project: Project, options: BuildOptions, kind: str, problems: Problems, txn) -> list:
    """Every rulebook of one kind (on the paper, or the booklet) in every language asked
    for: set aside, while the decks are drawn and the other kind is set."""
    from .rulebook import write_rulebooks  # with pypdf: only for a game that has rulebooks

    files = []
    for lang in resolve_languages(project.game, options.langs):
        game = language_game(project, lang, True, Problems())
        files.extend(write_rulebooks(project, game, lang, options.out, options.sheet.paper, kind, problems, txn, options.force))
    return files


class _Given:
    """Stands in for a Transaction in a worker process: the parent chose the file."""

    def __init__(self, path: Path):
        self.path = path

    def path_for(self, target: Path) -> Path:
        return self.path


def _build_parallel(folder: Path, options: BuildOptions, project: Project, langs: list[str], members: set[str] | None, problems: Problems, txn) -> list:
    """Build every (language, deck) in its own process; the parent owns the transaction."""
    from concurrent.futures import ProcessPoolExecutor

    tasks = []
    for lang in langs:
        for unit in print_units(project):
            target = unit_target(project.game, unit, lang, options)
            tasks.append((folder, options, lang, unit, members, target, txn.path_for(target)))
    files = []
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        for written, found in pool.map(_build_one, tasks):
            problems.extend(found)
            if written is not None:
                files.append(written)
    return files


def _build_one(task: tuple) -> tuple[Written | None, list[Problem]]:
    folder, options, lang, unit, members, target, tmp = task
    project = prepare(folder, unit[1])
    problems = Problems()
    try:
        game = language_game(project, lang, options.allow_untranslated, problems)
        renderer = Renderer(game, project.fonts, project.symbols, lang, project.card_sizes)
        written = write_unit(game, unit, renderer, lang, members, options, project, problems, _Given(tmp))
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


def unit_target(game: Game, unit: Unit, lang: str, options: BuildOptions) -> Path:
    group, ids = unit
    if group is None:
        return options.out / output_name(game, game.decks[ids[0]], lang, options.sheet, options.deal)
    return options.out / output_name(game, replace(game.decks[ids[0]], id=group), lang, options.sheet, options.deal)


def write_unit(
    game: Game, unit: Unit, renderer: Renderer, lang: str, members: set[str] | None, options: BuildOptions, project: Project, problems: Problems, txn
) -> Written | None:
    group, ids = unit
    if group is None:
        front, back = project.layouts[ids[0]]
        return write_deck(game, game.decks[ids[0]], front, back, renderer, lang, members, options, project, problems, txn)
    return write_group(game, unit, renderer, lang, members, options, project, problems, txn)


def write_group(
    game: Game, unit: Unit, renderer: Renderer, lang: str, members: set[str] | None, options: BuildOptions, project: Project, problems: Problems, txn
) -> Written | None:
    """The decks of one group on shared sheets: each deck in rows of its own size."""
    group, ids = unit
    spec = options.sheet
    entries: list[tuple[str, int]] = []  # (deck, card index), copies repeated
    placed: list[Member] = []
    for deck_id in ids:
        deck = game.decks[deck_id]
        front, back = project.layouts[deck_id]
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
            if members is None or card.id in members:
                entries += [(deck_id, index)] * card.copies
                placed += [Member(front.width * mm, front.height * mm, front.shape, back is not None, deck_id)] * card.copies
    if spec.sides == "backs" and not any(m.back for m in placed):
        return None
    shared = plan_shared(spec, placed)
    sheets = max((page.sheet for page in shared.pages), default=0)

    @lru_cache(maxsize=512)
    def face(item: int, side: str) -> Face:
        deck_id, index = entries[item]
        front, back = project.layouts[deck_id]
        return renderer.face(game.decks[deck_id].cards[index], front if side == "front" else back, side, problems)

    def face_of(page, item):
        return face(item, page.side)

    target = unit_target(game, unit, lang, options)
    names = ", ".join(game.decks[d].name for d in ids)
    duplex = spec.sides == "duplex" and any(m.back for m in placed)
    info = _doc_info(game, project, names, f"{len(entries)} components", spec, spec.sides, duplex)
    caption = ruler_caption(f"{game.meta.title} · {group}", sheets)
    count = write_sheets(txn.path_for(target), shared.pages, shared, info, face_of, project.symbols, caption, spec.bleed * mm)
    return Written(target, len(entries), count, spec.flip if duplex else None)


def write_deck(
    game: Game,
    deck: Deck,
    front: Layout,
    back: Layout | None,
    renderer: Renderer,
    lang: str,
    members: set[str] | None,
    options: BuildOptions,
    project: Project,
    problems: Problems,
    txn,
) -> Written | None:
    """Impose one deck in one language and draw it into a temporary file of `txn`."""
    spec = options.sheet
    grid = fit_grid(spec, front.width * mm, front.height * mm)
    if spec.sides == "backs" and back is None:
        return None
    items = [i for i, card in enumerate(deck.cards) if members is None or card.id in members for _ in range(card.copies)]
    if grid is None:
        return _write_split(game, deck, front, back, renderer, items, options, project, problems, txn, lang)
    sheets = -(-len(items) // grid.per_sheet)

    @lru_cache(maxsize=2 * grid.per_sheet + 2)  # a sheet's fronts, then the same cards' backs
    def face(index: int, side: str) -> Face:
        layout = front if side == "front" else back
        return renderer.face(deck.cards[index], layout, side, problems)

    def face_of(page, item):
        return face(items[item], page.side)

    pages = impose(len(items), grid, spec if back is not None else replace(spec, sides="fronts"), front.shape)
    target = options.out / output_name(game, deck, lang, spec, options.deal)

    sides = spec.sides if back is not None else "fronts"  # a deck without a back has nothing for the reverse
    duplex = sides == "duplex"
    info = _doc_info(game, project, deck.name, f"{len(items)} cards", spec, sides, duplex)
    caption = ruler_caption(f"{game.meta.title} · {deck.name}", sheets)
    count = write_sheets(txn.path_for(target), pages, grid, info, face_of, project.symbols, caption, spec.bleed * mm)
    return Written(target, len(items), count, spec.flip if duplex else None)


def _write_split(
    game: Game,
    deck: Deck,
    front: Layout,
    back: Layout | None,
    renderer: Renderer,
    items: list[int],
    options: BuildOptions,
    project: Project,
    problems: Problems,
    txn,
    lang: str,
) -> Written | None:
    """A deck whose components do not fit the paper even turned: each component on an
    assembly page and overlapping pieces (pieces.py). Backs are not printed."""
    from .pieces import write_pieces

    spec = options.sheet
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
    target = options.out / output_name(game, deck, lang, spec, options.deal)

    def faces():
        for index in items:
            card = deck.cards[index]
            yield f"{game.meta.title} · {deck.name} · {card.id}", renderer.face(card, front, "front", problems)

    info = _doc_info(game, project, deck.name, f"{len(items)} components in {len(tiling.pieces)} pieces each", spec, "one-sided", False)
    bold = project.fonts.get("sans-bold").registered if "sans-bold" in project.fonts else info.initial_font
    caption = ruler_caption(f"{game.meta.title} · {deck.name}")
    count = write_pieces(txn.path_for(target), tiling, faces(), info, project.symbols, (info.initial_font, bold), caption, notes)
    return Written(target, len(items), count)  # pieces are printed one-sided
