"""Lua operations with full semantics: the slow paths behind translated code
(coercions, metamethods, error messages) and the API library code uses to
call back into Lua.  Generators wherever Lua code may run, so a yield or a
host effect passes through them.
"""
from __future__ import annotations

import itertools
import math
import operator
import sys
from types import CellType, FunctionType as FN, MappingProxyType

from . import state
from .closing import leave_pending
from .codemap import CodeMap, CodeSet
from .errors import ExitRequest, LuaError
from .frames import auxiliary_error, lua_info, tail_runner, transparent, vm_error as rt_error
from .numbers import MAXINT, MININT, float_to_int, fmt_float, str2number, tostr, wrap
from .table import (ClassHash, LuaTable as Table, charge_growth, class_hash, drop_nils, lookups_of,
                    share_class_lookups)
from .values import TYPE_NAMES, Builtin, GenBuiltin, NeedsLua, Suspended, Userdata, type_name

INF = math.inf
NAN = -math.nan      # x86's default NaN has the sign bit set; Lua prints it '-nan'
_MASK = (1 << 64) - 1
transparent(__file__)

# Set by the base library: the raw ``next`` and ipairs' iterator, for loop fast paths.
NEXT = None
INEXT = None


def getmeta(v):
    c = v.__class__
    if c is Table or c is Userdata:
        return v.meta
    if c is str:
        return state.running.vm.string_meta
    vm = state.running.vm      # None when a host asks outside any runtime
    return vm.type_metas.get(type_name(v)) if vm is not None and vm.type_metas else None


def metamethod(v, event):
    mt = getmeta(v)
    if mt is None:
        return None
    return mt.hash.get(event)


def binary_handler(a, b, event):
    """The handler of binary ``event``: ``a``'s, else ``b``'s when ``a`` has
    none (a false one is ``a``'s, as luaT_trybinTM finds it)."""
    h = metamethod(a, event)
    return metamethod(b, event) if h is None else h


def _desc(note):
    return ' (%s)' % note if note else ''


def objtypename(v):
    """A value's type name for messages: ``__name`` from its metatable when a string."""
    mt = getmeta(v) if v.__class__ is not str else None
    if mt is not None:
        name = mt.hash.get('__name')
        if name.__class__ is str:
            return name
    return type_name(v)


# ------------------------------------------------------------------ calling
def call(f, args, note=None):
    """Call any Lua value; always returns a sequence of results."""
    c = f.__class__
    if c is not FN and c is not Builtin and c is not GenBuiltin:
        f, args = call_target(f, args, note)
        c = f.__class__
    if c is FN:
        try:
            g = f.gen
        except AttributeError:
            g = gen_form(f)
        r = yield from g(*fit_args(f, args))
        if r.__class__ is not tuple:
            return (r,)
        if r and r[0] is TAIL:
            return (yield from run_tail_calls_gen(r, False))
        return r
    if c is Builtin:
        try:
            return f.fn(*args)
        except NeedsLua:
            return (yield from finish_raised(f, args))
    return (yield from f.fn(*args))


def call_target(f, args, note=None):
    """What a call of ``f`` with ``args`` calls, and with what: ``f`` when it
    is a function (Lua's or a host's), else the function its chain of
    ``__call`` metamethods ends in, each given the value it was found on
    before the arguments.  A value that cannot be called is an error."""
    while not (f.__class__ is FN or f.__class__ is Builtin or f.__class__ is GenBuiltin):
        h = metamethod(f, '__call')
        if h is None:
            rt_error('attempt to call a %s value%s' % (objtypename(f), _desc(note)))
        f, args = h, (f,) + tuple(args)      # a failure names the slot called, as Lua's
    return f, args


def call_plain(f, args, note=None):
    """``call`` from a plain form: a ``__call`` chain ends in the handler's
    plain form, as a call of a function does there.  Run as ``call``'s
    generator, every level of a recursion through ``__call`` was two
    generator frames, whose unwinding (220,000 of them at a stack
    overflow) no check can interrupt."""
    f, args = call_target(f, args, note)
    if f.__class__ is FN:
        return lua_results(f(*fit_args(f, args)))
    return sync(call(f, args, note))


def lua_results(r):
    """What a Lua function's plain form returned, as a tuple of results."""
    if r.__class__ is not tuple:
        return (r,)
    if r and r[0] is TAIL:
        return run_tail_calls(r, False)
    return r


# ---------------------------------------------------------------- tail calls
# ``return f(...)`` of a Lua function ``f`` does not call it: the function
# returns the marker ``(TAIL, f, args)`` and the call site that receives it
# runs the call in ``run_tail_calls`` (or its generator twin), so a chain of tail
# calls takes one Python frame whatever its length.  The marker is a tuple so
# that call sites' test for one bare result stays as cheap as before.
class _TailMark:
    __slots__ = ()

    def __repr__(self):
        return 'TAIL'


TAIL = _TailMark()


def run_tail_calls(r, first):
    """Run the tail calls marker ``r`` stands for, one after another in
    this frame: the last one's results as a tuple, or (``first``) its
    first result."""
    while True:
        f = r[1]
        args = r[2]
        try:
            r = f(*args)
        except TypeError as exc:
            r = f(*refit(exc, f, args))
        if r.__class__ is not tuple:
            return r if first else (r,)
        if not r or r[0] is not TAIL:
            return (r[0] if r else None) if first else r


def first_result(r):
    """The first result of a Lua function's plain form that returned a
    tuple: none, several, or the marker of a tail call to run here."""
    if not r:
        return None
    return r[0] if r[0] is not TAIL else run_tail_calls(r, True)


def run_tail_calls_gen(r, first):
    """``run_tail_calls`` in generator forms, which a yield may suspend."""
    while True:
        f = r[1]
        args = r[2]
        try:
            g = f.gen
        except AttributeError:
            g = gen_form(f)
        try:
            c = g(*args)
        except TypeError as exc:
            c = g(*refit(exc, f, args))
        r = yield from c
        if r.__class__ is not tuple:
            return r if first else (r,)
        if not r or r[0] is not TAIL:
            return (r[0] if r else None) if first else r


# Frames of these run tail-called Lua functions: the debug library shows
# those as Lua shows functions that replaced their caller.
tail_runner(run_tail_calls.__code__)
tail_runner(run_tail_calls_gen.__code__)


def tail_call(f, args, note):
    """``return f(...)`` of a value that is not a Lua function, in the caller:
    a host function is called (it runs above its caller, as C functions do
    in Lua), a ``__call`` chain is followed to the function it ends in, and
    a value that cannot be called is an error at the caller's line.  The
    results as a tuple, or the marker of a Lua function's tail call."""
    f, args = call_target(f, args, note)
    if f.__class__ is FN:
        return (TAIL, f, args)
    r = yield from call(f, args)
    return r if r.__class__ is tuple else tuple(r)


def enter_c_call(vm, positioned):
    """One more call on Lua's C stack: past ``C_CALLS_MAX`` nested, Lua's
    ``C stack overflow``, positioned at the Lua code making the call or not."""
    if vm.c_calls >= state.C_CALLS_MAX:
        if positioned:
            rt_error('C stack overflow')
        raise LuaError('C stack overflow')
    vm.c_calls += 1


def nested_call(f, args, note=None, continuation=True):
    """Call ``f`` on the C stack, as Lua calls metamethods and library
    callbacks.  With a ``continuation`` (a metamethod from Lua code,
    ``pcall``), a ``C stack overflow`` is positioned at the Lua code making
    the call and a coroutine may suspend inside it; without (a library
    function's plain ``lua_call``, such as ``gsub``'s function), the error is
    unpositioned and Lua code may not yield across the call (host effects
    still pass, in a run that lets them: ``vm.synchronous`` is 0)."""
    vm = state.running.vm
    if vm.synchronous and (vm.no_yield or not continuation or vm.coroutine is None):
        return nested_call_plainly(vm, f, args, note, continuation)
    if f.__class__ is FN:
        vm.count_call(f)
    if vm.c_calls >= state.C_CALLS_MAX:
        enter_c_call(vm, continuation)      # the overflow's error
    vm.c_calls += 1
    if continuation:
        # A coroutine resumed after yielding inside the call no longer
        # counts the call's level (Lua unrolls it without the C stack).
        co = vm.coroutine
        resumes = co.resumes if co is not None else 0
        try:
            if f.__class__ is FN:
                # ``call``'s case of a Lua function, without its generator.
                try:
                    g = f.gen
                except AttributeError:
                    g = gen_form(f)
                r = yield from g(*fit_args(f, args))
                if r.__class__ is not tuple:
                    r = (r,)
                elif r and r[0] is TAIL:
                    r = yield from run_tail_calls_gen(r, False)
            else:
                r = yield from call(f, args, note)
        except GeneratorExit:
            # A suspended coroutine closed or collected: its resume already
            # gave back the depth its calls took.
            raise
        except BaseException:
            if co is None or co.resumes == resumes:
                vm.c_calls -= 1
            raise
        if co is None or co.resumes == resumes:
            vm.c_calls -= 1
        return r
    # Suspended at most in a host effect, inside the run being closed: the
    # depth is given back whichever way the call ends.
    vm.no_yield += 1
    try:
        return (yield from call(f, args, note))
    finally:
        vm.c_calls -= 1
        vm.no_yield -= 1


def nested_call_plainly(vm, f, args, note=None, positioned=True):
    """``nested_call`` where nothing can suspend the call: no host effect
    passes the run, and no yield can reach a resume.  The callee's plain
    form runs (its generator form is never made), and a yield is an error
    where made.  Every metamethod's call from a plain form passes here, so
    the count (``vm.count_call``), the fitting of arguments (``fit_args``)
    and the results (``lua_results``) are inline: each call of a helper
    cost a tenth of the whole."""
    c_calls = vm.c_calls
    if c_calls >= state.C_CALLS_MAX:
        enter_c_call(vm, positioned)      # the overflow's error
    if f.__class__ is not FN:
        vm.c_calls = c_calls + 1
        vm.no_yield += 1
        try:
            return call_plain(f, args, note)
        finally:
            vm.c_calls -= 1
            vm.no_yield -= 1
    code = f.__code__
    cell = vm.steps_cell
    s = cell.cell_contents = cell.cell_contents - (1 + len(code.co_code) // state.CODE_BYTES)
    if s < 0:
        vm.tick()
    # Extra arguments cut first: handlers are often given more than they
    # take (``__len`` and ``__unm`` get their operand twice), and a failed
    # binding raised and caught cost 2.5 us.
    if len(args) > code.co_argcount and not code.co_flags & _CO_VARARGS:
        args = args[:code.co_argcount]
    vm.c_calls = c_calls + 1
    vm.no_yield += 1
    try:
        r = f(*args)
        if r.__class__ is not tuple:
            return (r,)
        return run_tail_calls(r, False) if r and r[0] is TAIL else r
    finally:
        vm.c_calls -= 1
        vm.no_yield -= 1


def runs_plainly(vm):
    """Can nothing suspend a call ``vm`` makes now (``nested_call_plainly``)?"""
    return vm.synchronous and (vm.no_yield or vm.coroutine is None)


def meta_call(h, args, note):
    """``nested_call`` of metamethod ``h`` from a plain form: without its
    generator where nothing can suspend the call, else running it to its end."""
    vm = state.running.vm
    if vm.synchronous and (vm.no_yield or vm.coroutine is None):
        return nested_call_plainly(vm, h, args, note)
    return sync(nested_call(h, args, note))


# A Lua function's Python signature has only its parameters (and ``*VA`` when
# it is vararg), so calls run on CPython's fast path; extra arguments, which
# Lua drops, are cut by the caller.
_CO_VARARGS = 0x04      # inspect.CO_VARARGS, without importing inspect


def fit_args(f, args):
    """``args`` without those Lua function ``f`` has no parameter for."""
    code = f.__code__
    n = code.co_argcount
    if len(args) > n and not code.co_flags & _CO_VARARGS:
        return args[:n]
    return args


def refit(exc, f, args):
    """At a call site that passed ``args`` straight to Lua function ``f``:
    the arguments to call again with when the TypeError ``exc`` came from
    binding them (too many), else ``exc`` again.  A binding error is raised
    in the caller's own frame, so its traceback has no further entry."""
    if exc.__traceback__.tb_next is None:
        fitted = fit_args(f, args)
        if fitted is not args:
            return fitted
    raise exc


def refit_raised(f, args):
    """``refit`` of the TypeError being handled: call sites catch it without
    binding it, which spares every one of them the code of an ``as``."""
    return refit(sys.exc_info()[1], f, args)


def call_guessed(f, args, note):
    """At a call site that called ``f`` as a Lua function without testing
    its class (a method found on a table, ``obj:m(...)``), the
    ``TypeError`` being handled: a Lua function given more arguments than
    it has parameters is called again with them cut; anything else (a host
    function, a table with ``__call``, a value that cannot be called) is
    called as ``call_plain`` calls it.  What it returns is given as a Lua
    function's plain form gives its results (a tuple for any count)."""
    if f.__class__ is FN:
        return f(*refit_raised(f, args))
    r = call_plain(f, args, note)
    return r if r.__class__ is tuple else tuple(r)


def takes(f, n):
    """Is ``f`` a Lua function that can be called with ``n`` arguments as they are?"""
    if f.__class__ is not FN:
        return False
    code = f.__code__
    return code.co_argcount >= n or bool(code.co_flags & _CO_VARARGS)


# A Lua function's plain form's code -> its generator form's code, and for
# each of the latter's free variables the index of the plain form's cell of
# the same name (-1: the generator form itself, for its own calls); until
# first needed, the function that makes the generator form's code.
_GEN_CODE: CodeMap = CodeMap()

# Plain forms' code of Lua functions that always return one Python bool.
PREDICATES: CodeSet = CodeSet()
# Plain forms' code of Lua functions that are exactly ``return a < b`` ('lt')
# or ``return a > b`` ('gt') of their two parameters.
ORDERS: CodeMap = CodeMap()


def link_gen_form(plain, make):
    """Record that ``make()`` gives the code of the generator form of
    functions with code ``plain`` (made when first needed)."""
    _GEN_CODE[plain] = make


def _gen_code(plain):
    """The generator form's code for ``plain`` and, for each of its free
    variables, the index of the plain form's cell of the same name."""
    entry = _GEN_CODE[plain]
    if entry.__class__ is not tuple:
        gen = entry()
        names = plain.co_freevars
        index = tuple(names.index(n) if n in names else -1 for n in gen.co_freevars)
        assert index.count(-1) <= 1, 'the generator form only adds its own name'
        entry = _GEN_CODE[plain] = (gen, index)
    return entry


def gen_form(f):
    """The generator form of Lua function ``f``, made on first use from the
    cells of ``f`` (its plain form) and kept as ``f.gen``."""
    code, index = _gen_code(f.__code__)
    cells = f.__closure__
    own = CellType()
    g = FN(code, f.__globals__, code.co_name, f.__defaults__,
           tuple(cells[i] if i >= 0 else own for i in index))
    own.cell_contents = g
    f.gen = g
    return g


def finish(exc):
    """Take over the generator a hybrid started before it raised ``exc``,
    from the value it yielded."""
    g = exc.generator
    value = exc.value
    while True:
        try:
            answer = yield value
        except GeneratorExit:
            g.close()
            raise
        except BaseException as e:        # an error answer goes in at the suspension point
            try:
                value = g.throw(e)
            except StopIteration as stop:
                return stop.value
            continue
        try:
            value = g.send(answer)
        except StopIteration as stop:
            return stop.value


def finish_raised(f, args):
    """The generator completing a Builtin call whose fast form raised the
    NeedsLua being handled (see ``refit_raised``): its generator form itself
    (no generator around it, for the caller to ``yield from``), or
    ``finish`` taking over the generator a hybrid already started."""
    exc = sys.exc_info()[1]
    # ``NEEDS_LUA`` is one instance raised again and again: each raise would
    # add its frames to the traceback it kept from the last, a chain of
    # frames (and the values in them) that grows without end.
    exc.__traceback__ = None
    if getattr(exc, 'generator', None) is None:
        return f.gen(*args)
    return finish(exc)


def call_noyield(f, args, note=None):
    """Run a Lua call to completion where Lua forbids yielding (C boundaries):
    a yield inside is an error where it is made, which a ``pcall`` there
    catches (run to a suspension, the call would be closed with every
    level it holds on the C stack).  ``note`` names the call for
    tracebacks (``metamethod 'mul'``), read from this frame."""
    vm = state.running.vm
    vm.no_yield += 1
    try:
        return _run_noyield(f, args)
    finally:
        vm.no_yield -= 1


def _run_noyield(f, args):
    if f.__class__ is Builtin:
        try:
            return f.fn(*args)
        except Suspended as exc:
            exc.generator.close()
            raise LuaError(_YIELD_ACROSS)
        except NeedsLua as exc:
            exc.__traceback__ = None      # as in ``finish``
    if f.__class__ is FN:
        return lua_results(f(*fit_args(f, args)))
    g = call(f, args)
    try:
        g.send(None)
    except StopIteration as stop:
        r = stop.value
        return r if r.__class__ is tuple else (r,)
    g.close()
    raise LuaError(_YIELD_ACROSS)


def sync(g):
    """Run an operation's generator to completion in a plain function twin."""
    try:
        g.send(None)
    except StopIteration as stop:
        return stop.value
    g.close()
    raise LuaError(_YIELD_ACROSS)


def adjust(values, n):
    """``values`` truncated or nil-padded to exactly ``n`` entries."""
    k = len(values)
    if k >= n:
        return tuple(values[:n])
    return tuple(values) + (None,) * (n - k)


# ----------------------------------------------------------------- indexing
def index(o, k, note=None):
    """``o[k]`` with ``__index``; ``note`` describes ``o`` for the error message."""
    for _ in range(2000):
        if o.__class__ is Table:
            v = o.get(k)
            if v is not None or o.meta is None:
                return v
            h = o.meta.hash.get('__index')
            if h is None:
                return None
        else:
            h = metamethod(o, '__index')
            if h is None:
                rt_error('attempt to index a %s value%s' % (objtypename(o), _desc(note)))
        c = h.__class__
        if c is FN or c is Builtin or c is GenBuiltin:
            r = yield from nested_call(h, (o, k), _META_NOTES['index'])
            return r[0] if r else None
        o = h
        note = None
    rt_error("'__index' chain too long; possible loop")


def from_c(op):
    """Run ``op``, an operation's generator (``index(t, k)``...), as a C
    library function runs it: the metamethods it calls may not yield
    (luaT_callTMres calls them without yields when C is running)."""
    vm = state.running.vm
    vm.no_yield += 1
    try:
        return (yield from op)
    finally:
        vm.no_yield -= 1


# Raised by the yield itself (a C function in Lua), so it carries no position.
_YIELD_ACROSS = 'attempt to yield across a C-call boundary'

_CALL_NEEDED = object()


def index_chain(t, k):
    """``t[k]`` for a table with a metatable when the raw value is nil, following
    ``__index`` tables without calling Lua; ``_CALL_NEEDED`` when a function
    handler or a non-table must take over (then use ``index_miss``).

    For a string key the answer depends only on the metatable's chain, so it
    is cached on the metatable (see ``table.ClassHash``), shared by every
    metatable with the same ``__index`` table: a method found classes up,
    or a field no class holds, costs one probe.  Only once the class (the
    ``__index`` table, else the metatable) has served a few lookups
    (``_worth_caching``): a table that one object's lookups pass through
    (an interpreter's scope chained to its parent's) would pay for a cache
    it never reads, and every table on its chain would then check each
    store for caches to clear."""
    mt = t.meta
    if mt is None:
        return None
    if k.__class__ is str:
        hash = mt.hash
        if hash.__class__ is not ClassHash:
            h = hash.get('__index')
            if h.__class__ is Table:
                if h.hash.__class__ is ClassHash and h.hash.as_index is not None:
                    # A class others' lookups are cached for: a metatable
                    # made for one object ({__index = Class}), set otherwise
                    # than by setmetatable, shares them from its first lookup.
                    lookups_of(mt, h)
                    hash = mt.hash
                elif _worth_caching(h):
                    return _chain_filled(mt, k)
            elif _worth_caching(mt):
                return _chain_filled(mt, k)
        if hash.__class__ is ClassHash:
            lookups = hash.lookups
            v = lookups.get(k, _UNCACHED)
            if v is not _UNCACHED:
                return v
            if (k,) in lookups:         # a handler must run (see _chain_filled)
                return _CALL_NEEDED
            return _chain_filled(mt, k)
    plain_key = k.__class__ is str       # read from the hash part as it is
    for _ in range(2000):
        h = mt.hash.get('__index')
        if h is None:
            return None
        if h.__class__ is not Table:
            return _CALL_NEEDED
        v = h.hash.get(k) if plain_key else h.get(k)
        if v is not None:
            return v
        mt = h.meta
        if mt is None:
            return None
    return _CALL_NEEDED


_UNCACHED = object()
CACHE_AFTER = 8


def _worth_caching(t):
    """Has table ``t`` (a class, or a metatable whose ``__index`` is none)
    served ``CACHE_AFTER`` string lookups, twice as many for each time a
    store into it dropped a cached answer (``ClassHash.demotions``)?
    (Counted on it: most tables never get the slot.)"""
    # getattr's default: a fresh table (one per scope or object) has no
    # count yet, and a raised AttributeError costs three times as much.
    served = getattr(t, 'lookups_served', 0) + 1
    t.lookups_served = served
    if served < CACHE_AFTER:
        return False
    hash = t.hash
    return hash.__class__ is not ClassHash or served >= CACHE_AFTER << getattr(hash, 'demotions', 0)


# What ``STRING_LOOKUPS`` is bound to while no string method is cached.
NO_LOOKUPS = MappingProxyType({})
_LOOKUPS_MAX = 256      # keys cached per metatable (each costs a dict slot)


def _chain_filled(mt, k, shared=True):
    """Walk the chain from metatable ``mt`` for string ``k``, then cache the
    answer on ``mt``, making every table the answer depends on report changes.
    Where ``mt``'s ``__index`` is a table, the cache is the one every
    metatable with that ``__index`` shares (unless not ``shared``), which
    ``mt`` itself need not report to: a change of its ``__index`` takes it
    off the shared cache (``ClassHash.changed``).  "A handler must run" is
    cached under ``(k,)``, a key no translated code probes: it takes
    whatever its probe of ``k`` finds as the value, and a key missing
    there to ``index_chain``."""
    first = mt
    path = []
    for _ in range(2000):
        path.append(mt)
        h = mt.hash.get('__index')
        if h is None:
            v = None
            break
        if h.__class__ is not Table:
            v = _CALL_NEEDED
            break
        path.append(h)
        v = h.hash.get(k)
        if v is not None:
            break
        mt = h.meta
        if mt is None:
            break
    else:
        return _CALL_NEEDED     # a loop: not cached, index_miss reports it
    cls = first.hash.get('__index')
    if shared and cls.__class__ is Table:
        del path[0]
    else:
        cls = None
    lookups = lookups_of(first, cls)
    if len(lookups) >= _LOOKUPS_MAX:
        lookups.clear()
    elif len(lookups) & (len(lookups) - 1) == 0:
        charge_growth(64 * (len(lookups) + 1))
    ident = id(lookups)
    for table in path:
        class_hash(table).depend(ident, lookups)
    lookups[(k,) if v is _CALL_NEEDED else k] = v
    return v


def string_field(k):
    """``s[k]`` for a string ``s`` and a string ``k`` (``s:method()``) when the
    string metatable's ``__index`` chain answers without calling Lua, else
    ``_CALL_NEEDED`` (then use ``index``).  The answer is cached on the
    string metatable as ``index_chain`` caches a class's, and the VM's
    ``STRING_LOOKUPS`` (probed inline by translated code) is bound to that
    cache; ``debug.setmetatable`` on strings unbinds it."""
    vm = state.running.vm
    mt = vm.string_meta
    if mt is None:
        return _CALL_NEEDED
    # Not shared: STRING_LOOKUPS must empty when the metatable changes.
    v = _chain_filled(mt, k, shared=False)
    vm.ns['STRING_LOOKUPS'] = class_hash(mt).lookups
    return v


def string_method(s, k, note):
    """``s[k]`` for ``s:k()`` on a string when ``STRING_LOOKUPS`` did not
    give the method (not cached yet, or a handler to run)."""
    v = string_field(k)
    if v is _CALL_NEEDED:
        v = yield from index(s, k, note)
    return v


def set_plain(t, k, v):
    """``t[k] = v`` for a table whose metatable has no say; False when ``__newindex`` must run."""
    mt = t.meta
    if mt is not None and mt.hash.get('__newindex') is not None and t.get(k) is None:
        return False
    t.set(k, v)
    return True


def index_miss(t, k):
    """``t[k]`` for a table whose raw value is nil and that has a metatable."""
    h = t.meta.hash.get('__index')
    if h is None:
        return None
    c = h.__class__
    if c is FN or c is Builtin or c is GenBuiltin:
        r = yield from nested_call(h, (t, k), _META_NOTES['index'])
        return r[0] if r else None
    return (yield from index(h, k))


def setindex(o, k, v, note=None):
    """``o[k] = v`` with ``__newindex``."""
    for _ in range(2000):
        if o.__class__ is Table:
            mt = o.meta
            h = None if mt is None else mt.hash.get('__newindex')
            if h is None or o.get(k) is not None:
                o.set(k, v)
                return
        else:
            h = metamethod(o, '__newindex')
            if h is None:
                rt_error('attempt to index a %s value%s' % (objtypename(o), _desc(note)))
        c = h.__class__
        if c is FN or c is Builtin or c is GenBuiltin:
            yield from nested_call(h, (o, k, v), _META_NOTES['newindex'])
            return
        o = h
        note = None
    rt_error("'__newindex' chain too long; possible loop")


# --------------------------------------------------------------- arithmetic
_EVENTS = {'add': '__add', 'sub': '__sub', 'mul': '__mul', 'div': '__div', 'mod': '__mod',
           'pow': '__pow', 'idiv': '__idiv', 'band': '__band', 'bor': '__bor',
           'bxor': '__bxor', 'shl': '__shl', 'shr': '__shr', 'unm': '__unm', 'bnot': '__bnot'}
_BITWISE = frozenset(('band', 'bor', 'bxor', 'shl', 'shr', 'bnot'))
# The note of a metamethod's call, by event: how tracebacks name its level.
_META_NOTES = {event: "metamethod '%s'" % event for event in
               list(_EVENTS) + ['index', 'newindex', 'lt', 'le', 'eq', 'len', 'concat']}


def tonumber(v):
    c = v.__class__
    if c is int or c is float:
        return v
    if c is str:
        return str2number(v)
    return None


def toint_strict(v):
    """The integer value of a number or numeric string (``lua_tointegerx``), or None."""
    c = v.__class__
    if c is int:
        return v
    if c is float:
        return float_to_int(v)
    if c is str:
        n = str2number(v)
        return None if n is None else toint_strict(n)
    return None


def arith(op, a, b, notes=(None, None)):
    if op in _BITWISE:
        # Strings are not coerced for bitwise operators in Lua 5.4.
        x = a if a.__class__ is int or a.__class__ is float else None
        y = b if b.__class__ is int or b.__class__ is float else None
        if x is not None and y is not None:
            i, j = toint_strict(x), toint_strict(y)
            if i is not None and j is not None:
                return bitop(op, i, j)
    else:
        # Strings are converted by the string metatable's metamethods, as in Lua 5.4.
        x = a if a.__class__ is int or a.__class__ is float else None
        y = b if b.__class__ is int or b.__class__ is float else None
        if x is not None and y is not None:
            # A division's notes may hold the line Lua reports its division by zero at.
            return arith_num(op, x, y, notes[2] if len(notes) > 2 else None)
    h = binary_handler(a, b, _EVENTS[op])
    if h is not None:
        r = yield from nested_call(h, (a, b), _META_NOTES[op])
        return r[0] if r else None
    if op in _BITWISE:
        if x is not None and y is not None:
            note = notes[0] if toint_strict(x) is None else notes[1]
            rt_error('number%s has no integer representation' % _desc(note))
        bad, note = (b, notes[1]) if x is not None else (a, notes[0])
        rt_error('attempt to perform bitwise operation on a %s value%s' % (objtypename(bad), _desc(note)))
    bad, note = (b, notes[1]) if x is not None else (a, notes[0])
    rt_error('attempt to perform arithmetic on a %s value%s' % (objtypename(bad), _desc(note)))


def arith_num(op, x, y, zero_line=None):
    """``x op y`` on numbers; an integer division by zero is reported at
    ``zero_line`` when given (see ``compiler.savedpc``)."""
    both_int = x.__class__ is int and y.__class__ is int
    if op == 'add':
        return wrap(x + y) if both_int else float(x) + float(y)
    if op == 'sub':
        return wrap(x - y) if both_int else float(x) - float(y)
    if op == 'mul':
        return wrap(x * y) if both_int else float(x) * float(y)
    if op == 'div':
        return fdiv(float(x), float(y))
    if op == 'mod':
        if both_int:
            if y == 0:
                rt_error("attempt to perform 'n%0'", zero_line)
            return x % y
        return fmod(float(x), float(y))
    if op == 'idiv':
        if both_int:
            if y == 0:
                rt_error('attempt to divide by zero', zero_line)
            return wrap(x // y)
        q = fdiv(float(x), float(y))
        if not math.isfinite(q):
            return q
        f = float(math.floor(q))
        return f if f else math.copysign(0.0, q)
    if op == 'pow':
        return fpow(float(x), float(y))
    if op == 'unm':
        return wrap(-x) if x.__class__ is int else -x
    raise AssertionError(op)


def fdiv(x, y):
    if y:
        return x / y
    if x != x or x == 0:
        return NAN
    return math.copysign(INF, x) * math.copysign(1.0, y)


def fmod(x, y):
    if y == 0 or math.isinf(x) or x != x or y != y:
        return NAN if not (y != y or x != x) else (x if x != x else y)
    if math.isinf(y):
        return x if (x >= 0) == (y > 0) or x == 0 else y
    r = math.fmod(x, y)
    if r != 0 and (r < 0) != (y < 0):
        r += y
    return r


def fpow(x, y):
    if x != x and y.is_integer() and y % 2 == 1:
        # C's pow squares a NaN base and negates it for an odd exponent,
        # so the result's sign is clear where Python keeps the base's.
        return math.fabs(x)
    try:
        return math.pow(x, y)
    except OverflowError:
        odd = y.is_integer() and int(y) % 2 == 1
        return -INF if x < 0 and odd else INF
    except ValueError:
        if x == 0 and y < 0:
            odd = y.is_integer() and int(y) % 2 == 1
            return math.copysign(INF, x) if odd else INF
        return NAN


def bitop(op, i, j):
    if op == 'band':
        return i & j
    if op == 'bor':
        return i | j
    if op == 'bxor':
        return i ^ j
    if op == 'shl':
        return shift_left(i, j)
    if op == 'shr':
        return shift_left(i, -j)
    if op == 'bnot':
        return ~i
    raise AssertionError(op)


def shift_left(x, n):
    """Lua's logical shift: negative ``n`` shifts right, |n| >= 64 gives 0."""
    if n <= -64 or n >= 64:
        return 0
    if n >= 0:
        return wrap((x << n) & _MASK)
    return wrap((x & _MASK) >> -n)


# -------------------------------------------------------------- comparison
def _cmp_error(a, b):
    ta, tb = objtypename(a), objtypename(b)
    if ta == tb:
        rt_error('attempt to compare two %s values' % ta)
    rt_error('attempt to compare %s with %s' % (ta, tb))


def lt(a, b):
    ca, cb = a.__class__, b.__class__
    if (ca is int or ca is float) and (cb is int or cb is float):
        return a < b
    if ca is str and cb is str:
        return a < b
    h = binary_handler(a, b, '__lt')
    if h is None:
        _cmp_error(a, b)
    r = yield from nested_call(h, (a, b), _META_NOTES['lt'])
    return bool(r) and r[0] is not None and r[0] is not False


def _lt_results(a, b):
    return ((yield from lt(a, b)),)


# ``<`` as a function value, for ``call_noyield`` to run where library code
# compares as lua_compare does from C (no yield across it).  An operation
# helper, so it is no level of Lua's stack: an error in it comes from the
# library function comparing.
LESS_THAN = GenBuiltin(_lt_results, '<')


def le(a, b):
    ca, cb = a.__class__, b.__class__
    if (ca is int or ca is float) and (cb is int or cb is float):
        return a <= b
    if ca is str and cb is str:
        return a <= b
    h = binary_handler(a, b, '__le')
    if h is not None:
        r = yield from nested_call(h, (a, b), _META_NOTES['le'])
        return bool(r) and r[0] is not None and r[0] is not False
    # lua5.4 is built with LUA_COMPAT_LT_LE: without '__le', 'a <= b' is
    # 'not (b < a)' through '__lt' (the frame still reads as metamethod 'le').
    h = binary_handler(b, a, '__lt')
    if h is None:
        _cmp_error(a, b)
    r = yield from nested_call(h, (b, a), _META_NOTES['le'])
    return not (bool(r) and r[0] is not None and r[0] is not False)


def raw_equal(a, b):
    if a is b:
        return a == a if a.__class__ is float else True
    ca, cb = a.__class__, b.__class__
    if ca is cb or ((ca is int or ca is float) and (cb is int or cb is float)):
        return a == b and ca is not Table
    return False


def eq(a, b):
    if raw_equal(a, b):
        return True
    ca = a.__class__
    if ca is b.__class__ and (ca is Table or ca is Userdata):
        return (yield from eq_meta(a, b))
    return False


def eq_tables(a, b):
    """``a == b`` for two different tables (or userdata): False when neither
    metatable has ``__eq``, else ``_CALL_NEEDED`` (then use ``eq_meta``)."""
    mt = a.meta
    if mt is not None and '__eq' in mt.hash:
        return _CALL_NEEDED
    mt = b.meta
    if mt is not None and '__eq' in mt.hash:
        return _CALL_NEEDED
    return False


def eq_meta(a, b):
    h = binary_handler(a, b, '__eq')
    if h is None:
        return False
    r = yield from nested_call(h, (a, b), _META_NOTES['eq'])
    return bool(r) and r[0] is not None and r[0] is not False


# ------------------------------------------------------------ length, concat
def length(v, note=None):
    h = metamethod(v, '__len')
    if h is not None:
        r = yield from nested_call(h, (v, v), _META_NOTES['len'])     # as Lua: the operand twice
        return r[0] if r else None
    if v.__class__ is str:
        return len(v)
    if v.__class__ is Table:
        return v.length()
    rt_error('attempt to get length of a %s value%s' % (objtypename(v), _desc(note)))


def concat_plain(values):
    """The concatenation of strings and numbers, or None when a metamethod must run."""
    parts = []
    for v in values:
        c = v.__class__
        if c is str:
            parts.append(v)
        elif c is int:
            parts.append(str(v))
        elif c is float:
            parts.append(tostr(v))
        else:
            return None
    s = ''.join(parts)
    if len(s) > 4096:
        state.running.vm.produced(len(s))
    return s


# A library result this small (at most this many pieces) is charged
# nothing beyond its call: the periodic heap measurement sees it.
SMALL_RESULT = 1024
FEW_PIECES = 64


def join_small(arr, sep=''):
    """``table.concat`` of the list part ``arr`` when it holds a few strings
    making a small one (what inlined calls do), else None."""
    if len(arr) <= FEW_PIECES:
        try:
            s = sep.join(arr)
        except TypeError:
            return None
        if len(s) <= SMALL_RESULT:
            return s
    return None


def concat(values, notes=None):
    """``values[0] .. values[1] .. ...`` evaluated right to left as Lua does."""
    notes = notes or (None,) * len(values)
    acc = values[-1]
    acc_note = notes[-1]
    for i in range(len(values) - 2, -1, -1):
        v = values[i]
        cv, ca = v.__class__, acc.__class__
        if (cv is str or cv is int or cv is float) and (ca is str or ca is int or ca is float):
            acc = (v if cv is str else tostr(v)) + (acc if ca is str else tostr(acc))
        else:
            h = binary_handler(v, acc, '__concat')
            if h is None:
                bad, note = (v, notes[i]) if not (cv is str or cv is int or cv is float) else (acc, acc_note)
                rt_error('attempt to concatenate a %s value%s' % (objtypename(bad), _desc(note)))
            r = yield from nested_call(h, (v, acc), _META_NOTES['concat'])
            acc = r[0] if r else None
        acc_note = None
    if acc.__class__ is str and len(acc) > 4096:
        state.running.vm.produced(len(acc))
    return acc


# ------------------------------------------------ metamethods, plain forms
# What the plain forms call for the operations above: a Lua function
# found as the handler of a table runs through ``meta_call``, without the
# two generators (the operation's and ``nested_call``'s) that ``SYNC``
# would drive (3.4 us a call against 1.2); every other case is the
# operation's own, run to its end.
def index_plainly(o, k, note=None):
    if o.__class__ is Table and o.meta is not None and o.get(k) is None:
        h = o.meta.hash.get('__index')
        if h.__class__ is FN:
            r = meta_call(h, (o, k), _META_NOTES['index'])
            return r[0] if r else None
    elif o.__class__ is Userdata and o.meta is not None:
        # A file's or other object's method (``f:read``), found in its
        # metatable's ``__index`` table: no generator to run.
        h = o.meta.hash.get('__index')
        if h.__class__ is Table:
            v = h.get(k)
            if v is not None:
                return v
    return sync(index(o, k, note))


def index_miss_plainly(t, k):
    h = t.meta.hash.get('__index')
    if h.__class__ is FN:
        r = meta_call(h, (t, k), _META_NOTES['index'])
        return r[0] if r else None
    return sync(index_miss(t, k))


def setindex_plainly(o, k, v, note=None):
    """``o[k] = v`` from a plain form where the inline store did not do it:
    a raw store where the metatable has no say (no ``__newindex``, or the
    key present), a Lua function handler called without generators."""
    if o.__class__ is Table:
        mt = o.meta
        h = None if mt is None else mt.hash.get('__newindex')
        if h is None or o.get(k) is not None:
            o.set(k, v)
            return
        if h.__class__ is FN:
            meta_call(h, (o, k, v), _META_NOTES['newindex'])
            return
    sync(setindex(o, k, v, note))


def arith_plainly(op, a, b, notes=(None, None)):
    if (a.__class__ is float or a.__class__ is int) and (b.__class__ is float or b.__class__ is int):
        # What translated code leaves to this (``^``, ``//`` and ``%`` of
        # floats, bitwise operators on floats, an operand's class
        # unforeseen): no generator to run.
        if op not in _BITWISE:
            return arith_num(op, a, b, notes[2] if len(notes) > 2 else None)
        i, j = toint_strict(a), toint_strict(b)
        if i is not None and j is not None:
            return bitop(op, i, j)
    h = _table_handler(a, b, _EVENTS[op])
    if h is None:
        if a.__class__ is str or b.__class__ is str:
            # A numeric string: the string metatable's host function has a
            # plain form (``plain``, on its generator function) doing the
            # arithmetic without a generator's frames; what it leaves (a
            # metamethod to call, an error) takes the general path, which
            # names the metamethod in tracebacks.
            h = binary_handler(a, b, _EVENTS[op])
            plain = getattr(h.fn, 'plain', None) if h.__class__ is GenBuiltin else None
            if plain is not None:
                try:
                    return plain(a, b)[0]
                except NeedsLua:
                    pass
        return sync(arith(op, a, b, notes))
    r = meta_call(h, (a, b), _META_NOTES[op])
    return r[0] if r else None


def _table_handler(a, b, event):
    """The Lua function handling ``event`` for ``a`` and ``b`` when one is a
    table (so that no number or string rule applies), else None; as
    ``binary_handler``, with a table's metatable read in place."""
    if a.__class__ is Table:
        mt = a.meta
        h = None if mt is None else mt.hash.get(event)
        if h is None:
            h = metamethod(b, event)
    elif b.__class__ is Table:
        h = metamethod(a, event)
        if h is None:
            mt = b.meta
            h = None if mt is None else mt.hash.get(event)
    else:
        return None
    return h if h.__class__ is FN else None


def _comparison_plainly(event, general, compare_numbers):
    """The plain twin of comparison ``general`` (``lt``, ``le``, ``eq_meta``)."""
    key, note = '__' + event, _META_NOTES[event]

    def comparison_plainly(a, b):
        if (a.__class__ is int or a.__class__ is float) and (b.__class__ is int or b.__class__ is float):
            # An integer with a float (what the inline test leaves): Python
            # compares them exactly, as Lua does.
            return compare_numbers(a, b)
        # _table_handler's first case inline: an object compared with its like.
        mt = a.meta if a.__class__ is Table else None
        h = None if mt is None else mt.hash.get(key)
        if h.__class__ is not FN:
            h = _table_handler(a, b, key)
            if h is None:
                return sync(general(a, b))
        r = meta_call(h, (a, b), note)
        return bool(r) and r[0] is not None and r[0] is not False
    return comparison_plainly


lt_plainly = _comparison_plainly('lt', lt, operator.lt)
le_plainly = _comparison_plainly('le', le, operator.le)
eq_meta_plainly = _comparison_plainly('eq', eq_meta, operator.eq)


def length_plainly(v, note=None):
    if v.__class__ is Table:
        mt = v.meta
        h = None if mt is None else mt.hash.get('__len')
        if h is None:
            return v.length()             # no metatable, or one without __len: the raw border
        if h.__class__ is FN:
            r = meta_call(h, (v, v), _META_NOTES['len'])
            return r[0] if r else None
    return sync(length(v, note))


def concat_plainly(values, notes=None):
    if len(values) == 2:
        h = _table_handler(values[0], values[1], '__concat')
        if h is not None:
            r = meta_call(h, values, _META_NOTES['concat'])
            s = r[0] if r else None
            if s.__class__ is str and len(s) > 4096:
                state.running.vm.produced(len(s))
            return s
    return sync(concat(values, notes))


def failed_operation_note(tb):
    """How Lua names xpcall's message handler for the error of traceback
    ``tb`` when an operation of Lua code raised it: the note of the
    operation's metamethod (``metamethod 'mul'``), as funcnamefromcode
    names the call made at the instruction that raised; None for any
    other error (a call's is named by its call site)."""
    after = raiser = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if lua_info(code) is not None:
            after = tb.tb_next          # what the innermost Lua frame was running
        if code.co_filename != _ERRORS_FILE:
            raiser = code
        tb = tb.tb_next
    # Raised by the operation's own fallback, not by a library function it
    # called (a string's arithmetic metamethod) nor by the numbers'
    # arithmetic (a division by zero): Lua raises those from the C function
    # or the instruction itself, where no metamethod is being called.
    if after is None or raiser is None or raiser.co_filename != __file__ or raiser is arith_num.__code__:
        return None
    frame = after.tb_frame
    event = _RAISING_EVENTS.get(frame.f_code)
    if event is not None and event.__class__ is not str:
        event = event(frame.f_locals)
    return _META_NOTES.get(event)


_ERRORS_FILE = rt_error.__code__.co_filename       # where errors are raised, for every operation


def _own_operation(names):
    return names['op']


def _compared(names):
    return names['key'][2:]


# The operation helpers by the event they serve; for those serving several,
# how their frame's variables tell it.
_RAISING_EVENTS = {f.__code__: event for f, event in (
    (index, 'index'), (index_plainly, 'index'), (index_miss, 'index'), (index_miss_plainly, 'index'),
    (setindex, 'newindex'), (setindex_plainly, 'newindex'), (length, 'len'), (length_plainly, 'len'),
    (concat, 'concat'), (concat_plainly, 'concat'), (lt, 'lt'), (le, 'le'), (eq_meta, 'eq'),
    (arith, _own_operation), (arith_plainly, _own_operation), (lt_plainly, _compared))}


# ---------------------------------------------------------------- tostring
def tostring_raw(v):
    c = v.__class__
    if c is str:
        return v
    if c is int:
        return str(v)
    if c is float:
        return tostr(v)
    if v is None:
        return 'nil'
    if v is True:
        return 'true'
    if v is False:
        return 'false'
    name = type_name(v)
    mt = getmeta(v)
    if mt is not None:
        n = mt.hash.get('__name')
        if n.__class__ is str:
            name = n
    return '%s: 0x%08x' % (name, id(v))


def tostring(v):
    h = metamethod(v, '__tostring')
    if h is not None:
        return tostring_result((yield from nested_call(h, (v,), continuation=False)))     # luaL_tolstring's lua_call
    return tostring_raw(v)


def tostring_plainly(vm, v, h):
    """``tostring`` of ``v`` whose ``__tostring`` is ``h``, where nothing
    in ``vm`` can suspend the call (``runs_plainly``): its plain form runs."""
    return tostring_result(nested_call_plainly(vm, h, (v,), None, False))


def tostring_result(r):
    """The string luaL_tolstring makes of ``__tostring``'s results ``r``."""
    s = r[0] if r else None
    if s.__class__ is not str:
        if s.__class__ is int or s.__class__ is float:
            return tostr(s)
        auxiliary_error("'__tostring' must return a string")
    return s


# ----------------------------------------------------- loops and <close>
def setlist(t, start, values):
    arr = t.arr
    if start == len(arr) and not t.hash and values and values[-1] is not None and None not in values:
        arr.extend(values)
        return
    if start <= len(arr) and values:
        hash = t.hash
        end = start + len(values)
        if len(arr) > start:
            # ``[k] =`` fields before the items appended to the list part:
            # those past the items go back to the hash, as in Lua.
            for k in range(end + 1, len(arr) + 1):
                if arr[k - 1] is not None:
                    hash[k] = arr[k - 1]
            del arr[start:]
        if hash:
            # Lua's SETLIST writes the items over whatever a ``[k] =`` field
            # of the constructor put at their indices, nil items included.
            for k in range(start + 1, end + 1):
                hash.pop(k, None)
        _constructor_array(t, values)
        n = len(arr)
        if hash and n == end:
            # luaH_getn goes on into the hash part when the array part is
            # full, so ``{1, 2, [3] = 3}`` has length 3: keep the list part
            # ending at a border by taking in the keys that follow it.
            while n + 1 in hash:
                n += 1
                arr.append(hash.pop(n))
        return
    for i, v in enumerate(values, start + 1):
        t.set_int(i, v)


def _constructor_array(t, values):
    """A constructor's list items as Lua stores them: all in the array part,
    holes included, so ``#`` finds the border luaH_getn finds there."""
    full = t.arr + list(values)
    n = len(full)
    if full[-1] is not None:
        border = n
    elif n >= 2 and full[-2] is not None:
        border = n - 1
    else:
        i, j = 0, n            # luaH_getn's binary search: full[i] set (or i = 0), full[j] nil
        while j - i > 1:
            m = (i + j) // 2
            if full[m - 1] is None:
                j = m
            else:
                i = m
        border = i
    t.arr[:] = full[:border]
    for k in range(border + 1, n + 1):
        v = full[k - 1]
        if v is not None:
            t.hash[k] = v


def forprep(start, stop, step, cost):
    """Chunks of a numeric for loop's values: ranges of integers or a float generator.

    The loop count is fixed before the first iteration, as Lua 5.4 does."""
    vm = state.running.vm
    if start.__class__ is int and step.__class__ is int:
        if step == 0:
            rt_error("'for' step is zero")
        limit = _for_limit(stop, step)
        if limit is None or (limit < start if step > 0 else limit > start):
            return ()
        count = (limit - start) // step + 1
    else:
        return (_float_loop(vm, start, stop, step, cost),)
    per = max(1, 10000 // cost)
    if count <= per:
        vm.tickn(count * cost)
        return (range(start, start + count * step, step),)
    return _chunks(vm, start, step, count, per, cost)


def _for_number(v, what):
    n = tonumber(v)
    if n is None:
        rt_error("bad 'for' %s (number expected, got %s)" % (what, objtypename(v)))
    return n


def _for_limit(stop, step):
    """The integer limit of an integer loop, clipped as forlimit does; None skips the loop."""
    stop = _for_number(stop, 'limit')
    if stop.__class__ is int:
        return stop
    if stop != stop:              # forlimit: a NaN is not above 0, so it counts as below every integer
        return None if step > 0 else MININT
    if step > 0:
        if stop < -9.3e18:
            return None
        return min(int(math.floor(stop)), MAXINT) if stop < 9.3e18 else MAXINT
    if stop > 9.3e18:
        return None
    return max(int(math.ceil(stop)), MININT) if stop > -9.3e18 else MININT


def _chunks(vm, start, step, count, per, cost):
    while count > 0:
        n = per if count > per else count
        vm.tickn(n * cost)
        yield range(start, start + n * step, step)
        start += n * step
        count -= n


def _float_loop(vm, start, stop, step, cost):
    # lua5.4 checks the limit first, then the step, then the initial value.
    stop = _for_number(stop, 'limit')
    step = _for_number(step, 'step')
    start = _for_number(start, 'initial value')
    if step == 0:
        rt_error("'for' step is zero")
    return _float_values(vm, float(start), float(stop), float(step), cost)


def _float_values(vm, x, stop, step, cost):
    # The first test is Lua's forprep's (skip when the limit is passed), the
    # others its forloop's (go on while within it): a NaN runs the body once.
    if (stop < x) if step > 0 else (x < stop):
        return
    per = max(1, 10000 // cost)
    n = 0
    while True:
        yield x
        x += step
        n += 1
        if n == per:
            n = 0
            vm.tickn(per * cost)
        if not ((x <= stop) if step > 0 else (x >= stop)):
            return


def forgen(f, s, ctl, n):
    """A Python iterator of pairs for a generic ``for`` of ``n`` variables,
    else None: for ``pairs``/``ipairs`` over plain tables, and for host
    iterators that offer one (``fn.walk(n)``, as ``string.gmatch``'s does).
    A nil second value ends an ipairs loop (an ``enumerate``) and is
    skipped by any other loop.  Lua calls the iterator as a C call: a loop
    entered with no room left on its C stack is refused."""
    if state.running.vm.c_calls >= state.C_CALLS_MAX:
        rt_error('C stack overflow')
    if s.__class__ is Table:
        if f is NEXT and ctl is None:
            return s.walk()
        if f is INEXT and ctl == 0:
            if s.meta is None or '__index' not in s.meta.hash:
                # Live over the array part (a list iterator sees appends and
                # removals); the hash part never holds the key after the
                # array part's end, and without ``__index`` nothing else
                # answers it.  The loop ends at the first nil value.
                return enumerate(s.arr, 1)
            return ipairs_through_index(s, 0)
    if f.__class__ is Builtin:
        walk = getattr(f.fn, 'walk', None)
        if walk is not None:
            return walk(n)
    return None


def ipairs_through_index(t, i):
    """``ipairs`` over a table whose metatable has ``__index`` (a class's
    instance), from index ``i + 1``: its elements read raw, and where one
    is nil through ``__index``, as ``lua_geti`` reads them; the first nil
    ends the walk.  ``ipairs``'s iterator is a C function, a level of the C
    stack that a handler runs above, where it cannot yield."""
    while True:
        arr = t.arr
        v = arr[i] if i < len(arr) else None
        i += 1
        if v is None:
            vm = state.running.vm
            vm.c_calls += 1
            try:
                v = index_plainly(t, i)
            finally:
                vm.c_calls -= 1
            if v is None:
                return
        yield i, v


def ipairs_resumed(t, kv):
    """The rest of an ipairs walk over ``t`` that ran as an enumerate of its
    list part up to ``kv`` (the first pair with a nil value, or None past
    the list's end), once ``t`` has got a metatable meanwhile: Lua reads
    each index through the table, so an ``__index`` set by the loop
    answers from there on."""
    return ipairs_through_index(t, len(t.arr) if kv is None else kv[0] - 1)


def tbc_check(v, name):
    if v is None or v is False:
        return
    if metamethod(v, '__close') is None:
        rt_error("variable '%s' got a non-closable value" % name)


def close_var(v, err):
    h = metamethod(v, '__close')
    if h is None:
        rt_error("attempt to call a nil value (metamethod 'close')")
    yield from nested_call(h, (v, err), "metamethod 'close'")


def close_error(v, exc):
    """A ``<close>`` variable's value as ``exc`` leaves its region: noted
    for the protected call that will catch the error, else closed now;
    never by ``os.exit``, unless it closes the state and the variable is
    the main thread's (lua.c exits at once, and ``lua_close`` closes the
    main thread's variables only)."""
    if v is None or v is False or leave_pending(v, exc):
        return
    if exc.__class__ is ExitRequest and (not exc.close or state.running.vm.coroutine is not None):
        return
    err = exc.value if isinstance(exc, LuaError) else None
    yield from close_var(v, err)


def _chain_iter(chunks):
    for chunk in chunks:
        yield from chunk


# Library functions the translator inlines at call sites that may call them
# (its intrinsics): the name translated code compares the callee with, and
# where the runtime finds the function (a library table's field, or a
# global for None).  Never a Lua value until installed.
INTRINSICS = {'T_INSERT': ('table', 'insert'), 'T_REMOVE': ('table', 'remove'),
              'M_SQRT': ('math', 'sqrt'), 'M_ABS': ('math', 'abs'), 'M_FLOOR': ('math', 'floor'),
              'M_MAX': ('math', 'max'), 'M_MIN': ('math', 'min'), 'T_CONCAT': ('table', 'concat'),
              'IPAIRS': (None, 'ipairs'), 'PAIRS': (None, 'pairs'), 'TOSTRING': (None, 'tostring'), 'SETMETATABLE': (None, 'setmetatable'), 'S_SUB': ('string', 'sub'), 'S_BYTE': ('string', 'byte'), 'S_LEN': ('string', 'len'),
              'TYPE': (None, 'type'), 'TONUMBER': (None, 'tonumber'), 'ASSERT': (None, 'assert'),
              'GETMETATABLE': (None, 'getmetatable'), 'RAWGET': (None, 'rawget'), 'RAWSET': (None, 'rawset')}
_NOT_INSTALLED = object()


def bind_intrinsics(vm, inline):
    """Bind the names of ``INTRINSICS`` to the library functions they stand
    for (``vm.intrinsics``), or (not ``inline``: while a debug hook must see
    every call) to nothing any callee is, so that every call is made."""
    for name, fn in vm.intrinsics.items():
        vm.ns[name] = fn if inline else _NOT_INSTALLED

# The names translated code refers to, installed as globals of each VM's namespace.
HELPERS = {
    'Table': Table, 'NEW': object.__new__, 'FN': FN, 'Builtin': Builtin, 'Userdata': Userdata,
    'NAN': NAN, 'INF': INF, 'wrap': wrap, 'index': index, 'index_miss': index_miss,
    'setindex': setindex, 'call': call, 'call_plain': call_plain, 'arith': arith, 'concat': concat,
    'eq_meta': eq_meta, 'eq_tables': eq_tables, 'lt': lt, 'le': le, 'length': length, 'adjust': adjust,
    'setlist': setlist, 'forprep': forprep, 'forgen': forgen, 'ipairs_resumed': ipairs_resumed, 'tbc_check': tbc_check,
    'close_var': close_var, 'close_error': close_error, 'chain_iter': _chain_iter,
    'shift_left': shift_left, 'NeedsLua': NeedsLua, 'SYNC': sync,
    'concat_plain': concat_plain, 'join_small': join_small, 'FLOAT_STR': fmt_float, 'index_chain': index_chain, 'string_field': string_field,
    'string_method': string_method, 'share_class_lookups': share_class_lookups,
    'STRING_LOOKUPS': NO_LOOKUPS, 'charge_growth': charge_growth,
    'TYPE_NAMES': TYPE_NAMES, 'STR2NUMBER': str2number,
    'CALL_NEEDED': _CALL_NEEDED, 'set_plain': set_plain, 'drop_nils': drop_nils,
    'SQRT': math.sqrt, 'FLOOR': math.floor, 'NOHASH': {}, 'gen_form': gen_form, 'refit': refit, 'refit_raised': refit_raised,
    'call_guessed': call_guessed,
    'finish_raised': finish_raised, 'first_result': first_result,
    'fit_args': fit_args, 'takes': takes, 'ENUMERATE': enumerate, 'COMPRESS': itertools.compress,
    'C_CALLS_MAX': state.C_CALLS_MAX, 'nested_call': nested_call,
    'index_plainly': index_plainly, 'index_miss_plainly': index_miss_plainly,
    'setindex_plainly': setindex_plainly, 'arith_plainly': arith_plainly, 'lt_plainly': lt_plainly,
    'le_plainly': le_plainly, 'eq_meta_plainly': eq_meta_plainly, 'length_plainly': length_plainly,
    'concat_plainly': concat_plainly,
    'TAIL': TAIL, 'TAILS': run_tail_calls, 'TAILSG': run_tail_calls_gen, 'tail_call': tail_call,
}
HELPERS.update(dict.fromkeys(INTRINSICS, _NOT_INSTALLED))
