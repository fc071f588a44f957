"""Lua coroutines over the generator call chain.

A Lua call is ``yield from``; ``coroutine.yield`` yields a ``LuaYield``
up the chain to the nearest ``resume``.  Anything else yielded is a host
effect request: ``resume`` passes it further up (to the embedder) and sends
the answer back down, so effects cross any number of coroutines.
"""
from __future__ import annotations

import weakref
from types import FunctionType as FN

from . import state
from .errors import LuaError, LuaInterrupt
from .closing import CATCHABLE
from .frames import caller_position, helper_module, rt_error, thread_base
from .memory import COROUTINE_SIZE, STARTED_SIZE
from .ops import TAIL, call, fit_args, gen_form, run_tail_calls_gen, sync
from .protected import error_value, settle
from .values import TYPE_NAMES, always_suspends


helper_module(__file__)


class LuaYield:
    __slots__ = ('values',)

    def __init__(self, values):
        self.values = values


class Coroutine:
    __slots__ = ('fn', 'gen', 'status', 'error', 'failure', 'resumes', 'failed_at', 'anchor', '__weakref__')

    def __init__(self, fn):
        self.fn = fn
        self.gen = None
        self.status = 'suspended'
        self.error = None
        # The error it died of, until closed: the <close> variables it left
        # pending close when the coroutine is closed, as in Lua.
        self.failure = None
        # Resumes after a yield: Lua unrolls the calls a yield suspended
        # without its C stack, so the levels they took are not counted
        # after it (``nested_call`` compares this count).
        self.resumes = 0
        self.failed_at = None         # the traceback of the error it died of: its stack, for debug


def live_coroutines(vm):
    s = getattr(vm, 'coroutines', None)
    if s is None:
        s = vm.coroutines = weakref.WeakSet()
    return s


def create(fn):
    co = Coroutine(fn)
    vm = state.running.vm
    live_coroutines(vm).add(co)
    # A heap of coroutines is measured in time (the periodic walk alone
    # comes later the bigger the heap).
    vm.charge(COROUTINE_SIZE)
    return co


def resume(co, args):
    """Generator: resume ``co``; returns (True, values...) or (False, error)."""
    if co.status == 'dead':
        return (False, 'cannot resume dead coroutine')
    if co.status != 'suspended':
        return (False, 'cannot resume non-suspended coroutine')
    vm = state.running.vm
    if vm.c_calls >= state.C_CALLS_MAX:
        return (False, 'C stack overflow')
    prev = vm.coroutine
    if prev is not None:
        prev.status = 'normal'
    co.status = 'running'
    vm.coroutine = co
    c_calls = vm.c_calls
    vm.c_calls = c_calls + 1
    no_yield = vm.no_yield
    vm.no_yield = 0                   # a coroutine yields to its own resume
    body = co.fn                      # held here for the debug library: the function at its level
    try:
        if co.gen is None:
            co.gen = _body(body, args)
            vm.charge(STARTED_SIZE)
            value = None
        else:
            value = args
            co.resumes += 1
        error = None
        while True:
            try:
                if error is None:
                    y = co.gen.send(value)
                else:
                    y = co.gen.throw(error)
            except StopIteration as stop:
                r = stop.value
                if r.__class__ is not tuple:
                    r = (r,) if body.__class__ is FN else tuple(r or ())
                elif r and r[0] is TAIL:
                    co.gen = run_tail_calls_gen(r, False)
                    value = None
                    continue
                co.status = 'dead'
                return (True,) + r
            except LuaInterrupt:
                co.status = 'dead'
                raise
            except CATCHABLE as e:
                co.status = 'dead'
                vm.unwound(e.__traceback__)
                # Kept without this frame's entry: the frame holds ``co``, and
                # that cycle left every failed coroutine, its frames and their
                # values to Python's full collections (50 ms each, unchecked).
                e.__traceback__ = e.__traceback__.tb_next
                co.error = error_value(e)
                co.failure = e
                co.failed_at = e.__traceback__
                return (False, co.error)
            if y.__class__ is LuaYield:
                co.status = 'suspended'
                return (True,) + tuple(y.values)
            # A host effect: suspend the caller's chain too, then pass the answer down.
            vm.coroutine = prev
            try:
                value = yield y
                error = None
            except BaseException as exc:      # the embedder answered with an error
                value = None
                error = exc
            vm.coroutine = co
    finally:
        vm.c_calls = c_calls
        vm.no_yield = no_yield
        if co.status == 'running':
            co.status = 'dead'
        vm.coroutine = prev
        if prev is not None:
            prev.status = 'running'


thread_base(resume.__code__)


def _body(fn, args):
    """The generator a coroutine runs: its Lua function's generator form
    itself, which returns what a Lua function returns (``resume`` finishes
    it as a call site does), else ``call``'s.  Under ``call``, every value
    passed in or out of the coroutine went through one frame more."""
    if fn.__class__ is FN:
        return (getattr(fn, 'gen', None) or gen_form(fn))(*fit_args(fn, args))
    return call(fn, args)


@always_suspends
def yield_(*args):
    """``coroutine.yield``: suspend the running coroutine with ``args``;
    returns what the next resume passes."""
    vm = state.running.vm
    # lua_yieldk's luaG_runerror, from a C function: no position.
    if vm.coroutine is None:
        raise LuaError('attempt to yield from outside a coroutine')
    if vm.no_yield:
        raise LuaError('attempt to yield across a C-call boundary')
    return (yield LuaYield(args))


def close(co):
    if co.status in ('running', 'normal'):
        rt_error('cannot close a %s coroutine' % co.status)
    gen, co.gen = co.gen, None
    failure, co.failure = co.failure, None
    if gen is not None or failure is not None:
        # Its pending to-be-closed variables close inside it: those of a
        # suspended one as its frames end, those an error left after it.
        vm = state.running.vm
        prev = vm.coroutine
        if prev is not None:
            prev.status = 'normal'
        co.status = 'running'
        vm.coroutine = co
        try:
            if gen is not None:
                gen.close()
        except LuaInterrupt:
            raise
        except CATCHABLE as e:
            failure = e
        try:
            if failure is not None:
                co.error = sync(settle(failure)).value
        finally:
            vm.coroutine = prev
            if prev is not None:
                prev.status = 'running'
    co.status = 'dead'
    if failure is not None:
        err, co.error = co.error, None
        return (False, err)
    return (True,)


def died_of_error(co) -> bool:
    """Did ``co`` end by an error it has not yet been closed after?"""
    return co.failure is not None


def wrap_error(value):
    """``coroutine.wrap`` re-raises errors with the caller's position for strings."""
    if value.__class__ is str:
        value = caller_position() + value
    raise LuaError(value)


TYPE_NAMES[Coroutine] = 'thread'
