"""Sampling options: the table ``models.use(role, options)`` takes, checked
and turned into the fields of each request the section's rounds send.

Every option is one of the common OpenAI chat-completion parameters, sent
under its own name, except ``thinking``, which is sent as OpenAI's
``reasoning_effort`` (``true`` asks for ``medium``; ``false`` sends nothing,
so the model's own default applies).
"""
from __future__ import annotations

import math

from pylua.raw import LuaTable, tostring_raw, type_name

from ..vocabulary.crossing import TEXT
from ..vocabulary.failure import lua_failure

THINKING_EFFORTS = ('low', 'medium', 'high')


def _number(low, high):
    def check(value):
        if value.__class__ in (int, float) and math.isfinite(value) and low <= value <= high:
            return value
        return None
    return check, 'a number from %s to %s' % (low, high)


def _whole(low=None):
    def check(value):
        if value.__class__ is float and value.is_integer():
            value = int(value)
        return value if value.__class__ is int and (low is None or value >= low) else None
    return check, 'a whole number' if low is None else 'a whole number of at least %d' % low


def _stop():
    def check(value):
        if value.__class__ is str:
            return TEXT.take(value)
        if value.__class__ is not LuaTable:
            return None
        items = [value.get(n) for n in range(1, value.length() + 1)]
        if not 1 <= len(items) <= 4 or len(items) != sum(1 for _ in value.items()):
            return None
        if any(item.__class__ is not str for item in items):
            return None
        return [TEXT.take(item) for item in items]
    return check, 'a string or an array of 1 to 4 strings'


def _thinking():
    def check(value):
        if value is True:
            return 'medium'
        if value is False:
            return False
        effort = TEXT.take(value) if value.__class__ is str else None
        return effort if effort in THINKING_EFFORTS else None
    return check, "true, false, 'low', 'medium' or 'high'"


OPTIONS = {
    'frequency_penalty': _number(-2, 2),
    'max_tokens': _whole(1),
    'presence_penalty': _number(-2, 2),
    'seed': _whole(),
    'stop': _stop(),
    'temperature': _number(0, 2),
    'thinking': _thinking(),
    'top_p': _number(0, 1),
}
_SENT_AS = {'thinking': 'reasoning_effort'}


def request_fields(options) -> dict:
    """The request fields an options table asks for (``options`` is a Lua
    table, or None for no options); a bad option raises a lua failure."""
    fields = {}
    if options is None:
        return fields
    for key, value in options.items():
        name = TEXT.take(key) if key.__class__ is str else None
        if name not in OPTIONS:
            shown = name if name is not None else tostring_raw(key) if key.__class__ in (int, float) else type_name(key)
            raise lua_failure('unknown model option `%s`; known options: %s' % (shown, ', '.join(OPTIONS)))
        check, expected = OPTIONS[name]
        checked = check(value)
        if checked is None:
            raise lua_failure('model option `%s` must be %s, got %s' % (name, expected, _shown(value)))
        if checked is not False:
            fields[_SENT_AS.get(name, name)] = checked
    return fields


def _shown(value) -> str:
    if value.__class__ is str:
        return '"%s"' % TEXT.take(value)
    if value.__class__ in (int, float, bool):
        return tostring_raw(value)
    return type_name(value)
