"""Paper and pure sheet geometry in points: the papers pnp prints on (paper), grids,
crop and registration marks, duplex backs, folds and pieces (sheets), and the net of a
tuck box (tuckbox). Nothing here draws."""
