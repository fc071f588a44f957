"""The translator's output is a structure (``translation/ir.py``): Lua
constants are nodes that render only as literals, so no Lua string can
change the meaning of the generated code, and the plain and generator forms
are two renderings of one translation."""
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pylua import LuaRuntime, LuaSyntaxError
from pylua.compiler.pipeline import translate_chunk
from pylua.compiler.translation import dispatcher
from pylua.compiler.translation.ir import Choice, Code, Const, Form, Line, Rendered, Wait, code

# Pieces of Python that would change generated code if a constant were
# ever read as text, or edited as text.
PYTHON_PIECES = ['yield from ', 'yield', 'SYNC(', 'SYNC', ')', '(', "'", '"', '\\', '\n', '\r', '\0',
                 'def ', 'return ', 'lambda: ', ':', '#', '%s', '%r', '%d', '%%', '{', '}', 'r0', 'T',
                 '_R', 'nonlocal DEBT', '    ', '\t', 'import os; os._exit(3)', ';', ',', 'None',
                 'True', "'''", '"""', 'f"{x}"', '\\x00', '\\n', 'pass', 'raise', ']]', '[[', '--']
texts = st.lists(st.sampled_from(PYTHON_PIECES) | st.text('abcXYZ019 .', max_size=3),
                 max_size=8).map(''.join)


def lua_literal(text):
    """A Lua string literal of ``text`` (each byte escaped)."""
    return '"%s"' % ''.join('\\%d' % b for b in text.encode('latin-1'))


def program(text):
    k = lua_literal(text)
    return '''
local s = %(k)s
local t = {[%(k)s] = %(k)s .. "!"}
t.n = 0
local function f(x) t.n = t.n + 1 return x == %(k)s, #x end
local eq, n = f(s)
local co = coroutine.wrap(function(a)
  local b = coroutine.yield(a .. %(k)s)
  return b, (pcall(error, %(k)s))
end)
local y = co(s)
local z, failed = co(%(k)s)
local ok, message = pcall(error, %(k)s, 0)
return s, t[s], eq, n, y, z, failed, message, t.n
''' % {'k': k}


@given(texts)
def test_no_lua_string_changes_the_generated_code(text):
    src = program(text)
    expected = (text, text + '!', True, len(text), text + text, text, False, text, 1)
    assert LuaRuntime().execute(src) == expected
    # Run again inside a coroutine: every function in its generator form.
    wrapped = 'return coroutine.wrap(function(...) %s\nend)()' % src
    assert LuaRuntime().execute(wrapped) == expected


def test_a_constant_is_no_text():
    with pytest.raises(TypeError):
        '%s' % Const('x')
    with pytest.raises(TypeError):
        str(Wait('f()'))
    assert code('r0 = %s', Const("yield from ')")).render(Form.PLAIN) == 'r0 = "yield from \')"'


def test_forms_are_renderings_of_one_structure():
    call = code('_R = %s', Wait(code('call(f, %r)', "global 'f'")))
    head = code('def %s():', Choice('Q0', 'P0'))
    for form, expected in ((Form.PLAIN, ['def Q0():', '    _R = SYNC(call(f, "global \'f\'"))']),
                           (Form.GENERATOR, ['def P0():', '    _R = yield from call(f, "global \'f\'")'])):
        rendered = Rendered()
        rendered.add([Line(0, head, 1), Line(1, call, 2)], form)
        assert rendered.text == expected
        assert rendered.lines == [0, 1, 2]


def test_emitted_source_compiles_in_both_forms():
    tr = translate_chunk('local function f(t, k) local s = "yield from" .. t[k] return s end '
                         'return coroutine.wrap(f)({"x"}, 1)', '=t')
    compile(tr.source, 'plain', 'exec')
    generator_sources = [make()[0] for make in tr.generator_forms.values()]
    for source in generator_sources:
        compile(source, 'generator', 'exec')
        assert 'SYNC(' not in source
    assert any("'yield from'" in source for source in generator_sources)
    assert "'yield from'" in tr.source and 'yield from ' not in tr.source.replace("'yield from'", '')


def test_integer_results_decided_before_emitting():
    # fib's own calls give integers: in the body under its integer guard the
    # addition of their results has no slow path; only the generic body has.
    fib = ('local function fib(n) if n < 2 then return n end '
           'return fib(n - 1) + fib(n - 2) end return fib(20), fib(2.0)')
    assert translate_chunk(fib, '=fib').source.count("arith_plainly('add'") == 1
    assert LuaRuntime().execute(fib) == (6765, 1.0)
    # A string returned: both bodies keep the slow path.
    g = 'local function g(n) if n < 2 then return "1" end return g(n - 1) + g(n - 2) end return g(5)'
    assert translate_chunk(g, '=g').source.count("arith_plainly('add'") == 2
    assert LuaRuntime().execute(g) == 8


def test_a_long_dispatch_halves_its_blocks_down_to_short_runs():
    """A function with goto and many blocks: its dispatch is no chain of
    ``elif pc == N`` as long as its blocks (Python's compiler refused the
    chain of an ``if`` with 1,500 ``elseif`` arms, and each jump walked
    down it), but membership tests that halve the blocks, as deep as the
    logarithm of their number, down to runs of at most ``_RUN`` blocks."""
    arms = ''.join('elseif x == %d then return %d ' % (k, k) for k in range(1, 1500))
    source = translate_chunk('local x = ... goto l ::l:: if x == 0 then return 0 %send' % arms, '=x').source
    assert 'elif pc' not in source
    depth = {}
    runs = [0]
    for line in source.splitlines():
        stripped = line.lstrip()
        if stripped.startswith('if pc == '):
            depth[len(line) - len(stripped)] = True
            runs[-1] += 1
        elif stripped.startswith(('if pc in {', 'else:')):
            runs.append(0)
    assert max(runs) <= dispatcher._RUN
    levels = (max(depth) - min(depth)) // 4
    assert levels <= math.ceil(math.log2(3000 / dispatcher._RUN)) + 1
    assert LuaRuntime().execute('return load(...)(1499)', 'local x = ... goto l ::l:: if x == 0 then return 0 %send' % arms) == 1499


def test_a_jump_to_a_block_ahead_in_its_run_goes_on_without_dispatching():
    """An ``elseif`` arm's test failing jumps to the next arm: when that is
    tested after it in the same run, the dispatch goes on to it (the rest
    of the arm in an ``else``) rather than starting over from the top."""
    arms = ''.join('elseif x == %d then y = %d ' % (k, k * 2) for k in range(1, 40))
    src = ('local x = ... local y = 0 goto l ::l:: if x == 0 then y = -1 %send return y' % arms)
    source = translate_chunk(src, '=x').source
    lines = source.splitlines()
    ahead = [n for n, line in enumerate(lines)
             if re.search(r'^\s*if .*: pc = \d+$', line) and lines[n + 1].strip() == 'else:']
    assert len(ahead) > 20
    rt = LuaRuntime()
    f = rt.compile(src)
    assert [f(x) for x in range(-1, 41)] == [0, -1] + [2 * k for k in range(1, 40)] + [0]


def test_a_chunk_python_cannot_compile_fails_to_load_as_lua_says(monkeypatch):
    """Python's compiler has limits of its own; a chunk past them is
    refused as a chunk past Lua's limits is, never an internal error."""
    from pylua.compiler import pipeline

    def refuse(source, filename):
        raise RecursionError('maximum recursion depth exceeded during compilation')
    rt = LuaRuntime()
    load = rt.compile('return load(..., "=big")')
    monkeypatch.setattr(pipeline, 'compile_module', refuse)
    assert load('return 1 + ...') == (
        None, 'big: chunk too complex to translate (maximum recursion depth exceeded during compilation)')
    with pytest.raises(LuaSyntaxError):
        rt.execute('return 2 + ...')


def test_a_long_chain_of_or_compiles_in_time_linear_in_it():
    """Whether an ``and``/``or`` is a constant was asked of every operand
    of a chain and again of its own operands: 400 terms of ``or`` took
    4.4 s to compile, 1,000 about 65 s (lua5.4: 1 ms).  The answer is
    remembered per expression."""
    import time
    terms = ' or '.join('c == %d' % i for i in range(2000))
    rt = LuaRuntime()
    started = time.process_time()
    f = rt.execute('return load(...)', 'local c = ... if %s then return 1 end return 0' % terms)
    assert time.process_time() - started < 10
    assert (f(1999), f(2000)) == (1, 0)
    assert rt.execute('local k <const> = false return k or 1 or c') == 1


def test_a_goto_to_the_end_of_its_loop_s_body_is_a_continue():
    """``goto continue`` made a function run as a dispatch over its blocks
    (20 to 200 times slower than lua5.4, where loops run about 7 times):
    a goto to a label ending the body of the loop it is in is Python's
    ``continue``, and the function keeps its structured code."""
    skip = 'local s = 0 for i = 1, 9 do if i %% 3 == 0 then goto continue end s = s + i %s ::continue:: end return s'
    plain = translate_chunk(skip % '', '=c').source
    assert 'continue' in plain and 'pc = ' not in plain
    assert LuaRuntime().execute(skip % '') == 27
    # A goto from a nested loop to the outer one's end keeps the dispatcher.
    nested = translate_chunk('for i = 1, 2 do for j = 1, 2 do goto out end ::out:: end', '=c').source
    assert 'pc = ' in nested
    # So does one before ``until``, whose condition follows the label.
    until = translate_chunk('local i = 0 repeat i = i + 1 goto c ::c:: until i > 2', '=c').source
    assert 'pc = ' in until
