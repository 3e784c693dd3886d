"""Text files as the designer's editor saved them: UTF-8, perhaps with a byte order mark
(Notepad, Excel's "CSV UTF-8" and some Markdown editors write one). The mark is not text:
left in, it hides a rulebook's first heading (`\ufeff# Title` is no heading) and is a
character no font draws. Every text file pnp reads (CSV, Markdown, .po; YAML's parser
drops it itself) is decoded here."""

from __future__ import annotations

BOM = "\ufeff"


def utf8_text(data: bytes) -> str:
    """`data` decoded as UTF-8, without a leading byte order mark (UnicodeDecodeError when
    it is not UTF-8: the caller says where)."""
    return data.decode("utf-8").removeprefix(BOM)
