"""Shared support for the standard-library tests (math, table, utf8, string).

Tests call the library functions directly on a small fake VM (``FakeVM``) and
compare what they return with what the reference lua5.4 prints: ``show`` and
``tostring`` format results as ``print(pcall(...))`` does, ``lua_literal``
spells a test value as Lua source, and ``run_lua`` runs a script on lua5.4.
"""
import math
import re
import shutil
import subprocess

import pytest

from pylua.runtime import state
from pylua.runtime.errors import LuaError, LuaMemoryError
from pylua.runtime.numbers import fmt_float
from pylua.runtime.table import LuaTable
from pylua.runtime.values import Builtin

INF = math.inf
NAN = math.copysign(math.nan, -1.0)  # x86's default NaN, printed -nan (0/0 in Lua)
PNAN = math.copysign(math.nan, 1.0)  # printed nan (-(0/0) in Lua)
MININT = -(1 << 63)
MAXINT = (1 << 63) - 1
LUA = shutil.which('lua5.4')

needs_lua = pytest.mark.skipif(LUA is None, reason='lua5.4 not installed')


def string_metatable():
    """Strings' metatable, its __index standing in for the string library."""
    meta = LuaTable()
    meta.set('__index', LuaTable())
    return meta


class FakeVM:
    """The slice of the VM state a library uses: memory account, instruction
    count, nested calls into Lua, globals, strings' metatable and the other
    types' metatables, the running coroutine (none).

    ``ceiling`` (None: no ceiling) refuses a single allocation larger than it
    in ``check_alloc``; with ``charge_checks_ceiling`` ``charge`` also refuses
    once the total charged passes it, otherwise it only keeps the account.
    ``asked`` records every size ``check_alloc`` was asked about."""

    def __init__(self, ceiling=None, charge_checks_ceiling=True):
        self.debug_hooks = None       # no debug.sethook hooks
        self.ceiling = ceiling
        self.charge_checks_ceiling = charge_checks_ceiling
        self.charged = 0
        self.asked = []
        self.ticks = 0
        self.c_calls = 0
        self.coroutine = None         # the main thread runs
        self.globals = None
        self.string_meta = string_metatable()
        self.type_metas = {}
        self.c_calls = 0            # library calls into Lua now open
        self.no_yield = 0
        self.synchronous = 0

    def charge(self, n):
        self.charged += n
        if self.charge_checks_ceiling and self.ceiling is not None and self.charged > self.ceiling:
            raise LuaMemoryError('not enough memory')

    def check_alloc(self, n):
        self.asked.append(n)
        if self.ceiling is not None and n > self.ceiling:
            raise LuaMemoryError('not enough memory')

    def tickn(self, n):
        self.ticks += n

    def work(self, nbytes):
        self.ticks += nbytes // state.WORK_BYTES

    def count_call(self, f):
        self.ticks += 1 + len(f.__code__.co_code) // state.CODE_BYTES

    def produced(self, nbytes):
        self.work(nbytes)
        self.charge(nbytes)


@pytest.fixture(name='vm')
def current_vm():
    """The ``vm`` fixture (a test module imports ``current_vm`` to have it):
    a VM made current, as the runtime does while Lua runs (ops finds strings'
    metatable through it)."""
    vm = FakeVM()
    previous = state.set_current(vm)
    yield vm
    state.set_current(previous)


# ------------------------------------------------ results as lua5.4 prints them

def tostring(v):
    """Lua's tostring for a result; a table shows as ``table[`` its ``dump`` ``]``."""
    if v is None:
        return 'nil'
    if v is True or v is False:
        return 'true' if v else 'false'
    c = v.__class__
    if c is float:
        return fmt_float(v)
    if c is LuaTable:
        return 'table[%s]' % dump(v)
    return str(v)


def dump(t):
    """A table's integer keys in order, then its string keys, as k=v
    (a table value shows as just ``table``)."""
    if t.__class__ is not LuaTable:
        return ''
    pairs = list(t.items())
    ints = sorted(k for k, _ in pairs if k.__class__ is int)
    strs = sorted(k for k, _ in pairs if k.__class__ is str)
    values = [t.get(k) for k in ints + strs]
    return ','.join('%s=%s' % (k, 'table' if v.__class__ is LuaTable else tostring(v))
                    for k, v in zip(ints + strs, values))


def show(fn, *args):
    """What lua5.4 prints for ``print(pcall(fn, ...))``, without a position prefix."""
    try:
        results = fn(*args)
    except LuaError as e:
        return 'false\t' + e.value
    return '\t'.join(['true'] + [tostring(v) for v in results])


# The Lua side of ``show``: ``show(pcall(...))`` prints the same line.
LUA_SHOW = """local function show(ok, ...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  print((ok and "true" or "false") .. (t.n > 0 and "\\t" .. table.concat(t, "\\t", 1, t.n) or ""))
end
"""


def show_script(library, cases):
    """A Lua script printing, for each ``(fname, args, ...)`` case, the line
    ``show`` gives for ``library.fname(args...)``."""
    return LUA_SHOW + '\n'.join(
        'show(pcall(function() local r = table.pack(%s.%s(%s)) return table.unpack(r, 1, r.n) end))'
        % (library, fname, ', '.join(map(lua_literal, args))) for fname, args, *_ in cases)


# ------------------------------------------------------ test values as Lua source

LUA_SOURCE = {}


def fn(src, py):
    """A function value for tests: Python behaviour plus the same in Lua source."""
    b = Builtin(py, 'test')
    LUA_SOURCE[id(b)] = src
    return b


def lua_literal(v):
    """Lua source for a Python test value: nil, booleans, numbers, strings,
    functions made by ``fn`` and tables of those (with their metatable)."""
    if v is None or v is True or v is False:
        return {None: 'nil', True: 'true', False: 'false'}[v]
    c = v.__class__
    if c is int:
        return 'math.mininteger' if v == MININT else str(v)
    if c is float:
        if v != v:
            return '(0/0)' if math.copysign(1.0, v) < 0 else '(-(0/0))'
        if v in (INF, -INF):
            return 'math.huge' if v > 0 else '(-math.huge)'
        return repr(v)
    if c is str:
        return '"%s"' % ''.join(ch if 32 <= ord(ch) < 127 and ch not in '"\\' else '\\x%02x' % ord(ch)
                                for ch in v)
    if c is Builtin:
        return LUA_SOURCE[id(v)]
    fields = [lua_literal(x) for x in v.arr]
    fields += ['[%s]=%s' % (lua_literal(k), lua_literal(x)) for k, x in v.hash.items()]
    ctor = '{' + ', '.join(fields) + '}'
    return ctor if v.meta is None else 'setmetatable(%s, %s)' % (ctor, lua_literal(v.meta))


def run_lua(src, strip_positions=True):
    """lua5.4's output lines for the script ``src``; with ``strip_positions``
    a ``false`` line loses its message's ``chunk:line:`` prefix."""
    out = subprocess.run([LUA, '-'], input=src, capture_output=True, text=True,
                         encoding='latin-1', check=True).stdout
    if not strip_positions:
        return out.splitlines()
    return [re.sub(r'^false\t[^\t]*?:\d+: ', 'false\t', line) for line in out.splitlines()]
