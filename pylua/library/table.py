"""Lua 5.4's table library, with ltablib.c's algorithms, checks and messages
(as the reference ``lua5.4``, 5.4.4, prints them).

Every function honours ``__index``/``__newindex``/``__len`` as Lua's
``lua_geti``/``lua_seti``/``luaL_len`` do.  A table whose metatable has
neither ``__newindex`` nor ``__len`` (a plain array, and the instances of
most classes) takes a fast path on the raw ``LuaTable`` API, reading through
``__index`` only where an element is nil (``_reader``); anything else goes
through the metamethod-aware generators of ``pylua.runtime.ops``.  ``sort`` runs its
callbacks through ``call_noyield`` because Lua forbids yielding there.
"""
from __future__ import annotations

from functools import partial, wraps
from itertools import islice
from math import copysign
from operator import gt, lt
from types import FunctionType

from ..runtime import ops
from ..runtime.frames import rt_error
from ..runtime.numbers import MAXINT, tostr, wrap
from ..runtime.table import LuaTable
from ..runtime.values import NEEDS_LUA, Builtin, GenBuiltin, is_function, type_name
from .args import ABSENT, arg_error, check_int, opt_int, opt_str, type_error
from .math import less_than, tointeger

# The most values a library function may return: what a C function may
# push on a shallow lua5.4 stack (LUAI_MAXSTACK is 1,000,000 slots).
MAX_RESULTS = 999_979
INT_MAX = 2 ** 31 - 1
U64 = (1 << 64) - 1
TICK_EVERY = 1024

# What a non-table must offer to be accepted as one (ltablib's checktab).
TAB_R, TAB_W, TAB_L = 1, 2, 4
_TAB_FIELDS = ((TAB_R, '__index'), (TAB_W, '__newindex'), (TAB_L, '__len'))
_ONLY_STR = {str}


def _checktab(t, n, fname, what):
    if t.__class__ is LuaTable:
        return
    meta = None if t is ABSENT else ops.getmeta(t)
    if meta is not None and all(meta.get(key) is not None
                                for bit, key in _TAB_FIELDS if what & bit):
        return
    type_error(n, fname, 'table', t)


def _raw_meta(mt) -> bool:
    """Has metatable ``mt`` neither ``__newindex`` nor ``__len``?"""
    return '__newindex' not in mt.hash and '__len' not in mt.hash


def _raw_elements(t) -> bool:
    """Do ``lua_seti`` and ``luaL_len`` reach ``t``'s elements raw: is it a
    table whose metatable, if any, has neither ``__newindex`` nor ``__len``?
    (The plain forms test the common case, no metatable, inline.)"""
    return t.__class__ is LuaTable and (t.meta is None or _raw_meta(t.meta))


def _indexed(t) -> bool:
    """Has ``t`` (a table) a metatable with ``__index``?"""
    return t.meta is not None and '__index' in t.meta.hash


def _reader(t):
    """``lua_geti`` on a table with raw elements: the raw value, or what
    ``__index`` gives where it is nil."""
    if not _indexed(t):
        return t.get_int
    get = t.get_int

    def read(k):
        v = get(k)
        return v if v is not None else _index_noyield(t, k)
    return read


def _as_length(n) -> int:
    """``luaL_len``'s check on what ``#`` gave (``__len`` may return anything)."""
    i = tointeger(n)
    if i is None:
        rt_error('object length is not an integer')
    return i


def _length(t):
    return _as_length((yield from ops.length(t)))


def _noyield(op, name):
    """A plain function running the metamethod-aware generator ``op`` to
    completion, refusing a yield as Lua does inside ``table.sort``."""
    def gen(*args):
        return ((yield from op(*args)),)
    fn = GenBuiltin(gen, name)

    def run(*args):
        return ops.call_noyield(fn, args)[0]
    return run


_index_noyield = _noyield(ops.index, 'index')
_setindex_noyield = _noyield(ops.setindex, 'setindex')
_length_noyield = _noyield(ops.length, 'length')


def _c_function(fn):
    """A table function's generator form: the metamethods it runs (through
    lua_geti, lua_seti, luaL_len) are called from a C function, which
    luaT_callTMres calls without yields: a yield inside them is an error."""
    @wraps(fn)
    def run(vm, *args):
        vm.no_yield += 1
        try:
            return (yield from fn(vm, *args))
        finally:
            vm.no_yield -= 1
    return run


def _grown(vm, n: int):
    """Charge an array that just grew to ``n + 1`` slots, amortised: once per
    doubling, for the slots the list reserves."""
    if n & (n - 1) == 0:
        vm.charge(8 * (n + 1))


# ------------------------------------------------------------------ insert

@_c_function
def t_insert(vm, t=ABSENT, pos=ABSENT, v=ABSENT, *extra):
    if _raw_elements(t):
        return _insert_raw(vm, t, pos, v, extra)
    _checktab(t, 1, 'insert', TAB_R | TAB_W | TAB_L)
    e = wrap((yield from _length(t)) + 1)
    if v is ABSENT and pos is not ABSENT:
        yield from ops.setindex(t, e, pos)
        return ()
    if extra or v is ABSENT:
        rt_error("wrong number of arguments to 'insert'")
    p = _insert_pos(pos, e)
    for k in range(e, p, -1):  # move up elements
        if k & (TICK_EVERY - 1) == 0:
            vm.tickn(TICK_EVERY)
        yield from ops.setindex(t, k, (yield from ops.index(t, k - 1)))
    yield from ops.setindex(t, p, v)
    return ()


def _insert_pos(pos, e):
    """The position argument, in [1, e] as Lua checks it (unsigned, so that
    a strange __len still behaves as in C)."""
    p = check_int(pos, 2, 'insert')
    if (p - 1) & U64 >= e & U64:
        arg_error(2, 'insert', 'position out of bounds')
    return p


def _insert_raw(vm, t, pos, v, extra):
    arr = t.arr
    # Without __len, #t is len(arr): the hash part never holds len(arr)+1;
    # every element it moves is in the list, so __index is never asked.
    e = len(arr) + 1
    if v is ABSENT and pos is not ABSENT:  # table.insert(t, value)
        if pos is not None:
            if t.hash:
                t.set_int(e, pos)  # migrates keys e+1... from the hash part
            else:
                arr.append(pos)
            _grown(vm, e - 1)
        return ()
    if extra or v is ABSENT:
        rt_error("wrong number of arguments to 'insert'")
    p = _insert_pos(pos, e)
    if p < e:
        # Shift inside the list, then re-append the old last element through
        # set_int so that a hash key len(arr)+1 migrates as it must.
        vm.tickn(e - p)
        last = arr[-1]
        arr.insert(p - 1, v)
        arr.pop()
        t.set_int(e, last)
        _grown(vm, e - 1)
    elif v is not None:
        t.set_int(e, v)
        _grown(vm, e - 1)
    return ()


# ------------------------------------------------------------------ remove

@_c_function
def t_remove(vm, t=ABSENT, pos=ABSENT, *_):
    if _raw_elements(t):
        return _remove_raw(vm, t, pos)
    _checktab(t, 1, 'remove', TAB_R | TAB_W | TAB_L)
    size = yield from _length(t)
    p = _remove_pos(pos, size)
    result = yield from ops.index(t, p)
    while p < size:
        if p & (TICK_EVERY - 1) == 0:
            vm.tickn(TICK_EVERY)
        yield from ops.setindex(t, p, (yield from ops.index(t, p + 1)))
        p += 1
    yield from ops.setindex(t, p, None)
    return (result,)


def _remove_pos(pos, size):
    """The position argument: #t by default, else in [1, #t + 1] (compared
    unsigned as in C)."""
    p = opt_int(pos, 2, 'remove', size)
    if p != size and (p - 1) & U64 > size & U64:
        arg_error(1, 'remove', 'position out of bounds')
    return p


def _remove_raw(vm, t, pos):
    arr = t.arr
    size = len(arr)  # #t of a table without __len (see _insert_raw)
    p = _remove_pos(pos, size)
    if p == size and size:
        v = arr[-1]
        t.set_int(size, None)  # also drops the nils that now end the list
        return (v,)
    if 1 <= p < size:
        vm.tickn(size - p)
        return (arr.pop(p - 1),)
    # p is size + 1, or 0 for an empty table: no element moves.
    v = _reader(t)(p)
    t.set_int(p, None)
    return (v,)


# -------------------------------------------------------------------- move

@_c_function
def t_move(vm, a1=ABSENT, f=ABSENT, e=ABSENT, t=ABSENT, dest=ABSENT, *_):
    f = check_int(f, 2, 'move')
    e = check_int(e, 3, 'move')
    t = check_int(t, 4, 'move')
    same_arg = dest is None or dest is ABSENT
    if same_arg:
        dest = a1
    _checktab(a1, 1, 'move', TAB_R)
    _checktab(dest, 1 if same_arg else 5, 'move', TAB_W)
    if e < f:
        return (dest,)
    if not (f > 0 or e < MAXINT + f):
        arg_error(3, 'move', 'too many elements to move')
    n = e - f + 1
    if t > MAXINT - n + 1:
        arg_error(4, 'move', 'destination wrap around')
    raw = _raw_elements(a1) and _raw_elements(dest)
    if raw and a1.meta is None and dest.meta is None:
        distinct = a1 is not dest
    else:
        distinct = not same_arg and not (yield from ops.eq(a1, dest))
    # Copy upwards unless the ranges overlap with the destination above the source.
    order = range(n) if t > e or t <= f or distinct else range(n - 1, -1, -1)
    if raw:
        _move_raw(vm, a1, f, e, t, dest, n, order)
        return (dest,)
    for c, k in enumerate(order):
        if c & (TICK_EVERY - 1) == 0:
            vm.tickn(TICK_EVERY)
        yield from ops.setindex(dest, t + k, (yield from ops.index(a1, f + k)))
    return (dest,)


def _move_raw(vm, a1, f, e, t, dest, n, order):
    vm.tickn(n)
    src = a1.arr
    dst = dest.arr
    if f >= 1 and e <= len(src) and 1 <= t <= len(dst) + 1 and (not dest.hash or t + n - 1 <= len(dst)):
        chunk = src[f - 1:e]  # a copy, so overlapping ranges are safe
        if None not in chunk:  # a nil could end the list, breaking its invariant
            grown = t - 1 + n - len(dst)
            dst[t - 1:t - 1 + n] = chunk
            if grown > 0:
                vm.charge(8 * grown)  # a list slot per new element
            return
    get = _reader(a1)
    put = dest.set_int
    for c, k in enumerate(order):
        if c & (TICK_EVERY - 1) == 0:
            vm.tickn(TICK_EVERY)
        put(t + k, get(f + k))


# ------------------------------------------------------------------ concat

@_c_function
def t_concat(vm, t=ABSENT, sep=ABSENT, i=ABSENT, j=ABSENT, *_):
    if _raw_elements(t):
        r = _concat_raw(vm, t, sep, i, j)
        if r is not None:
            return r
    _checktab(t, 1, 'concat', TAB_R | TAB_L)
    last = yield from _length(t)
    sep = opt_str(sep, 2, 'concat', '')
    i = opt_int(i, 3, 'concat', 1)
    last = opt_int(j, 4, 'concat', last)
    parts = yield from _pieces_meta(vm, t, i, last, len(sep))
    return _joined(vm, parts, sep)


def _concat_raw(vm, t, sep, i, j):
    """table.concat of a table with raw elements, where no Lua code runs;
    None past the list of one with ``__index`` (the general path asks it,
    checking memory as it goes)."""
    last = t.length()
    sep = '' if sep is ABSENT else opt_str(sep, 2, 'concat', '')
    i = 1 if i is ABSENT else opt_int(i, 3, 'concat', 1)
    last = last if j is ABSENT else opt_int(j, 4, 'concat', last)
    parts = _pieces_raw(t, i, last)
    if parts is None:
        return None
    if len(parts) > ops.FEW_PIECES:
        vm.tickn(len(parts))
    return _joined(vm, parts, sep)


def _joined(vm, parts, sep):
    """The pieces joined; a result of any size but a small one (see
    ``ops.join_small``) is checked against the memory ceiling first and
    charged as work and memory."""
    size = sum(map(len, parts)) + len(sep) * max(len(parts) - 1, 0)
    if size <= ops.SMALL_RESULT:
        return (sep.join(parts),)
    vm.check_alloc(size)
    s = sep.join(parts)
    vm.produced(size)
    return (s,)


def _piece(v, k):
    """The string table.concat adds for element ``k``: strings, and numbers converted."""
    c = v.__class__
    if c is str:
        return v
    if c is int or c is float:
        return tostr(v)
    rt_error("invalid value (%s) at index %d in table for 'concat'" % (type_name(v), k))


def _pieces_raw(t, i, last):
    if i > last:
        return []
    arr = t.arr
    if i >= 1 and last <= len(arr):
        parts = arr[i - 1:last]
        if set(map(type, parts)) <= _ONLY_STR:
            return parts
        return [_piece(v, k) for k, v in enumerate(parts, i)]
    if _indexed(t):
        return None
    # Past the list every value comes from the hash part; the first missing
    # one ends the walk with an error, so a huge range costs nothing.
    get = t.get_int
    return [_piece(get(k), k) for k in range(i, last + 1)]


def _pieces_meta(vm, t, i, last, lsep):
    parts = []
    size = 0
    for k in range(i, last + 1):
        p = _piece((yield from ops.index(t, k)), k)
        parts.append(p)
        size += len(p) + lsep
        if len(parts) & (TICK_EVERY - 1) == 0:
            vm.tickn(TICK_EVERY)
            vm.check_alloc(size)  # __index may produce values without end
    return parts


# ------------------------------------------------------------ pack, unpack

def t_pack(vm, *args):
    arr = list(args)
    while arr and arr[-1] is None:  # the list part never ends in nil
        arr.pop()
    vm.charge(8 * len(args))
    return (LuaTable(arr, {'n': len(args)}),)


@_c_function
def t_unpack(vm, t=None, i=ABSENT, j=ABSENT, *_):
    if _raw_elements(t):
        r = _unpack_raw(vm, t, i, j)
        if r is not None:
            return r
    i = opt_int(i, 2, 'unpack', 1)
    if j is not None and j is not ABSENT:
        e = check_int(j, 3, 'unpack')
    else:
        e = yield from _length(t)
    if i > e:
        return ()
    _check_unpack(vm, i, e)
    values = []
    for k in range(i, e + 1):
        values.append((yield from ops.index(t, k)))
    return values


def _unpack_raw(vm, t, i, j):
    """``table.unpack`` of a table with raw elements; None past the list
    of one with ``__index`` (the general path asks it)."""
    arr = t.arr
    if i is ABSENT and arr and (j is ABSENT or j is None):
        # The whole array part, its length the border: a few results
        # count nothing, as other library calls of small work.
        if len(arr) > 64:
            _check_unpack(vm, 1, len(arr))
        return arr[:]
    if i.__class__ is int and j.__class__ is int and 0 < i <= j <= len(arr):
        # A range of the list part (``table.unpack(args, 1, args.n)``).
        if j - i >= 64:
            _check_unpack(vm, i, j)
        return arr[i - 1:j]
    i = opt_int(i, 2, 'unpack', 1)
    e = t.length() if j is None or j is ABSENT else check_int(j, 3, 'unpack')
    if i > e:
        return ()
    within = i >= 1 and e <= len(arr)
    if not within and _indexed(t):
        return None
    _check_unpack(vm, i, e)
    if within:
        return arr[i - 1:e]
    get = t.get_int
    return [get(k) for k in range(i, e + 1)]


def _check_unpack(vm, i, e):
    """Refuse more results than Lua's stack takes; count one instruction each."""
    if e - i >= MAX_RESULTS:
        rt_error('too many results to unpack')
    vm.tickn(e - i + 1)


# -------------------------------------------------------------------- sort

def t_sort(vm, t=ABSENT, comp=ABSENT, *_):
    _checktab(t, 1, 'sort', TAB_R | TAB_W | TAB_L)
    raw = _raw_elements(t)
    n = t.length() if raw else _as_length(_length_noyield(t))
    if n <= 1:
        return ()
    if n >= INT_MAX:
        arg_error(1, 'sort', 'array too big')
    if comp is not None and comp is not ABSENT:
        if not is_function(comp):
            type_error(2, 'sort', 'function', comp)
        order = ops.ORDERS.get(comp.__code__) if comp.__class__ is FunctionType else None
        if order is not None and raw and _sorted_natively(t.arr, order == 'gt'):
            vm.tickn(n)
            return ()
        less = _comparator(comp)
    elif raw and _sorted_natively(t.arr):
        vm.tickn(n)
        return ()
    else:
        less = less_than
    if raw:
        access = (t.arr, _reader(t), t.set_int)
    else:
        access = ([], partial(_index_noyield, t), partial(_setindex_noyield, t))
    if less is less_than:
        _auxsort(access, less, 1, n, 0, vm.tickn)
        return ()
    # The comparator runs nested in sort, as on Lua's C stack, where it
    # cannot yield (its plain form runs: a yield is an error where made).
    ops.enter_c_call(vm, False)
    vm.no_yield += 1
    try:
        _auxsort(access, less, 1, n, 0, vm.tickn)
    finally:
        vm.c_calls -= 1
        vm.no_yield -= 1
    return ()


def _comparator(comp):
    """``comp(a, b)`` as a truth value, where Lua forbids yielding."""
    if ops.takes(comp, 2):
        if comp.__code__ in ops.PREDICATES:
            return comp           # its result is a Python bool already
        # A Lua function's plain form: one result bare, other counts as a
        # tuple (or a tail call's marker).
        def less(a, b):
            r = comp(a, b)
            if r.__class__ is tuple:
                r = r[0] if r and r[0] is not ops.TAIL else ops.run_tail_calls(r, True) if r else None
            return r is not None and r is not False
        return less
    call = ops.call_noyield

    def less(a, b):
        r = call(comp, (a, b))
        return bool(r) and r[0] is not None and r[0] is not False
    return less


def _sorted_natively(arr, descending=False) -> bool:
    """Sort a list of only integers, only strings or only numbers with
    Python's sort when that gives Lua's result (by ``<``, or by ``>`` when
    ``descending``): ties must be indistinguishable (1 and 1.0, 0.0 and
    -0.0 are not) and there must be no NaN.  Otherwise leave it untouched
    and answer False."""
    kinds = set(map(type, arr))
    if len(kinds) == 1 and (int in kinds or str in kinds):
        # Strings compare bytewise, as Lua's strcoll in the C locale.
        arr.sort(reverse=descending)
        return True
    if not kinds <= {int, float}:
        return False
    s = sorted(arr, reverse=descending)
    before = gt if descending else lt
    if not all(map(before, s, islice(s, 1, None))):
        for a, b in zip(s, islice(s, 1, None)):
            if not (before(a, b) or (a == b and a.__class__ is b.__class__
                                     and copysign(1.0, a) == copysign(1.0, b))):
                return False
    arr[:] = s
    return True


# Partitions smaller than this always use the middle element as pivot.
RANLIMIT = 100


def _auxsort(access, less, lo, up, rnd, tick):
    """ltablib.c's quicksort, step for step, so that comparators see the
    same pairs, ``invalid order function`` fires in the same places and
    results for inconsistent comparators equal Lua's.

    ``access`` is (list, get, put): the table's list part, which the
    partition loop reads and writes directly while an index is inside it
    (an empty list for a table with a metatable), and the functions that
    read and write any element."""
    arr, get, put = access
    while lo < up:
        tick(up - lo)
        a_lo = get(lo)
        a_up = get(up)
        if less(a_up, a_lo):
            put(lo, a_up)
            put(up, a_lo)
        if up - lo == 1:
            return
        if up - lo < RANLIMIT or rnd == 0:
            p = (lo + up) // 2
        else:
            r4 = (up - lo) // 4
            p = rnd % (r4 * 2) + (lo + r4)
        a_p = get(p)
        a_lo = get(lo)
        if less(a_p, a_lo):
            put(p, a_lo)
            put(lo, a_p)
        else:
            a_up = get(up)
            if less(a_up, a_p):
                put(p, a_up)
                put(up, a_p)
        if up - lo == 2:
            return
        pivot = get(p)
        a_up1 = get(up - 1)
        put(p, a_up1)
        put(up - 1, pivot)
        p = _partition(arr, get, put, less, lo, up, pivot)
        if p - lo < up - p:
            _auxsort(access, less, lo, p - 1, rnd, tick)
            n = p - lo
            lo = p + 1
        else:
            _auxsort(access, less, p + 1, up, rnd, tick)
            n = up - p
            up = p - 1
        if (up - lo) // 128 > n:
            # Badly unbalanced: Lua re-randomises the pivot from the clock;
            # a hash of the bounds keeps pylua's sort deterministic.
            rnd = ((lo * 0x9E3779B1) ^ (up * 0x85EBCA77)) & 0xFFFFFFFF or 1


def _partition(arr, get, put, less, lo, up, pivot):
    """Partition a[lo+1 .. up-2] around ``pivot`` (stored at up-1); return its
    final index.  Indices stay at least 1; the comparator may resize ``arr``,
    so each direct access checks its bound."""
    i = lo
    j = up - 1
    while True:
        i += 1
        a_i = arr[i - 1] if i <= len(arr) else get(i)
        while less(a_i, pivot):
            if i == up - 1:  # a[i] < P but a[up - 1] == P
                rt_error('invalid order function for sorting')
            i += 1
            a_i = arr[i - 1] if i <= len(arr) else get(i)
        j -= 1
        a_j = arr[j - 1] if j <= len(arr) else get(j)
        while less(pivot, a_j):
            if j < i:  # j < i but a[j] > P
                rt_error('invalid order function for sorting')
            j -= 1
            a_j = arr[j - 1] if j <= len(arr) else get(j)
        if j < i:
            put(up - 1, a_i)
            put(i, pivot)
            return i
        if a_j is not None and a_i is not None and j <= len(arr) and i <= len(arr):
            arr[i - 1] = a_j
            arr[j - 1] = a_i
        else:
            put(i, a_j)
            put(j, a_i)


# ------------------------------------------------------------------- make

def _fast_forms(vm):
    """insert, remove, concat and unpack on tables with raw elements
    (``_raw_elements``), the hot cases, as plain calls; anything else raises
    NeedsLua and runs the generator form."""
    def insert(t=ABSENT, pos=ABSENT, v=ABSENT, *extra):
        if t.__class__ is LuaTable and (t.meta is None or _raw_meta(t.meta)):
            if v is ABSENT and pos is not ABSENT and pos is not None and not t.hash:
                arr = t.arr
                arr.append(pos)
                n = len(arr) - 1
                if n & (n - 1) == 0:
                    vm.charge(8 * (n + 1))
                return ()
            return _insert_raw(vm, t, pos, v, extra)
        raise NEEDS_LUA

    def remove(t=ABSENT, pos=ABSENT, *_):
        if t.__class__ is LuaTable and (t.meta is None or _raw_meta(t.meta)):
            return _remove_raw(vm, t, pos)
        raise NEEDS_LUA

    def concat(t=ABSENT, sep=ABSENT, i=ABSENT, j=ABSENT, *_):
        if t.__class__ is LuaTable and (t.meta is None or _raw_meta(t.meta)):
            r = _concat_raw(vm, t, sep, i, j)
            if r is not None:
                return r
        raise NEEDS_LUA

    def unpack(t=None, i=ABSENT, j=ABSENT, *_):
        if t.__class__ is LuaTable and (t.meta is None or _raw_meta(t.meta)):
            r = _unpack_raw(vm, t, i, j)
            if r is not None:
                return r
        raise NEEDS_LUA

    return {'insert': insert, 'remove': remove, 'concat': concat, 'unpack': unpack}


def make(vm) -> LuaTable:
    t = LuaTable()
    fast = _fast_forms(vm)
    for name, fn, kind in (
            ('concat', t_concat, GenBuiltin), ('insert', t_insert, GenBuiltin),
            ('move', t_move, GenBuiltin), ('pack', t_pack, Builtin),
            ('remove', t_remove, GenBuiltin), ('sort', t_sort, Builtin),
            ('unpack', t_unpack, GenBuiltin)):
        if name in fast:
            t.set(name, Builtin(fast[name], 'table.' + name, gen=partial(fn, vm)))
        else:
            t.set(name, kind(partial(fn, vm), 'table.' + name))
    return t
