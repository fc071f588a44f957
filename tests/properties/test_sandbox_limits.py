"""Properties of pylua's sandbox limits: memory ceilings, cancel, stack depth.

Each property runs generated Lua under a fresh runtime and asserts only on
the kind of outcome, so the suite reads as a recipe for testing sandbox
limits of an embedded interpreter.
"""
import resource
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.cancel_latency import cancel_latency
from pylua import LuaError, LuaInterrupt, LuaMemoryError, LuaRuntime

# Latencies measured here are pylua's, not a full collection of the suite's heap.
pytestmark = pytest.mark.usefixtures('suite_heap_frozen')

MiB = 1024 * 1024

# ---------------------------------------------------------------- programs
# Allocation-heavy programs parameterised by sizes; each keeps what it builds.
KEEPING = [
    'local keep = {{}} for i = 1, {n} do keep[i] = string.rep("x", {size}) .. i end return #keep',
    'local keep = {{}} for i = 1, {n} do keep[i] = {{i, i + 1, tostring(i)}} end return #keep',
    'local s = "" for i = 1, {n} do s = s .. string.rep("y", {size} // 8) end return #s',
    'local t = {{}} for i = 1, {n} do t[#t + 1] = table.concat({{"a", "b", i}}, ",") end return #t',
    'local t = {{}} for i = 1, {n} do t["k" .. i] = string.rep("z", {size} // 4) end return 1',
]
# Garbage-heavy programs: they build and drop, keeping only a little.
DROPPING = [
    'local n = 0 for i = 1, {n} do local s = string.rep("x", {size}) n = n + #s end return n',
    'local n = 0 for i = 1, {n} do local t = {{}} for j = 1, 50 do t[j] = j end n = n + #t end return n',
    'local s for i = 1, {n} do s = string.rep("q", {size}) .. i end return #s',
]


def fresh(ceiling):
    return LuaRuntime(max_memory=ceiling)


def rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@given(program=st.sampled_from(KEEPING), n=st.integers(1, 4000), size=st.integers(1, 64 * 1024),
       ceiling_mib=st.integers(1, 16))
def test_kept_allocations_finish_under_the_ceiling_or_fail_with_memory(program, n, size, ceiling_mib):
    rt = fresh(ceiling_mib * MiB)
    try:
        rt.execute(program.format(n=n, size=size))
    except LuaMemoryError as e:
        assert 'not enough memory' in str(e)
        return
    assert rt.memory_used() <= ceiling_mib * MiB


@given(program=st.sampled_from(DROPPING), n=st.integers(1, 300), size=st.integers(1024, 256 * 1024))
def test_garbage_never_counts_against_the_ceiling(program, n, size):
    # The live size of these programs is at most a few of their strings; a
    # ceiling of a few MiB must never be hit however much they churn.
    rt = fresh(4 * MiB)
    rt.execute(program.format(n=n, size=size))


def test_a_megabyte_built_and_dropped_ten_thousand_times_never_fails():
    rt = fresh(64 * MiB)
    assert rt.execute('local n = 0 for i = 1, 10000 do local s = string.rep("x", 2^20) '
                      'n = n + #s end return n') == 10000 * MiB


def test_keeping_megabytes_fails_with_memory_and_the_runtime_recovers():
    rt = fresh(64 * MiB)
    before = rss_mib()
    with pytest.raises(LuaMemoryError):
        rt.execute('keep = {} for i = 1, 1000 do keep[i] = string.rep("x", 2^20) .. i end')
    # The process grew by at most the ceiling plus a bounded overhead.
    assert rss_mib() - before < 64 + 96
    rt.execute('keep = nil')
    assert rt.execute('local t = {} for i = 1, 10 do t[i] = string.rep("x", 2^20) .. i end return #t') == 10


@pytest.mark.parametrize('src', [
    "return string.rep('x', 2^40)",
    "return ('x'):rep(1e9)",
    "return string.rep('ab', 2^31, ',')",
    "local t = {} for i = 1, 3e6 do t[i] = 'v' end return table.concat(t, string.rep('-', 1000))",
])
def test_single_oversized_requests_fail_before_any_work(src):
    rt = fresh(64 * MiB)
    # The process's CPU time (the Lua thread's, this process running nothing
    # else): wall time on a loaded machine is several times longer.
    start = time.process_time()
    with pytest.raises(LuaMemoryError):
        rt.execute(src)
    assert time.process_time() - start < 20


def test_memory_error_is_catchable_by_pcall():
    rt = fresh(8 * MiB)
    ok, msg = rt.execute('return pcall(string.rep, "x", 2^30)')
    assert ok is False and 'not enough memory' in msg


# ------------------------------------------------------------------ cancel
LOOPS = [
    'while true do end',
    'local i = 0 repeat i = i + 1 until false',
    'for i = 1, math.maxinteger do end',
    'for i = 1, math.huge do local x = i * 2.5 end',
    'local function f(n) return f(n + 1) + 1 end while true do pcall(f, 1) end',
    'local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end return fib(60)',
    'while true do local co = coroutine.wrap(function() while true do coroutine.yield() end end) '
    'for i = 1, 100 do co() end end',
    'local t = setmetatable({}, {__index = function(t, k) return k end}) while true do local x = t.x end',
    'while true do local s = ("x"):rep(100):gsub("x", "y") end',
    'while true do for k, v in pairs({1, 2, 3, a = 1}) do end end',
    'goto top ::top:: do goto top end',
]


@given(src=st.sampled_from(LOOPS), delay=st.floats(0.0, 0.05))
def test_cancel_always_stops_runaway_programs(src, delay):
    stop = cancel_latency(src, delay)
    assert stop.end == 'interrupted'
    # Stops within the check interval: well under a second after the cancel,
    # in the Lua thread's CPU time when known (a loaded machine stretches
    # wall time several times), else in wall time.
    assert stop.spent < 1.0


def test_cancel_is_seen_inside_pcall_and_xpcall_and_handlers_do_not_run():
    rt = LuaRuntime()
    rt.execute('handled = false')
    threading.Timer(0.05, rt.cancel).start()
    with pytest.raises(LuaInterrupt):
        rt.execute('xpcall(function() while true do end end, function() handled = true end)')
    rt.reset_cancel()
    assert rt.execute('return handled') is False


# ------------------------------------------------------------------ stack
def test_deep_recursion_works_and_deeper_is_stack_overflow():
    rt = LuaRuntime()
    assert rt.execute('local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end '
                      'return f(50000)') == 50000
    for src in ['local function f() return 1 + f() end f()',
                'local t = setmetatable({}, {__index = function(t, k) return t[k] end}) return t.x',
                'local co = coroutine.wrap(function() local function f() return 1 + f() end return f() end) co()']:
        with pytest.raises(LuaError) as e:
            rt.execute(src)
        assert 'stack overflow' in str(e.value)
