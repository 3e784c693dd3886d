"""A game ready for the later stages: loaded with its fonts, symbols and layouts
(project), made once per language (edition), and what a build is asked for (options)."""
