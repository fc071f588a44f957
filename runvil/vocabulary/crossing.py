"""How values cross between Lua and runvil, by kind.

A Lua string is bytes (``luatext``); what runvil checks, reports and sends
is text.  Each kind says how one value crosses: ``take`` turns a Lua value
into what runvil works with, ``give`` turns runvil's value into a Lua
value.  Engine functions declare the kind of each argument and result
(``functions``), so the binding converts at the boundary and the functions
themselves see and return ``str`` text and plain data; the few values that
cross elsewhere (a global the VM installs, a value read from a Lua table, the
arguments of a Lua function the Engine calls) name their kind here too.

A kind converts strings only: every other value crosses as it is, so a
function's own type checks (``value.__class__ is str``, ``bad_argument``)
read the same after the crossing and keep their messages and order.
"""
from __future__ import annotations

from pylua.raw import LuaTable, charge

from .charged import STRING_BYTES, lua_size
from .failure import lua_failure
from .luatext import lua, raw_bytes, text, utf8


class Kind:
    """A Lua value, as it is: a table, a function, a handle, a Lua string
    passed on to Lua unread."""

    def take(self, value):
        return value

    def give(self, value):
        return value


class Text(Kind):
    """A string as text (bytes that are not UTF-8 show as U+FFFD); text
    given to Lua becomes a Lua string."""

    def take(self, value):
        return text(value) if value.__class__ is str else value

    def give(self, value):
        return lua(value) if value.__class__ is str else value


class ChargedText(Text):
    """Text the Engine built for Lua out of Harness answers or stored data,
    charged to the memory ceiling as it is given (in the terms of
    ``charged``)."""

    def give(self, value):
        if value.__class__ is not str:
            return value
        charge(STRING_BYTES + len(value))
        return lua(value)


class ChargedTexts(Kind):
    """A list of texts, given as a charged sequence of Lua strings."""

    def give(self, value):
        if value.__class__ is not list:
            return value
        charge(lua_size(value))
        return LuaTable([lua(item) for item in value])


class Utf8(Text):
    """A string that must be UTF-8 text.  One that is not is refused with
    ``refusal`` (an error value of kind lua); with no refusal, it is taken
    as None for the caller to refuse in its own terms.  Given as ``Text``."""

    def __init__(self, refusal: str | None = None):
        self.refusal = refusal

    def take(self, value):
        if value.__class__ is not str:
            return value
        decoded = utf8(value)
        if decoded is None and self.refusal is not None:
            raise lua_failure(self.refusal)
        return decoded


class Bytes(Kind):
    """A string as its bytes, for a function that measures or decodes them
    itself (only ever taken)."""

    def take(self, value):
        return raw_bytes(value) if value.__class__ is str else value


VALUE = Kind()
TEXT = Text()
CHARGED_TEXT = ChargedText()
CHARGED_TEXTS = ChargedTexts()
UTF8 = Utf8()
BYTES = Bytes()
