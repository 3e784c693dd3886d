"""`python -m pnp` and the `pnp` command (pyproject.toml): `cli.run`, with the cycle
collector off while the modules are imported. The imports make some 20,000 objects that
the collector tracks, and no garbage: the default collector scans them again and again (a
few ms of every run). `run` then freezes them and sets the collector for the command."""

import gc

gc.disable()

from .cli import run  # noqa: E402  (after the collector is off)

if __name__ == "__main__":
    run()
