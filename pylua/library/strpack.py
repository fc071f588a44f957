"""``string.pack``, ``string.packsize`` and ``string.unpack`` (manual §6.4.2),
with lstrlib's algorithm and messages for a 64-bit little-endian machine
(``lua5.4`` 5.4.4 on x86-64: native alignment 8, ``size_t`` and ``long`` 8
bytes, ``int`` 4).

A format is parsed once (cached) into steps; alignment padding depends on
the running offset and is computed when the steps run.  An option Lua
rejects becomes an error step, raised when processing reaches it so that
arguments before it are checked first, as in Lua.
"""
from __future__ import annotations

import math
import struct

from ..runtime import state
from ..runtime.frames import rt_error
from ..runtime.numbers import wrap
from .args import ABSENT, arg_error, check_int, check_num, check_str, opt_int

MAXINTSIZE = 16
SZINT = 8
NATIVE_ALIGN = 8                 # offsetof(struct cD, u) on x86-64
MAXSIZE = 2 ** 31 - 1            # lstrlib's MAXSIZE where size_t is wider than int
# The most values unpack can return before Lua's stack (LUAI_MAXSTACK slots) is full.
MAX_RESULTS = 999_979

# Step kinds.
KINT, KUINT, KFLOAT, KDOUBLE, KCHAR, KSTRING, KZSTR, KPADDING, KPADDALIGN, KNOP, KERROR = range(11)

_FIXED = {
    'b': (KINT, 1), 'B': (KUINT, 1), 'h': (KINT, 2), 'H': (KUINT, 2),
    'l': (KINT, 8), 'L': (KUINT, 8), 'j': (KINT, 8), 'J': (KUINT, 8),
    'T': (KUINT, 8), 'f': (KFLOAT, 4), 'n': (KDOUBLE, 8), 'd': (KDOUBLE, 8),
}

_CACHE: dict = {}
_CACHE_MAX = 256
_CACHE_KEY_MAX = 512     # longer formats are not kept alive by the cache


class _FormatError(Exception):
    """An error step: ``arg`` says whether it is an argument error on #1."""

    def __init__(self, msg, arg=False):
        super().__init__(msg)
        self.msg = msg
        self.arg = arg


def _getnum(fmt: str, i: int, default: int):
    if i >= len(fmt) or not '0' <= fmt[i] <= '9':
        return default, i
    a = 0
    while True:
        a = a * 10 + ord(fmt[i]) - 48
        i += 1
        if not (i < len(fmt) and '0' <= fmt[i] <= '9' and a <= (MAXSIZE - 9) // 10):
            return a, i


def _getnumlimit(fmt: str, i: int, default: int):
    size, i = _getnum(fmt, i, default)
    if size > MAXINTSIZE or size <= 0:
        raise _FormatError('integral size (%d) out of limits [1,%d]' % (size, MAXINTSIZE))
    return size, i


class _Reader:
    """lstrlib's Header plus the read position in the format."""
    __slots__ = ('fmt', 'i', 'little', 'maxalign')

    def __init__(self, fmt):
        self.fmt = fmt
        self.i = 0
        self.little = True
        self.maxalign = 1

    def option(self):
        """(kind, size) of the next option (getoption)."""
        fmt = self.fmt
        opt = fmt[self.i]
        self.i += 1
        fixed = _FIXED.get(opt)
        if fixed is not None:
            return fixed
        if opt in 'iI':
            size, self.i = _getnumlimit(fmt, self.i, 4)
            return (KINT if opt == 'i' else KUINT), size
        if opt == 's':
            size, self.i = _getnumlimit(fmt, self.i, 8)
            return KSTRING, size
        if opt == 'c':
            size, self.i = _getnum(fmt, self.i, -1)
            if size == -1:
                raise _FormatError("missing size for format option 'c'")
            return KCHAR, size
        if opt == 'z':
            return KZSTR, 0
        if opt == 'x':
            return KPADDING, 1
        if opt == 'X':
            return KPADDALIGN, 0
        if opt == ' ':
            return KNOP, 0
        if opt in '<>=':
            self.little = opt != '>'
            return KNOP, 0
        if opt == '!':
            self.maxalign, self.i = _getnumlimit(fmt, self.i, NATIVE_ALIGN)
            return KNOP, 0
        raise _FormatError("invalid format option '%s'" % opt)

    def step(self):
        """(kind, size, alignment, little-endian) of the next item (getdetails)."""
        kind, size = self.option()
        align = size
        if kind == KPADDALIGN:
            if self.i >= len(self.fmt):
                raise _FormatError("invalid next option for option 'X'", True)
            next_kind, align = self.option()
            if next_kind == KCHAR or align == 0:
                raise _FormatError("invalid next option for option 'X'", True)
        if align <= 1 or kind == KCHAR:
            align = 1
        else:
            align = min(align, self.maxalign)
            if align & (align - 1):
                raise _FormatError('format asks for alignment not power of 2', True)
        return kind, size, align, self.little


# Format items handled between two checks of the work budget.
_CHECK_EVERY = 4096


def parse(fmt: str) -> list:
    """Steps ``(kind, size, alignment, little-endian)`` of a pack format; the
    last may be ``(KERROR, the _FormatError, 1, True)``."""
    steps = _CACHE.get(fmt)
    if steps is not None:
        return steps
    steps = []
    rd = _Reader(fmt.partition('\0')[0])     # C stops at the first NUL
    try:
        while rd.i < len(rd.fmt):
            if len(steps) & (_CHECK_EVERY - 1) == _CHECK_EVERY - 1:
                state.count_work(_CHECK_EVERY * state.WORK_BYTES)
            steps.append(rd.step())
    except _FormatError as e:
        steps.append((KERROR, e, 1, True))
    if len(fmt) <= _CACHE_KEY_MAX:
        if len(_CACHE) >= _CACHE_MAX:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[fmt] = steps
    return steps


def _raise(err: _FormatError, fname: str):
    if err.arg:
        arg_error(1, fname, err.msg)
    rt_error(err.msg)


def _packint(n: int, size: int, little: bool) -> str:
    """``n``'s low ``size`` bytes in two's complement (sign-extended past 8)."""
    return (n & ((1 << (8 * size)) - 1)).to_bytes(size, 'little' if little else 'big').decode('latin-1')


def _packfloat(x: float, size: int, little: bool) -> str:
    code = ('<' if little else '>') + ('f' if size == 4 else 'd')
    try:
        return struct.pack(code, x).decode('latin-1')
    except OverflowError:       # C's (float) cast of a huge double gives inf
        return struct.pack(code, math.copysign(math.inf, x)).decode('latin-1')


def _unpackint(data: str, pos: int, size: int, little: bool, signed: bool) -> int:
    v = int.from_bytes(data[pos:pos + size].encode('latin-1'), 'little' if little else 'big')
    if size < SZINT:
        if signed and v >> (8 * size - 1):
            v -= 1 << (8 * size)
        return v
    res = wrap(v & 0xFFFFFFFFFFFFFFFF)
    if size > SZINT:
        high = v >> 64
        if high != (0 if not signed or res >= 0 else (1 << (8 * (size - SZINT))) - 1):
            rt_error('%d-byte integer does not fit into Lua Integer' % size)
    return res


def _counted(vm, steps):
    """The steps of a long format, one instruction each, checked as they go."""
    for k, step in enumerate(steps, 1):
        if k & (_CHECK_EVERY - 1) == 0:
            vm.tickn(_CHECK_EVERY)
        yield step


def make(vm):
    """The three functions, bound to ``vm`` for the memory account."""

    def pack(fmt=ABSENT, *args):
        steps = parse(check_str(fmt, 1, 'pack'))
        if len(steps) > _CHECK_EVERY:
            steps = _counted(vm, steps)
        out = []
        total = 0
        nargs = len(args)
        argi = 0
        for kind, size, align, little in steps:
            if kind == KERROR:
                _raise(size, 'pack')
            pad = -total & (align - 1)
            total += pad + size
            if pad:
                out.append('\0' * pad)
            if kind >= KPADDING:
                if kind == KPADDING:
                    out.append('\0')
                continue
            argno = argi + 2
            # Lua leaves a nil just past the arguments: the first missing
            # one reads as nil, and that is the only one ever checked.
            v = args[argi] if argi < nargs else None
            argi += 1
            if kind == KINT:
                n = check_int(v, argno, 'pack')
                if size < SZINT:
                    lim = 1 << (8 * size - 1)
                    if not -lim <= n < lim:
                        arg_error(argno, 'pack', 'integer overflow')
                out.append(_packint(n, size, little))
            elif kind == KUINT:
                n = check_int(v, argno, 'pack')
                if size < SZINT and not 0 <= n < 1 << (8 * size):
                    arg_error(argno, 'pack', 'unsigned overflow')
                out.append(_packint(n & 0xFFFFFFFFFFFFFFFF, size, little))
            elif kind == KFLOAT or kind == KDOUBLE:
                out.append(_packfloat(float(check_num(v, argno, 'pack')), size, little))
            elif kind == KCHAR:
                s = check_str(v, argno, 'pack')
                if len(s) > size:
                    arg_error(argno, 'pack', 'string longer than given size')
                if size > len(s):
                    vm.check_alloc(size)
                    s += '\0' * (size - len(s))
                out.append(s)
            elif kind == KSTRING:
                s = check_str(v, argno, 'pack')
                if size < 8 and len(s) >= 1 << (8 * size):
                    arg_error(argno, 'pack', 'string length does not fit in given size')
                out.append(_packint(len(s), size, little))
                out.append(s)
                total += len(s)
            else:  # KZSTR
                s = check_str(v, argno, 'pack')
                if '\0' in s:
                    arg_error(argno, 'pack', 'string contains zeros')
                out.append(s + '\0')
                total += len(s) + 1
        result = ''.join(out)
        vm.produced(len(result))
        return (result,)

    def packsize(fmt=ABSENT, *_):
        total = 0
        for kind, size, align, _little in parse(check_str(fmt, 1, 'packsize')):
            if kind == KERROR:
                _raise(size, 'packsize')
            if kind == KSTRING or kind == KZSTR:
                arg_error(1, 'packsize', 'variable-length format')
            size += -total & (align - 1)
            if total > MAXSIZE - size:
                arg_error(1, 'packsize', 'format result too large')
            total += size
        return (total,)

    def unpack(fmt=ABSENT, data=ABSENT, init=ABSENT, *_):
        steps = parse(check_str(fmt, 1, 'unpack'))
        data = check_str(data, 2, 'unpack')
        ld = len(data)
        pos = opt_int(init, 3, 'unpack', 1)
        pos = (pos if pos > 0 else 1 if pos == 0 or pos < -ld else ld + pos + 1) - 1
        if pos > ld:
            arg_error(3, 'unpack', 'initial position out of string')
        results = []
        start = pos
        if len(steps) > _CHECK_EVERY:
            steps = _counted(vm, steps)
        for kind, size, align, little in steps:
            if kind == KERROR:
                _raise(size, 'unpack')
            pad = -pos & (align - 1)
            if pad + size > ld - pos:
                arg_error(2, 'unpack', 'data string too short')
            pos += pad
            if kind < KPADDING and len(results) >= MAX_RESULTS:
                rt_error('stack overflow (too many results)')
            if kind == KINT or kind == KUINT:
                results.append(_unpackint(data, pos, size, little, kind == KINT))
            elif kind == KFLOAT or kind == KDOUBLE:
                code = ('<' if little else '>') + ('f' if size == 4 else 'd')
                results.append(struct.unpack(code, data[pos:pos + size].encode('latin-1'))[0])
            elif kind == KCHAR:
                results.append(data[pos:pos + size])
            elif kind == KSTRING:
                n = _unpackint(data, pos, size, little, False) & 0xFFFFFFFFFFFFFFFF
                if n > ld - pos - size:
                    arg_error(2, 'unpack', 'data string too short')
                results.append(data[pos + size:pos + size + n])
                pos += n
            elif kind == KZSTR:
                end = data.find('\0', pos)
                if end < 0:
                    arg_error(2, 'unpack', "unfinished string for format 'z'")
                results.append(data[pos:end])
                pos = end + 1
            pos += size
        if pos - start > 1024:
            vm.work(pos - start)
        results.append(pos + 1)
        return results

    return pack, packsize, unpack
