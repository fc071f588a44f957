"""utf8 library: results and messages exactly as the reference lua5.4 (5.4.4).

Lua strings are byte strings (one code point per byte); ``H`` below is the
UTF-8 encoding of "h\u00e9llo" (6 bytes, 5 characters).  The expected lines
are lua5.4's ``print(pcall(...))`` output for the same calls; when lua5.4 is
installed the reference test regenerates them and checks they still agree.
"""
import pytest

from libsupport import MAXINT, MININT, FakeVM, needs_lua, run_lua, show, show_script
from pylua.library import utf8 as lutf8
from pylua.runtime.errors import LuaError

H = 'h\xc3\xa9llo'


@pytest.fixture
def lib():
    return lutf8.make(FakeVM())


CASES = [
    ('char', (72, 2147483647, 1114111, 55296), 'true\tH\xfd\xbf\xbf\xbf\xbf\xbf\xf4\x8f\xbf\xbf\xed\xa0\x80'),
    ('char', (), 'true\t'),
    ('char', (2147483648,), "false\tbad argument #1 to 'char' (value out of range)"),
    ('char', (-1,), "false\tbad argument #1 to 'char' (value out of range)"),
    ('char', ('65',), 'true\tA'),
    ('char', (65.0,), 'true\tA'),
    ('char', (65.5,), "false\tbad argument #1 to 'char' (number has no integer representation)"),
    ('char', (65, None), "false\tbad argument #2 to 'char' (number expected, got nil)"),
    ('char', ('a',), "false\tbad argument #1 to 'char' (number expected, got string)"),
    ('char', (228, 8364, 0), 'true\t\xc3\xa4\xe2\x82\xac\x00'),
    ('char', (2047, 2048, 65535, 65536, 2097151, 2097152, 67108863, 67108864), 'true\t\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf7\xbf\xbf\xbf\xf8\x88\x80\x80\x80\xfb\xbf\xbf\xbf\xbf\xfc\x84\x80\x80\x80\x80'),
    ('char', (MININT,), "false\tbad argument #1 to 'char' (value out of range)"),
    ('codepoint', (H, 1, -1), 'true\t104\t233\t108\t108\t111'),
    ('codepoint', (H, 3), 'false\tinvalid UTF-8 code'),
    ('codepoint', (H, 2), 'true\t233'),
    ('codepoint', (H, 0), "false\tbad argument #2 to 'codepoint' (out of bounds)"),
    ('codepoint', (H, 1, 10), "false\tbad argument #3 to 'codepoint' (out of bounds)"),
    ('codepoint', ('\xff',), 'false\tinvalid UTF-8 code'),
    ('codepoint', ('\xed\xa0\x80',), 'false\tinvalid UTF-8 code'),
    ('codepoint', ('\xed\xa0\x80', 1, 1, True), 'true\t55296'),
    ('codepoint', ('\xf4\x90\x80\x80', 1, 1, True), 'true\t1114112'),
    ('codepoint', ('\xf4\x90\x80\x80',), 'false\tinvalid UTF-8 code'),
    ('codepoint', ('\xc0\x80',), 'false\tinvalid UTF-8 code'),
    ('codepoint', ('',), "false\tbad argument #3 to 'codepoint' (out of bounds)"),
    ('codepoint', ('abc', 3, 2), 'true'),
    ('codepoint', ('abc', -10), "false\tbad argument #2 to 'codepoint' (out of bounds)"),
    ('codepoint', (), "false\tbad argument #1 to 'codepoint' (string expected, got no value)"),
    ('codepoint', (123,), 'true\t49'),
    ('codepoint', ('abc', 1, 2.5), "false\tbad argument #3 to 'codepoint' (number has no integer representation)"),
    ('codepoint', ('abc', 1, None), 'true\t97'),
    ('codepoint', ('abc', None, 3), 'true\t97\t98\t99'),
    ('codepoint', ('\xfd\xbf\xbf\xbf\xbf\xbf', 1, 1, True), 'true\t2147483647'),
    ('codepoint', ('\xfe\xbf\xbf\xbf\xbf\xbf\xbf', 1, 1, True), 'false\tinvalid UTF-8 code'),
    ('codepoint', ('\xf8\x88\x80\x80\x80', 1, 1, True), 'true\t2097152'),
    ('codepoint', ('\xf8\x87\xbf\xbf\xbf', 1, 1, True), 'false\tinvalid UTF-8 code'),
    ('codepoint', ('\xe4\xb8\xad', 1, 1), 'true\t20013'),
    ('codepoint', ('\xe4\xb8\xad', 2, 2), 'false\tinvalid UTF-8 code'),
    ('codepoint', ('\xe4\xb8\xad\xe4', 1, 4), 'false\tinvalid UTF-8 code'),
    ('codepoint', ('ab', 1, 3), "false\tbad argument #3 to 'codepoint' (out of bounds)"),
    ('codepoint', ('abc', 1, MAXINT), "false\tbad argument #3 to 'codepoint' (out of bounds)"),
    ('codepoint', ('abc', MININT, 2), "false\tbad argument #2 to 'codepoint' (out of bounds)"),
    ('codepoint', ('abc', -1), 'true\t99'),
    ('codepoint', ('a\xe4\xb8\xadb', 1, -1, 0), 'true\t97\t20013\t98'),
    ('codepoint', ('\x00\x7f', 1, 2), 'true\t0\t127'),
    ('len', (H,), 'true\t5'),
    ('len', ('h\xffllo',), 'true\tnil\t2'),
    ('len', (H, 3), 'true\tnil\t3'),
    ('len', (H, 4), 'true\t3'),
    ('len', (H, 0), "false\tbad argument #2 to 'len' (initial position out of bounds)"),
    ('len', (H, 7), 'true\t0'),
    ('len', (H, 8), "false\tbad argument #2 to 'len' (initial position out of bounds)"),
    ('len', (H, 1, 7), "false\tbad argument #3 to 'len' (final position out of bounds)"),
    ('len', (H, 1, 6), 'true\t5'),
    ('len', ('', 1), 'true\t0'),
    ('len', ('abc', -1), 'true\t1'),
    ('len', ('abc', -5), "false\tbad argument #2 to 'len' (initial position out of bounds)"),
    ('len', ('abc', 1, -5), 'true\t0'),
    ('len', ('\xed\xa0\x80',), 'true\tnil\t1'),
    ('len', ('\xed\xa0\x80', 1, -1, True), 'true\t1'),
    ('len', ('\xfd\xbf\xbf\xbf\xbf\xbf', 1, -1, True), 'true\t1'),
    ('len', ('\xfe', 1, -1, True), 'true\tnil\t1'),
    ('len', ('abc', None, None, 1), 'true\t3'),
    ('len', ('\xc2',), 'true\tnil\t1'),
    ('len', ('\xe4\xb8',), 'true\tnil\t1'),
    ('len', (12345,), 'true\t5'),
    ('len', (), "false\tbad argument #1 to 'len' (string expected, got no value)"),
    ('len', ('abc', 'x'), "false\tbad argument #2 to 'len' (number expected, got string)"),
    ('len', ('ab\xe4\xb8\xadcd', 2, 3), 'true\t2'),
    ('len', ('ab\xe4\xb8\xadcd', 4), 'true\tnil\t4'),
    ('len', ('abc', MININT), "false\tbad argument #2 to 'len' (initial position out of bounds)"),
    ('offset', (H, 3), 'true\t4'),
    ('offset', (H, -1), 'true\t6'),
    ('offset', (H, 0, 3), 'true\t2'),
    ('offset', (H, 1, 3), 'false\tinitial position is a continuation byte'),
    ('offset', (H, 10), 'true\tnil'),
    ('offset', (H, 6), 'true\t7'),
    ('offset', (H, 7), 'true\tnil'),
    ('offset', (H, -6), 'true\tnil'),
    ('offset', (H, -7), 'true\tnil'),
    ('offset', (H, 1, 8), "false\tbad argument #3 to 'offset' (position out of bounds)"),
    ('offset', (H, 1, 7), 'true\t7'),
    ('offset', (H, 0, 7), 'true\t7'),
    ('offset', (H, 0, 0), "false\tbad argument #3 to 'offset' (position out of bounds)"),
    ('offset', ('', 1), 'true\t1'),
    ('offset', ('', -1), 'true\tnil'),
    ('offset', ('abc',), "false\tbad argument #2 to 'offset' (number expected, got no value)"),
    ('offset', ('abc', 1, None), 'true\t1'),
    ('offset', ('a\x80\x80b', -1), 'true\t4'),
    ('offset', ('a\x80\x80b', 2), 'true\t4'),
    ('offset', ('a\x80\x80b', 0, 3), 'true\t1'),
    ('offset', ('\x80\x80', 0, 2), 'true\t1'),
    ('offset', ('\x80\x80', -1), 'true\t1'),
    ('offset', ('\x80\x80', 1), 'false\tinitial position is a continuation byte'),
    ('offset', (H, -2, 4), 'true\t1'),
    ('offset', (H, 2, -1), 'true\t7'),
    ('offset', ('abc', 0), 'true\t1'),
    ('offset', ('abc', 1.5), "false\tbad argument #2 to 'offset' (number has no integer representation)"),
    ('offset', ('abc', MININT), 'true\tnil'),
    ('offset', ('abc', MAXINT), 'true\tnil'),
]


@pytest.mark.parametrize('fname, args, expected', CASES)
def test_matches_reference(lib, fname, args, expected):
    assert show(lib.get(fname).fn, *args) == expected


@needs_lua
def test_expected_lines_are_lua54s():
    src = show_script('utf8', CASES)
    assert run_lua(src) == [expected for _, _, expected in CASES]


def test_charpattern(lib):
    assert lib.get('charpattern') == '[\x00-\x7f\xc2-\xfd][\x80-\xbf]*'


def test_char_charges_its_result():
    vm = FakeVM()
    lutf8.make(vm).get('char').fn(0x4e2d, 65)
    assert vm.charged == 4


def codes(lib, s, lax=None):
    """Run a generic ``for`` over utf8.codes as Lua does: (pos, code) pairs or 'error: msg'."""
    step, state, control = lib.get('codes').fn(s, lax)
    out = []
    while True:
        try:
            r = step.fn(state, control)
        except LuaError as e:
            return out + ['error: ' + e.value]
        if not r or r[0] is None:
            return out
        control = r[0]
        out.append(r)


# lua5.4: for p, c in utf8.codes(s [, lax]) do ... end
@pytest.mark.parametrize('s, lax, expected', [
    (H, None, [(1, 104), (2, 233), (4, 108), (5, 108), (6, 111)]),
    ('ab\xffc', None, [(1, 97), (2, 98), 'error: invalid UTF-8 code']),
    ('ab\x80c', None, [(1, 97), (2, 98), (4, 99)]),  # 5.4.4 skips a stray continuation byte
    ('\x80abc', None, [(2, 97), (3, 98), (4, 99)]),
    ('ab\xe4', None, [(1, 97), (2, 98), 'error: invalid UTF-8 code']),
    ('\xed\xa0\x80', True, [(1, 55296)]),
    ('\xed\xa0\x80', None, ['error: invalid UTF-8 code']),
    ('a\xf4\x8f\xbf\xbfb', None, [(1, 97), (2, 1114111), (6, 98)]),
    ('', None, []),
    (12, None, [(1, 49), (2, 50)]),
])
def test_codes(lib, s, lax, expected):
    assert codes(lib, s, lax) == expected


def test_codes_iterator_controls(lib):
    step, s, control = lib.get('codes').fn('abc')
    assert (s, control) == ('abc', 0)
    f = step.fn
    assert f(s, 1) == (2, 98)
    assert f(s, 3) == ()
    assert f(s, -1) == ()
    assert f(s, MININT) == ()
    assert f(s, 10) == ()
    assert f(s, 2.0) == (3, 99)
    assert f(s, '2') == (3, 99)
    assert f(s, 1.5) == (1, 97)  # a control that is no integer reads as 0
    assert f(s, None) == (1, 97)
    assert f(12, 0) == (1, 49)
    with pytest.raises(LuaError) as e:
        f()
    assert e.value.value == "bad argument #1 to 'for iterator' (string expected, got no value)"


def test_codes_strict_and_lax_iterators_differ(lib):
    codes_fn = lib.get('codes').fn
    assert codes_fn('x')[0] is codes_fn('y')[0]
    assert codes_fn('x', True)[0] is not codes_fn('x')[0]
    with pytest.raises(LuaError) as e:
        codes_fn()
    assert e.value.value == "bad argument #1 to 'codes' (string expected, got no value)"


def test_codepoint_result_limit(lib):
    """lua5.4 refuses to push a million results (its stack ceiling)."""
    codepoint = lib.get('codepoint').fn
    assert len(codepoint('a' * 999_979, 1, -1)) == 999_979
    with pytest.raises(LuaError) as e:
        codepoint('a' * 999_990, 1, -1)
    assert e.value.value == 'stack overflow (string slice too long)'


def test_roundtrip_all_scalar_values(lib):
    """char and codepoint agree with Python's UTF-8 codec on every scalar value."""
    char = lib.get('char').fn
    codepoint = lib.get('codepoint').fn
    cps = [c for c in range(0, 0x110000, 97) if not 0xD800 <= c <= 0xDFFF]
    s = char(*cps)[0]
    assert s == ''.join(map(chr, cps)).encode('utf-8').decode('latin-1')
    assert list(codepoint(s, 1, -1)) == cps
    assert lib.get('len').fn(s) == (len(cps),)
