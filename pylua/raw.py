"""The raw embedding API: Lua values as pylua represents them, for embedders
that build host libraries (userdata with metatables, functions that call Lua
or suspend it).  See docs/pylua-api.md and docs/library-conventions.md.

Lua strings here are byte strings: Python ``str`` with code points < 256.
"""
from .api import Effect, to_lua_string
from .library.args import (ABSENT, arg_error, check_int, check_num, check_str, check_table,
                           opt_int, opt_str, type_error)
from .runtime import state
from .runtime.frames import level_position as where, rt_error
from .runtime.ops import (adjust, call, call_noyield, getmeta, index, metamethod, raw_equal,
                          setindex, tostring, tostring_raw)
from .runtime.numbers import fmt_float, str2number, tostr
from .runtime.table import LuaTable
from .runtime.values import Builtin, GenBuiltin, Userdata, is_function, type_name


def charge(nbytes):
    """Account about ``nbytes`` of Lua values a host function just built
    (a long string, a decoded table) against the running VM's memory
    ceiling; raises ``LuaMemoryError`` when the live heap passes it.  Call it
    from a host function while Lua runs."""
    state.running.vm.charge(nbytes)


def from_lua_string(s, encoding='utf-8'):
    """A Lua byte string as Python text (invalid bytes become surrogate escapes)."""
    return s.encode('latin-1').decode(encoding, 'surrogateescape')


__all__ = ['Effect', 'charge', 'to_lua_string', 'from_lua_string', 'ABSENT', 'arg_error', 'check_int',
           'check_num', 'check_str', 'check_table', 'opt_int', 'opt_str', 'type_error',
           'rt_error', 'where', 'adjust', 'call', 'call_noyield', 'getmeta', 'index',
           'metamethod', 'raw_equal', 'setindex', 'tostring', 'tostring_raw', 'fmt_float',
           'str2number', 'tostr', 'LuaTable', 'Builtin', 'GenBuiltin', 'Userdata',
           'is_function', 'type_name']
