"""What a protected call does with the error it catches (Lua's luaD_pcall).

The erroring frames are gone; the message handler (``xpcall``'s), if any,
runs first, seeing the stack as it was at the error (``stack.handling``);
then the ``<close>`` variables the error left pending (``closing.py``) are
closed, each given the error value so far.  An error in a ``__close``
handler replaces it (after the message handler), and its own pending
variables close first.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import ops, state
from .closing import CATCHABLE, has_pending, take_pending
from .errors import LuaError, LuaInterrupt
from .frames import overflow_message


def error_value(exc):
    """The Lua error value a protected call reports for ``exc``."""
    if isinstance(exc, LuaError):
        return exc.value
    if isinstance(exc, RecursionError):
        return overflow_message(exc)
    return 'not enough memory'


def plain(exc):
    """The message handler of a call without one: the error value as it is."""
    return error_value(exc)
    yield


@dataclass(frozen=True)
class Settled:
    """How an error ended at a protected call: the last error raised
    (the first one, unless a ``__close`` handler raised another) and the
    value the call reports for it."""
    error: BaseException
    value: object


def settle(exc, handle=plain):
    """Generator: close what ``exc`` left pending; ``handle(error)`` (a
    generator) gives the value reported for each error.  Returns ``Settled``.
    The unwinding that brought ``exc`` here is counted as work first."""
    state.running.vm.unwound(exc.__traceback__)
    value = yield from handle(exc)
    pending = take_pending(exc)
    while pending:
        closing = pending.pop(0)
        try:
            yield from ops.close_var(closing, value)
        except LuaInterrupt:
            raise
        except CATCHABLE as again:
            exc = again
            value = yield from handle(again)
            pending[:0] = take_pending(again)
    return Settled(exc, value)


def settled_plainly(exc):
    """``settle(exc).value`` for an error that left nothing to close
    (``has_pending`` is false) and has no message handler, without a
    generator: the common ``pcall`` that fails."""
    state.running.vm.unwound(exc.__traceback__)
    return error_value(exc)


def run_protected(gen, handle=plain, handled=has_pending, reported=None):
    """Generator: run ``gen`` as the host's protected call (lua.c's
    ``lua_pcall`` with message handler ``handle``, as ``settle`` takes
    it): an error for which ``handled(error)`` holds (by default, one
    leaving pending variables) is settled, then the last error raised
    leaves, as ``reported(settled)`` makes it (by default, unchanged)."""
    try:
        return (yield from gen)
    except LuaInterrupt:
        raise
    except CATCHABLE as exc:
        if not handled(exc):
            raise
        settled = yield from settle(exc, handle)
    raise settled.error if reported is None else reported(settled)
