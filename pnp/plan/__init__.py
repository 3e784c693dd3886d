"""Stage 4, impose, decided before anything is drawn: how each print unit (a deck, or a
group's decks on shared sheets) goes on paper (sheets: grid, fold, sizes, shared sheets,
pieces) and each tuck box (tuckboxes), as plain values, with the file each goes to and the
`sheet-*` problems of putting it there; the whole game's plan (game), which `pnp check`
reports and the writers follow. Nothing here lays out a face or draws."""
