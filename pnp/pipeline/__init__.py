"""`pnp build`: the stages run in order for every deck, language and rulebook (build),
the rulebooks set in a forked process meanwhile (rulebooks), with feedback while it
runs (progress)."""
