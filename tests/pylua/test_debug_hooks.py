"""debug.sethook's tracing belongs to one runtime's run: it never reaches
another runtime's code and does not outlive the run (the hooks' semantics
are conformance cases: conformance/lua/cases/stdlib/debug_*)."""
from __future__ import annotations

import sys

from pylua import LuaRuntime

COUNTING_HOOK = '''
calls = 0
debug.sethook(function () calls = calls + 1 end, "c")
local function f() return 1 end
f(); f()
'''


def test_a_hook_left_set_stops_tracing_when_the_run_ends():
    rt = LuaRuntime(profile='standalone')
    rt.execute(COUNTING_HOOK)
    assert rt.eval('calls') > 0
    len([])                     # any Python call after the run
    assert sys.gettrace() is None


def test_a_hook_lasts_across_runs_and_never_sees_another_runtimes_code():
    hooked = LuaRuntime(profile='standalone')
    hooked.execute(COUNTING_HOOK)
    before = hooked.eval('calls')       # this run's own chunk is one call
    other = LuaRuntime(profile='standalone')
    other.execute('local function g() return 2 end for i = 1, 10 do g() end')
    assert hooked.eval('calls') == before + 1
    assert other.eval('debug.gethook()') is None


def test_getinfo_of_a_level_walks_no_deeper_than_it():
    """``debug.getinfo(2)`` deep in a recursion (as assertion libraries
    call it for every check) walked the whole stack each time: 5 ms at
    depth 1,000 (lua5.4: 1 us).  The stack's base is still found where
    the level asked for is there (the host's C level, then nothing)."""
    import time
    rt = LuaRuntime(profile='standalone')
    started = time.process_time()
    result = rt.execute('''
        local function deep(n, f) if n == 0 then return f() end local a, b, c, d = deep(n - 1, f) return a, b, c, d end
        return deep(1000, function()
          local s = 0
          for i = 1, 2000 do s = s + debug.getinfo(2, 'l').currentline end
          return s, debug.getinfo(2, 'n').name, debug.getinfo(1002, 'S').what, debug.getinfo(1003)
        end)''')
    assert result == (4000, 'deep', 'C', None)
    assert time.process_time() - started < 2.0


def test_a_call_hook_sees_the_library_calls_the_translator_inlines():
    # assert, type, setmetatable, math.floor... have inline bodies; while a
    # hook is set they are called, so that a call hook sees them, and
    # inlined again once it is removed.
    rt = LuaRuntime(profile='standalone')
    src = '''
    local seen = {}
    local function names() local t = {} for k in pairs(seen) do t[#t + 1] = k end table.sort(t) return table.concat(t, " ") end
    local lib = {[assert] = "assert", [type] = "type", [setmetatable] = "setmetatable", [math.floor] = "floor"}
    local function work(x) assert(x) local _ = type(x) setmetatable({}, {}) return math.floor(x) end
    debug.sethook(function() local f = debug.getinfo(2, "f").func if lib[f] then seen[lib[f]] = true end end, "c")
    work(1.5)
    debug.sethook()
    return names()
    '''
    assert rt.execute(src) == 'assert floor setmetatable type'
    assert rt.vm.ns['ASSERT'] is rt.vm.globals.get('assert')
