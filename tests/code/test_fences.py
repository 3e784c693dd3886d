"""Other libraries' private APIs, read from the source with `ast`: the internals of
reportlab, Jinja and babel are each used in one module of pnp (its home, FENCES), which
lists every one it uses, so that an upgrade of the library is checked in one place
against one list (pyproject.toml bounds the three above and says when to raise a bound);
and no module but the three homes writes to another library's objects.

What counts as a library's private name, read from the source:
- an attribute `x._name` (one leading underscore) that pnp does not define itself: no
  method or class attribute of a pnp class (a dataclass field, a name in `__slots__`), no
  `self._name = ...`; a method or attribute of a pnp class that overrides a private one of
  the library class it derives from counts as the library's (Jinja's `_output_const_repr`);
- a private name given to getattr, setattr, hasattr or delattr as a string;
- an import of a library module listed as internal (reportlab.pdfbase.pdfdoc,
  jinja2.compiler), or of a private module or name (`from jinja2.utils import _PassArg`).
A private name of the standard library (`os._exit`, a named tuple's `_replace`) is not
another library's internals.

What counts as a write to another library's object: an assignment to `x.__dict__` or
`x.__class__`, a change through `x.__dict__` or `vars(x)`, `setattr(x, ...)`, or
`x.attr = ...` where x is not `self` or `cls` and `attr` is no attribute pnp defines (the
heuristic: pnp assigns only to attributes its own classes declare), and any assignment
into a name imported from a library (`STATE_DEFAULTS["fontName"] = ...`)."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from test_imports import MODULES, _path


@dataclass(frozen=True)
class Fence:
    home: str  # the one pnp module that may use the library's internals
    internal: tuple[str, ...]  # the library's modules that are internal as a whole
    names: frozenset[str]  # every private name the home uses: attributes, internal modules, private names imported


FENCES = {  # the checklist for an upgrade: each name is something the new version may have moved
    "reportlab": Fence(
        "pnp.pdf.canvas",
        ("reportlab.pdfbase.pdfdoc",),
        frozenset(
            {
                *("reportlab.pdfbase.pdfdoc",),  # PDFDocument and its objects, streamed (StreamingDocument, _PageTree, _Formatted)
                *("_doc", "_pdfVersion"),  # the canvas's document; the document's PDF version (the header line)
                *("_code", "_formsinuse", "_formData", "_preamble", "_pagesize", "_pageCompression", "_extgstate"),  # a page's operators and state
                *("_fontname", "_fontsize", "_leading", "_fillMode", "_currentMatrix", "_colorsUsed", "_shadingUsed"),  # the graphics state
                *("_setColorSpace", "_setExtGState", "_setXObjects", "_startPage"),  # Canvas's steps of showPage and endForm (FormPagesCanvas)
                *("_fonts", "_dynFaceNames", "_dynamicFont"),  # pdfmetrics's registry of fonts (register_font, copy_pages)
                *("_frame", "_atTop", "_content", "_rowHeights"),  # platypus: a flowable's frame, KeepTogether's flowables, Table's rows
                *("_ttf_data", "_pos"),  # a TrueType file's bytes, and where reportlab's reading of its tables ends (_extract_info)
                *("_y", "_y1p", "_oASpace", "_prevASpace"),  # platypus: a frame's current height, its foot, and the space after the last flowable
                *("_makeCanvas", "_doSave"),  # platypus: a document template's canvas maker and whether it writes its file
                *(
                    "reportlab.pdfgen.canvas._normalizeColors",
                    "reportlab.pdfgen.canvas._buildColorFunction",
                    "reportlab.pdfgen.canvas._gradientExtendStr",
                ),  # how linearGradient and radialGradient make a shading (shading_pattern)
            }
        ),
    ),
    "jinja2": Fence(
        "pnp.templates.sandbox",
        ("jinja2.compiler",),
        frozenset(
            {
                "jinja2.compiler",  # CodeGenerator subclassed (_CodeGenerator), its Frame and operators
                "_output_const_repr",  # the generator's method for constant output, overridden
                "jinja2.utils._PassArg",  # how a filter or test asks for its context (_budgeted)
                "_template",  # the template inside a TemplateExpression (_expression)
                "_fail_with_undefined_error",  # what an undefined raises (refuse_undefined)
            }
        ),
    ),
    "babel": Fence(
        "pnp.i18n.pofile",
        (),
        frozenset({"_num_plurals", "_messages", "_key_for"}),  # a Catalog's number of plural forms, its messages and their keys
    ),
}

# What other libraries' objects have for pnp to set (their public API, not pnp's state kept on
# them): an attribute, with the class that has it; a library's global setting.
SETTINGS = {
    **dict.fromkeys(
        ("StartElementHandler", "EndElementHandler", "StartDoctypeDeclHandler", "EntityDeclHandler", "CharacterDataHandler", "ProcessingInstructionHandler"),
        "xml.parsers.expat.XMLParserType",  # an SVG's and an XLSX file's parser, refusing entities
    ),
    "propagate": "logging.Logger",  # svglib's warnings collected, not printed
    "obj": "click.Context",  # the command's context object
    **dict.fromkeys(("last_translator", "language_team"), "babel.messages.catalog.Catalog"),  # kept from the old catalogue
}
GLOBAL_SETTINGS = (
    "reportlab.rl_config.useA85",  # plain binary streams
    "ezdxf.options.write_fixed_meta_data_for_testing",  # the same DXF for the same input
)

NAMED_TUPLE = frozenset({"_asdict", "_fields", "_field_defaults", "_make", "_replace"})  # the standard library's documented API
MUTATING = frozenset({"setdefault", "update", "pop", "popitem", "clear", "__setitem__", "__delitem__"})


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


# --- one module's source -------------------------------------------------------------------------


@dataclass
class Source:
    module: str  # its dotted name: 'pnp.pdf.canvas'
    path: str  # for messages: 'pnp/pdf/canvas.py'
    tree: ast.Module
    bound: dict[str, str]  # a name an import binds (anywhere in the module) -> what it names: 'pdfmetrics' -> 'reportlab.pdfbase.pdfmetrics'
    classes: dict[str, ast.ClassDef] | None = None  # by name (_classes)

    @classmethod
    def read(cls, module: str, text: str, path: str | None = None) -> Source:
        tree = ast.parse(text)
        bound = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    bound[alias.asname or alias.name.partition(".")[0]] = alias.name if alias.asname else alias.name.partition(".")[0]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, node)
                for alias in node.names:
                    bound[alias.asname or alias.name] = f"{base}.{alias.name}"
        return cls(module, path or module.replace(".", "/") + ".py", tree, bound)

    def origin(self, node: ast.expr) -> str:
        """Whose the name at the root of `node` is: 'pnp', 'stdlib', 'library' (imported
        from a third-party module) or '' (a local name, an argument: not known)."""
        while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
            node = node.func if isinstance(node, ast.Call) else node.value
        if not isinstance(node, ast.Name) or node.id not in self.bound:
            return ""
        top = self.bound[node.id].partition(".")[0]
        return "pnp" if top == "pnp" else "stdlib" if top in sys.stdlib_module_names or top == "__future__" else "library"

    def dotted(self, node: ast.expr) -> str:
        """`node` (names and attributes) with its root as the import named it: 'reportlab.rl_config.useA85'."""
        root, _, rest = ast.unparse(node).partition(".")
        return self.bound.get(root, root) + (f".{rest}" if rest else "")


def _absolute(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if module in MODULES and MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


@cache
def sources() -> dict[str, Source]:
    return {module: Source.read(module, path.read_text(encoding="utf-8"), _path(module)) for module, path in MODULES.items()}


# --- what pnp defines ------------------------------------------------------------------------------


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _targets(node: ast.AST) -> list[ast.expr]:
    """What an assignment or deletion assigns to, tuples unpacked."""
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        found = [node.target]
    elif isinstance(node, ast.Delete):
        found = list(node.targets)
    else:
        return []
    out = []
    while found:
        target = found.pop()
        if isinstance(target, (ast.Tuple, ast.List)):
            found.extend(target.elts)
        elif isinstance(target, ast.Starred):
            found.append(target.value)
        else:
            out.append(target)
    return out


def _members(cls: ast.ClassDef) -> list[tuple[str, int]]:
    """The attributes a class defines, with their lines: methods, class attributes and
    fields, `__slots__`, and what its methods assign to `self.x`."""
    found = []
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append((stmt.name, stmt.lineno))
        for target in _targets(stmt):
            if isinstance(target, ast.Name):
                found.append((target.id, stmt.lineno))
                if target.id == "__slots__" and isinstance(stmt, ast.Assign):
                    found += [(c.value, stmt.lineno) for c in ast.walk(stmt.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    for node in ast.walk(cls):
        for target in _targets(node):
            if isinstance(target, ast.Attribute) and _is_self(target.value):
                found.append((target.attr, node.lineno))
    return found


def _classes(source: Source) -> dict[str, ast.ClassDef]:
    if source.classes is None:
        source.classes = {node.name: node for node in ast.walk(source.tree) if isinstance(node, ast.ClassDef)}
    return source.classes


def _foreign_bases(source: Source, cls: ast.ClassDef, seen: frozenset = frozenset()) -> list[type]:
    """The classes of other libraries (the standard library's too) `cls` derives from,
    following pnp's own classes it derives from."""
    found = []
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id in _classes(source) and base.id != cls.name:
            own = (source.module, base.id)
            if own not in seen:
                found += _foreign_bases(source, _classes(source)[base.id], seen | {own})
            continue
        name = source.dotted(base)
        if name.startswith("pnp."):
            module, _, qualname = name.rpartition(".")
            while module and module not in sources():  # `from pnp.a import b` then `b.C`
                module, _, head = module.rpartition(".")
                qualname = f"{head}.{qualname}"
            if module in sources() and qualname in _classes(sources()[module]) and (module, qualname) not in seen:
                found += _foreign_bases(sources()[module], _classes(sources()[module])[qualname], seen | {(module, qualname)})
            continue
        value = _resolve(name)
        if isinstance(value, type):
            found.append(value)
    return found


def _resolve(name: str) -> object:
    """The object a dotted name names, importing its module; None if it cannot be found."""
    parts = name.split(".")
    if len(parts) == 1:
        import builtins

        return getattr(builtins, name, None)
    for n in range(len(parts) - 1, 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:n]))
        except ImportError:
            continue
        for part in parts[n:]:
            value = getattr(value, part, None)
        return value
    return None


@cache
def library_members(cls: type) -> frozenset[str]:
    """What a class of another library has: its attributes, and what its methods (and
    those of the classes it derives from) assign to `self.x`."""
    found = set(dir(cls))
    for klass in cls.__mro__:
        try:
            path = inspect.getsourcefile(klass)
        except TypeError:  # built in
            continue
        node = _library_classes(path).get(klass.__qualname__) if path else None
        if node is not None:
            found.update(name for name, _ in _members(node))
    return frozenset(found)


@cache
def _library_classes(path: str) -> dict[str, ast.ClassDef]:
    """The classes a library's source file defines, by qualified name."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return {}
    found = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                found[prefix + child.name] = child
                visit(child, f"{prefix}{child.name}.")

    visit(tree, "")
    return found


@dataclass(frozen=True)
class Use:
    path: str
    line: int
    name: str  # '_code', 'jinja2.compiler', 'jinja2.utils._PassArg'
    how: str  # 'attribute', 'string', 'override', 'import'

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name} ({self.how})"


@dataclass
class Definitions:
    names: set[str]  # every attribute pnp defines (its own: no override of another library's)
    overrides: list[Use]  # private attributes of another library's classes that pnp's classes define


def definitions(all_sources: dict[str, Source]) -> Definitions:
    names: set[str] = set()
    overrides: list[Use] = []
    for source in all_sources.values():
        for cls in _classes(source).values():
            bases = _foreign_bases(source, cls)
            for name, line in _members(cls):
                theirs = [base for base in bases if name in library_members(base)]
                if not theirs:
                    names.add(name)
                elif _private(name) and not all(base.__module__.partition(".")[0] in sys.stdlib_module_names for base in theirs):
                    overrides.append(Use(source.path, line, name, "override"))
        for node in ast.walk(source.tree):  # setattr(self, "x", ...), object.__setattr__(self, "x", ...)
            if isinstance(node, ast.Call) and _setattr_call(node) and _is_self(node.args[0]) and _constant(node.args[1]):
                names.add(node.args[1].value)
    return Definitions(names, overrides)


@cache
def pnp_definitions() -> Definitions:
    return definitions(sources())


def _setattr_call(node: ast.Call) -> bool:
    func = node.func
    named = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return named in ("setattr", "delattr", "__setattr__", "__delattr__") and len(node.args) >= 2


def _constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


# --- the readers ---------------------------------------------------------------------------------------


def private_uses(source: Source, defined: Definitions) -> list[Use]:
    """The private names of other libraries `source` uses (FENCES' internal modules among them)."""
    internal = tuple(module for fence in FENCES.values() for module in fence.internal)
    fenced = {name for fence in FENCES.values() for name in fence.names if _private(name)}
    uses = [use for use in defined.overrides if use.path == source.path]
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in defined.names:
            if source.origin(node.value) not in ("pnp", "stdlib") and node.attr not in NAMED_TUPLE:
                uses.append(Use(source.path, node.lineno, node.attr, "attribute"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr", "hasattr", "delattr"):
            if len(node.args) >= 2 and _constant(node.args[1]) and _private(node.args[1].value) and node.args[1].value not in defined.names:
                uses.append(Use(source.path, node.lineno, node.args[1].value, "string"))
        elif isinstance(node, ast.Constant) and node.value in fenced:  # a listed name in any other string (attrgetter("_code"))
            uses.append(Use(source.path, node.lineno, node.value, "string"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.Import):
                modules, names = [alias.name for alias in node.names], []
            else:
                base = _absolute(source.module, node)
                modules, names = [base], [f"{base}.{alias.name}" for alias in node.names]
            for module in modules:
                top = module.partition(".")[0]
                if top == "pnp" or top in sys.stdlib_module_names or top == "__future__":
                    continue
                whole = [m for m in internal if module == m or module.startswith(m + ".")]
                private = next((".".join(module.split(".")[: i + 1]) for i, part in enumerate(module.split(".")) if _private(part)), None)
                if whole or private:
                    uses.append(Use(source.path, node.lineno, whole[0] if whole else private, "import"))
                elif names:
                    uses += [Use(source.path, node.lineno, name, "import") for name in names if _private(name.rpartition(".")[2])]
    return sorted(set(uses), key=lambda use: (use.line, use.name))


def foreign_writes(source: Source, defined: Definitions) -> list[Use]:
    """The writes to other libraries' objects in `source` (see the module's docstring)."""
    found = []

    def write(node: ast.AST, what: str) -> None:
        found.append(Use(source.path, node.lineno, what, "write"))

    def changes_dict(node: ast.expr) -> bool:  # x.__dict__ or vars(x), x not self
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            return not _is_self(node.value)
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars" and bool(node.args) and not _is_self(node.args[0])

    for node in ast.walk(source.tree):
        for target in _targets(node):
            if isinstance(target, ast.Attribute):
                if target.attr in ("__dict__", "__class__") and not _is_self(target.value):
                    write(node, f"{ast.unparse(target)} =")
                elif source.origin(target.value) == "library":
                    if source.dotted(target) not in GLOBAL_SETTINGS:
                        write(node, f"{ast.unparse(target)} = (an object imported from a library)")
                elif not _is_self(target.value) and source.origin(target.value) != "pnp" and target.attr not in defined.names | SETTINGS.keys():
                    write(node, f"{ast.unparse(target)} = (.{target.attr}: no attribute of pnp's)")
            elif isinstance(target, ast.Subscript):
                if changes_dict(target.value):
                    write(node, f"{ast.unparse(target)} =")
                elif source.origin(target.value) == "library":
                    write(node, f"{ast.unparse(target)} = (an object imported from a library)")
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in MUTATING and changes_dict(func.value):
                write(node, f"{ast.unparse(func)}(...)")
            elif _setattr_call(node) and not (isinstance(func, ast.Attribute) and _is_self(func.value)):
                obj, name = node.args[0], node.args[1]
                if _is_self(obj) or source.origin(obj) == "pnp":
                    continue
                if not _constant(name) or name.value not in defined.names or source.origin(obj) == "library":
                    write(node, f"{ast.unparse(func)}({ast.unparse(obj)}, {ast.unparse(name)}, ...)")
    return sorted(set(found), key=lambda use: use.line)


# --- the reader, on examples -------------------------------------------------------------------------------

EXAMPLE = """
from reportlab.graphics.shapes import STATE_DEFAULTS
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFArray
from jinja2.compiler import CodeGenerator
from jinja2.utils import _PassArg
import os


class Face:
    __slots__ = ("_hash", "width")

    def _drawn(self):
        self._cache = {}


class Generator(CodeGenerator):
    def _output_const_repr(self, group):  # Jinja's, overridden
        return super()._output_const_repr(group)

    def _budget(self):  # pnp's own
        return 0


def draw(canvas, face, obj, name):
    canvas._code.append("q")  # reportlab's
    face._hash, face._drawn(), face.width  # pnp's
    pdfmetrics._fonts.pop("F1")  # reportlab's
    getattr(canvas, "_fontname")  # reportlab's
    attrgetter("_rowHeights")  # a name FENCES lists, in any string
    os._exit(0)  # the standard library's
    canvas._pnp_state = {}  # a write to reportlab's canvas
    obj.__dict__["x"] = 1  # a write through its __dict__
    obj.__dict__.setdefault("y", 2)
    vars(obj)["z"] = 3
    obj.__class__ = Face
    setattr(obj, name, 4)
    STATE_DEFAULTS["fontName"] = "Helvetica"  # a library's module-level state
    face.width = 5  # pnp's own attribute: no write to another library's object
    self.__dict__["w"] = 6
"""


def _example() -> tuple[Source, Definitions]:
    source = Source.read("pnp.example", EXAMPLE)
    return source, definitions({"pnp.example": source})


def test_the_reader_finds_private_names_and_only_those():
    source, defined = _example()
    assert {"_hash", "_drawn", "_cache", "_budget", "width"} <= defined.names and "_output_const_repr" not in defined.names
    assert [(use.line, use.name, use.how) for use in private_uses(source, defined)] == [
        (4, "reportlab.pdfbase.pdfdoc", "import"),
        (5, "jinja2.compiler", "import"),
        (6, "jinja2.utils._PassArg", "import"),
        (18, "_output_const_repr", "override"),
        (19, "_output_const_repr", "attribute"),
        (26, "_code", "attribute"),
        (28, "_fonts", "attribute"),
        (29, "_fontname", "string"),
        (30, "_rowHeights", "string"),
        (32, "_pnp_state", "attribute"),  # a name of pnp's, but no attribute pnp defines: another library's object
    ]


def test_the_reader_finds_writes_to_other_libraries_objects():
    source, defined = _example()
    assert [(use.line, use.name.partition(" ")[0]) for use in foreign_writes(source, defined)] == [
        (32, "canvas._pnp_state"),
        (33, "obj.__dict__['x']"),
        (34, "obj.__dict__.setdefault(...)"),
        (35, "vars(obj)['z']"),
        (36, "obj.__class__"),
        (37, "setattr(obj,"),
        (38, "STATE_DEFAULTS['fontName']"),
    ]


def test_the_reader_finds_the_homes_private_names():
    """On pnp itself: the fences would pass on a reader that found nothing."""
    found = {
        module: {use.name for use in private_uses(sources()[module], pnp_definitions())}
        for module in ("pnp.pdf.canvas", "pnp.templates.sandbox", "pnp.i18n.pofile")
    }
    assert {"reportlab.pdfbase.pdfdoc", "_code", "_doc", "_fonts", "_atTop", "_frame"} <= found["pnp.pdf.canvas"]
    assert {"jinja2.compiler", "_output_const_repr", "jinja2.utils._PassArg"} <= found["pnp.templates.sandbox"]
    assert {"_num_plurals", "_key_for"} <= found["pnp.i18n.pofile"]
    defined = pnp_definitions().names
    assert {"_write_object", "_plain_page", "_forms", "_page_from", "budget"} <= defined and not {"_code", "_doc", "_output_const_repr"} & defined


# --- the fences ----------------------------------------------------------------------------------------


def test_each_library_internals_are_used_in_its_home_only():
    """Outside the homes, no module uses a private name of another library."""
    homes = {fence.home for fence in FENCES.values()}
    strays = [use for module, source in sources().items() if module not in homes for use in private_uses(source, pnp_definitions())]
    where = ", ".join(f"{library}: {_path(fence.home)}" for library, fence in FENCES.items())
    assert not strays, f"another library's internals, used outside its home ({where}); move them there, behind a function:\n" + "\n".join(map(str, strays))


def test_each_home_lists_every_private_name_it_uses():
    """The list is the checklist for an upgrade: a new private name is added to it, one no
    longer used is taken off."""
    for library, fence in FENCES.items():
        uses = private_uses(sources()[fence.home], pnp_definitions())
        used = {use.name for use in uses}
        unlisted = [use for use in uses if use.name not in fence.names]
        assert not unlisted, f"{library}'s internals not listed in FENCES:\n" + "\n".join(map(str, unlisted))
        assert fence.names <= used, f"listed in FENCES, no longer used by {_path(fence.home)}: {sorted(fence.names - used)}"
        assert all(name.partition(".")[0] == library for name in used if "." in name), f"{_path(fence.home)} imports another library's internals"


def test_no_module_but_the_homes_writes_to_other_libraries_objects():
    homes = {fence.home for fence in FENCES.values()}
    writes = [use for module, source in sources().items() if module not in homes for use in foreign_writes(source, pnp_definitions())]
    assert not writes, "writes to other libraries' objects (keep pnp's state in pnp, or write in the library's home):\n" + "\n".join(map(str, writes))


def test_the_settings_written_are_the_libraries_own():
    """What SETTINGS lets pnp set is an attribute its library's class has (or a global
    setting its module has): naming one pnp invents does not pass."""
    for attr, owner in SETTINGS.items():
        assert attr in library_members(_resolve(owner)), f"{owner} has no attribute {attr}"
    for setting in GLOBAL_SETTINGS:
        parent, _, attr = setting.rpartition(".")
        assert hasattr(_resolve(parent), attr), f"{parent} has no setting {attr}"
    assert "_pnp_state" not in library_members(_resolve("reportlab.pdfgen.canvas.Canvas"))


def test_the_fenced_libraries_are_bounded_above():
    """A major version may move what FENCES lists: pyproject.toml bounds each library
    below its next major version, raised after the tests and bench/same_bytes.py pass."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11
    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = {re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower(): r for r in project["project"]["dependencies"]}
    for library in FENCES:
        assert re.search(r",\s*<\s*\d+\s*$", requirements[library]), f"{library} has no upper bound: {requirements[library]}"
