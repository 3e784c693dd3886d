"""`pnp list`: what a game is made of, at a glance: its types, decks (with card counts and
sizes), deals, rulebooks (title, modes, files) and languages (with how much of each is
translated). Read-only."""

from __future__ import annotations

import textwrap
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.base.errors import Problems, display_path

if TYPE_CHECKING:
    from pnp.write.manifest import Changes


@dataclass(repr=False, eq=False)
class DeckRow:
    id: str
    name: str
    type: str
    front: str | None  # None: data only, not printed
    back: str | None
    distinct: int  # different cards
    copies: int  # cards printed, copies counted
    size_mm: tuple[float, float] | None


@dataclass(repr=False, eq=False)
class DealRow:
    id: str
    name: str
    components: int  # distinct components the deal uses
    copies: int


@dataclass(repr=False, eq=False)
class RulebookRow:
    id: str
    title: str
    modes: list[str]  # empty: one book
    files: list[str]  # in reading order
    missing: list[str]  # the files that do not exist


@dataclass(repr=False, eq=False)
class LanguageRow:
    lang: str
    source: bool
    translated: int
    total: int
    fuzzy: int
    missing: int

    def percent(self, decimals: int = 0) -> str:
        """As `pnp i18n status` says it: rounded down, never 100 while something is left."""
        from pnp.i18n.catalogues import percent  # here for speed, as in listing()

        return percent(self.translated, self.total, decimals)


@dataclass(repr=False, eq=False)
class Listing:
    title: str
    folder: str
    types: dict[str, list[str]]  # type -> its fields
    decks: list[DeckRow] = field(default_factory=list)
    deals: list[DealRow] = field(default_factory=list)
    rulebooks: list[RulebookRow] = field(default_factory=list)
    languages: list[LanguageRow] = field(default_factory=list)

    def as_dict(self) -> dict:
        data = asdict(self)
        for row, lang in zip(data["languages"], self.languages):
            row["percent"] = float(lang.percent(1))
        return data


def listing(folder: Path) -> Listing:
    """Everything `pnp list` shows; raises PnpError if the game cannot be loaded."""
    from pnp.i18n.catalogues import languages, status
    from pnp.project.deals import deal_members
    from pnp.project.edition import read_originals
    from pnp.project.project import prepare

    project = prepare(folder)
    game = project.game
    result = Listing(game.meta.title, display_path(game.root), {name: list(t.fields) for name, t in game.types.items()})
    for deck in game.decks.values():
        front, back = project.layouts.get(deck.id, (None, None))
        result.decks.append(
            DeckRow(
                deck.id,
                deck.name,
                deck.type,
                front.name if front else None,
                back.name if back else None,
                len(deck.cards),
                deck.count,
                front.size if front else None,
            )
        )
    by_id = {card.id: card for card in game.cards()}
    for deal in game.deals:
        members = deal_members(game, deal.id)
        name = deal.fields.get("name")
        result.deals.append(DealRow(deal.id, str(name) if name else deal.id, len(members), sum(by_id[m].copies for m in members)))
    for rid, book in game.meta.rulebooks.items():
        missing = [name for name in book.files if not (game.root / name).is_file()]
        result.rulebooks.append(RulebookRow(rid, book.title or rid, list(book.modes), list(book.files), missing))
    entries = read_originals(game, rulebooks=False).entries  # once for every language
    result.languages.append(LanguageRow(game.meta.language, True, len(entries), len(entries), 0, 0))
    problems = Problems()
    for lang in languages(game):
        if lang == game.meta.language:
            continue
        state, _ = status(game, entries, lang, problems)
        result.languages.append(LanguageRow(lang, False, state.translated, state.total, len(state.fuzzy), len(state.missing)))
    problems.raise_if_errors()
    return result


def changes_since(folder: Path, since: Path | None, out: Path, paper: str, lang: str | None) -> Changes:
    """What `pnp build --changed-since` would put in its errata and tell to take out, without
    building: every face of the printed decks is laid out and hashed as a build does. The
    language is the manifest's when it is named, else `lang` (default: the source)."""
    from pnp.project.edition import make_editions
    from pnp.project.project import prepare
    from pnp.write.manifest import compare, default_since, faces_now, make_manifest, read_manifest

    project = prepare(folder)
    game = project.game
    old = read_manifest(since, game.name) if since is not None else None
    lang = old.lang if old is not None else lang or game.meta.language
    (edition,) = make_editions(project, [lang], rulebooks=False)
    if since is None:
        since = default_since(out, edition.game, lang, paper, None)
        old = read_manifest(since, game.name)
    assert old is not None
    now = make_manifest(edition.game, lang, old.paper, faces_now(edition))
    return compare(old, now, since, edition.game, set(project.layouts))


def render_text(data: Listing) -> str:
    """The listing as aligned columns, for a terminal."""
    lines = [f"{data.title} ({data.folder})", "", "types:"]
    for name, fields in data.types.items():
        lines.append(f"  {name}: {', '.join(fields) or '(no fields)'}")
    lines += ["", "decks:"]
    table = [("id", "name", "type", "front / back", "cards", "size")]
    for d in data.decks:
        drawn = f"{d.front} / {d.back or '-'}" if d.front else "(data only)"
        size = f"{d.size_mm[0]:g} x {d.size_mm[1]:g} mm" if d.size_mm else "-"
        table.append((d.id, d.name, d.type, drawn, _counted(d.distinct, d.copies), size))
    lines += _columns(table, right={4})
    lines += ["", "deals:"]
    if data.deals:
        table = [("id", "name", "components")] + [(d.id, d.name, _counted(d.components, d.copies)) for d in data.deals]
        lines += _columns(table, right={2})
    else:
        lines.append("  (none: add a deals: section to game.yaml for game set-ups)")
    lines += ["", "rulebooks:"]
    for book in data.rulebooks:
        modes = f"one book per mode: {', '.join(book.modes)}" if book.modes else "one book"
        lines.append(f"  {book.id}  {book.title}  ({modes}; {len(book.files)} file{'s' if len(book.files) != 1 else ''})")
        files = [f"{name} (missing)" if name in book.missing else name for name in book.files]
        lines += textwrap.wrap(", ".join(files), 100, initial_indent="    ", subsequent_indent="    ", break_on_hyphens=False)
    if not data.rulebooks:
        lines.append("  (none: add a rulebooks: section to game.yaml for the rules in Markdown)")
    lines += ["", "languages:"]
    for lang in data.languages:
        if lang.source:
            lines.append(f"  {lang.lang}  source ({lang.total} strings)")
        else:
            lines.append(f"  {lang.lang}  {lang.percent()} % translated ({lang.translated}/{lang.total}), {lang.fuzzy} fuzzy, {lang.missing} missing")
    return "\n".join(lines)


def _counted(distinct: int, printed: int) -> str:
    """How many different cards, and how many are printed when copies make more: '53 (75 with copies)'."""
    return f"{distinct:,} ({printed:,} with copies)" if printed != distinct else f"{distinct:,}"


def _columns(rows: list[tuple[str, ...]], right: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [cell.rjust(w) if i in right else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths))]
        out.append(("  " + "  ".join(cells)).rstrip())
    return out
