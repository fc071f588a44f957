"""tostring/tonumber round trips and Lua's number formatting rules."""
import shutil
import subprocess

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pylua import LuaRuntime

INT64 = st.integers(-(1 << 63), (1 << 63) - 1)
FLOATS = st.floats(allow_nan=False, allow_infinity=False)

rt = LuaRuntime()
roundtrip = rt.compile('local x = ... return tonumber(tostring(x)), math.type(tonumber(tostring(x)))')
fmt = rt.compile('local f, x = ... return string.format(f, x)')


@given(INT64)
def test_integers_round_trip_exactly(n):
    assert roundtrip(n) == (n, 'integer')


@given(FLOATS)
def test_floats_round_trip_to_fourteen_digits(x):
    back, kind = roundtrip(x)
    assert kind == 'float'
    # tostring uses %.14g: the value comes back within 14 significant digits.
    assert back == float('%.14g' % x)


@given(INT64)
def test_format_d_and_x_follow_c_rules(n):
    assert fmt('%d', n) == str(n)
    assert fmt('%x', n) == '%x' % (n & 0xFFFFFFFFFFFFFFFF)


@given(FLOATS)
def test_format_g_is_c_printf(x):
    assert fmt('%g', x) == '%g' % x


NUMERALS = st.text(alphabet='0123456789abcdefxXpP+-. \t', max_size=12)
to_text = rt.compile('return tostring(tonumber(...))')


@given(st.one_of(INT64.map(str), FLOATS.map(repr), NUMERALS))
def test_tonumber_agrees_with_lua54(text):
    if shutil.which('lua5.4') is None:
        pytest.skip('lua5.4 not installed')
    ours = to_text(text)
    lua = subprocess.run(['lua5.4', '-', text], input='io.write(tostring(tonumber(arg[1])))',
                         capture_output=True, text=True).stdout
    assert ours == lua


# Plain decimal numerals and their near misses: the fast path of str2number
# must give what the general one (numbers.numeral) gives, class and sign of
# zero included.
DECIMALS = st.builds(lambda sign, whole, dot, frac: sign + whole + dot + frac,
                     st.sampled_from(['', '-', '+', '--', ' ']),
                     st.text(alphabet='0123456789', max_size=21),
                     st.sampled_from(['', '.', '..']),
                     st.text(alphabet='0123456789', max_size=21))
NEAR_MISSES = st.text(alphabet='0123456789-+.eExX_ \t\x00\xb2\xb9\xbdinfa', max_size=14)


@settings(max_examples=400)      # a pure function: many examples are cheap
@given(st.one_of(DECIMALS, NEAR_MISSES, INT64.map(str), FLOATS.map(repr)))
@example('9223372036854775807')
@example('9223372036854775808')
@example('-9223372036854775808')
@example('-9223372036854775809')
@example('999999999999999999')
@example('0000000000000000000001')
@example('-0')
@example('-0.0')
@example('.')
@example('-')
@example('')
@example('\xb2')
def test_fast_str2number_agrees_with_the_general_path(text):
    from pylua.runtime.numbers import numeral, str2number
    fast, general = str2number(text), numeral(text)
    assert (fast.__class__, repr(fast)) == (general.__class__, repr(general))
