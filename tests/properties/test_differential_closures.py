"""Random programs of locals, closures, assignments, loops, recursion and
goto print the same on pylua as on the reference lua5.4.

The translator specialises exactly these shapes (upvalues passed as values
when never reassigned, a local function calling itself, known integers in
straight-line code, short integer loops), so a generated program is a
differential check of each specialisation against real Lua.  Skipped when
``lua5.4`` is not installed.
"""
import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pylua import LuaRuntime
from pylua.raw import tostring_raw

LUA = shutil.which('lua5.4')
pytestmark = pytest.mark.skipif(LUA is None, reason='lua5.4 is not installed')

PRELUDE = 'local out = {}\nlocal function emit(x) out[#out + 1] = tostring(x) end\nlocal v = 2\n'
EPILOGUE = "\nprint(table.concat(out, ' '))\n"


@st.composite
def programs(draw):
    names = iter('v%d' % n for n in range(1000))
    return PRELUDE + '\n'.join(draw(_block(names, ['v'], [], 3))) + EPILOGUE


def _block(names, values, functions, depth):
    """Statements with ``values`` (integer locals) and ``functions`` (local
    functions of one integer argument) in scope; both lists grow as the
    block declares."""
    @st.composite
    def block(draw):
        values_here, functions_here = list(values), list(functions)
        lines = []
        for _ in range(draw(st.integers(1, 5))):
            lines.append(draw(_statement(names, values_here, functions_here, depth)))
        return lines
    return block()


def _expr(values, functions):
    # Mostly integers; a float now and then makes a function's results
    # floats on some paths (its own calls are then not integers).
    atoms = [st.integers(-3, 9).map(str), st.sampled_from(['0.5', '2.0'])]
    if values:
        atoms.append(st.sampled_from(values))
    atom = st.one_of(*atoms)
    shapes = [atom, st.tuples(atom, st.sampled_from(['+', '-', '*', '%', '//']), atom)
              .map(lambda t: '(%s %s %s)' % (t[0], t[1], t[2]) if t[1] not in ('%', '//')
                   else '(%s %s (%s %% 5 + 1))' % t)]
    if functions:
        shapes.append(st.tuples(st.sampled_from(functions), atom).map(lambda t: '%s(%s %% 4)' % t))
    return st.one_of(*shapes)


def _statement(names, values, functions, depth):
    @st.composite
    def statement(draw):
        kinds = ['local', 'emit', 'assign']
        if depth > 0:
            kinds += ['closure', 'recursive', 'loop', 'do', 'if', 'goto', 'collect']
        kind = draw(st.sampled_from(kinds))
        expr = draw(_expr(values, functions))
        if kind == 'local' or (kind == 'assign' and not values):
            name = next(names)
            values.append(name)
            return 'local %s = %s' % (name, expr)
        if kind == 'emit':
            return 'emit(%s)' % expr
        if kind == 'assign':
            return '%s = %s' % (draw(st.sampled_from(values)), expr)
        if kind == 'closure':
            name, arg = next(names), next(names)
            body = draw(_block(names, values + [arg], functions, depth - 1))
            result = draw(_expr(values + [arg], functions))
            functions.append(name)
            return 'local function %s(%s)\n%s\nreturn %s\nend' % (name, arg, '\n'.join(body), result)
        if kind == 'recursive':
            name, arg = next(names), next(names)
            functions.append(name)
            if draw(st.booleans()):
                return ('local function %s(%s)\nif %s <= 0 then return %s end\nreturn %s + %s(%s - 1)\nend'
                        % (name, arg, arg, expr, arg, name, arg))
            # Two calls of itself per call, as fib makes.
            return ('local function %s(%s)\nif %s < 2 then return %s end\nreturn %s(%s - 1) + %s(%s - 2)\nend'
                    % (name, arg, arg, expr, name, arg, name, arg))
        if kind == 'loop':
            var = next(names)
            bound = draw(st.integers(-1, 4))
            body = draw(_block(names, values + [var], functions, depth - 1))
            return 'for %s = 1, %d do\n%s\nend' % (var, bound, '\n'.join(body))
        if kind == 'do':
            return 'do\n%s\nend' % '\n'.join(draw(_block(names, values, functions, depth - 1)))
        if kind == 'if':
            then = draw(_block(names, values, functions, depth - 1))
            other = draw(_block(names, values, functions, depth - 1))
            return 'if %s > 2 then\n%s\nelse\n%s\nend' % (expr, '\n'.join(then), '\n'.join(other))
        if kind == 'goto':
            # Each pass through the label declares a fresh local that a
            # closure captures: every closure must see its own value.
            k, c, label, fns = next(names), next(names), next(names), next(names)
            return ('do\nlocal %s, %s = 0, {}\n::%s::\nlocal %s = %s + %s\n%s[#%s + 1] = function() return %s end\n'
                    '%s = %s + 1\nif %s < 3 then goto %s end\nfor _, f in ipairs(%s) do emit(f()) end\nend'
                    % (k, fns, label, c, k, expr, fns, fns, c, k, k, k, label, fns))
        # collect: closures made in a loop, each over its own loop variable,
        # and one over a shared local the loop keeps changing.
        shared, fns, var = next(names), next(names), next(names)
        return ('do\nlocal %s, %s = %s, {}\nfor %s = 1, 3 do\n%s = %s + %s\n'
                '%s[%s] = function() return %s * 10 + %s end\nend\n'
                'for _, f in ipairs(%s) do emit(f()) end\nend'
                % (shared, fns, expr, var, shared, shared, var, fns, var, var, shared, fns))
    return statement()


def on_pylua(source: str) -> str:
    printed = []
    runtime = LuaRuntime()
    runtime.globals()['print'] = lambda *args: printed.append('\t'.join(map(tostring_raw, args)))
    try:
        runtime.execute(source)
    except Exception:                   # compared with the reference's failing
        return 'error'
    return '\n'.join(printed) + '\n'


def on_reference(source: str) -> str:
    done = subprocess.run([LUA, '-'], input=source.encode(), capture_output=True, timeout=30)
    return done.stdout.decode() if done.returncode == 0 else 'error'


@given(programs())
def test_closures_loops_and_recursion_match_lua(source):
    assert on_pylua(source) == on_reference(source), source


# -- tables and floats ------------------------------------------------------
# Straight-line field arithmetic on plain tables, on proxies whose
# metamethods count every access, and on tables with missing fields, called
# with float and integer steps: the translator's guard splitting (one table
# check, one float check per block) and its field updates (``t.k = t.k + c``
# storing straight into a present field) must give Lua's results, Lua's
# number of metamethod calls, and Lua's error messages.

TABLE_PRELUDE = '''local count = 0
local function proxy(t)
  return setmetatable({}, {__index = function(_, k) count = count + 1 return t[k] end,
                           __newindex = function(_, k, v) count = count + 1 t[k] = v end})
end
'''
FIELDS = ('x', 'y', 'z')
TABLES = ('{x = 1.5, y = 2, z = -0.5}', '{x = 3, y = 0.25, z = 4}', 'proxy({x = 0.5, y = 1, z = 2.5})',
          "setmetatable({x = 1}, {__index = {y = 2.5, z = 0}})", '{x = 1.5, y = 2}', "{x = 1, y = 'two', z = 3}",
          "setmetatable({x = 2}, {__index = {y = 1.5, z = 3}, "
          "__newindex = function(t, k, v) count = count + 1 rawset(t, k, v) end})")


@st.composite
def field_programs(draw):
    field = st.sampled_from(FIELDS)
    table = st.sampled_from(('a', 'b'))
    operand = st.one_of(st.builds('{}.{}'.format, table, field), st.sampled_from(['dt', '0.5', '2', 't1']))
    lines = ['local t1 = 1.0']
    for _ in range(draw(st.integers(3, 9))):
        op = draw(st.sampled_from(['+', '-', '*', '/']))
        left, right = draw(operand), draw(operand)
        form = draw(st.sampled_from(['store', 'local', 'update', 'update by a product']))
        if form == 'store':
            lines.append('%s.%s = %s %s %s' % (draw(table), draw(field), left, op, right))
        elif form == 'local':
            lines.append('t1 = %s %s %s' % (left, op, right))
        else:
            # t.k = t.k op c, the translator's field update, and t.k = t.k op a * b.
            target = '%s.%s' % (draw(table), draw(field))
            op = draw(st.sampled_from(['+', '-', '*']))
            by = right if form == 'update' else '%s * %s' % (right, draw(operand))
            lines.append('%s = %s %s %s' % (target, target, op, by))
    steps = draw(st.lists(st.sampled_from(['0.25', '2', '-1.5']), min_size=1, max_size=3))
    body = (TABLE_PRELUDE + 'local function step(a, b, dt)\n  %s\n  return t1\nend\n' % '\n  '.join(lines) +
            'local A, B = %s, %s\n' % (draw(st.sampled_from(TABLES)), draw(st.sampled_from(TABLES))) +
            ''.join('step(A, B, %s)\n' % s for s in steps) +
            'return A.x, A.y, A.z, B.x, B.y, B.z, count\n')
    return ("local f = load([==[\n%s]==], '=prog')\nprint(pcall(f))\n" % body)


@given(field_programs())
def test_field_arithmetic_on_tables_matches_lua(source):
    assert on_pylua(source) == on_reference(source), source
