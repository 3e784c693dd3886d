"""How pnp's modules import each other, read from the source with `ast`: every package
imports only the packages below it in LAYERS (not even inside a function or for typing),
no cycles (not even ones held apart by an import inside a function or under
TYPE_CHECKING), and no import deferred into a function when it could be at the top.
Other libraries' internals (reportlab's, Jinja's, babel's), each used in one module, are
fenced in tests/code/test_fences.py.

Deferring an import is fine for start-up speed: a module that brings in a third-party
library the importer does not already load (reportlab, svglib, ...), or code that most runs
do not need (the tuck box net, the rulebooks' settled pages), may be imported where it is
used, so that `pnp --help` stays fast and a deck of cards does not load what boards and
books need. Deferring one to break a cycle, or one the importer loads anyway, is not."""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from conftest import make_small_game
from pdfread import text

import pnp

SOURCE = Path(pnp.__file__).resolve().parent


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, 'pnp.rulebook.writer'
    target: str  # the pnp module imported
    line: int
    deferred: bool  # inside a function: runs when the function is called
    typing_only: bool  # under `if TYPE_CHECKING:`: never runs
    implicit: bool = False  # a package the statement runs on the way to the module it names

    @property
    def where(self) -> str:
        return f"{_path(self.source)}:{self.line}"


def _modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    modules = {}
    for path in sorted(SOURCE.rglob("*.py")):
        parts = path.relative_to(SOURCE.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


MODULES = _modules()


def _path(module: str) -> str:
    return str(MODULES[module].relative_to(SOURCE.parent))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node: ast.AST, deferred: bool = False, typing_only: bool = False):
    """Every import statement under `node`, and whether it is in a function or under TYPE_CHECKING."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, deferred, typing_only
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for stmt in child.body:
                yield from _walk(ast.Module(body=[stmt], type_ignores=[]), deferred, True)
            for stmt in child.orelse:
                yield from _walk(ast.Module(body=[stmt], type_ignores=[]), deferred, typing_only)
        else:
            yield from _walk(child, deferred or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)), typing_only)


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> tuple[list[str], list[str]]:
    """The pnp modules and the third-party modules ('reportlab.platypus') a statement imports."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{node.module}" if node.module else package
        else:
            base = node.module or ""
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
    ours, theirs = [], []
    for name in dict.fromkeys(names):
        top = name.partition(".")[0]
        if top == "pnp":
            ours.append(name)
        elif top not in sys.stdlib_module_names and top != "__future__":
            theirs.append(name)
    return ours, theirs


def _imports() -> tuple[list[Import], dict[str, set[str]]]:
    """Every import of a pnp module by a pnp module; and the third-party modules each
    module imports when it is imported."""
    edges, libraries = [], {}
    for module, path in MODULES.items():
        libraries[module] = set()
        for node, deferred, typing_only in _walk(ast.parse(path.read_text(encoding="utf-8"))):
            ours, theirs = _targets(module, node)
            if not deferred and not typing_only:
                libraries[module].update(theirs)
            for target in ours:
                # importing pnp.a.b runs pnp.a first: an edge to each package on the way
                # that the importer is not itself inside
                parts = target.split(".")
                for n in range(2, len(parts) + 1):
                    name = ".".join(parts[:n])
                    if name != module and not module.startswith(name + "."):
                        edges.append(Import(module, name, node.lineno, deferred, typing_only, n < len(parts)))
    return list(dict.fromkeys(edges)), libraries


def _graph(edges: list[Import]) -> dict[str, list[Import]]:
    graph: dict[str, list[Import]] = {module: [] for module in MODULES}
    for edge in edges:
        graph.setdefault(edge.target, [])
        graph.setdefault(edge.source, []).append(edge)
    return graph


def _path_between(graph: dict[str, list[Import]], start: str, goal: str) -> list[Import] | None:
    """The shortest chain of imports from `start` to `goal`, breadth first."""
    seen, queue = {start: []}, [start]
    for module in queue:
        for edge in graph[module]:
            if edge.target not in seen:
                seen[edge.target] = seen[module] + [edge]
                if edge.target == goal:
                    return seen[goal]
                queue.append(edge.target)
    return None


def _cycles(edges: list[Import]) -> list[list[Import]]:
    """One shortest cycle through each module that is on a cycle, each cycle once."""
    graph, found, named = _graph(edges), [], set()
    for module in graph:
        for edge in graph[module]:
            back = _path_between(graph, edge.target, module) if edge.target != module else []
            if back is not None:
                cycle = [edge, *back]
                key = frozenset(e.source for e in cycle)
                if key not in named:
                    named.add(key)
                    found.append(cycle)
                break
    return sorted(found, key=len)


def _describe(cycle: list[Import]) -> str:
    names = " -> ".join(e.source for e in cycle) + f" -> {cycle[0].source}"
    return names + " (" + ", ".join(e.where + (" in a function" if e.deferred else " for typing" if e.typing_only else "") for e in cycle) + ")"


def _closure(graph: dict[str, list[Import]], module: str) -> set[str]:
    """The pnp modules importing `module` loads, itself included."""
    seen, queue = {module}, [module]
    for current in queue:
        for edge in graph[current]:
            if edge.target not in seen:
                seen.add(edge.target)
                queue.append(edge.target)
    return seen


def deferred_imports(edges: list[Import], libraries: dict[str, set[str]]) -> dict[str, list[Import]]:
    """Imports of pnp modules inside functions, by why they are there: 'cycle' (at the
    top it would close a cycle), 'speed' (the module brings in modules, third-party or
    pnp's own, that the importer does not load, e.g. reportlab.platypus) or 'needless'
    (neither: the importer loads it anyway, so it could be at the top)."""
    loaded = _graph([e for e in edges if not e.deferred and not e.typing_only])  # what importing a module runs
    kinds: dict[str, list[Import]] = {"cycle": [], "speed": [], "needless": []}
    for edge in edges:
        if not edge.deferred or edge.typing_only or edge.implicit:  # why it waits is the module it names
            continue
        if edge.source in _closure(loaded, edge.target):
            kinds["cycle"].append(edge)
            continue
        own, brought = _closure(loaded, edge.source), _closure(loaded, edge.target)
        own_libraries = set().union(*(libraries[m] for m in own))
        brought_libraries = set().union(*(libraries[m] for m in brought))
        kinds["speed" if brought - own or brought_libraries - own_libraries else "needless"].append(edge)
    return kinds


LAYERS = (  # pnp's packages, each importing only those before it (docs/architecture.md says what each holds)
    "base",  # errors and locations, paths inside the game folder, atomic output, signals, work in a forked process, file versions
    "pdf",  # the PDF file: reportlab's canvas written page by page (reportlab's internals live here)
    "load",  # YAML, CSV and XLSX read into the model, every value located
    "templates",  # expressions and templates: the names they see, the sandbox, plurals
    "i18n",  # translatable strings and gettext catalogues
    "assets",  # fonts, symbols, images: read once, checked, drawn by name
    "impose",  # paper and pure sheet geometry: grids, marks, folds, tuck box nets
    "layout",  # layouts and element kinds made into Faces: drawing operations with text set
    "write",  # Faces and imposed pages drawn into PDFs; cut files; the manifest of what was drawn
    "rulebook",  # rulebooks read from Markdown, set and written
    "project",  # a game with its assets and layouts, and in each language (an edition); what a build is asked
    "plan",  # how each deck, group and tuck box goes on paper, decided before drawing, with its sheet-* problems
    "check",  # every check `pnp check` runs
    "pipeline",  # `pnp build`: the stages run in order
    "exports",  # PNG, Tabletop Simulator and print-shop files
    "commands",  # the other commands: new, list, calibrate, impose
    "live",  # watching, the live preview and its server: what is kept between builds
    "cli",
    "__main__",
)


def layer_of(module: str) -> int:
    """The place of a pnp module's package in LAYERS; `pnp` itself is below them all."""
    parts = module.split(".")
    return -1 if len(parts) == 1 else LAYERS.index(parts[1])


def upward(edges: list[Import]) -> list[Import]:
    """The imports that run back up the layers: deferred, typing-only or not, each one counts."""
    return [e for e in edges if layer_of(e.target) > layer_of(e.source)]


def test_every_package_is_in_the_layers():
    packages = {module.split(".")[1] for module in MODULES if module.count(".") >= 1}
    assert packages == set(LAYERS)


def test_an_import_up_the_layers_is_named_with_where_it_is():
    edges = [
        Import("pnp.load.game", "pnp.i18n.catalogues", 15, False, False),  # load runs before i18n
        Import("pnp.check.run", "pnp.pipeline.rulebooks", 119, True, False),  # deferred: still up
        Import("pnp.pipeline.build", "pnp.live.session", 60, False, True),  # for typing: still up
        Import("pnp.check.run", "pnp.project.edition", 12, False, False),  # down: fine
        Import("pnp.layout.renderer", "pnp.layout.faces", 3, False, False),  # its own package: fine
    ]
    assert [e.target for e in upward(edges)] == ["pnp.i18n.catalogues", "pnp.pipeline.rulebooks", "pnp.live.session"]


def test_no_import_runs_up_the_layers():
    strays = upward(_imports()[0])
    assert not strays, "imports of a later package (see LAYERS):\n" + "\n".join(f"{e.where}: {e.source} imports {e.target}" for e in strays)


def test_the_import_graph_is_read_from_the_source():
    edges, libraries = _imports()
    pairs = {(e.source, e.target) for e in edges}
    assert ("pnp.commands.calibrate", "pnp.impose.paper") in pairs  # a relative import at the top
    assert ("pnp.cli", "pnp.pipeline.build") in pairs  # one inside a function
    assert ("pnp.pipeline.rulebooks", "pnp.rulebook") in pairs and ("pnp.pipeline.rulebooks", "pnp.rulebook.labels") not in pairs
    assert ("pnp.rulebook.writer", "pnp.impose.paper") in pairs  # from .. import
    assert "reportlab.pdfbase.pdfdoc" in libraries["pnp.pdf.canvas"] and not any("pypdf" in used for used in libraries.values())  # tests only
    assert "reportlab.platypus" in libraries["pnp.rulebook.writer"]


def test_a_cycle_is_named_with_where_each_import_is():
    edges = [
        Import("pnp.impose.paper", "pnp.impose.sheets", 3, False, False),
        Import("pnp.impose.sheets", "pnp.impose.paper", 7, True, False),
        Import("pnp.cli", "pnp.impose.paper", 1, False, False),
    ]
    assert [_describe(c) for c in _cycles(edges)] == [
        "pnp.impose.paper -> pnp.impose.sheets -> pnp.impose.paper (pnp/impose/paper.py:3, pnp/impose/sheets.py:7 in a function)"
    ]
    assert _cycles(edges[::2]) == []


def test_no_import_cycles():
    cycles = _cycles(_imports()[0])
    assert not cycles, "import cycles:\n" + "\n".join(_describe(c) for c in cycles)


def test_a_deferred_import_is_needless_when_the_importer_loads_it_anyway():
    edges = [
        Import("pnp.cli", "pnp.commands.listing", 5, True, False),  # loaded by nothing else cli imports: for speed
        Import("pnp.cli", "pnp.impose.paper", 1, False, False),
        Import("pnp.cli", "pnp.impose.sheets", 9, True, False),  # paper imports it at the top
        Import("pnp.impose.paper", "pnp.impose.sheets", 3, False, False),
        Import("pnp.cli", "pnp.assets.symbols", 12, True, False),  # brings svglib
        Import("pnp.assets.symbols", "pnp.impose.paper", 2, False, False),
    ]
    libraries = {"pnp.cli": set(), "pnp.commands.listing": set(), "pnp.impose.paper": set(), "pnp.impose.sheets": set(), "pnp.assets.symbols": {"svglib"}}
    kinds = deferred_imports(edges, libraries)
    assert [e.target for e in kinds["speed"]] == ["pnp.commands.listing", "pnp.assets.symbols"] and [e.target for e in kinds["needless"]] == [
        "pnp.impose.sheets"
    ]


def test_no_import_is_deferred_without_a_reason():
    needless = deferred_imports(*_imports())["needless"]
    assert not needless, "imports in a function that could be at the top (no cycle, nothing the importer does not load anyway):\n" + "\n".join(
        f"{e.where}: {e.target}" for e in needless
    )


NOT_FOR_CARDS = (  # what a deck of cards without translations, CSV files, a glossary, boards, tuck boxes or rulebooks does not need
    *("babel", "csv", "difflib"),
    *("icu4py", "icu4py.breakers"),  # the scripts extra's ICU: Latin text never asks where ICU would break it
    *(f"pnp.layout.elements.{kind}" for kind in ("areas", "cells", "circle", "grid", "hexgrid", "legend", "line", "polygon", "slot", "symbol", "track")),
    *(
        "pnp.write.cutfiles",
        "pnp.load.glossary",
        "pnp.commands.listing",
        "pnp.write.pieces",
        "pnp.rulebook.settled",
        "pnp.live.session",
        "pnp.layout.tuckbox_net",
        *("pnp.layout.tuckbox", "pnp.impose.tuckbox", "pnp.plan.tuckboxes"),  # a game without tuck boxes
        "pnp.load.spreadsheets",  # a game whose data is YAML
    ),
)


def _imported_by(*args: object) -> tuple[str, list[str]]:
    """`pnp ARGS` run in a fresh interpreter: its exit code and every module it imported."""
    code = (
        "import sys\nfrom click.testing import CliRunner\nfrom pnp.cli import main\n"
        f"result = CliRunner().invoke(main, {[str(a) for a in args]!r})\n"
        "print(result.exit_code, *sorted(sys.modules))"
    )
    exit_code, *loaded = subprocess.run([sys.executable, "-c", code], cwd=SOURCE.parent, capture_output=True, text=True, check=True).stdout.split()
    return exit_code, loaded


def test_a_build_of_cards_imports_only_what_cards_need(tmp_path):
    """Every build starts by importing, a watcher's too: a game of cards loads none of the
    code of boards, books, tuck boxes and translations (the kinds its layouts name are loaded)."""
    game, out = make_small_game(tmp_path / "game"), tmp_path / "out"
    code, loaded = _imported_by("build", game, "--out", out)
    assert code == "0" and {"pnp.layout.elements.rect", "pnp.layout.elements.text", "pnp.layout.renderer", "reportlab.pdfgen.canvas"} <= set(loaded)
    assert sorted(set(NOT_FOR_CARDS) & set(loaded)) == []


NAMES_ONLY = {  # a game whose templates are names and keys of names, as most decks' are
    "game.yaml": "title: Mená\nlanguage: sk\ndecks:\n  cards: {type: card, data: cards.yaml, front: card, back: back}\n",
    "rules.yaml": "types:\n  card:\n    fields:\n      title: {type: text}\n      text: {type: text}\n",
    "cards.yaml": "- {id: a, title: Kováč, text: Získa dve mestá.}\n- {id: b, title: Mlynár, text: Stratí jedno mesto.}\n",
    "layouts/card.yaml": "size: [63, 88]\nelements:\n  - text: '{{ title }}'\n    box: [4, 4, 55, 11]\n  - text: '{{- text }}'\n    box: [5, 48, 53, 36]\n",
    "layouts/back.yaml": "size: [63, 88]\nelements:\n  - text: '{{ game.title }}'\n    box: [5, 35, 53, 18]\n",
}


def test_a_build_whose_templates_are_names_never_loads_jinja(tmp_path):
    """`{{ title }}` and `{{ game.title }}` are looked up without Jinja (expressions.py):
    a deck whose templates are all such names prints them and never imports it."""
    game, out = tmp_path / "game", tmp_path / "out"
    for name, source in NAMES_ONLY.items():
        (game / name).parent.mkdir(parents=True, exist_ok=True)
        (game / name).write_text(source, encoding="utf-8")
    code, loaded = _imported_by("build", game, "--out", out)
    assert code == "0" and "pnp.layout.renderer" in loaded
    assert [name for name in loaded if name.split(".")[0] in ("jinja2", "markupsafe") or name == "pnp.templates.sandbox"] == []
    printed = text(out / "game" / "cards-sk-a4.pdf")
    assert all(word in printed for word in ("Kováč", "Získa dve mestá.", "Mlynár", "Mená"))


NOT_FOR_TTS = ("platformdirs", "pnp.pipeline.build")  # the config file is a build's, and so is the build


def test_a_tts_export_imports_only_what_it_needs(tmp_path):
    """`pnp export tts` reads no printer settings from the config file, so it never asks
    where that file is (platformdirs), and builds no PDF."""
    game, out = make_small_game(tmp_path / "game"), tmp_path / "out"
    code, loaded = _imported_by("export", "tts", game, "--out", out)
    assert code == "0" and {"pnp.exports.tts", "pnp.exports.raster"} <= set(loaded)
    assert sorted(set(NOT_FOR_TTS + NOT_FOR_CARDS) & set(loaded)) == []


NOT_FOR_EXPORTS = (  # what an export, which checks and draws but plans no sheets and writes no manifest, does not need
    *("pnp.plan.sheets", "pnp.write.manifest", "pnp.impose.sheets", "pnp.write.pdf"),  # an export draws faces (write.drawing), not sheets
    *("pnp.pipeline.progress", "pnp.pipeline.reuse", "pnp.project.options"),  # a build's progress, reuse and options
)


def test_a_tts_export_of_mesta_imports_only_what_it_needs(tmp_path):
    """Mestá's export draws a legend on its aids and tuck boxes, checks the game without
    sheets and names each card by its title: none of that loads the track kind, the
    sheets' geometry, plans and writer, the manifest or a build's own modules."""
    code, loaded = _imported_by("export", "tts", SOURCE.parent / "cards" / "mesta", "--out", tmp_path / "out")
    assert code == "0" and {"pnp.layout.elements.legend", "pnp.layout.tuckbox", "pnp.plan.game"} <= set(loaded)
    assert sorted({*NOT_FOR_EXPORTS, "pnp.layout.elements.track", *NOT_FOR_TTS} & set(loaded)) == []


def test_help_loads_no_sheet_geometry():
    """`pnp --help` lists the commands and their options: the papers' names, not the sheets' geometry."""
    code, loaded = _imported_by("--help")
    assert code == "0" and "pnp.impose.paper" in loaded
    assert sorted(set(NOT_FOR_EXPORTS) & set(loaded)) == []
