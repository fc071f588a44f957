"""To-be-closed variables an error leaves to the protected call that catches it.

In Lua an error first unwinds to the protected call (``pcall``, ``xpcall``,
a coroutine's ``resume``, the host's call), and only then are the ``<close>``
variables of the frames it left closed, innermost first: a ``__close``
handler sees the protected call as its caller, and an ``xpcall`` message
handler runs before any of them.  Translated code's handler for a ``<close>``
region therefore only notes the variable's value on the error it lets
through; whoever catches the error closes them (``protected.py``).
"""
from __future__ import annotations

from .errors import LuaError, LuaInterrupt

#: The Python exceptions a protected call catches (an interrupt excepted):
#: Lua errors, and the VM's stack and memory running out.
CATCHABLE = (LuaError, RecursionError, MemoryError)

_PENDING = 'lua_pending_closes'


def is_catchable(exc) -> bool:
    return isinstance(exc, CATCHABLE) and not isinstance(exc, LuaInterrupt)


def leave_pending(value, exc) -> bool:
    """Leave closing ``value`` to whoever catches ``exc``, when a protected
    call will (anything else, such as a closed coroutine's GeneratorExit or
    an interrupt, closes it on the spot); whether it was left."""
    if not is_catchable(exc):
        return False
    pending = exc.__dict__.get(_PENDING)
    if pending is None:
        pending = exc.__dict__[_PENDING] = []
    pending.append(value)
    return True


def has_pending(exc) -> bool:
    return _PENDING in exc.__dict__


def take_pending(exc) -> list:
    """The values ``exc`` left to close, innermost first; they are the caller's now."""
    return exc.__dict__.pop(_PENDING, None) or []
