"""tostring/tonumber round trips and Lua's number formatting rules."""
import shutil
import subprocess

import pytest
from hypothesis import given
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
