"""Lua 5.4's math library, matching the reference ``lua5.4`` (5.4.4, glibc, x86-64).

Float functions return exactly what the C library returns there, including
the sign of NaN results (``tostring`` shows ``-nan`` for x86's default NaN),
so Python's ``math`` exceptions for domain errors and overflow are turned
back into IEEE results.  ``random`` is Lua's xoshiro256** with Lua's seeding
and projection, so a seeded sequence equals real Lua's.
"""
from __future__ import annotations

import math
import os

from ..runtime import ops
from ..runtime.frames import rt_error
from ..runtime.numbers import MAXINT, MININT, wrap
from ..runtime.table import LuaTable
from ..runtime.values import Builtin
from .args import ABSENT, arg_error, check_any, check_int, check_num, opt_int, opt_num

INF = math.inf
# x86's default NaN (sign bit set): what most C math functions return for a
# domain error.
NEG_NAN = math.copysign(math.nan, -1.0)
POS_NAN = math.copysign(math.nan, 1.0)
U64 = (1 << 64) - 1
TWO_POW_MINUS_53 = 2.0 ** -53


def tointeger(v):
    """``lua_tointegerx``: the integer value of a number or numeric string, or None."""
    return ops.toint_strict(v)


def _float_arg(x, fname):
    """``luaL_checknumber``: always a float, as C's lua_Number."""
    return float(check_num(x, 1, fname))


def _int_if_fits(i: int):
    """``pushnumint`` for the exact integer value of an integral float:
    an integer when it fits in 64 bits, else the float."""
    return i if MININT <= i <= MAXINT else float(i)


def _div(a: float, b: float) -> float:
    """IEEE division, which Python refuses for a zero divisor."""
    if b != 0.0:
        return a / b
    if a != a:
        return a
    if a == 0.0:
        return NEG_NAN
    return INF if (a > 0) == (math.copysign(1.0, b) > 0) else -INF


def _unary(fn, domain_nan):
    """Wrap a ``math`` function so that a domain error (which Python raises)
    yields the NaN glibc returns for it."""
    def f(x):
        try:
            return fn(x)
        except ValueError:
            return domain_nan
    return f


_sin = _unary(math.sin, NEG_NAN)
_cos = _unary(math.cos, NEG_NAN)
_tan = _unary(math.tan, NEG_NAN)
_asin = _unary(math.asin, POS_NAN)
_acos = _unary(math.acos, POS_NAN)
_sqrt = _unary(math.sqrt, NEG_NAN)


def _exp(x):
    try:
        return math.exp(x)
    except OverflowError:  # C answers infinity
        return INF


def _logfn(fn, negative_nan):
    """A logarithm: log(0) is -inf, a negative argument gives glibc's NaN
    (negative for log and log2, positive for log10)."""
    def f(x):
        if x > 0.0 or x != x:
            return fn(x)
        if x == 0.0:
            return -INF
        return negative_nan
    return f


_log = _logfn(math.log, NEG_NAN)
_log2 = _logfn(math.log2, NEG_NAN)
_log10 = _logfn(math.log10, POS_NAN)


def m_abs(x=ABSENT, *_):
    if x.__class__ is int:
        return (wrap(-x) if x < 0 else x,)
    return (abs(_float_arg(x, 'abs')),)


def _float_fn(fn, fname):
    def f(x=ABSENT, *_):
        return (fn(_float_arg(x, fname)),)
    return f


def m_atan(y=ABSENT, x=ABSENT, *_):
    y = _float_arg(y, 'atan')
    x = float(opt_num(x, 2, 'atan', 1.0))
    # Python's atan2 answers a fresh NaN; C propagates the NaN operand.
    if y != y:
        return (y,)
    if x != x:
        return (x,)
    return (math.atan2(y, x),)


def _overflowing(fn, odd):
    """A hyperbolic function: C answers an overflow with infinity, of the
    argument's sign for an ``odd`` function."""
    def f(x):
        try:
            return fn(x)
        except OverflowError:
            return math.copysign(INF, x) if odd else INF
    return f


def m_pow(x=ABSENT, y=ABSENT, *_):
    return (ops.fpow(_float_arg(x, 'pow'), float(check_num(y, 2, 'pow'))),)


def m_frexp(x=ABSENT, *_):
    return math.frexp(_float_arg(x, 'frexp'))


def m_ldexp(x=ABSENT, e=ABSENT, *_):
    x = _float_arg(x, 'ldexp')
    e = check_int(e, 2, 'ldexp')
    e = (e + 2 ** 31) % 2 ** 32 - 2 ** 31         # C's (int) cast of the exponent
    try:
        return (math.ldexp(x, e),)
    except OverflowError:
        return (math.copysign(INF, x),)


# What the reference interpreter, built with LUA_COMPAT_5_3 as Lua's own
# makefile builds it, still has of Lua 5.2's math library
# (LUA_COMPAT_MATHLIB); atan2 is atan itself.
COMPAT_FUNCTIONS = {
    'cosh': _float_fn(_overflowing(math.cosh, odd=False), 'cosh'),
    'sinh': _float_fn(_overflowing(math.sinh, odd=True), 'sinh'),
    'tanh': _float_fn(math.tanh, 'tanh'), 'pow': m_pow, 'frexp': m_frexp, 'ldexp': m_ldexp,
    'log10': _float_fn(_log10, 'log10'),
}


def m_floor(x=ABSENT, *_):
    if x.__class__ is int:
        return (x,)
    f = _float_arg(x, 'floor')
    if f != f or f in (INF, -INF):
        return (f,)
    return (_int_if_fits(math.floor(f)),)


def m_ceil(x=ABSENT, *_):
    if x.__class__ is int:
        return (x,)
    f = _float_arg(x, 'ceil')
    if f != f or f in (INF, -INF):
        return (f,)
    return (_int_if_fits(math.ceil(f)),)


def m_fmod(a=ABSENT, b=ABSENT, *_):
    if a.__class__ is int and b.__class__ is int:
        if b == 0:
            arg_error(2, 'fmod', 'zero')
        if b == -1:
            return (0,)  # C's % would overflow on mininteger % -1
        r = abs(a) % abs(b)  # C truncates: the result takes the dividend's sign
        return (-r if a < 0 else r,)
    # lua5.4 (built by gcc) evaluates fmod(luaL_checknumber(L, 1), luaL_checknumber(L, 2))'s
    # arguments right to left: the second is checked first.
    y = float(check_num(b, 2, 'fmod'))
    x = float(check_num(a, 1, 'fmod'))
    try:
        return (math.fmod(x, y),)
    except ValueError:  # fmod(inf, y) or fmod(x, 0)
        return (NEG_NAN,)


def m_modf(x=ABSENT, *_):
    if x.__class__ is int:
        return (x, 0.0)
    n = _float_arg(x, 'modf')
    if n != n or n in (INF, -INF):
        return (n, 0.0 if n == n else n)  # C: the fraction of inf is 0, of NaN is NaN
    i = math.ceil(n) if n < 0 else math.floor(n)  # rounds toward zero
    return (_int_if_fits(i), n - i if n != i else 0.0)


def m_log(x=ABSENT, base=ABSENT, *_):
    x = _float_arg(x, 'log')
    if base is ABSENT or base is None:
        return (_log(x),)
    base = float(check_num(base, 2, 'log'))
    if base == 2.0:
        return (_log2(x),)
    if base == 10.0:
        return (_log10(x),)
    return (_div(_log(x), _log(base)),)


_DEG = 180.0 / math.pi
_RAD = math.pi / 180.0


def m_deg(x=ABSENT, *_):
    return (_float_arg(x, 'deg') * _DEG,)


def m_rad(x=ABSENT, *_):
    return (_float_arg(x, 'rad') * _RAD,)


def less_than(a, b) -> bool:
    """Lua's ``a < b`` where a yield is not allowed (math.min/max, table.sort)."""
    ca = a.__class__
    cb = b.__class__
    if (ca is int or ca is float) and (cb is int or cb is float):
        return a < b
    if ca is str and cb is str:
        return a < b
    r = ops.call_noyield(ops.LESS_THAN, (a, b))[0]
    return r is not None and r is not False


def m_max(*args):
    if not args:
        arg_error(1, 'max', 'value expected')
    best = args[0]
    for v in args[1:]:
        if less_than(best, v):
            best = v
    return (best,)


def m_min(*args):
    if not args:
        arg_error(1, 'min', 'value expected')
    best = args[0]
    for v in args[1:]:
        if less_than(v, best):
            best = v
    return (best,)


def m_tointeger(x=ABSENT, *_):
    i = tointeger(x)
    if i is None:
        check_any(x, 1, 'tointeger')
    return (i,)


def m_type(x=ABSENT, *_):
    c = x.__class__
    if c is int:
        return ('integer',)
    if c is float:
        return ('float',)
    check_any(x, 1, 'type')
    return (None,)


def m_ult(a=ABSENT, b=ABSENT, *_):
    a = check_int(a, 1, 'ult')
    b = check_int(b, 2, 'ult')
    return ((a & U64) < (b & U64),)


# ----------------------------------------------------------------- random

class Xoshiro:
    """Lua 5.4's generator: xoshiro256** over four unsigned 64-bit words."""
    __slots__ = ('s',)

    def __init__(self):
        self.s = [0, 0, 0, 0]

    def next(self) -> int:
        s = self.s
        s0, s1, s2, s3 = s
        s2 ^= s0
        s3 ^= s1
        s[0] = s0 ^ s3
        s[1] = s1 ^ s2
        s[2] = s2 ^ ((s1 << 17) & U64)
        s[3] = ((s3 << 45) | (s3 >> 19)) & U64  # rotate left 45
        x = (s1 * 5) & U64
        return (((x << 7) | (x >> 57)) * 9) & U64  # rotate left 7, times 9

    def seed(self, n1: int, n2: int):
        """Lua's setseed: (n1, 0xff, n2, 0), then 16 values discarded to spread the seed."""
        self.s = [n1 & U64, 0xff, n2 & U64, 0]
        for _ in range(16):
            self.next()

    def project(self, ran: int, n: int) -> int:
        """A uniform value in [0, n] from ``ran``: mask to the smallest 2^b-1
        covering n and draw again while the result is above n."""
        if n & (n + 1) == 0:
            return ran & n
        lim = (1 << n.bit_length()) - 1
        ran &= lim
        while ran > n:
            ran = self.next() & lim
        return ran


def _signed(u: int) -> int:
    return u - (1 << 64) if u > MAXINT else u


def _random_seeds():
    """Two seeds from the OS, where Lua uses the time and an address."""
    b = os.urandom(16)
    return _signed(int.from_bytes(b[:8], 'little')), _signed(int.from_bytes(b[8:], 'little'))


def _random_functions(gen: Xoshiro):
    def random(m=ABSENT, n=ABSENT, *extra):
        rv = gen.next()  # drawn before the arguments are checked, as Lua does
        if m is ABSENT:
            return ((rv >> 11) * TWO_POW_MINUS_53,)  # the top 53 bits
        if n is ABSENT:
            low = 1
            up = m if m.__class__ is int else check_int(m, 1, 'random')
            if up == 0:
                return (_signed(rv),)
        elif extra:
            rt_error('wrong number of arguments')
        else:
            low = m if m.__class__ is int else check_int(m, 1, 'random')
            up = n if n.__class__ is int else check_int(n, 2, 'random')
        if low > up:
            arg_error(1, 'random', 'interval is empty')
        r = (gen.project(rv, (up - low) & U64) + low) & U64
        return (r - (1 << 64) if r > MAXINT else r,)

    def randomseed(n1=ABSENT, n2=ABSENT, *_):
        if n1 is ABSENT:
            n1, n2 = _random_seeds()
        else:
            n1 = check_int(n1, 1, 'randomseed')
            n2 = opt_int(n2, 2, 'randomseed', 0)
        gen.seed(n1, n2)
        return (n1, n2)

    return random, randomseed


def make(vm) -> LuaTable:
    gen = Xoshiro()
    gen.seed(*_random_seeds())
    random, randomseed = _random_functions(gen)
    funcs = {
        'abs': m_abs, 'acos': _float_fn(_acos, 'acos'), 'asin': _float_fn(_asin, 'asin'),
        'atan': m_atan, 'ceil': m_ceil, 'cos': _float_fn(_cos, 'cos'), 'deg': m_deg,
        'exp': _float_fn(_exp, 'exp'), 'floor': m_floor, 'fmod': m_fmod, 'log': m_log,
        'max': m_max, 'min': m_min, 'modf': m_modf, 'rad': m_rad,
        'random': random, 'randomseed': randomseed, 'sin': _float_fn(_sin, 'sin'),
        'sqrt': _float_fn(_sqrt, 'sqrt'), 'tan': _float_fn(_tan, 'tan'),
        'tointeger': m_tointeger, 'type': m_type, 'ult': m_ult,
    }
    t = LuaTable()
    for name, fn in (funcs | COMPAT_FUNCTIONS).items():
        t.set(name, Builtin(fn, 'math.' + name))
    t.set('atan2', t.get('atan'))
    t.set('pi', math.pi)
    t.set('huge', INF)
    t.set('maxinteger', MAXINT)
    t.set('mininteger', MININT)
    return t
