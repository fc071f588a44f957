"""Argument checking for library functions, with Lua's messages.

Library functions declare their parameters with the default ``ABSENT`` so a
missing argument (``got no value``) can be told from an explicit nil.
"""
from __future__ import annotations

from ..runtime.frames import arg_error as _arg_error, helper_module
from ..runtime.numbers import float_to_int, str2number, tostr
from ..runtime.table import LuaTable
from ..runtime.values import type_name


class _Absent:
    __slots__ = ()

    def __repr__(self):
        return 'ABSENT'


ABSENT = _Absent()


helper_module(__file__)


def typename_of_arg(v) -> str:
    """The type name an argument error reports: ``__name`` for userdata/tables that have one."""
    if v is ABSENT:
        return 'no value'
    meta = getattr(v, 'meta', None)
    if meta is not None:
        name = meta.hash.get('__name')
        if name.__class__ is str:
            return name
    return type_name(v)


def arg_error(n: int, fname: str, extra: str):
    _arg_error(n, fname, extra)


def type_error(n: int, fname: str, expected: str, v):
    arg_error(n, fname, '%s expected, got %s' % (expected, typename_of_arg(v)))


def check_any(v, n, fname):
    if v is ABSENT:
        arg_error(n, fname, 'value expected')
    return v


def check_int(v, n, fname) -> int:
    c = v.__class__
    if c is int:
        return v
    if c is float:
        i = float_to_int(v)
        if i is None:
            arg_error(n, fname, 'number has no integer representation')
        return i
    if c is str:
        x = str2number(v)
        if x is not None:
            return check_int(x, n, fname)
    type_error(n, fname, 'number', v)


def opt_int(v, n, fname, default):
    if v is None or v is ABSENT:
        return default
    return check_int(v, n, fname)


def check_num(v, n, fname):
    c = v.__class__
    if c is int or c is float:
        return v
    if c is str:
        x = str2number(v)
        if x is not None:
            return x
    type_error(n, fname, 'number', v)


def opt_num(v, n, fname, default):
    if v is None or v is ABSENT:
        return default
    return check_num(v, n, fname)


def check_str(v, n, fname) -> str:
    """A string argument; numbers are converted as Lua does."""
    c = v.__class__
    if c is str:
        return v
    if c is int or c is float:
        return tostr(v)
    type_error(n, fname, 'string', v)


def opt_str(v, n, fname, default):
    if v is None or v is ABSENT:
        return default
    return check_str(v, n, fname)


def check_table(v, n, fname) -> LuaTable:
    if v.__class__ is LuaTable:
        return v
    type_error(n, fname, 'table', v)


def to_bool(v) -> bool:
    return v is not None and v is not False and v is not ABSENT
