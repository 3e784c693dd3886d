"""Card data from spreadsheets: a CSV or XLSX file with a header row of field names and
one row per card, turned into the same located rows (`LMap`) a YAML list gives, so
`load.validate_card` checks both the same way.

Locations are `file:row:column`, 1-based, row 1 the header, as a spreadsheet shows them;
for a workbook the sheet is part of the file name: `cards.xlsx[Sheet1]:12:3`. An empty cell
is an absent field; a list field's cell is split on ';' (or ',' when there is no ';').
CSV files exported by Excel or Google Sheets (UTF-8 with a byte order mark, CRLF, quoted
cells, ';' as the separator in some locales) are read unchanged.
"""

from __future__ import annotations

import csv
import datetime
import io
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any
from xml.parsers import expat

from .errors import Location, PnpError, Problems, display_path
from .model import TypeDef
from .schema import suggest
from .yamlfile import CONTROL, LList, LMap

SHEET_SUFFIXES = {".csv", ".xlsx", ".xlsm"}
UNSUPPORTED = {".xls": "an old Excel workbook", ".ods": "an OpenDocument spreadsheet", ".numbers": "a Numbers document", ".tsv": "a TSV file"}
MAX_BYTES = 20 * 1024 * 1024  # on disk
MAX_UNPACKED = 200 * 1024 * 1024  # an XLSX is a zip: refuse one that inflates beyond this
MAX_ROWS = 200_000  # cards, header not counted
MAX_COLUMNS = 1_000
BUILT_IN = ("id", "copies")


def is_sheet(path: Path) -> bool:
    """True for the files `read_sheet` handles (or refuses with a reason)."""
    return path.suffix.lower() in SHEET_SUFFIXES or path.suffix.lower() in UNSUPPORTED


def read_sheet(path: Path, tdef: TypeDef, problems: Problems, sheet: str | None = None, sheet_loc: Location | None = None) -> LList:
    """The rows of a CSV or XLSX file as located card mappings. Problems with the file as a
    whole raise PnpError (unreadable); problems with a cell or the header are collected."""
    shown = display_path(path)
    suffix = path.suffix.lower()
    if suffix in UNSUPPORTED:
        raise _unreadable(
            Location(shown), "sheet-format", f"this is {UNSUPPORTED[suffix]}; expected a .csv (UTF-8) or .xlsx file: save it in one of those formats"
        )
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise _unreadable(Location(shown), "file-unreadable", f"cannot read the file ({exc.strerror}); expected a readable spreadsheet") from None
    if size > MAX_BYTES:
        raise _unreadable(Location(shown), "sheet-limit", f"file is {size} bytes; expected at most {MAX_BYTES} (split the deck into several files)")
    if suffix == ".csv":
        if sheet is not None:
            problems.error(sheet_loc or Location(shown), "sheet-name", f"'sheet: {sheet}' is only for XLSX workbooks; a CSV file has one table")
        return _rows(_csv_cells(path, shown), shown, tdef, problems)
    name, cells = _xlsx_cells(path, shown, sheet, sheet_loc)
    return _rows(cells, f"{shown}[{name}]", tdef, problems)


def _unreadable(loc: Location, code: str, message: str) -> PnpError:
    problems = Problems()
    problems.error(loc, code, message)
    problems.unreadable = True
    return PnpError(problems)


# --- reading cells ---------------------------------------------------------------------


def _csv_cells(path: Path, shown: str) -> Iterator[list[Any]]:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")  # Excel's "CSV UTF-8" starts with a byte order mark
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise _unreadable(
            Location(shown, line), "sheet-encoding", "the file is not UTF-8 text; expected a CSV saved as UTF-8 (in Excel: 'CSV UTF-8 (comma delimited)')"
        ) from None
    first = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first.count) if first else ","  # ';' where the decimal mark is ','
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        yield from reader
    except csv.Error as exc:
        raise _unreadable(
            Location(shown, reader.line_num), "sheet-syntax", f"cannot read this CSV line: {exc}; expected cells separated by '{delimiter}'"
        ) from None


def _xlsx_cells(path: Path, shown: str, sheet: str | None, sheet_loc: Location | None) -> tuple[str, Iterator[Iterable[Any]]]:
    import openpyxl  # only when a workbook is read: pnp --help stays fast

    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise _unreadable(
            Location(shown), "sheet-unreadable", f"cannot read this workbook ({exc}); expected an .xlsx file saved by a spreadsheet program"
        ) from None
    if unpacked > MAX_UNPACKED:
        raise _unreadable(Location(shown), "sheet-limit", f"the workbook unpacks to {unpacked} bytes; expected at most {MAX_UNPACKED}")
    member = _declares_entities(path)
    if member is not None:
        raise _unreadable(
            Location(shown),
            "sheet-xml-entities",
            f"the spreadsheet declares XML entities (a DOCTYPE in {member}); expected a workbook saved by a spreadsheet program, which never declares any",
        )
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)  # data_only: the values formulas computed
    except Exception as exc:  # openpyxl raises many kinds for damaged files
        raise _unreadable(
            Location(shown), "sheet-unreadable", f"cannot read this workbook ({exc}); expected an .xlsx file saved by a spreadsheet program"
        ) from None
    names = book.sheetnames
    if sheet is None:
        if not names:
            book.close()
            raise _unreadable(Location(shown), "sheet-unreadable", "the workbook has no sheets; expected one with a header row and one row per card")
        sheet = names[0]
    elif sheet not in names:
        book.close()
        raise _unreadable(
            sheet_loc or Location(shown), "sheet-name", f"the workbook has no sheet '{sheet}'{suggest(sheet, names)}; expected one of: {', '.join(names)}"
        )

    def cells() -> Iterator[Iterable[Any]]:
        try:
            yield from book[sheet].iter_rows(values_only=True)
        except Exception as exc:  # a damaged sheet is found while its rows are read
            raise _unreadable(
                Location(shown), "sheet-unreadable", f"cannot read sheet '{sheet}' ({exc}); expected an .xlsx file saved by a spreadsheet program"
            ) from None
        finally:
            book.close()

    return sheet, cells()


class _Prolog(Exception):
    """Raised by the expat handlers to stop reading a workbook part: `declares` or not."""

    def __init__(self, declares: bool):
        self.declares = declares


def _declares_entities(path: Path) -> str | None:
    """The first XML part of the workbook with a DOCTYPE or an entity declaration, before
    openpyxl parses it: entities are how XML expands into gigabytes or reads other files.
    Only the prolog is read: a DOCTYPE must come before the first element."""

    def declared(*_: Any) -> None:
        raise _Prolog(True)

    def started(*_: Any) -> None:
        raise _Prolog(False)

    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if not info.filename.endswith((".xml", ".rels", ".vml")):
                continue
            parser = expat.ParserCreate()
            parser.StartDoctypeDeclHandler = declared
            parser.EntityDeclHandler = declared
            parser.StartElementHandler = started
            try:
                with archive.open(info) as part:
                    while piece := part.read(1 << 16):
                        parser.Parse(piece, False)
                    parser.Parse(b"", True)
            except _Prolog as stop:
                if stop.declares:
                    return info.filename
            except (expat.ExpatError, zipfile.BadZipFile, OSError, ValueError):  # damaged: openpyxl says so
                continue
    return None


# --- cells to located rows -------------------------------------------------------------


def _rows(records: Iterable[Iterable[Any]], shown: str, tdef: TypeDef, problems: Problems) -> LList:
    rows = LList(loc=Location(shown, 1, 1))
    records = iter(records)
    header_cells = next(records, None)
    if header_cells is None:
        problems.error(Location(shown, 1, 1), "sheet-header", "the sheet is empty; expected a header row of field names (id, copies, ...) and one row per card")
        return rows
    columns = _header(list(header_cells), shown, tdef, problems)
    if columns is None:
        return rows
    for number, record in enumerate(records, start=2):
        if number - 1 > MAX_ROWS:
            raise _unreadable(Location(shown, number), "sheet-limit", f"more than {MAX_ROWS} rows; expected at most {MAX_ROWS} cards in one file")
        values = list(record)
        if not any(_cell(v) is not None for v in values):
            continue  # blank rows: spreadsheets often end with some
        row = LMap(loc=Location(shown, number, 1))
        for col, raw in enumerate(values[:MAX_COLUMNS], start=1):
            value = _cell(raw)
            if value is None:
                continue
            name = columns.get(col)
            loc = Location(shown, number, col)
            if name is None:
                problems.error(loc, "sheet-column", f"a value in column {col}, which has no name in the header row; expected a field name in row 1")
                continue
            if isinstance(value, str) and (bad := CONTROL.search(value)):
                problems.error(loc, "sheet-value", f"the cell holds control character U+{ord(bad.group()):04X}; expected printable text (delete the character)")
                continue
            row[name] = _typed(value, name, tdef, loc)
            row.locs[name] = loc
            row.key_locs[name] = Location(shown, 1, col)
        rows.append(row)
        rows.locs.append(row.loc)
    return rows


def _header(cells: list[Any], shown: str, tdef: TypeDef, problems: Problems) -> dict[int, str] | None:
    """Column number -> field name; None when no card can be read (no id column)."""
    known = list(BUILT_IN) + list(tdef.fields)
    columns: dict[int, str] = {}
    seen: dict[str, int] = {}
    for col, raw in enumerate(cells[:MAX_COLUMNS], start=1):
        value = _cell(raw)
        if value is None:
            continue
        name = str(value)
        loc = Location(shown, 1, col)
        if name not in known:
            problems.error(loc, "sheet-unknown-column", f"unknown column '{name}'{suggest(name, known)}; expected one of: {', '.join(known)}")
            continue
        if name in seen:
            problems.error(loc, "sheet-duplicate-column", f"column '{name}' appears twice (first in column {seen[name]}); expected each field once")
            continue
        seen[name] = col
        columns[col] = name
    if len(cells) > MAX_COLUMNS:
        problems.error(Location(shown, 1, MAX_COLUMNS + 1), "sheet-limit", f"more than {MAX_COLUMNS} columns; expected one column per field")
    if "id" not in seen:
        problems.error(Location(shown, 1, 1), "sheet-header", f"no 'id' column in the header row; expected a header such as: {', '.join(known)}")
        return None
    return columns


def _cell(value: Any) -> Any:
    """A cell's value, or None when it is empty (or only spaces)."""
    if value is None:
        return None
    if isinstance(value, str):
        value = value.strip()
        return value or None
    if isinstance(value, float) and value.is_integer():
        return int(value)  # spreadsheets store every number as a float
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return value


def _typed(value: Any, name: str, tdef: TypeDef, loc: Location) -> Any:
    """What a YAML file would hold: whole-number copies, lists split from one cell."""
    if name == "copies" and isinstance(value, str) and value.isdigit():
        return int(value)
    fdef = tdef.fields.get(name)
    if fdef is not None and fdef.type == "list":
        text = str(value)
        parts = text.split(";") if ";" in text else text.split(",")
        items = LList([p.strip() for p in parts if p.strip()], loc=loc)
        items.locs = [loc] * len(items)
        return items
    return value
