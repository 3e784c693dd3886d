#!/bin/sh
# The pictures of docs/layouts.md and docs/typography.md, drawn from this example game as
# `pnp export png` draws it (the PDF's own drawing), at 72 dpi, a few KB each:
# - docs/images/element-*.png: each card in English, but the two below;
# - docs/images/mirror-en.png and mirror-he.png: the card 'mirror' in English and in the
#   Hebrew edition, mirrored (direction: {he: rtl}), and mirror-false-en.png and
#   mirror-false-he.png: the card 'compass', whose layout says mirror: false;
# - docs/images/script-he.png and script-ar.png: the card 'text' in Hebrew and in Arabic.
# The Hebrew and Arabic editions need pnp's 'scripts' extra. Run from the top folder of
# the checkout after changing the example or the drawing.
set -e
out=$(mktemp -d)
for lang in en he ar; do
  pnp export png docs/examples/elements --lang "$lang" --dpi 72 --out "$out" --quiet
done
cards="$out/elements/png-LANG/elements"
for file in "$out"/elements/png-en/elements/*-front.png; do
  name=$(basename "$file" -front.png)
  case $name in
    mirror | compass) ;;
    *) cp "$file" "docs/images/element-$name.png" ;;
  esac
done
for lang in en he; do
  from=$(echo "$cards" | sed "s/LANG/$lang/")
  cp "$from/mirror-front.png" "docs/images/mirror-$lang.png"
  cp "$from/compass-front.png" "docs/images/mirror-false-$lang.png"
done
for lang in he ar; do
  from=$(echo "$cards" | sed "s/LANG/$lang/")
  cp "$from/text-front.png" "docs/images/script-$lang.png"
done
rm -r "$out"
