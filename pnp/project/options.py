"""What a build is asked for: the options of `pnp build` (and of the commands that build
some of it), apart from the code that builds, so every stage can be handed them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pnp.impose.sheets import SheetSpec


@dataclass(eq=False)
class BuildOptions:
    """What `pnp build` was asked for: paper and sheet, output folder, decks, deal and languages."""

    sheet: SheetSpec = field(default_factory=SheetSpec)
    out: Path = Path("output")
    decks: list[str] | None = None
    deal: str | None = None  # print only the components this deal uses
    langs: list[str] | None = None  # None: the source language; ["all"]: every language
    allow_untranslated: bool = False
    jobs: int = 1  # processes; each builds one deck in one language
    force: bool = False  # write even when the check finds errors
