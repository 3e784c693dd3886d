"""pnp: print-and-play cards, boards and rulebooks from one YAML source."""

__version__ = "0.1.0"
