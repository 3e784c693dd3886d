"""A catalogue message's id or text as gettext tools hand it over: a string, or for a
plural entry a tuple or list of forms. Compared and keyed one way everywhere."""

from __future__ import annotations

import re

_ESCAPE = re.compile(r"\\([\\\"ntr])")


def comparable(value: object) -> object:
    """`value` with a list of forms as a tuple, so two messages compare by what they say."""
    return tuple(value) if isinstance(value, (tuple, list)) else value


def singular(msgid: object) -> str:
    """The singular form of a message id."""
    return msgid[0] if isinstance(msgid, (tuple, list)) else str(msgid)


def unescape(text: str) -> str:
    """A quoted .po string's content as the text it stands for (the escapes gettext writes)."""
    return _ESCAPE.sub(lambda m: {"n": "\n", "t": "\t", "r": "\r"}.get(m.group(1), m.group(1)), text)
