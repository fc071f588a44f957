"""Engine functions as Lua sees them.

Every Engine function fails with an error value: a Failure it raises, a
memory-ceiling refusal and any fault of the Engine's own code are all
normalised here, so pcall always returns an error value for an Engine
failure.  Lua errors raised by Lua code the function called (raw strings,
tables) and the cancel interrupt pass through unchanged.

Every Engine function declares what it takes and gives: the kind
(``crossing``) of each argument (``takes``, then ``rest`` for every
argument after those) and of each result (``gives``).  The binding
converts them here, inside the guard, so the function itself sees and
returns text and plain data, and a refusal while converting (a string that
must be UTF-8, a charged value past the memory ceiling) is an error value
like any other.  Undeclared positions cross as they are.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pylua import LuaError, LuaMemoryError
from pylua.raw import ABSENT, Builtin, GenBuiltin, type_name

from .crossing import Kind
from .error_values import ErrorValues
from .failure import Failure, internal_from_exception, lua_failure

NOT_ENOUGH_MEMORY = 'not enough memory'


@dataclass(frozen=True)
class Signature:
    """The kinds of an Engine function's arguments and results."""
    takes: tuple[Kind, ...] = ()
    rest: Kind | None = None        # each argument after ``takes``
    gives: tuple[Kind, ...] = ()

    def arguments(self, args: tuple) -> tuple:
        takes, rest, n = self.takes, self.rest or _AS_IT_IS, len(self.takes)
        return tuple([(takes[i] if i < n else rest).take(value) for i, value in enumerate(args)])

    def results(self, results) -> tuple:
        gives, n = self.gives, len(self.gives)
        return tuple([gives[i].give(value) if i < n else value for i, value in enumerate(results)])



_AS_IT_IS = Kind()


def _unconverted(values):
    return values


@cache
def _converters(takes: tuple[Kind, ...], rest: Kind | None, gives: tuple[Kind, ...]):
    """What converts a function's arguments and what its results (nothing
    where nothing is declared).  A VM installs every function afresh, so
    each declaration's converters are made once."""
    signature = Signature(takes, rest, gives)
    return (signature.arguments if takes or rest else _unconverted,
            signature.results if gives else _unconverted)


def function(values: ErrorValues, name: str, fn, takes: tuple[Kind, ...] = (), rest: Kind | None = None,
             gives: tuple[Kind, ...] = ()) -> Builtin:
    arguments, results = _converters(takes, rest, gives)

    def guarded(*args):
        try:
            return results(fn(*arguments(args)))
        except BaseException as err:
            raise _normalised(values, err) from None
    return Builtin(guarded, name)


def generator(values: ErrorValues, name: str, fn, takes: tuple[Kind, ...] = (), rest: Kind | None = None,
              gives: tuple[Kind, ...] = ()) -> GenBuiltin:
    """For a function that calls Lua or suspends (``yield``)."""
    arguments, results = _converters(takes, rest, gives)

    def guarded(*args):
        try:
            return results((yield from fn(*arguments(args))))
        except BaseException as err:
            raise _normalised(values, err) from None
    return GenBuiltin(guarded, name)


def method(name: str, fn, gives: tuple[Kind, ...]) -> Builtin:
    """A metamethod of an Engine value (``__index``, ``__tostring``, a
    ``__pairs`` step): its results cross by ``gives``; it raises nothing of
    its own to guard."""
    results = _converters((), None, gives)[1]
    return Builtin(lambda *args: results(fn(*args)), name)


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
