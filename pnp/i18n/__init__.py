"""Translations: every translatable string of a game with a stable id, in the gettext
catalogues translators' tools read (catalogues), written back as the translator left
them (pofile, the one home of babel's internals), and pnp's own words in the build's
language (own)."""
