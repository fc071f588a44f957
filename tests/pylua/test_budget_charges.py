"""The budget's charges as emitted: calls and loops count on ``LAPS``,
the VM's countdown in units of 16 instructions, which never skips its
zero; ``LAPS`` is declared only where something counts, and generated
code never charges the budget ``STEPS`` itself; and loops and recursions
so charged compute what lua5.4 does."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from pylua import LuaInterrupt, LuaRuntime
from pylua.compiler.pipeline import translate_chunk
from pylua.compiler.translation.facts import LOOP_COST
from pylua.runtime.state import LAP, LAPIT_UNITS

LUA = shutil.which('lua5.4')
FIB = 'local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end return fib(5)'
HEADER = 'DEBT = DIRECT_TAILS = LAPS = 0'
ONE_UNIT = r'LAPS -= 1\n +if not LAPS: LAPS = %d; TICKN\(%d\)\n' % (LAP, LAP * LOOP_COST)
UNITS = r'LAPS -= (\d+)\n +if LAPS < 1: LAPS = %d - LAPS; TICKN\(%d \* LAPS\); LAPS = %d\n' % (LAP, LOOP_COST, LAP)


def plain_python(src):
    return translate_chunk(src, 'budget.lua').source


def test_a_call_counts_its_size_before_its_first_call():
    code = plain_python(FIB)
    own = code[code.index('def Q'):code.index('return Q')]
    # 13 instructions, one unit: once in the body for integers, once in
    # the general one; none on entry.
    assert len(re.findall(ONE_UNIT, own)) == 2
    assert re.search(r'nonlocal LAPS\n +if r0.__class__ is int:\n +if r0 < 2:\n +return r0\n', own)


def test_a_function_whose_calls_are_all_inlinable_counts_where_a_call_is_made():
    code = plain_python('local function read(p) p.c = p.s:sub(p.i, p.i) p.i = p.i + 1 '
                        'return type(p.c) end return read')
    own = code[code.index('def Q'):code.index('return Q')]
    # Never on the inline bodies' paths: in the else of each, before the call.
    assert len(re.findall(r'\n( +)else:\n\1    ' + ONE_UNIT + r'\1    if r\d+.__class__ is FN:', own)) >= 2
    assert len(re.findall(ONE_UNIT, own)) == len(re.findall(r'is FN:', own))
    assert not re.search(r'nonlocal LAPS\n +' + ONE_UNIT, own)


def test_a_recursion_through_a_function_named_like_an_inlined_one_counts():
    rt = LuaRuntime()
    counts = []
    rt.set_hook(counts.append, 10000)
    # 'sub' with three arguments is an inline body's call site; the callee is not string.sub.
    rt.execute('local sub sub = function(s, i, j) if j < 2 then return 1 end '
               'return sub(s, i, j - 1) + sub(s, i, j - 2) end return sub("x", 1, 20)')
    assert len(counts) >= 21890 * LOOP_COST // 20000


def test_a_function_whose_calls_all_lie_in_its_loops_counts_only_its_iterations():
    code = plain_python('local function skip(p) local c = p.c while c == " " do p:read() c = p.c end '
                        'for i = 1, p.n do p:read() end return c end return skip')
    own = code[code.index('def Q'):code.index('return Q')]
    # Each loop's iteration counts before its call; nothing on entry.
    assert not re.search(r'nonlocal LAPS\n +' + ONE_UNIT, own)
    assert 'for _lap in LAPIT1:' in own
    # The short numeric for's iterations, all of them before it starts.
    assert re.search(r'-1 <= \((_n\d+) := [^\n]*\) < \d+:\n +LAPS -= (?:\d+ \* )?\1 \+ \d+\n +if LAPS < 1: ', own)


@pytest.mark.parametrize('step', ['', ', -1', ', 2'])
def test_a_short_numeric_for_counts_its_iterations_on_the_countdown_before_it_starts(step):
    loop = 'for k = 1, 10%s do s = s + k end' % step if step != ', -1' else 'for k = 10, 1, -1 do s = s + k end'
    src = 'local s = 0 for j = 1, 2000 do %s end return s' % loop
    code = plain_python(src)
    assert re.search(r'-1 <= \((_n\d+) := [^\n]*\) < \d+:\n +LAPS -= \1 \+ 1\n +if LAPS < 1: ', code)
    assert 'STEPS' not in code
    rt = LuaRuntime()
    counts = []
    rt.set_hook(counts.append, 10000)
    rt.execute(src)
    # At least a unit (16 instructions) for each inner iteration.
    iterations = 2000 * (5 if step == ', 2' else 10)
    assert counts and counts[-1] >= iterations * LOOP_COST


def test_a_function_counts_before_its_first_call_outside_its_loops():
    code = plain_python('local function f(t, g) for i = 1, 3 do t:m() end return g(t) end return f')
    own = code[code.index('def Q'):code.index('return Q')]
    # After the loop (whose calls its iterations' count covers), before g's call.
    assert not re.search(r'nonlocal LAPS\n +' + ONE_UNIT, own)
    loop, charge = own.index('for r'), re.search(ONE_UNIT, own).start()
    assert loop < charge < own.index('is FN:', charge) < own.index('for r', charge)


def test_a_call_outside_the_loops_still_counts_the_function():
    code = plain_python('local function f(p) p:read() while p.c == " " do p:read() end end return f')
    own = code[code.index('def Q'):code.index('return Q')]
    assert len(re.findall(ONE_UNIT, own)) >= 2


@pytest.mark.parametrize('loop', ['for i = 1, 2 do f(n - 1) end',
                                  'local i = 0 while i < 2 do i = i + 1 f(n - 1) end',
                                  'local i = 0 repeat i = i + 1 f(n - 1) until i == 2',
                                  'for _, k in ipairs({1, 2}) do f(n - 1) end'])
def test_a_recursion_whose_calls_lie_in_loops_counts_each_call_s_iteration(loop):
    rt = LuaRuntime()
    counts = []
    rt.set_hook(counts.append, 10000)
    # 2^15 calls, each after an iteration's count of at least 16 instructions.
    rt.execute('local calls = 0 local function f(n) calls = calls + 1 if n == 0 then return end %s end '
               'f(14) return calls' % loop)
    assert len(counts) >= (2 ** 15 - 1) * LOOP_COST // 20000


def test_a_function_nested_too_deep_for_python_counts_its_calls_on_entry():
    # The dispatcher runs it: it places no count at an instruction.
    rt = LuaRuntime()
    counts = []
    rt.set_hook(counts.append, 10000)
    rt.execute('local function f(n) if n < 2 then return n end %s local x = 1 %s '
               'return f(n - 1) + f(n - 2) end return f(22)' % ('if n then ' * 45, 'end ' * 45))
    assert len(counts) >= 28656 * LOOP_COST // 20000


def test_the_countdown_stays_among_cpython_s_cached_small_ints():
    assert LAP <= 256
    body = ' '.join('s = s + i * %d' % k for k in range(2, 80))     # too long for LAPIT<units>
    code = plain_python('local i, s = 0, 0 while i < 1000 do i = i + 1 %s end return s' % body)
    # The VM's one countdown: nothing set on entering the loop, nothing left uncounted on leaving it.
    assert re.search(r'r\d+ = 0\n +while True:\n +' + UNITS, code)


def test_a_long_loop_body_counts_its_length_each_iteration():
    body = ' '.join('s = s + i * %d' % k for k in range(2, 80))
    code = plain_python('local i, s = 0, 0 while i < 10 do i = i + 1 %s end '
                        'for _, v in ipairs({1}) do %s end return s' % (body, body))
    units = [int(u) for u in re.findall(r'while True:\n +' + UNITS, code)]
    assert len(units) == 2 and all(u > 1 for u in units)


def test_counts_of_one_unit_and_of_several_never_skip_the_countdown_s_zero():
    # Interleaved, they cross the zero in every phase: each test resets
    # what it finds run out, so the short loops keep counting throughout.
    rt = LuaRuntime()
    counts = []
    rt.set_hook(counts.append, 10000)
    body = ' '.join('s = s + i * %d' % k for k in range(2, 30))
    chunk = rt.load('local s, i = 0, 0 for j = 1, 3000 do local k = 0 while k < 3 do k = k + 1 end '
                    'while i < j do i = i + 1 %s end end '
                    'for j = 1, 3000 do local k = 0 while k < 3 do k = k + 1 end end return s' % body)
    rt.call_raw(chunk)
    assert 1 <= rt.vm.laps_cell.cell_contents <= LAP
    # The last 3,000 runs of the short loop alone count 4 units each.
    assert len(counts) >= 3000 * 2 * 4 * LOOP_COST // 14000


@pytest.mark.parametrize('src', ['local function f(x) return x + 1 end return f',
                                 'local d = ... local s = 0 for i = 1, 10, d do s = s + i end return s'])
def test_code_that_counts_nothing_declares_no_budget(src):
    assert 'LAPS' not in plain_python(src).replace(HEADER, '')


def test_the_hook_is_given_whole_instruction_counts():
    rt = LuaRuntime()
    counts = []
    rt.set_hook(counts.append, 10000)
    rt.execute('local function f(n) if n < 2 then return n end return f(n - 1) + f(n - 2) end '
               'local i = 0 while i < 100000 do i = i + 1 end return f(18)')
    assert len(counts) > 10
    assert all(c.__class__ is int for c in counts)
    assert counts == sorted(counts)


# Loops around a countdown's turn and calls whose counts run the budget out.
PROGRAMS = [
    'local out = {} for _, n in ipairs({0, 1, %d, %d, %d, %d}) do '
    '  local i, c = 0, 0 while i < n do i = i + 1 c = c + i end '
    '  local r = 0 repeat r = r + 1 until r >= n '
    '  local t = {} for k = 1, n do t[k] = k end local s = 0 for _, v in ipairs(t) do s = s + v end '
    '  local p = 0 for k, v in pairs(t) do p = p + k end '
    '  out[#out + 1] = c .. "/" .. r .. "/" .. s .. "/" .. p end '
    'print(table.concat(out, " "))' % (LAP - 1, LAP, LAP + 1, 3 * LAP),
    FIB.replace('fib(5)', 'print(fib(24))'),
    'local mt = {} local a = setmetatable({}, mt) '
    'mt.__index = function(t, k) if k == 0 then return 1 end return t[k - 1] + t[k - 1] end print(a[16])',
]


@pytest.mark.skipif(LUA is None, reason='lua5.4 not installed')
@pytest.mark.parametrize('src', PROGRAMS)
def test_charged_loops_and_recursions_compute_what_lua_does(src, capsys):
    expected = subprocess.run([LUA, '-'], input=src, capture_output=True, text=True, check=True).stdout
    LuaRuntime().execute(src)
    assert capsys.readouterr().out == expected


# Work the budget must count, and the least it is (in instructions): each
# ran between checks uncounted before its charge existed.
LONG = ' '.join('s = s + i * %d' % k for k in range(2, 40))      # about 115 instructions
COUNTED_WORK = {
    'a long straight-line function':
        ('local function f(i) local s = 0 %s %s return s end '
         'for i = 1, 1000 do f(i) end' % (LONG, LONG), 200000),
    'a while loop with a long body':
        ('local i, s = 0, 0 while i < 2000 do i = i + 1 %s end' % LONG, 200000),
    'a generic for with a long body':
        ('local t = {} for i = 1, 2000 do t[i] = i end local s = 0 '
         'for _, i in ipairs(t) do %s end' % LONG, 200000),
    'a jump back':
        ('local i, s = 0, 0 ::top:: i = i + 1 %s if i < 2000 then goto top end' % LONG, 200000),
    'short loops left before a lap ends':
        ('local function f() local i = 0 while i < 100 do i = i + 1 end end '
         'for j = 1, 3000 do f() local k = 0 repeat k = k + 1 until k == 100 end', 3000 * 200 * LOOP_COST),
}


@pytest.mark.parametrize('name', COUNTED_WORK)
def test_a_count_hook_sees_the_work(name):
    src, least = COUNTED_WORK[name]
    rt = LuaRuntime()
    chunk = rt.load(src)             # compiling counts too: not here
    counts = []
    rt.set_hook(counts.append, 10000)
    rt.call_raw(chunk)
    # A check every 10,000 instructions, and one charge after.
    assert len(counts) >= least // 20000


def test_the_integer_flow_analysis_checks_within_a_long_straight_run(monkeypatch):
    """A big table constructor is one straight run of 60,000 instructions:
    the flow analysis (``flow_types.integers_before``) counts it as it goes,
    a check every 1,024 instructions, not once for the whole run (its
    hook gap was 107-118 ms of CPU time)."""
    from pylua.compiler.codegen import compile_chunk
    from pylua.compiler.parser import parse
    from pylua.compiler.translation import flow_types
    p = compile_chunk(parse('return {' + '1, ' * 20000 + '}', 'c', from_file=False))
    counted = []
    monkeypatch.setattr(flow_types, 'count_instructions', counted.append)
    flow_types.integers_before(p)
    assert len(p.code) > 20000
    assert len(counted) >= len(p.code) // 1024


def test_a_long_constant_chain_is_checked_going_up_it_too(monkeypatch):
    """The resolver's and the folder's walks of ``1 + 1 + ...`` check on the
    way back up the chain as on the way down (coming back up unchecked, a
    20,000-operand chain left about 50 ms between hook calls)."""
    from pylua.compiler import codegen, folding, resolver
    from pylua.compiler.parser import parse
    tree = parse('return 1' + ' + 1' * 5000, 'c', from_file=False)
    counted = {'resolver': [], 'folder': []}
    monkeypatch.setattr(resolver, 'count_instructions', counted['resolver'].append)
    monkeypatch.setattr(folding, 'count_instructions', counted['folder'].append)
    codegen.compile_chunk(tree)
    assert len(counted['resolver']) >= 2 * 5000
    assert len(counted['folder']) >= 2 * (5000 - 1)      # each inner operator, down and up


# Loops whose short iterations (up to LAPIT_UNITS units) their own
# iteration counts, in C: a while loop over LAPIT<units>, a generic for
# over COMPRESS(iterator, LAPIT<units>).
def test_a_short_while_loop_is_counted_by_its_own_iteration():
    code = plain_python('local i = 0 while i < 1000 do i = i + 1 end repeat i = i - 1 until i == 0 return i')
    assert len(re.findall(r'\n +for _lap in LAPIT1:\n', code)) == 2
    assert 'LAPS' not in code.replace(HEADER, '')


def test_a_short_generic_for_is_counted_alongside_its_iterator():
    body = ' '.join('s = s + v * %d' % k for k in range(2, 14))      # several units
    code = plain_python('local s = 0 for _, v in pairs({1, 2}) do %s end return s' % body)
    units = re.findall(r'for r\d+, r\d+ in COMPRESS\(_i\d+, LAPIT(\d)\):', code)
    assert len(units) == 1 and 1 < int(units[0]) <= LAPIT_UNITS
    # The general loop, calling the iterator, counts the same way.
    assert 'for _lap in LAPIT%s:' % units[0] in code
    # Only the call of pairs counts on LAPS, before the loop.
    assert code.count('LAPS -=') == 1 and code.index('LAPS -=') < code.index('COMPRESS')


@pytest.mark.parametrize('loop', ['local i = 0 while i < %d do i = i + 1 end',
                                  'local i = 0 repeat i = i + 1 until i >= %d',
                                  'local t = {} for k = 1, %d do t[k] = k end for _, v in ipairs(t) do end',
                                  'local t = {} for k = 1, %d do t[k] = k end for _, v in pairs(t) do end'])
def test_short_loops_charge_their_iterations(loop):
    rt = LuaRuntime()
    counts = []
    rt.set_hook(counts.append, 10000)
    rt.execute(loop % 100000)
    # All but the last interval, which the hook is not given.
    assert counts and counts[-1] >= 100000 * LOOP_COST - 20000


def test_the_laps_survive_a_cancel_raised_by_their_charge():
    rt = LuaRuntime()

    def hook(count):
        raise LuaInterrupt('stop')
    rt.set_hook(hook, 10000)
    with pytest.raises(LuaInterrupt):
        rt.execute('local i = 0 while true do i = i + 1 end')
    rt.set_hook(lambda count: None, 10000)
    # The lap that raised is spent; the next loops count on, to their end.
    assert rt.execute('local i = 0 while i < 100000 do i = i + 1 end '
                      'local s = 0 for _, v in ipairs({1, 2, 3}) do s = s + v end return i, s') == (100000, 6)


def test_a_function_whose_calls_lie_in_one_branch_counts_there():
    code = plain_python('local function f(t, n) t.c = t.c + 1 if n > 0 then f(t, n - 1) f(t, n - 1) end end '
                        'return f')
    own = code[code.index('def Q'):code.index('return Q')]
    # In the branch, before its first call; the runs not taking it (the leaves) count nothing.
    assert not re.search(r'nonlocal LAPS\n +' + ONE_UNIT, own)
    assert len(re.findall(ONE_UNIT, own)) == 2       # the integer body's and the general one's
    branch = own.index('if 0 < r1:')
    assert branch < re.search(ONE_UNIT, own).start()


def test_an_error_in_a_branch_is_the_only_count_of_a_function_calling_nothing_else():
    code = plain_python('local function push(t, v) if v == nil then error("nil") end t[#t + 1] = v end return push')
    own = code[code.index('def Q'):code.index('return Q')]
    assert not re.search(r'nonlocal LAPS\n +' + ONE_UNIT, own)
    assert own.index('if ') < re.search(ONE_UNIT, own).start()


@pytest.mark.parametrize('src', ['local function f(t, n) if n > 0 then f(t, n - 1) end f(t, 0) end return f',
                                 'local function f(n) if n > 0 then f(n - 1) else f(0) end end return f'])
def test_calls_outside_the_branch_of_the_first_count_on_entry(src):
    own = plain_python(src)
    own = own[own.index('def Q'):own.index('return Q')]
    assert re.search(r'nonlocal LAPS\n +' + ONE_UNIT, own)
