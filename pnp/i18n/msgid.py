"""A catalogue message's id or text as gettext tools hand it over: a string, or for a
plural entry a tuple or list of forms. Compared and keyed one way everywhere."""

from __future__ import annotations


def comparable(value: object) -> object:
    """`value` with a list of forms as a tuple, so two messages compare by what they say."""
    return tuple(value) if isinstance(value, (tuple, list)) else value


def singular(msgid: object) -> str:
    """The singular form of a message id."""
    return msgid[0] if isinstance(msgid, (tuple, list)) else str(msgid)
