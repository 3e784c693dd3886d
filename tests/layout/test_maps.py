"""Maps: data-only decks, table and points fields, the grid, hexgrid and areas elements,
and the graph constraint that holds an area map's neighbours together. Each test writes a
small map game into tmp_path and uses it the way a designer would: `pnp check`,
`pnp build`, `pnp list`, and reads the PDF."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

from babel.messages.pofile import read_po, write_po
from conftest import edit, line_of, run
from pdfread import MM, operations, reader, text

GAME = """\
title: Mare Nostrum
language: en
decks:
  fields: {type: field, data: fields.yaml}
  borders: {type: border, data: borders.yaml}
  map: {type: board, data: board.yaml, front: map}
  hexmap: {type: hexboard, data: hexmap.yaml, front: hexmap}
  tiles: {type: tile, data: tiles.yaml, front: tile}
"""

RULES = """\
enums:
  kind:
    land: {name: Land, color: "#d8c58a"}
    sea: {name: Sea, color: "#7fb2e5"}
  terrain:
    plains: {name: Plains, color: "#cfe3a0"}
    hills: {name: Hills, color: "#c9a66b"}
    forest: {name: Forest, color: "#5f9e5a"}
    water: {name: Water, color: "#8fbde8"}
  border:
    river: {name: River}
    mountains: {name: Mountains}
types:
  field:
    fields:
      name: {type: text}
      kind: {type: enum, enum: kind}
      coastal: {type: bool}
      neighbours: {type: list, item: text, translate: false, required: false}
      shape: {type: points}
  border:
    fields:
      between: {type: list, item: text, translate: false}
      kind: {type: enum, enum: border}
  board:
    fields:
      title: {type: text}
  hexboard:
    fields:
      title: {type: text}
      hexes:
        type: table
        fields:
          q: {type: int}
          r: {type: int}
          terrain: {type: enum, enum: terrain}
          label: {type: text, required: false}
  tile:
    fields:
      squares:
        type: table
        fields:
          terrain: {type: enum, enum: terrain}
          yield: {type: int, min: 0, max: 9}
constraints:
  - id: neighbours
    type: field
    graph: {neighbours: neighbours, symmetric: true, connected: true}
    message: The map's neighbours must agree and hang together.
  - id: coastal-needs-sea
    type: field
    where: coastal
    graph: {neighbours: neighbours, some: "kind == 'sea'"}
    message: "field {{ id }} is coastal but has no sea neighbour"
"""

# roma | gallia | alpes on top, one sea below sharing their southern edges.
FIELDS = """\
- id: roma
  name: Roma
  kind: land
  coastal: true
  neighbours: [gallia, mare]
  shape: [[10, 10], [50, 10], [50, 40], [10, 40]]
- id: gallia
  name: Gallia
  kind: land
  neighbours: [roma, alpes, mare]
  shape: [[50, 10], [90, 10], [90, 40], [50, 40]]
- id: alpes
  name: Alpes
  kind: land
  coastal: true
  neighbours: [gallia, mare]
  shape: [[90, 10], [110, 10], [110, 40], [90, 40]]
- id: mare
  name: Mare Internum
  kind: sea
  neighbours: [roma, gallia, alpes]
  shape: [[10, 40], [50, 40], [90, 40], [110, 40], [110, 70], [10, 70]]
"""

BORDERS = """\
- {id: rubicon, between: [roma, gallia], kind: river}
- {id: alps-pass, between: [gallia, alpes], kind: mountains}
"""

BOARD = """\
- {id: board, title: Mare Nostrum}
"""

HEXMAP = """\
- id: isle
  title: The Isle
  hexes:
    - {q: 0, r: 0, terrain: hills, label: Summit}
    - {q: 1, r: 0, terrain: plains, label: Meadow}
    - {q: 1, r: -1, terrain: forest, label: Grove}
    - {q: 0, r: -1, terrain: plains, label: Field}
    - {q: -1, r: 0, terrain: water, label: Lake}
    - {q: -1, r: 1, terrain: forest, label: Wood}
    - {q: 0, r: 1, terrain: plains, label: Farm}
"""

TILES = """\
- id: farmland
  squares:
    - {terrain: plains, yield: 2}
    - {terrain: plains, yield: 3}
    - {terrain: forest, yield: 1}
    - {terrain: hills, yield: 4}
    - {terrain: water, yield: 0}
    - {terrain: plains, yield: 5}
"""

MAP_LAYOUT = """\
size: [120, 80]
styles:
  label: {font: sans-bold, size: 9, min_size: 6, align: center, valign: middle}
elements:
  - rect: [0, 0, 120, 80]
    fill: "#ffffff"
  - text: "{{ title }}"
    box: [10, 71.5, 100, 5]
    style: label
  - text: "{{ decks.fields | length }} fields: {{ decks.fields | map(attribute='name') | join(', ') }}"
    box: [10, 3, 100, 6]
    name: field list
  - areas:
      deck: fields
      shape: shape
      fill: "{{ cell.kind.color }}"
      label: "{{ cell.name }}"
      style: label
      borders:
        deck: borders
        style:
          river: {stroke: "#2a6fdb", stroke_width: 2}
          mountains: {stroke: "#000000", stroke_width: 3}
"""

HEX_LAYOUT = """\
size: [90, 90]
styles:
  small: {font: sans, size: 7, min_size: 5, align: center, valign: middle}
elements:
  - text: "{{ title }}"
    box: [5, 3, 80, 6]
  - text: "{{ hexes[0].label }} / {{ hexes[0].terrain.name }}"
    box: [5, 80, 80, 6]
    name: first hex
  - hexgrid:
      field: hexes
      coords: axial
      orientation: pointy
      size: 12
      origin: [45, 45]
      fill: "{{ cell.terrain.color }}"
      label: "{{ cell.label }}"
      style: small
"""

TILE_LAYOUT = """\
size: [60, 40]
styles:
  small: {font: sans-bold, size: 9, min_size: 6, align: center, valign: middle}
elements:
  - grid:
      field: squares
      box: [0, 0, 60, 40]
      columns: 3
      fill: "{{ cell.terrain.color }}"
      stroke: "#333333"
      label: "{{ cell.terrain.name }} {{ cell.yield }}"
      style: small
"""


def map_game(tmp_path: Path, **files: str) -> Path:
    """The Mare Nostrum map game; `files` replaces a file by name (dots as underscores)."""
    folder = tmp_path / "mare"
    (folder / "layouts").mkdir(parents=True)
    content = {
        "game.yaml": GAME,
        "rules.yaml": RULES,
        "fields.yaml": FIELDS,
        "borders.yaml": BORDERS,
        "board.yaml": BOARD,
        "hexmap.yaml": HEXMAP,
        "tiles.yaml": TILES,
        "layouts/map.yaml": MAP_LAYOUT,
        "layouts/hexmap.yaml": HEX_LAYOUT,
        "layouts/tile.yaml": TILE_LAYOUT,
    }
    for name, value in files.items():
        content[name.replace("__", "/").replace("_yaml", ".yaml")] = value
    for name, value in content.items():
        (folder / name).write_text(dedent(value), encoding="utf-8")
    return folder


def at(path: Path, needle: str, line_with: str | None = None) -> str:
    """'file:line:col' of `needle` (on the first line containing `line_with`, default the
    needle itself), as pnp reports it."""
    number = line_of(path, line_with or needle)
    col = path.read_text(encoding="utf-8").splitlines()[number - 1].index(needle) + 1
    return f"{path.name}:{number}:{col}"


# --- data-only decks -----------------------------------------------------------------------


def test_data_only_decks_are_checked_listed_and_read_but_not_printed(tmp_path):
    folder = map_game(tmp_path)
    result = run("check", folder)
    assert result.exit_code == 0, result.output
    out = tmp_path / "out"
    result = run("build", folder, "--out", out)
    assert result.exit_code == 0, result.output
    pdfs = sorted(p.name for p in (out / "mare").glob("*.pdf"))
    assert pdfs == ["hexmap-en-a4.pdf", "map-en-a4.pdf", "tiles-en-a4.pdf"]
    # the board reads the data-only deck through `decks`
    assert "4 fields: Roma, Gallia, Alpes, Mare Internum" in text(out / "mare" / "map-en-a4.pdf")

    listed = run("list", folder)
    assert listed.exit_code == 0, listed.output
    row = next(line for line in listed.output.splitlines() if line.strip().startswith("fields "))
    assert "(data only)" in row and " 4 " in row

    asked = run("build", folder, "--out", out, "--deck", "fields")
    assert asked.exit_code == 0, asked.output
    assert "deck 'fields' has no front layout: it is data only and is not printed" in asked.output


def test_a_back_without_a_front_is_an_error(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "game.yaml", "{type: field, data: fields.yaml}", "{type: field, data: fields.yaml, back: map}")
    result = run("check", folder)
    assert result.exit_code != 0
    assert f"game.yaml:{line_of(folder / 'game.yaml', 'fields.yaml')}" in result.output
    assert "deck 'fields' has a back but no front" in result.output


# --- table and points fields --------------------------------------------------------------


def test_an_unknown_enum_value_in_a_table_row_is_reported_at_that_row(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "hexmap.yaml", "{q: -1, r: 0, terrain: water", "{q: -1, r: 0, terrain: watr")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    assert (
        f"{at(folder / 'hexmap.yaml', 'watr')}: field 'terrain' of row 5 of field 'hexes' of card 'isle' is 'watr', which is not in 'terrain' (did you mean 'water'?); "
        "expected one of: plains, hills, forest, water [card-enum]"
    ) in result.output


def test_table_rows_are_checked_like_cards(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "tiles.yaml", "- {terrain: hills, yield: 4}", "- {terain: hills, yield: 4}")
    edit(folder / "tiles.yaml", "- {terrain: water, yield: 0}", "- {terrain: water, yield: 12}")
    edit(folder / "tiles.yaml", "- {terrain: plains, yield: 5}", "- plains")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    tiles = folder / "tiles.yaml"
    assert (
        f"{at(tiles, 'terain')}: unknown field 'terain' on row 4 of field 'squares' of card 'farmland' (did you mean 'terrain'?); a row has: terrain, yield"
        in result.output
    )
    assert f"{at(tiles, '{terain')}: row 4 of field 'squares' of card 'farmland' has no 'terrain'" in result.output
    assert f"tiles.yaml:{line_of(tiles, 'yield: 12')}:" in result.output and "is 12; expected a value from 0 to 9" in result.output
    assert f"{at(tiles, 'plains', '- plains')}: row 6 of field 'squares' of card 'farmland' is 'plains'; expected a mapping of: terrain, yield" in result.output


def test_points_must_be_pairs_of_numbers(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "fields.yaml", "[[50, 10], [90, 10], [90, 40], [50, 40]]", "[[50, 10], [90, 10], [90, x], [50, 40]]")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    assert (
        f"{at(folder / 'fields.yaml', '[90, x]')}: point 3 of field 'shape' of card 'gallia' is [90, 'x']; expected [x, y], two numbers in mm" in result.output
    )


def test_a_table_needs_its_fields(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "rules.yaml", "      squares:\n        type: table\n", "      squares:\n        type: table\n        fieldz: {}\n")
    result = run("check", folder)
    assert result.exit_code == 2 and "unknown key 'fieldz'" in result.output and "did you mean 'fields'" in result.output


def translate_po(folder: Path, lang: str, texts: dict[str, str]) -> None:
    """Fill in catalogue entries by id, as a translator would in Poedit."""
    run("i18n", "update", folder, "--add", lang)
    path = folder / "locale" / f"{lang}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if message.context in texts:
            message.string = texts[message.context]
    with path.open("wb") as handle:
        write_po(handle, catalog)


def test_table_texts_go_through_the_catalogue(tmp_path):
    folder = map_game(tmp_path)
    assert run("i18n", "update", folder).exit_code == 0
    pot = (folder / "locale" / "messages.pot").read_text(encoding="utf-8")
    assert 'msgctxt "isle.hexes.0.label"\nmsgid "Summit"' in pot
    assert "#. label in row 1 of hexes of hexboard 'isle'" in pot
    assert f"#: hexmap.yaml:{line_of(folder / 'hexmap.yaml', 'Summit')}" in pot
    assert 'msgctxt "gallia.neighbours' not in pot  # translate: false
    assert 'msgctxt "deck.fields.name"' not in pot and 'msgctxt "deck.map.name"' in pot  # a data-only deck's name is never printed
    assert 'msgctxt "gallia.name"\nmsgid "Gallia"' in pot  # but its data is
    translate_po(folder, "de", {"isle.hexes.0.label": "Gipfel", "enum.terrain.hills.name": "Hügel"})
    out = tmp_path / "out"
    result = run("build", folder, "--out", out, "--deck", "hexmap", "--lang", "de", "--allow-untranslated")
    assert result.exit_code == 0, result.output
    assert "Gipfel / Hügel" in text(out / "mare" / "hexmap-de-a4.pdf")


# --- the graph constraint -----------------------------------------------------------------


def test_a_correct_map_passes_its_graph_constraints(tmp_path):
    result = run("check", map_game(tmp_path))
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output or "no problems found" in result.output  # its 60 x 40 mm tiles fill A4: a warning on their marks


def test_a_one_way_neighbour_is_reported_at_the_entry(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "fields.yaml", "  neighbours: [gallia, mare]\n  shape: [[90", "  neighbours: [mare]\n  shape: [[90")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    where = at(folder / "fields.yaml", "alpes", "neighbours: [roma, alpes, mare]")
    assert (
        f"{where}: The map's neighbours must agree and hang together. ('gallia' lists 'alpes' as a neighbour but 'alpes' does not list 'gallia') [neighbours]"
        in result.output
    )
    assert len([line for line in result.output.splitlines() if "[neighbours]" in line]) == 1


def test_an_unreachable_field_is_named(tmp_path):
    islands = """\
- id: insula
  name: Insula
  kind: land
  neighbours: [thule]
  shape: [[112, 60], [118, 60], [118, 66]]
- id: thule
  name: Thule
  kind: land
  neighbours: [insula]
  shape: [[112, 70], [118, 70], [118, 76]]
"""
    folder = map_game(tmp_path, fields_yaml=FIELDS + islands)
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    where = at(folder / "fields.yaml", "[thule]")
    assert f"{where}: The map's neighbours must agree and hang together. (not reachable from 'roma': 'insula', 'thule') [neighbours]" in result.output


def test_a_coastal_field_without_sea_fails(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "fields.yaml", "  kind: land\n  neighbours: [roma, alpes, mare]", "  kind: land\n  coastal: true\n  neighbours: [roma, alpes]")
    edit(folder / "fields.yaml", "neighbours: [roma, gallia, alpes]", "neighbours: [roma, alpes]")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    where = at(folder / "fields.yaml", "[roma, alpes]")
    assert (
        f"{where}: field gallia is coastal but has no sea neighbour (none of the neighbours of 'gallia' satisfies kind == 'sea': roma, alpes) [coastal-needs-sea]"
        in result.output
    )
    assert "[neighbours]" not in result.output


def test_an_unknown_neighbour_gets_a_suggestion_once(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "fields.yaml", "neighbours: [roma, gallia, alpes]", "neighbours: [roma, galia, alpes]")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    where = at(folder / "fields.yaml", "galia", "[roma, galia, alpes]")
    hits = [line for line in result.output.splitlines() if "'galia'" in line]
    assert hits == [
        f"{folder / 'fields.yaml'}:{where.split(':', 1)[1]}: The map's neighbours must agree and hang together. "
        "('mare' lists 'galia' as a neighbour, which is not a field (did you mean 'gallia'?)) [neighbours]"
    ], result.output
    # gallia still lists mare, which no longer lists gallia back
    assert "'gallia' lists 'mare' as a neighbour but 'mare' does not list 'gallia'" in result.output


def test_a_graph_on_a_missing_field_is_an_error(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "rules.yaml", "graph: {neighbours: neighbours, symmetric", "graph: {neighbours: neighbors, symmetric")
    result = run("check", folder)
    assert result.exit_code == 1
    assert "[neighbours] graph neighbours names field 'neighbors', which type 'field' does not have (did you mean 'neighbours'?)" in result.output


# --- drawing the maps ---------------------------------------------------------------------


def paths(pdf: Path) -> list[dict]:
    """Every path drawn on the first page, in the card's own coordinates (points): its
    corners, whether it is closed, and the stroke width and colour it was painted with."""
    found, current, closed, width, colour = [], [], False, None, None
    for operands, op in operations(reader(pdf).pages[0]):
        if op == b"w":
            width = float(operands[0])
        elif op == b"RG":
            colour = tuple(round(float(v), 3) for v in operands)
        elif op == b"m":
            current, closed = [(float(operands[0]), float(operands[1]))], False
        elif op == b"l":
            current.append((float(operands[0]), float(operands[1])))
        elif op == b"h":
            closed = True
        elif op in (b"S", b"f", b"f*", b"B", b"B*") and current:
            found.append({"points": current, "closed": closed, "width": width, "colour": colour, "paint": op})
            current = []
    return found


def test_a_hex_map_builds_with_every_hex_and_its_label(tmp_path):
    out = tmp_path / "out"
    result = run("build", map_game(tmp_path), "--out", out, "--deck", "hexmap")
    assert result.exit_code == 0, result.output
    pdf = out / "mare" / "hexmap-en-a4.pdf"
    words = text(pdf)
    for label in ("Summit", "Meadow", "Grove", "Field", "Lake", "Wood", "Farm"):
        assert label in words
    hexes = [p for p in paths(pdf) if p["closed"] and len(p["points"]) == 6]
    assert len(hexes) == 7
    # pointy hexes of 12 mm: every side 12 mm long, and the middle one centred on the origin
    for hexagon in hexes:
        ring = hexagon["points"] + hexagon["points"][:1]
        sides = [((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 / MM for (x0, y0), (x1, y1) in zip(ring, ring[1:])]
        assert all(abs(side - 12) < 0.01 for side in sides)
    centres = sorted((round(sum(x for x, _ in h["points"]) / 6 / MM, 2), round(sum(y for _, y in h["points"]) / 6 / MM, 2)) for h in hexes)
    assert (45.0, 45.0) in centres  # hex (0, 0) at origin [45, 45] (y measured up from the bottom of the 90 mm face: also 45)


def test_neighbouring_hexes_share_their_sides(tmp_path):
    """No gaps: in each offset layout, horizontal (or vertical) neighbours have two corners in common."""
    from pnp.layout.elements.hexgrid import hex_centre, hex_corners, to_axial

    for coords, orientation in (("odd-r", "pointy"), ("even-r", "pointy"), ("odd-q", "flat"), ("even-q", "flat"), ("axial", "pointy")):
        corners = {}
        for col in range(4):
            for row in range(4):
                centre = hex_centre(*to_axial(col, row, coords), 10, orientation, (0, 0))
                corners[col, row] = {(round(x, 6), round(y, 6)) for x, y in hex_corners(centre, 10, orientation)}
        shared = sum(len(corners[a] & corners[b]) == 2 for a in corners for b in corners if a < b)
        touching = sum(len(corners[a] & corners[b]) > 0 for a in corners for b in corners if a < b)
        assert shared == touching == 33 if coords != "axial" else shared == touching, coords


def test_a_square_grid_tile_builds_its_cells(tmp_path):
    out = tmp_path / "out"
    result = run("build", map_game(tmp_path), "--out", out, "--deck", "tiles")
    assert result.exit_code == 0, result.output
    words = text(out / "mare" / "tiles-en-a4.pdf")
    for label in ("Plains 2", "Plains 3", "Forest 1", "Hills 4", "Water 0", "Plains 5"):
        assert label in words
    cells = [operands for operands, op in operations(reader(out / "mare" / "tiles-en-a4.pdf").pages[0]) if op == b"re"]
    sizes = sorted({(round(float(w) / MM, 2), round(float(h) / MM, 2)) for _, _, w, h in cells})
    assert (20.0, 20.0) in sizes  # 3 columns in 60 mm, 2 rows in 40 mm
    assert sum((round(float(w) / MM, 2), round(float(h) / MM, 2)) == (20.0, 20.0) for _, _, w, h in cells) == 6


def test_a_ragged_grid_is_an_error(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "tiles.yaml", "    - {terrain: plains, yield: 5}\n", "")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    assert f"{at(folder / 'tiles.yaml', '{terrain: water')}: card 'farmland' (front, layout 'tile'): grid 'squares' has 5 cells" in result.output
    assert "which leave the last row with 2 of 3; expected a multiple of 3 cells [grid-ragged]" in result.output


def test_a_label_that_does_not_fit_its_hex_is_an_error_at_its_row(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "layouts/hexmap.yaml", "size: 12", "size: 6")
    edit(folder / "hexmap.yaml", "label: Meadow", "label: The Long Meadows of the Seven Shepherds")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    assert (
        f"{at(folder / 'hexmap.yaml', '{q: 1, r: 0')}: card 'isle' (front, layout 'hexmap'): label 'The Long Meadows of the Seven Shepherds' of the hex at q=1, r=0 of 'hexes' "
        "does not fit its 9.4 x 5.0 mm box even at 5 pt (it needs 8.5 mm of height); expected a shorter label, a smaller style or larger cells [text-overflow]"
    ) in result.output


def test_the_area_map_draws_fields_labels_and_borders_on_their_shared_edges(tmp_path):
    out = tmp_path / "out"
    result = run("build", map_game(tmp_path), "--out", out, "--deck", "map")
    assert result.exit_code == 0, result.output
    pdf = out / "mare" / "map-en-a4.pdf"
    assert all(name in text(pdf) for name in ("Roma", "Gallia", "Alpes", "Mare Internum"))
    drawn = paths(pdf)
    assert len([p for p in drawn if p["closed"] and p["paint"] == b"B*"]) == 4  # four fields, filled and outlined
    borders = [p for p in drawn if not p["closed"] and p["width"] > 1]  # not the ruler

    def mm_points(p):  # back to layout millimetres: y from the top of the 80 mm face
        return [(round(x / MM, 2), round(80 - y / MM, 2)) for x, y in p["points"]]

    assert [(mm_points(p), p["width"]) for p in borders] == [([(50, 10), (50, 40)], 2), ([(90, 10), (90, 40)], 3)]
    assert borders[0]["colour"] == (0.165, 0.435, 0.859)  # the river's #2a6fdb


def test_a_border_between_fields_that_share_no_edge_names_both(tmp_path):
    folder = map_game(tmp_path, borders_yaml=BORDERS + "- {id: far, between: [roma, alpes], kind: river}\n- {id: typo, between: [roma, galia], kind: river}\n")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    borders = folder / "borders.yaml"
    assert (
        f"{at(borders, '[roma, alpes]')}: card 'board' (front, layout 'map'): border 'far' runs between 'roma' and 'alpes', but their shapes share no edge; "
        "expected two fields whose shapes have two neighbouring corners in common [border-no-edge]"
    ) in result.output
    assert (
        f"{at(borders, 'galia')}: card 'board' (front, layout 'map'): border 'typo' runs along 'galia', which is not a field of deck 'fields' (did you mean 'gallia'?)"
        in result.output
    )


def test_an_area_label_that_does_not_fit_is_an_error(tmp_path):
    folder = map_game(tmp_path)
    edit(
        folder / "fields.yaml",
        "name: Alpes",
        "name: Alpes Maritimae, Cottiae, Poeninae, Graiae, Carnicae, Iuliae, Raeticae, Noricae, Dinaricae, Pannonicae, Transalpinae, Cisalpinae, Superiores et Inferiores",
    )
    edit(folder / "layouts/map.yaml", "map(attribute='name') | join(', ')", "map(attribute='id') | join(', ')")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    assert (
        "label 'Alpes Maritimae, Cottiae, Poeninae, Graiae, Carnicae, Iuliae, Raeticae, Noricae, Dinaricae, Pannonicae, Transalpinae, Cisalpinae, Superiores et Inferiores' of area 'alpes' does not fit its"
        in result.output
    )
    assert (
        "does not fit its 19.0 x 4.0 mm box even at 6 pt (it needs 22.9 mm of height); expected a shorter label, a smaller style or larger cells [text-overflow]"
        in result.output
    )
    assert f"{at(folder / 'fields.yaml', '[[90, 10]')}: card 'board'" in result.output


def test_map_element_mistakes_are_located(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "hexmap.yaml", "{q: 0, r: 1, terrain: plains, label: Farm}", "{q: 0, r: 0, terrain: plains, label: Farm}")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    assert (
        f"{at(folder / 'hexmap.yaml', '{q: 0, r: 0, terrain: plains')}: card 'isle' (front, layout 'hexmap'): rows 1 and 7 of 'hexes' are both the hex at q=0, r=0"
        in result.output
    )

    folder = map_game(tmp_path / "typo")
    edit(folder / "layouts/hexmap.yaml", "orientation: pointy", "orientaton: pointy")
    edit(folder / "layouts/tile.yaml", "field: squares", "field: square")
    result = run("check", folder)
    assert result.exit_code != 0
    assert f"{at(folder / 'layouts/hexmap.yaml', 'orientaton')}: unknown key 'orientaton' in 'hexgrid' (did you mean 'orientation'?)" in result.output
    edit(folder / "layouts/hexmap.yaml", "orientaton: pointy", "orientation: pointy")  # a layout that cannot be read hides the rest
    result = run("check", folder)
    assert result.exit_code == 1
    assert "grid field 'square' is not a table field of type 'tile' (did you mean 'squares'?); expected one of: squares [map-field]" in result.output


def test_layout_mistakes_of_map_elements_are_found_when_the_layout_is_read(tmp_path):
    folder = map_game(tmp_path)
    edit(folder / "layouts/hexmap.yaml", "size: 12", "size: 0")
    edit(folder / "layouts/hexmap.yaml", "style: small", "style: smal")
    edit(folder / "layouts/tile.yaml", "columns: 3", "columns: 0")
    result = run("check", folder)
    assert result.exit_code == 1, result.output
    hexmap, tile = folder / "layouts/hexmap.yaml", folder / "layouts/tile.yaml"
    assert f"{at(hexmap, '0', 'size: 0')}: hexgrid size is 0; expected the distance from a hex's centre to a corner in mm [hexgrid-size]" in result.output
    assert (
        f"{at(hexmap, 'smal', 'style: smal')}: hexgrid uses style 'smal', which is not defined (did you mean 'small'?); expected one of: small [style-missing]"
        in result.output
    )
    assert f"{at(tile, '0', 'columns: 0')}: grid has 0 columns; expected a whole number from 1 [grid-columns]" in result.output


# --- cells from a deck (a spreadsheet) -----------------------------------------------------------

HEX_CSV = """\
id,q,r,terrain,label
summit,0,0,hills,Summit
meadow,1,0,plains,Meadow
grove,1,-1,forest,Grove
lake,-1,0,water,Lake
"""


def csv_hex_game(tmp_path: Path, csv: str = HEX_CSV) -> Path:
    """The hex map with its hexes in a spreadsheet: a data-only deck, one component a hex."""
    rules = RULES.replace(
        "  tile:\n",
        "  hex:\n    fields:\n      q: {type: int}\n      r: {type: int}\n      terrain: {type: enum, enum: terrain}\n      label: {type: text}\n  tile:\n",
    )
    folder = map_game(
        tmp_path,
        game_yaml=GAME + "  cells: {type: hex, data: hexes.csv}\n",
        rules_yaml=rules,
        layouts__hexmap_yaml=HEX_LAYOUT.replace("field: hexes", "deck: cells").replace('"{{ hexes[0].label }} / {{ hexes[0].terrain.name }}"', '"{{ title }}"'),
    )
    (folder / "hexes.csv").write_text(csv, encoding="utf-8")
    return folder


def test_a_hex_map_can_take_its_hexes_from_a_spreadsheet(tmp_path):
    out = tmp_path / "out"
    result = run("build", csv_hex_game(tmp_path), "--out", out, "--deck", "hexmap")
    assert result.exit_code == 0, result.output
    pdf = out / "mare" / "hexmap-en-a4.pdf"
    words = text(pdf)
    assert all(label in words for label in ("Summit", "Meadow", "Grove", "Lake"))
    assert "Farm" not in words  # the table of the component is not read: the deck is
    assert len([p for p in paths(pdf) if p["closed"] and len(p["points"]) == 6]) == 4


def test_a_hex_twice_in_the_spreadsheet_is_reported_at_its_row(tmp_path):
    folder = csv_hex_game(tmp_path, HEX_CSV + "again,1,0,water,Again\n")
    result = run("check", folder)
    assert result.exit_code == 1
    assert "hexes.csv:6:" in result.output
    assert "rows 2 and 5 of deck 'cells' are both the hex at q=1, r=0; expected one row per hex [hexgrid-twice]" in result.output


def test_a_grid_takes_its_cells_from_a_field_or_a_deck_not_both(tmp_path):
    folder = map_game(tmp_path, layouts__hexmap_yaml=HEX_LAYOUT.replace("field: hexes", "field: hexes\n      deck: cells"))
    result = run("check", folder)
    assert result.exit_code == 1
    assert (
        "hexgrid has both 'field' and 'deck'; expected one: 'field' (a table field of the component) or 'deck' (one component per cell) [hexgrid-source]"
        in result.output
    )
