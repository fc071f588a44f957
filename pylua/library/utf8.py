"""Lua 5.4's utf8 library (the 5.4.4 behaviour of the reference ``lua5.4``).

Lua strings are byte strings held as ``str`` with one code point per byte, so
decoding works on ``ord`` values.  Like Lua, the decoder accepts the original
UTF-8 of up to six bytes (code points up to 2^31-1) in lax mode and only
Unicode scalar values in strict mode.
"""
from __future__ import annotations

from functools import partial

from ..runtime.frames import rt_error
from ..runtime.table import LuaTable
from ..runtime.values import Builtin
from .args import ABSENT, arg_error, check_int, check_str, opt_int, to_bool
from .math import tointeger
from .table import MAX_RESULTS

MAXUNICODE = 0x10FFFF
MAXUTF = 0x7FFFFFFF
INT_MAX = 2 ** 31 - 1
CHARPATTERN = '[\x00-\x7F\xC2-\xFD][\x80-\xBF]*'
# The smallest code point for each count of continuation bytes, to reject
# overlong encodings; a lone continuation byte (count 0) is always invalid.
_LIMITS = (0xFFFFFFFF, 0x80, 0x800, 0x10000, 0x200000, 0x4000000)


def decode(s: str, i: int, strict: bool):
    """The code point of the sequence starting at 0-based ``i`` and the index
    after it, or None when the bytes there are not valid UTF-8.

    Bytes past the end read as 0, as C sees the string's terminating NUL."""
    c = ord(s[i])
    if c < 0x80:
        return c, i + 1
    n = len(s)
    count = 0
    res = 0
    while c & 0x40:  # each further leading 1 bit announces a continuation byte
        count += 1
        cc = ord(s[i + count]) if i + count < n else 0
        if cc & 0xC0 != 0x80:
            return None
        res = (res << 6) | (cc & 0x3F)
        c <<= 1
    res |= (c & 0x7F) << (count * 5)
    if count > 5 or res > MAXUTF or res < _LIMITS[count]:
        return None
    if strict and (res > MAXUNICODE or 0xD800 <= res <= 0xDFFF):
        return None
    return res, i + count + 1


def _valid_text(chunk: str):
    """``chunk`` decoded in one C call when it is valid UTF-8 ending at a
    character's end, else None.  Python's decoder accepts exactly the
    Unicode scalar values, which both of Lua's modes accept: the same
    characters, at 30 times the speed of ``decode`` per character; a
    chunk it refuses is decoded by ``decode``, which finds Lua's answer."""
    try:
        return chunk.encode('latin-1').decode('utf-8')
    except UnicodeDecodeError:
        return None


def _iscont(s: str, i: int) -> bool:
    return i < len(s) and ord(s[i]) & 0xC0 == 0x80


def _posrelat(pos: int, n: int) -> int:
    """A string position counted back from the end when negative; 0 when before the start."""
    if pos >= 0:
        return pos
    if -pos > n:
        return 0
    return n + pos + 1


def encode(code: int) -> str:
    """UTF-8 bytes of ``code`` (at most 2^31-1), as Lua's ``%U`` writes them."""
    if code < 0x80:
        return chr(code)
    if code <= MAXUNICODE and not 0xD800 <= code <= 0xDFFF:
        return chr(code).encode('utf-8').decode('latin-1')
    tail = []
    mfb = 0x3F  # the largest value that still fits in the first byte
    while code > mfb:
        tail.append(chr(0x80 | (code & 0x3F)))
        code >>= 6
        mfb >>= 1
    tail.append(chr(((~mfb << 1) & 0xFF) | code))
    return ''.join(reversed(tail))


def _char_arg(v, n) -> str:
    code = check_int(v, n, 'char')
    if not 0 <= code <= MAXUTF:
        arg_error(n, 'char', 'value out of range')
    return encode(code)


# Characters encoded or decoded between two checks of the work budget (one
# instruction each).
_CHECK_EVERY = 4096


def u_char(vm, *args):
    if len(args) < _CHECK_EVERY:
        s = ''.join([_char_arg(v, n) for n, v in enumerate(args, 1)])
    else:
        pieces = []
        for n, v in enumerate(args, 1):
            if n & (_CHECK_EVERY - 1) == 0:
                vm.tickn(_CHECK_EVERY)
            pieces.append(_char_arg(v, n))
        s = ''.join(pieces)
    vm.charge(len(s))
    return (s,)


def u_codepoint(vm, s=ABSENT, i=ABSENT, j=ABSENT, lax=ABSENT, *_):
    s = check_str(s, 1, 'codepoint')
    n = len(s)
    posi = _posrelat(opt_int(i, 2, 'codepoint', 1), n)
    pose = _posrelat(opt_int(j, 3, 'codepoint', posi), n)
    strict = not to_bool(lax)
    if posi < 1:
        arg_error(2, 'codepoint', 'out of bounds')
    if pose > n:
        arg_error(3, 'codepoint', 'out of bounds')
    if posi > pose:
        return ()
    if pose - posi >= INT_MAX:
        rt_error('string slice too long')
    if pose - posi + 1 > MAX_RESULTS:
        rt_error('stack overflow (string slice too long)')
    chunk = s[posi - 1:pose]
    if len(chunk) > 64:
        vm.tickn(len(chunk))                # one instruction per result, at most
    if chunk.isascii():
        return list(map(ord, chunk))
    valid = _valid_text(chunk)
    if valid is not None:
        return list(map(ord, valid))
    codes = []
    k = posi - 1
    while k < pose:
        if len(codes) & (_CHECK_EVERY - 1) == _CHECK_EVERY - 1:
            vm.tickn(_CHECK_EVERY)
        r = decode(s, k, strict)
        if r is None:
            rt_error('invalid UTF-8 code')
        code, k = r
        codes.append(code)
    return codes


def u_len(vm, s=ABSENT, i=ABSENT, j=ABSENT, lax=ABSENT, *_):
    s = check_str(s, 1, 'len')
    n = len(s)
    posi = _posrelat(opt_int(i, 2, 'len', 1), n)
    posj = _posrelat(opt_int(j, 3, 'len', -1), n)
    strict = not to_bool(lax)
    if not (1 <= posi and posi - 1 <= n):
        arg_error(2, 'len', 'initial position out of bounds')
    posi -= 1
    posj -= 1
    if posj >= n:
        arg_error(3, 'len', 'final position out of bounds')
    if posi > posj:
        return (0,)
    if posj - posi > 1024:
        vm.work(posj - posi)
    chunk = s[posi:posj + 1]
    if chunk.isascii():
        return (posj + 1 - posi,)
    valid = _valid_text(chunk)
    if valid is not None:
        return (len(valid),)
    count = 0
    while posi <= posj:
        if count & (_CHECK_EVERY - 1) == _CHECK_EVERY - 1:
            vm.tickn(_CHECK_EVERY)
        r = decode(s, posi, strict)
        if r is None:
            return (None, posi + 1)
        posi = r[1]
        count += 1
    return (count,)


def u_offset(vm, s=ABSENT, n=ABSENT, i=ABSENT, *_):
    s = check_str(s, 1, 'offset')
    length = len(s)
    n = check_int(n, 2, 'offset')
    posi = _posrelat(opt_int(i, 3, 'offset', 1 if n >= 0 else length + 1), length)
    if not (1 <= posi and posi - 1 <= length):
        arg_error(3, 'offset', 'position out of bounds')
    posi -= 1
    if n == 0:
        while posi > 0 and _iscont(s, posi):  # back to the start of this character
            posi -= 1
        return (posi + 1,)
    if _iscont(s, posi):
        rt_error('initial position is a continuation byte')
    if n < 0:
        while n < 0 and posi > 0:
            posi -= 1
            while posi > 0 and _iscont(s, posi):
                posi -= 1
            n += 1
            if n & (_CHECK_EVERY - 1) == 0:
                vm.tickn(_CHECK_EVERY)
    else:
        n -= 1  # the character at posi is the first
        while n > 0 and posi < length:
            posi += 1
            while _iscont(s, posi):
                posi += 1
            n -= 1
            if n & (_CHECK_EVERY - 1) == 0:
                vm.tickn(_CHECK_EVERY)
    return (posi + 1,) if n == 0 else (None,)


def _codes_step(strict: bool):
    """The iterator ``utf8.codes`` returns: from the control value (the
    previous character's position) to the next character."""
    def step(s=ABSENT, pos=ABSENT, *_):
        s = check_str(s, 1, 'for iterator')
        n = len(s)
        k = tointeger(pos) or 0
        if k < 0:
            return ()  # an unsigned position in C: past any end
        while k < n and ord(s[k]) & 0xC0 == 0x80:  # skip the previous character's tail
            k += 1
        if k >= n:
            return ()
        r = decode(s, k, strict)
        if r is None:
            rt_error('invalid UTF-8 code')
        return (k + 1, r[0])
    return step


def make(vm) -> LuaTable:
    strict_step = Builtin(_codes_step(True), 'for iterator')
    lax_step = Builtin(_codes_step(False), 'for iterator')

    def u_codes(s=ABSENT, lax=ABSENT, *_):
        step = lax_step if to_bool(lax) else strict_step
        s = check_str(s, 1, 'codes')
        return (step, s, 0)

    t = LuaTable()
    for name, fn in (('char', partial(u_char, vm)), ('codepoint', partial(u_codepoint, vm)),
                     ('codes', u_codes), ('len', partial(u_len, vm)),
                     ('offset', partial(u_offset, vm))):
        t.set(name, Builtin(fn, 'utf8.' + name))
    t.set('charpattern', CHARPATTERN)
    return t
