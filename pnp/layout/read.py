"""Layouts: how one kind of component is drawn, read from YAML.

A layout has a trim size in millimetres, named text styles and a list of elements
(rectangles, lines, text boxes, symbols, images) placed in millimetres from the top-left
corner of the trim. Any string may hold a Jinja2 expression over the component's fields
(`{{ title }}`, `{{ empire.color }}`); `when:` shows an element only if its expression is
true. `extends:` starts from another layout and adds to it; `override:` changes the
elements it got from there, by name (`override: {body: {box: [5, 40, 60, 75]}}`), so a
larger card keeps its parent's look with boxes of its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from pnp.base.errors import Location, PnpError, Problems, display_path, one_of
from pnp.base.paths import LAYOUTS_DIR, inside, leads_out
from pnp.layout.elements import KINDS, kind_class
from pnp.layout.elements.base import (
    FIELD_ALONE,
    Effects,
    ElementKind,
    GradientDef,
    Layout,
    Shape,
    check_effects,
    check_numbers,
    check_paints,
    check_sizes,
    field_names,
    turned_box,
)
from pnp.layout.elements.text import DEFAULT_STYLE, Text
from pnp.layout.text import Align, TextStyle, VAlign
from pnp.load.model import Deck, Game
from pnp.load.schema import MISSING, build, suggest
from pnp.load.yamlfile import LMap, load_yaml

HEX_RATIO = math.sqrt(3) / 2  # a regular flat-top hexagon is this much as high as it is wide


@dataclass(repr=False, eq=False)
class StyleDef:
    """A named text style; unset keys inherit from `base`, then from the defaults."""

    base: str | None = None
    font: str | None = None
    size: float | None = None
    min_size: float | None = None
    leading: float | None = None
    color: str | GradientDef | None = None  # a colour or a gradient
    align: Align | None = None
    valign: VAlign | None = None
    hyphenate: bool | None = None


@dataclass(repr=False, eq=False)
class LayoutFile:
    """A layout file as written (layouts/*.yaml): the face's size and shape, styles and elements."""

    size: tuple[float, float] | None = None  # trim width, height in mm
    shape: Shape | None = None  # rect (default), round (the ellipse in the trim) or hex (flat-top)
    extends: str | None = None
    safe: float | None = None  # mm inside the trim that text should keep clear of
    lang_scale: dict[str, float] = field(default_factory=dict)  # text size factor per language, e.g. {de: 0.92}
    mirror: bool | None = None  # false: never mirrored, even in a language whose direction is rtl (game.yaml)
    styles: dict[str, StyleDef] = field(default_factory=dict)
    elements: list[Any] = field(default_factory=list)
    override: dict[str, dict[str, Any]] = field(default_factory=dict)  # element name -> keys that replace the parent's
    doc: str = ""


@dataclass(repr=False, eq=False)
class _Named:
    """A layout's elements as read (each merged with what overrode it) and their names:
    what a layout extending it can override."""

    raws: list[Any]
    names: dict[str, list[int]]  # element name -> indices (more than one: ambiguous)


class LayoutLoader:
    """Finds layouts by name in the game's layouts/ folder, then the bundled one."""

    def __init__(self, game_root: Path):
        self.search = [game_root / "layouts", LAYOUTS_DIR]
        self._said_linked = False  # that the game's layouts/ is a link to outside it
        self._cache: dict[str, Layout] = {}
        self._named: dict[str, _Named] = {}
        self.files: dict[str, tuple[Path, ...]] = {}  # layout name -> the files it was read from, its parents' first: what the watcher compares
        self._read_from: dict[str, Path] = {}  # layout name -> the file `read` read it from
        self._out: dict[Path, bool] = {}  # folder -> whether it leads out: asked for every layout, found once (a loader lives for one load)

    def _leads_out(self, folder: Path) -> bool:
        out = self._out.get(folder)
        if out is None:
            out = self._out[folder] = leads_out(folder)
        return out

    def _folders(self) -> list[Path]:
        """The folders to search: the game's layouts/ only when it is not a link to outside
        the game folder (then `read` says so), never listed or read."""
        return [folder for folder in self.search if not self._leads_out(folder)]

    def find(self, name: str) -> Path | None:
        if not name or name.startswith(("/", "\\")) or ".." in Path(name).parts:
            return None
        for folder in self._folders():
            path = folder / f"{name}.yaml"
            if path.is_file() and inside(path, [folder]):
                return path
        return None

    def _linked_out(self, name: str) -> Path | None:
        """The game's layouts/NAME.yaml, or its layouts/ folder, when that is a link to
        outside the game folder: what to name instead of saying the layout does not exist."""
        folder = self.search[0]
        if self._leads_out(folder):
            return folder
        path = folder / f"{name}.yaml"
        return path if path.is_file() and not inside(path, [folder]) else None

    def available(self) -> list[str]:
        names = set()
        for folder in self._folders():
            if folder.is_dir():
                names.update(str(p.relative_to(folder).with_suffix("")) for p in folder.rglob("*.yaml") if inside(p, [folder]))
        return sorted(names)

    def read(self, name: str, loc: Location, problems: Problems, what: str, shape: str) -> LMap | None:
        """The mapping of layout file `name` (`what` it is expected to be, e.g. "a tuck box
        layout", and the `shape` of its mapping, for the messages); None when reported."""
        if self._leads_out(self.search[0]) and not self._said_linked:  # said once; the bundled layouts are still found
            self._said_linked = True
            problems.error(Location(display_path(self.search[0])), "path-outside", "layouts/ is a link to outside the game folder; expected a folder inside it")
        path = self.find(name)
        linked = self._linked_out(name) if path is None else None
        if linked is not None and linked.is_file():
            problems.error(loc, "path-outside", f"layout '{name}': {display_path(linked)} is a link to outside the game folder; expected a file inside it")
            return None
        if linked is not None:  # the folder, said above
            return None
        if path is None:
            problems.error(
                loc,
                "layout-missing",
                f"layout '{name}' does not exist{suggest(name, self.available())}; expected {what} layouts/{name}.yaml in the game folder or the bundled layouts",
            )
            return None
        try:
            raw = load_yaml(path, problems)
        except PnpError as err:
            problems.extend(err.problems)
            return None
        if not isinstance(raw, LMap):
            problems.error(Location(display_path(path), 1, 1), "layout-shape", f"a layout must be {shape}")
            return None
        self._read_from[name] = path
        return raw

    def load(self, name: str, loc: Location, problems: Problems, _chain: tuple[str, ...] = ()) -> Layout | None:
        """Load layout `name`; `loc` is where it was asked for (for the error message)."""
        if name in self._cache:
            return self._cache[name]
        if name in _chain:
            problems.error(loc, "layout-cycle", f"layout '{name}' extends itself through {' -> '.join(_chain + (name,))}; expected a chain that ends")
            return None
        raw = self.read(name, loc, problems, "a file", "a mapping with size, styles and elements")
        if raw is None:
            return None
        shown = raw.loc.file
        spec = build(LayoutFile, raw, problems, f"layout '{name}'")
        if spec is MISSING:
            return None
        parent = None
        if spec.extends:
            parent = self.load(spec.extends, raw.loc_of("extends"), problems, _chain + (name,))
            if parent is None:
                return None
        size = spec.size or (parent.size if parent else None)
        if size is None:
            problems.error(raw.loc, "layout-size", f"layout '{name}' has no size; expected 'size: [width, height]' in mm")
            return None
        if not (0 < size[0] <= 2000 and 0 < size[1] <= 2000):
            problems.error(raw.loc_of("size"), "layout-size", f"size {list(size)} is out of range; expected width and height from 0 to 2000 mm")
            return None
        styles = dict(parent.styles) if parent else {}
        styles.update(resolve_styles(spec.styles, styles, raw.get("styles"), problems))
        elements = list(parent.elements) if parent else []
        inherited = self._named[parent.name] if parent else _Named([], {})
        named = _Named(list(inherited.raws), {k: list(v) for k, v in inherited.names.items()})
        if spec.override:
            _override(name, spec, raw, parent, elements, named, styles, problems)
        for element, item in _elements(spec.elements, raw.get("elements"), styles, problems):
            label = element_name(item)
            if label is not None:
                named.names.setdefault(label, []).append(len(elements))
            elements.append(element)
            named.raws.append(item)
        safe = spec.safe if spec.safe is not None else (parent.safe if parent else 3.0)
        if not 0 <= safe < min(size) / 2:  # NaN too
            problems.error(raw.loc_of("safe"), "layout-value", f"safe {safe:g} is out of range; expected 0 or more mm, less than half the width and height")
        lang_scale = {**(parent.lang_scale if parent else {}), **spec.lang_scale}
        for lang, factor in lang_scale.items():
            if not 0.5 <= factor <= 2:
                problems.error(raw["lang_scale"].loc_of(lang), "layout-lang-scale", f"lang_scale for '{lang}' is {factor}; expected a factor from 0.5 to 2")
        shape = spec.shape or (parent.shape if parent else "rect")
        if shape == "hex" and abs(size[1] - size[0] * HEX_RATIO) > 0.5:
            problems.warn(
                raw.loc_of("shape") if "shape" in raw else raw.loc_of("size"),
                "layout-hex-size",
                f"layout '{name}' is a hex of {size[0]:g} x {size[1]:g} mm, so the hexagon is stretched; expected a height of {size[0] * HEX_RATIO:.2f} mm (width x 0.866) for a regular one",
            )
        mirror = spec.mirror if spec.mirror is not None else (parent.mirror if parent else True)
        layout = Layout(name, (size[0], size[1]), safe, styles, elements, Location(shown, 1, 1), lang_scale, shape, mirror)
        self._cache[name] = layout
        self._named[name] = named
        self.files[name] = (self.files[parent.name] if parent else ()) + (self._read_from[name],)
        return layout


def resolve_styles(defs: dict[str, StyleDef], known: dict[str, TextStyle], raw: Any, problems: Problems) -> dict[str, TextStyle]:
    out: dict[str, TextStyle] = {}
    pending = dict(defs)
    while pending:  # resolve in dependency order; what is left at the end is a cycle or unknown
        progress = False
        for name, sd in list(pending.items()):
            if sd.base is not None and sd.base not in known and sd.base not in out:
                continue
            base = (out.get(sd.base) or known[sd.base]) if sd.base else DEFAULT_STYLE
            values = {f.name: getattr(sd, f.name) for f in fields(TextStyle) if getattr(sd, f.name, None) is not None}
            style = replace(base, **values)
            if check_numbers(sd, raw.get(name), f"style '{name}'", problems) and check_paints(sd, raw.get(name), f"style '{name}'", problems):
                check_sizes(style, raw.get(name), f"style '{name}'", problems)
            out[name] = style
            del pending[name]
            progress = True
        if not progress:
            for name, sd in pending.items():
                problems.error(
                    raw.loc_of(name),
                    "style-base",
                    f"style '{name}' is based on '{sd.base}', which does not exist or forms a cycle; expected {one_of(sorted(set(known) | set(out)), 'nothing: the layout defines no other styles')}",
                )
            break
    return out


def read_elements(items: list[Any], raw: Any, styles: dict[str, TextStyle], problems: Problems) -> list[ElementKind]:
    """The elements of a list of them that can be drawn (a tuck box's face, say)."""
    return [element for element, _ in _elements(items, raw, styles, problems)]


def _elements(items: list[Any], raw: Any, styles: dict[str, TextStyle], problems: Problems) -> list[tuple[ElementKind, Any]]:
    """The elements of a layout that can be drawn, each with the mapping it was read from."""
    out: list[tuple[ElementKind, Any]] = []
    for i, item in enumerate(items):
        loc = raw.loc_of(i)
        if not isinstance(item, dict):
            problems.error(loc, "element-shape", f"element {i + 1} is not a mapping; expected one of: {', '.join(f'{k}:' for k in KINDS)}")
            continue
        element = _element(item, loc, f"element {i + 1}", styles, problems)
        if element is not None:
            out.append((element, item))
    return out


EVERY_ELEMENT = ("name", "rotate", "opacity")  # keys every kind takes besides its own (an unknown key's message lists them too)


def _element(item: Any, loc: Location, what: str, styles: dict[str, TextStyle], problems: Problems) -> ElementKind | None:
    kinds = [k for k in KINDS if k in item]
    if len(kinds) != 1:
        found = "none of" if not kinds else "more than one of"
        guess = "".join(suggest(str(k), KINDS) for k in item if str(k) not in KINDS)[:60] if not kinds else ""
        problems.error(loc, "element-kind", f"{what} has {found} {', '.join(KINDS)}{guess}; expected exactly one, which says what it draws")
        return None
    cls = kind_class(kinds[0])
    if "name" in item and "name" not in field_names(cls):  # every element may be named, for `override:`
        if not isinstance(item["name"], str):
            problems.error(item.loc_of("name"), "schema-type", f"'name' of {kinds[0]} element is {item['name']!r}; expected text")
            return None
        item = _without(item, "name")
    effects = None
    if "rotate" in item or "opacity" in item:  # every kind may be turned and translucent
        raw_effects = _only(item, ("rotate", "opacity"))
        item = _without(_without(item, "rotate"), "opacity")
        effects = build(Effects, raw_effects, problems, f"{kinds[0]} element")
        if effects is MISSING or not check_effects(effects, raw_effects, f"{kinds[0]} element", problems):
            return None
    element = build(cls, item, problems, f"{kinds[0]} element", also=EVERY_ELEMENT)
    if element is MISSING:
        return None
    if element.check(item, styles, problems) and check_numbers(element, item, f"{kinds[0]} element", problems):  # a kind's own message first
        element.effects = effects
        return element
    return None


def element_name(item: Any) -> str | None:
    """What `override:` calls an element: its `name:`, or for a text showing one field
    alone, that field (as messages call it)."""
    name = item.get("name")
    if isinstance(name, str):
        return name
    text = item.get("text")
    match = FIELD_ALONE.match(text) if isinstance(text, str) else None
    return match.group(1) if match else None


def _without(item: LMap, key: str) -> LMap:
    out = LMap({k: v for k, v in item.items() if k != key}, loc=item.loc)
    out.locs = {k: v for k, v in item.locs.items() if k != key}
    out.key_locs = {k: v for k, v in item.key_locs.items() if k != key}
    return out


def _only(item: LMap, keys: tuple[str, ...]) -> LMap:
    out = LMap({k: v for k, v in item.items() if k in keys}, loc=item.loc)
    out.locs = {k: v for k, v in item.locs.items() if k in keys}
    out.key_locs = {k: v for k, v in item.key_locs.items() if k in keys}
    return out


def _merged(base: LMap, change: LMap) -> LMap:
    """An element's mapping with the keys of `change` in place of its own, each located
    where it was written."""
    out = LMap(base, loc=base.loc)
    out.locs, out.key_locs = dict(base.locs), dict(base.key_locs)
    out.update(change)
    out.locs.update(change.locs)
    out.key_locs.update(change.key_locs)
    return out


def _override(name: str, spec: LayoutFile, raw: LMap, parent: Layout | None, elements: list, named: _Named, styles: dict, problems: Problems) -> None:
    """Replace the keys `override:` gives of the elements the layout extends, by name."""
    where = raw["override"]
    if parent is None:
        problems.error(
            raw.loc_of("override"), "layout-override", f"layout '{name}' overrides elements but extends no layout; expected 'extends: LAYOUT' with it"
        )
        return
    for label, change in spec.override.items():
        loc = where.key_locs.get(label, where.loc)
        found = named.names.get(label, [])
        if len(found) != 1:
            if found:
                problems.error(
                    loc,
                    "layout-override",
                    f"override names '{label}', which {len(found)} elements of layout '{parent.name}' are called; expected a name of one element (give each a 'name:')",
                )
            else:
                known = sorted(named.names)
                problems.error(
                    loc,
                    "layout-override",
                    f"override names '{label}', which is no element of layout '{parent.name}'{suggest(label, known)}; expected {one_of(known, 'a named element: the layout names none (give one a name:)')}",
                )
            continue
        if not isinstance(where[label], LMap):
            continue  # reported as a wrong type where the layout was read
        index = found[0]
        kind = next(k for k in KINDS if k in named.raws[index])
        if any(k in KINDS and k != kind for k in change):
            problems.error(
                loc,
                "layout-override",
                f"override of '{label}' changes what it draws; expected keys of a {kind} element (its box, style, ...), or a new element",
            )
            continue
        merged = _merged(named.raws[index], where[label])
        element = _element(merged, loc, f"element '{label}'", styles, problems)
        if element is not None:
            elements[index] = element
            named.raws[index] = merged


def check_layout(layout: Layout, game: Game, deck: Deck, card_sizes: dict[str, tuple[float, float]], problems: Problems) -> None:
    """What a layout is checked for once it is known which deck's cards it draws: what its
    elements name in the game (decks, fields, card sizes), and text in the safe area."""
    where = f"layout '{layout.name}' of deck '{deck.id}'"
    for el in layout.elements:
        el.check_game(game, deck.type, card_sizes, where, problems)
    check_safe_area(layout, problems)


def check_safe_area(layout: Layout, problems: Problems) -> None:
    """Warn about text boxes that reach into the margin a cutter may take (`safe:`)."""
    for el in layout.elements:
        if isinstance(el, Text):
            x, y, w, h = turned_box(el, el.box, (layout.width, layout.height))  # a turned text's box turns with it
            if x < layout.safe - 1e-6 or y < layout.safe - 1e-6 or x + w > layout.width - layout.safe + 1e-6 or y + h > layout.height - layout.safe + 1e-6:
                problems.warn(
                    el._loc,
                    "layout-safe-area",
                    f"text box {list(el.box)}{_turned(el)} of layout '{layout.name}' reaches into the outer {layout.safe:g} mm, which cutting may take; expected it inside the safe area",
                )


def _turned(el: ElementKind) -> str:
    """How a message says that a box is turned by the element's `rotate:`."""
    angle = el.effects.angle if el.effects is not None else 0.0
    return f" turned {angle:g}°" if angle % 360 else ""
