"""Rulebooks: Markdown in the game folder, checked against the game's data and typeset
with contents, index and pictures of cards (books.py runs it all for one language)."""
