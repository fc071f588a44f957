"""Python representations of Lua values.

nil is ``None``, booleans ``bool``, integers ``int`` (always inside the signed
64-bit range), floats ``float``, strings ``str`` with every code point below
256 (one per byte), tables ``LuaTable``, Lua functions plain Python generator
functions built by the translator, host functions ``Builtin`` /
``GenBuiltin``, userdata ``Userdata``, coroutines ``Coroutine``.
"""
from __future__ import annotations

from types import FunctionType

from .frames import transparent
from .table import LuaTable

transparent(__file__)


class NeedsLua(Exception):
    """Raised by a Builtin's fast function, before changing anything, when the
    call needs its generator form (to run metamethods or other Lua code)."""


NEEDS_LUA = NeedsLua()


class Suspended(NeedsLua):
    """Raised by a hybrid function whose generator suspended (a yield or a host
    effect): the caller takes over the started generator and passes the value up."""

    def __init__(self, generator, value):
        super().__init__()
        self.generator = generator
        self.value = value


def always_suspends(genfn):
    """Mark generator function ``genfn`` as one that suspends on every call
    (``coroutine.yield``): as a hybrid, each call would start it, catch the
    suspension and hand it over, so it stays a ``GenBuiltin``."""
    genfn.always_suspends = True
    return genfn


def hybrid(genfn, name):
    """A Builtin running generator function ``genfn`` directly, so a call that
    never suspends costs one generator instead of a delegation chain."""
    def run(*args):
        g = genfn(*args)
        try:
            y = g.send(None)
        except StopIteration as stop:
            return stop.value
        raise Suspended(g, y)
    return Builtin(run, name, gen=genfn)


class Builtin:
    """A host function: ``fn(*args) -> sequence`` of results.  It may also have
    a generator form ``gen``, used when ``fn`` raises ``NeedsLua``."""
    __slots__ = ('fn', 'name', 'gen', 'anchor', '__weakref__')

    def __init__(self, fn, name, gen=None):
        self.fn = fn
        self.name = name
        self.gen = gen


class GenBuiltin:
    """A host function that may call Lua or suspend: ``yield from fn(*args)``
    returns the result sequence."""
    __slots__ = ('fn', 'name', 'anchor', '__weakref__')

    def __init__(self, fn, name):
        self.fn = fn
        self.name = name


class Userdata:
    """An opaque host object; Lua sees only its metatable.  A payload with a
    ``lua_memory_size()`` method has that many bytes counted against the
    runtime's memory ceiling whenever the live heap is measured."""
    __slots__ = ('meta', 'payload', 'guard', 'anchor', '__weakref__')

    def __init__(self, payload=None, meta=None):
        self.payload = payload
        self.meta = meta
        self.guard = None
        self.anchor = None


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
