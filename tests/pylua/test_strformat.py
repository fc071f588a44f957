"""string.format (pylua.library.strformat), called directly.

Expected outputs and messages are lua5.4 (5.4.4) output on x86-64;
test_string_props.py also compares random specifications with lua5.4
itself.  The properties check the C rules: integer conversions, two's
complement hex, '%g' as C (Python's '%g' has the same semantics), and '%a'
and '%q' reading back to the same value.
"""
import math
import re

import pytest
from hypothesis import given, strategies as st

from pylua.library import strformat
from pylua.runtime.errors import LuaError
from pylua.runtime.table import LuaTable

NAN = math.copysign(math.nan, -1.0)    # Lua's 0/0 on x86
MININT = -(1 << 63)
MAXINT = (1 << 63) - 1


class FakeVM:
    def __init__(self):
        self.charged = 0

    def charge(self, n):
        self.charged += n

    def produced(self, n):
        self.charge(n)


def fake_tostring(v):
    """Stands in for the metamethod-aware tostring: a generator that yields
    once (as a suspending ``__tostring`` would) before answering."""
    yield 'suspend'
    if v.__class__ is LuaTable:
        return 'T<%d>' % len(v.arr)
    return {None: 'nil', True: 'true', False: 'false'}[v]


def fake_tostring_raw(v):
    return 'table: 0x%08x' % id(v)


VM = FakeVM()
FORMAT = strformat.make_format(VM, fake_tostring, fake_tostring_raw)


def run(gen):
    """Drive a generator builtin, answering its yields; return (results, yields)."""
    yields = []
    try:
        while True:
            yields.append(gen.send(None))
    except StopIteration as stop:
        return stop.value, yields


def fmt(*args):
    try:
        return run(FORMAT(*args))[0][0]
    except LuaError as e:
        return 'ERR: ' + e.value


# ------------------------------------------------------------ lua5.4 cases
@pytest.mark.parametrize('args, expected', [
    (('%5.1s|', 'abc'), '    a|'),
    (('%-5d|', -3), '-3   |'),
    (('%05d', -3), '-0003'),
    (('%+.3d', 7), '+007'),
    (('% 5d', 42), '   42'),
    (('%.0d', 0), ''),
    (('%5.0d|', 0), '     |'),
    (('%.3d', 1), '001'),
    (('%05.3d', 1), '  001'),
    (('%#x', 0), '0'),
    (('%#.0o', 0), '0'),
    (('%#5o', 8), '  010'),
    (('%#05o', 8), '00010'),
    (('%#08x', 255), '0x0000ff'),
    (('%-#8X|', 255), '0XFF    |'),
    (('%x', -1), 'ffffffffffffffff'),
    (('%x', MININT), '8000000000000000'),
    (('%o', -8), '1777777777777777777770'),
    (('%u', -1), '18446744073709551615'),
    (('%.3x', 10), '00a'),
    (('%5c|', 0), '    \0|'),
    (('%-3c|', 65), 'A  |'),
    (('%c', 321), 'A'),
    (('%e', 0), '0.000000e+00'),
    (('%.3e', 123456), '1.235e+05'),
    (('%G', 1e-10), '1E-10'),
    (('%g', 100000000000000), '1e+14'),
    (('%g %g %g %g', 1e20, 0.1, 100000, 1e-5), '1e+20 0.1 100000 1e-05'),
    (('%#.0f', 2.5), '2.'),
    (('%.1f', 0.05), '0.1'),
    (('%.1f', 0.25), '0.2'),
    (('%10.4f|', math.pi), '    3.1416|'),
    (('%-10.2e|', -math.pi), '-3.14e+00 |'),
    (('%.99f', 1), '1.' + '0' * 99),
    (('[%05f] [%+f] [% f] [%-6e|]', math.inf, math.inf, -NAN, math.inf), '[  inf] [+inf] [ nan] [inf   |]'),
    (('[%+f] [%E] [%G] [%08.3g]', NAN, -math.inf, NAN, -math.inf), '[-nan] [-INF] [-NAN] [    -inf]'),
    (('%s', 1e15), '1e+15'),
    (('%s', 2.0 ** 63), '9.2233720368548e+18'),
    (('%s', -0.0), '-0.0'),
    (('%s %s', 1, 'x'), '1 x'),
    (('%10s|', True), '      true|'),
    (('%s', 'a\0b'), 'a\0b'),
    (('%.2s', 'a\0b'), 'ERR: bad argument #2 to \'format\' (string contains zeros)'),
    (('%d', -0.0), '0'),
    (('%d', 2.0 ** 53), '9007199254740992'),
    (('%d', '10'), '10'),
    (('%i', 3.0), '3'),
    (('%f', '1e2'), '100.000000'),
    (('%5.2s|', 1), '    1|'),
    (('%%%d%%', 5), '%5%'),
    (('no specs',), 'no specs'),
    (('',), ''),
    (('%p', None), '(null)'),
    (('%10p', 1), '    (null)'),
])
def test_lua54_outputs(args, expected):
    assert fmt(*args) == expected


@pytest.mark.parametrize('args, message', [
    (('%y', 1), "invalid conversion '%y' to 'format'"),
    (('%10', 1), "invalid conversion '%10' to 'format'"),
    (('%', 1), "invalid conversion '%' to 'format'"),
    (('%F', 1.5), "invalid conversion '%F' to 'format'"),
    (('%ld', 1), "invalid conversion '%l' to 'format'"),
    (('%d', 1.5), "bad argument #2 to 'format' (number has no integer representation)"),
    (('%d', 'x'), "bad argument #2 to 'format' (number expected, got string)"),
    (('%d', LuaTable()), "bad argument #2 to 'format' (number expected, got table)"),
    (('%d',), "bad argument #2 to 'format' (no value)"),
    (('%',), "bad argument #2 to 'format' (no value)"),
    (('%s %s', 'a'), "bad argument #3 to 'format' (no value)"),
    (('%10.3q', 1), "specifier '%q' cannot have modifiers"),
    (('%q', LuaTable()), "bad argument #2 to 'format' (value has no literal form)"),
    (('%100d', 1), "invalid conversion specification: '%100d'"),
    (('%0100d', 1), "invalid conversion specification: '%0100d'"),
    (('%.100f', 1), "invalid conversion specification: '%.100f'"),
    (('%1.2.3d', 1), "invalid conversion specification: '%1.2.3d'"),
    (('%#d', 1), "invalid conversion specification: '%#d'"),
    (('%.3c', 65), "invalid conversion specification: '%.3c'"),
    (('%#s', 'x'), "invalid conversion specification: '%#s'"),
    (('% u', 1), "invalid conversion specification: '% u'"),
    (('%+x', 1), "invalid conversion specification: '%+x'"),
    (('%.1p', 1), "invalid conversion specification: '%.1p'"),
    (('%' + '-' * 21 + 'd', 1), 'invalid format (too long)'),
    (('%#d', 'x'), "bad argument #2 to 'format' (number expected, got string)"),  # argument first
    (('%#c', 'x'), "invalid conversion specification: '%#c'"),                    # format first
])
def test_error_messages(args, message):
    assert fmt(*args) == 'ERR: ' + message


def test_long_flag_runs_are_allowed_up_to_the_limit():
    assert fmt('%' + '-' * 17 + 'd', 1) == '1'


# ------------------------------------------------------------------- %q
@pytest.mark.parametrize('v, expected', [
    ('a\nb', '"a\\\nb"'),
    ('tab\there', '"tab\\9here"'),
    ('\0' + '1', '"\\0001"'),
    ('\1\2\3' + '3', '"\\1\\2\\0033"'),
    ('a\r\n', '"a\\13\\\n"'),
    ('"\\\x7f\x80x', '"\\"\\\\\\127\x80x"'),
    (0.1, '0x1.999999999999ap-4'),
    (1.5, '0x1.8p+0'),
    (3.0, '0x1.8p+1'),
    (-0.0, '-0x0p+0'),
    (-2.0 ** 63, '-0x1p+63'),
    (5e-324, '0x0.0000000000001p-1022'),
    (math.inf, '1e9999'),
    (-math.inf, '-1e9999'),
    (NAN, '(0/0)'),
    (MININT, '0x8000000000000000'),
    (MAXINT, '9223372036854775807'),
    (None, 'nil'),
    (True, 'true'),
])
def test_quoted(v, expected):
    assert fmt('%q', v) == expected


# ------------------------------------------------------------------- %a
@pytest.mark.parametrize('spec, x, expected', [
    ('%a', 1.0, '0x1p+0'),
    ('%A', 255.5, '0X1.FFP+7'),
    ('%.3a', 1 / 3, '0x1.555p-2'),
    ('%25a', -0.1, '    -0x1.999999999999ap-4'),
    ('%a', 0.0, '0x0p+0'),
    ('%a', 5e-324, '0x0.0000000000001p-1022'),
    ('%a', 2.0 ** -1023, '0x0.8p-1022'),
    ('%.0a', 1.5, '0x2p+0'),            # glibc rounds half to even on the hex digit
    ('%.0a', 2.5, '0x1p+1'),
    ('%.0a', 3.5, '0x2p+1'),
    ('%.1a', 1.96875, '0x2.0p+0'),      # a carry goes into the leading digit
    ('%.0a', 1.7976931348623157e308, '0x2p+1023'),
    ('%.14a', 0.1, '0x1.999999999999a0p-4'),
    ('%.3a', 5e-324, '0x0.000p-1022'),
    ('%+a', 1.0, '+0x1p+0'),
    ('% a', 1.0, ' 0x1p+0'),
    ('%#a', 1.0, '0x1.p+0'),
    ('%010a', 1.0, '0x00001p+0'),
    ('%-10a|', 1.0, '0x1p+0    |'),
    ('%a', math.inf, 'inf'),
    ('%A', NAN, '-NAN'),
    ('%010A', -NAN, '       NAN'),
])
def test_hexfloat(spec, x, expected):
    assert fmt(spec, x) == expected


# ------------------------------------------------------------ metamethods
def test_s_of_tables_goes_through_tostring_and_may_suspend():
    t = LuaTable([1, 2])
    result, yields = run(FORMAT('<%s|%5s>', t, None))
    assert result == ('<T<2>|  nil>',)
    assert yields == ['suspend', 'suspend']


def test_p_uses_the_address_tostring_shows():
    t = LuaTable()
    assert fmt('%p', t) == '0x%08x' % id(t)
    assert re.fullmatch(r'0x[0-9a-f]+', fmt('%p', 'str'))


# ------------------------------------------------------------------ cache
def test_parse_is_cached_and_bounded():
    assert strformat.parse('%d-%s') is strformat.parse('%d-%s')
    for k in range(strformat._CACHE_MAX + 10):
        strformat.parse('%d' + 'x' * k)
    assert len(strformat._CACHE) <= strformat._CACHE_MAX


def test_large_results_are_charged():
    vm = FakeVM()
    f = strformat.make_format(vm, fake_tostring, fake_tostring_raw)
    run(f('%s', 'x' * 100_000))
    assert vm.charged >= 100_000


# ------------------------------------------------------------- properties
ints = st.integers(MININT, MAXINT)
finite = st.floats(allow_nan=False, allow_infinity=False)


@given(ints)
def test_d_is_the_decimal(n):
    assert fmt('%d', n) == str(n)
    assert fmt('%d', str(n)) == str(n)


@given(st.integers(-2 ** 53, 2 ** 53))
def test_d_takes_integral_floats(n):
    assert fmt('%d', float(n)) == str(n)
    assert fmt('%d', n + 0.5).startswith('ERR: ') or abs(n) >= 2 ** 52


@given(ints)
def test_x_o_are_twos_complement(n):
    u = n & 0xFFFFFFFFFFFFFFFF
    assert fmt('%x', n) == '%x' % u
    assert fmt('%X', n) == '%X' % u
    assert fmt('%o', n) == '%o' % u
    assert fmt('%#x', n) == ('0x%x' % u if u else '0')


def c_int_layout(n, flags, width, prec):
    """C99 7.19.6.1 for %d: precision is the minimum digit count (0 and a
    zero precision print nothing), '0' pads after the sign unless a
    precision is given, '-' pads on the right."""
    digits = str(abs(n))
    if prec is not None:
        digits = '' if prec == 0 and n == 0 else digits.rjust(prec, '0')
    sign = '-' if n < 0 else '+' if '+' in flags else ' ' if ' ' in flags else ''
    body = sign + digits
    if len(body) >= width:
        return body
    if '-' in flags:
        return body.ljust(width)
    if '0' in flags and prec is None:
        return sign + digits.rjust(width - len(sign), '0')
    return body.rjust(width)


@given(ints, st.integers(0, 99), st.one_of(st.none(), st.integers(0, 99)),
       st.sampled_from(['', '-', '0', '+', ' ', '-+', '0 ', '+0', '-0']))
def test_d_layout_follows_c(n, width, prec, flags):
    spec = '%' + flags + (str(width) if width else '') + ('' if prec is None else '.%d' % prec) + 'd'
    assert fmt(spec, n) == c_int_layout(n, flags, width, prec)


@given(finite, st.integers(0, 20))
def test_g_is_c_g(x, prec):
    assert fmt('%g', x) == '%g' % x
    assert fmt('%.' + str(prec) + 'g', x) == ('%.' + str(prec) + 'g') % x
    assert fmt('%e', x) == '%e' % x


@given(finite)
def test_a_and_q_read_back(x):
    assert float.fromhex(fmt('%a', x)) == x
    assert float.fromhex(fmt('%q', x)) == x
    assert float.fromhex(fmt('%A', x)) == x


_ESCAPE = re.compile(r'\\(\d{1,3}|\n|.)', re.S)


@given(st.text(alphabet=st.characters(max_codepoint=255), max_size=30))
def test_q_of_strings_reads_back(s):
    q = fmt('%q', s)
    assert q[0] == q[-1] == '"'
    body = q[1:-1]
    assert not re.search(r'[\x00-\x09\x0b-\x1f\x7f]', body)   # no raw control bytes but '\n'
    decoded = _ESCAPE.sub(lambda m: chr(int(m.group(1))) if m.group(1).isdigit() else m.group(1), body)
    assert decoded == s
