"""The inline forms of library calls and of the operations on strings and
tables that objects use, against lua5.4: each program in ``fast_paths/``
``put``s what its calls gave and returns the ``transcript()`` (both from
``PRELUDE``), which must be lua5.4's, run plain and inside a coroutine
(the generator forms).  The programs mix
arguments the inline forms take with those they leave to the general path,
and change the library, metatables and tables while they run."""
import pathlib
import re
import shutil
import subprocess

import pytest

from pylua import LuaRuntime

PROGRAMS = pathlib.Path(__file__).resolve().parent / 'fast_paths'
LUA = shutil.which('lua5.4')
# One line, so that the programs' line numbers in messages are theirs + 1.
PRELUDE = ('local out = {} '
           'local function put(...) local t = table.pack(...) '
           'for i = 1, t.n do t[i] = tostring(t[i]) end out[#out + 1] = table.concat(t, " ") end '
           'local function transcript() return table.concat(out, "\\n") end\n')
# Chunk names differ between the runs; line numbers must not.
_CHUNK = re.compile(r'(?m)(^|\s)(?:\[string "[^"]*"\]|[^\s:]+\.lua):(\d+):')


def _lines(text):
    return _CHUNK.sub(r'\1chunk:\2:', text).split('\n')


def _expected(path):
    r = subprocess.run([LUA, '-e', 'io.write(dofile(%r))' % str(path)], capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return _lines(r.stdout.decode('latin-1'))


@pytest.mark.skipif(LUA is None, reason='lua5.4 is not installed')
@pytest.mark.parametrize('program', sorted(p.name for p in PROGRAMS.glob('*.lua')))
def test_inline_forms_agree_with_lua(program, tmp_path):
    src = PRELUDE + (PROGRAMS / program).read_text(encoding='latin-1')
    path = tmp_path / program
    path.write_text(src, encoding='latin-1')
    want = _expected(path)
    plain = LuaRuntime(profile='standalone').execute(src)
    assert _lines(plain) == want
    wrapped = LuaRuntime(profile='standalone').execute('return coroutine.wrap(function(...) %s\nend)()' % src)
    assert _lines(wrapped) == want


def test_unpack_of_a_table_without_a_metatable_runs_its_plain_form(monkeypatch):
    """``table.unpack`` of a plain table answers from its plain form (one
    Python call, about a third of the generator form's time); a table
    with a metatable is left to the generator form."""
    from pylua.library import table as table_lib
    general = []
    real = table_lib.t_unpack

    def watched(*args):
        general.append(args[1])
        return (yield from real(*args))
    monkeypatch.setattr(table_lib, 't_unpack', watched)
    rt = LuaRuntime()
    assert rt.execute('local t = {1, 2, 3} return table.unpack(t), table.unpack(t, 2, 3)') == (1, 2, 3)
    assert general == []
    assert rt.execute('return table.unpack(setmetatable({}, {__len = function() return 2 end, '
                      '__index = function(_, k) return k end}))') == (1, 2)
    assert len(general) == 1


def test_tostring_with_a_lua_tostring_metamethod_runs_its_plain_form(monkeypatch):
    """``tostring`` of an object whose ``__tostring`` is a Lua function
    calls it plainly where nothing can suspend it (4 us to 1.5 us); inside
    a coroutine the generator form runs it (a host effect may pass; a
    yield is still an error, as across lua_call)."""
    from pylua.library import base
    general = []
    real = base.lua_tostring

    def watched(*args):
        general.append(args)
        return (yield from real(*args))
    monkeypatch.setattr(base, 'lua_tostring', watched)
    rt = LuaRuntime()
    src = 'local o = setmetatable({}, {__tostring = function(s) return "obj" end}) return tostring(o), tostring(1)'
    assert rt.execute(src) == ('obj', '1')
    assert general == []
    co = ('local o = setmetatable({}, {__tostring = function() return coroutine.yield("in") end}) '
          'local co = coroutine.create(function() return tostring(o) end) '
          'return coroutine.resume(co)')
    assert rt.execute(co) == (False, 'attempt to yield across a C-call boundary')
    assert len(general) == 1


def test_next_from_the_start_of_a_big_table_takes_no_snapshot():
    """``next(t)`` (an emptiness check, a drain restarting at the front)
    answers the hash part's first entry without copying its keys: 2,000
    of them on 100,000 keys took 2 s, a copy each, and a drain was
    quadratic (20,000 removals: 22 s; lua5.4 0.33 s)."""
    rt, result, seconds = _on_a_big_table('local n = 0 for i = 1, 2000 do if next(big) ~= nil then n = n + 1 end end '
                                          'for i = 1, 5000 do local k = next(big) big[k] = nil end return n')
    assert result == 2000 and seconds < 1.0
    assert rt.execute('local n = 0 for k in pairs(big) do n = n + 1 end return n') == 95000


def _on_a_big_table(src):
    """(runtime, result, CPU seconds) of ``src`` run where global ``big``
    holds 100,000 string keys."""
    import time
    rt = LuaRuntime()
    rt.execute('big = {} for i = 1, 100000 do big["k" .. i] = i end')
    started = time.process_time()
    result = rt.execute(src)
    return rt, result, time.process_time() - started


def test_a_pairs_loop_that_stops_early_copies_nothing_of_a_big_table():
    """``for _ in pairs(t) do return false end`` (an emptiness check) walks
    the hash part's first keys only: on 100,000 keys it copied them all,
    1.2 ms a check (lua5.4: 0.3 us)."""
    rt, result, seconds = _on_a_big_table('local function empty(t) for _ in pairs(t) do return false end return true end '
                                          'local n = 0 for i = 1, 2000 do if not empty(big) then n = n + 1 end end return n')
    assert result == 2000 and seconds < 1.0


def test_the_table_library_reaches_a_class_instance_s_elements_raw(monkeypatch):
    """A table whose metatable has neither ``__newindex`` nor ``__len`` (an
    instance, a list of a list class) has raw elements, as one without a
    metatable: 3,000 ``table.insert(l, 1, v)`` took 8.6 s (lua5.4: 0.08 s)
    and a sort of 30,000 numbers 3.2 s (0.02 s) through the
    metamethod-aware path."""
    from pylua.runtime import ops
    general = []
    for name in ('index', 'setindex', 'length'):
        def watched(*args, real=getattr(ops, name), name=name):
            general.append(name)
            return (yield from real(*args))
        monkeypatch.setattr(ops, name, watched)
    src = ('local List = {} List.__index = List '
           'local l = setmetatable({}, List) '
           'for i = 1, 50 do table.insert(l, 1, i) end '
           'table.insert(l, 0); table.remove(l, 1); table.remove(l) '
           'table.sort(l, function(a, b) return a > b end); table.move(l, 1, 10, 2) '
           'l[#l + 1] = "x" '
           'return #l, table.concat(l, ",", 1, 4), select("#", table.unpack(l))')
    rt = LuaRuntime()
    assert rt.execute(src) == (50, '49,49,48,47', 50)
    assert general == []
    assert rt.execute(src.replace('List.__index = List', 'List.__newindex = rawset')) == (50, '49,49,48,47', 50)
    assert 'setindex' in general
