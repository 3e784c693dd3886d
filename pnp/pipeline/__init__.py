"""`pnp build`: the stages run in order for every deck, language and rulebook (build),
each deck and tuck box drawn where its plan puts it (sheets), the rulebooks set in a
forked process meanwhile (rulebooks), with feedback while it runs (progress)."""
