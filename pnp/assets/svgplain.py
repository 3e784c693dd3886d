"""Plain SVG symbols turned into PDF operators without svglib.

svglib brings in lxml, cssselect2 and reportlab.graphics with all of platypus, slow to
import for symbols that are mostly a few circles and paths in solid colours. A file
made only of what is read here (shapes and paths, solid fills and strokes, transforms, a
viewBox) gives the operators renderPDF writes for svglib's drawing of it: the same numbers
in the same order (an arc's curves computed here from the SVG specification's notes, the
same to the digits written), so a symbol draws alike either way. Anything else (opacity,
CSS, gradients, text, references, odd syntax) is `None`: svglib's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from math import atan2, ceil, cos, pi, radians, sin, sqrt, tan

from reportlab.graphics.transform import mmult, rotate, scale, skewX, skewY, translate
from reportlab.lib import colors
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import toLength
from reportlab.pdfgen.canvas import PATH_OPS
from reportlab.pdfgen.pathobject import PDFPathObject

Matrix = tuple[float, float, float, float, float, float]
Plain = tuple[float, float, list[str]]  # width and height in points (svglib's drawing.width, .height), and the operators

_SVG_NS = "http://www.w3.org/2000/svg"
PX_TO_PT = 0.75  # svglib's: an SVG user unit (px) in points
_EM = 12 / PX_TO_PT  # svglib's em: 12 pt in px
_IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)
_STYLE = frozenset(("fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "fill-rule"))
_COMMON = _STYLE | {"id", "style", "transform"}
_ATTRIBUTES = {
    "svg": (_COMMON - {"transform"}) | {"width", "height", "viewBox", "preserveAspectRatio", "version"},
    "g": _COMMON,
    "path": _COMMON | {"d"},
    "circle": _COMMON | {"cx", "cy", "r"},
    "ellipse": _COMMON | {"cx", "cy", "rx", "ry"},
    "rect": _COMMON | {"x", "y", "width", "height", "rx", "ry"},
    "line": _COMMON | {"x1", "y1", "x2", "y2"},
    "polyline": _COMMON | {"points"},
    "polygon": _COMMON | {"points"},
}
_IGNORED = frozenset(("title", "desc", "metadata"))  # svglib draws nothing of them, nor of what they hold
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_LENGTH = re.compile(rf"\s*({_NUMBER})\s*(px|pt|pc|mm|cm|in|em|ex|)\s*")
_TRANSFORM = re.compile(r"[\s,]*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^()]*)\)[\s,]*")
_TRANSFORM_ARGS = {"matrix": (6,), "translate": (1, 2), "scale": (1, 2), "rotate": (1, 3), "skewX": (1,), "skewY": (1,)}
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_CSS_RGB = re.compile(r"rgb\([^()]*\)")
_CAPS = {"butt": 0, "round": 1, "square": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}
_FILL_RULES = {"nonzero": 1, "evenodd": 0}  # reportlab's FILL_NON_ZERO, FILL_EVEN_ODD
# renderPDF's start: the state defaults (black, 1 pt, butt caps, miter joins, no dash) and the drawing's own group
_HEAD = ("q", "1 0 0 1 0 0 cm", "0 0 0 RG", "1 w", "0 J", "0 j", "[] 0 d", "0 0 0 rg", "q", "1 0 0 1 0 0 cm")
# path data as svglib reads it: the commands, how many numbers each takes, the patterns of numbers and arc flags
_PATH_ARGS = {"A": 7, "a": 7, "Q": 4, "q": 4, "T": 2, "t": 2, "S": 4, "s": 4, "M": 2, "L": 2, "m": 2, "l": 2}
_PATH_ARGS |= {"H": 1, "V": 1, "h": 1, "v": 1, "C": 6, "c": 6, "Z": 0, "z": 0}
_PATH_SPLIT = re.compile("([achlmqstvz])", re.IGNORECASE)
_PATH_FLOAT = re.compile(r"(-?\d*\.?\d*(?:[eE][+-]?\d+)?)")
_PATH_NUMBERS = re.compile(r"[\d\s,.eE+-]*")  # what may stand between commands: svglib skips anything else unseen
_ARC_NUMBER = rf"[\s,]*({_NUMBER})"
_ARC_ARGUMENTS = tuple(re.compile(p) for p in [_ARC_NUMBER] * 3 + [r"[\s,]*([01])"] * 2 + [_ARC_NUMBER] * 2)
_MOVE, _LINE, _CURVE, _CLOSE = range(4)


class _NotPlain(Exception):
    """Something svglib must read."""


class _Node:
    __slots__ = ("name", "attrs", "parent", "children", "styles")

    def __init__(self, name: str, attrs: dict[str, str], parent: _Node | None):
        self.name, self.attrs, self.parent = name, attrs, parent
        self.children: list[_Node] = []
        self.styles: dict[str, str] | None = None  # what _styles finds, once it is asked


def length(text: str) -> float | None:
    """A length in px (user units) as svglib reads it, or None for what this module leaves
    to svglib (percentages, font-relative units but em and ex, anything malformed)."""
    m = _LENGTH.fullmatch(text)
    if m is None:
        return None
    number, unit = m.groups()
    if not unit or unit == "px":  # nearly every length: first, without a table made for each
        return float(number)
    if unit in ("mm", "cm", "in"):
        return toLength(number + unit) / PX_TO_PT
    value = float(number)
    if unit == "pt":
        return value * (96 / 72)
    if unit == "pc":
        return value * 16
    return value * _EM if unit == "em" else value * _EM / 2


def read(data: bytes) -> Plain | None:
    """The symbol an SVG file (already checked safe) draws, if every element and attribute
    of it is read here; None if svglib must read it."""
    from xml.parsers import expat  # only when an SVG is read: a game without symbols never needs it

    reader = Reader()
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    try:
        parser.Parse(data, True)
    except expat.ExpatError:
        return None
    return drawing(reader)


def drawing(reader: Reader) -> Plain | None:
    """The symbol of the SVG file a Reader was given the elements of, if every element
    and attribute of it is read here; None if svglib must read it."""
    if reader.root is None:
        return None
    try:
        return _Drawer().drawing(reader.root)
    except (_NotPlain, ValueError, ZeroDivisionError, OverflowError):
        return None


class Reader:
    """The elements of an SVG file as svgplain draws them, from the events of an expat
    parser made with namespace_separator=" " (`start`, `end`: its element handlers).
    Apart from `read`, so that the parser of symbols' safety check reads the file for
    both: one parse, not two."""

    def __init__(self) -> None:
        self.root: _Node | None = None  # None when an element or attribute is not svgplain's (or before the first)
        self._stack: list[_Node] = []
        self._ignored = 0  # depth inside an element svglib ignores
        self._plain = True  # until an element or attribute is not svgplain's: nothing more is built

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if self._plain:
            try:
                self._start(name, attrs)
            except _NotPlain:
                self._plain = False
                self.root = None

    def end(self, name: str) -> None:
        if not self._plain:
            return
        if self._ignored:
            self._ignored -= 1
        else:
            self._stack.pop()

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        stack = self._stack
        namespace, _, local = name.rpartition(" ")
        if self._ignored or (namespace in ("", _SVG_NS) and local in _IGNORED and stack):
            self._ignored += 1
            return
        if namespace not in ("", _SVG_NS) or local not in _ATTRIBUTES or (local == "svg") == bool(stack):
            raise _NotPlain
        if not _ATTRIBUTES[local].issuperset(attrs):  # a namespaced attribute is 'namespace name': never in the set
            raise _NotPlain
        node = _Node(local, _styled(attrs), stack[-1] if stack else None)
        if stack:
            stack[-1].children.append(node)
        else:
            self.root = node
        stack.append(node)


def _styled(attrs: dict[str, str]) -> dict[str, str]:
    """The attributes with the declarations of `style` over them, as svglib merges them."""
    style = attrs.get("style")
    if not style:
        return attrs
    merged = dict(attrs)
    for declaration in style.split(";"):
        if not declaration.strip():
            continue
        key, colon, value = declaration.partition(":")
        if key.strip() not in _STYLE or ":" in value:
            raise _NotPlain
        merged[key.strip()] = value.strip()
    return merged


def _inherited(node: _Node | None, name: str) -> str:
    """svglib's findAttr of a style attribute (`name` in _STYLE): the node's value, else
    its parent's, and so on."""
    if node is None:
        return ""
    value = _styles(node).get(name, "")
    if "!" in value:  # svglib drops '!important'; not worth reading here
        raise _NotPlain
    return value


def _styles(node: _Node) -> dict[str, str]:
    """The style attributes a node has or inherits (those set and not 'inherit', stripped),
    found once for each node rather than by walking up for each of the six every shape
    asks for."""
    found = node.styles
    if found is None:
        found = dict(_styles(node.parent)) if node.parent is not None else {}
        for name, value in node.attrs.items():
            if name in _STYLE and (value := value.strip()) and value != "inherit":
                found[name] = value
        node.styles = found
    return found


@lru_cache(maxsize=1024)
def _length(text: str, default: float | None = 0.0) -> float | None:
    """svglib's convertLength of one value (empty: `default`); kept, as the same few
    numbers come again and again in a game's symbols."""
    if not text.replace(",", " ").strip():
        return default
    value = length(text)
    if value is None:
        raise _NotPlain
    return value


def _lengths(node: _Node, *names: str) -> list[float]:
    return [_length(node.attrs.get(name, "")) for name in names]  # type: ignore[misc]


def _color(text: str) -> colors.Color | None:
    """svglib's convertColor for solid colours: none, #rgb, #rrggbb, rgb(...), a named colour."""
    if text == "none":
        return None
    if _HEX.fullmatch(text):
        color = colors.HexColor(text if len(text) == 7 else "#" + 2 * text[1] + 2 * text[2] + 2 * text[3])
    elif _CSS_RGB.fullmatch(text):
        color = colors.cssParse(text)
    elif text.isascii() and text.isalpha() and text.islower():
        color = getattr(colors, text, None)
    else:
        raise _NotPlain
    if type(color) is not colors.Color or color.alpha != 1:  # CMYK, translucent or not a colour at all: svglib's
        raise _NotPlain
    return color


@lru_cache(maxsize=256)
def _paint(text: str) -> str | None:
    """The operands renderPDF writes for a solid colour (`r g b`), None for none; kept, as
    a game's symbols paint their shapes in a few colours."""
    color = _color(text)
    return None if color is None else fp_str(color.red, color.green, color.blue)


@lru_cache(maxsize=256)
def _state(
    fill: str | None, rule: str, stroke_paint: str, stroke_width: str | None, cap: str, join: str, stroke: bool
) -> tuple[tuple[str, ...], int, int, int]:
    """The operators of a shape's state from the style values it has or inherits (`fill`
    None: a shape without a fill; `stroke_width` None: one whose width svglib drops;
    `stroke` False: one whose stroke svglib drops), whether it strokes and fills, and its
    fill rule; kept, as a game's symbols draw their shapes in a few styles."""
    if any("!" in value for value in (fill or "", rule, stroke_paint, stroke_width or "", cap, join)):  # svglib drops '!important'; not worth reading here
        raise _NotPlain
    fill_color = _paint(fill or "black") if fill is not None else None
    rule = rule or "nonzero"
    stroke_color = _paint(stroke_paint or "none")
    line_width = _length(stroke_width or "1") if stroke_width is not None else 0
    if rule not in _FILL_RULES or (cap and cap not in _CAPS) or (join and join not in _JOINS):
        raise _NotPlain
    if line_width == 0 or not stroke:
        stroke_color = None
    code = []
    if fill_color is not None:
        code.append(f"{fill_color} rg")
    if stroke_color is not None:
        code.append(f"{stroke_color} RG")
    code += (f"{fp_str(line_width)} w", f"{_CAPS.get(cap, 0)} J", f"{_JOINS.get(join, 0)} j", "[] 0 d")
    return tuple(code), int(stroke_color is not None), int(fill_color is not None), _FILL_RULES[rule]


def _filled_polyline(node: _Node) -> bool:
    """Whether svglib fills a polyline (only when told to: as a polygon without stroke, in a group of its own)."""
    return _inherited(node, "fill") not in ("", "none")


def _points(text: str) -> list[float]:
    """svglib's points of a polyline or polygon."""
    points = [_length(token) for token in text.replace(",", " ").split()]
    if not points or len(points) % 2:
        raise _NotPlain
    return _nudged(points)  # type: ignore[arg-type]


def _nudged(points: list[float]) -> list[float]:
    """svglib's nudge_points: the first moved a little when all are one point (reportlab
    draws nothing of a shape of no size)."""
    if len(points) >= 4 and all(points[i] == points[0] and points[i + 1] == points[1] for i in range(2, len(points) - 1, 2)):
        points[0] *= 1.0000001
    return points


@lru_cache(maxsize=256)
def _drawn(shape: str, *args: float) -> tuple[str, ...]:
    """The operators a path object's `shape` (its method: ellipse, roundRect) writes into
    the page; kept, as a game's symbols are often drawn in one frame."""
    code: list[str] = []
    getattr(PDFPathObject(code=code), shape)(*args)
    return tuple(code)


def _lines(points: list[float], close: bool) -> str:
    """renderPDF's path of a polyline or polygon, on one line."""
    path = PDFPathObject()
    path.moveTo(points[0], points[1])
    for i in range(2, len(points), 2):
        path.lineTo(points[i], points[i + 1])
    if close:
        path.close()
    return path.getCode()


def _transform(text: str) -> Matrix:
    """svglib's applyTransformOnGroup on a new group: the matrix of a transform list."""
    matrix = _IDENTITY
    at = 0
    while at < len(text):
        m = _TRANSFORM.match(text, at)
        if m is None:
            raise _NotPlain
        at = m.end()
        op, args = m.group(1), m.group(2).replace(",", " ").split()
        if len(args) not in _TRANSFORM_ARGS[op] or not all(re.fullmatch(_NUMBER, a) for a in args):
            raise _NotPlain
        v = [float(a) for a in args]
        if op == "matrix":
            matrix = mmult(matrix, tuple(v))
        elif op == "translate":
            matrix = mmult(matrix, translate(v[0], v[1] if len(v) == 2 else 0))
        elif op == "scale":
            matrix = mmult(matrix, scale(v[0], v[1] if len(v) == 2 else v[0]))
        elif op == "rotate":
            if len(v) == 3:
                matrix = mmult(matrix, translate(v[1], v[2]))
                matrix = mmult(matrix, rotate(v[0], 0, 0))
                matrix = mmult(matrix, translate(-v[1], -v[2]))
            else:
                matrix = mmult(matrix, rotate(v[0], 0, 0))
        else:  # reportlab's Group.skew(kx, ky) multiplies both
            kx, ky = (v[0], 0) if op == "skewX" else (0, v[0])
            matrix = mmult(mmult(matrix, skewX(kx)), skewY(ky))
    return matrix


class _Drawer:
    """renderPDF's operators for svglib's drawing, node by node."""

    def __init__(self) -> None:
        self.code: list[str] = list(_HEAD)
        self.fill_mode = 0  # the canvas's, from the state defaults; each filled shape sets its own

    def drawing(self, svg: _Node) -> Plain:
        attrs = svg.attrs
        if attrs.get("preserveAspectRatio", "xMidYMid meet").split() not in (["xMidYMid"], ["xMidYMid", "meet"]):
            raise _NotPlain
        box = attrs.get("viewBox")
        if box is not None:
            numbers = box.replace(",", " ").split()
            if len(numbers) != 4 or not all(re.fullmatch(_NUMBER, n) for n in numbers):
                raise _NotPlain
            vx, vy, vw, vh = (float(n) for n in numbers)
            if vw <= 0 or vh <= 0:
                raise _NotPlain
        width = _length(attrs.get("width", ""), None)
        height = _length(attrs.get("height", ""), None)
        if box is None:
            vx, vy, vw, vh = 0, 0, width or 0.0, height or 0.0
        width = vw if width is None else width
        height = vh if height is None else height
        if not (width > 0 and height > 0):  # a symbol of no size: svglib's to report
            raise _NotPlain
        x_scale = (width * PX_TO_PT) / vw
        y_scale = (height * PX_TO_PT) / vh
        uniform = min(x_scale, y_scale)  # xMidYMid meet
        tx = (width * PX_TO_PT - vw * uniform) / 2
        ty = (height * PX_TO_PT - vh * uniform) / 2
        matrix = _IDENTITY
        if tx or ty:
            matrix = mmult(matrix, translate(tx, ty))
        matrix = mmult(matrix, scale(uniform, uniform * -1))
        matrix = mmult(matrix, translate(0 - vx, -vh - vy))
        self.group(matrix, svg.children)
        self.code += ("Q", "Q")
        return width * PX_TO_PT, height * PX_TO_PT, self.code

    def group(self, matrix: Matrix, children: list[_Node]) -> None:
        self.code += ("q", f"{fp_str(*matrix)} cm")
        for child in children:
            self.node(child)
        self.code.append("Q")

    def node(self, node: _Node) -> None:
        if node.name == "g":
            self.group(_transform(node.attrs.get("transform", "")), node.children)
            return
        if node.children:
            raise _NotPlain
        draw: Callable[[_Node], None] = getattr(self, node.name)
        if node.attrs.get("transform") or node.name == "path" or (node.name == "polyline" and _filled_polyline(node)):
            # svglib's group around the shape: its transform, or the group it makes for a path and a filled polyline
            self.code += ("q", f"{fp_str(*mmult(_transform(node.attrs.get('transform', '')), _IDENTITY))} cm")
            draw(node)
            self.code.append("Q")
        else:
            draw(node)

    # the state each shape sets (renderPDF's applyStateChanges of svglib's applyStyleOnShape)

    def style(self, node: _Node, filled: bool = True, stroke: bool = True, width: bool = True) -> tuple[int, int]:
        """Write the state of a shape (`filled`: one that has a fill, not a line, nor the
        stroke svglib draws apart from a fill; `stroke`, `width`: False where svglib drops
        the stroke or its width); return whether it strokes and fills."""
        get = _styles(node).get
        code, strokes, fills, mode = _state(
            get("fill", "") if filled else None,
            get("fill-rule", ""),
            get("stroke", ""),
            get("stroke-width", "") if width else None,
            get("stroke-linecap", ""),
            get("stroke-linejoin", ""),
            stroke,
        )
        self.code += code
        if filled:
            self.fill_mode = mode
        return strokes, fills

    def shape(self, node: _Node, outline: Callable[[], Iterable[str]], stroke: bool = True) -> None:
        """A shape renderPDF draws through a path object writing into the page (circle,
        ellipse, rounded rectangle, polygon): its state, then the operators `outline` gives."""
        self.code.append("q")
        stroke, fill = self.style(node, stroke=stroke)
        self.code += outline()
        self.code.append(PATH_OPS[stroke, fill, self.fill_mode])
        self.code.append("Q")

    def circle(self, node: _Node) -> None:
        cx, cy, r = _lengths(node, "cx", "cy", "r")
        self.ellipse_in(node, cx - r, cy - r, cx + r, cy + r)

    def ellipse(self, node: _Node) -> None:
        cx, cy, rx, ry = _lengths(node, "cx", "cy", "rx", "ry")
        self.ellipse_in(node, cx - rx, cy - ry, cx + rx, cy + ry)

    def ellipse_in(self, node: _Node, x1: float, y1: float, x2: float, y2: float) -> None:
        self.shape(node, lambda: _drawn("ellipse", x1, y1, x2 - x1, y2 - y1))

    def rect(self, node: _Node) -> None:
        x, y, width, height, rx, ry = _lengths(node, "x", "y", "width", "height", "rx", "ry")
        if rx > width / 2:
            rx = width / 2
        if ry > height / 2:
            ry = height / 2
        if rx and not ry:
            ry = rx
        elif ry and not rx:
            rx = ry
        if rx == ry == 0:
            self.code.append("q")
            stroke, fill = self.style(node)
            self.code += (f"n {fp_str(x, y, width, height)} re {PATH_OPS[stroke, fill, self.fill_mode]}", "Q")
        else:  # renderPDF rounds both ways by rx
            self.shape(node, lambda: _drawn("roundRect", x, y, width, height, rx))

    def line(self, node: _Node) -> None:
        points = _nudged(_lengths(node, "x1", "y1", "x2", "y2"))
        self.code.append("q")
        stroke, _ = self.style(node, filled=False)
        if stroke:
            self.code.append(f"n {fp_str(*points[:2])} m {fp_str(*points[2:])} l S")
        self.code.append("Q")

    def polygon(self, node: _Node) -> None:
        self.filled_polygon(node, _points(node.attrs.get("points", "")))

    def filled_polygon(self, node: _Node, points: list[float], stroke: bool = True) -> None:
        self.shape(node, lambda: (_lines(points, close=True),), stroke=stroke)

    def polyline(self, node: _Node) -> None:
        points = _points(node.attrs.get("points", ""))
        if _filled_polyline(node):
            self.filled_polygon(node, points, stroke=False)
        self.code.append("q")
        stroke, _ = self.style(node, filled=False)
        if stroke:
            self.code += (_lines(points, close=False), "S")
        self.code.append("Q")

    def path(self, node: _Node) -> None:
        ops, points = _path(node.attrs.get("d", ""))
        unclosed = [i for i, op in enumerate(ops) if op == _MOVE and i > 0 and ops[i - 1] != _CLOSE]
        if ops[-1] != _CLOSE:
            unclosed.append(len(ops))
        if unclosed and _paint(_inherited(node, "fill") or "black") is not None:
            # reportlab fills no open path: svglib adds a copy with every subpath closed, filled, not stroked
            closed = list(ops)
            for at in reversed(unclosed):
                closed.insert(at, _CLOSE)
            self.code.append("q")
            _, fill = self.style(node, stroke=False, width=False)
            self.outline(closed, points, 0, fill)
            self.code.append("Q")
            self.code.append("q")
            stroke, _ = self.style(node, filled=False)
            self.outline(ops, points, stroke, 0)
        else:
            self.code.append("q")
            stroke, fill = self.style(node)
            self.outline(ops, points, stroke, fill)
        self.code.append("Q")

    def outline(self, ops: list[int], points: list[float], stroke: int, fill: int) -> None:
        """renderPDF's drawPath: an open path is not filled."""
        path = PDFPathObject()
        draw = (path.moveTo, path.lineTo, path.curveTo, path.close)
        at = 0
        for op in ops:
            n = (2, 2, 6, 0)[op]
            draw[op](*points[at : at + n])
            at += n
        if ops.count(_MOVE) != ops.count(_CLOSE):
            fill = 0
        self.code += (path.getCode(), PATH_OPS[stroke, fill, self.fill_mode])


def _path(d: str) -> tuple[list[int], list[float]]:
    """svglib's convertPath: path data as reportlab path operators and their points."""
    ops: list[int] = []
    points: list[float] = []
    subpath_start: list[float] = []
    last_op = ""
    last_quadratic: tuple[float, float] | None = None

    def curve(*xy: float) -> None:
        points.extend(xy)
        ops.append(_CURVE)

    def quadratic(x0: float, y0: float, x1: float, y1: float, xn: float, yn: float) -> None:
        c1 = (x0 + 2 / 3 * (x1 - x0), y0 + 2 / 3 * (y1 - y0))
        c2 = (c1[0] + 1 / 3 * (xn - x0), c1[1] + 1 / 3 * (yn - y0))
        curve(c1[0], c1[1], c2[0], c2[1], xn, yn)

    def to(op: int, x: float, y: float) -> None:
        points.extend((x, y))
        ops.append(op)

    for op, nums in _normalised(d):
        if not ops and op not in "Mm":
            raise _NotPlain  # renderPDF cannot draw a path that does not start with a move
        if op == "M":
            to(_MOVE, *nums)
            subpath_start = points[-2:]
        elif op == "L":
            to(_LINE, *nums)
        elif op == "m":
            if len(points) >= 2:
                start = subpath_start if last_op in ("Z", "z") else points[-2:]
                to(_MOVE, start[0] + nums[0], start[1] + nums[1])
            else:
                to(_MOVE, *nums)
            subpath_start = points[-2:]
        elif op == "l":
            to(_LINE, points[-2] + nums[0], points[-1] + nums[1])
        elif op == "H":
            to(_LINE, nums[0], points[-1])
        elif op == "V":
            to(_LINE, points[-2], nums[0])
        elif op == "h":
            to(_LINE, points[-2] + nums[0], points[-1])
        elif op == "v":
            to(_LINE, points[-2], points[-1] + nums[0])
        elif op == "C":
            curve(*nums)
        elif op in ("S", "s"):
            x2, y2, xn, yn = nums
            if len(points) < 4 or last_op not in ("c", "C", "s", "S"):
                xp, yp, x0, y0 = points[-2:] * 2
            else:
                xp, yp, x0, y0 = points[-4:]
            xi, yi = x0 + (x0 - xp), y0 + (y0 - yp)
            if op == "S":
                curve(xi, yi, x2, y2, xn, yn)
            else:
                curve(xi, yi, x0 + x2, y0 + y2, x0 + xn, y0 + yn)
        elif op == "c":
            xp, yp = points[-2:]
            x1, y1, x2, y2, xn, yn = nums
            curve(xp + x1, yp + y1, xp + x2, yp + y2, xp + xn, yp + yn)
        elif op in ("Q", "q"):
            x0, y0 = points[-2:]
            x1, y1, xn, yn = nums
            if op == "q":
                x1, y1, xn, yn = x0 + x1, y0 + y1, x0 + xn, y0 + yn
            last_quadratic = (x1, y1)
            quadratic(x0, y0, x1, y1, xn, yn)
        elif op in ("T", "t"):
            xp, yp = last_quadratic if last_quadratic is not None else points[-2:]
            x0, y0 = points[-2:]
            xn, yn = nums
            if op == "t":
                xn, yn = x0 + xn, y0 + yn
            xi, yi = x0 + (x0 - xp), y0 + (y0 - yp)
            last_quadratic = (xi, yi)
            quadratic(x0, y0, xi, yi, xn, yn)
        elif op in ("A", "a"):
            rx, ry, phi, large, sweep, x2, y2 = nums
            x1, y1 = points[-2:]
            if op == "a":
                x2 += x1
                y2 += y1
            if abs(rx) <= 1e-10 or abs(ry) <= 1e-10:
                to(_LINE, x2, y2)
            else:
                for _, _, c1x, c1y, c2x, c2y, xn, yn in _arc(x1, y1, rx, ry, phi, int(large), int(sweep), x2, y2):
                    curve(c1x, c1y, c2x, c2y, xn, yn)
        else:  # Z, z
            ops.append(_CLOSE)
        if op not in ("Q", "q", "T", "t"):
            last_quadratic = None
        last_op = op
    if not ops:
        raise _NotPlain
    return ops, points


def _normalised(d: str) -> list[tuple[str, list[float]]]:
    """svglib's normalise_svg_path: each command with its numbers, a repeated one written
    out (a move's further pairs are lines). What svglib would fail on, or read by skipping
    what it does not understand, is not plain."""
    result: list[tuple[str, list[float]]] = []
    op = ""
    for item in _PATH_SPLIT.split(d.strip()):
        if item.strip() == "":
            continue
        if item in _PATH_ARGS:
            op = item
            if _PATH_ARGS[op] == 0:
                result.append((op, []))
            continue
        if not op or _PATH_ARGS[op] == 0:
            raise _NotPlain  # numbers before any command, or after a close
        if not _PATH_NUMBERS.fullmatch(item):
            raise _NotPlain
        if op in ("A", "a"):
            found = _arc_values(item)
        else:
            floats = [float(seq) for seq in _PATH_FLOAT.findall(item) if seq]
            n = _PATH_ARGS[op]
            found = [floats[i : i + n] for i in range(0, len(floats), n)]
        if not found or len(found[-1]) != _PATH_ARGS[op]:
            raise _NotPlain  # a command without its numbers, or short of some
        for i, nums in enumerate(found):
            result.append((op if i == 0 or op not in "Mm" else ("l" if op == "m" else "L"), nums))
        op = result[-1][0]
    return result


def _arc_values(text: str) -> list[list[float]]:
    text = text.strip()
    at = 0
    found: list[list[float]] = []
    while at < len(text):
        values = []
        for argument in _ARC_ARGUMENTS:
            m = argument.match(text, at)
            if m is None:
                raise _NotPlain  # svglib stops reading there and drops the rest
            values.append(float(m.group(1)))
            at = m.end()
        found.append(values)
    return found


# An elliptical arc as cubic Bézier curves: the centre from the end points as the SVG
# specification's implementation notes give it (endpoint to centre parameterisation), then
# one curve for each quarter turn or less, its control points along the tangents at k =
# 4/3 tan(angle/4) of the radius.


def _arc(x1: float, y1: float, rx: float, ry: float, phi: float, large: int, sweep: int, x2: float, y2: float) -> list[tuple[float, ...]]:
    """The curves (start, first control, second control, end) drawing the arc from x1, y1
    to x2, y2 with radii rx, ry turned by phi degrees; none between two equal points."""
    if x1 == x2 and y1 == y2:
        return []
    rx, ry = abs(rx), abs(ry)
    c, s = cos(radians(phi)), sin(radians(phi))
    hx, hy = (x1 - x2) / 2, (y1 - y2) / 2  # half the chord, in the ellipse's axes
    u, v = c * hx + s * hy, -s * hx + c * hy
    reach = (u / rx) ** 2 + (v / ry) ** 2
    if reach > 1:  # radii too short for the chord: grown until they just reach
        rx, ry = rx * sqrt(reach), ry * sqrt(reach)
    spread = (rx * v) ** 2 + (ry * u) ** 2
    root = sqrt(max(0.0, (rx * ry) ** 2 - spread) / spread) * (-1 if large == sweep else 1)
    cu, cv = root * rx * v / ry, -root * ry * u / rx  # the centre, in the ellipse's axes
    cx, cy = c * cu - s * cv + (x1 + x2) / 2, s * cu + c * cv + (y1 + y2) / 2
    start = atan2((v - cv) / ry, (u - cu) / rx)
    turn = atan2((-v - cv) / ry, (-u - cu) / rx) - start
    if sweep and turn < 0:
        turn += 2 * pi
    elif not sweep and turn > 0:
        turn -= 2 * pi
    pieces = max(1, ceil(abs(turn) / (pi / 2) - 1e-9))
    step = turn / pieces
    k = 4 / 3 * tan(step / 4)

    def at(t: float) -> tuple[float, float, float, float]:  # the point at parameter t, and its tangent
        px, py, tx, ty = rx * cos(t), ry * sin(t), -rx * sin(t), ry * cos(t)
        return cx + c * px - s * py, cy + s * px + c * py, c * tx - s * ty, s * tx + c * ty

    curves = []
    for i in range(pieces):
        ax, ay, atx, aty = at(start + i * step)
        bx, by, btx, bty = at(start + (i + 1) * step)
        curves.append((ax, ay, ax + k * atx, ay + k * aty, bx - k * btx, by - k * bty, bx, by))
    return curves
