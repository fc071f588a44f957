"""The string metatable's arithmetic metamethods (lstrlib's ``stringmetamethods``):
Lua 5.4 does arithmetic on strings through them, so a numeric string is
converted there and an error raised inside carries no position, as in Lua
(``"4" // "0"`` fails with ``attempt to divide by zero``)."""
from __future__ import annotations

from ..runtime import ops
from ..runtime.frames import rt_error
from ..runtime.values import NEEDS_LUA, GenBuiltin, type_name

_OPERATIONS = ('add', 'sub', 'mul', 'mod', 'pow', 'div', 'idiv', 'unm')


# Where arith_num raises (an integer division by zero): left to the
# generator form, whose frame the error's traceback names.
_MAY_RAISE = ('mod', 'idiv')


def _metamethod(op):
    event = '__' + op
    may_raise = op in _MAY_RAISE

    def plain(a=None, b=None, *_):
        # Two numeric strings (or a string and a number): the arithmetic at
        # once; anything else needs the other operand's metamethod or an error.
        x = ops.tonumber(a)
        y = ops.tonumber(b)
        if x is None or y is None or (may_raise and y == 0):
            raise NEEDS_LUA
        return (ops.arith_num(op, x, y),)

    def arith(a=None, b=None, *_):
        x = ops.tonumber(a)
        y = ops.tonumber(b)
        if x is not None and y is not None:
            return (ops.arith_num(op, x, y),)
        # trymt: the other operand's metamethod, unless it is a string too.
        h = ops.metamethod(b, event) if b.__class__ is not str else None
        if h is None:
            # luaL_typename: the basic type, whatever a metatable's __name says.
            rt_error("attempt to %s a '%s' with a '%s'" % (op, type_name(a), type_name(b)))
        r = yield from ops.nested_call(h, (a, b))
        return (r[0] if r else None,)
    arith.plain = plain         # ops.arith_plainly's way round the generator
    return GenBuiltin(arith, event)


def install(string_meta):
    for op in _OPERATIONS:
        string_meta.set_str('__' + op, _metamethod(op))
