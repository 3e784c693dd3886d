"""Card data from spreadsheets: a CSV or XLSX file with a header row of field names and
one row per card, turned into the same located rows (`LMap`) a YAML list gives, so
`game.validate_card` checks both the same way.

Locations are what the designer's program shows. In a CSV, the physical line of the cell
(a quoted cell with line breaks takes several lines) and the cell's number in its record:
`cards.csv:12:3`. In a workbook, the cell as a spreadsheet names it: `cards.xlsx:Cards!C12`.
Headers match whatever their case, spacing and word joints (`Dom Color`, ` dom_color `,
`DOM-COLOR`, `domColor`); a quantity column may be called copies, qty, quantity or count; a
deck's `columns:` maps any header to a field or leaves it out (`ignore`), and its `ids:`
makes ids from a column. A cell's value is what the sheet shows (TRUE, 2024-03-01, 3 and
not 3.0) unless its field's type asks for a number or a yes/no. An empty cell is an absent
field; a list field's cell is split on ';' (or ',' when there is no ';'). CSV files
exported by Excel or Google Sheets (UTF-8 with a byte order mark, CRLF, quoted cells, ';'
as the separator in some locales) are read unchanged.
"""

from __future__ import annotations

import datetime
import io
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import IO, Any

from pnp.base.errors import Location, PnpError, Problems, display_path, one_of
from pnp.base.texts import utf8_text
from pnp.load.model import PROVIDED_NAMES, TypeDef, another_name
from pnp.load.schema import suggest
from pnp.load.yamlfile import CONTROL, LList, LMap

SHEET_SUFFIXES = {".csv", ".xlsx", ".xlsm"}
UNSUPPORTED = {".xls": "an old Excel workbook", ".ods": "an OpenDocument spreadsheet", ".numbers": "a Numbers document", ".tsv": "a TSV file"}
MAX_BYTES = 20 * 1024 * 1024  # on disk
MAX_UNPACKED = 200 * 1024 * 1024  # an XLSX is a zip: refuse one that inflates beyond this
MAX_ROWS = 200_000  # cards, header not counted
MAX_COLUMNS = 1_000
MAX_CELL = 32_767  # characters in one cell: a spreadsheet program's own limit
BUILT_IN = ("id", "copies")


def is_sheet(path: Path) -> bool:
    """True for the files `read_sheet` handles (or refuses with a reason)."""
    return path.suffix.lower() in SHEET_SUFFIXES or path.suffix.lower() in UNSUPPORTED


def read_sheet(
    path: Path,
    tdef: TypeDef,
    problems: Problems,
    sheet: str | None = None,
    sheet_loc: Location | None = None,
    columns: Columns | None = None,
    url: str | None = None,
    data: bytes | None = None,
) -> LList:
    """The rows of a CSV or XLSX file as located card mappings. Problems with the file as a
    whole raise PnpError (unreadable); problems with a cell or the header are collected.
    `url` and `data`: a CSV or workbook fetched from there (load/remote.py; `path` names
    no file, only its kind by its suffix), whose values are located at `URL:row:col` (a
    workbook's at `URL:Sheet!C12`)."""
    shown = url or display_path(path)
    columns = columns or Columns()
    suffix = path.suffix.lower()
    if suffix in UNSUPPORTED:
        raise _unreadable(
            Location(shown), "sheet-format", f"this is {UNSUPPORTED[suffix]}; expected a .csv (UTF-8) or .xlsx file: save it in one of those formats"
        )
    try:
        size = path.stat().st_size if data is None else len(data)
    except OSError as exc:
        raise _unreadable(Location(shown), "file-unreadable", f"cannot read the file ({exc.strerror}); expected a readable spreadsheet") from None
    if size > MAX_BYTES:
        raise _unreadable(Location(shown), "sheet-limit", f"file is {size} bytes; expected at most {MAX_BYTES} (split the deck into several files)")
    if suffix == ".csv":
        if sheet is not None:
            problems.error(sheet_loc or Location(shown), "sheet-name", f"'sheet: {sheet}' is only for XLSX workbooks; a CSV file has one table")

        counted: list[Any] = [None, [0]]  # the record last asked about, and the line breaks before each of its cells

        def at_line(start: Any, col: int, cells: list[Any]) -> Location:
            """A CSV cell's physical line: its record's first line plus the line breaks
            inside the quoted cells before it (counted once per record, not per cell)."""
            if start is None:
                return Location(shown, 1, 1)
            if col < 1:
                return Location(shown, start)
            if counted[0] is not cells:
                counted[:] = [cells, list(accumulate((str(c).count("\n") for c in cells), initial=0))]
            before = counted[1]
            return Location(shown, start + before[min(col - 1, len(before) - 1)], col)

        return _rows(_csv_cells(path.read_bytes() if data is None else data, shown), at_line, tdef, columns, problems)
    name, cells = _xlsx_cells((lambda: io.BytesIO(data)) if data is not None else (lambda: path), shown, sheet, sheet_loc)

    def at_cell(row: Any, col: int, _: list[Any]) -> Location:
        return Location(shown, row or 1, col, name)

    return _rows(cells, at_cell, tdef, columns, problems)


def _unreadable(loc: Location, code: str, message: str) -> PnpError:
    problems = Problems()
    problems.error(loc, code, message)
    problems.unreadable = True
    return PnpError(problems)


# --- reading cells ---------------------------------------------------------------------


def _csv_cells(data: bytes, shown: str) -> Iterator[tuple[int, list[Any]]]:
    """(first physical line, cells) of every record of a CSV file's bytes."""
    import csv  # here for speed: only a game with CSV files reads them

    try:
        text = utf8_text(data)  # Excel's "CSV UTF-8" starts with a byte order mark
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise _unreadable(
            Location(shown, line), "sheet-encoding", "the file is not UTF-8 text; expected a CSV saved as UTF-8 (in Excel: 'CSV UTF-8 (comma delimited)')"
        ) from None
    first = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first.count) if first else ","  # ';' where the decimal mark is ','
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    line = 1
    try:
        for cells in reader:
            yield line, cells
            line = reader.line_num + 1
    except csv.Error as exc:
        raise _unreadable(
            Location(shown, reader.line_num), "sheet-syntax", f"cannot read this CSV line: {exc}; expected cells separated by '{delimiter}'"
        ) from None


class _Formula(str):
    """A formula cell whose value was never saved (a workbook written by a library, not
    a spreadsheet program): an empty value that says why."""

    @property
    def text(self) -> str:
        return str(self)


def _xlsx_cells(
    source: Callable[[], Path | IO[bytes]], shown: str, sheet: str | None, sheet_loc: Location | None
) -> tuple[str, Iterator[tuple[int, list[Any]]]]:
    """The sheet's name and (row number, cells) of its rows. The values are those the
    spreadsheet program saved; a formula without one comes as a `_Formula`. `source`
    opens the workbook anew for each reader (a file, or bytes fetched from the web)."""
    import zipfile  # only when a workbook is read: a build of YAML and CSV data never needs it

    import openpyxl  # only when a workbook is read: pnp --help stays fast

    try:
        with zipfile.ZipFile(source()) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise _unreadable(
            Location(shown), "sheet-unreadable", f"cannot read this workbook ({exc}); expected an .xlsx file saved by a spreadsheet program"
        ) from None
    if unpacked > MAX_UNPACKED:
        raise _unreadable(Location(shown), "sheet-limit", f"the workbook unpacks to {unpacked} bytes; expected at most {MAX_UNPACKED}")
    member = _declares_entities(source())
    if member is not None:
        raise _unreadable(
            Location(shown),
            "sheet-xml-entities",
            f"the spreadsheet declares XML entities (a DOCTYPE in {member}); expected a workbook saved by a spreadsheet program, which never declares any",
        )
    try:
        book = openpyxl.load_workbook(source(), read_only=True, data_only=True)  # data_only: the values formulas computed
        formulas = openpyxl.load_workbook(source(), read_only=True, data_only=False)  # which empty values are formulas
    except Exception as exc:  # openpyxl raises many kinds for damaged files
        raise _unreadable(
            Location(shown), "sheet-unreadable", f"cannot read this workbook ({exc}); expected an .xlsx file saved by a spreadsheet program"
        ) from None
    names = book.sheetnames
    if sheet is None:
        if not names:
            book.close()
            formulas.close()
            raise _unreadable(Location(shown), "sheet-unreadable", "the workbook has no sheets; expected one with a header row and one row per card")
        sheet = names[0]
    elif sheet not in names:
        book.close()
        formulas.close()
        raise _unreadable(
            sheet_loc or Location(shown),
            "sheet-name",
            f"the workbook has no sheet '{sheet}'{suggest(sheet, names)}; expected {one_of(names, 'a workbook with at least one sheet')}",
        )

    def cells() -> Iterator[tuple[int, list[Any]]]:
        try:
            values, sources = book[sheet], formulas[sheet]
            for read in (values, sources):  # the dimension saved is often wrong (one formatted blank cell at XFD1048576 makes a sheet
                read.reset_dimensions()  # of 17 billion cells): each row is read as long as its last cell, and rows end with the last one saved
            pairs = zip(values.iter_rows(values_only=True), sources.iter_rows(values_only=True))
            for number, (values, written) in enumerate(pairs, start=1):
                row = list(values)
                for i, (value, source) in enumerate(zip(row, written)):
                    if value is None and isinstance(source, str) and source.startswith("="):
                        row[i] = _Formula(source)
                yield number, row
        except Exception as exc:  # a damaged sheet is found while its rows are read
            raise _unreadable(
                Location(shown), "sheet-unreadable", f"cannot read sheet '{sheet}' ({exc}); expected an .xlsx file saved by a spreadsheet program"
            ) from None
        finally:
            book.close()
            formulas.close()

    return sheet, cells()


class _Prolog(Exception):
    """Raised by the expat handlers to stop reading a workbook part: `declares` or not."""

    def __init__(self, declares: bool):
        self.declares = declares


def _declares_entities(path: Path | IO[bytes]) -> str | None:
    """The first XML part of the workbook with a DOCTYPE or an entity declaration, before
    openpyxl parses it: entities are how XML expands into gigabytes or reads other files.
    Only the prolog is read: a DOCTYPE must come before the first element."""

    def declared(*_: Any) -> None:
        raise _Prolog(True)

    def started(*_: Any) -> None:
        raise _Prolog(False)

    import zipfile  # only when a workbook is read (and expat with it)
    from xml.parsers import expat

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


def normal(name: str) -> str:
    """A header as it is matched: case, spaces, '_' and '-' do not count (`Card Name`,
    ` card_name `, `CARD-NAME`, `cardName` are one header, and the field `card_name`)."""
    return _SEPARATORS.sub("", name.casefold())


_SEPARATORS = re.compile(r"[\s_-]+")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    """A plain id from any text: 'Fireball (II)' -> 'fireball-ii', accents dropped."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _NOT_SLUG.sub("-", plain.lower()).strip("-")


@dataclass(repr=False, eq=False)
class Columns:
    """What the deck says about its spreadsheet's columns: `columns:` (header -> field,
    copies, id or ignore) and `ids:` (a column whose values, slugged, are the ids); each
    with the mapping it was read from, for its locations."""

    mapping: dict[str, str] = field(default_factory=dict)
    ids: str | None = None
    raw: Any = None  # the located `columns:` mapping
    ids_loc: Location | None = None


class SheetRows(LList):
    """The rows of a sheet, with the required fields whose missing column was reported once
    at the header (so no card reports it again)."""

    absent: frozenset[str] = frozenset()
    refused: bool = False  # the header was refused (reported): no row was read, which is no further mistake


@dataclass(repr=False, eq=False)
class _Column:
    """What one column of a sheet's header holds."""

    name: str  # the field, 'id', 'copies', or IGNORE
    slugged: bool = False  # its values become ids


IGNORE = "ignore"
QUANTITY = ("copies", "qty", "quantity", "count")  # how peers call the number of copies


def _rows(
    records: Iterable[tuple[Any, list[Any]]], at: Callable[[Any, int, list[Any]], Location], tdef: TypeDef, columns: Columns, problems: Problems
) -> LList:
    """Located rows from (record, cells); `at(record, col, cells)` is where a cell is."""
    records = iter(records)
    first = next(records, None)
    if first is None:
        rows = SheetRows(loc=at(None, 1, []))
        problems.error(rows.loc, "sheet-header", "the sheet is empty; expected a header row of field names (id, copies, ...) and one row per card")
        rows.refused = True
        return rows
    head, header_cells = first
    header = _header(list(header_cells), head, at, tdef, columns, problems)
    rows = SheetRows(loc=at(head, 1, []))
    if header is None:
        rows.refused = True
        return rows
    named, absent = header
    rows.absent = absent
    required = {name for name, fdef in tdef.fields.items() if fdef.needed} | {"id"}
    cards = 0
    long_texts: dict[str, Any] = {}  # a long cell's text as read, by the cell's text
    for record, cells in records:
        values = list(cells)
        if all(_blank(v) for v in values):
            continue  # blank rows: spreadsheets often end with some, and a formatted blank cell far away makes many
        cards += 1
        if cards > MAX_ROWS:
            raise _unreadable(
                at(record, 0, []), "sheet-limit", f"this row is card {cards:,}; expected at most {MAX_ROWS:,} cards in one file (rows with values)"
            )
        row = LMap(loc=at(record, 1, values))
        for col, raw in enumerate(values[:MAX_COLUMNS], start=1):
            column = named.get(col)
            if isinstance(raw, str) and len(raw) > 64:  # a long text: read once however many cells hold it (one shared string in every row)
                if len(raw) > MAX_CELL:
                    if column is None or column.name != IGNORE:
                        whose = f"card '{row['id']}'" if "id" in row else f"row '{record}'"  # named: the same text in every row is one message
                        problems.error(
                            at(record, col, values),
                            "sheet-limit",
                            f"the cell of {whose} holds {len(raw):,} characters; expected at most {MAX_CELL:,} (a spreadsheet cell's limit)",
                        )
                    continue
                value = long_texts.get(raw)
                if value is None:
                    value = long_texts[raw] = _cell(raw)
            else:
                value = _cell(raw)
            if value is None:
                if column is not None and column.name in required and column.name not in row:
                    row.locs[column.name] = at(record, col, values)  # an empty required cell is reported at itself
                if isinstance(raw, _Formula):
                    problems.error(
                        at(record, col, values),
                        "sheet-formula",
                        f"the cell holds the formula '{raw.text}', whose value was never saved (the file was written by a program that does not compute formulas); "
                        "expected a value: open the file in a spreadsheet program and save it, or type the value",
                    )
                continue
            loc = at(record, col, values)
            if column is None:
                problems.error(loc, "sheet-column", f"a value in column {col}, which has no name in the header row; expected a field name in row 1")
                continue
            if column.name == IGNORE:
                continue
            if isinstance(value, str) and (bad := CONTROL.search(value)):
                problems.error(loc, "sheet-value", f"the cell holds control character U+{ord(bad.group()):04X}; expected printable text (delete the character)")
                continue
            if column.slugged:
                made = slug(str(value))
                if not made:
                    problems.error(
                        loc, "card-id", f"'{value}' gives no id (no letters or digits); expected a value with letters or digits in the column ids come from"
                    )
                    continue
                if "id" not in row:
                    row["id"] = made
                    row.locs["id"] = loc
                    row.key_locs["id"] = at(head, col, [])
                if column.name == "id":
                    continue
            if column.name in row and column.name != "id":  # a column mapped onto a field another column fills
                continue
            row[column.name] = _typed(value, column.name, tdef, loc)
            row.locs[column.name] = loc
            row.key_locs[column.name] = at(head, col, [])
        far = _beyond_columns(values)
        if far:
            whose = f"card '{row['id']}'" if "id" in row else f"row '{record}'"
            problems.error(at(record, far, values), "sheet-limit", f"a value of {whose} in column {far:,}; expected at most {MAX_COLUMNS:,} columns")
        rows.append(row)
        rows.locs.append(row.loc)
    return rows


def _header(
    cells: list[Any], head: Any, at: Callable[[Any, int, list[Any]], Location], tdef: TypeDef, columns: Columns, problems: Problems
) -> tuple[dict[int, _Column], frozenset[str]] | None:
    """Column number -> what it holds, and the required fields the header has no column
    for (reported here, once); None when no card can be read (no ids). Each wrong header
    cell is one error: the cells under it are not reported again."""
    known = list(BUILT_IN) + list(tdef.fields)
    by_normal = {normal(name): name for name in known}
    mapped = {normal(str(key)): (str(key), str(value)) for key, value in columns.mapping.items()}
    ids = normal(columns.ids) if columns.ids else None
    named: dict[int, _Column] = {}
    seen: dict[str, int] = {}
    unknown: list[str] = []
    used_keys: set[str] = set()
    strays: list[tuple[Location, Any]] = []  # the header cells that name no field
    ids_col = None
    far = _beyond_columns(cells)
    if far:
        problems.error(at(head, far, cells), "sheet-limit", f"a header in column {far:,}; expected at most {MAX_COLUMNS:,} columns")
    for col, raw in enumerate(cells[:MAX_COLUMNS], start=1):
        value = _cell(raw)
        if value is None:
            continue
        text = str(value)
        key = normal(text)
        loc = at(head, col, cells)
        if key in mapped:
            used_keys.add(key)
            target = mapped[key][1] if mapped[key][1] in known else IGNORE  # a target that is no field is reported at columns: below
        elif key in by_normal:
            target = by_normal[key]
        elif key in QUANTITY and "copies" not in seen:
            target = "copies"
        elif key == ids:
            target = IGNORE
        elif key in PROVIDED_NAMES:
            problems.error(
                loc,
                "field-name-reserved",
                f"column '{text}' is named like a name pnp provides ({PROVIDED_NAMES[key]}), which no field may have; "
                f"expected 'columns: {{{text}: {another_name(key)}}}' in the deck, with a field '{another_name(key)}' (or another name) declared in rules.yaml, "
                f"or 'columns: {{{text}: ignore}}' to leave it out",
            )
            named[col] = _Column(IGNORE)
            continue
        else:
            unknown.append(text)
            strays.append((loc, value))
            named[col] = _Column(IGNORE)
            continue
        slugged = key == ids
        if slugged:
            ids_col = col
        if target == IGNORE:
            named[col] = _Column(IGNORE, slugged)
            continue
        if target in seen:
            problems.error(loc, "sheet-duplicate-column", f"column '{text}' holds '{target}' too (first in column {seen[target]}); expected each field once")
            named[col] = _Column(IGNORE, slugged)
            continue
        seen[target] = col
        named[col] = _Column(target, slugged)
    if strays and not seen and not used_keys and ids_col is None and _looks_like_data(strays, known):  # nothing in row 1 names a field
        shown = ", ".join(f"'{value}'" for _, value in strays[:4]) + (", ..." if len(strays) > 4 else "")
        problems.error(
            at(head, 1, cells),
            "sheet-header",
            f"row 1 does not look like a header: none of its values ({shown}) is a field name, and they look like a card's data; "
            f"expected a header row of field names first, such as: {', '.join(known)}, then one row per card (insert a row above)",
        )
        return None
    for loc, value in strays:
        text = str(value)
        key = _yaml_key(text)
        problems.error(
            loc,
            "sheet-unknown-column",
            f"unknown column '{text}'{suggest(text, known)}; expected {one_of(known, 'a field of the deck type')} "
            f"(or 'columns: {{{key}: FIELD}}' in the deck to map it, 'columns: {{{key}: ignore}}' to leave it out)",
        )
    if len(cells) > MAX_COLUMNS:
        problems.error(at(head, MAX_COLUMNS + 1, cells), "sheet-limit", f"more than {MAX_COLUMNS} columns; expected one column per field")
    raw = columns.raw
    for key, (name, target) in mapped.items():
        where = raw.loc_of(name) if raw is not None else at(head, 1, cells)
        if key not in used_keys:
            headers = [str(_cell(c)) for c in cells if _cell(c) is not None]
            problems.error(
                where,
                "sheet-columns",
                f"columns: names '{name}', which is not a header of the sheet{suggest(name, headers)}; expected {one_of(headers, 'a header: the sheet has no header row')}",
            )
        if target != IGNORE and target not in known and target in PROVIDED_NAMES:
            problems.error(
                where,
                "field-name-reserved",
                f"columns: maps '{name}' to '{target}', a name pnp provides ({PROVIDED_NAMES[target]}), which no field may have; "
                f"expected a field of another name, such as 'columns: {{{name}: {another_name(target)}}}' with a field '{another_name(target)}' declared in rules.yaml",
            )
        elif target != IGNORE and target not in known:
            problems.error(
                where,
                "sheet-columns",
                f"columns: maps '{name}' to '{target}', which is not a field{suggest(target, known)}; expected {one_of([*known, 'ignore'], 'ignore')}",
            )
    if ids is not None and ids_col is None and ids in seen:  # `ids:` names the field a column holds (title), not the header
        ids_col = seen[ids]
        named[ids_col] = _Column(named[ids_col].name, True)
    if columns.ids and ids_col is None:
        headers = [str(_cell(c)) for c in cells if _cell(c) is not None]
        problems.error(
            columns.ids_loc or at(head, 1, cells),
            "sheet-ids",
            f"ids: names column '{columns.ids}', which is neither a header of the sheet nor a field one holds{suggest(columns.ids, headers + list(seen))}; expected {one_of(headers, 'a header: the sheet has no header row')}",
        )
        return None
    if "id" not in seen and ids_col is None:
        problems.error(
            at(head, 1, cells),
            "sheet-header",
            f"no 'id' column in the header row; expected a header such as: {', '.join(known)} "
            "(or 'ids: COLUMN' in the deck, to make ids from a column such as the cards' names)",
        )
        return None
    missing = [name for name, fdef in tdef.fields.items() if fdef.needed and name not in seen]
    absent = []
    for name in missing:
        absent.append(name)
        if any(suggest(text, [name]) for text in unknown):
            continue  # the misspelt header is the one error
        problems.error(
            at(head, 1, cells),
            "sheet-missing-column",
            f"no column for required field '{name}' in the header row; expected a column '{name}' (or a default for it in rules.yaml)",
        )
    return named, frozenset(absent)


def _looks_like_data(strays: list[tuple[Location, Any]], known: list[str]) -> bool:
    """Whether header cells that name no field are a card's values (the header row left
    out) rather than misspelt headers: a number, a date, a colour or a yes/no among them,
    or none close to a field's name."""
    values = [value for _, value in strays]
    if any(not isinstance(v, str) or _DATA.fullmatch(v) for v in values):
        return True
    return not any(suggest(str(v), known) for v in values)


_DATA = re.compile(r"[-+]?\d[\d.,:/ -]*|#[0-9A-Fa-f]{3,8}|true|false|TRUE|FALSE|True|False")


def _yaml_key(text: str) -> str:
    """A header as a YAML mapping key in a message's suggestion: quoted when YAML would
    read it otherwise ('#FF00FF' starts a comment, 'yes' is a boolean, '3' a number)."""
    plain = re.fullmatch(r"[A-Za-z_][A-Za-z0-9_ .()-]*", text) and text.lower() not in {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}
    return text if plain and text == text.strip() else '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _beyond_columns(cells: list[Any]) -> int:
    """The column of the first value past MAX_COLUMNS (which is not read), or 0."""
    return next((col for col in range(MAX_COLUMNS, len(cells)) if not _blank(cells[col])), -1) + 1


def _blank(value: Any) -> bool:
    """Whether `_cell` makes nothing of a value, found without copying a long text."""
    return value is None or isinstance(value, _Formula) or (isinstance(value, str) and (not value or value.isspace()))


def _cell(value: Any) -> Any:
    """A cell's value, or None when it is empty (or only spaces)."""
    if value is None or isinstance(value, _Formula):
        return None
    if isinstance(value, str):
        value = value.strip()
        return value or None
    if isinstance(value, float) and value.is_integer():
        return int(value)  # spreadsheets store every number as a float
    if isinstance(value, datetime.datetime):  # a date as 2024-03-01, with its time when it has one
        return value.date().isoformat() if value.time() == datetime.time() else f"{value.date().isoformat()} {_clock(value.time())}"
    if isinstance(value, datetime.time):
        return _clock(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def _clock(time: datetime.time) -> str:
    """A time as a sheet shows it: 14:30, with seconds only when it has some (14:30:00
    would read as the symbol ':30:' in a text)."""
    return time.strftime("%H:%M") if not (time.second or time.microsecond) else time.isoformat(timespec="seconds")


def _typed(value: Any, name: str, tdef: TypeDef, loc: Location) -> Any:
    """What a YAML file would hold: whole-number copies, lists split from one cell, and a
    workbook's TRUE and FALSE as the sheet shows them unless the field is a yes/no (a text
    field printing 'True' is not what the designer typed)."""
    if name == "copies" and isinstance(value, str) and value.isdigit():
        return int(value)
    fdef = tdef.fields.get(name)
    if isinstance(value, bool) and (fdef is None or fdef.type != "bool"):
        value = "TRUE" if value else "FALSE"
    if fdef is not None and fdef.type == "list":
        text = str(value)
        parts = text.split(";") if ";" in text else text.split(",")
        items = LList([p.strip() for p in parts if p.strip()], loc=loc)
        items.locs = [loc] * len(items)
        return items
    return value
