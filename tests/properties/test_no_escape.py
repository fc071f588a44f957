"""Property: no Lua source, valid or not, makes pylua raise anything but its
own error types, and valid programs built from a small grammar always run to
a result or a LuaError.

This file is also a model of how to property-test a sandbox: generate
programs from a grammar, run them under a runtime with limits, and assert
only on the *kind* of outcome.
"""
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pylua import LuaError, LuaRuntime

NAMES = ['a', 'b', 'c', 't', 's']
BINOPS = ['+', '-', '*', '/', '//', '%', '^', '..', '==', '~=', '<', '<=', '>', '>=',
          'and', 'or', '&', '|', '~', '<<', '>>']
LITERALS = ['nil', 'true', 'false', '0', '1', '-1', '2.5', '0x10', '1e300', '"x"', '"10"',
            '{}', '{1, 2, 3}', '{x = 1}', 'math.huge', 'math.mininteger', '...']


def expressions():
    leaves = st.sampled_from(NAMES + LITERALS)

    def extend(inner):
        return st.one_of(
            st.tuples(inner, st.sampled_from(BINOPS), inner).map(lambda t: '(%s %s %s)' % t),
            st.tuples(st.sampled_from(['-', 'not ', '#', '~']), inner).map(lambda t: '(%s%s)' % t),
            st.tuples(inner, st.sampled_from(NAMES)).map(lambda t: '%s.%s' % t),
            st.tuples(inner, inner).map(lambda t: '%s[%s]' % t),
            st.tuples(st.sampled_from(['tostring', 'tonumber', 'type', 'select', 'pcall',
                                       'string.rep', 'string.format', 'math.floor', 'rawlen']),
                      st.lists(inner, max_size=3)).map(lambda t: '%s(%s)' % (t[0], ', '.join(t[1]))),
            st.tuples(inner).map(lambda t: 'function(...) return %s end' % t),
        )
    return st.recursive(leaves, extend, max_leaves=8)


def statements():
    expr = expressions()
    simple = st.one_of(
        st.tuples(st.sampled_from(NAMES), expr).map(lambda t: '%s = %s' % t),
        st.tuples(st.sampled_from(NAMES), expr).map(lambda t: 'local %s = %s' % t),
        st.tuples(expr, expr, expr).map(lambda t: '%s[%s] = %s' % t),
        expr.map(lambda e: 'print(%s)' % e),
        expr.map(lambda e: 'return %s' % e),
    )

    def extend(inner):
        block = st.lists(inner, max_size=3).map('\n'.join)
        return st.one_of(
            st.tuples(expr, block, block).map(lambda t: 'if %s then %s else %s end' % t),
            st.tuples(st.sampled_from(NAMES), block).map(lambda t: 'for %s = 1, 3 do %s end' % t),
            st.tuples(expr, block).map(lambda t: 'for k, v in pairs(%s) do %s end' % t),
            st.tuples(block).map(lambda t: 'do %s end' % t),
            st.tuples(block).map(lambda t: 'pcall(function() %s end)' % t),
            st.tuples(block, expr).map(lambda t: 'local co = coroutine.wrap(function() %s return %s end) co()' % t),
        )
    return st.recursive(simple, extend, max_leaves=10)


def run_bounded(src):
    """Run ``src`` in a fresh sandbox with a memory ceiling and a time limit."""
    rt = LuaRuntime(max_memory=16 * 1024 * 1024, stdout=_Sink())
    timer = threading.Timer(2.0, rt.cancel)
    timer.start()
    try:
        rt.execute(src)
    except LuaError:
        pass
    finally:
        timer.cancel()


class _Sink:
    def write(self, data):
        return len(data)

    def flush(self):
        pass


@given(st.lists(statements(), min_size=1, max_size=6).map('\n'.join))
def test_grammar_programs_only_raise_lua_errors(src):
    run_bounded(src)


@given(st.text(alphabet=st.sampled_from(list('local function end if then else for do while x y 1 2 = + - * / ( ) [ ] { } " \' . , ; : # ~ < > \n')), max_size=80))
def test_random_text_only_raises_lua_errors(src):
    run_bounded(src)


@given(st.binary(max_size=60))
def test_random_bytes_only_raise_lua_errors(data):
    run_bounded(data)


@pytest.mark.slow
@given(st.lists(statements(), min_size=1, max_size=12).map('\n'.join))
def test_grammar_programs_many(src):
    run_bounded(src)
