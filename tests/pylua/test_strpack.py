"""string.pack, string.packsize and string.unpack (pylua.library.strpack),
called directly.

Expected values and messages are lua5.4 (5.4.4, x86-64) output;
test_string_props.py also compares random formats with lua5.4 itself.  The
properties check round trips, sizes and range rules.
"""
import math
import struct

import pytest
from hypothesis import assume, given, strategies as st

from pylua.library import strpack
from pylua.runtime.errors import LuaError, LuaMemoryError


class FakeVM:
    def __init__(self, ceiling=1 << 30):
        self.ceiling = ceiling
        self.charged = 0

    def charge(self, n):
        self.charged += n

    def tickn(self, n):
        pass

    def work(self, nbytes):
        pass

    def produced(self, n):
        self.charge(n)

    def check_alloc(self, n):
        if n > self.ceiling:
            raise LuaMemoryError('not enough memory')


VM = FakeVM()
PACK, PACKSIZE, UNPACK = strpack.make(VM)


def call(fn, *args):
    try:
        return tuple(fn(*args))
    except LuaError as e:
        return ('ERR', e.value)


def b(*codes):
    return ''.join(map(chr, codes))


# ------------------------------------------------------------ lua5.4 cases
@pytest.mark.parametrize('args, expected', [
    (('i4', 1), (b(1, 0, 0, 0),)),
    (('>i2 <i2 =i2', 1, 2, 3), (b(0, 1, 2, 0, 3, 0),)),
    (('i16', -2), (b(254) + b(255) * 15,)),
    (('I16', -2), (b(254) + b(255) * 7 + b(0) * 8,)),
    (('j', -1), (b(255) * 8,)),
    (('b B h', -1, 255, -2), (b(255, 255, 254, 255),)),
    (('i3', -8388608), (b(0, 0, 128),)),
    (('f', 1e300), (b(0, 0, 128, 127),)),
    (('f', -1e300), (b(0, 0, 128, 255),)),
    (('>d', 1.5), (b(0x3f, 0xf8, 0, 0, 0, 0, 0, 0),)),
    (('n', '2'), (struct.pack('<d', 2.0).decode('latin-1'),)),
    (('d', 3), (struct.pack('<d', 3.0).decode('latin-1'),)),
    (('c5', 'abc'), ('abc\0\0',)),
    (('c0', ''), ('',)),
    (('z', 'ab'), ('ab\0',)),
    (('s1', 'ab'), (b(2) + 'ab',)),
    (('s', 'ab'), (b(2, 0, 0, 0, 0, 0, 0, 0) + 'ab',)),
    (('!4 b i4', 1, 2), (b(1, 0, 0, 0, 2, 0, 0, 0),)),
    (('! b d', 1, 0.0), (b(1) + b(0) * 15,)),
    (('b Xi4 b', 1, 2), (b(1, 2),)),                # X aligns only as far as '!' allows
    (('!b Xi4 b', 1, 2), (b(1, 0, 0, 0, 2),)),
    (('bx b', 1, 2), (b(1, 0, 2),)),
    (('i4\0i8', 7), (b(7, 0, 0, 0),)),               # the format ends at a zero byte
    (('',), ('',)),
    (('i17', 1), ('ERR', 'integral size (17) out of limits [1,16]')),
    (('i0', 1), ('ERR', 'integral size (0) out of limits [1,16]')),
    (('y', 1), ('ERR', "invalid format option 'y'")),
    (('c', 'a'), ('ERR', "missing size for format option 'c'")),
    (('X', 1), ('ERR', "bad argument #1 to 'pack' (invalid next option for option 'X')")),
    (('Xc2', 1), ('ERR', "bad argument #1 to 'pack' (invalid next option for option 'X')")),
    (('!3i4', 1), ('ERR', "bad argument #1 to 'pack' (format asks for alignment not power of 2)")),
    (('i1', 200), ('ERR', "bad argument #2 to 'pack' (integer overflow)")),
    (('I1', -1), ('ERR', "bad argument #2 to 'pack' (unsigned overflow)")),
    (('j', 1.5), ('ERR', "bad argument #2 to 'pack' (number has no integer representation)")),
    (('i4',), ('ERR', "bad argument #2 to 'pack' (number expected, got nil)")),
    (('i4i4', 1), ('ERR', "bad argument #3 to 'pack' (number expected, got nil)")),
    (('z', 'a\0b'), ('ERR', "bad argument #2 to 'pack' (string contains zeros)")),
    (('s1', 'x' * 256), ('ERR', "bad argument #2 to 'pack' (string length does not fit in given size)")),
    (('c2', 'abc'), ('ERR', "bad argument #2 to 'pack' (string longer than given size)")),
    (('i4y', 'x'), ('ERR', "bad argument #2 to 'pack' (number expected, got string)")),
])
def test_pack(args, expected):
    assert call(PACK, *args) == expected


@pytest.mark.parametrize('fmt, expected', [
    ('i4', (4,)), ('!i8', (8,)), ('Xi8', (0,)), ('bXi8', (1,)), ('!bXi8', (8,)),
    ('i4\0i8', (4,)), ('c214748364', (214748364,)), ('!8 b d b', (17,)),
    ('s', ('ERR', "bad argument #1 to 'packsize' (variable-length format)")),
    ('z', ('ERR', "bad argument #1 to 'packsize' (variable-length format)")),
    ('c2147483647', ('ERR', "invalid format option '7'")),
    ('c2000000000c2000000000', ('ERR', "bad argument #1 to 'packsize' (format result too large)")),
    ('!4 i3 i8', ('ERR', "bad argument #1 to 'packsize' (format asks for alignment not power of 2)")),
    ('!bX', ('ERR', "bad argument #1 to 'packsize' (invalid next option for option 'X')")),
    ('!bX ', ('ERR', "bad argument #1 to 'packsize' (invalid next option for option 'X')")),
])
def test_packsize(fmt, expected):
    assert call(PACKSIZE, fmt) == expected


@pytest.mark.parametrize('args, expected', [
    (('i4', 'abcdefgh', -4), (1751606885, 9)),
    (('i4', 'abcdefgh', 6), ('ERR', "bad argument #2 to 'unpack' (data string too short)")),
    (('i4', 'abcdefgh', 10), ('ERR', "bad argument #3 to 'unpack' (initial position out of string)")),
    (('', 'abcdefgh', 9), (9,)),
    (('b', 'abc', 4), ('ERR', "bad argument #2 to 'unpack' (data string too short)")),
    (('b', b(0) * 5, -1000), (0, 2)),
    (('s1', '\5abc'), ('ERR', "bad argument #2 to 'unpack' (data string too short)")),
    (('s1', '\3abc'), ('abc', 5)),
    (('I16', b(255) * 16), ('ERR', '16-byte integer does not fit into Lua Integer')),
    (('i16', b(255) * 16), (-1, 17)),
    (('i9', b(0) * 7 + b(128, 255)), (-(1 << 63), 10)),
    (('i9', b(0) * 7 + b(128, 0)), ('ERR', '9-byte integer does not fit into Lua Integer')),
    (('J', b(255) * 8), (-1, 9)),
    (('!4 b i4', 'abcdefgh'), (97, 1751606885, 9)),
    (('z z', 'ab\0cd\0'), ('ab', 'cd', 7)),
    (('z', 'abc'), ('ERR', "bad argument #2 to 'unpack' (unfinished string for format 'z')")),
    (('c0', ''), ('', 1)),
    (('c', 'abc'), ('ERR', "missing size for format option 'c'")),
    (('f', b(0, 0, 128, 127)), (math.inf, 5)),
    (('>h', b(255, 254)), (-2, 3)),
    (('>H', b(255, 254)), (65534, 3)),
])
def test_unpack(args, expected):
    assert call(UNPACK, *args) == expected


def test_unpack_result_limit(monkeypatch):
    monkeypatch.setattr(strpack, 'MAX_RESULTS', 10)
    assert call(UNPACK, 'b' * 10, b(0) * 10) == (0,) * 10 + (11,)
    assert call(UNPACK, 'b' * 11, b(0) * 11) == ('ERR', 'stack overflow (too many results)')


def test_huge_padding_asks_memory_first():
    vm = FakeVM(ceiling=1000)
    pack = strpack.make(vm)[0]
    with pytest.raises(LuaMemoryError):
        pack('c100000', '')
    assert pack('c10', 'ab') == ('ab' + '\0' * 8,)
    assert vm.charged == 10


# ------------------------------------------------------------- properties
_INT_OPTS = [('b', 1, True), ('B', 1, False), ('h', 2, True), ('H', 2, False),
             ('i', 4, True), ('I', 4, False), ('l', 8, True), ('L', 8, False),
             ('j', 8, True), ('J', 8, False), ('T', 8, False)]
_INT_OPTS += [('i%d' % n, n, True) for n in range(1, 17)]
_INT_OPTS += [('I%d' % n, n, False) for n in range(1, 17)]


@st.composite
def int_items(draw):
    opt, size, signed = draw(st.sampled_from(_INT_OPTS))
    bits = 8 * min(size, 8)
    if signed:
        v = draw(st.integers(-(1 << (bits - 1)), (1 << (bits - 1)) - 1))
    elif size < 8:
        v = draw(st.integers(0, (1 << bits) - 1))
    else:
        v = draw(st.integers(-(1 << 63), (1 << 63) - 1))   # Lua integers, read back as such
    return opt, v


@st.composite
def items(draw):
    kind = draw(st.sampled_from(['int', 'int', 'float', 'str']))
    if kind == 'int':
        return draw(int_items())
    if kind == 'float':
        opt = draw(st.sampled_from(['d', 'n', 'f']))
        x = draw(st.floats(allow_nan=False, width=32 if opt == 'f' else 64))
        return opt, x
    text = draw(st.text(alphabet=st.characters(max_codepoint=255), max_size=12))
    opt = draw(st.sampled_from(['s', 's1', 's2', 'z', 'c%d' % len(text)]))
    if opt == 'z':
        text = text.replace('\0', '')
    return opt, text


_PREFIX = st.sampled_from(['', '<', '>', '=', '!', '!4', '!2', '>!8'])


@given(_PREFIX, st.lists(items(), max_size=8))
def test_round_trip(prefix, parts):
    fmt = prefix + ' '.join(opt for opt, _ in parts)
    values = [v for _, v in parts]
    packed = call(PACK, fmt, *values)
    assume(packed[0] != 'ERR')     # e.g. '!' asking for an alignment of 3
    (data,) = packed
    out = UNPACK(fmt, data)
    assert out[-1] == len(data) + 1
    assert list(out[:-1]) == values


@given(_PREFIX, st.lists(st.sampled_from([o for o, _, _ in _INT_OPTS] + ['f', 'd', 'n', 'x', 'c3', 'Xi8']),
                         max_size=8))
def test_packsize_is_the_packed_length(prefix, opts):
    fmt = prefix + ''.join(opts)
    args = [0 if o[0] in 'bBhHiIlLjJT' else 0.0 if o in 'fdn' else 'abc'
            for o in opts if o not in ('x', 'Xi8')]
    size = call(PACKSIZE, fmt)
    packed = call(PACK, fmt, *args)
    if size[0] == 'ERR':
        assert packed == (size[0], size[1].replace("'packsize'", "'pack'"))
    else:
        assert size == (len(packed[0]),)


@given(st.integers(1, 7), st.integers(-(1 << 63), (1 << 63) - 1))
def test_small_integer_ranges(size, n):
    signed_ok = -(1 << (8 * size - 1)) <= n < 1 << (8 * size - 1)
    unsigned_ok = 0 <= n < 1 << (8 * size)
    assert (call(PACK, 'i%d' % size, n)[0] != 'ERR') == signed_ok
    assert (call(PACK, 'I%d' % size, n)[0] != 'ERR') == unsigned_ok


@given(st.binary(min_size=8, max_size=8))
def test_endianness_reverses_bytes(raw):
    data = raw.decode('latin-1')
    assert UNPACK('<j', data)[0] == UNPACK('>j', data[::-1])[0]
    assert PACK('>j', UNPACK('<j', data)[0])[0] == data[::-1]
