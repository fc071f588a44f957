"""Python representations of Lua values.

nil is ``None``, booleans ``bool``, integers ``int`` (always inside the signed
64-bit range), floats ``float``, strings ``str`` with every code point below
256 (one per byte), tables ``LuaTable``, Lua functions plain Python generator
functions built by the translator, host functions ``Builtin`` /
``GenBuiltin``, userdata ``Userdata``, coroutines ``Coroutine``.
"""
from __future__ import annotations

from types import FunctionType

from .table import LuaTable


class Builtin:
    """A host function that never calls back into Lua: ``fn(*args) -> sequence``."""
    __slots__ = ('fn', 'name', '__weakref__')

    def __init__(self, fn, name):
        self.fn = fn
        self.name = name


class GenBuiltin:
    """A host function that may call Lua or suspend: ``yield from fn(*args)``
    returns the result sequence."""
    __slots__ = ('fn', 'name', '__weakref__')

    def __init__(self, fn, name):
        self.fn = fn
        self.name = name


class Userdata:
    """An opaque host object; Lua sees only its metatable."""
    __slots__ = ('meta', 'payload', '__weakref__')

    def __init__(self, payload=None, meta=None):
        self.payload = payload
        self.meta = meta


TYPE_NAMES = {
    type(None): 'nil', bool: 'boolean', int: 'number', float: 'number',
    str: 'string', LuaTable: 'table', FunctionType: 'function',
    Builtin: 'function', GenBuiltin: 'function', Userdata: 'userdata',
}


def type_name(v) -> str:
    return TYPE_NAMES[v.__class__]


def is_function(v) -> bool:
    c = v.__class__
    return c is FunctionType or c is Builtin or c is GenBuiltin
