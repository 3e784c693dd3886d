"""The other outputs of a built game: PNG images (png), Tabletop Simulator (tts), print
shops' files (shop, with their specifications in shops, preflight and PDF/X in pdfx)."""
