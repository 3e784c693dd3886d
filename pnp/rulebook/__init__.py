"""Rulebooks: Markdown read, translated and filled in (source) into a typed document
(document), set with pnp's text engine (flow) into pages with contents and index
(writer), and imposed as a booklet (booklet)."""
