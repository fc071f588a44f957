"""Lua number rules: 64-bit wrap-around, float formatting, string conversion."""
from __future__ import annotations

import math
import re

MAXINT = (1 << 63) - 1
MININT = -(1 << 63)
U64 = (1 << 64) - 1


def wrap(i: int) -> int:
    """Wrap an unbounded Python int to Lua's signed 64-bit integer."""
    return ((i - MININT) & U64) + MININT


def fmt_float(f: float) -> str:
    """``tostring`` of a float: ``%.14g`` with ``.0`` added to integral values."""
    s = '%.14g' % f
    if '.' in s or 'e' in s:
        return s
    if s[-1] == 'n' or s[-1] == 'f':      # 'nan' or '[-]inf': C prints NaN's sign
        if f != f:
            return '-nan' if math.copysign(1.0, f) < 0 else 'nan'
        return s
    return s + '.0'


def tostr(v) -> str:
    """String form of a number (int or float)."""
    return str(v) if v.__class__ is int else fmt_float(v)


def float_to_int(f: float):
    """The integer with exactly the value of ``f``, or None."""
    if f.is_integer() and -9.3e18 < f < 9.3e18:
        i = int(f)
        if MININT <= i <= MAXINT:
            return i
    return None


# Atomic groups: a numeral that fails to match fails in linear time.
_DEC = re.compile(r'[ \t\n\v\f\r]*+([-+]?)(?:(\d++)|((?>\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)))[ \t\n\v\f\r]*\Z')
_HEX = re.compile(r'[ \t\n\v\f\r]*+([-+]?)0[xX](?:([0-9a-fA-F]++)|(?>([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([-+]?\d+))?))[ \t\n\v\f\r]*\Z')


_MAX_INT_DIGITS = len(str(2 ** 63))


def _clamped_exponent(text):
    digits = text.lstrip('+-').lstrip('0')
    if len(digits) > 6:
        return -10 ** 7 if text.startswith('-') else 10 ** 7
    return int(text)


def str2number(s: str):
    """Convert a string to a Lua number following the lexer's numeral rules, or None.

    Plain decimal numerals (``123``, ``-7``, ``3.25``, ``.5``, ``5.``:
    ASCII digits, an optional ``-`` and at most one dot) are most of what
    programs convert, and Python's ``int``/``float`` read them exactly as
    Lua does once the characters are known to be only these (they would
    also take spaces, ``_``, other scripts' digits, ``inf``); anything else
    goes through ``numeral``."""
    if s.isascii():
        digits = s[1:] if s[:1] == '-' else s
        if digits.isdigit():
            # At most 18 digits always fit in an integer (2**63 has 19).
            if len(digits) <= 18:
                return int(s)
        elif digits.replace('.', '', 1).isdigit():
            return float(s)
    return numeral(s)


def numeral(s: str):
    """``str2number`` for every form of numeral: spaces around it, ``+``,
    exponents, hexadecimal integers and floats, integers too long for 64
    bits (floats, or wrapped around when hexadecimal)."""
    m = _DEC.match(s)
    if m:
        sign, integer, flt = m.groups()
        if integer is not None:
            # Longer than any int64: a float (and never a Python int, whose
            # decimal conversion CPython limits in length).
            digits = integer.lstrip('0') or '0'
            i = int(digits) if len(digits) <= _MAX_INT_DIGITS else MAXINT + 2
            if i <= MAXINT or (sign == '-' and i == -MININT):
                return -i if sign == '-' else i
            f = float(digits)
            return -f if sign == '-' else f
        f = float(flt)
        return -f if sign == '-' else f
    m = _HEX.match(s)
    if m:
        sign, integer, ipart, fpart, exp = m.groups()
        if integer is not None:
            i = wrap(int(integer, 16))
            return wrap(-i) if sign == '-' else i
        ipart = ipart or ''
        fpart = fpart or ''
        if not ipart and not fpart:
            return None
        mant = int(ipart + fpart, 16) if ipart + fpart else 0
        # An exponent this long only says overflow or underflow.
        e = (_clamped_exponent(exp) if exp else 0) - 4 * len(fpart)
        try:
            f = math.ldexp(float(mant), e) if mant < (1 << 1000) else float(mant) * 2.0 ** e
        except OverflowError:
            f = math.inf
        return -f if sign == '-' else f
    return None
