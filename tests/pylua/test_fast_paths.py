"""The translator's specialised paths and their fallbacks: inlined library
calls, short integer loops, two-level ``__index`` lookups, ipairs/pairs
loops over plain tables, and table.sort's direct list access.  Each case runs
in the plain form and, inside a coroutine, in the generator form."""
import threading
import time

import pytest

from pylua import LuaError, LuaInterrupt, LuaMemoryError, LuaRuntime


def run(src):
    """Results of ``src`` run plain and inside a coroutine (they must agree)."""
    plain = LuaRuntime().execute(src)
    wrapped = LuaRuntime().execute(
        'return coroutine.wrap(function(...) %s\nend)()' % src)
    assert plain == wrapped
    return plain


def error_of(src):
    with pytest.raises(LuaError) as e:
        LuaRuntime().execute(src)
    return str(e.value)


# ------------------------------------------------------------- intrinsics
def test_table_insert_appends_and_returns_nothing():
    assert run('local t = {} for i = 1, 5 do table.insert(t, i * 2) end '
               'return #t, t[5], select("#", table.insert(t, 1)), (table.insert(t, 2))') == (5, 10, 0, None)


def test_table_insert_fallbacks():
    # A nil value, keys migrating from the hash part, and __newindex.
    assert run('local t = {1} table.insert(t, nil) return #t') == 1
    assert run('local t = {1} t[3] = 3 table.insert(t, 2) return #t, t[3]') == (3, 3)
    assert run('local log = {} local p = setmetatable({}, {__newindex = function(t, k, v) '
               'log[#log + 1] = k .. "=" .. v end, __len = function() return 7 end}) '
               'table.insert(p, "x") return log[1]') == '8=x'


def test_calls_named_like_library_functions_are_not_inlined():
    assert run('local table = {insert = function(t, v) return "mine" end} return table.insert({}, 1)') == 'mine'
    assert run('local function insert(t, v) return t, v end local t = {} '
               'local a, b = insert(t, 1) return a == t, b, #t') == (True, 1, 0)
    assert run('local math = {sqrt = function(x) return "root" end} return math.sqrt(4)') == 'root'
    assert run('local o = {remove = function(self) return "m" end} return o:remove()') == 'm'


def test_table_remove_pops_and_drops_trailing_nils():
    assert run('local t = {1, 2, 3} t[2] = nil local v = table.remove(t) return v, #t') == (3, 1)
    assert run('return select("#", table.remove({}))') == 1
    assert run('local t = {} return table.remove(t), #t') == (None, 0)
    assert run('local t = setmetatable({}, {__index = function(t, k) return k * 10 end, '
               '__len = function() return 2 end}) return table.remove(t)') == 20


def test_math_sqrt_inline_and_fallbacks():
    assert run('return math.sqrt(16), math.type(math.sqrt(4)), math.sqrt(2.25), math.sqrt("9")') == \
        (4.0, 'float', 1.5, 3.0)
    assert run('return tostring(math.sqrt(-1)), math.sqrt(1/0)') == ('-nan', float('inf'))
    assert "bad argument #1 to 'sqrt' (number expected, got no value)" in error_of('return math.sqrt()')
    assert "bad argument #1 to 'sqrt' (number expected, got table)" in error_of('return math.sqrt({})')


def test_inlined_insert_is_charged_against_the_memory_ceiling():
    rt = LuaRuntime(max_memory=2 * 1024 * 1024)
    with pytest.raises(LuaMemoryError):
        rt.execute('local t = {} for i = 1, 10000000 do table.insert(t, i) end')


# ----------------------------------------------------- short integer loops
@pytest.mark.parametrize('n', [-5, 0, 1, 2, 624, 625, 626, 10000])
def test_numeric_for_counts(n):
    assert run('local c, s = 0, 0 for i = 1, %d do c = c + 1 s = s + i end return c, s' % n) == \
        (max(n, 0), max(n, 0) * (max(n, 0) + 1) // 2)


def test_numeric_for_values_and_types():
    assert run('local r = {} for i = 1, 3.5 do r[#r + 1] = math.type(i) end return #r, r[1]') == (3, 'integer')
    assert run('local r = {} for i = 1.0, 3 do r[#r + 1] = math.type(i) end return #r, r[1]') == (3, 'float')
    assert run('local a, b = 2, 4 local c = 0 for i = a, b do c = c + i end return c') == 9
    assert run('local a = 2.5 local c = 0 for i = a, 4 do c = c + i end return c') == 6.0
    assert run('local n = 0 for i = math.maxinteger - 2, math.maxinteger do n = n + 1 end return n') == 3
    assert run('local n = 0 for i = math.mininteger, math.mininteger + 2 do n = n + 1 end return n') == 3
    assert run('local n = 0 for i = 1, math.maxinteger do n = n + 1 if n == 3 then break end end return n') == 3
    # The loop variable is known to be an integer: arithmetic still wraps.
    assert run('local r for i = 9223372036854775806, 9223372036854775807 do r = i + 1 end '
               'return r == math.mininteger') is True
    assert run('local r for i = 1, 2 do i = i * 1.5 r = i end return r') == 3.0


def test_short_loops_count_instructions():
    rt = LuaRuntime()
    counts = []
    rt.set_hook(counts.append, 20000)
    rt.execute('local s = 0 for i = 1, 1000 do for j = 1, 100 do s = s + j end end return s')
    assert len(counts) >= 50


def test_short_loops_are_cancellable():
    rt = LuaRuntime()
    threading.Timer(0.1, rt.cancel).start()
    start = time.perf_counter()
    with pytest.raises(LuaInterrupt):
        rt.execute('local function f() for i = 1, 10 do end return f() end f()')
    assert time.perf_counter() - start < 2


# ------------------------------------------------------- __index chains
def test_two_and_three_level_index_chains():
    src = '''
    local A = {} A.__index = A
    function A:who() return "A" end
    local B = setmetatable({}, A) B.__index = B
    local C = setmetatable({}, B) C.__index = C
    local o = setmetatable({}, C)
    return o:who(), o.missing, B.who == A.who
    '''
    assert run(src) == ('A', None, True)


def test_second_level_index_function_gets_the_second_table():
    src = '''
    local B = setmetatable({}, {__index = function(t, k) return t end})
    local o = setmetatable({}, {__index = B})
    return rawequal(o.anything, B)
    '''
    assert run(src) is True


def test_index_through_a_string_and_loops():
    assert run('local t = setmetatable({}, {__index = "abc"}) return t.len == string.len') is True
    assert run('local B = setmetatable({}, {__index = "abc"}) '
               'local t = setmetatable({}, {__index = B}) return t.upper == string.upper') is True
    assert "'__index' chain too long; possible loop" in error_of(
        'local a, b = {}, {} setmetatable(a, {__index = b}) setmetatable(b, {__index = a}) return a.x')


# --------------------------------------------------------- ipairs, pairs
def test_ipairs_stops_at_the_first_nil():
    assert run('local n = 0 for i, v in ipairs({1, 2, nil, 4}) do n = n + 1 end return n') == 2
    assert run('local n = 0 for i in ipairs({1, 2, nil, 4}) do n = n + 1 end return n') == 2
    assert run('local n = 0 for i, v, x in ipairs({1, 2, nil, 4}) do n = n + 1 end return n') == 2
    assert run('local t, n = {1, 2, 3, 4}, 0 for i, v in ipairs(t) do if i == 2 then t[3] = nil end '
               'n = n + 1 end return n') == 2
    # A loop containing a loop, and a function using goto, take other paths.
    assert run('local t, n = {1, 2, nil, 4}, 0 for i, v in ipairs(t) do for j, w in ipairs(t) do n = n + 1 end end '
               'return n') == 4
    assert run('local t, n = {1, 2, nil, 4}, 0 for i, v in ipairs(t) do n = n + 1 goto next ::next:: end '
               'return n') == 2


def test_pairs_skips_nils_and_sees_booleans():
    assert run('local n = 0 for k, v in pairs({1, nil, 3}) do n = n + 1 end return n') == 2
    assert run('local t, n = {1, 2, 3, a = 1, b = 2}, 0 for k in pairs(t) do t[k] = nil n = n + 1 end '
               'return n, next(t)') == (5, None)
    assert run('local s = {} for k, v in pairs({[true] = 1, [false] = 2}) do s[#s + 1] = type(k) end '
               'return #s, s[1], s[2]') == (2, 'boolean', 'boolean')


# ------------------------------------------------------------------- sort
def test_sort_comparator_results():
    assert run('local t = {3, 1, 2} table.sort(t, function(a, b) return a > b, "extra" end) '
               'return t[1], t[2], t[3]') == (3, 2, 1)
    assert run('local t = {3, 1, 2} table.sort(t, function(a, b) end) return #t') == 3
    assert 'invalid order function for sorting' in error_of(
        'local t = {} for i = 1, 100 do t[i] = i % 7 end table.sort(t, function(a, b) return true end)')


def test_sort_with_a_comparator_that_shrinks_the_table():
    msg = error_of('local t = {} for i = 1, 50 do t[i] = i end '
                   'table.sort(t, function(a, b) t[#t] = nil return a < b end)')
    assert 'internal error' not in msg


def test_sort_with_host_comparator_and_proxy_table():
    rt = LuaRuntime()
    rt.globals()['lt'] = lambda a, b: a < b
    assert rt.execute('local t = {5, 3, 4, 1, 2} table.sort(t, lt) return t[1], t[5]') == (1, 5)
    assert run('local raw = {5, 3, 4, 1, 2} local p = setmetatable({}, {__index = raw, '
               '__newindex = raw, __len = function() return #raw end}) '
               'table.sort(p, function(a, b) return a > b end) return raw[1], raw[5]') == (5, 1)
