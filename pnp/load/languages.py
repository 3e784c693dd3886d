"""Which language codes a game may be written or translated in: gettext locale names that
babel has data for (their plural rules and hyphenation can be had)."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from pnp.load.model import LANGUAGE


@cache
def _babel_data() -> Path:
    """The folder of babel's locale data (LANG.dat), found without importing babel."""
    spec = importlib.util.find_spec("babel")
    assert spec is not None and spec.origin is not None, "babel is a dependency"
    return Path(spec.origin).parent / "locale-data"


def known_language(lang: str) -> bool:
    """A gettext locale name (it becomes a file name, LANG.po) that babel knows, so that
    its plural rule and hyphenation can be had. A name babel has data for under that very
    name is known without importing babel, for speed: a game without translations needs
    none of it; another one (an alias, likely subtags) is looked up by babel."""
    if not isinstance(lang, str) or LANGUAGE.fullmatch(lang) is None:
        return False
    if (_babel_data() / f"{lang}.dat").is_file():
        return True
    from babel import Locale, UnknownLocaleError  # here for speed, as above

    try:
        return Locale.parse(lang) is not None
    except (ValueError, TypeError, UnknownLocaleError):
        return False
