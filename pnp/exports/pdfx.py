"""PDF/X for a print shop: Ghostscript (`gs`, `gswin64c` or `gswin32c`) turns a PDF pnp wrote into CMYK through an ICC
output profile and declares that profile as the file's OutputIntent, with GTS_PDFXVersion,
Trapped and the page boxes PDF/X asks for.

Why Ghostscript: reportlab writes no PDF/X, and converting every colour, image and
transparency of a face to CMYK by hand is a colour-management engine; Ghostscript is one,
packaged by every distribution (Debian: `ghostscript`, whose default_cmyk.icc is
Artifex's SWOP profile, so the output condition is CGATS TR 001, US web coated SWOP).

What this is not: a validated PDF/X-1a. No free validator of PDF/X is at hand (veraPDF
checks PDF/A and PDF/UA); the file is CMYK only, fonts embedded, transparency flattened
(PDF 1.3), with its OutputIntent, and a shop's own preflight is the judge.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from pnp.base.errors import Location, fail

ICC_CANDIDATES = (  # Ghostscript's own SWOP profile, where Debian and others install it
    "/usr/share/color/icc/ghostscript/default_cmyk.icc",
    "/usr/share/ghostscript/iccprofiles/default_cmyk.icc",
    "/usr/local/share/ghostscript/iccprofiles/default_cmyk.icc",
)
ICC_NAME = "default_cmyk.icc"
SWOP = "CGATS TR 001"  # the registered characterisation of US web coated (SWOP) printing


GHOSTSCRIPTS = ("gs", "gswin64c", "gswin32c")  # its command's names: Unix, then Windows' 64-bit and 32-bit console programs


def ghostscript() -> str | None:
    """The Ghostscript command found first on PATH, by each of its names in turn."""
    for name in GHOSTSCRIPTS:
        found = shutil.which(name)
        if found:
            return found
    return None


def default_icc(gs: str | None) -> Path | None:
    """Ghostscript's own CMYK profile: where Linux distributions put it, else beside the
    Ghostscript that was found: its `iccprofiles` folder sits next to the `lib` and
    `Resource` folders of its search path (`gs -h`), and next to its `bin` on Windows
    (C:\\Program Files\\gs\\gs10.04.0\\bin\\gswin64c.exe) or in `share/ghostscript/VERSION`
    beside it (Homebrew, MacPorts)."""
    for candidate in ICC_CANDIDATES:
        if Path(candidate).is_file():
            return Path(candidate)
    if gs is None:
        return None
    home = Path(gs).resolve().parent.parent
    places = [home / "iccprofiles", *sorted(home.glob("share/ghostscript/*/iccprofiles"), reverse=True)]
    places += [Path(folder).parent.parent / "iccprofiles" for folder in _search_path(gs)]
    places += [Path(folder).parent / "iccprofiles" for folder in _search_path(gs)]
    for place in places:
        if (place / ICC_NAME).is_file():
            return place / ICC_NAME
    return None


def _search_path(gs: str) -> list[str]:
    """The folders Ghostscript searches, as `gs -h` lists them (separated by " : " on Unix,
    " ; " on Windows), or [] when it cannot say."""
    try:
        shown = subprocess.run([gs, "-h"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    lines = shown.split("Search path:", 1)[1].splitlines()[1:] if "Search path:" in shown else []
    folders = []
    for line in lines:
        if not line.startswith((" ", "\t")):
            break
        folders += [part.strip() for part in re.split(r" [:;] ?| [:;]$", line.strip()) if part.strip()]
    return folders


def _ps_string(text: str) -> str:
    """A PostScript string literal (parentheses and backslashes escaped, ASCII only)."""
    safe = text.encode("ascii", "replace").decode("ascii")
    return "(" + safe.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


@dataclass(frozen=True)
class DocInfo:
    """What the file says about itself: the game's title and author (Info's Title, Author)."""

    title: str
    author: str
    subject: str = ""


DEFAULT_EPOCH = 946684800  # 2000-01-01, reportlab's date for an invariant PDF (pnp build's): when SOURCE_DATE_EPOCH is unset


def source_date() -> str:
    """The file's CreationDate and ModDate as PDF writes them: from SOURCE_DATE_EPOCH, else
    the date pnp build's PDFs carry; never the clock (same input, same bytes)."""
    try:
        epoch = int(os.environ.get("SOURCE_DATE_EPOCH", DEFAULT_EPOCH))
    except ValueError:
        epoch = DEFAULT_EPOCH
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("D:%Y%m%d%H%M%SZ")


def _text_string(text: str) -> str:
    """A PDF text string for pdfmark: ASCII as a literal, anything else in UTF-16BE with
    its byte order mark (as hex), so that a title such as 'Mestá' survives."""
    if text.isascii():
        return _ps_string(text)
    return "<FEFF" + text.encode("utf-16-be").hex().upper() + ">"


def _prefix(icc: Path, version: str, info: DocInfo, condition: str) -> str:
    """The pdfmark prologue: Info keys (the game's title and author, the dates, the PDF/X
    version and conformance a PDF/X reader looks for, Trapped), the ICC profile stream and
    the OutputIntent."""
    date = _ps_string(source_date())
    return f"""%!
[ /Title {_text_string(info.title)} /Author {_text_string(info.author)} /Subject {_text_string(info.subject)} /Creator (pnp)
  /CreationDate {date} /ModDate {date}
  /GTS_PDFXVersion {_ps_string(version)} /GTS_PDFXConformance {_ps_string(version)} /Trapped /False /DOCINFO pdfmark
[/_objdef {{icc_PDFX}} /type /stream /OBJ pdfmark
[{{icc_PDFX}} << /N 4 >> /PUT pdfmark
[{{icc_PDFX}} {_ps_string(str(icc))} (r) file /PUT pdfmark
[/_objdef {{OutputIntent_PDFX}} /type /dict /OBJ pdfmark
[{{OutputIntent_PDFX}} <<
  /Type /OutputIntent /S /GTS_PDFX
  /OutputCondition {_ps_string(condition)} /OutputConditionIdentifier {_ps_string(condition)}
  /Info {_ps_string(condition)} /RegistryName (http://www.color.org)
  /DestOutputProfile {{icc_PDFX}}
>> /PUT pdfmark
[{{Catalog}} << /OutputIntents [ {{OutputIntent_PDFX}} ] >> /PUT pdfmark
"""


def convert(source: Path, target: Path, icc: Path | None, version: str, info: DocInfo, where: Location) -> Path:
    """Write `target`, the PDF/X version of `source`; returns the ICC profile used. Raises
    PnpError when Ghostscript or a CMYK profile is missing, or Ghostscript fails."""
    gs = ghostscript()
    profile = icc or default_icc(gs)
    if gs is None:
        raise fail(
            where,
            "pdfx-ghostscript",
            f"{version} needs Ghostscript (gs, or gswin64c or gswin32c on Windows) to turn the colours into CMYK, and it is not installed; expected `apt-get install ghostscript` (or your system's package), or --no-pdfx for a plain RGB PDF",
        )
    if profile is None or not profile.is_file():
        raise fail(
            where,
            "pdfx-icc",
            f"no CMYK ICC profile {'at ' + str(profile) if profile else 'found'}; expected --icc FILE (e.g. the shop's recommended profile) or Ghostscript's default_cmyk.icc",
        )
    condition = SWOP if icc is None else profile.stem
    with tempfile.TemporaryDirectory(prefix="pnp-pdfx-") as tmp:
        prefix = Path(tmp) / "pdfx.ps"
        prefix.write_text(_prefix(profile, version, info, condition), encoding="ascii")
        command = [
            gs,
            "-dBATCH",
            "-dNOPAUSE",
            "-dQUIET",
            "-dSAFER",
            f"--permit-file-read={profile}",
            "-sDEVICE=pdfwrite",
            "-dPDFX",
            "-dCompatibilityLevel=1.3",  # PDF/X-1a:2001: no transparency (Ghostscript flattens it)
            "-sColorConversionStrategy=CMYK",
            "-sProcessColorModel=DeviceCMYK",
            f"-sOutputICCProfile={profile}",
            "-dEmbedAllFonts=true",
            "-dAutoRotatePages=/None",
            f"-sOutputFile={target}",
            str(prefix),
            str(source),
        ]
        env = {**os.environ, "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", str(DEFAULT_EPOCH))}
        result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    if result.returncode != 0 or not target.is_file():
        detail = (result.stderr or result.stdout).strip().splitlines()[-3:]
        raise fail(
            where,
            "pdfx-failed",
            f"Ghostscript could not write {version} ({' '.join(detail) or 'exit ' + str(result.returncode)}); expected a PDF Ghostscript reads",
        )
    _fixed_id(target)
    return profile


_ID = re.compile(rb"/ID \[<([0-9A-Fa-f]{32})><([0-9A-Fa-f]{32})>\]")


def _fixed_id(path: Path) -> None:
    """Ghostscript's file identifier comes from the clock; make it a digest of the file's
    own content instead (same length, so no offset moves): same input, same bytes."""
    data = path.read_bytes()
    found = list(_ID.finditer(data))
    if not found:
        return
    digest = hashlib.md5(_ID.sub(b"", data), usedforsecurity=False).hexdigest().upper().encode()
    for match in reversed(found):
        data = data[: match.start()] + b"/ID [<" + digest + b"><" + digest + b">]" + data[match.end() :]
    path.write_bytes(data)
