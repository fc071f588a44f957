"""Library calls the translator inlines (its intrinsics).

A call site named like one of these library functions, with this many
arguments, first tries an inline body behind guards: the callee must be
the library function itself (compared by identity with the value the
runtime installs under the guard's first name, see ``ops.INTRINSICS``), and
the arguments must be what the inline body handles; anything else takes
the ordinary call.  Each emitter takes the translator's ``debt`` (the
statement accounting an allocation) and the argument registers, and returns
(guard conditions, body lines, result expression, a tuple of them for
several results, or None); a condition is
code, or a ``Checked`` argument that the translator leaves out when it
knows that it holds.
"""
import enum
from typing import NamedTuple

from .layout import arr_of, hash_of, hash_store, meta_of, raw_elements, raw_length, without_meta

SLOT_COST = 16                     # a list slot, CPython's over-allocation included
# The string library leaves results up to this size to the periodic heap
# measurement and the call's own instruction (see ``ops.join_small``),
# so inline bodies make only such strings.
SMALL_STRING = 1024


class Check(enum.Enum):
    """What a guard checks of an argument, which the translator may know already."""
    TABLE = 'table'
    INT = 'int'
    STR = 'string'
    NUMBER = 'number'
    NOT_NIL = 'not nil'
    # A table without a metatable whose hash part is a plain dict (no class
    # caches to notify): known of a table just made (``facts.FRESH``).
    NO_META = 'no metatable'


class Checked(NamedTuple):
    """A guard condition: ``check`` of the call's argument number ``arg`` (from 0)."""
    check: Check
    arg: int


def render_check(check, reg):
    """The condition ``check`` of register ``reg`` (a name)."""
    if check is Check.TABLE:
        return '%s.__class__ is Table' % reg
    if check is Check.INT:
        return '%s.__class__ is int' % reg
    if check is Check.STR:
        return '%s.__class__ is str' % reg
    if check is Check.NUMBER:
        return '(%s.__class__ is float or %s.__class__ is int)' % (reg, reg)
    if check is Check.NO_META:
        return '%s is None and %s.__class__ is dict' % (meta_of(reg), hash_of(reg))
    return '%s is not None' % reg


def _table_insert(debt, t, v):
    # table.insert(t, v) appending to the list part; when the hash part
    # holds the key after the new end, set_int also moves the keys that
    # follow out of it.
    guard = ('T_INSERT', Checked(Check.TABLE, 0), raw_elements(t), Checked(Check.NOT_NIL, 1))
    return guard, ('if not %s or len(%s) + 2 not in %s: %s.append(%s); %s'
                   % (hash_of(t), arr_of(t), hash_of(t), arr_of(t), v, debt(SLOT_COST)),
                   'else: %s.set_int(len(%s) + 1, %s)' % (t, arr_of(t), v)), None


def _table_remove(debt, t):
    # table.remove(t) popping the last element; the list part never ends in nil.
    guard = ('T_REMOVE', Checked(Check.TABLE, 0), raw_elements(t), arr_of(t))
    return guard, ('_a = %s; _v = _a.pop()' % arr_of(t),
                   'if _a and _a[-1] is None: drop_nils(_a)'), '_v'


def _table_insert_at(debt, t, pos, v):
    # table.insert(t, pos, v) inside a list-only table: the elements from pos
    # move up, counted as work as the library function counts them.
    guard = ('T_INSERT', Checked(Check.TABLE, 0), raw_elements(t), 'not %s' % hash_of(t),
             Checked(Check.INT, 1), '0 < %s <= len(%s)' % (pos, arr_of(t)), Checked(Check.NOT_NIL, 2))
    return guard, ('_a = %s; TICKN(len(_a) + 1 - %s); _a.insert(%s - 1, %s); %s'
                   % (arr_of(t), pos, pos, v, debt(SLOT_COST)),), None


def _table_remove_at(debt, t, pos):
    # table.remove(t, pos) of an element of the list part: those after it
    # move down, counted as work as the library function counts them; the
    # last one's removal (a queue's only element) may leave nils at the end.
    guard = ('T_REMOVE', Checked(Check.TABLE, 0), raw_elements(t), Checked(Check.INT, 1),
             '0 < %s <= len(%s)' % (pos, arr_of(t)))
    return guard, ('_a = %s' % arr_of(t),
                   'if %s < len(_a): TICKN(len(_a) - %s)' % (pos, pos),
                   '_v = _a.pop(%s - 1)' % pos,
                   'if _a and _a[-1] is None: drop_nils(_a)'), '_v'


def _math_sqrt(debt, x):
    guard = ('M_SQRT', Checked(Check.NUMBER, 0), '%s >= 0' % x)
    return guard, (), 'SQRT(%s)' % x


def _math_abs(debt, x):
    # Every number but the least integer, whose negation wraps to itself.
    guard = ('M_ABS', Checked(Check.NUMBER, 0), '%s != -9223372036854775808' % x)
    return guard, (), 'abs(%s)' % x


def _math_floor(debt, x):
    # A number whose floor is an integer: Python's floor gives one for
    # both classes; outside the range (and for inf and NaN) Lua's is a float.
    guard = ('M_FLOOR', Checked(Check.NUMBER, 0), '-9223372036854775808.0 <= %s < 9223372036854775808.0' % x)
    return guard, (), 'FLOOR(%s)' % x


def _math_max(debt, a, b):
    # Two numbers: Python compares an integer with a float exactly, as Lua
    # does, and the first of equal ones (or of a NaN) is the answer.
    guard = ('M_MAX', Checked(Check.NUMBER, 0), Checked(Check.NUMBER, 1))
    return guard, (), '(%s if %s < %s else %s)' % (b, a, b, a)


def _math_min(debt, a, b):
    guard = ('M_MIN', Checked(Check.NUMBER, 0), Checked(Check.NUMBER, 1))
    return guard, (), '(%s if %s < %s else %s)' % (b, b, a, a)


def _string_sub(debt, s, i, j):
    # s:sub(i, j) for positions counted from the start: a slice.
    guard = ('S_SUB', Checked(Check.STR, 0), Checked(Check.INT, 1), Checked(Check.INT, 2),
             '0 < %s' % i, '0 <= %s < %s + %d' % (j, i, SMALL_STRING))
    return guard, (), '%s[%s - 1:%s]' % (s, i, j)


def _string_sub_tail(debt, s, i):
    # s:sub(i): the rest of the string from i.
    guard = ('S_SUB', Checked(Check.STR, 0), Checked(Check.INT, 1),
             '0 < %s' % i, 'len(%s) < %s + %d' % (s, i, SMALL_STRING))
    return guard, (), '%s[%s - 1:]' % (s, i)


def _string_byte(debt, s, i):
    # s:byte(i) of a byte the string has.
    guard = ('S_BYTE', Checked(Check.STR, 0), Checked(Check.INT, 1), '0 < %s <= len(%s)' % (i, s))
    return guard, (), 'ord(%s[%s - 1])' % (s, i)


def _string_first_byte(debt, s):
    guard = ('S_BYTE', Checked(Check.STR, 0), s)
    return guard, (), 'ord(%s[0])' % s


def _string_len(debt, s):
    return ('S_LEN', Checked(Check.STR, 0)), (), 'len(%s)' % s


def _table_concat(debt, t):
    # table.concat(t) of a few strings in the list part (the length then is
    # the list's), joined when they make a small string.
    guard = ('T_CONCAT', Checked(Check.TABLE, 0), raw_length(t),
             '(%s or not %s)' % (arr_of(t), hash_of(t)), '(_v := join_small(%s)) is not None' % arr_of(t))
    return guard, (), '_v'


def _table_concat_sep(debt, t, sep):
    guard = ('T_CONCAT', Checked(Check.TABLE, 0), raw_length(t), Checked(Check.STR, 1),
             '(%s or not %s)' % (arr_of(t), hash_of(t)), '(_v := join_small(%s, %s)) is not None' % (arr_of(t), sep))
    return guard, (), '_v'


def _setmetatable(debt, t, mt):
    # An object getting its class (as base.setmetatable's first case):
    # nothing to check, notify or collect.  A metatable made for the object,
    # {__index = Class}, shares its class's cached lookups.
    guard = ('SETMETATABLE', Checked(Check.TABLE, 0), Checked(Check.NO_META, 0), Checked(Check.TABLE, 1),
             "'__gc' not in %s" % hash_of(mt), "'__mode' not in %s" % hash_of(mt))
    share = "if %s.__class__ is dict and '__index' in %s: share_class_lookups(%s)" % (hash_of(mt), hash_of(mt), mt)
    return guard, ('%s = %s' % (meta_of(t), mt), share), t


def _getmetatable(debt, t):
    # getmetatable(t) of a table whose metatable, if any, does not hide
    # itself behind __metatable.
    meta = meta_of(t)
    guard = ('GETMETATABLE', Checked(Check.TABLE, 0),
             "(%s is None or '__metatable' not in %s)" % (meta, hash_of(meta)))
    return guard, (), meta


def _rawget(debt, t, k):
    # rawget(t, k) of a string key: the hash part holds every one.
    return ('RAWGET', Checked(Check.TABLE, 0), Checked(Check.STR, 1)), (), '%s.get(%s)' % (hash_of(t), k)


def _rawset(debt, t, k, v):
    # rawset(t, k, v) of a string key and a value: a store into the hash part.
    guard = ('RAWSET', Checked(Check.TABLE, 0), Checked(Check.STR, 1), Checked(Check.NOT_NIL, 2))
    return guard, (hash_store(t, k, v),), t


def _assert(debt, v):
    # assert(v) of a value that holds: v, and nothing to raise.
    return ('ASSERT', '%s is not None and %s is not False' % (v, v)), (), v


def _assert_message(debt, v, message):
    # assert(v, message) of a value that holds: both, as its results.
    return ('ASSERT', '%s is not None and %s is not False' % (v, v)), (), (v, message)


def _tostring(debt, x):
    # tostring of a number while no number has a metatable (no __tostring).
    guard = ('TOSTRING', Checked(Check.NUMBER, 0), 'not TYPE_METAS')
    return guard, (), '(str(%s) if %s.__class__ is int else FLOAT_STR(%s))' % (x, x, x)


def _type(debt, x):
    # type(x): the name of the value's class (base.lua_type's table).
    return ('TYPE',), (), 'TYPE_NAMES[%s.__class__]' % x


def _tonumber(debt, s):
    # tonumber(s) of a string short enough to cost no more than its call.
    guard = ('TONUMBER', Checked(Check.STR, 0), 'len(%s) <= %d' % (s, SMALL_STRING))
    return guard, (), 'STR2NUMBER(%s)' % s


def _ipairs(debt, t):
    # What ipairs returns (its check is only that there is an argument).
    return ('IPAIRS',), (), ('INEXT', t, '0')


def _pairs(debt, t):
    # What pairs returns for a table without __pairs.
    return ('PAIRS', Checked(Check.TABLE, 0), without_meta(t, '__pairs')), (), ('NEXT', t, 'None')


# Call sites named like these library functions (with this many arguments)
# try an inline body first: (guard conditions, body lines, result expression
# or None).
INTRINSICS = {
    ('insert', 2): _table_insert,
    ('insert', 3): _table_insert_at,
    ('remove', 1): _table_remove,
    ('remove', 2): _table_remove_at,
    ('sqrt', 1): _math_sqrt,
    ('abs', 1): _math_abs,
    ('floor', 1): _math_floor,
    ('max', 2): _math_max,
    ('min', 2): _math_min,
    ('sub', 3): _string_sub,
    ('sub', 2): _string_sub_tail,
    ('byte', 2): _string_byte,
    ('byte', 1): _string_first_byte,
    ('len', 1): _string_len,
    ('tostring', 1): _tostring,
    ('type', 1): _type,
    ('tonumber', 1): _tonumber,
    ('ipairs', 1): _ipairs,
    ('pairs', 1): _pairs,
    ('setmetatable', 2): _setmetatable,
    ('getmetatable', 1): _getmetatable,
    ('rawget', 2): _rawget,
    ('rawset', 3): _rawset,
    ('assert', 1): _assert,
    ('assert', 2): _assert_message,
    ('concat', 1): _table_concat,
    ('concat', 2): _table_concat_sep,
}
