"""Engine functions as Lua sees them.

Every Engine function fails with an error value: a Failure it raises, a
memory-ceiling refusal and any fault of the Engine's own code are all
normalised here, so pcall always returns an error value for an Engine
failure.  Lua errors raised by Lua code the function called (raw strings,
tables) and the cancel interrupt pass through unchanged.
"""
from __future__ import annotations

from pylua import LuaError, LuaMemoryError
from pylua.raw import ABSENT, Builtin, GenBuiltin, type_name

from .error_values import ErrorValues
from .failure import Failure, internal_from_exception, lua_failure

NOT_ENOUGH_MEMORY = 'not enough memory'


def function(values: ErrorValues, name: str, fn) -> Builtin:
    def guarded(*args):
        try:
            return fn(*args)
        except BaseException as err:
            raise _normalised(values, err) from None
    return Builtin(guarded, name)


def generator(values: ErrorValues, name: str, fn) -> GenBuiltin:
    """For a function that calls Lua or suspends (``yield``)."""
    def guarded(*args):
        try:
            return (yield from fn(*args))
        except BaseException as err:
            raise _normalised(values, err) from None
    return GenBuiltin(guarded, name)


def _normalised(values: ErrorValues, err: BaseException) -> BaseException:
    if isinstance(err, Failure):
        return values.error(err)
    if isinstance(err, (LuaMemoryError, MemoryError)):
        return values.error(lua_failure(NOT_ENOUGH_MEMORY))
    if isinstance(err, RecursionError):
        return values.error(lua_failure('stack overflow'))
    if isinstance(err, (LuaError, GeneratorExit)) or not isinstance(err, Exception):
        return err
    return values.error(internal_from_exception(err))


def bad_argument(position: int, name: str, expected: str, value) -> Failure:
    got = 'no value' if value is ABSENT else type_name(value)
    return lua_failure("bad argument #%d to '%s' (%s expected, got %s)" % (position, name, expected, got))
