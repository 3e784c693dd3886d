"""Stage 2, check: everything `pnp check` reports and `pnp build` checks before it draws,
run in one order by `run`: the game's own rules (rules), layouts, card texts, tuck boxes,
the glossary, the rulebooks and what `pnp new` left to fill in."""
