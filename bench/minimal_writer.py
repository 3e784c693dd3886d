"""A minimal hand-written PDF writer for a benchmark deck: `python bench/minimal_writer.py DIR OUT.pdf`.

The floor pnp is measured against (issue #19: a cold build at most 1.5x this). It draws
the same pages as `pnp build DIR` for a deck made by bench/make_deck.py: A4, duplex
(fronts, then the backs mirrored), 3 x 3 poker cards per sheet, the same fonts, the
same text lines at the same positions and sizes, the same frame, art, symbols, backs,
crop marks and ruler. It does its own work honestly: reads the deck's YAML the simple
way, lays the text out itself (greedy line breaking with pnp's rules: Czech and Slovak
one-letter words and short numbers glued to the next word, pyphen hyphenation, justified
lines by PDF word spacing, shrinking by 0.25 pt to fit, inline symbols 1.1 em wide) with
a cache of word widths, and writes the PDF objects and zlib-compressed content streams
by hand. Repeated content is drawn once as a form: the card's frame with its art, the
back, the crop marks, the ruler, each symbol. reportlab's TTFontFile is used only to
parse and subset the TrueType fonts. It is not pnp code and does not import pnp.

What it does not reproduce: pnp clips each face to its trim (here nothing crosses it),
and pnp's object order, font subset names and number formatting (the bytes differ,
what is drawn does not); bench/verify_minimal.py compares the two."""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pyphen
import yaml
from PIL import Image
from reportlab.pdfbase.ttfonts import TTFontFile

MM = 72 / 25.4
PAGE_W, PAGE_H = 595.2756, 841.8898  # A4 in points, as reportlab's A4 rounds them
FONTS = Path(__file__).resolve().parent.parent / "fonts"
SYMBOL_EM = 1.1  # an inline symbol is this many font sizes wide
SIZE_STEP = 0.25  # points between the sizes tried when shrinking
MARK_GAP = 1.0 * MM  # crop marks stop this far from the cards
RULER_LENGTH = 50 * MM
RULER_Y = 11.25 * MM  # where pnp places the ruler on A4 with poker cards: centred in the bottom margin
CLINGING = set("vVkKsSzZoOuUaAiI")  # one-letter words kept with the next word (cs, sk)
NUMBER = re.compile(r"\d{1,3}")
SPACES = re.compile(r"[ \t]+")
TOKEN = re.compile(r":([a-z0-9][a-z0-9_-]*):")
LETTERS = re.compile(r"^(\W*)(\w.*?\w)(\W*)$")


def num(v: float) -> str:
    """A number as PDF content writes it: 4 decimals at most, no trailing zeros."""
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


def colour(hex_: str) -> str:
    return " ".join(num(int(hex_[i : i + 2], 16) / 255) for i in (1, 3, 5))


class Font:
    """A TrueType font: its widths, and one subset of at most 256 codes (ASCII at its own
    codes, other characters from 1 up, as they are first drawn)."""

    def __init__(self, tag: str, path: Path):
        self.tag = tag
        self.ttf = TTFontFile(str(path))
        self.widths = self.ttf.charWidths
        self.default = self.ttf.defaultWidth
        self.ascent = self.ttf.ascent / 1000
        self.descent = self.ttf.descent / 1000
        self.subset = [0] * 32 + list(range(32, 128))
        self.next_code = 1
        self.escape = _Codes(self)
        self.escape.update({c: chr(c) for c in range(32, 127)})
        self.escape.update({ord("("): "\\(", ord(")"): "\\)", ord("\\"): "\\\\"})
        self.cache: dict[str, float] = {}

    def width(self, text: str) -> float:
        """Width at size 1, each word measured once."""
        w = self.cache.get(text)
        if w is None:
            g, dw = self.widths.get, self.default
            w = self.cache[text] = 0.001 * sum(g(ord(c), dw) for c in text)
        return w

    def encode(self, text: str) -> str:
        """The text as a PDF string of this font's subset codes."""
        return text.translate(self.escape)


class _Codes(dict):
    """A font's characters to their escaped codes, a new one given a code as it is first drawn."""

    def __init__(self, font: Font):
        super().__init__()
        self.font = font

    def __missing__(self, char: int) -> str:
        font = self.font
        n = font.next_code
        if n == 32:
            n = 128
        if n > 255:
            raise SystemExit(f"more than 224 distinct characters in font {font.tag}: this writer keeps one subset per font")
        if n >= 128:
            font.subset.append(char)
        else:
            font.subset[n] = char
        font.next_code = n + 1
        self[char] = code = f"\\{n:03o}"
        return code


class Word:
    """A word measured at size 1: its parts (text and font, or a symbol id and None), their
    widths, and the space before it."""

    __slots__ = ("parts", "width", "space")

    def __init__(self, parts: list[tuple[str, Font | None]]):
        self.parts = [(t, f, f.width(t) if f else SYMBOL_EM) for t, f in parts]
        self.width = sum(p[2] for p in self.parts)
        first = next((f for _, f in parts if f), None)
        self.space = first.width(" ") if first else 0.25


class Layout:
    """Text set in a box of width x height points."""

    def __init__(self, hyphen: pyphen.Pyphen):
        self.hyphen = hyphen
        self.positions: dict[str, list[int]] = {}

    def words(self, text: str, font: Font) -> list[Word]:
        """Words split at spaces, symbols as parts, one-letter words and numbers glued to the next."""
        raw: list[list[tuple[str, Font | None]]] = [[]]
        pos = 0
        for m in [*TOKEN.finditer(text), None]:
            chunk = text[pos : m.start() if m else len(text)]
            for i, piece in enumerate(SPACES.split(chunk)):
                if i > 0 and raw[-1]:
                    raw.append([])
                if piece:
                    raw[-1].append((piece, font))
            if m is None:
                break
            raw[-1].append((m.group(1), None))
            pos = m.end()
        out: list[Word] = []
        carry = None
        for parts in (p for p in raw if p):
            if carry is not None:
                (t, f), (first, ff) = carry[-1], parts[0]
                parts = carry[:-1] + ([(t + " " + first, f)] + parts[1:] if f is ff else [(t + " ", f)] + parts)
                carry = None
            if len(parts) == 1 and parts[0][1] and (parts[0][0] in CLINGING or NUMBER.fullmatch(parts[0][0])):
                carry = parts
                continue
            out.append(Word(parts))
        if carry is not None:
            out.append(Word(carry))
        return out

    def set(self, text: str, font: Font, size: float, smallest: float, width: float, height: float, align: str, hyphenate: bool):
        """(size, lines) with each line a list of (x, text or symbol, font or None, word space)."""
        words = self.words(text, font)
        while True:
            for hyph in (True,) if align == "justify" else (False, True):
                lines, too_wide = self.breaks(words, size, width, hyph and hyphenate)
                fits = len(lines) * size * 1.2 <= height + 0.01 and not too_wide
                if fits:
                    break
            if fits or size - SIZE_STEP < smallest - 1e-9:
                break
            size = round(size - SIZE_STEP, 4)
        return size, [self.place(line, width, align, last) for line, last in lines]

    def breaks(self, words: list[Word], size: float, width: float, hyph: bool):
        lines = []
        too_wide = False
        line: list = []
        used = 0.0
        queue = [([(t, f, x * size) for t, f, x in w.parts], w.width * size, w.space * size) for w in words]
        i = 0
        while i < len(queue):
            parts, w, space = queue[i]
            gap = space if line else 0.0
            if used + gap + w <= width + 1e-6:
                line.append((parts, gap))
                used += gap + w
                i += 1
                continue
            split = self.hyphenate(parts, width - used - gap, size) if hyph else None
            if split is not None:
                head, tail = split
                line.append((head, gap))
                lines.append((line, False))
                queue[i] = (tail, tail[0][2], space)
                line, used = [], 0.0
                continue
            if line:
                lines.append((line, False))
                line, used = [], 0.0
                continue
            line.append((parts, 0.0))
            too_wide = True
            used = w
            i += 1
        lines.append((line, True))
        return lines, too_wide

    def hyphenate(self, parts: list, room: float, size: float):
        """Split a one-run word at the last hyphenation point that fits in `room`."""
        if len(parts) != 1 or parts[0][1] is None or room <= 0:
            return None
        word, font, _ = parts[0]
        m = LETTERS.match(word)
        if not m or len(m.group(2)) < 5:
            return None
        lead, core, _ = m.groups()
        glued = core.rfind(" ")
        found = self.positions.get(core)
        if found is None:
            found = self.positions[core] = self.hyphen.positions(core)
        for pos in reversed(found):
            if pos < glued + 3 or len(core) - pos < 2:
                continue
            head = lead + core[:pos] + "-"
            head_w = font.width(head) * size
            if head_w <= room + 1e-6:
                tail = word[len(lead) + pos :]
                return [(head, font, head_w)], [(tail, font, font.width(tail) * size)]
        return None

    @staticmethod
    def place(line: list, width: float, align: str, last: bool) -> list[list]:
        """Runs of one font with their x; a justified line stretches its word spaces (a
        glued word's own space does not stretch, so it starts a run of its own)."""
        natural = sum(gap + sum(p[2] for p in parts) for parts, gap in line)
        extra = max(0.0, width - natural)
        gaps = len(line) - 1
        stretch = extra / gaps if align == "justify" and not last and gaps > 0 else 0.0
        x = {"center": extra / 2, "right": extra}.get(align, 0.0)
        runs: list[list] = []  # [x, text, font, width, word space]
        for parts, gap in line:
            x += gap + (stretch if gap else 0.0)
            for j, (text, font, w) in enumerate(parts):
                spaced = j == 0 and gap > 0
                prev = runs[-1] if runs else None
                fits = prev is not None and font is not None and prev[2] is font and abs(prev[0] + prev[3] + (gap + stretch if spaced else 0.0) - x) < 1e-6
                if fits and stretch and (" " in text or (" " in prev[1] and not prev[4])):
                    fits = False
                if fits:
                    prev[1] += (" " if spaced else "") + text
                    prev[3] = x + w - prev[0]
                    if spaced:
                        prev[4] = stretch
                else:
                    runs.append([x, text, font, w, 0.0])
                x += w
        return runs


class Pdf:
    """Objects written as they are made; the xref at the end."""

    def __init__(self, path: Path):
        self.out = path.open("wb")
        self.offsets: list[int] = [0]
        self.pos = 0
        self.write(b"%PDF-1.4\n%\x93\x8c\x8b\x9e\n")

    def write(self, data: bytes) -> None:
        self.out.write(data)
        self.pos += len(data)

    def reserve(self) -> int:
        self.offsets.append(0)
        return len(self.offsets) - 1

    def obj(self, number: int, body: str | bytes) -> int:
        self.offsets[number] = self.pos
        self.write(b"%d 0 obj\n" % number + (body.encode("latin-1") if isinstance(body, str) else body) + b"\nendobj\n")
        return number

    def stream(self, number: int, data: bytes, extra: str = "", compress: bool = True) -> int:
        if compress:
            data = zlib.compress(data)
            extra += " /Filter /FlateDecode"
        return self.obj(number, b"<< /Length %d %s >>\nstream\n" % (len(data), extra.encode("latin-1")) + data + b"\nendstream")

    def finish(self, root: int, info: int) -> None:
        xref = self.pos
        self.write(b"xref\n0 %d\n0000000000 65535 f \n" % len(self.offsets) + b"".join(b"%010d 00000 n \n" % o for o in self.offsets[1:]))
        self.write(b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(self.offsets), root, info, xref))
        self.out.close()


def text_ops(layout: list, size: float, baseline: float, x0: float, marks: list) -> str:
    """The text object of a set text; its symbols go to `marks` (drawn after it)."""
    ops = ["BT"]
    font = None
    spacing = 0.0
    for i, line in enumerate(layout):
        y = baseline - i * size * 1.2
        for x, text, f, _w, ws in line:
            if f is None:
                marks.append(f"q {num(SYMBOL_EM * size / 75)} 0 0 {num(SYMBOL_EM * size / 75)} {num(x0 + x)} {num(y - 0.22 * size)} cm /S{text} Do Q")
                continue
            if f is not font:
                ops.append(f"/{f.tag} {num(size)} Tf")
                font = f
            if ws != spacing:
                ops.append(f"{num(ws)} Tw")
                spacing = ws
            ops.append(f"1 0 0 1 {num(x0 + x)} {num(y)} Tm ({f.encode(text)}) Tj")
    if spacing:
        ops.append("0 Tw")
    ops.append("ET")
    return "\n".join(ops)


def symbol_form(path: Path) -> tuple[float, str]:
    """An SVG of one circle (what make_deck.py draws) as form content: (size in points, ops)."""
    svg = ET.parse(path).getroot()
    circle = svg.find("{http://www.w3.org/2000/svg}circle")
    size = float(svg.get("width")) * 0.75
    cx, cy, r = (float(circle.get(k)) for k in ("cx", "cy", "r"))
    k = r * 0.5523
    path_ops = (
        f"{num(cx + r)} {num(cy)} m {num(cx + r)} {num(cy + k)} {num(cx + k)} {num(cy + r)} {num(cx)} {num(cy + r)} c "
        f"{num(cx - k)} {num(cy + r)} {num(cx - r)} {num(cy + k)} {num(cx - r)} {num(cy)} c "
        f"{num(cx - r)} {num(cy - k)} {num(cx - k)} {num(cy - r)} {num(cx)} {num(cy - r)} c "
        f"{num(cx + k)} {num(cy - r)} {num(cx + r)} {num(cy - k)} {num(cx + r)} {num(cy)} c f"
    )
    return size, f"q .75 0 0 -.75 0 {num(size)} cm {colour(circle.get('fill'))} rg {path_ops} Q"


def round_rect(x: float, y: float, w: float, h: float, r: float) -> str:
    t = 0.4472 * r
    return (
        f"{num(x + r)} {num(y)} m {num(x + w - r)} {num(y)} l {num(x + w - t)} {num(y)} {num(x + w)} {num(y + t)} {num(x + w)} {num(y + r)} c "
        f"{num(x + w)} {num(y + h - r)} l {num(x + w)} {num(y + h - t)} {num(x + w - t)} {num(y + h)} {num(x + w - r)} {num(y + h)} c "
        f"{num(x + r)} {num(y + h)} l {num(x + t)} {num(y + h)} {num(x)} {num(y + h - t)} {num(x)} {num(y + h - r)} c "
        f"{num(x)} {num(y + r)} l {num(x)} {num(y + t)} {num(x + t)} {num(y)} {num(x + r)} {num(y)} c h S"
    )


def main(folder: Path, target: Path) -> None:
    game = yaml.load((folder / "game.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    ((deck_name, deck),) = game["decks"].items()
    front = yaml.load((folder / "layouts" / f"{deck['front']}.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    back = yaml.load((folder / "layouts" / f"{deck['back']}.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    cards = yaml.load((folder / deck["data"]).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    files = yaml.load((FONTS / "fonts.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    fonts: dict[str, Font] = {}

    def font(name: str) -> Font:
        if name not in fonts:
            fonts[name] = Font(f"F{len(fonts) + 1}", FONTS / files[name])
        return fonts[name]

    layout = Layout(pyphen.Pyphen(lang=pyphen.language_fallback(game.get("language", "sk"))))
    card_w, card_h = (v * MM for v in front["size"])
    x0, y0 = (PAGE_W - 3 * card_w) / 2, (PAGE_H - 3 * card_h) / 2
    pdf = Pdf(target)
    catalog, info, pages_id, resources, form_resources = (pdf.reserve() for _ in range(5))
    image_id, frame_id, back_id, marks_id, ruler_id = (pdf.reserve() for _ in range(5))
    symbols = {p.stem: pdf.reserve() for p in sorted((folder / "symbols").glob("*.svg"))}

    # The front's fixed parts (frame, art) as one form, its texts per card.
    fixed, texts = [], []
    for el in front["elements"]:
        if "rect" in el:
            x, y, w, h = (v * MM for v in el["rect"])
            fixed.append(f"{colour(el['stroke'])} RG .5 w {round_rect(x, card_h - y - h, w, h, el.get('radius', 0) * MM)}")
        elif "image" in el:
            with Image.open(folder / el["image"]) as im:
                iw, ih = im.size
                pixels = im.convert("RGB").tobytes()
            pdf.stream(image_id, pixels, f"/Type /XObject /Subtype /Image /Width {iw} /Height {ih} /ColorSpace /DeviceRGB /BitsPerComponent 8")
            bx, by, bw, bh = (v * MM for v in el["box"])
            scale = min(bw / iw, bh / ih)
            w, h = iw * scale, ih * scale
            fixed.append(f"q {num(w)} 0 0 {num(h)} {num(bx + (bw - w) / 2)} {num(card_h - by - bh + (bh - h) / 2)} cm /Img Do Q")
        elif "text" in el:
            style = {**front.get("styles", {}).get(el.get("style"), {}), **{k: v for k, v in el.items() if k not in ("text", "box", "style")}}
            texts.append((el["text"].strip("{} "), style, [v * MM for v in el["box"]]))
    bbox = f"/Type /XObject /Subtype /Form /BBox [0 0 {num(card_w)} {num(card_h)}] /Resources {form_resources} 0 R"
    pdf.stream(frame_id, "\n".join(fixed).encode(), bbox)

    def set_text(content: str, style: dict, box: list[float], marks: list) -> str:
        f = font(style.get("font", "sans"))
        bx, by, bw, bh = box
        size, lines = layout.set(
            content, f, style.get("size", 9.0), style.get("min_size", style.get("size", 9.0)), round(bw, 3), round(bh, 3), style.get("align", "left"), True
        )
        block = len(lines) * size * 1.2
        offset = {"top": 0.0, "middle": (bh - block) / 2, "bottom": bh - block}[style.get("valign", "top")]
        ascent = size * 0.1 + size * f.ascent / (f.ascent - f.descent)
        ops = text_ops(lines, size, card_h - by - max(0.0, offset) - ascent, bx, marks)
        return f"{colour(style.get('color', '#000000'))} rg\n{ops}"

    # The back: one form, placed mirrored on the back side of each sheet.
    ops, marks = [], []
    for el in back["elements"]:
        if "rect" in el:
            x, y, w, h = (v * MM for v in el["rect"])
            ops.append(f"{colour(el['fill'])} rg {num(x)} {num(card_h - y - h)} {num(w)} {num(h)} re f")
        elif "text" in el:
            content = el["text"].replace("{{ game.title }}", game["title"])
            ops.append(set_text(content, {k: v for k, v in el.items() if k not in ("text", "box")}, [v * MM for v in el["box"]], marks))
    pdf.stream(back_id, "\n".join(ops + marks).encode(), bbox)

    # Crop marks and the ruler (with its caption's first line): one form each.
    xs = [x0 + i * card_w for i in range(4)]
    ys = [y0 + i * card_h for i in range(4)]
    segs = [s for x in xs for s in ((x, 0, x, y0 - MARK_GAP), (x, ys[-1] + MARK_GAP, x, PAGE_H))]
    segs += [s for y in ys for s in ((0, y, x0 - MARK_GAP, y), (xs[-1] + MARK_GAP, y, PAGE_W, y))]
    marks_ops = "0 0 0 RG .5 w\n" + "\n".join(f"{num(a)} {num(b)} m {num(c)} {num(d)} l S" for a, b, c, d in segs)
    pdf.stream(marks_id, marks_ops.encode(), f"/Type /XObject /Subtype /Form /BBox [0 0 {num(PAGE_W)} {num(PAGE_H)}]")
    sans = font("sans")
    ruler_x = x0 + card_w + (card_w - RULER_LENGTH) / 2
    # pnp prints its own words in the deck's language: make_deck.py writes a Slovak deck (pnp/i18n/own/sk.po)
    first_caption = f"tlačte na 100 % (skutočná veľkosť): toto pravítko má {round(RULER_LENGTH / MM)} mm"
    ticks = [f"0 0 m {num(RULER_LENGTH)} 0 l S"]
    ticks += [f"{num(i * MM)} 0 m {num(i * MM)} {num((3 if i % 10 == 0 else 2 if i % 5 == 0 else 1) * MM)} l S" for i in range(round(RULER_LENGTH / MM) + 1)]
    ruler_ops = f"0 0 0 RG .5 w\n{chr(10).join(ticks)}\n0 0 0 rg BT /{sans.tag} 6 Tf 1 0 0 1 0 {num(-2.4 * MM)} Tm ({sans.encode(first_caption)}) Tj ET"
    pdf.stream(ruler_id, ruler_ops.encode(), f"/Type /XObject /Subtype /Form /BBox [-1 -20 {num(RULER_LENGTH + 1)} 10] /Resources {form_resources} 0 R")
    for sid, number in symbols.items():
        size, sym_ops = symbol_form(folder / "symbols" / f"{sid}.svg")
        pdf.stream(number, sym_ops.encode(), f"/Type /XObject /Subtype /Form /BBox [0 0 {num(size)} {num(size)}]")

    sheets = (len(cards) + 8) // 9
    kids = []
    box = f"/MediaBox [0 0 {num(PAGE_W)} {num(PAGE_H)}]"
    for sheet in range(sheets):
        batch = cards[sheet * 9 : sheet * 9 + 9]
        ops = []
        for i, card in enumerate(batch):
            row, col = divmod(i, 3)
            x, y = x0 + col * card_w, y0 + (2 - row) * card_h
            marks = []
            ops.append(f"q 1 0 0 1 {num(x)} {num(y)} cm /Frame Do")
            ops.extend(set_text(str(card[field]), style, box_, marks) for field, style, box_ in texts)
            ops.extend(marks)
            ops.append("Q")
        caption = f"{game['title']} · {deck_name} · hárok {sheet + 1}/{sheets}, líce"
        ops.append(f"/Marks Do q 1 0 0 1 {num(ruler_x)} {num(RULER_Y)} cm /Ruler Do")
        ops.append(f"0 0 0 rg BT /{sans.tag} 6 Tf 1 0 0 1 0 {num(-2.4 * MM - 6 * 1.15)} Tm ({sans.encode(caption)}) Tj ET Q")
        used = [(x0 + (i % 3) * card_w, y0 + (2 - i // 3) * card_h) for i in range(len(batch))]
        trim = (
            f"[{num(min(u[0] for u in used))} {num(min(u[1] for u in used))} {num(max(u[0] for u in used) + card_w)} {num(max(u[1] for u in used) + card_h)}]"
        )
        kids.append(page(pdf, "\n".join(ops), pages_id, resources, box, trim))
        backs = [f"q 1 0 0 1 {num(x0 + (2 - i % 3) * card_w)} {num(y0 + (2 - i // 3) * card_h)} cm /Back Do Q" for i in range(len(batch))]
        used = [(x0 + (2 - i % 3) * card_w, y0 + (2 - i // 3) * card_h) for i in range(len(batch))]
        trim = (
            f"[{num(min(u[0] for u in used))} {num(min(u[1] for u in used))} {num(max(u[0] for u in used) + card_w)} {num(max(u[1] for u in used) + card_h)}]"
        )
        kids.append(page(pdf, "\n".join(backs) + "\n/Marks Do", pages_id, resources, box, trim))

    font_refs = " ".join(f"/{f.tag} {write_font(pdf, f)} 0 R" for f in fonts.values())
    xobjects = f"/Img {image_id} 0 R /Frame {frame_id} 0 R /Back {back_id} 0 R /Marks {marks_id} 0 R /Ruler {ruler_id} 0 R " + " ".join(
        f"/S{sid} {n} 0 R" for sid, n in symbols.items()
    )
    pdf.obj(resources, f"<< /Font << {font_refs} >> /XObject << {xobjects} >> >>")
    pdf.obj(form_resources, f"<< /Font << {font_refs} >> /XObject << /Img {image_id} 0 R {' '.join(f'/S{s} {n} 0 R' for s, n in symbols.items())} >> >>")
    pdf.obj(pages_id, f"<< /Type /Pages /Count {len(kids)} /Kids [{' '.join(f'{k} 0 R' for k in kids)}] >>")
    pdf.obj(catalog, f"<< /Type /Catalog /Pages {pages_id} 0 R /ViewerPreferences << /Duplex /DuplexFlipLongEdge /PrintScaling /None >> >>")
    pdf.obj(info, f"<< /Title ({game['title']}: {deck_name}) /Producer (bench/minimal_writer.py) >>")
    pdf.finish(catalog, info)


def page(pdf: Pdf, content: str, parent: int, resources: int, box: str, trim: str) -> int:
    stream = pdf.stream(pdf.reserve(), content.encode("latin-1"))
    return pdf.obj(
        pdf.reserve(), f"<< /Type /Page /Parent {parent} 0 R {box} /TrimBox {trim} /BleedBox {trim} /Resources {resources} 0 R /Contents {stream} 0 R >>"
    )


def write_font(pdf: Pdf, font: Font) -> int:
    """The font's subset: a TrueType font dictionary, its descriptor, the subset font file and
    a ToUnicode map (so the text can be searched and extracted)."""
    data = font.ttf.makeSubset(font.subset)
    name = f"AAAAAA+{font.ttf.name.decode()}"
    file_id = pdf.stream(pdf.reserve(), data, f"/Length1 {len(data)}")
    cmap = "\n".join(
        [
            "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
            f"/CIDSystemInfo << /Registry ({name}) /Ordering ({name}) /Supplement 0 >> def /CMapName /{name} def /CMapType 2 def",
            f"1 begincodespacerange <00> <{len(font.subset) - 1:02X}> endcodespacerange",
            f"{len(font.subset)} beginbfchar",
            *(f"<{i:02X}> <{u:04X}>" for i, u in enumerate(font.subset)),
            "endbfchar endcmap CMapName currentdict /CMap defineresource pop end end",
        ]
    )
    cmap_id = pdf.stream(pdf.reserve(), cmap.encode())
    ttf = font.ttf
    flags = (ttf.flags & ~32) | 4
    descriptor = pdf.obj(
        pdf.reserve(),
        f"<< /Type /FontDescriptor /FontName /{name} /Ascent {ttf.ascent} /Descent {ttf.descent} /CapHeight {ttf.capHeight} /Flags {flags} "
        f"/FontBBox [{' '.join(str(v) for v in ttf.bbox)}] /ItalicAngle {ttf.italicAngle} /StemV {ttf.stemV} /MissingWidth {ttf.defaultWidth} /FontFile2 {file_id} 0 R >>",
    )
    widths = " ".join(num(font.widths.get(u, font.default)) for u in font.subset)
    return pdf.obj(
        pdf.reserve(),
        f"<< /Type /Font /Subtype /TrueType /BaseFont /{name} /FirstChar 0 /LastChar {len(font.subset) - 1} /Widths [{widths}] "
        f"/FontDescriptor {descriptor} 0 R /ToUnicode {cmap_id} 0 R >>",
    )


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python bench/minimal_writer.py DIR OUT.pdf")
    main(Path(sys.argv[1]), Path(sys.argv[2]))
