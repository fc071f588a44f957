"""The memory ceiling against every allocator, measured as the process's
resident memory: a program that keeps what it allocates fails with the
memory error before the process grows past ``FACTOR`` times the ceiling.

Each measurement runs in a fresh Python process (resident memory is a
high-water mark), after a warm-up, so the growth counts Python's own object
overhead and the allocator's slack honestly.
"""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.hostile_programs import ALLOCATORS
from benchmarks.memory_overshoot import FACTOR, expected_end, measure


def test_representative_allocators_stay_within_the_factor():
    names = ['integers in an array', 'string keys by t[k] = v', 'suspended coroutines', 'gmatch iterators',
             'chunks of code loaded', 'one oversized chunk', 'loaded chunks dropped']
    result = measure([ALLOCATORS[n] for n in names], 8)
    assert result['ends'] == [expected_end(n) for n in names]
    assert result['factor'] <= FACTOR


# Every allocator under the thorough profile; one drawn at random by default.
_EVERY = len(ALLOCATORS) if settings().max_examples >= 100 else 1


@pytest.mark.slow
@settings(max_examples=_EVERY)
@given(name=st.sampled_from(sorted(ALLOCATORS)))
def test_every_allocator_stays_within_the_factor(name):
    result = measure([ALLOCATORS[name]], 16)
    assert result['ends'] == [expected_end(name)]
    assert result['factor'] <= FACTOR


def _tracked_frames():
    import gc
    import types
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) in (types.TracebackType, types.FrameType))


@pytest.mark.parametrize('call', ['tostring(a)', 'table.concat(a, ",", 1, 3)', 'string.format("%s", a)'])
def test_library_calls_handing_over_to_lua_keep_no_frames(call):
    """A library function whose fast form hands over to its generator form
    (a ``__tostring`` to run) leaves nothing behind: the frames of 5,000
    calls are not kept."""
    from pylua import LuaRuntime
    rt = LuaRuntime()
    src = ('local a = setmetatable({}, {__tostring = function() return "x" end, __index = function() return 1 end}) '
           'for i = 1, ... do local s = %s end' % call)
    rt.execute(src, 10)
    before = _tracked_frames()
    rt.execute(src, 5000)
    assert _tracked_frames() - before < 100


@pytest.mark.parametrize('ending', ['error("x")', 'while true do end'])
def test_a_runtime_dropped_after_its_run_failed_is_freed(ending):
    """Nothing of a run that ended in an error or a cancel outlives the
    runtime: the Lua thread that ran it holds no reference to its error."""
    import gc
    import threading
    import time
    import weakref
    from pylua import LuaError, LuaRuntime
    rt = LuaRuntime()
    vm = weakref.ref(rt.vm)
    timer = threading.Timer(0.2, rt.cancel)
    timer.start()
    try:
        rt.execute('local t = {} for i = 1, 1000 do t[i] = {} end ' + ending)
    except LuaError:
        pass
    timer.join()
    del rt, timer                 # the timer holds rt.cancel
    for _ in range(20):           # the Lua thread lets go just after handing the error back
        gc.collect()
        if vm() is None:
            break
        time.sleep(0.01)
    assert vm() is None


def test_the_compile_cache_keeps_a_bounded_amount_of_source():
    """Compiled chunks keep about two collector-tracked objects per source
    byte, walked by every full collection: the cache keeps at most
    ``_CACHE_BYTES`` of source, the latest first."""
    from pylua import LuaRuntime
    from pylua.compiler import pipeline
    rt = LuaRuntime()
    # Statements padded with a comment: the bytes the cache counts, without
    # the compile time of as many statements.
    rt.execute('line = "x = 1 -- " .. string.rep("c", 50) .. "\\n"')
    for i in range(8):
        rt.execute('local f = assert(load(string.rep(line, 400) .. "return %d"))' % i)
        assert sum(len(key[0]) for key in pipeline._CACHE) <= pipeline._CACHE_BYTES
    assert any(key[0].endswith('return 7') for key in pipeline._CACHE)
    rt.execute('local f = assert(load(string.rep(line, 2000)))')
    assert sum(len(key[0]) for key in pipeline._CACHE) <= pipeline._CACHE_BYTES
