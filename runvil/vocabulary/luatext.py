"""Lua strings: the one place a Lua string becomes text and text a Lua string.

pylua holds a Lua string as a ``str`` whose every character is one byte
(U+0000..U+00FF): ``LuaString`` names that type.  Every conversion between
those bytes and the text runvil reports, checks or sends happens here:

* ``text(s)`` for what is shown (a message, an event, a model request):
  bytes that are not UTF-8 show as U+FFFD, so what a prompt logs never
  breaks the output;
* ``utf8(s)`` where a Lua string must be UTF-8 text (a log message, a
  ``var`` key, JSON data): the text, or None when it is not UTF-8, for the
  caller to refuse with its own message;
* ``raw_bytes(s)`` where the bytes themselves matter (a log message's
  size in bytes);
* ``lua(t)`` for text handed to Lua.

Nothing above the vocabulary calls these: values cross by their declared
kind (``crossing``), which calls them.
"""
from __future__ import annotations

from typing import NewType

from pylua.raw import to_lua_string

LuaString = NewType('LuaString', str)


def text(value: LuaString) -> str:
    """A Lua string as text for a message or an event (U+FFFD for bytes
    that are not UTF-8)."""
    return value.encode('latin-1').decode('utf-8', 'replace')


def utf8(value: LuaString) -> str | None:
    """A Lua string's UTF-8 text, or None when its bytes are not UTF-8."""
    try:
        return value.encode('latin-1').decode('utf-8')
    except UnicodeDecodeError:
        return None


def raw_bytes(value: LuaString) -> bytes:
    """A Lua string's bytes."""
    return value.encode('latin-1')


def lua(value: str) -> LuaString:
    """Text as a Lua string."""
    return to_lua_string(value)
