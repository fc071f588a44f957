"""The call protocol at a call site: a Lua function's one result straight
into the caller's register, tested once for a tuple (several results,
none, a tail call's marker).  Each program here runs plain and inside a
coroutine, and where it matters is compared with lua5.4: callees replaced
at run time, more arguments than parameters, varargs, functions returning
several values or none, host functions and ``__call`` tables at one site,
yields, errors and their tracebacks, and a weak table losing a function
once called."""
import re
import shutil
import subprocess
import sys

import pytest

from pylua import LuaError, LuaRuntime

LUA = shutil.which('lua5.4')


def run(src):
    """Results of ``src`` run plain and inside a coroutine (they must agree)."""
    plain = LuaRuntime().execute(src)
    wrapped = LuaRuntime().execute('return coroutine.wrap(function(...) %s\nend)()' % src)
    assert plain == wrapped
    return plain


def plain_python(src):
    from pylua.compiler.pipeline import translate_chunk
    return translate_chunk(src, 'calls.lua').source


def test_one_result_is_tested_once_in_its_register():
    code = plain_python('local t = {} local v = t.f(1) return v')
    assert re.search(r'try: (r\d+) = \1\(r\d+\)\n.*\n +if \1.__class__ is tuple: \1 = ', code)


@pytest.mark.parametrize('src, expected', [
    # The callee replaced at run time, by one with another arity and results.
    ('local f = function(a) return a end local r = {} '
     'for i = 1, 4 do if i == 3 then f = function(a, b) return b, a end end r[#r + 1] = f(i, 7) end '
     'return table.concat(r, ",")', '1,2,7,7'),
    # More arguments than parameters: cut.
    ('local function f(a) return a end local s = 0 for i = 1, 3 do s = s + f(i, 100, 200) end return s', 6),
    # Fewer: the rest are nil.
    ('local function f(a, b) return b == nil end local n = 0 for i = 1, 3 do if f(i) then n = n + 1 end end '
     'return n', 3),
    # Varargs take any number as given.
    ('local function f(...) return select("#", ...) end local s = 0 for i = 1, 3 do s = s + f(i, i, i) end '
     'return s', 9),
    # Several results and none, at sites wanting one or none.
    ('local function two() return 1, 2 end local function none() end local s = 0 '
     'for i = 1, 3 do s = s + two() none() end return s, none()', 3),
    # Sometimes one result, sometimes none.
    ('local function f(x) if x > 1 then return x end end local r = {} '
     'for i = 1, 3 do local v = f(i) r[#r + 1] = tostring(v) end return table.concat(r, ",")', 'nil,2,3'),
    # Statement calls: a function returning nothing, one making a tail call
    # whose marker must still run, one returning several values.
    ('local n = 0 local function bump(k) n = n + k end local function via(k) return bump(k) end '
     'local function many() return 1, 2, 3 end for i = 1, 3 do bump(i) via(10) many() end return n', 36),
    # A tail call's results pass through at a site wanting one.
    ('local function g(x) return x * 2, 0 end local function f(x) return g(x) end local s = 0 '
     'for i = 1, 3 do s = s + f(i) end return s', 12),
    # Host functions, __call tables and Lua functions at one site.
    ('local c = setmetatable({}, {__call = function(self, x) return x + 100 end}) '
     'local fs = {function(x) return x end, tostring, c, function(x) return x * 2 end} local r = {} '
     'for round = 1, 2 do for _, f in ipairs(fs) do r[#r + 1] = tostring(f(round)) end end '
     'return table.concat(r, ",")', '1,1,101,2,2,2,102,4'),
    # Methods of a class hierarchy, one method overriding another.
    ('local A = {} A.__index = A function A:v() return 1 end '
     'local B = setmetatable({}, {__index = A}) B.__index = B function B:v() return 2 end '
     'local objs = {setmetatable({}, A), setmetatable({}, B), setmetatable({}, A)} local s = 0 '
     'for _, o in ipairs(objs) do s = s * 10 + o:v() end return s', 121),
])
def test_calls_agree_with_lua(src, expected):
    assert run(src) == expected


def test_calls_of_a_nil_value_are_errors():
    with pytest.raises(LuaError, match=r"attempt to call a nil value \(global 'nope'\)"):
        LuaRuntime().execute('for i = 1, 2 do local x = nope(i) end')
    with pytest.raises(LuaError, match=r"attempt to call a nil value \(method 'nope'\)"):
        LuaRuntime().execute('local o = {} for i = 1, 2 do o:nope() end')


def test_a_callee_called_before_yields_inside_a_coroutine():
    src = '''
    local function step(x) return coroutine.yield(x) end
    local function plain(x) return x + 1 end
    for i = 1, 3 do plain(i) end            -- called outside the coroutine first
    local co = coroutine.wrap(function()
      local s = 0
      for i = 1, 3 do s = s + plain(step(i)) end
      return s
    end)
    local r = {co()}
    for i = 1, 3 do r[#r + 1] = co(i * 10) end
    return table.concat(r, ",")
    '''
    assert LuaRuntime().execute(src) == '1,2,3,63'


def test_a_function_called_in_a_loop_leaves_a_weak_table():
    src = '''
    local weak = setmetatable({}, {__mode = "v"})
    local function make(k) return function(x) return x + k end end
    local function use(f) local s = 0 for i = 1, 3 do s = s + f(i) end return s end
    local function fill() local g = make(1) weak[1] = g return use(g) end
    local s = fill()
    collectgarbage()
    return s, weak[1]
    '''
    assert LuaRuntime().execute(src) == (9, None)


def outputs(tmp_path, source, *, names=True):
    """What pylua and lua5.4 print for ``source`` run as a script, with the
    program's name that heads an error message left out, and with
    ``names=False`` the frames' names too (pylua names a function by where
    it is defined where Lua may name it by how it was called)."""
    script = tmp_path / 'calls.lua'
    script.write_text(source)

    def output(cmd):
        done = subprocess.run(cmd + [script.name], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        text = re.sub(r'(?m)^\S+: calls', 'calls', done.stdout + done.stderr)
        return text if names else re.sub(r"in \w+ '\w+'|in function <[^>]*>", 'in F', text)
    return output([sys.executable, '-m', 'pylua']), output([LUA])


@pytest.mark.skipif(LUA is None, reason='needs lua5.4')
def test_errors_through_calls_are_placed_as_lua_places_them(tmp_path):
    mine, lua = outputs(tmp_path, 'local function field(t) return t.y end\n'
                                  'local function outer(t)\n'
                                  '  local s = 0\n'
                                  '  for i = 1, 3 do\n'
                                  '    s = s + field(t)\n'
                                  '  end\n'
                                  '  return s\n'
                                  'end\n'
                                  'print(outer({y = 1}))\n'
                                  'print(pcall(outer, nil))\n'
                                  'outer(5)\n', names=False)
    assert mine == lua
    assert 'calls.lua:1: attempt to index a number value' in mine and 'calls.lua:5: in F' in mine


@pytest.mark.skipif(LUA is None, reason='needs lua5.4')
def test_tail_calls_of_one_result_functions_leave_the_stack_as_lua_does(tmp_path):
    mine, lua = outputs(tmp_path, 'local function f(t) return t.x end\n'
                                  'local function g(t) return f(t) end\n'
                                  'for i = 1, 2 do print(g({x = i})) end\n'
                                  'local function h(t) return debug.getinfo(1, "t").istailcall end\n'
                                  'local function k() return h(1) end\n'
                                  'print(k(), k())\n'
                                  'g(5)\n')
    assert mine == lua and '(...tail calls...)' in mine


@pytest.mark.parametrize('name, call', [
    ('pcall', 'pcall(%s, %s)'),
    ('xpcall', 'xpcall(%s, function(m) return m end, %s)'),
])
def test_protected_calls_run_their_plain_form_unless_something_may_suspend(name, call):
    """``pcall`` and ``xpcall`` run the callee from their plain form where
    nothing can suspend it; inside a coroutine (a yield may cross them) they
    run their generator form, with the same results."""
    rt = LuaRuntime()
    builtin = rt.vm.globals.get(name)
    generator_form = builtin.gen
    entered = []

    def counted(*args):
        entered.append(args)
        return (yield from generator_form(*args))

    builtin.gen = counted
    src = 'local ok, e = %s return ok, e, %s' % (call % ('error', '"x", 0'), call % ('function(a) return a + 1 end', '1'))
    assert rt.execute(src) == (False, 'x', True, 2)
    assert entered == []
    wrapped = 'return coroutine.wrap(function() %s end)()' % src
    assert rt.execute(wrapped) == (False, 'x', True, 2)
    assert len(entered) == 2
    yielding = ('local co = coroutine.wrap(function() return %s end)'
                ' return co(), co("back")') % (call % ('coroutine.yield', '"out"'))
    assert rt.execute(yielding) == ('out', True, 'back')


def test_a_coroutine_s_protected_calls_and_metamethods_reach_a_lua_callee_in_two_generators(monkeypatch):
    """Inside a coroutine ``pcall`` and a metamethod run their Lua callee
    from ``nested_call`` itself, and ``pcall``'s generator form runs
    straight from the call site: ``call``'s generator and ``finish``'s
    between them were a third of the call (3.0 to 2.5 us a pcall, 2.1 to
    1.6 us an ``__add``)."""
    from types import FunctionType

    from pylua.runtime import ops
    entered = []
    real_call, real_finish = ops.call, ops.finish

    def call(f, *args, **kw):
        if f.__class__ is FunctionType:             # a Lua function
            entered.append(('call', f))
        return real_call(f, *args, **kw)

    def finish(*args):
        entered.append(('finish', args[1]))
        return real_finish(*args)
    monkeypatch.setattr(ops, 'call', call)
    monkeypatch.setattr(ops, 'finish', finish)
    src = ('return coroutine.wrap(function() local function f(x) return x + 1 end '
           'local ok, v = pcall(f, 1) local o = setmetatable({}, {__add = function(a, b) return b * 7 end}) '
           'local ok2, e = pcall(error, "x", 0) return ok, v, o + 1, ok2, e end)()')
    assert LuaRuntime().execute(src) == (True, 2, 7, False, 'x')
    assert entered == []


@pytest.mark.parametrize('operation', ['y + 1', 'y.k', 'y < y', '#y', 'y .. "s"', 'y == setmetatable({}, mt)'])
def test_a_yield_in_a_metamethod_outside_a_coroutine_is_an_error_where_made(operation):
    """A metamethod run from a plain form where nothing can suspend it
    (``ops.meta_call``): its yield is Lua's error, caught by the pcall."""
    src = ('local function f(...) return coroutine.yield(...) end'
           ' mt = {__add = f, __index = f, __lt = f, __len = f, __concat = f, __eq = f}'
           ' y = setmetatable({}, mt) return pcall(function() return %s end)' % operation)
    assert LuaRuntime().execute(src) == (False, 'attempt to yield from outside a coroutine')


def test_a_wrapped_coroutine_is_called_as_a_hybrid():
    """``coroutine.wrap``'s function runs its resume from the call site's
    plain form (a hybrid: a Builtin whose generator is taken over only when
    it suspends), not through ``call``'s generator."""
    from pylua.runtime.values import Builtin
    rt = LuaRuntime()
    wrapped = rt.execute('return coroutine.wrap(function() end)').raw
    assert wrapped.__class__ is Builtin and wrapped.gen is not None
    src = ('local g = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)'
           ' return g(1), g(5), pcall(g)')
    assert rt.execute(src) == (2, 10, False, 'cannot resume dead coroutine')


def test_yield_stays_a_generator_function():
    """``coroutine.yield`` suspends on every call, so it is no hybrid (each
    call would start it, catch the suspension and hand it over): it is a
    ``GenBuiltin`` whose generator is the yield itself, and a yield still
    refuses where it cannot suspend."""
    from pylua.runtime.coroutine import yield_
    from pylua.runtime.values import GenBuiltin
    rt = LuaRuntime()
    lua_yield = rt.vm.globals.get('coroutine').get('yield')
    assert lua_yield.__class__ is GenBuiltin and lua_yield.fn is yield_
    assert lua_yield.name == 'coroutine.yield'
    resume = rt.vm.globals.get('coroutine').get('resume')
    assert resume.__class__ is not GenBuiltin      # a hybrid: it suspends only for host effects
    src = ('local co = coroutine.wrap(function(a) local b, c = coroutine.yield(a, a) return b + c end)'
           ' local x, y = co(1) return x, y, co(2, 3)')
    assert rt.execute(src) == (1, 1, 5)
    assert rt.execute('return pcall(coroutine.yield, 1)') == (False, 'attempt to yield from outside a coroutine')
    across = ('return coroutine.wrap(function()'
              ' return pcall(table.sort, {1, 2}, function() coroutine.yield() end) end)()')
    assert rt.execute(across) == (False, 'attempt to yield across a C-call boundary')


def test_a_coroutine_runs_its_function_generator_form_directly():
    """A coroutine made of a Lua function runs that function's generator
    form as its outermost generator (no delegating frame for each value
    in and out); its results and a tail call it returns with are finished
    by the resume, as a call site finishes them."""
    rt = LuaRuntime()
    co = rt.execute('co = coroutine.create(function(a) coroutine.yield(a) end) coroutine.resume(co, 1) return co')
    assert co.gen.gi_code.co_name.startswith('P')
    src = ('local function h(n) coroutine.yield(n) return n, "tail" end'
           ' local g = coroutine.wrap(function(n) coroutine.yield(n) return h(n + 1) end)'
           ' return g(1), g(), g()')
    assert rt.execute(src) == (1, 2, 2, 'tail')


def test_a_metamethod_handler_taking_fewer_arguments_is_called_without_a_failed_binding(monkeypatch):
    """``__len`` and ``__unm`` get their operand twice, and handlers often
    take fewer parameters than Lua passes: the extra arguments are cut
    before the call, not after a binding raised (2.5 us each time)."""
    from pylua.runtime import ops
    monkeypatch.setattr(ops, 'refit_raised', lambda *a: pytest.fail('a binding failed first'))
    rt = LuaRuntime()
    src = ('local o = setmetatable({}, {__len = function(t) return 7 end, __unm = function() return 1 end, '
           '__index = function(t) return 2 end, __eq = function(a) return true end}) '
           'return #o, -o, o.x, o == setmetatable({}, getmetatable(o))')
    assert rt.execute(src) == (7, 1, 2, True)
