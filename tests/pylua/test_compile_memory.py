"""What compiling holds and what compiled code keeps, against the memory
ceiling: each stage reserves its memory before it runs (``load`` reports a
refusal as lua_load does), and the heap's measure counts a live chunk's
compiled code at about what it keeps."""
import gc
import time
import tracemalloc

import pytest

from pylua import LuaMemoryError, LuaRuntime
from pylua.compiler import pipeline, pycompile
from pylua.runtime import memory

MiB = 1024 * 1024
CALLS = "print(i, 'x', t.y[1]) "


def _fresh(text):
    """Source no earlier test compiled (the compile cache would answer)."""
    return '%s -- %d %f' % (text, id(text), time.time())


def test_load_refuses_an_oversized_chunk_before_parsing_it():
    rt = LuaRuntime(max_memory=8 * MiB)
    started = time.process_time()
    r = rt.execute('local f, e = load(string.rep(..., 20000)) return f, e', CALLS)
    assert r == (None, 'not enough memory')
    assert time.process_time() - started < 1.0        # parsing 400 KB alone takes seconds


def test_the_api_raises_the_memory_error_for_an_oversized_chunk():
    rt = LuaRuntime(max_memory=8 * MiB)
    with pytest.raises(LuaMemoryError):
        rt.execute(_fresh(CALLS * 20000))
    assert rt.execute('return 1 + 1') == 2            # the runtime goes on


def _loader(ceiling):
    """A Lua function of a runtime under ``ceiling`` loading its argument:
    (the chunk's result, or nil) and load's message."""
    rt = LuaRuntime(max_memory=ceiling)
    return rt.execute('return function(s) local f, e = load(s) if f then return f(), e end return f, e end')


def test_translation_reserves_its_memory_before_it_starts(monkeypatch):
    """Source small enough to parse whose instructions would translate to
    more than the ceiling allows: refused without translating."""
    load = _loader(4 * MiB)
    translated = []
    monkeypatch.setattr(pipeline, 'translate', lambda *a: translated.append(a))
    src = _fresh(CALLS * 300)                          # 7 KB: 0.8 MB to parse, 5 MB to translate
    assert len(src) * memory.PARSE_PER_SOURCE_BYTE < 2 * MiB
    assert load(src) == (None, 'not enough memory')
    assert translated == []


def test_python_compile_in_process_reserves_its_memory(monkeypatch):
    load = _loader(64 * MiB)
    monkeypatch.setattr(memory, 'PYTHON_COMPILE_PER_BYTE', 10 ** 6)
    assert load(_fresh('return 1')) == (None, 'not enough memory')
    monkeypatch.setattr(memory, 'PYTHON_COMPILE_PER_BYTE', 100)
    assert load(_fresh('return 1')) == (1, None)


def test_without_a_ceiling_nothing_is_refused():
    rt = LuaRuntime()
    f = rt.execute('return load(...)', _fresh(CALLS * 300))
    assert f is not None


def _kept_by_a_chunk(source):
    """(bytes tracemalloc sees a loaded chunk keep, bytes the heap's measure
    counts for it, the runtime), the chunk held by global ``chunk``.  A
    chunk of the same shape is loaded first: what the process sets up once
    (the parser's tables, imports) is no chunk's to keep."""
    rt = LuaRuntime(max_memory=512 * MiB)
    rt.execute('load(...)', _fresh(source))
    before = rt.memory_used()
    gc.collect()
    tracemalloc.start()
    try:
        rt.execute('chunk = load(...)', source)
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return kept, rt.memory_used() - before, rt


@pytest.mark.parametrize('source', [
    CALLS * 150,
    ''.join('function f%d(a, b) if a then return a + b else return b * 2 end end\n' % i for i in range(60)),
    'return {' + ','.join('k%d = "v%d"' % (i, i) for i in range(1500)) + '}',
], ids=['calls', 'functions', 'constructor'])
def test_a_kept_chunk_counts_about_what_it_keeps(source):
    kept, counted, rt = _kept_by_a_chunk(_fresh(source))
    assert kept > 200 * 1024
    assert 0.5 * kept <= counted <= 2 * kept


def test_a_dropped_chunk_no_longer_counts():
    kept, counted, rt = _kept_by_a_chunk(_fresh(CALLS * 150))
    with_chunk = rt.memory_used()
    rt.execute('chunk = nil')
    gc.collect()
    assert with_chunk - rt.memory_used() > 0.8 * counted


def test_a_chunk_s_children_count_through_its_main_function():
    """The main function reaches its children's compiled code only through
    their factories: each function's share counts once either way."""
    source = _fresh(''.join('local function f%d(a) return a + %d end\n' % (i, i) for i in range(100))
                    + 'return ' + ', '.join('f%d' % i for i in range(100)))
    kept, counted, rt = _kept_by_a_chunk(source)
    assert counted > 0.5 * kept
    rt.execute('children = {chunk()}')      # its children live as functions too
    assert rt.memory_used() < 2 * kept


def test_the_worker_compiles_what_is_too_big_for_this_process(monkeypatch):
    """A Python source past ``IN_PROCESS_LIMIT`` is a worker's to compile,
    in its own memory: nothing is reserved here for it."""
    reserved = []
    monkeypatch.setattr(pycompile.state, 'reserve_memory', reserved.append)
    pycompile.compile_module('x = 1\n' * (pycompile.IN_PROCESS_LIMIT // 6 + 1), '<big>')
    assert reserved == []
    pycompile.compile_module('x = 1\n', '<small>')
    assert reserved == [6 * memory.PYTHON_COMPILE_PER_BYTE]
