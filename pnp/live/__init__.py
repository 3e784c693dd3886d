"""The designer's loop: file changes noticed (watch), what the watcher keeps between
builds so a save redraws only what it reaches (session), and the live preview (preview)
with its local server (serve, static/)."""
