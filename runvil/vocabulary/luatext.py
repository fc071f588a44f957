"""Lua strings (byte strings) to and from the text the Engine reports."""
from __future__ import annotations

from pylua.raw import to_lua_string


def text(value: str) -> str:
    """A Lua byte string as text for a message or an event; bytes that are
    not UTF-8 show as U+FFFD, so what a prompt logs never breaks the output."""
    return value.encode('latin-1').decode('utf-8', 'replace')


def lua(value: str) -> str:
    """Text as a Lua byte string."""
    return to_lua_string(value)
