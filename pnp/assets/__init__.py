"""What a game draws with besides its data: fonts (with the check for missing glyphs),
SVG symbols and images, each read once, found inside the game folder only."""
