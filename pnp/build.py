"""The pipeline: load -> check -> lay out -> impose -> write, one deck at a time.

Every command goes through `prepare` (load the game and its layouts) and `lay_out`
(set every face, collecting problems), so `pnp check` and `pnp build` report exactly the
same mistakes. Data flows one way: no stage reaches back into an earlier one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from reportlab.lib.units import mm

from .check import check_rules
from .errors import Location, PnpError, Problem, Problems, display_path
from .fonts import FontSet
from .glossary import check_glossary
from .i18n import languages, translate, translations
from .impose import DoesNotFit, SheetSpec, impose, plan_grid
from .layouts import Layout, LayoutLoader
from .load import load_game
from .model import Deck, Game
from .paths import FONTS_DIR
from .pdf import DocInfo, write_sheets
from .render import Face, Renderer
from .symbols import SymbolSet


@dataclass
class Project:
    """A loaded game with everything needed to draw it."""

    game: Game
    fonts: FontSet
    symbols: SymbolSet
    layouts: dict[str, tuple[Layout, Layout | None]]  # deck id -> front, back
    problems: Problems


@dataclass
class DeckFaces:
    deck: Deck
    front: Layout
    back: Layout | None
    fronts: list[Face]  # one per distinct card, in data order
    backs: list[Face]


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
    for deck in game.decks.values():
        if decks and deck.id not in decks:
            continue
        front = loader.load(deck.front, deck.locs.get("front", deck.loc), problems)
        back = loader.load(deck.back, deck.locs.get("back", deck.loc), problems) if deck.back else None
        if front and back and (abs(front.width - back.width) > 0.01 or abs(front.height - back.height) > 0.01):
            problems.error(
                deck.locs.get("back", deck.loc),
                "layout-back-size",
                f"back layout '{back.name}' is {back.width:g} x {back.height:g} mm but the front '{front.name}' is {front.width:g} x {front.height:g} mm; expected the same size",
            )
        if front:
            layouts[deck.id] = (front, back)
    problems.raise_if_errors()
    return Project(game, fonts, symbols, layouts, problems)


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


def check_language(project: Project, lang: str, allow_untranslated: bool = False) -> tuple[Game, list[DeckFaces], Problems]:
    """The game in one language, set in its layouts, with every problem found."""
    problems = Problems()
    game = project.game
    if lang != game.meta.language:
        strings, fallback = translations(game, lang, allow_untranslated, problems)
        if fallback and allow_untranslated:
            problems.warn(
                Location(display_path(game.root / "locale" / f"{lang}.po")),
                "untranslated-fallback",
                f"{fallback} strings are missing or fuzzy in '{lang}' and are printed in the source language",
            )
        game = translate(game, strings)
    faces, layout_problems = lay_out(project, game, lang)
    problems.extend(layout_problems)
    return game, faces, problems


def check_all(project: Project, langs: list[str], allow_untranslated: bool = False) -> tuple[dict[str, tuple[Game, list[DeckFaces]]], Problems]:
    """Everything `pnp check` reports, for every language asked for."""
    problems = check_game(project)
    results = {}
    for lang in langs:
        game, faces, found = check_language(project, lang, allow_untranslated)
        problems.extend(found)
        results[lang] = (game, faces)
    return results, problems


def lay_out(project: Project, game: Game, lang: str) -> tuple[list[DeckFaces], Problems]:
    """Set every face of every deck; the problems are those `pnp check` reports."""
    problems = Problems()
    renderer = Renderer(game, project.fonts, project.symbols, lang)
    result = []
    for deck_id, (front, back) in project.layouts.items():
        deck = game.decks[deck_id]
        fronts = [renderer.face(card, front, "front", problems) for card in deck.cards]
        backs = [renderer.face(card, back, "back", problems) for card in deck.cards] if back else []
        result.append(DeckFaces(deck, front, back, fronts, backs))
    return result, problems


@dataclass
class BuildOptions:
    sheet: SheetSpec = field(default_factory=SheetSpec)
    out: Path = Path("output")
    decks: list[str] | None = None
    deal: str | None = None  # print only the components this deal uses
    langs: list[str] | None = None  # None: the source language; ["all"]: every language
    allow_untranslated: bool = False
    force: bool = False  # write even when the check finds errors


@dataclass
class BuildResult:
    files: list[tuple[Path, int, int]]  # path, cards, pages
    problems: Problems


def output_name(game: Game, deck: Deck, lang: str, spec: SheetSpec, deal: str | None = None) -> str:
    suffix = ("" if spec.sides == "duplex" else f"-{spec.sides}") + (f"-{deal}" if deal else "")
    return f"{game.name}/{deck.id}-{lang}-{spec.paper}{suffix}.pdf"


def deal_members(game: Game, deal_id: str) -> set[str]:
    """Ids of the components a deal uses, by the game's `deals.include` expression."""
    from jinja2.sandbox import SandboxedEnvironment

    from .check import card_view

    deals = {deal.id: deal for deal in game.deals}
    if deal_id not in deals:
        from .schema import suggest

        choices = ", ".join(deals) or "none: the game defines no deals"
        raise PnpError(Problem(game.loc, "deal-unknown", f"there is no deal '{deal_id}'{suggest(deal_id, deals)}; expected one of: {choices}"))
    assert game.meta.deals is not None
    include = SandboxedEnvironment().compile_expression(game.meta.deals.include)
    deal = card_view(deals[deal_id])
    members = set()
    for card in game.cards():
        view = card_view(card)
        try:
            chosen = include(**view, card=view, deal=deal)
        except Exception as exc:
            raise PnpError(Problem(game.loc, "deal-include", f"cannot evaluate deals.include for card '{card.id}': {exc}")) from None
        if chosen:
            members.add(card.id)
    return members


def build(folder: Path, options: BuildOptions) -> BuildResult:
    project = prepare(folder, options.decks)
    langs = resolve_languages(project.game, options.langs)
    results, problems = check_all(project, langs, options.allow_untranslated)
    if problems.errors and not options.force:
        raise PnpError(problems)
    members = deal_members(project.game, options.deal) if options.deal else None
    files = []
    for lang, (game, all_faces) in results.items():
        for faces in all_faces:
            written = write_deck(game, faces, lang, members, options, project, problems)
            if written is not None:
                files.append(written)
    return BuildResult(files, problems)


def write_deck(
    game: Game, faces: DeckFaces, lang: str, members: set[str] | None, options: BuildOptions, project: Project, problems: Problems
) -> tuple[Path, int, int] | None:
    """Impose one deck in one language and write its PDF."""
    spec = options.sheet
    deck = faces.deck
    try:
        grid = plan_grid(spec, faces.front.width * mm, faces.front.height * mm)
    except DoesNotFit as exc:
        problems.error(deck.locs.get("front", deck.loc), "sheet-fit", f"deck '{deck.id}': {exc}; expected a smaller component or larger paper (--paper)")
        raise PnpError(problems) from None
    if spec.sides == "backs" and not faces.backs:
        return None
    items = [i for i, card in enumerate(deck.cards) if members is None or card.id in members for _ in range(card.copies)]
    sheets = -(-len(items) // grid.per_sheet)

    def face_of(page, item):
        index = items[item]
        return faces.fronts[index] if page.side == "front" else faces.backs[index]

    pages = impose(len(items), grid, spec if faces.backs else replace(spec, sides="fronts"))
    target = options.out / output_name(game, deck, lang, spec, options.deal)

    def caption(page, length: int) -> str:  # printed under the ruler: what the sheet is, how to print it
        return f"{game.meta.title} · {deck.name} · {page.sheet}/{sheets} {page.side} · print at 100 % (actual size): this ruler is {length} mm"

    info = DocInfo(
        title=f"{game.meta.title}: {deck.name}",
        author=game.meta.author,
        subject=f"{len(items)} cards, {spec.paper.upper()}, {spec.sides}" + (f", flip on the {spec.flip} edge" if spec.sides == "duplex" else ""),
        initial_font=project.fonts.get("sans").registered,
        duplex={"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}[spec.flip] if spec.sides == "duplex" else None,
    )
    count = write_sheets(target, pages, grid, info, face_of, project.symbols, caption, spec.bleed * mm)
    return target, len(items), count
