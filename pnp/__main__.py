"""`python -m pnp` and the `pnp` command (pyproject.toml): `cli.run`, with the cycle
collector off while the modules are imported. The imports make many objects that the
collector tracks, and no garbage: the default collector would scan them again and again,
for nothing. `run` freezes them first thing, so the collector never looks at them."""

import gc

gc.disable()

from pnp.cli import run  # noqa: E402  (after the collector is off)

gc.enable()  # a process that only imports this (a worker of --jobs where processes are spawned) collects as usual

if __name__ == "__main__":
    run()
