"""``string.format`` (manual §6.4, lstrlib's str_format as lua5.4 5.4.4 runs it).

A format string is parsed once (cached) into literal text and conversion
specifications.  Lua checks a specification only when it reaches it, after
checking that its argument exists, so a malformed one is kept as a piece
that raises its message at that moment.  Output follows C's printf: integer
conversions are written here (Python's ``%`` differs on precision, ``#``
and zero), finite floats use Python's ``%`` (the same C semantics), and
``%a`` and non-finite values are written here as glibc prints them.
"""
from __future__ import annotations

import math
import re
import struct
import sys

from ..runtime import state
from ..runtime.frames import rt_error
from ..runtime.values import NEEDS_LUA
from ..runtime.numbers import MININT, tostr
from .args import ABSENT, arg_error, check_int, check_num, check_str

_U64 = (1 << 64) - 1
MAX_FORMAT = 32          # lstrlib's buffer for one '%...' specification
_SPAN = frozenset('-+ #0123456789.')
_SHORT_STRING = 40     # LUAI_MAXSHORTLEN
_LETTERS = frozenset('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ')
_DIGITS = frozenset('0123456789')

# Flags each conversion accepts (lstrlib's L_FMTFLAGS*), and whether it takes
# a precision.
_FLAGS = {
    'd': ('-+0 ', True), 'i': ('-+0 ', True), 'u': ('-0', True),
    'o': ('-#0', True), 'x': ('-#0', True), 'X': ('-#0', True),
    'a': ('-+#0 ', True), 'A': ('-+#0 ', True),
    'e': ('-+#0 ', True), 'E': ('-+#0 ', True), 'f': ('-+#0 ', True),
    'g': ('-+#0 ', True), 'G': ('-+#0 ', True),
    'c': ('-', False), 'p': ('-', False), 's': ('-', True),
}

_CACHE: dict = {}
_CACHE_MAX = 256
_CACHE_KEY_MAX = 512     # longer formats are not kept alive by the cache
# Results up to this size are left to the periodic heap measurement, as
# concatenation does; bigger ones are charged when made.
_CHARGE_MIN = 1024


# ------------------------------------------------------------------ parsing
def _checkformat(form: str, flags: str, precision: bool):
    """lstrlib's checkformat: None if ``form`` is acceptable, else its error."""
    spec = form[1:]
    i = 0
    while spec[i] in flags:
        i += 1
    if spec[i] != '0':                 # a width cannot start with '0'
        i = _skip2digits(spec, i)
        if spec[i] == '.' and precision:
            i = _skip2digits(spec, i + 1)
    if spec[i] not in _LETTERS:
        return "invalid conversion specification: '%s'" % form
    return None


def _skip2digits(spec: str, i: int) -> int:
    if spec[i] in _DIGITS:
        i += 1
        if spec[i] in _DIGITS:
            i += 1
    return i


def _split(form: str, flags: str):
    """(flags, width, precision) of a checked specification."""
    spec = form[1:-1]
    i = 0
    while i < len(spec) and spec[i] in flags:
        i += 1
    fl = spec[:i]
    width, _, prec = spec[i:].partition('.')
    return fl, int(width) if width else 0, (int(prec or '0') if '.' in spec[i:] else None)


def _spec(form: str, conv: str):
    """The piece for one specification: (kind, flags, width, precision, error, form)."""
    if conv == 'q':
        err = "specifier '%q' cannot have modifiers" if len(form) > 2 else None
        return ('q', '', 0, None, err, form)
    if conv == 's' and len(form) == 2:
        return ('s0', '', 0, None, None, form)
    if conv == 'd' and len(form) == 2:
        return ('d0', '', 0, None, None, form)
    allowed = _FLAGS.get(conv)
    if allowed is None:
        # C prints the specification as a C string: up to a NUL.
        return ('!', '', 0, None,
                "invalid conversion '%s' to 'format'" % form.partition('\0')[0], form)
    flags, precision = allowed
    err = _checkformat(form, flags, precision)
    if err is not None:
        return (conv, '', 0, None, err, form)
    fl, width, prec = _split(form, flags)
    return (conv, fl, width, prec, None, form)


def parse(fmt: str):
    """``(pieces, python form)`` of format string ``fmt``: the pieces are
    literal strings and specification tuples; see ``_python_form``."""
    parsed = _CACHE.get(fmt)
    if parsed is not None:
        return parsed
    pieces = []
    lit = []
    i = 0
    n = len(fmt)
    steps = 0
    while i < n:
        steps += 1
        if steps == 4096:                  # one instruction per piece parsed
            steps = 0
            state.count_work(4096 * state.WORK_BYTES)
        j = fmt.find('%', i)
        if j < 0:
            lit.append(fmt[i:])
            break
        lit.append(fmt[i:j])
        if j + 1 < n and fmt[j + 1] == '%':
            lit.append('%')
            i = j + 2
            continue
        k = j + 1
        while k < n and fmt[k] in _SPAN:
            k += 1
        conv = fmt[k] if k < n else '\0'    # C reads the terminating NUL
        form = '%' + fmt[j + 1:k] + conv
        if k - j >= MAX_FORMAT - 10:
            piece = ('!', '', 0, None, 'invalid format (too long)', form)
        else:
            piece = _spec(form, conv)
        if lit:
            pieces.append(''.join(lit))
            lit = []
        pieces.append(piece)
        i = k + 1
    if lit:
        pieces.append(''.join(lit))
    parsed = (pieces, _python_form(pieces))
    if len(fmt) <= _CACHE_KEY_MAX:
        if len(_CACHE) >= _CACHE_MAX:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[fmt] = parsed
    return parsed


# What an argument must be for Python's '%' to print it as C does.
# What an argument must be for Python's ``%``: a string (``%s``), one
# without zero bytes (``%s`` with a width, flag or precision, where Lua
# refuses zeros), an integer, a non-negative one, a finite number.
_STR, _STRZ, _INT, _UINT, _NUM = range(5)


def _python_form(pieces):
    """``(python format, argument checks)`` when Python's ``%`` operator
    writes the whole format as C would for arguments that pass the checks,
    else None."""
    out = []
    checks = []
    for pc in pieces:
        if pc.__class__ is str:
            out.append(pc.replace('%', '%%'))
            continue
        kind, flags, width, prec, err, form = pc
        if err:
            return None
        if kind == 's0':
            checks.append(_STR)
        elif kind == 's':
            checks.append(_STRZ)
        elif kind == 'd0' or (kind in ('d', 'i') and prec is None):
            checks.append(_INT)
        elif kind in ('e', 'E', 'f', 'g', 'G'):
            checks.append(_NUM)
        elif kind in ('x', 'X') and prec is None and '#' not in flags:
            checks.append(_UINT)
        else:
            return None
        out.append(form)
    return ''.join(out), tuple(checks)


def _fits(args, checks) -> bool:
    if len(args) < len(checks):
        return False
    for v, k in zip(args, checks):
        c = v.__class__
        if c is int:
            if k is _STR or k is _STRZ or (k is _UINT and v < 0):
                return False
        elif c is str:
            if k is not _STR and (k is not _STRZ or '\0' in v):
                return False
        elif c is not float or k is not _NUM or v - v != 0.0:   # floats: finite, for %e %f %g
            return False
    return True


# --------------------------------------------------------------- rendering
def _pad(body: str, flags: str, width: int) -> str:
    if len(body) >= width:
        return body
    if '-' in flags:
        return body + ' ' * (width - len(body))
    return ' ' * (width - len(body)) + body


def fmt_int(digits: str, sign: str, prefix: str, flags: str, width: int, prec) -> str:
    """C printf's layout of an integer conversion from its digits."""
    if prec is not None:
        if prec == 0 and digits == '0':
            digits = ''
        elif len(digits) < prec:
            digits = '0' * (prec - len(digits)) + digits
    if prefix == '0':                  # '%#o': the first digit must be a zero
        prefix = '' if digits[:1] == '0' else '0'
    head = sign + prefix
    fill = width - len(head) - len(digits)
    if fill <= 0:
        return head + digits
    if '-' in flags:
        return head + digits + ' ' * fill
    if '0' in flags and prec is None:
        return head + '0' * fill + digits
    return ' ' * fill + head + digits


def _sign(negative: bool, flags: str) -> str:
    if negative:
        return '-'
    if '+' in flags:
        return '+'
    if ' ' in flags:
        return ' '
    return ''


def _nonfinite(x: float, conv: str, flags: str, width: int) -> str:
    """glibc's inf/nan: sign flags apply, zero padding does not."""
    body = 'nan' if x != x else 'inf'
    if conv in 'EGA':
        body = body.upper()
    return _pad(_sign(math.copysign(1.0, x) < 0, flags) + body, flags, width)


def hexfloat(x: float, flags: str = '', width: int = 0, prec=None, upper: bool = False) -> str:
    """C's ``%a``: glibc's hexadecimal float layout and rounding."""
    if x != x or x in (math.inf, -math.inf):
        return _nonfinite(x, 'A' if upper else 'a', flags, width)
    bits = struct.unpack('<Q', struct.pack('<d', x))[0]
    negative = bits >> 63
    biased = (bits >> 52) & 0x7FF
    mant = bits & ((1 << 52) - 1)
    if biased == 0:
        lead = 0
        exp = 0 if mant == 0 else -1022
    else:
        lead = 1
        exp = biased - 1023
    if prec is None:
        digits = ('%013x' % mant).rstrip('0')
    elif prec >= 13:
        digits = '%013x' % mant + '0' * (prec - 13)
    else:
        drop = 4 * (13 - prec)
        keep = mant >> drop
        rest = mant & ((1 << drop) - 1)
        half = 1 << (drop - 1)
        odd = (keep if prec else lead) & 1
        if rest > half or (rest == half and odd):     # round half to even
            keep += 1
            if keep >> (4 * prec):
                keep = 0
                lead += 1
        digits = '%0*x' % (prec, keep) if prec else ''
    point = '.' if digits or '#' in flags else ''
    sign = _sign(bool(negative), flags)
    tail = '%d%s%sp%+d' % (lead, point, digits, exp)
    fill = width - len(sign) - 2 - len(tail)
    if fill > 0 and '0' in flags and '-' not in flags:
        tail = '0' * fill + tail           # zeros go between '0x' and the digits
    out = _pad(sign + '0x' + tail, flags, width)
    return out.upper() if upper else out


_QUOTED = re.compile(r'(["\\\n])|([\x00-\x1f\x7f])(?=[0-9])|([\x00-\x1f\x7f])')


def _quote_char(m) -> str:
    c = m.group()
    if m.lastindex == 1:
        return '\\' + c
    if m.lastindex == 2:                 # a digit follows: write all three
        return '\\%03d' % ord(c)
    return '\\%d' % ord(c)


# %q quotes a piece at a time: each character it escapes is a Python call
# (about 0.4 us, some 10 instructions' time), charged as ESCAPE_WORK bytes.
_QUOTE_PIECE = 1 << 16
_ESCAPE_WORK = 512


def quote_string(s: str) -> str:
    """``%q`` of a string: lstrlib's addquoted, charged and checked a
    piece at a time."""
    if len(s) <= _QUOTE_PIECE:
        return '"' + _QUOTED.sub(_quote_char, s) + '"'
    out = ['"']
    for k in range(0, len(s), _QUOTE_PIECE):
        # One character more: a control character's form depends on the next.
        piece = s[k:k + _QUOTE_PIECE + 1]
        quoted = _QUOTED.sub(_quote_char, piece)
        if len(piece) > _QUOTE_PIECE:
            quoted = quoted[:len(quoted) - len(_QUOTED.sub(_quote_char, piece[-1]))]
            piece = piece[:-1]
        state.count_work(len(piece) + _ESCAPE_WORK * (len(quoted) - len(piece)))
        out.append(quoted)
    out.append('"')
    return ''.join(out)


def quote_value(v, argno: int) -> str:
    """``%q`` of any value: a Lua literal that reads back as ``v``."""
    c = v.__class__
    if c is str:
        return quote_string(v)
    if c is int:
        return '0x8000000000000000' if v == MININT else str(v)
    if c is float:
        if v == math.inf:
            return '1e9999'
        if v == -math.inf:
            return '-1e9999'
        if v != v:
            return '(0/0)'
        return hexfloat(v)
    if v is None or v is True or v is False:
        return 'nil' if v is None else 'true' if v else 'false'
    arg_error(argno, 'format', 'value has no literal form')


# ---------------------------------------------------------------- format
def make_format(vm, tostring, tostring_raw):
    """``string.format`` as a generator function (``%s`` may run ``__tostring``).

    ``tostring`` is the metamethod-aware conversion (a generator),
    ``tostring_raw`` the plain one whose address part serves ``%p``.
    """

    def address(v) -> str:
        c = v.__class__
        if v is None or c is bool or c is int or c is float:
            return '(null)'                # lua_topointer gives NULL
        if c is str:
            # Lua interns short strings: equal ones share an address.
            return '0x%08x' % id(sys.intern(v) if len(v) <= _SHORT_STRING else v)
        return tostring_raw(v).rpartition(': ')[2]

    def str_format(fmt=ABSENT, *args):
        pieces, python_form = parse(check_str(fmt, 1, 'format'))
        if python_form is not None and _fits(args, python_form[1]):
            result = python_form[0] % args[:len(python_form[1])]
            if len(result) > _CHARGE_MIN:
                vm.produced(len(result))
            return (result,)
        out = []
        nargs = len(args)
        argi = 0
        for pc in pieces:
            if pc.__class__ is str:
                out.append(pc)
                continue
            argno = argi + 2
            if argi >= nargs:
                arg_error(argno, 'format', 'no value')
            v = args[argi]
            argi += 1
            kind, flags, width, prec, err, form = pc
            if kind == 's0':
                c = v.__class__
                if c is str:
                    out.append(v)
                elif c is int or c is float:
                    out.append(tostr(v))
                else:
                    out.append((yield from tostring(v)))
            elif kind == 'd0':
                out.append(str(check_int(v, argno, 'format')))
            elif kind in 'di':
                n = check_int(v, argno, 'format')
                if err:
                    rt_error(err)
                out.append(fmt_int(str(abs(n)), _sign(n < 0, flags), '', flags, width, prec))
            elif kind in 'eEfgG':
                x = float(check_num(v, argno, 'format'))
                if err:
                    rt_error(err)
                if x - x == 0.0:
                    out.append(form % x)
                else:
                    out.append(_nonfinite(x, kind, flags, width))
            elif kind in 'xXou':
                n = check_int(v, argno, 'format') & _U64
                if err:
                    rt_error(err)
                if kind == 'u':
                    digits, prefix = str(n), ''
                elif kind == 'o':
                    digits, prefix = '%o' % n, '0' if '#' in flags else ''
                else:
                    digits = ('%x' if kind == 'x' else '%X') % n
                    prefix = '0' + kind if '#' in flags and n else ''
                out.append(fmt_int(digits, '', prefix, flags, width, prec))
            elif kind == 's':
                c = v.__class__
                if c is str:
                    s = v
                elif c is int or c is float:
                    s = tostr(v)
                else:
                    s = yield from tostring(v)
                if '\0' in s:
                    arg_error(argno, 'format', 'string contains zeros')
                if err:
                    rt_error(err)
                if prec is None and len(s) >= 100:
                    out.append(s)          # C keeps long strings whole
                else:
                    out.append(form % s)
            elif kind == 'q':
                if err:
                    rt_error(err)
                out.append(quote_value(v, argno))
            elif kind == 'c':
                if err:
                    rt_error(err)
                out.append(_pad(chr(check_int(v, argno, 'format') & 0xFF), flags, width))
            elif kind in 'aA':
                if err:
                    rt_error(err)
                x = float(check_num(v, argno, 'format'))
                out.append(hexfloat(x, flags, width, prec, kind == 'A'))
            elif kind == 'p':
                p = address(v)
                if err:
                    rt_error(err)
                out.append(_pad(p, flags, width))
            else:
                rt_error(err)
        result = ''.join(out)
        if len(result) > _CHARGE_MIN:
            vm.produced(len(result))
        return (result,)

    def fast_format(fmt=ABSENT, *args):
        """The common case without a generator: every conversion prints as
        Python's ``%`` does; anything else raises NeedsLua for ``str_format``."""
        if fmt.__class__ is str:
            python_form = parse(fmt)[1]
            if python_form is not None and _fits(args, python_form[1]):
                result = python_form[0] % args[:len(python_form[1])]
                if len(result) > _CHARGE_MIN:
                    vm.produced(len(result))
                return (result,)
        raise NEEDS_LUA

    str_format.fast = fast_format
    return str_format
