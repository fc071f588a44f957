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
