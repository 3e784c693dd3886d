#!/bin/sh
# The pictures of docs/layouts.md (docs/images/element-*.png): each card of this example
# game as `pnp export png` draws it (the PDF's own drawing), at 72 dpi, a few KB each.
# Run from the top folder of the checkout after changing the example or the drawing.
set -e
out=$(mktemp -d)
pnp export png docs/examples/elements --dpi 72 --out "$out"
for file in "$out"/elements/png-en/elements/*-front.png; do
  name=$(basename "$file" -front.png)
  cp "$file" "docs/images/element-$name.png"
done
rm -r "$out"
