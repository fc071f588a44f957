"""The run result: text made from the value a walked section returned.

A result is what Lua's ``..`` accepts: a string as it is, a number as
``tostring`` shows it (``8000000``, ``0.5``).  Any other value fails the run
with run error kind Lua.
"""
from __future__ import annotations

from pylua.raw import tostring_raw, type_name

from ..vocabulary.crossing import TEXT
from ..vocabulary.failure import lua_failure


def result_text(value) -> str:
    c = value.__class__
    if c is str:
        return TEXT.take(value)
    if c is int or c is float:
        return tostring_raw(value)
    raise lua_failure('cannot return a %s as a result; return a string or a number '
                      '(json.encode turns a table into text)' % type_name(value))
