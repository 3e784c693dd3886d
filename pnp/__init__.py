"""pnp: print-and-play cards, boards and rulebooks from one YAML source."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from importlib.machinery import ModuleSpec
from types import ModuleType

__version__ = "0.1.0"


class _LoadedWhenUsed(ModuleType):
    """A stand-in for an installed module, in `sys.modules` until one of its names is
    first asked for: then the module is imported and the name given from it (and every
    name after, to whoever kept the stand-in).

    Why: reportlab imports uharfbuzz (the scripts extra) as its TrueType module is
    imported, for shaping it offers, and loading HarfBuzz's library is a good part of
    starting pnp; reportlab only looks whether the module is there, and pnp shapes only a
    text that needs it (assets/shaping.py). importlib's LazyLoader would not do: Python
    3.11 reads the module's `__spec__` on every `import` of it, which loads it; a stand-in
    answers `__spec__` itself."""

    def __init__(self, spec: ModuleSpec):
        super().__init__(spec.name)
        self.__spec__ = spec

    def __getattr__(self, name: str) -> object:
        if sys.modules.get(self.__name__) is self:
            sys.modules.pop(self.__name__)
        return getattr(importlib.import_module(self.__name__), name)


def _load_when_used(name: str) -> None:
    """Put a stand-in for `name` in `sys.modules`, when it is installed and not imported yet."""
    if name not in sys.modules and (spec := importlib.util.find_spec(name)) is not None:
        sys.modules.setdefault(name, _LoadedWhenUsed(spec))


_load_when_used("uharfbuzz")  # before any pnp module imports reportlab
