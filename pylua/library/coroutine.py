"""The coroutine library."""
from __future__ import annotations

from ..runtime import coroutine as co_rt
from ..runtime import state
from ..runtime.frames import rt_error
from ..runtime.table import LuaTable
from ..runtime.values import Builtin, GenBuiltin, hybrid, is_function
from .args import ABSENT, type_error


def _check_co(v, n, fname):
    if v.__class__ is not co_rt.Coroutine:
        type_error(n, fname, 'thread', v)
    return v


def create(f=ABSENT, *_):
    if not is_function(f):
        type_error(1, 'create', 'function', f)
    return (co_rt.create(f),)


def resume(co=ABSENT, *args):
    # Returns the resume's generator rather than being one: a frame less
    # for every value passed in and out.
    _check_co(co, 1, 'resume')
    return co_rt.resume(co, args)


def _status(co):
    """A coroutine's status; the main one is 'normal' while another runs."""
    vm = state.running.vm
    if co is getattr(vm, 'main_coroutine', None) and vm.coroutine is not None:
        return 'normal'
    return co.status


def status(co=ABSENT, *_):
    _check_co(co, 1, 'status')
    return (_status(co),)


def running(*_):
    vm = state.running.vm
    if vm.coroutine is None:
        return (main_coroutine(vm), True)
    return (vm.coroutine, False)


def main_coroutine(vm):
    main = getattr(vm, 'main_coroutine', None)
    if main is None:
        main = vm.main_coroutine = co_rt.Coroutine(None)
        main.status = 'running'
    return main


def isyieldable(co=ABSENT, *_):
    vm = state.running.vm
    if co is ABSENT:
        return (vm.coroutine is not None and not vm.no_yield,)
    _check_co(co, 1, 'isyieldable')
    # Any coroutine but the main one can yield (when it runs).
    return (co is not getattr(vm, 'main_coroutine', None),)


def close(co=ABSENT, *_):
    _check_co(co, 1, 'close')
    if _status(co) == 'normal':
        rt_error('cannot close a normal coroutine')
    return co_rt.close(co)


def wrap(f=ABSENT, *_):
    if not is_function(f):
        type_error(1, 'wrap', 'function', f)
    co = co_rt.create(f)

    def wrapped(*args):
        r = yield from co_rt.resume(co, args)
        if r[0] is True:
            return r[1:]
        if co_rt.died_of_error(co):
            r = co_rt.close(co)       # its pending variables close first, as in Lua
        co_rt.wrap_error(r[1])

    return (hybrid(wrapped, 'wrap'),)


def make(vm) -> LuaTable:
    t = LuaTable()
    for name, fn in (('create', create), ('status', status), ('running', running),
                     ('isyieldable', isyieldable), ('close', close), ('wrap', wrap)):
        t.set_str(name, Builtin(fn, name))
    t.set_str('resume', GenBuiltin(resume, 'resume'))
    t.set_str('yield', GenBuiltin(co_rt.yield_, 'yield'))
    return t
