"""The embedding API: values across the boundary, effects, cancel, errors."""
import threading
import time

import pytest

import pylua
from pylua import Effect, GenBuiltin, LuaError, LuaInterrupt, LuaRuntime, LuaSyntaxError


@pytest.fixture
def rt():
    return LuaRuntime()


def test_execute_returns_converted_results(rt):
    assert rt.execute('return 1') == 1
    assert rt.execute('return 1, "two", 3.5, nil, true') == (1, 'two', 3.5, None, True)
    assert rt.execute('return') is None
    assert rt.execute('return "é"') == 'é'
    assert rt.execute('return #"é"') == 2


def test_eval_and_compile(rt):
    assert rt.eval('2^10') == 1024.0
    add = rt.compile('local a, b = ... return a + b')
    assert add(2, 3) == 5
    assert add(2.5, 3) == 5.5


def test_globals_and_tables(rt):
    g = rt.globals()
    g['x'] = 41
    assert rt.execute('return x + 1') == 42
    t = rt.table(1, 2, 3, name='t')
    g['t'] = t
    assert rt.execute('return #t, t.name') == (3, 't')
    d = rt.table_from({'a': [1, 2, {'b': 'c'}]})
    g['d'] = d
    assert rt.execute('return d.a[3].b, #d.a') == ('c', 3)
    back = rt.execute('return {10, 20, k = "v"}')
    assert rt.lua_type(back) == 'table'
    assert back[1] == 10 and back['k'] == 'v' and len(back) == 2
    assert rt.lua_type(rt.eval('print')) == 'function'
    assert rt.lua_type(5) is None


def test_python_callables(rt):
    seen = []
    rt.globals()['record'] = lambda *a: seen.append(a) or len(seen)
    assert rt.execute('return record(1, "x"), record()') == (1, 2)
    assert seen == [(1, 'x'), ()]


def test_lua_cannot_reach_python_objects(rt):
    rt.globals()['f'] = len
    with pytest.raises(LuaError) as e:
        rt.execute('return f.__class__')
    assert 'attempt to index a function value' in str(e.value)
    assert rt.execute('return type(f)') == 'function'


def test_errors_carry_value_and_traceback(rt):
    with pytest.raises(LuaError) as e:
        rt.execute('local t = nil\nreturn t.x', name='=chunk')
    assert e.value.value == "chunk:2: attempt to index a nil value (local 't')"
    assert 'stack traceback' in e.value.traceback
    with pytest.raises(LuaError) as e:
        rt.execute('error({code = 7})')
    assert rt.to_python(e.value.value)['code'] == 7
    with pytest.raises(LuaSyntaxError) as e:
        rt.execute('x = = 1', name='=s')
    assert e.value.value == "s:1: unexpected symbol near '='"


def test_compile_check():
    pylua.compile_check('return 1', 'ok')
    with pytest.raises(LuaSyntaxError) as e:
        pylua.compile_check('return (', 'blk')
    assert e.value.value.startswith('blk:1:')


def _host_effect():
    """A toy host function that suspends Lua until the embedder answers."""
    def ask(*args):
        answer = yield Effect(('ask',) + args)
        return (answer,)
    return GenBuiltin(ask, 'ask')


def _drive(rt, gen, answer):
    effects = []
    try:
        eff = next(gen)
        while True:
            effects.append(eff.payload)
            eff = gen.send(answer(eff.payload))
    except StopIteration as stop:
        return effects, stop.value


@pytest.mark.parametrize('src', [
    'return ask(1) + 1',
    'local ok, v = pcall(ask, 1) return v + 1',
    'local co = coroutine.wrap(function() return ask(1) + 1 end) return co()',
    'local t = setmetatable({}, {__index = function(_, k) return ask(k) end}) return t[1] + 1',
    'local co = coroutine.create(function(a) local x = coroutine.yield(a) return ask(x) end)\n'
    'local _, a = coroutine.resume(co, 1) local _, b = coroutine.resume(co, a) return b + 1',
])
def test_effects_suspend_from_any_depth(rt, src):
    rt.vm.globals.set_str('ask', _host_effect())
    effects, results = _drive(rt, rt.run(src), lambda payload: payload[1] * 10)
    assert effects == [('ask', 1)]
    assert results == (11,)


def test_effect_answered_with_error_is_catchable(rt):
    rt.vm.globals.set_str('ask', _host_effect())
    gen = rt.run('local ok, e = pcall(ask, 1) return ok, e')
    next(gen)
    try:
        gen.throw(LuaError('refused'))
    except StopIteration as stop:
        assert stop.value == (False, 'refused')
    else:
        pytest.fail('run did not finish')


def test_cancel_from_another_thread_stops_infinite_loop(rt):
    timer = threading.Timer(0.2, rt.cancel)
    timer.start()
    start = time.perf_counter()
    with pytest.raises(LuaInterrupt):
        rt.execute('while true do end')
    assert time.perf_counter() - start < 2


def test_cancel_is_not_swallowed_by_pcall(rt):
    threading.Timer(0.1, rt.cancel).start()
    with pytest.raises(LuaInterrupt):
        rt.execute('while true do pcall(function() while true do end end) end')


def test_instruction_hook(rt):
    counts = []
    rt.set_hook(counts.append, 20000)
    rt.execute('local s = 0 for i = 1, 200000 do s = s + i end return s')
    assert counts


def test_deep_recursion_and_stack_overflow(rt):
    assert rt.execute('local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end return f(10000)') == 10000
    ok, msg = rt.execute('local function f() return 1 + f() end return pcall(f)')
    assert ok is False and 'stack overflow' in msg


def test_userdata_payload_reports_its_memory():
    from pylua import LuaMemoryError, Userdata

    class Big:
        def lua_memory_size(self):
            return 10 * 1024 * 1024

    rt = LuaRuntime(max_memory=8 * 1024 * 1024)
    rt.vm.globals.set_str('big', Userdata(Big()))
    with pytest.raises(LuaMemoryError):
        rt.execute('collectgarbage() local t = {} for i = 1, 1e6 do t[i] = i end')


def test_an_exception_of_a_python_function_is_a_lua_error_pcall_catches(rt):
    """A Python callable's exception reaches Lua as an error whose value is
    its text (not an internal error), and the host sees it as the cause."""
    def boom(*args):
        raise ValueError('bad thing')
    g = rt.globals()
    g['boom'] = boom
    g['lookup'] = lambda t, k: {}[k]
    assert rt.execute('return pcall(boom)') == (False, 'bad thing')
    assert rt.execute('local t = setmetatable({}, {__index = lookup})'
                      ' return pcall(function() return t.x end)') == (False, "'x'")
    with pytest.raises(LuaError) as info:
        rt.execute('boom()')
    assert info.value.value == 'bad thing' and isinstance(info.value.__cause__, ValueError)
    g['stop'] = lambda: rt.cancel()
    with pytest.raises(LuaInterrupt):             # an interrupt is still no error Lua catches
        rt.execute('pcall(stop) while true do end')
    rt.reset_cancel()
    assert rt.execute('return 1') == 1


def test_closing_a_suspended_run_closes_its_variables(rt):
    def ask(q):
        answer = yield Effect(q)
        return (answer,)
    rt.vm.globals.set_str('ask', GenBuiltin(ask, 'ask'))
    run = rt.run('local x <close> = setmetatable({}, {__close = function() closed = true end})'
                 ' return ask("q")')
    assert next(run).payload == 'q'
    run.close()
    assert rt.execute('return closed') is True


def test_tables_are_true_and_coroutines_cross_the_boundary(rt):
    assert bool(rt.execute('return {debug = true}')) and bool(rt.execute('return {}'))
    co = rt.execute('return coroutine.create(function(a) coroutine.yield(a) end)')
    assert rt.lua_type(co) == 'thread'
    assert rt.execute('return coroutine.resume(...)', co, 5) == (True, 5)
    rt.globals()['co'] = co
    assert rt.execute('return coroutine.status(co)') == 'suspended'


def test_a_hook_may_ask_for_the_memory_in_use():
    """Measuring walks the heap, which is counted work: the hook is not run
    again inside itself."""
    rt = LuaRuntime(max_memory=50_000_000)
    seen = []
    rt.set_hook(lambda n: seen.append(rt.memory_used()), 50_000)
    rt.execute('local t = {} for i = 1, 200000 do t[i] = {i} end')
    assert seen and max(seen) > 1_000_000


def test_xpcall_runs_no_handler_for_a_memory_error():
    """As Lua's LUA_ERRMEM: neither for the error nor for the handler's own."""
    rt = LuaRuntime(max_memory=2_000_000)
    fill = 'local t = {} for i = 1, 1e8 do t[i] = i end'
    assert rt.execute('local n = 0 local ok, e = xpcall(function() %s end,'
                      ' function(m) n = n + 1 return m end) return ok, e, n' % fill) == (False, 'not enough memory', 0)
    assert rt.execute('local n = 0 local ok, e = xpcall(error, function(m) n = n + 1 %s end, "x")'
                      ' return ok, e, n' % fill) == (False, 'not enough memory', 1)


def test_table_from_mirrors_cycles_and_shared_containers(rt):
    d = {'name': 'root', 'tags': ['a', 'b']}
    d['self'] = d
    d['again'] = d['tags']
    t = rt.table_from(d)
    rt.globals()['t'] = t
    assert rt.execute('return t.self == t, t.self.self.name, t.again == t.tags, #t.tags') == (True, 'root', True, 2)
    assert rt.execute('return #...', rt.table_from([[1], [2, 3]])) == 2
