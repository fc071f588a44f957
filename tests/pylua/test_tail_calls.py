"""Proper tail calls: ``return f(...)`` does not grow the stack, in the plain
form and inside coroutines (the generator form), through ``__call`` chains
and between functions of different chunks; results and errors pass through
unchanged.  Error levels and tracebacks are checked against lua5.4 by the
conformance cases in ``conformance/lua/cases/tailcalls`` and
``stdlib/tail_call_debug``."""
import pytest

from pylua import LuaError, LuaRuntime

COUNT = '''
local function count(n, acc)
  if n == 0 then return acc end
  return count(n - 1, acc + 1)
end
'''


def test_ten_million_tail_calls_run():
    assert LuaRuntime().execute(COUNT + 'return count(10000000, 0)') == 10000000


@pytest.fixture
def thorough(request):
    return request.config.getoption('--slow')


@pytest.mark.slow
def test_tail_calls_inside_a_coroutine(thorough):
    n = 10000000 if thorough else 300000
    src = COUNT + 'return coroutine.wrap(function(n) return count(n, 0) end)(...)'
    assert LuaRuntime().execute(src, n) == n


def test_mutual_tail_recursion_between_chunks():
    rt = LuaRuntime()
    rt.execute('function is_even(n) if n == 0 then return true end return is_odd(n - 1) end')
    rt.execute('function is_odd(n) if n == 0 then return false end return is_even(n - 1) end')
    assert rt.execute('return is_even(250001), is_odd(250001)') == (False, True)


def test_tail_calls_through_call_metamethods_and_methods():
    src = '''
    local obj = setmetatable({left = 250000}, {__call = function(self, acc)
      if self.left == 0 then return acc end
      self.left = self.left - 1
      return self(acc + 1)
    end})
    local Loop = {}
    Loop.__index = Loop
    function Loop:run(n) if n == 0 then return "done", self end return self:run(n - 1) end
    local l = setmetatable({}, Loop)
    local word, same = l:run(250000)
    return obj(0), word, same == l
    '''
    assert LuaRuntime().execute(src) == (250000, 'done', True)


def test_results_of_every_count_pass_through():
    src = '''
    local function none() end
    local function many(...) return ... end
    local function via(f, ...) return f(...) end
    local function deep(n, f, ...) if n == 0 then return f(...) end return deep(n - 1, f, ...) end
    return select("#", via(none)), select("#", via(many, 1, nil, 3, nil)), deep(250000, many, "a", "b")
    '''
    assert LuaRuntime().execute(src) == (0, 4, 'a', 'b')


def test_an_error_after_many_tail_calls_is_caught():
    src = COUNT.replace('return acc', 'error("at the end")') + 'return pcall(count, 250000, 0)'
    ok, message = LuaRuntime().execute(src)
    assert not ok and message.endswith(':3: at the end')
    with pytest.raises(LuaError, match='at the end'):
        LuaRuntime().execute(COUNT.replace('return acc', 'error("at the end")') + 'count(250000, 0)')


def test_host_calling_a_function_that_ends_in_a_tail_call():
    rt = LuaRuntime()
    f = rt.eval('function(...) local function g(...) return select("#", ...), ... end return g(...) end')
    assert f(1, 2) == (2, 1, 2)
    assert rt.execute('local function lt(a, b) return a < b end '
                      'local t = {5, 1, 4} table.sort(t, function(a, b) return lt(a, b) end) '
                      'return t[1], t[3]') == (1, 5)
